//! One line of CECP (XBoard protocol v2) input turned into a typed [`Command`].
//!
//! Parsing is context-free: whether a command is legal *now* (and whether a move is legal in the
//! current position) is decided by the engine state machine. A word that is not a command is
//! taken as a move only if it has the shape of one (coordinate notation, SAN, a drop or the
//! null move); anything else is an unknown command.

use super::timecontrol::{parse_level, parse_seconds, Level, TimeError};
use std::time::Duration;
use thiserror::Error;

/// A command from the GUI (or a person at the console).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: nothing to do.
    Empty,
    /// `xboard`: the interface announces itself.
    Xboard,
    /// `protover N`: protocol version; answered with the feature list when N >= 2.
    Protover(u32),
    /// `accepted FEATURE`.
    Accepted(String),
    /// `rejected FEATURE`.
    Rejected(String),
    /// `new`: new game from the start position, engine plays Black.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `quit`.
    Quit,
    /// `random`: toggles random mode.
    Random,
    /// `force`: play neither colour.
    Force,
    /// `go`: play the side to move and start thinking.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `white` (obsolete): White to move, engine plays Black.
    White,
    /// `black` (obsolete): Black to move, engine plays White.
    Black,
    /// `level MPS BASE INC`.
    Level(Level),
    /// `st TIME`: fixed time per move.
    St(Duration),
    /// `sd DEPTH`: depth limit.
    Sd(u32),
    /// `nps RATE`: count time in nodes at this rate (0 = off).
    Nps(u64),
    /// `time N`: the engine's clock in centiseconds.
    Time(i64),
    /// `otim N`: the opponent's clock in centiseconds.
    Otim(i64),
    /// `usermove MOVE` or a bare move.
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N` (N kept as the text received, so any integer works).
    Ping(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result RESULT {COMMENT}`: the game is over.
    Result {
        /// `1-0`, `0-1`, `1/2-1/2` or `*`.
        result: String,
        /// The free-form comment (without braces).
        comment: String,
    },
    /// `setboard FEN`.
    SetBoard(String),
    /// `edit`: enter edit mode.
    Edit,
    /// `hint`.
    Hint,
    /// `bk`: book moves.
    Bk,
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `hard`: pondering on.
    Hard,
    /// `easy`: pondering off.
    Easy,
    /// `post`: thinking output on.
    Post,
    /// `nopost`: thinking output off.
    NoPost,
    /// `analyze`: enter analysis mode.
    Analyze,
    /// `exit`: leave analysis mode.
    Exit,
    /// `.`: status line during analysis.
    Status,
    /// `name X`: the opponent's name.
    Name(String),
    /// `rating OWN OPPONENT`.
    Rating {
        /// The engine's rating.
        own: i64,
        /// The opponent's rating.
        opponent: i64,
    },
    /// `ics HOST` (`-` = local game).
    Ics(String),
    /// `computer`: the opponent is a program.
    Computer,
    /// `pause`.
    Pause,
    /// `resume`.
    Resume,
    /// `memory N`: memory budget in MB.
    Memory(u64),
    /// `cores N`: threads.
    Cores(u64),
    /// `egtpath TYPE PATH`.
    EgtPath {
        /// Table format.
        kind: String,
        /// Where the tables are.
        path: String,
    },
    /// `option NAME[=VALUE]`.
    Option {
        /// Option name as declared in the feature list.
        name: String,
        /// Value, absent for buttons.
        value: Option<String>,
    },
    /// `exclude MOVE` / `exclude all`.
    Exclude(MoveSelection),
    /// `include MOVE` / `include all`.
    Include(MoveSelection),
    /// `setscore SCORE DEPTH`.
    SetScore {
        /// Score in centipawns for the side to move.
        score: i64,
        /// Depth up to which it applies.
        depth: u32,
    },
    /// `lift`, `put` or `hover SQUARE` (GUI highlighting; nothing to do in normal chess).
    Highlight(String),
}

/// The argument of `exclude` / `include`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSelection {
    /// Every legal move.
    All,
    /// One move, as text (checked against the position by the engine).
    Move(String),
}

/// A sub-command of edit mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditCommand {
    /// `c`: switch the colour of the pieces placed next.
    ToggleColor,
    /// `#`: empty the board.
    Clear,
    /// `.`: leave edit mode.
    Done,
    /// `Pa4`: put a piece (letter `PNBRQK`) of the current colour on a square (0..64, a1 = 0).
    Place {
        /// Upper-case piece letter.
        piece: char,
        /// Square index, a1 = 0, h8 = 63.
        square: u8,
    },
    /// `xa4`: empty a square.
    Remove {
        /// Square index, a1 = 0, h8 = 63.
        square: u8,
    },
}

/// Why a line is not a valid command; shown as `Error (<this>): <line>`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// Not a command and not shaped like a move.
    #[error("unknown command")]
    Unknown,
    /// A required argument is missing.
    #[error("missing argument")]
    MissingArgument,
    /// More arguments than the command takes.
    #[error("too many parameters")]
    TooManyArguments,
    /// An argument that should be a number is not one, or is out of range.
    #[error("bad number {0:?}")]
    BadNumber(String),
    /// A malformed time value or time control.
    #[error("{0}")]
    BadTime(#[from] TimeError),
    /// `result` with something other than 1-0, 0-1, 1/2-1/2 or *.
    #[error("bad result {0:?}")]
    BadResult(String),
    /// `uci` after the session started in XBoard.
    #[error("this session speaks XBoard; start a new one with uci as its first command for UCI")]
    Uci,
}

/// Parses one input line. Leading/trailing white space (and a CR) are ignored.
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let (word, rest) = split_word(line);
    let args: Vec<&str> = rest.split_whitespace().collect();
    let command = match word {
        "" => Command::Empty,
        "xboard" => no_args(&args, Command::Xboard)?,
        "protover" => Command::Protover(parse_version(one_arg(&args)?)?),
        "accepted" => Command::Accepted(rest_required(rest)?),
        "rejected" => Command::Rejected(rest_required(rest)?),
        "new" => no_args(&args, Command::New)?,
        "variant" => Command::Variant(one_arg(&args)?.to_string()),
        "quit" => no_args(&args, Command::Quit)?,
        "random" => no_args(&args, Command::Random)?,
        "force" => no_args(&args, Command::Force)?,
        "go" => no_args(&args, Command::Go)?,
        "playother" => no_args(&args, Command::PlayOther)?,
        "white" => no_args(&args, Command::White)?,
        "black" => no_args(&args, Command::Black)?,
        "level" => Command::Level(parse_level(&args)?),
        "st" => Command::St(parse_seconds(one_arg(&args)?)?),
        "sd" => Command::Sd(parse_number::<u32>(one_arg(&args)?)?),
        "nps" => Command::Nps(parse_number::<u64>(one_arg(&args)?)?),
        "time" => Command::Time(parse_number::<i64>(one_arg(&args)?)?),
        "otim" => Command::Otim(parse_number::<i64>(one_arg(&args)?)?),
        "usermove" => Command::UserMove(one_arg(&args)?.to_string()),
        "?" => no_args(&args, Command::MoveNow)?,
        "ping" => Command::Ping(parse_integer_text(one_arg(&args)?)?),
        "draw" => no_args(&args, Command::Draw)?,
        "result" => parse_result(rest)?,
        "setboard" => Command::SetBoard(rest_required(rest)?),
        "edit" => no_args(&args, Command::Edit)?,
        "hint" => no_args(&args, Command::Hint)?,
        "bk" => no_args(&args, Command::Bk)?,
        "undo" => no_args(&args, Command::Undo)?,
        "remove" => no_args(&args, Command::Remove)?,
        "hard" => no_args(&args, Command::Hard)?,
        "easy" => no_args(&args, Command::Easy)?,
        "post" => no_args(&args, Command::Post)?,
        "nopost" => no_args(&args, Command::NoPost)?,
        "analyze" => no_args(&args, Command::Analyze)?,
        "exit" => no_args(&args, Command::Exit)?,
        "." => no_args(&args, Command::Status)?,
        "name" => Command::Name(rest_required(rest)?),
        "rating" => parse_rating(&args)?,
        "ics" => Command::Ics(rest_required(rest)?),
        "computer" => no_args(&args, Command::Computer)?,
        "pause" => no_args(&args, Command::Pause)?,
        "resume" => no_args(&args, Command::Resume)?,
        "memory" => Command::Memory(parse_number::<u64>(one_arg(&args)?)?),
        "cores" => Command::Cores(parse_number::<u64>(one_arg(&args)?)?),
        "egtpath" => parse_egtpath(rest)?,
        "option" => parse_option(rest)?,
        "exclude" => Command::Exclude(parse_selection(&args)?),
        "include" => Command::Include(parse_selection(&args)?),
        "setscore" => parse_setscore(&args)?,
        "lift" | "put" | "hover" => Command::Highlight(one_arg(&args)?.to_string()),
        "uci" => return Err(CommandError::Uci),
        _ if args.is_empty() && looks_like_move(word) => Command::UserMove(word.to_string()),
        _ => return Err(CommandError::Unknown),
    };
    Ok(command)
}

/// Parses a line received in edit mode; `None` if it is not an edit sub-command.
pub fn parse_edit_command(line: &str) -> Option<EditCommand> {
    let line = line.trim();
    match line {
        "c" => return Some(EditCommand::ToggleColor),
        "#" => return Some(EditCommand::Clear),
        "." => return Some(EditCommand::Done),
        _ => {}
    }
    let bytes = line.as_bytes();
    if bytes.len() != 3 {
        return None;
    }
    let square = parse_square(&bytes[1..])?;
    match bytes[0] {
        b'x' | b'X' => Some(EditCommand::Remove { square }),
        letter @ (b'P' | b'N' | b'B' | b'R' | b'Q' | b'K') => Some(EditCommand::Place {
            piece: letter as char,
            square,
        }),
        _ => None,
    }
}

/// True if `word` has the shape of a move: coordinates (`e2e4`, `e7e8q`, `e7e8=Q`), SAN (`e4`,
/// `Nf3`, `exd5`, `Qh4xe1+`, `e8=Q#`, `O-O`, `0-0-0`), a drop (`P@h3`) or the null move `@@@@`.
pub fn looks_like_move(word: &str) -> bool {
    word == "@@@@" || is_coordinate(word) || is_san(word) || is_drop(word)
}

fn is_square(b: &[u8]) -> bool {
    b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
}

fn parse_square(b: &[u8]) -> Option<u8> {
    is_square(b).then(|| (b[1] - b'1') * 8 + (b[0] - b'a'))
}

fn is_promotion_letter(c: u8) -> bool {
    matches!(c, b'n' | b'b' | b'r' | b'q' | b'N' | b'B' | b'R' | b'Q')
}

fn is_coordinate(word: &str) -> bool {
    let b = word.as_bytes();
    match b.len() {
        4 => is_square(&b[..2]) && is_square(&b[2..]),
        5 => is_square(&b[..2]) && is_square(&b[2..4]) && is_promotion_letter(b[4]),
        6 => is_square(&b[..2]) && is_square(&b[2..4]) && b[4] == b'=' && is_promotion_letter(b[5]),
        _ => false,
    }
}

fn is_drop(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 4 && b"PNBRQK".contains(&b[0]) && b[1] == b'@' && is_square(&b[2..])
}

fn is_san(word: &str) -> bool {
    let core = word.trim_end_matches(['!', '?']);
    let core = core
        .strip_suffix('+')
        .or_else(|| core.strip_suffix('#'))
        .unwrap_or(core);
    if matches!(core, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let b = core.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    if b"NBRQK".contains(&first) {
        // Piece move: letter, optional file and/or rank, optional 'x', destination.
        let body = &b[1..];
        if body.len() < 2 || !is_square(&body[body.len() - 2..]) {
            return false;
        }
        let middle = &body[..body.len() - 2];
        let middle = middle.strip_suffix(b"x").unwrap_or(middle);
        return match middle.len() {
            0 => true,
            1 => (b'a'..=b'h').contains(&middle[0]) || (b'1'..=b'8').contains(&middle[0]),
            2 => is_square(middle),
            _ => false,
        };
    }
    // Pawn move: [file x] square [=] [promotion].
    let mut rest = b;
    if rest.len() >= 3 && (b'a'..=b'h').contains(&rest[0]) && rest[1] == b'x' {
        rest = &rest[2..];
    }
    if rest.len() < 2 || !is_square(&rest[..2]) {
        return false;
    }
    match &rest[2..] {
        [] => true,
        [p] | [b'=', p] => is_promotion_letter(*p) && p.is_ascii_uppercase(),
        _ => false,
    }
}

/// Splits off the first word; the rest keeps its inner spacing (for FENs, names, comments).
fn split_word(line: &str) -> (&str, &str) {
    match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    }
}

fn no_args(args: &[&str], command: Command) -> Result<Command, CommandError> {
    if args.is_empty() {
        Ok(command)
    } else {
        Err(CommandError::TooManyArguments)
    }
}

fn one_arg<'a>(args: &[&'a str]) -> Result<&'a str, CommandError> {
    match args {
        [] => Err(CommandError::MissingArgument),
        [one] => Ok(one),
        _ => Err(CommandError::TooManyArguments),
    }
}

fn rest_required(rest: &str) -> Result<String, CommandError> {
    if rest.is_empty() {
        Err(CommandError::MissingArgument)
    } else {
        Ok(rest.to_string())
    }
}

fn parse_number<T: std::str::FromStr>(text: &str) -> Result<T, CommandError> {
    text.parse::<T>()
        .map_err(|_| CommandError::BadNumber(text.to_string()))
}

/// A decimal integer of any length (as `ping` needs), returned as given.
fn parse_integer_text(text: &str) -> Result<String, CommandError> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        Ok(text.to_string())
    } else {
        Err(CommandError::BadNumber(text.to_string()))
    }
}

/// Protocol version; versions too large for a `u32` count as the largest (never refuse a newer
/// protocol).
fn parse_version(text: &str) -> Result<u32, CommandError> {
    parse_integer_text(text)?;
    Ok(text
        .parse::<u32>()
        .unwrap_or(if text.starts_with('-') { 0 } else { u32::MAX }))
}

fn parse_result(rest: &str) -> Result<Command, CommandError> {
    let (result, comment) = split_word(rest);
    if !matches!(result, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Err(if result.is_empty() {
            CommandError::MissingArgument
        } else {
            CommandError::BadResult(result.to_string())
        });
    }
    let comment = comment.trim_start_matches('{').trim_end_matches('}').trim();
    Ok(Command::Result {
        result: result.to_string(),
        comment: comment.to_string(),
    })
}

fn parse_rating(args: &[&str]) -> Result<Command, CommandError> {
    match args {
        [own, opponent] => Ok(Command::Rating {
            own: parse_number(own)?,
            opponent: parse_number(opponent)?,
        }),
        [] | [_] => Err(CommandError::MissingArgument),
        _ => Err(CommandError::TooManyArguments),
    }
}

fn parse_egtpath(rest: &str) -> Result<Command, CommandError> {
    let (kind, path) = split_word(rest);
    if kind.is_empty() || path.is_empty() {
        return Err(CommandError::MissingArgument);
    }
    Ok(Command::EgtPath {
        kind: kind.to_string(),
        path: path.to_string(),
    })
}

fn parse_option(rest: &str) -> Result<Command, CommandError> {
    if rest.is_empty() {
        return Err(CommandError::MissingArgument);
    }
    let (name, value) = match rest.split_once('=') {
        Some((name, value)) => (name.trim(), Some(value.trim().to_string())),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::MissingArgument);
    }
    Ok(Command::Option {
        name: name.to_string(),
        value,
    })
}

fn parse_selection(args: &[&str]) -> Result<MoveSelection, CommandError> {
    Ok(match one_arg(args)? {
        "all" => MoveSelection::All,
        mv => MoveSelection::Move(mv.to_string()),
    })
}

fn parse_setscore(args: &[&str]) -> Result<Command, CommandError> {
    match args {
        [score, depth] => Ok(Command::SetScore {
            score: parse_number(score)?,
            depth: parse_number(depth)?,
        }),
        [] | [_] => Err(CommandError::MissingArgument),
        _ => Err(CommandError::TooManyArguments),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        match parse_command(line) {
            Ok(c) => c,
            Err(e) => panic!("{line:?}: {e}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("xboard"), Command::Xboard);
        assert_eq!(ok("protover 2"), Command::Protover(2));
        assert_eq!(ok("protover 99999999999"), Command::Protover(u32::MAX));
        assert_eq!(ok("  new \r"), Command::New);
        assert_eq!(ok(""), Command::Empty);
        assert_eq!(ok("?"), Command::MoveNow);
        assert_eq!(ok("."), Command::Status);
        assert_eq!(ok("accepted myname"), Command::Accepted("myname".into()));
        assert_eq!(ok("time 1234"), Command::Time(1234));
        assert_eq!(ok("otim -50"), Command::Otim(-50));
        assert_eq!(ok("sd 7"), Command::Sd(7));
        assert_eq!(ok("nps 0"), Command::Nps(0));
        assert_eq!(ok("memory 64"), Command::Memory(64));
        assert_eq!(ok("cores 2"), Command::Cores(2));
        assert_eq!(
            ok("name Fairy-Max 5.0b"),
            Command::Name("Fairy-Max 5.0b".into())
        );
        assert_eq!(
            ok("rating 2100 1900"),
            Command::Rating {
                own: 2100,
                opponent: 1900
            }
        );
        assert_eq!(ok("lift e2"), Command::Highlight("e2".into()));
    }

    #[test]
    fn ping_takes_any_integer_text() {
        assert_eq!(ok("ping 1"), Command::Ping("1".into()));
        let huge = "ping 123456789012345678901234567890";
        assert_eq!(
            ok(huge),
            Command::Ping("123456789012345678901234567890".into())
        );
        assert_eq!(ok("ping -3"), Command::Ping("-3".into()));
        assert_eq!(
            parse_command("ping x1"),
            Err(CommandError::BadNumber("x1".into()))
        );
        assert_eq!(parse_command("ping"), Err(CommandError::MissingArgument));
    }

    #[test]
    fn arguments_are_checked() {
        assert_eq!(
            parse_command("new game"),
            Err(CommandError::TooManyArguments)
        );
        assert_eq!(parse_command("sd"), Err(CommandError::MissingArgument));
        assert_eq!(
            parse_command("sd -1"),
            Err(CommandError::BadNumber("-1".into()))
        );
        assert_eq!(
            parse_command("time 99999999999999999999999"),
            Err(CommandError::BadNumber("99999999999999999999999".into()))
        );
        assert_eq!(
            parse_command("setboard"),
            Err(CommandError::MissingArgument)
        );
        assert!(parse_command("level 40 5").is_err());
        assert!(parse_command("st abc").is_err());
        assert_eq!(parse_command("uci"), Err(CommandError::Uci));
    }

    #[test]
    fn moves_and_unknown_words() {
        for mv in [
            "e2e4", "e7e8q", "e7e8=Q", "e4", "Nf3", "exd5", "Bxf7+", "Qxf7#", "e8=Q", "O-O",
            "O-O-O", "0-0", "Nbd7", "R1e2", "Qh4xe1", "bxa8Q", "P@h3", "@@@@",
        ] {
            assert_eq!(ok(mv), Command::UserMove(mv.into()), "{mv}");
        }
        assert_eq!(ok("usermove e2e4"), Command::UserMove("e2e4".into()));
        for word in [
            "foo",
            "e9",
            "Nf9",
            "e2e4e5",
            "hello world",
            "Ke",
            "a",
            "Pe4",
        ] {
            assert!(parse_command(word).is_err(), "{word}");
        }
        assert_eq!(parse_command("frobnicate"), Err(CommandError::Unknown));
    }

    #[test]
    fn result_setboard_option_exclude() {
        assert_eq!(
            ok("result 1-0 {White mates}"),
            Command::Result {
                result: "1-0".into(),
                comment: "White mates".into()
            }
        );
        assert_eq!(
            ok("result *"),
            Command::Result {
                result: "*".into(),
                comment: String::new()
            }
        );
        assert!(matches!(
            parse_command("result 2-0"),
            Err(CommandError::BadResult(_))
        ));
        let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
        assert_eq!(
            ok(&format!("setboard {fen}")),
            Command::SetBoard(fen.into())
        );
        assert_eq!(
            ok("option Move Overhead=100"),
            Command::Option {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            ok("option Clear Hash"),
            Command::Option {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(ok("exclude all"), Command::Exclude(MoveSelection::All));
        assert_eq!(
            ok("include e2e4"),
            Command::Include(MoveSelection::Move("e2e4".into()))
        );
        assert_eq!(
            ok("egtpath syzygy /tb dir"),
            Command::EgtPath {
                kind: "syzygy".into(),
                path: "/tb dir".into()
            }
        );
    }

    #[test]
    fn edit_sub_commands() {
        assert_eq!(parse_edit_command("c"), Some(EditCommand::ToggleColor));
        assert_eq!(parse_edit_command("#"), Some(EditCommand::Clear));
        assert_eq!(parse_edit_command("."), Some(EditCommand::Done));
        assert_eq!(
            parse_edit_command("Pa4"),
            Some(EditCommand::Place {
                piece: 'P',
                square: 24
            })
        );
        assert_eq!(
            parse_edit_command("xh8"),
            Some(EditCommand::Remove { square: 63 })
        );
        assert_eq!(parse_edit_command("Za4"), None);
        assert_eq!(parse_edit_command("Pa9"), None);
        assert_eq!(parse_edit_command("new"), None);
    }
}
