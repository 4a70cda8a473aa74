//! The engine's search thread: made once, at the first search, with a stack deep recursion
//! never overflows, then handed one search at a time over a channel; each search's result
//! comes back through its own [`ResultSlot`], and then its done notice goes out. A `go` wakes
//! the thread instead of creating one: on a loaded machine a new thread can wait tens of
//! milliseconds for its first time slice, a woken one about a millisecond.

use super::running::Job;
use crate::search::{SearchResult, Searcher};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;

/// Stack size of the search thread (deep recursion must never overflow it).
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// What a search hands back: the searcher and the result, or the panic that ended it (test
/// builds only: release builds abort on a panic).
pub(super) type Done = thread::Result<(Searcher, SearchResult)>;

/// Where one search's result arrives.
pub(super) struct ResultSlot {
    done: Mutex<Option<Done>>,
    ready: Condvar,
}

impl ResultSlot {
    fn new() -> ResultSlot {
        ResultSlot {
            done: Mutex::new(None),
            ready: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<Done>> {
        self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn put(&self, done: Done) {
        *self.lock() = Some(done);
        self.ready.notify_all();
    }

    /// True once the result is there.
    pub(super) fn is_filled(&self) -> bool {
        self.lock().is_some()
    }

    /// Waits for the result and takes it.
    pub(super) fn take(&self) -> Done {
        let mut done = self.lock();
        loop {
            if let Some(done) = done.take() {
                return done;
            }
            done = self.ready.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The engine's persistent search thread (started before the first search, see
/// [`SearchThread::start`], or at it; ended when the engine is dropped).
#[derive(Default)]
pub struct SearchThread {
    jobs: Option<Sender<(Box<Job>, Arc<ResultSlot>)>>,
}

impl std::fmt::Debug for SearchThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchThread")
            .field("running", &self.jobs.is_some())
            .finish()
    }
}

impl SearchThread {
    /// Hands `job` to the thread, starting the thread first if none runs, and returns the slot
    /// its result will arrive in; gives the job back if no thread can take it.
    pub(super) fn submit(&mut self, job: Box<Job>) -> Result<Arc<ResultSlot>, Box<Job>> {
        let Some(jobs) = self.start() else {
            return Err(job);
        };
        let slot = Arc::new(ResultSlot::new());
        match jobs.send((job, Arc::clone(&slot))) {
            Ok(()) => Ok(slot),
            Err(mpsc::SendError((job, _))) => {
                self.jobs = None;
                Err(job)
            }
        }
    }

    /// Starts the thread if none runs, and gives its inbox; `None` if the system refuses. The
    /// engine starts it before the first search (`isready`, a new game): on a loaded machine a
    /// newly created thread may wait for the running threads' time slices before it first
    /// runs, and the first `go movetime 100` of a new process took up to 154 ms in a match
    /// with four engines on two cores (2026-12-07).
    pub(super) fn start(&mut self) -> Option<&Sender<(Box<Job>, Arc<ResultSlot>)>> {
        if self.jobs.is_none() {
            self.jobs = spawn();
        }
        self.jobs.as_ref()
    }
}

/// Starts the thread; `None` if the system refuses.
fn spawn() -> Option<Sender<(Box<Job>, Arc<ResultSlot>)>> {
    let (jobs, inbox) = mpsc::channel::<(Box<Job>, Arc<ResultSlot>)>();
    let spawned = thread::Builder::new()
        .name("betacut-search".into())
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(move || {
            while let Ok((job, slot)) = inbox.recv() {
                let (on_done, id) = job.done_notice();
                // A panic goes to whoever collects the search, and the thread serves on.
                slot.put(panic::catch_unwind(AssertUnwindSafe(|| job.run())));
                on_done(id);
            }
        });
    spawned.ok().map(|_| jobs)
}
