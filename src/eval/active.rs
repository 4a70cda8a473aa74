//! The weights the engine evaluates with: the tuned table, with any term switched off at build
//! time zeroed (see [`crate::ablation`]). In normal builds this is exactly `weights::WEIGHTS`.

use super::packed::S;
use super::params::*;
use super::weights::WEIGHTS;
use crate::ablation::enabled;

const fn zeroed(mut weights: [S; NUM_PARAMS], start: usize, len: usize) -> [S; NUM_PARAMS] {
    let mut i = start;
    while i < start + len {
        weights[i] = S::ZERO;
        i += 1;
    }
    weights
}

const fn build() -> [S; NUM_PARAMS] {
    let mut w = WEIGHTS;
    if !enabled("psqt") {
        w = zeroed(w, PSQT, 6 * 32);
    }
    if !enabled("mobility") {
        w = zeroed(w, KNIGHT_MOBILITY, BISHOP_PAIR - KNIGHT_MOBILITY);
    }
    if !enabled("bishop_pair") {
        w = zeroed(w, BISHOP_PAIR, 1);
    }
    if !enabled("rook_files") {
        w = zeroed(w, ROOK_OPEN_FILE, 2);
    }
    if !enabled("outposts") {
        w = zeroed(w, KNIGHT_OUTPOST, 2);
    }
    if !enabled("pawn_structure") {
        w = zeroed(w, DOUBLED_PAWN, PASSED_PAWN - DOUBLED_PAWN);
    }
    if !enabled("passed_pawns") {
        w = zeroed(w, PASSED_PAWN, KING_SHIELD - PASSED_PAWN);
    }
    if !enabled("king_safety") {
        w = zeroed(w, KING_SHIELD, THREAT_BY_PAWN - KING_SHIELD);
    }
    if !enabled("safe_checks") {
        w = zeroed(w, SAFE_CHECK, 4);
    }
    if !enabled("threats") {
        w = zeroed(w, THREAT_BY_PAWN, TEMPO - THREAT_BY_PAWN);
    }
    if !enabled("tempo") {
        w = zeroed(w, TEMPO, 1);
    }
    w
}

/// The weights in use.
pub const ACTIVE: [S; NUM_PARAMS] = build();
