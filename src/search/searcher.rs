//! The searcher: owns the transposition table and one worker per thread, and runs a search
//! (Lazy SMP: every thread searches the same tree, sharing the table; the main thread reports
//! and decides when to stop).

use super::control::SearchControl;
use super::limits::SearchLimits;
use super::score::{DRAW, MATE};
use super::tablebases::{SearchTablebases, TbSettings};
use super::time::TimeBudget;
use super::tt::TranspositionTable;
use super::watchdog::Watchdog;
use super::worker::{Shared, Worker, WorkerEvent};
use crate::board::{Move, Position};
use crate::eval::nnue::Network;
use crate::tb::Tablebases;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use super::tt::{Bound, TableAllocError};

/// One line of the search: sent for every line (MultiPV) of every completed iteration, and for
/// an iteration whose aspiration window failed (a bound).
#[derive(Clone, Copy, Debug)]
pub struct SearchReport<'a> {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line, from 1 (the best) up to the MultiPV count.
    pub multipv: usize,
    /// Score from the side to move's view (see [`super::score`] for mates).
    pub score: i32,
    /// Whether the score is exact, a lower bound (fail high) or an upper bound (fail low).
    pub bound: Bound,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Permille of the transposition table used by this search.
    pub hashfull: u32,
    /// Endgame tablebase hits so far.
    pub tbhits: u64,
    /// Principal variation, first move first.
    pub pv: &'a [Move],
    /// The line of the move that a search stopped inside an iteration plays (its last
    /// report), so a front-end shows it whatever its bound.
    pub final_line: bool,
}

/// The main thread starts searching a root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoveReport {
    /// Iteration depth.
    pub depth: u32,
    /// The root move.
    pub mv: Move,
    /// Its number in this iteration, from 1.
    pub number: u32,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// What a search reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum SearchUpdate<'a> {
    /// A line: complete, or a bound.
    Line(SearchReport<'a>),
    /// The main thread starts on a root move.
    RootMove(RootMoveReport),
}

/// Outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Move to play; [`Move::NONE`] when there is no legal move.
    pub best_move: Move,
    /// Expected reply (for pondering), if known.
    pub ponder_move: Option<Move>,
    /// Score of the best move from the side to move's view.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// The root move and score of every line of the last iteration whose lines were all
    /// completed, best first (more than one with MultiPV).
    pub lines: Vec<(Move, i32)>,
    /// The score is exact: it comes from a completed iteration (or a root move searched
    /// inside its window before the search stopped), not from an interrupted fail high, which
    /// only bounds the score from below.
    pub exact: bool,
}

impl SearchResult {
    /// The result of a search that had no move to search (mate, stalemate, all excluded).
    pub fn none() -> SearchResult {
        SearchResult {
            best_move: Move::NONE,
            ponder_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            lines: Vec::new(),
            exact: true,
        }
    }
}

/// Owns the search state (table, per-thread histories); several searchers can exist side by
/// side.
pub struct Searcher {
    tt: TranspositionTable,
    /// Nothing was stored in the table since it was made or cleared: clearing it again is
    /// skipped (writing a fresh table through would touch every page of it).
    table_fresh: bool,
    hash_mb: usize,
    workers: Vec<Worker>,
    random_seed: Option<u64>,
    games: u64,
    /// The network every worker evaluates with; the hand-crafted evaluation when `None`.
    network: Option<Arc<Network>>,
    /// Syzygy tables and their settings (none: no probing at all).
    tablebases: Option<Arc<Tablebases>>,
    tb_settings: TbSettings,
    /// See [`Searcher::set_fifty_move_damping`].
    fifty_move_damping: bool,
    /// Keeps the hard time limit of timed searches (one thread for all of them).
    watchdog: Watchdog,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("hash_mb", &self.hash_mb)
            .field("threads", &self.workers.len())
            .field("random", &self.random_seed.is_some())
            .field("network", &self.network.as_ref().map(|n| n.hidden()))
            .finish()
    }
}

impl Searcher {
    /// A single-threaded searcher with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            table_fresh: true,
            hash_mb: hash_mb.max(1),
            workers: vec![Worker::new(0)],
            random_seed: None,
            games: 0,
            network: None,
            tablebases: None,
            tb_settings: TbSettings::default(),
            fifty_move_damping: true,
            watchdog: Watchdog::default(),
        }
    }

    /// Endgame tablebases for the next searches (`None`: none) and how to probe them.
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>, settings: TbSettings) {
        self.tablebases = tables;
        self.tb_settings = settings;
    }

    /// Resizes the transposition table (its contents are lost). If the memory cannot be
    /// had, the searcher keeps a 1 MiB table and says so in the error; nothing aborts.
    pub fn set_hash_size(&mut self, hash_mb: usize) -> Result<(), TableAllocError> {
        let hash_mb = hash_mb.max(1);
        if hash_mb == self.hash_mb {
            return Ok(());
        }
        // Free the old table first: the new one may need its memory.
        self.tt = TranspositionTable::new(1);
        self.hash_mb = 1;
        self.table_fresh = true;
        self.tt = TranspositionTable::try_new(hash_mb)?;
        self.hash_mb = hash_mb;
        Ok(())
    }

    /// Starts the thread that keeps the searches' hard time limit, if it does not run yet, so
    /// that the first timed search does not wait for a new thread to be scheduled.
    pub fn start_watchdog(&mut self) {
        self.watchdog.start();
    }

    /// Transposition table size in MiB.
    pub fn hash_size(&self) -> usize {
        self.hash_mb
    }

    /// Number of search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, 256);
        self.workers.truncate(threads);
        while self.workers.len() < threads {
            let id = self.workers.len();
            let mut worker = Worker::new(id);
            worker.evaluator.set_network(self.network.clone());
            worker.fifty_move_damping = self.fifty_move_damping;
            self.workers.push(worker);
        }
    }

    /// Evaluates with `network` from the next search on (every thread shares it), or with the
    /// hand-crafted evaluation if `None`.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        for worker in &mut self.workers {
            worker.evaluator.set_network(network.clone());
        }
        self.network = network;
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Whether static evaluations are drawn towards a draw as the fifty-move count grows
    /// (on by default). Data generation turns it off: the network it trains does not see the
    /// count, so its labels must not depend on it.
    pub fn set_fifty_move_damping(&mut self, enabled: bool) {
        self.fifty_move_damping = enabled;
        for worker in &mut self.workers {
            worker.fifty_move_damping = enabled;
        }
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// XBoard `random`: when on, evaluations get a small random offset that is fixed per
    /// position within a game (so the table stays consistent) and changes from game to game.
    pub fn set_random(&mut self, enabled: bool) {
        self.random_seed = enabled.then(|| self.game_seed());
    }

    fn game_seed(&self) -> u64 {
        let time = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        (time ^ self.games.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    /// Forgets everything learnt (new game): table, histories, pawn caches.
    pub fn clear(&mut self) {
        if !self.table_fresh {
            self.tt.clear();
            self.table_fresh = true;
        }
        for worker in &mut self.workers {
            worker.clear();
        }
        self.games += 1;
        if self.random_seed.is_some() {
            self.random_seed = Some(self.game_seed());
        }
    }

    /// Searches `pos` within `limits`, calling `report` with every line of every completed
    /// iteration, every aspiration failure, and every root move the main thread starts on.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        report: &mut (dyn FnMut(&SearchUpdate) + Send),
    ) -> SearchResult {
        let legal = pos.legal_moves();
        let root_moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !limits.excluded.contains(m))
            .collect();
        if root_moves.is_empty() {
            return self.nothing_to_search(pos, legal.is_empty(), control, report);
        }
        // A root in the tablebases: only the moves that keep its result are searched.
        let tb = self
            .tablebases
            .as_ref()
            .map(|t| SearchTablebases::new(Arc::clone(t), self.tb_settings, pos, &root_moves));
        let tb = tb.as_ref();
        let root_moves = match tb.and_then(SearchTablebases::root) {
            Some(ranking) => ranking.kept.clone(),
            None => root_moves,
        };

        self.tt.new_search();
        self.table_fresh = false;
        for worker in &mut self.workers {
            worker.prepare(pos, &root_moves);
        }
        // One flag per search: a watchdog that fires late cannot abort the next one.
        let abort = Arc::new(AtomicBool::new(false));
        let thread_nodes: Vec<AtomicU64> =
            (0..self.workers.len()).map(|_| AtomicU64::new(0)).collect();
        // Only the main thread reports; the lock is never contended.
        let report = Mutex::new(report);
        let tt = &self.tt;
        let nodes_of = |counts: &[AtomicU64]| -> u64 {
            counts
                .iter()
                .map(|n| n.load(std::sync::atomic::Ordering::Relaxed))
                .sum()
        };
        let events = |event: &WorkerEvent| {
            let update = match *event {
                WorkerEvent::Line {
                    line,
                    pv_index,
                    bound,
                    seldepth,
                    final_line,
                } => SearchUpdate::Line(SearchReport {
                    depth: line.depth,
                    seldepth,
                    multipv: pv_index + 1,
                    score: tb.map_or(line.score, |t| t.root_score(line.score)),
                    bound,
                    elapsed: control.started().elapsed(),
                    nodes: nodes_of(&thread_nodes),
                    hashfull: tt.hashfull(),
                    tbhits: tb.map_or(0, SearchTablebases::hits),
                    pv: &line.pv,
                    final_line,
                }),
                WorkerEvent::RootMove { depth, mv, number } => {
                    SearchUpdate::RootMove(RootMoveReport {
                        depth,
                        mv,
                        number,
                        elapsed: control.started().elapsed(),
                    })
                }
            };
            let mut report = report.lock().unwrap_or_else(|e| e.into_inner());
            (*report)(&update);
        };
        let shared = Shared {
            tt,
            control,
            limits,
            budget: TimeBudget::from_limits(limits, pos.fullmove_number()),
            abort: &abort,
            thread_nodes: &thread_nodes,
            random_seed: self.random_seed,
            events: &events,
            tb,
        };

        // The hard time limit is also kept by the watchdog, which ends the search even when
        // its nodes are slow (the page faults of a fresh table) and the search's own look at
        // the clock, every few thousand nodes, comes late.
        let timed = !limits.infinite && limits.nps.is_none();
        if let Some(hard) = shared.budget.filter(|_| timed).map(|b| b.hard) {
            self.watchdog.arm(control.clock(), hard, &abort);
        }
        let (main, helpers) = self.workers.split_at_mut(1);
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let shared = &shared;
                scope.spawn(move || helper.iterate(shared));
            }
            main[0].iterate(&shared);
        });
        self.watchdog.disarm();

        let nodes = shared.total_nodes();
        control.publish_nodes(nodes);
        let completed = self.workers[0].completed.clone().unwrap_or_default();
        let best_move = completed.pv.first().copied().unwrap_or(root_moves[0]);
        let ponder_move = completed
            .pv
            .get(1)
            .copied()
            .or_else(|| self.reply_from_table(pos, best_move));
        SearchResult {
            best_move,
            ponder_move,
            score: tb.map_or(completed.score, |t| t.root_score(completed.score)),
            depth: completed.depth,
            nodes,
            pv: completed.pv,
            lines: self.workers[0].lines.clone(),
            exact: completed.exact,
        }
    }

    /// The end of a search with no move to search: without legal moves, one line says the
    /// result (mated: a mate score at depth 0; stalemate: a draw); then a held or pondering
    /// search waits for its stop (or ponder hit), as one with moves would.
    fn nothing_to_search(
        &self,
        pos: &Position,
        no_legal_move: bool,
        control: &SearchControl,
        report: &mut (dyn FnMut(&SearchUpdate) + Send),
    ) -> SearchResult {
        let score = if no_legal_move && pos.in_check() {
            -MATE
        } else {
            DRAW
        };
        if no_legal_move {
            report(&SearchUpdate::Line(SearchReport {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: Bound::Exact,
                elapsed: control.started().elapsed(),
                nodes: 0,
                hashfull: 0,
                tbhits: 0,
                pv: &[],
                final_line: true,
            }));
        }
        control.wait_while_pondering();
        SearchResult {
            score,
            ..SearchResult::none()
        }
    }

    /// The table's best move in the position after `mv`, if it is legal there: the expected
    /// reply when the PV stops after its first move (an interrupted iteration whose new best
    /// move failed high, so its line was never searched with an open window).
    fn reply_from_table(&self, pos: &Position, mv: Move) -> Option<Move> {
        let mut after = pos.clone();
        after.make_move(mv);
        let reply = self.tt.probe(after.key())?.mv;
        after.is_legal(reply).then_some(reply)
    }
}
