//! The board: squares, bitboards, pieces, moves, attacks, positions, move generation and FEN.

pub mod attacks;
pub mod bitboard;
pub mod castling;
pub mod changes;
pub mod checks;
pub mod chess_move;
pub mod cuckoo;
pub mod fen;
pub mod magic;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::CastleSide;
pub use changes::{BoardChanges, PieceChange};
pub use checks::CheckInfo;
pub use chess_move::{Move, MoveKind, MoveList, MAX_MOVES};
pub use fen::FenError;
pub use movegen::{MoveCounter, MoveSink};
pub use notation::MoveParseError;
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, State, START_FEN};
pub use square::Square;
