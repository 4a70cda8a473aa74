//! The network in floating point, as the trainer holds it: one flat parameter vector, its
//! forward and backward pass for one position (sparse: only the active inputs' rows are read
//! and written), and its quantisation into the engine's [`Network`].
//!
//! Parameter layout (`H` hidden units, `B` output buckets, `K` king buckets): feature weights
//! `[K][768][H]` (one row per input, king bucket 0's first), feature biases `[H]`, output
//! weights `[B][2H]` (in each bucket the side to move's half first), output biases `[B]`. The
//! samples carry each perspective's inputs with their king bucket already applied
//! ([`Sample::decode_for`]), so the passes below only see rows.

use super::sample::{sigmoid, Sample};
use betacut::eval::nnue::{
    output_bucket, KingBuckets, NetError, Network, INPUTS, MAX_OUTPUT_WEIGHT, QA, QB,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Every weight and bias but the output bias is kept within +-CLIP (so that the quantised
/// output weights stay within +-127 and the accumulators within i16).
pub const CLIP: f32 = 1.98;

/// Offsets of the parts of the parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Output buckets (1..=16).
    pub buckets: usize,
    /// King buckets (1..=32): blocks of 768 feature rows.
    pub king_buckets: usize,
}

impl Layout {
    /// A layout of one king bucket (the plain 768 inputs).
    pub const fn plain(hidden: usize, buckets: usize) -> Layout {
        Layout {
            hidden,
            buckets,
            king_buckets: 1,
        }
    }

    /// Feature rows: 768 per king bucket.
    #[inline(always)]
    pub const fn inputs(self) -> usize {
        self.king_buckets * INPUTS
    }

    /// Start of the feature biases (the feature weights start at 0).
    #[inline(always)]
    pub const fn feature_bias(self) -> usize {
        self.inputs() * self.hidden
    }

    /// Start of the output weights (all buckets).
    #[inline(always)]
    pub const fn output_weights(self) -> usize {
        (self.inputs() + 1) * self.hidden
    }

    /// Start of `bucket`'s `2H` output weights.
    #[inline(always)]
    pub const fn bucket_weights(self, bucket: usize) -> usize {
        self.output_weights() + bucket * 2 * self.hidden
    }

    /// Index of the first output bias (bucket 0's; the others follow).
    #[inline(always)]
    pub const fn output_bias(self) -> usize {
        self.bucket_weights(self.buckets)
    }

    /// Number of parameters.
    #[inline(always)]
    pub const fn len(self) -> usize {
        self.output_bias() + self.buckets
    }

    /// The layout of `hidden` units and `king_buckets` king buckets whose parameter vector has
    /// `len` values, if there is one: `len = (768 K + 1) H + B (2H + 1)` (how a checkpoint
    /// gives its output bucket count).
    pub fn from_len(hidden: usize, king_buckets: usize, len: usize) -> Option<Layout> {
        let rest = len.checked_sub((king_buckets.checked_mul(INPUTS)? + 1).checked_mul(hidden)?)?;
        let per_bucket = 2 * hidden + 1;
        let buckets = rest / per_bucket;
        (rest % per_bucket == 0 && (1..=betacut::eval::nnue::MAX_OUTPUT_BUCKETS).contains(&buckets))
            .then_some(Layout {
                hidden,
                buckets,
                king_buckets,
            })
    }

    /// Always false: a network has at least its output bias.
    pub const fn is_empty(self) -> bool {
        false
    }
}

/// SCReLU: the activation clipped to 0..1, squared.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// A network in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Where each part lies in `params`.
    pub layout: Layout,
    /// Which inputs each perspective reads (`layout.king_buckets` is its count).
    pub kings: KingBuckets,
    /// All parameters (see the module docs).
    pub params: Vec<f32>,
}

/// Per-thread buffers of the forward and backward pass.
#[derive(Clone, Debug)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
}

impl Scratch {
    /// Buffers for a net of `hidden` units.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
        }
    }
}

/// Gradient of the loss, summed over the positions one thread has seen, with the feature
/// rows it touched (only those are read back and cleared).
#[derive(Clone, Debug)]
pub struct Gradients {
    /// Same layout as the parameters.
    pub values: Vec<f32>,
    /// Which feature rows hold non-zero values.
    pub touched: Vec<bool>,
}

impl Gradients {
    /// Zero gradients for `layout`.
    pub fn new(layout: Layout) -> Gradients {
        Gradients {
            values: vec![0.0; layout.len()],
            touched: vec![false; layout.inputs()],
        }
    }

    /// Adds `other` into `self` (touched rows and the dense tail only).
    pub fn add(&mut self, other: &Gradients, layout: Layout) {
        let h = layout.hidden;
        for (row, &touched) in other.touched.iter().enumerate() {
            if touched {
                let (dst, src) = (
                    &mut self.values[row * h..(row + 1) * h],
                    &other.values[row * h..(row + 1) * h],
                );
                for (d, &s) in dst.iter_mut().zip(src) {
                    *d += s;
                }
                self.touched[row] = true;
            }
        }
        let tail = layout.feature_bias();
        for (d, &s) in self.values[tail..].iter_mut().zip(&other.values[tail..]) {
            *d += s;
        }
    }

    /// Back to zero.
    pub fn clear(&mut self, layout: Layout) {
        let h = layout.hidden;
        for (row, touched) in self.touched.iter_mut().enumerate() {
            if *touched {
                self.values[row * h..(row + 1) * h].fill(0.0);
                *touched = false;
            }
        }
        let tail = layout.feature_bias();
        self.values[tail..].fill(0.0);
    }
}

impl FloatNetwork {
    /// A network of `hidden` units and `buckets` output buckets with small random weights
    /// (seeded), zero biases.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> FloatNetwork {
        FloatNetwork::random_bucketed(hidden, buckets, KingBuckets::NONE, seed)
    }

    /// [`FloatNetwork::random`] with the king-bucket layout `kings` (every bucket drawn).
    pub fn random_bucketed(
        hidden: usize,
        buckets: usize,
        kings: KingBuckets,
        seed: u64,
    ) -> FloatNetwork {
        let layout = Layout {
            hidden,
            buckets,
            king_buckets: kings.count(),
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let mut params = vec![0.0f32; layout.len()];
        let feature_limit = 1.0 / (INPUTS as f32).sqrt();
        for w in &mut params[..layout.feature_bias()] {
            *w = rng.gen_range(-feature_limit..feature_limit);
        }
        let output_limit = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in &mut params[layout.output_weights()..layout.output_bias()] {
            *w = rng.gen_range(-output_limit..output_limit);
        }
        FloatNetwork {
            layout,
            kings,
            params,
        }
    }

    /// The float network a quantised one stands for (each weight divided by its scale), so
    /// that training can go on from a shipped net; [`FloatNetwork::quantise`] gives the same
    /// integers back.
    pub fn from_network(net: &Network) -> FloatNetwork {
        let kings = *net.king_buckets();
        let layout = Layout {
            hidden: net.hidden(),
            buckets: net.buckets(),
            king_buckets: kings.count(),
        };
        let mut params = Vec::with_capacity(layout.len());
        let qa = QA as f32;
        for feature in 0..layout.inputs() {
            params.extend(net.feature_row(feature).iter().map(|&w| f32::from(w) / qa));
        }
        params.extend(net.feature_bias().iter().map(|&b| f32::from(b) / qa));
        params.extend(
            net.output_weights()
                .iter()
                .map(|&w| f32::from(w) / QB as f32),
        );
        params.extend(
            net.output_bias()
                .iter()
                .map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32),
        );
        FloatNetwork {
            layout,
            kings,
            params,
        }
    }

    /// This network widened to `hidden` units per perspective, computing exactly what it
    /// computes: the new units get small random input weights (seeded, as
    /// [`FloatNetwork::random`] draws them) and zero biases and output weights, so they change
    /// no output until training gives them a say. `None` unless `hidden` is larger.
    pub fn widened(&self, hidden: usize, seed: u64) -> Option<FloatNetwork> {
        let old = self.layout;
        if hidden <= old.hidden {
            return None;
        }
        let layout = Layout { hidden, ..old };
        let extra = hidden - old.hidden;
        let mut rng = StdRng::seed_from_u64(seed);
        let feature_limit = 1.0 / (INPUTS as f32).sqrt();
        let mut params = Vec::with_capacity(layout.len());
        for row in self.params[..old.feature_bias()].chunks_exact(old.hidden) {
            params.extend_from_slice(row);
            params.extend((0..extra).map(|_| rng.gen_range(-feature_limit..feature_limit)));
        }
        params.extend_from_slice(&self.params[old.feature_bias()..old.output_weights()]);
        params.resize(params.len() + extra, 0.0);
        // Each bucket: the side to move's weights, then the other side's, each widened.
        for half in self.params[old.output_weights()..old.output_bias()].chunks_exact(old.hidden) {
            params.extend_from_slice(half);
            params.resize(params.len() + extra, 0.0);
        }
        params.extend_from_slice(&self.params[old.output_bias()..]);
        debug_assert_eq!(params.len(), layout.len());
        Some(FloatNetwork {
            layout,
            kings: self.kings,
            params,
        })
    }

    /// The output bucket of `sample`.
    #[inline(always)]
    pub fn bucket(&self, sample: &Sample) -> usize {
        output_bucket(sample.pieces(), self.layout.buckets)
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.layout.hidden
    }

    /// Fills the side to move's and the other side's accumulators of `sample`.
    #[inline(always)]
    fn accumulate(&self, sample: &Sample, scratch: &mut Scratch) {
        let l = self.layout;
        let h = l.hidden;
        let bias = &self.params[l.feature_bias()..l.feature_bias() + h];
        for (features, acc) in [
            (sample.us(), &mut scratch.us),
            (sample.them(), &mut scratch.them),
        ] {
            acc.copy_from_slice(bias);
            for &f in features {
                let row = &self.params[usize::from(f) * h..(usize::from(f) + 1) * h];
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }

    /// The raw output of `bucket` for the hidden layers in `scratch` (the output times 400 is
    /// centipawns).
    #[inline(always)]
    fn output(&self, scratch: &Scratch, bucket: usize) -> f32 {
        let l = self.layout;
        let h = l.hidden;
        let weights = &self.params[l.bucket_weights(bucket)..l.bucket_weights(bucket + 1)];
        let (w_us, w_them) = weights.split_at(h);
        let mut sum = self.params[l.output_bias() + bucket];
        for (acc, w) in [(&scratch.us, w_us), (&scratch.them, w_them)] {
            sum += acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
        }
        sum
    }

    /// The raw output for `sample` (the output times 400 is centipawns).
    pub fn forward(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        self.accumulate(sample, scratch);
        self.output(scratch, self.bucket(sample))
    }

    /// The loss of `sample`, `(sigmoid(factor * output) - target)^2`, without gradients.
    pub fn loss(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        let e = sigmoid(sample.output_factor * self.forward(sample, scratch)) - sample.target;
        e * e
    }

    /// Forward and backward pass of `sample`: adds the gradient of its loss to `grads` (only
    /// the active inputs' rows) and returns the loss.
    pub fn backward(&self, sample: &Sample, scratch: &mut Scratch, grads: &mut Gradients) -> f32 {
        let l = self.layout;
        let h = l.hidden;
        let out = self.forward(sample, scratch);
        let p = sigmoid(sample.output_factor * out);
        let err = p - sample.target;
        // d loss / d output.
        let g = 2.0 * err * p * (1.0 - p) * sample.output_factor;
        let bucket = self.bucket(sample);
        grads.values[l.output_bias() + bucket] += g;
        let weights = &self.params[l.bucket_weights(bucket)..l.bucket_weights(bucket + 1)];
        let (w_us, w_them) = weights.split_at(h);
        let (grad_head, grad_tail) = grads.values.split_at_mut(l.output_weights());
        let start = bucket * 2 * h;
        let (gw_us, gw_them) = grad_tail[start..start + 2 * h].split_at_mut(h);
        let g_bias = &mut grad_head[l.feature_bias()..l.feature_bias() + h];
        // Output weights, and the accumulators' gradient (kept in the scratch buffers).
        for (acc, w, gw) in [
            (&mut scratch.us, w_us, gw_us),
            (&mut scratch.them, w_them, gw_them),
        ] {
            for (((a, &w), gw), gb) in acc
                .iter_mut()
                .zip(w)
                .zip(gw.iter_mut())
                .zip(g_bias.iter_mut())
            {
                let x = *a;
                *gw += g * screlu(x);
                let d = if x > 0.0 && x < 1.0 {
                    g * w * 2.0 * x
                } else {
                    0.0
                };
                *gb += d;
                *a = d;
            }
        }
        // Feature weights: only the rows of the active inputs.
        for (features, d_acc) in [(sample.us(), &scratch.us), (sample.them(), &scratch.them)] {
            for &f in features {
                let f = usize::from(f);
                grads.touched[f] = true;
                let row = &mut grad_head[f * h..(f + 1) * h];
                for (gw, &d) in row.iter_mut().zip(d_acc.iter()) {
                    *gw += d;
                }
            }
        }
        err * err
    }

    /// Keeps every parameter but the output biases within +-[`CLIP`].
    pub fn clip(&mut self) {
        let ob = self.layout.output_bias();
        for w in &mut self.params[..ob] {
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// [`FloatNetwork::quantise`], with the output bias corrected for the rounding of the
    /// output weights on average over `samples`.
    ///
    /// Rounding the output weights to 1/64 moves the output by `sum(error_j * activation_j)`;
    /// as the activations vary little from position to position, most of that is a constant
    /// offset of the whole net (10-20 cp at 64-256 hidden units). The mean activations over
    /// the samples estimate it, and the bias takes it back (each bucket's over its own samples).
    pub fn quantise_calibrated(&self, samples: &[Sample]) -> Result<Network, NetError> {
        let l = self.layout;
        let h = l.hidden;
        let mut mean = vec![0.0f64; l.buckets * 2 * h];
        let mut counts = vec![0usize; l.buckets];
        let mut scratch = Scratch::new(h);
        for sample in samples {
            self.accumulate(sample, &mut scratch);
            let bucket = self.bucket(sample);
            counts[bucket] += 1;
            for (m, &a) in mean[bucket * 2 * h..(bucket + 1) * 2 * h]
                .iter_mut()
                .zip(scratch.us.iter().chain(scratch.them.iter()))
            {
                *m += f64::from(screlu(a));
            }
        }
        let quantised = self.quantise()?;
        let weights = &self.params[l.output_weights()..l.output_bias()];
        let biases = (0..l.buckets)
            .map(|bucket| {
                let n = counts[bucket].max(1) as f64;
                let range = bucket * 2 * h..(bucket + 1) * 2 * h;
                let offset: f64 = weights[range.clone()]
                    .iter()
                    .zip(&quantised.output_weights()[range.clone()])
                    .zip(&mean[range])
                    .map(|((&w, &q), &m)| (f64::from(w) - f64::from(q) / f64::from(QB)) * m / n)
                    .sum();
                let bias = f64::from(quantised.output_bias()[bucket]) + offset * f64::from(QA * QB);
                bias.round().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
            })
            .collect();
        Network::from_bucketed_parts(
            h,
            self.kings,
            (0..l.inputs())
                .flat_map(|f| quantised.feature_row(f).to_vec())
                .collect(),
            quantised.feature_bias().to_vec(),
            quantised.output_weights().to_vec(),
            biases,
        )
    }

    /// The engine's integer network: feature weights and biases times QA, output weights times
    /// QB, output bias times QA * QB, rounded.
    pub fn quantise(&self) -> Result<Network, NetError> {
        let l = self.layout;
        let q = |w: f32, scale: i32, limit: i16| -> i16 {
            (w * scale as f32)
                .round()
                .clamp(-f32::from(limit), f32::from(limit)) as i16
        };
        let feature = |range: std::ops::Range<usize>| -> Vec<i16> {
            self.params[range]
                .iter()
                .map(|&w| q(w, QA, i16::MAX))
                .collect()
        };
        let output_weights = self.params[l.output_weights()..l.output_bias()]
            .iter()
            .map(|&w| q(w, QB, MAX_OUTPUT_WEIGHT))
            .collect();
        let output_bias = self.params[l.output_bias()..l.len()]
            .iter()
            .map(|&b| {
                (f64::from(b) * f64::from(QA * QB))
                    .round()
                    .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
            })
            .collect();
        Network::from_bucketed_parts(
            l.hidden,
            self.kings,
            feature(0..l.feature_bias()),
            feature(l.feature_bias()..l.output_weights()),
            output_weights,
            output_bias,
        )
    }
}
