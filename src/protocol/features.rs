//! What Betacut announces after `protover 2` (features and engine options), and the parsing of
//! `option NAME=VALUE`.

use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted hash size in MB (`memory` is clamped to it).
pub const MAX_HASH_MB: usize = 32_768;
/// Largest accepted thread count (`cores` is clamped to it).
pub const MAX_THREADS: usize = 256;
/// Default move overhead: time kept back on every move for GUI and pipe delays.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;
/// Largest accepted move overhead in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The engine's name and version as shown by GUIs (`myname`).
pub fn engine_name() -> String {
    format!("Betacut {}", env!("CARGO_PKG_VERSION"))
}

/// The `feature` lines sent in reply to `protover 2`, `done=0` first and `done=1` last.
pub fn feature_lines() -> Vec<String> {
    vec![
        "feature done=0".to_string(),
        "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 \
         sigterm=0 reuse=1 analyze=1 colors=0 ics=1 name=1 pause=1 nps=1 debug=1 memory=1 \
         smp=1 exclude=1"
            .to_string(),
        format!("feature myname=\"{}\" variants=\"normal\"", engine_name()),
        format!("feature option=\"Hash -spin {DEFAULT_HASH_MB} 1 {MAX_HASH_MB}\""),
        format!("feature option=\"Threads -spin 1 1 {MAX_THREADS}\""),
        "feature option=\"Ponder -check 0\"".to_string(),
        format!(
            "feature option=\"Move Overhead -spin {DEFAULT_MOVE_OVERHEAD_MS} 0 {MAX_MOVE_OVERHEAD_MS}\""
        ),
        "feature option=\"Log File -file \"".to_string(),
        "feature done=1".to_string(),
    ]
}

/// A parsed `option NAME=VALUE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionSetting {
    /// `Hash`: transposition table MB (same as `memory`).
    Hash(usize),
    /// `Threads`: search threads (same as `cores`).
    Threads(usize),
    /// `Ponder`: think on the opponent's time (same as `hard`/`easy`).
    Ponder(bool),
    /// `Move Overhead`: time kept back on every move.
    MoveOverhead(Duration),
    /// `Log File`: log all protocol lines there (`None`: stop logging).
    LogFile(Option<PathBuf>),
}

/// Why an `option` command was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No option of that name.
    #[error("unknown option")]
    Unknown,
    /// The option needs a value.
    #[error("missing value")]
    MissingValue,
    /// The value is not of the option's type or outside its range.
    #[error("bad value {0:?}")]
    BadValue(String),
}

/// Parses `option NAME=VALUE` for one of Betacut's options.
pub fn parse_option(name: &str, value: Option<&str>) -> Result<OptionSetting, OptionError> {
    let value = value.map(str::trim);
    let spin = |min: u64, max: u64| -> Result<u64, OptionError> {
        let text = value.ok_or(OptionError::MissingValue)?;
        match text.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(OptionError::BadValue(text.to_string())),
        }
    };
    match name {
        "Hash" => Ok(OptionSetting::Hash(spin(1, MAX_HASH_MB as u64)? as usize)),
        "Threads" => Ok(OptionSetting::Threads(spin(1, MAX_THREADS as u64)? as usize)),
        "Move Overhead" => Ok(OptionSetting::MoveOverhead(Duration::from_millis(spin(
            0,
            MAX_MOVE_OVERHEAD_MS,
        )?))),
        "Ponder" => match value {
            Some("1" | "true") => Ok(OptionSetting::Ponder(true)),
            Some("0" | "false") => Ok(OptionSetting::Ponder(false)),
            Some(other) => Err(OptionError::BadValue(other.to_string())),
            None => Err(OptionError::MissingValue),
        },
        "Log File" => match value {
            None | Some("") => Ok(OptionSetting::LogFile(None)),
            Some(path) => Ok(OptionSetting::LogFile(Some(PathBuf::from(path)))),
        },
        _ => Err(OptionError::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_list_is_framed_and_complete() {
        let lines = feature_lines();
        assert_eq!(lines.first().map(String::as_str), Some("feature done=0"));
        assert_eq!(lines.last().map(String::as_str), Some("feature done=1"));
        let all = lines.join(" ");
        for needed in [
            "ping=1",
            "setboard=1",
            "playother=1",
            "usermove=1",
            "time=1",
            "draw=1",
            "sigint=0",
            "sigterm=0",
            "reuse=1",
            "analyze=1",
            "colors=0",
            "name=1",
            "nps=1",
            "debug=1",
            "memory=1",
            "smp=1",
            "exclude=1",
            "variants=\"normal\"",
            "myname=\"Betacut",
        ] {
            assert!(all.contains(needed), "{needed}");
        }
    }

    #[test]
    fn options() {
        assert_eq!(
            parse_option("Hash", Some("64")),
            Ok(OptionSetting::Hash(64))
        );
        assert_eq!(
            parse_option("Hash", Some("0")),
            Err(OptionError::BadValue("0".into()))
        );
        assert_eq!(
            parse_option("Threads", None),
            Err(OptionError::MissingValue)
        );
        assert_eq!(
            parse_option("Ponder", Some("1")),
            Ok(OptionSetting::Ponder(true))
        );
        assert_eq!(
            parse_option("Move Overhead", Some("100")),
            Ok(OptionSetting::MoveOverhead(Duration::from_millis(100)))
        );
        assert_eq!(
            parse_option("Log File", Some("")),
            Ok(OptionSetting::LogFile(None))
        );
        assert_eq!(parse_option("Nope", Some("1")), Err(OptionError::Unknown));
    }
}
