//! The game: the current position, the moves played since it was set up (for taking moves
//! back), whether it is Chess960, and the rules that end a game.

use crate::board::{Color, FenError, Move, MoveParseError, Position};

/// Why a game is over by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The side to move is checkmated; `winner` mated it.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate (K v K, K+minor v K, bishops all on one colour).
    InsufficientMaterial,
    /// A hundred plies without capture or pawn move.
    FiftyMoves,
    /// The position occurred for the third time.
    Repetition,
}

impl GameEnd {
    /// True for the drawn endings.
    pub fn is_draw(self) -> bool {
        !matches!(self, GameEnd::Checkmate { .. })
    }
}

/// The game position and the moves that led to it from the set-up position.
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    moves: Vec<Move>,
    /// Side to move in the set-up position (to know who made each move).
    first_mover: Color,
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.pos == other.pos && self.moves == other.moves && self.first_mover == other.first_mover
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game starting from `pos`.
    pub fn new(pos: Position) -> Game {
        Game {
            first_mover: pos.side_to_move(),
            pos,
            moves: Vec::new(),
        }
    }

    /// A game starting from a FEN; the error says what is wrong with it.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Position::from_fen(fen).map(Game::new)
    }

    /// Plays Chess960 (castling written as king takes rook) or standard chess (castling as
    /// the king's two-square move, when the castling rights allow standard notation).
    pub fn set_chess960(&mut self, chess960: bool) {
        let wanted = chess960 || self.pos.has_chess960_castling();
        self.pos.set_chess960(wanted);
    }

    /// True if the game is played as Chess960.
    pub fn is_chess960(&self) -> bool {
        self.pos.is_chess960()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played since the set-up position, first move first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Side to move now.
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    /// Parses `text` (coordinates or SAN) as a legal move in the current position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.pos.parse_move(text)
    }

    /// True if `mv` is legal in the current position.
    pub fn is_legal(&self, mv: Move) -> bool {
        !mv.is_none() && self.pos.legal_moves().contains(mv)
    }

    /// Plays `mv`, which must be legal (checked: an illegal move is refused with `false`).
    pub fn play(&mut self, mv: Move) -> bool {
        if !self.is_legal(mv) {
            return false;
        }
        self.pos.make_move(mv);
        self.moves.push(mv);
        true
    }

    /// Takes back the last move, if there is one.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.pos.unmake_move(mv);
        Some(mv)
    }

    /// Number of moves `color` has made since the set-up position.
    pub fn moves_made_by(&self, color: Color) -> usize {
        let n = self.moves.len();
        if color == self.first_mover {
            n.div_ceil(2)
        } else {
            n / 2
        }
    }

    /// Coordinate text of a move in the current position (`e1g1` for castling).
    pub fn coordinate(&self, mv: Move) -> String {
        self.pos.move_to_coordinate(mv)
    }

    /// SAN of a legal move in the current position.
    pub fn san(&self, mv: Move) -> String {
        self.pos.clone().move_to_san(mv)
    }

    /// The rule that ends the game in the current position, if any.
    pub fn end(&self) -> Option<GameEnd> {
        let pos = &self.pos;
        if !pos.has_legal_move() {
            return Some(if pos.in_check() {
                GameEnd::Checkmate {
                    winner: !pos.side_to_move(),
                }
            } else {
                GameEnd::Stalemate
            });
        }
        if pos.has_insufficient_material() {
            Some(GameEnd::InsufficientMaterial)
        } else if pos.is_fifty_move_draw() {
            Some(GameEnd::FiftyMoves)
        } else if pos.repetition_count(2) >= 2 {
            Some(GameEnd::Repetition)
        } else {
            None
        }
    }

    /// Sets the side to move (obsolete `white`/`black`), through FEN so the position stays
    /// valid; clears the move history. Fails (position unchanged) if the result is illegal,
    /// e.g. the side not to move would be in check.
    pub fn set_side_to_move(&mut self, color: Color) -> Result<(), FenError> {
        if self.pos.side_to_move() == color {
            return Ok(());
        }
        let fen = self.pos.to_fen();
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(FenError::FieldCount(fields.len()));
        }
        fields[1] = if color == Color::White { "w" } else { "b" };
        fields[3] = "-";
        let chess960 = self.is_chess960();
        *self = Game::from_fen(&fields.join(" "))?;
        self.set_chess960(chess960);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = game.parse_move(text).unwrap_or(Move::NONE);
            assert!(game.play(mv), "{text}");
        }
    }

    #[test]
    fn mate_and_claims() {
        let mut game = Game::default();
        play_all(&mut game, "f2f3 e7e5 g2g4");
        assert_eq!(game.end(), None);
        play_all(&mut game, "d8h4");
        assert_eq!(
            game.end(),
            Some(GameEnd::Checkmate {
                winner: Color::Black
            })
        );
    }

    #[test]
    fn threefold_repetition_needs_the_third_occurrence() {
        let mut game = Game::default();
        play_all(&mut game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert_eq!(game.end(), None);
        play_all(&mut game, "f6g8");
        assert_eq!(game.end(), Some(GameEnd::Repetition));
        assert_eq!(game.undo().map(|m| game.coordinate(m)), Some("f6g8".into()));
        assert_eq!(game.end(), None);
    }

    #[test]
    fn draws_by_material_stalemate_and_fifty_moves() {
        let game = Game::from_fen("8/8/8/8/8/2k5/8/K1B5 w - - 0 1");
        assert_eq!(
            game.map(|g| g.end()),
            Ok(Some(GameEnd::InsufficientMaterial))
        );
        let game = Game::from_fen("k7/8/1Q6/8/8/8/8/K7 b - - 0 1");
        assert_eq!(game.map(|g| g.end()), Ok(Some(GameEnd::Stalemate)));
        let game = Game::from_fen("k7/8/8/8/8/8/R7/K7 b - - 100 80");
        assert_eq!(game.map(|g| g.end()), Ok(Some(GameEnd::FiftyMoves)));
    }

    #[test]
    fn moves_made_and_side_switch() {
        let mut game = Game::default();
        play_all(&mut game, "e2e4 e7e5 g1f3");
        assert_eq!(game.moves_made_by(Color::White), 2);
        assert_eq!(game.moves_made_by(Color::Black), 1);
        assert!(game.set_side_to_move(Color::White).is_ok());
        assert_eq!(game.side_to_move(), Color::White);
        assert!(game.moves().is_empty());
        assert!(!game.play(Move::NONE));
    }
}
