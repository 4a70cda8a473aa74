//! The protocol targets' harness: fuzz input fed line by line to an in-process UCI or XBoard
//! front-end ([`betacut::protocol::Session`]) with the real engine and its search threads
//! behind it, then every search stopped and the engine's state checked.
//!
//! What the harness changes, so that an input cannot hang a run, exhaust the machine or touch
//! files (everything else reaches the engine as written):
//!
//! - Options that name files or folders (`Log File`, `BookFile`, `EvalFile`, `SyzygyPath`,
//!   XBoard's `egtpath`) are dropped: the engine would read or write anywhere the input says.
//!   The `book`, `net_file` and `syzygy_header` targets fuzz those readers from bytes instead.
//! - `Hash` (and XBoard's `memory`) is capped at [`MAX_HASH_MB`], `Threads` (and `cores`) at
//!   [`MAX_THREADS`]: a gigabyte table is legal input but leaves libFuzzer's memory limit.
//! - UCI `go` gets `nodes` [`SEARCH_NODES`] (or its own smaller budget): every search ends by
//!   itself within a few thousand nodes (an infinite or ponder search then waits, idle, for
//!   `stop` or `ponderhit`, as it must). `go perft` is capped at depth [`MAX_PERFT`].
//! - UCI `bench` is dropped: it searches 50 positions, each with a fresh 16 MiB table, on the
//!   protocol thread (over a second here); it is `betacut bench`'s code, which the test suite
//!   runs. XBoard's `hint` while idle (a 100 ms search on the protocol thread) is kept to
//!   [`MAX_SYNC_SEARCHES`] per input: each is bounded, but hundreds in one input are a slow
//!   input, not a hang.
//!
//! XBoard's searches keep their own limits (`st`, `level`, `sd`, clocks): they run on their
//! thread while the input is read, and the harness ends them all at the end of the input
//! (`exit`, `force`), as a GUI's `force` would. A search that does not stop within
//! [`STOP_TIMEOUT`] is a finding.

use betacut::engine::options::{self, OptionValue};
use betacut::engine::Game;
use betacut::protocol::uci::command::{parse_uci, UciCommand};
use betacut::protocol::xboard::command::{parse_command, Command};
use betacut::protocol::{Session, Uci, Xboard};
use std::time::Duration;

/// The node budget the harness gives every UCI search.
pub const SEARCH_NODES: u64 = 3000;
/// Deepest `go perft`.
pub const MAX_PERFT: u32 = 3;
/// Largest hash table, MiB.
pub const MAX_HASH_MB: u64 = 4;
/// Most search threads.
pub const MAX_THREADS: u64 = 2;
/// Most XBoard `hint`s (a synchronous search when idle) per input.
pub const MAX_SYNC_SEARCHES: usize = 3;
/// How long every search may take to end once the harness stops it.
pub const STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// True if `name` is an option whose value is a file or folder.
fn is_file_option(name: &str) -> bool {
    options::find_option(name).is_some_and(|spec| {
        [
            options::LOG_FILE,
            options::BOOK_FILE,
            options::EVAL_FILE,
            options::SYZYGY_PATH,
        ]
        .contains(&spec.name)
    })
}

/// The capped value of a `Hash` or `Threads` option, if `value` exceeds the cap.
fn capped_option(name: &str, value: Option<&str>) -> Option<(&'static str, u64)> {
    match options::parse_option(name, value) {
        Ok(OptionValue::Hash(mb)) if mb as u64 > MAX_HASH_MB => Some((options::HASH, MAX_HASH_MB)),
        Ok(OptionValue::Threads(n)) if n as u64 > MAX_THREADS => {
            Some((options::THREADS, MAX_THREADS))
        }
        _ => None,
    }
}

/// The UCI harness: what it sent and counted.
#[derive(Default)]
pub struct UciHarness {
    /// `go` commands that start a search (each must get one `bestmove`).
    pub searches: usize,
}

impl UciHarness {
    /// The line to send for input `line`, or `None` to drop it.
    pub fn rewrite(&mut self, line: &str) -> Option<String> {
        match parse_uci(line) {
            Ok(UciCommand::SetOption { name, value }) => {
                if is_file_option(&name) {
                    return None;
                }
                match capped_option(&name, value.as_deref()) {
                    Some((name, cap)) => Some(format!("setoption name {name} value {cap}")),
                    None => Some(line.to_string()),
                }
            }
            Ok(UciCommand::Bench(_)) => None,
            Ok(UciCommand::Go(params)) => {
                if params.perft.is_some() {
                    let depth = params.perft.unwrap_or(1).min(MAX_PERFT);
                    return Some(format!("{line} perft {depth}"));
                }
                // A later `nodes` overrides an earlier one; `go` reads the appended words as
                // a parameter whatever came before them.
                let nodes = params.nodes.unwrap_or(SEARCH_NODES).min(SEARCH_NODES);
                let rewritten = format!("{line} nodes {nodes}");
                match parse_uci(&rewritten) {
                    Ok(UciCommand::Go(check)) if check.nodes == Some(nodes) => {
                        self.searches += 1;
                        Some(rewritten)
                    }
                    _ => panic!("the harness failed to bound {line:?}"),
                }
            }
            _ => Some(line.to_string()),
        }
    }
}

/// Number of `bestmove` lines in UCI output.
fn bestmoves(output: &str) -> usize {
    output.lines().filter(|l| l.starts_with("bestmove")).count()
}

/// Feeds `data` to a UCI session, stops its search, and checks it: one `bestmove` for every
/// search started (unless the input quit), no search left running, a sound game.
pub fn run_uci(data: &[u8]) {
    let mut session = Session::<Uci>::uci();
    let mut harness = UciHarness::default();
    for line in crate::input_lines(data) {
        if let Some(line) = harness.rewrite(&line) {
            session.send(&line);
        }
        if session.has_quit() {
            return;
        }
    }
    session.send("stop");
    let searches = harness.searches;
    let answered = session.wait_for(STOP_TIMEOUT, |out| bestmoves(out) >= searches);
    let output = session.output();
    assert!(
        answered && bestmoves(&output) == searches,
        "{} bestmove lines for {searches} searches:\n{output}",
        bestmoves(&output)
    );
    assert!(
        !session.frontend().engine().is_searching(),
        "a search runs after stop"
    );
    check_game(session.frontend().engine().game());
}

/// The XBoard harness: what it counted.
#[derive(Default)]
pub struct XboardHarness {
    sync_searches: usize,
}

impl XboardHarness {
    /// The line to send for input `line`, or `None` to drop it.
    pub fn rewrite(&mut self, line: &str) -> Option<String> {
        match parse_command(line) {
            Ok(Command::EgtPath { .. }) => None,
            Ok(Command::Option { name, value }) => {
                if is_file_option(&name) {
                    return None;
                }
                match capped_option(&name, value.as_deref()) {
                    Some((name, cap)) => Some(format!("option {name}={cap}")),
                    None => Some(line.to_string()),
                }
            }
            Ok(Command::Memory(mb)) if mb > MAX_HASH_MB => Some(format!("memory {MAX_HASH_MB}")),
            Ok(Command::Cores(n)) if n > MAX_THREADS => Some(format!("cores {MAX_THREADS}")),
            Ok(Command::Hint) => {
                self.sync_searches += 1;
                (self.sync_searches <= MAX_SYNC_SEARCHES).then(|| line.to_string())
            }
            _ => Some(line.to_string()),
        }
    }
}

/// Feeds `data` to an XBoard session, stops every search the way a GUI does, and checks that
/// none is left running, that the engine still answers `ping`, and that its game is sound.
pub fn run_xboard(data: &[u8]) {
    let mut session = Session::<Xboard>::new();
    let mut harness = XboardHarness::default();
    for line in crate::input_lines(data) {
        if let Some(line) = harness.rewrite(&line) {
            session.send(&line);
        }
        if session.has_quit() {
            return;
        }
    }
    // Leave edit mode (which only takes edit commands), analysis and pause, then stop playing.
    if session.engine().is_editing() {
        session.send(".");
    }
    for line in ["exit", "resume", "force"] {
        session.send(line);
    }
    session.send("ping 424242");
    let answered = session.wait_for(STOP_TIMEOUT, |out| out.contains("pong 424242"));
    assert!(answered, "no pong after force:\n{}", session.output());
    assert!(
        !session.engine().is_searching(),
        "a search runs after force"
    );
    check_game(session.engine().engine().game());
}

/// The game's position is sound, and its recorded moves lead back to a legal position and
/// forward to it again.
fn check_game(game: &Game) {
    let pos = game.position();
    crate::check_position(pos);
    let mut back = pos.clone();
    for &mv in game.moves().iter().rev() {
        back.unmake_move(mv);
    }
    assert!(
        betacut::board::Position::from_fen(&back.to_fen()).is_ok(),
        "the game's start {} is refused",
        back.to_fen()
    );
    for &mv in game.moves() {
        assert!(
            back.legal_moves().contains(mv),
            "a recorded move is illegal"
        );
        back.make_move(mv);
    }
    assert!(back == *pos, "the moves do not replay to the position");
}
