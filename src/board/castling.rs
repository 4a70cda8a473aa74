//! Castling rights and castling geometry, Chess960-ready: each right remembers its rook's square.

use super::attacks::between;
use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::Square;

/// Which way a king castles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleSide {
    /// Towards the h-file (O-O); the king ends on g1/g8.
    Short = 0,
    /// Towards the a-file (O-O-O); the king ends on c1/c8.
    Long = 1,
}

impl CastleSide {
    /// Both sides, short first.
    pub const ALL: [CastleSide; 2] = [CastleSide::Short, CastleSide::Long];
}

/// Index 0..4 of a right: white short, white long, black short, black long (Polyglot's order).
#[inline]
pub const fn right_index(color: Color, side: CastleSide) -> usize {
    color.index() * 2 + side as usize
}

/// Bit of a right within the 4-bit rights set.
#[inline]
pub const fn right_bit(color: Color, side: CastleSide) -> u8 {
    1 << right_index(color, side)
}

/// Where the king and rook end up after castling to `side`.
#[inline]
pub const fn castle_destinations(color: Color, side: CastleSide) -> (Square, Square) {
    let rank = color.relative_rank(0);
    match side {
        CastleSide::Short => (Square::new(6, rank), Square::new(5, rank)),
        CastleSide::Long => (Square::new(2, rank), Square::new(3, rank)),
    }
}

/// Castling geometry of a game, fixed when the position is set up: rook starting squares, the
/// squares that must be empty, the squares the king crosses, and which rights each square
/// guards (a piece moving from or to it clears them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingSetup {
    rook_from: [Square; 4],
    king_from: [Square; 2],
    must_be_empty: [Bitboard; 4],
    king_path: [Bitboard; 4],
    guarded_rights: [u8; 64],
}

impl Default for CastlingSetup {
    fn default() -> Self {
        CastlingSetup {
            rook_from: [Square::H1, Square::A1, Square::H8, Square::A8],
            king_from: [Square::E1, Square::E8],
            must_be_empty: [Bitboard::EMPTY; 4],
            king_path: [Bitboard::EMPTY; 4],
            guarded_rights: [0; 64],
        }
    }
}

impl CastlingSetup {
    /// Records a right: king of `color` on `king`, castling rook on `rook`.
    pub fn add_right(&mut self, color: Color, side: CastleSide, king: Square, rook: Square) {
        let index = right_index(color, side);
        let (king_to, rook_to) = castle_destinations(color, side);
        let king_span = between(king, king_to) | Bitboard::from(king_to);
        let rook_span = between(rook, rook_to) | Bitboard::from(rook_to);
        self.rook_from[index] = rook;
        self.king_from[color.index()] = king;
        self.must_be_empty[index] = (king_span | rook_span).without(king).without(rook);
        self.king_path[index] = king_span.without(king);
        self.guarded_rights[king.index()] |=
            right_bit(color, CastleSide::Short) | right_bit(color, CastleSide::Long);
        self.guarded_rights[rook.index()] |= right_bit(color, side);
    }

    /// The rook's starting square for a right.
    #[inline]
    pub fn rook_from(&self, color: Color, side: CastleSide) -> Square {
        self.rook_from[right_index(color, side)]
    }

    /// The king's starting square recorded for `color` (meaningful while it has a right).
    #[inline]
    pub fn king_from(&self, color: Color) -> Square {
        self.king_from[color.index()]
    }

    /// Squares that must be empty (king and castling rook aside) to castle.
    #[inline]
    pub fn must_be_empty(&self, color: Color, side: CastleSide) -> Bitboard {
        self.must_be_empty[right_index(color, side)]
    }

    /// Squares the king passes through or lands on; none may be attacked.
    #[inline]
    pub fn king_path(&self, color: Color, side: CastleSide) -> Bitboard {
        self.king_path[right_index(color, side)]
    }

    /// Rights lost when a piece moves from or to `sq`.
    #[inline]
    pub fn guarded_rights(&self, sq: Square) -> u8 {
        self.guarded_rights[sq.index()]
    }

    /// The side a castling move goes to, judged from the king's and rook's files.
    #[inline]
    pub fn side_of(king: Square, rook: Square) -> CastleSide {
        if rook.file() > king.file() {
            CastleSide::Short
        } else {
            CastleSide::Long
        }
    }
}
