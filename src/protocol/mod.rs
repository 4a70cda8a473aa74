//! The XBoard / WinBoard protocol (CECP v2).
//!
//! Text becomes a typed [`command::Command`], which drives one [`xboard::Engine`] state
//! machine. A reader thread turns standard input into [`Event::Line`]s, search threads post
//! [`Event::SearchDone`], and the engine thread blocks on that one channel: no polling, and the
//! engine answers `?`, `.`, `ping`, `force`, `quit` ... while a search runs. The protocol layer
//! works on positions and moves only; it never touches bitboards.

pub mod command;
pub mod edit;
pub mod features;
pub mod game;
pub mod output;
pub mod search_thread;
pub mod session;
pub mod thinking;
pub mod timecontrol;
pub mod xboard;

pub use output::Output;
pub use session::Session;
pub use xboard::{Engine, Flow};

use std::io::{self, BufRead};
use std::sync::mpsc::{self, Sender};
use std::thread;

/// Longest input line kept; the rest of a longer line is dropped.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// What the engine thread waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line of input (without its line end).
    Line(String),
    /// Standard input was closed.
    InputClosed,
    /// The search with this id has ended.
    SearchDone(u64),
}

/// Runs the protocol on standard input and output until `quit` or the end of input.
pub fn run_stdio() {
    let (events, inbox) = mpsc::channel();
    spawn_stdin_reader(events.clone());
    let mut engine = Engine::new(Output::stdout(), events);
    while let Ok(event) = inbox.recv() {
        if engine.handle_event(event) == Flow::Quit {
            break;
        }
    }
}

/// Reads standard input on its own thread, one [`Event::Line`] per line (invalid UTF-8 is
/// replaced, over-long lines are cut), then [`Event::InputClosed`].
fn spawn_stdin_reader(events: Sender<Event>) {
    let spawned = thread::Builder::new()
        .name("betacut-input".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            while let Some(line) = read_line(&mut input) {
                if events.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            let _ = events.send(Event::InputClosed);
        });
    if spawned.is_err() {
        eprintln!("betacut: cannot start the input thread");
        std::process::exit(1);
    }
}

/// Reads one line (without `\n` / `\r\n`), keeping at most `MAX_LINE_BYTES`; `None` at the
/// end of input or on a read error.
pub fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let mut saw_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            break;
        }
        saw_any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        if done {
            break;
        }
    }
    if !saw_any {
        return None;
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Some(String::from_utf8_lossy(&line).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_trimmed_and_bounded() {
        let data = b"xboard\r\nprotover 2\n\xff\xfebad\nlast".to_vec();
        let mut input = io::Cursor::new(data);
        assert_eq!(read_line(&mut input).as_deref(), Some("xboard"));
        assert_eq!(read_line(&mut input).as_deref(), Some("protover 2"));
        assert_eq!(
            read_line(&mut input).as_deref(),
            Some("\u{fffd}\u{fffd}bad")
        );
        assert_eq!(read_line(&mut input).as_deref(), Some("last"));
        assert_eq!(read_line(&mut input), None);
        let long = vec![b'a'; MAX_LINE_BYTES * 3];
        let mut input = io::Cursor::new([long, b"\nnext\n".to_vec()].concat());
        assert_eq!(read_line(&mut input).map(|l| l.len()), Some(MAX_LINE_BYTES));
        assert_eq!(read_line(&mut input).as_deref(), Some("next"));
    }
}
