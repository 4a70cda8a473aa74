//! One line of UCI input turned into a typed [`UciCommand`].
//!
//! As the UCI specification asks, unknown words in front of a command are skipped (`joho debug
//! on` switches debug mode on); a line with no command in it is an error. `go` always parses:
//! a word it does not know, or a parameter without a valid number, is listed in
//! [`GoParams::ignored`] and left out, as Stockfish leaves it out, so that every `go` starts a
//! search. Parsing is context-free: whether a FEN is legal or a move legal in the position is
//! decided by the front-end and the engine.
//!
//! Besides the protocol's commands, the developer commands known from Stockfish: `d` (the
//! board), `eval` (the evaluation explained), `bench [depth]`, and `go perft N`.

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
    /// `perft N` (a developer command): count the leaves of the move tree to depth N instead
    /// of searching.
    pub perft: Option<u32>,
    /// What was left out, one reason each (unknown words, missing or bad numbers).
    pub ignored: Vec<String>,
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
    /// `d`: show the board, its FEN and key.
    Display,
    /// `eval`: the evaluation of the position, explained.
    Eval,
    /// `bench [depth]`: the bench search (node count and speed).
    Bench(Option<u32>),
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
    /// `bench` with something else than a depth.
    #[error("bench needs a depth from 1 to 64, got {0:?}")]
    BadBenchDepth(String),
}

const COMMANDS: [&str; 14] = [
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
    "d",
    "eval",
    "bench",
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
        "go" => Ok(UciCommand::Go(parse_go(args))),
        "stop" => Ok(UciCommand::Stop),
        "ponderhit" => Ok(UciCommand::PonderHit),
        "quit" => Ok(UciCommand::Quit),
        "d" => Ok(UciCommand::Display),
        "eval" => Ok(UciCommand::Eval),
        "bench" => match args.first() {
            None => Ok(UciCommand::Bench(None)),
            Some(text) => match text.parse::<u32>() {
                Ok(depth @ 1..=64) => Ok(UciCommand::Bench(Some(depth))),
                _ => Err(UciError::BadBenchDepth(text.to_string())),
            },
        },
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

const GO_WORDS: [&str; 13] = [
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
    "perft",
];

/// Parses the words after `go`. Never fails: what cannot be used is listed in `ignored`.
fn parse_go(args: &[&str]) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        i += 1;
        // The value of a numeric parameter: the next word, unless it is a parameter itself.
        let mut value = || -> Option<&str> {
            let next = args.get(i).copied().filter(|w| !GO_WORDS.contains(w));
            i += usize::from(next.is_some());
            next
        };
        match word {
            "searchmoves" => {
                let list: Vec<String> = args[i..]
                    .iter()
                    .take_while(|t| !GO_WORDS.contains(t))
                    .map(|t| t.to_string())
                    .collect();
                i += list.len();
                go.searchmoves = list;
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = number(&mut go.ignored, word, value()),
            "btime" => go.btime = number(&mut go.ignored, word, value()),
            "winc" => go.winc = number(&mut go.ignored, word, value()),
            "binc" => go.binc = number(&mut go.ignored, word, value()),
            "movestogo" => go.movestogo = number(&mut go.ignored, word, value()),
            "depth" => go.depth = number(&mut go.ignored, word, value()),
            "nodes" => go.nodes = number(&mut go.ignored, word, value()),
            "mate" => go.mate = number(&mut go.ignored, word, value()),
            "movetime" => go.movetime = number(&mut go.ignored, word, value()),
            "perft" => go.perft = number(&mut go.ignored, word, value()),
            other => go.ignored.push(format!("go does not know {other:?}")),
        }
    }
    go
}

/// `text` as a number for the parameter `name`, or `None` with the reason added to `ignored`.
fn number<T: std::str::FromStr>(
    ignored: &mut Vec<String>,
    name: &str,
    text: Option<&str>,
) -> Option<T> {
    let parsed = text.and_then(|t| t.parse::<T>().ok());
    if parsed.is_none() {
        ignored.push(format!(
            "go {name} needs a number, got {:?}",
            text.unwrap_or("")
        ));
    }
    parsed
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
                perft: None,
                ignored: Vec::new(),
            }
        );
        assert_eq!(parse_uci("go"), Ok(UciCommand::Go(GoParams::default())));
        let ignored = |line: &str| match parse_uci(line) {
            Ok(UciCommand::Go(go)) => go.ignored,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(ignored("go depth"), ["go depth needs a number, got \"\""]);
        assert_eq!(
            ignored("go wtime lots"),
            ["go wtime needs a number, got \"lots\""]
        );
        assert_eq!(
            ignored("go depth -3"),
            ["go depth needs a number, got \"-3\""]
        );
        assert_eq!(ignored("go fast"), ["go does not know \"fast\""]);
        // What is known is kept around what is not: the clock of `go ... foo` still counts.
        let Ok(UciCommand::Go(go)) = parse_uci("go wtime 1000 btime 1000 foo winc") else {
            panic!("go parses");
        };
        assert_eq!(
            (go.wtime, go.btime, go.winc),
            (Some(1000), Some(1000), None)
        );
        assert_eq!(go.ignored.len(), 2, "{:?}", go.ignored);
        // A missing number does not swallow the next parameter.
        let Ok(UciCommand::Go(go)) = parse_uci("go depth movetime 50") else {
            panic!("go parses");
        };
        assert_eq!((go.depth, go.movetime), (None, Some(50)));
        let Ok(UciCommand::Go(go)) = parse_uci("go perft 3") else {
            panic!("go parses");
        };
        assert_eq!(go.perft, Some(3));
    }

    #[test]
    fn developer_commands() {
        assert_eq!(parse_uci("d"), Ok(UciCommand::Display));
        assert_eq!(parse_uci("eval"), Ok(UciCommand::Eval));
        assert_eq!(parse_uci("bench"), Ok(UciCommand::Bench(None)));
        assert_eq!(parse_uci("bench 5"), Ok(UciCommand::Bench(Some(5))));
        assert_eq!(
            parse_uci("bench deep"),
            Err(UciError::BadBenchDepth("deep".into()))
        );
    }
}
