//! The transposition table's memory, managed so that no protocol command ever waits on it.
//!
//! A table of gigabytes costs time in three places, none of which may hold up `stop`, `ping`
//! or `isready`:
//! - **allocation**: the memory comes zeroed from the allocator's `calloc` path
//!   ([`ZeroedSlice`]), which for a large table is fresh pages that the system zeroes when each
//!   is first touched, so the table is usable at once;
//! - **first touch**: a background thread writes to every page once (one word of it
//!   compare-exchanged with its own value, which changes nothing the search threads read or
//!   write), so the search seldom meets a page fault itself: on the 2-core KVM machine a fault
//!   of a 2 MiB page cost up to a few milliseconds, and a fresh 11.8 GB table met one at nearly
//!   every node at first.
//!   Touching, unlike `MADV_POPULATE_WRITE`, does not hold the process's memory-map lock, which
//!   every thread that starts or ends (a search does both) needs;
//! - **release**: handing gigabytes of touched pages back to the system in one call holds that
//!   lock for about half a second, so a table that is replaced (resize, clear) or dropped is
//!   released by a background thread, a step at a time.
//!
//! A table is touched only once every table released before it is gone, so replacing a table
//! (release the old, then allocate the new) never holds two backed tables at once.

use super::zeroed::{AtomicWords, ZeroedSlice};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

/// Alignment of the table: one bucket per cache line.
pub(crate) const LINE_BYTES: usize = 64;

/// Tables handed to a thread to be released and not yet released.
static PENDING_RELEASES: AtomicUsize = AtomicUsize::new(0);

/// Bytes per step of the background work (the touching thread looks for cancellation after
/// each step; the release gives back one step per system call).
const STEP_BYTES: usize = 2 << 20;

/// The smallest page size of the systems Betacut runs on.
const PAGE_BYTES: usize = 4096;

/// Tables up to this size ask for huge pages (2 MiB, see [`advise_huge_pages`]); larger ones
/// take the system's default pages. Where Linux grants huge pages only on request (THP
/// `madvise`, with `defrag` `madvise` too), each first touch of a requested 2 MiB page may
/// compact memory then and there, about 1.2 ms a page on the 2-core KVM machine, while holding
/// the memory-map lock that every thread start and exit needs (a search has both). Measured by
/// replaying the protocol fuzzer's stream: after `memory 664`, a `usermove` in analysis mode
/// (which ends a search and starts one) waited 1.2-1.3 s for the touching thread; 40 ms with
/// 64 MiB, 81 ms with 128 MiB, 9 ms with 664 MiB in default pages. An 8 GiB table in huge
/// pages also searched 10,320 nodes in its first 10 seconds where default pages allowed 5.05
/// million. Up to 128 MiB (the default table and the usual match sizes) the TLB gain stays
/// (6.6 % less CPU time at 64 MiB) and no command waits more than a tenth of a second.
const HUGE_PAGES_UP_TO: usize = 128 << 20;

/// Stack of the background threads (they call nothing deep).
const STACK_BYTES: usize = 64 << 10;

/// A background job that touches a table's pages, and the flag that cancels it.
struct Touching {
    cancel: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// Zeroed, cache-line-aligned memory for `count` values of `T`, touched and released in the
/// background.
pub(crate) struct TableMemory<T: AtomicWords + Send + Sync + 'static> {
    slice: ManuallyDrop<ZeroedSlice<T, LINE_BYTES>>,
    touching: Option<Touching>,
}

impl<T: AtomicWords + Send + Sync + 'static> TableMemory<T> {
    /// `count` zeroed values (at least one), or `None` if the memory cannot be had. Returns at
    /// once whatever the size; a background thread backs the pages.
    pub(crate) fn new(count: usize) -> Option<TableMemory<T>> {
        let slice = ZeroedSlice::<T, LINE_BYTES>::new(count)?;
        let (start, bytes) = (
            slice.as_ptr() as usize,
            std::mem::size_of_val(slice.as_slice()),
        );
        if bytes <= HUGE_PAGES_UP_TO {
            advise_huge_pages(start, bytes);
        }
        let touching = start_touching(start, bytes);
        Some(TableMemory {
            slice: ManuallyDrop::new(slice),
            touching,
        })
    }

    /// The values.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        self.slice.as_slice()
    }

    /// True once the background thread has touched every page (or there is none).
    #[cfg(test)]
    pub(crate) fn is_touched(&self) -> bool {
        self.touching
            .as_ref()
            .is_none_or(|job| job.handle.is_finished())
    }

    /// Waits until every page is touched, for at most `most`; true if they are.
    #[cfg(test)]
    pub(crate) fn wait_touched(&self, most: std::time::Duration) -> bool {
        let start = std::time::Instant::now();
        while !self.is_touched() {
            if start.elapsed() >= most {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        true
    }
}

impl<T: AtomicWords + Send + Sync + 'static> Drop for TableMemory<T> {
    fn drop(&mut self) {
        // SAFETY: `drop` runs once and `self.slice` is not touched after this.
        let slice = unsafe { ManuallyDrop::take(&mut self.slice) };
        let release = Release {
            slice,
            touching: self.touching.take(),
        };
        if let Some(job) = &release.touching {
            job.cancel.store(true, Ordering::Relaxed);
        }
        PENDING_RELEASES.fetch_add(1, Ordering::AcqRel);
        // The memory goes to a thread of its own, handed over only once that thread runs: if
        // none can be started, it is released here (slower, but correct).
        let (hand_over, receive) = mpsc::channel::<Release<T>>();
        let spawned = std::thread::Builder::new()
            .name("betacut-table-release".into())
            .stack_size(STACK_BYTES)
            .spawn(move || {
                if let Ok(release) = receive.recv() {
                    release.run();
                }
            });
        match spawned {
            Ok(_) => {
                if let Err(mpsc::SendError(release)) = hand_over.send(release) {
                    release.run();
                }
            }
            Err(_) => release.run(),
        }
    }
}

/// A table's memory on its way back to the system, with the job touching it.
struct Release<T: AtomicWords> {
    slice: ZeroedSlice<T, LINE_BYTES>,
    touching: Option<Touching>,
}

impl<T: AtomicWords> Release<T> {
    /// Waits for the (cancelled) touching to stop, gives the pages back a step at a time, then
    /// frees the memory.
    fn run(self) {
        // The touching thread works on this memory: it must be gone before the memory.
        if let Some(job) = self.touching {
            let _ = job.handle.join();
        }
        let bytes = std::mem::size_of_val(self.slice.as_slice());
        discard_pages(self.slice.as_ptr() as usize, bytes);
        drop(self.slice);
        PENDING_RELEASES.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Starts touching the pages of `[start, start + bytes)` in the background; `None` if no
/// thread can be started (the search then touches them as it goes).
fn start_touching(start: usize, bytes: usize) -> Option<Touching> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let handle = std::thread::Builder::new()
        .name("betacut-table-touch".into())
        .stack_size(STACK_BYTES)
        .spawn(move || touch_pages(start, bytes, &flag))
        .ok()?;
    Some(Touching { cancel, handle })
}

/// Writes to every page of `[start, start + bytes)` once, without changing it: its first
/// 8-byte word is written back unchanged ([`write_unchanged`]). Waits first for the tables
/// released before it to be gone; stops when `cancel` is set.
fn touch_pages(start: usize, bytes: usize, cancel: &AtomicBool) {
    while PENDING_RELEASES.load(Ordering::Acquire) > 0 {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let end = start + bytes;
    // The first whole word of each page: `start` is 64-byte aligned, page starts are too.
    let mut page = start;
    while page < end {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let step_end = (page + STEP_BYTES).min(end);
        while page < step_end {
            // SAFETY: `page` is 8-byte aligned (64-byte aligned `start`, page-aligned after the
            // first) and at least 8 bytes before `end`, inside the table's allocation, which
            // outlives this thread (its release joins it before freeing). The memory is made
            // of `AtomicU64`s only (`AtomicWords`), so this atomic access of one of them
            // coexists with the search threads' atomic accesses; adding zero changes nothing.
            let word = unsafe { &*(page as *const AtomicU64) };
            write_unchanged(word);
            page = (page + 1).next_multiple_of(PAGE_BYTES);
        }
    }
}

/// Writes `word`'s own value back to it. A write, not a read: the system maps a page that is
/// only read to its shared zero page, and the first write to it later faults again and zeroes
/// a page then (a whole 2 MiB one in huge pages). An idempotent read-modify-write such as
/// `fetch_add(0)` is no help: LLVM lowers it to a fenced load on x86, so the touching of
/// 2026-12-07 and before backed nothing, and a new process's first search met its table's
/// faults (`do_huge_pmd_wp_page` under `TranspositionTable::store` in `perf`). A compare-and-
/// exchange of the value with itself is a locked write; if a search thread changed the word
/// in between, the exchange fails and the page is backed already.
#[inline]
fn write_unchanged(word: &AtomicU64) {
    let value = word.load(Ordering::Relaxed);
    let _ = word.compare_exchange(value, value, Ordering::Relaxed, Ordering::Relaxed);
}

/// Gives the pages of `[start, start + bytes)` back to the system a step at a time (Linux), so
/// that freeing the memory afterwards is quick; each step holds the memory-map lock briefly
/// instead of the whole release holding it for long.
#[cfg(target_os = "linux")]
fn discard_pages(start: usize, bytes: usize) {
    const MADV_DONTNEED: i32 = 4;
    let first = start.next_multiple_of(PAGE_BYTES);
    let end = (start + bytes) / PAGE_BYTES * PAGE_BYTES;
    let mut at = first;
    while at < end {
        let len = STEP_BYTES.min(end - at);
        // SAFETY: the range lies inside an allocation that this thread owns and frees right
        // after (nothing else refers to it any more; the allocator's own bookkeeping lies
        // outside the whole pages of it); MADV_DONTNEED on private memory only drops its
        // pages, which then read as zero.
        let refused = unsafe { madvise(at as *mut std::ffi::c_void, len, MADV_DONTNEED) };
        if refused != 0 {
            return;
        }
        at += len;
    }
}

/// Freeing is left to the allocator where the kernel offers no such advice.
#[cfg(not(target_os = "linux"))]
fn discard_pages(_start: usize, _bytes: usize) {}

#[cfg(target_os = "linux")]
extern "C" {
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
}

/// Asks Linux to back the table with 2 MiB pages (transparent huge pages, which many systems
/// grant only on request): a probe of a random bucket then seldom misses the TLB, whose page
/// walk the profile showed stalling the probe and the prefetch before it. Only the 2 MiB
/// blocks that lie wholly inside the table can be huge; a refusal (no THP support) changes
/// nothing, so the result is ignored.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, bytes: usize) {
    const MADV_HUGEPAGE: i32 = 14;
    let first = start.next_multiple_of(PAGE_BYTES);
    let end = (start + bytes) / PAGE_BYTES * PAGE_BYTES;
    if end > first {
        // SAFETY: `madvise` is the C library's (linked by std on Linux) with its C signature;
        // the range lies inside the table's own allocation and is page aligned, and
        // MADV_HUGEPAGE only changes how the kernel backs those pages, never their contents
        // or validity.
        unsafe { madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE) };
    }
}

/// Huge pages are requested on Linux only.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The resident bytes of the mapping that holds `address` (`/proc/self/smaps`).
    #[cfg(target_os = "linux")]
    fn resident_bytes_at(address: usize) -> Option<usize> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((from, to)) = range.split_once('-') {
                if let (Ok(from), Ok(to)) = (
                    usize::from_str_radix(from, 16),
                    usize::from_str_radix(to, 16),
                ) {
                    inside = (from..to).contains(&address);
                    continue;
                }
            }
            if let Some(kb) = line.strip_prefix("Rss:").filter(|_| inside) {
                return kb
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .map(|k| k * 1024);
            }
        }
        None
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn touching_backs_the_pages_with_memory_of_their_own() {
        // 32 MiB: a page only read would be the system's shared zero page and count nothing
        // in the mapping's resident set; written, each counts.
        let Some(table) = TableMemory::<[AtomicU64; 8]>::new(32 << 20 >> 6) else {
            panic!("32 MiB can be had");
        };
        assert!(table.wait_touched(std::time::Duration::from_secs(60)));
        let start = table.as_slice().as_ptr() as usize;
        let Some(resident) = resident_bytes_at(start + (16 << 20)) else {
            panic!("the table's mapping is in /proc/self/smaps");
        };
        assert!(resident >= 30 << 20, "resident {resident} bytes of 32 MiB");
    }

    #[test]
    fn memory_is_zeroed_touched_without_change_and_released() {
        let Some(table) = TableMemory::<[AtomicU64; 8]>::new(100_000) else {
            panic!("6 MB can be had");
        };
        assert_eq!(table.as_slice().len(), 100_000);
        assert_eq!(table.as_slice().as_ptr() as usize % LINE_BYTES, 0);
        table.as_slice()[0][0].store(5, Ordering::Relaxed);
        table.as_slice()[99_999][7].store(9, Ordering::Relaxed);
        assert!(
            table.wait_touched(std::time::Duration::from_secs(60)),
            "6 MB are touched within a minute"
        );
        assert!(table.is_touched());
        assert_eq!(table.as_slice()[0][0].load(Ordering::Relaxed), 5);
        assert_eq!(table.as_slice()[99_999][7].load(Ordering::Relaxed), 9);
        assert!(table.as_slice()[1..99_999]
            .iter()
            .all(|line| line.iter().all(|v| v.load(Ordering::Relaxed) == 0)));
        drop(table);
        // Dropped while they may still be touched: released after the touching stops.
        for _ in 0..8 {
            assert!(TableMemory::<[AtomicU64; 8]>::new(1 << 20).is_some());
        }
        assert!(TableMemory::<[AtomicU64; 8]>::new(usize::MAX / 8).is_none());
    }
}
