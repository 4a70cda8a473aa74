//! A quantised network and its file format.
//!
//! A net file is a 32-byte header followed by the payload, all little-endian:
//!
//! | bytes  | field                                                                    |
//! | ------ | ------------------------------------------------------------------------ |
//! | 0..4   | magic `BCNN`                                                             |
//! | 4..6   | format version, 1, 2 or 3                                                |
//! | 6..8   | input set: 1 = 768 inputs per perspective ([`super::features`])          |
//! | 8..12  | version 1: hidden size `H` (a multiple of 32, at most 4096), u32         |
//! | 8..10  | version 2: hidden size `H`, u16                                          |
//! | 10..12 | versions 2, 3: output buckets `B` (1..=16, [`super::output_bucket`])     |
//! | 12..14 | QA (255), the scale of the feature weights and biases                    |
//! | 14..16 | QB (64), the scale of the output weights                                 |
//! | 16..18 | output scale (400): the output times this is centipawns                  |
//! | 18..20 | activation: 1 = SCReLU                                                   |
//! | 20..24 | payload length in bytes: `2 * (768 * K * H + H + B * 2 * H) + 4 * B`,    |
//! |        | plus 68 in version 3 (`K` = 1 before version 3)                          |
//! | 24..32 | FNV-1a 64-bit hash of the payload                                        |
//!
//! Version 3 (king buckets, [`super::features::KingBuckets`]) starts its payload with the
//! layout, so that the hash covers it: king buckets `K` (u16, 1..=32), flags (u16: bit 0 =
//! mirrored, the others 0), then 64 bytes, the bucket of each own king square (a1 first, from
//! the own side; below `K`, and alike for a square and its mirror image when mirrored).
//!
//! Payload (after version 3's layout): feature weights `i16[K][768][H]` (one row of `H` per
//! input, the buckets one after the other), feature biases `i16[H]`, output weights
//! `i16[B][2 * H]` (in each bucket the side to move's half first), output biases `i32[B]`.
//! Version 1 is version 2 with one output bucket, version 2 is version 3 with one king bucket
//! and no mirroring. A net is written in the lowest version that holds it (one output bucket
//! and one king bucket: version 1), so older builds still read it.
//!
//! Parsing checks every field, the length and the hash, and that the weights keep the integer
//! arithmetic exact: the output weights within +-127 and no accumulator able to leave `i16`
//! with 32 pieces on the board. A bad file gives a [`NetError`], never a panic.

use super::aligned::AlignedI16;
use super::features::{view_feature_index, KingBucketError, KingBuckets, MAX_KING_BUCKETS};
use super::forward::screlu_dot_pair;
use super::{output_bucket, HIDDEN_MULTIPLE, INPUTS, MAX_ACTIVE, MAX_EVAL, MAX_HIDDEN};
use super::{MAX_OUTPUT_BUCKETS, MAX_OUTPUT_WEIGHT, QA, QB, SCALE};
use crate::board::{Color, Position};
use std::path::Path;
use thiserror::Error;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"BCNN";
/// Format version of a net with one output bucket.
pub const VERSION: u16 = 1;
/// Format version of a net with output buckets (read and written when there are two or more).
pub const VERSION_BUCKETS: u16 = 2;
/// Format version of a net with king buckets or mirroring (read and written when it has them).
pub const VERSION_KING_BUCKETS: u16 = 3;
/// Length of version 3's king-bucket layout at the start of the payload.
pub const KING_LAYOUT_LEN: usize = 2 + 2 + 64;
/// Bit 0 of version 3's layout flags: mirrored.
const FLAG_MIRRORED: u16 = 1;
/// Input set 1: 768 inputs per perspective (per king bucket).
pub const INPUT_SET_768: u16 = 1;
/// Activation 1: squared clipped ReLU.
pub const ACTIVATION_SCRELU: u16 = 1;
/// Length of the header.
pub const HEADER_LEN: usize = 32;

/// Why a net file was refused.
#[derive(Debug, Error)]
pub enum NetError {
    /// The file could not be read.
    #[error("cannot read net file {path}: {source}")]
    Io {
        /// The net file as it was named (`EvalFile`, `--net`).
        path: String,
        /// The system's error: not found, no permission, a folder.
        source: std::io::Error,
    },
    /// Fewer bytes than the header needs.
    #[error("net file too short: {0} bytes, the header alone takes 32")]
    TooShort(usize),
    /// The magic number is wrong: not a Betacut net.
    #[error("not a Betacut net file (magic {0:02x?}, expected \"BCNN\")")]
    BadMagic([u8; 4]),
    /// A format version this build cannot read.
    #[error("net format version {0} is not supported (this build reads versions 1, 2 and 3)")]
    UnsupportedVersion(u16),
    /// An input set this build does not know.
    #[error("net input set {0} is not supported (this build knows 1: 768 per perspective)")]
    UnsupportedInputs(u16),
    /// An activation this build does not know.
    #[error("net activation {0} is not supported (this build knows 1: SCReLU)")]
    UnsupportedActivation(u16),
    /// A hidden size that is zero, too large or not a multiple of 32.
    #[error("net hidden size {0} is not a multiple of 32 between 32 and 4096")]
    BadHiddenSize(u64),
    /// An output bucket count of zero or above [`MAX_OUTPUT_BUCKETS`].
    #[error("net has {0} output buckets; this build reads 1 to {MAX_OUTPUT_BUCKETS}")]
    BadBucketCount(u64),
    /// A version-3 king-bucket layout that does not hold together.
    #[error("net king-bucket layout refused: {0}")]
    BadKingBuckets(KingBucketError),
    /// Version-3 layout flags this build does not know.
    #[error("net king-bucket flags {0:#06x} are not supported (this build knows bit 0: mirrored)")]
    UnsupportedKingFlags(u16),
    /// Quantisation constants other than this build's.
    #[error("net quantised with QA = {qa}, QB = {qb}; this build needs QA = 255, QB = 64")]
    UnsupportedQuantisation {
        /// Feature weight scale in the file.
        qa: u16,
        /// Output weight scale in the file.
        qb: u16,
    },
    /// An output scale of zero.
    #[error("net output scale is 0")]
    BadScale,
    /// The payload length in the header does not fit the hidden size.
    #[error(
        "net header says the payload is {found} bytes, hidden size {hidden} with {buckets} output \
         bucket(s) and {king_buckets} king bucket(s) needs {expected}"
    )]
    PayloadLengthMismatch {
        /// Hidden size in the header.
        hidden: usize,
        /// Output buckets in the header.
        buckets: usize,
        /// King buckets in the layout (1 before version 3).
        king_buckets: usize,
        /// Length the hidden size needs.
        expected: u64,
        /// Length the header states.
        found: u64,
    },
    /// The file is shorter or longer than the header says.
    #[error("net file is {found} bytes, the header says {expected} (truncated or trailing data)")]
    LengthMismatch {
        /// Header plus stated payload.
        expected: u64,
        /// Actual length.
        found: u64,
    },
    /// The payload's hash differs from the header's: the file is damaged.
    #[error(
        "net payload hash {found:016x} differs from the header's {expected:016x}: damaged file"
    )]
    ChecksumMismatch {
        /// Hash in the header.
        expected: u64,
        /// Hash of the payload.
        found: u64,
    },
    /// Arrays of the wrong length given to [`Network::from_parts`].
    #[error("net {what} has {found} values, hidden size {hidden} needs {expected}")]
    WrongArrayLength {
        /// Which array.
        what: &'static str,
        /// Hidden size.
        hidden: usize,
        /// Values needed.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// An output weight beyond +-127, which the forward pass cannot multiply in 16 bits.
    #[error("net output weight {index} is {value}, beyond +-127")]
    OutputWeightOutOfRange {
        /// Index in the output weights.
        index: usize,
        /// Its value.
        value: i16,
    },
    /// Weights so large that a hidden unit's accumulator could leave the i16 range.
    #[error("net hidden unit {unit} can reach {bound}, beyond the i16 accumulator's range")]
    AccumulatorOverflow {
        /// The hidden unit.
        unit: usize,
        /// Worst-case magnitude of its accumulator.
        bound: i64,
    },
}

/// A quantised perspective network (see the module docs for the file format).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    scale: i32,
    /// Which 768 inputs each perspective reads, by where its king stands.
    kings: KingBuckets,
    /// `kings.inputs()` rows of `hidden` weights (king bucket 0's 768 first), each row on a
    /// cache line of its own.
    feature_weights: AlignedI16,
    feature_bias: AlignedI16,
    /// Per output bucket: the side to move's `hidden` weights, then the other side's.
    output_weights: AlignedI16,
    /// One per output bucket.
    output_bias: Box<[i32]>,
}

/// FNV-1a, 64 bits: the payload hash of the file format.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Payload length of a net of `hidden` units and `buckets` output buckets (versions 1, 2).
pub fn payload_len(hidden: usize, buckets: usize) -> u64 {
    weights_len(hidden, buckets, 1)
}

/// Payload length of a version-3 net of `hidden` units, `buckets` output buckets and
/// `king_buckets` king buckets: the layout, then the weights.
pub fn payload_len_v3(hidden: usize, buckets: usize, king_buckets: usize) -> u64 {
    KING_LAYOUT_LEN as u64 + weights_len(hidden, buckets, king_buckets)
}

/// Bytes of the weights and biases.
fn weights_len(hidden: usize, buckets: usize, king_buckets: usize) -> u64 {
    let (h, b, k) = (hidden as u64, buckets as u64, king_buckets as u64);
    2 * (k * INPUTS as u64 * h + h + b * 2 * h) + 4 * b
}

/// Reads little-endian values from a byte slice whose length was checked beforehand.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some((head, rest)) = self.bytes.split_at_checked(N) {
            out.copy_from_slice(head);
            self.bytes = rest;
        }
        out
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }

    fn i32s(&mut self, count: usize) -> Box<[i32]> {
        (0..count).map(|_| self.u32() as i32).collect()
    }

    fn i16s(&mut self, count: usize) -> Box<[i16]> {
        let (head, rest) = self
            .bytes
            .split_at_checked(2 * count)
            .unwrap_or((self.bytes, &[]));
        self.bytes = rest;
        head.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    }
}

impl Network {
    /// Builds a network from its quantised arrays, checking their lengths and ranges. The
    /// number of output biases is the number of output buckets.
    pub fn from_parts(
        hidden: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        Network::from_bucketed_parts(
            hidden,
            KingBuckets::NONE,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        )
    }

    /// [`Network::from_parts`] for a net of king-bucket layout `kings`: `kings.count()` blocks
    /// of 768 feature rows.
    pub fn from_bucketed_parts(
        hidden: usize,
        kings: KingBuckets,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        Network::checked(
            hidden,
            SCALE,
            kings,
            feature_weights.into_boxed_slice(),
            feature_bias.into_boxed_slice(),
            output_weights.into_boxed_slice(),
            output_bias.into_boxed_slice(),
        )
    }

    fn checked(
        hidden: usize,
        scale: i32,
        kings: KingBuckets,
        feature_weights: Box<[i16]>,
        feature_bias: Box<[i16]>,
        output_weights: Box<[i16]>,
        output_bias: Box<[i32]>,
    ) -> Result<Network, NetError> {
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_MULTIPLE) {
            return Err(NetError::BadHiddenSize(hidden as u64));
        }
        let buckets = output_bias.len();
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(NetError::BadBucketCount(buckets as u64));
        }
        for (what, found, expected) in [
            (
                "feature weights",
                feature_weights.len(),
                kings.inputs() * hidden,
            ),
            ("feature biases", feature_bias.len(), hidden),
            ("output weights", output_weights.len(), buckets * 2 * hidden),
        ] {
            if found != expected {
                return Err(NetError::WrongArrayLength {
                    what,
                    hidden,
                    expected,
                    found,
                });
            }
        }
        if let Some((index, &value)) = output_weights
            .iter()
            .enumerate()
            .find(|(_, w)| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetError::OutputWeightOutOfRange { index, value });
        }
        // Worst case of every unit: its bias plus MAX_ACTIVE of its largest weights.
        let mut largest = vec![0i64; hidden];
        for row in feature_weights.chunks_exact(hidden) {
            for (m, &w) in largest.iter_mut().zip(row) {
                *m = (*m).max(i64::from(w).abs());
            }
        }
        for (unit, (&m, &b)) in largest.iter().zip(feature_bias.iter()).enumerate() {
            let bound = i64::from(b).abs() + MAX_ACTIVE as i64 * m;
            if bound > i64::from(i16::MAX) {
                return Err(NetError::AccumulatorOverflow { unit, bound });
            }
        }
        Ok(Network {
            hidden,
            scale,
            kings,
            feature_weights: AlignedI16::from_slice(&feature_weights),
            feature_bias: AlignedI16::from_slice(&feature_bias),
            output_weights: AlignedI16::from_slice(&output_weights),
            output_bias,
        })
    }

    /// Parses a net file's bytes (see the module docs), checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let Some((header, payload)) = bytes.split_at_checked(HEADER_LEN) else {
            return Err(NetError::TooShort(bytes.len()));
        };
        let mut r = Reader { bytes: header };
        let magic: [u8; 4] = r.take();
        if magic != MAGIC {
            return Err(NetError::BadMagic(magic));
        }
        let version = r.u16();
        if !(VERSION..=VERSION_KING_BUCKETS).contains(&version) {
            return Err(NetError::UnsupportedVersion(version));
        }
        let inputs = r.u16();
        if inputs != INPUT_SET_768 {
            return Err(NetError::UnsupportedInputs(inputs));
        }
        let (hidden, buckets) = if version == VERSION {
            (u64::from(r.u32()), 1)
        } else {
            (u64::from(r.u16()), u64::from(r.u16()))
        };
        let (qa, qb, scale, activation) = (r.u16(), r.u16(), r.u16(), r.u16());
        let stated_len = u64::from(r.u32());
        let checksum = r.u64();
        if activation != ACTIVATION_SCRELU {
            return Err(NetError::UnsupportedActivation(activation));
        }
        if hidden == 0 || hidden > MAX_HIDDEN as u64 || !hidden.is_multiple_of(32) {
            return Err(NetError::BadHiddenSize(hidden));
        }
        let hidden = hidden as usize;
        if !(1..=MAX_OUTPUT_BUCKETS as u64).contains(&buckets) {
            return Err(NetError::BadBucketCount(buckets));
        }
        let buckets = buckets as usize;
        if i32::from(qa) != QA || i32::from(qb) != QB {
            return Err(NetError::UnsupportedQuantisation { qa, qb });
        }
        if scale == 0 {
            return Err(NetError::BadScale);
        }
        // Version 3's layout comes first in the payload; the hash is checked before it is read.
        let king_buckets = if version == VERSION_KING_BUCKETS {
            let count = payload
                .get(..2)
                .map_or(0, |b| usize::from(u16::from_le_bytes([b[0], b[1]])));
            if !(1..=MAX_KING_BUCKETS).contains(&count) {
                return Err(NetError::BadKingBuckets(KingBucketError::Count(count)));
            }
            count
        } else {
            1
        };
        let expected = if version == VERSION_KING_BUCKETS {
            payload_len_v3(hidden, buckets, king_buckets)
        } else {
            payload_len(hidden, buckets)
        };
        if stated_len != expected {
            return Err(NetError::PayloadLengthMismatch {
                hidden,
                buckets,
                king_buckets,
                expected,
                found: stated_len,
            });
        }
        if payload.len() as u64 != expected {
            return Err(NetError::LengthMismatch {
                expected: HEADER_LEN as u64 + expected,
                found: bytes.len() as u64,
            });
        }
        let found = fnv1a64(payload);
        if found != checksum {
            return Err(NetError::ChecksumMismatch {
                expected: checksum,
                found,
            });
        }
        let mut r = Reader { bytes: payload };
        let kings = if version == VERSION_KING_BUCKETS {
            let (_count, flags, map) = (r.u16(), r.u16(), r.take::<64>());
            if flags & !FLAG_MIRRORED != 0 {
                return Err(NetError::UnsupportedKingFlags(flags));
            }
            KingBuckets::new(king_buckets, map, flags & FLAG_MIRRORED != 0)
                .map_err(NetError::BadKingBuckets)?
        } else {
            KingBuckets::NONE
        };
        let feature_weights = r.i16s(kings.inputs() * hidden);
        let feature_bias = r.i16s(hidden);
        let output_weights = r.i16s(buckets * 2 * hidden);
        let output_bias = r.i32s(buckets);
        Network::checked(
            hidden,
            i32::from(scale),
            kings,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        )
    }

    /// Reads and parses a net file.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|source| NetError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Network::from_bytes(&bytes)
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = self.hidden;
        let buckets = self.buckets();
        let plain = self.kings.is_plain();
        let mut payload =
            Vec::with_capacity(payload_len_v3(h, buckets, self.kings.count()) as usize);
        if !plain {
            payload.extend_from_slice(&(self.kings.count() as u16).to_le_bytes());
            let flags = if self.kings.mirrored() {
                FLAG_MIRRORED
            } else {
                0
            };
            payload.extend_from_slice(&flags.to_le_bytes());
            payload.extend_from_slice(self.kings.map());
        }
        for &w in self
            .feature_weights
            .iter()
            .chain(self.feature_bias.iter())
            .chain(self.output_weights.iter())
        {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        for &b in self.output_bias.iter() {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len());
        bytes.extend_from_slice(&MAGIC);
        if !plain {
            bytes.extend_from_slice(&VERSION_KING_BUCKETS.to_le_bytes());
            bytes.extend_from_slice(&INPUT_SET_768.to_le_bytes());
            bytes.extend_from_slice(&(h as u16).to_le_bytes());
            bytes.extend_from_slice(&(buckets as u16).to_le_bytes());
        } else if buckets == 1 {
            bytes.extend_from_slice(&VERSION.to_le_bytes());
            bytes.extend_from_slice(&INPUT_SET_768.to_le_bytes());
            bytes.extend_from_slice(&(h as u32).to_le_bytes());
        } else {
            bytes.extend_from_slice(&VERSION_BUCKETS.to_le_bytes());
            bytes.extend_from_slice(&INPUT_SET_768.to_le_bytes());
            bytes.extend_from_slice(&(h as u16).to_le_bytes());
            bytes.extend_from_slice(&(buckets as u16).to_le_bytes());
        }
        bytes.extend_from_slice(&(QA as u16).to_le_bytes());
        bytes.extend_from_slice(&(QB as u16).to_le_bytes());
        bytes.extend_from_slice(&(self.scale.clamp(1, i32::from(u16::MAX)) as u16).to_le_bytes());
        bytes.extend_from_slice(&ACTIVATION_SCRELU.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// Writes the net file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// Number of hidden units per perspective.
    #[inline]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The king-bucket layout: which 768 inputs each perspective reads.
    #[inline(always)]
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.kings
    }

    /// The `hidden` weights of input `feature` (0..768 per king bucket).
    #[inline(always)]
    pub fn feature_row(&self, feature: usize) -> &[i16] {
        let start = feature * self.hidden;
        &self.feature_weights[start..start + self.hidden]
    }

    /// The hidden biases (an accumulator's value on an empty board).
    #[inline]
    pub fn feature_bias(&self) -> &[i16] {
        &self.feature_bias
    }

    /// Number of output buckets.
    #[inline]
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The output bucket of `pos` (by the number of pieces on the board).
    #[inline(always)]
    pub fn bucket_of(&self, pos: &Position) -> usize {
        output_bucket(pos.occupied().count(), self.buckets())
    }

    /// The output weights: per bucket, the side to move's `hidden`, then the other side's.
    #[inline]
    pub fn output_weights(&self) -> &[i16] {
        &self.output_weights
    }

    /// The output biases, one per bucket (scale QA * QB).
    #[inline]
    pub fn output_bias(&self) -> &[i32] {
        &self.output_bias
    }

    /// The same net with its single output layer copied into each of `buckets` buckets: it
    /// evaluates every position exactly as before, and training can then tell the buckets
    /// apart. `None` when the net already has more than one bucket or `buckets` is out of range.
    pub fn with_buckets(&self, buckets: usize) -> Option<Network> {
        if self.buckets() != 1 || !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return None;
        }
        let mut net = self.clone();
        net.output_weights = AlignedI16::from_slice(&self.output_weights.repeat(buckets));
        net.output_bias = vec![self.output_bias[0]; buckets].into_boxed_slice();
        Some(net)
    }

    /// The same net with its input weights copied into every bucket of the king-bucket layout
    /// `kings`: without mirroring it evaluates every position exactly as before (each bucket
    /// holds the old weights), and training can then tell the buckets apart. With mirroring it
    /// evaluates a position whose king stands on the e- to h-files as the old net evaluates
    /// its mirror image: not the same net. `None` unless this net has the plain layout.
    pub fn with_king_buckets(&self, kings: KingBuckets) -> Option<Network> {
        if !self.kings.is_plain() {
            return None;
        }
        let mut net = self.clone();
        net.kings = kings;
        net.feature_weights = AlignedI16::from_slice(&self.feature_weights.repeat(kings.count()));
        Some(net)
    }

    /// Writes `perspective`'s accumulator of `pos` into `out` (`hidden` values) from scratch.
    pub fn refresh(&self, pos: &Position, perspective: Color, out: &mut [i16]) {
        out.copy_from_slice(&self.feature_bias);
        let view = self.kings.view_of(pos, perspective);
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_at(sq) {
                let feature =
                    view_feature_index(perspective.index(), piece.index(), sq.index(), view);
                let row = self.feature_row(feature);
                for (a, &w) in out.iter_mut().zip(row) {
                    *a = a.wrapping_add(w);
                }
            }
        }
    }

    /// The evaluation in centipawns from the side to move's view, given the side to move's
    /// accumulator `us`, the other side's `them`, and the output bucket (from
    /// [`Network::bucket_of`], so below [`Network::buckets`]).
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let (w_us, w_them) = self.bucket_weights(bucket);
        self.output_of_sum(screlu_dot_pair(us, them, w_us, w_them), bucket)
    }

    /// The output weights of `bucket` (below [`Network::buckets`]): the side to move's and
    /// the other side's.
    #[inline(always)]
    pub fn bucket_weights(&self, bucket: usize) -> (&[i16], &[i16]) {
        let h = self.hidden;
        self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h)
    }

    /// The evaluation in centipawns from the output layer's sum ([`screlu_dot_pair`] of the
    /// accumulators and [`Network::bucket_weights`]) in `bucket`.
    #[inline(always)]
    pub fn output_of_sum(&self, sum: i64, bucket: usize) -> i32 {
        let qa = i64::from(QA);
        let bias = i64::from(self.output_bias[bucket]);
        let value = (sum / qa + bias) * i64::from(self.scale) / (qa * i64::from(QB));
        value.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }

    /// The evaluation of `pos` from scratch (no running state; allocates: for tools and tests,
    /// not the search).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut white = vec![0i16; self.hidden];
        let mut black = vec![0i16; self.hidden];
        self.refresh(pos, Color::White, &mut white);
        self.refresh(pos, Color::Black, &mut black);
        let bucket = self.bucket_of(pos);
        match pos.side_to_move() {
            Color::White => self.output(&white, &black, bucket),
            Color::Black => self.output(&black, &white, bucket),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::nnue::forward::screlu_dot_reference;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A network with random weights in the ranges a trained net uses.
    pub(crate) fn random_network(hidden: usize, seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut values = |n: usize, limit: i16| -> Vec<i16> {
            (0..n).map(|_| rng.gen_range(-limit..=limit)).collect()
        };
        let feature_weights = values(INPUTS * hidden, 200);
        let feature_bias = values(hidden, 300);
        let output_weights = values(2 * hidden, MAX_OUTPUT_WEIGHT);
        Network::from_parts(
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            vec![1234],
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A random network of king-bucket layout `kings` (and 8 output buckets), every king
    /// bucket with weights of its own.
    pub(crate) fn random_king_network(hidden: usize, kings: KingBuckets, seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let one = random_bucketed_network(hidden, 8, seed);
        let feature_weights = (0..kings.inputs() * hidden)
            .map(|_| rng.gen_range(-200..=200))
            .collect();
        Network::from_bucketed_parts(
            hidden,
            kings,
            feature_weights,
            one.feature_bias.to_vec(),
            one.output_weights.to_vec(),
            one.output_bias.to_vec(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Positions with kings all over the board, both sides to move, castling rights.
    pub(crate) const KING_FENS: [&str; 8] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/8/8/8/6k1/4K2R b K - 0 1",
        "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R b - - 0 1",
        "6k1/5ppp/8/8/3K4/8/5PPP/8 w - - 0 1",
        "8/1k6/8/8/8/8/6K1/8 b - - 0 1",
        "r1bq1rk1/pp3ppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQ - 0 9",
    ];

    /// The shipped net.
    pub(crate) fn gen11() -> Network {
        Network::from_bytes(include_bytes!("nets/gen11.bin")).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn gen11_is_written_back_byte_for_byte() {
        let bytes = include_bytes!("nets/gen11.bin");
        let net = gen11();
        assert_eq!(net.king_buckets(), &KingBuckets::NONE);
        assert_eq!(&bytes[4..6], &VERSION_BUCKETS.to_le_bytes());
        assert!(net.to_bytes() == bytes.as_slice());
    }

    #[test]
    fn a_king_bucketed_net_survives_writing_and_reading_as_version_3() {
        for kings in [KingBuckets::DEFAULT, KingBuckets::DEFAULT_MIRRORED] {
            let net = random_king_network(32, kings, 11);
            let bytes = net.to_bytes();
            assert_eq!(&bytes[4..6], &VERSION_KING_BUCKETS.to_le_bytes());
            assert_eq!(
                bytes.len() as u64,
                HEADER_LEN as u64 + payload_len_v3(32, 8, 4)
            );
            let back = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, net);
            assert_eq!(back.king_buckets(), &kings);
            for len in (0..bytes.len()).step_by(97) {
                assert!(Network::from_bytes(&bytes[..len]).is_err(), "prefix {len}");
            }
        }
        // One bucket with mirroring is not the plain layout: version 3 too.
        let Ok(one) = KingBuckets::new(1, [0; 64], true) else {
            panic!("one mirrored bucket");
        };
        let net = random_king_network(32, one, 12);
        assert_eq!(&net.to_bytes()[4..6], &VERSION_KING_BUCKETS.to_le_bytes());
    }

    #[test]
    fn malformed_king_bucket_layouts_are_refused_with_the_reason() {
        let good = random_king_network(32, KingBuckets::DEFAULT, 13).to_bytes();
        // Edits the layout (at the payload's start) and puts the hash right, so that the
        // layout's own check is what refuses it.
        let with = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut bytes = good.clone();
            edit(&mut bytes);
            let hash = fnv1a64(&bytes[HEADER_LEN..]);
            bytes[24..32].copy_from_slice(&hash.to_le_bytes());
            Network::from_bytes(&bytes)
        };
        let at = HEADER_LEN;
        assert!(matches!(
            with(&|b| b[at..at + 2].copy_from_slice(&0u16.to_le_bytes())),
            Err(NetError::BadKingBuckets(KingBucketError::Count(0)))
        ));
        assert!(matches!(
            with(&|b| b[at..at + 2].copy_from_slice(&33u16.to_le_bytes())),
            Err(NetError::BadKingBuckets(KingBucketError::Count(33)))
        ));
        // A count that is valid but does not fit the payload.
        assert!(matches!(
            with(&|b| b[at..at + 2].copy_from_slice(&3u16.to_le_bytes())),
            Err(NetError::PayloadLengthMismatch {
                king_buckets: 3,
                ..
            })
        ));
        assert!(matches!(
            with(&|b| b[at + 2] = 2),
            Err(NetError::UnsupportedKingFlags(2))
        ));
        // Square c1 in bucket 4 of 4.
        assert!(matches!(
            with(&|b| b[at + 4 + 2] = 4),
            Err(NetError::BadKingBuckets(KingBucketError::Bucket {
                square: 2,
                bucket: 4
            }))
        ));
        // Mirrored, but the default map gives d1 and e1 different buckets.
        assert!(matches!(
            with(&|b| b[at + 2] = 1),
            Err(NetError::BadKingBuckets(KingBucketError::Asymmetric {
                square: 0
            }))
        ));
        let message = with(&|b| b[at + 4 + 2] = 4)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(message.contains("king square c1 has bucket 4"), "{message}");
        // A damaged layout with the old hash: the hash catches it.
        let mut damaged = good.clone();
        damaged[at + 10] ^= 1;
        assert!(matches!(
            Network::from_bytes(&damaged),
            Err(NetError::ChecksumMismatch { .. })
        ));
    }

    #[test]
    fn a_net_grown_into_king_buckets_evaluates_as_before() {
        let net = gen11();
        let grown = net
            .with_king_buckets(KingBuckets::DEFAULT)
            .unwrap_or_else(|| panic!("gen11 has the plain layout"));
        assert!(grown.with_king_buckets(KingBuckets::DEFAULT).is_none());
        let back = Network::from_bytes(&grown.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, grown);
        let mirrored = net
            .with_king_buckets(KingBuckets::DEFAULT_MIRRORED)
            .unwrap_or_else(|| panic!("gen11 has the plain layout"));
        let mut differ = 0;
        for fen in KING_FENS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back.evaluate(&pos), net.evaluate(&pos), "{fen}");
            differ += usize::from(mirrored.evaluate(&pos) != net.evaluate(&pos));
        }
        // Mirroring reads the board of a king on the e- to h-files flipped: another net.
        assert!(differ > 0);
    }

    /// A random network of `buckets` output buckets, each with its own weights and bias.
    pub(crate) fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let one = random_network(hidden, seed);
        let output_weights = (0..buckets * 2 * hidden)
            .map(|_| rng.gen_range(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT))
            .collect();
        let output_bias = (0..buckets).map(|_| rng.gen_range(-5000..5000)).collect();
        Network::from_parts(
            hidden,
            one.feature_weights.to_vec(),
            one.feature_bias.to_vec(),
            output_weights,
            output_bias,
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_net_survives_writing_and_reading() {
        let net = random_network(64, 1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len() as u64, HEADER_LEN as u64 + payload_len(64, 1));
        assert_eq!(&bytes[4..6], &VERSION.to_le_bytes());
        let back = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, net);
    }

    #[test]
    fn a_bucketed_net_survives_writing_and_reading_as_version_2() {
        let net = random_bucketed_network(64, 8, 3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len() as u64, HEADER_LEN as u64 + payload_len(64, 8));
        assert_eq!(&bytes[4..6], &VERSION_BUCKETS.to_le_bytes());
        let back = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, net);
        assert_eq!(back.buckets(), 8);
        // Zero buckets, or more than 16, are refused.
        for bad in [0u16, 17] {
            let mut b = bytes.clone();
            b[10..12].copy_from_slice(&bad.to_le_bytes());
            assert!(matches!(
                Network::from_bytes(&b),
                Err(NetError::BadBucketCount(n)) if n == u64::from(bad)
            ));
        }
        // Fewer buckets than the payload holds: the stated length no longer fits.
        let mut b = bytes.clone();
        b[10..12].copy_from_slice(&4u16.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::PayloadLengthMismatch { buckets: 4, .. })
        ));
        for len in 0..bytes.len() {
            assert!(Network::from_bytes(&bytes[..len]).is_err(), "prefix {len}");
        }
    }

    #[test]
    fn copying_the_output_layer_into_buckets_changes_no_evaluation() {
        let net = random_network(64, 4);
        let bucketed = net
            .with_buckets(8)
            .unwrap_or_else(|| panic!("1 -> 8 buckets"));
        assert_eq!(bucketed.buckets(), 8);
        assert!(bucketed.with_buckets(4).is_none());
        assert!(net.with_buckets(0).is_none());
        assert!(net.with_buckets(17).is_none());
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "8/8/8/8/8/8/6k1/4K2R b K - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(bucketed.evaluate(&pos), net.evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn the_number_of_pieces_picks_the_output_layer() {
        let net = random_bucketed_network(32, 8, 6);
        let h = net.hidden();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            let bucket = (pos.occupied().count() as usize - 2) / 4;
            assert_eq!(net.bucket_of(&pos), bucket.min(7));
            // The evaluation by hand from that bucket's weights and bias.
            let mut us = vec![0i16; h];
            let mut them = vec![0i16; h];
            net.refresh(&pos, pos.side_to_move(), &mut us);
            net.refresh(&pos, !pos.side_to_move(), &mut them);
            let w = &net.output_weights()[bucket * 2 * h..(bucket + 1) * 2 * h];
            let sum = screlu_dot_reference(&us, &w[..h]) + screlu_dot_reference(&them, &w[h..]);
            let expected = (sum / i64::from(QA) + i64::from(net.output_bias()[bucket]))
                * i64::from(SCALE)
                / i64::from(QA * QB);
            let expected = expected.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32;
            assert_eq!(net.evaluate(&pos), expected, "{fen}");
        }
    }

    #[test]
    fn malformed_files_are_refused_with_the_reason() {
        let good = random_network(32, 2).to_bytes();
        let with = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut bytes = good.clone();
            edit(&mut bytes);
            Network::from_bytes(&bytes)
        };
        assert!(matches!(
            with(&|b| b.truncate(10)),
            Err(NetError::TooShort(10))
        ));
        assert!(matches!(
            with(&|b| b.truncate(b.len() - 1)),
            Err(NetError::LengthMismatch { .. })
        ));
        assert!(matches!(
            with(&|b| b.push(0)),
            Err(NetError::LengthMismatch { .. })
        ));
        assert!(matches!(with(&|b| b[0] = b'X'), Err(NetError::BadMagic(_))));
        assert!(matches!(
            with(&|b| b[4] = 9),
            Err(NetError::UnsupportedVersion(9))
        ));
        assert!(matches!(
            with(&|b| b[6] = 2),
            Err(NetError::UnsupportedInputs(2))
        ));
        assert!(matches!(
            with(&|b| b[8] = 33),
            Err(NetError::BadHiddenSize(33))
        ));
        // A valid hidden size that does not match the payload.
        assert!(matches!(
            with(&|b| b[8] = 64),
            Err(NetError::PayloadLengthMismatch { .. })
        ));
        assert!(matches!(
            with(&|b| b[12] = 0),
            Err(NetError::UnsupportedQuantisation { .. })
        ));
        assert!(matches!(
            with(&|b| b[16..18].copy_from_slice(&[0, 0])),
            Err(NetError::BadScale)
        ));
        assert!(matches!(
            with(&|b| b[18] = 7),
            Err(NetError::UnsupportedActivation(7))
        ));
        assert!(matches!(
            with(&|b| b[HEADER_LEN + 5] ^= 1),
            Err(NetError::ChecksumMismatch { .. })
        ));
        // Every prefix of a good file is refused.
        for len in 0..good.len() {
            assert!(Network::from_bytes(&good[..len]).is_err(), "prefix {len}");
        }
    }

    #[test]
    fn out_of_range_weights_are_refused() {
        let h = 32;
        let fw = vec![0i16; INPUTS * h];
        let ow = vec![0i16; 2 * h];
        let mut big_output = ow.clone();
        big_output[3] = 128;
        assert!(matches!(
            Network::from_parts(h, fw.clone(), vec![0; h], big_output, vec![0]),
            Err(NetError::OutputWeightOutOfRange {
                index: 3,
                value: 128
            })
        ));
        let mut big_feature = fw.clone();
        big_feature[5 * h + 7] = 1100; // 32 * 1100 > 32767
        assert!(matches!(
            Network::from_parts(h, big_feature, vec![0; h], ow.clone(), vec![0]),
            Err(NetError::AccumulatorOverflow { unit: 7, .. })
        ));
        assert!(matches!(
            Network::from_parts(h, fw.clone(), vec![0; h + 1], ow.clone(), vec![0]),
            Err(NetError::WrongArrayLength { .. })
        ));
        // Two biases need two buckets of output weights.
        assert!(matches!(
            Network::from_parts(h, fw.clone(), vec![0; h], ow.clone(), vec![0, 0]),
            Err(NetError::WrongArrayLength {
                what: "output weights",
                ..
            })
        ));
        assert!(matches!(
            Network::from_parts(h, fw, vec![0; h], ow, vec![]),
            Err(NetError::BadBucketCount(0))
        ));
    }
}
