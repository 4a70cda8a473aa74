//! Time management: turns the limits of a search into a soft limit (do not start another
//! iteration after it) and a hard limit (abort the search at it).

use super::limits::{Clock, SearchLimits};
use std::time::Duration;

/// Smallest think time we ever plan for, so a nearly empty clock still produces a move.
const MIN_THINK: Duration = Duration::from_millis(1);
/// Moves we assume remain in a sudden-death game when budgeting, and the most a session's
/// moves to go are counted as. Fewer than most games last: early moves, which shape the game,
/// get more time, and the clock drains geometrically, so it never runs out (24 won an SPRT
/// against 30; 20, together with [`NEXT_ITERATION_SHARE`] 0.9 and the whole increment, won
/// one against 24).
const SUDDEN_DEATH_HORIZON: u32 = 20;

/// From this move on a game without moves to go is planned over fewer moves, falling by one
/// every [`HORIZON_MOVES_PER_STEP`] moves down to [`LATE_HORIZON`]. A settled search starts
/// no iteration after about 0.4 of its soft limit (remaining / horizon plus the increment), so
/// late in a game it spends about the increment while a bank of about 1.4 x horizon
/// increments stays on the clock: with a fixed horizon of 20 that bank is never spent
/// (Betacut used 88 % of its clock where Ethereal 12.00 used 98 %, at 10+0.1, almost all the
/// difference in moves 1-40). The early moves keep their time: planning every move at twice
/// the share spent the clock early and lost (lab/branches, `clock-share`).
const HORIZON_FALLS_FROM_MOVE: u32 = 20;
/// Moves a game goes on for every move the horizon falls by after [`HORIZON_FALLS_FROM_MOVE`].
const HORIZON_MOVES_PER_STEP: u32 = 3;
/// The shortest horizon of a game without moves to go (from move 62 with the values above).
const LATE_HORIZON: u32 = 6;

/// Moves a game without moves to go is planned over at move `move_number` (the position's
/// fullmove number): [`SUDDEN_DEATH_HORIZON`] up to move [`HORIZON_FALLS_FROM_MOVE`], then one
/// less every [`HORIZON_MOVES_PER_STEP`] moves, never below [`LATE_HORIZON`].
pub fn sudden_death_horizon(move_number: u32) -> u32 {
    let fallen = move_number.saturating_sub(HORIZON_FALLS_FROM_MOVE) / HORIZON_MOVES_PER_STEP;
    SUDDEN_DEATH_HORIZON
        .saturating_sub(fallen)
        .max(LATE_HORIZON)
}

/// Below this increment (or below the move overhead, if that is larger) a game-long control is
/// played as sudden death: every move costs the clock about a millisecond beyond its thinking
/// (the interface, the pipes, the search's start and end), which such an increment does not pay
/// back. At 2+0 Betacut's late moves drained the clock by that millisecond a move until it lost
/// on time at move 92 with no margin (fastchess, 2026-12-07), where Ethereal 12.00 kept about
/// 240 ms. An increment below the overhead adds nothing to the plan either, and at 1+0.01 both
/// Betacut and Stockfish lived on about 100 ms of clock, where one stall of 100 ms lost a game
/// in 1,000 (docs/log/search.md).
const SUDDEN_DEATH_INCREMENT: Duration = Duration::from_millis(5);
/// What a game without increment never plans to use: the moves' own cost (about 1 ms each) for
/// the 250 or so moves a game can still last, so its remaining moves cannot drain it.
const SUDDEN_DEATH_RESERVE: Duration = Duration::from_millis(250);
/// What a game whose increment is below the overhead (1+0.01 with the default 50 ms) never
/// plans to use: its increment repays each move's own cost, so the reserve is only for a stall
/// of the process (100 ms seen once in 1,000 games at 1+0.01 on a quiet machine). With the
/// 250 ms of a game without increment Betacut used 71.7 % of its clock at 1+0.01, Stockfish
/// 15.1 92.4 % (200 games, 2026-12-07).
const STALL_RESERVE: Duration = Duration::from_millis(150);
/// What each move costs the clock beyond its thinking (the interface, the pipes, the search's
/// start and end) when an increment below the overhead is planned with: that increment less
/// this is spent on every move.
const MOVE_COST: Duration = Duration::from_millis(2);
/// A move of a game without increment takes at most this share of what the clock has beyond
/// its overhead and reserve (a twelfth): no early move spends a tenth of the clock, however
/// unsure its search (PyChess, 5+0: 29.4 s of 300 on move 3, 2026-12-07).
const SUDDEN_DEATH_MOST_A_MOVE: u32 = 12;

/// Share of the scaled soft limit before which a new iteration may still start. An iteration
/// usually takes longer than all before it together, so starting one late overshoots the soft
/// limit; the share 0.6 left Betacut using 77 % of its clock at 10+0.1 (Ethereal 12: 98 %),
/// 0.9 with the changes above about 90 %.
const NEXT_ITERATION_SHARE: f64 = 0.9;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The planned think time: the search scales it by how stable the best move is (never past
    /// `hard`) and starts no new iteration after [`TimeBudget::iteration_deadline`].
    pub soft: Duration,
    /// The search is aborted at this point.
    pub hard: Duration,
    /// A fixed time per move (XBoard `st`): searched in full, never cut short by the soft
    /// limit.
    pub fixed: bool,
}

impl TimeBudget {
    /// The budget for `limits` at move `move_number` of the game (the root's fullmove number),
    /// or `None` when no time limit applies (depth, nodes, infinite).
    pub fn from_limits(limits: &SearchLimits, move_number: u32) -> Option<TimeBudget> {
        let overhead = planned_overhead(limits);
        let movetime = limits.movetime.map(|t| {
            let t = t.saturating_sub(overhead).max(MIN_THINK);
            TimeBudget {
                soft: t,
                hard: t,
                fixed: true,
            }
        });
        let clock = limits.clock.map(|clock| {
            let to_go = clock.moves_to_go.filter(|&m| m > 0);
            let sudden_death =
                to_go.is_none() && clock.increment < SUDDEN_DEATH_INCREMENT.max(overhead);
            // An increment too small to repay the overhead still repays each move's own cost:
            // what is left of it is spent on every move, beside a reserve for stalls only.
            let repaid = if sudden_death && clock.increment >= SUDDEN_DEATH_INCREMENT {
                clock.increment.saturating_sub(MOVE_COST)
            } else {
                Duration::ZERO
            };
            let clock = planning_clock(clock, overhead, limits.gui_lag);
            // Never plan to use more than what is on the clock minus the overhead, and keep a
            // reserve for the rest of the control: in sudden death what the remaining moves
            // cost (or, when an increment repays that, what a stall takes), planned over a
            // horizon that does not fall late in the game (no increment refills what a short
            // horizon spends).
            let reserve = match (sudden_death, repaid.is_zero()) {
                (false, _) => Duration::ZERO,
                (true, true) => SUDDEN_DEATH_RESERVE,
                (true, false) => STALL_RESERVE,
            };
            let available = clock
                .remaining
                .saturating_sub(overhead)
                .saturating_sub(reserve);
            let moves = match to_go {
                Some(to_go) => to_go.min(SUDDEN_DEATH_HORIZON),
                None if sudden_death => SUDDEN_DEATH_HORIZON,
                None => sudden_death_horizon(move_number),
            };
            let base = available / moves + clock.increment + repaid;
            // When the last move of a control is near, spend more per move but never the last
            // fraction of the clock.
            let cap = if moves <= 1 {
                available.mul_f64(0.8)
            } else {
                available.mul_f64(0.5)
            };
            // In sudden death a twelfth of the rest at most, and the increment that repays the
            // move (never more than half of what the reserve leaves: the increment refills it).
            let cap = if sudden_death {
                (available / SUDDEN_DEATH_MOST_A_MOVE + repaid).min((available + reserve) / 2)
            } else {
                cap
            };
            let soft = base.min(cap).max(MIN_THINK);
            let hard = (base * 4).min(cap).max(soft);
            TimeBudget {
                soft,
                hard,
                fixed: false,
            }
        });
        match (movetime, clock) {
            (Some(a), Some(b)) => Some(TimeBudget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
                fixed: false,
            }),
            (a, b) => a.or(b),
        }
    }

    /// The time after which no new iteration starts: the soft limit scaled by `factor` (from
    /// [`soft_scale`]), never past the hard limit, times `NEXT_ITERATION_SHARE` (0.9).
    pub fn iteration_deadline(&self, factor: f64) -> Duration {
        self.soft
            .mul_f64(factor)
            .min(self.hard)
            .mul_f64(NEXT_ITERATION_SHARE)
    }
}

/// The delay expected on every move: the larger of the user's move overhead and the measured
/// interface delay; none in `nps` mode, where time is counted in nodes.
pub fn planned_overhead(limits: &SearchLimits) -> Duration {
    if limits.nps.is_some() {
        Duration::ZERO
    } else {
        limits.move_overhead.max(limits.gui_lag)
    }
}

/// The clock the budget is planned on. Every later move of the control will lose `overhead`
/// too, so a conventional control keeps that back for each of them, and the increment counts
/// only as far as it exceeds the delay. In a game-long control, when the measured interface
/// delay `lag` exceeds the increment, every move drains the clock by the difference however
/// little the engine thinks: that drain for the next `DRAIN_HORIZON` (40) moves (at most half
/// the clock) is kept back as well.
pub fn planning_clock(clock: Clock, overhead: Duration, lag: Duration) -> Clock {
    let reserve = match clock.moves_to_go {
        Some(m) => overhead.saturating_mul(m.saturating_sub(1)),
        None => lag
            .saturating_sub(clock.increment)
            .saturating_mul(DRAIN_HORIZON)
            .min(clock.remaining / 2),
    };
    Clock {
        remaining: clock.remaining.saturating_sub(reserve),
        increment: clock.increment.saturating_sub(overhead),
        moves_to_go: clock.moves_to_go,
    }
}

/// Moves ahead for which a game-long control keeps back what the interface's delay takes
/// beyond the increment.
const DRAIN_HORIZON: u32 = 40;

/// The node budget of a fixed time per move in `nps` mode (time measured in nodes).
pub fn nps_node_budget(movetime: Duration, nps: u64) -> u64 {
    (movetime.as_secs_f64() * nps as f64).ceil().max(1.0) as u64
}

/// The time a search has used: wall clock, or `nodes / nps` in `nps` mode.
pub fn time_used(elapsed: Duration, nodes: u64, nps: Option<u64>) -> Duration {
    match nps {
        Some(rate) if rate > 0 => Duration::from_secs_f64(nodes as f64 / rate as f64),
        _ => elapsed,
    }
}

/// How much of the soft limit to use, given how the search has gone so far: `stable`
/// iterations in a row with the same best move, the share of all nodes spent on that move
/// (`best_move_share`, 0..=1: a move that took most of the effort is rarely overturned), and
/// how far the score fell since the previous iteration (`score_drop`, centipawns, negative
/// for a rise: a falling score means trouble worth more thought). Always within 0.3..=2.5.
pub fn soft_scale(stable: u32, best_move_share: f64, score_drop: i32) -> f64 {
    let stability = match stable {
        0 => 1.5,
        1 => 1.1,
        2 | 3 => 0.9,
        _ => 0.6,
    };
    let effort = (1.6 - best_move_share.clamp(0.0, 1.0)) * 1.1;
    let trouble = 1.0 + f64::from(score_drop.clamp(-30, 60)) / 120.0;
    (stability * effort * trouble).clamp(0.3, 2.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    fn clock(ms: u64, inc_ms: u64, mtg: Option<u32>) -> SearchLimits {
        SearchLimits {
            clock: Some(Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc_ms),
                moves_to_go: mtg,
            }),
            move_overhead: Duration::from_millis(20),
            ..SearchLimits::default()
        }
    }

    /// A game-long control (no moves to go) with `remaining` on the clock, the default 50 ms
    /// move overhead.
    fn game_long(remaining: Duration, increment: Duration) -> SearchLimits {
        SearchLimits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go: None,
            }),
            move_overhead: Duration::from_millis(50),
            ..SearchLimits::default()
        }
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        for (ms, inc, mtg) in [
            (1_000, 10, None),
            (50, 10, None),
            (10_000, 0, Some(40)),
            (300, 0, Some(1)),
            (5, 0, None),
        ] {
            for move_number in [1, 30, 60, 200] {
                let Some(b) = TimeBudget::from_limits(&clock(ms, inc, mtg), move_number) else {
                    panic!("clock limits give a budget");
                };
                assert!(b.soft <= b.hard);
                for factor in [0.3, 1.0, 2.5] {
                    assert!(b.iteration_deadline(factor) <= b.hard, "{factor}: {b:?}");
                }
                let left = Duration::from_millis(ms).saturating_sub(Duration::from_millis(20));
                assert!(b.hard <= left.max(MIN_THINK), "{ms} {inc} {mtg:?}: {b:?}");
            }
        }
    }

    #[test]
    fn later_moves_keep_their_delay_and_a_draining_delay_is_reserved() {
        let ms = Duration::from_millis;
        // 40 moves to go: 39 later moves keep their 100 ms delay in reserve.
        let clock = Clock {
            remaining: ms(19_000),
            increment: Duration::ZERO,
            moves_to_go: Some(40),
        };
        assert_eq!(planning_clock(clock, ms(100), ms(0)).remaining, ms(15_100));
        // A measured delay of 80 ms against a 50 ms increment: 40 moves of 30 ms are kept
        // back (at most half the clock), and no increment is planned with.
        let clock = Clock {
            remaining: ms(10_000),
            increment: ms(50),
            moves_to_go: None,
        };
        let planned = planning_clock(clock, ms(80), ms(80));
        assert_eq!((planned.remaining, planned.increment), (ms(8_800), ms(0)));
        let small = Clock {
            remaining: ms(1_000),
            ..clock
        };
        assert_eq!(planning_clock(small, ms(80), ms(80)).remaining, ms(500));
        // The larger of the user's overhead and the measured delay is planned; none in nps
        // mode.
        let limits = SearchLimits {
            move_overhead: ms(50),
            gui_lag: ms(80),
            ..SearchLimits::default()
        };
        assert_eq!(planned_overhead(&limits), ms(80));
        let nps = SearchLimits {
            nps: Some(1000),
            ..limits
        };
        assert_eq!(planned_overhead(&nps), Duration::ZERO);
        assert_eq!(nps_node_budget(ms(1500), 1000), 1500);
        assert_eq!(time_used(ms(5), 3000, Some(1000)), ms(3000));
    }

    #[test]
    fn late_moves_of_a_game_without_moves_to_go_plan_over_fewer_moves() {
        assert_eq!(sudden_death_horizon(1), 20);
        assert_eq!(sudden_death_horizon(20), 20);
        assert_eq!(sudden_death_horizon(23), 19);
        assert_eq!(sudden_death_horizon(50), 10);
        assert_eq!(sudden_death_horizon(56), 8);
        assert_eq!(sudden_death_horizon(62), 6);
        assert_eq!(sudden_death_horizon(500), 6);
        let soft = |ms, mtg, move_number| {
            TimeBudget::from_limits(&clock(ms, 100, mtg), move_number).map(|b| b.soft)
        };
        // 10 s and 0.1 s a move, 20 ms overhead: 9.98 s / 20 + 80 ms early, / 10 at move 50.
        assert_eq!(soft(10_000, None, 10), Some(Duration::from_millis(579)));
        assert_eq!(soft(10_000, None, 50), Some(Duration::from_millis(1078)));
        // Moves to go keep their own horizon whatever the move number.
        assert_eq!(soft(10_000, Some(40), 10), soft(10_000, Some(40), 60));
    }

    #[test]
    fn increments_keep_their_budget_unless_below_the_overhead() {
        // 8+0.08 (the SPRTs' clock) with the default 50 ms overhead: 7.95 s over 20 moves plus
        // the 30 ms of increment left after the overhead early, over 7 moves at move 60, as
        // before sudden death got its reserve. 1+0.01's increment is below the overhead: it is
        // played as sudden death with 150 ms kept back for stalls, a twentieth of the rest
        // planned and a twelfth at most, each with the 8 ms of increment a move's cost leaves.
        let limits = |ms, inc_ms| SearchLimits {
            move_overhead: Duration::from_millis(50),
            ..clock(ms, inc_ms, None)
        };
        let budget = |ms, inc_ms, move_number| {
            TimeBudget::from_limits(&limits(ms, inc_ms), move_number).map(|b| (b.soft, b.hard))
        };
        let us = Duration::from_micros;
        assert_eq!(budget(8_000, 80, 10), Some((us(427_500), us(1_710_000))));
        let late = Duration::from_millis(7_950) / 7 + Duration::from_millis(30);
        assert_eq!(
            budget(8_000, 80, 60),
            Some((late, (late * 4).min(us(3_975_000))))
        );
        let left = Duration::from_millis(1_000 - 50 - 150);
        let repaid = Duration::from_millis(8);
        assert_eq!(
            budget(1_000, 10, 10),
            Some((left / 20 + repaid, left / 12 + repaid))
        );
        assert_eq!(budget(1_000, 10, 80), budget(1_000, 10, 10));
        // With no overhead 1+0.01 is an increment game again: 1 s over 20 moves plus 10 ms.
        let no_overhead = SearchLimits {
            move_overhead: Duration::ZERO,
            ..clock(1_000, 10, None)
        };
        let b = TimeBudget::from_limits(&no_overhead, 10).map(|b| b.soft);
        assert_eq!(b, Some(Duration::from_millis(60)));
    }

    #[test]
    fn sudden_death_keeps_a_reserve_its_moves_cannot_drain() {
        let ms = Duration::from_millis;
        let limits = |remaining: Duration| game_long(remaining, Duration::ZERO);
        // 2+0 and 5+0 games of 150 moves, each move spending its whole hard limit and 1 ms
        // more (what the interface and the pipes take; fastchess saw about 1 ms a move in all
        // at the end of a 2+0 game): the clock never runs out, and at move 150 a third of the
        // reserve is still there.
        for start in [ms(2_000), ms(300_000)] {
            let mut remaining = start;
            for move_number in 1..=150 {
                let Some(b) = TimeBudget::from_limits(&limits(remaining), move_number) else {
                    panic!("a clock gives a budget");
                };
                assert!(b.hard < remaining, "{start:?}, move {move_number}: {b:?}");
                remaining -= b.hard + ms(1);
            }
            assert!(remaining > ms(80), "{start:?}: {remaining:?} at move 150");
        }
        // No move takes a tenth of the clock, however unsure the search (the hard limit).
        for remaining in [ms(2_000), ms(60_000), ms(300_000)] {
            let Some(b) = TimeBudget::from_limits(&limits(remaining), 3) else {
                panic!("a clock gives a budget");
            };
            assert!(b.hard * 10 < remaining, "{remaining:?}: {b:?}");
        }
        // Late in the game the horizon does not fall: move 80 plans as move 10 would.
        assert_eq!(
            TimeBudget::from_limits(&limits(ms(1_000)), 80),
            TimeBudget::from_limits(&limits(ms(1_000)), 10)
        );
    }

    #[test]
    fn an_increment_below_the_overhead_is_spent_above_a_reserve_for_stalls() {
        let ms = Duration::from_millis;
        let limits = |remaining: Duration| game_long(remaining, ms(10));
        // 1+0.01 for 150 moves, each spending its whole hard limit and 2 ms more, then given
        // its 10 ms: the clock never falls under the overhead and 150 ms for a stall, and
        // after 60 moves it is nearly spent down to them (the game's 1.6 s are used).
        let mut remaining = ms(1_000);
        for move_number in 1..=150 {
            let Some(b) = TimeBudget::from_limits(&limits(remaining), move_number) else {
                panic!("a clock gives a budget");
            };
            remaining = remaining - b.hard - ms(2) + ms(10);
            assert!(remaining >= ms(200), "move {move_number}: {remaining:?}");
            if move_number == 60 {
                assert!(remaining < ms(260), "move 60: {remaining:?}");
            }
        }
        // With the clock down at the reserve the increment is still spent, not hoarded.
        let Some(b) = TimeBudget::from_limits(&limits(ms(200)), 100) else {
            panic!("a clock gives a budget");
        };
        assert_eq!((b.soft, b.hard), (ms(8), ms(8)));
    }

    #[test]
    fn movetime_is_used_whole_minus_overhead() {
        let limits = SearchLimits {
            movetime: Some(Duration::from_millis(1000)),
            move_overhead: Duration::from_millis(30),
            ..SearchLimits::default()
        };
        let b = TimeBudget::from_limits(&limits, 1);
        assert_eq!(b.map(|b| b.hard), Some(Duration::from_millis(970)));
        assert_eq!(TimeBudget::from_limits(&SearchLimits::depth(5), 1), None);
    }

    #[test]
    fn more_time_when_the_best_move_is_contested_or_the_score_falls() {
        let settled = soft_scale(5, 0.9, 0);
        assert!(
            soft_scale(5, 0.3, 0) > settled,
            "effort spread over other moves"
        );
        assert!(soft_scale(0, 0.9, 0) > settled, "a new best move");
        assert!(soft_scale(5, 0.9, 50) > settled, "the score fell");
        assert!(soft_scale(5, 0.9, -30) < settled, "the score rose");
        for stable in 0..8 {
            for share in [0.0, 0.2, 0.5, 0.8, 1.0, 1.5, -1.0] {
                for drop in [-500, -30, 0, 20, 60, 500] {
                    let scale = soft_scale(stable, share, drop);
                    assert!(
                        (0.3..=2.5).contains(&scale),
                        "{stable} {share} {drop}: {scale}"
                    );
                }
            }
        }
    }
}
