//! `betacut-lab tune`: Texel tuning of the evaluation weights.
//!
//! Each labelled position (`FEN | result`, result from White's view, as written by
//! `betacut-lab datagen`) is turned into a sparse feature vector through the evaluation trace: the
//! evaluation is linear in the weight table, `eval = mg * phase/24 + eg * (24-phase)/24 *
//! scale/64` with `mg`, `eg` the dot products of the features with the middlegame and endgame
//! weights. The tuner fits the scaling constant K of the win-probability model
//! `sigmoid(K * eval / 400)` once, then minimises the mean squared error between prediction and
//! result, plus an L2 penalty on the distance from the starting weights, with full-batch Adam,
//! and writes `src/eval/weights.rs` in the same format.
//! Everything is deterministic: the same data and settings give the same weights.

use betacut::board::Position;
use betacut::eval::evaluate::{MAX_PHASE, NORMAL_SCALE};
use betacut::eval::evaluate_traced;
use betacut::eval::params::{NUM_PARAMS, SECTIONS};
use betacut::eval::trace::FeatureTrace;
use betacut::eval::weights::WEIGHTS;
use std::fmt::Write as _;
use std::path::Path;

/// Problems loading tuning data.
pub use betacut::tools::input::InputError as TuneError;

/// Tuning data in compact form: one sparse feature vector per position.
#[derive(Debug, Default)]
pub struct Dataset {
    starts: Vec<usize>,
    indices: Vec<u16>,
    coefficients: Vec<i16>,
    mg_factor: Vec<f32>,
    eg_factor: Vec<f32>,
    results: Vec<f32>,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// True if there are no positions.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Adds one position with its result (1.0 White won, 0.5 draw, 0.0 Black won).
    pub fn push(&mut self, pos: &Position, result: f32) {
        let mut trace = FeatureTrace::default();
        evaluate_traced(pos, &mut trace);
        self.starts.push(self.indices.len());
        for (index, &c) in trace.coefficients.iter().enumerate() {
            if c != 0 {
                self.indices.push(index as u16);
                self.coefficients
                    .push(c.clamp(i16::MIN.into(), i16::MAX.into()) as i16);
            }
        }
        let phase = trace.phase as f32 / MAX_PHASE as f32;
        self.mg_factor.push(phase);
        self.eg_factor
            .push((1.0 - phase) * trace.scale as f32 / NORMAL_SCALE as f32);
        self.results.push(result);
    }

    fn features(&self, i: usize) -> (&[u16], &[i16]) {
        let end = self
            .starts
            .get(i + 1)
            .copied()
            .unwrap_or(self.indices.len());
        let start = self.starts[i];
        (&self.indices[start..end], &self.coefficients[start..end])
    }

    /// Evaluation of position `i` from White's view under `weights` (mg, eg pairs).
    pub fn linear_eval(&self, i: usize, weights: &[(f64, f64)]) -> f64 {
        let (indices, coefficients) = self.features(i);
        let (mut mg, mut eg) = (0.0, 0.0);
        for (&index, &c) in indices.iter().zip(coefficients) {
            let (wm, we) = weights[index as usize];
            mg += f64::from(c) * wm;
            eg += f64::from(c) * we;
        }
        mg * f64::from(self.mg_factor[i]) + eg * f64::from(self.eg_factor[i])
    }
}

/// Parses `FEN | result` lines (also accepts `FEN [result]`, and `FEN | score | result` as
/// `betacut-lab datagen-text` prints: the result is the last field).
pub fn parse_data(text: &str) -> Result<Dataset, TuneError> {
    let mut data = Dataset::default();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let bad = |reason: String| TuneError::BadLine {
            line: i + 1,
            reason,
        };
        let (fen, label) = if let (Some((fen, _)), Some((_, label))) =
            (raw.split_once('|'), raw.rsplit_once('|'))
        {
            (fen.trim(), label.trim())
        } else if let Some(open) = raw.rfind('[') {
            (
                raw[..open].trim(),
                raw[open..].trim_matches(['[', ']', ' ']),
            )
        } else {
            return Err(bad("expected `FEN | result`".into()));
        };
        let result = match label {
            "1.0" | "1" | "1-0" => 1.0,
            "0.5" | "1/2-1/2" => 0.5,
            "0.0" | "0" | "0-1" => 0.0,
            other => return Err(bad(format!("bad result {other:?}"))),
        };
        let pos = Position::from_fen(fen).map_err(|e| bad(format!("bad FEN: {e}")))?;
        data.push(&pos, result);
    }
    if data.is_empty() {
        return Err(TuneError::Empty);
    }
    Ok(data)
}

/// Reads a data file.
pub fn load_data(path: &Path) -> Result<Dataset, TuneError> {
    parse_data(&betacut::tools::input::read_text(path)?)
}

/// The current weights as floating-point (mg, eg) pairs.
pub fn current_weights() -> Vec<(f64, f64)> {
    WEIGHTS
        .iter()
        .map(|w| (f64::from(w.mg()), f64::from(w.eg())))
        .collect()
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

/// Runs `f` over contiguous chunks of the data on `threads` threads and sums the results.
fn parallel_sum<T: Send + Default>(
    data: &Dataset,
    threads: usize,
    f: impl Fn(std::ops::Range<usize>) -> T + Sync,
    add: impl Fn(&mut T, T),
) -> T {
    let n = data.len();
    let threads = threads.clamp(1, 64);
    let chunk = n.div_ceil(threads);
    let mut parts: Vec<T> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let f = &f;
                scope.spawn(move || f(t * chunk..((t + 1) * chunk).min(n)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    // Summed in chunk order, so the result does not depend on thread timing.
    let mut total = T::default();
    for part in parts.drain(..) {
        add(&mut total, part);
    }
    total
}

/// Mean squared error of the model with scaling constant `k`.
pub fn mean_error(data: &Dataset, weights: &[(f64, f64)], k: f64, threads: usize) -> f64 {
    let sum = parallel_sum(
        data,
        threads,
        |range| {
            range
                .map(|i| {
                    let p = sigmoid(k, data.linear_eval(i, weights));
                    let d = f64::from(data.results[i]) - p;
                    d * d
                })
                .sum::<f64>()
        },
        |a, b| *a += b,
    );
    sum / data.len().max(1) as f64
}

/// Finds the K that minimises the error for the given weights (golden-section search).
pub fn fit_k(data: &Dataset, weights: &[(f64, f64)], threads: usize) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_error(data, weights, a, threads) < mean_error(data, weights, b, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Gradient of the mean squared error with respect to every (mg, eg) weight.
fn gradient(data: &Dataset, weights: &[(f64, f64)], k: f64, threads: usize) -> Vec<(f64, f64)> {
    let mut grad = parallel_sum(
        data,
        threads,
        |range| {
            let mut g = vec![(0.0f64, 0.0f64); NUM_PARAMS];
            for i in range {
                let p = sigmoid(k, data.linear_eval(i, weights));
                let d_eval = -2.0 * (f64::from(data.results[i]) - p) * p * (1.0 - p) * k / 400.0;
                let (mgf, egf) = (f64::from(data.mg_factor[i]), f64::from(data.eg_factor[i]));
                let (indices, coefficients) = data.features(i);
                for (&index, &c) in indices.iter().zip(coefficients) {
                    let slot = &mut g[index as usize];
                    slot.0 += d_eval * f64::from(c) * mgf;
                    slot.1 += d_eval * f64::from(c) * egf;
                }
            }
            g
        },
        |total: &mut Vec<(f64, f64)>, part| {
            if total.is_empty() {
                *total = part;
            } else {
                for (t, p) in total.iter_mut().zip(part) {
                    t.0 += p.0;
                    t.1 += p.1;
                }
            }
        },
    );
    let n = data.len().max(1) as f64;
    for g in &mut grad {
        g.0 /= n;
        g.1 /= n;
    }
    grad
}

/// Settings of a tuning run.
#[derive(Clone, Copy, Debug)]
pub struct TuneConfig {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam step size in centipawns.
    pub learning_rate: f64,
    /// Threads for the gradient.
    pub threads: usize,
    /// L2 regularisation towards the starting weights, per centipawn squared: keeps weights of
    /// rarely seen features from wandering on noise.
    pub l2: f64,
}

/// Tunes from `start`, calling `progress(epoch, error)` every 50 epochs; returns the weights
/// and the K used.
pub fn tune(
    data: &Dataset,
    start: &[(f64, f64)],
    config: TuneConfig,
    mut progress: impl FnMut(usize, f64),
) -> (Vec<(f64, f64)>, f64) {
    let k = fit_k(data, start, config.threads);
    let mut weights = start.to_vec();
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut m = vec![(0.0f64, 0.0f64); NUM_PARAMS];
    let mut v = vec![(0.0f64, 0.0f64); NUM_PARAMS];
    progress(0, mean_error(data, &weights, k, config.threads));
    for epoch in 1..=config.epochs {
        let mut grad = gradient(data, &weights, k, config.threads);
        for ((g, w), w0) in grad.iter_mut().zip(&weights).zip(start) {
            g.0 += 2.0 * config.l2 * (w.0 - w0.0);
            g.1 += 2.0 * config.l2 * (w.1 - w0.1);
        }
        let t = epoch as i32;
        let step = |g: f64, m: &mut f64, v: &mut f64, w: &mut f64| {
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            let m_hat = *m / (1.0 - beta1.powi(t));
            let v_hat = *v / (1.0 - beta2.powi(t));
            *w -= config.learning_rate * m_hat / (v_hat.sqrt() + epsilon);
        };
        for (((g, m), v), w) in grad.iter().zip(&mut m).zip(&mut v).zip(&mut weights) {
            step(g.0, &mut m.0, &mut v.0, &mut w.0);
            step(g.1, &mut m.1, &mut v.1, &mut w.1);
        }
        if epoch % 50 == 0 || epoch == config.epochs {
            progress(epoch, mean_error(data, &weights, k, config.threads));
        }
    }
    (weights, k)
}

/// Renders weights as the source of `src/eval/weights.rs`.
pub fn weights_source(weights: &[(f64, f64)], header: &str) -> String {
    let mut out = String::new();
    out.push_str("//! Evaluation weights, indexed as laid out in `params.rs`.\n//!\n");
    for line in header.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::packed::S;\nuse super::params::NUM_PARAMS;\n\n");
    out.push_str(
        "/// The weights, section by section (see `params::SECTIONS`).\n#[rustfmt::skip]\n",
    );
    out.push_str("pub const WEIGHTS: [S; NUM_PARAMS] = [\n");
    for &(name, start, len) in SECTIONS {
        let _ = writeln!(out, "    // {name}");
        let mut line = String::from("   ");
        for &(mg, eg) in &weights[start..start + len] {
            let clamp = |x: f64| x.round().clamp(-16_000.0, 16_000.0) as i32;
            let item = format!(" S::new({}, {}),", clamp(mg), clamp(eg));
            if line.len() + item.len() > 100 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("   ");
            }
            line.push_str(&item);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use betacut::board::Color;
    use betacut::eval::{evaluate, PawnCache};

    const SAMPLE: &str = "\
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 | 0.5
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 | 0.0
r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10 | 1.0
8/5k2/3b4/2p5/2P5/3B4/5K2/8 b - - 0 1 | 0.5
";

    #[test]
    fn data_lines_with_a_score_read_their_result_from_the_last_field() {
        let plain = parse_data(SAMPLE).unwrap_or_else(|e| panic!("{e}"));
        let scored = SAMPLE.replace(" | ", " | 37 | ");
        let with_scores = parse_data(&scored).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(with_scores.results, plain.results);
        assert_eq!(with_scores.results, vec![0.5, 0.0, 1.0, 0.5]);
        assert!(parse_data("8/8/8/8/8/8/8/8 w - - 0 1 | 0.5").is_err());
    }

    #[test]
    fn the_linear_model_reproduces_the_engine_evaluation() {
        let data = parse_data(SAMPLE).unwrap_or_else(|e| panic!("{e}"));
        let weights = current_weights();
        let mut cache = PawnCache::new();
        for (i, line) in SAMPLE.lines().enumerate() {
            let fen = line.split('|').next().unwrap_or_default();
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            let engine = evaluate(&pos, &mut cache) * pos.side_to_move().sign();
            let linear = data.linear_eval(i, &weights);
            // The engine rounds its integer arithmetic; the model does not.
            assert!(
                (f64::from(engine) - linear).abs() <= 2.0,
                "{fen}: {engine} vs {linear}"
            );
        }
        assert_eq!(Color::White.sign(), 1);
    }

    #[test]
    fn tuning_lowers_the_error_and_writes_every_weight() {
        let data = parse_data(SAMPLE).unwrap_or_else(|e| panic!("{e}"));
        let start = current_weights();
        let k = fit_k(&data, &start, 1);
        let before = mean_error(&data, &start, k, 1);
        let config = TuneConfig {
            epochs: 100,
            learning_rate: 1.0,
            threads: 2,
            l2: 0.0,
        };
        let (tuned, _) = tune(&data, &start, config, |_, _| {});
        assert!(mean_error(&data, &tuned, k, 1) < before);
        let source = weights_source(&tuned, "test");
        assert_eq!(source.matches("S::new(").count(), NUM_PARAMS);
        assert!(parse_data("not a fen | 1.0").is_err());
        assert!(parse_data("8/8/8/8/8/8/8/K1k5 w - - 0 1 | 2.0").is_err());
    }
}
