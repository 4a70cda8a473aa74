//! A reader for PGN files in the usual export format: tag pairs (`[White "Kasparov"]`) and
//! movetext with move numbers (`12.`, `12...`), SAN moves, comments (`{...}` across lines and
//! `;` to the end of the line), variations (`(...)`, nested, skipped), NAGs (`$1`), suffix
//! annotations (`!?`), `%` escape lines and a result (`1-0`, `0-1`, `1/2-1/2`, `*`).
//!
//! It only splits the text into games and main-line move texts; whether the moves are legal
//! is for the caller, who plays them. Problems that do not stop reading (a malformed tag, an
//! unmatched parenthesis, a comment left open at the end) are kept with the game, by line.

use std::io::{self, BufRead};
use thiserror::Error;

/// Reading the file failed.
#[derive(Debug, Error)]
#[error("reading line {line}: {source}")]
pub struct PgnError {
    /// The line being read.
    pub line: usize,
    /// What the system said.
    #[source]
    pub source: io::Error,
}

/// One main-line move as written, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move text (SAN, suffix annotations removed).
    pub text: String,
    /// The line it is on (1-based).
    pub line: usize,
}

/// One game: its tags, its main line and how its movetext ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The main line's moves.
    pub moves: Vec<PgnMove>,
    /// The result written at the end of the movetext, if any.
    pub termination: Option<String>,
    /// The line the game starts on.
    pub line: usize,
    /// Problems found while reading it (line numbers included).
    pub problems: Vec<String>,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result: the `Result` tag, else the movetext's termination, else `*`.
    pub fn result(&self) -> &str {
        self.tag("Result")
            .or(self.termination.as_deref())
            .unwrap_or("*")
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.termination.is_none()
    }
}

/// PGN text from its bytes: UTF-8 when they are valid UTF-8, otherwise ISO 8859-1 (Latin-1),
/// the character set the PGN standard prescribes, in which every byte is a character (so
/// `Mikha\xefl` reads as `Mikhaïl`). Nothing is refused or replaced.
pub fn decode_pgn_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// True for the four results that end a movetext.
pub fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Splits PGN text from `input` into games, one at a time.
pub struct PgnReader<R: BufRead> {
    input: R,
    line: usize,
    in_comment: bool,
    depth: usize,
    current: PgnGame,
    /// Movetext was seen in the current game (so a tag line starts the next game).
    in_movetext: bool,
    ready: std::collections::VecDeque<PgnGame>,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            input,
            line: 0,
            in_comment: false,
            depth: 0,
            current: PgnGame::default(),
            in_movetext: false,
            ready: std::collections::VecDeque::new(),
            done: false,
        }
    }

    fn finish_game(&mut self) {
        if self.depth > 0 {
            self.current
                .problems
                .push(format!("line {}: variation not closed", self.line));
            self.depth = 0;
        }
        let game = std::mem::take(&mut self.current);
        self.in_movetext = false;
        if !game.is_empty() {
            self.ready.push_back(game);
        }
    }

    fn start_line(&mut self) {
        if self.current.is_empty() && !self.in_movetext {
            self.current.line = self.line;
        }
    }

    fn read_line(&mut self, text: &str) {
        let mut rest = text;
        if self.in_comment {
            match rest.find('}') {
                Some(end) => {
                    self.in_comment = false;
                    rest = &rest[end + 1..];
                }
                None => return,
            }
        } else if rest.starts_with('%') {
            return; // escape line
        }
        let trimmed = rest.trim_start();
        if trimmed.starts_with('[') && rest.len() == text.len() {
            if self.in_movetext {
                self.finish_game();
            }
            self.start_line();
            self.read_tags(trimmed);
            return;
        }
        self.read_movetext(rest);
    }

    fn read_tags(&mut self, mut text: &str) {
        let line = self.line;
        loop {
            text = text.trim_start();
            if text.is_empty() {
                return;
            }
            match parse_tag(text) {
                Some((name, value, rest)) => {
                    self.current.tags.push((name, value));
                    text = rest;
                }
                None => {
                    self.current
                        .problems
                        .push(format!("line {line}: malformed tag pair {:?}", text.trim()));
                    return;
                }
            }
        }
    }

    fn read_movetext(&mut self, text: &str) {
        let mut chars = text.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if self.in_comment {
                if c == '}' {
                    self.in_comment = false;
                }
                continue;
            }
            match c {
                '{' => self.in_comment = true,
                ';' => return,
                '(' => self.depth += 1,
                ')' => {
                    if self.depth == 0 {
                        self.current
                            .problems
                            .push(format!("line {}: ')' without '('", self.line));
                    } else {
                        self.depth -= 1;
                    }
                }
                c if c.is_whitespace() => {}
                _ => {
                    let mut end = start + c.len_utf8();
                    while let Some(&(i, next)) = chars.peek() {
                        if next.is_whitespace() || "{}();".contains(next) {
                            break;
                        }
                        end = i + next.len_utf8();
                        chars.next();
                    }
                    self.read_token(&text[start..end]);
                }
            }
        }
    }

    fn read_token(&mut self, token: &str) {
        self.start_line();
        self.in_movetext = true;
        if self.depth > 0 {
            return;
        }
        if is_result(token) {
            self.current.termination = Some(token.to_string());
            self.finish_game();
            return;
        }
        // A move number, alone (`12.`, `12...`) or glued to its move (`12.e4`).
        let mut token = token;
        let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && token[digits..].starts_with('.') {
            token = token[digits..].trim_start_matches('.');
        }
        let token = token.trim_start_matches('.');
        let token = token.trim_end_matches(['!', '?']);
        if token.is_empty() || token.starts_with('$') || token == "e.p." {
            return;
        }
        self.current.moves.push(PgnMove {
            text: token.to_string(),
            line: self.line,
        });
    }
}

/// Parses `[Name "value"]` at the start of `text`; returns the tag and what follows.
pub(crate) fn parse_tag(text: &str) -> Option<(String, String, &str)> {
    let rest = text.strip_prefix('[')?.trim_start();
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if name_end == 0 {
        return None;
    }
    let name = rest[..name_end].to_string();
    let rest = rest[name_end..].trim_start().strip_prefix('"')?;
    let mut value = String::new();
    let mut escaped = false;
    let mut close = None;
    for (i, c) in rest.char_indices() {
        if escaped {
            value.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            close = Some(i);
            break;
        } else {
            value.push(c);
        }
    }
    let rest = rest[close? + 1..].trim_start().strip_prefix(']')?;
    Some((name, value, rest))
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut bytes = Vec::new();
        while self.ready.is_empty() && !self.done {
            bytes.clear();
            match self.input.read_until(b'\n', &mut bytes) {
                Ok(0) => {
                    self.done = true;
                    if self.in_comment {
                        self.current
                            .problems
                            .push(format!("line {}: comment not closed", self.line));
                        self.in_comment = false;
                    }
                    self.finish_game();
                }
                Ok(_) => {
                    self.line += 1;
                    // PGN files are often Latin-1, as the standard has them.
                    let text = decode_pgn_text(&bytes);
                    let text = text.trim_end_matches(['\n', '\r']);
                    self.read_line(text);
                }
                Err(source) => {
                    self.done = true;
                    return Some(Err(PgnError {
                        line: self.line + 1,
                        source,
                    }));
                }
            }
        }
        self.ready.pop_front().map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<PgnGame> {
        PgnReader::new(text.as_bytes())
            .map(|g| match g {
                Ok(game) => game,
                Err(err) => panic!("{err}"),
            })
            .collect()
    }

    fn moves(game: &PgnGame) -> Vec<&str> {
        game.moves.iter().map(|m| m.text.as_str()).collect()
    }

    #[test]
    fn tags_moves_comments_variations_and_results() {
        let text = "% an escape line\n\
            [Event \"Casual \\\"game\\\"\"]\n\
            [White \"A\"] [Black \"B\"]\n\
            [Result \"1-0\"]\n\
            \n\
            1. e4 {best by test} e5 2.Nf3 $1 Nc6 (2... d6 3. d4 (3. Bc4) exd4) 3. Bb5!? a6\n\
            ; a line comment 4. Ba4\n\
            4.Bxc6 dxc6 {a comment\n\
            over two lines (with 5. O-O)} 5. O-O 1-0\n\
            \n\
            [Event \"second\"]\n\
            [Result \"*\"]\n\
            \n\
            1. d4 d5 2. c4 *\n\
            1. e4 c5 1/2-1/2\n";
        let games = read(text);
        assert_eq!(games.len(), 3);
        let first = &games[0];
        assert_eq!(first.tag("Event"), Some("Casual \"game\""));
        assert_eq!(first.tag("Black"), Some("B"));
        assert_eq!(first.result(), "1-0");
        assert_eq!(first.line, 2);
        assert_eq!(
            moves(first),
            vec!["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
        );
        assert_eq!(first.moves[8].line, 9);
        assert!(first.problems.is_empty(), "{:?}", first.problems);
        assert_eq!(games[1].tag("Event"), Some("second"));
        assert_eq!(moves(&games[1]), vec!["d4", "d5", "c4"]);
        assert_eq!(games[1].result(), "*");
        assert!(games[2].tags.is_empty());
        assert_eq!(games[2].result(), "1/2-1/2");
        assert_eq!(moves(&games[2]), vec!["e4", "c5"]);
    }

    #[test]
    fn games_without_a_result_end_at_the_next_tags() {
        let text =
            "[Event \"a\"]\n1. e4 e5\n[Event \"b\"]\n[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4#\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert_eq!(moves(&games[0]), vec!["e4", "e5"]);
        assert_eq!(games[0].result(), "*");
        assert_eq!(games[1].result(), "0-1");
        assert_eq!(moves(&games[1]), vec!["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(games[1].line, 3);
    }

    #[test]
    fn problems_are_reported_and_reading_goes_on() {
        let text = "[Event \"a\"\n[Site \"x\"]\n1. e4 ) e5 (1... c5 2. Nf3\n\n[Event \"b\"]\n1. d4 {open\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Site"), Some("x"));
        assert_eq!(moves(&games[0]), vec!["e4", "e5"]);
        let problems = games[0].problems.join(" | ");
        assert!(
            problems.contains("line 1: malformed tag pair"),
            "{problems}"
        );
        assert!(problems.contains("line 3: ')' without '('"), "{problems}");
        assert!(problems.contains("variation not closed"), "{problems}");
        assert_eq!(moves(&games[1]), vec!["d4"]);
        assert!(games[1]
            .problems
            .iter()
            .any(|p| p.contains("comment not closed")));
        assert!(read("").is_empty());
        assert!(read("\n\n  \n").is_empty());
    }

    #[test]
    fn latin1_files_are_read_as_latin1() {
        let bytes = b"[White \"Tal, Mikha\xefl\"]\n1. e4 *\n";
        let games: Vec<PgnGame> = PgnReader::new(&bytes[..]).filter_map(Result::ok).collect();
        assert_eq!(games.len(), 1);
        assert_eq!(moves(&games[0]), vec!["e4"]);
        assert_eq!(games[0].tag("White"), Some("Tal, Mikhaïl"));
        // UTF-8 stays UTF-8; a byte that is not UTF-8 makes the text Latin-1.
        assert_eq!(decode_pgn_text("Müller".as_bytes()), "Müller");
        assert_eq!(decode_pgn_text(b"M\xfcller"), "Müller");
        assert_eq!(decode_pgn_text(b"\xa9 1851"), "© 1851");
    }
}
