//! `betacut bench` is the engine's signature: run twice through the binary, it must search
//! exactly the same number of nodes and end with `<nodes> nodes <nps> nps`, whichever vector
//! instructions the network uses.

use std::process::Command;

fn bench_nodes() -> u64 {
    bench_nodes_on(None)
}

/// The bench's node count, with the network's vector path capped at `simd` if given.
fn bench_nodes_on(simd: Option<&str>) -> u64 {
    let mut command = Command::new(env!("CARGO_BIN_EXE_betacut"));
    command.arg("bench").env_remove("BETACUT_SIMD");
    if let Some(level) = simd {
        command.env("BETACUT_SIMD", level);
    }
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut bench: {e}"));
    assert!(out.status.success(), "bench failed: {out:?}");
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
    assert_eq!(bench_nodes(), bench_nodes());
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
