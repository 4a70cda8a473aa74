//! The index tables of the Syzygy encoding, computed at compile time from their definitions:
//! how a set of piece squares becomes a number, after the board has been mirrored so that the
//! leading piece stands in the a1-d1-d4 triangle (tables without pawns) or the leading pawn on
//! the a- to d-files (tables with pawns).
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63, as everywhere in Betacut.

/// Rank minus file: negative below the a1-h8 diagonal, zero on it, positive above it.
#[inline]
pub(crate) const fn off_diagonal(sq: u8) -> i32 {
    (sq >> 3) as i32 - (sq & 7) as i32
}

/// The square mirrored in the a1-h8 diagonal (file and rank swapped).
#[inline]
pub(crate) const fn flip_diagonal(sq: u8) -> u8 {
    ((sq >> 3) | (sq << 3)) & 63
}

/// Largest `n` and `k` of the binomial table (a board has 64 squares).
const BINOMIAL_SIZE: usize = 65;

/// n choose k, computed exactly (for the tables built at compile time); 0 when k > n.
const fn choose(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut result = 1u128;
    let mut i = 0;
    while i < k {
        result = result * (n - i) as u128 / (i + 1) as u128;
        i += 1;
    }
    result as u64
}

/// Pascal's triangle: `BINOMIAL[k][n]` is n choose k (0 when k > n). The largest entry,
/// 64 choose 32, fits in 64 bits.
static BINOMIAL: [[u64; BINOMIAL_SIZE]; BINOMIAL_SIZE] = {
    let mut table = [[0u64; BINOMIAL_SIZE]; BINOMIAL_SIZE];
    let mut k = 0;
    while k < BINOMIAL_SIZE {
        let mut n = k;
        while n < BINOMIAL_SIZE {
            table[k][n] = choose(n, k);
            n += 1;
        }
        k += 1;
    }
    table
};

/// n choose k; 0 when k > n or either is negative (as the format's index arithmetic needs).
#[inline]
pub(crate) fn binomial(n: i32, k: i32) -> u64 {
    if n < 0 || k < 0 || n as usize >= BINOMIAL_SIZE || k as usize >= BINOMIAL_SIZE {
        return 0;
    }
    BINOMIAL[k as usize][n as usize]
}

/// The code 0..9 of a square of the a1-d1-d4 triangle: the six squares below the diagonal
/// (b1, c1, d1, c2, d2, d3) first, then the four on it (a1, b2, c3, d4). Any other square gets
/// the code of the triangle square it is mirrored onto (files, ranks, then the diagonal).
pub(crate) const TRIANGLE: [u8; 64] = {
    let mut codes = [0u8; 64];
    // Codes of the triangle itself, in square order: below the diagonal, then on it.
    let mut own = [0u8; 64];
    let mut code = 0u8;
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        if file <= 3 && rank < file {
            own[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        if file <= 3 && rank == file {
            own[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    sq = 0;
    while sq < 64 {
        let mut file = sq % 8;
        let mut rank = sq / 8;
        if file > 3 {
            file = 7 - file;
        }
        if rank > 3 {
            rank = 7 - rank;
        }
        if rank > file {
            let t = rank;
            rank = file;
            file = t;
        }
        codes[sq] = own[rank * 8 + file];
        sq += 1;
    }
    codes
};

/// Squares below the a1-h8 diagonal numbered 0..27 in square order (b1 = 0, ..., h7 = 27);
/// squares above it get their mirror image's number, squares on it 28 + file.
pub(crate) const LOWER: [u8; 64] = {
    let mut codes = [0u8; 64];
    let mut code = 0u8;
    let mut sq = 0;
    while sq < 64 {
        if off_diagonal(sq as u8) < 0 {
            codes[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    sq = 0;
    while sq < 64 {
        let off = off_diagonal(sq as u8);
        if off > 0 {
            codes[sq] = codes[flip_diagonal(sq as u8) as usize];
        } else if off == 0 {
            codes[sq] = 28 + (sq % 8) as u8;
        }
        sq += 1;
    }
    codes
};

/// Position along a long diagonal: a1-h8 squares get their file (0..7), a8-h1 squares 8 plus
/// their rank; other squares 0 (never looked up).
pub(crate) const DIAGONAL: [u8; 64] = {
    let mut codes = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        if file == rank {
            codes[sq] = file as u8;
        } else if file + rank == 7 {
            codes[sq] = 8 + rank as u8;
        }
        sq += 1;
    }
    codes
};

/// Number of placements of the two kings with the first in the a1-d1-d4 triangle (and, when it
/// is on the diagonal, the second not above it): the size of the leading group of a table
/// whose only unique pieces are the kings.
pub(crate) const KING_PAIRS: u64 = 462;

/// Number of placements of three unique leading pieces (the first in the triangle, symmetry
/// about the diagonal removed).
pub(crate) const UNIQUE_TRIPLES: u64 = 31_332;

/// `KING_PAIR_INDEX[t][s]`: index 0..461 of the kings on the triangle square with code `t` and
/// on square `s`, or -1 when the two kings touch (or stand on one square) or the placement is
/// a mirror image of one counted already. Placements with both kings on the diagonal come last.
pub(crate) const KING_PAIR_INDEX: [[i16; 64]; 10] = {
    let mut index = [[-1i16; 64]; 10];
    // Triangle square of each code (the inverse of TRIANGLE on the triangle).
    let mut square_of = [0usize; 10];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        if file <= 3 && rank <= file {
            square_of[TRIANGLE[sq] as usize] = sq;
        }
        sq += 1;
    }
    let mut code = 0i16;
    let mut t = 0;
    while t < 10 {
        let first = square_of[t];
        let mut second = 0;
        while second < 64 {
            let (df, dr) = (
                (first % 8) as i32 - (second % 8) as i32,
                (first / 8) as i32 - (second / 8) as i32,
            );
            let touching = df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
            let first_on = off_diagonal(first as u8) == 0;
            let second_off = off_diagonal(second as u8);
            if !touching && !(first_on && second_off >= 0) {
                index[t][second] = code;
                code += 1;
            }
            second += 1;
        }
        t += 1;
    }
    // Both on the diagonal: last.
    t = 0;
    while t < 10 {
        let first = square_of[t];
        if off_diagonal(first as u8) == 0 {
            let mut second = 0;
            while second < 64 {
                let (df, dr) = (
                    (first % 8) as i32 - (second % 8) as i32,
                    (first / 8) as i32 - (second / 8) as i32,
                );
                let touching = df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
                if !touching && off_diagonal(second as u8) == 0 {
                    index[t][second] = code;
                    code += 1;
                }
                second += 1;
            }
        }
        t += 1;
    }
    index
};

/// Maps the pawn squares of files a-d (ranks 2-7) to 0..23, file by file (a2 = 0, a3 = 1, ...,
/// d7 = 23); files e-h get the number of their mirror image. Other squares: 0.
pub(crate) const FLAP: [u8; 64] = {
    let mut codes = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let file = sq % 8;
        let folded = if file > 3 { 7 - file } else { file };
        codes[sq] = (6 * folded + sq / 8 - 1) as u8;
        sq += 1;
    }
    codes
};

/// Orders the squares a pawn may stand on (ranks 2-7) by how far the leading pawn is from the
/// edge: a2 = 47, h2 = 46, a3 = 45, h3 = 44, ..., a7 = 37, h7 = 36, b2 = 35, g2 = 34, ...,
/// d7 = 1, e7 = 0. Other squares: 0.
pub(crate) const PAWN_TWIST: [u8; 64] = {
    let mut codes = [0u8; 64];
    let mut next = 47i32;
    let mut file = 0;
    while file < 4 {
        let mut rank = 1;
        while rank < 7 {
            codes[rank * 8 + file] = next as u8;
            codes[rank * 8 + 7 - file] = (next - 1) as u8;
            next -= 2;
            rank += 1;
        }
        file += 1;
    }
    codes
};

/// The square of each FLAP code (a2, a3, ..., a7, b2, ..., d7).
const FLAP_SQUARE: [u8; 24] = {
    let mut squares = [0u8; 24];
    let mut j = 0;
    while j < 24 {
        squares[j] = (8 * (j % 6 + 1) + j / 6) as u8;
        j += 1;
    }
    squares
};

/// Most pawns of one colour (the leading group never holds more).
pub(crate) const MAX_LEADING_PAWNS: usize = 8;

/// Index tables of the leading pawn group: `LEAD_PAWN_INDEX[k - 1][flap]` is where the
/// placements of `k` leading pawns whose first pawn stands on the FLAP square `flap` start,
/// counted within its file; `LEAD_PAWN_FACTOR[k - 1][file]` is how many placements a file has.
pub(crate) const LEAD_PAWN_INDEX: [[u64; 24]; MAX_LEADING_PAWNS] = lead_pawn_tables().0;
/// See [`LEAD_PAWN_INDEX`].
pub(crate) const LEAD_PAWN_FACTOR: [[u64; 4]; MAX_LEADING_PAWNS] = lead_pawn_tables().1;

#[allow(clippy::type_complexity)]
const fn lead_pawn_tables() -> (
    [[u64; 24]; MAX_LEADING_PAWNS],
    [[u64; 4]; MAX_LEADING_PAWNS],
) {
    let mut index = [[0u64; 24]; MAX_LEADING_PAWNS];
    let mut factor = [[0u64; 4]; MAX_LEADING_PAWNS];
    let mut others = 0;
    while others < MAX_LEADING_PAWNS {
        let mut file = 0;
        while file < 4 {
            let mut sum = 0u64;
            let mut j = 6 * file;
            while j < 6 * file + 6 {
                index[others][j] = sum;
                sum += if others == 0 {
                    1
                } else {
                    choose(PAWN_TWIST[FLAP_SQUARE[j] as usize] as usize, others)
                };
                j += 1;
            }
            factor[others][file] = sum;
            file += 1;
        }
        others += 1;
    }
    (index, factor)
}

/// File a-d of a file (e-h mirrored onto d-a).
#[inline]
pub(crate) const fn folded_file(sq: u8) -> usize {
    let file = (sq & 7) as usize;
    if file > 3 {
        7 - file
    } else {
        file
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_their_defining_sizes_and_landmarks() {
        // a1 b1 c1 d1 e1 / b2 c2 / c3 / d4.
        assert_eq!(&TRIANGLE[0..8], &[6, 0, 1, 2, 2, 1, 0, 6]);
        assert_eq!(TRIANGLE[9], 7);
        assert_eq!(TRIANGLE[10], 3);
        assert_eq!(TRIANGLE[18], 8);
        assert_eq!(TRIANGLE[27], 9);
        assert_eq!(TRIANGLE[63], 6);
        assert_eq!(LOWER[0], 28);
        assert_eq!(LOWER[1], 0);
        assert_eq!(LOWER[8], 0);
        assert_eq!(LOWER[63], 35);
        assert_eq!(DIAGONAL[7], 8);
        assert_eq!(DIAGONAL[36], 4);
        assert_eq!(DIAGONAL[35], 12);
        // Every legal king pair has exactly one index, 0..461.
        let mut seen = [false; KING_PAIRS as usize];
        for row in &KING_PAIR_INDEX {
            for &i in row {
                if i >= 0 {
                    assert!(!seen[i as usize], "index {i} twice");
                    seen[i as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(KING_PAIR_INDEX[0][3], 0, "kings b1 and d1");
        assert_eq!(
            KING_PAIR_INDEX[6][18], 441,
            "kings a1 and c3: both on the diagonal"
        );
        assert_eq!(PAWN_TWIST[8], 47);
        assert_eq!(PAWN_TWIST[15], 46);
        assert_eq!(PAWN_TWIST[52], 0);
        assert_eq!(PAWN_TWIST[51], 1);
        assert_eq!(FLAP[8], 0);
        assert_eq!(FLAP[51], 23);
        assert_eq!(FLAP[52], 23);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(-1, 1), 0);
        // One leading pawn: six squares per file.
        assert_eq!(LEAD_PAWN_FACTOR[0], [6, 6, 6, 6]);
        assert_eq!(LEAD_PAWN_INDEX[0][7], 1);
        // Two leading pawns on the a-file: the second may stand on any square of lower twist.
        assert_eq!(LEAD_PAWN_FACTOR[1][0], 47 + 45 + 43 + 41 + 39 + 37);
    }
}
