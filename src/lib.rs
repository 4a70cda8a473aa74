//! Betacut: a bitboard chess engine for XBoard/WinBoard.
//!
//! Data flows one way: `protocol` -> `search` -> `eval` / `board`. The board knows nothing of
//! the search, the search nothing of the protocol.

#![warn(missing_docs)]

pub mod ablation;
pub mod board;
pub mod book;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod tb;
pub mod tools;
