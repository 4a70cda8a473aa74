//! One search thread: iterative deepening with aspiration windows over a fail-soft principal
//! variation search, with quiescence search at the leaves.

use super::ablation;
use super::control::SearchControl;
use super::correction::CorrectionHistory;
use super::history::{history_bonus, ContinuationRows, History, CONTINUATION_PLIES};
use super::limits::SearchLimits;
use super::params;
use super::picker::{is_noisy, MovePicker};
use super::score::{self, DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::see::{captured_kind, gain_of, see_ge};
use super::tablebases::SearchTablebases;
use super::time::{soft_scale, TimeBudget};
use super::tt::{Bound, TranspositionTable};
use crate::board::{Bitboard, CheckInfo, Move, Piece, Position};
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// How often (in nodes) a thread looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 2048;
/// Static evaluation placeholder for nodes in check.
const NO_EVAL: i32 = -INFINITE;

/// What every thread of one search shares.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a SearchLimits,
    pub budget: Option<TimeBudget>,
    /// Set by the main thread when the search is over (stops the helpers).
    pub abort: &'a AtomicBool,
    /// Node counts of every thread, published periodically.
    pub thread_nodes: &'a [AtomicU64],
    /// Per-game seed of the evaluation noise (XBoard `random`), if on.
    pub random_seed: Option<u64>,
    /// Where the main thread reports its progress.
    pub events: &'a (dyn Fn(&WorkerEvent) + Sync),
    /// Endgame tablebases, if any are set.
    pub tb: Option<&'a SearchTablebases>,
}

/// What the main thread reports while it searches.
pub(crate) enum WorkerEvent<'a> {
    /// A line of an iteration: complete (exact) or an aspiration failure (a bound).
    Line {
        line: &'a Iteration,
        /// Which line (MultiPV), from 0.
        pv_index: usize,
        bound: Bound,
        seldepth: u32,
        /// The line of the move a search stopped inside an iteration plays.
        final_line: bool,
    },
    /// The main thread starts on a root move (`number` counts from 1).
    RootMove { depth: u32, mv: Move, number: u32 },
}

impl Shared<'_> {
    /// Nodes searched by all threads (helpers' counts lag by up to one check interval).
    pub fn total_nodes(&self) -> u64 {
        self.thread_nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }
}

/// One completed iteration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Iteration {
    pub depth: u32,
    pub score: i32,
    pub pv: Vec<Move>,
    /// The score is exact: the iteration completed, or its best root move so far was searched
    /// inside the aspiration window (an interrupted fail high is only a lower bound).
    pub exact: bool,
}

#[derive(Clone, Copy)]
struct Frame {
    eval: i32,
    mv: Move,
    piece: Option<Piece>,
    /// Move left out of this node's search (singular-extension verification).
    excluded: Move,
    /// Double extensions on the line to this node (they are limited, or lines could grow
    /// without end).
    double_extensions: u8,
}

const EMPTY_FRAME: Frame = Frame {
    eval: NO_EVAL,
    mv: Move::NONE,
    piece: None,
    excluded: Move::NONE,
    double_extensions: 0,
};

/// A search thread's private state; kept between searches so histories carry over.
pub(crate) struct Worker {
    pub id: usize,
    pub pos: Position,
    pub history: History,
    /// What the search taught about the static evaluation's misses (see [`CorrectionHistory`]).
    correction: CorrectionHistory,
    /// The static evaluation with its running state along the searched line and its caches.
    pub evaluator: Evaluator,
    pub nodes: u64,
    pub seldepth: usize,
    pub root_moves: Vec<Move>,
    /// Root moves already taken by earlier lines of this iteration (MultiPV).
    root_excluded: Vec<Move>,
    /// Nodes spent below each root move (same order as `root_moves`) in this search so far.
    root_move_nodes: Vec<u64>,
    pub completed: Option<Iteration>,
    /// Every line of the last iteration whose lines were all completed: (root move, score),
    /// best first (one line unless MultiPV asks for more).
    pub lines: Vec<(Move, i32)>,
    /// The root's best line so far in the iteration under way (set whenever a root move
    /// raises alpha with a complete search), used if the search stops before the iteration
    /// ends: a move that just proved better than the last iteration's choice is not thrown
    /// away.
    partial: Option<Iteration>,
    stack: Vec<Frame>,
    /// One move picker per ply, re-armed at every node instead of built afresh.
    pickers: Vec<MovePicker>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    stopped: bool,
    iteration_depth: u32,
    /// The stop conditions are polled when `nodes & check_mask == 0`.
    check_mask: u64,
    reductions: Box<[[i32; 64]; 64]>,
    /// Whether static evaluations are drawn towards zero as the fifty-move count grows (see
    /// [`Worker::corrected`]); data generation turns it off so that its labels are scores the
    /// network, which does not see the count, can learn.
    pub fifty_move_damping: bool,
}

/// How often to poll the stop conditions: every [`CHECK_INTERVAL`] nodes, or for a small node
/// budget about every sixteenth of it (a power of two), so that budgets of a few hundred nodes
/// (the weakest playing levels) are kept.
fn check_mask(node_budget: Option<u64>) -> u64 {
    let interval = match node_budget {
        Some(n) if n / 16 < CHECK_INTERVAL => {
            let n = (n / 16).max(1);
            1u64 << (63 - n.leading_zeros())
        }
        _ => CHECK_INTERVAL,
    };
    interval - 1
}

/// Fills the late-move reductions by depth and move number, logarithmic in both, in
/// hundredths of a ply: the tunable adjustments (hundredths too) are added to them before the
/// sum is floored to whole plies (see [`whole_plies`]), so an adjustment of 40 counts wherever
/// it takes the sum past a whole ply.
fn fill_reductions(table: &mut [[i32; 64]; 64]) {
    let base = f64::from(params::lmr_base()) / 100.0;
    let divisor = f64::from(params::lmr_divisor()) / 100.0;
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (moves, r) in row.iter_mut().enumerate().skip(1) {
            *r = (100.0 * (base + (depth as f64).ln() * (moves as f64).ln() / divisor)) as i32;
        }
    }
}

/// A reduction in hundredths of a ply, floored to whole plies.
#[inline]
fn whole_plies(hundredths: i32) -> i32 {
    hundredths.div_euclid(100)
}

/// The late-move reduction table (see [`fill_reductions`]).
fn reduction_table() -> Box<[[i32; 64]; 64]> {
    let mut table = Box::new([[0i32; 64]; 64]);
    fill_reductions(&mut table);
    table
}

impl Worker {
    /// A fresh worker for thread `id`.
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            pos: Position::startpos(),
            history: History::new(),
            correction: CorrectionHistory::new(),
            evaluator: Evaluator::new(),
            nodes: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            root_excluded: Vec::new(),
            root_move_nodes: Vec::new(),
            completed: None,
            lines: Vec::new(),
            partial: None,
            stack: vec![EMPTY_FRAME; MAX_PLY + 4],
            pickers: (0..MAX_PLY + 4).map(|_| MovePicker::empty()).collect(),
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 2],
            stopped: false,
            iteration_depth: 0,
            check_mask: CHECK_INTERVAL - 1,
            reductions: reduction_table(),
            fifty_move_damping: true,
        }
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
        self.evaluator.clear();
    }

    /// Prepares a search of `pos` over `root_moves`.
    pub fn prepare(&mut self, pos: &Position, root_moves: &[Move]) {
        self.pos = pos.clone();
        if params::TUNABLE_BUILD {
            // The reduction constants may have been set since the last search.
            fill_reductions(&mut self.reductions);
        }
        self.evaluator.set_root(&self.pos);
        self.root_moves = root_moves.to_vec();
        self.root_move_nodes = vec![0; root_moves.len()];
        self.nodes = 0;
        self.seldepth = 0;
        self.completed = None;
        self.lines.clear();
        self.stopped = false;
        self.history.clear_killers();
        self.stack.fill(EMPTY_FRAME);
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Runs iterative deepening until a limit or a stop; the main thread reports each
    /// iteration's lines (and its fail highs and fail lows) and decides when to stop.
    ///
    /// With MultiPV, each iteration searches its lines one after another: line `k` searches
    /// the root without the moves of lines `0..k` of the same iteration, with an aspiration
    /// window around that line's previous score. Line 0 alone decides the move and the time.
    pub fn iterate(&mut self, sh: &Shared) {
        let max_depth = sh
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 2)
            .clamp(1, MAX_PLY as u32 - 2);
        let lines_wanted = sh.limits.multipv.clamp(1, self.root_moves.len().max(1));
        // Every thread polls the node limit, so the interval shrinks with the thread count.
        let threads = sh.thread_nodes.len().max(1) as u64;
        self.check_mask = check_mask(sh.limits.nodes.map(|n| n / threads));
        let mut score = 0;
        let mut stable_iterations = 0u32;
        // The lines after the first of the last completed iteration.
        let mut other_lines: Vec<Iteration> = Vec::new();
        'deepening: for depth in 1..=max_depth {
            self.iteration_depth = depth;
            self.seldepth = 0;
            self.partial = None;
            self.root_excluded.clear();
            let mut new_lines: Vec<Iteration> = Vec::new();
            let mut score_drop = 0;
            for pv_index in 0..lines_wanted {
                let centre = match pv_index {
                    0 => score,
                    k => other_lines.get(k - 1).map_or(score, |line| line.score),
                };
                let mut delta = params::aspiration_delta();
                let (mut alpha, mut beta) = if ablation::ASPIRATION && depth >= 5 {
                    (centre - delta, centre + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                // Each fail high in a row searches the next window a ply shallower: the score
                // is rising, and a shallower search finds how far sooner (as in Stockfish). A
                // fail low searches at the full depth again.
                let mut failed_high = 0;
                let line_score = loop {
                    let search_depth = (depth as i32 - failed_high).max(1);
                    // Compiled twice: without tablebases the tree has no probe code at all.
                    let result = if sh.tb.is_some() {
                        self.search::<true>(sh, search_depth, 0, alpha, beta, true, false)
                    } else {
                        self.search::<false>(sh, search_depth, 0, alpha, beta, true, false)
                    };
                    if self.stopped {
                        break None;
                    }
                    if result <= alpha {
                        let previous = match pv_index {
                            0 => self.completed.as_ref(),
                            k => other_lines.get(k - 1),
                        };
                        let pv = previous.map(|line| line.pv.clone()).unwrap_or_default();
                        self.report_bound(sh, pv_index, result, Bound::Upper, pv);
                        beta = (alpha + beta) / 2;
                        alpha = (result - delta).max(-INFINITE);
                        failed_high = 0;
                    } else if result >= beta {
                        let pv = self.pv[0][..self.pv_len[0]].to_vec();
                        self.report_bound(sh, pv_index, result, Bound::Lower, pv);
                        beta = (result + delta).min(INFINITE);
                        // A mate found at this depth may not be found shallower.
                        if !score::is_decisive(result) {
                            failed_high += 1;
                        }
                    } else {
                        break Some(result);
                    }
                    delta += delta * params::aspiration_growth() / 100;
                };
                let Some(line_score) = line_score else {
                    if pv_index == 0 {
                        // Interrupted: a root move that raised alpha in this iteration has been
                        // fully searched and beat every move before it, the previous best
                        // included. Its score is exact unless it failed high, when it only
                        // bounds the line's score from below.
                        if let Some(partial) = self.partial.take() {
                            let bound = if partial.exact {
                                Bound::Exact
                            } else {
                                Bound::Lower
                            };
                            self.report_line(sh, &partial, 0, bound, true);
                            self.completed = Some(partial);
                        }
                    }
                    break 'deepening;
                };
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                if let Some(&first) = pv.first() {
                    self.root_excluded.push(first);
                }
                if pv_index > 0 {
                    new_lines.push(Iteration {
                        depth,
                        score: line_score,
                        pv,
                        exact: true,
                    });
                    continue;
                }
                score = line_score;
                score_drop = self.completed.as_ref().map_or(0, |c| c.score - score);
                let previous_best = self.completed.as_ref().and_then(|c| c.pv.first().copied());
                if previous_best.is_some() && previous_best == pv.first().copied() {
                    stable_iterations += 1;
                } else {
                    stable_iterations = 0;
                }
                let iteration = Iteration {
                    depth,
                    score,
                    pv,
                    exact: true,
                };
                if lines_wanted == 1 {
                    self.report_line(sh, &iteration, 0, Bound::Exact, false);
                }
                self.completed = Some(iteration);
            }
            if lines_wanted > 1 {
                // All lines in score order: a later line's search can find a little more than
                // the first one's, and then its move is the best one found.
                if let Some(first) = self.completed.take() {
                    new_lines.insert(0, first);
                }
                new_lines.sort_by_key(|line| std::cmp::Reverse(line.score));
                for (k, line) in new_lines.iter().enumerate() {
                    self.report_line(sh, line, k, Bound::Exact, false);
                }
                self.lines = new_lines
                    .iter()
                    .filter_map(|line| line.pv.first().map(|&mv| (mv, line.score)))
                    .collect();
                let mut lines = new_lines.into_iter();
                self.completed = lines.next();
                other_lines = lines.collect();
            } else if let Some(line) = &self.completed {
                self.lines.clear();
                self.lines
                    .extend(line.pv.first().map(|&mv| (mv, line.score)));
            }
            if self.is_main()
                && self.iteration_should_stop(sh, depth, score, stable_iterations, score_drop)
            {
                break;
            }
        }
        if self.is_main() {
            // A ponder search that ran out of depth waits for the ponder hit or a stop (a held
            // search for the stop), so the protocol never receives a result while the
            // opponent is still thinking or before it asks for one.
            sh.control.wait_while_pondering();
            sh.abort.store(true, Ordering::Relaxed);
        }
        sh.thread_nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Reports a line of an iteration (main thread only). `pv_index` counts from 0.
    fn report_line(
        &self,
        sh: &Shared,
        line: &Iteration,
        pv_index: usize,
        bound: Bound,
        final_line: bool,
    ) {
        if !self.is_main() {
            return;
        }
        sh.thread_nodes[0].store(self.nodes, Ordering::Relaxed);
        (sh.events)(&WorkerEvent::Line {
            line,
            pv_index,
            bound,
            seldepth: self.seldepth as u32,
            final_line,
        });
    }

    /// Reports an aspiration failure of the current iteration as a bound (main thread only):
    /// a fail low with the line it had before, a fail high with the move that failed high.
    fn report_bound(&self, sh: &Shared, pv_index: usize, score: i32, bound: Bound, pv: Vec<Move>) {
        if pv.is_empty() {
            return;
        }
        let line = Iteration {
            depth: self.iteration_depth,
            score,
            pv,
            exact: false,
        };
        self.report_line(sh, &line, pv_index, bound, false);
    }

    /// After an iteration: stop for a found mate, the soft node budget, an only move, or the
    /// soft time limit (stretched when the best move keeps changing, has taken little of the
    /// effort or the score falls; shortened when the move is stable and took most of it).
    fn iteration_should_stop(
        &self,
        sh: &Shared,
        depth: u32,
        score: i32,
        stable: u32,
        score_drop: i32,
    ) -> bool {
        // `go mate N`: a mate in N moves or fewer for the side to move has been found.
        if let (Some(wanted), Some(moves)) = (sh.limits.mate, score::mate_in_moves(score)) {
            if moves > 0 && moves.unsigned_abs() <= wanted {
                return true;
            }
        }
        if let Some(soft) = sh.limits.soft_nodes {
            sh.thread_nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if sh.total_nodes() >= soft {
                return true;
            }
        }
        let timed = !sh.limits.infinite && !sh.control.is_pondering();
        if !timed {
            return false;
        }
        // A mate found a few plies ago is taken as the shortest there is, unless `go mate`
        // asked for a shorter one: that search goes on until it finds it (or a limit ends it).
        if score::is_mate(score)
            && sh.limits.mate.is_none()
            && depth as i32 >= (MATE - score.abs()) + 4
        {
            return true;
        }
        let Some(budget) = sh.budget else {
            return false;
        };
        if self.root_moves.len() == 1 {
            return true;
        }
        if budget.fixed {
            return false;
        }
        let factor = soft_scale(stable, self.best_move_share(), score_drop);
        self.elapsed(sh) >= budget.iteration_deadline(factor)
    }

    /// Share of this thread's nodes spent below the current best root move.
    fn best_move_share(&self) -> f64 {
        let best = self.completed.as_ref().and_then(|c| c.pv.first().copied());
        let spent = self
            .root_moves
            .iter()
            .position(|&m| Some(m) == best)
            .map_or(0, |i| self.root_move_nodes[i]);
        spent as f64 / self.nodes.max(1) as f64
    }

    fn elapsed(&self, sh: &Shared) -> Duration {
        match sh.limits.nps {
            Some(nps) if nps > 0 => Duration::from_secs_f64(sh.total_nodes() as f64 / nps as f64),
            _ => sh.control.clock_start().elapsed(),
        }
    }

    /// Polls the stop conditions: a stop from outside at every node (two relaxed loads of
    /// flags that are only read until the end, so that a node slowed down, e.g. by the page
    /// faults of a fresh table, cannot hold a `stop` back for a whole interval), the limits
    /// every [`CHECK_INTERVAL`] nodes. The node limit counts the nodes of all threads.
    #[inline]
    fn check_stop(&mut self, sh: &Shared) -> bool {
        if self.stopped {
            return true;
        }
        // There is always a move to play: the first iteration stops only once a root move has
        // been searched in full (its line is the partial result). Waiting for the whole first
        // iteration lost games on time: a new process's first search at 100 ms a move, its
        // table's pages faulting on a busy machine, took 125 ms over its first 30 nodes
        // (2026-12-07).
        let may_stop = self.iteration_depth > 1 || self.partial.is_some();
        if self.nodes & self.check_mask != 0 {
            if may_stop && (sh.control.is_stopped() || sh.abort.load(Ordering::Relaxed)) {
                self.stopped = true;
            }
            return self.stopped;
        }
        sh.thread_nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if !may_stop {
            return false;
        }
        if sh.abort.load(Ordering::Relaxed) || sh.control.is_stopped() {
            self.stopped = true;
            return true;
        }
        let total = sh.total_nodes();
        if sh.limits.nodes.is_some_and(|n| total >= n) {
            // Any thread may reach the budget; the others see it at their next node.
            self.stopped = true;
            sh.abort.store(true, Ordering::Relaxed);
        } else if self.is_main() {
            sh.control.publish_nodes(total);
            let timed = !sh.limits.infinite && !sh.control.is_pondering();
            if timed && sh.budget.is_some_and(|b| self.elapsed(sh) >= b.hard) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn static_eval(&mut self, sh: &Shared) -> i32 {
        let eval = self.evaluator.evaluate(&self.pos);
        match sh.random_seed {
            Some(seed) => {
                let mixed = (self.pos.key() ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                eval + (mixed >> 59) as i32 - 16
            }
            None => eval,
        }
    }

    /// The continuation rows of the moves one, two and four plies before `ply` (none across
    /// a null move or before the root: their frames have no piece).
    #[inline]
    fn continuation_rows(&self, ply: usize) -> ContinuationRows {
        CONTINUATION_PLIES.map(|back| {
            let frame = self.stack[ply.checked_sub(back)?];
            Some(History::continuation_row(frame.piece?, frame.mv.to()))
        })
    }

    /// A static evaluation corrected by the correction history and drawn towards zero as the
    /// fifty-move count grows (never a decisive score).
    #[inline]
    fn corrected(&self, raw: i32) -> i32 {
        let bound = score::TB_WIN_BOUND - 1;
        let fifty = if self.fifty_move_damping {
            self.pos.halfmove_clock().min(100) as i32
        } else {
            0
        };
        let scaled = raw * (200 - fifty) / 200;
        (scaled + self.correction.correction(&self.pos)).clamp(-bound, bound)
    }

    /// True if the node `ply` plies below the root is drawn by the rules: a repetition (see
    /// [`crate::board::Position::is_repetition_draw`]), the fifty-move rule unless the side
    /// to move is checkmated on that ply, or material that cannot mate.
    fn is_draw(&self, ply: usize, in_check: bool) -> bool {
        self.pos.is_repetition_draw(ply)
            || (self.pos.is_fifty_move_draw() && (!in_check || self.pos.has_legal_move()))
            || self.pos.has_insufficient_material()
    }

    /// The late-move reduction of the `moves`-th move at `depth`, in hundredths of a ply.
    #[inline]
    fn reduction(&self, depth: i32, moves: usize) -> i32 {
        self.reductions[depth.clamp(0, 63) as usize][moves.min(63)]
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Makes `mv` at `ply` and starts fetching the new position's table bucket.
    #[inline]
    fn make(&mut self, sh: &Shared, ply: usize, mv: Move) {
        self.stack[ply].mv = mv;
        self.stack[ply].piece = self.pos.piece_at(mv.from());
        self.pos.make_move(mv);
        sh.tt.prefetch(self.pos.key());
        self.evaluator.on_make(&self.pos);
        self.nodes += 1;
    }

    /// Probes the tablebases at a node (see [`super::tablebases`]). A result that decides the
    /// node within (`alpha`, `beta`) is stored in the table and comes back as exact; otherwise
    /// the probe's bound comes back (or `None` when there was no probe).
    #[cold]
    #[inline(never)]
    fn probe_tablebases(
        &mut self,
        sh: &Shared,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<(i32, Bound)> {
        let (value, bound) = sh.tb?.probe(&mut self.pos, depth, ply)?;
        let cuts = match bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        };
        if !cuts {
            return Some((value, bound));
        }
        let stored_depth = (depth + params::tablebase_depth_bonus()).clamp(0, MAX_PLY as i32 - 1);
        let table_score = score::to_table(value, ply);
        sh.tt
            .store(key, Move::NONE, table_score, NO_EVAL, stored_depth, bound);
        Some((value, Bound::Exact))
    }

    /// The fail-low bonus of the move that led to the node at `ply`: the continuation
    /// histories of the opponent's quiet move (not a capture, a promotion or a null move) at
    /// `ply - 1`, after the moves before it, at a node of `depth` 5 or more or an `extra` one
    /// (twice the bonus when `extra`).
    fn reward_prior_quiet(&mut self, ply: usize, depth: i32, extra: bool) {
        let frame = self.stack[ply - 1];
        let Some(piece) = frame.piece else {
            return;
        };
        let quiet = self.pos.captured_piece().is_none() && frame.mv.promotion_kind().is_none();
        if !quiet || (depth < 5 && !extra) {
            return;
        }
        let rows = self.continuation_rows(ply - 1);
        let bonus = history_bonus(depth) * (1 + i32::from(extra));
        self.history
            .update_continuation(piece, frame.mv.to(), &rows, bonus);
    }

    /// Takes back `mv`, the last move made.
    #[inline]
    fn unmake(&mut self, mv: Move) {
        self.pos.unmake_move(mv);
        self.evaluator.on_unmake();
    }

    /// The alpha-beta search of one node (fail-soft; PV nodes have an open window). `TB`:
    /// tablebases are set (see [`Worker::probe_tablebases`]).
    #[allow(clippy::too_many_arguments)]
    fn search<const TB: bool>(
        &mut self,
        sh: &Shared,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        let root = ply == 0;
        let in_check = self.pos.in_check();
        if depth <= 0 && !in_check {
            return self.quiescence(sh, ply, alpha, beta, pv_node);
        }
        depth = depth.max(1);
        self.pv_len[ply] = 0;
        if self.check_stop(sh) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if !root {
            if self.is_draw(ply, in_check) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.static_eval(sh) };
            }
            // Mate-distance pruning: no line from here can beat a mate already found closer
            // to the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            // A reversible move brings back a position of this line: at least a draw.
            if alpha < DRAW && self.pos.has_upcoming_repetition(ply) {
                alpha = DRAW;
                if alpha >= beta {
                    return alpha;
                }
            }
        }

        let excluded = self.stack[ply].excluded;
        let key = self.pos.key();
        let entry = sh.tt.probe(key);
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        let tt_move = if root && !self.root_moves.contains(&tt_move) {
            Move::NONE
        } else {
            tt_move
        };
        let rows = self.continuation_rows(ply);
        // A verification search (with a move left out) must not take the full node's score.
        // Near the fifty-move limit a stored score may no longer hold (the draw comes first).
        if !pv_node && excluded.is_none() && self.pos.halfmove_clock() < 90 {
            if let Some(score) = entry.and_then(|e| e.cutoff(depth, ply, alpha, beta)) {
                // A quiet hash move that cuts again earns its history as a searched one would.
                if score >= beta && !tt_move.is_none() && !is_noisy(&self.pos, tt_move) {
                    if let Some(piece) = self.pos.piece_at(tt_move.from()) {
                        let us = self.pos.side_to_move();
                        let threatened = self.pos.attacked_squares(!us, self.pos.occupied());
                        self.history.update_quiet_after(
                            us,
                            piece,
                            tt_move,
                            &rows,
                            threatened,
                            history_bonus(depth),
                        );
                    }
                }
                return score;
            }
        }

        // Tablebases (after a capture or pawn move, few enough pieces): the exact result, or
        // at a PV node that does not cut, a bound on this node's score.
        let mut tb_bound = None;
        // Only a capture or pawn move leads to a probe (checked here to save the call).
        if TB && !root && excluded.is_none() && self.pos.halfmove_clock() == 0 {
            match self.probe_tablebases(sh, key, depth, ply, alpha, beta) {
                Some((value, Bound::Exact)) => return value,
                Some((value, bound)) if pv_node => {
                    if bound == Bound::Lower {
                        alpha = alpha.max(value);
                    }
                    tb_bound = Some((value, bound));
                }
                _ => {}
            }
        }

        // Static evaluation (as stored in the table: uncorrected), corrected by what the search
        // learnt of its misses, then refined by the table's score when its bound points the
        // right way.
        let (raw_eval, static_eval, eval) = if in_check {
            (NO_EVAL, NO_EVAL, NO_EVAL)
        } else {
            let raw = match entry {
                Some(e) if e.eval != NO_EVAL && e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.static_eval(sh),
            };
            let corrected = self.corrected(raw);
            let refined = match entry {
                Some(e) => {
                    let tt_score = score::from_table(e.score, ply);
                    let better = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => tt_score > corrected,
                        Bound::Upper => tt_score < corrected,
                    };
                    if better && !score::is_decisive(tt_score) {
                        tt_score
                    } else {
                        corrected
                    }
                }
                None => corrected,
            };
            (raw, corrected, refined)
        };
        self.stack[ply].eval = eval;
        // Improving: better than two plies ago, or than four when that node was in check
        // (no evaluation); with neither, assumed (as in Stockfish 16).
        let earlier = [2, 4]
            .into_iter()
            .filter_map(|back| ply.checked_sub(back).map(|p| self.stack[p].eval))
            .find(|&e| e != NO_EVAL);
        let improving = !in_check && ply >= 2 && earlier.is_none_or(|e| eval > e);

        // Internal iterative reduction: a node the table knows no move for is searched one ply
        // shallower (its first search mostly finds the move to search the node with later).
        if ablation::IIR
            && depth >= 4
            && tt_move.is_none()
            && excluded.is_none()
            && (pv_node || cut_node)
        {
            depth -= 1;
        }

        let us = self.pos.side_to_move();
        if !pv_node && !in_check && excluded.is_none() && !score::is_decisive(beta) {
            // Reverse futility: far above beta near the leaves, assume it holds.
            if ablation::REVERSE_FUTILITY
                && depth <= params::rfp_max_depth()
                && eval - params::rfp_margin() * (depth - i32::from(improving)) >= beta
            {
                return (eval + beta) / 2;
            }
            // Null move: give the opponent a free move; if we still beat beta, prune.
            let previous_was_null = ply > 0 && self.stack[ply - 1].mv.is_none();
            if ablation::NULL_MOVE
                && depth >= 3
                && eval >= beta
                && !previous_was_null
                && self.pos.has_non_pawn_material(us)
            {
                let r = params::nmp_base()
                    + depth / params::nmp_depth_divisor()
                    + ((eval - beta) / params::nmp_eval_divisor()).min(3);
                self.stack[ply].mv = Move::NONE;
                self.stack[ply].piece = None;
                self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
                self.pos.make_null();
                self.evaluator.on_null();
                sh.tt.prefetch(self.pos.key());
                self.nodes += 1;
                let null_score =
                    -self.search::<TB>(sh, depth - r, ply + 1, -beta, -beta + 1, false, !cut_node);
                self.pos.unmake_null();
                self.evaluator.on_unmake();
                if self.stopped {
                    return 0;
                }
                if null_score >= beta {
                    return if score::is_decisive(null_score) {
                        beta
                    } else {
                        null_score
                    };
                }
            }
        }

        // Singular extension: if every move but the hash move fails well below the hash
        // move's score, the hash move is forced and gets one more ply. If even without it the
        // search beats beta, more than one move refutes this node: cut (multi-cut).
        let mut singular_extension = 0;
        if let Some(e) = entry {
            let tt_score = score::from_table(e.score, ply);
            if ablation::SINGULAR
                && !root
                && depth >= params::singular_min_depth()
                && ply < 2 * self.iteration_depth as usize
                && excluded.is_none()
                && !tt_move.is_none()
                && e.bound != Bound::Upper
                && e.depth >= depth - 3
                && !score::is_decisive(tt_score)
            {
                let singular_beta = tt_score - params::singular_margin() * depth;
                self.stack[ply].excluded = tt_move;
                let value = self.search::<TB>(
                    sh,
                    (depth - 1) / 2,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    false,
                    cut_node,
                );
                self.stack[ply].excluded = Move::NONE;
                if self.stopped {
                    return 0;
                }
                if value < singular_beta {
                    // Far below: the hash move is all there is, two plies more (a few times
                    // per line at most).
                    singular_extension = if !pv_node
                        && value < singular_beta - params::double_extension_margin()
                        && i32::from(self.stack[ply].double_extensions)
                            < params::double_extension_limit()
                    {
                        2
                    } else {
                        1
                    };
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tt_score >= beta {
                    // Another move also nearly reaches beta and the hash move is expected to
                    // cut: it needs less effort (negative extension).
                    singular_extension = -1;
                }
            }
        }

        let killers = self.history.killers(ply);
        let (prev_move, prev_piece) = if ply > 0 {
            (self.stack[ply - 1].mv, self.stack[ply - 1].piece)
        } else {
            (Move::NONE, None)
        };
        let counter = self.history.counter(prev_piece, prev_move);
        self.pickers[ply].reset(&self.pos, tt_move, killers, counter, rows);
        // A capture as the hash move: the quiet moves are unlikely to do better.
        let tt_capture = !tt_move.is_none() && is_noisy(&self.pos, tt_move);

        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut moves_searched = 0usize;
        let mut quiets_tried = [Move::NONE; 64];
        let mut quiets_count = 0usize;
        let mut captures_tried = [Move::NONE; 32];
        let mut captures_count = 0usize;
        // Worked out at the second move: it costs about two plain check tests, and most nodes
        // are cut by their first move.
        let mut check_info: Option<CheckInfo> = None;
        let mut moves_picked = 0usize;

        while let Some(mv) = self.pickers[ply].next(&self.pos, &self.history) {
            if (root && (!self.root_moves.contains(&mv) || self.root_excluded.contains(&mv)))
                || mv == excluded
            {
                continue;
            }
            let quiet = !is_noisy(&self.pos, mv);
            let history_score = match self.pos.piece_at(mv.from()) {
                Some(piece) if quiet => {
                    let threatened = self.pickers[ply].threats(&self.pos).all();
                    self.history
                        .quiet_score_after(us, piece, mv, &rows, threatened)
                }
                _ => 0,
            };
            // The picker has already run SEE on the captures it sorted; only the hash move's
            // needs working out here.
            let losing_capture = !quiet
                && !self.pickers[ply]
                    .last_see_ge_zero()
                    .unwrap_or_else(|| see_ge(&self.pos, mv, 0));
            moves_picked += 1;
            let gives_check = if moves_picked == 1 {
                self.pos.gives_check(mv)
            } else {
                let info = check_info.get_or_insert_with(|| self.pos.check_info());
                self.pos.gives_check_with(info, mv)
            };

            // Pruning of late or hopeless moves once a move has been searched; checks are
            // never pruned (sacrifices that drive the king out live here).
            if !root
                && !gives_check
                && best_score > -MATE_BOUND
                && self.pos.has_non_pawn_material(us)
            {
                if quiet {
                    let late = (params::lmp_base() + depth * depth) / (2 - i32::from(improving));
                    if ablation::LATE_MOVE_PRUNING && depth <= 7 && moves_searched as i32 >= late {
                        self.pickers[ply].skip_quiets();
                        continue;
                    }
                    // The depth this move would be searched at after its reduction.
                    let reduced =
                        depth - 1 - whole_plies(self.reduction(depth, moves_searched + 1));
                    // Futility: even a good margin over the static evaluation stays below
                    // alpha, so this quiet move is not searched, nor any quiet after it but
                    // the checks: a quiet check is never pruned, and is often the move (a
                    // knight or queen check after a sacrifice).
                    if ablation::FUTILITY
                        && !in_check
                        // A mate already found puts alpha beyond any margin, and a quiet
                        // move may still mate sooner (delays_being_mated's Kb3).
                        && !score::is_decisive(alpha)
                        && reduced <= 8
                        && static_eval
                            + params::futility_base()
                            + params::futility_per_depth() * reduced.max(0)
                            <= alpha
                    {
                        // Every later quiet is futile as well (their reduced depth is no
                        // greater, alpha no lower): only the checks among them are left.
                        let info = check_info.get_or_insert_with(|| self.pos.check_info());
                        self.pickers[ply].keep_only_checking_quiets(&self.pos, info);
                        continue;
                    }
                    // A quiet move that keeps failing in this context is not tried near the
                    // leaves.
                    if ablation::HISTORY_PRUNING
                        && reduced <= 3
                        && history_score < -params::history_prune() * depth
                    {
                        continue;
                    }
                    if ablation::SEE_PRUNING
                        && depth <= 7
                        && !see_ge(&self.pos, mv, -params::see_quiet_margin() * depth)
                    {
                        continue;
                    }
                } else if ablation::SEE_PRUNING
                    && depth <= 6
                    && losing_capture
                    && !see_ge(&self.pos, mv, -params::see_capture_margin() * depth)
                {
                    continue;
                }
            }

            if root && self.is_main() {
                sh.control.publish(
                    sh.total_nodes(),
                    self.iteration_depth,
                    moves_searched as u32 + 1,
                    self.root_moves.len() as u32,
                    mv,
                );
                (sh.events)(&WorkerEvent::RootMove {
                    depth: self.iteration_depth,
                    mv,
                    number: moves_searched as u32 + 1,
                });
            }

            let nodes_before = self.nodes;
            self.make(sh, ply, mv);
            moves_searched += 1;
            // Only the singular hash move is extended; checks are not (an SPRT of the check
            // extension at 1+0.01 accepted H0, see docs/experiments.md).
            let extension = if mv == tt_move { singular_extension } else { 0 };
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + u8::from(extension >= 2);
            let new_depth = depth - 1 + extension;

            let mut score;
            if moves_searched == 1 {
                score = -self.search::<TB>(
                    sh,
                    new_depth,
                    ply + 1,
                    -beta,
                    -alpha,
                    pv_node,
                    first_child_is_cut_node(pv_node, cut_node),
                );
            } else {
                let mut r = 0;
                let lmr = ablation::LMR && depth >= 3 && moves_searched > 1 + usize::from(pv_node);
                if lmr {
                    // The adjustments are in hundredths of a ply (tunables).
                    let flag = |on: bool, hundredths: i32| if on { hundredths } else { 0 };
                    if quiet {
                        let table = self.reduction(depth, moves_searched);
                        let refutation = mv == killers[0] || mv == killers[1] || mv == counter;
                        // Summed with the table's hundredths, floored once.
                        let hundredths = table - flag(pv_node, params::lmr_pv())
                            + flag(!improving, params::lmr_not_improving())
                            + flag(cut_node, params::lmr_cut_node())
                            - flag(gives_check, params::lmr_gives_check())
                            - flag(refutation, params::lmr_refutation())
                            + flag(tt_capture, params::lmr_tt_capture());
                        r = whole_plies(hundredths);
                        r -= history_score / params::lmr_history_divisor();
                    } else {
                        // Losing captures come after the quiets: reduce them a little.
                        r = (flag(losing_capture, params::lmr_losing_capture()) + 50)
                            .div_euclid(100);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                // A move LMR may reduce is expected to fail low, so its child to cut; a late
                // move searched at full depth at once takes the opposite of this node's type.
                let child_cut = lmr || !cut_node;
                score = -self.search::<TB>(
                    sh,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    false,
                    child_cut,
                );
                if score > alpha && r > 0 {
                    score = -self.search::<TB>(
                        sh,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        false,
                        !cut_node,
                    );
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search::<TB>(sh, new_depth, ply + 1, -beta, -alpha, true, false);
                }
            }
            self.unmake(mv);
            if root {
                if let Some(i) = self.root_moves.iter().position(|&m| m == mv) {
                    self.root_move_nodes[i] += self.nodes - nodes_before;
                }
                // A re-search that refuted the move an earlier attempt of this iteration left
                // as its partial result: the partial result no longer stands.
                if !self.stopped
                    && score <= alpha
                    && self.partial.as_ref().and_then(|p| p.pv.first()) == Some(&mv)
                {
                    self.partial = None;
                }
            }
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if root && self.root_excluded.is_empty() {
                        self.partial = Some(Iteration {
                            depth: self.iteration_depth,
                            score,
                            pv: self.pv[0][..self.pv_len[0]].to_vec(),
                            exact: score < beta,
                        });
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && quiets_count < quiets_tried.len() {
                quiets_tried[quiets_count] = mv;
                quiets_count += 1;
            } else if !quiet && captures_count < captures_tried.len() {
                captures_tried[captures_count] = mv;
                captures_count += 1;
            }
        }

        if moves_searched == 0 {
            // Only the excluded move: the verification search found no alternative.
            if !excluded.is_none() {
                return alpha;
            }
            // No legal move (root moves are never all excluded: the searcher checks).
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }

        if best_score >= beta {
            // The move that cut gains, the moves tried before it (they are the others: the
            // cutoff ended the loop before the move that made it was listed) lose.
            let bonus = history_bonus(depth);
            let best_quiet = !is_noisy(&self.pos, best_move);
            let threatened = if best_quiet {
                self.pickers[ply].threats(&self.pos).all()
            } else {
                Bitboard::EMPTY
            };
            if let Some(piece) = self.pos.piece_at(best_move.from()) {
                if best_quiet {
                    self.history
                        .update_quiet_after(us, piece, best_move, &rows, threatened, bonus);
                } else {
                    let captured = captured_kind(&self.pos, best_move);
                    self.history
                        .update_capture(piece, best_move.to(), captured, bonus);
                }
            }
            if best_quiet {
                for &tried in &quiets_tried[..quiets_count] {
                    if let Some(piece) = self.pos.piece_at(tried.from()) {
                        self.history
                            .update_quiet_after(us, piece, tried, &rows, threatened, -bonus);
                    }
                }
                self.history.store_killer(ply, best_move);
                self.history.store_counter(prev_piece, prev_move, best_move);
            }
            for &tried in &captures_tried[..captures_count] {
                if let Some(piece) = self.pos.piece_at(tried.from()) {
                    let captured = captured_kind(&self.pos, tried);
                    self.history
                        .update_capture(piece, tried.to(), captured, -bonus);
                }
            }
        } else if best_move.is_none() && excluded.is_none() && !root {
            // Every move failed low: the opponent's quiet move that led here refuted this
            // node's moves, so it earns continuation history as a move that cut would (more
            // at a deep, an expected-cut or a PV node, or a bad fail low; as in Stockfish).
            self.reward_prior_quiet(
                ply,
                depth,
                best_score < alpha - params::prior_bonus_margin() * depth || pv_node || cut_node,
            );
        }

        let mut bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && !best_move.is_none() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A tablebase bound of this PV node holds whatever the moves scored.
        if let (true, Some((value, tb))) = (TB, tb_bound) {
            if (tb == Bound::Lower && best_score < value)
                || (tb == Bound::Upper && best_score > value)
            {
                (best_score, bound) = (value, tb);
            }
        }
        // A verification search, or a MultiPV line that left better root moves out, must not
        // take the node's table entry, nor teach the correction history.
        if !excluded.is_none() || (root && !self.root_excluded.is_empty()) {
            return best_score;
        }
        // The search's verdict on a quiet position corrects later static evaluations, when it
        // says more than its bound: a fail high above the evaluation, a fail low below it.
        let says_more = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > static_eval,
            Bound::Upper => best_score < static_eval,
        };
        if !in_check
            && says_more
            && (best_move.is_none() || !is_noisy(&self.pos, best_move))
            && !score::is_decisive(best_score)
        {
            self.correction
                .update(&self.pos, depth, best_score, static_eval);
        }
        let stored_eval = raw_eval;
        sh.tt.store(
            key,
            best_move,
            score::to_table(best_score, ply),
            stored_eval,
            depth,
            bound,
        );
        best_score
    }

    /// Quiescence search: captures (and queen promotions) until the position is quiet; every
    /// evasion when in check.
    fn quiescence(
        &mut self,
        sh: &Shared,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.check_stop(sh) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        // The draws of the main search: a quiet move at depth 1 lands here, and a position it
        // repeats is a draw here as there.
        if self.is_draw(ply, in_check) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.static_eval(sh) };
        }

        let key = self.pos.key();
        let entry = sh.tt.probe(key);
        if !pv_node {
            if let Some(score) = entry.and_then(|e| e.cutoff(0, ply, alpha, beta)) {
                return score;
            }
        }

        let raw_eval = if in_check {
            NO_EVAL
        } else {
            match entry {
                Some(e) if e.eval != NO_EVAL && e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.static_eval(sh),
            }
        };
        let stand_pat = if in_check {
            NO_EVAL
        } else {
            self.corrected(raw_eval)
        };
        let mut best_score = if in_check {
            -MATE + ply as i32
        } else {
            stand_pat
        };
        if !in_check {
            if stand_pat >= beta {
                if entry.is_none() {
                    sh.tt.store(
                        key,
                        Move::NONE,
                        score::to_table(stand_pat, ply),
                        raw_eval,
                        0,
                        Bound::Lower,
                    );
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }

        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        self.pickers[ply].reset_quiescence(&self.pos, tt_move);
        let mut best_move = Move::NONE;
        while let Some(mv) = self.pickers[ply].next(&self.pos, &self.history) {
            // Delta pruning: even winning this material cannot lift us to alpha.
            if ablation::DELTA_PRUNING
                && !in_check
                && mv.promotion_kind().is_none()
                && stand_pat + gain_of(&self.pos, mv) + params::delta_margin() <= alpha
            {
                continue;
            }
            self.make(sh, ply, mv);
            let score = -self.quiescence(sh, ply + 1, -beta, -alpha, pv_node);
            self.unmake(mv);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        sh.tt.store(
            key,
            best_move,
            score::to_table(best_score, ply),
            raw_eval,
            0,
            bound,
        );
        best_score
    }
}

/// The node type of the first move's child: a PV node's first child is a PV node, the first
/// child of an expected cut node is an all node and that of an all node a cut node, so the
/// types alternate down the line the search expects (as in Stockfish and Ethereal).
#[inline]
fn first_child_is_cut_node(pv_node: bool, cut_node: bool) -> bool {
    !pv_node && !cut_node
}

#[cfg(test)]
mod tests {
    use super::{first_child_is_cut_node, reduction_table, whole_plies};

    #[test]
    fn reductions_keep_their_hundredths_for_the_adjustments() {
        if super::params::TUNABLE_BUILD {
            return; // the constants may have been set by another test
        }
        let table = reduction_table();
        // base + ln 10 * ln 10 / divisor plies at depth 10, move 10, in hundredths.
        let base = f64::from(super::params::lmr_base()) / 100.0;
        let divisor = f64::from(super::params::lmr_divisor()) / 100.0;
        let expected = 100.0 * (base + 10f64.ln() * 10f64.ln() / divisor);
        assert_eq!(table[10][10], expected as i32);
        let t = table[10][10];
        let whole = t.div_euclid(100);
        assert_eq!(whole_plies(t), whole);
        // An adjustment that takes the sum past the next whole ply counts; one that stays
        // short of it does not, however close.
        let to_next = 100 - t.rem_euclid(100);
        assert_eq!(whole_plies(t + to_next), whole + 1);
        assert_eq!(whole_plies(t + to_next - 1), whole);
        // A whole-ply adjustment gives what a table in whole plies would have.
        assert_eq!(whole_plies(t - 100), whole - 1);
        assert_eq!(whole_plies(t + 100), whole + 1);
        // Reductions grow with the depth and the move number.
        assert!(table[3][3] < table[10][10] && table[10][10] < table[20][40]);
        // A negative sum floors towards fewer plies, as the clamp to zero expects.
        assert_eq!(whole_plies(-30), -1);
    }

    #[test]
    fn node_types_alternate_down_the_first_move() {
        // PV node: its first child is a PV node, never expected to cut.
        assert!(!first_child_is_cut_node(true, false));
        // Cut node: its first move should cut, so the child is an all node.
        assert!(!first_child_is_cut_node(false, true));
        // All node: every move fails low, so each child is expected to cut.
        assert!(first_child_is_cut_node(false, false));
    }
}
