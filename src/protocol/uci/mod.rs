//! The UCI front-end: typed commands in, calls to the protocol-neutral [`Engine`], its events
//! out as `info` lines, and one `bestmove` for every `go`.
//!
//! Every `go` gets exactly one `bestmove`: when its search ends by its limits, after `stop`, or
//! (should the GUI change the position, start a new game or send another `go` while it runs)
//! when it is stopped for that. Bad input of any kind gets an `info string error: ...` line and
//! changes nothing.

pub mod command;
pub mod info;

use super::output::Output;
use super::xboard::done_notifier;
use super::{Event, Flow, Frontend};
use crate::board::{Color, Move, Position};
use crate::engine::{
    Engine, EngineEvent, FinishedSearch, Game, Listener, OptionEffect, SearchKind, SearchRequest,
};
use crate::search::time::TimeBudget;
use crate::search::{Clock, SearchLimits};
use command::{parse_uci, GoParams, PositionStart, UciCommand};
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
        }
    }

    /// The engine core underneath.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one event; tells whether to go on.
    pub fn handle_event(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Line(line) => {
                self.out.log_input(&line);
                self.handle_line(&line)
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
                for reply in uci_reply() {
                    self.out.line(&reply);
                }
            }
            UciCommand::Debug(on) => self.debug.store(on, Ordering::Relaxed),
            UciCommand::IsReady => self.out.line("readyok"),
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref(), line),
            UciCommand::NewGame => {
                self.finish_running();
                self.engine.new_game();
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
        }
        Flow::Continue
    }

    /// A search still running is stopped and its `bestmove` printed (the GUI changes the
    /// position or starts another search without `stop`).
    fn finish_running(&mut self) {
        if let Some(finished) = self.engine.stop_and_finish() {
            self.print_bestmove(&finished);
        }
    }

    fn print_bestmove(&self, finished: &FinishedSearch) {
        let pos = &finished.position;
        let mut best = finished.result.best_move;
        let mut ponder = finished.result.ponder_move;
        if !best.is_none() && !pos.is_legal(best) {
            best = pos
                .legal_moves()
                .iter()
                .next()
                .copied()
                .unwrap_or(Move::NONE);
            ponder = None;
        }
        self.out.line(&bestmove_line(pos, best, ponder));
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

    fn set_position(&mut self, start: PositionStart, moves: &[String], line: &str) {
        let start_position = match &start {
            PositionStart::StartPos => Position::startpos(),
            PositionStart::Fen(fen) => match Position::from_fen(fen) {
                Ok(pos) => pos,
                Err(err) => {
                    self.error(&format!("bad FEN: {err}"), line);
                    return;
                }
            },
        };
        let mut game = Game::new(start_position);
        game.set_chess960(self.engine.is_chess960());
        for text in moves {
            match game.parse_move(text) {
                Ok(mv) => {
                    game.play(mv);
                }
                Err(err) => {
                    self.error(&format!("move {text}: {err}"), line);
                    return;
                }
            }
        }
        self.finish_running();
        self.engine.set_game(game);
    }

    fn go(&mut self, params: GoParams, line: &str) {
        let pos = self.engine.position();
        let mut excluded = Vec::new();
        if !params.searchmoves.is_empty() {
            let mut allowed = Vec::new();
            for text in &params.searchmoves {
                match pos.parse_move(text) {
                    Ok(mv) => allowed.push(mv),
                    Err(err) => {
                        self.error(&format!("searchmoves {text}: {err}"), line);
                        return;
                    }
                }
            }
            excluded = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|mv| !allowed.contains(mv))
                .collect();
        }
        let limits = self.go_limits(&params, excluded);
        self.finish_running();
        if self.debug.load(Ordering::Relaxed) {
            if let Some(budget) = TimeBudget::from_limits(&limits) {
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

    /// The search limits of `go` for the side to move. Nothing but `ponder`, `searchmoves`
    /// or `infinite` means an endless search.
    fn go_limits(&self, params: &GoParams, excluded: Vec<Move>) -> SearchLimits {
        let millis = |ms: i64| Duration::from_millis(ms.max(0) as u64);
        let white = self.engine.position().side_to_move() == Color::White;
        let (time, inc) = if white {
            (params.wtime, params.winc)
        } else {
            (params.btime, params.binc)
        };
        let clock = time.map(|t| Clock {
            remaining: millis(t),
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
