//! The evaluation function: every term, written once, generic over a [`Trace`].

use super::masks::{attack_span, distance, forward_file};
use super::packed::S;
use super::params::*;
use super::pawns::{evaluate_pawns, PawnCache, PawnInfo};
use super::psq;
use super::trace::{NoTrace, Trace};
use super::weights::WEIGHTS;
use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks_bulk, rook_attacks,
};
use crate::board::{Bitboard, Color, PieceKind, Position, Square};

/// Game phase at the start: knights and bishops count 1, rooks 2, queens 4.
pub const MAX_PHASE: i32 = 24;
/// Endgame scale meaning "no scaling".
pub const NORMAL_SCALE: i32 = 64;

/// Attack-unit weight of a piece kind hitting the enemy king zone (pawn..king).
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Evaluates `pos` from the side to move's view, using `pawns` to cache pawn structure (the
/// material and square sum is computed from scratch; the search keeps it running instead, see
/// [`super::Evaluator`]).
pub fn evaluate(pos: &Position, pawns: &mut PawnCache) -> i32 {
    evaluate_with_psq(pos, pawns, psq::sum(pos))
}

/// Evaluates `pos` given its material and square sum `psq` (White's view).
#[inline]
pub fn evaluate_with_psq(pos: &Position, pawns: &mut PawnCache, psq: S) -> i32 {
    let info = pawns.probe(pos);
    evaluate_with(pos, psq, info, &mut NoTrace)
}

/// Evaluates `pos` while recording every weight used in `trace` (for the tuner).
pub fn evaluate_traced<T: Trace>(pos: &Position, trace: &mut T) -> i32 {
    let info = evaluate_pawns(pos, trace);
    evaluate_with(pos, psq::sum(pos), info, trace)
}

/// Game phase from the pieces on the board, 0 (pawn endgame) ..= 24 (all pieces).
#[inline]
pub fn game_phase(pos: &Position) -> i32 {
    let phase = pos.pieces(PieceKind::Knight).count()
        + pos.pieces(PieceKind::Bishop).count()
        + 2 * pos.pieces(PieceKind::Rook).count()
        + 4 * pos.pieces(PieceKind::Queen).count();
    (phase as i32).min(MAX_PHASE)
}

fn evaluate_with<T: Trace>(pos: &Position, psq: S, pawn_info: PawnInfo, trace: &mut T) -> i32 {
    let mut score = psq + pawn_info.score;
    if T::ENABLED {
        trace_material_and_squares(pos, trace);
    }
    let white = side_terms(pos, Color::White, pawn_info.passed, trace);
    let black = side_terms(pos, Color::Black, pawn_info.passed, trace);
    score += white - black;

    let stm = pos.side_to_move();
    trace.add(TEMPO, stm, 1);
    score += match stm {
        Color::White => WEIGHTS[TEMPO],
        Color::Black => -WEIGHTS[TEMPO],
    };

    let phase = game_phase(pos);
    let scale = endgame_scale(pos, score.eg());
    trace.set_phase_and_scale(phase, scale);
    let blended =
        (score.mg() * phase + score.eg() * (MAX_PHASE - phase) * scale / NORMAL_SCALE) / MAX_PHASE;
    blended * stm.sign()
}

/// Records the material and piece-square weights (kept incrementally by the position in play).
fn trace_material_and_squares<T: Trace>(pos: &Position, trace: &mut T) {
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            let kind = piece.kind.index();
            if piece.kind != PieceKind::King {
                trace.add(MATERIAL + kind, piece.color, 1);
            }
            let relative = match piece.color {
                Color::White => sq,
                Color::Black => sq.flip_rank(),
            };
            trace.add(
                PSQT + kind * 32 + half_board_index(relative.index()),
                piece.color,
                1,
            );
        }
    }
}

/// Everything evaluated per side beyond material, squares and pawn structure: mobility,
/// outposts, open files, threats, king safety (as attacker and defender), passed pawns.
fn side_terms<T: Trace>(pos: &Position, us: Color, passed: Bitboard, trace: &mut T) -> S {
    let them = !us;
    let occupied = pos.occupied();
    let own_pawns = pos.pieces_of(us, PieceKind::Pawn);
    let enemy_pawns = pos.pieces_of(them, PieceKind::Pawn);
    let enemy_pawn_attacks = pawn_attacks_bulk(them, enemy_pawns);
    let own_pawn_attacks = pawn_attacks_bulk(us, own_pawns);
    let mobility_area = !(own_pawns | pos.pieces_of(us, PieceKind::King) | enemy_pawn_attacks);
    let enemy_king = pos.king_square(them);
    let enemy_king_zone = king_attacks(enemy_king).with(enemy_king);
    let enemy_majors = pos.pieces_of(them, PieceKind::Rook) | pos.pieces_of(them, PieceKind::Queen);
    let enemy_queens = pos.pieces_of(them, PieceKind::Queen);
    // Squares from which each kind of piece would check the enemy king, kept to those not
    // occupied by our own men, held by no enemy pawn and not next to the king (its own guard;
    // the zone's own square, the king's, is never a checking square).
    let check_safe = !pos.color_bb(us) & !enemy_pawn_attacks & !enemy_king_zone;
    let diagonal_checks = bishop_attacks(enemy_king, occupied) & check_safe;
    let straight_checks = rook_attacks(enemy_king, occupied) & check_safe;
    let knight_checks = knight_attacks(enemy_king) & check_safe;

    let mut score = S::ZERO;
    let mut term = |index: usize, count: i32, trace: &mut T| {
        score += WEIGHTS[index] * count;
        trace.add(index, us, count);
    };

    let mut attackers = 0;
    let mut attack_units = 0;

    for (kind, mobility_table) in [
        (PieceKind::Knight, KNIGHT_MOBILITY),
        (PieceKind::Bishop, BISHOP_MOBILITY),
        (PieceKind::Rook, ROOK_MOBILITY),
        (PieceKind::Queen, QUEEN_MOBILITY),
    ] {
        for sq in pos.pieces_of(us, kind) {
            let attacks = match kind {
                PieceKind::Knight => knight_attacks(sq),
                PieceKind::Bishop => bishop_attacks(sq, occupied),
                PieceKind::Rook => rook_attacks(sq, occupied),
                _ => bishop_attacks(sq, occupied) | rook_attacks(sq, occupied),
            };
            term(
                mobility_table + (attacks & mobility_area).count() as usize,
                1,
                trace,
            );

            let (checks, weight) = match kind {
                PieceKind::Knight => (knight_checks, SAFE_CHECK),
                PieceKind::Bishop => (diagonal_checks, SAFE_CHECK + 1),
                PieceKind::Rook => (straight_checks, SAFE_CHECK + 2),
                _ => (diagonal_checks | straight_checks, SAFE_CHECK + 3),
            };
            if (attacks & checks).any() {
                term(weight, 1, trace);
            }

            let zone_hits = attacks & enemy_king_zone;
            if zone_hits.any() {
                attackers += 1;
                attack_units += KING_ATTACK_WEIGHT[kind.index()] + zone_hits.count() as i32;
            }

            match kind {
                PieceKind::Knight | PieceKind::Bishop => {
                    let rank = us.relative_rank(sq.rank());
                    let outpost = (3..=5).contains(&rank)
                        && own_pawn_attacks.contains(sq)
                        && (attack_span(us, sq) & enemy_pawns).is_empty();
                    if outpost {
                        let index = if kind == PieceKind::Knight {
                            KNIGHT_OUTPOST
                        } else {
                            BISHOP_OUTPOST
                        };
                        term(index, 1, trace);
                    }
                    let threats = (attacks & enemy_majors).count() as i32;
                    if threats > 0 {
                        term(THREAT_BY_MINOR, threats, trace);
                    }
                }
                PieceKind::Rook => {
                    let file = Bitboard::file(sq.file());
                    if (file & own_pawns).is_empty() {
                        let index = if (file & enemy_pawns).is_empty() {
                            ROOK_OPEN_FILE
                        } else {
                            ROOK_SEMI_OPEN_FILE
                        };
                        term(index, 1, trace);
                    }
                    if (attacks & enemy_queens).any() {
                        term(THREAT_BY_ROOK, 1, trace);
                    }
                }
                _ => {}
            }
        }
    }

    if pos.pieces_of(us, PieceKind::Bishop).more_than_one() {
        term(BISHOP_PAIR, 1, trace);
    }

    let enemy_pieces = pos.color_bb(them) & !enemy_pawns & !pos.pieces_of(them, PieceKind::King);
    let pawn_threats = (own_pawn_attacks & enemy_pieces).count() as i32;
    if pawn_threats > 0 {
        term(THREAT_BY_PAWN, pawn_threats, trace);
    }

    if attackers >= 2 {
        term(KING_ATTACK + attack_units.min(31) as usize, 1, trace);
    }

    // Our own king's shelter.
    let king = pos.king_square(us);
    let first_file = king.file().saturating_sub(1);
    let last_file = (king.file() + 1).min(7);
    for file in first_file..=last_file {
        let file_bb = Bitboard::file(file);
        let shield = forward_file(us, Square::new(file, king.rank())) & own_pawns;
        let nearest = if shield.is_empty() {
            None
        } else {
            let sq = match us {
                Color::White => shield.lsb(),
                Color::Black => shield.msb(),
            };
            Some((sq.rank() as i32 - king.rank() as i32).abs())
        };
        match nearest {
            Some(1) => term(KING_SHIELD, 1, trace),
            Some(2) => term(KING_SHIELD + 1, 1, trace),
            _ => term(KING_SHIELD + 2, 1, trace),
        }
        if (file_bb & own_pawns).is_empty() {
            if (file_bb & enemy_pawns).is_empty() {
                term(KING_OPEN_FILE, 1, trace);
            } else {
                term(KING_SEMI_OPEN_FILE, 1, trace);
            }
        }
    }

    // Passed pawns: what depends on the kings and blockers (not cacheable with the pawns).
    for sq in passed & own_pawns {
        let rank = us.relative_rank(sq.rank()) as usize;
        let stop = sq.offset(us.forward());
        if !occupied.contains(stop) {
            term(PASSED_FREE + rank, 1, trace);
        }
        term(PASSED_OWN_KING + rank, distance(king, stop), trace);
        term(PASSED_ENEMY_KING + rank, distance(enemy_king, stop), trace);
    }

    score
}

/// Non-pawn material by fixed values, for recognising drawish endings.
fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    320 * pos.pieces_of(color, PieceKind::Knight).count() as i32
        + 330 * pos.pieces_of(color, PieceKind::Bishop).count() as i32
        + 500 * pos.pieces_of(color, PieceKind::Rook).count() as i32
        + 900 * pos.pieces_of(color, PieceKind::Queen).count() as i32
}

/// How much of the endgame score the stronger side keeps (0..=64): less without pawns and with
/// too little extra material to mate, and with bishops of opposite colours.
pub fn endgame_scale(pos: &Position, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let strong_npm = non_pawn_material(pos, strong);
    let weak_npm = non_pawn_material(pos, weak);
    if pos.pieces_of(strong, PieceKind::Pawn).is_empty() {
        if strong_npm <= 330 {
            return 0;
        }
        let two_knights =
            pos.pieces_of(strong, PieceKind::Knight).count() == 2 && strong_npm == 640;
        if two_knights && weak_npm == 0 {
            return 0;
        }
        if strong_npm - weak_npm <= 330 {
            return 16;
        }
    }
    let bishops = pos.pieces(PieceKind::Bishop);
    let others =
        pos.pieces(PieceKind::Knight) | pos.pieces(PieceKind::Rook) | pos.pieces(PieceKind::Queen);
    let one_each = pos.pieces_of(Color::White, PieceKind::Bishop).count() == 1
        && pos.pieces_of(Color::Black, PieceKind::Bishop).count() == 1;
    if one_each
        && (bishops & Bitboard::LIGHT_SQUARES).count() == 1
        && (bishops & Bitboard::DARK_SQUARES).count() == 1
    {
        return if others.is_empty() { 32 } else { 48 };
    }
    NORMAL_SCALE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::trace::FeatureTrace;

    fn safe_checks(fen: &str) -> Vec<i32> {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut trace = FeatureTrace::default();
        evaluate_traced(&pos, &mut trace);
        trace.coefficients[SAFE_CHECK..SAFE_CHECK + 4].to_vec()
    }

    #[test]
    fn safe_checks_count_reachable_check_squares_no_pawn_guards() {
        // The knight on g4 reaches f6 and h6, both knight checks against the king on g8.
        assert_eq!(safe_checks("6k1/8/8/8/6N1/8/8/4K3 w - - 0 1"), [1, 0, 0, 0]);
        // A pawn on g7 guards both squares: no safe check left.
        assert_eq!(
            safe_checks("6k1/6p1/8/8/6N1/8/8/4K3 w - - 0 1"),
            [0, 0, 0, 0]
        );
        // The rook on a1 reaches g1 (a check down the g-file) and a8 (along the eighth rank).
        assert_eq!(safe_checks("6k1/8/8/8/8/8/8/R6K w - - 0 1"), [0, 0, 1, 0]);
        // A queen there does the same; the bishop on b1 has no check square within reach
        // (h7 is next to the king, and the pawn on f7 blocks the diagonal beyond it anyway).
        assert_eq!(
            safe_checks("6k1/5p2/8/8/8/8/8/QB5K w - - 0 1"),
            [0, 0, 0, 1]
        );
        // Colours count against each other: Black's knight on g5 reaches f3 and h3 (checks
        // against the king on g1), so the counts cancel.
        assert_eq!(
            safe_checks("6k1/8/8/6n1/6N1/8/8/6K1 w - - 0 1"),
            [0, 0, 0, 0]
        );
    }
}
