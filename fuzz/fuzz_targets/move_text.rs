//! Move text: coordinates (`e2e4`, `e7e8q`, castling as `e1g1` or `e1h1`) and SAN (`Nbd7`,
//! `exd6`, `O-O`, `b8=Q+`) in fixed positions (the start, a Chess960 game, castling,
//! promotions and en passant from both sides). Parsing never panics, a parsed move is legal
//! and prints as text that parses back to it.

#![no_main]

use betacut::board::{Move, MoveParseError, Position};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(betacut_fuzz::probe_positions)
}

fn check(pos: &Position, parsed: Result<Move, MoveParseError>) {
    if let Ok(mv) = parsed {
        assert!(pos.legal_moves().contains(mv), "an illegal move parsed");
        betacut_fuzz::check_move_text(&mut pos.clone(), mv);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let words = std::iter::once(text.as_ref()).chain(text.split_whitespace().take(8));
    for word in words {
        for pos in positions() {
            check(pos, pos.parse_move(word));
            check(pos, pos.parse_coordinate(word));
            check(pos, pos.parse_san(word));
        }
    }
});
