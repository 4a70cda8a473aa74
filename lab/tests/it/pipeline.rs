//! The network pipeline end to end, small: self-play data from `datagen`, a net trained on it,
//! written as a net file, read back the way an embedded net is, and searched with; plus the
//! lab's command line (`datagen`, `datagen-text`, `train`). The engine's refusal of malformed
//! net files is tested in the engine (tests/it/net_files.rs).

use betacut::board::Position;
use betacut::eval::nnue::embedded::parse_embedded;
use betacut::eval::nnue::Network;
use betacut::search::{SearchControl, SearchLimits, Searcher};
use betacut_lab::datagen::{run_datagen, DataFormat, DatagenConfig};
use betacut_lab::records::parse_records;
use betacut_lab::trainer::{quantise, train, TrainConfig};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// A fresh scratch directory under the target directory (not the source tree).
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

fn lab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_betacut-lab"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut-lab: {e}"))
}

#[test]
fn selfplay_data_trains_a_net_that_the_engine_loads_and_searches_with() {
    let config = DatagenConfig {
        games: 6,
        nodes: Some(400),
        threads: 2,
        hash_mb: 2,
        seed: 21,
        ..DatagenConfig::default()
    };
    let mut bytes = Vec::new();
    let n = run_datagen(&config, DataFormat::Binary, &mut bytes, |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(n > 100, "only {n} positions");
    let data = parse_records(Path::new("selfplay"), &bytes).unwrap_or_else(|e| panic!("{e}"));
    let train_config = TrainConfig {
        hidden: 32,
        epochs: 3,
        batch: 64,
        lr: 0.005,
        threads: 2,
        ..TrainConfig::default()
    };
    let state = train(&data, &train_config, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let file = quantise(&state.net, &data)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_bytes();
    // The bytes a build would embed with include_bytes!.
    let net: Arc<Network> = parse_embedded(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(net.hidden(), 32);

    let mut searcher = Searcher::new(4);
    searcher.set_network(Some(net));
    let mut pos = Position::startpos();
    // A few moves of a game with the net: every move legal.
    for _ in 0..8 {
        let result = searcher.search(
            &pos,
            &SearchLimits {
                nodes: Some(3000),
                ..SearchLimits::default()
            },
            &SearchControl::new(false),
            &mut |_| {},
        );
        if result.best_move.is_none() {
            break;
        }
        assert!(pos.is_legal(result.best_move));
        pos.make_move(result.best_move);
    }
}

#[test]
fn the_command_line_runs_the_pipeline_and_refuses_bad_input() {
    let dir = scratch_dir("nnue_cli");
    let data = dir.join("data.bin");
    let net = dir.join("net.bin");
    let text = |out: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let path = |p: &Path| p.display().to_string();

    let out = lab(&[
        "datagen",
        &path(&data),
        "--games",
        "3",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--seed",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let len = std::fs::metadata(&data).map(|m| m.len()).unwrap_or(0);
    assert!(len > 0 && len.is_multiple_of(32), "{len} bytes");

    let out = lab(&["datagen-text", &path(&data), "--limit", "3"]);
    assert!(out.status.success(), "{}", text(&out));
    let lines = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(lines.lines().count(), 3);
    for line in lines.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(Position::from_fen(fields[0]).is_ok(), "{line}");
        assert!(fields[1].parse::<i32>().is_ok(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
    }

    let checkpoints = dir.join("checkpoints");
    let out = lab(&[
        "train",
        &path(&data),
        "--out",
        &path(&net),
        "--hidden",
        "32",
        "--epochs",
        "2",
        "--batch",
        "32",
        "--threads",
        "2",
        "--checkpoint",
        &path(&checkpoints),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("positions/s"), "{}", text(&out));
    assert!(Network::load(&net).is_ok());
    assert!(checkpoints.join("epoch-2.ckpt").exists());
    assert!(Network::load(&checkpoints.join("epoch-1.bin")).is_ok());
    // Resuming after the last epoch trains no more and writes the same net.
    let resumed = dir.join("resumed.bin");
    let out = lab(&[
        "train",
        &path(&data),
        "--out",
        &path(&resumed),
        "--epochs",
        "2",
        "--threads",
        "2",
        "--resume",
        &path(&checkpoints.join("epoch-2.ckpt")),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read(&resumed).ok(), std::fs::read(&net).ok());

    // The engine's bench searches with the trained net.
    let trained = Network::load(&net).unwrap_or_else(|e| panic!("{e}"));
    let summary = betacut::search::bench::run_bench(4, Some(&Arc::new(trained)), |_| {});
    assert!(summary.nodes > 0);

    // A hard cap below the soft budget is refused before any game is played.
    let capped = dir.join("capped.bin");
    let out = lab(&[
        "datagen",
        &path(&capped),
        "--soft-nodes",
        "5000",
        "--nodes",
        "1000",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--soft-nodes 5000"), "{}", text(&out));
    assert!(!capped.exists());
    // Text data is not binary data.
    let text_data = dir.join("data.txt");
    std::fs::write(&text_data, "8/8/8/4k3/8/8/8/4K3 w - - 0 1 | 0.5\n").unwrap_or_default();
    let out = lab(&[
        "train",
        &path(&text_data),
        "--out",
        &path(&dir.join("x.bin")),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// The validation loss a `train` run printed for `epoch` (0: the `--init` net's).
fn validation_loss(stderr: &str, epoch: u32) -> f64 {
    stderr
        .lines()
        .find(|l| l.starts_with(&format!("epoch {epoch}/")) && l.contains("validation loss "))
        .and_then(|l| l.split("validation loss ").nth(1))
        .and_then(|rest| rest.split([' ', ',']).next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no validation loss of epoch {epoch} in {stderr}"))
}

#[test]
fn a_net_grown_into_king_buckets_evaluates_as_before_and_trains_on() {
    let dir = scratch_dir("king_buckets");
    let data = dir.join("data.bin");
    let path = |p: &Path| p.display().to_string();
    let run = |args: &[&str]| {
        let out = lab(args);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };
    let (code, text) = run(&[
        "datagen",
        &path(&data),
        "--games",
        "12",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--seed",
        "8",
    ]);
    assert_eq!(code, Some(0), "{text}");
    let data_path = path(&data);
    let plain = dir.join("plain.bin");
    let common = ["--hidden", "32", "--batch", "64", "--threads", "2"];
    let mut args = vec!["train", &data_path];
    let plain_path = path(&plain);
    args.extend(["--out", &plain_path, "--epochs", "1", "--validation", "200"]);
    args.extend(common);
    let (code, text) = run(&args);
    assert_eq!(code, Some(0), "{text}");

    // Grown without training: the same evaluation everywhere, in a version-3 file.
    let grown = dir.join("grown.bin");
    let (code, text) = run(&[
        "grow",
        &plain_path,
        "--king-buckets",
        "4",
        "--out",
        &path(&grown),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("4 king bucket(s)"), "{text}");
    let bytes = std::fs::read(&grown).unwrap_or_default();
    assert_eq!(bytes.get(4..6), Some(3u16.to_le_bytes().as_slice()));
    let (plain_net, grown_net) = (
        Network::load(&plain).unwrap_or_else(|e| panic!("{e}")),
        Network::load(&grown).unwrap_or_else(|e| panic!("{e}")),
    );
    let records = std::fs::read(&data).unwrap_or_default();
    let records = parse_records(&data, &records).unwrap_or_else(|e| panic!("{e}"));
    for record in &records {
        let record =
            betacut_lab::records::DataRecord::from_bytes(record).unwrap_or_else(|e| panic!("{e}"));
        let pos = Position::from_fen(&record.to_fen()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(grown_net.evaluate(&pos), plain_net.evaluate(&pos));
    }
    // Growing twice, or by a bad map, is refused with the reason.
    let (code, text) = run(&["grow", &path(&grown), "--king-buckets", "4", "--out", "x"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("already has 4 king bucket(s)"), "{text}");
    let (code, text) = run(&["grow", &plain_path, "--king-buckets", "0,1,2", "--out", "x"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("64 bucket numbers"), "{text}");

    // Trained on from the plain net, grown on the way in: it starts at the plain net's loss,
    // lowers it, and the engine searches with what it writes.
    let trained = dir.join("trained.bin");
    let checkpoints = dir.join("checkpoints");
    let trained_path = path(&trained);
    let checkpoint_path = path(&checkpoints);
    let mut args = vec!["train", &data_path];
    args.extend(["--out", &trained_path, "--init", &plain_path]);
    args.extend(["--king-buckets", "4", "--epochs", "3", "--lr", "0.005"]);
    args.extend(["--validation", "200", "--checkpoint", &checkpoint_path]);
    args.extend(common);
    let (code, text) = run(&args);
    assert_eq!(code, Some(0), "{text}");
    let (start, end) = (validation_loss(&text, 0), validation_loss(&text, 3));
    assert!(end < start, "validation loss {start} -> {end}: {text}");
    let bytes = std::fs::read(&trained).unwrap_or_default();
    assert_eq!(bytes.get(4..6), Some(3u16.to_le_bytes().as_slice()));
    let net = Arc::new(Network::load(&trained).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(net.king_buckets().count(), 4);
    let summary = betacut::search::bench::run_bench(4, Some(&net), |_| {});
    assert!(summary.nodes > 0);
    // Its checkpoint resumes only with its own layout.
    let epoch3 = path(&checkpoints.join("epoch-3.ckpt"));
    let mut args = vec!["train", &data_path];
    args.extend(["--out", "x.bin", "--resume", &epoch3, "--epochs", "3"]);
    args.extend(["--king-buckets", "4", "--king-mirror"]);
    let (code, text) = run(&args);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("the checkpoint of --resume has 4 king bucket(s)"),
        "{text}"
    );
}
