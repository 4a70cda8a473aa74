//! The Polyglot book format: 16-byte big-endian entries (key, move, weight, learn) and the
//! 16-bit move encoding.
//!
//! A move is `to` in bits 0-5 and `from` in bits 6-11 (square index a1 = 0 ... h8 = 63, the
//! same numbering as Betacut's), and the promotion piece in bits 12-14 (0 none, 1 knight,
//! 2 bishop, 3 rook, 4 queen). Castling is written as the king taking its own rook (`e1h1`,
//! `e1a1`, `e8h8`, `e8a8`), which is how Betacut stores castling internally too.

use crate::board::{Move, Position};

/// Size of one book entry in bytes.
pub const ENTRY_BYTES: usize = 16;

/// One raw book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Zobrist key of the position (Polyglot's, which is Betacut's [`Position::key`]).
    pub key: u64,
    /// The move in Polyglot's 16-bit encoding.
    pub raw_move: u16,
    /// How often, or how well, the move was played; 0 means "never play".
    pub weight: u16,
    /// Learning data (unused by Betacut, kept as read).
    pub learn: u32,
}

impl Entry {
    /// Decodes an entry from its 16 big-endian bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> Entry {
        let mut key = [0u8; 8];
        key.copy_from_slice(&bytes[0..8]);
        let mut learn = [0u8; 4];
        learn.copy_from_slice(&bytes[12..16]);
        Entry {
            key: u64::from_be_bytes(key),
            raw_move: u16::from_be_bytes([bytes[8], bytes[9]]),
            weight: u16::from_be_bytes([bytes[10], bytes[11]]),
            learn: u32::from_be_bytes(learn),
        }
    }

    /// The entry's 16 big-endian bytes.
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut bytes = [0u8; ENTRY_BYTES];
        bytes[0..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..16].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }
}

/// The Polyglot encoding of a Betacut move: castling as king takes rook (Betacut's own form),
/// promotions with their piece.
pub fn encode_move(mv: Move) -> u16 {
    let promotion = mv.promotion_kind().map_or(0, |kind| kind as u16);
    mv.to().index() as u16 | (mv.from().index() as u16) << 6 | promotion << 12
}

/// The legal move of `pos` that the raw book move stands for, if any. Castling is matched as
/// king takes rook; in standard chess also as the king's two-square move (`e1g1`), which some
/// books write and python-chess reads the same way.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let legal = pos.legal_moves();
    legal.iter().copied().find(|&mv| matches_raw(pos, mv, raw))
}

/// True if the raw book move stands for the legal move `mv` of `pos`.
pub fn matches_raw(pos: &Position, mv: Move, raw: u16) -> bool {
    if encode_move(mv) == raw {
        return true;
    }
    if mv.is_castling() && !pos.is_chess960() {
        let king_to = crate::board::castling::castle_destinations(
            pos.side_to_move(),
            crate::board::castling::CastlingSetup::side_of(mv.from(), mv.to()),
        )
        .0;
        let king_step = king_to.index() as u16 | (mv.from().index() as u16) << 6;
        return king_step == raw;
    }
    false
}

/// The raw move as coordinates, exactly as stored (castling as king takes rook, e.g. `e1h1`;
/// promotion letter `n b r q`, or `?` for a piece code other than 1-4).
pub fn raw_move_text(raw: u16) -> String {
    let square = |index: u16| {
        let index = index & 63;
        format!(
            "{}{}",
            char::from(b'a' + (index & 7) as u8),
            char::from(b'1' + (index >> 3) as u8)
        )
    };
    let mut text = format!("{}{}", square(raw >> 6), square(raw));
    match raw >> 12 & 7 {
        0 => {}
        1 => text.push('n'),
        2 => text.push('b'),
        3 => text.push('r'),
        4 => text.push('q'),
        _ => text.push('?'),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(err) => panic!("test FEN {fen}: {err}"),
        }
    }

    #[test]
    fn entries_round_trip_through_their_bytes() {
        let entry = Entry {
            key: 0x463b_9618_1691_fc9c,
            raw_move: 0x031c,
            weight: 0xfffe,
            learn: 0x0102_0304,
        };
        let bytes = entry.to_bytes();
        assert_eq!(bytes[0], 0x46, "big-endian key");
        assert_eq!(&bytes[8..12], &[0x03, 0x1c, 0xff, 0xfe]);
        assert_eq!(Entry::from_bytes(&bytes), entry);
    }

    #[test]
    fn moves_are_encoded_as_polyglot_writes_them() {
        let start = Position::startpos();
        let e4 = start.parse_move("e2e4").unwrap_or(Move::NONE);
        // e2 = 12, e4 = 28: 28 | 12 << 6.
        assert_eq!(encode_move(e4), 28 | 12 << 6);
        assert_eq!(raw_move_text(encode_move(e4)), "e2e4");
        assert_eq!(decode_move(&start, 28 | 12 << 6), Some(e4));
        assert_eq!(decode_move(&start, 36 | 12 << 6), None, "e2e5 is not legal");

        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = castle.parse_move("e1g1").unwrap_or(Move::NONE);
        let long = castle.parse_move("e1c1").unwrap_or(Move::NONE);
        assert_eq!(raw_move_text(encode_move(short)), "e1h1");
        assert_eq!(raw_move_text(encode_move(long)), "e1a1");
        assert_eq!(decode_move(&castle, 7 | 4 << 6), Some(short), "e1h1");
        assert_eq!(decode_move(&castle, 6 | 4 << 6), Some(short), "e1g1 too");
        assert_eq!(decode_move(&castle, 2 | 4 << 6), Some(long), "e1c1");

        let promote = pos("8/1P5k/8/8/8/8/8/K7 w - - 0 1");
        let knight = promote.parse_move("b7b8n").unwrap_or(Move::NONE);
        let raw = 57 | 49 << 6 | 1 << 12;
        assert_eq!(encode_move(knight), raw);
        assert_eq!(raw_move_text(raw), "b7b8n");
        assert_eq!(decode_move(&promote, raw), Some(knight));
        assert_eq!(
            decode_move(&promote, 57 | 49 << 6),
            None,
            "a promotion needs a piece"
        );
        assert_eq!(decode_move(&promote, 57 | 49 << 6 | 5 << 12), None);
        assert_eq!(raw_move_text(57 | 49 << 6 | 6 << 12), "b7b8?");
    }

    #[test]
    fn chess960_castling_is_only_king_takes_rook() {
        let mut pos = pos("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1");
        pos.set_chess960(true);
        let Some(short) = pos.legal_moves().iter().copied().find(|m| {
            m.is_castling() && m.to().file() == 6 // king e1 takes rook g1
        }) else {
            panic!("castling is legal");
        };
        assert_eq!(raw_move_text(encode_move(short)), "e1g1");
        assert_eq!(decode_move(&pos, encode_move(short)), Some(short));
    }
}
