//! The engine's net files from the command line: `bench --net` searches with a net file and
//! refuses a malformed or missing one with a clear error and exit status 2, never a panic; and
//! random damage to a net file gives a network or an error. The shipped net grown into king
//! buckets searches exactly the nodes of the shipped net. (Nets trained from self-play data
//! are tested in the lab, lab/tests/it/pipeline.rs.)

use crate::common::betacut;
use betacut::board::Position;
use betacut::eval::nnue::embedded::embedded_network;
use betacut::eval::nnue::{KingBuckets, Network, INPUTS, MAX_OUTPUT_WEIGHT};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh scratch directory under the target directory (not the source tree).
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// A small valid net of 32 hidden units with fixed, varied weights.
fn small_net() -> Network {
    let hidden = 32;
    let fw: Vec<i16> = (0..INPUTS * hidden).map(|i| (i % 97) as i16 - 48).collect();
    let ow: Vec<i16> = (0..2 * hidden)
        .map(|i| (i as i16 % 50) - MAX_OUTPUT_WEIGHT / 3)
        .collect();
    Network::from_parts(hidden, fw, vec![7; hidden], ow, vec![99]).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn bench_searches_with_a_net_file_and_refuses_bad_ones() {
    let dir = scratch_dir("net_files");
    let net = dir.join("net.bin");
    small_net().save(&net).unwrap_or_else(|e| panic!("{e}"));
    let text = |out: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let path = |p: &Path| p.display().to_string();

    let out = betacut(&["bench", "4", "--net", &path(&net)]);
    assert!(out.status.success(), "{}", text(&out));
    let last = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(last.ends_with(" nps") && last.contains(" nodes "), "{last}");

    // Malformed nets: a clear error and exit code 2, never a panic.
    let bytes = std::fs::read(&net).unwrap_or_default();
    for (name, bad) in [
        ("truncated.bin", bytes[..bytes.len() / 2].to_vec()),
        ("magic.bin", [b"XXXX".as_slice(), &bytes[4..]].concat()),
        ("empty.bin", Vec::new()),
    ] {
        let bad_path = dir.join(name);
        std::fs::write(&bad_path, bad).unwrap_or_else(|e| panic!("{e}"));
        let out = betacut(&["bench", "4", "--net", &path(&bad_path)]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out));
        assert!(!text(&out).contains("panicked"), "{name}: {}", text(&out));
        assert!(text(&out).contains("net file"), "{name}: {}", text(&out));
    }
    let out = betacut(&["bench", "4", "--net", &path(&dir.join("missing.bin"))]);
    assert_eq!(out.status.code(), Some(2));
}

/// The node count of `betacut bench` (the last line, `<nodes> nodes <nps> nps`), with the
/// net file `net` if given.
fn bench_nodes(net: Option<&Path>) -> u64 {
    let mut args = vec!["bench".to_string()];
    if let Some(net) = net {
        args.extend(["--net".to_string(), net.display().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = betacut(&args);
    assert!(out.status.success(), "bench failed: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    last.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {last:?}"))
}

#[test]
fn the_shipped_net_grown_into_king_buckets_searches_the_same_nodes() {
    // Each of the four buckets a copy of the shipped net's weights: the grown net evaluates
    // every position as the shipped one, so the search cannot tell them apart (the bench's
    // signature with gen11.bin: 3221267 nodes), however often a king changes bucket.
    let dir = scratch_dir("grown_net");
    let Ok(Some(shipped)) = embedded_network() else {
        panic!("the build embeds a network");
    };
    let grown = shipped
        .with_king_buckets(KingBuckets::DEFAULT)
        .unwrap_or_else(|| panic!("the shipped net has one king bucket"));
    let path = dir.join("grown.bin");
    grown.save(&path).unwrap_or_else(|e| panic!("{e}"));
    let bytes = std::fs::read(&path).unwrap_or_default();
    assert_eq!(bytes[4..6], 3u16.to_le_bytes(), "a version-3 file");
    assert_eq!(bench_nodes(Some(&path)), bench_nodes(None));
    // EvalFile loads it, and the engine says what it reads.
    let mut child = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run betacut: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let commands = format!(
            "uci\nsetoption name EvalFile value {}\nisready\nquit\n",
            path.display()
        );
        stdin
            .write_all(commands.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("(768x2, 4 king buckets -> 384 -> 1, 8 output buckets)"),
        "{stdout}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(debug_assertions) { 32 } else { 512 },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random damage to a net file (with or without a recomputed payload hash, so the checks
    /// behind the hash run too) gives a network or an error, never a panic.
    #[test]
    fn damaged_net_files_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
        rehash in any::<bool>(),
        king_buckets in any::<bool>(),
    ) {
        use betacut::eval::nnue::network::{fnv1a64, HEADER_LEN};
        let net = small_net();
        let mut bytes = if king_buckets {
            net.with_king_buckets(KingBuckets::DEFAULT_MIRRORED)
                .unwrap_or_else(|| panic!("a plain net grows"))
                .to_bytes()
        } else {
            net.to_bytes()
        };
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        if rehash && bytes.len() > HEADER_LEN {
            let hash = fnv1a64(&bytes[HEADER_LEN..]);
            bytes[24..32].copy_from_slice(&hash.to_le_bytes());
        }
        if let Ok(parsed) = Network::from_bytes(&bytes) {
            // Whatever parses evaluates without trouble.
            let _ = parsed.evaluate(&Position::startpos());
        }
    }
}
