//! The cuckoo table of reversible moves, for finding a repetition one move before it happens
//! (Marcel van Kervinck's method, as in Stockfish): every move of a piece other than a pawn
//! between two squares it attacks on an empty board changes the position's key by
//! `piece_key(from) ^ piece_key(to) ^ side_toggle`. If the key of the current position XOR the
//! key of an earlier one (same side to move as the opponent's now) is such a move's key, and
//! the squares between are empty, that move would bring the earlier position back.
//! [`crate::board::Position::has_upcoming_repetition`] uses it.

use super::attacks::piece_attacks;
use super::bitboard::Bitboard;
use super::piece::{Color, Piece, PieceKind};
use super::square::Square;
use super::zobrist::{piece_key, side_toggle};
use std::sync::OnceLock;

/// Slots of the table (a power of two; 3,668 moves live in it).
const SIZE: usize = 8192;

/// Keys and the squares of the move each stands for.
struct Table {
    keys: Box<[u64; SIZE]>,
    moves: Box<[(Square, Square); SIZE]>,
}

static TABLE: OnceLock<Table> = OnceLock::new();

#[inline(always)]
fn first_slot(key: u64) -> usize {
    (key & (SIZE as u64 - 1)) as usize
}

#[inline(always)]
fn second_slot(key: u64) -> usize {
    ((key >> 16) & (SIZE as u64 - 1)) as usize
}

fn build() -> Table {
    let mut keys = Box::new([0u64; SIZE]);
    let mut moves = Box::new([(Square::A1, Square::A1); SIZE]);
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            if kind == PieceKind::Pawn {
                continue;
            }
            let piece = Piece::new(color, kind);
            for a in 0..64 {
                let from = Square::from_index(a);
                for b in a + 1..64 {
                    let to = Square::from_index(b);
                    if !piece_attacks(kind, from, Bitboard::EMPTY).contains(to) {
                        continue;
                    }
                    // Cuckoo insertion: take the slot, move whoever was there to its other one.
                    let mut key = piece_key(piece, from) ^ piece_key(piece, to) ^ side_toggle();
                    let mut mv = (from, to);
                    let mut slot = first_slot(key);
                    loop {
                        std::mem::swap(&mut keys[slot], &mut key);
                        std::mem::swap(&mut moves[slot], &mut mv);
                        if key == 0 {
                            break;
                        }
                        slot = if slot == first_slot(key) {
                            second_slot(key)
                        } else {
                            first_slot(key)
                        };
                    }
                }
            }
        }
    }
    Table { keys, moves }
}

/// The squares of the reversible move whose key is `key`, if there is one.
#[inline]
pub fn lookup(key: u64) -> Option<(Square, Square)> {
    let table = TABLE.get_or_init(build);
    for slot in [first_slot(key), second_slot(key)] {
        if table.keys[slot] == key {
            return Some(table.moves[slot]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_reversible_move_once() {
        let table = TABLE.get_or_init(build);
        // Stockfish's count: knights, bishops, rooks, queens and kings of both colours.
        assert_eq!(table.keys.iter().filter(|&&k| k != 0).count(), 3668);
        let knight = Piece::new(Color::White, PieceKind::Knight);
        let key =
            piece_key(knight, Square::G1) ^ piece_key(knight, Square::new(5, 2)) ^ side_toggle();
        assert_eq!(lookup(key), Some((Square::G1, Square::new(5, 2))));
        assert_eq!(lookup(key ^ 1), None);
    }
}
