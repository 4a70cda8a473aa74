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
        self.step_decayed(params, grads, scale, lr, 0.0);
    }

    /// [`Adam::step`] with decoupled weight decay (AdamW, Loshchilov and Hutter): every
    /// parameter first shrinks by the factor `1 - lr * decay`, apart from the gradient's step.
    /// A decay of 0 is [`Adam::step`] exactly.
    pub fn step_decayed(
        &mut self,
        params: &mut [f32],
        grads: &[f32],
        scale: f32,
        lr: f32,
        decay: f32,
    ) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        // Bias corrections folded into the step size.
        let step_size = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        if decay > 0.0 {
            let keep = 1.0 - lr * decay;
            for p in params.iter_mut() {
                *p *= keep;
            }
        }
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
    fn weight_decay_pulls_an_unused_parameter_to_zero_and_zero_decay_changes_nothing() {
        // The second parameter never gets a gradient: plain Adam leaves it, AdamW shrinks it.
        let grads = [1.0f32, 0.0];
        let (mut plain, mut decayed, mut zero) = ([0.5f32, 0.5], [0.5f32, 0.5], [0.5f32, 0.5]);
        let (mut a, mut b, mut c) = (Adam::new(2), Adam::new(2), Adam::new(2));
        for _ in 0..100 {
            a.step(&mut plain, &grads, 1.0, 0.01);
            b.step_decayed(&mut decayed, &grads, 1.0, 0.01, 1.0);
            c.step_decayed(&mut zero, &grads, 1.0, 0.01, 0.0);
        }
        assert_eq!(plain[1], 0.5);
        assert!((decayed[1] - 0.5 * 0.99f32.powi(100)).abs() < 1e-6);
        assert_eq!(plain, zero);
        // The gradient walked the first parameter past zero (0.5 - 100 * 0.01); the decay
        // holds it nearer to zero.
        assert!(plain[0] < 0.0 && decayed[0].abs() < plain[0].abs());
    }

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
