//! Win/draw/loss estimates for a search score, for UCI's `UCI_ShowWDL` (`info ... wdl W D L`):
//! how often Betacut, playing itself, wins, draws or loses from positions with that score.
//!
//! The model: for a score `v` in centipawns from the side to move's view,
//! `win = 1 / (1 + exp((a - v) / b))`, `loss = 1 / (1 + exp((a + v) / b))` and
//! `draw = 1 - win - loss`, where `a` (the score at which the side to move wins half its games)
//! and `b` (how slowly the win rate rises with the score) are cubic polynomials of the material
//! on the board (see [`material`]). The coefficients were fitted by maximum likelihood to the
//! self-play games of the shipped network (`gen11.bin`) with `lab/scripts/wdl_fit.py`, which
//! also tried the full-move number as the phase variable: it predicted held-out games no better
//! beyond the noise, and the material depends on the position alone, not on the move counter of
//! the FEN a GUI sends.
//! docs/wdl.md gives the data, the comparison, the accuracy and the calibration.

use crate::board::{PieceKind, Position};
use crate::search::score::{is_decisive, INFINITE};
use std::fmt;

/// Least material the model distinguishes: less is treated as this much.
pub const MATERIAL_MIN: u32 = 4;
/// Most material the model distinguishes (the start position's 78): more, after promotions, is
/// treated as this much.
pub const MATERIAL_MAX: u32 = 78;
/// The polynomials take the clamped material divided by this.
const MATERIAL_SCALE: f64 = 58.0;

/// Coefficients of `a` in the scaled material `m`, constant term first:
/// `a = A[0] + A[1] m + A[2] m^2 + A[3] m^3` (centipawns).
const A: [f64; 4] = [370.159662, -733.479909, 662.384327, -211.437522];
/// Coefficients of `b` in the scaled material, constant term first (centipawns).
const B: [f64; 4] = [72.214933, -23.383426, 73.404765, -35.451872];

/// Win, draw and loss chances of the side to move, per mille; they always sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Chance that the side to move wins, per mille.
    pub win: u32,
    /// Chance of a draw, per mille.
    pub draw: u32,
    /// Chance that the side to move loses, per mille.
    pub loss: u32,
}

impl Wdl {
    /// A certain win for the side to move.
    pub const WIN: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain loss for the side to move.
    pub const LOSS: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };
}

impl fmt::Display for Wdl {
    /// `W D L`, as the UCI `info` field `wdl` takes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

/// The model's phase variable for `pos`: its material, pawn 1, knight 3, bishop 3, rook 5,
/// queen 9, both sides together (78 at the start).
pub fn material(pos: &Position) -> u32 {
    pos.pieces(PieceKind::Pawn).count()
        + 3 * pos.pieces(PieceKind::Knight).count()
        + 3 * pos.pieces(PieceKind::Bishop).count()
        + 5 * pos.pieces(PieceKind::Rook).count()
        + 9 * pos.pieces(PieceKind::Queen).count()
}

/// The model's `a` and `b` (centipawns) for `material`, clamped to
/// [`MATERIAL_MIN`]`..=`[`MATERIAL_MAX`].
pub fn params(material: u32) -> (f64, f64) {
    let m = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_SCALE;
    let horner = |c: &[f64; 4]| ((c[3] * m + c[2]) * m + c[1]) * m + c[0];
    (horner(&A), horner(&B))
}

/// The win rate per mille of a side whose score is `score`, rounded to the nearest.
fn win_rate(score: i32, a: f64, b: f64) -> u32 {
    let rate = 1000.0 / (1.0 + ((a - f64::from(score)) / b).exp());
    // `rate` is within 0..=1000, so the conversion is exact after rounding.
    rate.round() as u32
}

/// Win/draw/loss chances of the side to move for a search `score` (the search's units: centipawns
/// from the side to move's view, or a mate or tablebase score) with `material` on the board
/// (see [`material`]). Mate and tablebase scores are certain: 1000/0/0 or 0/0/1000.
///
/// Symmetric: negating the score swaps `win` and `loss`.
pub fn wdl(score: i32, material: u32) -> Wdl {
    // Scores never leave -INFINITE..=INFINITE; the clamp keeps negation and `abs` total.
    let score = score.clamp(-INFINITE, INFINITE);
    if is_decisive(score) {
        return if score > 0 { Wdl::WIN } else { Wdl::LOSS };
    }
    let (a, b) = params(material);
    let mut win = win_rate(score, a, b);
    let mut loss = win_rate(-score, a, b);
    // With a > 0 (true over the whole material range, see the tests) win + loss < 1000 before
    // rounding, hence at most 1000 after it. Should it ever exceed 1000, take the excess from
    // the larger of the two, which keeps the result symmetric.
    if win + loss > 1000 {
        let excess = win + loss - 1000;
        if win > loss {
            win -= excess;
        } else {
            loss -= excess;
        }
    }
    Wdl {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

/// Win/draw/loss chances of the side to move in `pos` for a search `score` from its view.
pub fn wdl_of_position(score: i32, pos: &Position) -> Wdl {
    wdl(score, material(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, TB_WIN};

    /// Material values the tests try: below, across and above the modelled range.
    const MATERIALS: [u32; 10] = [0, 4, 10, 17, 24, 40, 58, 70, 78, 90];

    #[test]
    fn chances_sum_to_1000() {
        for &m in &MATERIALS {
            for score in -3000..=3000 {
                let w = wdl(score, m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "score {score} material {m}");
            }
        }
    }

    #[test]
    fn negating_the_score_swaps_win_and_loss() {
        for &m in &MATERIALS {
            for score in -3000..=3000 {
                let w = wdl(score, m);
                let v = wdl(-score, m);
                assert_eq!(
                    (w.win, w.draw, w.loss),
                    (v.loss, v.draw, v.win),
                    "{score} {m}"
                );
            }
        }
    }

    #[test]
    fn wins_rise_and_losses_fall_with_the_score() {
        for &m in &MATERIALS {
            let mut last = wdl(-3000, m);
            for score in -2999..=3000 {
                let w = wdl(score, m);
                assert!(w.win >= last.win && w.loss <= last.loss, "{score} {m}");
                last = w;
            }
            assert!(wdl(100, m).win > wdl(0, m).win && wdl(0, m).win > wdl(-100, m).win);
        }
    }

    #[test]
    fn a_level_score_is_as_likely_won_as_lost_and_drawer_with_less_material() {
        let mut last_draw = 1000;
        for m in 0..=100 {
            let w = wdl(0, m);
            assert_eq!(w.win, w.loss, "material {m}");
            assert!(w.draw <= last_draw, "{w:?} at material {m}");
            last_draw = w.draw;
        }
        // Level self-play games with all the pieces on are decided more often than drawn;
        // level endings with little material are nearly always drawn.
        assert!(wdl(0, MATERIAL_MAX).draw < 500);
        assert!(wdl(0, 8).draw > 900);
    }

    #[test]
    fn large_scores_are_nearly_certain() {
        for &m in &MATERIALS {
            let w = wdl(1500, m);
            assert!(w.win >= 990, "{w:?} at material {m}");
            assert_eq!(wdl(-1500, m).loss, w.win);
            assert_eq!(wdl(5000, m).win, 1000);
            assert_eq!(wdl(-5000, m).loss, 1000);
        }
    }

    #[test]
    fn mates_and_tablebase_results_are_certain() {
        for &m in &MATERIALS {
            assert_eq!(wdl(MATE - 1, m), Wdl::WIN);
            assert_eq!(wdl(MATE - 20, m), Wdl::WIN);
            assert_eq!(wdl(-(MATE - 2), m), Wdl::LOSS);
            assert_eq!(wdl(TB_WIN - 3, m), Wdl::WIN);
            assert_eq!(wdl(-(TB_WIN - 3), m), Wdl::LOSS);
            assert_eq!(wdl(i32::MAX, m), Wdl::WIN);
            assert_eq!(wdl(i32::MIN, m), Wdl::LOSS);
        }
        assert_eq!(Wdl::WIN.to_string(), "1000 0 0");
    }

    #[test]
    fn the_model_is_valid_over_the_whole_material_range() {
        // a > 0 keeps the draw chance positive, b > 0 keeps the win rate rising with the score.
        for m in MATERIAL_MIN..=MATERIAL_MAX {
            let (a, b) = params(m);
            assert!(a > 50.0 && b > 50.0, "a = {a}, b = {b} at material {m}");
        }
        assert_eq!(params(0), params(MATERIAL_MIN));
        assert_eq!(params(100), params(MATERIAL_MAX));
    }

    #[test]
    fn material_counts_pieces_by_their_usual_values() -> Result<(), crate::board::FenError> {
        assert_eq!(material(&Position::startpos()), 78);
        let pos = Position::from_fen("8/8/4k3/8/8/Q7/3PP3/4K1NR w - - 0 1")?;
        assert_eq!(material(&pos), 9 + 2 + 3 + 5);
        let bare = Position::from_fen("8/8/4k3/8/8/8/8/4K3 w - - 0 1")?;
        assert_eq!(material(&bare), 0);
        assert_eq!(wdl_of_position(120, &pos), wdl(120, 19));
        Ok(())
    }
}
