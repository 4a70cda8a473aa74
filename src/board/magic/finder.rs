//! Magic-number finder for slider attacks ("fancy" magics: one multiplier and shift per square).
//!
//! This file is compiled twice: by `build.rs`, which runs the finder and bakes the numbers and the
//! attack tables into the binary, and by the library (as `board::magic::finder`), so tests can
//! check that the baked tables are exactly what the finder produces. It therefore depends on
//! nothing but `std` and `rand`, and works on plain `u64` bitboards and `u8` square indices.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Seed of the random generator the magics are searched with; fixed so every build is identical.
pub const MAGIC_SEED: u64 = 0xBE7A_C075_EED5_0001;

/// The two kinds of slider a magic table serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slider {
    /// Diagonal slider.
    Bishop,
    /// Orthogonal slider.
    Rook,
}

impl Slider {
    /// Ray directions as (file step, rank step).
    fn directions(self) -> [(i8, i8); 4] {
        match self {
            Slider::Bishop => [(1, 1), (1, -1), (-1, 1), (-1, -1)],
            Slider::Rook => [(1, 0), (-1, 0), (0, 1), (0, -1)],
        }
    }
}

/// One square's magic: relevant-occupancy mask, multiplier, right shift and offset in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoundMagic {
    /// Squares whose occupancy changes the attack set (edges excluded).
    pub mask: u64,
    /// The multiplier that maps every subset of `mask` to a non-colliding index.
    pub magic: u64,
    /// Right shift applied to the product: 64 minus the number of mask bits.
    pub shift: u8,
    /// Index of this square's first entry in the shared attack table.
    pub offset: usize,
}

/// Attacks of a slider on `square` with blockers `occupied`, by walking each ray (slow, exact).
pub fn sliding_attacks(slider: Slider, square: u8, occupied: u64) -> u64 {
    let mut attacks = 0u64;
    let (file, rank) = ((square % 8) as i8, (square / 8) as i8);
    for (df, dr) in slider.directions() {
        let (mut f, mut r) = (file + df, rank + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Squares whose occupancy matters for a slider on `square`: its empty-board rays without the
/// last square of each ray (a piece on the board edge never blocks anything further).
pub fn relevant_mask(slider: Slider, square: u8) -> u64 {
    let mut mask = 0u64;
    let (file, rank) = ((square % 8) as i8, (square / 8) as i8);
    for (df, dr) in slider.directions() {
        let (mut f, mut r) = (file + df, rank + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

/// Every subset of `mask` (the empty set included), by the carry-rippler trick.
fn subsets(mask: u64) -> Vec<u64> {
    let mut result = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        result.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return result;
        }
    }
}

/// Searches a magic multiplier for one square; returns it with its shift (offset left at 0).
fn find_magic(slider: Slider, square: u8, rng: &mut StdRng) -> FoundMagic {
    let mask = relevant_mask(slider, square);
    let bits = mask.count_ones();
    let shift = (64 - bits) as u8;
    let occupancies = subsets(mask);
    let attacks: Vec<u64> = occupancies
        .iter()
        .map(|&occ| sliding_attacks(slider, square, occ))
        .collect();
    // `used_in[i] == attempt` marks slot i as filled during this attempt, so the table never
    // needs clearing between attempts.
    let mut table = vec![0u64; 1 << bits];
    let mut used_in = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        // Sparse candidates (few bits set) are far more likely to be magic.
        let magic = rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let collides = occupancies.iter().zip(&attacks).any(|(&occ, &att)| {
            let index = (occ.wrapping_mul(magic) >> shift) as usize;
            if used_in[index] != attempt {
                used_in[index] = attempt;
                table[index] = att;
                false
            } else {
                table[index] != att
            }
        });
        if !collides {
            return FoundMagic {
                mask,
                magic,
                shift,
                offset: 0,
            };
        }
    }
}

/// Finds the magics of all 64 squares for both sliders from `seed`: bishops first, then rooks,
/// with offsets laid out consecutively in one shared table (bishops, then rooks).
pub fn find_all(seed: u64) -> ([FoundMagic; 64], [FoundMagic; 64]) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut offset = 0usize;
    let mut find_slider = |slider: Slider| {
        let mut magics = [FoundMagic {
            mask: 0,
            magic: 0,
            shift: 0,
            offset: 0,
        }; 64];
        for (square, entry) in magics.iter_mut().enumerate() {
            let mut found = find_magic(slider, square as u8, &mut rng);
            found.offset = offset;
            offset += 1 << (64 - found.shift);
            *entry = found;
        }
        magics
    };
    let bishops = find_slider(Slider::Bishop);
    let rooks = find_slider(Slider::Rook);
    (bishops, rooks)
}

/// Index of the attack set for `occupied` within the shared table, given a square's magic.
pub fn table_index(entry: &FoundMagic, occupied: u64) -> usize {
    entry.offset + ((occupied & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize
}

/// Builds the shared attack table (bishop squares, then rook squares) for the given magics.
pub fn build_table(bishops: &[FoundMagic; 64], rooks: &[FoundMagic; 64]) -> Vec<u64> {
    let size: usize = bishops
        .iter()
        .chain(rooks.iter())
        .map(|m| 1usize << (64 - m.shift))
        .sum();
    let mut table = vec![0u64; size];
    for (slider, magics) in [(Slider::Bishop, bishops), (Slider::Rook, rooks)] {
        for (square, entry) in magics.iter().enumerate() {
            for occ in subsets(entry.mask) {
                table[table_index(entry, occ)] = sliding_attacks(slider, square as u8, occ);
            }
        }
    }
    table
}
