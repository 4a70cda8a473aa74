//! Time management: turns the limits of a search into a soft limit (do not start another
//! iteration after it) and a hard limit (abort the search at it).

use super::limits::SearchLimits;
use std::time::Duration;

/// Smallest think time we ever plan for, so a nearly empty clock still produces a move.
const MIN_THINK: Duration = Duration::from_millis(1);
/// Moves we assume remain in a sudden-death game when budgeting.
const SUDDEN_DEATH_HORIZON: u32 = 30;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// After this, no new iteration is started (may be stretched by the search when the best
    /// move is unstable, up to `hard`).
    pub soft: Duration,
    /// The search is aborted at this point.
    pub hard: Duration,
    /// A fixed time per move (XBoard `st`): searched in full, never cut short by the soft
    /// limit.
    pub fixed: bool,
}

impl TimeBudget {
    /// The budget for `limits`, or `None` when no time limit applies (depth, nodes, infinite).
    pub fn from_limits(limits: &SearchLimits) -> Option<TimeBudget> {
        let overhead = limits.move_overhead;
        let movetime = limits.movetime.map(|t| {
            let t = t.saturating_sub(overhead).max(MIN_THINK);
            TimeBudget {
                soft: t,
                hard: t,
                fixed: true,
            }
        });
        let clock = limits.clock.map(|clock| {
            // Never plan to use more than what is on the clock minus the overhead, and keep a
            // reserve for the rest of the control.
            let available = clock.remaining.saturating_sub(overhead);
            let moves = clock
                .moves_to_go
                .filter(|&m| m > 0)
                .unwrap_or(SUDDEN_DEATH_HORIZON)
                .min(SUDDEN_DEATH_HORIZON);
            let base = available / moves + clock.increment.mul_f64(0.75);
            // When the last move of a control is near, spend more per move but never the last
            // fraction of the clock.
            let cap = if moves <= 1 {
                available.mul_f64(0.8)
            } else {
                available.mul_f64(0.5)
            };
            let soft = base.min(cap).max(MIN_THINK);
            let hard = (base * 4).min(cap).max(soft);
            TimeBudget {
                soft,
                hard,
                fixed: false,
            }
        });
        match (movetime, clock) {
            (Some(a), Some(b)) => Some(TimeBudget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
                fixed: false,
            }),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    fn clock(ms: u64, inc_ms: u64, mtg: Option<u32>) -> SearchLimits {
        SearchLimits {
            clock: Some(Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc_ms),
                moves_to_go: mtg,
            }),
            move_overhead: Duration::from_millis(20),
            ..SearchLimits::default()
        }
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        for (ms, inc, mtg) in [
            (1_000, 10, None),
            (50, 10, None),
            (10_000, 0, Some(40)),
            (300, 0, Some(1)),
            (5, 0, None),
        ] {
            let Some(b) = TimeBudget::from_limits(&clock(ms, inc, mtg)) else {
                panic!("clock limits give a budget");
            };
            assert!(b.soft <= b.hard);
            let left = Duration::from_millis(ms).saturating_sub(Duration::from_millis(20));
            assert!(b.hard <= left.max(MIN_THINK), "{ms} {inc} {mtg:?}: {b:?}");
        }
    }

    #[test]
    fn movetime_is_used_whole_minus_overhead() {
        let limits = SearchLimits {
            movetime: Some(Duration::from_millis(1000)),
            move_overhead: Duration::from_millis(30),
            ..SearchLimits::default()
        };
        let b = TimeBudget::from_limits(&limits);
        assert_eq!(b.map(|b| b.hard), Some(Duration::from_millis(970)));
        assert_eq!(TimeBudget::from_limits(&SearchLimits::depth(5)), None);
    }
}
