//! `betacut bench` is the engine's signature: run twice through the binary, it must search
//! exactly the same number of nodes and end with `<nodes> nodes <nps> nps`, whichever vector
//! instructions the network uses.

use crate::common;
use std::process::Output;

/// The node count of the bench that the whole test program shares (`common::bench`).
fn bench_nodes() -> u64 {
    nodes_of(common::bench())
}

/// The bench's node count in a run of its own, with the network's vector path capped at `simd`
/// if given.
fn bench_nodes_on(simd: Option<&str>) -> u64 {
    nodes_of(&common::run_bench(simd))
}

/// The node count that a bench's output ends with, after checking the output's form.
fn nodes_of(out: &Output) -> u64 {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert!(
        words.len() == 4 && words[1] == "nodes" && words[3] == "nps",
        "last line must be `<nodes> nodes <nps> nps`, got {last:?}"
    );
    let nodes: u64 = words[0].parse().unwrap_or(0);
    assert!(nodes > 100_000, "bench searched only {nodes} nodes");
    // One progress line per bench position on stderr.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("position")).count(),
        50
    );
    nodes
}

#[test]
fn bench_node_count_is_deterministic() {
    // The shared run and a second process of the same command.
    assert_eq!(bench_nodes(), bench_nodes_on(None));
}

#[test]
fn every_vector_path_searches_the_same_nodes() {
    // The network's paths compute the same integers, so the search cannot tell them apart.
    // A path this CPU lacks falls back to the best it has, and the bench says which it took.
    let nodes = bench_nodes();
    for level in ["portable", "avx2", "avx512", "neon"] {
        assert_eq!(bench_nodes_on(Some(level)), nodes, "BETACUT_SIMD={level}");
    }
}
