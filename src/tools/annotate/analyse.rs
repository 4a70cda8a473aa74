//! Searching a game's positions and judging its moves: one search per position from the first
//! annotated move to the end (two lines, MultiPV 2, where the move played there is judged), one
//! transposition table kept across the game, the book and the tablebases consulted first.

use super::eval::Eval;
use super::game::Game;
use super::judge::{
    centipawn_loss, expected_score, mate_created, table_expected_score, Decision, Verdict,
};
use crate::board::{Color, Move, Position};
use crate::book::Book;
use crate::search::score::is_decisive;
use crate::search::tablebases::TbSettings;
use crate::search::wdl::material;
use crate::search::{SearchControl, SearchLimits, Searcher};
use crate::tb::Tablebases;
use std::sync::Arc;

/// Whose moves are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// White's only.
    White,
    /// Black's only.
    Black,
    /// Both sides'.
    Both,
}

impl Sides {
    /// True if moves of `color` are judged.
    pub fn judges(self, color: Color) -> bool {
        match self {
            Sides::Both => true,
            Sides::White => color == Color::White,
            Sides::Black => color == Color::Black,
        }
    }
}

impl std::str::FromStr for Sides {
    type Err = String;

    fn from_str(text: &str) -> Result<Sides, String> {
        match text {
            "white" => Ok(Sides::White),
            "black" => Ok(Sides::Black),
            "both" => Ok(Sides::Both),
            _ => Err(format!("--side takes white, black or both, not {text:?}")),
        }
    }
}

/// The verdict on one move and what it rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Expected scores of the mover: the move played and the best other move.
    pub decision: Decision,
    /// The glyph it earns, if any.
    pub verdict: Option<Verdict>,
    /// Centipawns lost (scores clamped to ±[`super::judge::CP_CLAMP`]).
    pub cp_loss: i32,
    /// Judged by the tablebases rather than the search.
    pub from_tables: bool,
    /// The engine's best line from the position before the move, in SAN.
    pub best_line: Vec<String>,
    /// The evaluation of that line (White's view).
    pub best_eval: Option<Eval>,
}

/// What the analysis says about one move of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReport {
    /// The side that played it.
    pub mover: Color,
    /// Its full-move number.
    pub fullmove: u32,
    /// The move was in the opening book (and is not judged).
    pub book: bool,
    /// The evaluation after it (none after a mate).
    pub eval_after: Option<Eval>,
    /// White's expected score before it (0 to 1), for the graph.
    pub white_before: f64,
    /// White's expected score after it (0 to 1), for the graph.
    pub white_expected: f64,
    /// The verdict, if the move was judged.
    pub judgement: Option<Judgement>,
}

/// The outcome of one position's search.
#[derive(Clone, Debug)]
struct Searched {
    /// Score from the side to move's view.
    score: i32,
    /// Best move ([`Move::NONE`] without legal moves).
    best: Move,
    /// The second-best move and its score, if asked for and there is one.
    second: Option<(Move, i32)>,
    /// Principal variation.
    pv: Vec<Move>,
}

/// How games are analysed.
pub struct Analyser {
    searcher: Searcher,
    limits: SearchLimits,
    tables: Option<Arc<Tablebases>>,
    book: Option<Book>,
    sides: Sides,
    from_move: u32,
}

impl Analyser {
    /// An analyser searching each position within `limits` with `searcher` (its table size,
    /// threads and network already set); `tables` and `book` are consulted when given.
    pub fn new(
        mut searcher: Searcher,
        limits: SearchLimits,
        tables: Option<Arc<Tablebases>>,
        book: Option<Book>,
        sides: Sides,
        from_move: u32,
    ) -> Analyser {
        searcher.set_tablebases(tables.clone(), TbSettings::default());
        Analyser {
            searcher,
            limits,
            tables,
            book,
            sides,
            from_move,
        }
    }

    /// The index of the first move annotated (the first at or after `--from-move`).
    pub fn first_ply(&self, positions: &[Position]) -> usize {
        positions
            .iter()
            .position(|p| p.fullmove_number() >= self.from_move)
            .unwrap_or(positions.len())
            .min(positions.len().saturating_sub(1))
    }

    /// Number of positions [`Analyser::analyse`] searches in `game` (for progress reports).
    pub fn searches(&self, game: &Game) -> usize {
        let positions = positions(game);
        positions.len() - self.first_ply(&positions)
    }

    /// Analyses `game`: a report per move from the first annotated one (the moves before it
    /// get `None`). `progress(j, move)` is called after the search of each position, `j` the
    /// number of positions searched so far and `move` the position's full-move number.
    pub fn analyse(
        &mut self,
        game: &Game,
        progress: &mut dyn FnMut(usize, u32),
    ) -> Vec<Option<PlyReport>> {
        let positions = positions(game);
        let moves: Vec<Move> = game.main.nodes.iter().map(|n| n.mv).collect();
        let first = self.first_ply(&positions);
        let book = self.book_plies(&positions, &moves, first);
        self.searcher.clear();
        // A position with a single legal move is valued by the search of the position after
        // that move (a timed search stops after its first iteration when there is nothing to
        // choose, too shallow to see, say, the mate that follows a forced recapture).
        let mut found: Vec<Option<Searched>> = Vec::with_capacity(positions.len());
        for (i, pos) in positions.iter().enumerate().skip(first) {
            let legal = pos.legal_moves();
            let judged = i < moves.len() && !book[i] && self.sides.judges(pos.side_to_move());
            found.push(match legal.as_slice() {
                [_] if i + 1 < positions.len() => None,
                &[forced] => {
                    let mut child = pos.clone();
                    child.make_move(forced);
                    Some(forced_move(forced, &self.search(&child, 1)))
                }
                _ => Some(self.search(pos, if judged { 2 } else { 1 })),
            });
            progress(found.len(), pos.fullmove_number());
        }
        let mut searched: Vec<Searched> = Vec::with_capacity(found.len());
        for (k, entry) in found.into_iter().enumerate().rev() {
            searched.push(match entry {
                Some(done) => done,
                None => match searched.last() {
                    Some(next) => forced_move(moves[first + k], next),
                    None => Searched {
                        score: 0,
                        best: Move::NONE,
                        second: None,
                        pv: Vec::new(),
                    },
                },
            });
        }
        searched.reverse();
        let mut reports = vec![None; moves.len()];
        for i in first..moves.len() {
            let (before, after) = (&searched[i - first], &searched[i + 1 - first]);
            let pos = &positions[i];
            let next = &positions[i + 1];
            let mover = pos.side_to_move();
            let white_after = expected_score(after.score, material(next));
            let mover_before = expected_score(before.score, material(pos));
            let judged = !book[i] && self.sides.judges(mover);
            reports[i] = Some(PlyReport {
                mover,
                fullmove: pos.fullmove_number(),
                book: book[i],
                eval_after: Eval::from_score(after.score, next.side_to_move()),
                white_before: if mover == Color::White {
                    mover_before
                } else {
                    1.0 - mover_before
                },
                white_expected: if next.side_to_move() == Color::White {
                    white_after
                } else {
                    1.0 - white_after
                },
                judgement: judged.then(|| self.judge(pos, next, moves[i], before, after)),
            });
        }
        reports
    }

    /// Which moves are book moves: those from the first annotated one on, up to the first
    /// move the book does not hold.
    fn book_plies(&mut self, positions: &[Position], moves: &[Move], first: usize) -> Vec<bool> {
        let mut book = vec![false; moves.len()];
        let Some(reader) = self.book.as_mut() else {
            return book;
        };
        for i in first..moves.len() {
            let known = reader
                .moves(&positions[i])
                .is_ok_and(|found| found.iter().any(|m| m.mv == moves[i]));
            if !known {
                break;
            }
            book[i] = true;
        }
        book
    }

    fn search(&mut self, pos: &Position, lines: usize) -> Searched {
        let limits = SearchLimits {
            multipv: lines,
            ..self.limits.clone()
        };
        let control = SearchControl::new(false);
        let result = self.searcher.search(pos, &limits, &control, &mut |_| {});
        if result.best_move.is_none() {
            return Searched {
                score: result.score,
                best: Move::NONE,
                second: None,
                pv: Vec::new(),
            };
        }
        let second = if lines > 1 {
            result.lines.get(1).copied()
        } else {
            None
        };
        Searched {
            score: result.score,
            best: result.best_move,
            second,
            pv: result.pv,
        }
    }

    fn judge(
        &self,
        pos: &Position,
        next: &Position,
        played: Move,
        before: &Searched,
        after: &Searched,
    ) -> Judgement {
        let phase = material(pos);
        let played_is_best = played == before.best;
        // The best other move: the search's best, or its second line when the best was played.
        let (other_move, other_score) = if played_is_best {
            match before.second {
                Some((mv, score)) => (Some(mv), Some(score)),
                None => (None, None),
            }
        } else {
            (Some(before.best), Some(before.score))
        };
        let tables = self.table_decision(pos, next, played);
        let decision = tables.unwrap_or_else(|| Decision {
            played: expected_score(-after.score, phase),
            other: other_score.map(|s| expected_score(s, phase)),
            played_is_best,
        });
        // The line shown after a bad move: the search's line from the best other move.
        let line: Vec<Move> = match other_move {
            Some(mv) if !played_is_best && before.pv.first() == Some(&mv) => before.pv.clone(),
            Some(mv) => vec![mv],
            None => Vec::new(),
        };
        let best_line = pos
            .clone()
            .line_to_san(&line)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        Judgement {
            decision,
            // A forced mate walked into is at least as bad as `mate_created` says (not when the
            // tablebases decided: they know the result, not the distance).
            verdict: match (tables, other_score) {
                (None, Some(other)) => decision.verdict().max(mate_created(other, -after.score)),
                _ => decision.verdict(),
            },
            cp_loss: other_score.map_or(0, |other| centipawn_loss(other, -after.score)),
            from_tables: tables.is_some(),
            best_line,
            best_eval: other_score.and_then(|s| Eval::from_score(s, pos.side_to_move())),
        }
    }

    /// The decision by the tablebases, if `pos` and the position after the move are in them.
    fn table_decision(&self, pos: &Position, next: &Position, played: Move) -> Option<Decision> {
        let tables = self.tables.as_ref()?;
        if !tables.covers(pos) {
            return None;
        }
        let best = table_expected_score(tables.probe_wdl(pos).ok()?);
        let after = |p: &Position| tables.probe_wdl(p).ok().map(|w| w.flipped());
        let played_score = table_expected_score(after(next)?);
        let mut other: Option<f64> = None;
        let mut scratch = pos.clone();
        for &mv in pos.legal_moves().iter().filter(|&&m| m != played) {
            scratch.make_move(mv);
            let score = after(&scratch).map(table_expected_score);
            scratch.unmake_move(mv);
            let score = score?;
            other = Some(other.map_or(score, |s: f64| s.max(score)));
        }
        Some(Decision {
            played: played_score,
            other,
            played_is_best: played_score >= best,
        })
    }
}

/// The search outcome of a position whose only legal move is `forced`, from the outcome of
/// the position after it: the score negated, a mate or tablebase result one ply further.
fn forced_move(forced: Move, after: &Searched) -> Searched {
    let score = -after.score;
    let score = if is_decisive(score) {
        score - score.signum()
    } else {
        score
    };
    let mut pv = Vec::with_capacity(after.pv.len() + 1);
    pv.push(forced);
    pv.extend_from_slice(&after.pv);
    Searched {
        score,
        best: forced,
        second: None,
        pv,
    }
}

/// The positions of `game`'s main line, before each move and after the last (each made from
/// the previous, so the search sees the game's repetitions).
pub fn positions(game: &Game) -> Vec<Position> {
    let mut pos = game.start.clone();
    let mut out = Vec::with_capacity(game.main.nodes.len() + 1);
    out.push(pos.clone());
    for node in &game.main.nodes {
        pos.make_move(node.mv);
        out.push(pos.clone());
    }
    out
}
