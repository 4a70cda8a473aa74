//! The evaluation as the search uses it: the static evaluation plus the running state it keeps
//! along the line being searched (the material and square sums), its pawn cache and its cache
//! of finished evaluations. The search tells it about every move made and taken back; the board
//! only records what each move changed ([`crate::board::BoardChanges`]).

use super::cache::EvalCache;
use super::evaluate::evaluate_with_psq;
use super::packed::S;
use super::pawns::PawnCache;
use super::psq;
use crate::board::Position;

/// Plies of running state reserved up front, so that following a search line never allocates.
const LINE_CAPACITY: usize = 256;

/// One search thread's evaluation and its running state.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pawns: PawnCache,
    cache: EvalCache,
    /// Material and square sums (White's view) of the positions on the current line: the root
    /// first, the position on the board last.
    line: Vec<S>,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new()
    }
}

impl Evaluator {
    /// A fresh evaluator (empty caches), set to the start position.
    pub fn new() -> Evaluator {
        let mut evaluator = Evaluator {
            pawns: PawnCache::new(),
            cache: EvalCache::new(),
            line: Vec::with_capacity(LINE_CAPACITY),
        };
        evaluator.set_root(&Position::startpos());
        evaluator
    }

    /// Forgets what was learnt about earlier positions (a new game).
    pub fn clear(&mut self) {
        self.pawns.clear();
        self.cache.clear();
    }

    /// Starts a new line at `pos` (its state is computed from scratch).
    pub fn set_root(&mut self, pos: &Position) {
        self.line.clear();
        self.line.push(psq::sum(pos));
    }

    /// `pos` is the position after a move was made on the line's last position.
    #[inline]
    pub fn on_make(&mut self, pos: &Position) {
        let last = self.current();
        self.line.push(psq::apply_changes(last, pos.last_changes()));
    }

    /// A null move was made on the line's last position.
    #[inline]
    pub fn on_null(&mut self) {
        let last = self.current();
        self.line.push(last);
    }

    /// The last move (or null move) was taken back.
    #[inline]
    pub fn on_unmake(&mut self) {
        if self.line.len() > 1 {
            self.line.pop();
        }
    }

    #[inline]
    fn current(&self) -> S {
        self.line.last().copied().unwrap_or(S::ZERO)
    }

    /// The static evaluation of `pos`, the position at the end of the line, from the side to
    /// move's view.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let psq = self.current();
        let pawns = &mut self.pawns;
        self.cache
            .get_or_insert(pos, || evaluate_with_psq(pos, pawns, psq))
    }

    /// True if the running state matches `pos` computed from scratch (for tests).
    pub fn is_consistent_with(&self, pos: &Position) -> bool {
        self.current() == psq::sum(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    #[test]
    fn running_state_follows_moves_of_every_kind() {
        // Castling both ways, en passant, promotion with capture, a null move.
        let fen = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1";
        let Ok(mut pos) = Position::from_fen(fen) else {
            panic!("valid FEN");
        };
        let mut evaluator = Evaluator::new();
        evaluator.set_root(&pos);
        let mut made = Vec::new();
        for text in ["e5d6", "e8g8", "b7a8q", "f8a8", "e1c1"] {
            let Ok(mv) = pos.parse_move(text) else {
                panic!("{text} is legal");
            };
            pos.make_move(mv);
            evaluator.on_make(&pos);
            made.push(mv);
            assert!(evaluator.is_consistent_with(&pos), "after {text}");
            assert_eq!(
                evaluator.evaluate(&pos),
                evaluate(&pos, &mut PawnCache::new())
            );
        }
        pos.make_null();
        evaluator.on_null();
        assert!(evaluator.is_consistent_with(&pos));
        pos.unmake_null();
        evaluator.on_unmake();
        while let Some(mv) = made.pop() {
            pos.unmake_move(mv);
            evaluator.on_unmake();
            assert!(evaluator.is_consistent_with(&pos));
        }
    }
}
