//! Splits PGN text into games and their movetext into tokens, keeping what the book maker's
//! reader (`crate::book::pgn`) throws away: comments, NAGs, suffix annotations and variations,
//! each with its line. Whether the moves are legal is for [`super::game`].
//!
//! A comment left open swallows the text after it; when a line that is a tag pair follows a
//! blank line inside an open comment, the comment is taken to be unterminated there, so the
//! games after it are still read.

use super::GameError;
use crate::book::pgn::{is_result, parse_tag};

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

/// One game as split from the file: tags and movetext tokens, or the first problem that
/// makes it unreadable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// The line the game starts on.
    pub line: usize,
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The movetext.
    pub tokens: Vec<Token>,
    /// The first problem found while splitting (a malformed tag, a comment never closed).
    pub error: Option<GameError>,
}

impl RawGame {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.tokens.is_empty() && self.error.is_none()
    }

    fn fail(&mut self, error: GameError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }
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

/// Splits `text` into games.
pub fn split_games(text: &str) -> Vec<RawGame> {
    let mut splitter = Splitter::default();
    let mut previous_blank = true;
    for (index, line) in text.lines().enumerate() {
        splitter.read_line(index + 1, line, previous_blank);
        previous_blank = line.trim().is_empty();
    }
    splitter.finish_file();
    splitter.games
}

#[derive(Default)]
struct Splitter {
    games: Vec<RawGame>,
    current: RawGame,
    /// An open `{` comment: its line and text so far.
    comment: Option<(usize, String)>,
    /// Variation depth, to tell a main-line result (the game's end) from one inside `( )`.
    depth: usize,
}

impl Splitter {
    fn finish_game(&mut self) {
        self.depth = 0;
        let game = std::mem::take(&mut self.current);
        if !game.is_empty() {
            self.games.push(game);
        }
    }

    fn finish_file(&mut self) {
        if let Some((line, _)) = self.comment.take() {
            self.current.fail(GameError::CommentNotClosed { line });
        }
        self.finish_game();
    }

    fn start(&mut self, line: usize) {
        if self.current.is_empty() {
            self.current.line = line;
        }
    }

    fn read_line(&mut self, line: usize, text: &str, previous_blank: bool) {
        let mut rest = text;
        if let Some((start, mut comment)) = self.comment.take() {
            if previous_blank && looks_like_tag_line(text) {
                // The comment was never closed: this line starts the next game.
                self.current
                    .fail(GameError::CommentNotClosed { line: start });
                self.finish_game();
            } else {
                match text.find('}') {
                    Some(end) => {
                        comment.push(' ');
                        comment.push_str(&text[..end]);
                        self.push(start, TokenKind::Comment(comment.trim().to_string()));
                        rest = &text[end + 1..];
                    }
                    None => {
                        comment.push(' ');
                        comment.push_str(text);
                        self.comment = Some((start, comment));
                        return;
                    }
                }
            }
        } else if text.starts_with('%') {
            return; // an escape line
        }
        let trimmed = rest.trim_start();
        if rest.len() == text.len() && trimmed.starts_with('[') {
            if !self.current.tokens.is_empty() {
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
                    self.current.fail(GameError::MalformedTag {
                        line,
                        text: text.trim().to_string(),
                    });
                    return;
                }
            }
        }
    }

    fn push(&mut self, line: usize, kind: TokenKind) {
        self.start(line);
        self.current.tokens.push(Token { kind, line });
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
                            while chars.peek().is_some_and(|&(i, _)| i <= stop) {
                                chars.next();
                            }
                        }
                        None => {
                            self.start(line);
                            self.comment = Some((line, body.to_string()));
                            return;
                        }
                    }
                }
                ';' => {
                    self.push(
                        line,
                        TokenKind::Comment(text[start + 1..].trim().to_string()),
                    );
                    return;
                }
                '(' => {
                    self.depth += 1;
                    self.push(line, TokenKind::Open);
                }
                ')' => {
                    self.depth = self.depth.saturating_sub(1);
                    self.push(line, TokenKind::Close);
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
                    self.read_word(line, &text[start..end]);
                }
            }
        }
    }

    fn read_word(&mut self, line: usize, word: &str) {
        if is_result(word) {
            self.push(line, TokenKind::Result(word.to_string()));
            if self.depth == 0 {
                self.finish_game();
            }
            return;
        }
        if let Some(number) = word.strip_prefix('$') {
            match number.parse::<u8>() {
                Ok(nag) => self.push(line, TokenKind::Nag(nag)),
                Err(_) => self.current.fail(GameError::BadNag {
                    line,
                    text: word.to_string(),
                }),
            }
            return;
        }
        // A move number, alone (`12.`, `12...`) or glued to its move (`12.e4`).
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let word = if digits > 0 && word[digits..].starts_with('.') {
            word[digits..].trim_start_matches('.')
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
                None => self.current.fail(GameError::BadNag {
                    line,
                    text: suffix.to_string(),
                }),
            }
        }
    }
}

/// True for a line holding one tag pair and nothing else.
fn looks_like_tag_line(text: &str) -> bool {
    let text = text.trim();
    text.starts_with('[') && parse_tag(text).is_some_and(|(_, _, rest)| rest.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(game: &RawGame) -> Vec<TokenKind> {
        game.tokens.iter().map(|t| t.kind.clone()).collect()
    }

    fn mv(text: &str) -> TokenKind {
        TokenKind::Move(text.to_string())
    }

    #[test]
    fn comments_nags_and_variations_are_kept_with_their_lines() {
        let text = "[Event \"a \\\"b\\\"\"]\n\n1. e4 {open\nking} e5?! 2.Nf3 $1 (2. f4 exf4) ; line\n2... Nc6 1-0\n";
        let games = split_games(text);
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.tags, vec![("Event".into(), "a \"b\"".into())]);
        assert_eq!(game.error, None);
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
    }

    #[test]
    fn a_result_inside_a_variation_does_not_end_the_game() {
        let games = split_games("1. e4 (1. d4 *) e5 0-1\n1. c4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].tokens.last().map(|t| &t.kind),
            Some(&TokenKind::Result("0-1".into()))
        );
    }

    #[test]
    fn an_unterminated_comment_ends_at_the_next_game_s_tags() {
        let text = "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].error,
            Some(GameError::CommentNotClosed { line: 3 })
        );
        assert_eq!(games[1].tags, vec![("Event".into(), "b".into())]);
        assert_eq!(games[1].error, None);
        assert_eq!(games[1].line, 5);
        let at_end = split_games("1. e4 {open\n");
        assert_eq!(
            at_end[0].error,
            Some(GameError::CommentNotClosed { line: 1 })
        );
    }

    #[test]
    fn broken_tags_and_glyphs_are_errors_of_their_game() {
        let games = split_games("[Event \"a]\n1. e4 *\n\n[Event \"b\"]\n1. e4 $x e5 *\n");
        assert_eq!(games.len(), 2);
        assert!(matches!(
            games[0].error,
            Some(GameError::MalformedTag { line: 1, .. })
        ));
        assert!(matches!(
            games[1].error,
            Some(GameError::BadNag { line: 5, .. })
        ));
    }
}
