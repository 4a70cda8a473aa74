//! Betacut: a chess engine for XBoard/WinBoard and UCI, with its own bitboards, search and
//! network evaluation (NNUE).
//!
//! Data flows one way: `protocol` -> `engine` -> `search` -> `eval` / `board`. The board knows
//! nothing of the evaluation or the search, the search nothing of the engine or the protocol,
//! and the protocol front-ends use the engine alone.

#![warn(missing_docs)]

pub mod board;
pub mod book;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod tb;
pub mod tools;
