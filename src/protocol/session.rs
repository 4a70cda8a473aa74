//! An engine driven in-process, with its output in memory: lets tests (and property tests)
//! feed lines and read replies without starting a process.

use super::output::{MemoryWriter, Output};
use super::xboard::{Engine, Flow};
use super::Event;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// An [`Engine`] with an in-memory output and its own event channel.
pub struct Session {
    engine: Engine,
    inbox: Receiver<Event>,
    output: MemoryWriter,
    quit: bool,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A fresh engine.
    pub fn new() -> Session {
        let (events, inbox) = mpsc::channel();
        let output = MemoryWriter::new();
        Session {
            engine: Engine::new(Output::new(output.clone()), events),
            inbox,
            output,
            quit: false,
        }
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// True once the engine asked to quit (later input is ignored).
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Feeds one line, then handles any search events that are already waiting.
    pub fn send(&mut self, line: &str) -> Flow {
        if self.quit {
            return Flow::Quit;
        }
        if self.engine.handle_event(Event::Line(line.to_string())) == Flow::Quit {
            self.quit = true;
        }
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
                Ok(event) => {
                    if self.engine.handle_event(event) == Flow::Quit {
                        self.quit = true;
                    }
                }
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
                Ok(event) => {
                    if self.engine.handle_event(event) == Flow::Quit {
                        self.quit = true;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return done(&self.output.contents()),
            }
        }
    }

    /// Everything the engine wrote so far.
    pub fn output(&self) -> String {
        self.output.contents()
    }

    /// Removes and returns everything the engine wrote so far.
    pub fn take_output(&self) -> String {
        self.output.take()
    }
}
