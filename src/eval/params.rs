//! Layout of the evaluation weights: one flat table of tapered scores with named offsets, shared
//! by the evaluator, the incremental piece-square sums in make/unmake, and the Texel tuner
//! (which sees the same indices through an evaluation trace).

/// Material values, pawn to queen (5).
pub const MATERIAL: usize = 0;
/// Piece-square tables: 6 kinds x 32 squares (files mirrored: a-d = h-e), from the owner's side.
pub const PSQT: usize = MATERIAL + 5;
/// Knight mobility by number of safe squares (0..=8).
pub const KNIGHT_MOBILITY: usize = PSQT + 6 * 32;
/// Bishop mobility (0..=13).
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
/// Rook mobility (0..=14).
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
/// Queen mobility (0..=27).
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
/// Two bishops.
pub const BISHOP_PAIR: usize = QUEEN_MOBILITY + 28;
/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// Knight on ranks 4-6, defended by a pawn, not attackable by enemy pawns.
pub const KNIGHT_OUTPOST: usize = ROOK_SEMI_OPEN_FILE + 1;
/// Bishop on such an outpost.
pub const BISHOP_OUTPOST: usize = KNIGHT_OUTPOST + 1;
/// Pawn with an own pawn in front of it on the same file.
pub const DOUBLED_PAWN: usize = BISHOP_OUTPOST + 1;
/// Pawn with no own pawns on neighbouring files.
pub const ISOLATED_PAWN: usize = DOUBLED_PAWN + 1;
/// Pawn that cannot be defended by own pawns and cannot safely advance.
pub const BACKWARD_PAWN: usize = ISOLATED_PAWN + 1;
/// Pawn defended by a pawn or standing beside one, by relative rank (8).
pub const CONNECTED_PAWN: usize = BACKWARD_PAWN + 1;
/// Passed pawn by relative rank (8).
pub const PASSED_PAWN: usize = CONNECTED_PAWN + 8;
/// Passed pawn whose stop square is empty, by relative rank (8).
pub const PASSED_FREE: usize = PASSED_PAWN + 8;
/// Passed pawn: per square of distance from the own king to the stop square, by rank (8).
pub const PASSED_OWN_KING: usize = PASSED_FREE + 8;
/// Passed pawn: per square of distance from the enemy king to the stop square, by rank (8).
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 8;
/// King shield, per file next to the king: own pawn one rank ahead, two ranks ahead, none (3).
pub const KING_SHIELD: usize = PASSED_ENEMY_KING + 8;
/// File next to (or of) the king without any pawns.
pub const KING_OPEN_FILE: usize = KING_SHIELD + 3;
/// File next to (or of) the king without own pawns.
pub const KING_SEMI_OPEN_FILE: usize = KING_OPEN_FILE + 1;
/// King danger by attack units against the king zone (32).
pub const KING_ATTACK: usize = KING_SEMI_OPEN_FILE + 1;
/// Safe checks: a square from which a knight, bishop, rook or queen of ours (in that order)
/// would check the enemy king, reachable by that piece, not held by an enemy pawn nor next to
/// the enemy king; counted once per piece that has one (4).
pub const SAFE_CHECK: usize = KING_ATTACK + 32;
/// Enemy minor or major piece attacked by a pawn.
pub const THREAT_BY_PAWN: usize = SAFE_CHECK + 4;
/// Enemy rook or queen attacked by a minor piece.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Enemy queen attacked by a rook.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
/// Bonus for the side to move.
pub const TEMPO: usize = THREAT_BY_ROOK + 1;
/// Number of weights.
pub const NUM_PARAMS: usize = TEMPO + 1;

/// Named sections of the table (name, first index, length), for printing and tuning reports.
pub const SECTIONS: &[(&str, usize, usize)] = &[
    ("material", MATERIAL, 5),
    ("psqt pawn", PSQT, 32),
    ("psqt knight", PSQT + 32, 32),
    ("psqt bishop", PSQT + 64, 32),
    ("psqt rook", PSQT + 96, 32),
    ("psqt queen", PSQT + 128, 32),
    ("psqt king", PSQT + 160, 32),
    ("knight mobility", KNIGHT_MOBILITY, 9),
    ("bishop mobility", BISHOP_MOBILITY, 14),
    ("rook mobility", ROOK_MOBILITY, 15),
    ("queen mobility", QUEEN_MOBILITY, 28),
    ("bishop pair", BISHOP_PAIR, 1),
    ("rook open file", ROOK_OPEN_FILE, 1),
    ("rook semi-open file", ROOK_SEMI_OPEN_FILE, 1),
    ("knight outpost", KNIGHT_OUTPOST, 1),
    ("bishop outpost", BISHOP_OUTPOST, 1),
    ("doubled pawn", DOUBLED_PAWN, 1),
    ("isolated pawn", ISOLATED_PAWN, 1),
    ("backward pawn", BACKWARD_PAWN, 1),
    ("connected pawn", CONNECTED_PAWN, 8),
    ("passed pawn", PASSED_PAWN, 8),
    ("passed pawn free", PASSED_FREE, 8),
    ("passed pawn own king distance", PASSED_OWN_KING, 8),
    ("passed pawn enemy king distance", PASSED_ENEMY_KING, 8),
    ("king shield", KING_SHIELD, 3),
    ("king open file", KING_OPEN_FILE, 1),
    ("king semi-open file", KING_SEMI_OPEN_FILE, 1),
    ("king attack", KING_ATTACK, 32),
    ("safe check", SAFE_CHECK, 4),
    ("threat by pawn", THREAT_BY_PAWN, 1),
    ("threat by minor", THREAT_BY_MINOR, 1),
    ("threat by rook", THREAT_BY_ROOK, 1),
    ("tempo", TEMPO, 1),
];

/// Index of a square within a mirrored 32-square table, from White's side (a1 = 0, d1 = 3,
/// h1 = 0, a2 = 4, ...).
#[inline(always)]
pub const fn half_board_index(square: usize) -> usize {
    let file = square & 7;
    let rank = square >> 3;
    let mirrored = if file < 4 { file } else { 7 - file };
    rank * 4 + mirrored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_tile_the_table() {
        let mut next = 0;
        for &(name, start, len) in SECTIONS {
            assert_eq!(start, next, "{name}");
            next = start + len;
        }
        assert_eq!(next, NUM_PARAMS);
    }
}
