//! Static evaluation: a score in centipawns from the side to move's view.

use crate::board::{Color, PieceKind, Position};

/// Material values in centipawns, pawn to king.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Evaluates `pos` from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut white = 0;
    for kind in PieceKind::ALL {
        let v = PIECE_VALUES[kind.index()];
        white += v * pos.pieces_of(Color::White, kind).count() as i32;
        white -= v * pos.pieces_of(Color::Black, kind).count() as i32;
    }
    white * pos.side_to_move().sign()
}
