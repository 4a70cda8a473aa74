//! Attack sets of every piece, and geometric tables (squares between, lines through).
//!
//! Leaper and geometry tables are computed at compile time by `const fn`s; slider attacks come
//! from the magic tables in [`super::magic`].

use super::bitboard::Bitboard;
use super::magic;
use super::piece::{Color, PieceKind};
use super::square::Square;

const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = Square::from_index(sq).try_offset(steps[i].0, steps[i].1) {
                bits |= 1u64 << to.index();
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[Bitboard; 64]; 2] {
    let white = leaper_table(&[(-1, 1), (1, 1)]);
    let black = leaper_table(&[(-1, -1), (1, -1)]);
    [white, black]
}

/// Direction from `a` to `b` as (file step, rank step) if they share a line, else `None`.
const fn direction(a: usize, b: usize) -> Option<(i8, i8)> {
    let (fa, ra) = ((a % 8) as i8, (a / 8) as i8);
    let (fb, rb) = ((b % 8) as i8, (b / 8) as i8);
    let (df, dr) = (fb - fa, rb - ra);
    if a == b {
        None
    } else if df == 0 || dr == 0 || df == dr || df == -dr {
        Some((df.signum(), dr.signum()))
    } else {
        None
    }
}

const fn between_table() -> [[Bitboard; 64]; 64] {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if let Some((df, dr)) = direction(a, b) {
                let mut bits = 0u64;
                let mut sq = Square::from_index(a);
                while let Some(next) = sq.try_offset(df, dr) {
                    if next.index() == b {
                        break;
                    }
                    bits |= 1u64 << next.index();
                    sq = next;
                }
                table[a][b] = Bitboard(bits);
            }
            b += 1;
        }
        a += 1;
    }
    table
}

const fn line_table() -> [[Bitboard; 64]; 64] {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if let Some((df, dr)) = direction(a, b) {
                let mut bits = 1u64 << a;
                let mut sign = 1;
                while sign >= -1 {
                    let mut sq = Square::from_index(a);
                    while let Some(next) = sq.try_offset(df * sign, dr * sign) {
                        bits |= 1u64 << next.index();
                        sq = next;
                    }
                    sign -= 2;
                }
                table[a][b] = Bitboard(bits);
            }
            b += 1;
        }
        a += 1;
    }
    table
}

static KNIGHT_ATTACKS: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING_ATTACKS: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN_ATTACKS: [[Bitboard; 64]; 2] = pawn_table();
static BETWEEN: [[Bitboard; 64]; 64] = between_table();
static LINE: [[Bitboard; 64]; 64] = line_table();

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT_ATTACKS[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING_ATTACKS[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (captures diagonally forward).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][sq.index()]
}

/// Squares a bishop on `sq` attacks given the occupancy.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::bishop_attacks(sq, occupied)
}

/// Squares a rook on `sq` attacks given the occupancy.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::rook_attacks(sq, occupied)
}

/// Squares a queen on `sq` attacks given the occupancy.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// Squares a piece of `kind` (not a pawn) on `sq` attacks given the occupancy.
#[inline]
pub fn piece_attacks(kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => Bitboard::EMPTY,
        PieceKind::Knight => knight_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occupied),
        PieceKind::Rook => rook_attacks(sq, occupied),
        PieceKind::Queen => queen_attacks(sq, occupied),
        PieceKind::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (edge to edge) through `a` and `b` if they are aligned; else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// True if `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Squares of every pawn in `pawns` (of `color`) attacks, computed in bulk by shifting.
#[inline(always)]
pub fn pawn_attacks_bulk(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => pawns.north().east() | pawns.north().west(),
        Color::Black => pawns.south().east() | pawns.south().west(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap_or(Square::A1)
    }

    #[test]
    fn leaper_counts_are_right() {
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(knight_attacks(sq("d4")).count(), 8);
        assert_eq!(king_attacks(sq("h8")).count(), 3);
        assert_eq!(king_attacks(sq("e4")).count(), 8);
        assert_eq!(
            pawn_attacks(Color::White, sq("a2")),
            Bitboard::from_square(sq("b3"))
        );
        assert_eq!(pawn_attacks(Color::Black, sq("e5")).count(), 2);
        let total: u32 = Square::all().map(|s| knight_attacks(s).count()).sum();
        assert_eq!(total, 336);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")).count(), 2);
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert!(between(sq("e1"), sq("e2")).is_empty());
        assert_eq!(line(sq("a1"), sq("c3")).count(), 8);
        assert_eq!(line(sq("b1"), sq("b5")), Bitboard::file(1));
        assert!(aligned(sq("a1"), sq("h8"), sq("d4")));
        assert!(!aligned(sq("a1"), sq("h8"), sq("d5")));
    }

    #[test]
    fn slider_attacks_on_empty_board() {
        assert_eq!(rook_attacks(sq("d4"), Bitboard::EMPTY).count(), 14);
        assert_eq!(bishop_attacks(sq("d4"), Bitboard::EMPTY).count(), 13);
        assert_eq!(queen_attacks(sq("a1"), Bitboard::EMPTY).count(), 21);
    }
}
