//! `betacut-lab train <data files...> --out FILE [options]`: the command line of the network
//! trainer ([`super::trainer`]); and `betacut-lab grow NET --king-buckets SPEC --out FILE`,
//! which grows a net's inputs into king buckets without training.

use crate::records::{read_records, PackedRecord};
use crate::trainer::checkpoint::Checkpoint;
use crate::trainer::net::FloatNetwork;
use crate::trainer::{quantise, train, Progress, Schedule, TrainConfig, Validation};
use betacut::eval::nnue::{KingBuckets, Network};
use betacut::tools::args::{clock, default_threads};
use betacut::tools::command::{Command, Flag, Kind, Parsed, Positional};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// `betacut-lab train`.
pub const TRAIN: Command = Command::new(
    "betacut-lab",
    "train",
    &[Positional::new("<data files...>", true, true)],
    &[
        Flag::new(
            &["--out"],
            "FILE",
            Kind::Text,
            "the network to write (needed)",
        ),
        Flag::new(
            &["--hidden"],
            "N",
            Kind::Int,
            "hidden units a perspective (multiple of 32)",
        ),
        Flag::new(
            &["--output-buckets"],
            "N",
            Kind::Int,
            "output buckets (1-16)",
        ),
        Flag::new(&["--epochs"], "N", Kind::Int, "epochs of the schedule"),
        Flag::new(&["--batch"], "N", Kind::Int, "positions a batch"),
        Flag::new(&["--lr"], "X", Kind::Float, "learning rate"),
        Flag::new(
            &["--lr-decay"],
            "X",
            Kind::Float,
            "exponential schedule: lr times X an epoch",
        ),
        Flag::new(&["--lr-end"], "X", Kind::Float, "cosine schedule down to X"),
        Flag::new(&["--weight-decay"], "X", Kind::Float, "weight decay"),
        Flag::new(
            &["--wdl"],
            "X",
            Kind::Float,
            "share of the game result in the target",
        ),
        Flag::new(
            &["--scale"],
            "CP",
            Kind::Float,
            "centipawns of the sigmoid's scale",
        ),
        Flag::new(
            &["--threads"],
            "N",
            Kind::Int,
            "threads (default: one per CPU)",
        ),
        Flag::new(&["--seed"], "S", Kind::Int, "random seed"),
        Flag::new(
            &["--stop-after"],
            "N",
            Kind::Int,
            "stop after epoch N, to go on with --resume",
        ),
        Flag::new(
            &["--validation"],
            "N",
            Kind::Int,
            "hold out N random positions",
        ),
        Flag::new(
            &["--validation-data"],
            "FILE",
            Kind::Text,
            "held-out games, not a random share",
        ),
        Flag::new(
            &["--checkpoint"],
            "DIR",
            Kind::Text,
            "write a checkpoint each epoch here",
        ),
        Flag::new(&["--resume"], "FILE", Kind::Text, "go on from a checkpoint"),
        Flag::new(
            &["--init"],
            "NET",
            Kind::Text,
            "start from a net's weights (can add buckets, widen)",
        ),
        Flag::new(
            &["--mirror"],
            "",
            Kind::Switch,
            "files flipped on a seeded half of the samples",
        ),
        Flag::new(&["--min-ply"], "N", Kind::Int, "no positions before ply N"),
        Flag::new(
            &["--king-buckets"],
            "SPEC",
            Kind::Text,
            "king buckets: 4 (the default map) or 64 numbers (grows an --init net)",
        ),
        Flag::new(
            &["--king-mirror"],
            "",
            Kind::Switch,
            "inputs mirrored for a king on files e-h",
        ),
    ],
    "train a network on binary datagen files",
);

/// `betacut-lab grow`.
pub const GROW: Command = Command {
    program: "betacut-lab",
    name: "grow",
    positionals: &[Positional {
        name: "<net>",
        required: true,
        many: false,
    }],
    flags: &[
        Flag::new(
            &["--out"],
            "FILE",
            Kind::Text,
            "the grown network to write (needed)",
        ),
        Flag::new(
            &["--king-buckets"],
            "SPEC",
            Kind::Text,
            "4 (the default map) or 64 numbers, a1..h1, a2..h8",
        ),
        Flag::new(
            &["--king-mirror"],
            "",
            Kind::Switch,
            "mirrored for a king on files e-h (not exact)",
        ),
    ],
    about: "copy a net's input weights into king buckets (evaluates as before)",
};

/// The king-bucket layout `spec` names, mirrored or not: `4` is the default map
/// ([`KingBuckets::DEFAULT`], or [`KingBuckets::DEFAULT_MIRRORED`] when mirrored), `1` one
/// bucket; otherwise 64 bucket numbers separated by commas, the own king's squares a1, b1,
/// ..., h8 seen from its own side (the bucket count is the largest number plus one).
pub fn parse_king_buckets(spec: &str, mirrored: bool) -> Result<KingBuckets, String> {
    let layout = match spec.trim() {
        "4" if mirrored => Ok(KingBuckets::DEFAULT_MIRRORED),
        "4" => Ok(KingBuckets::DEFAULT),
        "1" => KingBuckets::new(1, [0; 64], mirrored),
        list => {
            let numbers: Vec<u8> = list
                .split(',')
                .map(|n| n.trim().parse::<u8>())
                .collect::<Result<_, _>>()
                .map_err(|e| format!("--king-buckets {spec:?}: {e}"))?;
            let map: [u8; 64] = numbers.as_slice().try_into().map_err(|_| {
                format!(
                    "--king-buckets: 4, 1, or 64 bucket numbers separated by commas (got {})",
                    numbers.len()
                )
            })?;
            let count = usize::from(map.iter().copied().max().unwrap_or(0)) + 1;
            KingBuckets::new(count, map, mirrored)
        }
    };
    layout.map_err(|e| format!("--king-buckets {spec:?}: {e}"))
}

/// The layout `--king-buckets` and `--king-mirror` ask for, if they ask.
fn king_buckets_flag(args: &Parsed) -> Result<Option<KingBuckets>, String> {
    let spec: Option<String> = args.value("--king-buckets")?;
    match (spec, args.has("--king-mirror")) {
        (Some(spec), mirrored) => parse_king_buckets(&spec, mirrored).map(Some),
        (None, true) => parse_king_buckets("1", true).map(Some),
        (None, false) => Ok(None),
    }
}

/// A few words on a layout, for the command's report.
fn describe(kings: &KingBuckets) -> String {
    format!(
        "{} king bucket(s){}",
        kings.count(),
        if kings.mirrored() { ", mirrored" } else { "" }
    )
}

/// Runs `betacut-lab grow`.
pub fn run_grow(args: &Parsed) -> Result<ExitCode, String> {
    let path = PathBuf::from(args.positionals().first().ok_or("grow needs a net file")?);
    let out: PathBuf = args.value("--out")?.ok_or("grow needs --out FILE")?;
    let kings = king_buckets_flag(args)?.ok_or("grow needs --king-buckets SPEC")?;
    let net = Network::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let grown = net.with_king_buckets(kings).ok_or_else(|| {
        format!(
            "{} already has {}; grow starts from a net of one",
            path.display(),
            describe(net.king_buckets())
        )
    })?;
    save_net(&grown, &out)?;
    betacut::outln!(
        "network (hidden {}, {} output bucket(s), {}) written to {}{}",
        grown.hidden(),
        grown.buckets(),
        describe(&kings),
        out.display(),
        if kings.mirrored() {
            " (mirrored: it no longer evaluates as the net it grew from)"
        } else {
            ""
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// Whether a hidden layer of `hidden` units per perspective is one the engine can load: a
/// multiple of 32 from 32 to 4096.
fn valid_hidden(hidden: usize) -> bool {
    hidden != 0 && hidden <= betacut::eval::nnue::MAX_HIDDEN && hidden.is_multiple_of(32)
}

/// Runs `betacut-lab train`.
pub fn run_train(args: &Parsed) -> Result<ExitCode, String> {
    let files: Vec<PathBuf> = args.positionals().iter().map(PathBuf::from).collect();
    let out: PathBuf = args.value("--out")?.ok_or("train needs --out FILE")?;
    let defaults = TrainConfig::default();
    let buckets: Option<usize> = args.value("--output-buckets")?;
    if let Some(b) = buckets {
        if !(1..=betacut::eval::nnue::MAX_OUTPUT_BUCKETS).contains(&b) {
            return Err(format!("--output-buckets {b}: must be between 1 and 16"));
        }
    }
    let kings = king_buckets_flag(args)?;
    let hidden: Option<usize> = args.value("--hidden")?;
    if let Some(h) = hidden.filter(|&h| !valid_hidden(h)) {
        return Err(format!(
            "--hidden {h}: must be a multiple of 32 between 32 and 4096"
        ));
    }
    let resume = match (
        args.value::<PathBuf>("--resume")?,
        args.value::<PathBuf>("--init")?,
    ) {
        (Some(_), Some(_)) => {
            return Err("--resume (a checkpoint) and --init (a net) exclude each other".into())
        }
        (Some(path), None) => Some(Checkpoint::load(&path).map_err(|e| e.to_string())?),
        (None, Some(path)) => {
            let net =
                Network::load(&path).map_err(|e| format!("--init {}: {e}", path.display()))?;
            // A net of one output layer grows into several by copying it into each bucket.
            let net = match buckets {
                Some(b) if b != net.buckets() => net.with_buckets(b).ok_or_else(|| {
                    format!(
                        "--init {} has {} output buckets; --output-buckets {b} can only grow a \
                         net of one",
                        path.display(),
                        net.buckets()
                    )
                })?,
                _ => net,
            };
            // A net of one king bucket grows into several by copying its input weights into
            // each.
            let net = match kings {
                Some(k) if k != *net.king_buckets() => {
                    net.with_king_buckets(k).ok_or_else(|| {
                        format!(
                            "--init {} has {}; --king-buckets can only grow a net of one",
                            path.display(),
                            describe(net.king_buckets())
                        )
                    })?
                }
                _ => net,
            };
            // A wider run than the net: the net widened, its new units silent at first.
            match hidden {
                Some(h) if h > net.hidden() => {
                    let seed = args.value("--seed")?.unwrap_or(defaults.seed);
                    let wide = FloatNetwork::from_network(&net)
                        .widened(h, seed)
                        .ok_or_else(|| format!("--hidden {h} cannot widen the --init net"))?;
                    Some(Checkpoint::from_float(wide))
                }
                _ => Some(Checkpoint::from_net(&net)),
            }
        }
        (None, None) => None,
    };
    let buckets = match (&resume, buckets) {
        (Some(c), Some(b)) if c.net.layout.buckets != b => {
            return Err(format!(
                "--output-buckets {b}, but the checkpoint of --resume has {}",
                c.net.layout.buckets
            ))
        }
        (Some(c), _) => c.net.layout.buckets,
        (None, b) => b.unwrap_or(defaults.output_buckets),
    };
    let king_buckets = match (&resume, kings) {
        (Some(c), Some(k)) if c.net.kings != k => {
            return Err(format!(
                "--king-buckets asks for {}, but the checkpoint of --resume has {}",
                describe(&k),
                describe(&c.net.kings)
            ))
        }
        (Some(c), _) => c.net.kings,
        (None, k) => k.unwrap_or(defaults.king_buckets),
    };
    let hidden = match (&resume, hidden) {
        (Some(c), Some(h)) if c.net.hidden() != h => {
            return Err(format!(
                "--hidden {h}, but the net of --resume or --init has {} hidden units (--init \
                 can widen a net, not narrow it)",
                c.net.hidden()
            ))
        }
        (Some(c), _) => c.net.hidden(),
        (None, Some(h)) => h,
        (None, None) => defaults.hidden,
    };
    if !valid_hidden(hidden) {
        return Err(format!(
            "--hidden {hidden}: must be a multiple of 32 between 32 and 4096"
        ));
    }
    let (random_share, validation_file) = match (
        args.value::<usize>("--validation")?,
        args.value::<PathBuf>("--validation-data")?,
    ) {
        (Some(_), Some(_)) => {
            return Err(
                "--validation N (drawn from the data) and --validation-data FILE exclude each \
                 other"
                    .into(),
            )
        }
        pair => pair,
    };
    let mut config = TrainConfig {
        hidden,
        output_buckets: buckets,
        king_buckets,
        epochs: args.value("--epochs")?.unwrap_or(defaults.epochs),
        stop_after: args.value("--stop-after")?,
        batch: args.value("--batch")?.unwrap_or(defaults.batch),
        lr: args.value("--lr")?.unwrap_or(defaults.lr),
        schedule: match args.value::<f32>("--lr-end")? {
            Some(end) if args.value::<f32>("--lr-decay")?.is_some() => {
                return Err(format!(
                    "--lr-end {end} (a cosine schedule) and --lr-decay (an exponential one) \
                     exclude each other"
                ))
            }
            Some(end) => Schedule::Cosine(end),
            None => args
                .value("--lr-decay")?
                .map_or(defaults.schedule, Schedule::Exponential),
        },
        weight_decay: args
            .value("--weight-decay")?
            .unwrap_or(defaults.weight_decay),
        wdl: args.value("--wdl")?.unwrap_or(defaults.wdl),
        scale: args.value("--scale")?.unwrap_or(defaults.scale),
        threads: args.value("--threads")?.unwrap_or_else(default_threads),
        seed: args.value("--seed")?.unwrap_or(defaults.seed),
        validation: Validation::Random(random_share),
        checkpoint_dir: args.value("--checkpoint")?,
        mirror: args.has("--mirror"),
        min_ply: args.value("--min-ply")?.unwrap_or(defaults.min_ply),
    };

    let start = Instant::now();
    let mut data: Vec<PackedRecord> = Vec::new();
    for file in &files {
        data.extend(read_records(file).map_err(|e| e.to_string())?);
    }
    // The held-out games go last; the trainer takes the tail as its validation set.
    if let Some(file) = validation_file {
        let held_out = read_records(&file).map_err(|e| e.to_string())?;
        if held_out.is_empty() {
            return Err(format!(
                "--validation-data {}: no positions",
                file.display()
            ));
        }
        config.validation = Validation::Last(held_out.len());
        data.extend(held_out);
    }
    betacut::errln!(
        "train: {} positions from {} file(s) loaded in {:.1} s{}; hidden {}, output buckets {}, \
         {}, epochs {}, batch {}, \
         lr {} ({}){}, wdl {}, scale {}, {} thread(s), seed {}{}{}",
        data.len(),
        files.len(),
        start.elapsed().as_secs_f64(),
        match config.validation {
            Validation::Last(n) => format!(" (the last {n} from --validation-data, held out)"),
            Validation::Random(_) => String::new(),
        },
        config.hidden,
        config.output_buckets,
        describe(&config.king_buckets),
        config.epochs,
        config.batch,
        config.lr,
        match config.schedule {
            Schedule::Exponential(f) => format!("x{f} per epoch"),
            Schedule::Cosine(end) => format!("cosine to {end} at the last epoch"),
        },
        if config.weight_decay > 0.0 {
            format!(", weight decay {}", config.weight_decay)
        } else {
            String::new()
        },
        config.wdl,
        config.scale,
        config.threads,
        config.seed,
        if config.mirror { ", mirrored half" } else { "" },
        if config.min_ply > 0 {
            format!(", from ply {}", config.min_ply)
        } else {
            String::new()
        }
    );
    match &resume {
        Some(c) if c.epochs_done > 0 => {
            betacut::errln!("train: resuming after epoch {}", c.epochs_done)
        }
        Some(_) => betacut::errln!("train: starting from the weights of the --init net"),
        None => {}
    }
    let mut last_line = Instant::now();
    let epochs = config.epochs;
    let state = train(&data, &config, resume, &mut |p| match p {
        Progress::Batch {
            epoch,
            done,
            total,
            loss,
            positions_per_second,
        } => {
            if last_line.elapsed() >= Duration::from_secs(10) && done < total {
                last_line = Instant::now();
                betacut::errln!(
                    "epoch {epoch}/{epochs}: {:.1} % ({done}/{total}), loss {loss:.6}, \
                     {positions_per_second:.0} positions/s",
                    100.0 * *done as f64 / (*total).max(1) as f64
                );
            }
        }
        Progress::Start { validation_loss } => {
            betacut::errln!(
                "epoch 0/{epochs}: validation loss {validation_loss:.6} (the --init net)"
            );
        }
        Progress::Epoch(r) => {
            last_line = Instant::now();
            let validation = r
                .validation_loss
                .map_or(String::new(), |v| format!(", validation loss {v:.6}"));
            let checkpoint = r
                .checkpoint
                .as_ref()
                .map_or(String::new(), |c| format!(", checkpoint {}", c.display()));
            betacut::errln!(
                "epoch {}/{epochs}: train loss {:.6}{validation}, lr {:.6}, {:.0} positions/s, \
                 {:.1} s (total {}){checkpoint}",
                r.epoch,
                r.train_loss,
                r.lr,
                r.positions_per_second,
                r.elapsed.as_secs_f64(),
                clock(start.elapsed())
            );
        }
    })
    .map_err(|e| e.to_string())?;
    let net = quantise(&state.net, &data).map_err(|e| e.to_string())?;
    save_net(&net, &out)?;
    betacut::outln!(
        "network (hidden {}, {} output bucket(s), {}) written to {} after {} epochs in {}",
        net.hidden(),
        net.buckets(),
        describe(net.king_buckets()),
        out.display(),
        state.epochs_done,
        clock(start.elapsed())
    );
    Ok(ExitCode::SUCCESS)
}

fn save_net(net: &betacut::eval::nnue::Network, path: &Path) -> Result<(), String> {
    net.save(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_bucket_specs_name_a_default_or_list_every_square() {
        assert_eq!(parse_king_buckets("4", false), Ok(KingBuckets::DEFAULT));
        assert_eq!(
            parse_king_buckets("4", true),
            Ok(KingBuckets::DEFAULT_MIRRORED)
        );
        // The default map written out is the default map.
        let list: Vec<String> = KingBuckets::DEFAULT
            .map()
            .iter()
            .map(|b| b.to_string())
            .collect();
        assert_eq!(
            parse_king_buckets(&list.join(","), false),
            Ok(KingBuckets::DEFAULT)
        );
        // Two buckets by the king's file, mirrored: a-d and e-h alike, so a mirrored map needs
        // no file split; by rank then.
        let by_rank: Vec<String> = (0..64).map(|sq| (sq / 32).to_string()).collect();
        let two = parse_king_buckets(&by_rank.join(","), true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((two.count(), two.mirrored()), (2, true));
        let by_file: Vec<String> = (0..64).map(|sq| ((sq % 8) / 4).to_string()).collect();
        let refused = parse_king_buckets(&by_file.join(","), true);
        assert!(
            refused.as_ref().is_err_and(|e| e.contains("mirror image")),
            "{refused:?}"
        );
        assert!(parse_king_buckets("0,1", false).is_err_and(|e| e.contains("(got 2)")));
        assert!(parse_king_buckets("x", false).is_err());
        let too_many: Vec<String> = (0..64).map(|sq| sq.to_string()).collect();
        assert!(parse_king_buckets(&too_many.join(","), false)
            .is_err_and(|e| e.contains("64 king buckets (1 to 32)")));
    }
}
