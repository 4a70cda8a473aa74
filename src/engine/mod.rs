//! The protocol-neutral engine: the game, the options, and the search lifecycle (start, stop,
//! ponder hit, collect the result), with its progress going out as [`EngineEvent`]s through a
//! callback. It knows no protocol text: the XBoard and UCI front-ends in [`crate::protocol`]
//! turn their commands into calls here and the events into their own lines.
//!
//! Invariants: the game position only changes through legal moves or a legal position; at most
//! one search runs; every search is started on a copy of the game position, so the game may
//! go on (a ponder hit) while it runs.

pub mod events;
pub mod game;
pub mod levels;
pub mod memory;
pub mod options;
pub mod running;

pub use events::{CurrentMoveInfo, DoneNotifier, EngineEvent, Listener, SearchInfo};
pub use game::{Game, GameEnd};
pub use options::{OptionError, OptionKind, OptionScope, OptionSpec, OptionValue, OPTIONS};
pub use running::{RunningSearch, SearchKind, SearchRequest};

use crate::board::{Move, MoveParseError, Position};
use crate::book::{BookError, BookMove, BookPlayer};
use crate::eval::nnue::embedded::embedded_network;
use crate::eval::nnue::Network;
use crate::search::{SearchControl, SearchLimits, SearchResult, Searcher};
use crate::tb::search::TbSettings;
use crate::tb::Tablebases;
use options::{DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The engine's name and version as interfaces show it.
pub fn engine_name() -> String {
    format!("Betacut {}", env!("CARGO_PKG_VERSION"))
}

/// True if a playing level applies to `request`: the engine's own move or a ponder search,
/// not analysis, an infinite search, a mate search or a search of chosen root moves.
fn levels_apply(request: &SearchRequest) -> bool {
    request.kind != SearchKind::Analyze
        && !request.limits.infinite
        && request.limits.mate.is_none()
        && request.limits.excluded.is_empty()
}

/// A seed from the clock, different in every process.
fn time_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    mix(nanos ^ u64::from(std::process::id()))
}

/// SplitMix64's finaliser: a well-spread 64-bit value from any input.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The engine's authors as interfaces show them.
pub const ENGINE_AUTHOR: &str = "the Betacut developers";

/// The user's settings (options and their protocol equivalents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Transposition table size asked for, in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Think on the opponent's time (the front-end decides when).
    pub ponder: bool,
    /// Lines to find and show.
    pub multipv: usize,
    /// Time kept back on every move for communication delays.
    pub move_overhead: Duration,
    /// XBoard `random`: a small per-game random offset on evaluations.
    pub random: bool,
    /// Play at the level `elo` sets instead of full strength.
    pub limit_strength: bool,
    /// The playing level when `limit_strength` is on.
    pub elo: u32,
    /// How the Syzygy tables (if any) are probed.
    pub tb: TbSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            ponder: false,
            multipv: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            random: false,
            limit_strength: false,
            elo: levels::DEFAULT_ELO,
            tb: TbSettings::default(),
        }
    }
}

/// The settings last handed to the searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Applied {
    hash_mb: usize,
    threads: usize,
    random: bool,
}

/// What setting an option asks of the front-end (the engine cannot do it itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    /// Nothing more to do.
    Done,
    /// Log every protocol line to this file, or stop logging (`None`).
    LogFile(Option<PathBuf>),
    /// Pondering was switched on or off.
    Ponder(bool),
}

/// A search that has ended, with its result.
#[derive(Clone, Debug)]
pub struct FinishedSearch {
    /// Its id.
    pub id: u64,
    /// What it was for (a ponder search that got its ponder hit is `Think`).
    pub kind: SearchKind,
    /// The result: best move (legal in `position`, or [`Move::NONE`]), expected reply, score.
    pub result: SearchResult,
    /// The position it searched.
    pub position: Position,
    /// Time the engine used on it (since its start or its ponder hit; nodes in `nps` mode).
    pub time_used: Duration,
}

/// The engine: game, settings, searcher and the running search.
pub struct Engine {
    game: Game,
    chess960: bool,
    settings: Settings,
    searcher: Option<Searcher>,
    applied: Option<Applied>,
    clear_pending: bool,
    running: Option<RunningSearch>,
    next_search_id: u64,
    listener: Listener,
    on_done: DoneNotifier,
    book: BookPlayer,
    /// Seed of the playing levels' picks; a new one for every game.
    level_seed: u64,
    /// The running search's id and the level it plays at (with `UCI_LimitStrength`).
    level_of_search: Option<(u64, levels::Level)>,
    /// The network the searcher evaluates with (`None`: the hand-crafted evaluation).
    network: Option<Arc<Network>>,
    /// The network built into the binary, if any (what an empty `EvalFile` returns to).
    builtin_network: Option<Arc<Network>>,
    /// The Syzygy tables of `SyzygyPath` (`egtpath syzygy`), if set.
    tablebases: Option<Arc<Tablebases>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("fen", &self.game.position().to_fen())
            .field("settings", &self.settings)
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.abort();
    }
}

impl Engine {
    /// A new engine at the start position. `listener` receives its events; `on_done` is
    /// called with a search's id when that search ends.
    pub fn new(listener: Listener, on_done: DoneNotifier) -> Engine {
        // A net compiled into the binary was checked by its tests; should it still not parse,
        // the hand-crafted evaluation plays.
        let builtin = embedded_network().ok().flatten();
        Engine {
            game: Game::default(),
            chess960: false,
            settings: Settings::default(),
            searcher: Some(Searcher::new(DEFAULT_HASH_MB)),
            applied: None,
            clear_pending: false,
            running: None,
            next_search_id: 1,
            listener,
            on_done,
            book: BookPlayer::new(),
            level_seed: time_seed(),
            level_of_search: None,
            tablebases: None,
            network: builtin.clone(),
            builtin_network: builtin,
        }
    }

    // ----- game -----

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// True while the game is Chess960.
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Plays Chess960 or standard chess from now on (castling notation follows).
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
        self.game.set_chess960(chess960);
    }

    /// Replaces the game (a new position set up by the interface); the running search is
    /// aborted.
    pub fn set_game(&mut self, mut game: Game) {
        self.abort();
        game.set_chess960(self.chess960);
        self.game = game;
    }

    /// A new game from the start position: aborts the search and forgets what was learnt
    /// (table and histories) before the next search.
    pub fn new_game(&mut self) {
        self.abort();
        let mut game = Game::default();
        game.set_chess960(self.chess960);
        self.game = game;
        self.clear_pending = true;
        self.level_seed = mix(self.level_seed);
        self.apply_if_idle();
    }

    /// Seeds the playing levels' picks (for reproducible games and tests); every new game
    /// derives its own seed from it.
    pub fn seed_levels(&mut self, seed: u64) {
        self.level_seed = seed;
    }

    /// Parses `text` (coordinates or SAN) as a legal move in the game position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.game.parse_move(text)
    }

    /// Plays a legal move in the game (refused with `false` if it is not legal). A running
    /// search goes on, on its own copy.
    pub fn play(&mut self, mv: Move) -> bool {
        self.game.play(mv)
    }

    /// Takes back the game's last move.
    pub fn undo(&mut self) -> Option<Move> {
        self.game.undo()
    }

    /// Mutable access for the front-end's own game edits (e.g. the side to move).
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    // ----- settings -----

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets the option `name` from its text `value` (see [`options::parse_option`]).
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionEffect, OptionError> {
        let value = options::parse_option(name, value)?;
        if let OptionValue::BookFile(path) = &value {
            self.book
                .set_file(path.as_deref())
                .map_err(|err| OptionError::Unusable {
                    name: options::BOOK_FILE,
                    reason: format!("{err}; playing without a book"),
                })?;
            return Ok(OptionEffect::Done);
        }
        if let OptionValue::EvalFile(path) = &value {
            self.set_eval_file(path.as_deref())
                .map_err(|reason| OptionError::Unusable {
                    name: options::EVAL_FILE,
                    reason,
                })?;
            return Ok(OptionEffect::Done);
        }
        Ok(self.apply_option(value))
    }

    /// Evaluates with the network in `path`, or with the built-in evaluation (the embedded
    /// network, if the binary has one, else the hand-crafted one) when `None`, from the next
    /// search on. A file that cannot be read or is no valid network is refused with the
    /// reason, and the evaluation in use stays.
    pub fn set_eval_file(&mut self, path: Option<&std::path::Path>) -> Result<(), String> {
        self.network = match path {
            Some(path) => Some(Arc::new(
                Network::load(path).map_err(|e| format!("{e}; the evaluation in use stays"))?,
            )),
            None => self.builtin_network.clone(),
        };
        Ok(())
    }

    /// The name of the evaluation in use: `hand-crafted`, or the network's description.
    pub fn evaluation_name(&self) -> String {
        match &self.network {
            Some(net) => format!("network ({} hidden units)", net.hidden()),
            None => "hand-crafted".to_string(),
        }
    }

    /// Applies a parsed option value. Table and thread changes take effect now if no search
    /// runs, else when the running search is collected.
    pub fn apply_option(&mut self, value: OptionValue) -> OptionEffect {
        match value {
            OptionValue::Hash(mb) => self.settings.hash_mb = mb.clamp(1, options::MAX_HASH_MB),
            OptionValue::Threads(n) => self.settings.threads = n.clamp(1, options::MAX_THREADS),
            OptionValue::Ponder(on) => {
                self.settings.ponder = on;
                return OptionEffect::Ponder(on);
            }
            OptionValue::MultiPv(n) => self.settings.multipv = n.clamp(1, options::MAX_MULTIPV),
            OptionValue::Chess960(on) => self.set_chess960(on),
            OptionValue::MoveOverhead(time) => self.settings.move_overhead = time,
            OptionValue::ClearHash => self.clear_pending = true,
            OptionValue::LogFile(path) => return OptionEffect::LogFile(path),
            OptionValue::OwnBook(on) => self.book.set_enabled(on),
            OptionValue::BookFile(path) => {
                if let Err(err) = self.book.set_file(path.as_deref()) {
                    self.say(&format!("{err}; playing without a book"));
                }
            }
            OptionValue::BookBestMove(on) => self.book.set_best_only(on),
            OptionValue::EvalFile(path) => {
                if let Err(reason) = self.set_eval_file(path.as_deref()) {
                    self.say(&reason);
                }
            }
            OptionValue::LimitStrength(on) => self.settings.limit_strength = on,
            OptionValue::Elo(elo) => {
                self.settings.elo = elo.clamp(levels::MIN_ELO, levels::MAX_ELO);
            }
            OptionValue::SyzygyPath(path) => self.set_syzygy_path(path.as_deref()),
            OptionValue::Syzygy50MoveRule(on) => self.settings.tb.rule50 = on,
            OptionValue::SyzygyProbeDepth(depth) => self.settings.tb.probe_depth = depth,
            OptionValue::SyzygyProbeLimit(pieces) => self.settings.tb.probe_limit = pieces,
        }
        self.apply_if_idle();
        OptionEffect::Done
    }

    /// Uses the Syzygy tables in `paths` (folders separated by `:`, `;` on Windows), or none.
    /// Says what was found; a folder that cannot be read is said too, and with no readable
    /// folder the engine plays on without tables. Applies from the next search.
    pub fn set_syzygy_path(&mut self, paths: Option<&str>) {
        let paths = paths.map(str::trim).filter(|p| !p.is_empty());
        self.tablebases = None;
        if let Some(paths) = paths {
            match Tablebases::open(paths) {
                Ok(tables) => {
                    for problem in tables.problems() {
                        self.say(&format!("Syzygy: {problem}"));
                    }
                    let (wdl, dtz) = tables.file_counts();
                    self.say(&format!(
                        "Syzygy: {wdl} WDL and {dtz} DTZ tables, up to {} pieces, in {paths}",
                        tables.max_pieces()
                    ));
                    self.tablebases = Some(Arc::new(tables));
                }
                Err(e) => self.say(&format!("Syzygy: {e}; playing without tablebases")),
            }
        }
        self.apply_if_idle();
    }

    /// The Syzygy tables in use, if any.
    pub fn tablebases(&self) -> Option<&Tablebases> {
        self.tablebases.as_deref()
    }

    /// XBoard `random`: evaluation noise on or off.
    pub fn set_random(&mut self, random: bool) {
        self.settings.random = random;
        self.apply_if_idle();
    }

    /// The hash table size in MiB the searcher actually holds (may be less than asked for when
    /// the machine cannot give it; `None` while a search runs).
    pub fn hash_size(&self) -> Option<usize> {
        self.searcher.as_ref().map(Searcher::hash_size)
    }

    fn say(&self, message: &str) {
        (self.listener)(&EngineEvent::Message(message));
    }

    fn apply_if_idle(&mut self) {
        if let Some(mut searcher) = self.searcher.take() {
            self.apply_settings(&mut searcher);
            self.searcher = Some(searcher);
        }
    }

    /// Hands the settings to `searcher` (resizing the table only when its size was changed).
    fn apply_settings(&mut self, searcher: &mut Searcher) {
        let wanted = Applied {
            hash_mb: self.settings.hash_mb,
            threads: self.settings.threads,
            random: self.settings.random,
        };
        if self.applied != Some(wanted) {
            if self.applied.map(|a| a.hash_mb) != Some(wanted.hash_mb) {
                self.resize_table(searcher, wanted.hash_mb);
            }
            searcher.set_threads(wanted.threads);
            searcher.set_random(wanted.random);
            self.applied = Some(wanted);
        }
        if self.clear_pending {
            searcher.clear();
            self.clear_pending = false;
        }
        searcher.set_tablebases(self.tablebases.clone(), self.settings.tb);
    }

    /// Gives `searcher` a table of `wanted` MiB, or the largest that fits: at most half the
    /// memory the machine has available, then halved until the allocation succeeds. Says so
    /// when the table is smaller than asked.
    fn resize_table(&self, searcher: &mut Searcher, wanted: usize) {
        let current = searcher.hash_size();
        let mut size = memory::hash_cap_mb(wanted, memory::available_mb(), current);
        while searcher.set_hash_size(size).is_err() && size > 1 {
            size /= 2;
        }
        let got = searcher.hash_size();
        if got < wanted {
            self.say(&format!(
                "Hash {wanted} MB does not fit in the memory available; using {got} MB"
            ));
        }
    }

    // ----- searches -----

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

    /// Starts a search of the game position (after `request.prefix`) and returns its id. A
    /// search already running is aborted first (its result is dropped). The MultiPV setting
    /// applies unless the request asks for a count itself.
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
        if request.limits.multipv == 0 {
            request.limits.multipv = self.settings.multipv;
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
        if self.settings.limit_strength && levels_apply(&request) {
            let level = levels::Level::from_elo(self.settings.elo);
            request.limits.multipv = request.limits.multipv.max(level.lines);
            request.limits.nodes = Some(
                request
                    .limits
                    .nodes
                    .map_or(level.nodes, |n| n.min(level.nodes)),
            );
            self.level_of_search = Some((id, level));
        }
        self.running = Some(RunningSearch::start(
            id,
            request,
            self.game.position(),
            searcher,
            self.listener.clone(),
            self.on_done.clone(),
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

    fn collect(&mut self, run: RunningSearch) -> FinishedSearch {
        let id = run.id();
        let kind = run.kind();
        let time_used = run.time_used();
        let position = run.position().clone();
        let (mut searcher, mut result) = run.finish();
        if let Some((_, level)) = self.level_of_search.filter(|&(lid, _)| lid == id) {
            if kind == SearchKind::Think {
                let seed = self.level_seed ^ position.key();
                if let Some(mv) = level.choose(&result.lines, seed) {
                    if mv != result.best_move {
                        result.score = result
                            .lines
                            .iter()
                            .find(|&&(m, _)| m == mv)
                            .map_or(result.score, |&(_, s)| s);
                        result.best_move = mv;
                        result.ponder_move = None;
                        result.pv = vec![mv];
                    }
                }
            }
        }
        if searcher.hash_size() != self.applied.map_or(0, |a| a.hash_mb)
            && self.settings.hash_mb != self.applied.map_or(0, |a| a.hash_mb)
        {
            self.applied = None;
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

    /// The network a search for `request` evaluates with: the engine's, except at a playing
    /// level, which keeps the hand-crafted evaluation it was calibrated with (`None`), so that
    /// a level plays at the strength its Elo says whichever network is loaded.
    fn network_for(&self, request: &SearchRequest) -> Option<Arc<Network>> {
        if self.settings.limit_strength && levels_apply(request) {
            None
        } else {
            self.network.clone()
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
        })
    }

    // ----- book -----

    /// True while `OwnBook` is on.
    pub fn book_enabled(&self) -> bool {
        self.book.is_enabled()
    }

    /// The file of the open book, if one is open.
    pub fn book_path(&self) -> Option<&std::path::Path> {
        self.book.path()
    }

    /// The book moves of the game position that are legal, in book order (none without a
    /// book). A read error closes the book.
    pub fn book_moves(&mut self) -> Result<Vec<BookMove>, BookError> {
        self.book.moves(self.game.position())
    }

    /// Seeds the book's weighted random pick (for reproducible games and tests).
    pub fn seed_book(&mut self, seed: u64) {
        self.book.seed(seed);
    }

    /// A short synchronous search of the game position with `limits` (no events), when no
    /// other search runs; `None` otherwise.
    pub fn quick_search(&mut self, limits: &SearchLimits) -> Option<SearchResult> {
        if self.running.is_some() {
            return None;
        }
        let mut searcher = self.searcher.take()?;
        self.apply_settings(&mut searcher);
        let control = SearchControl::new(false);
        let result = searcher.search(self.game.position(), limits, &control, &mut |_| {});
        self.searcher = Some(searcher);
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};

    fn engine() -> (Engine, mpsc::Receiver<u64>, Arc<Mutex<Vec<String>>>) {
        let (done_tx, done_rx) = mpsc::channel();
        let done_tx = Mutex::new(done_tx);
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        let listener: Listener = Arc::new(move |event: &EngineEvent| {
            let text = match event {
                EngineEvent::Info(info) => format!(
                    "info {} {} {:?}",
                    info.report.depth, info.report.multipv, info.report.bound
                ),
                EngineEvent::CurrentMove(_) => "currmove".to_string(),
                EngineEvent::Message(m) => format!("message {m}"),
            };
            if let Ok(mut log) = sink.lock() {
                log.push(text);
            }
        });
        let on_done: DoneNotifier = Arc::new(move |id| {
            if let Ok(tx) = done_tx.lock() {
                let _ = tx.send(id);
            }
        });
        (Engine::new(listener, on_done), done_rx, log)
    }

    #[test]
    fn a_search_reports_lines_and_its_result_comes_back() {
        let (mut engine, done, log) = engine();
        engine.apply_option(OptionValue::MultiPv(3));
        let id = engine.start(SearchRequest {
            kind: SearchKind::Think,
            limits: SearchLimits::depth(6),
            prefix: Vec::new(),
        });
        assert_eq!(
            done.recv_timeout(Duration::from_secs(60)).ok(),
            Some(id),
            "done notice"
        );
        let Some(finished) = engine.finish(id) else {
            panic!("the search is collected");
        };
        assert!(engine
            .position()
            .legal_moves()
            .contains(finished.result.best_move));
        let lines = log.lock().map(|l| l.clone()).unwrap_or_default();
        for k in 1..=3 {
            assert!(
                lines.contains(&format!("info 6 {k} Exact")),
                "line {k} at depth 6: {lines:?}"
            );
        }
        assert!(engine.finish(id).is_none(), "collected once");
    }

    /// Runs a search of the game position to `depth` and returns the move it chose, checked
    /// to be legal.
    fn search_move(
        engine: &mut Engine,
        done: &mpsc::Receiver<u64>,
        kind: SearchKind,
        depth: u32,
    ) -> Move {
        let id = engine.start(SearchRequest {
            kind,
            limits: SearchLimits::depth(depth),
            prefix: Vec::new(),
        });
        assert_eq!(done.recv_timeout(Duration::from_secs(60)).ok(), Some(id));
        let mv = engine.finish(id).map_or(Move::NONE, |f| f.result.best_move);
        assert!(engine.position().legal_moves().contains(mv));
        mv
    }

    #[test]
    fn an_infinite_search_waits_for_stop() {
        let (mut engine, done, _) = engine();
        let pos = Position::from_fen("7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
        let Ok(pos) = pos else {
            panic!("valid FEN");
        };
        engine.set_game(Game::new(pos));
        let id = engine.start(SearchRequest {
            kind: SearchKind::Analyze,
            limits: SearchLimits {
                depth: Some(3),
                ..SearchLimits::infinite()
            },
            prefix: Vec::new(),
        });
        // Depth 3 is done in a moment, but an infinite search ends only when stopped.
        assert!(done.recv_timeout(Duration::from_millis(300)).is_err());
        engine.stop();
        assert_eq!(done.recv_timeout(Duration::from_secs(10)).ok(), Some(id));
        assert!(engine.finish(id).is_some());
    }

    #[test]
    fn a_level_plays_the_same_move_with_the_same_seed_and_varies_with_it() {
        let play = |seed: u64| -> Move {
            let (mut engine, done, _) = engine();
            engine.apply_option(OptionValue::LimitStrength(true));
            engine.apply_option(OptionValue::Elo(1000));
            engine.seed_levels(seed);
            search_move(&mut engine, &done, SearchKind::Think, 12)
        };
        assert_eq!(play(11), play(11));
        let moves: std::collections::HashSet<Move> = (0..12).map(play).collect();
        assert!(
            moves.len() > 1,
            "different seeds, different moves: {moves:?}"
        );
    }

    #[test]
    fn levels_search_with_the_hand_crafted_evaluation_they_were_calibrated_on() {
        let (mut engine, done, _) = engine();
        let net = Arc::new(crate::eval::nnue::network::tests::random_network(32, 6));
        engine.network = Some(Arc::clone(&net));
        let request = |kind: SearchKind| SearchRequest {
            kind,
            limits: SearchLimits::depth(4),
            prefix: Vec::new(),
        };
        let uses_net = |engine: &Engine, kind: SearchKind| {
            engine
                .network_for(&request(kind))
                .is_some_and(|n| Arc::ptr_eq(&n, &net))
        };
        assert!(uses_net(&engine, SearchKind::Think));
        engine.apply_option(OptionValue::LimitStrength(true));
        assert!(!uses_net(&engine, SearchKind::Think));
        assert!(engine.network_for(&request(SearchKind::Ponder)).is_none());
        // Analysis is never weakened: it keeps the network.
        assert!(uses_net(&engine, SearchKind::Analyze));
        // A level's search with a network loaded plays a legal move, and the network stays
        // the engine's evaluation.
        search_move(&mut engine, &done, SearchKind::Think, 4);
        assert_eq!(engine.evaluation_name(), "network (32 hidden units)");
        engine.apply_option(OptionValue::LimitStrength(false));
        assert!(uses_net(&engine, SearchKind::Think));
    }

    #[test]
    fn an_eval_file_is_loaded_checked_and_dropped_again() {
        let (mut engine, done, _) = engine();
        // The built-in evaluation: the embedded network if the binary has one.
        let builtin = engine.evaluation_name();
        match crate::eval::nnue::embedded::EMBEDDED_NET {
            Some(_) => assert!(builtin.starts_with("network ("), "{builtin}"),
            None => assert_eq!(builtin, "hand-crafted"),
        }
        let missing = std::path::Path::new("/nonexistent/betacut-net.bin");
        let refused = engine.set_option("EvalFile", Some("/nonexistent/betacut-net.bin"));
        assert!(
            matches!(refused, Err(OptionError::Unusable { .. })),
            "{refused:?}"
        );
        assert!(engine.set_eval_file(Some(missing)).is_err());
        assert_eq!(engine.evaluation_name(), builtin);
        let path = std::env::temp_dir().join(format!("betacut-net-{}.bin", std::process::id()));
        let net = crate::eval::nnue::network::tests::random_network(32, 5);
        assert!(std::fs::write(&path, net.to_bytes()).is_ok());
        let loaded = engine.set_option("EvalFile", path.to_str());
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, Ok(OptionEffect::Done));
        assert_eq!(engine.evaluation_name(), "network (32 hidden units)");
        search_move(&mut engine, &done, SearchKind::Think, 5);
        assert_eq!(
            engine.set_option("EvalFile", Some("")),
            Ok(OptionEffect::Done)
        );
        assert_eq!(engine.evaluation_name(), builtin);
    }
}
