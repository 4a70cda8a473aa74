//! The output layer: SCReLU of both accumulators dotted with the output weights, in integers.
//!
//! The clipped activation `v` (0..=QA) times the weight fits in 16 bits (|w| <=
//! [`MAX_OUTPUT_WEIGHT`]), and `v * (v * w)` is summed into 32-bit lanes. A lane takes at most
//! [`PRODUCTS_PER_LANE`] products before it is widened to 64 bits, so the result is exact for
//! any accumulator values and any hidden size. Both perspectives go into the same lanes, so a
//! net of up to [`BLOCK`] units in all (384 a side today) needs one horizontal sum per
//! evaluation.
//!
//! One path per [`SimdLevel`], all with the same result (the tests compare each with the plain
//! 64-bit sum): plain loops that the compiler vectorises for the build's target; AVX2 (16
//! units an instruction); AVX-512 (32), with VNNI's fused multiply-add where the CPU has it;
//! NEON (8).

use super::simd::SimdLevel;
use super::{MAX_OUTPUT_WEIGHT, QA};

/// Most products `v * v * w` one 32-bit lane sums before it is widened to 64 bits.
pub const PRODUCTS_PER_LANE: usize = 128;

/// Units summed in 32-bit lanes between two widenings: every path puts at most two products
/// of each 16 units, or one of each 8, into a lane, so [`PRODUCTS_PER_LANE`] of them per lane.
pub const BLOCK: usize = 8 * PRODUCTS_PER_LANE;

// PRODUCTS_PER_LANE products of at most QA * QA * MAX_OUTPUT_WEIGHT each stay below i32::MAX.
const _: () = assert!(
    (PRODUCTS_PER_LANE as i64) * (QA as i64) * (QA as i64) * (MAX_OUTPUT_WEIGHT as i64)
        < i32::MAX as i64
);

/// Sum over units of `clamp(acc, 0, QA)^2 * weight` of the side to move (`us`, `w_us`) and the
/// other side (`them`, `w_them`), scale QA * QA * QB, exact, with the process's path
/// ([`SimdLevel::current`]). Each weight slice must be no shorter than its accumulator and hold
/// values within +-[`MAX_OUTPUT_WEIGHT`].
#[inline]
pub fn screlu_dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
    screlu_dot_pair_with(SimdLevel::current(), us, them, w_us, w_them)
}

/// [`screlu_dot_pair`] on the path `level`, which must be supported (else the portable one
/// runs).
#[inline]
pub fn screlu_dot_pair_with(
    level: SimdLevel,
    us: &[i16],
    them: &[i16],
    w_us: &[i16],
    w_them: &[i16],
) -> i64 {
    if !level.is_supported() {
        return portable::dot_pair(us, them, w_us, w_them);
    }
    match level {
        // SAFETY (each arm): the level is supported, so the CPU has its instructions.
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => unsafe { avx2::dot_pair(us, them, w_us, w_them) },
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => unsafe { avx512::dot_pair(us, them, w_us, w_them) },
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512Vnni => unsafe { avx512::dot_pair_vnni(us, them, w_us, w_them) },
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => neon::dot_pair(us, them, w_us, w_them),
        _ => portable::dot_pair(us, them, w_us, w_them),
    }
}

/// The clipped activation 0..=QA (squared later).
#[inline(always)]
fn activation(a: i16) -> i16 {
    a.clamp(0, QA as i16)
}

/// `v * (v * w)` of one unit; |v * w| <= 255 * 127 < 2^15, exact in 16 bits.
#[inline(always)]
fn product(a: i16, w: i16) -> i32 {
    let v = activation(a);
    i32::from(v) * i32::from(v.wrapping_mul(w))
}

/// The units past the last whole vector, one by one (`from` is where the vectors stopped).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn tail(acc: &[i16], weights: &[i16], from: usize) -> i64 {
    let n = acc.len().min(weights.len());
    let rest = acc.get(from..n).unwrap_or(&[]).iter();
    rest.zip(weights.get(from..n).unwrap_or(&[]))
        .map(|(&a, &w)| i64::from(product(a, w)))
        .sum()
}

/// The plain-Rust path (what the compiler vectorises for the build's target).
pub mod portable {
    use super::{product, BLOCK};

    /// See [`super::screlu_dot_pair`].
    #[inline(always)]
    pub fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        dot(us, w_us) + dot(them, w_them)
    }

    #[inline(always)]
    fn dot(acc: &[i16], weights: &[i16]) -> i64 {
        let mut total = 0i64;
        for (a, w) in acc.chunks(BLOCK / 8).zip(weights.chunks(BLOCK / 8)) {
            // BLOCK / 8 products: well within a 32-bit sum.
            let sum = a
                .iter()
                .zip(w)
                .fold(0i32, |s, (&a, &w)| s.wrapping_add(product(a, w)));
            total += i64::from(sum);
        }
        total
    }
}

/// AVX2: 16 units an instruction, `v * (v * w)` summed pairwise by `vpmaddwd`.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    use super::{tail, BLOCK, QA};
    use std::arch::x86_64::*;

    /// Units per instruction.
    const LANES: usize = 16;

    /// See [`super::screlu_dot_pair`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut total = 0i64;
        let mut sum = zero;
        let mut in_sum = 0;
        for (acc, weights) in [(us, w_us), (them, w_them)] {
            let whole = acc.len().min(weights.len()) / LANES * LANES;
            for i in (0..whole).step_by(LANES) {
                // SAFETY: i + 16 <= whole <= the length of both slices; unaligned loads of 16
                // values (32 bytes) from within them.
                let (a, w) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                let vw = _mm256_mullo_epi16(v, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
                in_sum += LANES;
                if in_sum == BLOCK {
                    total += horizontal_sum(sum);
                    (sum, in_sum) = (zero, 0);
                }
            }
            total += tail(acc, weights, whole);
        }
        total + horizontal_sum(sum)
    }

    /// The sum of the eight 32-bit lanes, in 64 bits.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn horizontal_sum(v: __m256i) -> i64 {
        let wide = _mm256_add_epi64(
            _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
            _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(v)),
        );
        let half = _mm_add_epi64(
            _mm256_castsi256_si128(wide),
            _mm256_extracti128_si256::<1>(wide),
        );
        _mm_cvtsi128_si64(half) + _mm_extract_epi64::<1>(half)
    }
}

/// AVX-512 (F, BW): 32 units an instruction; with VNNI, `vpdpwssd` multiplies and adds in one.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx512 {
    use super::{tail, BLOCK, QA};
    use std::arch::x86_64::*;

    /// Units per instruction.
    const LANES: usize = 32;

    /// See [`super::screlu_dot_pair`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub unsafe fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        // SAFETY: the caller's promise is this function's.
        unsafe {
            dot_pair_by(us, them, w_us, w_them, |sum, v, vw| {
                _mm512_add_epi32(sum, _mm512_madd_epi16(v, vw))
            })
        }
    }

    /// [`dot_pair`] with VNNI's fused multiply-add.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 F, BW and VNNI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    #[inline]
    pub unsafe fn dot_pair_vnni(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        // SAFETY: the caller's promise is this function's.
        unsafe {
            dot_pair_by(us, them, w_us, w_them, |sum, v, vw| {
                _mm512_dpwssd_epi32(sum, v, vw)
            })
        }
    }

    /// The loop of both, `madd(sum, v, vw)` adding the pairwise products of `v` and `vw` into
    /// the 32-bit lanes of `sum`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn dot_pair_by(
        us: &[i16],
        them: &[i16],
        w_us: &[i16],
        w_them: &[i16],
        madd: impl Fn(__m512i, __m512i, __m512i) -> __m512i,
    ) -> i64 {
        let zero = _mm512_setzero_si512();
        let top = _mm512_set1_epi16(QA as i16);
        let mut total = 0i64;
        let mut sum = zero;
        let mut in_sum = 0;
        for (acc, weights) in [(us, w_us), (them, w_them)] {
            let whole = acc.len().min(weights.len()) / LANES * LANES;
            for i in (0..whole).step_by(LANES) {
                // SAFETY: i + 32 <= whole <= the length of both slices; unaligned loads of 32
                // values (64 bytes) from within them.
                let (a, w) = unsafe {
                    (
                        _mm512_loadu_si512(acc.as_ptr().add(i).cast()),
                        _mm512_loadu_si512(weights.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), top);
                let vw = _mm512_mullo_epi16(v, w);
                sum = madd(sum, v, vw);
                in_sum += LANES;
                if in_sum == BLOCK {
                    total += horizontal_sum(sum);
                    (sum, in_sum) = (zero, 0);
                }
            }
            total += tail(acc, weights, whole);
        }
        total + horizontal_sum(sum)
    }

    /// The sum of the sixteen 32-bit lanes, in 64 bits.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn horizontal_sum(v: __m512i) -> i64 {
        let low = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v));
        let high = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(v));
        _mm512_reduce_add_epi64(_mm512_add_epi64(low, high))
    }
}

/// NEON: 8 units an instruction, two vectors a step; the products of each vector's low and high
/// four units go into their own sums by widening multiply-adds (`smlal`, `smlal2`), so each of
/// the four sums gets one product a lane each 16 units, and is widened once a block.
#[cfg(target_arch = "aarch64")]
pub(super) mod neon {
    use super::{tail, BLOCK, QA};
    use std::arch::aarch64::*;

    /// Units per instruction.
    const LANES: usize = 8;

    /// See [`super::screlu_dot_pair`]. NEON is part of every ARMv8-A CPU (and of the
    /// `aarch64` targets' baseline), so this needs no check.
    #[inline]
    pub fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        dot(us, w_us) + dot(them, w_them)
    }

    /// One side's sum: blocks of at most [`BLOCK`] units, each summed in 32-bit lanes (at most
    /// `BLOCK / 16` products a lane) and widened once.
    #[inline(always)]
    fn dot(acc: &[i16], weights: &[i16]) -> i64 {
        let whole = acc.len().min(weights.len()) / LANES * LANES;
        let mut total = 0i64;
        let mut start = 0;
        while start < whole {
            let end = (start + BLOCK).min(whole);
            // SAFETY: the aarch64 targets enable NEON; every load reads 8 values at an index
            // i with i + 8 <= end <= whole <= the length of both slices.
            unsafe {
                let zero = vdupq_n_s16(0);
                let top = vdupq_n_s16(QA as i16);
                let mut sums = [vdupq_n_s32(0); 4];
                let mut i = start;
                let mut step = |i: usize, low: &mut int32x4_t, high: &mut int32x4_t| {
                    let a = vld1q_s16(acc.as_ptr().add(i));
                    let w = vld1q_s16(weights.as_ptr().add(i));
                    let v = vminq_s16(vmaxq_s16(a, zero), top);
                    let vw = vmulq_s16(v, w);
                    *low = vmlal_s16(*low, vget_low_s16(v), vget_low_s16(vw));
                    *high = vmlal_high_s16(*high, v, vw);
                };
                let [s0, s1, s2, s3] = &mut sums;
                while i + 2 * LANES <= end {
                    step(i, s0, s1);
                    step(i + LANES, s2, s3);
                    i += 2 * LANES;
                }
                if i < end {
                    step(i, s0, s1);
                }
                total += sums.iter().map(|&s| vaddlvq_s32(s)).sum::<i64>();
            }
            start = end;
        }
        total + tail(acc, weights, whole)
    }
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
    fn every_path_equals_the_plain_sum_for_extreme_values_and_any_length() {
        let levels = SimdLevel::supported();
        let mut rng = StdRng::seed_from_u64(5);
        // Up to 4096 a side, the largest net a file may hold: several widenings per side.
        for hidden in [32, 96, 256, 384, 512, 1024, 4096] {
            for extreme in [false, true] {
                let mut values = |limit: i16, max: i16| -> Vec<i16> {
                    (0..hidden)
                        .map(|_| {
                            if extreme {
                                max
                            } else {
                                rng.gen_range(-limit..=limit)
                            }
                        })
                        .collect()
                };
                let (us, them) = (values(600, i16::MAX), values(600, i16::MAX));
                let w_us = values(MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT);
                let w_them = values(MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT);
                let reference =
                    screlu_dot_reference(&us, &w_us) + screlu_dot_reference(&them, &w_them);
                // Lengths that are not a multiple of a vector or of a block.
                let odd = hidden - 7;
                let reference_odd = screlu_dot_reference(&us[..odd], &w_us[..odd])
                    + screlu_dot_reference(&them[..odd], &w_them[..odd]);
                for &level in &levels {
                    let found = screlu_dot_pair_with(level, &us, &them, &w_us, &w_them);
                    assert_eq!(
                        found, reference,
                        "{level:?}, hidden {hidden}, extreme {extreme}"
                    );
                    let found_odd = screlu_dot_pair_with(
                        level,
                        &us[..odd],
                        &them[..odd],
                        &w_us[..odd],
                        &w_them[..odd],
                    );
                    assert_eq!(found_odd, reference_odd, "{level:?}, length {odd}");
                }
                assert_eq!(screlu_dot_pair(&us, &them, &w_us, &w_them), reference);
            }
        }
    }

    #[test]
    fn the_extreme_sum_is_the_chess_worst_case_and_needs_64_bits() {
        // Every unit at the clip and every weight at the limit: QA^2 * 127 a unit. With 4096
        // units a side, the sum exceeds i32 (so the widening is tested, not only present).
        let hidden = 4096;
        let acc = vec![i16::MAX; hidden];
        let weights = vec![MAX_OUTPUT_WEIGHT; hidden];
        let expected = 2 * hidden as i64 * i64::from(QA * QA) * i64::from(MAX_OUTPUT_WEIGHT);
        assert!(expected > i64::from(i32::MAX));
        for level in SimdLevel::supported() {
            let found = screlu_dot_pair_with(level, &acc, &acc, &weights, &weights);
            assert_eq!(found, expected, "{level:?}");
        }
    }
}
