//! The UCI front-end: typed commands in, calls to the protocol-neutral [`Engine`], its events
//! out as `info` lines, and one `bestmove` for every `go`.
//!
//! Every `go` gets exactly one `bestmove`: when its search ends by its limits, after `stop` (a
//! `go infinite` or `go ponder` waits for it, or for `ponderhit`), or, should the GUI change
//! the position, start a new game or send another `go` while it runs, when it is stopped for
//! that. What `go` cannot use (an unknown word, a bad number, an illegal `searchmoves` move)
//! is reported with `info string` and left out; the search still runs. `position` with an
//! illegal move sets up the position before that move, as Stockfish does, and says so; a
//! `position` that describes no position at all (a bad FEN, no `startpos`/`fen`) leaves the
//! engine without one: the next `go` answers `bestmove (none)`, never a move of an older
//! position. Other bad input gets an `info string error: ...` line and changes nothing.

pub mod command;
pub mod info;

use super::output::Output;
use super::{done_notifier, Event, Flow, Frontend};
use crate::board::{Color, Move, Position};
use crate::engine::{
    time_budget, Clock, Engine, EngineEvent, FinishedSearch, Game, Listener, OptionEffect,
    SearchKind, SearchLimits, SearchRequest,
};
use command::{parse_uci, GoParams, PositionStart, UciCommand, UciError};
use info::{bestmove_line, info_line, uci_reply, CURRMOVE_AFTER};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// The UCI front-end.
pub struct Uci {
    out: Output,
    engine: Engine,
    debug: Arc<AtomicBool>,
    /// Why the engine has no position to search, after a `position` command that described
    /// none (`None`: the game position is the GUI's).
    no_position: Option<String>,
}

impl std::fmt::Debug for Uci {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uci")
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

impl Frontend for Uci {
    fn create(out: Output, events: Sender<Event>) -> Uci {
        Uci::new(out, events)
    }

    fn handle_event(&mut self, event: Event) -> Flow {
        Uci::handle_event(self, event)
    }

    fn output(&self) -> &Output {
        &self.out
    }
}

/// The listener that prints `info` lines.
fn info_listener(out: Output) -> Listener {
    Arc::new(move |event: &EngineEvent| match event {
        EngineEvent::Info(info) => out.line(&info_line(info)),
        EngineEvent::CurrentMove(current) => {
            if current.report.elapsed >= CURRMOVE_AFTER && current.root.is_legal(current.report.mv)
            {
                out.line(&format!(
                    "info depth {} currmove {} currmovenumber {}",
                    current.report.depth,
                    current.root.move_to_coordinate(current.report.mv),
                    current.report.number
                ));
            }
        }
        EngineEvent::Message(text) => out.line(&format!("info string {text}")),
    })
}

impl Uci {
    /// A new front-end writing to `out`; search threads report their end on `events`.
    pub fn new(out: Output, events: Sender<Event>) -> Uci {
        Uci {
            engine: Engine::new(info_listener(out.clone()), done_notifier(events)),
            out,
            debug: Arc::new(AtomicBool::new(false)),
            no_position: None,
        }
    }

    /// The engine core underneath.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one event; tells whether to go on.
    pub fn handle_event(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Line(line, read_at) => {
                self.out.log_input(&line);
                self.engine.set_command_time(Some(read_at));
                let flow = self.handle_line(&line);
                self.engine.set_command_time(None);
                flow
            }
            Event::SearchDone(id) => {
                if let Some(finished) = self.engine.finish(id) {
                    self.print_bestmove(&finished);
                }
                Flow::Continue
            }
            Event::InputClosed => {
                self.engine.abort();
                Flow::Quit
            }
        };
        if self.out.is_broken() {
            self.engine.abort();
            return Flow::Quit;
        }
        flow
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match parse_uci(line) {
            Ok(command) => self.execute(command, line),
            Err(UciError::BadPosition) => {
                self.error(&UciError::BadPosition.to_string(), line);
                self.lose_position("the last position command described no position");
                Flow::Continue
            }
            Err(err) => {
                self.error(&err.to_string(), line);
                Flow::Continue
            }
        }
    }

    fn error(&self, reason: &str, line: &str) {
        self.out
            .line(&format!("info string error: {reason}: {}", line.trim()));
    }

    fn note(&self, text: &str) {
        if self.debug.load(Ordering::Relaxed) {
            self.out.line(&format!("info string {text}"));
        }
    }

    fn execute(&mut self, command: UciCommand, line: &str) -> Flow {
        match command {
            UciCommand::Empty | UciCommand::Register => {}
            UciCommand::Uci => {
                for reply in uci_reply(&self.engine.evaluation_name()) {
                    self.out.line(&reply);
                }
            }
            UciCommand::Debug(on) => self.debug.store(on, Ordering::Relaxed),
            UciCommand::IsReady => {
                self.engine.ready();
                self.out.line("readyok");
            }
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref(), line),
            UciCommand::NewGame => {
                self.finish_running();
                self.engine.new_game();
                self.no_position = None;
            }
            UciCommand::Position { start, moves } => self.set_position(start, &moves, line),
            UciCommand::Go(params) => self.go(params, line),
            UciCommand::Stop => self.engine.stop(),
            UciCommand::PonderHit => {
                if self.engine.running_kind() == Some(SearchKind::Ponder) {
                    self.engine.ponderhit();
                } else {
                    self.note("ponderhit without a ponder search: ignored");
                }
            }
            UciCommand::Quit => {
                self.engine.abort();
                return Flow::Quit;
            }
            UciCommand::Display => self.developer(line, Engine::board_diagram),
            UciCommand::Eval => self.developer(line, Engine::explain_evaluation),
            UciCommand::Bench(depth) => {
                if self.idle_for(line) {
                    let depth = depth.unwrap_or(crate::engine::BENCH_DEPTH);
                    let summary = self.engine.bench(depth, |_| {});
                    self.out
                        .line(&format!("{} nodes {} nps", summary.nodes, summary.nps));
                }
            }
        }
        Flow::Continue
    }

    /// True if the last `position` described one; otherwise says why `line` has none to
    /// work on (`d`, `eval` and `go perft` must not show the position before a bad one).
    fn has_position(&self, line: &str) -> bool {
        match &self.no_position {
            Some(why) => {
                self.error(&format!("no position: {why}"), line);
                false
            }
            None => true,
        }
    }

    /// True if no search runs; otherwise says that `line` must wait for the end of it.
    fn idle_for(&self, line: &str) -> bool {
        let idle = !self.engine.is_searching();
        if !idle {
            self.error("not while a search runs (send stop first)", line);
        }
        idle
    }

    /// Prints the lines of a developer command, when no search runs.
    fn developer(&self, line: &str, lines: impl Fn(&Engine) -> Vec<String>) {
        if self.idle_for(line) && self.has_position(line) {
            for text in lines(&self.engine) {
                self.out.line(&text);
            }
        }
    }

    /// A search still running is stopped and its `bestmove` printed (the GUI changes the
    /// position or starts another search without `stop`).
    fn finish_running(&mut self) {
        if let Some(finished) = self.engine.stop_and_finish() {
            self.print_bestmove(&finished);
        }
    }

    /// Prints the `bestmove` of a finished search (the engine guarantees its move is legal,
    /// or none when the position has no legal move). A searched move is preceded by the
    /// search's final count, `info nodes N time T nps R` (all threads; the last `info depth`
    /// line may be older).
    fn print_bestmove(&self, finished: &FinishedSearch) {
        let result = &finished.result;
        if result.nodes > 0 {
            let millis = finished.time_used.as_millis();
            let nps = u128::from(result.nodes) * 1000 / millis.max(1);
            self.out.line(&format!(
                "info nodes {} time {millis} nps {nps}",
                result.nodes
            ));
        }
        self.out.line(&bestmove_line(
            &finished.position,
            result.best_move,
            result.ponder_move,
        ));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        match self.engine.set_option(name, value) {
            Ok(OptionEffect::Done | OptionEffect::Ponder(_)) => {}
            Ok(OptionEffect::LogFile(path)) => {
                if let Err(err) = self.out.set_log_file(path.as_deref()) {
                    self.error(&format!("cannot open the log file: {err}"), line);
                }
            }
            Err(err) => self.error(&err.to_string(), line),
        }
    }

    /// Forgets the game position: the GUI described none the engine can use.
    fn lose_position(&mut self, why: &str) {
        self.finish_running();
        self.no_position = Some(why.to_string());
    }

    /// `position`: the start position or FEN, then the moves as far as each is legal. The
    /// first illegal move and the rest are reported and left out (the position before it is
    /// set up, as Stockfish does); a FEN that is no legal position leaves no position.
    fn set_position(&mut self, start: PositionStart, moves: &[String], line: &str) {
        let start_position = match &start {
            PositionStart::StartPos => Position::startpos(),
            PositionStart::Fen(fen) => match Position::from_fen(fen) {
                Ok(pos) => pos,
                Err(err) => {
                    self.error(&format!("bad FEN: {err}"), line);
                    self.lose_position("the last position command had a bad FEN");
                    return;
                }
            },
        };
        let mut game = Game::new(start_position);
        game.set_chess960(self.engine.is_chess960());
        for (i, text) in moves.iter().enumerate() {
            match game.parse_move(text) {
                Ok(mv) => {
                    game.play(mv);
                }
                Err(err) => {
                    let left_out = moves.len() - i;
                    self.error(
                        &format!(
                            "move {} ({text}): {err}; the position before it is used \
                             ({left_out} move{} left out)",
                            i + 1,
                            if left_out == 1 { "" } else { "s" }
                        ),
                        line,
                    );
                    break;
                }
            }
        }
        self.finish_running();
        self.engine.set_game(game);
        self.no_position = None;
    }

    fn go(&mut self, params: GoParams, line: &str) {
        for reason in &params.ignored {
            self.error(&format!("{reason}; ignored"), line);
        }
        if let Some(depth) = params.perft {
            if self.idle_for(line) && self.has_position(line) {
                for text in self.engine.perft_lines(depth) {
                    self.out.line(&text);
                }
            }
            return;
        }
        self.finish_running();
        if let Some(why) = &self.no_position {
            self.error(&format!("no position to search: {why}"), line);
            self.out.line("bestmove (none)");
            return;
        }
        let excluded = self.excluded_moves(&params.searchmoves, line);
        let limits = self.go_limits(&params, excluded);
        if self.debug.load(Ordering::Relaxed) {
            if let Some(budget) = time_budget(&limits, self.engine.position()) {
                self.note(&format!(
                    "time budget: soft {} ms, hard {} ms",
                    budget.soft.as_millis(),
                    budget.hard.as_millis()
                ));
            }
        }
        let kind = if params.ponder {
            SearchKind::Ponder
        } else {
            SearchKind::Think
        };
        self.engine.start(SearchRequest {
            kind,
            limits,
            prefix: Vec::new(),
        });
    }

    /// The root moves `searchmoves` leaves out: every legal move not named. A name that is
    /// no legal move is reported and skipped; if no name is a legal move, all moves are
    /// searched.
    fn excluded_moves(&self, searchmoves: &[String], line: &str) -> Vec<Move> {
        if searchmoves.is_empty() {
            return Vec::new();
        }
        let pos = self.engine.position();
        let mut allowed = Vec::new();
        for text in searchmoves {
            match pos.parse_move(text) {
                Ok(mv) => allowed.push(mv),
                Err(err) => self.error(&format!("searchmoves {text}: {err}; ignored"), line),
            }
        }
        if allowed.is_empty() {
            return Vec::new();
        }
        pos.legal_moves()
            .iter()
            .copied()
            .filter(|mv| !allowed.contains(mv))
            .collect()
    }

    /// The search limits of `go` for the side to move. A clock given for either side is a
    /// timed game: the side to move's own time, missing or zero, is zero (a minimal think, as
    /// Stockfish does), never an endless search. Nothing but `ponder`, `searchmoves` or
    /// `infinite` means an endless search.
    fn go_limits(&self, params: &GoParams, excluded: Vec<Move>) -> SearchLimits {
        let millis = |ms: i64| Duration::from_millis(ms.max(0) as u64);
        let white = self.engine.position().side_to_move() == Color::White;
        let (time, inc) = if white {
            (params.wtime, params.winc)
        } else {
            (params.btime, params.binc)
        };
        let timed = params.wtime.is_some() || params.btime.is_some();
        let clock = timed.then(|| Clock {
            remaining: millis(time.unwrap_or(0)),
            increment: millis(inc.unwrap_or(0)),
            moves_to_go: params.movestogo.filter(|&m| m > 0),
        });
        let limited = clock.is_some()
            || params.depth.is_some()
            || params.nodes.is_some()
            || params.mate.is_some()
            || params.movetime.is_some();
        SearchLimits {
            depth: params.depth.map(|d| d.max(1)),
            nodes: params.nodes,
            movetime: params.movetime.map(Duration::from_millis),
            clock,
            move_overhead: self.engine.settings().move_overhead,
            mate: params.mate,
            infinite: params.infinite || !limited,
            excluded,
            ..SearchLimits::default()
        }
    }
}
