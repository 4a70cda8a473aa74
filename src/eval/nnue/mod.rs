//! The efficiently updatable neural network (NNUE) evaluation.
//!
//! Architecture (a "perspective" network): 768 inputs per side to move's and other side's
//! perspective ([`features`]), a hidden layer of `H` units whose weights both perspectives share,
//! squared clipped ReLU (SCReLU, clipped at 1.0), then one output from the concatenation of the
//! side to move's and the other side's hidden layer. The output times [`SCALE`] is the
//! evaluation in centipawns from the side to move's view. A net may have several output layers
//! ("output buckets"), one per band of material ([`output_bucket`]): the hidden layer is shared,
//! and the number of pieces on the board picks the output weights.
//!
//! Integers throughout: feature weights and biases are `i16` scaled by [`QA`], output weights
//! `i16` scaled by [`QB`], the output bias `i32` scaled by `QA * QB` ([`network`] has the file
//! format). Each search thread keeps the hidden layer's pre-activations (the accumulators) for
//! every position on its line, updated lazily from what each move changed ([`accumulator`]).

pub mod accumulator;
pub mod aligned;
pub mod embedded;
pub mod features;
pub mod forward;
pub mod network;
pub mod simd;

pub use accumulator::AccumulatorStack;
pub use features::KingBuckets;
pub use network::{NetError, Network};
pub use simd::SimdLevel;

/// Inputs per perspective: colour relative to the perspective (2) x piece kind (6) x square.
pub const INPUTS: usize = 768;
/// Most inputs active at once in one perspective (one per piece on the board).
pub const MAX_ACTIVE: usize = 32;
/// Quantisation of the feature weights and biases: 1.0 is stored as `QA`; the clipped
/// activation's range is 0..=QA.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is stored as `QB`.
pub const QB: i32 = 64;
/// The network's output times `SCALE` reads as centipawns.
pub const SCALE: i32 = 400;
/// The hidden size must be a multiple of this (the forward pass works in chunks of it).
pub const HIDDEN_MULTIPLE: usize = 32;
/// Largest hidden size a net file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// Most output buckets a net file may declare.
pub const MAX_OUTPUT_BUCKETS: usize = 16;
/// Largest absolute quantised output weight (1.98 * QB, the clip the trainer applies): it
/// keeps `activation * weight` within `i16`, so the forward pass can multiply in 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// Largest absolute evaluation a network may return, far from mate scores.
pub const MAX_EVAL: i32 = 20_000;

/// The output bucket of a position with `pieces` pieces on the board (kings included) in a net
/// of `buckets` (1..=[`MAX_OUTPUT_BUCKETS`]) output buckets: 2 to 33 pieces split into
/// `buckets` equal bands (8 buckets: 2-5, 6-9, ..., 30-32 pieces).
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let band = 32usize.div_ceil(buckets.max(1));
    ((pieces as usize).saturating_sub(2) / band).min(buckets.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::output_bucket;

    #[test]
    fn output_buckets_split_the_material_into_equal_bands() {
        for pieces in 0..=32 {
            assert_eq!(output_bucket(pieces, 1), 0);
        }
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(17, 8), 3);
        assert_eq!(output_bucket(18, 8), 4);
        assert_eq!(output_bucket(29, 8), 6);
        assert_eq!(output_bucket(30, 8), 7);
        assert_eq!(output_bucket(32, 8), 7);
        // Each of the 8 buckets gets 4 piece counts (the last 3: 30, 31, 32).
        let mut sizes = [0; 8];
        for pieces in 2..=32 {
            sizes[output_bucket(pieces, 8)] += 1;
        }
        assert_eq!(sizes, [4, 4, 4, 4, 4, 4, 4, 3]);
        assert_eq!(output_bucket(32, 16), 15);
        assert_eq!(output_bucket(2, 16), 0);
    }
}
