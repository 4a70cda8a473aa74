//! A fixed-length `i16` buffer whose first value sits on a 64-byte boundary (a cache line, and
//! the width of an AVX-512 register).
//!
//! Feature rows and accumulators are multiples of 32 values (64 bytes, [`super::HIDDEN_MULTIPLE`]),
//! so when the buffer starts on a boundary every row and every accumulator does too, and no
//! vector load of them crosses a cache line. The buffer over-allocates by one line and starts
//! at the first aligned value inside it: no `unsafe`, and a clone finds its own offset.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Bytes of the alignment.
pub const ALIGN: usize = 64;
/// `i16` values in one [`ALIGN`] bytes.
const SLACK: usize = ALIGN / std::mem::size_of::<i16>();

/// `len` values of `i16`, the first on a 64-byte boundary; derefs to `[i16]`.
pub struct AlignedI16 {
    storage: Box<[i16]>,
    start: usize,
    len: usize,
}

impl AlignedI16 {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> AlignedI16 {
        let storage = vec![0i16; len + SLACK].into_boxed_slice();
        // A heap block does not move when the box does, so the offset stays right.
        let start = storage.as_ptr().align_offset(ALIGN).min(SLACK);
        AlignedI16 {
            storage,
            start,
            len,
        }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[i16]) -> AlignedI16 {
        let mut buffer = AlignedI16::zeroed(values.len());
        buffer.copy_from_slice(values);
        buffer
    }
}

impl Deref for AlignedI16 {
    type Target = [i16];

    #[inline(always)]
    fn deref(&self) -> &[i16] {
        &self.storage[self.start..self.start + self.len]
    }
}

impl DerefMut for AlignedI16 {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [i16] {
        &mut self.storage[self.start..self.start + self.len]
    }
}

impl Clone for AlignedI16 {
    fn clone(&self) -> AlignedI16 {
        AlignedI16::from_slice(self)
    }
}

impl PartialEq for AlignedI16 {
    fn eq(&self, other: &AlignedI16) -> bool {
        **self == **other
    }
}

impl Eq for AlignedI16 {}

impl fmt::Debug for AlignedI16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AlignedI16({} values)", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_and_their_clones_start_on_a_cache_line_and_keep_their_values() {
        for len in [0, 1, 31, 32, 384, 768 * 384] {
            let values: Vec<i16> = (0..len).map(|i| (i as i16).wrapping_mul(31)).collect();
            let buffer = AlignedI16::from_slice(&values);
            let copy = buffer.clone();
            for b in [&buffer, &copy] {
                assert_eq!(b.len(), len);
                assert_eq!(b.as_ptr() as usize % ALIGN, 0, "length {len}");
                assert_eq!(&b[..], &values[..]);
            }
            assert_eq!(buffer, copy);
        }
    }
}
