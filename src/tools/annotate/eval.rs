//! The `[%eval ...]` comment command, as Lichess writes it and Lichess, ChessBase, Scid and
//! python-chess read it: White's view, in pawns with two decimals (`[%eval 0.34]`,
//! `[%eval -1.50]`), or a mate in full moves (`[%eval #3]` White mates, `[%eval #-3]` Black
//! mates).

use crate::board::Color;
use crate::search::score::{display_centipawns, mate_in_moves};
use std::fmt;

/// An evaluation from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (tablebase results as their displayed centipawns, about ±200 pawns).
    Centipawns(i32),
    /// Mate in this many full moves: positive when White mates, negative when Black does.
    Mate(i32),
}

impl Eval {
    /// The evaluation of a search `score` (the search's units, from the view of `side`, the
    /// side to move of the searched position). `None` for the position of a mate already
    /// given (no moves left to count).
    pub fn from_score(score: i32, side: Color) -> Option<Eval> {
        let sign = if side == Color::White { 1 } else { -1 };
        match mate_in_moves(score) {
            Some(0) => None,
            Some(moves) => Some(Eval::Mate(sign * moves)),
            None => Some(Eval::Centipawns(sign * display_centipawns(score))),
        }
    }
}

impl fmt::Display for Eval {
    /// `[%eval 0.34]` or `[%eval #-3]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Mate(moves) => write!(f, "[%eval #{moves}]"),
            Eval::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let cp = cp.unsigned_abs();
                write!(f, "[%eval {sign}{}.{:02}]", cp / 100, cp % 100)
            }
        }
    }
}

/// Reads the first `[%eval ...]` command of a comment (two decimals or fewer, as written
/// by Lichess and by [`Eval`]'s `Display`); `None` if there is none or it does not parse.
pub fn parse_eval(comment: &str) -> Option<Eval> {
    let start = comment.find("[%eval ")? + "[%eval ".len();
    let body = comment[start..].split(']').next()?.trim();
    let body = body.split(',').next()?; // `[%eval 0.34,20]` gives the depth after a comma
    if let Some(mate) = body.strip_prefix('#') {
        return mate.parse::<i32>().ok().map(Eval::Mate);
    }
    let (negative, digits) = match body.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, body.strip_prefix('+').unwrap_or(body)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.len() > 2 {
        return None;
    }
    let digit_value = |text: &str| -> Option<i32> {
        if text.is_empty() {
            Some(0)
        } else if text.bytes().all(|b| b.is_ascii_digit()) {
            text.parse().ok()
        } else {
            None
        }
    };
    let mut cp = digit_value(whole)?.checked_mul(100)?;
    let frac = digit_value(fraction)?;
    cp += if fraction.len() == 1 { frac * 10 } else { frac };
    Some(Eval::Centipawns(if negative { -cp } else { cp }))
}

/// `comment` without its `[%eval ...]` commands (a re-annotated game gets Betacut's own),
/// whitespace tidied.
pub fn strip_eval(comment: &str) -> String {
    let mut out = String::with_capacity(comment.len());
    let mut rest = comment;
    while let Some(start) = rest.find("[%eval") {
        out.push_str(&rest[..start]);
        match rest[start..].find(']') {
            Some(end) => rest = &rest[start + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, TB_WIN};
    use proptest::prelude::*;

    #[test]
    fn lichess_forms() {
        assert_eq!(Eval::Centipawns(34).to_string(), "[%eval 0.34]");
        assert_eq!(Eval::Centipawns(-150).to_string(), "[%eval -1.50]");
        assert_eq!(Eval::Centipawns(-5).to_string(), "[%eval -0.05]");
        assert_eq!(Eval::Mate(-3).to_string(), "[%eval #-3]");
        assert_eq!(parse_eval("{ [%eval 0.17] }"), Some(Eval::Centipawns(17)));
        assert_eq!(parse_eval("[%eval -1.5]"), Some(Eval::Centipawns(-150)));
        assert_eq!(parse_eval("x [%eval #2] y"), Some(Eval::Mate(2)));
        assert_eq!(parse_eval("[%eval 0.34,22]"), Some(Eval::Centipawns(34)));
        assert_eq!(parse_eval("[%eval zz]"), None);
        assert_eq!(parse_eval("no eval"), None);
    }

    #[test]
    fn search_scores_become_white_s_view() {
        assert_eq!(
            Eval::from_score(34, Color::Black),
            Some(Eval::Centipawns(-34))
        );
        // Black to move is mated in 2 (White mates on its second move from here).
        assert_eq!(
            Eval::from_score(-(MATE - 4), Color::Black),
            Some(Eval::Mate(2))
        );
        assert_eq!(
            Eval::from_score(MATE - 1, Color::White),
            Some(Eval::Mate(1))
        );
        assert_eq!(
            Eval::from_score(MATE - 1, Color::Black),
            Some(Eval::Mate(-1))
        );
        assert_eq!(Eval::from_score(-MATE, Color::White), None);
        assert_eq!(
            Eval::from_score(TB_WIN - 3, Color::White),
            Some(Eval::Centipawns(19_997))
        );
    }

    #[test]
    fn old_evals_are_stripped() {
        assert_eq!(strip_eval("[%eval 0.17] good  move"), "good move");
        assert_eq!(strip_eval("[%clk 0:01:00] [%eval #-2]"), "[%clk 0:01:00]");
    }

    proptest! {
        #[test]
        fn formatted_evals_read_back(cp in -40_000i32..40_000, mate in 1i32..200, neg in any::<bool>()) {
            let e = Eval::Centipawns(cp);
            prop_assert_eq!(parse_eval(&e.to_string()), Some(e));
            let m = Eval::Mate(if neg { -mate } else { mate });
            prop_assert_eq!(parse_eval(&format!("{{{m}}}")), Some(m));
        }
    }
}
