//! A search running on its own thread: the [`Searcher`] is moved into the thread and comes back
//! with the result when the thread is joined. Progress goes out through the engine's
//! [`Listener`]; when the search ends (however it ends, even by a panic) the thread calls the
//! [`DoneNotifier`], so the protocol loop wakes up without polling.

use super::events::{CurrentMoveInfo, DoneNotifier, EngineEvent, Listener, SearchInfo};
use crate::board::{Move, Position};
use crate::search::time::time_used;
use crate::search::{SearchControl, SearchLimits, SearchResult, SearchUpdate, Searcher};
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
    /// Pondering on the opponent's time; becomes `Think` at the ponder hit.
    Ponder,
    /// Analysis: runs until told to stop; its result is never played.
    Analyze,
}

/// A search to start.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// What the search is for.
    pub kind: SearchKind,
    /// Its limits (MultiPV included).
    pub limits: SearchLimits,
    /// Moves to play from the game position before searching (XBoard's expected reply while
    /// pondering); they must be legal.
    pub prefix: Vec<Move>,
}

/// Sends the done notice when dropped: at the end of the search thread, also when it unwinds
/// from a panic or never starts.
struct FinishNotice {
    id: u64,
    on_done: DoneNotifier,
}

impl Drop for FinishNotice {
    fn drop(&mut self) {
        (self.on_done)(self.id);
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
    position: Arc<Position>,
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

/// Everything a search thread needs to report.
struct Reporter {
    id: u64,
    kind: SearchKind,
    listener: Listener,
    game_position: Arc<Position>,
    prefix: Vec<Move>,
    root: Arc<Position>,
    nps: Option<u64>,
    latest_pv: Arc<Mutex<Vec<Move>>>,
}

impl Reporter {
    fn report(&self, update: &SearchUpdate, control: &SearchControl) {
        match update {
            SearchUpdate::Line(report) => {
                if report.multipv == 1 {
                    if let Ok(mut pv) = self.latest_pv.lock() {
                        pv.clear();
                        pv.extend_from_slice(report.pv);
                    }
                }
                let pondering = control.is_pondering();
                let info = SearchInfo {
                    search_id: self.id,
                    kind: if self.kind == SearchKind::Ponder && !pondering {
                        SearchKind::Think
                    } else {
                        self.kind
                    },
                    pondering,
                    report,
                    time: time_used(report.elapsed, report.nodes, self.nps),
                    game_position: &self.game_position,
                    prefix: &self.prefix,
                    root: &self.root,
                };
                (self.listener)(&EngineEvent::Info(info));
            }
            SearchUpdate::RootMove(report) => {
                (self.listener)(&EngineEvent::CurrentMove(CurrentMoveInfo {
                    search_id: self.id,
                    report,
                    root: &self.root,
                }));
            }
        }
    }
}

impl RunningSearch {
    /// Starts `request` (with id `id`) on `game_position` in a new thread with `searcher`;
    /// `on_done` receives the id when it ends. Infinite and ponder searches are held: they
    /// end only when stopped (or, for a ponder search, run on as a timed search after the
    /// ponder hit).
    pub fn start(
        id: u64,
        request: SearchRequest,
        game_position: &Position,
        mut searcher: Searcher,
        listener: Listener,
        on_done: DoneNotifier,
    ) -> RunningSearch {
        let pondering = request.kind == SearchKind::Ponder;
        let hold = request.limits.infinite && !pondering;
        let control = Arc::new(SearchControl::with_hold(pondering, hold));
        let hash_mb = searcher.hash_size();
        let nps = request.limits.nps;
        let mut root = game_position.clone();
        for &mv in &request.prefix {
            root.make_move(mv);
        }
        let root = Arc::new(root);
        let latest_pv = Arc::new(Mutex::new(Vec::new()));
        let reporter = Reporter {
            id,
            kind: request.kind,
            listener,
            game_position: Arc::new(game_position.clone()),
            prefix: request.prefix.clone(),
            root: Arc::clone(&root),
            nps,
            latest_pv: Arc::clone(&latest_pv),
        };
        let notice = FinishNotice { id, on_done };
        let thread_control = Arc::clone(&control);
        let thread_root = Arc::clone(&root);
        let limits = request.limits.clone();
        let spawned = thread::Builder::new()
            .name("betacut-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let _notice = notice;
                let result = searcher.search(&thread_root, &limits, &thread_control, &mut |u| {
                    reporter.report(u, &thread_control)
                });
                (searcher, result)
            });
        let outcome = match spawned {
            Ok(handle) => Outcome::Running(handle),
            Err(_) => {
                // No thread (the searcher went with the failed closure): a fresh searcher runs
                // a timed search right here; an endless one is skipped. The notice was dropped
                // with the closure, so the protocol loop still hears of the end.
                let mut searcher = Searcher::new(hash_mb);
                let result = if request.kind == SearchKind::Think && !request.limits.infinite {
                    searcher.search(&root, &request.limits, &control, &mut |_| {})
                } else {
                    SearchResult::none()
                };
                Outcome::Ready(Box::new((searcher, result)))
            }
        };
        RunningSearch {
            id,
            kind: request.kind,
            control,
            position: root,
            clock_start: Instant::now(),
            hash_mb,
            nps,
            latest_pv,
            outcome,
        }
    }

    /// A search that is already over, with `result` (a book move): `on_done` is called with
    /// `id` now, so the front-end collects it the same way as a search that ended.
    pub fn finished(
        id: u64,
        kind: SearchKind,
        position: &Position,
        searcher: Searcher,
        result: SearchResult,
        on_done: DoneNotifier,
    ) -> RunningSearch {
        let run = RunningSearch {
            id,
            kind,
            control: Arc::new(SearchControl::new(false)),
            position: Arc::new(position.clone()),
            clock_start: Instant::now(),
            hash_mb: searcher.hash_size(),
            nps: None,
            latest_pv: Arc::new(Mutex::new(result.pv.clone())),
            outcome: Outcome::Ready(Box::new((searcher, result))),
        };
        on_done(id);
        run
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
        if self.kind == SearchKind::Ponder {
            self.kind = SearchKind::Think;
        }
        self.clock_start = Instant::now();
    }

    /// True once the search thread has returned.
    pub fn is_finished(&self) -> bool {
        match &self.outcome {
            Outcome::Running(handle) => handle.is_finished(),
            Outcome::Ready(_) => true,
        }
    }

    /// The first move of the latest reported principal variation.
    pub fn latest_best(&self) -> Option<Move> {
        self.latest_pv
            .lock()
            .ok()
            .and_then(|pv| pv.first().copied())
    }

    /// Latest progress: (nodes, depth, root move number, root moves, current root move).
    pub fn progress(&self) -> (u64, u32, u32, u32, Move) {
        self.control.progress()
    }

    /// Time since the search started (wall clock, or nodes at the `nps` rate).
    pub fn elapsed(&self) -> Duration {
        let (nodes, ..) = self.control.progress();
        time_used(self.control.started().elapsed(), nodes, self.nps)
    }

    /// Time the engine has used on this move so far (wall clock since the start or the ponder
    /// hit, or nodes in `nps` mode).
    pub fn time_used(&self) -> Duration {
        let (nodes, ..) = self.control.progress();
        time_used(self.clock_start.elapsed(), nodes, self.nps)
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
