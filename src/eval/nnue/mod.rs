//! The efficiently updatable neural network (NNUE) evaluation.
//!
//! Architecture (a "perspective" network): 768 inputs per side to move's and other side's
//! perspective ([`features`]), a hidden layer of `H` units whose weights both perspectives share,
//! squared clipped ReLU (SCReLU, clipped at 1.0), then one output from the concatenation of the
//! side to move's and the other side's hidden layer. The output times [`SCALE`] is the
//! evaluation in centipawns from the side to move's view.
//!
//! Integers throughout: feature weights and biases are `i16` scaled by [`QA`], output weights
//! `i16` scaled by [`QB`], the output bias `i32` scaled by `QA * QB` ([`network`] has the file
//! format). Each search thread keeps the hidden layer's pre-activations (the accumulators) for
//! every position on its line, updated lazily from what each move changed ([`accumulator`]).

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod forward;
pub mod network;

pub use accumulator::AccumulatorStack;
pub use network::{NetError, Network};

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
/// Largest absolute quantised output weight (1.98 * QB, the clip the trainer applies): it
/// keeps `activation * weight` within `i16`, so the forward pass can multiply in 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// Largest absolute evaluation a network may return, far from mate scores.
pub const MAX_EVAL: i32 = 20_000;
