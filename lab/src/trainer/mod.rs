//! `betacut-lab train`: trains the perspective network ([`betacut::eval::nnue`]) on binary datagen
//! records, on the CPU.
//!
//! Loss: the mean of `(sigmoid(output_cp / scale) - target)^2`, where the output times 400
//! reads as centipawns and the target mixes the search score and the game result
//! ([`sample::Target`]). Adam
//! ([`adam`]) on shuffled mini-batches (the order of epoch `e` depends only on the seed and
//! `e`); each batch is split over the threads (`std::thread::scope`), each thread sums the
//! gradient of its share into its own buffer (only the active inputs' rows), and the buffers
//! are added before the step. After every step all weights are clipped to +-1.98 so that the
//! quantised net's integer arithmetic stays exact. A held-out share of the positions measures
//! the validation loss. Checkpoints ([`checkpoint`]) after each epoch resume a run exactly; the
//! result is quantised into the engine's net file, its output bias calibrated on the data.

pub mod adam;
pub mod checkpoint;
pub mod net;
pub mod sample;

use crate::records::{PackedRecord, RecordError};
use adam::Adam;
use betacut::eval::nnue::{KingBuckets, NetError, Network};
use checkpoint::Checkpoint;
use net::{FloatNetwork, Gradients, Layout, Scratch};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use sample::{Sample, Target};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why training stopped.
#[derive(Debug, Error)]
pub enum TrainError {
    /// A data file is unreadable or malformed.
    #[error(transparent)]
    Data(#[from] RecordError),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The data, checkpoint or net file being read or written.
        path: String,
        /// The system's error: not found, no permission, disk full.
        source: std::io::Error,
    },
    /// A checkpoint is malformed.
    #[error("checkpoint {path}: {reason}")]
    BadCheckpoint {
        /// The checkpoint file (`--resume`).
        path: String,
        /// What is wrong: its magic number, version, shape, length or checksum.
        reason: String,
    },
    /// The settings do not make sense.
    #[error("{0}")]
    Config(String),
    /// The trained network could not be quantised.
    #[error("quantising the network: {0}")]
    Quantise(#[from] NetError),
}

/// How the learning rate changes from epoch to epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// Multiplied by this factor after every epoch.
    Exponential(f32),
    /// From the first epoch's rate down to this one at the last epoch, along half a cosine
    /// wave (fast in the middle, slow at both ends).
    Cosine(f32),
}

impl Schedule {
    /// The learning rate of `epoch` (from 1) of `epochs`, starting from `lr`.
    pub fn rate(self, lr: f32, epoch: u32, epochs: u32) -> f32 {
        let done = epoch.saturating_sub(1);
        match self {
            Schedule::Exponential(factor) => lr * factor.powi(done as i32),
            Schedule::Cosine(end) => {
                let progress = f64::from(done) / f64::from(epochs.saturating_sub(1).max(1));
                let wave = 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos());
                (f64::from(end) + (f64::from(lr) - f64::from(end)) * wave) as f32
            }
        }
    }
}

/// Settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Hidden units per perspective (a multiple of 32).
    pub hidden: usize,
    /// Output buckets (1..=16; the pieces on the board pick one, [`betacut::eval::nnue::output_bucket`]).
    pub output_buckets: usize,
    /// The king-bucket layout of the inputs (a net trained from random weights; a starting
    /// net must have this layout).
    pub king_buckets: KingBuckets,
    /// Epoch to stop after (counted from the start of the run, resumed or not); the learning
    /// rate schedule spans these epochs.
    pub epochs: u32,
    /// Stop after this epoch although the schedule goes on to `epochs` (`None`: at `epochs`):
    /// one schedule trained in parts, each on the data one session made, the checkpoint carried
    /// from part to part (`--resume`).
    pub stop_after: Option<u32>,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Learning rate of the first epoch.
    pub lr: f32,
    /// How the learning rate falls from epoch to epoch.
    pub schedule: Schedule,
    /// Decoupled weight decay (AdamW): each step shrinks every weight by `lr * weight_decay`
    /// of itself; 0 (the default and every shipped net's recipe) is plain Adam.
    pub weight_decay: f32,
    /// Weight of the game result in the target (0: the score alone, 1: the result alone).
    pub wdl: f32,
    /// Centipawns per unit of the sigmoid's argument ([`Target::scale`]).
    pub scale: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seed of the initial weights, the validation split and the batch order.
    pub seed: u64,
    /// Positions held out to measure the validation loss.
    pub validation: Validation,
    /// Where to write a checkpoint and a quantised net after every epoch.
    pub checkpoint_dir: Option<PathBuf>,
    /// Flip the board's files on a seeded half of the training samples of every epoch (the
    /// records keep no castling rights, so a mirrored position is as true as the original).
    pub mirror: bool,
    /// Positions before this ply of their game (counted from the start position, from the
    /// record's move number and side) are neither trained on nor held out; 0 keeps all.
    pub min_ply: u32,
}

impl TrainConfig {
    /// How the targets are made and read.
    pub fn target(&self) -> Target {
        Target {
            wdl: self.wdl,
            scale: self.scale,
        }
    }
}

/// The defaults are the recipe of the shipped network (`src/eval/nnue/nets/README.md`): the
/// search score alone, read through `sigmoid(score / 140)`, which fitted the generation-1 data's
/// results best; mixing in the results played worse (docs/experiments.md).
impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 256,
            output_buckets: 1,
            king_buckets: KingBuckets::NONE,
            epochs: 20,
            stop_after: None,
            batch: 4096,
            lr: 0.001,
            schedule: Schedule::Exponential(0.9),
            weight_decay: 0.0,
            wdl: 0.0,
            scale: 140.0,
            threads: 1,
            seed: 1,
            validation: Validation::Random(None),
            checkpoint_dir: None,
            mirror: false,
            min_ply: 0,
        }
    }
}

/// Which positions are held out to measure the validation loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// This many drawn at random (`None`: 1 %, at most 100,000). Positions of one game then
    /// sit on both sides, so the loss flatters a net that learnt those games.
    Random(Option<usize>),
    /// The last this many positions of the data: a file of other games passed last, so that
    /// no game is on both sides.
    Last(usize),
}

/// What the trainer reports while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// A batch is done.
    Batch {
        /// Current epoch (1-based).
        epoch: u32,
        /// Positions of this epoch done.
        done: usize,
        /// Positions per epoch.
        total: usize,
        /// Mean loss of this epoch so far.
        loss: f64,
        /// Training speed in this epoch so far.
        positions_per_second: f64,
    },
    /// An epoch is done.
    Epoch(EpochReport),
    /// Before the first epoch of a run that starts from given weights (not random, not a
    /// resumed run): their loss on the held-out positions, the figure the epochs must beat.
    Start {
        /// Mean loss on the held-out positions.
        validation_loss: f64,
    },
}

/// Summary of one epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch (1-based).
    pub epoch: u32,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean loss on the held-out positions after the epoch, if any are held out.
    pub validation_loss: Option<f64>,
    /// Learning rate used.
    pub lr: f32,
    /// Training positions per second (the validation pass not counted).
    pub positions_per_second: f64,
    /// Wall time of the epoch.
    pub elapsed: Duration,
    /// Checkpoint written, if any.
    pub checkpoint: Option<PathBuf>,
}

/// Per-thread buffers.
struct ThreadState {
    grads: Gradients,
    scratch: Scratch,
}

/// The ply of a record's position in its game: from its full-move number and side to move.
pub fn record_ply(record: &PackedRecord) -> u32 {
    let fullmove = u32::from(u16::from_le_bytes([record[28], record[29]]));
    2 * fullmove.saturating_sub(1) + u32::from(record[27] == 1)
}

/// Splits the positions into (training, validation) index lists, reproducibly, leaving out
/// the positions before `config.min_ply`.
fn split(data: &[PackedRecord], config: &TrainConfig) -> (Vec<u32>, Vec<u32>) {
    let (mut training, mut validation) = split_all(data.len(), config);
    if config.min_ply > 0 {
        let late = |&i: &u32| record_ply(&data[i as usize]) >= config.min_ply;
        training.retain(late);
        validation.retain(late);
    }
    (training, validation)
}

fn split_all(len: usize, config: &TrainConfig) -> (Vec<u32>, Vec<u32>) {
    let held_out = match config.validation {
        Validation::Last(n) => {
            let n = n.min(len);
            return (
                (0..(len - n) as u32).collect(),
                ((len - n) as u32..len as u32).collect(),
            );
        }
        Validation::Random(n) => n.unwrap_or((len / 100).min(100_000)).min(len / 2),
    };
    let mut order: Vec<u32> = (0..len as u32).collect();
    order.shuffle(&mut StdRng::seed_from_u64(config.seed ^ 0x05EE_D0F5_A11D));
    let mut validation = order.split_off(len - held_out);
    order.sort_unstable();
    validation.sort_unstable();
    (order, validation)
}

/// Mean loss of `net` on the positions `indices` of `data` (all threads).
pub fn mean_loss(
    net: &FloatNetwork,
    data: &[PackedRecord],
    indices: &[u32],
    target: Target,
    threads: usize,
) -> f64 {
    if indices.is_empty() {
        return 0.0;
    }
    let part = indices.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = indices
            .chunks(part)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut scratch = Scratch::new(net.hidden());
                    chunk
                        .iter()
                        .map(|&i| {
                            f64::from(net.loss(
                                &Sample::decode_for(&data[i as usize], target, &net.kings, false),
                                &mut scratch,
                            ))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    total / indices.len() as f64
}

/// Positions the quantisation calibrates the output bias on ([`calibration_samples`]).
pub const CALIBRATION_POSITIONS: usize = 8192;

/// Up to [`CALIBRATION_POSITIONS`] positions spread evenly over `data`, decoded for a net of
/// king-bucket layout `kings`.
pub fn calibration_samples(data: &[PackedRecord], kings: &KingBuckets) -> Vec<Sample> {
    let step = data.len().div_ceil(CALIBRATION_POSITIONS).max(1);
    data.iter()
        .step_by(step)
        .map(|r| Sample::decode_for(r, Target::SCORE_ONLY, kings, false))
        .collect()
}

/// The engine's network from the trained float network, its output bias calibrated on
/// `data` ([`FloatNetwork::quantise_calibrated`]).
pub fn quantise(net: &FloatNetwork, data: &[PackedRecord]) -> Result<Network, TrainError> {
    Ok(net.quantise_calibrated(&calibration_samples(data, &net.kings))?)
}

/// Trains on `data` from `resume` (or from random weights) until `config.epochs`, calling
/// `progress` after every batch and epoch; returns the final state.
pub fn train(
    data: &[PackedRecord],
    config: &TrainConfig,
    resume: Option<Checkpoint>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Checkpoint, TrainError> {
    if data.len() < 2 {
        return Err(TrainError::Config(
            "no training data (fewer than 2 positions)".into(),
        ));
    }
    if config.batch == 0 {
        return Err(TrainError::Config(
            "the batch size must be at least 1".into(),
        ));
    }
    if !(0.0..=1.0).contains(&config.wdl) {
        return Err(TrainError::Config(format!(
            "--wdl {} is not between 0 and 1",
            config.wdl
        )));
    }
    if !(0.0..=10.0).contains(&config.weight_decay) {
        return Err(TrainError::Config(format!(
            "--weight-decay {} is not between 0 and 10",
            config.weight_decay
        )));
    }
    if !(config.scale.is_finite() && (10.0..=10_000.0).contains(&config.scale)) {
        return Err(TrainError::Config(format!(
            "--scale {} is not between 10 and 10000 centipawns",
            config.scale
        )));
    }
    if !(1..=betacut::eval::nnue::MAX_OUTPUT_BUCKETS).contains(&config.output_buckets) {
        return Err(TrainError::Config(format!(
            "{} output buckets: between 1 and 16",
            config.output_buckets
        )));
    }
    if let Some(c) = &resume {
        if c.net.kings != config.king_buckets {
            return Err(TrainError::Config(format!(
                "the starting net has {} king bucket(s){}, the run asks for {}{}",
                c.net.kings.count(),
                if c.net.kings.mirrored() {
                    ", mirrored"
                } else {
                    ""
                },
                config.king_buckets.count(),
                if config.king_buckets.mirrored() {
                    ", mirrored"
                } else {
                    ""
                },
            )));
        }
        if c.net.layout.buckets != config.output_buckets || c.net.hidden() != config.hidden {
            return Err(TrainError::Config(format!(
                "the starting net has {} hidden units and {} output bucket(s), the run asks for \
                 {} and {}",
                c.net.hidden(),
                c.net.layout.buckets,
                config.hidden,
                config.output_buckets
            )));
        }
    }
    let from_given_weights = resume.as_ref().is_some_and(|c| c.epochs_done == 0);
    let mut state = match resume {
        Some(checkpoint) => checkpoint,
        None => {
            let net = FloatNetwork::random_bucketed(
                config.hidden,
                config.output_buckets,
                config.king_buckets,
                config.seed,
            );
            let adam = Adam::new(net.params.len());
            Checkpoint {
                net,
                adam,
                epochs_done: 0,
            }
        }
    };
    let layout: Layout = state.net.layout;
    if let Some(dir) = &config.checkpoint_dir {
        std::fs::create_dir_all(dir).map_err(|source| TrainError::Io {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let threads = config.threads.clamp(1, 256);
    let mut workers: Vec<ThreadState> = (0..threads)
        .map(|_| ThreadState {
            grads: Gradients::new(layout),
            scratch: Scratch::new(layout.hidden),
        })
        .collect();
    let (base, validation) = split(data, config);
    if base.is_empty() {
        return Err(TrainError::Config(
            "no training positions left beside the validation positions".into(),
        ));
    }
    let mut order = base.clone();
    if from_given_weights && !validation.is_empty() {
        progress(&Progress::Start {
            validation_loss: mean_loss(&state.net, data, &validation, config.target(), threads),
        });
    }

    let last = config
        .stop_after
        .map_or(config.epochs, |s| s.min(config.epochs));
    for epoch in state.epochs_done + 1..=last {
        let started = Instant::now();
        let lr = config.schedule.rate(config.lr, epoch, config.epochs);
        order.copy_from_slice(&base);
        order.shuffle(&mut StdRng::seed_from_u64(
            config.seed ^ u64::from(epoch).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ));
        let mut loss_sum = 0.0f64;
        let mut done = 0usize;
        // Which samples are mirrored depends on the seed, the epoch and the sample alone.
        let mirror_salt = config.mirror.then(|| {
            (config.seed ^ 0x4D49_5252_4F52) ^ u64::from(epoch).wrapping_mul(0xD134_2543_DE82_EF95)
        });
        for batch in order.chunks(config.batch) {
            loss_sum += run_batch(
                &state.net,
                data,
                batch,
                config.target(),
                mirror_salt,
                &mut workers,
            );
            let (first, rest) = workers.split_at_mut(1);
            let grads = &mut first[0].grads;
            for other in rest.iter_mut() {
                grads.add(&other.grads, layout);
                other.grads.clear(layout);
            }
            state.adam.step_decayed(
                &mut state.net.params,
                &grads.values,
                1.0 / batch.len() as f32,
                lr,
                config.weight_decay,
            );
            grads.clear(layout);
            state.net.clip();
            done += batch.len();
            progress(&Progress::Batch {
                epoch,
                done,
                total: order.len(),
                loss: loss_sum / done as f64,
                positions_per_second: done as f64 / started.elapsed().as_secs_f64().max(1e-9),
            });
        }
        let train_time = started.elapsed();
        state.epochs_done = epoch;
        let validation_loss = (!validation.is_empty())
            .then(|| mean_loss(&state.net, data, &validation, config.target(), threads));
        let checkpoint = match &config.checkpoint_dir {
            Some(dir) => {
                let path = dir.join(format!("epoch-{epoch}.ckpt"));
                state.save(&path)?;
                let net_path = dir.join(format!("epoch-{epoch}.bin"));
                state
                    .net
                    .quantise()?
                    .save(&net_path)
                    .map_err(|source| TrainError::Io {
                        path: net_path.display().to_string(),
                        source,
                    })?;
                Some(path)
            }
            None => None,
        };
        progress(&Progress::Epoch(EpochReport {
            epoch,
            train_loss: loss_sum / order.len().max(1) as f64,
            validation_loss,
            lr,
            positions_per_second: order.len() as f64 / train_time.as_secs_f64().max(1e-9),
            elapsed: started.elapsed(),
            checkpoint,
        }));
    }
    Ok(state)
}

/// Whether sample `index` is mirrored in the epoch of `salt` (about half of them are).
#[inline]
fn mirrored(salt: Option<u64>, index: u32) -> bool {
    salt.is_some_and(|salt| {
        let mut x = salt ^ u64::from(index).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 31;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 29;
        x & 1 == 1
    })
}

/// Forward and backward passes of one batch, split over the workers; returns the summed loss.
/// With `mirror_salt`, the samples [`mirrored`] says are decoded with their files flipped.
fn run_batch(
    net: &FloatNetwork,
    data: &[PackedRecord],
    batch: &[u32],
    target: Target,
    mirror_salt: Option<u64>,
    workers: &mut [ThreadState],
) -> f64 {
    let part = batch.len().div_ceil(workers.len());
    let work = |chunk: &[u32], worker: &mut ThreadState| -> f64 {
        let mut loss = 0.0f64;
        for &i in chunk {
            let record = &data[i as usize];
            let mirror = mirrored(mirror_salt, i);
            let sample = Sample::decode_for(record, target, &net.kings, mirror);
            loss += f64::from(net.backward(&sample, &mut worker.scratch, &mut worker.grads));
        }
        loss
    };
    let mut chunks = batch.chunks(part);
    let (first_worker, other_workers) = workers.split_at_mut(1);
    let first_chunk = chunks.next().unwrap_or_default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .zip(other_workers.iter_mut())
            .map(|(chunk, worker)| scope.spawn(move || work(chunk, worker)))
            .collect();
        let mut loss = work(first_chunk, &mut first_worker[0]);
        for handle in handles {
            loss += handle.join().unwrap_or(f64::NAN);
        }
        loss
    })
}

#[cfg(test)]
mod tests;
