//! Material plus piece-square values of every piece on every square, built at compile time from
//! the weights; the position keeps their sum up to date in make/unmake.

use super::packed::S;
use super::params::{half_board_index, MATERIAL, PSQT};
use super::weights::WEIGHTS;
use crate::board::{BoardChanges, Piece, Position, Square};

const fn build() -> [[S; 64]; 12] {
    let mut table = [[S::ZERO; 64]; 12];
    let mut piece = 0;
    while piece < 12 {
        let (color, kind) = (piece / 6, piece % 6);
        let mut sq = 0;
        while sq < 64 {
            let relative = if color == 0 { sq } else { sq ^ 56 };
            let square = WEIGHTS[PSQT + kind * 32 + half_board_index(relative)];
            let material = if kind < 5 {
                WEIGHTS[MATERIAL + kind]
            } else {
                S::ZERO
            };
            let (mg, eg) = (square.mg() + material.mg(), square.eg() + material.eg());
            table[piece][sq] = if color == 0 {
                S::new(mg, eg)
            } else {
                S::new(-mg, -eg)
            };
            sq += 1;
        }
        piece += 1;
    }
    table
}

static PSQ: [[S; 64]; 12] = build();

/// Material plus square value of `piece` on `sq`, from White's view (negative for Black).
#[inline(always)]
pub fn value(piece: Piece, sq: Square) -> S {
    PSQ[piece.index()][sq.index()]
}

/// Material plus square values of every piece on the board, from White's view.
pub fn sum(pos: &Position) -> S {
    let mut total = S::ZERO;
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            total += value(piece, sq);
        }
    }
    total
}

/// `total` updated by what the last move changed on the board.
#[inline(always)]
pub fn apply_changes(mut total: S, changes: &BoardChanges) -> S {
    for change in changes.iter() {
        if let Some(from) = change.from {
            total -= value(change.piece, from);
        }
        if let Some(to) = change.to {
            total += value(change.piece, to);
        }
    }
    total
}
