//! Compile-time switches for measuring what each search feature is worth.
//!
//! Build with the cargo feature `ablation` and `BETACUT_ABLATE=name,name,...` in the
//! environment to switch features off, e.g. `BETACUT_ABLATE=null_move cargo build --release
//! --features ablation`, then play the build against a normal one (SPRT;
//! `lab/scripts/ablation_sprt.sh`). Such a build names itself in `id name` / `myname` (see
//! [`description`]). Without the feature (the user's build) every switch is on and the
//! environment is not read; the switches are constants, so a disabled feature is compiled away
//! and an enabled one costs nothing. An unknown name stops the build.

/// The comma-separated list given at build time (empty without the `ablation` feature).
#[cfg(feature = "ablation")]
const ABLATE: &str = match option_env!("BETACUT_ABLATE") {
    Some(list) => list,
    None => "",
};

/// Nothing is switched off without the `ablation` feature.
#[cfg(not(feature = "ablation"))]
const ABLATE: &str = "";

/// The features switched off in this build, as given at build time (`None`: none).
pub fn description() -> Option<&'static str> {
    (!ABLATE.is_empty()).then_some(ABLATE)
}

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
    "iir",
    "futility",
    "history_pruning",
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
    "BETACUT_ABLATE names an unknown feature (see src/search/ablation.rs)"
);

/// True unless `name` was switched off at build time.
const fn enabled(name: &str) -> bool {
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
/// Internal iterative reduction (one ply less where the table has no move).
pub const IIR: bool = enabled("iir");
/// Futility pruning of quiet moves at the late-move-reduced depth.
pub const FUTILITY: bool = enabled("futility");
/// Pruning of quiet moves with a bad history near the leaves.
pub const HISTORY_PRUNING: bool = enabled("history_pruning");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_matched_by_whole_names() {
        assert!(listed("lmr,null_move", "null_move"));
        assert!(listed("lmr", "lmr"));
        assert!(!listed("lmr_x", "lmr"));
        assert!(!listed("", "lmr"));
        assert!(all_known("lmr,singular"));
        assert!(all_known(""));
        assert!(!all_known("lmr,nonsense"));
        assert!(
            !all_known("tempo"),
            "the evaluation has no switches any more"
        );
        // The user's build switches nothing off and names itself plainly.
        #[cfg(not(feature = "ablation"))]
        assert_eq!(description(), None);
    }
}
