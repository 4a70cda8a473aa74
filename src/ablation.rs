//! Compile-time switches for measuring what each search feature and evaluation term is worth.
//!
//! Build with `BETACUT_ABLATE=name,name,...` in the environment to switch features off, e.g.
//! `BETACUT_ABLATE=null_move cargo build --release`, then play the build against a normal one
//! (SPRT). Normal builds have every switch on; the switches are constants, so a disabled feature
//! is compiled away and an enabled one costs nothing. An unknown name stops the build.

/// The comma-separated list given at build time (empty normally).
const ABLATE: &str = match option_env!("BETACUT_ABLATE") {
    Some(list) => list,
    None => "",
};

/// Every name that may be switched off.
pub const NAMES: &[&str] = &[
    // search
    "null_move",
    "lmr",
    "rfp",
    "lmp",
    "see_pruning",
    "aspiration",
    "delta",
    "singular",
    // evaluation (weights of the named terms are zeroed)
    "psqt",
    "mobility",
    "pawn_structure",
    "passed_pawns",
    "king_safety",
    "safe_checks",
    "bishop_pair",
    "rook_files",
    "outposts",
    "threats",
    "tempo",
    "scaling",
];

const fn bytes_equal(a: &[u8], start: usize, end: usize, b: &[u8]) -> bool {
    if end - start != b.len() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if a[start + i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// True if `name` is in the comma-separated `list`.
const fn listed(list: &str, name: &str) -> bool {
    let list = list.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i <= list.len() {
        if i == list.len() || list[i] == b',' {
            if bytes_equal(list, start, i, name.as_bytes()) {
                return true;
            }
            start = i + 1;
        }
        i += 1;
    }
    false
}

/// True if every name in `list` is known.
const fn all_known(list: &str) -> bool {
    let bytes = list.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i <= bytes.len() {
        if i == bytes.len() || bytes[i] == b',' {
            if i > start {
                let mut known = false;
                let mut n = 0;
                while n < NAMES.len() {
                    if bytes_equal(bytes, start, i, NAMES[n].as_bytes()) {
                        known = true;
                    }
                    n += 1;
                }
                if !known {
                    return false;
                }
            }
            start = i + 1;
        }
        i += 1;
    }
    true
}

const _: () = assert!(
    all_known(ABLATE),
    "BETACUT_ABLATE names an unknown feature (see src/ablation.rs)"
);

/// True unless `name` was switched off at build time.
pub const fn enabled(name: &str) -> bool {
    !listed(ABLATE, name)
}

/// Null-move pruning.
pub const NULL_MOVE: bool = enabled("null_move");
/// Late-move reductions.
pub const LMR: bool = enabled("lmr");
/// Reverse futility pruning (static null move).
pub const REVERSE_FUTILITY: bool = enabled("rfp");
/// Late-move pruning (move-count pruning).
pub const LATE_MOVE_PRUNING: bool = enabled("lmp");
/// SEE pruning of losing moves near the leaves.
pub const SEE_PRUNING: bool = enabled("see_pruning");
/// Aspiration windows at the root.
pub const ASPIRATION: bool = enabled("aspiration");
/// Delta pruning in quiescence search.
pub const DELTA_PRUNING: bool = enabled("delta");
/// Singular extensions (and multi-cut) of hash moves.
pub const SINGULAR: bool = enabled("singular");
/// Endgame scaling of drawish material.
pub const SCALING: bool = enabled("scaling");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_matched_by_whole_names() {
        assert!(listed("lmr,null_move", "null_move"));
        assert!(listed("lmr", "lmr"));
        assert!(!listed("lmr_x", "lmr"));
        assert!(!listed("", "lmr"));
        assert!(all_known("lmr,tempo"));
        assert!(all_known(""));
        assert!(!all_known("lmr,nonsense"));
    }
}
