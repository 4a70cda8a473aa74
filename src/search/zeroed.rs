//! Zeroed, cache-line-aligned memory for the transposition table, taken from the allocator's
//! `calloc` path: for a large table that is fresh pages from the system, zeroed by it when each
//! is first touched, so a table of gigabytes is ready at once instead of being written through
//! first. (The standard `alloc_zeroed` writes the zeros itself for alignments above 16 bytes,
//! and writing an 11.3 GB table took 9.3 s of system time on a 2-core KVM machine: page faults,
//! which an interface waiting for `readyok` takes for a hang.)

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::marker::PhantomData;
use std::ptr::NonNull;

/// Alignment the allocator's `calloc` path serves (`MIN_ALIGN` of the system allocator).
const CALLOC_ALIGN: usize = 16;

/// A slice of `count` values of `T`, all bytes zero at the start, aligned to `ALIGN`. `T` must
/// be made of 64-bit atomic integers ([`AtomicWords`]).
pub(crate) struct ZeroedSlice<T, const ALIGN: usize> {
    base: NonNull<u8>,
    layout: Layout,
    items: NonNull<T>,
    count: usize,
    _owns: PhantomData<T>,
}

// SAFETY: the slice owns its memory like a `Box<[T]>` does, so it may move to another thread
// and be shared between threads exactly when `T` allows that.
unsafe impl<T: Send, const ALIGN: usize> Send for ZeroedSlice<T, ALIGN> {}
// SAFETY: as above: shared access only hands out `&[T]`.
unsafe impl<T: Sync, const ALIGN: usize> Sync for ZeroedSlice<T, ALIGN> {}

impl<T: AtomicWords, const ALIGN: usize> ZeroedSlice<T, ALIGN> {
    /// `count` zeroed values (at least one), or `None` if the memory cannot be had.
    pub(crate) fn new(count: usize) -> Option<Self> {
        let count = count.max(1);
        let item = std::mem::size_of::<T>().max(1);
        assert!(ALIGN.is_power_of_two() && ALIGN >= std::mem::align_of::<T>());
        // Room for the values plus what aligning their start may skip.
        let size = count.checked_mul(item)?.checked_add(ALIGN)?;
        let layout = Layout::from_size_align(size, CALLOC_ALIGN).ok()?;
        // SAFETY: the layout's size is at least ALIGN + 1 bytes, never zero.
        let base = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let skip = base.as_ptr().align_offset(ALIGN);
        if skip >= ALIGN {
            // SAFETY: allocated just above with this layout and not used since.
            unsafe { dealloc(base.as_ptr(), layout) };
            return None;
        }
        let items = NonNull::new(base.as_ptr().wrapping_add(skip).cast::<T>())?;
        Some(ZeroedSlice {
            base,
            layout,
            items,
            count,
            _owns: PhantomData,
        })
    }

    /// The values.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: `items` is aligned for `T` and `count` values lie within the allocation
        // (skip < ALIGN and the allocation has ALIGN bytes to spare); they are initialised
        // because the memory was zeroed and all-zero bytes are a valid `T` (`AtomicWords`); the
        // borrow of `self` keeps them alive and, being shared, allows no `&mut` meanwhile.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr(), self.count) }
    }

    /// Start of the values (for memory advice).
    pub(crate) fn as_ptr(&self) -> *const T {
        self.items.as_ptr()
    }
}

impl<T, const ALIGN: usize> Drop for ZeroedSlice<T, ALIGN> {
    fn drop(&mut self) {
        // SAFETY: `base` was allocated by the global allocator with `layout` and is freed
        // only here, once. The values need no drop of their own (`AtomicWords` types are atomic
        // integers).
        unsafe { dealloc(self.base.as_ptr(), self.layout) };
    }
}

/// Types made of 64-bit atomic integers alone: all-zero bytes are a valid value, they need no
/// drop, and every 8-byte word of them may be accessed as an [`AtomicU64`] from any thread.
///
/// # Safety
/// Implement only for types made of `AtomicU64`s alone (arrays or structs of them, with no
/// padding).
///
/// [`AtomicU64`]: std::sync::atomic::AtomicU64
pub(crate) unsafe trait AtomicWords {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    // SAFETY: an array of `AtomicU64`s.
    unsafe impl AtomicWords for [AtomicU64; 8] {}

    #[test]
    fn memory_is_zeroed_aligned_and_writable() {
        let Some(slice) = ZeroedSlice::<[AtomicU64; 8], 64>::new(1000) else {
            panic!("a small allocation succeeds");
        };
        assert_eq!(slice.as_slice().len(), 1000);
        assert_eq!(slice.as_ptr() as usize % 64, 0);
        assert!(slice
            .as_slice()
            .iter()
            .all(|b| b.iter().all(|a| a.load(Ordering::Relaxed) == 0)));
        slice.as_slice()[999][7].store(5, Ordering::Relaxed);
        slice.as_slice()[0][0].store(7, Ordering::Relaxed);
        assert_eq!(slice.as_slice()[999][7].load(Ordering::Relaxed), 5);
        assert!(ZeroedSlice::<[AtomicU64; 8], 64>::new(usize::MAX / 8).is_none());
    }
}
