//! Judging a move by the expected score it loses, not by raw centipawns: a pawn thrown away
//! at +6 changes nothing, at 0.00 it may lose the game. The expected score of the side to
//! move is `win + draw / 2` of Betacut's win/draw/loss model (`crate::search::wdl`), or of the
//! tablebases (win 1, draw 0.5, loss 0) when the position is in them.

use crate::search::score::{display_centipawns, is_mate};
use crate::search::wdl::wdl;
use crate::tb::Wdl as TbWdl;

/// A move that loses at least this share of the mover's expected score is an inaccuracy
/// (`?!`, NAG 6).
pub const INACCURACY: f64 = 0.10;
/// ... at least this share: a mistake (`?`, NAG 2).
pub const MISTAKE: f64 = 0.20;
/// ... at least this share: a blunder (`??`, NAG 4).
pub const BLUNDER: f64 = 0.30;
/// The best move is the only good one (`!`, NAG 1) when the second best loses at least this
/// share of the expected score.
pub const ONLY_MOVE: f64 = 0.30;
/// Centipawn losses are counted between scores clamped to ±this (a mate counts as this).
pub const CP_CLAMP: i32 = 1000;

/// What a move is judged to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The only move that kept the result (`!`).
    Only,
    /// Lost 10-20 % (`?!`).
    Inaccuracy,
    /// Lost 20-30 % (`?`).
    Mistake,
    /// Lost 30 % or more (`??`).
    Blunder,
}

impl Verdict {
    /// The verdict's NAG: `$1`, `$6`, `$2` or `$4`.
    pub const fn nag(self) -> u8 {
        match self {
            Verdict::Only => 1,
            Verdict::Inaccuracy => 6,
            Verdict::Mistake => 2,
            Verdict::Blunder => 4,
        }
    }

    /// The word for it in comments.
    pub const fn word(self) -> &'static str {
        match self {
            Verdict::Only => "Only move",
            Verdict::Inaccuracy => "Inaccuracy",
            Verdict::Mistake => "Mistake",
            Verdict::Blunder => "Blunder",
        }
    }
}

/// Expected score (0 to 1) of the side to move for a search `score` from its view, with
/// `material` on the board (see `crate::search::wdl::material`).
pub fn expected_score(score: i32, material: u32) -> f64 {
    let w = wdl(score, material);
    (f64::from(w.win) + f64::from(w.draw) / 2.0) / 1000.0
}

/// Expected score of a tablebase result: a win 1, a loss 0, and 0.5 for a draw and for the
/// wins and losses that the fifty-move rule turns into draws.
pub fn table_expected_score(result: TbWdl) -> f64 {
    match result {
        TbWdl::Win => 1.0,
        TbWdl::Loss => 0.0,
        TbWdl::CursedWin | TbWdl::Draw | TbWdl::BlessedLoss => 0.5,
    }
}

/// A decision, in expected scores of the side that made it.
///
/// The move played is valued by the search of the position after it (one ply deeper than the
/// search before it, so a move the search before it liked can still turn out bad); it is
/// compared with the best other move: the search's best move when another move was played,
/// the second-best line (MultiPV 2) when the search's best move was played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// After the move played.
    pub played: f64,
    /// After the best other move (none when there was no other legal move).
    pub other: Option<f64>,
    /// The move played is the search's best (or keeps the tablebase result).
    pub played_is_best: bool,
}

impl Decision {
    /// The share of the expected score the move gave away against the best other move.
    pub fn loss(&self) -> f64 {
        self.other
            .map_or(0.0, |other| (other - self.played).max(0.0))
    }

    /// The verdict, if the move deserves one.
    pub fn verdict(&self) -> Option<Verdict> {
        let loss = self.loss();
        if loss >= BLUNDER {
            Some(Verdict::Blunder)
        } else if loss >= MISTAKE {
            Some(Verdict::Mistake)
        } else if loss >= INACCURACY {
            Some(Verdict::Inaccuracy)
        } else if self.played_is_best
            && self
                .other
                .is_some_and(|other| self.played - other >= ONLY_MOVE)
        {
            Some(Verdict::Only)
        } else {
            None
        }
    }
}

/// A move that walks into a forced mate when the best other move did not is at least this bad
/// however little expected score the model says it lost (Lichess's rule for a mate created):
/// a blunder, a mistake when the mover was already this far behind (centipawns, its view)...
pub const MATE_CREATED_MISTAKE_BELOW: i32 = -700;
/// ... and an inaccuracy when it was lost anyway.
pub const MATE_CREATED_INACCURACY_BELOW: i32 = -999;

/// The least verdict for a move after which the mover is mated by force (`played`, a search
/// score from the mover's view), given the best other move's score `other`: none when the
/// played move is no forced loss or the other move was one too (a quicker or slower mate is
/// judged by expected score alone).
pub fn mate_created(other: i32, played: i32) -> Option<Verdict> {
    let mated = |score: i32| is_mate(score) && score < 0;
    if !mated(played) || mated(other) {
        return None;
    }
    let other_cp = display_centipawns(other);
    Some(if other_cp < MATE_CREATED_INACCURACY_BELOW {
        Verdict::Inaccuracy
    } else if other_cp < MATE_CREATED_MISTAKE_BELOW {
        Verdict::Mistake
    } else {
        Verdict::Blunder
    })
}

/// A search score as centipawns for the loss count: clamped to ±[`CP_CLAMP`].
pub fn clamped_centipawns(score: i32) -> i32 {
    display_centipawns(score).clamp(-CP_CLAMP, CP_CLAMP)
}

/// Centipawns lost by a move: the best other move's score against the played move's (both
/// search scores from the mover's view), at least 0.
pub fn centipawn_loss(other: i32, played: i32) -> i32 {
    (clamped_centipawns(other) - clamped_centipawns(played)).max(0)
}

/// A move's accuracy (0 to 100) from the expected score it lost, on Lichess's curve:
/// `103.1668 * exp(-4.354 * loss) - 3.1669`, clamped (Lichess's constant is 0.04354 per
/// percentage point of win chance; here the loss is a share, hence 4.354).
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    fn decision(other: f64, played: f64, played_is_best: bool) -> Decision {
        Decision {
            played,
            other: Some(other),
            played_is_best,
        }
    }

    #[test]
    fn walking_into_a_forced_mate_is_bad_unless_already_lost() {
        // Black a pawn and a half down walks into mate in two (Legal's mate): a blunder...
        assert_eq!(mate_created(-144, -MATE + 3), Some(Verdict::Blunder));
        // ... a mistake at -8, an inaccuracy when already lost, nothing when the best other
        // move is mated as well or the move played is no forced loss.
        assert_eq!(mate_created(-800, -MATE + 3), Some(Verdict::Mistake));
        assert_eq!(mate_created(-1200, -MATE + 3), Some(Verdict::Inaccuracy));
        assert_eq!(mate_created(-MATE + 9, -MATE + 3), None);
        assert_eq!(mate_created(300, -500), None);
        assert_eq!(mate_created(-144, MATE - 3), None);
    }

    #[test]
    fn thresholds_give_the_glyphs() {
        assert_eq!(decision(0.6, 0.55, false).verdict(), None);
        assert_eq!(
            decision(0.6, 0.49, false).verdict(),
            Some(Verdict::Inaccuracy)
        );
        assert_eq!(decision(0.6, 0.39, false).verdict(), Some(Verdict::Mistake));
        assert_eq!(decision(0.6, 0.2, false).verdict(), Some(Verdict::Blunder));
        // The search's best move that the deeper look after it finds bad is still judged.
        assert_eq!(decision(0.6, 0.2, true).verdict(), Some(Verdict::Blunder));
        assert_eq!(decision(0.2, 0.5, true).verdict(), Some(Verdict::Only));
        assert_eq!(decision(0.3, 0.5, true).verdict(), None);
        assert_eq!(decision(0.1, 0.5, false).verdict(), None);
        let forced = Decision {
            played: 0.5,
            other: None,
            played_is_best: true,
        };
        assert_eq!((forced.loss(), forced.verdict()), (0.0, None));
        assert_eq!(Verdict::Blunder.nag(), 4);
        assert_eq!(Verdict::Inaccuracy.nag(), 6);
    }

    #[test]
    fn a_pawn_matters_when_level_and_not_when_far_ahead() {
        let material = 60;
        let level = expected_score(0, material) - expected_score(-100, material);
        let ahead = expected_score(900, material) - expected_score(800, material);
        assert!(level > 0.05 && ahead < 0.01, "level {level}, ahead {ahead}");
        // A queen hung in a level position is a blunder; a mate given up for +9 is not.
        let hung = decision(
            expected_score(0, material),
            expected_score(-900, material),
            false,
        );
        assert_eq!(hung.verdict(), Some(Verdict::Blunder));
        let mate_missed = decision(1.0, expected_score(900, material), false);
        assert_eq!(mate_missed.verdict(), None);
        assert_eq!(expected_score(MATE - 1, material), 1.0);
    }

    #[test]
    fn a_thrown_tablebase_win_is_a_blunder() {
        let d = decision(
            table_expected_score(TbWdl::Win),
            table_expected_score(TbWdl::Draw),
            false,
        );
        assert_eq!(d.verdict(), Some(Verdict::Blunder));
        assert_eq!(table_expected_score(TbWdl::CursedWin), 0.5);
    }

    #[test]
    fn centipawn_losses_and_accuracy() {
        assert_eq!(centipawn_loss(50, -250), 300);
        assert_eq!(centipawn_loss(MATE - 3, 0), CP_CLAMP);
        assert_eq!(centipawn_loss(50, 80), 0);
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.1) > 60.0 && move_accuracy(0.1) < 70.0);
        assert_eq!(move_accuracy(1.0), 0.0);
    }
}
