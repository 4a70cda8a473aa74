//! Win/draw/loss estimates for a search score, for UCI's `UCI_ShowWDL` (`info ... wdl W D L`):
//! how often Betacut, playing itself, wins, draws or loses from positions with that score.
//!
//! The model: for a score `v` in centipawns from the side to move's view,
//! `win = 1 / (1 + exp((a - v) / b))`, `loss = 1 / (1 + exp((a + v) / b))` and
//! `draw = 1 - win - loss`, where `a` (the score at which the side to move wins half its games)
//! and `b` (how slowly the win rate rises with the score) are cubic polynomials of the full-move
//! number. The coefficients were fitted by maximum likelihood to Betacut's self-play games with
//! `scripts/wdl_fit.py`, which also tried the material on the board as the phase variable: the
//! move number predicted held-out games better (docs/wdl.md gives the data, the comparison, the
//! accuracy and the calibration).

use crate::board::Position;
use crate::search::score::is_decisive;

/// Earliest move number the model distinguishes (the self-play games' random openings put
/// their first recorded position at move 5): earlier moves are treated as this one.
pub const MOVE_MIN: u32 = 5;
/// Latest move number the model distinguishes (later moves are rare in the games it was fitted
/// to): later moves are treated as this one.
pub const MOVE_MAX: u32 = 120;
/// The polynomials take the clamped move number divided by this.
const MOVE_SCALE: f64 = 64.0;

/// Coefficients of `a` in the scaled move number `m`, constant term first:
/// `a = A[0] + A[1] m + A[2] m^2 + A[3] m^3` (centipawns).
const A: [f64; 4] = [98.432091, -131.532520, 341.585276, -82.738254];
/// Coefficients of `b` in the scaled move number, constant term first (centipawns).
const B: [f64; 4] = [128.078205, -180.679699, 188.806718, -49.526038];

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

/// The model's phase variable for `pos`: its full-move number (1 at the start, counted from the
/// FEN the position was set up from).
pub fn move_number(pos: &Position) -> u32 {
    pos.fullmove_number()
}

/// The model's `a` and `b` (centipawns) at `move_number`, clamped to
/// [`MOVE_MIN`]`..=`[`MOVE_MAX`].
pub fn params(move_number: u32) -> (f64, f64) {
    let m = f64::from(move_number.clamp(MOVE_MIN, MOVE_MAX)) / MOVE_SCALE;
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
/// from the side to move's view, or a mate or tablebase score) at full-move number
/// `move_number` (see [`move_number`]). Mate and tablebase scores are certain: 1000/0/0 or
/// 0/0/1000.
///
/// Symmetric: negating the score swaps `win` and `loss`.
pub fn wdl(score: i32, move_number: u32) -> Wdl {
    if is_decisive(score) {
        return if score > 0 { Wdl::WIN } else { Wdl::LOSS };
    }
    let (a, b) = params(move_number);
    let mut win = win_rate(score, a, b);
    let mut loss = win_rate(-score, a, b);
    // With a > 0 (true over the whole move range, see the tests) win + loss < 1000 before
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
    wdl(score, move_number(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, TB_WIN};

    /// Move numbers the tests try: before, across and after the modelled range.
    const MOVES: [u32; 10] = [0, 1, 5, 10, 20, 40, 60, 90, 120, 300];

    #[test]
    fn chances_sum_to_1000() {
        for &m in &MOVES {
            for score in -3000..=3000 {
                let w = wdl(score, m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "score {score} move {m}");
            }
        }
    }

    #[test]
    fn negating_the_score_swaps_win_and_loss() {
        for &m in &MOVES {
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
        for &m in &MOVES {
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
    fn a_level_score_is_as_likely_won_as_lost_and_drawer_the_later_it_is() {
        let mut last_draw = 0;
        for m in 0..=200 {
            let w = wdl(0, m);
            assert_eq!(w.win, w.loss, "move {m}");
            assert!(w.draw >= last_draw, "{w:?} at move {m}");
            last_draw = w.draw;
        }
        // Level self-play games are as likely decided as drawn early on, nearly always drawn
        // after move 100.
        assert!(wdl(0, MOVE_MIN).draw < 500);
        assert!(wdl(0, 100).draw > 900);
    }

    #[test]
    fn large_scores_are_nearly_certain() {
        for &m in &MOVES {
            let w = wdl(1500, m);
            assert!(w.win >= 990, "{w:?} at move {m}");
            assert_eq!(wdl(-1500, m).loss, w.win);
            assert_eq!(wdl(5000, m).win, 1000);
            assert_eq!(wdl(-5000, m).loss, 1000);
        }
    }

    #[test]
    fn mates_and_tablebase_results_are_certain() {
        for &m in &MOVES {
            assert_eq!(wdl(MATE - 1, m), Wdl::WIN);
            assert_eq!(wdl(MATE - 20, m), Wdl::WIN);
            assert_eq!(wdl(-(MATE - 2), m), Wdl::LOSS);
            assert_eq!(wdl(TB_WIN - 3, m), Wdl::WIN);
            assert_eq!(wdl(-(TB_WIN - 3), m), Wdl::LOSS);
        }
    }

    #[test]
    fn the_model_is_valid_over_the_whole_move_range() {
        // a > 0 keeps the draw chance positive, b > 0 keeps the win rate rising with the score.
        for m in MOVE_MIN..=MOVE_MAX {
            let (a, b) = params(m);
            assert!(a > 50.0 && b > 50.0, "a = {a}, b = {b} at move {m}");
        }
        assert_eq!(params(0), params(MOVE_MIN));
        assert_eq!(params(1000), params(MOVE_MAX));
    }

    #[test]
    fn the_phase_is_the_full_move_number() -> Result<(), Box<dyn std::error::Error>> {
        let mut pos = Position::startpos();
        assert_eq!(move_number(&pos), 1);
        for uci in ["e2e4", "e7e5", "g1f3"] {
            let mv = pos.parse_coordinate(uci)?;
            pos.make_move(mv);
        }
        assert_eq!(move_number(&pos), 2);
        let endgame = Position::from_fen("8/8/4k3/8/8/Q7/3PP3/4K1NR b - - 3 57")?;
        assert_eq!(move_number(&endgame), 57);
        assert_eq!(wdl_of_position(120, &endgame), wdl(120, 57));
        Ok(())
    }
}
