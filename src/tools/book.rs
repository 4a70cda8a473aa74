//! `betacut book make` and `betacut book show`: make a Polyglot book from PGN games, and print
//! a book's moves for a position.

use crate::board::Position;
use crate::book::make::{write_book, BookMaker, MakeOptions, DEFAULT_MIN_GAMES, DEFAULT_PLIES};
use crate::book::pgn::PgnReader;
use crate::book::player::share_lines;
use crate::book::reader::{total_weight, Book};
use crate::tools::command::Parsed;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::Path;
use std::process::ExitCode;

/// Runs `book make <games.pgn> <out.bin> [--plies N] [--min-games N]`.
pub fn make(args: &Parsed) -> Result<ExitCode, String> {
    let (pgn_path, out_path) = (&args.positionals()[0], &args.positionals()[1]);
    let options = MakeOptions {
        plies: args.value("--plies")?.unwrap_or(DEFAULT_PLIES),
        min_games: args.value("--min-games")?.unwrap_or(DEFAULT_MIN_GAMES),
    };
    let file = File::open(pgn_path).map_err(|e| format!("cannot read {pgn_path}: {e}"))?;
    let mut maker = BookMaker::new(options);
    let (mut used, mut plies) = (0usize, 0usize);
    for game in PgnReader::new(BufReader::new(file)) {
        let game = game.map_err(|e| format!("{pgn_path}: {e}"))?;
        let number = maker.games() + 1;
        for problem in &game.problems {
            crate::errln!("{pgn_path}: game {number}: {problem}");
        }
        let added = maker.add_game(&game);
        if let Some(why) = &added.problem {
            crate::errln!("{pgn_path}: game {number} (line {}): {why}", game.line);
        }
        if added.plies > 0 {
            used += 1;
            plies += added.plies;
        }
    }
    let games = maker.games();
    let entries = maker.finish();
    let mut keys: Vec<u64> = entries.iter().map(|e| e.key).collect();
    keys.dedup();
    let out = File::create(out_path).map_err(|e| format!("cannot create {out_path}: {e}"))?;
    write_book(&entries, &mut BufWriter::new(out))
        .map_err(|e| format!("writing {out_path}: {e}"))?;
    crate::outln!(
        "{games} games read, {used} used, {plies} plies (at most {} a game); {} entries for {} \
         positions (--min-games {}) written to {out_path}",
        options.plies,
        entries.len(),
        keys.len(),
        options.min_games
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs `book show <book.bin> [FEN]`.
pub fn show(args: &Parsed) -> Result<ExitCode, String> {
    let path = &args.positionals()[0];
    let mut book = Book::open(Path::new(path)).map_err(|e| e.to_string())?;
    let fen = args.positionals()[1..].join(" ");
    let pos = if fen.trim().is_empty() {
        Position::startpos()
    } else {
        Position::from_fen(&fen).map_err(|e| format!("bad FEN {fen:?}: {e}"))?
    };
    let raw = book.entries_for_key(pos.key()).map_err(|e| e.to_string())?;
    let moves = book.moves(&pos).map_err(|e| e.to_string())?;
    crate::outln!("book {path}: {} entries", book.len());
    crate::outln!("position {} (key {:016x})", pos.to_fen(), pos.key());
    if moves.is_empty() {
        crate::outln!("no book moves in this position");
    } else {
        for line in share_lines(&pos, &moves) {
            crate::outln!("{line}");
        }
        crate::outln!(
            "{} book moves, total weight {}",
            moves.len(),
            total_weight(&moves)
        );
    }
    if raw.len() > moves.len() {
        crate::outln!(
            "{} entries with this key have a move that is not legal here (ignored)",
            raw.len() - moves.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
