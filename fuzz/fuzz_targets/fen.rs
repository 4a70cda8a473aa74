//! FEN parsing (`Position::from_fen`): any text either gives a `FenError` or a position that
//! passes `check_position` (FEN round trip, keys, legal moves made and unmade, move text).

#![no_main]

use betacut::board::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_fen(&text) {
        betacut_fuzz::check_position(&pos);
        let mut pos = pos;
        betacut::board::perft::perft(&mut pos, 2);
    }
});
