//! Slider attacks through magic bitboards.
//!
//! The magic numbers are found by our own seeded search ([`finder`]) when the crate is built;
//! `build.rs` bakes the numbers and the full attack table into the binary, so a lookup is one
//! mask, one multiplication, one shift and one load.

pub mod finder;

use super::bitboard::Bitboard;
use super::square::Square;

/// A square's magic entry, as baked in by `build.rs`.
#[derive(Clone, Copy, Debug)]
pub struct Magic {
    /// Relevant-occupancy mask.
    pub mask: u64,
    /// Magic multiplier.
    pub magic: u64,
    /// Right shift of the product.
    pub shift: u8,
    /// First index of the square's slice of [`SLIDER_ATTACKS`].
    pub offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magic_tables.rs"));

#[inline(always)]
fn lookup(entry: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    Bitboard(SLIDER_ATTACKS[entry.offset + index])
}

/// Squares a bishop on `sq` attacks when the squares in `occupied` are occupied.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a rook on `sq` attacks when the squares in `occupied` are occupied.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&ROOK_MAGICS[sq.index()], occupied)
}

#[cfg(test)]
mod tests {
    use super::finder::{self, Slider};
    use super::*;

    /// The baked tables are exactly what the finder produces from the fixed seed.
    #[test]
    fn baked_tables_match_the_finder() {
        let (bishops, rooks) = finder::find_all(finder::MAGIC_SEED);
        for sq in 0..64 {
            for (found, baked) in [
                (&bishops[sq], &BISHOP_MAGICS[sq]),
                (&rooks[sq], &ROOK_MAGICS[sq]),
            ] {
                assert_eq!(
                    (found.mask, found.magic, found.shift, found.offset),
                    (baked.mask, baked.magic, baked.shift, baked.offset)
                );
            }
        }
        assert_eq!(
            finder::build_table(&bishops, &rooks),
            SLIDER_ATTACKS.to_vec()
        );
    }

    /// Lookups agree with ray walking for random occupancies on every square.
    #[test]
    fn lookups_match_ray_walks() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17);
            for sq in Square::all() {
                let i = sq.index() as u8;
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    finder::sliding_attacks(Slider::Bishop, i, occ)
                );
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    finder::sliding_attacks(Slider::Rook, i, occ)
                );
            }
        }
    }
}
