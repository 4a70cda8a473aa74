//! Proves the move generator (and make/unmake) exact by perft: every position of
//! `perft/standard.epd`, `perft/cpw.epd` and `perft/fischer.epd` (Chess960) must give the
//! published leaf counts.
//!
//! The default tests check each position at every depth whose expected count is at most
//! [`NODE_CAP`], and always at depths 1 to 3 (a position listing no depth that small is checked
//! at its shallowest listed depth). That takes a few seconds with `cargo test --profile testing`.
//!
//! The `#[ignore]`d tests run every suite to its full depth (fischer alone takes about a
//! quarter of an hour); run them with
//!
//! ```text
//! cargo test --profile testing --test it -- perft_suites:: --ignored
//! ```

use betacut::board::Position;
use betacut::tools::perft::{load_suite, perft, run_suite, SuiteEntry};
use std::path::PathBuf;

/// Largest expected leaf count checked by the default (non-ignored) tests: 5 million in
/// release builds (about 750 million leaves in all), 100 thousand in unoptimised builds so that
/// a plain `cargo test` stays quick.
const NODE_CAP: u64 = if cfg!(debug_assertions) {
    100_000
} else {
    5_000_000
};

/// Depths up to this one are always checked, whatever their count.
const ALWAYS_CHECKED_DEPTH: u32 = 3;

/// Reads `perft/<name>.epd`, checking it holds `positions` entries (so a truncated or
/// misplaced file cannot make the tests pass vacuously).
fn suite(name: &str, positions: usize) -> Vec<SuiteEntry> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "perft", &format!("{name}.epd")]
        .iter()
        .collect();
    let entries = load_suite(&path).unwrap_or_else(|e| panic!("{name}.epd: {e}"));
    assert_eq!(
        entries.len(),
        positions,
        "{name}.epd: expected {positions} positions"
    );
    for entry in &entries {
        assert!(
            !entry.counts.is_empty(),
            "{name}.epd line {}: no depth counts | {}",
            entry.line,
            entry.fen
        );
    }
    entries
}

/// The depths of `entry` that the capped run checks.
fn capped_depths(entry: &SuiteEntry) -> Vec<(u32, u64)> {
    let mut chosen: Vec<(u32, u64)> = entry
        .counts
        .iter()
        .copied()
        .filter(|&(depth, expected)| depth <= ALWAYS_CHECKED_DEPTH || expected <= NODE_CAP)
        .collect();
    if chosen.is_empty() {
        if let Some(&shallowest) = entry.counts.iter().min_by_key(|&&(depth, _)| depth) {
            chosen.push(shallowest);
        }
    }
    chosen
}

/// Runs the capped checks of a suite; panics listing every mismatch.
fn check_suite_capped(name: &str, positions: usize) {
    let entries = suite(name, positions);
    let mut failures = Vec::new();
    let mut checks = 0;
    for entry in &entries {
        let mut pos = match Position::from_fen(&entry.fen) {
            Ok(pos) => pos,
            Err(err) => {
                failures.push(format!(
                    "{name}.epd line {}: FEN rejected ({err}) | {}",
                    entry.line, entry.fen
                ));
                continue;
            }
        };
        for (depth, expected) in capped_depths(entry) {
            let found = perft(&mut pos, depth);
            checks += 1;
            if found != expected {
                failures.push(format!(
                    "{name}.epd line {}: depth {depth}: expected {expected}, found {found} | {}",
                    entry.line, entry.fen
                ));
            }
        }
        // perft makes and unmakes every move: the position must come back unchanged.
        assert_eq!(
            pos.to_fen(),
            Position::from_fen(&entry.fen)
                .map(|p| p.to_fen())
                .unwrap_or_default(),
            "{name}.epd line {}: perft did not restore the position",
            entry.line
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {checks} perft checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Runs a suite to full depth; panics listing every mismatch.
fn check_suite_full(name: &str, positions: usize) {
    let entries = suite(name, positions);
    let summary = run_suite(&entries, None, |_, _, _| {});
    let failures: Vec<String> = summary
        .failures
        .iter()
        .map(|f| format!("{name}.epd: {f}"))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} perft checks failed:\n{}",
        failures.len(),
        summary.checks,
        failures.join("\n")
    );
}

#[test]
fn capped_depths_cover_shallow_depths_of_every_position() {
    for (name, positions) in [("standard", 128), ("cpw", 7), ("fischer", 960)] {
        for entry in suite(name, positions) {
            let chosen = capped_depths(&entry);
            assert!(!chosen.is_empty(), "{name}.epd line {}", entry.line);
            for &(depth, count) in &entry.counts {
                if depth <= ALWAYS_CHECKED_DEPTH {
                    assert!(
                        chosen.contains(&(depth, count)),
                        "{name}.epd line {}: depth {depth} not checked",
                        entry.line
                    );
                }
            }
        }
    }
}

#[test]
fn standard_suite_capped() {
    check_suite_capped("standard", 128);
}

#[test]
fn cpw_suite_capped() {
    check_suite_capped("cpw", 7);
}

#[test]
fn fischer_suite_capped() {
    check_suite_capped("fischer", 960);
}

#[test]
#[ignore = "full depth; run with cargo test --profile testing -- --ignored"]
fn standard_suite_full_depth() {
    check_suite_full("standard", 128);
}

#[test]
#[ignore = "full depth; run with cargo test --profile testing -- --ignored"]
fn cpw_suite_full_depth() {
    check_suite_full("cpw", 7);
}

#[test]
#[ignore = "full depth (about 15 minutes); run with cargo test --profile testing -- --ignored"]
fn fischer_suite_full_depth() {
    check_suite_full("fischer", 960);
}
