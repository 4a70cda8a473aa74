//! The one PGN reader of Betacut, used by the book maker (which plays the main line, see
//! [`PgnGame::moves`]) and by `annotate` (which keeps everything). It splits a file into games
//! as it reads, one game at a time, each with its tag pairs and its movetext as tokens: moves,
//! comments, NAGs, variations and the result, every one with its line.
//!
//! The syntax is the usual export format: tag pairs (`[White "Kasparov"]`, several on a line
//! allowed), move numbers (`12.`, `12...`, or glued: `12.e4`), SAN moves, suffix annotations
//! (`!?`, read as their NAG), NAGs (`$1`), comments (`{...}` across lines and `;` to the end of
//! the line), variations (`(...)`, nested), `%` escape lines and a result (`1-0`, `0-1`,
//! `1/2-1/2`, `*`). Each line is UTF-8 when it is valid UTF-8, else Latin-1.
//!
//! Whether the moves are legal is for the caller, who plays them. Problems that do not stop
//! reading (a malformed tag, a bad NAG, an unmatched parenthesis, a comment left open) are kept
//! with their game as [`PgnProblem`]s. A comment left open swallows the text after it; when a
//! line that is a tag pair follows a blank line inside an open comment, the comment is taken to
//! be unterminated there, so the games after it are still read.

use std::collections::VecDeque;
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

/// A problem found while splitting a game; reading goes on after it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PgnProblem {
    /// A tag line that is not `[Name "value"]`.
    #[error("line {line}: malformed tag pair {text:?}")]
    MalformedTag {
        /// Its line.
        line: usize,
        /// The text from the bad tag on.
        text: String,
    },
    /// A `{` comment never closed (before the file's end or the next game's tags).
    #[error("line {line}: comment not closed")]
    CommentNotClosed {
        /// The line of the `{`.
        line: usize,
    },
    /// A `$` glyph without a number 0-255, or suffix annotations that mean nothing (`!!!`).
    #[error("line {line}: bad annotation glyph {text:?}")]
    BadNag {
        /// Its line.
        line: usize,
        /// The glyph.
        text: String,
    },
    /// A `)` with no variation open.
    #[error("line {line}: ')' without '('")]
    UnmatchedClose {
        /// Its line.
        line: usize,
    },
    /// A `(` still open when the game ended.
    #[error("line {line}: variation not closed")]
    VariationNotClosed {
        /// The line of the innermost `(` left open.
        line: usize,
    },
}

impl PgnProblem {
    /// The line of the file the problem is on.
    pub fn line(&self) -> usize {
        match self {
            PgnProblem::MalformedTag { line, .. }
            | PgnProblem::CommentNotClosed { line }
            | PgnProblem::BadNag { line, .. }
            | PgnProblem::UnmatchedClose { line }
            | PgnProblem::VariationNotClosed { line } => *line,
        }
    }
}

/// What a movetext token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A move as written, suffix annotations removed (`Nf3`, `exd8=Q+`, `O-O`).
    Move(String),
    /// A numeric annotation glyph (`$6`, or `?!` written after a move).
    Nag(u8),
    /// A comment's text (`{...}` or `; ...`), without its delimiters and outer spaces.
    Comment(String),
    /// `(`: a variation starts.
    Open,
    /// `)`: a variation ends.
    Close,
    /// A game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(String),
}

/// One movetext token and the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub kind: TokenKind,
    /// Its line in the file.
    pub line: usize,
}

/// One main-line move as written, with its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgnMove<'a> {
    /// The move text (SAN, suffix annotations removed).
    pub text: &'a str,
    /// The line it is on (1-based).
    pub line: usize,
}

/// One game: its tags, its movetext and the problems found while reading it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The line the game starts on.
    pub line: usize,
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The movetext, variations and comments included.
    pub tokens: Vec<Token>,
    /// Problems found while reading it, in file order.
    pub problems: Vec<PgnProblem>,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The main line's moves (those outside every variation), in order.
    pub fn moves(&self) -> impl Iterator<Item = PgnMove<'_>> {
        self.main_line().filter_map(|token| match &token.kind {
            TokenKind::Move(text) => Some(PgnMove {
                text,
                line: token.line,
            }),
            _ => None,
        })
    }

    /// The result written at the end of the main line, if any.
    pub fn termination(&self) -> Option<&str> {
        self.main_line().find_map(|token| match &token.kind {
            TokenKind::Result(result) => Some(result.as_str()),
            _ => None,
        })
    }

    /// The result: the `Result` tag, else the movetext's termination, else `*`.
    pub fn result(&self) -> &str {
        self.tag("Result").or(self.termination()).unwrap_or("*")
    }

    /// The tokens outside every variation (an unmatched `)` closes nothing).
    fn main_line(&self) -> impl Iterator<Item = &Token> {
        let mut depth = 0usize;
        self.tokens.iter().filter(move |token| match token.kind {
            TokenKind::Open => {
                depth += 1;
                false
            }
            TokenKind::Close => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0,
        })
    }

    /// Nothing worth a game: no tags, no problem and no movetext but comments (a comment
    /// after a game's result, or between games).
    fn is_empty(&self) -> bool {
        self.tags.is_empty()
            && self.problems.is_empty()
            && self
                .tokens
                .iter()
                .all(|t| matches!(t.kind, TokenKind::Comment(_)))
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

/// The NAG of a suffix annotation (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
pub fn suffix_nag(suffix: &str) -> Option<u8> {
    match suffix {
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    }
}

/// Every game of PGN text held in memory (`&str` or bytes, each line UTF-8 or Latin-1).
/// Reading memory cannot fail, so there is no I/O error to report.
pub fn split_games(text: impl AsRef<[u8]>) -> Vec<PgnGame> {
    PgnReader::new(text.as_ref())
        .filter_map(Result::ok)
        .collect()
}

/// Splits PGN text from `input` into games, one at a time, reading no further than the line
/// that ends the game.
pub struct PgnReader<R: BufRead> {
    input: R,
    /// The line being read, as bytes (kept to reuse its buffer).
    buffer: Vec<u8>,
    line: usize,
    previous_blank: bool,
    current: PgnGame,
    /// The current game's line is set (something of it has been read).
    started: bool,
    /// Movetext was seen in the current game (so a tag line starts the next game).
    in_movetext: bool,
    /// An open `{` comment: its line and its text so far.
    comment: Option<(usize, String)>,
    /// The lines of the variations open, outermost first.
    open: Vec<usize>,
    ready: VecDeque<PgnGame>,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            input,
            buffer: Vec::new(),
            line: 0,
            previous_blank: true,
            current: PgnGame::default(),
            started: false,
            in_movetext: false,
            comment: None,
            open: Vec::new(),
            ready: VecDeque::new(),
            done: false,
        }
    }

    fn finish_game(&mut self) {
        if let Some(&line) = self.open.last() {
            self.current
                .problems
                .push(PgnProblem::VariationNotClosed { line });
        }
        self.open.clear();
        self.started = false;
        self.in_movetext = false;
        let game = std::mem::take(&mut self.current);
        if !game.is_empty() {
            self.ready.push_back(game);
        }
    }

    fn start(&mut self, line: usize) {
        if !self.started {
            self.started = true;
            self.current.line = line;
        }
    }

    fn push(&mut self, line: usize, kind: TokenKind) {
        self.start(line);
        self.in_movetext = true;
        self.current.tokens.push(Token { kind, line });
    }

    fn read_line(&mut self, text: &str) {
        let line = self.line;
        let mut rest = text;
        if let Some((start, mut comment)) = self.comment.take() {
            if self.previous_blank && looks_like_tag_line(text) {
                // The comment was never closed: this line starts the next game.
                self.current
                    .problems
                    .push(PgnProblem::CommentNotClosed { line: start });
                self.finish_game();
            } else if let Some(end) = text.find('}') {
                comment.push(' ');
                comment.push_str(&text[..end]);
                self.push(start, TokenKind::Comment(comment.trim().to_string()));
                rest = &text[end + 1..];
            } else {
                comment.push(' ');
                comment.push_str(text);
                self.comment = Some((start, comment));
                return;
            }
        } else if text.starts_with('%') {
            return; // an escape line
        }
        let trimmed = rest.trim_start();
        if rest.len() == text.len() && trimmed.starts_with('[') {
            if self.in_movetext {
                // Movetext without a result, then the next game's tags.
                self.finish_game();
            }
            self.start(line);
            self.read_tags(line, trimmed);
            return;
        }
        self.read_movetext(line, rest);
    }

    fn read_tags(&mut self, line: usize, mut text: &str) {
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
                    self.current.problems.push(PgnProblem::MalformedTag {
                        line,
                        text: text.trim().to_string(),
                    });
                    return;
                }
            }
        }
    }

    fn read_movetext(&mut self, line: usize, text: &str) {
        let mut chars = text.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            match c {
                '{' => {
                    let body = &text[start + 1..];
                    match body.find('}') {
                        Some(end) => {
                            self.push(line, TokenKind::Comment(body[..end].trim().to_string()));
                            // Skip the comment's characters.
                            let stop = start + 1 + end;
                            while chars.next_if(|&(i, _)| i <= stop).is_some() {}
                        }
                        None => {
                            self.start(line);
                            self.in_movetext = true;
                            self.comment = Some((line, body.to_string()));
                            return;
                        }
                    }
                }
                ';' => {
                    let comment = text[start + 1..].trim().to_string();
                    self.push(line, TokenKind::Comment(comment));
                    return;
                }
                '(' => {
                    self.open.push(line);
                    self.push(line, TokenKind::Open);
                }
                ')' => {
                    if self.open.pop().is_none() {
                        self.current
                            .problems
                            .push(PgnProblem::UnmatchedClose { line });
                    }
                    self.push(line, TokenKind::Close);
                }
                c if c.is_whitespace() => {}
                _ => {
                    let mut end = start + c.len_utf8();
                    while let Some((i, next)) =
                        chars.next_if(|&(_, n)| !n.is_whitespace() && !"{}();".contains(n))
                    {
                        end = i + next.len_utf8();
                    }
                    self.read_word(line, &text[start..end]);
                }
            }
        }
    }

    fn read_word(&mut self, line: usize, word: &str) {
        self.start(line);
        self.in_movetext = true;
        if is_result(word) {
            self.push(line, TokenKind::Result(word.to_string()));
            if self.open.is_empty() {
                self.finish_game();
            }
            return;
        }
        if let Some(number) = word.strip_prefix('$') {
            match number.parse::<u8>() {
                Ok(nag) => self.push(line, TokenKind::Nag(nag)),
                Err(_) => self.current.problems.push(PgnProblem::BadNag {
                    line,
                    text: word.to_string(),
                }),
            }
            return;
        }
        // A move number, alone (`12.`, `12...`) or glued to its move (`12.e4`).
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let word = if digits > 0 && word[digits..].starts_with('.') {
            &word[digits..]
        } else {
            word
        };
        let word = word.trim_start_matches('.');
        if word.is_empty() || word == "e.p." {
            return;
        }
        let mv = word.trim_end_matches(['!', '?']);
        let suffix = &word[mv.len()..];
        if !mv.is_empty() {
            self.push(line, TokenKind::Move(mv.to_string()));
        }
        if !suffix.is_empty() {
            match suffix_nag(suffix) {
                Some(nag) => self.push(line, TokenKind::Nag(nag)),
                None => self.current.problems.push(PgnProblem::BadNag {
                    line,
                    text: suffix.to_string(),
                }),
            }
        }
    }
}

/// Parses `[Name "value"]` at the start of `text`; returns the tag and what follows.
fn parse_tag(text: &str) -> Option<(String, String, &str)> {
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

/// True for a line holding one tag pair and nothing else.
fn looks_like_tag_line(text: &str) -> bool {
    let text = text.trim();
    text.starts_with('[') && parse_tag(text).is_some_and(|(_, _, rest)| rest.trim().is_empty())
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut bytes = std::mem::take(&mut self.buffer);
        while self.ready.is_empty() && !self.done {
            bytes.clear();
            match self.input.read_until(b'\n', &mut bytes) {
                Ok(0) => {
                    self.done = true;
                    if let Some((line, _)) = self.comment.take() {
                        self.current
                            .problems
                            .push(PgnProblem::CommentNotClosed { line });
                    }
                    self.finish_game();
                }
                Ok(_) => {
                    self.line += 1;
                    let text = decode_pgn_text(&bytes);
                    let text = text.trim_end_matches(['\n', '\r']);
                    self.read_line(text);
                    self.previous_blank = text.trim().is_empty();
                }
                Err(source) => {
                    self.done = true;
                    self.buffer = bytes;
                    return Some(Err(PgnError {
                        line: self.line + 1,
                        source,
                    }));
                }
            }
        }
        self.buffer = bytes;
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
        game.moves().map(|m| m.text).collect()
    }

    fn kinds(game: &PgnGame) -> Vec<TokenKind> {
        game.tokens.iter().map(|t| t.kind.clone()).collect()
    }

    fn mv(text: &str) -> TokenKind {
        TokenKind::Move(text.to_string())
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
        assert_eq!(first.moves().nth(8).map(|m| m.line), Some(9));
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
        let problems: Vec<String> = games[0].problems.iter().map(|p| p.to_string()).collect();
        let problems = problems.join(" | ");
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
            .any(|p| p.to_string().contains("comment not closed")));
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

    #[test]
    fn comments_nags_and_variations_are_kept_with_their_lines() {
        let text = "[Event \"a \\\"b\\\"\"]\n\n1. e4 {open\nking} e5?! 2.Nf3 $1 (2. f4 exf4) ; line\n2... Nc6 1-0\n";
        let games = split_games(text);
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.tags, vec![("Event".into(), "a \"b\"".into())]);
        assert_eq!(game.problems, vec![]);
        assert_eq!(
            kinds(game),
            vec![
                mv("e4"),
                TokenKind::Comment("open king".into()),
                mv("e5"),
                TokenKind::Nag(6),
                mv("Nf3"),
                TokenKind::Nag(1),
                TokenKind::Open,
                mv("f4"),
                mv("exf4"),
                TokenKind::Close,
                TokenKind::Comment("line".into()),
                mv("Nc6"),
                TokenKind::Result("1-0".into()),
            ]
        );
        assert_eq!(game.tokens[2].line, 4);
        assert_eq!(game.tokens[11].line, 5);
        // The main line leaves the variation out.
        assert_eq!(moves(game), vec!["e4", "e5", "Nf3", "Nc6"]);
    }

    #[test]
    fn a_result_inside_a_variation_does_not_end_the_game() {
        let games = split_games("1. e4 (1. d4 *) e5 0-1\n1. c4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].tokens.last().map(|t| &t.kind),
            Some(&TokenKind::Result("0-1".into()))
        );
        assert_eq!(moves(&games[0]), vec!["e4", "e5"]);
        assert_eq!(games[0].termination(), Some("0-1"));
    }

    /// The book maker's old reader let an unclosed comment swallow the rest of the file;
    /// annotate's stopped it at the next game's tags. The one reader does the latter for both.
    #[test]
    fn an_unterminated_comment_ends_at_the_next_game_s_tags() {
        let text = "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].problems,
            vec![PgnProblem::CommentNotClosed { line: 3 }]
        );
        assert_eq!(moves(&games[0]), vec!["e4"]);
        assert_eq!(games[1].tags, vec![("Event".into(), "b".into())]);
        assert_eq!(games[1].problems, vec![]);
        assert_eq!(games[1].line, 5);
        assert_eq!(moves(&games[1]), vec!["d4", "d5"]);
        let at_end = split_games("1. e4 {open\n");
        assert_eq!(
            at_end[0].problems,
            vec![PgnProblem::CommentNotClosed { line: 1 }]
        );
    }

    #[test]
    fn broken_tags_and_glyphs_are_problems_of_their_game() {
        let games = split_games("[Event \"a]\n1. e4 *\n\n[Event \"b\"]\n1. e4 $x e5 *\n");
        assert_eq!(games.len(), 2);
        assert!(matches!(
            games[0].problems[..],
            [PgnProblem::MalformedTag { line: 1, .. }]
        ));
        assert!(matches!(
            games[1].problems[..],
            [PgnProblem::BadNag { line: 5, .. }]
        ));
        assert_eq!(moves(&games[1]), vec!["e4", "e5"]);
    }

    /// Annotate's old reader made a game of a comment written after a game's result; the book
    /// maker's dropped it. The one reader drops it for both.
    #[test]
    fn a_comment_between_games_makes_no_game() {
        let text = "[Event \"a\"]\n1. f3 e5 2. g4 Qh4# 0-1 {mate}\n\n{between games}\n\n[Event \"b\"]\n1. e4 *\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!(moves(&games[0]), vec!["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(games[1].tag("Event"), Some("b"));
        assert_eq!(games[1].line, 6);
        assert!(games[1]
            .tokens
            .iter()
            .all(|t| t.kind != TokenKind::Comment("mate".into())));
    }

    /// Annotate's old reader decoded the whole file as Latin-1 once one byte was not UTF-8;
    /// the one reader decodes each line, so UTF-8 and Latin-1 lines both read right.
    #[test]
    fn each_line_is_decoded_on_its_own() {
        let games = split_games(b"[White \"M\xc3\xbcller\"]\n[Black \"Mikha\xefl\"]\n1. e4 *\n");
        assert_eq!(games[0].tag("White"), Some("Müller"));
        assert_eq!(games[0].tag("Black"), Some("Mikhaïl"));
    }

    /// One piece of random movetext: the text written and the tokens it stands for.
    fn piece(choice: (u8, usize, String)) -> (String, Vec<TokenKind>) {
        const SANS: [&str; 8] = [
            "e4", "Nf3", "exd5", "O-O", "Qxh7#", "e8=Q+", "Rad1", "O-O-O",
        ];
        const SUFFIXES: [(&str, u8); 6] = [
            ("!", 1),
            ("?", 2),
            ("!!", 3),
            ("??", 4),
            ("!?", 5),
            ("?!", 6),
        ];
        let (kind, n, comment) = choice;
        let san = SANS[n % SANS.len()];
        match kind % 6 {
            0 => (san.to_string(), vec![mv(san)]),
            1 => (format!("{}.{san}", n % 90 + 1), vec![mv(san)]),
            2 => (format!("{}... {san}", n % 90 + 1), vec![mv(san)]),
            3 => {
                let (suffix, nag) = SUFFIXES[n % SUFFIXES.len()];
                (format!("{san}{suffix}"), vec![mv(san), TokenKind::Nag(nag)])
            }
            4 => (
                format!("${}", n % 256),
                vec![TokenKind::Nag((n % 256) as u8)],
            ),
            _ => (
                format!("{{{comment}}}"),
                vec![TokenKind::Comment(comment.trim().to_string())],
            ),
        }
    }

    proptest::proptest! {
        /// Movetext reads back as the tokens it was written from, whatever the line breaks, and
        /// the main line is the moves outside the variations.
        #[test]
        fn movetext_reads_back_as_its_tokens(
            pieces in proptest::collection::vec(
                (0u8..6, 0usize..1000, "[a-z ]{0,12}", 0u8..4, 0u8..3),
                0..40,
            ),
            result in 0usize..4,
        ) {
            let mut text = String::from("[Event \"random\"]\n\n");
            let mut expected = Vec::new();
            let mut main = Vec::new();
            let mut depth = 0usize;
            for (kind, n, comment, paren, gap) in pieces {
                // Open or close a variation now and then, after a main-line move.
                if paren == 0 && main.len() > depth {
                    depth += 1;
                    text.push('(');
                    expected.push(TokenKind::Open);
                } else if paren == 1 && depth > 0 {
                    depth -= 1;
                    text.push_str(") ");
                    expected.push(TokenKind::Close);
                }
                let (written, tokens) = piece((kind, n, comment));
                if depth == 0 {
                    main.extend(tokens.iter().filter_map(|t| match t {
                        TokenKind::Move(m) => Some(m.clone()),
                        _ => None,
                    }));
                }
                text.push_str(&written);
                text.push_str(["\n", " ", "  \n"][usize::from(gap)]);
                expected.extend(tokens);
            }
            for _ in 0..depth {
                text.push_str(")\n");
                expected.push(TokenKind::Close);
            }
            let result = ["1-0", "0-1", "1/2-1/2", "*"][result];
            text.push_str(result);
            expected.push(TokenKind::Result(result.to_string()));
            let games = split_games(&text);
            proptest::prop_assert_eq!(games.len(), 1, "{}", text);
            let game = &games[0];
            proptest::prop_assert_eq!(&game.problems, &Vec::new(), "{}", text);
            proptest::prop_assert_eq!(kinds(game), expected, "{}", text);
            proptest::prop_assert_eq!(moves(game), main, "{}", text);
            proptest::prop_assert_eq!(game.termination(), Some(result));
        }
    }
}
