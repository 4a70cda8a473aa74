//! A search running on its own thread: the [`Searcher`] is moved into the thread and comes back
//! with the result when the thread is joined. When the search ends (however it ends, even by a
//! panic) the thread posts [`Event::SearchDone`] so the protocol loop wakes up without polling.

use super::output::Output;
use super::thinking::{search_time, stat01_line, thinking_line};
use super::Event;
use crate::board::{Move, Position};
use crate::search::{SearchControl, SearchLimits, SearchReport, SearchResult, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Stack size of the search thread (deep recursion must never overflow it).
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Choosing the engine's move; its result is played.
    Think,
    /// Pondering on the opponent's time, assuming the opponent plays `expected`.
    Ponder {
        /// The reply the engine expects; the search runs on the position after it.
        expected: Move,
    },
    /// Analysis mode: runs until told to stop; its result is never played.
    Analyze,
}

/// Prints thinking lines for a search and remembers its latest PV (for `hint`).
#[derive(Clone, Debug)]
pub struct Reporter {
    out: Output,
    post: Arc<AtomicBool>,
    /// Position the search runs on.
    search_root: Position,
    /// Position before `prefix` (the same as `search_root` when there is no prefix).
    display_root: Position,
    /// The expected reply while pondering, shown in front of the PV until the ponder hit.
    prefix: Vec<Move>,
    nps: Option<u64>,
    latest_pv: Arc<Mutex<Vec<Move>>>,
}

impl Reporter {
    /// A reporter printing to `out` while `post` is set; `display_root` + `prefix` lead to the
    /// searched position.
    pub fn new(
        out: Output,
        post: Arc<AtomicBool>,
        display_root: Position,
        prefix: Vec<Move>,
        nps: Option<u64>,
    ) -> Reporter {
        let mut search_root = display_root.clone();
        for &mv in &prefix {
            search_root.make_move(mv);
        }
        Reporter {
            out,
            post,
            search_root,
            display_root,
            prefix,
            nps,
            latest_pv: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn report(&mut self, report: &SearchReport, control: &SearchControl) {
        if let Ok(mut pv) = self.latest_pv.lock() {
            pv.clear();
            pv.extend_from_slice(report.pv);
        }
        if !self.post.load(Ordering::Relaxed) {
            return;
        }
        let line = if !self.prefix.is_empty() && control.is_pondering() {
            thinking_line(report, &self.display_root, &self.prefix, self.nps)
        } else {
            thinking_line(report, &self.search_root, &[], self.nps)
        };
        self.out.line(&line);
    }
}

/// Sends [`Event::SearchDone`] when dropped: at the end of the search thread, also when it
/// unwinds from a panic or never starts.
struct FinishNotice {
    id: u64,
    events: Sender<Event>,
}

impl Drop for FinishNotice {
    fn drop(&mut self) {
        let _ = self.events.send(Event::SearchDone(self.id));
    }
}

enum Outcome {
    Running(JoinHandle<(Searcher, SearchResult)>),
    /// The thread could not be started; the search was run here (or skipped).
    Ready(Box<(Searcher, SearchResult)>),
}

/// A search in progress (or finished, waiting to be collected).
pub struct RunningSearch {
    id: u64,
    kind: SearchKind,
    control: Arc<SearchControl>,
    position: Position,
    clock_start: Instant,
    hash_mb: usize,
    nps: Option<u64>,
    latest_pv: Arc<Mutex<Vec<Move>>>,
    outcome: Outcome,
}

impl std::fmt::Debug for RunningSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningSearch")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// Everything needed to start a search.
pub struct SearchJob {
    /// Identifies the search in [`Event::SearchDone`].
    pub id: u64,
    /// What the search is for.
    pub kind: SearchKind,
    /// Position to search (for pondering: the position after the expected reply).
    pub position: Position,
    /// Its limits.
    pub limits: SearchLimits,
    /// Thinking output.
    pub reporter: Reporter,
}

impl RunningSearch {
    /// Starts `job` on a new thread with `searcher`; `events` receives the completion notice.
    pub fn start(job: SearchJob, mut searcher: Searcher, events: Sender<Event>) -> RunningSearch {
        let pondering = matches!(job.kind, SearchKind::Ponder { .. });
        let control = Arc::new(SearchControl::new(pondering));
        let hash_mb = searcher.hash_size();
        let nps = job.limits.nps;
        let latest_pv = Arc::clone(&job.reporter.latest_pv);
        let notice = FinishNotice { id: job.id, events };
        let thread_control = Arc::clone(&control);
        let position = job.position.clone();
        let limits = job.limits.clone();
        let mut reporter = job.reporter.clone();
        let spawned = thread::Builder::new()
            .name("betacut-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let _notice = notice;
                let result = searcher.search(&position, &limits, &thread_control, &mut |r| {
                    reporter.report(r, &thread_control)
                });
                (searcher, result)
            });
        let outcome = match spawned {
            Ok(handle) => Outcome::Running(handle),
            Err(err) => {
                // No thread: a timed search runs right here; an endless one is skipped.
                job.reporter
                    .out
                    .comment(&format!("cannot start search thread: {err}"));
                let mut searcher = Searcher::new(hash_mb);
                let result = if job.kind == SearchKind::Think {
                    let mut reporter = job.reporter.clone();
                    let control = Arc::clone(&control);
                    searcher.search(&job.position, &job.limits, &control, &mut |r| {
                        reporter.report(r, &control)
                    })
                } else {
                    SearchResult::none()
                };
                Outcome::Ready(Box::new((searcher, result)))
            }
        };
        RunningSearch {
            id: job.id,
            kind: job.kind,
            control,
            position: job.position,
            clock_start: Instant::now(),
            hash_mb,
            nps,
            latest_pv,
            outcome,
        }
    }

    /// The search's id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// What the search is for.
    pub fn kind(&self) -> SearchKind {
        self.kind
    }

    /// The position being searched.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// When the engine's clock started for this search (its start, or the ponder hit).
    pub fn clock_start(&self) -> Instant {
        self.clock_start
    }

    /// Asks the search to stop; it still produces its best move.
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The opponent played the expected move: the ponder search becomes the engine's
    /// thinking, timed from now.
    pub fn ponderhit(&mut self) {
        self.control.ponderhit();
        self.kind = SearchKind::Think;
        self.clock_start = Instant::now();
    }

    /// True once the search thread has returned.
    pub fn is_finished(&self) -> bool {
        match &self.outcome {
            Outcome::Running(handle) => handle.is_finished(),
            Outcome::Ready(_) => true,
        }
    }

    /// The first move of the latest reported PV.
    pub fn latest_best(&self) -> Option<Move> {
        self.latest_pv
            .lock()
            .ok()
            .and_then(|pv| pv.first().copied())
    }

    /// The answer to `.` for this search.
    pub fn stat01(&self) -> String {
        let (nodes, depth, index, total, current) = self.control.progress();
        let name = (!current.is_none() && self.position.legal_moves().contains(current))
            .then(|| self.position.clone().move_to_san(current));
        let time = search_time(self.control.started().elapsed(), nodes, self.nps);
        stat01_line(time, nodes, depth, index, total, name)
    }

    /// Time the engine has used on this move so far (wall clock, or nodes in `nps` mode).
    pub fn time_used(&self) -> Duration {
        let (nodes, ..) = self.control.progress();
        search_time(self.clock_start.elapsed(), nodes, self.nps)
    }

    /// Waits for the search to end (call [`RunningSearch::stop`] first unless it stops by
    /// itself) and returns the searcher and the result. A panicked search yields a fresh
    /// searcher and an empty result ([`Move::NONE`]).
    pub fn finish(self) -> (Searcher, SearchResult) {
        match self.outcome {
            Outcome::Ready(done) => *done,
            Outcome::Running(handle) => match handle.join() {
                Ok(done) => done,
                Err(_) => (Searcher::new(self.hash_mb), SearchResult::none()),
            },
        }
    }
}
