//! The network's inputs: which of the 768 inputs of a perspective each piece activates.
//!
//! A perspective sees the board from its own side: its own pieces are colour 0, the opponent's
//! colour 1, and Black's perspective flips the board top to bottom (a1 <-> a8), so both sides
//! see their pieces as if they were White. Index = relative colour * 384 + kind * 64 + square.

use super::{INPUTS, MAX_ACTIVE};
use crate::board::{Color, Piece, Position, Square};

/// The input that `piece` on `square` activates in `perspective`'s half of the network.
#[inline(always)]
pub const fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    raw_feature_index(perspective.index(), piece.index(), square.index())
}

/// [`feature_index`] on plain indices: `perspective` 0 (White) or 1 (Black), `piece` 0..12
/// (White pawn..king, then Black pawn..king), `square` 0..64 (a1 = 0).
#[inline(always)]
pub const fn raw_feature_index(perspective: usize, piece: usize, square: usize) -> usize {
    let color = piece / 6;
    let kind = piece % 6;
    let relative_color = color ^ perspective;
    let relative_square = square ^ (56 * perspective);
    (relative_color * 384 + kind * 64 + relative_square) % INPUTS
}

/// The active inputs of `pos` from `perspective`, written into `out`; returns how many.
pub fn active_features(pos: &Position, perspective: Color, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let mut count = 0;
    for sq in pos.occupied() {
        if let (Some(piece), Some(slot)) = (pos.piece_at(sq), out.get_mut(count)) {
            *slot = feature_index(perspective, piece, sq) as u16;
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceKind;

    #[test]
    fn both_sides_see_their_own_pieces_alike() {
        let white_pawn = Piece::new(Color::White, PieceKind::Pawn);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let e2 = Square::new(4, 1);
        let e7 = Square::new(4, 6);
        // Own pawn on the own second rank: same input for both perspectives.
        assert_eq!(
            feature_index(Color::White, white_pawn, e2),
            feature_index(Color::Black, black_pawn, e7)
        );
        assert_eq!(feature_index(Color::White, white_pawn, e2), 12);
        // The opponent's pieces come after the own ones.
        assert_eq!(feature_index(Color::Black, white_pawn, e2), 384 + 52);
        let black_king = Piece::new(Color::Black, PieceKind::King);
        assert_eq!(feature_index(Color::White, black_king, Square::H8), 767);
        assert_eq!(
            feature_index(Color::Black, black_king, Square::H8),
            5 * 64 + 7
        );
    }

    #[test]
    fn every_input_is_reached_exactly_once_per_perspective() {
        for perspective in Color::ALL {
            let mut seen = [false; INPUTS];
            for piece in 0..12 {
                for square in 0..64 {
                    let i = raw_feature_index(perspective.index(), piece, square);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
    }

    #[test]
    fn the_start_position_has_32_active_inputs() {
        let mut out = [0u16; MAX_ACTIVE];
        let n = active_features(&Position::startpos(), Color::Black, &mut out);
        assert_eq!(n, 32);
    }
}
