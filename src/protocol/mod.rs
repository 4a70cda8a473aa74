//! The protocols: XBoard / WinBoard (CECP v2) and UCI, two thin front-ends over the
//! protocol-neutral [`crate::engine::Engine`].
//!
//! The first command chooses the protocol: `uci` (or a command only UCI has, such as
//! `setoption` or `isready`) starts a UCI session, anything else an XBoard session (`xboard`
//! and `protover` are what XBoard sends; a person typing at the console gets XBoard too). A reader thread turns standard input into [`Event::Line`]s, search threads
//! post [`Event::SearchDone`], and the protocol thread blocks on that one channel: no polling,
//! and the engine answers (`isready`, `ping`, `?`, `stop`, `quit` ...) while a search runs.
//! Each front-end turns text into a typed command, calls the engine, and turns the engine's
//! events back into text; neither touches bitboards.

pub mod output;
pub mod session;
pub mod uci;
pub mod xboard;

pub use output::Output;
pub use session::Session;
pub use uci::Uci;
pub use xboard::{Mode, Xboard};

use crate::engine::DoneNotifier;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// Longest input line kept; the rest of a longer line is dropped.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// What the protocol thread waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line of input (without its line end) and when it was read: a search it starts is
    /// timed from then, as the GUI's clock is, not from when the protocol thread got to it.
    Line(String, Instant),
    /// Standard input was closed.
    InputClosed,
    /// The search with this id has ended.
    SearchDone(u64),
}

/// Whether the protocol loop goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading input.
    Continue,
    /// `quit` (or the end of input): leave the loop.
    Quit,
}

/// A protocol front-end: created with where to write and where search threads post their
/// end, then fed one event at a time.
pub trait Frontend {
    /// A new front-end writing to `out`.
    fn create(out: Output, events: Sender<Event>) -> Self
    where
        Self: Sized;
    /// Handles one event; tells whether to go on.
    fn handle_event(&mut self, event: Event) -> Flow;
    /// Where it writes.
    fn output(&self) -> &Output;
}

/// The front-end chosen by the first command.
pub enum AutoDetect {
    /// No command yet.
    Undecided {
        /// Where the chosen front-end will write.
        out: Output,
        /// Where its searches will post their end.
        events: Sender<Event>,
    },
    /// An XBoard session.
    Xboard(Box<Xboard>),
    /// A UCI session.
    Uci(Box<Uci>),
}

/// The notifier that wakes the protocol loop when a search ends: it posts
/// [`Event::SearchDone`] on `events`.
pub fn done_notifier(events: Sender<Event>) -> DoneNotifier {
    let events = Mutex::new(events);
    Arc::new(move |id| {
        if let Ok(events) = events.lock() {
            let _ = events.send(Event::SearchDone(id));
        }
    })
}

/// True if `line` chooses UCI when it is the first command: `uci`, or a command that only UCI
/// has (`setoption`, `isready`, `ucinewgame`, `position`). Scid's game window waits five seconds
/// for a first line from the engine before it sends anything, then sends `setoption` before
/// `uci`; an XBoard session would refuse all of it.
pub fn chooses_uci(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("uci" | "setoption" | "isready" | "ucinewgame" | "position")
    )
}

impl Frontend for AutoDetect {
    fn create(out: Output, events: Sender<Event>) -> AutoDetect {
        AutoDetect::Undecided { out, events }
    }

    fn handle_event(&mut self, event: Event) -> Flow {
        if let AutoDetect::Undecided { out, events } = self {
            match &event {
                Event::Line(line, _) if line.trim().is_empty() => return Flow::Continue,
                Event::Line(line, _) if chooses_uci(line) => {
                    *self = AutoDetect::Uci(Box::new(Uci::new(out.clone(), events.clone())));
                }
                Event::Line(..) => {
                    *self = AutoDetect::Xboard(Box::new(Xboard::new(out.clone(), events.clone())));
                }
                Event::InputClosed => return Flow::Quit,
                Event::SearchDone(_) => return Flow::Continue,
            }
        }
        match self {
            AutoDetect::Undecided { .. } => Flow::Continue,
            AutoDetect::Xboard(front) => front.handle_event(event),
            AutoDetect::Uci(front) => front.handle_event(event),
        }
    }

    fn output(&self) -> &Output {
        match self {
            AutoDetect::Undecided { out, .. } => out,
            AutoDetect::Xboard(front) => front.output(),
            AutoDetect::Uci(front) => front.output(),
        }
    }
}

/// Runs the engine on standard input and output until `quit` or the end of input, in the
/// protocol the first command chooses.
pub fn run_stdio() {
    run_loop::<AutoDetect>();
}

/// Runs the engine on standard input and output in the protocol named (`uci` or `xboard`).
pub fn run_stdio_with(protocol: &str) {
    if protocol == "uci" {
        run_loop::<Uci>();
    } else {
        run_loop::<Xboard>();
    }
}

fn run_loop<F: Frontend>() {
    let (events, inbox) = mpsc::channel();
    spawn_stdin_reader(events.clone());
    let mut front = F::create(Output::stdout(), events);
    while let Ok(event) = inbox.recv() {
        if front.handle_event(event) == Flow::Quit {
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
                if events.send(Event::Line(line, Instant::now())).is_err() {
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
