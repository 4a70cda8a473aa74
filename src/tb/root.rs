//! Root move ranking: when the root position is in the tables, every root move is probed and
//! ranked, and only the moves of the best rank are searched, so the engine never gives away a
//! tablebase win (or draw) and always makes progress.
//!
//! With DTZ tables, a move's rank comes from its DTZ counted from the root and the root's
//! fifty-move counter `c`:
//!
//! - a win whose zeroing move comes in time (`dtz + c <= 99`) and that does not return to a
//!   position seen before ranks `MAX_RANK - dtz`: the engine plays a move of the shortest DTZ
//!   (the fastest way to the next capture, pawn move or mate), leaving the choice among equal
//!   moves to the search;
//! - a win the fifty-move rule may spoil ranks `MAX_RANK / 2 - (dtz + c)`;
//! - a draw ranks 0;
//! - a loss that comes in time ranks `-MAX_RANK` (all alike: the search chooses the defence);
//!   when the fifty-move rule may save it (`-2 dtz + c >= 100`) it ranks
//!   `-MAX_RANK / 2 + (c - dtz)`, the longest resistance first, and is a loss the rule saves
//!   when `c - dtz > 100`.
//!
//! Without DTZ tables the WDL of each move ranks it. With `Syzygy50MoveRule` off, a win that
//! the rule would spoil counts as a win.

use super::probe::Tablebases;
use crate::board::{Move, Position};

/// Rank of the best win; anything above `MAX_RANK / 2 - 100` is a win in time.
const MAX_RANK: i32 = 1 << 18;

/// The ranked root moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every root move with its rank, best first.
    pub ranked: Vec<(Move, i32)>,
    /// The moves to search: those of the best rank.
    pub kept: Vec<Move>,
    /// The result of the root under the settings: 2 win, 1 win the fifty-move rule spoils,
    /// 0 draw, -1, -2 (the side to move's view).
    pub wdl: i32,
    /// True when DTZ tables ranked the moves (else WDL alone).
    pub by_dtz: bool,
    /// Tablebase probes made (one per root move).
    pub probes: u64,
}

fn dtz_before_zeroing(wdl: i32) -> i32 {
    wdl.signum() * if wdl.abs() == 2 { 1 } else { 101 }
}

/// Ranks `moves` (legal in `pos`) with `tables`; `None` when the root is not in the tables
/// (too many pieces, castling rights, a table missing or unusable).
pub fn rank_root_moves(
    tables: &Tablebases,
    pos: &Position,
    moves: &[Move],
    rule50: bool,
) -> Option<RootRanking> {
    if moves.is_empty() || !tables.covers(pos) {
        return None;
    }
    let mut pos = pos.clone();
    let (ranks, by_dtz) = match rank_by_dtz(tables, &mut pos, moves) {
        Some(ranks) => (ranks, true),
        None => (rank_by_wdl(tables, &mut pos, moves, rule50)?, false),
    };
    let mut ranked: Vec<(Move, i32)> = moves.iter().copied().zip(ranks).collect();
    ranked.sort_by_key(|&(_, rank)| std::cmp::Reverse(rank));
    let best = ranked[0].1;
    let kept = ranked
        .iter()
        .filter(|&&(_, r)| r == best)
        .map(|&(m, _)| m)
        .collect();
    // Wins in time rank above `bound`; with the rule off, every win does.
    let bound = if rule50 { MAX_RANK / 2 - 100 } else { 1 };
    let wdl = if best >= bound {
        2
    } else if best > 0 {
        1
    } else if best == 0 {
        0
    } else if best > -bound {
        -1
    } else {
        -2
    };
    Some(RootRanking {
        ranked,
        kept,
        wdl,
        by_dtz,
        probes: moves.len() as u64,
    })
}

/// Ranks by DTZ (see the module documentation); `None` if a probe fails.
fn rank_by_dtz(tables: &Tablebases, pos: &mut Position, moves: &[Move]) -> Option<Vec<i32>> {
    let counter = pos.halfmove_clock() as i32;
    let root_repeated = pos.is_repetition();
    let mut ranks = Vec::with_capacity(moves.len());
    for &mv in moves {
        pos.make_move(mv);
        let dtz = move_dtz(tables, pos);
        let repeated = root_repeated || pos.is_repetition();
        pos.unmake_move(mv);
        let dtz = dtz?;
        let rank = if dtz > 0 {
            if dtz + counter <= 99 && !repeated {
                MAX_RANK - dtz
            } else {
                MAX_RANK / 2 - (dtz + counter)
            }
        } else if dtz < 0 {
            if -dtz * 2 + counter < 100 {
                -MAX_RANK
            } else {
                -MAX_RANK / 2 + (-dtz + counter)
            }
        } else {
            0
        };
        ranks.push(rank);
    }
    Some(ranks)
}

/// The DTZ of the move just made, counted from the position before it (so from the mover's
/// view); 0 for a move into a draw by the fifty-move rule or threefold repetition.
fn move_dtz(tables: &Tablebases, child: &mut Position) -> Option<i32> {
    let mut dtz = if child.halfmove_clock() == 0 {
        // A capture or pawn move: the zeroing move itself.
        dtz_before_zeroing(-tables.wdl(child).ok()?)
    } else if (child.is_fifty_move_draw() && !child.is_checkmate())
        || child.repetition_count(2) >= 2
    {
        0
    } else {
        let d = -tables.dtz(child).ok()?;
        d + d.signum()
    };
    // A mate is the shortest win there is.
    if dtz == 2 && child.is_checkmate() {
        dtz = 1;
    }
    Some(dtz)
}

/// Ranks by WDL alone (no DTZ tables); `None` if a probe fails.
fn rank_by_wdl(
    tables: &Tablebases,
    pos: &mut Position,
    moves: &[Move],
    rule50: bool,
) -> Option<Vec<i32>> {
    const WDL_RANK: [i32; 5] = [-MAX_RANK, -MAX_RANK + 101, 0, MAX_RANK - 101, MAX_RANK];
    let mut ranks = Vec::with_capacity(moves.len());
    for &mv in moves {
        pos.make_move(mv);
        let wdl = tables.wdl(pos);
        pos.unmake_move(mv);
        let mut wdl = -wdl.ok()?;
        if !rule50 {
            wdl = 2 * wdl.signum();
        }
        ranks.push(WDL_RANK[(wdl + 2) as usize]);
    }
    Some(ranks)
}
