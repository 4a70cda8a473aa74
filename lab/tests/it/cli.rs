//! The lab's command line through the binary: every command refuses a flag it does not have,
//! a missing value and a malformed number with its own usage and exit status 2.

use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_betacut-lab"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut-lab {args:?}: {e}"))
}

/// `args` must be refused: exit 2, the message naming `word`, then `command`'s usage.
fn refused(args: &[&str], word: &str, command: &str) {
    let out = lab(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert!(first.contains(word), "{args:?}: {first}");
    assert!(
        stderr.contains(&format!("usage:\n  betacut-lab {command} ")),
        "{args:?} shows the usage of {command}: {stderr}"
    );
}

#[test]
fn every_command_refuses_unknown_flags_missing_values_and_bad_numbers() {
    let out = std::env::temp_dir().join(format!("betacut-lab-cli-{}.bin", std::process::id()));
    let out = out.to_string_lossy().into_owned();
    // The misspelling: it used to make data at the default budget.
    refused(
        &["datagen", &out, "--soft-node", "3000"],
        "--soft-node",
        "datagen",
    );
    assert!(!std::path::Path::new(&out).exists(), "nothing is written");
    refused(&["datagen", &out, "--games", "ten"], "--games", "datagen");
    refused(&["datagen", &out, "--seed"], "--seed", "datagen");
    refused(
        &["datagen-text", "in.bin", "--limt", "3"],
        "--limt",
        "datagen-text",
    );
    refused(&["datagen-text"], "<in.bin>", "datagen-text");
    refused(&["tune", "data.txt", "--lr", "fast"], "--lr", "tune");
    refused(&["tune", "data.txt", "--epoch", "3"], "--epoch", "tune");
    refused(
        &["train", "a.bin", "--out", "n.nnue", "--lrr", "1"],
        "--lrr",
        "train",
    );
    refused(&["train", "a.bin", "--out"], "--out", "train");
    refused(&["train", "--out", "n.nnue"], "<data files...>", "train");
    refused(&["grow", "n.bin", "--out"], "--out", "grow");
    refused(&["grow", "n.bin", "--kings", "4"], "--kings", "grow");
}

#[test]
fn help_shows_each_command_with_its_flags_and_good_lines_run() {
    for (command, flag) in [
        ("datagen", "--soft-nodes N"),
        ("datagen-text", "--limit N"),
        ("tune", "--l2 X"),
        ("train", "--king-buckets SPEC"),
        ("grow", "--king-mirror"),
    ] {
        for args in [vec!["help", command], vec![command, "--help"]] {
            let out = lab(&args);
            let usage = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{args:?}");
            assert!(
                usage.contains("  flags:") && usage.contains(flag),
                "{args:?}: {usage}"
            );
        }
    }
    // Two games at depth 1 to a text file: `FEN | result` lines.
    let out = std::env::temp_dir().join(format!("betacut-lab-cli-{}.txt", std::process::id()));
    let path = out.to_string_lossy().into_owned();
    let run = lab(&[
        "datagen",
        &path,
        "--games",
        "2",
        "--depth",
        "1",
        "--threads",
        "1",
        "--hce",
    ]);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    assert!(
        text.lines().count() > 0 && text.lines().all(|l| l.contains(" | ")),
        "{text}"
    );
}

#[test]
fn a_closed_pipe_ends_help_quietly() {
    for args in [&["help"][..], &["help", "tune"][..], &["version"][..]] {
        let (reader, writer) = std::io::pipe().unwrap_or_else(|e| panic!("no pipe: {e}"));
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_betacut-lab"))
            .args(args)
            .stdout(writer)
            .output()
            .unwrap_or_else(|e| panic!("cannot run betacut-lab {args:?}: {e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}
