//! Betacut: a bitboard chess engine for XBoard/WinBoard.

pub mod board;
pub mod tools;
