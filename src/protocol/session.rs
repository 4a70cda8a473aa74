//! A front-end driven in-process, with its output in memory: lets tests (and property tests)
//! feed lines and read replies without starting a process.

use super::output::{MemoryWriter, Output};
use super::{Event, Flow, Frontend, Uci, Xboard};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A front-end with an in-memory output and its own event channel.
pub struct Session<F: Frontend = Xboard> {
    front: F,
    inbox: Receiver<Event>,
    output: MemoryWriter,
    quit: bool,
}

impl Default for Session<Xboard> {
    fn default() -> Session<Xboard> {
        Session::new()
    }
}

impl Session<Xboard> {
    /// A fresh XBoard session.
    pub fn new() -> Session<Xboard> {
        Session::with_frontend()
    }

    /// The XBoard front-end.
    pub fn engine(&self) -> &Xboard {
        &self.front
    }
}

impl Session<Uci> {
    /// A fresh UCI session.
    pub fn uci() -> Session<Uci> {
        Session::with_frontend()
    }
}

impl<F: Frontend> Session<F> {
    /// A fresh session of front-end `F`.
    pub fn with_frontend() -> Session<F> {
        let (events, inbox) = mpsc::channel();
        let output = MemoryWriter::new();
        Session {
            front: F::create(Output::new(output.clone()), events),
            inbox,
            output,
            quit: false,
        }
    }

    /// The front-end.
    pub fn frontend(&self) -> &F {
        &self.front
    }

    /// True once the front-end asked to quit (later input is ignored).
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    fn handle(&mut self, event: Event) {
        if self.front.handle_event(event) == Flow::Quit {
            self.quit = true;
        }
    }

    /// Feeds one line, then handles any search events that are already waiting.
    pub fn send(&mut self, line: &str) -> Flow {
        if self.quit {
            return Flow::Quit;
        }
        self.handle(Event::Line(line.to_string(), Instant::now()));
        self.pump();
        if self.quit {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// Feeds raw bytes as one line (invalid UTF-8 replaced, as the stdin reader does).
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Flow {
        let line = String::from_utf8_lossy(bytes).into_owned();
        self.send(&line)
    }

    /// Handles the search events that are waiting, without blocking.
    pub fn pump(&mut self) {
        while !self.quit {
            match self.inbox.try_recv() {
                Ok(event) => self.handle(event),
                Err(_) => break,
            }
        }
    }

    /// Handles events until `done(output so far)` holds or `timeout` passes; true if it held.
    pub fn wait_for(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if done(&self.output.contents()) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || self.quit {
                return false;
            }
            match self.inbox.recv_timeout(left.min(Duration::from_millis(50))) {
                Ok(event) => self.handle(event),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return done(&self.output.contents()),
            }
        }
    }

    /// Everything the front-end wrote so far.
    pub fn output(&self) -> String {
        self.output.contents()
    }

    /// Removes and returns everything the front-end wrote so far.
    pub fn take_output(&self) -> String {
        self.output.take()
    }
}
