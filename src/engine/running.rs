//! A search running on the engine's search thread ([`SearchThread`]): the [`Searcher`] is
//! moved into the thread and comes back with the result when the search is collected. Progress
//! goes out through the engine's [`Listener`]; when the search returns, the thread calls the
//! [`DoneNotifier`], so the protocol loop wakes up without polling. A panic in a search is a
//! bug: release builds abort on it (`panic = "abort"`), test builds pass it on to the thread
//! that collects the search.

use super::events::{CurrentMoveInfo, DoneNotifier, EngineEvent, Listener, SearchInfo, SearchKind};
use super::search_thread::{ResultSlot, SearchThread};
use crate::board::{Move, Position};
use crate::search::time::time_used;
use crate::search::{Bound, SearchControl, SearchLimits, SearchResult, SearchUpdate, Searcher};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// Fail lines (an aspiration window's fail high or low) are shown only once a search has run
/// this long: at bullet speed a GUI would otherwise get a flood of them (Stockfish waits 3 s
/// too).
pub const BOUND_LINES_AFTER: Duration = Duration::from_secs(3);

/// True if a line with `bound` reported `elapsed` into a search is shown; the line of the move
/// a stopped search plays (`final_line`) always is.
pub fn shows_line(bound: Bound, elapsed: Duration, final_line: bool) -> bool {
    final_line || bound == Bound::Exact || elapsed >= BOUND_LINES_AFTER
}

/// What the search thread gets to run.
pub(super) struct Job {
    searcher: Searcher,
    root: Arc<Position>,
    limits: SearchLimits,
    control: Arc<SearchControl>,
    reporter: Reporter,
    on_done: DoneNotifier,
    id: u64,
}

impl Job {
    /// Runs the search (the caller sends the done notice, [`Job::done_notice`], after it).
    pub(super) fn run(mut self) -> (Searcher, SearchResult) {
        let control = Arc::clone(&self.control);
        let reporter = &self.reporter;
        let result = self
            .searcher
            .search(&self.root, &self.limits, &control, &mut |update| {
                reporter.report(update, &control)
            });
        (self.searcher, result)
    }

    /// The done notifier and the id to call it with once the result can be collected.
    pub(super) fn done_notice(&self) -> (DoneNotifier, u64) {
        (Arc::clone(&self.on_done), self.id)
    }
}

enum Outcome {
    /// On the search thread; the result arrives in the slot.
    Running(Arc<ResultSlot>),
    /// Already over: a book move, or a search run on the protocol thread because no thread
    /// could be started.
    Ready(Box<(Searcher, SearchResult)>),
}

/// A search in progress (or finished, waiting to be collected).
pub struct RunningSearch {
    id: u64,
    kind: SearchKind,
    control: Arc<SearchControl>,
    position: Arc<Position>,
    clock_start: Instant,
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
    show_wdl: bool,
}

impl Reporter {
    fn report(&self, update: &SearchUpdate, control: &SearchControl) {
        match update {
            SearchUpdate::Line(report) => {
                if !shows_line(report.bound, report.elapsed, report.final_line) {
                    return;
                }
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
                    show_wdl: self.show_wdl,
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
    /// Starts `request` (with id `id`) on `game_position` on `thread` with `searcher`;
    /// `on_done` receives the id when it ends. Infinite and ponder searches are held: they
    /// end only when stopped (or, for a ponder search, run on as a timed search after the
    /// ponder hit). Its clock starts at `started` (when its command was read).
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        thread: &mut SearchThread,
        id: u64,
        request: SearchRequest,
        game_position: &Position,
        searcher: Searcher,
        listener: Listener,
        on_done: DoneNotifier,
        show_wdl: bool,
        started: Instant,
    ) -> RunningSearch {
        let pondering = request.kind == SearchKind::Ponder;
        let hold = request.limits.infinite && !pondering;
        let control = Arc::new(SearchControl::started_at(started, pondering, hold));
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
            show_wdl,
        };
        let job = Box::new(Job {
            searcher,
            root: Arc::clone(&root),
            limits: request.limits.clone(),
            control: Arc::clone(&control),
            reporter,
            on_done,
            id,
        });
        let outcome = match thread.submit(job) {
            Ok(slot) => Outcome::Running(slot),
            Err(job) => Outcome::Ready(Box::new(run_here(*job))),
        };
        RunningSearch {
            id,
            kind: request.kind,
            control,
            position: root,
            clock_start: started,
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

    /// True once the search has returned its result.
    pub fn is_finished(&self) -> bool {
        match &self.outcome {
            Outcome::Running(slot) => slot.is_filled(),
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
    /// itself) and returns the searcher and the result. A panic of the search thread (test
    /// builds only: release builds abort) is passed on.
    pub fn finish(self) -> (Searcher, SearchResult) {
        match self.outcome {
            Outcome::Ready(done) => *done,
            Outcome::Running(slot) => match slot.take() {
                Ok(done) => done,
                Err(panic) => std::panic::resume_unwind(panic),
            },
        }
    }
}

/// Runs `job` on the calling thread when no search thread could be started: a search with
/// limits (which ends by itself) is run, an endless one is not (it could never be stopped)
/// and ends at once without a move.
fn run_here(job: Job) -> (Searcher, SearchResult) {
    let limited = !job.limits.infinite && !job.control.is_pondering();
    let (on_done, id) = job.done_notice();
    let done = if limited {
        job.run()
    } else {
        (job.searcher, SearchResult::none())
    };
    on_done(id);
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_lines_wait_for_the_first_seconds_and_complete_lines_do_not() {
        assert!(shows_line(Bound::Exact, Duration::ZERO, false));
        assert!(!shows_line(
            Bound::Lower,
            Duration::from_millis(2999),
            false
        ));
        assert!(!shows_line(Bound::Upper, Duration::from_millis(10), false));
        assert!(shows_line(Bound::Lower, BOUND_LINES_AFTER, false));
        assert!(shows_line(Bound::Upper, Duration::from_secs(60), false));
        // The line of the move a stopped search plays, a fail high, is shown at once.
        assert!(shows_line(Bound::Lower, Duration::from_millis(10), true));
    }
}
