//! Transposition table: buckets of four entries (one cache line), shared lock-free between
//! search threads. Each entry stores its key XORed with its data, so a torn write from another
//! thread is seen as a miss rather than as wrong data.

use super::table_memory::{TableMemory, LINE_BYTES};
use super::zeroed::AtomicWords;
use crate::board::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use thiserror::Error;

/// The memory for a table of the asked size could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("cannot allocate {megabytes} MiB for the hash table")]
pub struct TableAllocError {
    /// The size asked for.
    pub megabytes: usize,
}

/// Bound type of a stored or reported score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

impl Bound {
    fn to_bits(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best (or refuting) move, possibly [`Move::NONE`]; must be validated before use.
    pub mv: Move,
    /// Score in table form (mate scores relative to the stored node).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// Bound type of the score.
    pub bound: Bound,
}

impl TtEntry {
    /// The stored score, relative to the root from `ply`, if it decides a node searched to
    /// `depth` with window (`alpha`, `beta`): deep enough, and its bound on the right side.
    #[inline]
    pub fn cutoff(&self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let score = super::score::from_table(self.score, ply);
        let decides = match self.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        (self.depth >= depth && decides).then_some(score)
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; 4],
}

// SAFETY: a bucket is four slots of two atomic 64-bit integers each: all-zero bytes are a valid
// (empty) bucket, and it needs no drop.
unsafe impl AtomicWords for Bucket {}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: TableMemory<Bucket>,
    age: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "TranspositionTable({} buckets)",
            self.buckets.as_slice().len()
        )
    }
}

const BUCKET_BYTES: usize = LINE_BYTES;
const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

// Data word: move 0-15, score 16-31, eval 32-47, depth 48-55, bound 56-57, age 58-63.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    u64::from(mv.raw())
        | u64::from(score as i16 as u16) << 16
        | u64::from(eval as i16 as u16) << 32
        | u64::from(depth.clamp(-1, 127) as i8 as u8) << 48
        | bound.to_bits() << 56
        | u64::from(age & 63) << 58
}

fn unpack_depth(data: u64) -> i32 {
    (data >> 48) as u8 as i8 as i32
}

fn unpack_age(data: u64) -> u8 {
    (data >> 58) as u8 & 63
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket); if the memory cannot be had,
    /// the largest half, quarter, ... of it that can.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut size = megabytes.max(1);
        loop {
            match TranspositionTable::try_new(size) {
                Ok(table) => return table,
                Err(_) if size > 1 => size /= 2,
                // Not even one bucket: the process cannot go on.
                Err(_) => std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>()),
            }
        }
    }

    /// A table of about `megabytes` MiB (at least one bucket), or an error if the memory
    /// cannot be allocated (nothing is aborted). It is ready at once whatever its size: its
    /// memory is zeroed by the system as it is touched, and backed in the background (see
    /// `search::table_memory`).
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableAllocError> {
        let count = megabytes
            .max(1)
            .checked_mul(1024 * 1024)
            .map_or(usize::MAX, |bytes| bytes / BUCKET_BYTES)
            .max(1);
        let buckets = TableMemory::new(count).ok_or(TableAllocError { megabytes })?;
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// The table's size in MiB (rounded down; 0 for a table under 1 MiB).
    pub fn megabytes(&self) -> usize {
        self.buckets.as_slice().len() * BUCKET_BYTES / (1024 * 1024)
    }

    /// Empties the table at once whatever its size: its memory is freed in the background and
    /// it gets fresh memory (zeroed by the system as it is touched). Should the fresh memory
    /// not be had, the table is smaller, as [`TranspositionTable::new`] says.
    pub fn clear(&mut self) {
        let megabytes = self.megabytes();
        let count = self.buckets.as_slice().len();
        // The old memory goes first: the new table may need it.
        *self = TranspositionTable::new(1);
        *self = match TableMemory::new(count) {
            Some(buckets) => TranspositionTable {
                buckets,
                age: AtomicU8::new(0),
            },
            None => TranspositionTable::new(megabytes),
        };
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed);
        self.age.store(age.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a modulo.
        let buckets = self.buckets.as_slice();
        let index = ((u128::from(key) * buckets.len() as u128) >> 64) as usize;
        &buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache, so that the probe a moment later (after
    /// the move is made and the node set up) does not wait for main memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: SSE, the target feature `_mm_prefetch` needs, is part of the x86_64
            // baseline; a prefetch is only a hint to the cache and never dereferences the
            // pointer (which points into the table anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                let bound = Bound::from_bits(data >> 56)?;
                return Some(TtEntry {
                    mv: Move::from_raw(data as u16),
                    score: (data >> 16) as u16 as i16 as i32,
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: unpack_depth(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result. `score` must already be in table form.
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let slot_key = slot.check.load(Ordering::Relaxed) ^ data;
            if slot_key == key {
                // Same position: keep a deeper non-exact result unless ours is exact or close.
                let old_depth = unpack_depth(data);
                if bound != Bound::Exact && depth + 3 < old_depth && unpack_age(data) == age {
                    // The deeper result stays, but a move found since (by a full-width search,
                    // not quiescence) is the better one to try first.
                    if !mv.is_none() && depth > 0 && mv.raw() != data as u16 {
                        let new = (data & !0xFFFF) | u64::from(mv.raw());
                        slot.check.store(key ^ new, Ordering::Relaxed);
                        slot.data.store(new, Ordering::Relaxed);
                    }
                    return;
                }
                let mv = if mv.is_none() {
                    Move::from_raw(data as u16)
                } else {
                    mv
                };
                let new = pack(mv, score, eval, depth, bound, age);
                slot.check.store(key ^ new, Ordering::Relaxed);
                slot.data.store(new, Ordering::Relaxed);
                return;
            }
            let stale = i32::from(age.wrapping_sub(unpack_age(data)) & 63);
            let worth = if data == 0 {
                i32::MIN
            } else {
                unpack_depth(data) - 8 * stale
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let new = pack(mv, score, eval, depth, bound, age);
        victim.check.store(key ^ new, Ordering::Relaxed);
        victim.data.store(new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let buckets = self.buckets.as_slice();
        let sample = buckets.len().min(250);
        let mut used = 0;
        for bucket in &buckets[..sample] {
            for slot in &bucket.slots {
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && unpack_age(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square::E1, Square::E8);
        tt.store(0xDEAD_BEEF, mv, -31_990, 25, 7, Bound::Lower);
        let entry = tt.probe(0xDEAD_BEEF);
        assert_eq!(
            entry,
            Some(TtEntry {
                mv,
                score: -31_990,
                eval: 25,
                depth: 7,
                bound: Bound::Lower
            })
        );
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn a_depth_beyond_the_byte_is_kept_as_the_deepest_not_wrapped() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square::E1, Square::E8);
        tt.store(0xBEEF, mv, 12, 3, 200, Bound::Exact);
        let entry = tt.probe(0xBEEF).map(|e| e.depth);
        // A signed byte holds 127 at most: 200 must not read back as -56.
        assert_eq!(entry, Some(127));
        // A deep entry decides any shallower probe.
        assert_eq!(
            tt.probe(0xBEEF).and_then(|e| e.cutoff(100, 0, -50, 50)),
            Some(12)
        );
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        // More than the address space can hold.
        assert_eq!(
            TranspositionTable::try_new(usize::MAX / 1024).err(),
            Some(TableAllocError {
                megabytes: usize::MAX / 1024
            })
        );
        assert_eq!(TranspositionTable::new(2).megabytes(), 2);
    }

    #[test]
    fn keeps_the_move_when_a_result_without_one_arrives() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square::A1, Square::H8);
        tt.store(42, mv, 10, 0, 5, Bound::Exact);
        tt.store(42, Move::NONE, 20, 0, 6, Bound::Upper);
        assert_eq!(tt.probe(42).map(|e| (e.mv, e.score)), Some((mv, 20)));
    }

    #[test]
    fn a_shallower_result_keeps_the_deeper_score_but_brings_its_new_move() {
        let tt = TranspositionTable::new(1);
        let old = Move::normal(Square::A1, Square::H8);
        let new = Move::normal(Square::E1, Square::E8);
        tt.store(42, old, 10, 3, 12, Bound::Lower);
        tt.store(42, new, 30, 3, 5, Bound::Lower);
        let entry = tt.probe(42).map(|e| (e.mv, e.score, e.depth));
        assert_eq!(entry, Some((new, 10, 12)));
        // Quiescence (depth 0) leaves the deep entry's move alone.
        tt.store(42, old, 50, 3, 0, Bound::Lower);
        assert_eq!(tt.probe(42).map(|e| e.mv), Some(new));
    }

    #[test]
    fn a_full_bucket_replaces_its_shallowest_entry() {
        let mut tt = TranspositionTable::new(1);
        tt.clear();
        // Keys that land in bucket 0: the high bits decide the bucket.
        let keys: Vec<u64> = (1..=5u64).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, Move::NONE, 0, 0, 10 - i as i32, Bound::Exact);
        }
        // Depths 10, 9, 8, 7 were stored; the fifth (depth 6) replaced the shallowest (7).
        assert!(tt.probe(1).is_some());
        assert!(tt.probe(4).is_none());
        assert!(tt.probe(5).is_some());
    }
}
