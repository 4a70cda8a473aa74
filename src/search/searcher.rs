//! The searcher: owns the transposition table and one worker per thread, and runs a search
//! (Lazy SMP: every thread searches the same tree, sharing the table; the main thread reports
//! and decides when to stop).

use super::control::SearchControl;
use super::limits::SearchLimits;
use super::time::TimeBudget;
use super::tt::TranspositionTable;
use super::worker::{Iteration, Shared, Worker};
use crate::board::{Move, Position};
use crate::eval::nnue::Network;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Duration;

pub use super::tt::Bound;

/// Progress report, sent after every completed iteration.
#[derive(Clone, Copy, Debug)]
pub struct SearchReport<'a> {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's view (see [`super::score`] for mates).
    pub score: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Principal variation, first move first.
    pub pv: &'a [Move],
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
        }
    }
}

/// Owns the search state (table, per-thread histories); several searchers can exist side by
/// side.
pub struct Searcher {
    tt: TranspositionTable,
    hash_mb: usize,
    workers: Vec<Worker>,
    random_seed: Option<u64>,
    games: u64,
    /// The network every worker evaluates with; the hand-crafted evaluation when `None`.
    network: Option<Arc<Network>>,
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
            hash_mb: hash_mb.max(1),
            workers: vec![Worker::new(0)],
            random_seed: None,
            games: 0,
            network: None,
        }
    }

    /// Resizes the transposition table (its contents are lost).
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        if hash_mb.max(1) != self.hash_mb {
            self.hash_mb = hash_mb.max(1);
            self.tt = TranspositionTable::new(self.hash_mb);
        }
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
        self.tt.clear();
        for worker in &mut self.workers {
            worker.clear();
        }
        self.games += 1;
        if self.random_seed.is_some() {
            self.random_seed = Some(self.game_seed());
        }
    }

    /// Searches `pos` within `limits`, calling `report` after each completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchResult {
        let legal = pos.legal_moves();
        let root_moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !limits.excluded.contains(m))
            .collect();
        if root_moves.is_empty() {
            return SearchResult::none();
        }

        self.tt.new_search();
        for worker in &mut self.workers {
            worker.prepare(pos, &root_moves);
        }
        let abort = AtomicBool::new(false);
        let thread_nodes: Vec<AtomicU64> =
            (0..self.workers.len()).map(|_| AtomicU64::new(0)).collect();
        let shared = Shared {
            tt: &self.tt,
            control,
            limits,
            budget: TimeBudget::from_limits(limits),
            abort: &abort,
            thread_nodes: &thread_nodes,
            random_seed: self.random_seed,
        };

        let (main, helpers) = self.workers.split_at_mut(1);
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let shared = &shared;
                scope.spawn(move || helper.iterate(shared, &mut |_, _, _| {}));
            }
            main[0].iterate(&shared, &mut |it: &Iteration, seldepth, nodes| {
                report(&SearchReport {
                    depth: it.depth,
                    seldepth,
                    score: it.score,
                    bound: Bound::Exact,
                    elapsed: control.started().elapsed(),
                    nodes,
                    pv: &it.pv,
                });
            });
        });

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
            score: completed.score,
            depth: completed.depth,
            nodes,
            pv: completed.pv,
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
