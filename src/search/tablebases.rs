//! What a search needs of the tablebases: the tables, the probing settings, the root ranking
//! and a hit counter shared by the search threads.
//!
//! In the tree, a position is probed (WDL) right after a capture or pawn move (so the
//! fifty-move counter is zero and the table's result is exact), when it has no castling
//! rights and at most `SyzygyProbeLimit` pieces (capped by the largest table), and, at exactly
//! that many pieces, when the remaining depth is at least `SyzygyProbeDepth`. A win scores
//! [`TB_WIN`] minus the ply (a lower bound: a mate may be better), a loss the negative (an
//! upper bound); with `Syzygy50MoveRule` a win the rule spoils scores 2 and a loss it saves
//! -2 (exact), without it they count as a win or loss.

use super::score::{self, DRAW, TB_WIN};
use super::tt::Bound;
use crate::board::{Move, Position};
use crate::tb::root::{rank_root_moves, RootRanking};
use crate::tb::Tablebases;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The tablebase options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbSettings {
    /// `Syzygy50MoveRule`: wins and losses that the fifty-move rule turns into draws count as
    /// draws.
    pub rule50: bool,
    /// `SyzygyProbeDepth`: least remaining depth for a probe of a position with as many pieces
    /// as the probe limit.
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: most pieces of a position probed in the search.
    pub probe_limit: u32,
}

/// Default of `SyzygyProbeDepth`.
pub const DEFAULT_PROBE_DEPTH: i32 = 1;
/// Default (and largest value) of `SyzygyProbeLimit`.
pub const DEFAULT_PROBE_LIMIT: u32 = 7;

impl Default for TbSettings {
    fn default() -> TbSettings {
        TbSettings {
            rule50: true,
            probe_depth: DEFAULT_PROBE_DEPTH,
            probe_limit: DEFAULT_PROBE_LIMIT,
        }
    }
}

/// The tablebases of one search: tables, settings, root ranking, hits.
#[derive(Debug)]
pub struct SearchTablebases {
    tables: Arc<Tablebases>,
    rule50: bool,
    /// Most pieces probed in the tree (0: no probes in the tree).
    cardinality: u32,
    probe_depth: i32,
    root: Option<RootRanking>,
    hits: AtomicU64,
}

impl SearchTablebases {
    /// Prepares a search of `pos` over `moves`: ranks the root moves if the root is in the
    /// tables, and works out which positions the tree probes. The tree probes also below a
    /// ranked root: the moves are chosen already, but the probes keep the lines shown sound
    /// (a line that gives a rook away ends in a tablebase draw, not in the evaluation).
    pub fn new(
        tables: Arc<Tablebases>,
        settings: TbSettings,
        pos: &Position,
        moves: &[Move],
    ) -> SearchTablebases {
        let largest = tables.max_pieces();
        let (cardinality, probe_depth) = if settings.probe_limit > largest {
            (largest, 0)
        } else {
            (settings.probe_limit, settings.probe_depth)
        };
        let root = if pos.occupied().count() <= cardinality {
            rank_root_moves(&tables, pos, moves, settings.rule50)
        } else {
            None
        };
        let hits = root.as_ref().map_or(0, |r| r.probes);
        SearchTablebases {
            tables,
            rule50: settings.rule50,
            cardinality,
            probe_depth,
            root,
            hits: AtomicU64::new(hits),
        }
    }

    /// The root ranking, if the root is in the tables.
    pub fn root(&self) -> Option<&RootRanking> {
        self.root.as_ref()
    }

    /// Probes made so far (root ranking included).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// The score to report for a root line whose search scored `searched`: the tablebase
    /// result of the root, unless the search found a mate that agrees with it.
    pub fn root_score(&self, searched: i32) -> i32 {
        let Some(root) = &self.root else {
            return searched;
        };
        let result = match root.wdl {
            2 => TB_WIN,
            -2 => -TB_WIN,
            // A result the fifty-move rule turns into a draw.
            w => DRAW + 2 * w.signum(),
        };
        if score::is_mate(searched) && searched.signum() == result.signum() {
            searched
        } else {
            result
        }
    }

    /// Probes `pos`, `ply` plies from the root with `depth` left, if the settings say so: its
    /// score and bound (see the module documentation). `pos` is given back unchanged.
    #[inline]
    pub fn probe(&self, pos: &mut Position, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let pieces = pos.occupied().count();
        if pieces > self.cardinality
            || (pieces == self.cardinality && depth < self.probe_depth)
            || pos.halfmove_clock() != 0
            || pos.castling_rights() != 0
        {
            return None;
        }
        let wdl = self.tables.wdl(pos).ok()?;
        self.hits.fetch_add(1, Ordering::Relaxed);
        let draw = i32::from(self.rule50);
        let ply = ply as i32;
        Some(if wdl < -draw {
            (-TB_WIN + ply, Bound::Upper)
        } else if wdl > draw {
            (TB_WIN - ply, Bound::Lower)
        } else {
            (DRAW + 2 * wdl * draw, Bound::Exact)
        })
    }
}
