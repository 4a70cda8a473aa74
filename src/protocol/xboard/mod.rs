//! The XBoard (CECP v2) front-end: the protocol's own state (mode: force / playing /
//! analysing, plus edit and pause; clocks; pondering on the expected reply; pongs; the
//! opponent) over the protocol-neutral [`Engine`]. It receives one [`Event`] at a time, an
//! input line or the end of a search, and writes its replies to an [`Output`].
//!
//! This file dispatches the commands and keeps the game, mode and answer state; which search is
//! due, its limits, and what happens when it ends are in the private module `searches`.
//!
//! Invariants: a move printed with `move` is always legal in the game position; at most one
//! search runs, and it always belongs to the current position.

pub mod command;
pub mod edit;
pub mod features;
mod searches;
pub mod thinking;
pub mod timecontrol;

use super::output::Output;
use super::{done_notifier, Event, Flow, Frontend};
use crate::board::{CastleSide, Color, Move, MoveParseError, Position};
use crate::engine::options::{self, OptionValue};
use crate::engine::{
    Engine, EngineEvent, Game, GameEnd, Listener, OptionEffect, SearchKind, SearchLimits,
    SearchResult, MAX_DEPTH,
};
use command::{parse_command, parse_edit_command, Command, EditCommand, MoveSelection};
use edit::EditBoard;
use features::feature_lines;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;
use thinking::{stat01_line, thinking_line};
use timecontrol::{GameClock, TimeControl};

/// `draw` is accepted when the engine's last score is at or below this (centipawns, own view).
pub const DRAW_ACCEPT_SCORE: i32 = -50;
/// How long a `hint` asked for while idle may search.
const HINT_SEARCH_TIME: Duration = Duration::from_millis(100);
/// Depth cap of that search.
const HINT_SEARCH_DEPTH: u32 = 8;

/// Who the engine plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Plays neither side (`force`): moves are only recorded.
    Force,
    /// Plays `engine`: thinks when that side is to move.
    Playing {
        /// The engine's colour.
        engine: Color,
    },
    /// Analyses whatever position is on the board (`analyze`).
    Analyzing,
}

/// A ponder search that ended before the opponent moved (e.g. it reached `sd`).
#[derive(Debug)]
struct FinishedPonder {
    expected: Move,
    result: SearchResult,
}

/// What the interface told the engine about its opponent (`name`, `computer`, `rating`,
/// `ics`); kept for information, it does not change play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opponent {
    /// The opponent's name.
    pub name: Option<String>,
    /// True if the opponent is a program.
    pub computer: bool,
    /// (engine's rating, opponent's rating).
    pub ratings: Option<(i64, i64)>,
    /// The chess server, or `-` for a local game.
    pub ics: Option<String>,
}

/// The result claim for a game that ended by rule, e.g. `1-0 {White mates}`.
pub fn result_claim(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Checkmate {
            winner: Color::White,
        } => "1-0 {White mates}",
        GameEnd::Checkmate {
            winner: Color::Black,
        } => "0-1 {Black mates}",
        GameEnd::Stalemate => "1/2-1/2 {Stalemate}",
        GameEnd::InsufficientMaterial => "1/2-1/2 {Insufficient material}",
        GameEnd::FiftyMoves => "1/2-1/2 {Fifty move rule}",
        GameEnd::Repetition => "1/2-1/2 {Draw by repetition}",
    }
}

/// A move as XBoard wants it: coordinates, and in Chess960 castling as `O-O` / `O-O-O`.
pub fn move_text(pos: &Position, mv: Move) -> String {
    if mv.is_castling() && pos.is_chess960() {
        let side = crate::board::castling::CastlingSetup::side_of(mv.from(), mv.to());
        match side {
            CastleSide::Short => "O-O".to_string(),
            CastleSide::Long => "O-O-O".to_string(),
        }
    } else {
        pos.move_to_coordinate(mv)
    }
}

/// The XBoard front-end.
pub struct Xboard {
    out: Output,
    engine: Engine,
    mode: Mode,
    edit: Option<EditBoard>,
    paused: bool,
    /// The expected reply the running ponder search assumes.
    ponder_expected: Option<Move>,
    finished_ponder: Option<FinishedPonder>,
    clock: GameClock,
    depth_limit: Option<u32>,
    nps: Option<u64>,
    post: Arc<AtomicBool>,
    pending_pongs: Vec<String>,
    excluded: Vec<Move>,
    last_score: Option<i32>,
    /// Expected reply in the position with this key (from the engine's last search).
    hint: Option<(u64, Move)>,
    /// The answer to `.` for the last analysis that ended.
    last_stat: Option<String>,
    opponent: Opponent,
    /// Why the engine has no position (a `setboard` or `edit` it had to refuse): it neither
    /// searches nor takes moves until a position is set up again (`None`: the game position
    /// is the interface's).
    no_position: Option<String>,
}

impl std::fmt::Debug for Xboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Xboard")
            .field("engine", &self.engine)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Frontend for Xboard {
    fn create(out: Output, events: Sender<Event>) -> Xboard {
        Xboard::new(out, events)
    }

    fn handle_event(&mut self, event: Event) -> Flow {
        Xboard::handle_event(self, event)
    }

    fn output(&self) -> &Output {
        &self.out
    }
}

/// The listener that prints thinking lines (while `post` is on) and messages as comments.
fn thinking_listener(out: Output, post: Arc<AtomicBool>) -> Listener {
    Arc::new(move |event: &EngineEvent| match event {
        EngineEvent::Info(info) => {
            if !post.load(Ordering::Relaxed) {
                return;
            }
            let line = if info.pondering && !info.prefix.is_empty() {
                thinking_line(info.report, info.game_position, info.prefix, info.time)
            } else {
                thinking_line(info.report, info.root, &[], info.time)
            };
            out.line(&line);
        }
        EngineEvent::CurrentMove(_) => {}
        EngineEvent::Message(text) => out.comment(text),
    })
}

impl Xboard {
    /// A new front-end writing to `out`; search threads report their end on `events`.
    pub fn new(out: Output, events: Sender<Event>) -> Xboard {
        let post = Arc::new(AtomicBool::new(false));
        let listener = thinking_listener(out.clone(), Arc::clone(&post));
        Xboard {
            engine: Engine::new(listener, done_notifier(events)),
            out,
            mode: Mode::Playing {
                engine: Color::Black,
            },
            edit: None,
            paused: false,
            ponder_expected: None,
            finished_ponder: None,
            clock: GameClock::default(),
            depth_limit: None,
            nps: None,
            post,
            pending_pongs: Vec::new(),
            excluded: Vec::new(),
            last_score: None,
            hint: None,
            last_stat: None,
            opponent: Opponent::default(),
            no_position: None,
        }
    }

    /// The game position.
    pub fn position(&self) -> &Position {
        self.engine.position()
    }

    /// The moves played since the game's set-up position.
    pub fn moves(&self) -> &[Move] {
        self.engine.game().moves()
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// True while a search is running (thinking, pondering or analysing).
    pub fn is_searching(&self) -> bool {
        self.engine.is_searching()
    }

    /// The opponent as announced by the interface.
    pub fn opponent(&self) -> &Opponent {
        &self.opponent
    }

    /// True while in edit mode.
    pub fn is_editing(&self) -> bool {
        self.edit.is_some()
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
                self.search_done(id);
                Flow::Continue
            }
            Event::InputClosed => {
                self.finish_thinking();
                Flow::Quit
            }
        };
        if self.out.is_broken() {
            self.abort_search();
            return Flow::Quit;
        }
        flow
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let line = line.trim();
        if let Some(board) = self.edit.as_mut() {
            if let Some(command) = parse_edit_command(line) {
                if command == EditCommand::Done {
                    self.finish_edit();
                } else {
                    board.apply(command);
                }
                return Flow::Continue;
            }
            match parse_command(line) {
                Ok(
                    Command::Quit
                    | Command::Ping(_)
                    | Command::Empty
                    | Command::Accepted(_)
                    | Command::Rejected(_),
                ) => {}
                _ => {
                    self.error("edit mode expects c, #, . or a piece such as Pa4", line);
                    return Flow::Continue;
                }
            }
        }
        match parse_command(line) {
            Ok(command) => self.execute(command, line),
            Err(err) => {
                self.error(&err.to_string(), line);
                Flow::Continue
            }
        }
    }

    fn error(&self, reason: &str, line: &str) {
        let reason = reason.replace('(', "[").replace(')', "]");
        self.out.line(&format!("Error ({reason}): {line}"));
    }

    fn execute(&mut self, command: Command, line: &str) -> Flow {
        match command {
            Command::Empty | Command::Xboard | Command::Accepted(_) => {}
            Command::Protover(version) => {
                if version >= 2 {
                    for feature in feature_lines() {
                        self.out.line(&feature);
                    }
                }
            }
            Command::Rejected(feature) => {
                if feature == "debug" {
                    self.out.set_debug(false);
                }
            }
            Command::New => self.new_game(),
            Command::Variant(name) => self.variant(&name, line),
            Command::Quit => {
                self.abort_search();
                return Flow::Quit;
            }
            Command::Random => {
                let random = !self.engine.settings().random;
                self.engine.set_random(random);
            }
            Command::Force => {
                self.abort_search();
                self.mode = Mode::Force;
            }
            Command::Go => {
                if !self.refused_without_position(line) {
                    self.go();
                }
            }
            Command::PlayOther => {
                if self.refused_without_position(line) {
                    return Flow::Continue;
                }
                self.abort_search();
                self.mode = Mode::Playing {
                    engine: !self.engine.game().side_to_move(),
                };
                self.start_due_search();
            }
            Command::White | Command::Black => {
                let (to_move, engine) = if command == Command::White {
                    (Color::White, Color::Black)
                } else {
                    (Color::Black, Color::White)
                };
                self.abort_search();
                if self.engine.game().side_to_move() != to_move {
                    match self.engine.game_mut().set_side_to_move(to_move) {
                        Ok(()) => self.position_changed(),
                        Err(err) => self.error(&format!("illegal position: {err}"), line),
                    }
                }
                self.mode = Mode::Playing { engine };
            }
            Command::Level(level) => self.clock.set_control(TimeControl::Level(level)),
            Command::St(time) => self.clock.set_control(TimeControl::PerMove(time)),
            Command::Sd(depth) => self.depth_limit = Some(depth.clamp(1, MAX_DEPTH)),
            Command::Nps(rate) => self.nps = (rate > 0).then_some(rate),
            Command::Time(centis) => self.clock.set_engine_centis(centis),
            Command::Otim(centis) => self.clock.set_opponent_centis(centis),
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => self.move_now(),
            Command::Ping(n) => {
                if self.is_thinking() {
                    self.pending_pongs.push(n);
                } else {
                    self.engine.ready();
                    self.out.line(&format!("pong {n}"));
                }
            }
            Command::Draw => self.draw_offered(),
            Command::Result { .. } => {
                self.abort_search();
                self.mode = Mode::Force;
            }
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Edit => {
                self.abort_search();
                self.edit = Some(EditBoard::from_fen(&self.position().to_fen()));
            }
            // Without a position there is nothing to hint, list or take back: the engine's
            // board is still the one before the refused position, which is not the GUI's.
            Command::Hint => {
                if self.no_position.is_none() {
                    self.hint();
                }
            }
            Command::Bk => {
                if !self.refused_without_position(line) {
                    for text in self.engine.book_listing() {
                        self.out.line(&format!(" {text}"));
                    }
                    self.out.line("");
                }
            }
            Command::Undo | Command::Remove => {
                if !self.refused_without_position(line) {
                    let plies = if command == Command::Undo { 1 } else { 2 };
                    self.undo(plies, line);
                }
            }
            Command::Hard => self.set_ponder(true),
            Command::Easy => self.set_ponder(false),
            Command::Post => self.post.store(true, Ordering::Relaxed),
            Command::NoPost => self.post.store(false, Ordering::Relaxed),
            Command::Analyze => {
                self.abort_search();
                self.mode = Mode::Analyzing;
                self.start_due_search();
            }
            // Outside analysis there is nothing to leave: interfaces send `exit` after analysis
            // already ended (PyChess after `force`, which ends it too), so it is quietly done.
            Command::Exit => {
                if self.mode == Mode::Analyzing {
                    self.abort_search();
                    self.mode = Mode::Force;
                }
            }
            Command::Status => self.status(),
            Command::Name(name) => self.opponent.name = Some(name),
            Command::Rating { own, opponent } => self.opponent.ratings = Some((own, opponent)),
            Command::Ics(host) => self.opponent.ics = Some(host),
            Command::Computer => self.opponent.computer = true,
            Command::Pause => self.pause(),
            Command::Resume => {
                if self.paused {
                    self.paused = false;
                    self.start_due_search();
                }
            }
            Command::Memory(mb) => {
                let mb = usize::try_from(mb).unwrap_or(usize::MAX);
                self.apply_option(OptionValue::Hash(mb), line);
            }
            Command::Cores(n) => {
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                self.apply_option(OptionValue::Threads(n), line);
            }
            Command::EgtPath { kind, path } => {
                // Syzygy is the only kind Betacut reads (`feature egt="syzygy"`).
                if kind.eq_ignore_ascii_case("syzygy") {
                    self.engine.set_syzygy_path(Some(&path));
                }
            }
            Command::SetScore { .. } | Command::Highlight(_) => {}
            Command::Option { name, value } => self.set_option(&name, value.as_deref(), line),
            Command::Exclude(selection) => self.exclude(selection, true, line),
            Command::Include(selection) => self.exclude(selection, false, line),
        }
        Flow::Continue
    }

    // ----- game and mode changes -----

    fn new_game(&mut self) {
        self.abort_search();
        // `new` starts a game of normal chess; a `variant` command follows for others.
        self.engine.set_chess960(false);
        self.engine.new_game();
        self.position_changed();
        self.edit = None;
        self.paused = false;
        if self.mode != Mode::Analyzing {
            self.mode = Mode::Playing {
                engine: Color::Black,
            };
        }
        self.clock.reset();
        self.depth_limit = None;
        self.nps = None;
        self.engine.set_random(false);
        self.last_score = None;
        self.hint = None;
        self.last_stat = None;
        self.opponent = Opponent::default();
        self.no_position = None;
        self.start_due_search();
    }

    fn variant(&mut self, name: &str, line: &str) {
        let chess960 = match name {
            "normal" => false,
            "fischerandom" => true,
            _ => {
                self.error("unsupported variant", line);
                return;
            }
        };
        self.abort_search();
        self.engine.set_chess960(chess960);
        self.position_changed();
        self.start_due_search();
    }

    /// True (and said) when no position is set up: `go` and `playother` choose the engine's
    /// side by the side to move, so without a position they would leave it playing a side
    /// chosen by the position before the refused one; the engine stays in force mode instead.
    fn refused_without_position(&self, line: &str) -> bool {
        match &self.no_position {
            Some(why) => {
                self.error(&format!("no position: {why}"), line);
                true
            }
            None => false,
        }
    }

    fn go(&mut self) {
        if self.is_thinking() {
            return;
        }
        self.abort_search();
        self.mode = Mode::Playing {
            engine: self.engine.game().side_to_move(),
        };
        self.start_due_search();
    }

    /// Forgets everything tied to the previous position.
    fn position_changed(&mut self) {
        self.excluded.clear();
        self.finished_ponder = None;
    }

    fn set_game(&mut self, game: Game) {
        self.engine.set_game(game);
        self.position_changed();
        self.no_position = None;
        // The score of the engine's last move belongs to the game before: a draw offer in the
        // new position is not judged by it.
        self.last_score = None;
    }

    fn set_board(&mut self, fen: &str) {
        match Game::from_fen(fen) {
            Ok(game) if game.position().is_chess960() && !self.engine.is_chess960() => {
                self.refuse_position("Chess960 castling rights in variant normal", fen);
            }
            Ok(game) => {
                self.abort_search();
                self.set_game(game);
                self.start_due_search();
            }
            Err(err) => self.refuse_position(&err.to_string(), fen),
        }
    }

    /// A position the interface set up cannot be used: the user is told, and the engine stops
    /// and waits in force mode without a position, so that it never plays or analyses the
    /// previous one as if it were the interface's.
    ///
    /// The message names the position after the reason, as `Illegal move (REASON): MOVE` names
    /// the move: the user sees which position was refused, and PyChess, which stops analysing
    /// engines with `setboard 8/8/8/8/8/8/8/8 w - - 0 1`, recognises the answer to that empty
    /// board by its FEN and shows no error dialog for it.
    fn refuse_position(&mut self, reason: &str, fen: &str) {
        self.out.line(&format!(
            "tellusererror Illegal position ({}): {}",
            reason.replace('(', "[").replace(')', "]"),
            fen.trim()
        ));
        self.abort_search();
        if self.mode != Mode::Analyzing {
            self.mode = Mode::Force;
        }
        self.no_position = Some(format!("the last position was refused: {reason}"));
    }

    fn finish_edit(&mut self) {
        let Some(board) = self.edit.take() else {
            return;
        };
        let fen = board.to_fen();
        match Game::from_fen(&fen) {
            Ok(game) => self.set_game(game),
            Err(err) => self.refuse_position(&err.to_string(), &fen),
        }
        self.start_due_search();
    }

    fn undo(&mut self, plies: usize, line: &str) {
        if self.moves().len() < plies {
            self.error("no move to undo", line);
            return;
        }
        let was_thinking = self.is_thinking();
        self.abort_search();
        for _ in 0..plies {
            self.engine.undo();
        }
        self.position_changed();
        // The engine's last move may be gone, and with it what its score said.
        self.last_score = None;
        // `undo` only restarts analysis; `remove` keeps playing the same colour, so a search
        // that `remove` interrupted starts again.
        if self.mode == Mode::Analyzing || (plies == 2 && was_thinking) {
            self.start_due_search();
        }
    }

    fn user_move(&mut self, text: &str) {
        if self.no_position.is_some() {
            self.out
                .line(&format!("Illegal move (no position set up): {text}"));
            return;
        }
        let mv = match self.engine.parse_move(text) {
            Ok(mv) => mv,
            Err(err) => {
                let reply = match err {
                    MoveParseError::Illegal(_) => format!("Illegal move: {text}"),
                    MoveParseError::Malformed(_) => format!("Illegal move (not a move): {text}"),
                    MoveParseError::Ambiguous(_) => format!("Illegal move (ambiguous): {text}"),
                };
                self.out.line(&reply);
                return;
            }
        };
        match self.mode {
            Mode::Force | Mode::Analyzing => {
                self.abort_search();
                self.engine.play(mv);
                self.position_changed();
                self.start_due_search();
            }
            Mode::Playing { engine } => {
                if engine == self.engine.game().side_to_move() {
                    self.out
                        .line(&format!("Illegal move (it is the engine's turn): {text}"));
                    return;
                }
                self.opponent_move(mv);
            }
        }
    }

    /// The opponent played `mv` (legal) while the engine plays the other side.
    fn opponent_move(&mut self, mv: Move) {
        let hit = self.engine.running_kind() == Some(SearchKind::Ponder)
            && self.ponder_expected == Some(mv)
            && !self.paused;
        if hit {
            self.engine.play(mv);
            self.position_changed();
            self.ponder_expected = None;
            self.engine.ponderhit();
            return;
        }
        let finished = self.finished_ponder.take();
        self.abort_search();
        self.engine.play(mv);
        self.position_changed();
        match finished {
            Some(done) if done.expected == mv && !self.paused => {
                self.play_think_result(done.result, Duration::ZERO);
            }
            _ => self.start_due_search(),
        }
    }

    fn draw_offered(&mut self) {
        let game = self.engine.game();
        let dead = game.end().is_some_and(|end| end.is_draw())
            || game.position().has_insufficient_material();
        let worse = self
            .last_score
            .is_some_and(|score| score <= DRAW_ACCEPT_SCORE);
        if dead || worse {
            self.out.line("offer draw");
        }
    }

    fn pause(&mut self) {
        if self.paused {
            return;
        }
        if let Some(run) = self.engine.running() {
            if run.kind() == SearchKind::Think {
                self.clock.spend_engine(run.time_used());
            }
        }
        self.abort_search();
        self.paused = true;
    }

    fn set_ponder(&mut self, on: bool) {
        self.apply_option(OptionValue::Ponder(on), "");
    }

    fn ponder_changed(&mut self, on: bool) {
        if on {
            self.start_ponder_if_due();
        } else {
            if self.engine.running_kind() == Some(SearchKind::Ponder) {
                self.abort_search();
            }
            self.finished_ponder = None;
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        if options::find_option(name).is_some_and(|spec| spec.scope != options::OptionScope::All) {
            self.error(&format!("unknown option {:?}", name.trim()), line);
            return;
        }
        match options::parse_option(name, value) {
            Ok(value) => self.apply_option(value, line),
            Err(err) => self.error(&err.to_string(), line),
        }
    }

    /// Applies an option value and follows up on what it asks of the front-end.
    fn apply_option(&mut self, value: OptionValue, line: &str) {
        match self.engine.apply_option(value) {
            Ok(OptionEffect::Done) => {}
            Ok(OptionEffect::Ponder(on)) => self.ponder_changed(on),
            Ok(OptionEffect::LogFile(path)) => {
                if let Err(err) = self.out.set_log_file(path.as_deref()) {
                    self.error(&format!("cannot open log file: {err}"), line);
                }
            }
            Err(err) => self.error(&err.to_string(), line),
        }
    }

    fn exclude(&mut self, selection: MoveSelection, exclude: bool, line: &str) {
        match selection {
            MoveSelection::All if exclude => {
                self.excluded = self.position().legal_moves().iter().copied().collect();
            }
            MoveSelection::All => self.excluded.clear(),
            MoveSelection::Move(text) => match self.engine.parse_move(&text) {
                Ok(mv) if exclude => {
                    if !self.excluded.contains(&mv) {
                        self.excluded.push(mv);
                    }
                }
                Ok(mv) => self.excluded.retain(|&m| m != mv),
                Err(err) => {
                    self.error(&err.to_string(), line);
                    return;
                }
            },
        }
        if self.mode == Mode::Analyzing {
            self.abort_search();
            self.start_due_search();
        }
    }

    // ----- answers -----

    fn hint(&mut self) {
        if self.engine.game().end().is_some() {
            return; // nothing to hint in a finished game
        }
        let from_search = match self.engine.running_kind() {
            Some(SearchKind::Ponder) => self.ponder_expected,
            Some(SearchKind::Analyze) => self.engine.running().and_then(|r| r.latest_best()),
            Some(SearchKind::Think) | None => None,
        };
        let key = self.position().key();
        let stored = self
            .hint
            .filter(|&(k, mv)| k == key && self.engine.game().is_legal(mv))
            .map(|(_, mv)| mv);
        let hint = from_search.or(stored).or_else(|| self.quick_hint());
        if let Some(mv) = hint.filter(|&mv| self.engine.game().is_legal(mv)) {
            self.out
                .line(&format!("Hint: {}", move_text(self.position(), mv)));
        }
    }

    /// A short search for `hint` while nothing else runs.
    fn quick_hint(&mut self) -> Option<Move> {
        let limits = SearchLimits {
            depth: Some(HINT_SEARCH_DEPTH),
            movetime: Some(HINT_SEARCH_TIME),
            ..SearchLimits::default()
        };
        let result = self.engine.quick_search(&limits)?;
        Some(result.best_move).filter(|mv| !mv.is_none())
    }

    fn status(&self) {
        if let Some(run) = self.engine.running() {
            self.out.line(&stat01(run));
        } else if self.mode == Mode::Analyzing {
            let line = self.last_stat.as_deref().unwrap_or("stat01: 0 0 0 0 0");
            self.out.line(line);
        }
    }
}

/// The answer to `.` for a running search.
fn stat01(run: &crate::engine::RunningSearch) -> String {
    let (nodes, depth, index, total, current) = run.progress();
    let position = run.position();
    let name = (!current.is_none() && position.legal_moves().contains(current))
        .then(|| position.clone().move_to_san(current));
    stat01_line(run.elapsed(), nodes, depth, index, total, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Session;

    const WAIT: Duration = Duration::from_secs(30);

    fn count(out: &str, prefix: &str) -> usize {
        out.lines().filter(|l| l.starts_with(prefix)).count()
    }

    #[test]
    fn modes_follow_the_commands() {
        let mut s = Session::new();
        assert_eq!(
            s.engine().mode(),
            Mode::Playing {
                engine: Color::Black
            }
        );
        s.send("force");
        assert_eq!(s.engine().mode(), Mode::Force);
        s.send("e2e4");
        s.send("playother");
        assert_eq!(
            s.engine().mode(),
            Mode::Playing {
                engine: Color::White
            }
        );
        s.send("analyze");
        assert_eq!(s.engine().mode(), Mode::Analyzing);
        assert!(s.engine().is_searching());
        s.send("new");
        assert_eq!(s.engine().mode(), Mode::Analyzing, "new stays in analysis");
        assert!(s.engine().moves().is_empty());
        s.send("exit");
        assert_eq!(s.engine().mode(), Mode::Force);
        assert!(!s.engine().is_searching());
        s.send("name Fairy-Max");
        s.send("computer");
        s.send("rating 2000 1900");
        s.send("ics -");
        assert_eq!(s.engine().opponent().name.as_deref(), Some("Fairy-Max"));
        assert!(s.engine().opponent().computer);
        assert_eq!(s.engine().opponent().ratings, Some((2000, 1900)));
        assert_eq!(s.engine().opponent().ics.as_deref(), Some("-"));
    }

    #[test]
    fn ponder_hit_keeps_the_search_and_miss_replaces_it() {
        let mut s = Session::new();
        for line in ["new", "hard", "st 0.2", "go"] {
            s.send(line);
        }
        assert!(s.wait_for(WAIT, |o| count(o, "move ") == 1));
        // The move was played and pondering started on the expected reply.
        assert_eq!(s.engine().moves().len(), 1);
        assert!(s.engine().is_searching(), "pondering");
        s.send("hint");
        let out = s.take_output();
        let Some(expected) = out.lines().find_map(|l| l.strip_prefix("Hint: ")) else {
            panic!("no hint while pondering: {out}");
        };
        s.send(expected);
        assert!(s.engine().is_searching(), "ponder hit: the search goes on");
        assert!(s.wait_for(WAIT, |o| count(o, "move ") == 1));
        assert_eq!(s.engine().moves().len(), 3);
        // Miss: another legal move.
        s.send("hint");
        let out = s.take_output();
        let expected = out.lines().find_map(|l| l.strip_prefix("Hint: "));
        let other = s
            .engine()
            .position()
            .legal_moves()
            .iter()
            .map(|&m| s.engine().position().move_to_coordinate(m))
            .find(|m| Some(m.as_str()) != expected);
        let Some(other) = other else {
            panic!("a second legal move");
        };
        s.send(&other);
        assert!(s.engine().is_searching());
        assert!(s.wait_for(WAIT, |o| count(o, "move ") == 1));
        assert_eq!(s.engine().moves().len(), 5);
        s.send("easy");
        assert!(!s.engine().is_searching(), "easy stops pondering");
    }

    #[test]
    fn pongs_wait_for_the_move_while_thinking() {
        let mut s = Session::new();
        for line in ["new", "st 30", "go", "ping 7"] {
            s.send(line);
        }
        assert!(!s.output().contains("pong 7"));
        s.send("?");
        let out = s.output();
        let (Some(mv), Some(pong)) = (out.find("move "), out.find("pong 7")) else {
            panic!("move and pong expected: {out}");
        };
        assert!(mv < pong, "{out}");
        // Aborting a search (force) also releases waiting pongs.
        for line in ["st 30", "playother", "go", "ping 8", "force"] {
            s.send(line);
        }
        assert!(s.output().contains("pong 8"));
    }

    #[test]
    fn pause_stops_thinking_and_resume_restarts_it() {
        let mut s = Session::new();
        for line in ["new", "st 30", "go", "pause"] {
            s.send(line);
        }
        assert!(!s.engine().is_searching());
        s.send("ping 1");
        assert!(s.output().contains("pong 1"));
        s.send("resume");
        assert!(s.engine().is_searching());
        s.send("?");
        assert_eq!(count(&s.output(), "move "), 1);
    }
}
