//! Evaluation traces: which weights an evaluation used and how often, per colour. The engine
//! evaluates with [`NoTrace`] (compiled away); the tuner with [`FeatureTrace`], turning every
//! position into a sparse linear feature vector over the weight table.

use super::params::NUM_PARAMS;
use crate::board::Color;

/// Receives (weight index, colour, count) for every term an evaluation adds.
pub trait Trace {
    /// False for the no-op trace, so tracing code is compiled away.
    const ENABLED: bool;
    /// Weight `index` was applied `count` times in favour of `color`.
    fn add(&mut self, index: usize, color: Color, count: i32);
    /// Records the game phase (0..=24) and endgame scale (0..=64) the evaluation used.
    fn set_phase_and_scale(&mut self, phase: i32, scale: i32);
}

/// The trace of normal play: records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Trace for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn add(&mut self, _index: usize, _color: Color, _count: i32) {}
    #[inline(always)]
    fn set_phase_and_scale(&mut self, _phase: i32, _scale: i32) {}
}

/// A full trace: per weight, White's count minus Black's count.
#[derive(Clone, Debug)]
pub struct FeatureTrace {
    /// White's minus Black's use of each weight.
    pub coefficients: Vec<i32>,
    /// Game phase, 24 = all pieces on, 0 = pawn endgame.
    pub phase: i32,
    /// Endgame scale, 64 = normal.
    pub scale: i32,
}

impl Default for FeatureTrace {
    fn default() -> Self {
        FeatureTrace {
            coefficients: vec![0; NUM_PARAMS],
            phase: 0,
            scale: 64,
        }
    }
}

impl Trace for FeatureTrace {
    const ENABLED: bool = true;
    #[inline]
    fn add(&mut self, index: usize, color: Color, count: i32) {
        if let Some(c) = self.coefficients.get_mut(index) {
            *c += count * color.sign();
        }
    }
    fn set_phase_and_scale(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}
