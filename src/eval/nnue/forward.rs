//! The output layer: SCReLU of both accumulators dotted with the output weights, in integers.
//!
//! Written as plain loops over fixed-size chunks so that the compiler vectorises them for the
//! build's target (x86-64-v2: SSE4.1 `pmaddwd`/`pmullw`, checked with `objdump -d`): the clipped
//! activation `v` (0..=QA) times the weight fits in 16 bits (|w| <= [`MAX_OUTPUT_WEIGHT`]), and
//! `v * (v * w)` is summed pairwise into 32 bits. A chunk of [`CHUNK`] units cannot overflow
//! 32 bits (128 * 255 * 255 * 127 < 2^31); chunks are summed in 64 bits, so the result is exact
//! for any accumulator values and any hidden size.

use super::{MAX_OUTPUT_WEIGHT, QA};

/// Units summed in 32 bits before widening to 64.
pub const CHUNK: usize = 128;

// 128 units of at most QA * QA * MAX_OUTPUT_WEIGHT each stay below i32::MAX.
const _: () = assert!(
    (CHUNK as i64) * (QA as i64) * (QA as i64) * (MAX_OUTPUT_WEIGHT as i64) < i32::MAX as i64
);

/// Sum over units of `clamp(acc, 0, QA)^2 * weight` (scale QA * QA * QB), exact. `weights`
/// must be no shorter than `acc` and hold values within +-[`MAX_OUTPUT_WEIGHT`].
#[inline]
pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
    let mut total = 0i64;
    for (a, w) in acc.chunks(CHUNK).zip(weights.chunks(CHUNK)) {
        total += i64::from(chunk_sum(a, w));
    }
    total
}

#[inline(always)]
fn chunk_sum(acc: &[i16], weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(weights) {
        let v = activation(a);
        // |v * w| <= 255 * 127 < 2^15: exact in 16 bits.
        sum = sum.wrapping_add(i32::from(v) * i32::from(v.wrapping_mul(w)));
    }
    sum
}

/// The clipped activation 0..=QA (squared later).
#[inline(always)]
fn activation(a: i16) -> i16 {
    a.clamp(0, QA as i16)
}

/// The same sum the plain way, in 64 bits (the reference the tests compare against).
pub fn screlu_dot_reference(acc: &[i16], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let v = i64::from(a.clamp(0, QA as i16));
            v * v * i64::from(w)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn chunked_sum_equals_the_plain_sum_for_extreme_values() {
        let mut rng = StdRng::seed_from_u64(5);
        for hidden in [32, 96, 256, 512, 1024] {
            for extreme in [false, true] {
                let acc: Vec<i16> = (0..hidden)
                    .map(|_| {
                        if extreme {
                            i16::MAX
                        } else {
                            rng.gen_range(-600..600)
                        }
                    })
                    .collect();
                let weights: Vec<i16> = (0..hidden)
                    .map(|_| {
                        if extreme {
                            MAX_OUTPUT_WEIGHT
                        } else {
                            rng.gen_range(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT)
                        }
                    })
                    .collect();
                assert_eq!(
                    screlu_dot(&acc, &weights),
                    screlu_dot_reference(&acc, &weights),
                    "hidden {hidden} extreme {extreme}"
                );
            }
        }
    }
}
