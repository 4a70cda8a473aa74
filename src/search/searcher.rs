//! The searcher: iterative deepening over an alpha-beta search, owning all its tables.

use super::control::SearchControl;
use super::limits::SearchLimits;
use super::score::{DRAW, INFINITE, MATE, MAX_PLY};
use super::time::TimeBudget;
use crate::board::{Move, MoveList, Position};
use crate::eval;
use std::time::Duration;

/// Bound type of a reported score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

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
    /// Nodes searched so far.
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
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Owns the search state; several searchers can exist side by side.
#[derive(Debug)]
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
    random: bool,
}

/// How often (in nodes) the search looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

struct Run<'a> {
    control: &'a SearchControl,
    limits: &'a SearchLimits,
    budget: Option<TimeBudget>,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    pv: [[Move; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
    pawns: eval::PawnCache,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            hash_mb,
            threads: 1,
            random: false,
        }
    }

    /// Resizes the transposition table (clears it).
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
    }

    /// Transposition table size in MiB.
    pub fn hash_size(&self) -> usize {
        self.hash_mb
    }

    /// Number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// XBoard `random`: when on, evaluations get a small per-game random offset so games vary.
    pub fn set_random(&mut self, enabled: bool) {
        self.random = enabled;
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Searches `pos` within `limits`, calling `report` after each iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchResult {
        let mut pos = pos.clone();
        let mut run = Run {
            control,
            limits,
            budget: TimeBudget::from_limits(limits),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            pv: [[Move::NONE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            pawns: eval::PawnCache::new(),
        };
        let root_moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !limits.excluded.contains(m))
            .collect();
        let mut result = SearchResult {
            best_move: root_moves.first().copied().unwrap_or(Move::NONE),
            ponder_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            run.seldepth = 0;
            let score = run.root(&mut pos, &root_moves, depth);
            if run.stopped && depth > 1 {
                break;
            }
            result.depth = depth;
            result.score = score;
            result.pv = run.pv[0][..run.pv_len[0]].to_vec();
            result.best_move = result.pv.first().copied().unwrap_or(result.best_move);
            result.ponder_move = result.pv.get(1).copied();
            result.nodes = run.nodes;
            report(&SearchReport {
                depth,
                seldepth: run.seldepth,
                score,
                bound: Bound::Exact,
                elapsed: control.started().elapsed(),
                nodes: run.nodes,
                pv: &result.pv,
            });
            if run.stopped || run.soft_limit_reached() {
                break;
            }
        }
        result.nodes = run.nodes;
        result
    }
}

impl Run<'_> {
    fn elapsed(&self) -> Duration {
        match self.limits.nps {
            Some(nps) if nps > 0 => Duration::from_secs_f64(self.nodes as f64 / nps as f64),
            _ => self.control.clock_start().elapsed(),
        }
    }

    fn soft_limit_reached(&self) -> bool {
        if self.limits.infinite || self.control.is_pondering() {
            return false;
        }
        self.budget.is_some_and(|b| self.elapsed() >= b.soft)
    }

    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) || self.control.is_stopped() {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.control.publish_nodes(self.nodes);
            let timed = !self.limits.infinite && !self.control.is_pondering();
            if timed && self.budget.is_some_and(|b| self.elapsed() >= b.hard) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn root(&mut self, pos: &mut Position, moves: &[Move], depth: u32) -> i32 {
        let mut alpha = -INFINITE;
        self.pv_len[0] = 0;
        // Search the previous best move first.
        let mut ordered = moves.to_vec();
        if let Some(i) = ordered.iter().position(|&m| m == self.pv[0][0]) {
            ordered.swap(0, i);
        }
        for (i, &mv) in ordered.iter().enumerate() {
            self.control
                .publish(self.nodes, depth, i as u32 + 1, ordered.len() as u32, mv);
            pos.make_move(mv);
            let score = -self.alpha_beta(pos, depth - 1, 1, -INFINITE, -alpha);
            pos.unmake_move(mv);
            if self.stopped && i > 0 {
                break;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(0, mv);
            }
        }
        alpha
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    fn alpha_beta(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth == 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, ply, alpha, beta);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.check_stop() {
            return 0;
        }
        if pos.is_repetition() || pos.is_fifty_move_draw() || pos.has_insufficient_material() {
            return DRAW;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.in_check() {
                -MATE + ply as i32
            } else {
                DRAW
            };
        }
        let mut best = -INFINITE;
        for &mv in order(pos, &moves).iter() {
            pos.make_move(mv);
            let score = -self.alpha_beta(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.unmake_move(mv);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiescence(&mut self, pos: &mut Position, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = 0;
        if self.check_stop() {
            return 0;
        }
        let stand_pat = eval::evaluate(pos, &mut self.pawns);
        if stand_pat >= beta || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = MoveList::new();
        pos.generate_noisy(&mut moves);
        let mut best = stand_pat;
        for &mv in order(pos, &moves).iter() {
            pos.make_move(mv);
            let score = -self.quiescence(pos, ply + 1, -beta, -alpha);
            pos.unmake_move(mv);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Captures first (most valuable victim), then the rest.
fn order(pos: &Position, moves: &MoveList) -> MoveList {
    let mut scored: Vec<(i32, Move)> = moves
        .iter()
        .map(|&m| {
            let victim = pos
                .piece_at(m.to())
                .map_or(0, |p| [100, 320, 330, 500, 900, 0][p.kind.index()]);
            (victim, m)
        })
        .collect();
    scored.sort_by_key(|&(s, _)| -s);
    let mut out = MoveList::new();
    for (_, m) in scored {
        out.push(m);
    }
    out
}
