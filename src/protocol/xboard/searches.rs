//! The XBoard front-end's searches: which one is due (thinking on the engine's move, pondering
//! on the expected reply, analysis), their limits from the clock, starting and stopping them,
//! and what is done when one ends (the move played, the clock charged, pending pongs
//! answered). The command dispatch in [`super`] calls these; they never read protocol text.

use super::thinking::stat01_line;
use super::{move_text, result_claim, FinishedPonder, Mode, Xboard};
use crate::board::{Color, Move};
use crate::engine::{FinishedSearch, SearchKind, SearchLimits, SearchRequest, SearchResult};
use std::time::Duration;

impl Xboard {
    pub(super) fn is_thinking(&self) -> bool {
        self.engine.running_kind() == Some(SearchKind::Think)
    }

    /// Starts whatever the current state calls for: analysis, thinking (or the result claim
    /// of a finished game) when the engine is on move, pondering otherwise.
    pub(super) fn start_due_search(&mut self) {
        if self.paused || self.edit.is_some() || self.engine.is_searching() {
            return;
        }
        if let Some(why) = &self.no_position {
            if self.mode != Mode::Force {
                self.error(&format!("no position: {why}"), "search");
            }
            return;
        }
        match self.mode {
            Mode::Force => {}
            Mode::Analyzing => {
                let limits = SearchLimits {
                    infinite: true,
                    excluded: self.excluded.clone(),
                    ..SearchLimits::default()
                };
                self.start_search(SearchKind::Analyze, Vec::new(), limits);
            }
            Mode::Playing { engine } if engine == self.engine.game().side_to_move() => {
                match self.engine.game().end() {
                    Some(end) => self.out.line(result_claim(end)),
                    None => {
                        let limits = self.think_limits(engine);
                        self.start_search(SearchKind::Think, Vec::new(), limits);
                    }
                }
            }
            Mode::Playing { .. } => self.start_ponder_if_due(),
        }
    }

    pub(super) fn start_ponder_if_due(&mut self) {
        if !self.engine.settings().ponder
            || self.paused
            || self.edit.is_some()
            || self.engine.is_searching()
            || self.finished_ponder.is_some()
        {
            return;
        }
        let Mode::Playing { engine } = self.mode else {
            return;
        };
        let game = self.engine.game();
        if engine == game.side_to_move() || game.end().is_some() {
            return;
        }
        let key = game.position().key();
        let Some(expected) = self
            .hint
            .filter(|&(k, mv)| k == key && game.is_legal(mv))
            .map(|(_, mv)| mv)
        else {
            return;
        };
        let mut after = game.clone();
        after.play(expected);
        if after.end().is_some() {
            return;
        }
        let limits = self.think_limits(engine);
        self.start_search(SearchKind::Ponder, vec![expected], limits);
    }

    /// Limits for the engine's next move as `engine`: clock or `st`, `sd`, `nps`, and what
    /// the front-end knows about delays (the move overhead, the measured interface lag).
    pub(super) fn think_limits(&self, engine: Color) -> SearchLimits {
        let (movetime, clock) = self.clock.limits(self.engine.game().moves_made_by(engine));
        SearchLimits {
            depth: self.depth_limit,
            movetime,
            clock,
            move_overhead: self.engine.settings().move_overhead,
            gui_lag: self.clock.lag(),
            nps: self.nps,
            ..SearchLimits::default()
        }
    }

    /// Starts a search of the game position after `prefix`.
    pub(super) fn start_search(
        &mut self,
        kind: SearchKind,
        prefix: Vec<Move>,
        limits: SearchLimits,
    ) {
        self.ponder_expected = (kind == SearchKind::Ponder)
            .then(|| prefix.first().copied())
            .flatten();
        self.engine.start(SearchRequest {
            kind,
            limits,
            prefix,
        });
    }

    /// Stops and forgets the running search (its result is not played).
    pub(super) fn abort_search(&mut self) {
        if let Some(finished) = self.engine.stop_and_finish() {
            if finished.kind == SearchKind::Think {
                self.flush_pongs();
            }
        }
        self.ponder_expected = None;
        self.finished_ponder = None;
    }

    pub(super) fn move_now(&mut self) {
        if self.is_thinking() {
            if let Some(finished) = self.engine.stop_and_finish() {
                self.complete_think(finished);
            }
        }
    }

    /// Input ended: a move being thought about is still played, then the engine stops.
    pub(super) fn finish_thinking(&mut self) {
        if self.is_thinking() {
            // Let it end by its own limits: the interface may still read the move.
            if let Some(finished) = self.engine.wait_and_finish() {
                self.complete_think(finished);
            }
        }
        self.abort_search();
    }

    pub(super) fn search_done(&mut self, id: u64) {
        let Some(finished) = self.engine.finish(id) else {
            return; // a search that was already collected
        };
        match finished.kind {
            SearchKind::Think => self.complete_think(finished),
            SearchKind::Ponder => {
                if let Some(expected) = self.ponder_expected.take() {
                    self.finished_ponder = Some(FinishedPonder {
                        expected,
                        result: finished.result,
                    });
                }
            }
            SearchKind::Analyze => {
                self.last_stat = Some(stat01_line(
                    finished.time_used,
                    finished.result.nodes,
                    finished.result.depth,
                    0,
                    0,
                    None,
                ));
            }
        }
    }

    pub(super) fn complete_think(&mut self, finished: FinishedSearch) {
        self.ponder_expected = None;
        self.play_think_result(finished.result, finished.time_used);
    }

    /// Plays the engine's move (legal, or none when the position has no legal move: the
    /// engine guarantees it) and follows up: pongs, result claim, pondering.
    pub(super) fn play_think_result(&mut self, result: SearchResult, used: Duration) {
        let mv = result.best_move;
        if mv.is_none() || !self.engine.game().is_legal(mv) {
            if let Some(end) = self.engine.game().end() {
                self.out.line(result_claim(end));
            }
            self.flush_pongs();
            return;
        }
        let us = self.engine.game().side_to_move();
        let text = move_text(self.position(), mv);
        self.engine.play(mv);
        self.position_changed();
        self.clock
            .charge_engine(used, self.engine.game().moves_made_by(us));
        self.last_score = Some(result.score);
        self.out.line(&format!("move {text}"));
        self.flush_pongs();
        let key = self.position().key();
        self.hint = result
            .ponder_move
            .filter(|&reply| self.engine.game().is_legal(reply))
            .map(|reply| (key, reply));
        match self.engine.game().end() {
            Some(end) => self.out.line(result_claim(end)),
            None => self.start_ponder_if_due(),
        }
    }

    pub(super) fn flush_pongs(&mut self) {
        for n in std::mem::take(&mut self.pending_pongs) {
            self.out.line(&format!("pong {n}"));
        }
    }
}
