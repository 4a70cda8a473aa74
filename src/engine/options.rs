//! The engine's options, one table for every protocol: names, types, defaults and ranges, and
//! the parsing of a value given as text. Each front-end prints the table in its own syntax.

use super::levels;
use crate::search::params::{self, Tunable};
use crate::search::tablebases::{DEFAULT_PROBE_DEPTH, DEFAULT_PROBE_LIMIT};
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted hash size in MiB (what a machine cannot give is refused at allocation).
pub const MAX_HASH_MB: usize = 1 << 20;
/// Largest accepted thread count.
pub const MAX_THREADS: usize = 256;
/// Largest number of lines shown in MultiPV.
pub const MAX_MULTIPV: usize = 256;
/// Default move overhead: time kept back on every move for interface and pipe delays.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;
/// Largest accepted move overhead in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The type of an option, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On or off.
    Check {
        /// The value at start-up.
        default: bool,
    },
    /// An integer within a range.
    Spin {
        /// The value at start-up.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// An action without a value.
    Button,
    /// A free text (a file name).
    Text {
        /// The value at start-up (empty: none).
        default: &'static str,
    },
}

/// Which protocols offer an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    /// Both XBoard and UCI.
    All,
    /// UCI only (XBoard has a command for the same thing).
    UciOnly,
}

/// One option as the interfaces see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name shown to the user and used to set it.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// Which protocols list it.
    pub scope: OptionScope,
}

/// The option `Hash`.
pub const HASH: &str = "Hash";
/// The option `Threads`.
pub const THREADS: &str = "Threads";
/// The option `Ponder`.
pub const PONDER: &str = "Ponder";
/// The option `MultiPV`.
pub const MULTIPV: &str = "MultiPV";
/// The option `UCI_Chess960`.
pub const UCI_CHESS960: &str = "UCI_Chess960";
/// The option `Move Overhead`.
pub const MOVE_OVERHEAD: &str = "Move Overhead";
/// The option `Clear Hash`.
pub const CLEAR_HASH: &str = "Clear Hash";
/// The option `Log File`.
pub const LOG_FILE: &str = "Log File";
/// The option `OwnBook`.
pub const OWN_BOOK: &str = "OwnBook";
/// The option `BookFile`.
pub const BOOK_FILE: &str = "BookFile";
/// The option `BookBestMove`.
pub const BOOK_BEST_MOVE: &str = "BookBestMove";
/// The option `EvalFile`.
pub const EVAL_FILE: &str = "EvalFile";
/// The option `UCI_LimitStrength`.
pub const UCI_LIMIT_STRENGTH: &str = "UCI_LimitStrength";
/// The option `UCI_Elo`.
pub const UCI_ELO: &str = "UCI_Elo";
/// The option `UCI_ShowWDL`.
pub const UCI_SHOW_WDL: &str = "UCI_ShowWDL";
/// The option `SyzygyPath` (XBoard sets it with `egtpath syzygy`).
pub const SYZYGY_PATH: &str = "SyzygyPath";
/// The option `Syzygy50MoveRule`.
pub const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
/// The option `SyzygyProbeDepth`.
pub const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
/// The option `SyzygyProbeLimit`.
pub const SYZYGY_PROBE_LIMIT: &str = "SyzygyProbeLimit";
/// Largest `SyzygyProbeDepth`.
pub const MAX_PROBE_DEPTH: i64 = 100;

/// Every option, in the order interfaces list them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: HASH,
        kind: OptionKind::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: THREADS,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: PONDER,
        kind: OptionKind::Check { default: false },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: MULTIPV,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: UCI_CHESS960,
        kind: OptionKind::Check { default: false },
        scope: OptionScope::UciOnly,
    },
    OptionSpec {
        name: MOVE_OVERHEAD,
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS as i64,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS as i64,
        },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: CLEAR_HASH,
        kind: OptionKind::Button,
        scope: OptionScope::All,
    },
    OptionSpec {
        name: LOG_FILE,
        kind: OptionKind::Text { default: "" },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: OWN_BOOK,
        kind: OptionKind::Check { default: false },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: BOOK_FILE,
        kind: OptionKind::Text { default: "" },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: BOOK_BEST_MOVE,
        kind: OptionKind::Check { default: false },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: EVAL_FILE,
        kind: OptionKind::Text { default: "" },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: UCI_LIMIT_STRENGTH,
        kind: OptionKind::Check { default: false },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: UCI_ELO,
        kind: OptionKind::Spin {
            default: levels::DEFAULT_ELO as i64,
            min: levels::MIN_ELO as i64,
            max: levels::MAX_ELO as i64,
        },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: UCI_SHOW_WDL,
        kind: OptionKind::Check { default: false },
        scope: OptionScope::UciOnly,
    },
    OptionSpec {
        name: SYZYGY_PATH,
        kind: OptionKind::Text { default: "" },
        scope: OptionScope::UciOnly,
    },
    OptionSpec {
        name: SYZYGY_50_MOVE_RULE,
        kind: OptionKind::Check { default: true },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: SYZYGY_PROBE_DEPTH,
        kind: OptionKind::Spin {
            default: DEFAULT_PROBE_DEPTH as i64,
            min: 1,
            max: MAX_PROBE_DEPTH,
        },
        scope: OptionScope::All,
    },
    OptionSpec {
        name: SYZYGY_PROBE_LIMIT,
        kind: OptionKind::Spin {
            default: DEFAULT_PROBE_LIMIT as i64,
            min: 0,
            max: DEFAULT_PROBE_LIMIT as i64,
        },
        scope: OptionScope::All,
    },
];

/// The search constants offered as UCI options: each one in a build with the feature `tune`,
/// none otherwise (see [`crate::search::params`]).
pub fn tunable_options() -> impl Iterator<Item = OptionSpec> {
    params::TUNABLES
        .iter()
        .filter(|_| params::TUNABLE_BUILD)
        .map(|t| OptionSpec {
            name: t.name,
            kind: OptionKind::Spin {
                default: t.default.into(),
                min: t.min.into(),
                max: t.max.into(),
            },
            scope: OptionScope::UciOnly,
        })
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// `Hash`: transposition table MiB.
    Hash(usize),
    /// `Threads`: search threads.
    Threads(usize),
    /// `Ponder`: think on the opponent's time.
    Ponder(bool),
    /// `MultiPV`: lines to find and show.
    MultiPv(usize),
    /// `UCI_Chess960`: play Chess960 (castling written as king takes rook).
    Chess960(bool),
    /// `Move Overhead`: time kept back on every move.
    MoveOverhead(Duration),
    /// `Clear Hash`: forget the table and histories.
    ClearHash,
    /// `Log File`: log every protocol line there (`None`: stop logging).
    LogFile(Option<PathBuf>),
    /// `OwnBook`: play moves from the book set by `BookFile`.
    OwnBook(bool),
    /// `BookFile`: the Polyglot book to open (`None`: no book).
    BookFile(Option<PathBuf>),
    /// `BookBestMove`: always the book's highest-weight move, not a weighted random pick.
    BookBestMove(bool),
    /// `EvalFile`: a network file to evaluate with (`None`: the built-in evaluation).
    EvalFile(Option<PathBuf>),
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` sets instead of full strength.
    LimitStrength(bool),
    /// `UCI_Elo`: the playing level.
    Elo(u32),
    /// `UCI_ShowWDL`: show win/draw/loss chances with every score.
    ShowWdl(bool),
    /// `SyzygyPath`: folders of Syzygy tables (`None`: no tables).
    SyzygyPath(Option<String>),
    /// `Syzygy50MoveRule`: results the fifty-move rule spoils count as draws.
    Syzygy50MoveRule(bool),
    /// `SyzygyProbeDepth`: least depth for probes at the piece limit.
    SyzygyProbeDepth(i32),
    /// `SyzygyProbeLimit`: most pieces probed in the search.
    SyzygyProbeLimit(u32),
    /// A search constant (builds with the feature `tune` only; see [`crate::search::params`]).
    Tunable {
        /// Its name.
        name: &'static str,
        /// Its new value.
        value: i32,
    },
}

/// Why an option could not be set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No option of that name.
    #[error("unknown option {0:?}")]
    Unknown(String),
    /// The option needs a value.
    #[error("option {0:?} needs a value")]
    MissingValue(&'static str),
    /// The value is not of the option's type or outside its range.
    #[error("bad value {value:?} for option {name:?} ({expected})")]
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
    /// The value is of the right type but cannot be used (e.g. a book file that is missing or
    /// broken); the option is left unset.
    #[error("option {name:?} not set: {reason}")]
    Unusable {
        /// The option.
        name: &'static str,
        /// What went wrong with the value, as the user is told it (e.g. the book's read error).
        reason: String,
    },
}

/// The option called `name` (compared without regard to case, as UCI asks).
pub fn find_option(name: &str) -> Option<&'static OptionSpec> {
    let name = name.trim();
    OPTIONS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
}

/// Parses `value` for the option `name`. Checks take `true`/`false` (UCI) or `1`/`0`
/// (XBoard); spins a whole number in range; buttons no value; texts anything (empty: none).
pub fn parse_option(name: &str, value: Option<&str>) -> Result<OptionValue, OptionError> {
    if params::TUNABLE_BUILD {
        if let Some(tunable) = params::find(name) {
            return parse_tunable(tunable, value);
        }
    }
    let spec = find_option(name).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
    let value = value.map(str::trim);
    let bad = |text: &str, expected: String| OptionError::BadValue {
        name: spec.name,
        value: text.to_string(),
        expected,
    };
    let check = || -> Result<bool, OptionError> {
        let text = value.ok_or(OptionError::MissingValue(spec.name))?;
        match text.to_ascii_lowercase().as_str() {
            "true" | "1" | "on" => Ok(true),
            "false" | "0" | "off" => Ok(false),
            _ => Err(bad(text, "true or false".into())),
        }
    };
    let spin = || -> Result<i64, OptionError> {
        let text = value.ok_or(OptionError::MissingValue(spec.name))?;
        let OptionKind::Spin { min, max, .. } = spec.kind else {
            return Err(bad(text, "no value".into()));
        };
        match text.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(bad(text, format!("a whole number from {min} to {max}"))),
        }
    };
    Ok(match spec.name {
        HASH => OptionValue::Hash(spin()? as usize),
        THREADS => OptionValue::Threads(spin()? as usize),
        PONDER => OptionValue::Ponder(check()?),
        MULTIPV => OptionValue::MultiPv(spin()? as usize),
        UCI_CHESS960 => OptionValue::Chess960(check()?),
        MOVE_OVERHEAD => OptionValue::MoveOverhead(Duration::from_millis(spin()? as u64)),
        CLEAR_HASH => OptionValue::ClearHash,
        OWN_BOOK => OptionValue::OwnBook(check()?),
        BOOK_FILE => OptionValue::BookFile(file_value(value)),
        BOOK_BEST_MOVE => OptionValue::BookBestMove(check()?),
        EVAL_FILE => OptionValue::EvalFile(file_value(value)),
        UCI_LIMIT_STRENGTH => OptionValue::LimitStrength(check()?),
        UCI_ELO => OptionValue::Elo(spin()? as u32),
        UCI_SHOW_WDL => OptionValue::ShowWdl(check()?),
        SYZYGY_PATH => match value {
            None | Some("") | Some("<empty>") => OptionValue::SyzygyPath(None),
            Some(path) => OptionValue::SyzygyPath(Some(path.to_string())),
        },
        SYZYGY_50_MOVE_RULE => OptionValue::Syzygy50MoveRule(check()?),
        SYZYGY_PROBE_DEPTH => OptionValue::SyzygyProbeDepth(spin()? as i32),
        SYZYGY_PROBE_LIMIT => OptionValue::SyzygyProbeLimit(spin()? as u32),
        _ => OptionValue::LogFile(file_value(value)),
    })
}

/// Parses the value of a search constant (builds with the feature `tune`).
fn parse_tunable(
    tunable: &'static Tunable,
    value: Option<&str>,
) -> Result<OptionValue, OptionError> {
    let text = value.ok_or(OptionError::MissingValue(tunable.name))?.trim();
    match text.parse::<i32>() {
        Ok(n) if (tunable.min..=tunable.max).contains(&n) => Ok(OptionValue::Tunable {
            name: tunable.name,
            value: n,
        }),
        _ => Err(OptionError::BadValue {
            name: tunable.name,
            value: text.to_string(),
            expected: format!("a whole number from {} to {}", tunable.min, tunable.max),
        }),
    }
}

/// A file option's path; empty (or UCI's `<empty>`) means none.
fn file_value(value: Option<&str>) -> Option<PathBuf> {
    match value {
        None | Some("") | Some("<empty>") => None,
        Some(path) => Some(PathBuf::from(path)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_constants_are_options_only_in_a_tune_build() {
        let parsed = parse_option("rfp_margin", Some("80"));
        if params::TUNABLE_BUILD {
            assert_eq!(
                parsed,
                Ok(OptionValue::Tunable {
                    name: "rfp_margin",
                    value: 80
                })
            );
            assert!(matches!(
                parse_option("rfp_margin", Some("100000")),
                Err(OptionError::BadValue { .. })
            ));
            assert_eq!(tunable_options().count(), params::TUNABLES.len());
        } else {
            assert_eq!(parsed, Err(OptionError::Unknown("rfp_margin".into())));
            assert_eq!(tunable_options().count(), 0);
        }
    }

    #[test]
    fn values_are_parsed_and_checked() {
        assert_eq!(parse_option("Hash", Some("64")), Ok(OptionValue::Hash(64)));
        assert_eq!(
            parse_option("hash", Some(" 64 ")),
            Ok(OptionValue::Hash(64))
        );
        assert!(matches!(
            parse_option("Hash", Some("0")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            parse_option("Hash", Some("lots")),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(
            parse_option("Threads", None),
            Err(OptionError::MissingValue("Threads"))
        );
        assert_eq!(
            parse_option("Ponder", Some("true")),
            Ok(OptionValue::Ponder(true))
        );
        assert_eq!(
            parse_option("Ponder", Some("0")),
            Ok(OptionValue::Ponder(false))
        );
        assert!(parse_option("Ponder", Some("maybe")).is_err());
        assert_eq!(
            parse_option("MultiPV", Some("3")),
            Ok(OptionValue::MultiPv(3))
        );
        assert_eq!(
            parse_option("UCI_Chess960", Some("true")),
            Ok(OptionValue::Chess960(true))
        );
        assert_eq!(
            parse_option("Move Overhead", Some("100")),
            Ok(OptionValue::MoveOverhead(Duration::from_millis(100)))
        );
        assert_eq!(parse_option("Clear Hash", None), Ok(OptionValue::ClearHash));
        assert_eq!(
            parse_option("Log File", Some("<empty>")),
            Ok(OptionValue::LogFile(None))
        );
        assert_eq!(
            parse_option("OwnBook", Some("true")),
            Ok(OptionValue::OwnBook(true))
        );
        assert_eq!(
            parse_option("BookFile", Some("/books/my book.bin")),
            Ok(OptionValue::BookFile(Some(PathBuf::from(
                "/books/my book.bin"
            ))))
        );
        assert_eq!(
            parse_option("BookFile", Some("<empty>")),
            Ok(OptionValue::BookFile(None))
        );
        assert_eq!(
            parse_option("bookbestmove", Some("1")),
            Ok(OptionValue::BookBestMove(true))
        );
        assert_eq!(
            parse_option("Nope", Some("1")),
            Err(OptionError::Unknown("Nope".into()))
        );
        assert_eq!(
            parse_option("SyzygyPath", Some("/tb/345:/tb/6")),
            Ok(OptionValue::SyzygyPath(Some("/tb/345:/tb/6".into())))
        );
        assert_eq!(
            parse_option("syzygypath", Some("<empty>")),
            Ok(OptionValue::SyzygyPath(None))
        );
        assert_eq!(
            parse_option("Syzygy50MoveRule", Some("false")),
            Ok(OptionValue::Syzygy50MoveRule(false))
        );
        assert_eq!(
            parse_option("SyzygyProbeDepth", Some("4")),
            Ok(OptionValue::SyzygyProbeDepth(4))
        );
        assert_eq!(
            parse_option("SyzygyProbeLimit", Some("5")),
            Ok(OptionValue::SyzygyProbeLimit(5))
        );
        assert!(parse_option("SyzygyProbeLimit", Some("8")).is_err());
        assert!(parse_option("SyzygyProbeDepth", Some("0")).is_err());
    }

    #[test]
    fn every_default_parses_as_a_value() {
        for spec in OPTIONS {
            let default = match spec.kind {
                OptionKind::Check { default } => Some(default.to_string()),
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Button => None,
                OptionKind::Text { default } => Some(default.to_string()),
            };
            assert!(
                parse_option(spec.name, default.as_deref()).is_ok(),
                "{}",
                spec.name
            );
        }
    }
}
