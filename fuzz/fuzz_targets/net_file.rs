//! Network files from bytes (`Network::from_bytes`, what `EvalFile` and `--net` read): every
//! input as given, and again with the payload hash in the header made right (otherwise nearly
//! every mutation would stop at the hash check). A net that loads writes back to bytes that
//! load as the same net, evaluates the probe positions, and plays a 400-node search.

#![no_main]

use betacut::board::Position;
use betacut::eval::nnue::network::{fnv1a64, HEADER_LEN};
use betacut::eval::nnue::Network;
use betacut::search::{SearchControl, SearchLimits, Searcher};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(betacut_fuzz::probe_positions)
}

fn exercise(net: Network) {
    match Network::from_bytes(&net.to_bytes()) {
        Ok(again) => assert!(again == net, "a net written and read back differs"),
        Err(err) => panic!("a net's own bytes are refused: {err}"),
    }
    for pos in positions() {
        net.evaluate(pos);
    }
    let mut searcher = Searcher::new(1);
    searcher.set_network(Some(Arc::new(net)));
    let limits = SearchLimits {
        nodes: Some(400),
        ..SearchLimits::default()
    };
    let control = SearchControl::new(false);
    let pos = &positions()[2];
    let result = searcher.search(pos, &limits, &control, &mut |_| {});
    assert!(
        pos.legal_moves().contains(result.best_move),
        "no legal move"
    );
}

fuzz_target!(|data: &[u8]| {
    if let Ok(net) = Network::from_bytes(data) {
        exercise(net);
        return;
    }
    if data.len() < HEADER_LEN {
        return;
    }
    let mut fixed = data.to_vec();
    let hash = fnv1a64(&fixed[HEADER_LEN..]);
    fixed[24..32].copy_from_slice(&hash.to_le_bytes());
    if let Ok(net) = Network::from_bytes(&fixed) {
        exercise(net);
    }
});
