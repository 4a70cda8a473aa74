//! Search scores: centipawns from the side to move's view, with mate scores counted in plies.

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

/// Converts a score to table form: mate scores relative to this node, not the root.
#[inline]
pub const fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a table score back to a score relative to the root, `ply` plies down.
#[inline]
pub const fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
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
}
