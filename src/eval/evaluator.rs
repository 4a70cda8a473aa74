//! The evaluation as the search uses it: the static evaluation plus the running state it keeps
//! along the line being searched, its pawn cache and its cache of finished evaluations. The
//! search tells it about every move made and taken back; the board only records what each move
//! changed ([`crate::board::BoardChanges`]).
//!
//! Two backends: a network ([`Evaluator::set_network`]; the engine always sets one, the net built
//! into the binary unless `EvalFile` names another), whose running state is its accumulator
//! stack, or the hand-crafted evaluation (an evaluator without a network: the playing levels and
//! `--hce`), whose running state is the material and square sums.

use super::cache::EvalCache;
use super::evaluate::evaluate_with_psq;
use super::nnue::{AccumulatorStack, Network};
use super::packed::S;
use super::pawns::PawnCache;
use super::psq;
use crate::board::Position;
use std::sync::Arc;

/// Plies of running state reserved up front, so that following a search line never allocates.
const LINE_CAPACITY: usize = 256;

/// Plies of network accumulators reserved up front: the search's deepest ply (128) plus 8.
/// Deeper lines still work (evaluated from scratch), they just cost more.
pub const NETWORK_LINE_PLIES: usize = 128 + 8;

/// A network and its accumulators along the line.
#[derive(Clone, Debug)]
struct NetworkState {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

/// One search thread's evaluation and its running state.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pawns: PawnCache,
    cache: EvalCache,
    /// Material and square sums (White's view) of the positions on the current line: the root
    /// first, the position on the board last (hand-crafted backend only).
    line: Vec<S>,
    /// The network backend, when one is in use.
    network: Option<NetworkState>,
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
            network: None,
        };
        evaluator.set_root(&Position::startpos());
        evaluator
    }

    /// Evaluates with `network` from now on, or with the hand-crafted evaluation if `None`.
    /// The accumulator stack is allocated here, not in the search. Call [`Evaluator::set_root`]
    /// before evaluating.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        let same = match (&self.network, &network) {
            (Some(state), Some(net)) => Arc::ptr_eq(&state.net, net),
            (None, None) => true,
            _ => false,
        };
        if same {
            return;
        }
        self.network = network.map(|net| NetworkState {
            stack: AccumulatorStack::new(net.hidden(), NETWORK_LINE_PLIES),
            net,
        });
        // Cached evaluations came from the other backend.
        self.cache.clear();
        self.set_root(&Position::startpos());
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref().map(|state| &state.net)
    }

    /// Forgets what was learnt about earlier positions (a new game).
    pub fn clear(&mut self) {
        self.pawns.clear();
        self.cache.clear();
    }

    /// Starts a new line at `pos` (its state is computed from scratch).
    pub fn set_root(&mut self, pos: &Position) {
        if let Some(state) = &mut self.network {
            state.stack.set_root(&state.net, pos);
            return;
        }
        self.line.clear();
        self.line.push(psq::sum(pos));
    }

    /// `pos` is the position after a move was made on the line's last position.
    #[inline]
    pub fn on_make(&mut self, pos: &Position) {
        if let Some(state) = &mut self.network {
            state.stack.push(pos.last_changes());
            return;
        }
        let last = self.current();
        self.line.push(psq::apply_changes(last, pos.last_changes()));
    }

    /// A null move was made on the line's last position.
    #[inline]
    pub fn on_null(&mut self) {
        if let Some(state) = &mut self.network {
            state.stack.push(&crate::board::BoardChanges::NONE);
            return;
        }
        let last = self.current();
        self.line.push(last);
    }

    /// The last move (or null move) was taken back.
    #[inline]
    pub fn on_unmake(&mut self) {
        if let Some(state) = &mut self.network {
            state.stack.pop();
            return;
        }
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
        if let Some(state) = &mut self.network {
            let NetworkState { net, stack } = state;
            return self.cache.get_or_insert(pos, || stack.evaluate(net, pos));
        }
        let psq = self.current();
        let pawns = &mut self.pawns;
        self.cache
            .get_or_insert(pos, || evaluate_with_psq(pos, pawns, psq))
    }

    /// True if the running state matches `pos` computed from scratch (for tests).
    pub fn is_consistent_with(&mut self, pos: &Position) -> bool {
        if let Some(state) = &mut self.network {
            return state.stack.matches_refresh(&state.net, pos);
        }
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
