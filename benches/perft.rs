//! Perft speed (move generation, make/unmake and bulk leaf counting together): the start
//! position at depth 5 and Kiwipete at depth 4, each tens of milliseconds per iteration.
//! Throughput is reported in leaves per second.
//!
//! Run with `cargo bench --bench perft` (add `-- --quick` for a short run).

use betacut::board::Position;
use betacut::tools::perft::perft;
use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use std::hint::black_box;

/// (name, FEN, depth, expected leaves).
const CASES: [(&str, &str, u32, u64); 2] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
];

/// Times `perft` on each case, after checking its count once (a wrong generator is not timed).
fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(20);
    for (name, fen, depth, leaves) in CASES {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(perft(&mut pos, depth), leaves, "{name} perft {depth}");
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(BenchmarkId::new(name, depth), |b| {
            b.iter(|| perft(black_box(&mut pos), black_box(depth)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
