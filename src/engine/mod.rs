//! The protocol-neutral engine: the game, the settings and the resources they load, and the
//! search lifecycle (start, stop, ponder hit, collect the result), with its progress going out
//! as [`EngineEvent`]s through a callback. It knows no protocol text: the XBoard and UCI
//! front-ends in [`crate::protocol`] turn their commands into calls here and the events into
//! their own lines, and take every type they need from here.
//!
//! Invariants: the game position only changes through legal moves or a legal position; at most
//! one search runs; every search is started on a copy of the game position, so the game may
//! go on (a ponder hit) while it runs; a collected search names a legal move whenever its
//! position has one.
//!
//! Files: [`lifecycle`] (searches), [`settings`] (options, table, threads, book, network,
//! tablebases), [`levels`] (playing levels), [`running`] (a search on its thread),
//! [`search_thread`] (that thread, kept from search to search), [`events`] (what goes out),
//! [`game`], [`options`] (the option table), [`memory`] (what the machine can give the table).

pub mod developer;
pub mod events;
pub mod game;
pub mod levels;
pub mod lifecycle;
pub mod memory;
pub mod options;
pub mod running;
pub mod search_thread;
pub mod settings;

pub use events::{
    CurrentMoveInfo, DoneNotifier, EngineEvent, Listener, ScoreView, SearchInfo, SearchKind,
};
pub use game::{Game, GameEnd};
pub use lifecycle::{time_budget, FinishedSearch};
pub use options::{OptionError, OptionKind, OptionScope, OptionSpec, OptionValue, OPTIONS};
pub use running::{RunningSearch, SearchRequest};
pub use settings::{OptionEffect, Settings};
// The vocabulary of search requests and results, as the front-ends use it.
pub use crate::search::bench::{BenchSummary, DEFAULT_BENCH_DEPTH as BENCH_DEPTH};
pub use crate::search::time::TimeBudget;
pub use crate::search::wdl::Wdl;
pub use crate::search::{Bound, Clock, RootMoveReport, SearchLimits, SearchReport, SearchResult};

use crate::board::{Move, MoveParseError, Position};
use crate::book::{BookError, BookPlayer};
use crate::eval::nnue::embedded::embedded_network;
use crate::eval::nnue::Network;
use crate::search::score::MAX_PLY;
use crate::search::Searcher;
use crate::tb::Tablebases;
use options::DEFAULT_HASH_MB;
use search_thread::SearchThread;
use settings::{Applied, Evaluation};
use std::sync::Arc;
use std::time::Instant;

/// The deepest iteration a search can be asked for (XBoard `sd`, UCI `go depth`).
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 2;

/// The engine's name and version as interfaces show it; a build with features switched off
/// for measurement (`ablation`) says so.
pub fn engine_name() -> String {
    let version = env!("CARGO_PKG_VERSION");
    match crate::search::ablation::description() {
        Some(ablated) => format!("Betacut {version} (ablated: {ablated})"),
        None => format!("Betacut {version}"),
    }
}

/// The engine's authors as interfaces show them.
pub const ENGINE_AUTHOR: &str = "the Betacut developers";

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

/// The engine: game, settings, searcher and the running search.
pub struct Engine {
    game: Game,
    chess960: bool,
    settings: Settings,
    /// The searcher while no search holds it.
    searcher: Option<Searcher>,
    applied: Option<Applied>,
    clear_pending: bool,
    running: Option<RunningSearch>,
    /// The thread searches run on (kept from search to search).
    search_thread: SearchThread,
    /// When the command being handled was read (see [`Engine::set_command_time`]).
    command_read_at: Option<Instant>,
    next_search_id: u64,
    listener: Listener,
    on_done: DoneNotifier,
    book: BookPlayer,
    /// Seed of the playing levels' picks; a new one for every game.
    level_seed: u64,
    /// The running search's id and the level it plays at (with `UCI_LimitStrength`).
    level_of_search: Option<(u64, levels::Level)>,
    /// The evaluation searches use (`EvalFile`, or the built-in one).
    evaluation: Evaluation,
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
            search_thread: SearchThread::default(),
            command_read_at: None,
            next_search_id: 1,
            listener,
            on_done,
            book: BookPlayer::new(),
            level_seed: time_seed(),
            level_of_search: None,
            tablebases: None,
            evaluation: Evaluation {
                network: builtin.clone(),
                file: None,
            },
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
        self.start_threads();
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

    // ----- book -----

    /// The book's moves for the game position as lines of text for the user (XBoard `bk`):
    /// each move with its weight and share, or why there are none. A read error closes the
    /// book and is said.
    pub fn book_listing(&mut self) -> Vec<String> {
        let open = self.book.path().is_some();
        let moves: Result<_, BookError> = self.book.moves(self.game.position());
        crate::book::player::listing(self.game.position(), open, self.book.is_enabled(), moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

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
        assert_eq!(
            engine.apply_option(OptionValue::MultiPv(3)),
            Ok(OptionEffect::Done)
        );
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
    fn searches_run_one_after_another_on_one_kept_thread() {
        let threads = Arc::new(Mutex::new(std::collections::HashSet::new()));
        let seen = Arc::clone(&threads);
        let listener: Listener = Arc::new(move |_: &EngineEvent| {
            if let Ok(mut seen) = seen.lock() {
                seen.insert(std::thread::current().id());
            }
        });
        let (done_tx, done) = mpsc::channel();
        let done_tx = Mutex::new(done_tx);
        let on_done: DoneNotifier = Arc::new(move |id| {
            if let Ok(tx) = done_tx.lock() {
                let _ = tx.send(id);
            }
        });
        let mut engine = Engine::new(listener, on_done);
        for round in 0..4 {
            let limits = if round % 2 == 0 {
                SearchLimits::depth(3)
            } else {
                SearchLimits::movetime(Duration::from_millis(20))
            };
            let id = engine.start(SearchRequest {
                kind: SearchKind::Think,
                limits,
                prefix: Vec::new(),
            });
            assert_eq!(done.recv_timeout(Duration::from_secs(60)).ok(), Some(id));
            let finished = engine.running().is_some_and(RunningSearch::is_finished);
            assert!(finished, "the result is there before the done notice");
            assert!(engine.finish(id).is_some());
        }
        let threads = threads.lock().map(|t| t.clone()).unwrap_or_default();
        assert_eq!(threads.len(), 1, "one search thread: {threads:?}");
        assert!(!threads.contains(&std::thread::current().id()));
    }

    #[test]
    fn a_search_is_timed_from_when_its_command_was_read() {
        let (mut engine, done, _) = engine();
        let Some(read_at) = Instant::now().checked_sub(Duration::from_millis(200)) else {
            return;
        };
        engine.set_command_time(Some(read_at));
        let id = engine.start(SearchRequest {
            kind: SearchKind::Analyze,
            limits: SearchLimits::infinite(),
            prefix: Vec::new(),
        });
        engine.set_command_time(None);
        let times = engine.running().map(|r| (r.time_used(), r.elapsed()));
        let ms200 = Duration::from_millis(200);
        assert!(
            times.is_some_and(|(used, elapsed)| used >= ms200 && elapsed >= ms200),
            "{times:?}"
        );
        engine.stop();
        assert_eq!(done.recv_timeout(Duration::from_secs(10)).ok(), Some(id));
        assert!(engine.finish(id).is_some_and(|f| f.time_used >= ms200));
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
            assert!(engine
                .apply_option(OptionValue::LimitStrength(true))
                .is_ok());
            assert!(engine.apply_option(OptionValue::Elo(1000)).is_ok());
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
        engine.evaluation.network = Some(Arc::clone(&net));
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
        assert!(engine
            .apply_option(OptionValue::LimitStrength(true))
            .is_ok());
        assert!(!uses_net(&engine, SearchKind::Think));
        assert!(engine.network_for(&request(SearchKind::Ponder)).is_none());
        // Analysis is never weakened: it keeps the network.
        assert!(uses_net(&engine, SearchKind::Analyze));
        // A level's search with a network loaded plays a legal move, and the network stays
        // the engine's evaluation.
        search_move(&mut engine, &done, SearchKind::Think, 4);
        assert!(Arc::ptr_eq(
            engine.evaluation.network.as_ref().unwrap_or(&net),
            &net
        ));
        assert!(engine
            .apply_option(OptionValue::LimitStrength(false))
            .is_ok());
        assert!(uses_net(&engine, SearchKind::Think));
    }

    #[test]
    fn an_eval_file_is_loaded_checked_and_dropped_again() {
        let (mut engine, done, _) = engine();
        // The built-in evaluation: the embedded network if the binary has one.
        let builtin = engine.evaluation_name();
        match crate::eval::nnue::embedded::EMBEDDED_NET {
            Some(_) => assert!(builtin.starts_with("built-in network ("), "{builtin}"),
            None => assert_eq!(builtin, "hand-crafted"),
        }
        let missing = std::path::Path::new("/nonexistent/betacut-net.bin");
        let refused = engine.set_option("EvalFile", Some("/nonexistent/betacut-net.bin"));
        assert!(
            matches!(refused, Err(OptionError::Unusable { .. })),
            "{refused:?}"
        );
        assert!(engine
            .apply_option(OptionValue::EvalFile(Some(missing.to_path_buf())))
            .is_err());
        assert_eq!(engine.evaluation_name(), builtin);
        let path = std::env::temp_dir().join(format!("betacut-net-{}.bin", std::process::id()));
        let net = crate::eval::nnue::network::tests::random_network(32, 5);
        assert!(std::fs::write(&path, net.to_bytes()).is_ok());
        let loaded = engine.set_option("EvalFile", path.to_str());
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, Ok(OptionEffect::Done));
        assert_eq!(
            engine.evaluation_name(),
            format!("network {} (768x2 -> 32 -> 1)", path.display())
        );
        search_move(&mut engine, &done, SearchKind::Think, 5);
        assert_eq!(
            engine.set_option("EvalFile", Some("")),
            Ok(OptionEffect::Done)
        );
        assert_eq!(engine.evaluation_name(), builtin);
    }
}
