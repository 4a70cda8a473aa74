//! The Polyglot book reader on arbitrary bytes (`Book::from_bytes`, the checks `Book::open`
//! makes on a file): a book that opens answers lookups of the probe positions with legal moves
//! only, and every stored move decodes to a legal move or to none.

#![no_main]

use betacut::board::Position;
use betacut::book::player::{listing, share_lines};
use betacut::book::polyglot::{decode_move, raw_move_text};
use betacut::book::reader::best_move;
use betacut::book::Book;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(betacut_fuzz::probe_positions)
}

fuzz_target!(|data: &[u8]| {
    let Ok(mut book) = Book::from_bytes(data.to_vec(), "fuzz.bin") else {
        return;
    };
    assert!(!book.is_empty() && book.len() * 16 == data.len() as u64);
    for pos in positions() {
        let moves = book.moves(pos);
        if let Ok(moves) = &moves {
            for m in moves {
                assert!(pos.legal_moves().contains(m.mv), "an illegal book move");
            }
            best_move(moves);
            share_lines(pos, moves);
        }
        listing(pos, true, false, moves);
    }
    // Every stored move, decoded in every probe position; its key looked up.
    for index in 0..book.len().min(64) {
        let Ok(entry) = book.entry(index) else {
            panic!("entry {index} of an open book in memory cannot be read");
        };
        raw_move_text(entry.raw_move);
        for pos in positions() {
            if let Some(mv) = decode_move(pos, entry.raw_move) {
                assert!(pos.legal_moves().contains(mv), "an illegal decoded move");
            }
        }
        match book.entries_for_key(entry.key) {
            Ok(found) => assert!(
                found.contains(&entry),
                "a stored entry not found by its key"
            ),
            Err(err) => panic!("a lookup in memory failed: {err}"),
        }
    }
});
