//! The engine's settings and the resources they load: options in, applied to the searcher
//! (table size, threads, evaluation noise) when no search runs, and the files some of them
//! name (opening book, network, tablebases), each loaded in one place.

use super::events::EngineEvent;
use super::levels;
use super::memory;
use super::options::{self, OptionError, OptionValue, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS};
use super::Engine;
use crate::eval::nnue::Network;
use crate::search::tablebases::TbSettings;
use crate::search::Searcher;
use crate::tb::Tablebases;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

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
    /// Show win/draw/loss chances with the scores (`UCI_ShowWDL`).
    pub show_wdl: bool,
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
            show_wdl: false,
            tb: TbSettings::default(),
        }
    }
}

/// The settings last handed to the searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Applied {
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

/// The evaluation a search uses, and where it came from.
#[derive(Clone, Debug)]
pub(super) struct Evaluation {
    /// The network (`None`: the hand-crafted evaluation).
    pub network: Option<Arc<Network>>,
    /// Where it came from: `None` for the network built into the binary, else the file.
    pub file: Option<PathBuf>,
}

impl Engine {
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
        self.apply_option(options::parse_option(name, value)?)
    }

    /// Applies a parsed option value. Table and thread changes take effect now if no search
    /// runs, else when the running search is collected; files (book, network) are loaded now,
    /// and one that cannot be used is refused with the reason, the previous one staying.
    pub fn apply_option(&mut self, value: OptionValue) -> Result<OptionEffect, OptionError> {
        match value {
            OptionValue::Hash(mb) => self.settings.hash_mb = mb.clamp(1, options::MAX_HASH_MB),
            OptionValue::Threads(n) => self.settings.threads = n.clamp(1, options::MAX_THREADS),
            OptionValue::Ponder(on) => {
                self.settings.ponder = on;
                return Ok(OptionEffect::Ponder(on));
            }
            OptionValue::MultiPv(n) => self.settings.multipv = n.clamp(1, options::MAX_MULTIPV),
            OptionValue::Chess960(on) => self.set_chess960(on),
            OptionValue::MoveOverhead(time) => self.settings.move_overhead = time,
            OptionValue::ClearHash => self.clear_pending = true,
            OptionValue::LogFile(path) => return Ok(OptionEffect::LogFile(path)),
            OptionValue::OwnBook(on) => self.book.set_enabled(on),
            OptionValue::BookFile(path) => self.load_book(path.as_deref())?,
            OptionValue::BookBestMove(on) => self.book.set_best_only(on),
            OptionValue::EvalFile(path) => self.load_eval_file(path.as_deref())?,
            OptionValue::LimitStrength(on) => self.settings.limit_strength = on,
            OptionValue::Elo(elo) => {
                self.settings.elo = elo.clamp(levels::MIN_ELO, levels::MAX_ELO);
            }
            OptionValue::ShowWdl(on) => self.settings.show_wdl = on,
            OptionValue::SyzygyPath(path) => self.set_syzygy_path(path.as_deref()),
            OptionValue::Syzygy50MoveRule(on) => self.settings.tb.rule50 = on,
            OptionValue::SyzygyProbeDepth(depth) => self.settings.tb.probe_depth = depth,
            OptionValue::SyzygyProbeLimit(pieces) => self.settings.tb.probe_limit = pieces,
            OptionValue::Tunable { name, value } => crate::search::params::set(name, value),
        }
        self.apply_if_idle();
        Ok(OptionEffect::Done)
    }

    /// Opens the Polyglot book in `path` (`None`: no book). A book that cannot be opened is
    /// refused and the engine plays without one.
    fn load_book(&mut self, path: Option<&Path>) -> Result<(), OptionError> {
        self.book
            .set_file(path)
            .map_err(|err| OptionError::Unusable {
                name: options::BOOK_FILE,
                reason: format!("{err}; playing without a book"),
            })
    }

    /// Evaluates with the network in `path`, or with the built-in evaluation (the embedded
    /// network, if the binary has one, else the hand-crafted one) when `None`, from the next
    /// search on, and says which. A file that cannot be read or is no valid network is
    /// refused with the reason, and the evaluation in use stays.
    fn load_eval_file(&mut self, path: Option<&Path>) -> Result<(), OptionError> {
        self.evaluation = match path {
            Some(path) => Evaluation {
                network: Some(Arc::new(Network::load(path).map_err(|e| {
                    OptionError::Unusable {
                        name: options::EVAL_FILE,
                        reason: format!("{e}; the evaluation in use stays"),
                    }
                })?)),
                file: Some(path.to_path_buf()),
            },
            None => Evaluation {
                network: self.builtin_network.clone(),
                file: None,
            },
        };
        self.say(&format!("evaluation: {}", self.evaluation_name()));
        Ok(())
    }

    /// The evaluation in use, as the user should see it: the network (built in, or the file
    /// it came from) with its size, output buckets and king buckets, or the hand-crafted
    /// evaluation.
    pub fn evaluation_name(&self) -> String {
        let shape = |net: &crate::eval::nnue::Network| {
            let kings = net.king_buckets();
            let inputs = match (kings.count(), kings.mirrored()) {
                (1, false) => "768x2".to_string(),
                (1, true) => "768x2 mirrored".to_string(),
                (k, false) => format!("768x2, {k} king buckets"),
                (k, true) => format!("768x2, {k} king buckets mirrored"),
            };
            match net.buckets() {
                1 => format!("{inputs} -> {} -> 1", net.hidden()),
                b => format!("{inputs} -> {} -> 1, {b} output buckets", net.hidden()),
            }
        };
        match (&self.evaluation.network, &self.evaluation.file) {
            (Some(net), Some(file)) => format!("network {} ({})", file.display(), shape(net)),
            (Some(net), None) => format!("built-in network ({})", shape(net)),
            (None, _) => "hand-crafted".to_string(),
        }
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

    /// Readies the engine for a search (UCI `isready`, XBoard `ping`): the settings go to the
    /// searcher if no search holds it, and the search and watchdog threads start if they do
    /// not run yet. Nothing waits for the hash table's memory, which a background thread backs
    /// (see `search::table_memory`): runners that time `isready` with the first move (python-
    /// chess's `play` sends `ucinewgame` and `isready` in it) lost the first moves of new
    /// processes on time at 100 ms a move when `isready` waited for a 64 MiB table (up to 279
    /// ms, 11 forfeits in 24 games, 2026-12-07; none without the wait).
    pub fn ready(&mut self) {
        self.apply_if_idle();
        self.start_threads();
    }

    /// Starts the search thread and the watchdog thread if they do not run yet (at `isready`,
    /// `ping` and a new game), so the first search does not wait for new threads to be
    /// scheduled.
    pub(super) fn start_threads(&mut self) {
        // A refusal is met again, and handled, by the search that needs the thread.
        let _ = self.search_thread.start();
        if let Some(searcher) = &mut self.searcher {
            searcher.start_watchdog();
        }
    }

    /// Hands the settings to the searcher now if no search holds it.
    pub(super) fn apply_if_idle(&mut self) {
        if let Some(mut searcher) = self.searcher.take() {
            self.apply_settings(&mut searcher);
            self.searcher = Some(searcher);
        }
    }

    /// Hands the settings to `searcher` (resizing the table only when its size was changed,
    /// clearing it when a clear is due). Neither waits on the table's memory (see
    /// `search::table_memory`), so this is quick at any size.
    pub(super) fn apply_settings(&mut self, searcher: &mut Searcher) {
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

    /// Tells the user something (not an error of the last command).
    pub(super) fn say(&self, message: &str) {
        (self.listener)(&EngineEvent::Message(message));
    }
}
