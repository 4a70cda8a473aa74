//! The engine's own book: the options `OwnBook`, `BookFile` and `BookBestMove`, the open book
//! and the random source of the weighted pick. The engine asks it for a move before it starts
//! a search of its own move.

use super::reader::{best_move, total_weight, weighted_move, Book, BookError, BookMove};
use crate::board::{Move, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::{Path, PathBuf};

/// A move chosen from the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookChoice {
    /// The move to play.
    pub mv: Move,
    /// Its weight.
    pub weight: u16,
    /// The sum of the weights of the position's book moves.
    pub total: u64,
    /// The book's highest-weight reply after the move, if it has one.
    pub reply: Option<Move>,
}

/// The book settings and the open book.
#[derive(Debug)]
pub struct BookPlayer {
    enabled: bool,
    best_only: bool,
    path: Option<PathBuf>,
    book: Option<Book>,
    rng: StdRng,
}

impl Default for BookPlayer {
    fn default() -> BookPlayer {
        BookPlayer::new()
    }
}

impl BookPlayer {
    /// No book, `OwnBook` off; the random source is seeded from the system, so each game
    /// (each engine process) draws differently.
    pub fn new() -> BookPlayer {
        BookPlayer {
            enabled: false,
            best_only: false,
            path: None,
            book: None,
            rng: StdRng::from_entropy(),
        }
    }

    /// `OwnBook`: play book moves (when a book is open).
    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    /// True while `OwnBook` is on.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// `BookBestMove`: always the highest-weight move instead of a weighted random pick.
    pub fn set_best_only(&mut self, on: bool) {
        self.best_only = on;
    }

    /// Seeds the weighted pick (reproducible choices, e.g. in tests).
    pub fn seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// `BookFile`: opens the book at `path` (`None`: no book). On an error the engine is left
    /// without a book.
    pub fn set_file(&mut self, path: Option<&Path>) -> Result<(), BookError> {
        self.book = None;
        self.path = path.map(Path::to_path_buf);
        if let Some(path) = path {
            match Book::open(path) {
                Ok(book) => self.book = Some(book),
                Err(err) => {
                    self.path = None;
                    return Err(err);
                }
            }
        }
        Ok(())
    }

    /// The open book's file, if one is open.
    pub fn path(&self) -> Option<&Path> {
        self.book.as_ref().and(self.path.as_deref())
    }

    /// The legal book moves of `pos` (none without a book). A read error closes the book.
    pub fn moves(&mut self, pos: &Position) -> Result<Vec<BookMove>, BookError> {
        let Some(book) = self.book.as_mut() else {
            return Ok(Vec::new());
        };
        book.moves(pos).inspect_err(|_| {
            self.book = None;
            self.path = None;
        })
    }

    /// The move to play in `pos` when `OwnBook` is on and the book has one with a weight
    /// above 0: the highest weight with `BookBestMove`, else a weighted random pick. A read
    /// error closes the book (the caller says so and searches).
    pub fn choose(&mut self, pos: &Position) -> Result<Option<BookChoice>, BookError> {
        if !self.enabled || self.book.is_none() {
            return Ok(None);
        }
        let moves = self.moves(pos)?;
        let picked = if self.best_only {
            best_move(&moves)
        } else {
            weighted_move(&moves, &mut self.rng)
        };
        let Some(picked) = picked else {
            return Ok(None);
        };
        let mut after = pos.clone();
        after.make_move(picked.mv);
        let reply = best_move(&self.moves(&after)?).map(|m| m.mv);
        Ok(Some(BookChoice {
            mv: picked.mv,
            weight: picked.weight,
            total: total_weight(&moves),
            reply,
        }))
    }
}

/// One line per book move of `pos`, highest weight first: SAN, coordinates, weight and share
/// in percent of the position's total weight (e.g. `e4  e2e4  weight 2  50.0%`).
pub fn share_lines(pos: &Position, moves: &[BookMove]) -> Vec<String> {
    let total = total_weight(moves);
    let mut sorted = moves.to_vec();
    sorted.sort_by_key(|m| std::cmp::Reverse(m.weight));
    let mut scratch = pos.clone();
    sorted
        .iter()
        .map(|m| {
            let share = if total == 0 {
                0.0
            } else {
                100.0 * f64::from(m.weight) / total as f64
            };
            format!(
                "{:<7} {:<6} weight {:>5} {share:5.1}%",
                scratch.move_to_san(m.mv),
                pos.move_to_coordinate(m.mv),
                m.weight
            )
        })
        .collect()
}

/// What XBoard's `bk` shows, one line each (the front-end adds the protocol's framing): the
/// book moves of `pos` with their share, or why there are none. `open` says whether a book
/// was open before `moves` was looked up, `enabled` whether `OwnBook` is on.
pub fn listing(
    pos: &Position,
    open: bool,
    enabled: bool,
    moves: Result<Vec<BookMove>, BookError>,
) -> Vec<String> {
    if !open {
        return vec!["no book moves: no book is open (options BookFile and OwnBook)".to_string()];
    }
    match moves {
        Err(err) => vec![format!("no book moves: {err}; playing without a book")],
        Ok(moves) if moves.is_empty() => vec!["no book moves in this position".to_string()],
        Ok(moves) => {
            let mut lines = share_lines(pos, &moves);
            if !enabled {
                lines.push("(OwnBook is off: Betacut does not play these moves)".to_string());
            }
            lines
        }
    }
}
