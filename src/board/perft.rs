//! Perft (move-path enumeration): the number of leaf nodes of the legal move tree, which proves
//! the move generator exact against published counts and measures its speed. Leaves are counted
//! in bulk: at depth 1 the legal moves are counted with popcounts, not generated.

use super::{Move, Position};

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &mv in moves.iter() {
                pos.make_move(mv);
                nodes += perft(pos, depth - 1);
                pos.unmake_move(mv);
            }
            nodes
        }
    }
}

/// Perft split by root move: each legal move with the leaf count below it.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            pos.make_move(mv);
            let nodes = perft(pos, depth.saturating_sub(1));
            pos.unmake_move(mv);
            (mv, nodes)
        })
        .collect()
}
