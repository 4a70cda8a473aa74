//! Square masks for pawn-structure terms, computed at compile time.

use crate::board::{Bitboard, Color, Square};

const fn forward_file_table() -> [[Bitboard; 64]; 2] {
    let mut table = [[Bitboard::EMPTY; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let mut bits = [0u64; 2];
        let mut r = 0;
        while r < 8 {
            if r > rank {
                bits[0] |= 1u64 << (r * 8 + file);
            }
            if r < rank {
                bits[1] |= 1u64 << (r * 8 + file);
            }
            r += 1;
        }
        table[0][sq] = Bitboard(bits[0]);
        table[1][sq] = Bitboard(bits[1]);
        sq += 1;
    }
    table
}

const fn adjacent_files_table() -> [Bitboard; 8] {
    let mut table = [Bitboard::EMPTY; 8];
    let mut file = 0;
    while file < 8 {
        let mut bits = 0u64;
        if file > 0 {
            bits |= Bitboard::FILE_A.0 << (file - 1);
        }
        if file < 7 {
            bits |= Bitboard::FILE_A.0 << (file + 1);
        }
        table[file] = Bitboard(bits);
        file += 1;
    }
    table
}

static FORWARD_FILE: [[Bitboard; 64]; 2] = forward_file_table();
static ADJACENT_FILES: [Bitboard; 8] = adjacent_files_table();

/// Squares in front of `sq` on its file, from `color`'s view.
#[inline(always)]
pub fn forward_file(color: Color, sq: Square) -> Bitboard {
    FORWARD_FILE[color.index()][sq.index()]
}

/// The files next to `file`.
#[inline(always)]
pub fn adjacent_files(file: u8) -> Bitboard {
    ADJACENT_FILES[file as usize & 7]
}

/// Squares on the neighbouring files in front of `sq`: where enemy pawns could attack it from.
#[inline(always)]
pub fn attack_span(color: Color, sq: Square) -> Bitboard {
    let mut span = Bitboard::EMPTY;
    if sq.file() > 0 {
        span |= forward_file(color, sq.offset(-1));
    }
    if sq.file() < 7 {
        span |= forward_file(color, sq.offset(1));
    }
    span
}

/// Squares an enemy pawn must not occupy for a pawn on `sq` to be passed.
#[inline(always)]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    forward_file(color, sq) | attack_span(color, sq)
}

/// Chebyshev (king-move) distance between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        let e4 = Square::new(4, 3);
        assert_eq!(forward_file(Color::White, e4).count(), 4);
        assert_eq!(forward_file(Color::Black, e4).count(), 3);
        assert_eq!(passed_span(Color::White, e4).count(), 12);
        assert_eq!(attack_span(Color::White, Square::new(0, 1)).count(), 6);
        assert_eq!(adjacent_files(0), Bitboard::file(1));
        assert_eq!(distance(Square::A1, Square::H8), 7);
    }
}
