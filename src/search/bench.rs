//! The bench (`betacut bench`, UCI `bench`): a fixed set of positions, each searched to a fixed
//! depth from a fresh state, single-threaded. The total node count is the engine's signature:
//! any change to search or evaluation changes it, so commits that change either quote it
//! ("Bench: N").

use super::{SearchControl, SearchLimits, Searcher};
use crate::board::Position;
use crate::eval::nnue::Network;
use std::sync::Arc;
use std::time::Instant;

/// Depth used when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 13;
/// Transposition table size for the bench (MiB).
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions: openings, middlegames (many from Win At Chess), endgames and mates.
pub const BENCH_FENS: &[&str] = &[
    // Openings and early middlegames.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 0 6",
    "rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3",
    "rnbqkbnr/pp2pppp/2p5/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3",
    "r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1BQK2R w KQkq - 0 1",
    // Middlegames.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
    "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
    "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
    "3r4/2p1rk2/1pQq1pp1/7p/1P1P4/P4P2/6PP/R1R3K1 b - - 0 1",
    "r1b2rk1/pp2bppp/2n1pn2/q5B1/2BP4/2N2N2/PP2QPPP/2R2RK1 b - - 0 1",
    "2kr3r/pp1q1ppp/5n2/1Nb5/2Pp1B2/7Q/P4PPP/1R3RK1 w - - 0 1",
    "6k1/5p1p/2bP2pb/4p3/2P5/1p1pNPPP/1P1Q1BK1/1q6 b - - 0 1",
    "r2q1rk1/pp3ppp/2p2b2/8/B2pPPb1/7P/PPP1N1P1/R2Q1RK1 b - - 0 1",
    "2rqrn1k/pb4pp/1p2pp2/n2P4/2P3N1/P2B2Q1/1B3PPP/2R1R1K1 w - - 0 1",
    "5r1k/3b2p1/p6p/1pRpR3/1P1P2q1/P4pP1/5QnP/1B4K1 w - - 0 1",
    "k7/p4p2/P1q1b1p1/3p3p/3Q4/7P/5PP1/1R4K1 w - - 0 1",
    "1R6/1brk2p1/4p2p/p1P1Pp2/P7/6P1/1P4P1/2R3K1 w - - 0 1",
    "8/8/2R5/1p2qp1k/1P2r3/2PQ2P1/5K2/8 w - - 0 1",
    // Endgames.
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
    "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1",
    "2b5/1r6/2kBp1p1/p2pP1P1/2pP4/1pP3K1/1R3P2/8 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1p2k1p1/3r1p1p/5P1P/1R4P1/5K2/8 w - - 0 1",
    "8/5k2/3b4/2p5/2P5/3B4/5K2/8 w - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/4k3/8/2p5/8/1P6/1K6 b - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/8/8/8/5k2/8/5PK1/8 b - - 0 1",
    "6k1/6p1/8/6KQ/1r6/q2b4/8/8 w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/8 w - - 0 1",
    "8/8/8/8/8/4k3/4N3/4KB2 w - - 0 1",
    "k7/8/8/7p/6P1/8/8/K7 w - - 0 1",
    "K7/8/8/3Q4/4q3/8/8/7k w - - 0 1",
    "8/6k1/8/8/3r4/8/4RK2/8 w - - 0 1",
    // Mates and mating attacks.
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1",
    "8/8/3k4/8/8/8/8/Q5K1 w - - 0 1",
    "r2qk2r/ppp2ppp/2n5/2b1p3/2B1P1n1/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 1",
    "2r3k1/5ppp/8/8/8/8/5PPP/1Q4K1 b - - 0 1",
];

/// Result of one bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchSummary {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Best move of each position in coordinate notation.
    pub best_moves: Vec<String>,
}

/// Searches every bench position to `depth` from a fresh state (one thread), evaluating with
/// `network` (the hand-crafted evaluation if `None`), calling `line` with a progress line per
/// position.
pub fn run_bench(
    depth: u32,
    network: Option<&Arc<Network>>,
    mut line: impl FnMut(&str),
) -> BenchSummary {
    let start = Instant::now();
    let mut nodes = 0;
    let mut best_moves = Vec::with_capacity(BENCH_FENS.len());
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            line(&format!("position {}: bad FEN {fen}", i + 1));
            continue;
        };
        let mut searcher = Searcher::new(BENCH_HASH_MB);
        searcher.set_network(network.cloned());
        let control = SearchControl::new(false);
        let result = searcher.search(&pos, &SearchLimits::depth(depth), &control, &mut |_| {});
        nodes += result.nodes;
        let best = pos.move_to_coordinate(result.best_move);
        line(&format!(
            "position {:2}/{}: best {best:6} score {:6} nodes {:9}  {fen}",
            i + 1,
            BENCH_FENS.len(),
            result.score,
            result.nodes
        ));
        best_moves.push(best);
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    BenchSummary {
        nodes,
        nps: (nodes as f64 / secs) as u64,
        best_moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_playable() {
        assert_eq!(BENCH_FENS.len(), 50);
        for fen in BENCH_FENS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.has_legal_move(), "{fen}");
        }
    }
}
