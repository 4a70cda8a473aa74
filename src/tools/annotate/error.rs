//! Why a game of the input cannot be annotated; each reason carries its line, so that the
//! command can report it as `file:line: why` and go on with the next game.

use crate::book::pgn::PgnProblem;
use thiserror::Error;

/// A problem that makes a game unreadable.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// A tag line that is not `[Name "value"]`.
    #[error("malformed tag pair {text:?}")]
    MalformedTag {
        /// Its line.
        line: usize,
        /// The text from the bad tag on.
        text: String,
    },
    /// A `{` comment never closed.
    #[error("comment opened here is never closed")]
    CommentNotClosed {
        /// The line of the `{`.
        line: usize,
    },
    /// A `$` glyph without a number 0-255, or suffix annotations that mean nothing.
    #[error("bad annotation glyph {text:?}")]
    BadNag {
        /// Its line.
        line: usize,
        /// The glyph.
        text: String,
    },
    /// A `(` never closed.
    #[error("variation opened here is never closed")]
    VariationNotClosed {
        /// The line of the `(`.
        line: usize,
    },
    /// Variations nested deeper than [`super::game::MAX_VARIATION_DEPTH`] (each level is a
    /// call of the move-tree builder, and of the writer: a file could nest them until the
    /// stack overflows).
    #[error("variations nested deeper than {max} levels")]
    TooDeep {
        /// The line of the `(` one level too deep.
        line: usize,
        /// The deepest nesting read.
        max: usize,
    },
    /// A token where none can be (a `)` without `(`, a variation before any move...).
    #[error("{what}")]
    Misplaced {
        /// Its line.
        line: usize,
        /// What it is and why it is wrong.
        what: &'static str,
    },
    /// A move whose piece letter is none of K, Q, R, B, N (or P).
    #[error("{written}: unknown piece letter '{letter}'")]
    UnknownPiece {
        /// Its line.
        line: usize,
        /// The move with its number (`12. Zf3`).
        written: String,
        /// The letter.
        letter: char,
    },
    /// A move that is not legal (or not a move, or ambiguous) where it is played.
    #[error("{written}: {reason}")]
    IllegalMove {
        /// Its line.
        line: usize,
        /// The move with its number (`12... Nf6`).
        written: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// The `FEN` tag is not a position.
    #[error("bad FEN tag: {reason}")]
    BadFen {
        /// The game's first line.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A variant Betacut does not play.
    #[error("variant {variant:?} is not supported")]
    Variant {
        /// The game's first line.
        line: usize,
        /// The `Variant` tag.
        variant: String,
    },
}

impl GameError {
    /// The first of a game's reading problems that makes it unreadable, if any. An unmatched
    /// `)` and a variation left open are not taken from the reader: [`super::game::build`]
    /// finds them where they break the move tree.
    pub fn from_reading(problems: &[PgnProblem]) -> Option<GameError> {
        problems.iter().find_map(|problem| match problem {
            PgnProblem::MalformedTag { line, text } => Some(GameError::MalformedTag {
                line: *line,
                text: text.clone(),
            }),
            PgnProblem::CommentNotClosed { line } => {
                Some(GameError::CommentNotClosed { line: *line })
            }
            PgnProblem::BadNag { line, text } => Some(GameError::BadNag {
                line: *line,
                text: text.clone(),
            }),
            PgnProblem::UnmatchedClose { .. } | PgnProblem::VariationNotClosed { .. } => None,
        })
    }

    /// The line of the file the problem is on.
    pub fn line(&self) -> usize {
        match self {
            GameError::MalformedTag { line, .. }
            | GameError::CommentNotClosed { line }
            | GameError::BadNag { line, .. }
            | GameError::VariationNotClosed { line }
            | GameError::TooDeep { line, .. }
            | GameError::Misplaced { line, .. }
            | GameError::UnknownPiece { line, .. }
            | GameError::IllegalMove { line, .. }
            | GameError::BadFen { line, .. }
            | GameError::Variant { line, .. } => *line,
        }
    }
}
