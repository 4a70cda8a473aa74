//! FEN parsing and printing, with Shredder-FEN and X-FEN castling fields for Chess960.

use super::bitboard::Bitboard;
use super::castling::{right_bit, CastleSide, CastlingSetup};
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::{file_char, Square};
use thiserror::Error;

/// Everything that can be wrong with a FEN string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    #[error("expected 4 to 6 fields (placement, side, castling, en passant[, clocks]), found {0}")]
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    #[error("piece placement has {0} ranks, expected 8")]
    RankCount(usize),
    /// A character that is neither a piece letter nor a digit 1-8.
    #[error("bad character {0:?} in piece placement")]
    BadPieceChar(char),
    /// A rank describes more than 8 squares.
    #[error("rank {0} describes more than 8 squares")]
    RankTooLong(u8),
    /// A rank describes fewer than 8 squares.
    #[error("rank {0} describes fewer than 8 squares")]
    RankTooShort(u8),
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move must be 'w' or 'b', found {0:?}")]
    BadSide(String),
    /// The castling field is malformed or names a right the position cannot have.
    #[error("bad castling field {field:?}: {reason}")]
    BadCastling {
        /// The castling field as given.
        field: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The en-passant field is not `-` or a square.
    #[error("bad en-passant field {0:?}")]
    BadEnPassant(String),
    /// The en-passant square cannot follow a double pawn push in this position.
    #[error("en-passant square {0} is impossible here")]
    ImpossibleEnPassant(String),
    /// The half-move clock is not a number.
    #[error("bad half-move clock {0:?}")]
    BadHalfmoveClock(String),
    /// The full-move number is not a number.
    #[error("bad full-move number {0:?}")]
    BadFullmoveNumber(String),
    /// A half-move clock or full-move number beyond [`MAX_MOVE_COUNTER`].
    #[error("{field} {value} is beyond {MAX_MOVE_COUNTER}, more than any game reaches")]
    CounterTooLarge {
        /// Which counter: `half-move clock` or `full-move number`.
        field: &'static str,
        /// Its value.
        value: u32,
    },
    /// A side has no king.
    #[error("{0} king is missing")]
    MissingKing(&'static str),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    ExtraKing(&'static str),
    /// A side has more pawns and promoted pieces than its eight pawns can account for (so no
    /// game reaches the position, and the move count could overflow a move list).
    #[error("{0} has more material than a game can produce")]
    ImpossibleMaterial(&'static str),
    /// A pawn stands on the first or last rank.
    #[error("pawn on {0}, on the first or last rank")]
    PawnOnBackRank(String),
    /// The side that just moved is in check.
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// More pieces check the king than any legal move can produce.
    #[error("the side to move is in check from {0} pieces, which no legal move can produce")]
    TooManyCheckers(u32),
}

/// Largest half-move clock and full-move number a FEN may give. No game comes near it (the
/// 75-move rule ends every game before move 9,000), and the moves played from such a position
/// cannot make the counters overflow (make/unmake count them in `u32` without checks).
pub const MAX_MOVE_COUNTER: u32 = 1_000_000;

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Position {
    /// Parses a FEN (or the first four fields of an EPD line; missing clocks default to 0 1).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;
        for color in Color::ALL {
            match pos.pieces_of(color, PieceKind::King).count() {
                0 => return Err(FenError::MissingKing(color_name(color))),
                1 => {}
                _ => return Err(FenError::ExtraKing(color_name(color))),
            }
        }
        for color in Color::ALL {
            let count = |kind| pos.pieces_of(color, kind).count();
            let promoted: u32 = [
                (PieceKind::Queen, 1),
                (PieceKind::Rook, 2),
                (PieceKind::Bishop, 2),
                (PieceKind::Knight, 2),
            ]
            .iter()
            .map(|&(kind, initial)| count(kind).saturating_sub(initial))
            .sum();
            if count(PieceKind::Pawn) + promoted > 8 {
                return Err(FenError::ImpossibleMaterial(color_name(color)));
            }
        }
        let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
        if let Some(sq) = (pos.pieces(PieceKind::Pawn) & back_ranks).next() {
            return Err(FenError::PawnOnBackRank(sq.to_string()));
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        pos.setup_side(side);
        let (rights, setup, chess960) = parse_castling(&pos, fields[2])?;
        pos.setup_castling(rights, setup, chess960);
        let ep = parse_en_passant(&pos, fields[3])?;
        let halfmove = match fields.get(4) {
            Some(text) => text
                .parse::<u32>()
                .map_err(|_| FenError::BadHalfmoveClock(text.to_string()))?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(text) => text
                .parse::<u32>()
                .map_err(|_| FenError::BadFullmoveNumber(text.to_string()))?,
            None => 1,
        };
        for (field, value) in [
            ("half-move clock", halfmove),
            ("full-move number", fullmove),
        ] {
            if value > MAX_MOVE_COUNTER {
                return Err(FenError::CounterTooLarge { field, value });
            }
        }
        pos.setup_counters(ep, halfmove, fullmove);
        pos.setup_finish();
        if pos.is_attacked_by(pos.king_square(!side), side, pos.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        let checks = pos.checkers().count();
        if checks > 2 {
            return Err(FenError::TooManyCheckers(checks));
        }
        Ok(pos)
    }

    /// The position as FEN; castling in Shredder notation (`HAha`) for Chess960 games.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::new(file, rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(match self.side_to_move() {
            Color::White => 'w',
            Color::Black => 'b',
        });
        fen.push(' ');
        fen.push_str(&self.castling_field());
        fen.push(' ');
        match self.en_passant() {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        fen
    }

    /// The castling field: `KQkq` style normally, rook files (`HAha`) in Chess960.
    fn castling_field(&self) -> String {
        let mut field = String::new();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if !self.has_castling_right(color, side) {
                    continue;
                }
                let letter = if self.is_chess960() {
                    file_char(self.castling_setup().rook_from(color, side).file())
                } else if side == CastleSide::Short {
                    'k'
                } else {
                    'q'
                };
                field.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
        }
        if field.is_empty() {
            field.push('-');
        }
        field
    }
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as u8;
                if file > 8 {
                    return Err(FenError::RankTooLong(rank + 1));
                }
            } else {
                let piece = Piece::from_fen_char(c).ok_or(FenError::BadPieceChar(c))?;
                if file >= 8 {
                    return Err(FenError::RankTooLong(rank + 1));
                }
                pos.setup_put(piece, Square::new(file, rank));
                file += 1;
            }
        }
        if file < 8 {
            return Err(FenError::RankTooShort(rank + 1));
        }
    }
    Ok(())
}

/// Parses `KQkq`, X-FEN (`K`/`Q` = outermost rook) and Shredder (`HAha`) castling fields.
fn parse_castling(pos: &Position, field: &str) -> Result<(u8, CastlingSetup, bool), FenError> {
    let mut setup = CastlingSetup::default();
    let mut rights = 0u8;
    let mut chess960 = false;
    if field == "-" {
        return Ok((rights, setup, chess960));
    }
    let bad = |reason| FenError::BadCastling {
        field: field.to_string(),
        reason,
    };
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = color.relative_rank(0);
        let king = pos.king_square(color);
        if king.rank() != back_rank {
            return Err(bad(
                "a side with castling rights has its king off its back rank",
            ));
        }
        let rooks = pos.pieces_of(color, PieceKind::Rook) & Bitboard::rank(back_rank);
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.filter(|r| r.file() > king.file()).last(),
            'q' => rooks.clone().find(|r| r.file() < king.file()),
            letter @ 'a'..='h' => {
                chess960 = true;
                let sq = Square::new(letter as u8 - b'a', back_rank);
                rooks.contains(sq).then_some(sq)
            }
            _ => return Err(bad("only KQkq or rook files A-H/a-h are allowed")),
        };
        let Some(rook) = rook else {
            return Err(bad("no rook stands where a castling right needs one"));
        };
        let side = CastlingSetup::side_of(king, rook);
        let bit = right_bit(color, side);
        if rights & bit != 0 {
            return Err(bad("the same castling right is given twice"));
        }
        rights |= bit;
        setup.add_right(color, side, king, rook);
        let standard_rook_file = match side {
            CastleSide::Short => 7,
            CastleSide::Long => 0,
        };
        if king.file() != 4 || rook.file() != standard_rook_file {
            chess960 = true;
        }
    }
    Ok((rights, setup, chess960))
}

fn parse_en_passant(pos: &Position, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let sq = Square::parse(field).ok_or_else(|| FenError::BadEnPassant(field.to_string()))?;
    let us = pos.side_to_move();
    let them = !us;
    let impossible = || FenError::ImpossibleEnPassant(field.to_string());
    // The square must lie just behind a pawn of the side that moved, which came from the square
    // behind it: so it is on rank 6 (White to move) or 3, empty, and so is the pawn's origin.
    if sq.rank() != us.relative_rank(5) {
        return Err(impossible());
    }
    let pushed_to = sq.offset(them.forward());
    let pushed_from = sq.offset(-them.forward());
    let occupied = pos.occupied();
    if occupied.contains(sq)
        || occupied.contains(pushed_from)
        || pos.piece_at(pushed_to) != Some(Piece::new(them, PieceKind::Pawn))
    {
        return Err(impossible());
    }
    Ok(Some(sq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::startpos();
        assert_eq!(
            pos.to_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(!pos.is_chess960());
    }

    #[test]
    fn shredder_fields_round_trip() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let pos = Position::from_fen(fen).map(|p| p.to_fen());
        assert_eq!(pos.as_deref(), Ok(fen));
    }

    #[test]
    fn xfen_outer_rooks() {
        // X-FEN "KQkq" on a Chess960 array: K and Q mean the outermost rooks.
        let pos = Position::from_fen("rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1");
        let pos = pos.map(|p| p.to_fen());
        assert_eq!(pos.as_deref(), Ok("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1"));
    }

    #[test]
    fn malformed_fens_give_specific_errors() {
        let cases: &[(&str, FenError)] = &[
            ("8/8/8/8 w", FenError::FieldCount(2)),
            ("8/8/8/8/8/8/8 w - - 0 1", FenError::RankCount(7)),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                FenError::BadPieceChar('X'),
            ),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::RankTooLong(7),
            ),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::RankTooShort(7),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                FenError::BadSide("x".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                FenError::BadEnPassant("e9".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                FenError::ImpossibleEnPassant("e6".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
                FenError::MissingKing("white"),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
                FenError::ExtraKing("white"),
            ),
            (
                "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
                FenError::PawnOnBackRank("h8".into()),
            ),
            ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", FenError::OpponentInCheck),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                FenError::BadHalfmoveClock("x".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
                FenError::BadFullmoveNumber("-1".into()),
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(
                Position::from_fen(fen).err().as_ref(),
                Some(expected),
                "{fen}"
            );
        }
    }

    #[test]
    fn counters_beyond_any_game_are_rejected() {
        // Found with the fuzz target `fen`: a move from a position whose half-move clock or
        // full-move number was u32::MAX overflowed the counter (a panic with overflow checks).
        for (fen, field) in [
            ("8/8/8/8/8/8/8/K6k w - - 4294967295 1", "half-move clock"),
            ("8/8/8/8/8/8/8/K6k b - - 0 4294967295", "full-move number"),
            ("8/8/8/8/8/8/8/K6k b - - 0 1000001", "full-move number"),
        ] {
            assert!(
                matches!(
                    Position::from_fen(fen),
                    Err(FenError::CounterTooLarge { field: f, .. }) if f == field
                ),
                "{fen}"
            );
        }
        let max = format!("8/8/8/8/8/8/8/K6k b - - {MAX_MOVE_COUNTER} {MAX_MOVE_COUNTER}");
        let mut pos = Position::from_fen(&max).unwrap_or_else(|e| panic!("{e}"));
        let mv = pos.parse_move("h1g2").unwrap_or_else(|e| panic!("{e}"));
        pos.make_move(mv);
        assert_eq!(pos.fullmove_number(), MAX_MOVE_COUNTER + 1);
        assert_eq!(pos.halfmove_clock(), MAX_MOVE_COUNTER + 1);
        pos.unmake_move(mv);
        assert_eq!(pos.to_fen(), max);
    }

    #[test]
    fn bad_castling_fields_are_rejected() {
        for field in ["KQkqX", "KK", "Z"] {
            let fen = format!("r3k2r/8/8/8/8/8/8/R3K2R w {field} - 0 1");
            assert!(
                matches!(Position::from_fen(&fen), Err(FenError::BadCastling { .. })),
                "{field}"
            );
        }
        // A right without its rook.
        let fen = "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert!(matches!(
            Position::from_fen(fen),
            Err(FenError::BadCastling { .. })
        ));
    }
}
