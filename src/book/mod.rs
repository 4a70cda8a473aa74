//! Polyglot opening books: the file format ([`polyglot`]), reading and looking up a book
//! ([`reader`]), the engine's own book and its options ([`player`]), and making a book from
//! PGN games ([`make`]). [`pgn`] is Betacut's one PGN reader: the book maker reads the main
//! lines through it, and `annotate` everything else as well.
//!
//! Betacut's Zobrist keys are Polyglot's keys, so a position is looked up by
//! [`crate::board::Position::key`] directly.

pub mod make;
pub mod pgn;
pub mod player;
pub mod polyglot;
pub mod reader;

pub use make::{AddedGame, BookMaker, MakeOptions};
pub use pgn::{PgnGame, PgnReader};
pub use player::{share_lines, BookChoice, BookPlayer};
pub use polyglot::Entry;
pub use reader::{Book, BookError, BookMove};
