//! A middlegame/endgame score pair packed into one `i32`, so both halves are added in one
//! instruction (the endgame half in the upper 16 bits, the middlegame half in the lower).

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A tapered score: middlegame and endgame values in centipawns, packed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S(i32);

impl S {
    /// Zero in both phases.
    pub const ZERO: S = S(0);

    /// Packs a middlegame and an endgame value (each must fit in an `i16`).
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> S {
        S(((eg as u32) << 16) as i32 + mg)
    }

    /// Middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// Endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        ((self.0 as u32).wrapping_add(0x8000) >> 16) as i16 as i32
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, rhs: S) -> S {
        S(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, rhs: S) -> S {
        S(self.0.wrapping_sub(rhs.0))
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, rhs: S) {
        self.0 = self.0.wrapping_add(rhs.0);
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: S) {
        self.0 = self.0.wrapping_sub(rhs.0);
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, rhs: i32) -> S {
        S(self.0.wrapping_mul(rhs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_survive_arithmetic() {
        for (mg, eg) in [(0, 0), (5, -7), (-300, 250), (1200, -1300), (-1, -1)] {
            let s = S::new(mg, eg);
            assert_eq!((s.mg(), s.eg()), (mg, eg));
            let t = s * 3 - S::new(10, 20);
            assert_eq!((t.mg(), t.eg()), (3 * mg - 10, 3 * eg - 20));
            assert_eq!(((-s).mg(), (-s).eg()), (-mg, -eg));
        }
    }
}
