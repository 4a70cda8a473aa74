//! Move generation alone, over a fixed set of ten varied positions (openings, middlegames,
//! endgames, checks, promotions, Chess960): `legal_moves()`, `count_legal_moves()`, and
//! make_move + unmake_move of every legal move. Throughput is reported in moves per second.
//!
//! Run with `cargo bench --bench movegen` (add `-- --quick` for a short run).

use betacut::board::{Move, Position};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// The positions: (name, FEN).
const POSITIONS: [(&str, &str); 10] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("cpw3-endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "cpw4-promotions",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "cpw5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        "cpw6-middlegame",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (
        "chess960",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ),
    (
        "in-check",
        "rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
    ),
    ("queens", "3k4/8/8/2Q5/5q2/8/1Q6/6K1 b - - 0 1"),
    (
        "en-passant",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
];

/// The positions, parsed.
fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|(name, fen)| Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

/// Times generation (list and count) and make/unmake over the whole set per iteration.
fn bench_movegen(c: &mut Criterion) {
    let mut positions = positions();
    let moves: Vec<Vec<Move>> = positions
        .iter()
        .map(|p| p.legal_moves().as_slice().to_vec())
        .collect();
    let total: usize = moves.iter().map(Vec::len).sum();

    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                n += black_box(pos).legal_moves().len();
            }
            n
        })
    });
    group.bench_function("count_legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                n += black_box(pos).count_legal_moves();
            }
            n
        })
    });
    group.bench_function("make_unmake", |b| {
        b.iter(|| {
            for (pos, list) in positions.iter_mut().zip(&moves) {
                for &mv in list {
                    pos.make_move(black_box(mv));
                    pos.unmake_move(mv);
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_movegen);
criterion_main!(benches);
