//! What a move changed on the board: the pieces that left squares and arrived on squares.
//!
//! `make_move` records them in the position's state so that whoever keeps running state about
//! the pieces (the evaluation's material sums, a network's accumulators) can update it without
//! the board knowing anything about them.

use super::piece::{Color, Piece, PieceKind};
use super::square::Square;

/// Marks "no square" in a packed change.
const NO_SQUARE: u8 = 64;

/// One piece that moved, left the board (`to` is `None`) or arrived on it (`from` is `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChange {
    /// The piece.
    pub piece: Piece,
    /// Square it left, if it was on the board before the move.
    pub from: Option<Square>,
    /// Square it stands on after the move, if it is still on the board.
    pub to: Option<Square>,
}

/// A change packed into three bytes (piece index, from, to; 64 = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed([u8; 3]);

impl Packed {
    const EMPTY: Packed = Packed([0, NO_SQUARE, NO_SQUARE]);

    #[inline(always)]
    fn new(piece: Piece, from: Option<Square>, to: Option<Square>) -> Packed {
        let square = |sq: Option<Square>| sq.map_or(NO_SQUARE, |s| s.index() as u8);
        Packed([piece.index() as u8, square(from), square(to)])
    }

    #[inline(always)]
    fn unpack(self) -> PieceChange {
        let [piece, from, to] = self.0;
        let color = if piece >= 6 {
            Color::Black
        } else {
            Color::White
        };
        let kind = PieceKind::from_index(usize::from(piece % 6));
        let square = |s: u8| (s < NO_SQUARE).then(|| Square::from_index(usize::from(s)));
        PieceChange {
            piece: Piece::new(color, kind),
            from: square(from),
            to: square(to),
        }
    }
}

/// The piece changes of one move: at most three (a capture that promotes: the pawn leaves, the
/// captured piece leaves, the new piece arrives). A null move changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardChanges {
    len: u8,
    items: [Packed; 3],
}

impl Default for BoardChanges {
    fn default() -> BoardChanges {
        BoardChanges::NONE
    }
}

impl BoardChanges {
    /// No change (a freshly set-up position, a null move).
    pub const NONE: BoardChanges = BoardChanges {
        len: 0,
        items: [Packed::EMPTY; 3],
    };

    /// Records a piece moving from `from` to `to`.
    #[inline(always)]
    pub(crate) fn moved(&mut self, piece: Piece, from: Square, to: Square) {
        self.push(Packed::new(piece, Some(from), Some(to)));
    }

    /// Records a piece leaving the board from `from`.
    #[inline(always)]
    pub(crate) fn removed(&mut self, piece: Piece, from: Square) {
        self.push(Packed::new(piece, Some(from), None));
    }

    /// Records a piece arriving on `to`.
    #[inline(always)]
    pub(crate) fn added(&mut self, piece: Piece, to: Square) {
        self.push(Packed::new(piece, None, Some(to)));
    }

    #[inline(always)]
    fn push(&mut self, change: Packed) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = change;
            self.len += 1;
        }
    }

    /// Number of changes recorded.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True if nothing changed.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The changes, in the order they were recorded.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = PieceChange> + '_ {
        self.items[..self.len()].iter().map(|p| p.unpack())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_pack_and_unpack() {
        let mut changes = BoardChanges::NONE;
        assert!(changes.is_empty());
        let pawn = Piece::new(Color::White, PieceKind::Pawn);
        let knight = Piece::new(Color::Black, PieceKind::Knight);
        let queen = Piece::new(Color::White, PieceKind::Queen);
        changes.removed(pawn, Square::new(6, 6));
        changes.removed(knight, Square::H8);
        changes.added(queen, Square::H8);
        changes.moved(queen, Square::A1, Square::H1); // a fourth change is dropped
        let all: Vec<PieceChange> = changes.iter().collect();
        assert_eq!(
            all,
            vec![
                PieceChange {
                    piece: pawn,
                    from: Some(Square::new(6, 6)),
                    to: None
                },
                PieceChange {
                    piece: knight,
                    from: Some(Square::H8),
                    to: None
                },
                PieceChange {
                    piece: queen,
                    from: None,
                    to: Some(Square::H8)
                },
            ]
        );
    }
}
