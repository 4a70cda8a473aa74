//! Playing levels (`UCI_LimitStrength` with `UCI_Elo`): a weaker Betacut that still plays like
//! a player, not like a program that blunders on purpose.
//!
//! A level weakens the engine two ways. It searches a node budget that grows with the Elo
//! (seeing less deep, as a weaker player does), and it looks at the best few moves (MultiPV)
//! and picks one at random, weighted by `exp((score - best) / temperature)`: moves close to the
//! best are chosen often, clearly worse ones rarely, and none that loses more than the level's
//! limit against the best move (no hanging the queen for nothing). The temperature and the
//! limit fall as the Elo rises. It does not think slower: time limits are untouched. The pick
//! is seeded (per game and position), so a game replays the same with the same seed.
//!
//! A level's parameters follow one internal strength `t` (0 the weakest, 1 the strongest); the
//! Elo scale maps onto `t` through [`CALIBRATION`], measured against Fairy-Max 5.0b (rated about
//! 1940 on CCRL's 40/40 list as micro-Max 4.8, which it is in normal chess) at 10+0.1: see
//! docs/experiments.md.

use super::events::SearchKind;
use super::running::SearchRequest;
use crate::board::Move;
use crate::search::score::is_mate;
use crate::search::{SearchLimits, SearchResult};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The lowest level.
pub const MIN_ELO: u32 = 800;
/// The highest level (above it, full strength is the only sensible setting).
pub const MAX_ELO: u32 = 2800;
/// The level at start-up (used once `UCI_LimitStrength` is switched on).
pub const DEFAULT_ELO: u32 = 1500;

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The level's Elo.
    pub elo: u32,
    /// Node budget of a move.
    pub nodes: u64,
    /// Lines searched to choose from.
    pub lines: usize,
    /// Temperature of the weighted pick, in centipawns.
    pub temperature: f64,
    /// The most a chosen move may score below the best one, in centipawns.
    pub max_loss: i32,
}

/// The Elo (Fairy-Max = 1940) the internal strength `t` plays at, smoothed from matches at 10+0.1
/// (2026-11-25, docs/experiments.md, "Playing levels"): against Fairy-Max, `t` = 0.5 scored 0.5/20,
/// 0.541 2/40, 0.6 6/20, 0.645 14.5/40, 0.65 10.5/20, 0.7 11.5/20, 0.739 33.5/40, 0.75 17/20;
/// against Phalanx XXV, 0.732 4.5/40, 0.818 12.5/40, 0.838 13.5/40, 0.919 29.5/40. Phalanx is put
/// at 2530: 359 above the `t` = 0.73 level that plays at 2225 against Fairy-Max (its direct match
/// with Fairy-Max, 36-1-3, gives 2347 with a far wider margin). Full strength (`t` = 1, a million
/// nodes) is put at 2980, 449 above Phalanx (full Betacut against Phalanx: 90-6-4). Below 1300 the
/// scale is the measured slope extended. The table is monotonic.
pub const CALIBRATION: [(u32, f64); 8] = [
    (800, 0.398),
    (1300, 0.5),
    (1430, 0.545),
    (1800, 0.61),
    (2225, 0.74),
    (2400, 0.83),
    (2710, 0.919),
    (2980, 1.0),
];

/// The internal strength (0..=1) of the level `elo`, interpolated in [`CALIBRATION`].
pub fn strength(elo: u32) -> f64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    CALIBRATION
        .windows(2)
        .find(|pair| elo <= pair[1].0)
        .map_or(1.0, |pair| {
            let ((e0, t0), (e1, t1)) = (pair[0], pair[1]);
            t0 + (t1 - t0) * f64::from(elo - e0) / f64::from(e1 - e0)
        })
}

/// True if a playing level applies to `request`: the engine's own move or a ponder search,
/// not analysis, an infinite search, a mate search or a search of chosen root moves.
pub fn applies(request: &SearchRequest) -> bool {
    request.kind != SearchKind::Analyze
        && !request.limits.infinite
        && request.limits.mate.is_none()
        && request.limits.excluded.is_empty()
}

impl Level {
    /// The level for `elo` (clamped to [`MIN_ELO`]..=[`MAX_ELO`]).
    pub fn from_elo(elo: u32) -> Level {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let t = strength(elo);
        let nodes = (30.0 * (1_000_000.0f64 / 30.0).powf(t)).round() as u64;
        Level {
            elo,
            nodes,
            lines: 4,
            temperature: 5.0 + 150.0 * (1.0 - t).powf(1.5),
            max_loss: (80.0 + 320.0 * (1.0 - t)).round() as i32,
        }
    }

    /// Limits a search to the level: its lines to choose from, and its node budget (or the
    /// search's own, if smaller).
    pub fn limit(&self, limits: &mut SearchLimits) {
        limits.multipv = limits.multipv.max(self.lines);
        limits.nodes = Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes)));
    }

    /// Replaces the result's move by the level's pick among its lines (with `seed`), with the
    /// score of that line; its PV is then the move alone.
    pub fn choose_for(&self, result: &mut SearchResult, seed: u64) {
        let Some(mv) = self.choose(&result.lines, seed) else {
            return;
        };
        if mv != result.best_move {
            result.score = result
                .lines
                .iter()
                .find(|&&(m, _)| m == mv)
                .map_or(result.score, |&(_, s)| s);
            result.best_move = mv;
            result.ponder_move = None;
            result.pv = vec![mv];
        }
    }

    /// Picks a move among `lines` (root move, score; best first) with `seed`. Mates are
    /// never given away: when the best line mates, it is played; a line that is mated is only
    /// chosen when every line is.
    pub fn choose(&self, lines: &[(Move, i32)], seed: u64) -> Option<Move> {
        let &(best_move, best) = lines.first()?;
        if is_mate(best) && best > 0 {
            return Some(best_move);
        }
        let candidates: Vec<(Move, f64)> = lines
            .iter()
            .filter(|&&(_, score)| {
                best - score <= self.max_loss && !(is_mate(score) && score < 0 && best > score)
            })
            .map(|&(mv, score)| (mv, (f64::from(score - best) / self.temperature).exp()))
            .collect();
        let total: f64 = candidates.iter().map(|&(_, w)| w).sum();
        if candidates.is_empty() || total.is_nan() || total <= 0.0 {
            return Some(best_move);
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pick = rng.gen::<f64>() * total;
        for &(mv, weight) in &candidates {
            if pick < weight {
                return Some(mv);
            }
            pick -= weight;
        }
        candidates.last().map(|&(mv, _)| mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::search::score::MATE;

    #[test]
    fn levels_grow_stronger_with_the_elo() {
        let mut previous = Level::from_elo(MIN_ELO);
        assert!((strength(MIN_ELO) - 0.398).abs() < 1e-9);
        assert!((strength(1300) - 0.5).abs() < 1e-9);
        assert!((strength(1430) - 0.545).abs() < 1e-9);
        assert!((strength(2710) - 0.919).abs() < 1e-9);
        assert!(strength(MAX_ELO) < 1.0);
        for pair in CALIBRATION.windows(2) {
            assert!(pair[0].0 < pair[1].0 && pair[0].1 < pair[1].1, "monotonic");
        }
        for elo in (MIN_ELO + 100..=MAX_ELO).step_by(100) {
            let level = Level::from_elo(elo);
            assert!(level.nodes > previous.nodes, "{elo}");
            assert!(level.temperature < previous.temperature, "{elo}");
            assert!(level.max_loss < previous.max_loss, "{elo}");
            previous = level;
        }
        assert!(Level::from_elo(MAX_ELO).nodes > 500_000);
        assert_eq!(Level::from_elo(0), Level::from_elo(MIN_ELO));
    }

    #[test]
    fn the_pick_prefers_good_moves_and_never_throws_a_game_away() {
        let pos = Position::startpos();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().take(4).collect();
        let lines = vec![
            (moves[0], 30),
            (moves[1], 10),
            (moves[2], -40),
            (moves[3], -900),
        ];
        let level = Level::from_elo(1200);
        let mut counts = [0usize; 4];
        for seed in 0..2000 {
            let Some(mv) = level.choose(&lines, seed) else {
                panic!("a move");
            };
            let i = moves.iter().position(|&m| m == mv).unwrap_or(3);
            counts[i] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(
            counts[2] > 0,
            "weaker moves are played sometimes: {counts:?}"
        );
        assert_eq!(counts[3], 0, "a move losing 930 cp is never chosen");
        // The same seed, the same move.
        assert_eq!(level.choose(&lines, 7), level.choose(&lines, 7));
        // A mate is always taken; a mated line is avoided while another line is not mated.
        let mate = vec![(moves[0], MATE - 3), (moves[1], 500)];
        assert_eq!(Level::from_elo(MIN_ELO).choose(&mate, 1), Some(moves[0]));
        let mated = vec![(moves[0], -50), (moves[1], -(MATE - 4))];
        for seed in 0..200 {
            assert_eq!(
                Level::from_elo(MIN_ELO).choose(&mated, seed),
                Some(moves[0])
            );
        }
        assert_eq!(level.choose(&[], 1), None);
    }
}
