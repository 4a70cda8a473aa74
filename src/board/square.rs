//! Squares of the board, files and ranks.

use std::fmt;

/// One of the 64 squares, numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// Square a1.
    pub const A1: Square = Square(0);
    /// Square b1.
    pub const B1: Square = Square(1);
    /// Square c1.
    pub const C1: Square = Square(2);
    /// Square d1.
    pub const D1: Square = Square(3);
    /// Square e1.
    pub const E1: Square = Square(4);
    /// Square f1.
    pub const F1: Square = Square(5);
    /// Square g1.
    pub const G1: Square = Square(6);
    /// Square h1.
    pub const H1: Square = Square(7);
    /// Square a8.
    pub const A8: Square = Square(56);
    /// Square e8.
    pub const E8: Square = Square(60);
    /// Square h8.
    pub const H8: Square = Square(63);

    /// Square from an index 0..64; the index is taken modulo 64.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        Square((index & 63) as u8)
    }

    /// Square from file (0 = a) and rank (0 = first rank), both 0..8.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(((rank & 7) << 3) | (file & 7))
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (0 = a-file).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (0 = first rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from the other side (a1 <-> a8): flips the rank.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away (e.g. +8 is one rank up); the caller keeps it on board.
    #[inline]
    pub const fn offset(self, delta: i8) -> Square {
        Square((self.0 as i8).wrapping_add(delta) as u8 & 63)
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn try_offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::new(f as u8, r as u8))
        } else {
            None
        }
    }

    /// Parses algebraic names such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::new(file, rank))
    }

    /// Every square, a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            file_char(self.file()),
            (b'1' + self.rank()) as char
        )
    }
}

/// Letter of a file index (0 -> 'a').
pub const fn file_char(file: u8) -> char {
    (b'a' + (file & 7)) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4"), Some(Square::new(4, 3)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("e"), None);
    }

    #[test]
    fn offsets_stay_on_board() {
        assert_eq!(Square::H1.try_offset(1, 0), None);
        assert_eq!(Square::A1.try_offset(1, 2), Some(Square::new(1, 2)));
        assert_eq!(Square::A1.flip_rank(), Square::A8);
    }
}
