//! Static evaluation: a tapered (middlegame/endgame) score in centipawns from the side to
//! move's view. The search evaluates through an [`Evaluator`], which keeps the material and
//! piece-square sums running along the searched line (fed by what each move changed on the
//! board), pawn structure in a per-thread pawn cache and finished evaluations in a per-thread
//! evaluation cache ([`EvalCache`]). The [`Evaluator`] can use a network instead ([`nnue`]).

pub mod active;
pub mod cache;
pub mod evaluate;
pub mod evaluator;
pub mod masks;
pub mod nnue;
pub mod packed;
pub mod params;
pub mod pawns;
pub mod psq;
pub mod trace;
pub mod weights;

pub use cache::EvalCache;
pub use evaluate::{evaluate, evaluate_traced, evaluate_with_psq, game_phase};
pub use evaluator::Evaluator;
pub use pawns::PawnCache;
