//! Which vector instructions the network's inner loops use, chosen once per process.
//!
//! Every path computes the same integers (the arithmetic is exact), so the choice changes speed
//! only: `bench` prints the same node count on every path. x86-64 chooses at run time from what
//! the CPU reports (the build's target, x86-64-v2, guarantees only SSE4.2); 64-bit ARM always
//! has NEON; other targets, and every target with the cargo feature `scalar-eval`, use the
//! portable loops (the fallback CI keeps tested).
//!
//! The environment variable `BETACUT_SIMD` (`portable`, `avx2`, `avx512`, `avx512vnni`,
//! `neon`) caps the choice, so that two paths can be timed with one binary; a path the CPU
//! lacks is never taken.

use std::sync::OnceLock;

/// A set of vector instructions the network has a path for, from the least to the most capable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdLevel {
    /// Plain Rust loops, vectorised by the compiler for the build's target.
    Portable,
    /// x86-64 AVX2: 256-bit integer vectors.
    Avx2,
    /// x86-64 AVX-512 F and BW: 512-bit vectors of 16-bit integers.
    Avx512,
    /// AVX-512 with VNNI: the output layer's multiply-add in one instruction.
    Avx512Vnni,
    /// 64-bit ARM's NEON (Advanced SIMD): 128-bit vectors, on every ARMv8-A CPU.
    Neon,
}

/// Every level, in the order of [`SimdLevel`].
const ALL: [SimdLevel; 5] = [
    SimdLevel::Portable,
    SimdLevel::Avx2,
    SimdLevel::Avx512,
    SimdLevel::Avx512Vnni,
    SimdLevel::Neon,
];

impl SimdLevel {
    /// The level's name, as `BETACUT_SIMD` takes it and `bench` prints it.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Portable => "portable",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
            SimdLevel::Avx512Vnni => "avx512vnni",
            SimdLevel::Neon => "neon",
        }
    }

    /// The level named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<SimdLevel> {
        ALL.into_iter().find(|level| level.name() == name)
    }

    /// Whether this build and this CPU can run the level's code.
    pub fn is_supported(self) -> bool {
        if cfg!(feature = "scalar-eval") {
            return self == SimdLevel::Portable;
        }
        match self {
            SimdLevel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512 => {
                SimdLevel::Avx2.is_supported()
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512Vnni => {
                SimdLevel::Avx512.is_supported()
                    && std::arch::is_x86_feature_detected!("avx512vnni")
            }
            #[cfg(target_arch = "aarch64")]
            SimdLevel::Neon => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Every level this build and CPU can run, the portable one first.
    pub fn supported() -> Vec<SimdLevel> {
        ALL.into_iter().filter(|l| l.is_supported()).collect()
    }

    /// The most capable supported level at most `cap` (the portable one if none).
    pub fn best_up_to(cap: SimdLevel) -> SimdLevel {
        let supported = SimdLevel::supported();
        let same_family = |l: &SimdLevel| (*l == SimdLevel::Neon) == (cap == SimdLevel::Neon);
        supported
            .into_iter()
            .filter(|l| *l <= cap && (*l == SimdLevel::Portable || same_family(l)))
            .max()
            .unwrap_or(SimdLevel::Portable)
    }

    /// The level of this process: the best the CPU has, capped by `BETACUT_SIMD` when it is
    /// set. Decided on the first call; an unknown name is reported once on stderr and ignored.
    pub fn current() -> SimdLevel {
        static CHOSEN: OnceLock<SimdLevel> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let best = SimdLevel::supported()
                .into_iter()
                .max()
                .unwrap_or(SimdLevel::Portable);
            match std::env::var("BETACUT_SIMD") {
                Ok(name) => match SimdLevel::from_name(name.trim()) {
                    Some(cap) => SimdLevel::best_up_to(cap),
                    None => {
                        let names: Vec<&str> = ALL.iter().map(|l| l.name()).collect();
                        eprintln!(
                            "BETACUT_SIMD={name:?} is not one of {}; using {}",
                            names.join(", "),
                            best.name()
                        );
                        best
                    }
                },
                Err(_) => best,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_portable_level_is_always_there() {
        for level in ALL {
            assert_eq!(SimdLevel::from_name(level.name()), Some(level));
        }
        assert_eq!(SimdLevel::from_name("sse9"), None);
        assert!(SimdLevel::Portable.is_supported());
        assert_eq!(SimdLevel::supported()[0], SimdLevel::Portable);
        assert!(SimdLevel::current().is_supported());
        assert_eq!(
            SimdLevel::best_up_to(SimdLevel::Portable),
            SimdLevel::Portable
        );
    }

    #[test]
    fn a_cap_never_picks_a_level_the_cpu_lacks() {
        for cap in ALL {
            let level = SimdLevel::best_up_to(cap);
            assert!(level.is_supported(), "cap {cap:?} gave {level:?}");
            assert!(level <= cap, "cap {cap:?} gave {level:?}");
        }
        // The x86 and ARM paths never stand in for each other.
        assert_ne!(
            SimdLevel::best_up_to(SimdLevel::Avx512Vnni),
            SimdLevel::Neon
        );
    }
}
