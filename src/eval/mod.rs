//! Static evaluation in centipawns from the side to move's view. The search evaluates through
//! an [`Evaluator`], which keeps its running state along the searched line (fed by what each
//! move changed on the board) and evaluates with a network ([`nnue`], the default: the net
//! built into the binary, or one loaded with `EvalFile`) or with the hand-crafted evaluation
//! (a tapered middlegame/endgame score with a pawn cache and an evaluation cache), which the
//! playing levels keep and the tools offer as `--hce`. [`explain`] takes an evaluation apart
//! for people (UCI `eval`).

pub mod cache;
pub mod evaluate;
pub mod evaluator;
pub mod explain;
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
