//! Edit mode (`edit` ... `.`), the old way XBoard sets up positions: a plain 8x8 board of FEN
//! letters that becomes a FEN when edit mode ends. Castling rights are inferred from kings and
//! rooks on their home squares, there is no en-passant square and the fifty-move clock is zero,
//! as the protocol specifies. The side to move is not changed by editing.

use super::command::EditCommand;

/// The board being edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditBoard {
    /// FEN letters by square, a1 = 0 .. h8 = 63.
    squares: [Option<char>; 64],
    /// Colour of the pieces placed next (`c` toggles it; White at the start).
    placing_white: bool,
    /// Side to move, `w` or `b`, kept from the position edit mode started from.
    side: char,
    /// Full-move number kept from that position.
    fullmove: u32,
}

impl EditBoard {
    /// Starts editing the position given as FEN.
    pub fn from_fen(fen: &str) -> EditBoard {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut squares = [None; 64];
        let placement = fields.first().copied().unwrap_or("");
        for (row, rank_text) in placement.split('/').take(8).enumerate() {
            let rank = 7 - row;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(skip) = c.to_digit(10) {
                    file += skip as usize;
                } else if file < 8 {
                    squares[rank * 8 + file] = Some(c);
                    file += 1;
                }
            }
        }
        EditBoard {
            squares,
            placing_white: true,
            side: if fields.get(1) == Some(&"b") {
                'b'
            } else {
                'w'
            },
            fullmove: fields
                .get(5)
                .and_then(|n| n.parse().ok())
                .unwrap_or(1)
                .max(1),
        }
    }

    /// Applies one edit sub-command (`.` is handled by the caller and ignored here).
    pub fn apply(&mut self, command: EditCommand) {
        match command {
            EditCommand::ToggleColor => self.placing_white = !self.placing_white,
            EditCommand::Clear => self.squares = [None; 64],
            EditCommand::Place { piece, square } => {
                let letter = if self.placing_white {
                    piece.to_ascii_uppercase()
                } else {
                    piece.to_ascii_lowercase()
                };
                if let Some(slot) = self.squares.get_mut(square as usize) {
                    *slot = Some(letter);
                }
            }
            EditCommand::Remove { square } => {
                if let Some(slot) = self.squares.get_mut(square as usize) {
                    *slot = None;
                }
            }
            EditCommand::Done => {}
        }
    }

    /// The edited position as FEN (to be checked by the FEN parser).
    pub fn to_fen(&self) -> String {
        let mut placement = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.squares[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            placement.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        placement.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                placement.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                placement.push('/');
            }
        }
        let at = |square: usize, piece: char| self.squares[square] == Some(piece);
        let mut castling = String::new();
        if at(4, 'K') && at(7, 'R') {
            castling.push('K');
        }
        if at(4, 'K') && at(0, 'R') {
            castling.push('Q');
        }
        if at(60, 'k') && at(63, 'r') {
            castling.push('k');
        }
        if at(60, 'k') && at(56, 'r') {
            castling.push('q');
        }
        if castling.is_empty() {
            castling.push('-');
        }
        format!("{placement} {} {castling} - 0 {}", self.side, self.fullmove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    #[test]
    fn round_trip_and_inferred_castling() {
        let board = EditBoard::from_fen(START_FEN);
        assert_eq!(board.to_fen(), START_FEN);
        let mut board = EditBoard::from_fen("8/8/8/8/8/8/8/8 b - - 0 12");
        for cmd in [
            EditCommand::Place {
                piece: 'K',
                square: 4,
            },
            EditCommand::Place {
                piece: 'R',
                square: 0,
            },
            EditCommand::ToggleColor,
            EditCommand::Place {
                piece: 'K',
                square: 62,
            },
            EditCommand::Place {
                piece: 'P',
                square: 52,
            },
            EditCommand::Place {
                piece: 'Q',
                square: 20,
            },
            EditCommand::Remove { square: 20 },
        ] {
            board.apply(cmd);
        }
        assert_eq!(board.to_fen(), "6k1/4p3/8/8/8/8/8/R3K3 b Q - 0 12");
        board.apply(EditCommand::Clear);
        assert_eq!(board.to_fen(), "8/8/8/8/8/8/8/8 b - - 0 12");
    }
}
