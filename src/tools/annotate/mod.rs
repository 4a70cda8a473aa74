//! `betacut annotate`: reviews the games of a PGN file. Every main-line move gets the
//! evaluation after it (`[%eval ...]`), the moves that lose expected score get `?!`, `?` or
//! `??` and the engine's line, the only good moves `!`; each game gets a summary per side
//! (tags and a closing comment) and, on request, an evaluation graph (SVG). Games that cannot
//! be read are reported as `file:line: why` and skipped. docs/annotate.md is the manual.
//!
//! - [`crate::book::pgn`] splits the file into games and tokens, [`game`] checks the moves,
//! - [`analyse`] searches the positions and [`judge`] turns scores into verdicts,
//! - [`summary`] adds them up, [`pgn_out`] writes the PGN, [`graph`] the SVG.

pub mod analyse;
mod error;
pub mod eval;
pub mod game;
pub mod graph;
pub mod judge;
pub mod pgn_out;
pub mod summary;

pub use error::GameError;

use super::args::{clock, default_threads, net_option};
use super::command::Parsed;
use crate::book::Book;
use crate::search::{SearchLimits, Searcher};
use crate::tb::Tablebases;
use analyse::{Analyser, Sides};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Exit status when some game was skipped (the others were annotated).
pub const EXIT_SKIPPED: u8 = 1;

/// Runs `betacut annotate` with `args` (after the command name): 0 when every game was
/// annotated, 1 when some were skipped; an `Err` (exit 2) for a command line or a file it
/// cannot use.
pub fn run(args: &Parsed) -> Result<ExitCode, String> {
    let input = &args.positionals()[0];
    let output = args.text("-o").map(PathBuf::from);
    let nodes: Option<u64> = args.value("--nodes")?;
    let mut limits = SearchLimits {
        nodes,
        depth: args.value("--depth")?,
        movetime: args.value::<u64>("--movetime")?.map(Duration::from_millis),
        ..SearchLimits::default()
    };
    if limits.nodes.is_none() && limits.depth.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(Duration::from_secs(1));
    }
    let budget = budget_text(&limits);
    let threads = match (nodes, args.value::<usize>("--threads")?) {
        (Some(_), Some(n)) if n > 1 => {
            crate::errln!("annotate: --nodes searches with one thread, so that the output repeats");
            1
        }
        (Some(_), _) => 1,
        (None, given) => given.unwrap_or_else(default_threads),
    };
    let sides: Sides = args.text("--side").map_or(Ok(Sides::Both), str::parse)?;
    let from_move: u32 = args.value("--from-move")?.unwrap_or(1);
    let tables = match args.text("--syzygy") {
        Some(dirs) => {
            let tables = Tablebases::open(dirs).map_err(|e| e.to_string())?;
            for problem in tables.problems() {
                crate::errln!("annotate: {problem}");
            }
            Some(Arc::new(tables))
        }
        None => None,
    };
    let book = match args.text("--book") {
        Some(path) => Some(Book::open(Path::new(path)).map_err(|e| e.to_string())?),
        None => None,
    };
    let graph_dir: Option<PathBuf> = args.text("--graph").map(PathBuf::from);
    if let Some(dir) = &graph_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut searcher = Searcher::new(1);
    searcher
        .set_hash_size(args.value("--hash")?.unwrap_or(64))
        .map_err(|e| e.to_string())?;
    searcher.set_threads(threads);
    searcher.set_network(net_option(args)?);
    let mut analyser = Analyser::new(searcher, limits, tables, book, sides, from_move);

    let bytes = std::fs::read(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let mut out: Box<dyn Write> = match &output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let name = Path::new(input).display().to_string();
    let raw = crate::book::pgn::split_games(&bytes);
    let mut games = Vec::new();
    let mut skipped = 0;
    for (index, raw_game) in raw.iter().enumerate() {
        match game::build(raw_game, index + 1) {
            Ok(game) => games.push(game),
            Err(error) => {
                crate::errln!(
                    "{name}:{}: {error} (game {} skipped)",
                    error.line(),
                    index + 1
                );
                skipped += 1;
            }
        }
    }
    let total: usize = games.iter().map(|g| analyser.searches(g)).sum();
    let count = raw.len();
    let annotator = crate::engine::engine_name();
    let start = Instant::now();
    let mut done = 0;
    for game in &games {
        let mut last_report = Instant::now();
        let mut progress = |searched: usize, fullmove: u32| {
            if last_report.elapsed() >= Duration::from_secs(1) {
                last_report = Instant::now();
                crate::errln!(
                    "{}",
                    progress_line(game.number, count, fullmove, start, done + searched, total)
                );
            }
        };
        let plies = analyser.analyse(game, &mut progress);
        done += analyser.searches(game);
        let summary = summary::summarise(&plies);
        let notes = pgn_out::Annotations {
            plies: &plies,
            summary: &summary,
            sides,
            annotator: &annotator,
            budget: &budget,
        };
        out.write_all(pgn_out::write_game(game, &notes).as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("writing the output: {e}"))?;
        if let Some(dir) = &graph_dir {
            let path = dir.join(format!("game-{:03}.svg", game.number));
            std::fs::write(&path, graph::svg(game, &plies))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        let moves = game.main.nodes.last().map_or(0, |_| {
            analyse::positions(game)
                .last()
                .map_or(0, |p| p.fullmove_number())
        });
        crate::errln!(
            "{}",
            progress_line(game.number, count, moves, start, done, total)
        );
    }
    crate::errln!(
        "annotate: {} of {count} games annotated, {skipped} skipped, in {:.1} s",
        games.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(if skipped > 0 {
        ExitCode::from(EXIT_SKIPPED)
    } else {
        ExitCode::SUCCESS
    })
}

/// `annotate: game 2 of 5, move 14, elapsed 0:00:12, ETA 0:00:40`.
fn progress_line(
    game: usize,
    games: usize,
    fullmove: u32,
    start: Instant,
    done: usize,
    total: usize,
) -> String {
    let elapsed = start.elapsed();
    let eta = Duration::from_secs_f64(
        elapsed.as_secs_f64() / done.max(1) as f64 * total.saturating_sub(done) as f64,
    );
    format!(
        "annotate: game {game} of {games}, move {fullmove}, elapsed {}, ETA {}",
        clock(elapsed),
        clock(eta)
    )
}

/// How each position is searched, in words (`100000 nodes`, `1000 ms`, `depth 12`).
fn budget_text(limits: &SearchLimits) -> String {
    let mut parts = Vec::new();
    if let Some(nodes) = limits.nodes {
        parts.push(format!("{nodes} nodes"));
    }
    if let Some(depth) = limits.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(time) = limits.movetime {
        parts.push(format!("{} ms", time.as_millis()));
    }
    format!("{} per position", parts.join(", "))
}
