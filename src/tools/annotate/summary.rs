//! A game's figures for each side: average centipawn loss, counts of inaccuracies, mistakes
//! and blunders, and an accuracy.
//!
//! Accuracy: each judged move gets `103.1668 * exp(-4.354 * loss) - 3.1669`, clamped to
//! 0..100, where `loss` is the share of expected score it gave away (Lichess's curve, on
//! Betacut's win/draw/loss model instead of Lichess's); the side's accuracy is the mean over
//! its judged moves. Book moves are not judged and count in neither figure.

use super::analyse::PlyReport;
use super::judge::{move_accuracy, Verdict};
use crate::board::Color;

/// One side's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Judged moves.
    pub moves: u32,
    /// Sum of the centipawn losses.
    pub cp_loss: i64,
    /// Moves that lost 10-20 % of the expected score.
    pub inaccuracies: u32,
    /// ... 20-30 %.
    pub mistakes: u32,
    /// ... 30 % or more.
    pub blunders: u32,
    /// Sum of the moves' accuracies.
    accuracy_sum: f64,
}

impl SideSummary {
    /// Average centipawn loss per judged move, rounded (0 without judged moves).
    pub fn acpl(&self) -> i64 {
        if self.moves == 0 {
            0
        } else {
            (self.cp_loss as f64 / f64::from(self.moves)).round() as i64
        }
    }

    /// Mean move accuracy in percent, one decimal (100 without judged moves).
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 {
            100.0
        } else {
            (self.accuracy_sum / f64::from(self.moves) * 10.0).round() / 10.0
        }
    }

    /// `ACPL 23, 1 inaccuracy, 0 mistakes, 2 blunders, accuracy 87.5 %`, or `no move judged`
    /// for a side without a judged move (a game of no moves, or all of them book moves).
    pub fn text(&self) -> String {
        if self.moves == 0 {
            return "no move judged".to_string();
        }
        let count =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "ACPL {}, {}, {}, {}, accuracy {:.1} %",
            self.acpl(),
            count(self.inaccuracies, "inaccuracy", "inaccuracies"),
            count(self.mistakes, "mistake", "mistakes"),
            count(self.blunders, "blunder", "blunders"),
            self.accuracy()
        )
    }
}

#[cfg(test)]
impl SideSummary {
    /// A side of `moves` judged moves that lost `cp_loss` centipawns in all, none of them
    /// counted as an error (for the tests of the writer).
    pub fn with_moves(moves: u32, cp_loss: i64) -> SideSummary {
        SideSummary {
            moves,
            cp_loss,
            ..SideSummary::default()
        }
    }
}

/// The figures of White and Black (in that order) over `plies`.
pub fn summarise(plies: &[Option<PlyReport>]) -> [SideSummary; 2] {
    let mut sides = [SideSummary::default(); 2];
    for ply in plies.iter().flatten() {
        let Some(judgement) = &ply.judgement else {
            continue;
        };
        let side = &mut sides[usize::from(ply.mover == Color::Black)];
        side.moves += 1;
        side.cp_loss += i64::from(judgement.cp_loss);
        side.accuracy_sum += move_accuracy(judgement.decision.loss());
        match judgement.verdict {
            Some(Verdict::Inaccuracy) => side.inaccuracies += 1,
            Some(Verdict::Mistake) => side.mistakes += 1,
            Some(Verdict::Blunder) => side.blunders += 1,
            Some(Verdict::Only) | None => {}
        }
    }
    sides
}

#[cfg(test)]
mod tests {
    use super::super::analyse::Judgement;
    use super::super::judge::Decision;
    use super::*;

    fn ply(mover: Color, played: f64, cp_loss: i32, book: bool) -> Option<PlyReport> {
        let decision = Decision {
            played,
            other: Some(0.5),
            played_is_best: played >= 0.5,
        };
        Some(PlyReport {
            mover,
            fullmove: 1,
            book,
            eval_after: None,
            white_before: 0.5,
            white_expected: 0.5,
            judgement: (!book).then(|| Judgement {
                decision,
                verdict: decision.verdict(),
                cp_loss,
                from_tables: false,
                best_line: Vec::new(),
                best_eval: None,
            }),
        })
    }

    #[test]
    fn figures_per_side() {
        let plies = vec![
            None,
            ply(Color::White, 0.5, 0, true),
            ply(Color::White, 0.5, 0, false),
            ply(Color::Black, 0.35, 120, false),
            ply(Color::White, 0.1, 500, false),
            ply(Color::Black, 0.5, 0, false),
        ];
        let [white, black] = summarise(&plies);
        assert_eq!((white.moves, white.cp_loss, white.acpl()), (2, 500, 250));
        assert_eq!(
            (white.blunders, white.mistakes, white.inaccuracies),
            (1, 0, 0)
        );
        assert_eq!((black.moves, black.acpl(), black.inaccuracies), (2, 60, 1));
        // A perfect move scores 100, a loss of 0.4 about 15: the mean of the two.
        assert!(
            (white.accuracy() - 57.6).abs() < 0.5,
            "{}",
            white.accuracy()
        );
        assert!(white
            .text()
            .starts_with("ACPL 250, 0 inaccuracies, 0 mistakes, 1 blunder"));
        assert_eq!(SideSummary::default().accuracy(), 100.0);
    }
}
