//! Pawn structure: doubled, isolated, backward, connected and passed pawns, cached by pawn key.

use super::masks::{adjacent_files, attack_span, forward_file, passed_span};
use super::packed::S;
use super::params::{BACKWARD_PAWN, CONNECTED_PAWN, DOUBLED_PAWN, ISOLATED_PAWN, PASSED_PAWN};
use super::trace::{NoTrace, Trace};
use super::weights::WEIGHTS;
use crate::board::attacks::pawn_attacks;
use crate::board::{Bitboard, Color, PieceKind, Position};

/// What the pawn structure alone contributes, from White's view, and the passed pawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnInfo {
    /// Pawn-structure score from White's view.
    pub score: S,
    /// Passed pawns of both colours.
    pub passed: Bitboard,
}

/// Evaluates the pawn structure (recording features in `trace`).
pub fn evaluate_pawns<T: Trace>(pos: &Position, trace: &mut T) -> PawnInfo {
    let mut info = PawnInfo::default();
    for color in Color::ALL {
        let own = pos.pieces_of(color, PieceKind::Pawn);
        let enemy = pos.pieces_of(!color, PieceKind::Pawn);
        let mut score = S::ZERO;
        let mut term = |index: usize, trace: &mut T| {
            score += WEIGHTS[index];
            trace.add(index, color, 1);
        };
        for sq in own {
            let rank = color.relative_rank(sq.rank()) as usize;
            let stop = sq.offset(color.forward());
            let doubled = (forward_file(color, sq) & own).any();
            let isolated = (adjacent_files(sq.file()) & own).is_empty();
            if doubled {
                term(DOUBLED_PAWN, trace);
            }
            if isolated {
                term(ISOLATED_PAWN, trace);
            } else {
                let supportable = (attack_span(!color, stop) & own).any();
                let stop_attacked = (pawn_attacks(color, stop) & enemy).any();
                if !supportable && stop_attacked {
                    term(BACKWARD_PAWN, trace);
                }
            }
            let supported = (pawn_attacks(!color, sq) & own).any();
            let phalanx = (adjacent_files(sq.file()) & Bitboard::rank(sq.rank()) & own).any();
            if supported || phalanx {
                term(CONNECTED_PAWN + rank, trace);
            }
            if (passed_span(color, sq) & enemy).is_empty() && !doubled {
                term(PASSED_PAWN + rank, trace);
                info.passed |= Bitboard::from(sq);
            }
        }
        match color {
            Color::White => info.score += score,
            Color::Black => info.score -= score,
        }
    }
    info
}

#[derive(Clone, Copy, Debug, Default)]
struct PawnEntry {
    key: u64,
    info: PawnInfo,
}

/// A small hash table of pawn-structure results, one per search thread.
#[derive(Clone, Debug)]
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

/// Entries in a pawn cache (a power of two).
const PAWN_CACHE_ENTRIES: usize = 1 << 14;

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl PawnCache {
    /// An empty cache.
    pub fn new() -> PawnCache {
        PawnCache {
            entries: vec![PawnEntry::default(); PAWN_CACHE_ENTRIES],
        }
    }

    /// The pawn structure of `pos`, from the cache when its pawn key is there.
    #[inline]
    pub fn probe(&mut self, pos: &Position) -> PawnInfo {
        let key = pos.pawn_key();
        let index = (key as usize) & (PAWN_CACHE_ENTRIES - 1);
        let entry = &mut self.entries[index];
        // Key 0 (no pawns at all) is stored like any other: an empty entry holds key 0 and the
        // default info, which is exactly the right answer for a pawnless board.
        if entry.key != key {
            *entry = PawnEntry {
                key,
                info: evaluate_pawns(pos, &mut NoTrace),
            };
        }
        entry.info
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }
}
