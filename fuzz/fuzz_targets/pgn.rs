//! The one PGN reader (`betacut::book::pgn`) and both of its users: the book maker, which plays
//! each game's main line (and whose book must then open and answer), and `annotate`, which
//! checks every move of every variation (`annotate::game::build`).

#![no_main]

use betacut::book::make::{write_book, BookMaker, MakeOptions};
use betacut::book::pgn::split_games;
use betacut::book::Book;
use betacut::tools::annotate::game::{build, Line};
use libfuzzer_sys::fuzz_target;

/// Replays a checked line from `pos`: every move legal, its SAN the one stored, and every
/// variation legal from the position before its move.
fn replay(line: &Line, pos: &betacut::board::Position) {
    let mut pos = pos.clone();
    for node in &line.nodes {
        for variation in &node.variations {
            replay(variation, &pos);
        }
        assert!(pos.legal_moves().contains(node.mv), "an illegal move kept");
        assert_eq!(pos.move_to_san(node.mv), node.san);
        pos.make_move(node.mv);
    }
}

fuzz_target!(|data: &[u8]| {
    let games = split_games(data);
    let mut maker = BookMaker::new(MakeOptions {
        plies: 24,
        min_games: 1,
    });
    for (i, raw) in games.iter().enumerate() {
        maker.add_game(raw);
        if let Ok(game) = build(raw, i + 1) {
            replay(&game.main, &game.start);
        }
    }
    let entries = maker.finish();
    if entries.is_empty() {
        return;
    }
    let mut bytes = Vec::new();
    if let Err(err) = write_book(&entries, &mut bytes) {
        panic!("writing to memory failed: {err}");
    }
    let mut book = match Book::from_bytes(bytes, "made.bin") {
        Ok(book) => book,
        Err(err) => panic!("a book the maker wrote does not open: {err}"),
    };
    let start = betacut::board::Position::startpos();
    if let Err(err) = book.moves(&start) {
        panic!("a made book in memory fails a lookup: {err}");
    }
});
