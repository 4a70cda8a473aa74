//! Training positions as the trainer uses them: each record decoded into the active inputs of
//! the side to move's and the other side's perspective and the training target.
//!
//! The target mixes the search score and the game result, both turned to the side to move's
//! view: `target = wdl * result + (1 - wdl) * sigmoid(score / scale)`, and the network's output
//! (in centipawns) is read through the same sigmoid ([`Target`]).

use crate::records::{PackedRecord, RECORD_LEN};
use betacut::eval::nnue::features::view_feature_index;
use betacut::eval::nnue::{KingBuckets, MAX_ACTIVE, SCALE};

/// The logistic function: reads a score (or the network's output) as an expected result.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// How a position's training target is made, and how the output is compared with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Weight of the game result (0: the score alone, 1: the result alone).
    pub wdl: f32,
    /// Centipawns per unit of the sigmoid's argument: a score `s` reads as the expected result
    /// `sigmoid(s / scale)`. Fitted to the data, the scores and the results agree, so mixing
    /// them does not stretch the network's evaluation (with too large a scale the results pull
    /// every evaluation away from zero).
    pub scale: f32,
}

impl Target {
    /// The search score alone, read with the network's own scale (400).
    pub const SCORE_ONLY: Target = Target {
        wdl: 0.0,
        scale: SCALE as f32,
    };

    /// Factor from the network's raw output (times 400 is centipawns) to the sigmoid's argument.
    #[inline(always)]
    pub fn output_factor(&self) -> f32 {
        SCALE as f32 / self.scale
    }
}

/// One decoded training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Active inputs of the side to move's perspective (the first `count`).
    us: [u16; MAX_ACTIVE],
    /// Active inputs of the other side's perspective (the first `count`).
    them: [u16; MAX_ACTIVE],
    count: usize,
    /// What the network's sigmoid output should be.
    pub target: f32,
    /// The network's raw output times this is the sigmoid's argument ([`Target::output_factor`]).
    pub output_factor: f32,
}

impl Sample {
    /// Decodes a record that [`crate::records::parse_records`] has checked, its target
    /// made as `target` says.
    #[inline]
    pub fn decode(record: &PackedRecord, target: Target) -> Sample {
        Sample::decode_mirrored(record, target, false)
    }

    /// As [`Sample::decode`], with the board's files flipped (a-file to h-file) when `mirror`
    /// is set: the same position for the network, as records keep no castling rights, so a
    /// seeded half of the samples mirrored doubles the positions the net sees.
    #[inline]
    pub fn decode_mirrored(record: &PackedRecord, target: Target, mirror: bool) -> Sample {
        Sample::decode_for(record, target, &KingBuckets::NONE, mirror)
    }

    /// As [`Sample::decode_mirrored`], for a net of king-bucket layout `kings`: each
    /// perspective's inputs are those of its own king's bucket (and side, if mirrored), found
    /// from the king squares the record holds (after the files are flipped, if they are).
    #[inline]
    pub fn decode_for(
        record: &PackedRecord,
        target: Target,
        kings: &KingBuckets,
        mirror: bool,
    ) -> Sample {
        let flip = if mirror { 7 } else { 0 };
        let occupied = u64::from_le_bytes([
            record[0], record[1], record[2], record[3], record[4], record[5], record[6], record[7],
        ]);
        let piece_at = |i: usize| usize::from((record[8 + i / 2] >> (4 * (i % 2))) & 15);
        // Each side's king square (pieces 5 and 11), for the views.
        let mut king = [0usize; 2];
        if !kings.is_plain() {
            let mut occupancy = occupied;
            let mut i = 0;
            while occupancy != 0 && i < MAX_ACTIVE {
                let square = occupancy.trailing_zeros() as usize ^ flip;
                occupancy &= occupancy - 1;
                match piece_at(i) {
                    5 => king[0] = square,
                    11 => king[1] = square,
                    _ => {}
                }
                i += 1;
            }
        }
        let mut occupancy = occupied;
        let black_to_move = record[27] == 1;
        let (stm, nstm) = if black_to_move { (1, 0) } else { (0, 1) };
        let (view_us, view_them) = (
            kings.raw_view(stm, king[stm]),
            kings.raw_view(nstm, king[nstm]),
        );
        let mut sample = Sample {
            us: [0; MAX_ACTIVE],
            them: [0; MAX_ACTIVE],
            count: 0,
            target: 0.0,
            output_factor: target.output_factor(),
        };
        let mut i = 0;
        while occupancy != 0 && i < MAX_ACTIVE {
            let square = occupancy.trailing_zeros() as usize ^ flip;
            occupancy &= occupancy - 1;
            let piece = piece_at(i);
            sample.us[i] = view_feature_index(stm, piece, square, view_us) as u16;
            sample.them[i] = view_feature_index(nstm, piece, square, view_them) as u16;
            i += 1;
        }
        sample.count = i;
        let white_score = f32::from(i16::from_le_bytes([record[24], record[25]]));
        let white_result = f32::from(record[26].min(2)) / 2.0;
        let (score, result) = if black_to_move {
            (-white_score, 1.0 - white_result)
        } else {
            (white_score, white_result)
        };
        sample.target = target.wdl * result + (1.0 - target.wdl) * sigmoid(score / target.scale);
        sample
    }

    /// Pieces on the board (kings included): one active input each.
    #[inline(always)]
    pub fn pieces(&self) -> u32 {
        self.count as u32
    }

    /// Active inputs of the side to move's perspective.
    #[inline(always)]
    pub fn us(&self) -> &[u16] {
        &self.us[..self.count]
    }

    /// Active inputs of the other side's perspective.
    #[inline(always)]
    pub fn them(&self) -> &[u16] {
        &self.them[..self.count]
    }
}

// A record is exactly the size the decoder reads.
const _: () = assert!(RECORD_LEN == 32);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{DataRecord, GameResult};
    use betacut::board::{Color, Position};
    use betacut::eval::nnue::features::active_features;

    #[test]
    fn a_mirrored_record_decodes_as_the_position_with_its_files_flipped() {
        // A position and its mirror image (files a..h become h..a), without castling rights.
        let pos = Position::from_fen("r3k3/1P4p1/7q/3pP3/2N5/8/6B1/R3K3 b - - 3 30")
            .unwrap_or_else(|e| panic!("{e}"));
        let mirror = Position::from_fen("3k3r/1p4P1/q7/3Pp3/5N2/8/1B6/3K3R b - - 3 30")
            .unwrap_or_else(|e| panic!("{e}"));
        let record = DataRecord::from_position(&pos, -250, GameResult::BlackWin).to_bytes();
        let flipped = Sample::decode_mirrored(&record, Target::SCORE_ONLY, true);
        let sorted = |inputs: &[u16]| {
            let mut inputs = inputs.to_vec();
            inputs.sort_unstable();
            inputs
        };
        let mut expected = [0u16; MAX_ACTIVE];
        let n = active_features(&mirror, Color::Black, &mut expected);
        assert_eq!(sorted(flipped.us()), sorted(&expected[..n]));
        let n = active_features(&mirror, Color::White, &mut expected);
        assert_eq!(sorted(flipped.them()), sorted(&expected[..n]));
        // The label does not change, and unmirrored decoding is the plain one.
        let plain = Sample::decode(&record, Target::SCORE_ONLY);
        assert_eq!(flipped.target, plain.target);
        assert_eq!(
            Sample::decode_mirrored(&record, Target::SCORE_ONLY, false),
            plain
        );
        assert_ne!(flipped.us(), plain.us());
    }

    #[test]
    fn decoding_gives_the_positions_inputs_and_the_side_to_moves_target() {
        let pos = Position::from_fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R b KQkq - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let record = DataRecord::from_position(&pos, 400, GameResult::WhiteWin).to_bytes();
        let sample = Sample::decode(&record, Target::SCORE_ONLY);
        let mut expected = [0u16; MAX_ACTIVE];
        let n = active_features(&pos, Color::Black, &mut expected);
        assert_eq!(sample.us(), &expected[..n]);
        let n = active_features(&pos, Color::White, &mut expected);
        assert_eq!(sample.them(), &expected[..n]);
        // White's +400 is Black's -400; White won, so Black lost.
        assert!((sample.target - sigmoid(-1.0)).abs() < 1e-6);
        let result_only = Target {
            wdl: 1.0,
            scale: 400.0,
        };
        assert_eq!(Sample::decode(&record, result_only).target, 0.0);
        let half = Target {
            wdl: 0.5,
            scale: 400.0,
        };
        assert!((Sample::decode(&record, half).target - 0.5 * sigmoid(-1.0)).abs() < 1e-6);
        // A scale of 200 reads Black's -400 as sigmoid(-2), and the output twice as steeply.
        let steep = Target {
            wdl: 0.0,
            scale: 200.0,
        };
        let sample = Sample::decode(&record, steep);
        assert!((sample.target - sigmoid(-2.0)).abs() < 1e-6);
        assert_eq!(sample.output_factor, 2.0);
    }
}
