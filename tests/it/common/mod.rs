//! The harness of the whole-program protocol tests: the built `betacut` binary started as a
//! child process and driven over pipes, with a reader thread collecting its output lines and a
//! transcript printed when a test fails; and the one run of `betacut bench` that the tests of
//! its signature share.

use betacut::board::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Longest wait for any expected line.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// A running engine process with a reader thread collecting its output lines.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
    /// A counter for protocol-level synchronisation (`ping N`).
    pub next_ping: u64,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_betacut"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start betacut");
        let stdout = child.stdout.take().expect("engine stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(line) => {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            next_ping: 1000,
        }
    }

    /// Closes the engine's standard input (the end of input, as when a GUI dies).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// Sends `text` exactly as given, line ends included (e.g. lines ending in `\r\n`, as
    /// Windows programs write them).
    pub fn send_raw(&mut self, text: &str) {
        self.transcript.push(format!("> {text:?}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    pub fn fail(&self, message: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(String::as_str).collect();
        panic!(
            "{message}\n--- transcript (last lines) ---\n{}",
            tail.join("\n")
        );
    }

    /// The next line, or `None` after `timeout` / at the end of output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `wanted`; returns it and the lines before it.
    pub fn expect(&mut self, what: &str, wanted: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let deadline = Instant::now() + TIMEOUT;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) if wanted(&line) => return (line, before),
                Some(line) => before.push(line),
                None => self.fail(&format!("no {what} within {TIMEOUT:?}")),
            }
        }
    }

    pub fn expect_line(&mut self, exact: &str) -> Vec<String> {
        self.expect(&format!("line {exact:?}"), |l| l == exact).1
    }

    /// Sends `quit` and waits for the process to exit; returns whether it exited cleanly.
    pub fn quit(mut self) -> bool {
        self.send("quit");
        self.wait_exit()
    }

    pub fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.success(),
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(_) => return false,
            }
        }
        self.fail("engine did not exit")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A position from a FEN the test itself supplies.
pub fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

/// A deterministic weak opponent: a pseudo-random legal move, in coordinates.
pub fn weak_move(pos: &Position, seed: &mut u64) -> String {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let moves = pos.legal_moves();
    let pick = (*seed >> 33) as usize % moves.len();
    pos.move_to_coordinate(moves.as_slice()[pick])
}

/// Replays the sample session between `<!-- session:begin -->` and `<!-- session:end -->` in the
/// document `doc` (a file of the repository): `> ` lines are sent, `< ` lines must come back in
/// this order. In an expected line a final `*` matches any rest of the line, and `head * middle
/// *` a line that starts with `head` and contains `middle`. Lines for which `allowed` holds may
/// come in between (search output); any other line in between fails the test.
pub fn replay_session(doc: &str, allowed: impl Fn(&str) -> bool) {
    let path = format!("{}/{doc}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let marker = "<!-- session:begin -->";
    let (Some(start), Some(end)) = (text.find(marker), text.find("<!-- session:end -->")) else {
        panic!("{doc} has the session markers");
    };
    let session: Vec<&str> = text[start + marker.len()..end]
        .lines()
        .filter(|l| l.starts_with('>') || l.starts_with('<'))
        .collect();
    assert!(session.len() > 20, "{doc}: session found");
    let mut engine = Engine::start();
    for entry in session {
        if let Some(input) = entry.strip_prefix("> ") {
            engine.send(input);
            continue;
        }
        let expected = entry.strip_prefix("< ").unwrap_or("");
        let matches = |line: &str| -> bool {
            match expected.find('*') {
                None => line == expected,
                Some(star) if star + 1 == expected.len() => line.starts_with(&expected[..star]),
                Some(star) => {
                    let middle = expected[star + 1..].trim_end_matches('*').trim();
                    line.starts_with(&expected[..star]) && line.contains(middle)
                }
            }
        };
        let (line, before) = engine.expect(&format!("{expected:?}"), matches);
        let stray: Vec<&String> = before.iter().filter(|l| !allowed(l)).collect();
        assert!(stray.is_empty(), "unexpected {stray:?} before {line:?}");
    }
    assert!(engine.wait_exit(), "{doc}: the session ends with quit");
}

/// The output of `betacut bench` (its default positions and depth, on the best vector path of
/// this CPU), run once for the whole test program on the first call: the tests that check the
/// bench's signature share it instead of searching the bench again each (a few seconds a run).
pub fn bench() -> &'static Output {
    static BENCH: OnceLock<Output> = OnceLock::new();
    BENCH.get_or_init(|| run_bench(None))
}

/// Runs `betacut bench` in a process of its own, with the network's vector path capped at
/// `simd` (`BETACUT_SIMD`) if given, else left to the CPU; it must succeed.
pub fn run_bench(simd: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_betacut"));
    command.arg("bench").env_remove("BETACUT_SIMD");
    if let Some(level) = simd {
        command.env("BETACUT_SIMD", level);
    }
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut bench: {e}"));
    assert!(out.status.success(), "bench failed: {out:?}");
    out
}

/// Runs the built `betacut` with `args` (no standard input) and returns what it did.
pub fn betacut(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_betacut"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut {args:?}: {e}"))
}
