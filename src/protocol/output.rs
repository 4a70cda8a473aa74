//! The engine's output channel: whole lines, flushed one by one, shared between the protocol
//! thread and the search thread, optionally logged with timestamps to a file.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// A cloneable handle to where the engine writes its lines.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
    broken: Arc<AtomicBool>,
}

struct Sink {
    writer: Box<dyn Write + Send>,
    log: Option<File>,
    debug: bool,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output")
            .field("broken", &self.is_broken())
            .finish_non_exhaustive()
    }
}

impl Output {
    /// Output to `writer`.
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Sink {
                writer: Box::new(writer),
                log: None,
                debug: true,
            })),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Output to standard output.
    pub fn stdout() -> Output {
        Output::new(io::stdout())
    }

    fn lock(&self) -> MutexGuard<'_, Sink> {
        // A panic while holding the lock cannot leave a half-written line behind that matters
        // more than going on, so a poisoned lock is simply taken over.
        self.sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes one line (a newline is added) and flushes it.
    pub fn line(&self, text: &str) {
        let mut sink = self.lock();
        let written = sink
            .writer
            .write_all(text.as_bytes())
            .and_then(|()| sink.writer.write_all(b"\n"))
            .and_then(|()| sink.writer.flush());
        if written.is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
        sink.log_line('>', text);
    }

    /// Writes a `# ...` debug line, unless the interface rejected the `debug` feature.
    pub fn comment(&self, text: &str) {
        if self.lock().debug {
            self.line(&format!("# {text}"));
        }
    }

    /// Records an input line in the log file (if one is open).
    pub fn log_input(&self, line: &str) {
        self.lock().log_line('<', line);
    }

    /// Starts logging to `path` (appending), or stops logging when `path` is `None`.
    pub fn set_log_file(&self, path: Option<&Path>) -> io::Result<()> {
        let file = match path {
            Some(path) => Some(OpenOptions::new().create(true).append(true).open(path)?),
            None => None,
        };
        let mut sink = self.lock();
        sink.log = file;
        sink.log_line('-', "log started");
        Ok(())
    }

    /// Allows or forbids `#` debug lines (`accepted debug` / `rejected debug`).
    pub fn set_debug(&self, allowed: bool) {
        self.lock().debug = allowed;
    }

    /// True once a write failed (the interface is gone).
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }
}

impl Sink {
    fn log_line(&mut self, direction: char, text: &str) {
        if let Some(log) = self.log.as_mut() {
            let stamp = timestamp();
            if writeln!(log, "{stamp} {direction} {text}").is_err() {
                self.log = None;
            }
        }
    }
}

/// UTC time of day as `HH:MM:SS.mmm`.
fn timestamp() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = now.as_secs();
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        secs / 3600 % 24,
        secs / 60 % 60,
        secs % 60,
        now.subsec_millis()
    )
}

/// An in-memory writer whose contents can be read while the engine writes (for tests).
#[derive(Clone, Debug, Default)]
pub struct MemoryWriter {
    buffer: Arc<Mutex<Vec<u8>>>,
}

impl MemoryWriter {
    /// An empty buffer.
    pub fn new() -> MemoryWriter {
        MemoryWriter::default()
    }

    /// Everything written so far, as text.
    pub fn contents(&self) -> String {
        let buffer = self.buffer.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&buffer).into_owned()
    }

    /// Removes and returns everything written so far.
    pub fn take(&self) -> String {
        let mut buffer = self.buffer.lock().unwrap_or_else(|p| p.into_inner());
        let text = String::from_utf8_lossy(&buffer).into_owned();
        buffer.clear();
        text
    }
}

impl Write for MemoryWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut buffer = self.buffer.lock().unwrap_or_else(|p| p.into_inner());
        buffer.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_log() {
        let memory = MemoryWriter::new();
        let out = Output::new(memory.clone());
        out.line("move e2e4");
        out.comment("note");
        out.set_debug(false);
        out.comment("hidden");
        assert_eq!(memory.take(), "move e2e4\n# note\n");
        let path = std::env::temp_dir().join(format!("betacut-log-{}.txt", std::process::id()));
        assert!(out.set_log_file(Some(&path)).is_ok());
        out.log_input("go");
        out.line("move d2d4");
        assert!(out.set_log_file(None).is_ok());
        let log = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        assert!(log.contains("< go"), "{log}");
        assert!(log.contains("> move d2d4"), "{log}");
        assert!(!out.is_broken());
    }
}
