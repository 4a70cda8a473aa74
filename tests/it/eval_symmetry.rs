//! The evaluation is colour-blind: a position and its colour-flipped mirror (board turned
//! upside down, colours swapped, other side to move) get the same score for the side to move,
//! on every position of the perft suites and the WAC suite.

use betacut::board::Position;
use betacut::eval::{evaluate, evaluate_traced, trace::FeatureTrace, PawnCache};

/// Mirrors a FEN's first four fields by text: ranks reversed, case swapped, side swapped,
/// castling letters case-swapped, en-passant rank flipped.
fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        swap(fields[2])
    };
    let ep = match fields[3].as_bytes() {
        [file, rank] => format!("{}{}", *file as char, (b'1' + b'8' - rank) as char),
        _ => "-".to_string(),
    };
    format!("{} {side} {castling} {ep} 0 1", placement.join("/"))
}

fn suite_fens() -> Vec<String> {
    let mut fens = Vec::new();
    for file in [
        "perft/standard.epd",
        "perft/cpw.epd",
        "perft/fischer.epd",
        "tests/data/wac.epd",
    ] {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fields: Vec<&str> = line
                .split([';', ' '])
                .filter(|f| !f.is_empty())
                .take(4)
                .collect();
            fens.push(fields.join(" "));
        }
    }
    fens
}

#[test]
fn evaluation_is_symmetric_on_every_suite_position() {
    let mut cache = PawnCache::new();
    let fens = suite_fens();
    assert!(fens.len() > 1300, "suites not found");
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mirrored_fen = mirror_fen(fen);
        let mirrored =
            Position::from_fen(&mirrored_fen).unwrap_or_else(|e| panic!("{mirrored_fen}: {e}"));
        let a = evaluate(&pos, &mut cache);
        let b = evaluate(&mirrored, &mut cache);
        assert_eq!(a, b, "{fen} vs {mirrored_fen}");
    }
}

#[test]
fn traced_and_fast_evaluations_agree() {
    let mut cache = PawnCache::new();
    for fen in suite_fens().iter().step_by(7) {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut trace = FeatureTrace::default();
        assert_eq!(
            evaluate(&pos, &mut cache),
            evaluate_traced(&pos, &mut trace),
            "{fen}"
        );
    }
}
