//! Properties of the network evaluation as the search uses it, on positions from the perft
//! suites (standard, CPW and Chess960) and random legal games from them:
//!
//! - the evaluator's running accumulators, updated lazily from what each move changed, equal a
//!   computation from scratch after any sequence of moves and null moves, and after taking
//!   them back; its evaluation equals the evaluation of the position from scratch;
//! - every legal move of every suite position (castling of both kinds in Chess960 set-ups, en
//!   passant, promotions with and without capture) keeps them equal;
//! - the same with king buckets and mirroring: a perspective whose king changes bucket or side
//!   is computed from the board, the rest stays incremental;
//! - the shipped net grown into king buckets (each a copy of its weights) evaluates every such
//!   position exactly as the shipped net;
//! - a searcher given a network searches with it and plays legal moves;
//! - without a network the evaluator is the hand-crafted evaluation.

use betacut::board::{Move, Position};
use betacut::eval::evaluator::NETWORK_LINE_PLIES;
use betacut::eval::nnue::embedded::embedded_network;
use betacut::eval::nnue::{KingBuckets, Network, INPUTS, MAX_OUTPUT_WEIGHT};
use betacut::eval::{evaluate, Evaluator, PawnCache};
use betacut::search::score::MAX_PLY;
use betacut::search::{SearchControl, SearchLimits, Searcher};
use betacut::tools::perft::load_suite;
use proptest::prelude::*;
use proptest::sample::Index;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// A network with random weights in the ranges a trained one has.
fn network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        let hidden = 64;
        let mut rng = StdRng::seed_from_u64(11);
        let mut values = |n: usize, limit: i16| -> Vec<i16> {
            (0..n).map(|_| rng.gen_range(-limit..=limit)).collect()
        };
        let fw = values(INPUTS * hidden, 250);
        let fb = values(hidden, 400);
        // Four output buckets, so the incremental evaluation also has to pick the right one.
        let ow = values(4 * 2 * hidden, MAX_OUTPUT_WEIGHT);
        let ob = vec![-777, 1500, -40, 900];
        Arc::new(Network::from_parts(hidden, fw, fb, ow, ob).unwrap_or_else(|e| panic!("{e}")))
    })
    .clone()
}

/// A random network of king-bucket layout `kings` (4 buckets), each bucket its own weights.
fn king_network(mirrored: bool) -> Arc<Network> {
    static NETS: OnceLock<[Arc<Network>; 2]> = OnceLock::new();
    NETS.get_or_init(|| {
        [KingBuckets::DEFAULT, KingBuckets::DEFAULT_MIRRORED].map(|kings| {
            let hidden = 64;
            let mut rng = StdRng::seed_from_u64(12);
            let fw = (0..kings.inputs() * hidden)
                .map(|_| rng.gen_range(-250..=250))
                .collect();
            let fb = (0..hidden).map(|_| rng.gen_range(-400..=400)).collect();
            let ow = (0..4 * 2 * hidden)
                .map(|_| rng.gen_range(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT))
                .collect();
            let ob = vec![-777, 1500, -40, 900];
            Arc::new(
                Network::from_bucketed_parts(hidden, kings, fw, fb, ow, ob)
                    .unwrap_or_else(|e| panic!("{e}")),
            )
        })
    })[usize::from(mirrored)]
    .clone()
}

/// The shipped net, and the same grown into the default four king buckets.
fn shipped_and_grown() -> (Arc<Network>, Arc<Network>) {
    static NETS: OnceLock<(Arc<Network>, Arc<Network>)> = OnceLock::new();
    NETS.get_or_init(|| {
        let Ok(Some(shipped)) = embedded_network() else {
            panic!("the build embeds a network");
        };
        let grown = shipped
            .with_king_buckets(KingBuckets::DEFAULT)
            .unwrap_or_else(|| panic!("the shipped net has one king bucket"));
        (shipped, Arc::new(grown))
    })
    .clone()
}

/// The net a walk evaluates with, and the net whose evaluation from scratch it must give.
fn nets(kind: usize) -> (Arc<Network>, Arc<Network>) {
    match kind {
        0 => (network(), network()),
        1 => (king_network(false), king_network(false)),
        2 => (king_network(true), king_network(true)),
        _ => {
            let (shipped, grown) = shipped_and_grown();
            (grown, shipped)
        }
    }
}

/// The FENs of the three perft suites (standard, cpw, fischer).
fn suites() -> &'static [Vec<String>; 3] {
    static SUITES: OnceLock<[Vec<String>; 3]> = OnceLock::new();
    SUITES.get_or_init(|| {
        ["standard", "cpw", "fischer"].map(|name| {
            let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "perft", &format!("{name}.epd")]
                .iter()
                .collect();
            let entries = load_suite(&path).unwrap_or_else(|e| panic!("{name}.epd: {e}"));
            entries.into_iter().map(|e| e.fen).collect()
        })
    })
}

fn parse(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Checks the evaluator against a computation from scratch (its accumulators against its own
/// net's, its evaluation against `net`'s).
fn check(
    evaluator: &mut Evaluator,
    net: &Network,
    pos: &Position,
    what: &str,
) -> Result<(), String> {
    if !evaluator.is_consistent_with(pos) {
        return Err(format!(
            "{what}: accumulators differ from scratch | {}",
            pos.to_fen()
        ));
    }
    let (running, scratch) = (evaluator.evaluate(pos), net.evaluate(pos));
    if running != scratch {
        return Err(format!(
            "{what}: eval {running}, from scratch {scratch} | {}",
            pos.to_fen()
        ));
    }
    Ok(())
}

// The accumulator stack covers the deepest search line (checked when this file compiles).
const _: () = assert!(NETWORK_LINE_PLIES >= MAX_PLY + 8);

#[test]
fn every_legal_move_of_every_suite_position_keeps_the_accumulators_exact() {
    for kind in 0..4 {
        every_legal_move_of_every_suite_position(kind);
    }
}

fn every_legal_move_of_every_suite_position(kind: usize) {
    let (running, net) = nets(kind);
    let mut evaluator = Evaluator::new();
    evaluator.set_network(Some(running));
    for fen in suites().iter().flatten() {
        let mut pos = parse(fen);
        evaluator.set_root(&pos);
        if let Err(e) = check(&mut evaluator, &net, &pos, "root") {
            panic!("{e}");
        }
        for &mv in pos.legal_moves().iter() {
            pos.make_move(mv);
            evaluator.on_make(&pos);
            let result = check(&mut evaluator, &net, &pos, &format!("after {mv:?}"));
            pos.unmake_move(mv);
            evaluator.on_unmake();
            if let Err(e) = result {
                panic!("{e}");
            }
        }
        if let Err(e) = check(&mut evaluator, &net, &pos, "after taking back") {
            panic!("{e}");
        }
    }
}

/// Plays the moves `choices` pick (a null move for some of them, when allowed) from a suite
/// position, evaluating where `evaluate_mask` says, then takes everything back.
/// `kind` picks the nets ([`nets`]).
fn walk(
    kind: usize,
    suite: usize,
    index: Index,
    choices: &[u32],
    evaluate_mask: u64,
) -> Result<(), String> {
    let (running, net) = nets(kind);
    let fens = &suites()[suite];
    let mut pos = parse(&fens[index.index(fens.len())]);
    let mut evaluator = Evaluator::new();
    evaluator.set_network(Some(running));
    evaluator.set_root(&pos);
    let mut made: Vec<Move> = Vec::new();
    for (ply, &choice) in choices.iter().enumerate() {
        let last_was_null = made.last().is_some_and(|m| m.is_none());
        if choice % 7 == 0 && !pos.in_check() && !last_was_null {
            pos.make_null();
            evaluator.on_null();
            made.push(Move::NONE);
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[choice as usize % moves.len()];
            pos.make_move(mv);
            evaluator.on_make(&pos);
            made.push(mv);
        }
        // Not every position is evaluated: the lazy update then catches up several plies.
        if evaluate_mask >> (ply % 64) & 1 == 1 {
            check(&mut evaluator, &net, &pos, &format!("ply {ply}"))?;
        }
    }
    while let Some(mv) = made.pop() {
        if mv.is_none() {
            pos.unmake_null();
        } else {
            pos.unmake_move(mv);
        }
        evaluator.on_unmake();
        if evaluate_mask.count_ones().is_multiple_of(2) || made.len().is_multiple_of(3) {
            check(
                &mut evaluator,
                &net,
                &pos,
                &format!("back at ply {}", made.len()),
            )?;
        }
    }
    check(&mut evaluator, &net, &pos, "back at the root")
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(debug_assertions) { 16 } else { 256 },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn incremental_accumulators_equal_a_refresh(
        suite in 0usize..3,
        index in any::<Index>(),
        choices in prop::collection::vec(any::<u32>(), 0..=60),
        evaluate_mask in any::<u64>(),
    ) {
        walk(0, suite, index, &choices, evaluate_mask).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn king_bucketed_accumulators_equal_a_refresh(
        mirrored in any::<bool>(),
        suite in 0usize..3,
        index in any::<Index>(),
        choices in prop::collection::vec(any::<u32>(), 0..=80),
        evaluate_mask in any::<u64>(),
    ) {
        let kind = 1 + usize::from(mirrored);
        walk(kind, suite, index, &choices, evaluate_mask).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn the_grown_shipped_net_evaluates_as_the_shipped_net(
        suite in 0usize..3,
        index in any::<Index>(),
        choices in prop::collection::vec(any::<u32>(), 0..=80),
        evaluate_mask in any::<u64>(),
    ) {
        walk(3, suite, index, &choices, evaluate_mask).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn a_searcher_given_a_network_searches_with_it() {
    let net = network();
    let mut searcher = Searcher::new(8);
    searcher.set_threads(2);
    searcher.set_network(Some(net.clone()));
    assert!(searcher.network().is_some_and(|n| Arc::ptr_eq(n, &net)));
    for fen in [
        "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ] {
        let pos = parse(fen);
        let result = searcher.search(
            &pos,
            &SearchLimits::depth(6),
            &SearchControl::new(false),
            &mut |_| {},
        );
        assert!(pos.is_legal(result.best_move), "{fen}");
    }
    // One thread, the same fixed-depth search twice: the network makes it deterministic too.
    searcher.set_threads(1);
    let pos = Position::startpos();
    let run = |searcher: &mut Searcher| {
        searcher.clear();
        searcher.search(
            &pos,
            &SearchLimits::depth(7),
            &SearchControl::new(false),
            &mut |_| {},
        )
    };
    let first = run(&mut searcher);
    let second = run(&mut searcher);
    assert_eq!((first.nodes, first.score), (second.nodes, second.score));
    searcher.set_network(None);
    let handcrafted = run(&mut searcher);
    assert_ne!(
        (first.nodes, first.score),
        (handcrafted.nodes, handcrafted.score),
        "a random network and the hand-crafted evaluation search alike"
    );
}

#[test]
fn without_a_network_the_evaluator_is_the_handcrafted_evaluation() {
    let net = network();
    let mut evaluator = Evaluator::new();
    evaluator.set_network(Some(net));
    evaluator.set_network(None);
    assert!(evaluator.network().is_none());
    for fen in suites()[1].iter().chain(&suites()[0][..20]) {
        let pos = parse(fen);
        evaluator.set_root(&pos);
        assert_eq!(
            evaluator.evaluate(&pos),
            evaluate(&pos, &mut PawnCache::new()),
            "{fen}"
        );
    }
}
