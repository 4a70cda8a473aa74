//! Search scores: centipawns from the side to move's view, with mate scores counted in plies
//! and tablebase wins in a band just below them.

/// Deepest ply the search ever reaches (arrays indexed by ply are this long).
pub const MAX_PLY: usize = 128;
/// Score of delivering mate on the current ply; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score: the initial search window.
pub const INFINITE: i32 = MATE + 1;
/// Score of a drawn position.
pub const DRAW: i32 = 0;

/// True if `score` announces a mate (for either side).
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Score of a tablebase win at the root; a tablebase win found `n` plies down scores
/// `TB_WIN - n`. Tablebase scores form a band just below the mate scores, so that a mate is
/// always preferred to a tablebase win and a tablebase win to any evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at least this large (in absolute value) and below [`MATE_BOUND`] are tablebase wins
/// (or losses).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// What interfaces show for a tablebase win at the root, in centipawns (200 pawns): a win
/// reached `n` plies down shows as `TB_DISPLAY - n`. Never shown as a mate.
pub const TB_DISPLAY: i32 = 20_000;

/// True for a mate or tablebase score (either side): a result, not an estimate.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// True for a tablebase win or loss (not a mate).
#[inline]
pub const fn is_tablebase(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND && score.abs() < MATE_BOUND
}

/// The centipawns interfaces show for a score that is not a mate: the score itself, or for a
/// tablebase win `n` plies away `TB_DISPLAY - n` (negated for a loss).
pub const fn display_centipawns(score: i32) -> i32 {
    if is_tablebase(score) {
        let distance = TB_WIN - score.abs();
        if score > 0 {
            TB_DISPLAY - distance
        } else {
            -(TB_DISPLAY - distance)
        }
    } else {
        score
    }
}

/// For a mate score, the number of full moves to the mate: positive when the side to move
/// mates, negative when it is mated (mate in 1 = 1, mated in 1 = -1). `None` otherwise.
pub const fn mate_in_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Converts a score to table form: mate and tablebase scores relative to this node, not the
/// root.
#[inline]
pub const fn to_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a table score back to a score relative to the root, `ply` plies down.
#[inline]
pub const fn from_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in_moves(-(MATE - 4)), Some(-2));
        assert_eq!(mate_in_moves(150), None);
        assert_eq!(from_table(to_table(MATE - 7, 3), 3), MATE - 7);
        assert_eq!(to_table(-(MATE - 5), 2), -(MATE - 3));
    }

    #[test]
    fn tablebase_scores_sit_between_evaluations_and_mates() {
        assert!(!is_mate(TB_WIN) && is_decisive(TB_WIN) && is_tablebase(TB_WIN));
        assert!(is_tablebase(-(TB_WIN - 5)) && !is_tablebase(MATE - 5));
        assert!(!is_decisive(TB_WIN_BOUND - 1));
        assert_eq!(mate_in_moves(TB_WIN - 3), None);
        assert_eq!(display_centipawns(TB_WIN), TB_DISPLAY);
        assert_eq!(display_centipawns(TB_WIN - 7), 19_993);
        assert_eq!(display_centipawns(-(TB_WIN - 7)), -19_993);
        assert_eq!(display_centipawns(250), 250);
        assert_eq!(from_table(to_table(TB_WIN - 9, 4), 4), TB_WIN - 9);
        assert_eq!(to_table(TB_WIN - 9, 4), TB_WIN - 5);
        assert_eq!(from_table(to_table(-(TB_WIN - 9), 6), 6), -(TB_WIN - 9));
    }
}
