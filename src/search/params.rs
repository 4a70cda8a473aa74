//! The search's tunable constants, in one table: name, value, range and the step SPSA tunes
//! it with (`lab/scripts/spsa.py`).
//!
//! In the user's build every constant is a `const` and its accessor folds to the number. With
//! the cargo feature `tune` each one also becomes a UCI spin option of the same name (`setoption
//! name rfp_margin value 80`), held in a relaxed atomic, so a tuner can play one binary with
//! different values; `betacut tunables` prints the table for the tuner either way.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// Its option name.
    pub name: &'static str,
    /// The value the search uses unless told otherwise.
    pub default: i32,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (`c_end`): about what a noticeable change is.
    pub step: i32,
}

macro_rules! tunables {
    ($( $(#[$doc:meta])* $id:ident: $name:literal = $default:literal, $min:literal..=$max:literal, step $step:literal; )*) => {
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        enum Id { $($id),* }

        /// Every tunable constant, in the order the tuner lists them.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable { name: $name, default: $default, min: $min, max: $max, step: $step } ),*
        ];

        $(
            $(#[$doc])*
            #[inline(always)]
            pub fn $id() -> i32 {
                value(Id::$id as usize)
            }
        )*
    };
}

tunables! {
    /// Half-width of the first aspiration window (centipawns).
    aspiration_delta: "aspiration_delta" = 15, 6..=50, step 3;
    /// Reverse futility margin per ply of depth.
    rfp_margin: "rfp_margin" = 69, 30..=160, step 8;
    /// Null-move reduction: one more ply per this much of the evaluation above beta.
    nmp_eval_divisor: "nmp_eval_divisor" = 197, 80..=500, step 20;
    /// Late-move pruning: quiet moves allowed at depth d are (base + d^2) (halved unless
    /// improving).
    lmp_base: "lmp_base" = 4, 1..=10, step 1;
    /// SEE threshold per ply below which a quiet move is pruned.
    see_quiet_margin: "see_quiet_margin" = 49, 15..=150, step 8;
    /// SEE threshold per ply below which a losing capture is pruned.
    see_capture_margin: "see_capture_margin" = 94, 30..=200, step 10;
    /// Futility pruning: margin over the static evaluation at reduced depth 0.
    futility_base: "futility_base" = 103, 30..=300, step 12;
    /// Futility pruning: margin per ply of reduced depth.
    futility_per_depth: "futility_per_depth" = 85, 30..=200, step 10;
    /// History pruning: a quiet move whose history is below minus this times the depth goes.
    history_prune: "history_prune" = 2_069, 256..=8_000, step 300;
    /// Late-move reduction: constant term, in hundredths of a ply.
    lmr_base: "lmr_base" = 81, 0..=200, step 10;
    /// Late-move reduction: divisor of ln(depth) x ln(moves), in hundredths.
    lmr_divisor: "lmr_divisor" = 258, 120..=450, step 15;
    /// Late-move reduction: one ply less per this much history.
    lmr_history_divisor: "lmr_history_divisor" = 7_971, 2_000..=24_000, step 800;
    /// Delta pruning margin in quiescence search.
    delta_margin: "delta_margin" = 222, 50..=500, step 20;
    /// Singular extension: the verification search's margin per ply under the table's score.
    singular_margin: "singular_margin" = 1, 1..=6, step 1;
    /// Singular extension: how far under the verification's beta earns a second ply.
    double_extension_margin: "double_extension_margin" = 19, 4..=80, step 4;
    /// Largest history bonus of one cutoff.
    history_bonus_max: "history_bonus_max" = 1_646, 600..=3_200, step 150;
    /// History bonus of a cutoff at depth d: this times d^2, plus the linear term below.
    history_bonus_quadratic: "history_bonus_quadratic" = 16, 4..=48, step 3;
    /// History bonus of a cutoff at depth d: this times d, plus the quadratic term above.
    history_bonus_linear: "history_bonus_linear" = 32, 0..=128, step 10;
    /// Late-move reduction: less in PV nodes, in hundredths of a ply.
    lmr_pv: "lmr_pv" = 100, 0..=300, step 25;
    /// Late-move reduction: more when the evaluation is not improving (hundredths of a ply).
    lmr_not_improving: "lmr_not_improving" = 100, 0..=300, step 25;
    /// Late-move reduction: more in expected cut nodes (hundredths of a ply).
    lmr_cut_node: "lmr_cut_node" = 100, 0..=300, step 25;
    /// Late-move reduction: less for a move that gives check (hundredths of a ply).
    lmr_gives_check: "lmr_gives_check" = 100, 0..=300, step 25;
    /// Late-move reduction: less for a killer or the counter move (hundredths of a ply).
    lmr_refutation: "lmr_refutation" = 100, 0..=300, step 25;
    /// Late-move reduction of a losing capture (hundredths of a ply).
    lmr_losing_capture: "lmr_losing_capture" = 100, 0..=300, step 25;
    /// Late-move reduction: more for a quiet move when the hash move is a capture (hundredths
    /// of a ply).
    lmr_tt_capture: "lmr_tt_capture" = 100, 0..=300, step 25;
    /// Null move: the reduction's constant part, in plies.
    nmp_base: "nmp_base" = 3, 1..=6, step 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor: "nmp_depth_divisor" = 4, 2..=8, step 1;
    /// Reverse futility pruning applies up to this depth.
    rfp_max_depth: "rfp_max_depth" = 7, 3..=12, step 1;
    /// Singular extensions are tried from this depth.
    singular_min_depth: "singular_min_depth" = 6, 4..=10, step 1;
    /// A failed aspiration window widens by this percentage of its half-width.
    aspiration_growth: "aspiration_growth" = 50, 20..=150, step 10;
    /// Correction history: weight of the pawn-structure table (of 131,072 per unit).
    correction_pawn_weight: "correction_pawn_weight" = 7_000, 2_000..=16_000, step 700;
    /// Correction history: weight of each side's non-pawn table (of 131,072 per unit).
    correction_non_pawn_weight: "correction_non_pawn_weight" = 7_700, 2_000..=16_000, step 700;
    /// Most double singular extensions on one line (each adds two plies).
    double_extension_limit: "double_extension_limit" = 6, 0..=16, step 1;
    /// A node that failed low by more than this per ply of depth gives the opponent's quiet
    /// move before it the larger continuation bonus (centipawns).
    prior_bonus_margin: "prior_bonus_margin" = 62, 20..=200, step 8;
    /// Plies added to the depth of a tablebase result stored in the table: it is exact
    /// however shallow the node, so it should outlive searched entries.
    tablebase_depth_bonus: "tablebase_depth_bonus" = 6, 0..=20, step 2;
}

/// The value of tunable `index`.
#[cfg(not(feature = "tune"))]
#[inline(always)]
const fn value(index: usize) -> i32 {
    TUNABLES[index].default
}

/// Offsets from the defaults, set by the options (zero: the default).
#[cfg(feature = "tune")]
static OFFSETS: [AtomicI32; TUNABLES.len()] = [const { AtomicI32::new(0) }; TUNABLES.len()];

/// The value of tunable `index`.
#[cfg(feature = "tune")]
#[inline(always)]
fn value(index: usize) -> i32 {
    TUNABLES[index].default + OFFSETS[index].load(Ordering::Relaxed)
}

/// True if this build reads the tunables from options (the cargo feature `tune`).
pub const TUNABLE_BUILD: bool = cfg!(feature = "tune");

/// The tunable called `name` (without regard to case).
pub fn find(name: &str) -> Option<&'static Tunable> {
    TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

/// Sets tunable `name` to `value` (checked against its range by the caller's option parser).
/// Without the feature `tune` the constants cannot change and nothing happens.
pub fn set(name: &str, value: i32) {
    #[cfg(feature = "tune")]
    if let Some(i) = TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
    {
        let t = TUNABLES[i];
        OFFSETS[i].store(value.clamp(t.min, t.max) - t.default, Ordering::Relaxed);
    }
    #[cfg(not(feature = "tune"))]
    let _ = (name, value);
}

/// The table as `betacut tunables` prints it: `name default min max step`, one per line.
pub fn table_text() -> String {
    TUNABLES
        .iter()
        .map(|t| format!("{} {} {} {} {}\n", t.name, t.default, t.min, t.max, t.step))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_within_its_range_and_names_are_unique() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0 && t.step <= t.max - t.min, "{}", t.name);
            assert!(
                TUNABLES[..i].iter().all(|u| u.name != t.name),
                "{} twice",
                t.name
            );
        }
        assert_eq!(find("RFP_MARGIN").map(|t| t.default), Some(rfp_margin()));
        assert_eq!(table_text().lines().count(), TUNABLES.len());
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tune_build_takes_new_values_within_range() {
        let t = *find("lmp_base").unwrap();
        set("LMP_BASE", t.default + 1);
        assert_eq!(lmp_base(), t.default + 1);
        set("lmp_base", t.max + 100);
        assert_eq!(lmp_base(), t.max);
        set("lmp_base", t.default);
        assert_eq!(lmp_base(), t.default);
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn the_users_build_keeps_its_constants() {
        let before = rfp_margin();
        set("rfp_margin", before + 10);
        assert_eq!(rfp_margin(), before);
    }
}
