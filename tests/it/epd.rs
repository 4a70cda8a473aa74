//! `betacut epd` tells a script by its exit status whether the whole suite was solved: 0 when
//! every position was, 1 when one failed, 2 when the file cannot be used.

use std::path::PathBuf;
use std::process::{Command, ExitStatus};

/// Writes `lines` to a suite file of its own in the target directory and runs
/// `betacut epd` on it at a fixed depth (independent of the machine's load).
fn run_suite(name: &str, lines: &[&str]) -> (ExitStatus, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("epd-{name}.epd"));
    std::fs::write(&path, lines.join("\n") + "\n")
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    let out = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .arg("epd")
        .arg(&path)
        .args(["--depth", "4", "--hash", "1"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut epd: {e}"));
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Scholar's mate is on the board: Qxf7# is the only mate in one.
const MATE_IN_ONE: &str =
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"mate\";";

/// The same position, claiming that the queen should go to g4, where the knight on f6
/// takes it.
const BAD_CLAIM: &str =
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qg4; id \"hang\";";

#[test]
fn a_solved_suite_exits_zero() {
    let (status, stdout) = run_suite("solved", &[MATE_IN_ONE]);
    assert_eq!(status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("solved 1/1"), "{stdout}");
}

#[test]
fn a_failed_position_exits_one_and_is_named() {
    let (status, stdout) = run_suite("failed", &[MATE_IN_ONE, BAD_CLAIM]);
    assert_eq!(status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("solved 1/2"), "{stdout}");
    assert!(stdout.contains("failed: hang"), "{stdout}");
}

#[test]
fn a_missing_file_exits_two() {
    let out = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .args(["epd", "/nonexistent/suite.epd"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut epd: {e}"));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
