//! Move-ordering memory: killer moves per ply, counter moves, and history scores for quiet
//! moves (bonus on a cutoff, malus for the quiets tried before it, with gravity so scores stay
//! bounded and old knowledge fades).

use super::score::MAX_PLY;
use crate::board::{Color, Move, Piece};

/// Upper bound of a history score's magnitude.
pub const MAX_HISTORY: i32 = 16_384;

/// History bonus for a cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth).min(1_600)
}

/// Applies a bonus (or malus, if negative) with gravity towards zero.
#[inline]
fn apply(entry: &mut i16, bonus: i32) {
    let value = i32::from(*entry);
    let updated = value + bonus - value * bonus.abs() / MAX_HISTORY;
    *entry = updated.clamp(-MAX_HISTORY, MAX_HISTORY) as i16;
}

/// All move-ordering tables of one search thread.
#[derive(Clone)]
pub struct History {
    /// Quiet-move history by side, from-square and to-square.
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
    /// Two killer moves per ply.
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Best reply to the previous move, by the piece that made it and its destination.
    counters: Box<[[Move; 64]; 12]>,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("History")
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            counters: Box::new([[Move::NONE; 64]; 12]),
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = History::new();
    }

    /// Forgets the killers (they are per search); histories and counters carry over.
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
    }

    /// History score of a quiet move for `side`.
    #[inline]
    pub fn quiet_score(&self, side: Color, mv: Move) -> i32 {
        i32::from(self.butterfly[side.index()][mv.from().index()][mv.to().index()])
    }

    /// Adds `bonus` (negative: malus) to a quiet move's history.
    #[inline]
    pub fn update_quiet(&mut self, side: Color, mv: Move, bonus: i32) {
        apply(
            &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()],
            bonus,
        );
    }

    /// The two killers of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline]
    pub fn store_killer(&mut self, ply: usize, mv: Move) {
        let slot = &mut self.killers[ply.min(MAX_PLY)];
        if slot[0] != mv {
            slot[1] = slot[0];
            slot[0] = mv;
        }
    }

    /// The counter move to the previous move (made by `piece`, landing on its `to` square).
    #[inline]
    pub fn counter(&self, piece: Option<Piece>, prev: Move) -> Move {
        match piece {
            Some(p) if !prev.is_none() => self.counters[p.index()][prev.to().index()],
            _ => Move::NONE,
        }
    }

    /// Records `mv` as the refutation of the previous move.
    #[inline]
    pub fn store_counter(&mut self, piece: Option<Piece>, prev: Move, mv: Move) {
        if let Some(p) = piece {
            if !prev.is_none() {
                self.counters[p.index()][prev.to().index()] = mv;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn gravity_keeps_scores_bounded() {
        let mut h = History::new();
        let mv = Move::normal(Square::E1, Square::E8);
        for _ in 0..1000 {
            h.update_quiet(Color::White, mv, history_bonus(20));
        }
        let s = h.quiet_score(Color::White, mv);
        assert!(s > 10_000 && s <= MAX_HISTORY, "{s}");
        for _ in 0..1000 {
            h.update_quiet(Color::White, mv, -history_bonus(20));
        }
        assert!(h.quiet_score(Color::White, mv) < -10_000);
        assert_eq!(h.quiet_score(Color::Black, mv), 0);
    }

    #[test]
    fn killers_shift() {
        let mut h = History::new();
        let (a, b) = (
            Move::normal(Square::A1, Square::B1),
            Move::normal(Square::H8, Square::H1),
        );
        h.store_killer(3, a);
        h.store_killer(3, a);
        h.store_killer(3, b);
        assert_eq!(h.killers(3), [b, a]);
        assert_eq!(h.killers(4), [Move::NONE; 2]);
    }
}
