//! What differs between platforms in the engine's input: line ends (Windows programs end lines
//! with `\r\n`) and the separator between tablebase folders (`:`, and `;` on Windows, where a
//! folder starts with a drive letter and its colon). The same tests pass on Linux and, through
//! `scripts/windows_check.sh`, on the Windows build under Wine.

use crate::common;

use betacut::tb::Tablebases;
use common::{position, Engine};
use std::path::PathBuf;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// What separates folders in `SyzygyPath`, `egtpath syzygy` and `probe --syzygy` here.
const SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// The test tables split over two fresh folders: the WDL files (`.rtbw`) in one, the DTZ files
/// (`.rtbz`) in the other. Removed when dropped.
struct SplitTables {
    wdl: PathBuf,
    dtz: PathBuf,
}

impl SplitTables {
    fn new(name: &str) -> SplitTables {
        let root = std::env::temp_dir();
        let id = std::process::id();
        let wdl = root.join(format!("betacut-{name}-{id}-wdl"));
        let dtz = root.join(format!("betacut-{name}-{id}-dtz"));
        for dir in [&wdl, &dtz] {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        let listing = std::fs::read_dir(TABLES).unwrap_or_else(|e| panic!("{TABLES}: {e}"));
        for entry in listing.flatten() {
            let from = entry.path();
            let to = match from.extension().and_then(|e| e.to_str()) {
                Some("rtbw") => &wdl,
                Some("rtbz") => &dtz,
                _ => continue,
            };
            let to = to.join(entry.file_name());
            std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
        }
        SplitTables { wdl, dtz }
    }

    /// Both folders as one path list, joined with the platform's separator.
    fn joined(&self) -> String {
        format!("{}{SEPARATOR}{}", self.wdl.display(), self.dtz.display())
    }
}

impl Drop for SplitTables {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.wdl);
        let _ = std::fs::remove_dir_all(&self.dtz);
    }
}

/// The coordinate move after `prefix` on `line` must be legal in `fen`.
fn assert_legal(fen: &str, line: &str, prefix: &str) {
    let pos = position(fen);
    let text = line
        .strip_prefix(prefix)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_default();
    if let Err(e) = pos.parse_coordinate(text) {
        panic!("{line:?}: not a legal move in {fen}: {e}");
    }
}

/// After 1. e4 e5.
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
/// After 1. e4.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

#[test]
fn tablebase_folders_are_split_at_the_platform_separator() {
    let tables = SplitTables::new("separator");
    if cfg!(windows) {
        // The case the separator is for: a folder with a drive letter.
        assert!(
            tables.wdl.to_string_lossy().contains(':'),
            "{:?}",
            tables.wdl
        );
    }
    let both = Tablebases::open(&tables.joined()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(both.file_counts(), (35, 35));
    assert!(both.problems().is_empty(), "{:?}", both.problems());
    assert_eq!(both.max_pieces(), 4);
    let wdl_only =
        Tablebases::open(&tables.wdl.to_string_lossy()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(wdl_only.file_counts(), (35, 0));
    // Leading, trailing and doubled separators leave no empty folder behind.
    let padded = format!("{SEPARATOR}{}{SEPARATOR}{SEPARATOR}", tables.joined());
    let padded = Tablebases::open(&padded).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(padded.file_counts(), (35, 35));
    assert!(padded.problems().is_empty(), "{:?}", padded.problems());
}

#[test]
fn uci_session_with_crlf_line_ends() {
    let tables = SplitTables::new("uci-crlf");
    let mut engine = Engine::start();
    engine.send_raw("uci\r\n");
    engine.expect_line("uciok");
    // Each value ends where the line does: a `\r` left on it would make `1700\r` a bad
    // number and the second folder a folder that does not exist.
    engine.send_raw("setoption name UCI_Elo value 1700\r\n");
    engine.send_raw(&format!(
        "setoption name SyzygyPath value {}\r\n",
        tables.joined()
    ));
    engine.send_raw("isready\r\n");
    let lines = engine.expect_line("readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Syzygy: 35 WDL and 35 DTZ tables, up to 4")),
        "{lines:?}"
    );
    engine.send_raw("position startpos moves e2e4 e7e5\r\n");
    engine.send_raw("go depth 3\r\n");
    let (best, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    assert!(!before.iter().any(|l| l.contains("error")), "{before:?}");
    assert_legal(AFTER_E4_E5, &best, "bestmove ");
    engine.send_raw("quit\r\n");
    assert!(
        engine.wait_exit(),
        "the engine did not exit cleanly on quit"
    );
}

#[test]
fn xboard_session_with_crlf_line_ends_ends_with_the_input() {
    let tables = SplitTables::new("xboard-crlf");
    let mut engine = Engine::start();
    engine.send_raw("xboard\r\nprotover 2\r\n");
    engine.expect_line("feature done=1");
    engine.send_raw("new\r\nforce\r\n\r\n");
    engine.send_raw(&format!("egtpath syzygy {}\r\n", tables.joined()));
    engine.send_raw("ping 1\r\n");
    let lines = engine.expect_line("pong 1");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("# Syzygy: 35 WDL and 35 DTZ tables, up to 4"),
        "{lines:?}"
    );
    engine.send_raw("usermove e2e4\r\nsd 3\r\ngo\r\n");
    let (reply, before) = engine.expect("move", |l| l.starts_with("move "));
    assert!(
        !before
            .iter()
            .any(|l| l.starts_with("Error") || l.starts_with("Illegal")),
        "{before:?}"
    );
    assert_legal(AFTER_E4, &reply, "move ");
    engine.send_raw("force\r\nping 2\r\n");
    engine.expect_line("pong 2");
    // The end of input (a GUI that closed its end of the pipe) ends the engine.
    engine.close_input();
    assert!(
        engine.wait_exit(),
        "the engine did not exit cleanly at the end of input"
    );
}

#[test]
fn probe_tool_reads_folders_split_at_the_platform_separator() {
    let tables = SplitTables::new("probe");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_betacut"))
        .args([
            "probe",
            "--syzygy",
            &tables.joined(),
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        ])
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut probe: {e}"));
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // A won position: WDL from the first folder, DTZ (a positive number) from the second.
    let dtz = stdout
        .trim()
        .split_once(";wdl 2 ;dtz ")
        .and_then(|(_, dtz)| dtz.parse::<i32>().ok());
    assert!(dtz > Some(0), "{stdout}");
}
