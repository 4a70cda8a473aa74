//! What a search may spend: depth, nodes, time per move, a game clock, or nothing (infinite).

use crate::board::Move;
use std::time::Duration;

/// The engine's clock when a search starts (conventional or incremental time control), as the
/// interface reports it; [`super::time`] decides what to keep back from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on our clock.
    pub remaining: Duration,
    /// Time added after each of our moves.
    pub increment: Duration,
    /// Moves until the next time control (`None` in sudden death and incremental games).
    pub moves_to_go: Option<u32>,
}

/// Limits of one search; every limit that is set applies (the first one reached stops it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration to complete.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Soft node budget: no iteration starts once the search has used this many nodes, so the
    /// move comes from a completed iteration (data generation; `nodes` stays the hard cap).
    pub soft_nodes: Option<u64>,
    /// Exact time for this move (XBoard `st`, UCI `movetime`).
    pub movetime: Option<Duration>,
    /// Game clock, from which the time manager derives soft and hard limits.
    pub clock: Option<Clock>,
    /// Margin the user asks to keep back from every time limit for communication delays.
    pub move_overhead: Duration,
    /// The delay the interface was measured to add to every move (zero when unknown); the
    /// time manager keeps back the larger of this and `move_overhead`.
    pub gui_lag: Duration,
    /// XBoard `nps` mode: time is measured in nodes, at this many nodes per second.
    pub nps: Option<u64>,
    /// Stop once a mate in at most this many moves is found (UCI `go mate`).
    pub mate: Option<u32>,
    /// Search until told to stop (analysis, pondering); time limits wait for a ponder hit.
    pub infinite: bool,
    /// Root moves not to search (XBoard `exclude`, the complement of UCI `searchmoves`).
    pub excluded: Vec<Move>,
    /// Number of best lines to find and report (MultiPV); 0 and 1 both mean one.
    pub multipv: usize,
}

impl SearchLimits {
    /// Limits of a fixed-depth search.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// Limits of a fixed-time search.
    pub fn movetime(time: Duration) -> SearchLimits {
        SearchLimits {
            movetime: Some(time),
            ..SearchLimits::default()
        }
    }

    /// Limits of an infinite search (analysis).
    pub fn infinite() -> SearchLimits {
        SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        }
    }
}
