//! Betacut's command line, the one dispatcher: no arguments starts the protocol loop (XBoard
//! or UCI, chosen by the first command); subcommands run the tools: `perft`, `divide`,
//! `perft-suite`, `bench`, `epd`, `datagen`, `tune` and `probe`.

use super::{bench, datagen, epd, perft, probe, tuner};
use crate::board::Position;
use crate::search::SearchReport;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Usage of the whole command line.
pub const USAGE: &str = "usage:
  betacut                                  play: XBoard (CECP v2) or UCI on stdin/stdout, as the
                                           first command says (`uci`, or `xboard`/`protover`)
  betacut xboard | uci                     the same, naming the protocol in advance
  betacut --version                        print name and version
  betacut perft <depth> [--fen FEN]        count leaf nodes, print time and Mnps
  betacut divide <depth> [--fen FEN]       perft split by root move
  betacut perft-suite <file.epd> [--max-depth N]
                                           check an EPD perft suite (exit 1 on mismatch)
  betacut bench [depth]                    fixed positions, fixed depth: `<nodes> nodes <nps> nps`
  betacut epd <file.epd> [--movetime MS] [--depth N] [--nodes N] [--threads N] [--hash MB]
                  [--verbose]              run a bm/am test suite, print solved/total
                                           (--verbose: every iteration of every search)
  betacut datagen <out.txt> [--games N] [--nodes N] [--seed S] [--threads N]
                  [--random-plies N] [--openings FILE]
                                           self-play tuning data: `FEN | result` lines
  betacut tune <data.txt> [--epochs N] [--lr X] [--l2 X] [--threads N] [--out FILE]
                                           Texel-tune the evaluation weights
  betacut probe --syzygy DIRS [FEN | --file F] [--bench [ROUNDS]]
                                           Syzygy WDL and DTZ: `<FEN> ;wdl W ;dtz D` per
                                           position (DIRS separated by `:`, `;` on Windows;
                                           --bench: time the WDL probes instead)";

/// Runs the command line `args` (without the program name) and returns the exit code; errors
/// print the usage to standard error and exit with 2.
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("betacut: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Dispatches one command line.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(command) = args.first() else {
        crate::protocol::run_stdio();
        return Ok(ExitCode::SUCCESS);
    };
    let rest = &args[1..];
    match command.as_str() {
        "xboard" | "uci" if rest.is_empty() => {
            crate::protocol::run_stdio_with(command);
            Ok(ExitCode::SUCCESS)
        }
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "-v" | "--version" | "version" => {
            println!("{}", crate::engine::engine_name());
            Ok(ExitCode::SUCCESS)
        }
        "perft" | "divide" => run_perft(command == "perft", rest),
        "perft-suite" => run_perft_suite(rest),
        "bench" => run_bench(rest),
        "epd" => run_epd(rest),
        "datagen" => run_datagen(rest),
        "tune" => run_tune(rest),
        "probe" => run_probe(rest),
        other => Err(format!("unknown command {other:?}")),
    }
}

fn run_perft(total_only: bool, args: &[String]) -> Result<ExitCode, String> {
    let text = args.first().ok_or("missing depth")?;
    let depth = text
        .parse::<u32>()
        .map_err(|_| format!("bad depth {text:?}"))?;
    let mut pos = position_option(&args[1..])?;
    let start = Instant::now();
    let nodes = if total_only {
        perft::perft(&mut pos, depth)
    } else {
        let split = perft::divide(&mut pos, depth);
        for (mv, n) in &split {
            println!("{}: {n}", pos.move_to_coordinate(*mv));
        }
        println!("moves: {}", split.len());
        split.iter().map(|(_, n)| n).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "nodes {nodes} time {secs:.3} s {:.1} Mnps",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(ExitCode::SUCCESS)
}

fn run_perft_suite(args: &[String]) -> Result<ExitCode, String> {
    let path = args.first().ok_or("perft-suite needs a file")?;
    let max_depth = flag::<u32>(args, "--max-depth")?;
    let entries = perft::load_suite(Path::new(path)).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let summary = perft::run_suite(&entries, max_depth, |entry, depth, found| {
        let ok = entry.counts.iter().any(|&(d, n)| d == depth && n == found);
        if !ok {
            println!(
                "MISMATCH line {} D{depth}: found {found} | {}",
                entry.line, entry.fen
            );
        }
    });
    let secs = start.elapsed().as_secs_f64();
    for failure in &summary.failures {
        println!("{failure}");
    }
    println!(
        "{} positions, {} checks, {} failures, {} nodes in {secs:.2} s ({:.1} Mnps)",
        summary.positions,
        summary.checks,
        summary.failures.len(),
        summary.nodes,
        summary.nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(if summary.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `--fen FEN...` (the FEN may be one quoted argument or several words) or the start position.
fn position_option(args: &[String]) -> Result<Position, String> {
    match args.iter().position(|a| a == "--fen") {
        Some(i) => {
            let words: Vec<&str> = args[i + 1..]
                .iter()
                .take_while(|a| !a.starts_with("--"))
                .map(String::as_str)
                .collect();
            let fen = words.join(" ");
            Position::from_fen(&fen).map_err(|e| format!("bad FEN {fen:?}: {e}"))
        }
        None => Ok(Position::startpos()),
    }
}

/// The value after `flag`, parsed.
fn flag<T: std::str::FromStr>(args: &[String], name: &str) -> Result<Option<T>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => {
            let text = args.get(i + 1).ok_or(format!("{name} needs a value"))?;
            text.parse::<T>()
                .map(Some)
                .map_err(|_| format!("bad value {text:?} for {name}"))
        }
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn run_bench(args: &[String]) -> Result<ExitCode, String> {
    let depth = match args.first() {
        Some(text) => text
            .parse::<u32>()
            .map_err(|_| format!("bad depth {text:?}"))?,
        None => bench::DEFAULT_BENCH_DEPTH,
    };
    let summary = bench::run_bench(depth, |line| eprintln!("{line}"));
    println!("{} nodes {} nps", summary.nodes, summary.nps);
    Ok(ExitCode::SUCCESS)
}

fn run_epd(args: &[String]) -> Result<ExitCode, String> {
    let path = args.first().ok_or("epd needs a file")?;
    let cases = epd::load_epd(Path::new(path)).map_err(|e| e.to_string())?;
    let limits = epd::suite_limits(
        flag(args, "--movetime")?,
        flag(args, "--depth")?,
        flag(args, "--nodes")?,
    );
    let threads = flag(args, "--threads")?.unwrap_or(1);
    let hash = flag(args, "--hash")?.unwrap_or(64);
    let start = Instant::now();
    let verbose = args.iter().any(|a| a == "--verbose");
    let mut show_iteration = |pos: &mut Position, r: &SearchReport| {
        if verbose {
            println!(
                "     depth {:2}/{:2} score {:6} {:6} ms {:10} nodes  {}",
                r.depth,
                r.seldepth,
                r.score,
                r.elapsed.as_millis(),
                r.nodes,
                pos.line_to_san(r.pv)
            );
        }
    };
    let outcomes = epd::run_epd(&cases, &limits, hash, threads, &mut show_iteration, |o| {
        let mark = if o.solved { "ok  " } else { "FAIL" };
        println!("{mark} {:12} played {:8} {}", o.id, o.played, o.expected);
    });
    let solved = outcomes.iter().filter(|o| o.solved).count();
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.solved)
        .map(|o| o.id.as_str())
        .collect();
    println!("failed: {}", failed.join(" "));
    println!(
        "solved {solved}/{} in {:.1} s",
        outcomes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_datagen(args: &[String]) -> Result<ExitCode, String> {
    let out_path = args.first().ok_or("datagen needs an output file")?;
    let openings = match flag::<PathBuf>(args, "--openings")? {
        Some(path) => std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .lines()
            .map(|l| l.split(';').next().unwrap_or_default().trim().to_string())
            .filter(|l| !l.is_empty())
            .collect(),
        None => Vec::new(),
    };
    let config = datagen::DatagenConfig {
        games: flag(args, "--games")?.unwrap_or(1000),
        nodes: flag(args, "--nodes")?.unwrap_or(6000),
        random_plies: flag(args, "--random-plies")?.unwrap_or(8),
        seed: flag(args, "--seed")?.unwrap_or(1),
        threads: flag(args, "--threads")?.unwrap_or_else(default_threads),
        openings,
    };
    let file =
        std::fs::File::create(out_path).map_err(|e| format!("cannot create {out_path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    let start = Instant::now();
    let written = datagen::run_datagen(&config, &mut out, |games, positions| {
        if games % 100 == 0 || games == config.games {
            eprintln!(
                "{games}/{} games, {positions} positions, {:.0} s",
                config.games,
                start.elapsed().as_secs_f64()
            );
        }
    })
    .map_err(|e| format!("writing {out_path}: {e}"))?;
    println!("{written} positions written to {out_path}");
    Ok(ExitCode::SUCCESS)
}

fn run_tune(args: &[String]) -> Result<ExitCode, String> {
    let data_path = args.first().ok_or("tune needs a data file")?;
    let config = tuner::TuneConfig {
        epochs: flag(args, "--epochs")?.unwrap_or(2000),
        learning_rate: flag(args, "--lr")?.unwrap_or(1.0),
        threads: flag(args, "--threads")?.unwrap_or_else(default_threads),
        l2: flag(args, "--l2")?.unwrap_or(5e-9),
    };
    let out_path: PathBuf =
        flag(args, "--out")?.unwrap_or_else(|| PathBuf::from("src/eval/weights.rs"));
    let start = Instant::now();
    let data = tuner::load_data(Path::new(data_path)).map_err(|e| e.to_string())?;
    eprintln!(
        "{} positions loaded in {:.1} s",
        data.len(),
        start.elapsed().as_secs_f64()
    );
    let (weights, k) = tuner::tune(&data, &tuner::current_weights(), config, |epoch, error| {
        eprintln!("epoch {epoch:5}  error {error:.6}");
    });
    let header = format!(
        "Generated by `betacut tune {data_path} --epochs {} --lr {} --l2 {:e}`\n\
         ({} positions, K = {k:.4}), starting from the weights this file held before.\n\
         See README.md (How the evaluation weights are made) for how the data is made.",
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
    println!(
        "weights written to {} (K = {k:.4}) in {:.0} s",
        out_path.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_probe(args: &[String]) -> Result<ExitCode, String> {
    let dirs = flag::<String>(args, "--syzygy")?.ok_or("probe needs --syzygy DIR")?;
    let tables = crate::tb::Tablebases::open(&dirs).map_err(|e| e.to_string())?;
    for problem in tables.problems() {
        eprintln!("betacut: {problem}");
    }
    let lines: Vec<String> = match flag::<PathBuf>(args, "--file")? {
        Some(path) => std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .lines()
            .filter_map(probe::fen_of_line)
            .map(str::to_string)
            .collect(),
        None => {
            // The FEN: every word that is not an option or an option's value.
            let mut words = Vec::new();
            let mut skip = false;
            for arg in args {
                if skip {
                    skip = false;
                } else if arg == "--syzygy" || arg == "--file" {
                    skip = true;
                } else if arg == "--bench" {
                } else if arg.parse::<u32>().is_ok() && words.is_empty() {
                    // `--bench ROUNDS` before any FEN.
                } else {
                    words.push(arg.as_str());
                }
            }
            let fen = words.join(" ");
            vec![if fen.is_empty() {
                crate::board::START_FEN.to_string()
            } else {
                fen
            }]
        }
    };
    if let Some(i) = args.iter().position(|a| a == "--bench") {
        let rounds = args
            .get(i + 1)
            .and_then(|r| r.parse::<u32>().ok())
            .unwrap_or(20)
            .max(1);
        let positions: Vec<Position> = lines
            .iter()
            .filter_map(|fen| Position::from_fen(fen).ok())
            .collect();
        let dirs: Vec<PathBuf> = std::env::split_paths(&dirs).collect();
        probe::bench(&dirs, &positions, rounds)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut all_parsed = true;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for fen in &lines {
        let (line, parsed) = probe::probe_line(&tables, fen);
        all_parsed &= parsed;
        writeln!(out, "{line}").map_err(|e| format!("writing the output: {e}"))?;
    }
    out.flush()
        .map_err(|e| format!("writing the output: {e}"))?;
    Ok(if all_parsed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
