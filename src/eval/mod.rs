//! Static evaluation: a tapered (middlegame/endgame) score in centipawns from the side to
//! move's view. Material and piece-square values are kept incrementally by the position; the
//! other terms are computed here, pawn structure through a per-thread pawn cache; the search
//! keeps finished evaluations in a per-thread evaluation cache ([`EvalCache`]).

pub mod active;
pub mod cache;
pub mod evaluate;
pub mod masks;
pub mod packed;
pub mod params;
pub mod pawns;
pub mod psq;
pub mod trace;
pub mod weights;

pub use cache::EvalCache;
pub use evaluate::{evaluate, evaluate_traced, game_phase};
pub use pawns::PawnCache;
