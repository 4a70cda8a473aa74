//! A small table of finished evaluations by position key, one per search thread: the search
//! meets the same positions again (transpositions, re-searches, the next iteration) after
//! their transposition-table entries are gone.

use crate::board::Position;

/// Entries in an evaluation cache (a power of two).
const EVAL_CACHE_ENTRIES: usize = 1 << 15;

/// One slot: a position's full key and its evaluation. An empty slot holds key 0, which the
/// probe never accepts, so a position whose key happens to be 0 is simply evaluated each time.
#[derive(Clone, Copy, Debug, Default)]
struct EvalEntry {
    key: u64,
    eval: i32,
}

/// Direct-mapped cache of `evaluate` results.
#[derive(Clone, Debug)]
pub struct EvalCache {
    entries: Vec<EvalEntry>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

impl EvalCache {
    /// An empty cache.
    pub fn new() -> EvalCache {
        EvalCache {
            entries: vec![EvalEntry::default(); EVAL_CACHE_ENTRIES],
        }
    }

    /// The evaluation of `pos`: from the cache when its key is there, else `compute()`, which
    /// is then kept.
    #[inline]
    pub fn get_or_insert(&mut self, pos: &Position, compute: impl FnOnce() -> i32) -> i32 {
        let key = pos.key();
        let entry = &mut self.entries[(key as usize) & (EVAL_CACHE_ENTRIES - 1)];
        if entry.key == key && key != 0 {
            return entry.eval;
        }
        let eval = compute();
        *entry = EvalEntry { key, eval };
        eval
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(EvalEntry::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, PawnCache};

    #[test]
    fn a_position_is_evaluated_once_and_then_served_from_the_cache() {
        let mut cache = EvalCache::new();
        let mut pawns = PawnCache::new();
        let start = Position::startpos();
        let other = Position::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let computed = std::cell::Cell::new(0);
        let mut eval_of = |cache: &mut EvalCache, pos: &Position| {
            cache.get_or_insert(pos, || {
                computed.set(computed.get() + 1);
                evaluate(pos, &mut pawns)
            })
        };
        let first = eval_of(&mut cache, &start);
        let again = eval_of(&mut cache, &start);
        let third = eval_of(&mut cache, &other);
        let _ = eval_of(&mut cache, &other);
        assert_eq!(first, again);
        assert_eq!(third, evaluate(&other, &mut PawnCache::new()));
        assert_eq!(computed.get(), 2);
        cache.clear();
        let _ = eval_of(&mut cache, &start);
        assert_eq!(computed.get(), 3);
    }
}
