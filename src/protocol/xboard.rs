//! The XBoard (CECP v2) engine state machine: game, mode (force / playing / analysing, plus
//! edit and pause), clocks, options, and the search thread. It receives one [`Event`] at a
//! time — an input line or the end of a search — and writes its replies to an [`Output`].
//!
//! Invariants: the game position only changes through legal moves, a legal FEN, or `undo`;
//! a move printed with `move` is always legal in the game position; at most one search runs,
//! and it always belongs to the current position.

use super::command::{parse_command, parse_edit_command, Command, EditCommand, MoveSelection};
use super::edit::EditBoard;
use super::features::{
    feature_lines, parse_option, OptionSetting, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS,
    MAX_HASH_MB, MAX_THREADS,
};
use super::game::Game;
use super::output::Output;
use super::search_thread::{Reporter, RunningSearch, SearchJob, SearchKind};
use super::thinking::search_time;
use super::timecontrol::{GameClock, TimeControl};
use super::Event;
use crate::board::{Color, Move, MoveParseError, Position};
use crate::search::score::MAX_PLY;
use crate::search::{SearchControl, SearchLimits, SearchResult, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// `draw` is accepted when the engine's last score is at or below this (centipawns, own view).
pub const DRAW_ACCEPT_SCORE: i32 = -50;
/// How long a `hint` asked for while idle may search.
const HINT_SEARCH_TIME: Duration = Duration::from_millis(100);
/// Depth cap of that search.
const HINT_SEARCH_DEPTH: u32 = 8;

/// Whether the protocol loop goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading input.
    Continue,
    /// `quit` (or the end of input): leave the loop.
    Quit,
}

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

/// User-settable engine settings (commands and options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Settings {
    hash_mb: usize,
    threads: usize,
    ponder: bool,
    random: bool,
    move_overhead: Duration,
}

/// The settings last handed to the searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Applied {
    hash_mb: usize,
    threads: usize,
    random: bool,
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

/// The engine behind the protocol.
pub struct Engine {
    out: Output,
    events: Sender<Event>,
    game: Game,
    mode: Mode,
    edit: Option<EditBoard>,
    paused: bool,
    searcher: Option<Searcher>,
    running: Option<RunningSearch>,
    finished_ponder: Option<FinishedPonder>,
    next_search_id: u64,
    clock: GameClock,
    depth_limit: Option<u32>,
    nps: Option<u64>,
    settings: Settings,
    applied: Option<Applied>,
    clear_pending: bool,
    post: Arc<AtomicBool>,
    pending_pongs: Vec<String>,
    excluded: Vec<Move>,
    last_score: Option<i32>,
    /// Expected reply in the position with this key (from the engine's last search).
    hint: Option<(u64, Move)>,
    last_stat: Option<String>,
    opponent: Opponent,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("fen", &self.game.position().to_fen())
            .field("mode", &self.mode)
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.abort_search();
    }
}

impl Engine {
    /// A new engine writing to `out`; search threads report their end on `events`.
    pub fn new(out: Output, events: Sender<Event>) -> Engine {
        Engine {
            out,
            events,
            game: Game::default(),
            mode: Mode::Playing {
                engine: Color::Black,
            },
            edit: None,
            paused: false,
            searcher: Some(Searcher::new(DEFAULT_HASH_MB)),
            running: None,
            finished_ponder: None,
            next_search_id: 1,
            clock: GameClock::default(),
            depth_limit: None,
            nps: None,
            settings: Settings {
                hash_mb: DEFAULT_HASH_MB,
                threads: 1,
                ponder: false,
                random: false,
                move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            },
            applied: None,
            clear_pending: false,
            post: Arc::new(AtomicBool::new(false)),
            pending_pongs: Vec::new(),
            excluded: Vec::new(),
            last_score: None,
            hint: None,
            last_stat: None,
            opponent: Opponent::default(),
        }
    }

    /// The game position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The moves played since the game's set-up position.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// True while a search is running (thinking, pondering or analysing).
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// The opponent as announced by the interface.
    pub fn opponent(&self) -> &Opponent {
        &self.opponent
    }

    /// True while in edit mode.
    pub fn is_editing(&self) -> bool {
        self.edit.is_some()
    }

    /// Handles one event; tells whether to go on.
    pub fn handle_event(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Line(line) => {
                self.out.log_input(&line);
                self.handle_line(&line)
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
            Command::Variant(name) => {
                if name != "normal" {
                    self.error("unsupported variant", line);
                }
            }
            Command::Quit => {
                self.abort_search();
                return Flow::Quit;
            }
            Command::Random => self.settings.random = !self.settings.random,
            Command::Force => {
                self.abort_search();
                self.mode = Mode::Force;
            }
            Command::Go => self.go(),
            Command::PlayOther => {
                self.abort_search();
                self.mode = Mode::Playing {
                    engine: !self.game.side_to_move(),
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
                if self.game.side_to_move() != to_move {
                    match self.game.set_side_to_move(to_move) {
                        Ok(()) => self.position_changed(),
                        Err(err) => self.error(&format!("illegal position: {err}"), line),
                    }
                }
                self.mode = Mode::Playing { engine };
            }
            Command::Level(level) => self.clock.set_control(TimeControl::Level(level)),
            Command::St(time) => self.clock.set_control(TimeControl::PerMove(time)),
            Command::Sd(depth) => self.depth_limit = Some(depth.clamp(1, MAX_PLY as u32 - 1)),
            Command::Nps(rate) => self.nps = (rate > 0).then_some(rate),
            Command::Time(centis) => self.clock.set_engine_centis(centis),
            Command::Otim(centis) => self.clock.set_opponent_centis(centis),
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => self.move_now(),
            Command::Ping(n) => {
                if self.is_thinking() {
                    self.pending_pongs.push(n);
                } else {
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
                self.edit = Some(EditBoard::from_fen(&self.game.position().to_fen()));
            }
            Command::Hint => self.hint(),
            Command::Bk => {
                self.out
                    .line(" Betacut has no opening book: no book moves here.");
                self.out.line("");
            }
            Command::Undo => self.undo(1, line),
            Command::Remove => self.undo(2, line),
            Command::Hard => {
                self.settings.ponder = true;
                self.start_ponder_if_due();
            }
            Command::Easy => self.set_ponder_off(),
            Command::Post => self.post.store(true, Ordering::Relaxed),
            Command::NoPost => self.post.store(false, Ordering::Relaxed),
            Command::Analyze => {
                self.abort_search();
                self.mode = Mode::Analyzing;
                self.start_due_search();
            }
            Command::Exit => {
                if self.mode == Mode::Analyzing {
                    self.abort_search();
                    self.mode = Mode::Force;
                } else {
                    self.error("not analyzing", line);
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
            Command::Memory(mb) => self.set_hash(mb.clamp(1, MAX_HASH_MB as u64) as usize),
            Command::Cores(n) => {
                self.settings.threads = n.clamp(1, MAX_THREADS as u64) as usize;
                self.apply_settings_if_idle();
            }
            Command::EgtPath { .. } | Command::SetScore { .. } | Command::Highlight(_) => {}
            Command::Option { name, value } => self.set_option(&name, value.as_deref(), line),
            Command::Exclude(selection) => self.exclude(selection, true, line),
            Command::Include(selection) => self.exclude(selection, false, line),
            Command::Uci => self.error("unsupported protocol", line),
        }
        Flow::Continue
    }

    // ----- game and mode changes -----

    fn new_game(&mut self) {
        self.abort_search();
        self.game = Game::default();
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
        self.settings.random = false;
        self.clear_pending = true;
        self.last_score = None;
        self.hint = None;
        self.last_stat = None;
        self.opponent = Opponent::default();
        self.apply_settings_if_idle();
        self.start_due_search();
    }

    fn go(&mut self) {
        if self.is_thinking() {
            return;
        }
        self.abort_search();
        self.mode = Mode::Playing {
            engine: self.game.side_to_move(),
        };
        self.start_due_search();
    }

    /// Forgets everything tied to the previous position.
    fn position_changed(&mut self) {
        self.excluded.clear();
        self.finished_ponder = None;
    }

    fn set_board(&mut self, fen: &str) {
        match Game::from_fen(fen) {
            Ok(game) if game.position().is_chess960() => {
                self.out.line(
                    "tellusererror Illegal position: Chess960 castling rights in variant normal",
                );
            }
            Ok(game) => {
                self.abort_search();
                self.game = game;
                self.position_changed();
                self.start_due_search();
            }
            Err(err) => self
                .out
                .line(&format!("tellusererror Illegal position: {err}")),
        }
    }

    fn finish_edit(&mut self) {
        let Some(board) = self.edit.take() else {
            return;
        };
        let fen = board.to_fen();
        match Game::from_fen(&fen) {
            Ok(game) => {
                self.game = game;
                self.position_changed();
            }
            Err(err) => self
                .out
                .line(&format!("tellusererror Illegal position: {err}")),
        }
        self.start_due_search();
    }

    fn undo(&mut self, plies: usize, line: &str) {
        if self.game.moves().len() < plies {
            self.error("no move to undo", line);
            return;
        }
        let was_thinking = self.is_thinking();
        self.abort_search();
        for _ in 0..plies {
            self.game.undo();
        }
        self.position_changed();
        // `undo` only restarts analysis; `remove` keeps playing the same colour, so a search
        // that `remove` interrupted starts again.
        if self.mode == Mode::Analyzing || (plies == 2 && was_thinking) {
            self.start_due_search();
        }
    }

    fn user_move(&mut self, text: &str) {
        let mv = match self.game.parse_move(text) {
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
                self.game.play(mv);
                self.position_changed();
                self.start_due_search();
            }
            Mode::Playing { engine } => {
                if engine == self.game.side_to_move() {
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
        let hit = matches!(
            self.running.as_ref().map(RunningSearch::kind),
            Some(SearchKind::Ponder { expected }) if expected == mv
        ) && !self.paused;
        if hit {
            self.game.play(mv);
            self.position_changed();
            if let Some(run) = self.running.as_mut() {
                run.ponderhit();
            }
            return;
        }
        let finished = self.finished_ponder.take();
        self.abort_search();
        self.game.play(mv);
        self.position_changed();
        match finished {
            Some(done) if done.expected == mv && !self.paused => {
                self.play_think_result(done.result, Duration::ZERO);
            }
            _ => self.start_due_search(),
        }
    }

    fn draw_offered(&mut self) {
        let dead = self.game.end().is_some_and(|end| end.is_draw())
            || self.game.position().has_insufficient_material();
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
        if let Some(run) = self.running.as_ref() {
            if run.kind() == SearchKind::Think {
                self.clock.spend_engine(run.time_used());
            }
        }
        self.abort_search();
        self.paused = true;
    }

    fn set_ponder_off(&mut self) {
        self.settings.ponder = false;
        if matches!(
            self.running.as_ref().map(RunningSearch::kind),
            Some(SearchKind::Ponder { .. })
        ) {
            self.abort_search();
        }
        self.finished_ponder = None;
    }

    fn set_hash(&mut self, mb: usize) {
        self.settings.hash_mb = mb;
        self.apply_settings_if_idle();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        match parse_option(name, value) {
            Ok(OptionSetting::Hash(mb)) => self.set_hash(mb),
            Ok(OptionSetting::Threads(n)) => {
                self.settings.threads = n;
                self.apply_settings_if_idle();
            }
            Ok(OptionSetting::Ponder(true)) => {
                self.settings.ponder = true;
                self.start_ponder_if_due();
            }
            Ok(OptionSetting::Ponder(false)) => self.set_ponder_off(),
            Ok(OptionSetting::MoveOverhead(time)) => self.settings.move_overhead = time,
            Ok(OptionSetting::LogFile(path)) => {
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
                self.excluded = self.game.position().legal_moves().iter().copied().collect();
            }
            MoveSelection::All => self.excluded.clear(),
            MoveSelection::Move(text) => match self.game.parse_move(&text) {
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
        let from_search = match self.running.as_ref() {
            Some(run) => match run.kind() {
                SearchKind::Ponder { expected } => Some(expected),
                SearchKind::Analyze => run.latest_best(),
                SearchKind::Think => None,
            },
            None => None,
        };
        let key = self.game.position().key();
        let stored = self
            .hint
            .filter(|&(k, mv)| k == key && self.game.is_legal(mv))
            .map(|(_, mv)| mv);
        let hint = from_search.or(stored).or_else(|| self.quick_hint());
        if let Some(mv) = hint.filter(|&mv| self.game.is_legal(mv)) {
            self.out
                .line(&format!("Hint: {}", self.game.coordinate(mv)));
        }
    }

    /// A short search for `hint` while nothing else runs.
    fn quick_hint(&mut self) -> Option<Move> {
        if self.running.is_some() || self.game.end().is_some() {
            return None;
        }
        let mut searcher = self.searcher.take()?;
        self.apply_settings(&mut searcher);
        let limits = SearchLimits {
            depth: Some(HINT_SEARCH_DEPTH),
            movetime: Some(HINT_SEARCH_TIME),
            ..SearchLimits::default()
        };
        let control = SearchControl::new(false);
        let result = searcher.search(self.game.position(), &limits, &control, &mut |_| {});
        self.searcher = Some(searcher);
        Some(result.best_move).filter(|mv| !mv.is_none())
    }

    fn status(&self) {
        if let Some(run) = self.running.as_ref() {
            self.out.line(&run.stat01());
        } else if self.mode == Mode::Analyzing {
            let line = self.last_stat.as_deref().unwrap_or("stat01: 0 0 0 0 0");
            self.out.line(line);
        }
    }

    // ----- searches -----

    fn is_thinking(&self) -> bool {
        matches!(
            self.running.as_ref().map(RunningSearch::kind),
            Some(SearchKind::Think)
        )
    }

    /// Starts whatever the current state calls for: analysis, thinking (or the result claim
    /// of a finished game) when the engine is on move, pondering otherwise.
    fn start_due_search(&mut self) {
        if self.paused || self.edit.is_some() || self.running.is_some() {
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
                let root = self.game.position().clone();
                self.start_search(SearchKind::Analyze, root, Vec::new(), limits);
            }
            Mode::Playing { engine } if engine == self.game.side_to_move() => {
                match self.game.end() {
                    Some(end) => self.out.line(end.claim()),
                    None => {
                        let limits = self.think_limits(engine);
                        let root = self.game.position().clone();
                        self.start_search(SearchKind::Think, root, Vec::new(), limits);
                    }
                }
            }
            Mode::Playing { .. } => self.start_ponder_if_due(),
        }
    }

    fn start_ponder_if_due(&mut self) {
        if !self.settings.ponder
            || self.paused
            || self.edit.is_some()
            || self.running.is_some()
            || self.finished_ponder.is_some()
        {
            return;
        }
        let Mode::Playing { engine } = self.mode else {
            return;
        };
        if engine == self.game.side_to_move() || self.game.end().is_some() {
            return;
        }
        let key = self.game.position().key();
        let Some(expected) = self
            .hint
            .filter(|&(k, mv)| k == key && self.game.is_legal(mv))
            .map(|(_, mv)| mv)
        else {
            return;
        };
        let mut after = self.game.clone();
        after.play(expected);
        if after.end().is_some() {
            return;
        }
        let limits = self.think_limits(engine);
        let root = self.game.position().clone();
        self.start_search(
            SearchKind::Ponder { expected },
            root,
            vec![expected],
            limits,
        );
    }

    /// Limits for the engine's next move as `engine`: clock or `st`, `sd`, `nps`, overhead.
    fn think_limits(&self, engine: Color) -> SearchLimits {
        let overhead = if self.nps.is_some() {
            Duration::ZERO
        } else {
            self.settings.move_overhead.max(self.clock.lag())
        };
        let (movetime, clock) = self.clock.limits(self.game.moves_made_by(engine), overhead);
        let nodes = match (self.nps, movetime) {
            (Some(rate), Some(time)) => {
                Some((time.as_secs_f64() * rate as f64).ceil().max(1.0) as u64)
            }
            _ => None,
        };
        SearchLimits {
            depth: self.depth_limit,
            nodes,
            movetime,
            clock,
            move_overhead: overhead,
            nps: self.nps,
            infinite: false,
            excluded: Vec::new(),
        }
    }

    /// Starts a search; `display_root` + `prefix` lead to the searched position.
    fn start_search(
        &mut self,
        kind: SearchKind,
        display_root: Position,
        prefix: Vec<Move>,
        limits: SearchLimits,
    ) {
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        self.apply_settings(&mut searcher);
        let mut position = display_root.clone();
        for &mv in &prefix {
            position.make_move(mv);
        }
        let reporter = Reporter::new(
            self.out.clone(),
            Arc::clone(&self.post),
            display_root,
            prefix,
            limits.nps,
        );
        let id = self.next_search_id;
        self.next_search_id += 1;
        let job = SearchJob {
            id,
            kind,
            position,
            limits,
            reporter,
        };
        self.running = Some(RunningSearch::start(job, searcher, self.events.clone()));
    }

    fn apply_settings(&mut self, searcher: &mut Searcher) {
        let wanted = Applied {
            hash_mb: self.settings.hash_mb,
            threads: self.settings.threads,
            random: self.settings.random,
        };
        if self.applied != Some(wanted) {
            if self.applied.map(|a| a.hash_mb) != Some(wanted.hash_mb)
                || searcher.hash_size() != wanted.hash_mb
            {
                searcher.set_hash_size(wanted.hash_mb);
            }
            searcher.set_threads(wanted.threads);
            searcher.set_random(wanted.random);
            self.applied = Some(wanted);
        }
        if self.clear_pending {
            searcher.clear();
            self.clear_pending = false;
        }
    }

    fn apply_settings_if_idle(&mut self) {
        if let Some(mut searcher) = self.searcher.take() {
            self.apply_settings(&mut searcher);
            self.searcher = Some(searcher);
        }
    }

    /// Stops and forgets the running search (its result is not played).
    fn abort_search(&mut self) {
        if let Some(run) = self.running.take() {
            let was_thinking = run.kind() == SearchKind::Think;
            run.stop();
            self.collect(run);
            if was_thinking {
                self.flush_pongs();
            }
        }
        self.finished_ponder = None;
    }

    /// Joins a stopped or finished search and takes its searcher back.
    fn collect(&mut self, run: RunningSearch) -> SearchResult {
        let hash_mb = self.settings.hash_mb;
        let (searcher, result) = run.finish();
        if searcher.hash_size() != hash_mb {
            self.applied = None;
        }
        self.searcher = Some(searcher);
        result
    }

    fn move_now(&mut self) {
        if self.is_thinking() {
            if let Some(run) = self.running.take() {
                run.stop();
                self.complete_think(run);
            }
        }
    }

    /// Input ended: a move being thought about is still played, then the engine stops.
    fn finish_thinking(&mut self) {
        if self.is_thinking() {
            if let Some(run) = self.running.take() {
                self.complete_think(run);
            }
        }
        self.abort_search();
    }

    fn search_done(&mut self, id: u64) {
        if self.running.as_ref().map(RunningSearch::id) != Some(id) {
            return; // a search that was already collected
        }
        let Some(run) = self.running.take() else {
            return;
        };
        match run.kind() {
            SearchKind::Think => self.complete_think(run),
            SearchKind::Ponder { expected } => {
                let result = self.collect(run);
                self.finished_ponder = Some(FinishedPonder { expected, result });
            }
            SearchKind::Analyze => {
                self.last_stat = Some(run.stat01());
                self.collect(run);
            }
        }
    }

    fn complete_think(&mut self, run: RunningSearch) {
        let clock_start = run.clock_start();
        let nps = self.nps;
        let result = self.collect(run);
        let used = search_time(clock_start.elapsed(), result.nodes, nps);
        self.play_think_result(result, used);
    }

    /// Plays the engine's move (or, if the search had none, a legal fallback) and follows up:
    /// pongs, result claim, pondering.
    fn play_think_result(&mut self, result: SearchResult, used: Duration) {
        let mut mv = result.best_move;
        if !self.game.is_legal(mv) {
            let fallback = self.game.position().legal_moves().iter().next().copied();
            if let Some(legal) = fallback {
                self.out.comment(&format!(
                    "search returned no legal move, playing {}",
                    self.game.coordinate(legal)
                ));
            }
            mv = fallback.unwrap_or(Move::NONE);
        }
        if mv.is_none() {
            if let Some(end) = self.game.end() {
                self.out.line(end.claim());
            }
            self.flush_pongs();
            return;
        }
        let us = self.game.side_to_move();
        let text = self.game.coordinate(mv);
        self.game.play(mv);
        self.position_changed();
        self.clock.charge_engine(used, self.game.moves_made_by(us));
        self.last_score = Some(result.score);
        self.out.line(&format!("move {text}"));
        self.flush_pongs();
        let key = self.game.position().key();
        self.hint = result
            .ponder_move
            .filter(|&reply| self.game.is_legal(reply))
            .map(|reply| (key, reply));
        match self.game.end() {
            Some(end) => self.out.line(end.claim()),
            None => self.start_ponder_if_due(),
        }
    }

    fn flush_pongs(&mut self) {
        for n in std::mem::take(&mut self.pending_pongs) {
            self.out.line(&format!("pong {n}"));
        }
    }
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
