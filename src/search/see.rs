//! Static exchange evaluation: does a move win at least a given amount of material once every
//! capture and recapture on its destination square is played out (x-rays included)?

use crate::board::attacks::{bishop_attacks, rook_attacks};
use crate::board::{Bitboard, Move, MoveKind, PieceKind, Position};

/// Exchange values, pawn to king.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// The kind of piece `mv` captures (a pawn en passant; nothing when castling, whose king
/// "takes" its own rook), if any.
#[inline]
pub fn captured_kind(pos: &Position, mv: Move) -> Option<PieceKind> {
    match mv.kind() {
        MoveKind::EnPassant => Some(PieceKind::Pawn),
        MoveKind::Castling => None,
        _ => pos.piece_at(mv.to()).map(|p| p.kind),
    }
}

/// Exchange value of the piece `mv` captures (en passant captures a pawn), plus what a
/// promotion gains.
#[inline]
pub fn gain_of(pos: &Position, mv: Move) -> i32 {
    let captured = captured_kind(pos, mv).map_or(0, |k| SEE_VALUES[k.index()]);
    let promotion = mv
        .promotion_kind()
        .map_or(0, |k| SEE_VALUES[k.index()] - SEE_VALUES[0]);
    captured + promotion
}

/// True if `mv` wins at least `threshold` centipawns of material by exchanges on its square.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.kind() != MoveKind::Normal {
        // Castling, en passant and promotions: judged neutral (they are rare and mostly good).
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let Some(moving) = pos.piece_at(from) else {
        return false;
    };
    let mut swap = pos.piece_at(to).map_or(0, |p| SEE_VALUES[p.kind.index()]) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUES[moving.kind.index()] - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = pos.occupied().without(from).without(to);
    let mut side = pos.side_to_move();
    let mut attackers = pos.attackers_to(to, occupied);
    let diagonal = pos.pieces(PieceKind::Bishop) | pos.pieces(PieceKind::Queen);
    let orthogonal = pos.pieces(PieceKind::Rook) | pos.pieces(PieceKind::Queen);
    let mut result = true;

    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & pos.color_bb(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let Some((kind, square)) = least_valuable(pos, ours) else {
            break;
        };
        if kind == PieceKind::King {
            // The king may only take last: if the opponent still attacks, the capture is illegal.
            return if (attackers & !pos.color_bb(side)).any() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUES[kind.index()] - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied = occupied.without(square);
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= rook_attacks(to, occupied) & orthogonal;
        }
    }
    result
}

fn least_valuable(
    pos: &Position,
    attackers: Bitboard,
) -> Option<(PieceKind, crate::board::Square)> {
    PieceKind::ALL.into_iter().find_map(|kind| {
        let set = attackers & pos.pieces(kind);
        set.any().then(|| (kind, set.lsb()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, mv: &str, threshold: i32, expected: bool) {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(
            see_ge(&pos, m, threshold),
            expected,
            "{fen} {mv} >= {threshold}"
        );
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight: +320.
        check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "exd5", 320, true);
        check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "exd5", 321, false);
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        check("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "Qxd5", 0, false);
        check("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "Qxd5", -800, true);
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray): +500 - 500 + 500.
        check("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "Rxd7", 0, true);
        check("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "Rxd7", 1, false);
        // A quiet move onto a square attacked by a pawn loses the piece.
        check("4k3/8/8/2p5/8/8/8/3NK3 w - - 0 1", "Nc3", 0, true);
        check("4k3/8/4p3/8/4N3/8/8/4K3 w - - 0 1", "Nd6", -1, true);
        check("4k3/4p3/8/8/4N3/8/8/4K3 w - - 0 1", "Nd6", 0, false);
    }
}
