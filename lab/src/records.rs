//! The binary training data that `betacut-lab datagen` writes and `betacut-lab train` reads: one
//! 32-byte record per position, no file header, so that files of consecutive game ranges
//! concatenate (`cat`) into exactly the file of one longer run.
//!
//! | bytes  | field                                                                        |
//! | ------ | ---------------------------------------------------------------------------- |
//! | 0..8   | occupancy: bit `s` set if square `s` (a1 = 0, h8 = 63) holds a piece, u64 LE  |
//! | 8..24  | pieces: one 4-bit code per occupied square in ascending square order, low     |
//! |        | nibble first; 0-5 White pawn, knight, bishop, rook, queen, king; 6-11 Black;  |
//! |        | unused nibbles 0                                                              |
//! | 24..26 | score: the search's score in centipawns from **White's** view, i16 LE         |
//! | 26     | game result from White's view: 0 Black won, 1 draw, 2 White won               |
//! | 27     | side to move: 0 White, 1 Black                                                |
//! | 28..30 | full-move number, u16 LE                                                      |
//! | 30     | half-move clock (plies since the last capture or pawn move), at most 255      |
//! | 31     | record tag 0xB1 (format 1): anything else is not a record of this format      |
//!
//! Castling rights and the en-passant square are not kept (the network does not see them); a
//! record's FEN has `-` for both.

use betacut::board::{Color, Piece, Position, Square};
use std::io::{Read, Write};
use std::path::Path;
use thiserror::Error;

/// Bytes per record.
pub const RECORD_LEN: usize = 32;
/// The last byte of every record of this format.
pub const RECORD_TAG: u8 = 0xB1;

/// Piece code of a pawn (modulo 6).
const PAWN_CODE: u8 = 0;
/// Piece code of a king (modulo 6).
const KING_CODE: u8 = 5;

/// One record as stored.
pub type PackedRecord = [u8; RECORD_LEN];

/// Result of a game from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won.
    BlackWin = 0,
    /// Drawn.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl GameResult {
    /// White's score: 0.0, 0.5 or 1.0.
    pub fn white_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }

    /// The result closest to White's score `white_score` (0.0 to 1.0).
    pub fn from_white_score(white_score: f32) -> GameResult {
        if white_score > 0.75 {
            GameResult::WhiteWin
        } else if white_score < 0.25 {
            GameResult::BlackWin
        } else {
            GameResult::Draw
        }
    }

    /// As written in text data: `1.0`, `0.5` or `0.0`.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::WhiteWin => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWin => "0.0",
        }
    }
}

/// Problems with a data file.
#[derive(Debug, Error)]
pub enum RecordError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The data file (32-byte records) being read or written.
        path: String,
        /// The system's error: not found, no permission, disk full.
        source: std::io::Error,
    },
    /// The file's length is not a whole number of records.
    #[error("{path}: {len} bytes is not a whole number of 32-byte records (truncated file, or not binary training data?)")]
    PartialRecord {
        /// The data file whose length is no multiple of 32 bytes.
        path: String,
        /// Its length in bytes.
        len: u64,
    },
    /// A record is malformed.
    #[error("{path}: record {index}: {reason}")]
    BadRecord {
        /// The data file holding the record.
        path: String,
        /// Record number (0-based).
        index: u64,
        /// What is wrong: its tag byte, piece count or a piece code.
        reason: String,
    },
}

/// A decoded record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataRecord {
    /// Occupied squares.
    pub occupancy: u64,
    /// Piece codes (0..12) of the occupied squares in ascending order; the first
    /// `occupancy.count_ones()` are used.
    pub pieces: [u8; 32],
    /// Side to move.
    pub side_to_move: Color,
    /// Search score in centipawns from White's view.
    pub score: i16,
    /// Game result from White's view.
    pub result: GameResult,
    /// Full-move number.
    pub fullmove: u16,
    /// Half-move clock (saturated at 255).
    pub halfmove: u8,
}

impl DataRecord {
    /// The record of `pos` with White's score `score` and game result `result`.
    pub fn from_position(pos: &Position, score: i16, result: GameResult) -> DataRecord {
        let mut pieces = [0u8; 32];
        let mut n = 0;
        for sq in pos.occupied() {
            if let (Some(piece), Some(slot)) = (pos.piece_at(sq), pieces.get_mut(n)) {
                *slot = piece.index() as u8;
                n += 1;
            }
        }
        DataRecord {
            occupancy: pos.occupied().0,
            pieces,
            side_to_move: pos.side_to_move(),
            score,
            result,
            fullmove: pos.fullmove_number().min(u32::from(u16::MAX)) as u16,
            halfmove: pos.halfmove_clock().min(255) as u8,
        }
    }

    /// The 32 bytes of the record.
    pub fn to_bytes(&self) -> PackedRecord {
        let mut out = [0u8; RECORD_LEN];
        out[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        let count = self.occupancy.count_ones() as usize;
        for (i, &code) in self.pieces.iter().take(count).enumerate() {
            out[8 + i / 2] |= (code & 15) << (4 * (i % 2));
        }
        out[24..26].copy_from_slice(&self.score.to_le_bytes());
        out[26] = self.result as u8;
        out[27] = self.side_to_move.index() as u8;
        out[28..30].copy_from_slice(&self.fullmove.to_le_bytes());
        out[30] = self.halfmove;
        out[31] = RECORD_TAG;
        out
    }

    /// Decodes and checks a record (`Err` says what is wrong).
    pub fn from_bytes(bytes: &PackedRecord) -> Result<DataRecord, String> {
        if bytes[31] != RECORD_TAG {
            return Err(format!(
                "tag byte is {:#04x}, not {RECORD_TAG:#04x} (not binary training data?)",
                bytes[31]
            ));
        }
        let occupancy = u64::from_le_bytes(bytes_8(&bytes[0..8]));
        let count = occupancy.count_ones() as usize;
        if count > 32 {
            return Err(format!("{count} pieces"));
        }
        let mut pieces = [0u8; 32];
        let mut kings = [0u32; 2];
        let mut squares = Bitboard64(occupancy);
        for (i, slot) in pieces.iter_mut().enumerate() {
            let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 15;
            if i >= count {
                if code != 0 {
                    return Err(format!("unused piece code {i} is {code}, not 0"));
                }
                continue;
            }
            if code >= 12 {
                return Err(format!("piece code {code}"));
            }
            let square = squares.pop().unwrap_or(0);
            if code % 6 == PAWN_CODE && !(8..56).contains(&square) {
                return Err(format!("pawn on the first or last rank (square {square})"));
            }
            if code % 6 == KING_CODE {
                kings[usize::from(code / 6)] += 1;
            }
            *slot = code;
        }
        if kings != [1, 1] {
            return Err(format!("{} White and {} Black kings", kings[0], kings[1]));
        }
        let result = match bytes[26] {
            0 => GameResult::BlackWin,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWin,
            other => return Err(format!("result byte {other}")),
        };
        let side_to_move = match bytes[27] {
            0 => Color::White,
            1 => Color::Black,
            other => return Err(format!("side-to-move byte {other}")),
        };
        Ok(DataRecord {
            occupancy,
            pieces,
            side_to_move,
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result,
            fullmove: u16::from_le_bytes([bytes[28], bytes[29]]),
            halfmove: bytes[30],
        })
    }

    /// The pieces as (piece code 0..12, square 0..64), in ascending square order.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut squares = Bitboard64(self.occupancy);
        self.pieces
            .iter()
            .take(self.occupancy.count_ones() as usize)
            .filter_map(move |&code| squares.pop().map(|sq| (usize::from(code), sq)))
    }

    /// The position as a FEN (no castling rights, no en-passant square).
    pub fn to_fen(&self) -> String {
        let mut board = [None; 64];
        for (code, sq) in self.pieces() {
            let color = if code >= 6 {
                Color::Black
            } else {
                Color::White
            };
            board[sq] = Some(Piece::new(
                color,
                betacut::board::PieceKind::from_index(code % 6),
            ));
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match board[Square::new(file, rank).index()] {
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
        let side = match self.side_to_move {
            Color::White => 'w',
            Color::Black => 'b',
        };
        format!(
            "{fen} {side} - - {} {}",
            self.halfmove,
            self.fullmove.max(1)
        )
    }

    /// `FEN | score | result`: the score and result from White's view.
    pub fn to_text(&self) -> String {
        format!(
            "{} | {} | {}",
            self.to_fen(),
            self.score,
            self.result.label()
        )
    }
}

/// Pops the set bits of a u64, lowest first.
struct Bitboard64(u64);

impl Bitboard64 {
    fn pop(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

fn bytes_8(slice: &[u8]) -> [u8; 8] {
    let mut out = [0u8; 8];
    out.copy_from_slice(&slice[..8]);
    out
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> RecordError + '_ {
    move |source| RecordError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Reads every record of the file at `path`, checking each.
pub fn read_records(path: &Path) -> Result<Vec<PackedRecord>, RecordError> {
    let bytes = std::fs::read(path).map_err(io_error(path))?;
    parse_records(path, &bytes)
}

/// Splits a data file's bytes into records, checking each (`path` names it in errors).
pub fn parse_records(path: &Path, bytes: &[u8]) -> Result<Vec<PackedRecord>, RecordError> {
    if !bytes.len().is_multiple_of(RECORD_LEN) {
        return Err(RecordError::PartialRecord {
            path: path.display().to_string(),
            len: bytes.len() as u64,
        });
    }
    let mut records = Vec::with_capacity(bytes.len() / RECORD_LEN);
    for (index, chunk) in bytes.chunks_exact(RECORD_LEN).enumerate() {
        let mut record = [0u8; RECORD_LEN];
        record.copy_from_slice(chunk);
        DataRecord::from_bytes(&record).map_err(|reason| RecordError::BadRecord {
            path: path.display().to_string(),
            index: index as u64,
            reason,
        })?;
        records.push(record);
    }
    Ok(records)
}

/// Writes the first `limit` records of `path` (all if `None`) to `out` as text lines
/// `FEN | score | result`; returns how many.
pub fn write_text(
    path: &Path,
    limit: Option<u64>,
    out: &mut dyn Write,
) -> Result<u64, RecordError> {
    let file = std::fs::File::open(path).map_err(io_error(path))?;
    let len = file.metadata().map_err(io_error(path))?.len();
    if !len.is_multiple_of(RECORD_LEN as u64) {
        return Err(RecordError::PartialRecord {
            path: path.display().to_string(),
            len,
        });
    }
    let mut reader = std::io::BufReader::new(file);
    let total = len / RECORD_LEN as u64;
    let count = limit.map_or(total, |l| l.min(total));
    let stdout_error = |source| RecordError::Io {
        path: "output".to_string(),
        source,
    };
    for index in 0..count {
        let mut record = [0u8; RECORD_LEN];
        reader.read_exact(&mut record).map_err(io_error(path))?;
        let decoded = DataRecord::from_bytes(&record).map_err(|reason| RecordError::BadRecord {
            path: path.display().to_string(),
            index,
            reason,
        })?;
        writeln!(out, "{}", decoded.to_text()).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_print_their_position() {
        let fens = [
            "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 17 63",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            let record = DataRecord::from_position(&pos, -123, GameResult::BlackWin);
            let bytes = record.to_bytes();
            let back = DataRecord::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, record);
            let again = Position::from_fen(&back.to_fen()).unwrap_or_else(|e| panic!("{e}"));
            // Same pieces, side and clocks (castling and en passant are not kept).
            let fields = |f: &str| -> Vec<String> {
                let v: Vec<&str> = f.split_whitespace().collect();
                vec![v[0].into(), v[1].into(), v[4].into(), v[5].into()]
            };
            assert_eq!(fields(&again.to_fen()), fields(fen));
            assert!(back.to_text().ends_with(" | -123 | 0.0"));
        }
    }

    #[test]
    fn malformed_records_and_files_are_refused() {
        let pos = Position::startpos();
        let good = DataRecord::from_position(&pos, 15, GameResult::Draw).to_bytes();
        let bad = |edit: &dyn Fn(&mut PackedRecord)| {
            let mut bytes = good;
            edit(&mut bytes);
            DataRecord::from_bytes(&bytes)
        };
        assert!(bad(&|b| b[31] = b'e').is_err());
        assert!(bad(&|b| b[26] = 3).is_err());
        assert!(bad(&|b| b[27] = 2).is_err());
        assert!(bad(&|b| b[8] = 0xCC).is_err()); // piece code 12
        assert!(bad(&|b| b[0] &= !0x10).is_err()); // e1 empty: the white king goes missing
        assert!(bad(&|b| b[0..8].copy_from_slice(&u64::MAX.to_le_bytes())).is_err());
        let path = Path::new("test.bin");
        let mut two = good.to_vec();
        two.extend_from_slice(&good);
        assert_eq!(parse_records(path, &two).map(|r| r.len()).ok(), Some(2));
        assert!(matches!(
            parse_records(path, &two[..40]),
            Err(RecordError::PartialRecord { len: 40, .. })
        ));
        two[32 + 26] = 9;
        assert!(matches!(
            parse_records(path, &two),
            Err(RecordError::BadRecord { index: 1, .. })
        ));
        assert!(parse_records(path, b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB w").is_err());
    }
}
