//! Syzygy table files from bytes (`Tablebases::from_memory`, which parses a file's header as
//! `Tablebases::open` does a file on disk). The input is a file name line (`KQvKR.rtbw`), then
//! the file's bytes; a table that loads is probed (WDL and DTZ) in a dozen positions of its
//! material, each side to move. A corrupt table must give an error, never a panic.

#![no_main]

use betacut::board::Position;
use betacut::tb::Tablebases;
use libfuzzer_sys::fuzz_target;

/// Up to `count` legal positions with the pieces of the table name's stem (`KQvKR`: White's
/// side first), placed on pseudo-random squares, each with both sides to move.
fn positions(stem: &str, count: u64) -> Vec<Position> {
    let Some((white, black)) = stem.split_once('v') else {
        return Vec::new();
    };
    let pieces: Vec<char> = white
        .chars()
        .map(|c| c.to_ascii_uppercase())
        .chain(black.chars().map(|c| c.to_ascii_lowercase()))
        .collect();
    if pieces.len() > 8 {
        return Vec::new();
    }
    let mut found = Vec::new();
    for seed in 0..count {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut board = [None; 64];
        for &piece in &pieces {
            loop {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let square = (state % 64) as usize;
                let back_rank = !(8..56).contains(&square);
                if board[square].is_none() && !(back_rank && piece.eq_ignore_ascii_case(&'p')) {
                    board[square] = Some(piece);
                    break;
                }
            }
        }
        let mut placement = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(piece) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        placement.push(piece);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if rank > 0 {
                placement.push('/');
            }
        }
        for side in ["w", "b"] {
            if let Ok(pos) = Position::from_fen(&format!("{placement} {side} - - 0 1")) {
                found.push(pos);
            }
        }
    }
    found
}

fuzz_target!(|data: &[u8]| {
    let Some(newline) = data.iter().take(40).position(|&b| b == b'\n') else {
        return;
    };
    let Ok(name) = std::str::from_utf8(&data[..newline]) else {
        return;
    };
    let bytes = data[newline + 1..].to_vec();
    let tables = Tablebases::from_memory(vec![(name.to_string(), bytes)]);
    tables.load_all();
    let stem = name.split('.').next().unwrap_or("");
    for pos in positions(stem, 12) {
        let _ = tables.probe_wdl(&pos);
        let _ = tables.probe_dtz(&pos);
    }
});
