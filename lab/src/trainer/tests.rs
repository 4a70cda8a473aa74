//! Tests of the trainer on a small fixture made at test time: positions of random games,
//! labelled with the hand-crafted evaluation (so there is something learnable) and a result
//! that follows its sign.

use super::net::{FloatNetwork, Gradients, Scratch};
use super::*;
use crate::records::{DataRecord, GameResult};
use betacut::board::Position;
use betacut::eval::nnue::KingBuckets;
use betacut::eval::{evaluate, PawnCache};
use betacut::search::bench::BENCH_FENS;
use rand::Rng;

/// About `n` positions of seeded random games, scored by the hand-crafted evaluation.
fn fixture(n: usize, seed: u64) -> Vec<PackedRecord> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pawns = PawnCache::new();
    let mut records = Vec::with_capacity(n);
    while records.len() < n {
        let mut pos = Position::startpos();
        let plies = rng.gen_range(4..90);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
            if pos.in_check() || !pos.has_legal_move() {
                continue;
            }
            let white = (evaluate(&pos, &mut pawns) * pos.side_to_move().sign()).clamp(-1500, 1500);
            let result = match white {
                s if s > 150 => GameResult::WhiteWin,
                s if s < -150 => GameResult::BlackWin,
                _ => GameResult::Draw,
            };
            records.push(DataRecord::from_position(&pos, white as i16, result).to_bytes());
        }
        pos.clear_history();
    }
    records.truncate(n);
    records
}

fn sample_of(pos: &Position) -> Sample {
    Sample::decode(
        &DataRecord::from_position(pos, 0, GameResult::Draw).to_bytes(),
        Target::SCORE_ONLY,
    )
}

fn config(hidden: usize, epochs: u32) -> TrainConfig {
    TrainConfig {
        hidden,
        output_buckets: 1,
        king_buckets: KingBuckets::NONE,
        epochs,
        batch: 256,
        lr: 0.005,
        schedule: Schedule::Exponential(0.95),
        weight_decay: 0.0,
        wdl: 0.25,
        scale: 200.0,
        threads: 2,
        seed: 3,
        validation: Validation::Random(Some(300)),
        checkpoint_dir: None,
        mirror: false,
        min_ply: 0,
        stop_after: None,
    }
}

#[test]
fn gradients_match_finite_differences() {
    // Four output buckets: the gradient reaches the bucket each position picks.
    let net = FloatNetwork::random(32, 4, 8);
    let l = net.layout;
    let data = fixture(40, 2);
    // A scale other than the net's 400, so that the output factor is in the gradient.
    let target = Target {
        wdl: 0.4,
        scale: 160.0,
    };
    let samples: Vec<Sample> = data.iter().map(|r| Sample::decode(r, target)).collect();
    let mut scratch = Scratch::new(32);
    let mut grads = Gradients::new(l);
    for s in &samples {
        net.backward(s, &mut scratch, &mut grads);
    }
    let total_loss = |net: &FloatNetwork, scratch: &mut Scratch| -> f64 {
        samples
            .iter()
            .map(|s| f64::from(net.loss(s, scratch)))
            .sum()
    };
    let active = usize::from(samples[0].us()[3]);
    let bucket = net.bucket(&samples[0]);
    let checked = [
        active * 32 + 5,
        l.feature_bias() + 7,
        l.bucket_weights(bucket) + 2,
        l.bucket_weights(bucket) + 32 + 9,
        l.output_bias() + bucket,
    ];
    for index in checked {
        let eps = 1e-3f32;
        let mut plus = net.clone();
        plus.params[index] += eps;
        let mut minus = net.clone();
        minus.params[index] -= eps;
        let numeric = (total_loss(&plus, &mut scratch) - total_loss(&minus, &mut scratch))
            / (2.0 * f64::from(eps));
        let analytic = f64::from(grads.values[index]);
        assert!(
            (numeric - analytic).abs() <= 1e-4 + 0.05 * analytic.abs(),
            "parameter {index}: numeric {numeric}, analytic {analytic}"
        );
        assert!(analytic != 0.0, "parameter {index} has no gradient");
    }
    // Rows of inputs no position uses get no gradient and stay untouched.
    let unused = 0; // own pawn on a1: never in the data
    assert!(!grads.touched[unused]);
    assert!(grads.values[..32].iter().all(|&g| g == 0.0));
}

#[test]
fn training_lowers_the_loss_on_a_small_fixture() {
    let data = fixture(3000, 1);
    let config = config(32, 6);
    let (train_idx, validation_idx) = split(&data, &config);
    assert_eq!(validation_idx.len(), 300);
    let start = FloatNetwork::random(config.hidden, config.output_buckets, config.seed);
    let before_train = mean_loss(&start, &data, &train_idx, config.target(), 2);
    let before_validation = mean_loss(&start, &data, &validation_idx, config.target(), 2);
    let mut reports = Vec::new();
    let state = train(&data, &config, None, &mut |p| {
        if let Progress::Epoch(report) = p {
            reports.push(report.clone());
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reports.len(), 6);
    assert_eq!(state.epochs_done, 6);
    let after_train = mean_loss(&state.net, &data, &train_idx, config.target(), 2);
    let after_validation = mean_loss(&state.net, &data, &validation_idx, config.target(), 2);
    assert!(
        after_train < 0.6 * before_train,
        "training loss {before_train} -> {after_train}"
    );
    assert!(
        after_validation < 0.8 * before_validation,
        "validation loss {before_validation} -> {after_validation}"
    );
    let last = &reports[5];
    assert!(last.train_loss < reports[0].train_loss);
    assert!(last
        .validation_loss
        .is_some_and(|v| (v - after_validation).abs() < 1e-9));
    // Every weight stays within the clip.
    let ob = state.net.layout.output_bias();
    assert!(state.net.params[..ob].iter().all(|w| w.abs() <= net::CLIP));
}

#[test]
fn the_quantised_net_reproduces_the_float_net() {
    let data = fixture(3000, 5);
    let state = train(&data, &config(64, 4), None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let float = &state.net;
    let quantised = quantise(float, &data).unwrap_or_else(|e| panic!("{e}"));
    // Survives the file format too.
    let quantised = betacut::eval::nnue::Network::from_bytes(&quantised.to_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut scratch = Scratch::new(64);
    let mut worst = 0.0f64;
    let mut spread = 0.0f64;
    let mut total = 0.0f64;
    let positions: Vec<Position> = BENCH_FENS
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .chain(data.iter().take(200).filter_map(|r| {
            DataRecord::from_bytes(r)
                .ok()
                .and_then(|d| Position::from_fen(&d.to_fen()).ok())
        }))
        .collect();
    for pos in &positions {
        let float_cp = f64::from(float.forward(&sample_of(pos), &mut scratch)) * 400.0;
        let int_cp = f64::from(quantised.evaluate(pos));
        worst = worst.max((float_cp - int_cp).abs());
        total += (float_cp - int_cp).abs();
        spread = spread.max(float_cp.abs());
    }
    // Stated bound: within 15 cp of the float net on every sample position and within 6 cp
    // on average (measured: at most 10.2, 4.0 on average; the rest is the rounding of the
    // weights to 1/255 and 1/64 and the integer divisions), for a net whose evaluations
    // span hundreds of centipawns.
    let mean = total / positions.len() as f64;
    assert!(
        spread > 300.0,
        "the trained net is nearly constant ({spread} cp)"
    );
    assert!(worst <= 15.0, "quantised net differs by up to {worst} cp");
    assert!(mean <= 6.0, "quantised net differs by {mean} cp on average");
    // Without the calibration of the output bias, most of the error is one constant offset.
    let plain = float.quantise().unwrap_or_else(|e| panic!("{e}"));
    let plain_mean: f64 = positions
        .iter()
        .map(|pos| {
            let f = f64::from(float.forward(&sample_of(pos), &mut scratch)) * 400.0;
            (f - f64::from(plain.evaluate(pos))).abs()
        })
        .sum::<f64>()
        / positions.len() as f64;
    assert!(
        mean < plain_mean,
        "calibration: {mean} cp, without: {plain_mean} cp"
    );
}

#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let data = fixture(1500, 7);
    let two = config(32, 2);
    let straight = train(&data, &two, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let one = TrainConfig {
        epochs: 1,
        ..two.clone()
    };
    let halfway = train(&data, &one, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let path = std::path::Path::new("resume.ckpt");
    let reloaded =
        Checkpoint::from_bytes(path, &halfway.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let resumed = train(&data, &two, Some(reloaded), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(resumed, straight);
}

#[test]
fn a_schedule_trained_in_parts_equals_one_run() {
    // A cosine schedule over three epochs, stopped after the second and resumed from its
    // checkpoint (as a session's data is trained on before the next session's), is the run
    // that went through; a run of two epochs alone is not (its schedule ends sooner).
    let data = fixture(1500, 8);
    let whole = TrainConfig {
        schedule: Schedule::Cosine(0.0001),
        ..config(32, 3)
    };
    let straight = train(&data, &whole, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let first_part = TrainConfig {
        stop_after: Some(2),
        ..whole.clone()
    };
    let mut lrs = Vec::new();
    let part = train(&data, &first_part, None, &mut |p| {
        if let Progress::Epoch(r) = p {
            lrs.push(r.lr);
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(part.epochs_done, 2);
    let two_epochs = TrainConfig {
        epochs: 2,
        ..whole.clone()
    };
    let alone = train(&data, &two_epochs, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(alone.epochs_done, 2);
    let path = std::path::Path::new("part.ckpt");
    let reloaded = Checkpoint::from_bytes(path, &part.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let resumed = train(&data, &whole, Some(reloaded), &mut |p| {
        if let Progress::Epoch(r) = p {
            lrs.push(r.lr);
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(resumed, straight);
    assert_eq!(lrs.len(), 3);
    assert!(lrs[0] > lrs[1] && lrs[1] > lrs[2], "{lrs:?}");
    assert_ne!(
        alone.net, part.net,
        "two epochs of a 3-epoch schedule are not a 2-epoch run"
    );
}

#[test]
fn bad_settings_are_refused() {
    let data = fixture(100, 9);
    let bad_wdl = TrainConfig {
        wdl: 1.5,
        ..config(32, 1)
    };
    assert!(matches!(
        train(&data, &bad_wdl, None, &mut |_| {}),
        Err(TrainError::Config(_))
    ));
    let bad_decay = TrainConfig {
        weight_decay: -0.01,
        ..config(32, 1)
    };
    assert!(matches!(
        train(&data, &bad_decay, None, &mut |_| {}),
        Err(TrainError::Config(_))
    ));
    let bad_scale = TrainConfig {
        scale: 0.0,
        ..config(32, 1)
    };
    assert!(matches!(
        train(&data, &bad_scale, None, &mut |_| {}),
        Err(TrainError::Config(_))
    ));
    assert!(matches!(
        train(&data[..1], &config(32, 1), None, &mut |_| {}),
        Err(TrainError::Config(_))
    ));
    let nothing_left = TrainConfig {
        validation: Validation::Last(100),
        ..config(32, 1)
    };
    assert!(matches!(
        train(&data, &nothing_left, None, &mut |_| {}),
        Err(TrainError::Config(_))
    ));
}

#[test]
fn a_held_out_tail_is_the_validation_set_and_never_trained_on() {
    let data = fixture(1000, 14);
    let tail = TrainConfig {
        validation: Validation::Last(250),
        ..config(32, 2)
    };
    let (train_idx, validation_idx) = split(&data, &tail);
    assert_eq!(train_idx, (0..750).collect::<Vec<u32>>());
    assert_eq!(validation_idx, (750..1000).collect::<Vec<u32>>());
    // The random split of the same size mixes the two parts.
    let random = TrainConfig {
        validation: Validation::Random(Some(250)),
        ..tail.clone()
    };
    let (_, random_idx) = split(&data, &random);
    assert_eq!(random_idx.len(), 250);
    assert!(random_idx.iter().any(|&i| i < 750));
    // Changing only the held-out positions changes the validation loss but not the training.
    let mut other = data.clone();
    let replacement = fixture(250, 15);
    other[750..].copy_from_slice(&replacement[..250]);
    let run = |d: &[PackedRecord]| {
        let mut last = None;
        let state = train(d, &tail, None, &mut |p| {
            if let Progress::Epoch(r) = p {
                last = Some((r.train_loss, r.validation_loss));
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
        (state.net.params, last)
    };
    let (params_a, last_a) = run(&data);
    let (params_b, last_b) = run(&other);
    assert_eq!(params_a, params_b);
    let (train_a, validation_a) = last_a.unwrap_or_else(|| panic!("no epoch report"));
    let (train_b, validation_b) = last_b.unwrap_or_else(|| panic!("no epoch report"));
    assert_eq!(train_a, train_b);
    assert_ne!(validation_a, validation_b);
}

#[test]
fn the_cosine_schedule_falls_from_the_first_rate_to_the_last() {
    let cosine = Schedule::Cosine(1e-6);
    assert!((cosine.rate(1e-3, 1, 41) - 1e-3).abs() < 1e-9);
    assert!((cosine.rate(1e-3, 21, 41) - (1e-3 + 1e-6) / 2.0).abs() < 1e-8);
    assert!((cosine.rate(1e-3, 41, 41) - 1e-6).abs() < 1e-9);
    let rates: Vec<f32> = (1..=41).map(|e| cosine.rate(1e-3, e, 41)).collect();
    assert!(rates.windows(2).all(|w| w[1] < w[0]), "{rates:?}");
    assert!((Schedule::Exponential(0.5).rate(1.0, 3, 10) - 0.25).abs() < 1e-9);
}

#[test]
fn a_quantised_net_comes_back_from_its_float_form() {
    let data = fixture(1500, 11);
    let trained = train(&data, &config(32, 2), None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let net = trained.net.quantise().unwrap_or_else(|e| panic!("{e}"));
    let back = FloatNetwork::from_network(&net);
    assert_eq!(back.hidden(), 32);
    assert_eq!(back.quantise().unwrap_or_else(|e| panic!("{e}")), net);
}

#[test]
fn a_run_from_a_net_starts_at_its_loss_and_lowers_it() {
    let data = fixture(3000, 12);
    let four = config(32, 4);
    let one = TrainConfig {
        epochs: 1,
        ..four.clone()
    };
    let first = train(&data, &one, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let net = first.net.quantise().unwrap_or_else(|e| panic!("{e}"));
    let (_, validation_idx) = split(&data, &four);
    let trained_loss = mean_loss(&first.net, &data, &validation_idx, four.target(), 2);
    let random = FloatNetwork::random(32, 1, four.seed);
    let random_loss = mean_loss(&random, &data, &validation_idx, four.target(), 2);

    let mut start_loss = None;
    let mut reports = Vec::new();
    let state = train(
        &data,
        &four,
        Some(Checkpoint::from_net(&net)),
        &mut |p| match p {
            Progress::Start { validation_loss } => start_loss = Some(*validation_loss),
            Progress::Epoch(report) => reports.push(report.clone()),
            Progress::Batch { .. } => {}
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let start_loss = start_loss.unwrap_or_else(|| panic!("no start report"));
    // The run starts from the given weights (up to their rounding), not from random ones ...
    assert!(
        (start_loss - trained_loss).abs() <= 0.02 * trained_loss,
        "start {start_loss}, the net's own {trained_loss}"
    );
    assert!(
        start_loss < 0.8 * random_loss,
        "start {start_loss}, random {random_loss}"
    );
    // ... runs every epoch (none counts as done) and improves on them.
    assert_eq!(state.epochs_done, 4);
    assert_eq!(reports.len(), 4);
    let last = reports[3].validation_loss.unwrap_or(f64::NAN);
    assert!(
        last < start_loss,
        "after 4 epochs {last}, at the start {start_loss}"
    );
}

#[test]
fn a_net_grown_into_output_buckets_starts_at_its_loss_and_the_buckets_then_differ() {
    let data = fixture(3000, 13);
    let one = TrainConfig {
        epochs: 1,
        ..config(32, 1)
    };
    let first = train(&data, &one, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let net = first.net.quantise().unwrap_or_else(|e| panic!("{e}"));
    let grown = net
        .with_buckets(4)
        .unwrap_or_else(|| panic!("1 -> 4 buckets"));
    let start_loss = |net: &betacut::eval::nnue::Network, buckets: usize| -> f64 {
        let config = TrainConfig {
            output_buckets: buckets,
            epochs: 0,
            ..one.clone()
        };
        let mut loss = None;
        train(&data, &config, Some(Checkpoint::from_net(net)), &mut |p| {
            if let Progress::Start { validation_loss } = p {
                loss = Some(*validation_loss);
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
        loss.unwrap_or_else(|| panic!("no start report"))
    };
    // Copying the output layer into each bucket changes no output.
    assert_eq!(start_loss(&grown, 4), start_loss(&net, 1));
    // A run whose bucket count differs from the net's is refused.
    let mismatched = TrainConfig {
        output_buckets: 2,
        ..one.clone()
    };
    assert!(train(
        &data,
        &mismatched,
        Some(Checkpoint::from_net(&grown)),
        &mut |_| {}
    )
    .is_err());
    // Training moves each bucket its own way: the fixture's positions span several of them.
    let four = TrainConfig {
        output_buckets: 4,
        epochs: 2,
        ..one.clone()
    };
    let state = train(
        &data,
        &four,
        Some(Checkpoint::from_net(&grown)),
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let l = state.net.layout;
    let bucket = |b: usize| &state.net.params[l.bucket_weights(b)..l.bucket_weights(b + 1)];
    let used: Vec<usize> = {
        let mut seen = [false; 4];
        for r in &data {
            seen[state.net.bucket(&Sample::decode(r, four.target()))] = true;
        }
        (0..4).filter(|&b| seen[b]).collect()
    };
    assert!(used.len() >= 2, "the fixture uses buckets {used:?}");
    assert_ne!(bucket(used[0]), bucket(used[1]));
}

#[test]
fn positions_before_the_minimum_ply_are_neither_trained_on_nor_held_out() {
    let data = fixture(2000, 5);
    let all = config(32, 1);
    let late = TrainConfig {
        min_ply: 20,
        ..config(32, 1)
    };
    let (train_all, validation_all) = split(&data, &all);
    let (train_late, validation_late) = split(&data, &late);
    let is_late = |i: &u32| record_ply(&data[*i as usize]) >= 20;
    assert!(train_late.iter().chain(&validation_late).all(is_late));
    // Exactly the late positions of the plain split remain, on the same sides.
    let expect_train: Vec<u32> = train_all.iter().copied().filter(is_late).collect();
    let expect_validation: Vec<u32> = validation_all.iter().copied().filter(is_late).collect();
    assert_eq!(train_late, expect_train);
    assert_eq!(validation_late, expect_validation);
    assert!(
        train_late.len() < train_all.len(),
        "the fixture has early positions"
    );
    // The ply is read from the move number and the side: 1. e4 is ply 0, 1... e5 ply 1.
    let mut pos = Position::startpos();
    let ply_of = |pos: &Position| {
        record_ply(&DataRecord::from_position(pos, 0, GameResult::Draw).to_bytes())
    };
    assert_eq!(ply_of(&pos), 0);
    for (n, text) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        pos.make_move(mv);
        assert_eq!(ply_of(&pos), n as u32 + 1);
    }
}

#[test]
fn mirroring_half_the_samples_trains_reproducibly_and_still_learns() {
    let data = fixture(1500, 6);
    let plain = TrainConfig {
        validation: Validation::Random(Some(200)),
        ..config(32, 3)
    };
    let mirror = TrainConfig {
        mirror: true,
        ..plain.clone()
    };
    let run = |config: &TrainConfig| {
        train(&data, config, None, &mut |_| {})
            .unwrap_or_else(|e| panic!("{e}"))
            .net
    };
    let a = run(&mirror);
    let b = run(&mirror);
    assert_eq!(
        a.params, b.params,
        "same seed, same mirrored samples, same net"
    );
    assert_ne!(
        a.params,
        run(&plain).params,
        "the mirror reaches the samples"
    );
    let (_, validation) = split(&data, &mirror);
    let start = FloatNetwork::random(32, 1, mirror.seed);
    let before = mean_loss(&start, &data, &validation, mirror.target(), 2);
    let after = mean_loss(&a, &data, &validation, mirror.target(), 2);
    assert!(after < before, "validation loss {before} -> {after}");
    // About half of the samples of an epoch are mirrored.
    let salt = Some(12345);
    let flipped = (0..10_000u32).filter(|&i| mirrored(salt, i)).count();
    assert!((4_500..5_500).contains(&flipped), "{flipped} of 10000");
    assert!((0..100u32).all(|i| !mirrored(None, i)));
}

#[test]
fn a_widened_net_computes_what_the_narrow_one_did_and_training_wakes_its_new_units() {
    let data = fixture(3000, 14);
    let narrow = TrainConfig {
        output_buckets: 2,
        ..config(32, 1)
    };
    let first = train(&data, &narrow, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let wide = first
        .net
        .widened(64, 5)
        .unwrap_or_else(|| panic!("32 -> 64 units"));
    assert_eq!(wide.hidden(), 64);
    assert_eq!(wide.layout.buckets, 2);
    assert!(first.net.widened(32, 5).is_none() && first.net.widened(16, 5).is_none());
    // Every position's output is the narrow net's (the new units' output weights are zero).
    let mut small = Scratch::new(32);
    let mut large = Scratch::new(64);
    for record in &data[..200] {
        let sample = Sample::decode(record, narrow.target());
        let (a, b) = (
            first.net.forward(&sample, &mut small),
            wide.forward(&sample, &mut large),
        );
        assert!((a - b).abs() <= 1e-5 * a.abs().max(1.0), "{a} against {b}");
    }
    // The old units keep their input weights; the new ones got random ones.
    let l = wide.layout;
    assert_eq!(wide.params[..32], first.net.params[..32]);
    assert!(wide.params[32..64].iter().any(|&w| w != 0.0));
    // Trained on, the new units come to matter: their output weights leave zero and the loss
    // falls below the start.
    let wider = TrainConfig {
        output_buckets: 2,
        ..config(64, 2)
    };
    let mut start = None;
    let mut last = None;
    let state = train(
        &data,
        &wider,
        Some(Checkpoint::from_float(wide.clone())),
        &mut |p| match p {
            Progress::Start { validation_loss } => start = Some(*validation_loss),
            Progress::Epoch(report) => last = report.validation_loss,
            Progress::Batch { .. } => {}
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (start, last) = (start.unwrap_or(f64::NAN), last.unwrap_or(f64::NAN));
    assert!(last < start, "after 2 epochs {last}, at the start {start}");
    let new_output = &state.net.params[l.bucket_weights(0) + 32..l.bucket_weights(0) + 64];
    assert!(new_output.iter().any(|&w| w != 0.0));
}

#[test]
fn king_bucketed_samples_have_the_engines_inputs() {
    use betacut::board::Color;
    use betacut::eval::nnue::features::active_bucketed_features;
    use betacut::eval::nnue::MAX_ACTIVE;
    let data = fixture(300, 15);
    let mut buckets_seen = [false; 4];
    for kings in [KingBuckets::DEFAULT, KingBuckets::DEFAULT_MIRRORED] {
        for record in &data {
            let pos = DataRecord::from_bytes(record)
                .ok()
                .and_then(|d| Position::from_fen(&d.to_fen()).ok())
                .unwrap_or_else(|| panic!("a fixture record decodes"));
            let sample = Sample::decode_for(record, Target::SCORE_ONLY, &kings, false);
            let mut expected = [0u16; MAX_ACTIVE];
            let us = pos.side_to_move();
            let n = active_bucketed_features(&pos, us, &kings, &mut expected);
            assert_eq!(sample.us(), &expected[..n], "{}", pos.to_fen());
            let n = active_bucketed_features(&pos, !us, &kings, &mut expected);
            assert_eq!(sample.them(), &expected[..n], "{}", pos.to_fen());
            if !kings.mirrored() {
                buckets_seen[usize::from(kings.view_of(&pos, Color::White) >> 3)] = true;
            }
        }
    }
    // Random games take the kings into more than one bucket.
    assert!(buckets_seen.iter().filter(|&&b| b).count() >= 2);
}

#[test]
fn the_grown_shipped_net_computes_exactly_what_it_did_in_floating_point() {
    let Ok(Some(shipped)) = betacut::eval::nnue::embedded::embedded_network() else {
        panic!("the build embeds a network");
    };
    let grown = shipped
        .with_king_buckets(KingBuckets::DEFAULT)
        .unwrap_or_else(|| panic!("the shipped net has one king bucket"));
    let (old, new) = (
        FloatNetwork::from_network(&shipped),
        FloatNetwork::from_network(&grown),
    );
    assert_eq!(new.layout.king_buckets, 4);
    assert_eq!(new.layout.len(), old.layout.len() + 3 * 768 * old.hidden());
    let mut scratch = Scratch::new(old.hidden());
    let data = fixture(400, 16);
    let positions = BENCH_FENS
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .map(|pos| DataRecord::from_position(&pos, 0, GameResult::Draw).to_bytes());
    for record in positions.chain(data) {
        let a = old.forward(&Sample::decode(&record, Target::SCORE_ONLY), &mut scratch);
        let sample = Sample::decode_for(&record, Target::SCORE_ONLY, &new.kings, false);
        let b = new.forward(&sample, &mut scratch);
        assert_eq!(a.to_bits(), b.to_bits(), "{a} against {b}");
    }
    // Quantised again, it is the grown net, integer for integer.
    assert_eq!(new.quantise().unwrap_or_else(|e| panic!("{e}")), grown);
}

#[test]
fn king_buckets_get_their_own_gradients_and_training_tells_them_apart() {
    let data = fixture(3000, 17);
    let plain = config(32, 1);
    let first = train(&data, &plain, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let grown = first
        .net
        .quantise()
        .ok()
        .and_then(|n| n.with_king_buckets(KingBuckets::DEFAULT))
        .unwrap_or_else(|| panic!("a plain net grows"));
    let bucketed = TrainConfig {
        king_buckets: KingBuckets::DEFAULT,
        ..config(32, 2)
    };
    // Gradients: a sample's rows are those of its kings' buckets, checked against finite
    // differences on one of them.
    let net = FloatNetwork::from_network(&grown);
    let l = net.layout;
    let target = bucketed.target();
    let samples: Vec<Sample> = data[..40]
        .iter()
        .map(|r| Sample::decode_for(r, target, &net.kings, false))
        .collect();
    let mut scratch = Scratch::new(32);
    let mut grads = Gradients::new(l);
    for s in &samples {
        net.backward(s, &mut scratch, &mut grads);
    }
    let row = usize::from(samples[0].us()[2]);
    let index = row * 32 + 3;
    let total_loss = |net: &FloatNetwork, scratch: &mut Scratch| -> f64 {
        samples
            .iter()
            .map(|s| f64::from(net.loss(s, scratch)))
            .sum()
    };
    let eps = 1e-3f32;
    let (mut plus, mut minus) = (net.clone(), net.clone());
    plus.params[index] += eps;
    minus.params[index] -= eps;
    let numeric = (total_loss(&plus, &mut scratch) - total_loss(&minus, &mut scratch))
        / (2.0 * f64::from(eps));
    let analytic = f64::from(grads.values[index]);
    assert!(
        analytic != 0.0 && (numeric - analytic).abs() <= 1e-4 + 0.05 * analytic.abs(),
        "numeric {numeric}, analytic {analytic}"
    );
    // Over all the positions, the gradient reaches more than one bucket's rows.
    let mut grads = Gradients::new(l);
    for record in &data {
        let sample = Sample::decode_for(record, target, &net.kings, false);
        net.backward(&sample, &mut scratch, &mut grads);
    }
    let touched_buckets: Vec<bool> = (0..4)
        .map(|b| grads.touched[b * 768..(b + 1) * 768].iter().any(|&t| t))
        .collect();
    assert!(touched_buckets.iter().filter(|&&t| t).count() >= 2);
    // A run from the grown net starts at the plain net's loss (the same outputs), lowers it,
    // and the buckets' weights then differ.
    let mut start = None;
    let mut last = None;
    let state = train(
        &data,
        &bucketed,
        Some(Checkpoint::from_net(&grown)),
        &mut |p| match p {
            Progress::Start { validation_loss } => start = Some(*validation_loss),
            Progress::Epoch(report) => last = report.validation_loss,
            Progress::Batch { .. } => {}
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (start, last) = (start.unwrap_or(f64::NAN), last.unwrap_or(f64::NAN));
    let (_, validation) = split(&data, &plain);
    let plain_loss = mean_loss(
        &FloatNetwork::from_network(&first.net.quantise().unwrap_or_else(|e| panic!("{e}"))),
        &data,
        &validation,
        plain.target(),
        1,
    );
    assert_eq!(start.to_bits(), plain_loss.to_bits());
    assert!(last < start, "after 2 epochs {last}, at the start {start}");
    let h = l.hidden;
    let bucket_rows = |b: usize| &state.net.params[b * 768 * h..(b + 1) * 768 * h];
    assert_ne!(bucket_rows(0), bucket_rows(1));
    // The checkpoint carries the layout, the net file too.
    let bytes = state.to_bytes();
    let back = Checkpoint::from_bytes(std::path::Path::new("kb.ckpt"), &bytes)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.net.kings, KingBuckets::DEFAULT);
    let quantised = quantise(&state.net, &data).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(quantised.king_buckets(), &KingBuckets::DEFAULT);
    // A run whose layout differs from its starting net's is refused.
    assert!(train(&data, &plain, Some(back), &mut |_| {}).is_err());
}
