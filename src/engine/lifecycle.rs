//! The search lifecycle: start a search (or answer from the book), stop it, tell it of a
//! ponder hit, and collect its result, which always names a legal move when the position has
//! one.

use super::events::SearchKind;
use super::levels::{self, Level};
use super::running::{RunningSearch, SearchRequest};
use super::Engine;
use crate::board::{Move, Position};
use crate::eval::nnue::Network;
use crate::search::time::{nps_node_budget, TimeBudget};
use crate::search::{SearchControl, SearchLimits, SearchResult};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A search that has ended, with its result.
#[derive(Clone, Debug)]
pub struct FinishedSearch {
    /// Its id.
    pub id: u64,
    /// What it was for (a ponder search that got its ponder hit is `Think`).
    pub kind: SearchKind,
    /// The result: a best move legal in `position`, or [`Move::NONE`] when `position` has
    /// no legal move; the expected reply, if any, is legal after it.
    pub result: SearchResult,
    /// The position it searched.
    pub position: Position,
    /// Time the engine used on it (since its start or its ponder hit; nodes in `nps` mode).
    pub time_used: Duration,
}

/// The soft and hard time limits the time manager derives from `limits` for a search of `pos`
/// (`None` for a search without a clock or move time), for front-ends that show them.
pub fn time_budget(limits: &SearchLimits, pos: &Position) -> Option<TimeBudget> {
    TimeBudget::from_limits(limits, pos.fullmove_number())
}

impl Engine {
    /// True while a search runs (or has ended and waits to be collected).
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// The running search, if any.
    pub fn running(&self) -> Option<&RunningSearch> {
        self.running.as_ref()
    }

    /// What the running search is for, if one runs.
    pub fn running_kind(&self) -> Option<SearchKind> {
        self.running.as_ref().map(RunningSearch::kind)
    }

    /// When the command being handled was read (`None` between commands): a search it starts
    /// is timed from then, so the time a line waits for the protocol thread counts, as it
    /// does on the GUI's clock.
    pub fn set_command_time(&mut self, read_at: Option<Instant>) {
        self.command_read_at = read_at;
    }

    /// Starts a search of the game position (after `request.prefix`) and returns its id. A
    /// search already running is aborted first (its result is dropped). The MultiPV setting
    /// applies unless the request asks for a count itself. In `nps` mode a move time becomes
    /// a node budget.
    ///
    /// With `OwnBook` on, a search for the engine's own move (`Think`, not infinite, no mate
    /// target, no excluded moves) of a position in the book is not started: the book move is
    /// announced with a message (`book move e2e4 (weight 2 of 5)`) and comes back at once
    /// through the done notifier, as a finished search whose expected reply is the book's
    /// best reply. Analysis and pondering always search.
    pub fn start(&mut self, mut request: SearchRequest) -> u64 {
        self.abort();
        let Some(mut searcher) = self.searcher.take() else {
            return 0;
        };
        self.apply_settings(&mut searcher);
        let limits = &mut request.limits;
        if limits.multipv == 0 {
            limits.multipv = self.settings.multipv;
        }
        if let (Some(rate), Some(time), None) = (limits.nps, limits.movetime, limits.nodes) {
            limits.nodes = Some(nps_node_budget(time, rate));
        }
        let id = self.next_search_id;
        self.next_search_id += 1;
        if let Some(result) = self.book_result(&request) {
            self.running = Some(RunningSearch::finished(
                id,
                request.kind,
                self.game.position(),
                searcher,
                result,
                self.on_done.clone(),
            ));
            return id;
        }
        // Setting the network the searcher already has costs nothing (the evaluators keep it).
        searcher.set_network(self.network_for(&request));
        self.level_of_search = None;
        if self.settings.limit_strength && levels::applies(&request) {
            let level = Level::from_elo(self.settings.elo);
            level.limit(&mut request.limits);
            self.level_of_search = Some((id, level));
        }
        self.running = Some(RunningSearch::start(
            &mut self.search_thread,
            id,
            request,
            self.game.position(),
            searcher,
            self.listener.clone(),
            self.on_done.clone(),
            self.settings.show_wdl,
            self.command_read_at.unwrap_or_else(Instant::now),
        ));
        id
    }

    /// Asks the running search to stop; its result comes through the done notifier as usual.
    pub fn stop(&self) {
        if let Some(run) = self.running.as_ref() {
            run.stop();
        }
    }

    /// The ponder search becomes a timed search of the engine's own move, its clock starting
    /// now.
    pub fn ponderhit(&mut self) {
        if let Some(run) = self.running.as_mut() {
            run.ponderhit();
        }
    }

    /// Collects the search `id` once it has ended (after its done notice); `None` if it is
    /// not the running search (it was aborted or collected before).
    pub fn finish(&mut self, id: u64) -> Option<FinishedSearch> {
        if self.running.as_ref().map(RunningSearch::id) != Some(id) {
            return None;
        }
        let run = self.running.take()?;
        Some(self.collect(run))
    }

    /// Stops the running search now and collects it.
    pub fn stop_and_finish(&mut self) -> Option<FinishedSearch> {
        let run = self.running.take()?;
        run.stop();
        Some(self.collect(run))
    }

    /// Waits for the running search to end by its own limits and collects it.
    pub fn wait_and_finish(&mut self) -> Option<FinishedSearch> {
        let run = self.running.take()?;
        Some(self.collect(run))
    }

    /// Stops and forgets the running search (its result is dropped).
    pub fn abort(&mut self) {
        let _ = self.stop_and_finish();
    }

    /// Joins `run`, applies the playing level's pick, makes sure the move is legal, and takes
    /// the searcher back (applying the settings changed meanwhile).
    fn collect(&mut self, run: RunningSearch) -> FinishedSearch {
        let id = run.id();
        let kind = run.kind();
        let time_used = run.time_used();
        let position = run.position().clone();
        let (mut searcher, mut result) = run.finish();
        if let Some((_, level)) = self.level_of_search.filter(|&(lid, _)| lid == id) {
            if kind == SearchKind::Think {
                level.choose_for(&mut result, self.level_seed ^ position.key());
            }
        }
        // An analysis with every root move excluded has no move to show, and none is played.
        if !(kind == SearchKind::Analyze && result.best_move.is_none()) {
            self.ensure_legal(&position, &mut result);
        }
        self.apply_settings(&mut searcher);
        self.searcher = Some(searcher);
        FinishedSearch {
            id,
            kind,
            result,
            position,
            time_used,
        }
    }

    /// The one fallback for a result whose move is not legal in `position` (which a correct
    /// search never returns): the first legal move, said as a message; no move when there is
    /// none. An expected reply that is not legal after the move is dropped.
    fn ensure_legal(&self, position: &Position, result: &mut SearchResult) {
        let legal = position.legal_moves();
        if !legal.contains(result.best_move) {
            let fallback = legal.iter().next().copied().unwrap_or(Move::NONE);
            if !fallback.is_none() {
                self.say(&format!(
                    "the search returned no legal move; playing {}",
                    position.move_to_coordinate(fallback)
                ));
            }
            result.best_move = fallback;
            result.ponder_move = None;
            result.pv = if fallback.is_none() {
                Vec::new()
            } else {
                vec![fallback]
            };
        }
        if let Some(reply) = result.ponder_move {
            let mut after = position.clone();
            after.make_move(result.best_move);
            if !after.is_legal(reply) {
                result.ponder_move = None;
            }
        }
    }

    /// The network a search for `request` evaluates with: the engine's, except at a playing
    /// level, which keeps the hand-crafted evaluation it was calibrated with (`None`), so that
    /// a level plays at the strength its Elo says whichever network is loaded.
    pub(super) fn network_for(&self, request: &SearchRequest) -> Option<Arc<Network>> {
        if self.settings.limit_strength && levels::applies(request) {
            None
        } else {
            self.evaluation.network.clone()
        }
    }

    /// The book move to play instead of the search `request`, if the book has one.
    fn book_result(&mut self, request: &SearchRequest) -> Option<SearchResult> {
        let limits = &request.limits;
        if request.kind != SearchKind::Think
            || !request.prefix.is_empty()
            || limits.infinite
            || limits.mate.is_some()
            || !limits.excluded.is_empty()
        {
            return None;
        }
        let pos = self.game.position();
        let choice = match self.book.choose(pos) {
            Ok(choice) => choice?,
            Err(err) => {
                self.say(&format!("{err}; playing without a book"));
                return None;
            }
        };
        self.say(&format!(
            "book move {} (weight {} of {})",
            pos.move_to_coordinate(choice.mv),
            choice.weight,
            choice.total
        ));
        let mut pv = vec![choice.mv];
        pv.extend(choice.reply);
        Some(SearchResult {
            best_move: choice.mv,
            ponder_move: choice.reply,
            score: 0,
            depth: 0,
            nodes: 0,
            pv,
            lines: vec![(choice.mv, 0)],
            exact: false,
        })
    }

    /// A short synchronous search of the game position with `limits` (no events), when no
    /// other search runs; `None` otherwise.
    pub fn quick_search(&mut self, limits: &SearchLimits) -> Option<SearchResult> {
        if self.running.is_some() {
            return None;
        }
        let mut searcher = self.searcher.take()?;
        self.apply_settings(&mut searcher);
        searcher.set_network(self.evaluation.network.clone());
        let control = SearchControl::new(false);
        let mut result = searcher.search(self.game.position(), limits, &control, &mut |_| {});
        self.searcher = Some(searcher);
        self.ensure_legal(self.game.position(), &mut result);
        Some(result)
    }
}
