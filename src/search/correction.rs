//! Correction history: how far the static evaluation missed the search's result in earlier
//! positions with the same pawn structure, or the same pieces (other than pawns) of one side,
//! learnt during the search and added to the static evaluation of later such positions. The
//! evaluation's blind spots for a structure (a weak pawn it overrates, a fortress) are then
//! corrected before pruning decisions rely on it.
//!
//! Each table is indexed by the side to move and a Zobrist key (pawns; each side's other
//! pieces), holds a bounded score that moves towards the search's verdict by a bonus that
//! grows with depth, with gravity (as the move histories), and the correction is a weighted sum
//! of the entries (weights in [`params`]). The constants follow Stockfish 17's correction history.

use super::history::apply_with_gravity;
use super::params;
use crate::board::{Color, Position};

/// Entries per table and side to move.
const SIZE: usize = 16_384;
/// Largest magnitude of an entry.
const LIMIT: i32 = 1_024;
/// Largest magnitude of one update.
const MAX_BONUS: i32 = LIMIT / 4;
/// Divisor of the weighted sum: an entry at its limit corrects by about 55 cp.
const SCALE: i32 = 131_072;

/// The correction tables of one search thread.
#[derive(Clone)]
pub struct CorrectionHistory {
    /// By side to move and pawn key.
    pawn: Box<[[i16; SIZE]; 2]>,
    /// By side to move, piece colour and that colour's non-pawn key.
    non_pawn: Box<[[[i16; SIZE]; 2]; 2]>,
}

impl std::fmt::Debug for CorrectionHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CorrectionHistory")
    }
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

/// The slot of `key` in a table.
#[inline]
fn slot(key: u64) -> usize {
    (key as usize) & (SIZE - 1)
}

/// Adds `bonus` to `entry` with gravity towards zero, keeping it within the limit.
#[inline]
fn apply(entry: &mut i16, bonus: i32) {
    apply_with_gravity(entry, bonus, LIMIT);
}

impl CorrectionHistory {
    /// Empty tables.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            pawn: Box::new([[0; SIZE]; 2]),
            non_pawn: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.pawn.iter_mut().for_each(|t| t.fill(0));
        self.non_pawn
            .iter_mut()
            .flat_map(|t| t.iter_mut())
            .for_each(|t| t.fill(0));
    }

    /// The correction of `pos`'s static evaluation, in centipawns (side to move's view).
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move().index();
        let pawn = i32::from(self.pawn[us][slot(pos.pawn_key())]);
        let white = i32::from(self.non_pawn[us][0][slot(pos.non_pawn_key(Color::White))]);
        let black = i32::from(self.non_pawn[us][1][slot(pos.non_pawn_key(Color::Black))]);
        (params::correction_pawn_weight() * pawn
            + params::correction_non_pawn_weight() * (white + black))
            / SCALE
    }

    /// Learns from a search of `pos` to `depth` that found `best` where the (corrected)
    /// static evaluation said `static_eval`.
    #[inline]
    pub fn update(&mut self, pos: &Position, depth: i32, best: i32, static_eval: i32) {
        let bonus = ((best - static_eval) * depth / 8).clamp(-MAX_BONUS, MAX_BONUS);
        let us = pos.side_to_move().index();
        apply(&mut self.pawn[us][slot(pos.pawn_key())], bonus);
        apply(
            &mut self.non_pawn[us][0][slot(pos.non_pawn_key(Color::White))],
            bonus,
        );
        apply(
            &mut self.non_pawn[us][1][slot(pos.non_pawn_key(Color::Black))],
            bonus,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_correction_follows_what_the_search_found_and_stays_bounded() {
        let mut history = CorrectionHistory::new();
        let pos = Position::startpos();
        assert_eq!(history.correction(&pos), 0);
        // The search keeps finding 100 cp more than the evaluation said.
        for _ in 0..200 {
            let corrected = history.correction(&pos);
            history.update(&pos, 10, 100, corrected);
        }
        let learnt = history.correction(&pos);
        assert!((20..=100).contains(&learnt), "{learnt}");
        // Every entry stays within its limit: at most about 55 cp per table.
        for _ in 0..1000 {
            history.update(&pos, 60, 30_000, 0);
        }
        let most = history.correction(&pos);
        assert!(
            most <= (params::correction_pawn_weight() + 2 * params::correction_non_pawn_weight())
                * LIMIT
                / SCALE,
            "{most}"
        );
        // The other side to move has its own entries.
        let mut black = pos.clone();
        if let Some(&mv) = pos.legal_moves().iter().next() {
            black.make_move(mv);
        }
        assert_eq!(history.correction(&black), 0);
        history.clear();
        assert_eq!(history.correction(&pos), 0);
    }
}
