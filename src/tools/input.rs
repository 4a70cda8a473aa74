//! Reading the text files the tools take (perft suites, EPD suites, tuning data), with one
//! error type: the file could not be read, or a line is malformed.

use std::path::Path;
use thiserror::Error;

/// Problems with a tool's input file.
#[derive(Debug, Error)]
pub enum InputError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The input file as named on the command line.
        path: String,
        /// The system's error: not found, no permission, a folder.
        source: std::io::Error,
    },
    /// A line is malformed.
    #[error("line {line}: {reason}")]
    BadLine {
        /// Line number (1-based).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The input holds nothing usable.
    #[error("no entries found")]
    Empty,
}

/// Reads a whole text file.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    std::fs::read_to_string(path).map_err(|source| InputError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The non-empty, non-comment (`#`) lines of `text`, trimmed, with 1-based line numbers.
pub fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}
