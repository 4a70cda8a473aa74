//! One line of UCI input turned into a typed [`UciCommand`].
//!
//! As the UCI specification asks, unknown words in front of a command are skipped (`joho debug
//! on` switches debug mode on); a line with no command in it is an error. Parsing is
//! context-free: whether a FEN is legal or a move legal in the position is decided by the
//! front-end and the engine.

use thiserror::Error;

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `searchmoves`: only these root moves (as text; checked against the position later).
    pub searchmoves: Vec<String>,
    /// `ponder`: start as a ponder search.
    pub ponder: bool,
    /// `wtime`: White's clock in milliseconds (may be negative when the GUI lets it run out).
    pub wtime: Option<i64>,
    /// `btime`: Black's clock in milliseconds.
    pub btime: Option<i64>,
    /// `winc`: White's increment in milliseconds.
    pub winc: Option<i64>,
    /// `binc`: Black's increment in milliseconds.
    pub binc: Option<i64>,
    /// `movestogo`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `depth`: search this many plies.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes.
    pub nodes: Option<u64>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: search exactly this many milliseconds.
    pub movetime: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`.
    StartPos,
    /// `fen ...`: the FEN text (its fields joined by single spaces).
    Fen(String),
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// An empty line: nothing to do.
    Empty,
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// The option's name (its words joined by single spaces).
        name: String,
        /// The value, as given (inner spacing kept), if any.
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored (Betacut needs no registration).
    Register,
    /// `ucinewgame`.
    NewGame,
    /// `position startpos|fen FEN [moves M1 M2 ...]`.
    Position {
        /// The start position.
        start: PositionStart,
        /// The moves played from it, as text.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
}

/// Why a line is not a valid command; reported as `info string error: ...`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum UciError {
    /// No known command in the line.
    #[error("unknown command")]
    Unknown,
    /// `debug` needs `on` or `off`.
    #[error("debug needs on or off")]
    BadDebug,
    /// `setoption` without `name` or without a name after it.
    #[error("setoption needs: name <id> [value <x>]")]
    BadSetOption,
    /// `position` without `startpos` or `fen ...`.
    #[error("position needs startpos or fen <FEN>, then optionally moves <m1> <m2> ...")]
    BadPosition,
    /// A parameter of `go` needs a number and did not get one.
    #[error("go {0} needs a number, got {1:?}")]
    BadNumber(&'static str, String),
    /// A parameter of `go` that Betacut does not know.
    #[error("go does not know {0:?}")]
    BadGoToken(String),
}

const COMMANDS: [&str; 11] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// Parses one input line.
pub fn parse_uci(line: &str) -> Result<UciCommand, UciError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok(UciCommand::Empty);
    }
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Err(UciError::Unknown);
    };
    let args = &tokens[start + 1..];
    match tokens[start] {
        "uci" => Ok(UciCommand::Uci),
        "debug" => match args.first() {
            Some(&"on") => Ok(UciCommand::Debug(true)),
            Some(&"off") => Ok(UciCommand::Debug(false)),
            _ => Err(UciError::BadDebug),
        },
        "isready" => Ok(UciCommand::IsReady),
        "setoption" => parse_setoption(line),
        "register" => Ok(UciCommand::Register),
        "ucinewgame" => Ok(UciCommand::NewGame),
        "position" => parse_position(args),
        "go" => parse_go(args).map(UciCommand::Go),
        "stop" => Ok(UciCommand::Stop),
        "ponderhit" => Ok(UciCommand::PonderHit),
        "quit" => Ok(UciCommand::Quit),
        _ => Err(UciError::Unknown),
    }
}

/// `setoption name <id> [value <x>]`: the name is every word up to `value`; the value is the
/// rest of the line as given (file names may hold spaces).
fn parse_setoption(line: &str) -> Result<UciCommand, UciError> {
    let after_command = line
        .split_once("setoption")
        .map_or("", |(_, rest)| rest)
        .trim_start();
    let rest = after_command
        .strip_prefix("name")
        .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        .ok_or(UciError::BadSetOption)?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let value_at = words.iter().position(|&w| w == "value");
    let name_words = &words[..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(UciError::BadSetOption);
    }
    let value = value_at.map(|_| {
        // Everything after the first whole word "value" following the name.
        let mut search_from = 0;
        loop {
            match rest[search_from..].find("value") {
                Some(i) => {
                    let at = search_from + i;
                    let before_ok = at == 0 || rest[..at].ends_with(char::is_whitespace);
                    let after = &rest[at + "value".len()..];
                    let after_ok = after.is_empty() || after.starts_with(char::is_whitespace);
                    if before_ok && after_ok {
                        return after.trim().to_string();
                    }
                    search_from = at + "value".len();
                }
                None => return String::new(),
            }
        }
    });
    Ok(UciCommand::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<UciCommand, UciError> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let moves = moves_at.map_or_else(Vec::new, |i| {
        args[i + 1..].iter().map(|m| m.to_string()).collect()
    });
    let start = match head {
        ["startpos"] => PositionStart::StartPos,
        ["fen", fields @ ..] if !fields.is_empty() => PositionStart::Fen(fields.join(" ")),
        _ => return Err(UciError::BadPosition),
    };
    Ok(UciCommand::Position { start, moves })
}

const GO_WORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

fn parse_go(args: &[&str]) -> Result<GoParams, UciError> {
    fn number<T: std::str::FromStr>(
        name: &'static str,
        value: Option<&&str>,
    ) -> Result<T, UciError> {
        let text = value.copied().unwrap_or("");
        text.parse::<T>()
            .map_err(|_| UciError::BadNumber(name, text.to_string()))
    }
    let mut go = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        let value = args.get(i + 1);
        let mut used = 2;
        match word {
            "searchmoves" => {
                let list: Vec<String> = args[i + 1..]
                    .iter()
                    .take_while(|t| !GO_WORDS.contains(t))
                    .map(|t| t.to_string())
                    .collect();
                used = 1 + list.len();
                go.searchmoves = list;
            }
            "ponder" => {
                go.ponder = true;
                used = 1;
            }
            "infinite" => {
                go.infinite = true;
                used = 1;
            }
            "wtime" => go.wtime = Some(number("wtime", value)?),
            "btime" => go.btime = Some(number("btime", value)?),
            "winc" => go.winc = Some(number("winc", value)?),
            "binc" => go.binc = Some(number("binc", value)?),
            "movestogo" => go.movestogo = Some(number("movestogo", value)?),
            "depth" => go.depth = Some(number("depth", value)?),
            "nodes" => go.nodes = Some(number("nodes", value)?),
            "mate" => go.mate = Some(number("mate", value)?),
            "movetime" => go.movetime = Some(number("movetime", value)?),
            other => return Err(UciError::BadGoToken(other.to_string())),
        }
        i += used;
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands_and_skipped_words() {
        assert_eq!(parse_uci("uci"), Ok(UciCommand::Uci));
        assert_eq!(parse_uci("  isready  "), Ok(UciCommand::IsReady));
        assert_eq!(parse_uci("joho debug on"), Ok(UciCommand::Debug(true)));
        assert_eq!(parse_uci("debug off"), Ok(UciCommand::Debug(false)));
        assert_eq!(parse_uci("debug maybe"), Err(UciError::BadDebug));
        assert_eq!(parse_uci(""), Ok(UciCommand::Empty));
        assert_eq!(parse_uci("hello world"), Err(UciError::Unknown));
        assert_eq!(parse_uci("register later"), Ok(UciCommand::Register));
    }

    #[test]
    fn setoption_names_and_values_keep_their_words() {
        assert_eq!(
            parse_uci("setoption name Move Overhead value 100"),
            Ok(UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse_uci("setoption name Clear Hash"),
            Ok(UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse_uci("setoption name Log File value /tmp/my  log.txt"),
            Ok(UciCommand::SetOption {
                name: "Log File".into(),
                value: Some("/tmp/my  log.txt".into())
            })
        );
        assert_eq!(
            parse_uci("setoption name Hash value"),
            Ok(UciCommand::SetOption {
                name: "Hash".into(),
                value: Some(String::new())
            })
        );
        assert_eq!(parse_uci("setoption"), Err(UciError::BadSetOption));
        assert_eq!(parse_uci("setoption name"), Err(UciError::BadSetOption));
        assert_eq!(parse_uci("setoption Hash 3"), Err(UciError::BadSetOption));
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse_uci("position startpos moves e2e4 e7e5"),
            Ok(UciCommand::Position {
                start: PositionStart::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse_uci("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            Ok(UciCommand::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![]
            })
        );
        assert_eq!(parse_uci("position"), Err(UciError::BadPosition));
        assert_eq!(parse_uci("position fen"), Err(UciError::BadPosition));
        assert_eq!(parse_uci("position moves e2e4"), Err(UciError::BadPosition));
        assert_eq!(
            parse_uci("position startpos e2e4"),
            Err(UciError::BadPosition)
        );
    }

    #[test]
    fn go_parameters() {
        let Ok(UciCommand::Go(go)) = parse_uci(
            "go searchmoves e2e4 d2d4 ponder wtime -50 btime 2000 winc 10 binc 20 movestogo 5 \
             depth 7 nodes 1000 mate 3 movetime 300 infinite",
        ) else {
            panic!("go parses");
        };
        assert_eq!(
            go,
            GoParams {
                searchmoves: vec!["e2e4".into(), "d2d4".into()],
                ponder: true,
                wtime: Some(-50),
                btime: Some(2000),
                winc: Some(10),
                binc: Some(20),
                movestogo: Some(5),
                depth: Some(7),
                nodes: Some(1000),
                mate: Some(3),
                movetime: Some(300),
                infinite: true,
            }
        );
        assert_eq!(parse_uci("go"), Ok(UciCommand::Go(GoParams::default())));
        assert_eq!(
            parse_uci("go depth"),
            Err(UciError::BadNumber("depth", String::new()))
        );
        assert_eq!(
            parse_uci("go wtime lots"),
            Err(UciError::BadNumber("wtime", "lots".into()))
        );
        assert_eq!(
            parse_uci("go depth -3"),
            Err(UciError::BadNumber("depth", "-3".into()))
        );
        assert_eq!(
            parse_uci("go fast"),
            Err(UciError::BadGoToken("fast".into()))
        );
    }
}
