//! `betacut-lab`'s command line: `datagen`, `datagen-text`, `tune`, `train` and `grow` (the
//! last two in [`crate::train_cli`]). Each command has one entry in [`COMMANDS`], which the help prints.

use crate::datagen::{self, DataFormat};
use crate::{records, train_cli, tuner};
use betacut::tools::args::{clock, default_threads, net_option};
use betacut::tools::cli::{HCE, NET};
use betacut::tools::command::{Command, Flag, Kind, Parsed, Positional};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const THREADS: Flag = Flag::new(
    &["--threads"],
    "N",
    Kind::Int,
    "threads (default: one per CPU)",
);

/// `betacut-lab datagen`.
pub const DATAGEN: Command = Command::new(
    "betacut-lab",
    "datagen",
    &[Positional::new("<out>", true, false)],
    &[
        Flag::new(
            &["--text"],
            "",
            Kind::Switch,
            "`FEN | result` lines for `tune` (implied by .txt)",
        ),
        Flag::new(&["--games"], "N", Kind::Int, "games to play"),
        Flag::new(
            &["--first-game"],
            "K",
            Kind::Int,
            "the first game's number (default 0)",
        ),
        Flag::new(
            &["--nodes"],
            "N",
            Kind::Int,
            "node budget a move (the hard cap with --soft-nodes)",
        ),
        Flag::new(
            &["--soft-nodes"],
            "N",
            Kind::Int,
            "end a move on the first iteration past N nodes",
        ),
        Flag::new(&["--depth"], "N", Kind::Int, "search each move to depth N"),
        Flag::new(&["--seed"], "S", Kind::Int, "random seed"),
        THREADS,
        Flag::new(&["--hash"], "MB", Kind::Int, "hash table size a thread"),
        Flag::new(
            &["--random-plies"],
            "N[-M]",
            Kind::Text,
            "random opening plies, N-M drawn per game",
        ),
        Flag::new(
            &["--opening-limit"],
            "CP",
            Kind::Int,
            "drop a game whose first search is beyond CP",
        ),
        Flag::new(
            &["--exact-only"],
            "",
            Kind::Switch,
            "no fail-high bounds as labels",
        ),
        Flag::new(
            &["--undamped"],
            "",
            Kind::Switch,
            "no fifty-move damping of the labels",
        ),
        Flag::new(
            &["--openings"],
            "FILE",
            Kind::Text,
            "start positions, one FEN or EPD a line",
        ),
        Flag::new(
            &["--chess960"],
            "SHARE",
            Kind::Float,
            "that share (0-1) of the games from a Chess960 back rank",
        ),
        Flag::new(
            &["--double-chess960"],
            "SHARE",
            Kind::Float,
            "that share (0-1) from two back ranks, one a side",
        ),
        NET,
        HCE,
    ],
    "self-play data, games K..K+N in game order: 32-byte
     records with score and result (for `train`), or with
     --text `FEN | result` lines for `tune`",
);

/// `betacut-lab datagen-text`.
pub const DATAGEN_TEXT: Command = Command::new(
    "betacut-lab",
    "datagen-text",
    &[Positional::new("<in.bin>", true, false)],
    &[Flag::new(
        &["--limit"],
        "N",
        Kind::Int,
        "print the first N records only",
    )],
    "print binary data as `FEN | score | result` lines",
);

/// `betacut-lab tune`.
pub const TUNE: Command = Command::new(
    "betacut-lab",
    "tune",
    &[Positional::new("<data.txt>", true, false)],
    &[
        Flag::new(&["--epochs"], "N", Kind::Int, "epochs (default 2000)"),
        Flag::new(&["--lr"], "X", Kind::Float, "learning rate (default 1.0)"),
        Flag::new(
            &["--l2"],
            "X",
            Kind::Float,
            "L2 regularisation (default 5e-9)",
        ),
        THREADS,
        Flag::new(
            &["--out"],
            "FILE",
            Kind::Text,
            "default: src/eval/weights.rs",
        ),
    ],
    "Texel-tune the evaluation weights (default --out:
     src/eval/weights.rs, from the repository's root)",
);

/// Every command, in the order of the help.
pub const COMMANDS: [&Command; 5] = [
    &DATAGEN,
    &DATAGEN_TEXT,
    &TUNE,
    &train_cli::TRAIN,
    &train_cli::GROW,
];

/// The usage of the whole command line: every command's entry.
pub fn usage() -> String {
    let mut text = String::from(
        "usage (the lab's tools; the engine is `betacut`):\n  betacut-lab --help [COMMAND] | --version",
    );
    for command in COMMANDS {
        text.push('\n');
        text.push_str(&command.entry());
    }
    text
}

/// The usage of `command`, or `None` for a word that is no command.
pub fn command_usage(command: &str) -> Option<String> {
    COMMANDS
        .iter()
        .find(|c| c.name == command)
        .map(|c| c.usage())
}

/// `args` parsed by `command`'s definition, the error as text.
fn parse(command: &Command, args: &[String]) -> Result<Parsed, String> {
    Ok(command.parse(args)?)
}

/// Runs the command line `args` (without the program name) and returns the exit code; errors
/// print the command's usage (all of it for an unknown command) to standard error and exit
/// with 2.
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            let usage = args
                .first()
                .and_then(|command| command_usage(command))
                .unwrap_or_else(usage);
            betacut::errln!("betacut-lab: {message}\n{usage}");
            ExitCode::from(2)
        }
    }
}

/// Dispatches one command line.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(command) = args.first() else {
        return Err("missing command".to_string());
    };
    let rest = &args[1..];
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        if let Some(usage) = command_usage(command) {
            betacut::outln!("{usage}");
            return Ok(ExitCode::SUCCESS);
        }
    }
    match command.as_str() {
        "-h" | "--help" | "help" => {
            match rest.first() {
                None => betacut::outln!("{}", usage()),
                Some(name) => betacut::outln!(
                    "{}",
                    command_usage(name).ok_or_else(|| format!("unknown command {name:?}"))?
                ),
            }
            Ok(ExitCode::SUCCESS)
        }
        "-v" | "--version" | "version" => {
            betacut::outln!("betacut-lab {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        "datagen" => run_datagen(&parse(&DATAGEN, rest)?),
        "datagen-text" => run_datagen_text(&parse(&DATAGEN_TEXT, rest)?),
        "tune" => run_tune(&parse(&TUNE, rest)?),
        "train" => train_cli::run_train(&parse(&train_cli::TRAIN, rest)?),
        "grow" => train_cli::run_grow(&parse(&train_cli::GROW, rest)?),
        other => Err(format!("unknown command {other:?}")),
    }
}

/// Runs `betacut-lab datagen`.
/// A share flag's value, 0 to 1 (0 when the flag is absent).
fn share_flag(args: &Parsed, name: &str) -> Result<f64, String> {
    match args.value::<f64>(name)? {
        None => Ok(0.0),
        Some(share) if (0.0..=1.0).contains(&share) => Ok(share),
        Some(share) => Err(format!("{name} {share}: a share is between 0 and 1")),
    }
}

fn run_datagen(args: &Parsed) -> Result<ExitCode, String> {
    let out_path = &args.positionals()[0];
    let openings = match args.value::<PathBuf>("--openings")? {
        Some(path) => std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .lines()
            .map(|l| l.split(';').next().unwrap_or_default().trim().to_string())
            .filter(|l| !l.is_empty())
            .collect(),
        None => Vec::new(),
    };
    let format = if args.has("--text") || out_path.ends_with(".txt") {
        DataFormat::Text
    } else {
        DataFormat::Binary
    };
    let depth: Option<u32> = args.value("--depth")?;
    let nodes: Option<u64> = args.value("--nodes")?;
    let soft_nodes: Option<u64> = args.value("--soft-nodes")?;
    if let (Some(hard), Some(soft)) = (nodes, soft_nodes) {
        if hard < soft {
            return Err(format!(
                "--nodes {hard} (the hard cap) is below --soft-nodes {soft}"
            ));
        }
    }
    let defaults = datagen::DatagenConfig::default();
    let (random_plies, random_plies_max) = match args.value::<String>("--random-plies")? {
        None => (defaults.random_plies, defaults.random_plies_max),
        Some(text) => parse_ply_range(&text)?,
    };
    let config = datagen::DatagenConfig {
        games: args.value("--games")?.unwrap_or(defaults.games),
        first_game: args.value("--first-game")?.unwrap_or(0),
        // A depth alone limits by depth; a soft budget has a hard cap of five times itself
        // unless --nodes names one; otherwise the node budget (default 6000) applies.
        nodes: match (nodes, soft_nodes, depth) {
            (Some(hard), _, _) => Some(hard),
            (None, Some(soft), _) => Some(soft.saturating_mul(5)),
            (None, None, Some(_)) => None,
            (None, None, None) => defaults.nodes,
        },
        soft_nodes,
        depth,
        random_plies,
        random_plies_max,
        opening_limit: args.value("--opening-limit")?,
        exact_only: args.has("--exact-only"),
        undamped: args.has("--undamped"),
        seed: args.value("--seed")?.unwrap_or(defaults.seed),
        threads: args.value("--threads")?.unwrap_or_else(default_threads),
        hash_mb: args.value("--hash")?.unwrap_or(defaults.hash_mb),
        openings,
        chess960_share: share_flag(args, "--chess960")?,
        double_chess960_share: share_flag(args, "--double-chess960")?,
        network: net_option(args)?,
    };
    if config.chess960_share + config.double_chess960_share > 1.0 {
        return Err("--chess960 and --double-chess960 add up to more than 1".to_string());
    }
    let file =
        std::fs::File::create(out_path).map_err(|e| format!("cannot create {out_path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    let start = Instant::now();
    let mut last_report = Instant::now();
    let total = config.games;
    let written = datagen::run_datagen(&config, format, &mut out, |games, positions| {
        if last_report.elapsed() < Duration::from_secs(10) && games < total {
            return;
        }
        last_report = Instant::now();
        let elapsed = start.elapsed();
        let secs = elapsed.as_secs_f64().max(1e-3);
        let eta = Duration::from_secs_f64(secs / games.max(1) as f64 * (total - games) as f64);
        betacut::errln!(
            "datagen: {games}/{total} games ({:.1} %), {positions} positions, {:.0} positions/s, \
             {:.2} games/s, elapsed {}, ETA {}",
            100.0 * games as f64 / total.max(1) as f64,
            positions as f64 / secs,
            games as f64 / secs,
            clock(elapsed),
            clock(eta)
        );
    })
    .map_err(|e| format!("writing {out_path}: {e}"))?;
    betacut::outln!(
        "{written} positions of games {}..{} written to {out_path} ({})",
        config.first_game,
        config.first_game + config.games,
        match format {
            DataFormat::Text => "text",
            DataFormat::Binary => "binary records",
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// `N` or `N-M` (N <= M): the random plies of a datagen opening.
fn parse_ply_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--random-plies {text}: expected N or N-M with N <= M");
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: usize = low.trim().parse().map_err(|_| bad())?;
    let high: usize = high.trim().parse().map_err(|_| bad())?;
    if low > high {
        return Err(bad());
    }
    Ok((low, high))
}

/// Runs `betacut-lab datagen-text`.
fn run_datagen_text(args: &Parsed) -> Result<ExitCode, String> {
    let path = &args.positionals()[0];
    let limit: Option<u64> = args.value("--limit")?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    records::write_text(Path::new(path), limit, &mut out).map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `betacut-lab tune`.
fn run_tune(args: &Parsed) -> Result<ExitCode, String> {
    let data_path = &args.positionals()[0];
    let config = tuner::TuneConfig {
        epochs: args.value("--epochs")?.unwrap_or(2000),
        learning_rate: args.value("--lr")?.unwrap_or(1.0),
        threads: args.value("--threads")?.unwrap_or_else(default_threads),
        l2: args.value("--l2")?.unwrap_or(5e-9),
    };
    let out_path: PathBuf = args
        .value("--out")?
        .unwrap_or_else(|| PathBuf::from("src/eval/weights.rs"));
    let start = Instant::now();
    let data = tuner::load_data(Path::new(data_path)).map_err(|e| e.to_string())?;
    betacut::errln!(
        "{} positions loaded in {:.1} s",
        data.len(),
        start.elapsed().as_secs_f64()
    );
    let (weights, k) = tuner::tune(&data, &tuner::current_weights(), config, |epoch, error| {
        betacut::errln!("epoch {epoch:5}  error {error:.6}");
    });
    let header = format!(
        "Generated by `betacut-lab tune {data_path} --epochs {} --lr {} --l2 {:e}`\n\
         ({} positions, K = {k:.4}), starting from the weights this file held before.\n\
         See docs/experiments.md (How the evaluation weights are made) for how the data is made.",
        config.epochs,
        config.learning_rate,
        config.l2,
        data.len()
    );
    let source = tuner::weights_source(&weights, &header);
    let mut file = std::fs::File::create(&out_path)
        .map_err(|e| format!("cannot create {}: {e}", out_path.display()))?;
    file.write_all(source.as_bytes())
        .map_err(|e| format!("writing {}: {e}", out_path.display()))?;
    betacut::outln!(
        "weights written to {} (K = {k:.4}) in {:.0} s",
        out_path.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::{command_usage, parse_ply_range, run, usage, COMMANDS};
    use std::process::ExitCode;

    #[test]
    fn random_plies_are_a_number_or_a_rising_range() {
        assert_eq!(parse_ply_range("8"), Ok((8, 8)));
        assert_eq!(parse_ply_range("8-9"), Ok((8, 9)));
        assert!(parse_ply_range("9-8").is_err());
        assert!(parse_ply_range("8-").is_err());
        assert!(parse_ply_range("eight").is_err());
    }

    #[test]
    fn each_command_has_its_own_usage_and_the_help_lists_them_all() {
        for command in COMMANDS {
            let name = command.name;
            let Some(usage) = command_usage(name) else {
                panic!("no usage for {name}");
            };
            assert!(usage.contains(&format!("  betacut-lab {name} ")), "{usage}");
            assert!(super::usage().contains(&command.entry()));
        }
        assert!(command_usage("datagen").is_some_and(|u| u.contains("--undamped")));
        assert!(command_usage("train").is_some_and(|u| u.contains("--min-ply")));
        assert_eq!(command_usage("bench"), None);
        assert!(!usage().contains("betacut-lab bench"));
    }

    #[test]
    fn help_succeeds_and_unknown_commands_are_refused() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(run(&args(&["train", "--help"])), Ok(ExitCode::SUCCESS));
        assert_eq!(run(&args(&["--help"])), Ok(ExitCode::SUCCESS));
        assert!(run(&args(&[])).is_err());
        let Err(message) = run(&args(&["perft", "3"])) else {
            panic!("perft is the engine's");
        };
        assert!(message.contains("unknown command"), "{message}");
    }
}
