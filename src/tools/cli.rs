//! Betacut's command line, the one dispatcher: no arguments starts the protocol loop (XBoard
//! or UCI, chosen by the first command); subcommands run the tools: `perft`, `divide`,
//! `perft-suite`, `bench`, `epd`, `tunables`, `book`, `probe` and `annotate`. Data generation,
//! training and tuning are the lab's (`betacut-lab`, in lab/).

use super::args::net_option;
use super::command::{Command, Flag, Kind, Parsed, Positional};
use super::{epd, perft, probe};
use crate::board::Position;
use crate::search::bench;
use crate::search::SearchReport;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// `--net FILE`: the evaluation of bench, epd and annotate.
pub const NET: Flag = Flag::new(
    &["--net"],
    "FILE",
    Kind::Text,
    "evaluate with this network (default: the built-in one)",
);
/// `--hce`: the hand-crafted evaluation.
pub const HCE: Flag = Flag::new(
    &["--hce"],
    "",
    Kind::Switch,
    "evaluate with the hand-crafted evaluation",
);
const FEN: Flag = Flag::new(
    &["--fen"],
    "FEN",
    Kind::Words,
    "the position (one quoted word or several; default: the start position)",
);
const THREADS: Flag = Flag::new(&["--threads"], "N", Kind::Int, "search threads");
const HASH: Flag = Flag::new(&["--hash"], "MB", Kind::Int, "hash table size (default 64)");

/// `betacut perft`.
pub const PERFT: Command = Command::new(
    "betacut",
    "perft",
    &[Positional::new("<depth>", true, false)],
    &[FEN],
    "count leaf nodes, print time and Mnps",
);
/// `betacut divide`.
pub const DIVIDE: Command = Command::new(
    "betacut",
    "divide",
    &[Positional::new("<depth>", true, false)],
    &[FEN],
    "perft split by root move",
);
/// `betacut perft-suite`.
pub const PERFT_SUITE: Command = Command::new(
    "betacut",
    "perft-suite",
    &[Positional::new("<file.epd>", true, false)],
    &[Flag::new(
        &["--max-depth"],
        "N",
        Kind::Int,
        "check no deeper than N",
    )],
    "check an EPD perft suite (exit 1 on mismatch)",
);
/// `betacut bench`.
pub const BENCH: Command = Command::new(
    "betacut",
    "bench",
    &[Positional::new("[depth]", false, false)],
    &[NET, HCE],
    "fixed positions, fixed depth: `<nodes> nodes <nps> nps`",
);
/// `betacut epd`.
pub const EPD: Command = Command::new(
    "betacut",
    "epd",
    &[Positional::new("<file.epd>", true, false)],
    &[
        Flag::new(
            &["--movetime"],
            "MS",
            Kind::Int,
            "time a position (default 1000)",
        ),
        Flag::new(
            &["--depth"],
            "N",
            Kind::Int,
            "search each position to depth N",
        ),
        Flag::new(&["--nodes"], "N", Kind::Int, "search each position N nodes"),
        THREADS,
        HASH,
        NET,
        HCE,
        Flag::new(
            &["--verbose"],
            "",
            Kind::Switch,
            "print every iteration of every search",
        ),
    ],
    "run a bm/am test suite, print solved/total
     (exit 1 if a position was not solved)",
);
/// `betacut tunables`.
pub const TUNABLES: Command = Command::new(
    "betacut",
    "tunables",
    &[],
    &[],
    "the search constants SPSA tunes (lab/scripts/spsa.py):
     `name default min max step` per line; a build
     with the feature `tune` takes them as UCI options",
);
/// `betacut book make`.
pub const BOOK_MAKE: Command = Command::new(
    "betacut",
    "book make",
    &[
        Positional::new("<games.pgn>", true, false),
        Positional::new("<out.bin>", true, false),
    ],
    &[
        Flag::new(
            &["--plies"],
            "N",
            Kind::Int,
            "book moves up to ply N (default 24)",
        ),
        Flag::new(
            &["--min-games"],
            "N",
            Kind::Int,
            "moves seen in at least N games (default 3)",
        ),
    ],
    "make a Polyglot book from PGN games",
);
/// `betacut book show`.
pub const BOOK_SHOW: Command = Command::new(
    "betacut",
    "book show",
    &[
        Positional::new("<book.bin>", true, false),
        Positional::new("[FEN]", false, true),
    ],
    &[],
    "a book's moves for a position (default: start)",
);
/// `betacut probe`.
pub const PROBE: Command = Command::new(
    "betacut",
    "probe",
    &[Positional::new("[FEN]", false, true)],
    &[
        Flag::new(
            &["--syzygy"],
            "DIRS",
            Kind::Text,
            "table directories, separated by `:` (`;` on Windows)",
        ),
        Flag::new(
            &["--file"],
            "F",
            Kind::Text,
            "probe every position of this file",
        ),
        Flag::new(
            &["--bench"],
            "ROUNDS",
            Kind::OptionalInt,
            "time the WDL probes instead (default 20 rounds)",
        ),
    ],
    "Syzygy WDL and DTZ: `<FEN> ;wdl W ;dtz D` per
     position (default: the start position)",
);
/// `betacut annotate`.
pub const ANNOTATE: Command = Command::new(
    "betacut",
    "annotate",
    &[Positional::new("<games.pgn>", true, false)],
    &[
        Flag::new(
            &["-o", "--output"],
            "FILE",
            Kind::Text,
            "write the PGN here (default: stdout)",
        ),
        Flag::new(
            &["--movetime"],
            "MS",
            Kind::Int,
            "time a position (default 1000)",
        ),
        Flag::new(
            &["--nodes"],
            "N",
            Kind::Int,
            "search N nodes a position, one thread (repeatable)",
        ),
        Flag::new(
            &["--depth"],
            "D",
            Kind::Int,
            "search each position to depth D",
        ),
        THREADS,
        HASH,
        Flag::new(
            &["--syzygy"],
            "DIRS",
            Kind::Text,
            "Syzygy tables for the endgame",
        ),
        Flag::new(
            &["--book"],
            "FILE",
            Kind::Text,
            "Polyglot book: its moves are not judged",
        ),
        Flag::new(
            &["--side"],
            "white|black|both",
            Kind::Text,
            "whose moves to judge",
        ),
        Flag::new(&["--from-move"], "N", Kind::Int, "judge from move N on"),
        Flag::new(
            &["--graph"],
            "DIR",
            Kind::Text,
            "an SVG evaluation graph per game in DIR",
        ),
        NET,
        HCE,
    ],
    "review games: [%eval] after every move, ?! ? ??
     and ! from the expected score lost, the best line
     after mistakes, a summary per side
     (exit 1 if a game was skipped)",
);

/// Every tool command, in the order of the help.
pub const COMMANDS: [Command; 11] = [
    PERFT,
    DIVIDE,
    PERFT_SUITE,
    BENCH,
    EPD,
    TUNABLES,
    BOOK_MAKE,
    BOOK_SHOW,
    PROBE,
    ANNOTATE,
    // Kept last so that the help lists the tools first.
    XBOARD,
];

/// `betacut xboard | uci`.
const XBOARD: Command = Command::new(
    "betacut",
    "xboard",
    &[],
    &[],
    "the protocol loop, naming the protocol in advance (or `uci`)",
);

/// The head of the help: playing and the version.
const HEAD: &str = "usage:
  betacut                                  play: XBoard (CECP v2) or UCI on stdin/stdout, as the
                                           first command says (`uci`, or `xboard`/`protover`)
  betacut xboard | uci                     the same, naming the protocol in advance
  betacut --version                        print name and version
  betacut --help [COMMAND]                 this help, or one command's usage and flags";

/// Usage of the whole command line: every command's entry.
pub fn usage() -> String {
    let mut text = HEAD.to_string();
    for command in COMMANDS.iter().filter(|c| c.name != "xboard") {
        text.push('\n');
        text.push_str(&command.entry());
    }
    text
}

/// Runs the command line `args` (without the program name) and returns the exit code; errors
/// print the command's usage (all of it for an unknown command) to standard error and exit
/// with 2.
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            let usage = command_usage(args).unwrap_or_else(usage);
            crate::errln!("betacut: {message}\n{usage}");
            ExitCode::from(2)
        }
    }
}

/// The definition of the command `args` starts with (`book` needs its second word), or `None`
/// for a word that is no command.
pub fn find_command(args: &[String]) -> Option<&'static Command> {
    let first = args.first()?.as_str();
    let first = if first == "uci" { "xboard" } else { first };
    let name = match (first, args.get(1)) {
        ("book", Some(sub)) => format!("book {sub}"),
        _ => first.to_string(),
    };
    COMMANDS.iter().find(|c| c.name == name)
}

/// The usage of the command `args` start with: `book` alone shows both of its commands.
pub fn command_usage(args: &[String]) -> Option<String> {
    if let Some(command) = find_command(args) {
        return Some(command.usage());
    }
    (args.first().map(String::as_str) == Some("book"))
        .then(|| format!("{}\n{}", BOOK_MAKE.usage(), BOOK_SHOW.usage()))
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
        if let Some(usage) = command_usage(args) {
            crate::outln!("{usage}");
            return Ok(ExitCode::SUCCESS);
        }
    }
    match command.as_str() {
        "xboard" | "uci" if rest.is_empty() => {
            crate::protocol::run_stdio_with(command);
            Ok(ExitCode::SUCCESS)
        }
        "-h" | "--help" | "help" => match rest {
            [] => {
                crate::outln!("{}", usage());
                Ok(ExitCode::SUCCESS)
            }
            _ => {
                let usage = command_usage(rest)
                    .ok_or_else(|| format!("unknown command {:?}", rest.join(" ")))?;
                crate::outln!("{usage}");
                Ok(ExitCode::SUCCESS)
            }
        },
        "-v" | "--version" | "version" => {
            crate::outln!("{}", crate::engine::engine_name());
            Ok(ExitCode::SUCCESS)
        }
        "perft" => run_perft(true, &parse(&PERFT, rest)?),
        "divide" => run_perft(false, &parse(&DIVIDE, rest)?),
        "perft-suite" => run_perft_suite(&parse(&PERFT_SUITE, rest)?),
        "bench" => run_bench(&parse(&BENCH, rest)?),
        "epd" => run_epd(&parse(&EPD, rest)?),
        "tunables" if rest.is_empty() => {
            let table = crate::search::params::table_text();
            crate::outln!("{}", table.strip_suffix('\n').unwrap_or(&table));
            Ok(ExitCode::SUCCESS)
        }
        "book" => match rest.first().map(String::as_str) {
            Some("make") => super::book::make(&parse(&BOOK_MAKE, &rest[1..])?),
            Some("show") => super::book::show(&parse(&BOOK_SHOW, &rest[1..])?),
            Some(other) => Err(format!("unknown book command {other:?} (make or show)")),
            None => Err("book needs make or show".to_string()),
        },
        "probe" => run_probe(&parse(&PROBE, rest)?),
        "annotate" => super::annotate::run(&parse(&ANNOTATE, rest)?),
        "xboard" | "uci" | "tunables" => Err(format!(
            "{command} takes no arguments (given: {})",
            rest.join(" ")
        )),
        other => Err(format!("unknown command {other:?}")),
    }
}

/// `args` parsed by `command`'s definition, the error as text.
fn parse(command: &Command, args: &[String]) -> Result<Parsed, String> {
    command.parse(args).map_err(|e| e.to_string())
}

fn run_perft(total_only: bool, args: &Parsed) -> Result<ExitCode, String> {
    let text = &args.positionals()[0];
    let depth = text
        .parse::<u32>()
        .map_err(|_| format!("bad depth {text:?}"))?;
    let mut pos = position_option(args)?;
    let start = Instant::now();
    let nodes = if total_only {
        perft::perft(&mut pos, depth)
    } else {
        let split = perft::divide(&mut pos, depth);
        for (mv, n) in &split {
            crate::outln!("{}: {n}", pos.move_to_coordinate(*mv));
        }
        crate::outln!("moves: {}", split.len());
        split.iter().map(|(_, n)| n).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    crate::outln!(
        "nodes {nodes} time {secs:.3} s {:.1} Mnps",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(ExitCode::SUCCESS)
}

fn run_perft_suite(args: &Parsed) -> Result<ExitCode, String> {
    let path = &args.positionals()[0];
    let max_depth = args.value::<u32>("--max-depth")?;
    let entries = perft::load_suite(Path::new(path)).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let summary = perft::run_suite(&entries, max_depth, |entry, depth, found| {
        let ok = entry.counts.iter().any(|&(d, n)| d == depth && n == found);
        if !ok {
            crate::outln!(
                "MISMATCH line {} D{depth}: found {found} | {}",
                entry.line,
                entry.fen
            );
        }
    });
    let secs = start.elapsed().as_secs_f64();
    for failure in &summary.failures {
        crate::outln!("{failure}");
    }
    crate::outln!(
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
fn position_option(args: &Parsed) -> Result<Position, String> {
    match args.text("--fen") {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN {fen:?}: {e}")),
        None => Ok(Position::startpos()),
    }
}

fn run_bench(args: &Parsed) -> Result<ExitCode, String> {
    let depth = match args.positionals().first() {
        Some(text) => text
            .parse::<u32>()
            .map_err(|_| format!("bad depth {text:?}"))?,
        None => bench::DEFAULT_BENCH_DEPTH,
    };
    let network = net_option(args)?;
    let summary = bench::run_bench(depth, network.as_ref(), |line| crate::errln!("{line}"));
    // The network's vector instructions: every path gives the same nodes, at its own speed.
    crate::errln!(
        "network path: {}",
        crate::eval::nnue::SimdLevel::current().name()
    );
    crate::outln!("{} nodes {} nps", summary.nodes, summary.nps);
    Ok(ExitCode::SUCCESS)
}

fn run_epd(args: &Parsed) -> Result<ExitCode, String> {
    let path = &args.positionals()[0];
    let cases = epd::load_epd(Path::new(path)).map_err(|e| e.to_string())?;
    let limits = epd::suite_limits(
        args.value("--movetime")?,
        args.value("--depth")?,
        args.value("--nodes")?,
    );
    let threads = args.value("--threads")?.unwrap_or(1);
    let hash = args.value("--hash")?.unwrap_or(64);
    let network = net_option(args)?;
    let start = Instant::now();
    let verbose = args.has("--verbose");
    let mut show_iteration = |pos: &mut Position, r: &SearchReport| {
        if verbose {
            crate::outln!(
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
            crate::outln!("{mark} {:12} played {:8} {}", o.id, o.played, o.expected);
        },
    );
    let solved = outcomes.iter().filter(|o| o.solved).count();
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.solved)
        .map(|o| o.id.as_str())
        .collect();
    crate::outln!("failed: {}", failed.join(" "));
    crate::outln!(
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

fn run_probe(args: &Parsed) -> Result<ExitCode, String> {
    let dirs = args.text("--syzygy").ok_or("probe needs --syzygy DIRS")?;
    let tables = crate::tb::Tablebases::open(dirs).map_err(|e| e.to_string())?;
    for problem in tables.problems() {
        crate::errln!("betacut: {problem}");
    }
    let fen = args.positionals().join(" ");
    let lines: Vec<String> = match args.text("--file") {
        Some(_) if !fen.is_empty() => {
            return Err("probe takes a FEN or --file, not both".to_string())
        }
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {path}: {e}"))?
            .lines()
            .filter_map(probe::fen_of_line)
            .map(str::to_string)
            .collect(),
        None if fen.is_empty() => vec![crate::board::START_FEN.to_string()],
        None => vec![fen],
    };
    if args.has("--bench") {
        let rounds = args.value::<u32>("--bench")?.unwrap_or(20).max(1);
        let positions: Vec<Position> = lines
            .iter()
            .filter_map(|fen| Position::from_fen(fen).ok())
            .collect();
        let dirs: Vec<PathBuf> = std::env::split_paths(dirs).collect();
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
