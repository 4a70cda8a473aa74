//! Making a Polyglot book from games, with Polyglot's weighting: every (position, move) of the
//! first plies of every game scores 2 for a win and 1 for a draw of the side that played it
//! (0 for a loss); a game without a decisive result (`1/2-1/2`, `*`, anything else) counts as
//! a draw, as Polyglot's `make-book` counts it.
//!
//! Each (position, move) counts once per game, even if a game repeats it. Entries played in
//! fewer than `min_games` games are dropped, and so are entries that only lost (score 0: a
//! weight-0 entry is never played). Where a position's largest score does not fit in 16 bits,
//! that position's weights are scaled down together (at least 1 each). The entries are sorted
//! by key, then by weight, highest first (as Polyglot writes them), then by move.

use super::pgn::PgnGame;
use super::polyglot::{encode_move, Entry};
use crate::board::{Color, Position};
use std::collections::HashMap;
use std::io::{self, Write};

/// Default number of plies of each game that go into the book.
pub const DEFAULT_PLIES: usize = 24;
/// Default minimum number of games an entry must be played in (Polyglot's `-min-game`).
pub const DEFAULT_MIN_GAMES: u32 = 3;

/// How a book is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MakeOptions {
    /// Plies of each game that go into the book.
    pub plies: usize,
    /// Entries played in fewer games than this are dropped.
    pub min_games: u32,
}

impl Default for MakeOptions {
    fn default() -> MakeOptions {
        MakeOptions {
            plies: DEFAULT_PLIES,
            min_games: DEFAULT_MIN_GAMES,
        }
    }
}

/// What became of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddedGame {
    /// Plies that went into the book.
    pub plies: usize,
    /// Why the game, or its rest, was left out, if it was.
    pub problem: Option<String>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u32,
    score: u64,
    last_game: usize,
}

/// Collects games and produces the book's entries.
#[derive(Debug)]
pub struct BookMaker {
    options: MakeOptions,
    tallies: HashMap<(u64, u16), Tally>,
    games: usize,
}

impl BookMaker {
    /// A maker with no games yet.
    pub fn new(options: MakeOptions) -> BookMaker {
        BookMaker {
            options,
            tallies: HashMap::new(),
            games: 0,
        }
    }

    /// Number of games added (used or not).
    pub fn games(&self) -> usize {
        self.games
    }

    /// Adds the first plies of `game` and says how many went in. A game of another variant
    /// or with a bad `FEN` tag is left out; at an illegal move the rest of the game is (the
    /// plies before it count).
    pub fn add_game(&mut self, game: &PgnGame) -> AddedGame {
        self.games += 1;
        let left_out = |problem: String| AddedGame {
            plies: 0,
            problem: Some(problem),
        };
        if let Some(variant) = game.tag("Variant") {
            let standard = matches!(variant.to_ascii_lowercase().as_str(), "standard" | "chess");
            if !standard && !variant.is_empty() {
                return left_out(format!("variant {variant:?}: the game is left out"));
            }
        }
        let pos = match game.tag("FEN") {
            Some(fen) => match Position::from_fen(fen) {
                Ok(pos) => pos,
                Err(e) => return left_out(format!("bad FEN {fen:?}: {e}: the game is left out")),
            },
            None => Position::startpos(),
        };
        self.add_moves(game, pos)
    }

    fn add_moves(&mut self, game: &PgnGame, mut pos: Position) -> AddedGame {
        let index = self.games;
        // Points of White's moves; Black's are 2 minus that.
        let white_points: u64 = match game.result() {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        };
        let mut plies = 0;
        for pgn_move in game.moves().take(self.options.plies) {
            let mv = match pos.parse_move(pgn_move.text) {
                Ok(mv) => mv,
                Err(e) => {
                    return AddedGame {
                        plies,
                        problem: Some(format!(
                            "line {}: {e}; the game from ply {} on is left out",
                            pgn_move.line,
                            plies + 1
                        )),
                    }
                }
            };
            let points = if pos.side_to_move() == Color::White {
                white_points
            } else {
                2 - white_points
            };
            let tally = self
                .tallies
                .entry((pos.key(), encode_move(mv)))
                .or_default();
            if tally.last_game != index {
                tally.last_game = index;
                tally.games += 1;
                tally.score += points;
            }
            pos.make_move(mv);
            plies += 1;
        }
        AddedGame {
            plies,
            problem: None,
        }
    }

    /// The book's entries, filtered, scaled and sorted.
    pub fn finish(self) -> Vec<Entry> {
        let min_games = self.options.min_games;
        let kept: Vec<(u64, u16, u64)> = self
            .tallies
            .into_iter()
            .filter(|(_, t)| t.games >= min_games && t.score > 0)
            .map(|((key, mv), t)| (key, mv, t.score))
            .collect();
        let mut largest: HashMap<u64, u64> = HashMap::new();
        for &(key, _, score) in &kept {
            let top = largest.entry(key).or_default();
            *top = (*top).max(score);
        }
        let limit = u64::from(u16::MAX);
        let mut entries: Vec<Entry> = kept
            .into_iter()
            .map(|(key, raw_move, score)| {
                let top = largest.get(&key).copied().unwrap_or(score);
                let weight = if top > limit {
                    (score * limit / top).max(1)
                } else {
                    score
                };
                Entry {
                    key,
                    raw_move,
                    weight: u16::try_from(weight).unwrap_or(u16::MAX),
                    learn: 0,
                }
            })
            .collect();
        entries.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a.raw_move.cmp(&b.raw_move))
        });
        entries
    }
}

/// Writes `entries` as a Polyglot book.
pub fn write_book(entries: &[Entry], out: &mut impl Write) -> io::Result<()> {
    for entry in entries {
        out.write_all(&entry.to_bytes())?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::book::pgn::PgnReader;

    fn games(text: &str) -> Vec<PgnGame> {
        PgnReader::new(text.as_bytes())
            .filter_map(Result::ok)
            .collect()
    }

    fn raw(pos: &Position, text: &str) -> u16 {
        encode_move(pos.parse_move(text).unwrap_or(Move::NONE))
    }

    #[test]
    fn wins_score_two_draws_one_for_the_side_that_moved() {
        let text = "[Result \"1-0\"]\n1. e4 e5 1-0\n\
                    [Result \"0-1\"]\n1. e4 e5 0-1\n\
                    [Result \"1/2-1/2\"]\n1. e4 c5 1/2-1/2\n\
                    1. d4 d5 *\n";
        let mut maker = BookMaker::new(MakeOptions {
            plies: 2,
            min_games: 1,
        });
        for game in games(text) {
            assert_eq!(maker.add_game(&game).plies, 2);
        }
        let entries = maker.finish();
        let start = Position::startpos();
        let start_entries: Vec<(u16, u16)> = entries
            .iter()
            .filter(|e| e.key == start.key())
            .map(|e| (e.raw_move, e.weight))
            .collect();
        // e4: 2 (win) + 0 (loss) + 1 (draw) = 3; d4: 1 (unfinished counts as a draw).
        assert_eq!(
            start_entries,
            vec![(raw(&start, "e2e4"), 3), (raw(&start, "d2d4"), 1)]
        );
        let mut after_e4 = start.clone();
        after_e4.make_move(start.parse_move("e2e4").unwrap_or(Move::NONE));
        let replies: Vec<(u16, u16)> = entries
            .iter()
            .filter(|e| e.key == after_e4.key())
            .map(|e| (e.raw_move, e.weight))
            .collect();
        // e5: 0 (White won) + 2 (Black won) = 2; c5: 1.
        assert_eq!(
            replies,
            vec![(raw(&after_e4, "e7e5"), 2), (raw(&after_e4, "c7c5"), 1)]
        );
        assert!(entries.windows(2).all(|w| w[0].key <= w[1].key));
    }

    #[test]
    fn min_games_plies_losses_and_bad_moves() {
        let text = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 1-0\n\
                    [Result \"1-0\"]\n1. e4 e5 2. Nf3 1-0\n\
                    [Result \"1-0\"]\n1. e4 c5 2. Ke3 1-0\n\
                    [Variant \"Chess960\"]\n1. e4 *\n";
        let mut maker = BookMaker::new(MakeOptions {
            plies: 3,
            min_games: 2,
        });
        let results: Vec<AddedGame> = games(text).iter().map(|g| maker.add_game(g)).collect();
        assert_eq!(results[0].plies, 3);
        assert_eq!(results[0].problem, None);
        assert_eq!(results[2].plies, 2);
        let problem = results[2].problem.clone().unwrap_or_default();
        assert!(
            problem.contains("line 6") && problem.contains("ply 3"),
            "{problem}"
        );
        assert_eq!(results[3].plies, 0);
        let problem = results[3].problem.clone().unwrap_or_default();
        assert!(problem.contains("Chess960"), "{problem}");
        let entries = maker.finish();
        // e4 (3 games, 6 points) and Nf3 (2 games, 4 points) stay; e5 only lost, c5 was
        // played once.
        let weights: Vec<u16> = entries.iter().map(|e| e.weight).collect();
        assert_eq!(entries.len(), 2, "{entries:?}");
        assert!(weights.contains(&6) && weights.contains(&4));
    }

    #[test]
    fn large_scores_are_scaled_into_sixteen_bits() {
        let mut maker = BookMaker::new(MakeOptions {
            plies: 1,
            min_games: 1,
        });
        let won = games("[Result \"1-0\"]\n1. e4 1-0\n").remove(0);
        let drawn = games("[Result \"1/2-1/2\"]\n1. d4 1/2-1/2\n").remove(0);
        for _ in 0..40_000 {
            assert_eq!(maker.add_game(&won).plies, 1);
        }
        for _ in 0..100 {
            assert_eq!(maker.add_game(&drawn).plies, 1);
        }
        let entries = maker.finish();
        let weights: Vec<u16> = entries.iter().map(|e| e.weight).collect();
        // 80000 : 100 becomes 65535 : 81.
        assert_eq!(weights, vec![65535, 81]);
    }
}
