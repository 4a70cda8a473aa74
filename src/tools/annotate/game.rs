//! A game ready for analysis: its start position, its main line as legal moves with the NAGs,
//! comments and variations the file gave each (every variation checked legal as well), and its
//! result. Built from the tokens of [`crate::book::pgn`].

use super::GameError;
use crate::board::{Move, MoveParseError, Position, START_FEN};
use crate::book::pgn::{PgnGame, Token, TokenKind};

/// One move with what the file attached to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub mv: Move,
    /// Its SAN, as Betacut writes it.
    pub san: String,
    /// The line of the file it is on.
    pub line: usize,
    /// NAGs given in the file (suffix annotations included), in order.
    pub nags: Vec<u8>,
    /// Comments after the move, in order.
    pub comments: Vec<String>,
    /// Variations: alternatives to this move, each from the position before it.
    pub variations: Vec<Line>,
}

/// A sequence of moves (the main line or a variation) and the comments before its first move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move.
    pub intro: Vec<String>,
    /// The moves.
    pub nodes: Vec<Node>,
}

/// A game whose every move (main line and variations) is legal.
#[derive(Clone, Debug)]
pub struct Game {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The line it starts on.
    pub line: usize,
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move (from the `FEN` tag, or the start position).
    pub start: Position,
    /// The moves.
    pub main: Line,
    /// The result: the movetext's termination, else the `Result` tag, else `*`.
    pub result: String,
}

impl Game {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Deepest nesting of variations read (a variation inside a variation ... of the main line);
/// far more than any annotated game uses, and well within the stack of the builder and of the
/// writer, which call themselves once a level.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// Checks and builds game `number` of the file.
pub fn build(raw: &PgnGame, number: usize) -> Result<Game, GameError> {
    if let Some(error) = GameError::from_reading(&raw.problems) {
        return Err(error);
    }
    let tag = |name: &str| {
        raw.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let variant = tag("Variant").unwrap_or("").to_ascii_lowercase();
    let chess960 = variant.contains("960") || variant.contains("fischer");
    if !(variant.is_empty() || variant == "standard" || variant == "chess" || chess960) {
        return Err(GameError::Variant {
            line: raw.line,
            variant: variant.to_string(),
        });
    }
    let fen = tag("FEN").unwrap_or(START_FEN);
    let mut start = Position::from_fen(fen).map_err(|e| GameError::BadFen {
        line: raw.line,
        reason: e.to_string(),
    })?;
    if chess960 {
        start.set_chess960(true);
    }
    let mut tokens = raw.tokens.iter().peekable();
    let (main, termination) = build_line(&mut tokens, &start, None, 0)?;
    let result = termination
        .or_else(|| tag("Result").map(str::to_string))
        .filter(|r| crate::book::pgn::is_result(r))
        .unwrap_or_else(|| "*".to_string());
    Ok(Game {
        number,
        line: raw.line,
        tags: raw.tags.clone(),
        start,
        main,
        result,
    })
}

type Tokens<'a> = std::iter::Peekable<std::slice::Iter<'a, Token>>;

/// Builds a line from `pos` until its `)` (for a variation, opened on line `opened`, `depth`
/// levels inside the main line) or the end of the movetext (the main line, which returns its
/// result token if any).
fn build_line(
    tokens: &mut Tokens,
    pos: &Position,
    opened: Option<usize>,
    depth: usize,
) -> Result<(Line, Option<String>), GameError> {
    let mut line = Line::default();
    let mut pos = pos.clone();
    let mut before: Option<Position> = None;
    loop {
        let Some(token) = tokens.next() else {
            return match opened {
                Some(line) => Err(GameError::VariationNotClosed { line }),
                None => Ok((line, None)),
            };
        };
        match &token.kind {
            TokenKind::Comment(text) => match line.nodes.last_mut() {
                Some(node) => node.comments.push(text.clone()),
                None => line.intro.push(text.clone()),
            },
            TokenKind::Nag(nag) => match line.nodes.last_mut() {
                Some(node) => node.nags.push(*nag),
                None => {
                    return Err(GameError::Misplaced {
                        line: token.line,
                        what: "a NAG before any move",
                    })
                }
            },
            TokenKind::Open => {
                let Some(from) = &before else {
                    return Err(GameError::Misplaced {
                        line: token.line,
                        what: "a variation before any move",
                    });
                };
                if depth == MAX_VARIATION_DEPTH {
                    return Err(GameError::TooDeep {
                        line: token.line,
                        max: MAX_VARIATION_DEPTH,
                    });
                }
                let (variation, _) = build_line(tokens, from, Some(token.line), depth + 1)?;
                if let Some(node) = line.nodes.last_mut() {
                    node.variations.push(variation);
                }
            }
            TokenKind::Close => {
                return match opened {
                    Some(_) => Ok((line, None)),
                    None => Err(GameError::Misplaced {
                        line: token.line,
                        what: "')' without '('",
                    }),
                };
            }
            TokenKind::Result(result) => {
                if opened.is_some() {
                    return Err(GameError::Misplaced {
                        line: token.line,
                        what: "a result inside a variation",
                    });
                }
                return Ok((line, Some(result.clone())));
            }
            TokenKind::Move(text) => {
                let mv = parse_move(&pos, text, token.line)?;
                before = Some(pos.clone());
                let san = pos.move_to_san(mv);
                pos.make_move(mv);
                line.nodes.push(Node {
                    mv,
                    san,
                    line: token.line,
                    nags: Vec::new(),
                    comments: Vec::new(),
                    variations: Vec::new(),
                });
            }
        }
    }
}

/// The legal move `text` names in `pos`, or why there is none.
fn parse_move(pos: &Position, text: &str, line: usize) -> Result<Move, GameError> {
    let number = pos.fullmove_number();
    let dots = if pos.side_to_move() == crate::board::Color::White {
        "."
    } else {
        "..."
    };
    let written = format!("{number}{dots} {text}");
    if text == "--" || text == "Z0" || text == "0000" {
        return Err(GameError::IllegalMove {
            line,
            written,
            reason: "null moves are not supported".to_string(),
        });
    }
    if let Some(letter) = text
        .chars()
        .next()
        .filter(|c| c.is_ascii_uppercase() && !"KQRBNPO".contains(*c))
    {
        return Err(GameError::UnknownPiece {
            line,
            written,
            letter,
        });
    }
    pos.parse_san(text).map_err(|e| GameError::IllegalMove {
        line,
        written,
        reason: match e {
            MoveParseError::Malformed(_) => "not a move".to_string(),
            MoveParseError::Illegal(_) => "illegal in this position".to_string(),
            MoveParseError::Ambiguous(_) => "ambiguous in this position".to_string(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::pgn::split_games;

    fn game(text: &str) -> Result<Game, GameError> {
        let raw = split_games(text);
        assert_eq!(raw.len(), 1, "{raw:?}");
        build(&raw[0], 1)
    }

    #[test]
    fn variations_hang_on_the_move_they_replace_and_are_checked() -> Result<(), GameError> {
        let g = game("{intro} 1. e4 e5 {c} (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 1-0")?;
        assert_eq!(g.main.intro, vec!["intro".to_string()]);
        let sans: Vec<&str> = g.main.nodes.iter().map(|n| n.san.as_str()).collect();
        assert_eq!(sans, vec!["e4", "e5", "Nf3"]);
        let e5 = &g.main.nodes[1];
        assert_eq!(e5.comments, vec!["c".to_string()]);
        assert_eq!(e5.variations.len(), 1);
        let var = &e5.variations[0];
        assert_eq!(var.nodes[0].san, "c5");
        assert_eq!(var.nodes[1].variations[0].nodes[0].san, "c3");
        assert_eq!(g.main.nodes[2].nags, vec![1]);
        assert_eq!(g.result, "1-0");
        // The variation's moves are checked from the position before e5.
        let bad = game("1. e4 e5 (1... Nf3) 2. Nf3 *");
        assert!(
            matches!(bad, Err(GameError::IllegalMove { line: 1, .. })),
            "{bad:?}"
        );
        Ok(())
    }

    #[test]
    fn bad_moves_are_named_with_their_line_and_number() {
        let text = "[Event \"x\"]\n1. e4 e5\n2. Nf3 Nc6\n3. Zb5 *\n";
        match game(text) {
            Err(GameError::UnknownPiece {
                line: 4,
                written,
                letter: 'Z',
            }) => assert_eq!(written, "3. Zb5"),
            other => panic!("{other:?}"),
        }
        match game("1. e4 e5 2. Ke3 *") {
            Err(GameError::IllegalMove { written, .. }) => assert_eq!(written, "2. Ke3"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            game("1. e4 (1. d4 d5 2. c4"),
            Err(GameError::VariationNotClosed { line: 1 })
        ));
        assert!(matches!(
            game("1. e4 ) e5 *"),
            Err(GameError::Misplaced { .. })
        ));
    }

    #[test]
    fn reading_problems_make_the_game_unreadable() {
        let games = split_games("[Event \"a]\n1. e4 *\n\n[Event \"b\"]\n1. e4 $x e5 *\n");
        assert_eq!(games.len(), 2);
        assert!(matches!(
            build(&games[0], 1),
            Err(GameError::MalformedTag { line: 1, .. })
        ));
        assert!(matches!(
            build(&games[1], 2),
            Err(GameError::BadNag { line: 5, .. })
        ));
        let text = "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(
            build(&games[0], 1).err(),
            Some(GameError::CommentNotClosed { line: 3 })
        );
        assert!(build(&games[1], 2).is_ok());
        let at_end = split_games("1. e4 {open\n");
        assert_eq!(
            build(&at_end[0], 1).err(),
            Some(GameError::CommentNotClosed { line: 1 })
        );
    }

    /// `1. e4 (1. e4 (1. e4 ... ))) *`: `depth` variations, each inside the one before.
    fn nested(depth: usize) -> String {
        format!("1. e4 {}{} *", "(1. e4 ".repeat(depth), ")".repeat(depth))
    }

    #[test]
    fn variations_nested_too_deep_are_an_error_not_a_stack_overflow() {
        // Found with the fuzz target `pgn`: 20,000 levels overflowed the stack.
        assert!(game(&nested(MAX_VARIATION_DEPTH)).is_ok());
        for depth in [MAX_VARIATION_DEPTH + 1, 20_000] {
            assert_eq!(
                game(&nested(depth)).err(),
                Some(GameError::TooDeep {
                    line: 1,
                    max: MAX_VARIATION_DEPTH
                })
            );
        }
    }

    #[test]
    fn a_fen_tag_sets_the_start() -> Result<(), GameError> {
        let g = game("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n40... Kd7 41. e4 *")?;
        assert_eq!(g.main.nodes.len(), 2);
        assert_eq!(g.start.fullmove_number(), 40);
        assert!(matches!(
            game("[FEN \"not a fen\"]\n1. e4 *"),
            Err(GameError::BadFen { .. })
        ));
        Ok(())
    }
}
