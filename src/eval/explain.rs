//! The evaluation of one position explained, for people (UCI `eval`): the network's score, and
//! for comparison the hand-crafted evaluation split into its named terms.

use super::evaluate::{evaluate_traced, MAX_PHASE, NORMAL_SCALE};
use super::nnue::Network;
use super::params::SECTIONS;
use super::trace::FeatureTrace;
use super::weights::WEIGHTS;
use crate::board::{Color, Position};

/// One named group of hand-crafted terms: White's advantage from it, middlegame and endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// The group's name (a section of the weight table, e.g. `passed pawn`).
    pub name: &'static str,
    /// Middlegame score from White's view, centipawns.
    pub mg: i32,
    /// Endgame score from White's view, centipawns.
    pub eg: i32,
}

/// The evaluation of a position, explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Every group of hand-crafted terms that scores anything.
    pub terms: Vec<Term>,
    /// Game phase, 24 = all pieces on, 0 = pawn endgame.
    pub phase: i32,
    /// Endgame scale, 64 = normal.
    pub scale: i32,
    /// The hand-crafted evaluation from White's view.
    pub hand_crafted: i32,
    /// The network's evaluation from White's view (`None` without a network).
    pub network: Option<i32>,
}

/// Explains the evaluation of `pos` with `network` (if any) and the hand-crafted terms.
pub fn explain(pos: &Position, network: Option<&Network>) -> Explanation {
    let mut trace = FeatureTrace::default();
    let stm_score = evaluate_traced(pos, &mut trace);
    let white = |score: i32| score * pos.side_to_move().sign();
    let terms = SECTIONS
        .iter()
        .map(|&(name, start, len)| {
            let range = start..start + len;
            let (mg, eg) = trace.coefficients[range.clone()]
                .iter()
                .zip(&WEIGHTS[range])
                .fold((0, 0), |(mg, eg), (&count, weight)| {
                    (mg + count * weight.mg(), eg + count * weight.eg())
                });
            Term { name, mg, eg }
        })
        .filter(|term| term.mg != 0 || term.eg != 0)
        .collect();
    Explanation {
        terms,
        phase: trace.phase,
        scale: trace.scale,
        hand_crafted: white(stm_score),
        network: network.map(|net| white(net.evaluate(pos))),
    }
}

impl Explanation {
    /// The score of middlegame `mg` and endgame `eg` blended by the position's phase and scale,
    /// as the hand-crafted evaluation blends its total.
    pub fn blend(&self, mg: i32, eg: i32) -> i32 {
        (mg * self.phase + eg * (MAX_PHASE - self.phase) * self.scale / NORMAL_SCALE) / MAX_PHASE
    }

    /// The explanation as lines of text: one per term group, then the totals.
    pub fn lines(&self, side_to_move: Color) -> Vec<String> {
        let mut lines = vec![format!(
            "{:<24} {:>7} {:>7} {:>7}   (centipawns, White's view)",
            "hand-crafted term", "mg", "eg", "blended"
        )];
        for term in &self.terms {
            lines.push(format!(
                "{:<24} {:>7} {:>7} {:>7}",
                term.name,
                term.mg,
                term.eg,
                self.blend(term.mg, term.eg)
            ));
        }
        let (mg, eg) = self
            .terms
            .iter()
            .fold((0, 0), |(mg, eg), t| (mg + t.mg, eg + t.eg));
        lines.push(format!(
            "{:<24} {mg:>7} {eg:>7} {:>7}   (phase {}/{MAX_PHASE}, endgame scale {}/{NORMAL_SCALE})",
            "total",
            self.hand_crafted,
            self.phase,
            self.scale
        ));
        let view = |white: i32| white * side_to_move.sign();
        lines.push(format!(
            "Hand-crafted evaluation: {:+} (White's view), {:+} (side to move)",
            self.hand_crafted,
            view(self.hand_crafted)
        ));
        match self.network {
            Some(net) => lines.push(format!(
                "Network evaluation: {net:+} (White's view), {:+} (side to move)",
                view(net)
            )),
            None => {
                lines.push("Network evaluation: none (the hand-crafted evaluation plays)".into())
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terms_add_up_to_the_evaluation() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/5k2/3b4/2p5/2P5/3B4/5K2/8 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
        ] {
            let Ok(pos) = Position::from_fen(fen) else {
                panic!("{fen}");
            };
            let explained = explain(&pos, None);
            let (mg, eg) = explained
                .terms
                .iter()
                .fold((0, 0), |(mg, eg), t| (mg + t.mg, eg + t.eg));
            assert_eq!(explained.blend(mg, eg), explained.hand_crafted, "{fen}");
            assert_eq!(
                explained.hand_crafted * pos.side_to_move().sign(),
                crate::eval::evaluate(&pos, &mut crate::eval::PawnCache::new()),
                "{fen}"
            );
            assert_eq!(explained.network, None);
        }
        // A pawn up for White: material says so whoever is to move.
        let Ok(pos) = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1") else {
            panic!("FEN");
        };
        let material = explain(&pos, None).terms[0];
        assert_eq!(material.name, "material");
        assert!(material.mg > 0 && material.eg > 0, "{material:?}");
    }
}
