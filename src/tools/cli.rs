//! Betacut's command line, the one dispatcher: no arguments starts the protocol loop (XBoard
//! or UCI, chosen by the first command); subcommands run the tools: `perft`, `divide`,
//! `perft-suite`, `bench`, `epd`, `tunables`, `book`, `probe` and `annotate`. Data generation,
//! training and tuning are the lab's (`betacut-lab`, in lab/).

use super::args::{flag, net_option};
use super::{epd, perft, probe};
use crate::board::Position;
use crate::search::bench;
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
  betacut bench [depth] [--net FILE|--hce] fixed positions, fixed depth: `<nodes> nodes <nps> nps`
  betacut epd <file.epd> [--movetime MS] [--depth N] [--nodes N] [--threads N] [--hash MB]
                  [--net FILE|--hce] [--verbose]
                                           run a bm/am test suite, print solved/total
                                           (exit 1 if a position was not solved;
                                           --verbose: every iteration of every search)
  (bench, epd, annotate: the built-in evaluation unless --net FILE names a network or --hce
   asks for the hand-crafted evaluation)
  betacut tunables                         the search constants SPSA tunes (scripts/spsa.py):
                                           `name default min max step` per line; a build
                                           with the feature `tune` takes them as UCI options
  betacut book make <games.pgn> <out.bin> [--plies N] [--min-games N]
                                           make a Polyglot book from PGN games (defaults: 24
                                           plies, moves seen in at least 3 games)
  betacut book show <book.bin> [FEN]       a book's moves for a position (default: start)

  betacut probe --syzygy DIRS [FEN | --file F] [--bench [ROUNDS]]
                                           Syzygy WDL and DTZ: `<FEN> ;wdl W ;dtz D` per
                                           position (DIRS separated by `:`, `;` on Windows;
                                           --bench: time the WDL probes instead)
  betacut annotate <games.pgn> [-o out.pgn] [--movetime MS | --nodes N | --depth D]
                  [--threads N] [--hash MB] [--syzygy DIRS] [--book FILE]
                  [--side white|black|both] [--from-move N] [--graph DIR] [--net FILE|--hce]
                                           review games: [%eval] after every move, ?! ? ??
                                           and ! from the expected score lost, the best line
                                           after mistakes, a summary per side; --graph: an
                                           SVG per game (default 1 s a position; --nodes: one
                                           thread, repeatable; exit 1 if a game was skipped)";

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
                .unwrap_or_else(|| USAGE.to_string());
            eprintln!("betacut: {message}\n{usage}");
            ExitCode::from(2)
        }
    }
}

/// The part of [`USAGE`] about `command`: its entries (`book` has two) with their
/// continuation and description lines, or `None` for a word that is no command.
pub fn command_usage(command: &str) -> Option<String> {
    // `uci` shares its entry with `xboard`.
    let command = if command == "uci" { "xboard" } else { command };
    let starts = |line: &str| {
        line.strip_prefix("  betacut ").is_some_and(|rest| {
            rest.split([' ', '|'])
                .next()
                .is_some_and(|word| word == command)
        })
    };
    let mut lines = Vec::new();
    let mut inside = false;
    for line in USAGE.lines().skip(1) {
        if line.starts_with("  betacut ") || line.trim().is_empty() || line.starts_with("  (") {
            inside = starts(line);
        }
        if inside {
            lines.push(line);
        }
    }
    (!lines.is_empty()).then(|| format!("usage:\n{}", lines.join("\n")))
}

/// True if `args` ask for help: `--help` or `-h` anywhere among them.
fn asks_for_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

/// Dispatches one command line.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(command) = args.first() else {
        crate::protocol::run_stdio();
        return Ok(ExitCode::SUCCESS);
    };
    let rest = &args[1..];
    // `betacut COMMAND --help`: that command's usage on standard output.
    if asks_for_help(rest) {
        if let Some(usage) = command_usage(command) {
            println!("{usage}");
            return Ok(ExitCode::SUCCESS);
        }
    }
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
        "tunables" if rest.is_empty() => {
            print!("{}", crate::search::params::table_text());
            Ok(ExitCode::SUCCESS)
        }
        "book" => super::book::run(rest),
        "probe" => run_probe(rest),
        "annotate" => super::annotate::run(rest),
        "xboard" | "uci" | "tunables" => Err(format!(
            "{command} takes no arguments (given: {})",
            rest.join(" ")
        )),
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

fn run_bench(args: &[String]) -> Result<ExitCode, String> {
    let depth = match args.first().filter(|a| !a.starts_with("--")) {
        Some(text) => text
            .parse::<u32>()
            .map_err(|_| format!("bad depth {text:?}"))?,
        None => bench::DEFAULT_BENCH_DEPTH,
    };
    let network = net_option(args)?;
    let summary = bench::run_bench(depth, network.as_ref(), |line| eprintln!("{line}"));
    // The network's vector instructions: every path gives the same nodes, at its own speed.
    eprintln!(
        "network path: {}",
        crate::eval::nnue::SimdLevel::current().name()
    );
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
    let network = net_option(args)?;
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
    let outcomes = epd::run_epd(
        &cases,
        &limits,
        hash,
        threads,
        network,
        &mut show_iteration,
        |o| {
            let mark = if o.solved { "ok  " } else { "FAIL" };
            println!("{mark} {:12} played {:8} {}", o.id, o.played, o.expected);
        },
    );
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
    // Like a test runner: a script can tell from the status alone whether every position
    // was solved.
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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

#[cfg(test)]
mod tests {
    use super::{command_usage, run, USAGE};
    use std::process::ExitCode;

    #[test]
    fn each_command_has_its_own_usage() {
        let commands = [
            "xboard",
            "uci",
            "perft",
            "divide",
            "perft-suite",
            "bench",
            "epd",
            "tunables",
            "book",
            "probe",
            "annotate",
        ];
        for command in commands {
            let Some(usage) = command_usage(command) else {
                panic!("no usage for {command}");
            };
            let entries: Vec<&str> = usage
                .lines()
                .filter(|l| l.starts_with("  betacut "))
                .collect();
            // Its own entries only: `book` has two, every other command one.
            assert_eq!(entries.len(), 1 + usize::from(command == "book"), "{usage}");
            let named = if command == "uci" { "xboard" } else { command };
            assert!(
                entries
                    .iter()
                    .all(|e| e.starts_with(&format!("  betacut {named} "))),
                "{usage}"
            );
        }
        // The continuation and description lines come with their entry.
        assert!(command_usage("epd").is_some_and(|u| u.contains("--verbose")));
        assert!(command_usage("annotate").is_some_and(|u| u.contains("exit 1 if a game")));
        assert!(command_usage("bench").is_some_and(|u| !u.contains("bm/am")));
        assert_eq!(command_usage("castle"), None);
        // The lab's commands are not the engine's.
        for lab in ["datagen", "datagen-text", "tune", "train"] {
            assert_eq!(command_usage(lab), None, "{lab}");
            assert!(run(&[lab.to_string()]).is_err(), "{lab}");
        }
        assert!(USAGE.contains(&command_usage("probe").unwrap_or_default()[7..]));
    }

    #[test]
    fn help_after_a_command_succeeds_and_stray_arguments_are_named() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(run(&args(&["perft", "--help"])), Ok(ExitCode::SUCCESS));
        assert_eq!(
            run(&args(&["annotate", "games.pgn", "-h"])),
            Ok(ExitCode::SUCCESS)
        );
        let Err(message) = run(&args(&["tunables", "x"])) else {
            panic!("tunables x is refused");
        };
        assert!(message.contains("takes no arguments"), "{message}");
        let Err(message) = run(&args(&["xboard", "now"])) else {
            panic!("xboard now is refused");
        };
        assert!(message.contains("xboard takes no arguments"), "{message}");
        assert!(run(&args(&["castle", "--help"])).is_err());
    }
}
