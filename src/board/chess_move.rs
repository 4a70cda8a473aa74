//! Moves packed in 16 bits, and fixed-capacity move lists.

use super::piece::PieceKind;
use super::square::Square;
use std::fmt;

/// What kind of move a [`Move`] is, stored in its top two bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Any move that is not one of the others (captures included).
    Normal,
    /// A pawn reaching the last rank; the new piece is [`Move::promotion`].
    Promotion,
    /// A pawn capturing en passant; `to` is the square the pawn lands on.
    EnPassant,
    /// Castling, encoded as the king capturing its own rook: `to` is the rook's square.
    Castling,
}

/// A move: bits 0-5 from, 6-11 to, 12-13 promotion piece (knight..queen), 14-15 [`MoveKind`].
///
/// The all-zero value is [`Move::NONE`], never a legal move (from and to are equal).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// "No move": used for empty table slots and killer slots.
    pub const NONE: Move = Move(0);

    const KIND_SHIFT: u16 = 14;

    /// A normal move (quiet or capture).
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A promotion to `kind` (knight, bishop, rook or queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, kind: PieceKind) -> Move {
        let promo = (kind as u16).wrapping_sub(PieceKind::Knight as u16) & 3;
        Move(from.index() as u16 | (to.index() as u16) << 6 | promo << 12 | 1 << Self::KIND_SHIFT)
    }

    /// An en-passant capture landing on `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | 2 << Self::KIND_SHIFT)
    }

    /// Castling: king on `king` takes its own rook on `rook`.
    #[inline]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | 3 << Self::KIND_SHIFT)
    }

    /// Rebuilds a move from its 16-bit form (as stored in the transposition table).
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The 16-bit form.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// True for [`Move::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }

    /// Destination square (the castling rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as usize)
    }

    /// The move's kind.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> Self::KIND_SHIFT {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The piece a promotion creates, `None` for other moves.
    #[inline]
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion => Some(PieceKind::from_index(1 + (self.0 >> 12 & 3) as usize)),
            _ => None,
        }
    }

    /// True for castling.
    #[inline]
    pub const fn is_castling(self) -> bool {
        self.0 >> Self::KIND_SHIFT == 3
    }

    /// True for en passant.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> Self::KIND_SHIFT == 2
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, "Move::NONE");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Promotion => {
                let kind = self.promotion_kind().unwrap_or(PieceKind::Queen);
                write!(f, "{}", kind.letter())
            }
            MoveKind::EnPassant => write!(f, "(ep)"),
            MoveKind::Castling => write!(f, "(castle)"),
            MoveKind::Normal => Ok(()),
        }
    }
}

/// Largest number of legal moves in any chess position (218) rounded up.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack: no heap allocation, capacity [`MAX_MOVES`].
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move; the list never overflows because no position has more than 218 moves.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves (all of them if there are fewer).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for reordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// True if `mv` is in the list.
    #[inline]
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let e7 = Square::new(4, 6);
        let d8 = Square::new(3, 7);
        for kind in [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            let m = Move::promotion(e7, d8, kind);
            assert_eq!((m.from(), m.to(), m.kind()), (e7, d8, MoveKind::Promotion));
            assert_eq!(m.promotion_kind(), Some(kind));
            assert_eq!(Move::from_raw(m.raw()), m);
        }
        let c = Move::castling(Square::E1, Square::H1);
        assert!(c.is_castling() && !c.is_en_passant());
        assert_eq!(c.promotion_kind(), None);
        assert!(!Move::normal(Square::E1, Square::E8).is_none());
        assert!(Move::NONE.is_none());
    }

    #[test]
    fn list_pushes_and_iterates() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        list.push(Move::normal(Square::A1, Square::H8));
        list.push(Move::normal(Square::H8, Square::A1));
        assert_eq!(list.len(), 2);
        assert!(list.contains(Move::normal(Square::H8, Square::A1)));
        assert!(!list.contains(Move::normal(Square::A1, Square::B1)));
    }
}
