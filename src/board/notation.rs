//! Move notation: coordinate form (`e2e4`, `e7e8q`) and SAN (`Nf3`, `exd6`, `O-O`, `e8=Q#`).

use super::castling::{castle_destinations, CastleSide, CastlingSetup};
use super::chess_move::{Move, MoveKind};
use super::piece::PieceKind;
use super::position::Position;
use super::square::Square;
use thiserror::Error;

/// Why a move string was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// The text is not a move in any notation we read.
    #[error("not a move: {0:?}")]
    Malformed(String),
    /// The text names a move that is not legal in the position.
    #[error("illegal move: {0:?}")]
    Illegal(String),
    /// A SAN move that fits more than one legal move.
    #[error("ambiguous move: {0:?}")]
    Ambiguous(String),
}

impl Position {
    /// Coordinate notation. Castling is the king's move (`e1g1`) in normal chess and the king
    /// taking its rook (`e1h1`, as UCI_Chess960) in Chess960.
    pub fn move_to_coordinate(&self, mv: Move) -> String {
        if mv.is_none() {
            return "0000".to_string();
        }
        let to = if mv.is_castling() && !self.is_chess960() {
            let side = CastlingSetup::side_of(mv.from(), mv.to());
            castle_destinations(self.side_to_move(), side).0
        } else {
            mv.to()
        };
        let mut text = format!("{}{}", mv.from(), to);
        if let Some(kind) = mv.promotion_kind() {
            text.push(kind.letter());
        }
        text
    }

    /// Parses a move in coordinate notation or SAN and checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let text = text.trim();
        if looks_like_coordinate(text) {
            self.parse_coordinate(text)
        } else {
            self.parse_san(text)
        }
    }

    /// Parses coordinate notation: `e2e4`, `e7e8q`, castling as king move (`e1g1`) or as king
    /// takes rook (`e1h1`); in Chess960 only the latter.
    pub fn parse_coordinate(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        if !looks_like_coordinate(text) {
            return Err(malformed());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(malformed)?;
        let to = Square::parse(&text[2..4]).ok_or_else(malformed)?;
        let promotion = match text[4..].trim_start_matches('=') {
            "" => None,
            letter => Some(
                letter
                    .chars()
                    .next()
                    .and_then(PieceKind::from_letter)
                    .filter(|k| !matches!(k, PieceKind::Pawn | PieceKind::King))
                    .ok_or_else(malformed)?,
            ),
        };
        let found = self.legal_moves().iter().copied().find(|&mv| {
            if mv.from() != from || mv.promotion_kind() != promotion {
                return false;
            }
            if mv.is_castling() {
                let side = CastlingSetup::side_of(mv.from(), mv.to());
                let king_to = castle_destinations(self.side_to_move(), side).0;
                mv.to() == to || (!self.is_chess960() && king_to == to)
            } else {
                mv.to() == to
            }
        });
        found.ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }

    /// Parses Standard Algebraic Notation, tolerating check marks, annotations, `0-0` and a
    /// missing `=` before the promotion piece.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        let core = text.trim_end_matches(['+', '#', '!', '?']);
        let moves = self.legal_moves();
        let castle_side = match core {
            "O-O" | "0-0" => Some(CastleSide::Short),
            "O-O-O" | "0-0-0" => Some(CastleSide::Long),
            _ => None,
        };
        if let Some(side) = castle_side {
            return moves
                .iter()
                .copied()
                .find(|mv| mv.is_castling() && CastlingSetup::side_of(mv.from(), mv.to()) == side)
                .ok_or_else(|| MoveParseError::Illegal(text.to_string()));
        }

        let mut chars: Vec<char> = core.chars().collect();
        // Promotion suffix: "=Q" or "Q" after the destination square.
        let mut promotion = None;
        if let Some(&last) = chars.last() {
            if let Some(kind) = PieceKind::from_letter(last).filter(|_| last.is_ascii_uppercase()) {
                if chars.len() >= 3 && !matches!(kind, PieceKind::Pawn | PieceKind::King) {
                    promotion = Some(kind);
                    chars.pop();
                    if chars.last() == Some(&'=') {
                        chars.pop();
                    }
                }
            }
        }
        let kind = match chars.first() {
            Some(&c) if c.is_ascii_uppercase() => {
                chars.remove(0);
                PieceKind::from_letter(c).ok_or_else(malformed)?
            }
            Some(_) => PieceKind::Pawn,
            None => return Err(malformed()),
        };
        if chars.len() < 2 {
            return Err(malformed());
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let to = Square::parse(&dest).ok_or_else(malformed)?;
        let mut from_file = None;
        let mut from_rank = None;
        // At most one file and one rank before the destination (`Nbd7`, `R1e2`, `Qh4e1`).
        for &c in &chars[..chars.len() - 2] {
            match c {
                'a'..='h' if from_file.is_none() && from_rank.is_none() => {
                    from_file = Some(c as u8 - b'a')
                }
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                'x' | ':' | '-' => {}
                _ => return Err(malformed()),
            }
        }
        let mut candidates = moves.iter().copied().filter(|&mv| {
            let Some(piece) = self.piece_at(mv.from()) else {
                return false;
            };
            !mv.is_castling()
                && piece.kind == kind
                && mv.to() == to
                && mv.promotion_kind() == promotion
                && from_file.is_none_or(|f| mv.from().file() == f)
                && from_rank.is_none_or(|r| mv.from().rank() == r)
        });
        match (candidates.next(), candidates.next()) {
            (Some(mv), None) => Ok(mv),
            (None, _) => Err(MoveParseError::Illegal(text.to_string())),
            (Some(_), Some(_)) => Err(MoveParseError::Ambiguous(text.to_string())),
        }
    }

    /// SAN of a legal move, with `+` or `#`. The position is used as scratch and restored.
    pub fn move_to_san(&mut self, mv: Move) -> String {
        let mut san = String::with_capacity(8);
        let Some(piece) = self.piece_at(mv.from()) else {
            return self.move_to_coordinate(mv);
        };
        if mv.is_castling() {
            san.push_str(match CastlingSetup::side_of(mv.from(), mv.to()) {
                CastleSide::Short => "O-O",
                CastleSide::Long => "O-O-O",
            });
        } else {
            let capture = self.piece_at(mv.to()).is_some() || mv.kind() == MoveKind::EnPassant;
            if piece.kind == PieceKind::Pawn {
                if capture {
                    san.push(super::square::file_char(mv.from().file()));
                }
            } else {
                san.push(piece.kind.letter().to_ascii_uppercase());
                let rivals: Vec<Square> = self
                    .legal_moves()
                    .iter()
                    .filter(|other| {
                        other.to() == mv.to()
                            && other.from() != mv.from()
                            && !other.is_castling()
                            && self.piece_at(other.from()).map(|p| p.kind) == Some(piece.kind)
                    })
                    .map(|other| other.from())
                    .collect();
                if !rivals.is_empty() {
                    let file_unique = rivals.iter().all(|s| s.file() != mv.from().file());
                    let rank_unique = rivals.iter().all(|s| s.rank() != mv.from().rank());
                    if file_unique {
                        san.push(super::square::file_char(mv.from().file()));
                    } else if rank_unique {
                        san.push(char::from(b'1' + mv.from().rank()));
                    } else {
                        san.push_str(&mv.from().to_string());
                    }
                }
            }
            if capture {
                san.push('x');
            }
            san.push_str(&mv.to().to_string());
            if let Some(kind) = mv.promotion_kind() {
                san.push('=');
                san.push(kind.letter().to_ascii_uppercase());
            }
        }
        self.make_move(mv);
        if self.in_check() {
            san.push(if self.has_legal_move() { '+' } else { '#' });
        }
        self.unmake_move(mv);
        san
    }

    /// SAN of a whole line of moves (each legal after the previous), space-separated.
    pub fn line_to_san(&mut self, moves: &[Move]) -> String {
        let mut parts = Vec::with_capacity(moves.len());
        let mut played = 0;
        for &mv in moves {
            if !self.is_legal(mv) {
                break;
            }
            parts.push(self.move_to_san(mv));
            self.make_move(mv);
            played += 1;
        }
        for &mv in moves[..played].iter().rev() {
            self.unmake_move(mv);
        }
        parts.join(" ")
    }
}

/// True for text of the form `e2e4`, `e7e8q` or `e7e8=q`.
fn looks_like_coordinate(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 | 6 => {
            square(b[0], b[1])
                && square(b[2], b[3])
                && b[4..].iter().all(|c| c.is_ascii_alphabetic() || *c == b'=')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn coordinate_round_trip_on_start_position() {
        let p = Position::startpos();
        for &mv in p.legal_moves().iter() {
            let text = p.move_to_coordinate(mv);
            assert_eq!(p.parse_move(&text), Ok(mv));
        }
        assert!(matches!(
            p.parse_move("e2e5"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            p.parse_move("zz"),
            Err(MoveParseError::Malformed(_))
        ));
        // Six characters that are no move: not read as the SAN of their last square.
        let mut after = p.clone();
        after.make_move(p.parse_move("e2e4").unwrap_or(Move::NONE));
        after.make_move(after.parse_move("h7h6").unwrap_or(Move::NONE));
        for junk in ["e2e4e5", "d2e4e5", "a1e4e5", "ee4e5", "44e5"] {
            assert!(
                matches!(after.parse_move(junk), Err(MoveParseError::Malformed(_))),
                "{junk}"
            );
        }
        // A full-square disambiguation stays legal SAN.
        let queens = pos("4k3/8/8/8/7Q/8/8/4K2Q w - - 0 1");
        let qh4e4 = queens.parse_move("Qh4e4");
        assert!(qh4e4.is_ok_and(|m| m.from() == Square::new(7, 3)));
    }

    #[test]
    fn castling_is_printed_as_king_move_in_normal_chess() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = p.parse_move("e1g1");
        assert!(short.as_ref().is_ok_and(|m| m.is_castling()));
        assert_eq!(p.parse_move("O-O"), short);
        assert_eq!(p.parse_move("e1h1"), short);
        let long = p.parse_move("e1c1").unwrap_or(Move::NONE);
        assert_eq!(p.move_to_coordinate(long), "e1c1");
    }

    #[test]
    fn san_disambiguates_and_marks_mate() {
        let mut p = pos("6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1");
        let mv = p.parse_move("a1d1").unwrap_or(Move::NONE);
        assert_eq!(p.move_to_san(mv), "Rad1");
        let mate = p.parse_move("e1e8").unwrap_or(Move::NONE);
        assert_eq!(p.move_to_san(mate), "Re8#");
        assert_eq!(p.parse_san("Re8#"), Ok(mate));
        assert!(matches!(
            p.parse_san("Rd1"),
            Err(MoveParseError::Ambiguous(_))
        ));
    }

    #[test]
    fn san_pawn_moves_and_promotions() {
        let mut p = pos("r3k3/1P6/8/3pP3/8/8/8/4K3 w q d6 0 1");
        let ep = p.parse_san("exd6").unwrap_or(Move::NONE);
        assert!(ep.is_en_passant());
        assert_eq!(p.move_to_san(ep), "exd6");
        let promo = p.parse_san("bxa8=Q+").unwrap_or(Move::NONE);
        assert_eq!(promo.promotion_kind(), Some(PieceKind::Queen));
        assert_eq!(p.move_to_san(promo), "bxa8=Q+");
        assert_eq!(p.parse_san("bxa8Q"), Ok(promo));
        assert_eq!(
            p.parse_san("b8=N").map(|m| m.promotion_kind()),
            Ok(Some(PieceKind::Knight))
        );
    }
}
