//! The EPD readers of the tools: `betacut epd`'s suite parser (`bm`/`am`/`id` operations) with
//! its judge and runner (a 300-node search per case, at most two cases), and `betacut
//! perft-suite`'s parser (`;D1 20 ;D2 400`) with its runner (depths up to 2).

#![no_main]

use betacut::board::Position;
use betacut::search::SearchLimits;
use betacut::tools::{epd, perft};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(cases) = epd::parse_epd(&text) {
        for case in &cases {
            let pos = match Position::from_fen(&case.fen) {
                Ok(pos) => pos,
                Err(err) => panic!("parse_epd kept a FEN it refuses: {}: {err}", case.fen),
            };
            for &mv in pos.legal_moves().iter().take(8) {
                epd::judge(&pos, case, mv);
            }
        }
        let limits = SearchLimits {
            nodes: Some(300),
            ..SearchLimits::default()
        };
        let first = &cases[..cases.len().min(2)];
        let outcomes = epd::run_epd(first, &limits, 1, 1, None, &mut |_, _| {}, |_| {});
        assert_eq!(outcomes.len(), first.len(), "one outcome per case");
    }
    if let Ok(entries) = perft::parse_suite(&text) {
        let first = &entries[..entries.len().min(4)];
        perft::run_suite(first, Some(2), |_, _, _| {});
    }
});
