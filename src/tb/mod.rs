//! Syzygy endgame tablebases: Betacut's own prober of the standard `.rtbw` (win/draw/loss) and
//! `.rtbz` (distance to zeroing) files. The reader follows the format for any number of pieces,
//! but only the complete 3-4-piece set has been checked against a reference (python-chess and
//! `fathom`, `tests/it/syzygy.rs`); 5-7-piece tables are untested.
//!
//! - [`Tablebases`] finds the files in one or more folders and loads each table the first time
//!   a position needs it (small files whole, larger ones a block at a time with positioned
//!   reads; no memory mapping, no unsafe code).
//! - [`Tablebases::probe_wdl`] and [`Tablebases::probe_dtz`] answer for a position with the
//!   sign conventions of python-chess's `chess.syzygy` (from the side to move: 2 win, 1 win
//!   spoiled by the fifty-move rule, 0 draw, -1 loss saved by it, -2 loss).
//! - [`root`] ranks the root moves by DTZ for the search; the search's own use of the tables
//!   (WDL probes after captures and pawn moves) is in `crate::search::tablebases`.
//!
//! A missing or corrupt file turns probing off for the material sets that need it (the probe
//! answers [`ProbeError`]); nothing panics.

mod consts;
mod material;
mod probe;
pub mod root;
mod source;
mod table;

pub use probe::{Tablebases, DEFAULT_MEMORY_LIMIT};

use probe::Fail;
use std::path::PathBuf;
use thiserror::Error;

/// A WDL result from the side to move's point of view, under the fifty-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost with best play, but the fifty-move rule saves the draw.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won with best play, but the fifty-move rule spoils the win.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// The value in python-chess's convention: -2, -1, 0, 1, 2.
    pub const fn value(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// The result for a value -2..2 (values beyond are clamped).
    pub const fn from_value(value: i32) -> Wdl {
        match value {
            i32::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }

    /// The result for the other side.
    pub const fn flipped(self) -> Wdl {
        Wdl::from_value(-self.value())
    }
}

/// Why a set of tables could not be opened, or a table file could not be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TbError {
    /// None of the folders could be read.
    #[error("no readable tablebase folder in {0:?}")]
    NoFolder(String),
    /// A file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The table file, in one of the folders of `SyzygyPath`.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// A file is not a valid Syzygy table (truncated, wrong magic number, bad header).
    #[error("{path} is not a usable Syzygy table: {reason}")]
    Corrupt {
        /// The table file whose contents were refused.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

/// Why a position could not be probed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProbeError {
    /// The position has castling rights; the tables hold none.
    #[error("castling rights: not in the tablebases")]
    Castling,
    /// A table that the probe needs was not found.
    #[error("missing table {0}")]
    Missing(String),
    /// A table that the probe needs could not be used.
    #[error("unusable table {file}: {reason}")]
    Corrupt {
        /// The table's file name.
        file: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl ProbeError {
    fn new(fail: Fail, tables: &Tablebases) -> ProbeError {
        match fail {
            Fail::Castling => ProbeError::Castling,
            Fail::Missing(material, kind) => ProbeError::Missing(tables.file_name(material, kind)),
            Fail::Corrupt(material, kind) => ProbeError::Corrupt {
                file: tables.file_name(material, kind),
                reason: tables
                    .load_error(material, kind)
                    .map_or("bad data in a probe".to_string(), |e| e.to_string()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_values_round_trip() {
        for v in -2..=2 {
            assert_eq!(Wdl::from_value(v).value(), v);
            assert_eq!(Wdl::from_value(v).flipped().value(), -v);
        }
    }
}
