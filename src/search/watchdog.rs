//! The watchdog: one long-lived thread per searcher that ends a timed search at its hard limit
//! even when the search's own look at the clock (every few thousand nodes) comes late, e.g. on
//! the page faults of a fresh table. A search arms it with its clock, its hard limit and its
//! abort flag, and disarms it at its end with one store, without waiting for the thread. The
//! thread is made once and woken for each search: on a loaded machine a new thread can wait
//! tens of milliseconds for its first time slice, a woken one about a millisecond.

use super::control::SearchClock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

/// The longest the watchdog sleeps between two looks at the clock of a search it watches.
const LOOK_EVERY: Duration = Duration::from_millis(50);
/// The same while the search ponders (the ponder hit starts its clock).
const LOOK_EVERY_PONDERING: Duration = Duration::from_millis(5);
/// The watchdog thread's stack: it only compares times.
const STACK_BYTES: usize = 256 << 10;

/// One armed search.
struct Watch {
    /// The generation it was armed with.
    id: u64,
    clock: Arc<SearchClock>,
    hard: Duration,
    /// The search's own abort flag: a late store reaches only the search it was armed for.
    abort: Arc<AtomicBool>,
}

/// What the watchdog thread waits on.
#[derive(Default)]
struct State {
    watch: Option<Watch>,
    /// The searcher is gone: the thread ends.
    quit: bool,
}

/// What the searcher and its watchdog thread share.
#[derive(Default)]
struct Post {
    state: Mutex<State>,
    wake: Condvar,
    /// The generation of the search being watched (0: none), so disarming is one store.
    live: AtomicU64,
}

/// A searcher's handle on its watchdog thread, which starts before the first timed search
/// (see [`Watchdog::start`]) or at it.
#[derive(Default)]
pub(crate) struct Watchdog {
    post: Arc<Post>,
    running: bool,
    generation: u64,
}

impl Watchdog {
    /// Watches a search: once `hard` has passed on `clock` (counted from the ponder hit for a
    /// ponder search), `abort` is set. If no thread can be started the search goes unwatched
    /// (its own look at the clock still ends it).
    pub(crate) fn arm(
        &mut self,
        clock: &Arc<SearchClock>,
        hard: Duration,
        abort: &Arc<AtomicBool>,
    ) {
        if !self.start() {
            return;
        }
        self.generation += 1;
        let mut state = lock(&self.post.state);
        state.watch = Some(Watch {
            id: self.generation,
            clock: Arc::clone(clock),
            hard,
            abort: Arc::clone(abort),
        });
        self.post.live.store(self.generation, Ordering::Release);
        drop(state);
        self.post.wake.notify_one();
    }

    /// Starts the watchdog thread if it does not run yet; false if the system refuses. Started
    /// before the first search (the engine's `isready` and new game), the thread waits parked:
    /// a thread created as a search starts may be scheduled only after the running threads'
    /// time slices on a loaded machine, late for a short search.
    pub(crate) fn start(&mut self) -> bool {
        if !self.running {
            let post = Arc::clone(&self.post);
            self.running = thread::Builder::new()
                .name("betacut-watchdog".into())
                .stack_size(STACK_BYTES)
                .spawn(move || watch(&post))
                .is_ok();
        }
        self.running
    }

    /// The search has ended: the watchdog forgets it at its next look. Nothing waits for the
    /// thread.
    pub(crate) fn disarm(&self) {
        self.post.live.store(0, Ordering::Release);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        lock(&self.post.state).quit = true;
        self.post.wake.notify_one();
    }
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

/// The watchdog thread: sleeps until a search is armed, then follows its clock until the hard
/// limit (it sets the abort flag), the search's end (disarmed) or the next search (re-armed).
fn watch(post: &Post) {
    let mut state = lock(&post.state);
    while !state.quit {
        let live = post.live.load(Ordering::Acquire);
        let wait = match state.watch.as_ref().filter(|w| w.id == live) {
            Some(w) if w.clock.is_pondering() => Some(LOOK_EVERY_PONDERING),
            Some(w) => {
                let left = w.hard.saturating_sub(w.clock.clock_start().elapsed());
                if left.is_zero() {
                    w.abort.store(true, Ordering::Relaxed);
                    None
                } else {
                    Some(left.min(LOOK_EVERY))
                }
            }
            None => None,
        };
        state = match wait {
            Some(wait) => post
                .wake
                .wait_timeout(state, wait)
                .map_or_else(|e| e.into_inner().0, |(guard, _)| guard),
            None => {
                state.watch = None;
                post.wake.wait(state).unwrap_or_else(|e| e.into_inner())
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchControl;
    use std::time::Instant;

    /// Waits up to a second for `flag`.
    fn becomes_set(flag: &AtomicBool) -> bool {
        let end = Instant::now() + Duration::from_secs(1);
        while Instant::now() < end {
            if flag.load(Ordering::Relaxed) {
                return true;
            }
            thread::sleep(Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn one_thread_aborts_each_armed_search_at_its_own_deadline_only() {
        let mut dog = Watchdog::default();
        let control = SearchControl::new(false);
        let first = Arc::new(AtomicBool::new(false));
        dog.arm(control.clock(), Duration::from_millis(10), &first);
        assert!(becomes_set(&first));
        dog.disarm();

        // Disarmed before its deadline: never aborted, and a later search with a far deadline
        // is not aborted by the earlier one's.
        let second = Arc::new(AtomicBool::new(false));
        dog.arm(control.clock(), Duration::from_millis(30), &second);
        dog.disarm();
        let third = Arc::new(AtomicBool::new(false));
        dog.arm(
            SearchControl::new(false).clock(),
            Duration::from_secs(60),
            &third,
        );
        thread::sleep(Duration::from_millis(80));
        assert!(!second.load(Ordering::Relaxed));
        assert!(!third.load(Ordering::Relaxed));
        dog.disarm();
    }

    #[test]
    fn a_pondering_search_is_timed_from_its_ponder_hit() {
        let mut dog = Watchdog::default();
        let control = SearchControl::new(true);
        let abort = Arc::new(AtomicBool::new(false));
        dog.arm(control.clock(), Duration::from_millis(10), &abort);
        thread::sleep(Duration::from_millis(40));
        assert!(!abort.load(Ordering::Relaxed));
        control.ponderhit();
        assert!(becomes_set(&abort));
    }
}
