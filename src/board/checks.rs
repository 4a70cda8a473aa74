//! Fast "does this move give check?" for the search: the squares from which each piece kind
//! would check the enemy king, and our pieces whose departure uncovers a check, are worked out
//! once per node; each move is then a few bit tests instead of two slider lookups.

use super::attacks::{bishop_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::chess_move::{Move, MoveKind};
use super::position::Position;
use super::square::Square;

/// What a node knows about checking the enemy king (see [`Position::check_info`]).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king's square.
    king: Square,
    /// By piece kind: squares from which a piece of that kind attacks the enemy king.
    squares: [Bitboard; 6],
    /// Our pieces that alone block one of our sliders from the enemy king.
    discoverers: Bitboard,
}

impl Position {
    /// The check squares and discovered-check candidates of the side to move.
    #[inline(always)]
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move();
        let king = self.king_square(!us);
        let occupied = self.occupied();
        let diagonal = bishop_attacks(king, occupied);
        let orthogonal = rook_attacks(king, occupied);
        CheckInfo {
            king,
            squares: [
                pawn_attacks(!us, king),
                knight_attacks(king),
                diagonal,
                orthogonal,
                diagonal | orthogonal,
                Bitboard::EMPTY,
            ],
            discoverers: self.blockers_for_king(!us) & self.color_bb(us),
        }
    }

    /// True if the legal move `mv` checks the opponent; `info` is this position's
    /// [`Position::check_info`]. Same answer as [`Position::gives_check`]; castling, en passant
    /// and promotions are passed to it.
    #[inline]
    pub fn gives_check_with(&self, info: &CheckInfo, mv: Move) -> bool {
        if mv.kind() != MoveKind::Normal {
            return self.gives_check(mv);
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        // A slider cannot have been blocking its own new line to the king: it would have
        // been giving check already, with us to move.
        info.squares[piece.kind.index()].contains(to)
            || (info.discoverers.contains(from) && !line(from, info.king).contains(to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_gives_check_two_plies_deep() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "2k5/8/8/3B4/8/1R6/8/K2Q4 w - - 0 1",
            "4k3/8/4N3/8/4R3/8/8/4K3 w - - 0 1",
        ];
        let (mut moves, mut checks) = (0, 0);
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for &first in pos.legal_moves().clone().iter() {
                pos.make_move(first);
                let info = pos.check_info();
                for &mv in pos.legal_moves().iter() {
                    let expected = pos.gives_check(mv);
                    assert_eq!(
                        pos.gives_check_with(&info, mv),
                        expected,
                        "{fen} after {first:?}: {mv:?}"
                    );
                    moves += 1;
                    checks += usize::from(expected);
                }
                pos.unmake_move(first);
            }
        }
        // The positions are rich in checks, discovered ones included.
        assert!(
            moves > 4_000 && checks > 100,
            "{moves} moves, {checks} checks"
        );
    }

    #[test]
    fn discovered_and_direct_checks() {
        // The knight on e6 alone blocks the rook on e4 from the king on e8: every knight
        // move uncovers check (Nc7 and Ng7 also check directly), no rook or king move checks.
        let pos = Position::from_fen("4k3/8/4N3/8/4R3/8/8/4K3 w - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let info = pos.check_info();
        for &mv in pos.legal_moves().iter() {
            let coord = pos.move_to_coordinate(mv);
            let expected = coord.starts_with("e6");
            assert_eq!(pos.gives_check_with(&info, mv), expected, "{coord}");
        }
    }
}
