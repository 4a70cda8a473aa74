//! The engine's command line through the binary: every command refuses a flag it does not
//! have, a missing value and a malformed number with its own usage and exit status 2, and
//! still runs the good command lines.

use crate::common::betacut;
use std::process::Command;

/// Runs `args`, which must be refused: exit 2, the message naming `word`, then the usage of
/// `command` (its synopsis line) on standard error, and nothing on standard output.
fn refused(args: &[&str], word: &str, command: &str) {
    let out = betacut(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert!(first.contains(word), "{args:?}: {first}");
    assert!(
        stderr.contains(&format!("usage:\n  betacut {command}")),
        "{args:?} shows the usage of {command}: {stderr}"
    );
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
}

#[test]
fn the_misspellings_of_the_issue_are_refused() {
    refused(
        &["epd", "tests/data/wac.epd", "--move-time", "50"],
        "--move-time",
        "epd",
    );
    refused(
        &["perft", "3", "--fne", "8/8/8/8/8/8/8/K1k5 w - - 0 1"],
        "--fne",
        "perft",
    );
    refused(&["bench", "1", "--nett", "foo"], "--nett", "bench");
}

#[test]
fn every_command_refuses_an_unknown_flag_with_its_own_usage() {
    refused(&["divide", "2", "--depth", "3"], "--depth", "divide");
    refused(
        &["perft-suite", "perft/standard.epd", "--maxdepth", "1"],
        "--maxdepth",
        "perft-suite",
    );
    refused(
        &["book", "make", "a.pgn", "b.bin", "--ply", "4"],
        "--ply",
        "book make",
    );
    refused(
        &["book", "show", "b.bin", "--fen", "x"],
        "--fen",
        "book show",
    );
    refused(
        &["probe", "--syzygy", "tests/data/syzygy", "--files", "x"],
        "--files",
        "probe",
    );
    refused(
        &["annotate", "games.pgn", "--movtime", "10"],
        "--movtime",
        "annotate",
    );
    refused(&["annotate", "games.pgn", "-x"], "-x", "annotate");
}

#[test]
fn missing_values_and_malformed_numbers_name_the_flag() {
    refused(
        &["epd", "tests/data/wac.epd", "--movetime"],
        "--movetime",
        "epd",
    );
    refused(
        &["epd", "tests/data/wac.epd", "--depth", "deep"],
        "--depth",
        "epd",
    );
    refused(
        &["epd", "tests/data/wac.epd", "--nodes", "--hce"],
        "--nodes",
        "epd",
    );
    refused(&["perft", "3", "--fen"], "--fen", "perft");
    refused(
        &["perft-suite", "perft/standard.epd", "--max-depth", "1.5"],
        "--max-depth",
        "perft-suite",
    );
    refused(
        &["book", "make", "a.pgn", "b.bin", "--plies", "-4"],
        "--plies",
        "book make",
    );
    refused(
        &["annotate", "games.pgn", "--hash", "lots"],
        "--hash",
        "annotate",
    );
    refused(&["probe", "--syzygy"], "--syzygy", "probe");
    refused(&["bench", "1", "--net"], "--net", "bench");
    refused(&["perft"], "<depth>", "perft");
    refused(&["bench", "1", "2"], "\"2\"", "bench");
    refused(&["tunables", "x"], "takes no arguments", "tunables");
}

#[test]
fn help_prints_each_command_from_its_definition() {
    let out = betacut(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for command in [
        "perft",
        "divide",
        "perft-suite",
        "bench",
        "epd",
        "tunables",
        "book make",
        "book show",
        "probe",
        "annotate",
    ] {
        assert!(
            help.contains(&format!("\n  betacut {command} "))
                || help.contains(&format!("\n  betacut {command}\n")),
            "{command}: {help}"
        );
    }
    for (args, flag_line) in [
        (&["help", "epd"][..], "--movetime MS"),
        (&["epd", "--help"][..], "--verbose"),
        (&["book", "make", "-h"][..], "--min-games N"),
        (&["--help", "annotate"][..], "-o, --output FILE"),
    ] {
        let out = betacut(args);
        let usage = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}");
        assert!(
            usage.contains("  flags:") && usage.contains(flag_line),
            "{args:?}: {usage}"
        );
    }
    // The lab's commands are not the engine's.
    for lab in ["datagen", "train"] {
        assert_eq!(betacut(&[lab]).status.code(), Some(2), "{lab}");
    }
}

#[test]
fn good_command_lines_still_work() {
    // Kiwipete, as several words and as one: perft 2 is 2039 (the known count).
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut words = vec!["perft", "2", "--fen"];
    words.extend(kiwipete.split(' '));
    for args in [words, vec!["perft", "2", "--fen", kiwipete]] {
        let out = betacut(&args);
        assert!(out.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("nodes 2039 "));
    }
    let out = betacut(&["divide", "1"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("moves: 20\n"));
    let out = betacut(&["perft-suite", "perft/standard.epd", "--max-depth", "1"]);
    assert!(out.status.success(), "{out:?}");
    let out = betacut(&[
        "book",
        "show",
        "tests/data/books/no-such.bin",
        "8/8/8/8/8/8/8/K1k5",
        "w",
        "-",
        "-",
    ]);
    // A file that does not exist: refused as a file, not as a command line.
    assert!(!String::from_utf8_lossy(&out.stderr).contains("unknown flag"));
    let out = betacut(&[
        "epd",
        "tests/data/wac.epd",
        "--nodes",
        "1",
        "--threads",
        "1",
        "--hash",
        "1",
        "--hce",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("solved "),
        "{out:?}"
    );
}

/// Runs `args` with standard output a pipe whose reader is already closed (as `| head` is once
/// it has its lines): the command must end quietly with status 0, no panic on standard error.
fn reader_gone(args: &[&str]) {
    let (reader, writer) = std::io::pipe().unwrap_or_else(|e| panic!("no pipe: {e}"));
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .args(args)
        .stdout(writer)
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut {args:?}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
}

#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    reader_gone(&["help"]);
    reader_gone(&["help", "perft"]);
    reader_gone(&["version"]);
    reader_gone(&["divide", "2"]);
    reader_gone(&["tunables"]);
    reader_gone(&["book", "show", "tests/data/books/performance.bin"]);
}
