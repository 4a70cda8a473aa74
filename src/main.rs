//! Betacut's command line: no arguments starts the XBoard protocol loop; subcommands run tools.

use betacut::board::Position;
use betacut::tools::perft;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  betacut [xboard]                         XBoard (CECP v2) protocol on stdin/stdout
  betacut --version                        print name and version
  betacut perft <depth> [--fen FEN]        count leaf nodes, print time and Mnps
  betacut divide <depth> [--fen FEN]       perft split by root move
  betacut perft-suite <file.epd> [--max-depth N]
                                           check an EPD perft suite (exit 1 on mismatch)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!(
                "betacut: {message}\n{USAGE}\n{}",
                betacut::tools::cli::TOOLS_USAGE
            );
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(command) = args.first() else {
        betacut::protocol::run_stdio();
        return Ok(ExitCode::SUCCESS);
    };
    let rest = &args[1..];
    match command.as_str() {
        "xboard" if rest.is_empty() => {
            betacut::protocol::run_stdio();
            Ok(ExitCode::SUCCESS)
        }
        "-h" | "--help" | "help" => {
            println!("{USAGE}\n{}", betacut::tools::cli::TOOLS_USAGE);
            Ok(ExitCode::SUCCESS)
        }
        "-v" | "--version" | "version" => {
            println!("{}", betacut::protocol::features::engine_name());
            Ok(ExitCode::SUCCESS)
        }
        "perft" | "divide" => {
            let depth = parse_depth(rest.first())?;
            let mut pos = position_option(&rest[1..])?;
            let start = Instant::now();
            let nodes = if command == "perft" {
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
        "perft-suite" => {
            let path = rest.first().ok_or("perft-suite needs a file")?;
            let max_depth = match flag_value(&rest[1..], "--max-depth") {
                Some(v) => Some(
                    v.parse::<u32>()
                        .map_err(|_| format!("bad --max-depth {v:?}"))?,
                ),
                None => None,
            };
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
        other => betacut::tools::cli::run_tool(other, rest)
            .unwrap_or_else(|| Err(format!("unknown command {other:?}"))),
    }
}

fn parse_depth(arg: Option<&String>) -> Result<u32, String> {
    let text = arg.ok_or("missing depth")?;
    text.parse::<u32>()
        .map_err(|_| format!("bad depth {text:?}"))
}

/// The value after `flag`, if present.
fn flag_value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a == flag)?;
    args.get(i + 1).map(String::as_str)
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
