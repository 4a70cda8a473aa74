//! The shared control block of a running search: how the protocol thread stops it, tells it
//! about a ponder hit, and reads its progress, without locks.

use crate::board::Move;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The clock part of a control block: when the search started, whether it ponders, and when
/// the ponder hit came. Shared (an `Arc`) with the watchdog thread, which outlives a search.
#[derive(Debug)]
pub(crate) struct SearchClock {
    started: Instant,
    pondering: AtomicBool,
    /// Milliseconds after `started` at which a ponder hit arrived (`u64::MAX`: none yet).
    ponderhit_ms: AtomicU64,
}

impl SearchClock {
    /// True while the search ponders (its time limits wait for the ponder hit).
    #[inline]
    pub(crate) fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// When the search's own clock started: at its start, or at the ponder hit.
    pub(crate) fn clock_start(&self) -> Instant {
        match self.ponderhit_ms.load(Ordering::Acquire) {
            u64::MAX => self.started,
            ms => self.started + Duration::from_millis(ms),
        }
    }
}

/// Shared between the thread that runs a search and the threads that watch or stop it.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    /// The search must not end by itself: when its limits are reached it waits for a stop
    /// (UCI `go infinite`, analysis).
    hold: bool,
    /// Start, pondering and ponder hit.
    clock: Arc<SearchClock>,
    nodes: AtomicU64,
    depth: AtomicU32,
    root_index: AtomicU32,
    root_total: AtomicU32,
    root_move: AtomicU16,
    /// Wakes a search that waits for a ponder hit or a stop.
    wake_lock: Mutex<()>,
    wake: Condvar,
}

impl SearchControl {
    /// A fresh control block; `pondering` says whether the search starts as a ponder search.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl::with_hold(pondering, false)
    }

    /// A fresh control block; with `hold` the search, once it has nothing left to search,
    /// waits for a stop instead of ending (so a protocol never reports the result of an
    /// endless search before it is asked to).
    pub fn with_hold(pondering: bool, hold: bool) -> SearchControl {
        SearchControl::started_at(Instant::now(), pondering, hold)
    }

    /// As [`SearchControl::with_hold`], with the clock started at `started` (when the command
    /// that asked for the search was read) instead of now.
    pub fn started_at(started: Instant, pondering: bool, hold: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            hold,
            clock: Arc::new(SearchClock {
                started,
                pondering: AtomicBool::new(pondering),
                ponderhit_ms: AtomicU64::new(u64::MAX),
            }),
            nodes: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            root_index: AtomicU32::new(0),
            root_total: AtomicU32::new(0),
            root_move: AtomicU16::new(0),
            wake_lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    /// Wakes anyone in [`SearchControl::wait_while_pondering`]. The flags are set first; taking
    /// the lock before notifying means a waiter cannot miss the change between its check and
    /// its wait.
    fn notify(&self) {
        let _guard = self.wake_lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }

    /// Blocks (without spinning) while the search is pondering or held, and not stopped: a
    /// ponder search that has nothing left to search waits here for the ponder hit or the
    /// stop, a held one for the stop.
    pub fn wait_while_pondering(&self) {
        let mut guard = self.wake_lock.lock().unwrap_or_else(|e| e.into_inner());
        while (self.is_pondering() || self.hold) && !self.is_stopped() {
            guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Asks the search to stop as soon as possible; it still returns its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.notify();
    }

    /// True once a stop was requested (or the search stopped itself).
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True while the search ponders (its time limits wait for [`SearchControl::ponderhit`]).
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.clock.is_pondering()
    }

    /// The opponent played the expected move: the ponder search becomes a normal timed search
    /// whose clock starts now.
    pub fn ponderhit(&self) {
        let clock = &self.clock;
        let ms = clock.started.elapsed().as_millis() as u64;
        clock.ponderhit_ms.store(ms, Ordering::Release);
        clock.pondering.store(false, Ordering::Release);
        self.notify();
    }

    /// When the search's own clock started: at creation, or at the ponder hit.
    pub fn clock_start(&self) -> Instant {
        self.clock.clock_start()
    }

    /// When the search was started.
    pub fn started(&self) -> Instant {
        self.clock.started
    }

    /// The clock, for a thread that follows it beyond this block's borrow (the watchdog).
    pub(crate) fn clock(&self) -> &Arc<SearchClock> {
        &self.clock
    }

    /// Publishes progress (called by the search every few thousand nodes and per root move).
    pub fn publish(&self, nodes: u64, depth: u32, root_index: u32, root_total: u32, mv: Move) {
        self.nodes.store(nodes, Ordering::Relaxed);
        self.depth.store(depth, Ordering::Relaxed);
        self.root_index.store(root_index, Ordering::Relaxed);
        self.root_total.store(root_total, Ordering::Relaxed);
        self.root_move.store(mv.raw(), Ordering::Relaxed);
    }

    /// Publishes the node count alone.
    #[inline]
    pub fn publish_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Ordering::Relaxed);
    }

    /// Latest progress: (nodes, depth, root move index (1-based), root moves, current root move).
    pub fn progress(&self) -> (u64, u32, u32, u32, Move) {
        (
            self.nodes.load(Ordering::Relaxed),
            self.depth.load(Ordering::Relaxed),
            self.root_index.load(Ordering::Relaxed),
            self.root_total.load(Ordering::Relaxed),
            Move::from_raw(self.root_move.load(Ordering::Relaxed)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_waiting_ponder_search_wakes_on_ponderhit_and_on_stop() {
        for hit in [true, false] {
            let control = Arc::new(SearchControl::new(true));
            let waiter = Arc::clone(&control);
            let handle = std::thread::spawn(move || waiter.wait_while_pondering());
            std::thread::sleep(std::time::Duration::from_millis(20));
            if hit {
                control.ponderhit();
                assert!(!control.is_pondering());
            } else {
                control.stop();
            }
            assert!(handle.join().is_ok());
        }
        // Not pondering: returns at once.
        SearchControl::new(false).wait_while_pondering();
        // Held: a ponder hit does not release it, a stop does.
        let control = Arc::new(SearchControl::with_hold(true, true));
        let waiter = Arc::clone(&control);
        let handle = std::thread::spawn(move || waiter.wait_while_pondering());
        control.ponderhit();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(
            !handle.is_finished(),
            "a ponder hit does not release a held search"
        );
        control.stop();
        assert!(handle.join().is_ok());
    }
}
