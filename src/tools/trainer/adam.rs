//! The Adam optimiser (Kingma and Ba), dense over all parameters.

/// Decay of the first moment.
pub const BETA1: f32 = 0.9;
/// Decay of the second moment.
pub const BETA2: f32 = 0.999;
/// Keeps the step finite where the second moment is zero.
pub const EPSILON: f32 = 1e-8;

/// Adam's state: the moment estimates of every parameter and the number of steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moment (mean of the gradients).
    pub m: Vec<f32>,
    /// Second moment (mean of the squared gradients).
    pub v: Vec<f32>,
    /// Steps taken so far.
    pub steps: u64,
}

impl Adam {
    /// Fresh state for `len` parameters.
    pub fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
        }
    }

    /// One step with learning rate `lr` on the gradient `grads * scale` (the scale turns a
    /// batch's summed gradient into its mean).
    pub fn step(&mut self, params: &mut [f32], grads: &[f32], scale: f32, lr: f32) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        // Bias corrections folded into the step size.
        let step_size = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grads)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= step_size * *m / (v.sqrt() + EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_walks_down_a_quadratic() {
        // Minimise (x - 3)^2 + (y + 1)^2.
        let mut params = vec![0.0f32, 0.0];
        let mut adam = Adam::new(2);
        for _ in 0..2000 {
            let grads = [2.0 * (params[0] - 3.0), 2.0 * (params[1] + 1.0)];
            adam.step(&mut params, &grads, 1.0, 0.01);
        }
        assert!((params[0] - 3.0).abs() < 0.01, "{params:?}");
        assert!((params[1] + 1.0).abs() < 0.01, "{params:?}");
    }
}
