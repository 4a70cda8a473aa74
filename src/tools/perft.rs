//! Perft (move-path enumeration): counts leaf nodes to prove the move generator exact, and
//! measures its speed. Leaves are counted in bulk: at depth 1 the legal moves are counted with
//! popcounts, not generated.

pub use crate::board::perft::{divide, perft};
use crate::board::Position;
use std::fmt;
use std::path::Path;

/// One position of a perft suite with its expected counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The position's FEN as written in the file.
    pub fen: String,
    /// (depth, expected leaf count) pairs, in file order.
    pub counts: Vec<(u32, u64)>,
    /// Line number in the file (1-based).
    pub line: usize,
}

/// Problems reading a perft suite.
pub use super::input::InputError as SuiteError;

/// Parses suite text: one `FEN ;D1 n ;D2 n ...` per line; blank lines and `#` comments skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries = Vec::new();
    for (line, raw) in super::input::content_lines(text) {
        let mut fields = raw.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_string();
        let mut counts = Vec::new();
        for field in fields {
            let field = field.trim();
            if field.is_empty() {
                continue;
            }
            let bad = || SuiteError::BadLine {
                line,
                reason: format!("bad depth field {field:?} (expected `D<depth> <count>`)"),
            };
            let (depth, count) = field.split_once(char::is_whitespace).ok_or_else(bad)?;
            let depth = depth
                .strip_prefix('D')
                .and_then(|d| d.parse::<u32>().ok())
                .ok_or_else(bad)?;
            let count = count.trim().parse::<u64>().map_err(|_| bad())?;
            counts.push((depth, count));
        }
        entries.push(SuiteEntry { fen, counts, line });
    }
    Ok(entries)
}

/// Reads and parses a suite file.
pub fn load_suite(path: &Path) -> Result<Vec<SuiteEntry>, SuiteError> {
    parse_suite(&super::input::read_text(path)?)
}

/// A perft count that differs from the suite, or a FEN that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteFailure {
    /// Line number in the suite.
    pub line: usize,
    /// The FEN.
    pub fen: String,
    /// Depth of the mismatch (0 for a FEN error).
    pub depth: u32,
    /// Expected count.
    pub expected: u64,
    /// Count found, or the FEN error.
    pub found: Result<u64, String>,
}

impl fmt::Display for SuiteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.found {
            Ok(found) => write!(
                f,
                "MISMATCH line {} depth {}: expected {}, found {} | {}",
                self.line, self.depth, self.expected, found, self.fen
            ),
            Err(err) => write!(f, "BAD FEN line {}: {} | {}", self.line, err, self.fen),
        }
    }
}

/// Totals of a suite run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SuiteSummary {
    /// Positions run.
    pub positions: usize,
    /// (position, depth) checks run.
    pub checks: usize,
    /// Leaf nodes counted in all.
    pub nodes: u64,
    /// Every failed check.
    pub failures: Vec<SuiteFailure>,
}

/// Runs every entry up to `max_depth` (all depths if `None`), calling `report` after each check
/// with the entry, depth and count found.
pub fn run_suite(
    entries: &[SuiteEntry],
    max_depth: Option<u32>,
    mut report: impl FnMut(&SuiteEntry, u32, u64),
) -> SuiteSummary {
    let mut summary = SuiteSummary::default();
    for entry in entries {
        summary.positions += 1;
        let mut pos = match Position::from_fen(&entry.fen) {
            Ok(pos) => pos,
            Err(err) => {
                summary.failures.push(SuiteFailure {
                    line: entry.line,
                    fen: entry.fen.clone(),
                    depth: 0,
                    expected: 0,
                    found: Err(err.to_string()),
                });
                continue;
            }
        };
        for &(depth, expected) in &entry.counts {
            if max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let found = perft(&mut pos, depth);
            summary.checks += 1;
            summary.nodes += found;
            report(entry, depth, found);
            if found != expected {
                summary.failures.push(SuiteFailure {
                    line: entry.line,
                    fen: entry.fen.clone(),
                    depth,
                    expected,
                    found: Ok(found),
                });
            }
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let mut pos = Position::startpos();
        let expected = [1, 20, 400, 8_902, 197_281];
        for (depth, &nodes) in expected.iter().enumerate() {
            assert_eq!(perft(&mut pos, depth as u32), nodes);
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut pos = Position::startpos();
        let split = divide(&mut pos, 3);
        assert_eq!(split.len(), 20);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
    }

    #[test]
    fn suite_lines_parse_and_bad_lines_are_reported() {
        let parsed = parse_suite("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D2 9\n\n# comment\n");
        assert!(parsed
            .as_ref()
            .is_ok_and(|e| e.len() == 1 && e[0].counts == [(1, 3), (2, 9)]));
        assert!(matches!(
            parse_suite("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;X1 3"),
            Err(SuiteError::BadLine { line: 1, .. })
        ));
    }
}
