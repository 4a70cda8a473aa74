//! The network's inputs: which of the 768 inputs of a perspective each piece activates.
//!
//! A perspective sees the board from its own side: its own pieces are colour 0, the opponent's
//! colour 1, and Black's perspective flips the board top to bottom (a1 <-> a8), so both sides
//! see their pieces as if they were White. Index = relative colour * 384 + kind * 64 + square.
//!
//! A net may also split its inputs by where the perspective's own king stands ([`KingBuckets`]):
//! 768 inputs per king bucket, the bucket picked by the own king's square as that perspective
//! sees it, and, in a mirrored layout, the whole board flipped a-h when that king stands on the
//! e- to h-files. How one perspective sees the board is its *view* ([`KingBuckets::view`]): the
//! bucket and the mirroring in one byte, which every input of that perspective shares.

use super::{INPUTS, MAX_ACTIVE};
use crate::board::{Color, Piece, PieceKind, Position, Square};

/// Most king buckets a net may have (a grown net's file is this many times larger).
pub const MAX_KING_BUCKETS: usize = 32;

/// How a net's inputs depend on the perspective's own king: the number of buckets (each 768
/// inputs), the bucket of each square of the own king (seen from the own side: flipped top to
/// bottom for Black, as the inputs are), and whether the board is mirrored (files a-h flipped)
/// when that king stands on the e- to h-files. A mirrored layout's map gives a square and its
/// mirror image the same bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    map: [u8; 64],
    count: u8,
    mirrored: bool,
}

/// Why a king-bucket layout was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingBucketError {
    /// A count of zero or above [`MAX_KING_BUCKETS`].
    Count(usize),
    /// A square's bucket is not below the count.
    Bucket {
        /// The own king's square (from its own side, a1 = 0).
        square: usize,
        /// Its bucket.
        bucket: u8,
    },
    /// A mirrored layout gives a square and its mirror image different buckets.
    Asymmetric {
        /// The square on the a- to d-files.
        square: usize,
    },
}

impl std::fmt::Display for KingBucketError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            KingBucketError::Count(n) => {
                write!(f, "{n} king buckets (1 to {MAX_KING_BUCKETS})")
            }
            KingBucketError::Bucket { square, bucket } => write!(
                f,
                "king square {} has bucket {bucket}, beyond the bucket count",
                Square::from_index(square)
            ),
            KingBucketError::Asymmetric { square } => write!(
                f,
                "mirrored layout, but king square {} and its mirror image {} have different \
                 buckets",
                Square::from_index(square),
                Square::from_index(square ^ 7)
            ),
        }
    }
}

impl KingBuckets {
    /// One bucket, no mirroring: the plain 768 inputs (every net before format version 3).
    pub const NONE: KingBuckets = KingBuckets {
        map: [0; 64],
        count: 1,
        mirrored: false,
    };

    /// The default four buckets of a grown net, by the own king's square from its own side:
    ///
    /// ```text
    /// rank 5-8   3 3 3 3 3 3 3 3
    /// rank 3-4   2 2 2 2 2 2 2 2
    /// rank 1-2   0 0 0 0 1 1 1 1
    ///            a b c d e f g h
    /// ```
    ///
    /// Bucket 0: the queen side of the back two ranks (a king castled long, or not castled on
    /// d1/d2), 1: their king side (castled short, or on e1: most positions), 2: ranks 3 and 4,
    /// 3: ranks 5 to 8 (kings come that far in endgames).
    pub const DEFAULT: KingBuckets = KingBuckets {
        map: default_map(false),
        count: 4,
        mirrored: false,
    };

    /// The default four buckets with mirroring: the king on the e- to h-files sees the board
    /// flipped, so the back two ranks split into the corner files (a, b; g, h) and the centre
    /// files (c, d; e, f):
    ///
    /// ```text
    /// rank 5-8   3 3 3 3 3 3 3 3
    /// rank 3-4   2 2 2 2 2 2 2 2
    /// rank 1-2   0 0 1 1 1 1 0 0
    ///            a b c d e f g h
    /// ```
    pub const DEFAULT_MIRRORED: KingBuckets = KingBuckets {
        map: default_map(true),
        count: 4,
        mirrored: true,
    };

    /// A layout of `count` buckets from the bucket of every own king square (a1 = 0, from the
    /// own side), mirrored or not; checked.
    pub fn new(
        count: usize,
        map: [u8; 64],
        mirrored: bool,
    ) -> Result<KingBuckets, KingBucketError> {
        if !(1..=MAX_KING_BUCKETS).contains(&count) {
            return Err(KingBucketError::Count(count));
        }
        for (square, &bucket) in map.iter().enumerate() {
            if usize::from(bucket) >= count {
                return Err(KingBucketError::Bucket { square, bucket });
            }
            if mirrored && map[square ^ 7] != bucket {
                return Err(KingBucketError::Asymmetric {
                    square: square.min(square ^ 7),
                });
            }
        }
        Ok(KingBuckets {
            map,
            count: count as u8,
            mirrored,
        })
    }

    /// Number of buckets (each 768 inputs).
    #[inline(always)]
    pub const fn count(&self) -> usize {
        self.count as usize
    }

    /// Whether the board is mirrored when the own king stands on the e- to h-files.
    #[inline(always)]
    pub const fn mirrored(&self) -> bool {
        self.mirrored
    }

    /// The bucket of each own king square (a1 = 0, from the own side).
    #[inline]
    pub const fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// True for the plain layout (one bucket, no mirroring): a view is always 0.
    #[inline(always)]
    pub const fn is_plain(&self) -> bool {
        self.count == 1 && !self.mirrored
    }

    /// Inputs per perspective: 768 per bucket.
    #[inline(always)]
    pub const fn inputs(&self) -> usize {
        self.count as usize * INPUTS
    }

    /// How `perspective` sees the board with its own king on `king`: the bucket times 8, plus 7
    /// if the board is mirrored (so `view >> 3` is the bucket and `view & 7` what the squares
    /// are XORed with).
    #[inline(always)]
    pub const fn view(&self, perspective: Color, king: Square) -> u8 {
        self.raw_view(perspective.index(), king.index())
    }

    /// [`KingBuckets::view`] on plain indices (`perspective` 0 or 1, `king` 0..64).
    #[inline(always)]
    pub const fn raw_view(&self, perspective: usize, king: usize) -> u8 {
        let relative = (king ^ (56 * perspective)) & 63;
        let flip: u8 = if self.mirrored && relative & 7 >= 4 {
            7
        } else {
            0
        };
        (self.map[relative ^ flip as usize] << 3) | flip
    }

    /// `perspective`'s view of `pos`.
    #[inline(always)]
    pub fn view_of(&self, pos: &Position, perspective: Color) -> u8 {
        self.view(perspective, pos.king_square(perspective))
    }
}

/// The maps of [`KingBuckets::DEFAULT`] and [`KingBuckets::DEFAULT_MIRRORED`].
const fn default_map(mirrored: bool) -> [u8; 64] {
    let mut map = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        map[sq] = match rank {
            0 | 1 if mirrored => {
                if file <= 1 || file >= 6 {
                    0
                } else {
                    1
                }
            }
            0 | 1 => {
                if file < 4 {
                    0
                } else {
                    1
                }
            }
            2 | 3 => 2,
            _ => 3,
        };
        sq += 1;
    }
    map
}

/// The input that `piece` on `square` activates in `perspective`'s half of the network.
#[inline(always)]
pub const fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    raw_feature_index(perspective.index(), piece.index(), square.index())
}

/// [`feature_index`] on plain indices: `perspective` 0 (White) or 1 (Black), `piece` 0..12
/// (White pawn..king, then Black pawn..king), `square` 0..64 (a1 = 0).
#[inline(always)]
pub const fn raw_feature_index(perspective: usize, piece: usize, square: usize) -> usize {
    let color = piece / 6;
    let kind = piece % 6;
    let relative_color = color ^ perspective;
    let relative_square = square ^ (56 * perspective);
    (relative_color * 384 + kind * 64 + relative_square) % INPUTS
}

/// The input of `piece` on `square` (plain indices, as [`raw_feature_index`]) in the
/// perspective whose [`KingBuckets::view`] is `view`: its bucket's 768 inputs, the square
/// mirrored if the view says so.
#[inline(always)]
pub const fn view_feature_index(
    perspective: usize,
    piece: usize,
    square: usize,
    view: u8,
) -> usize {
    (view as usize >> 3) * INPUTS
        + raw_feature_index(perspective, piece, square ^ (view as usize & 7))
}

/// The active inputs of `pos` from `perspective`, written into `out`; returns how many.
pub fn active_features(pos: &Position, perspective: Color, out: &mut [u16; MAX_ACTIVE]) -> usize {
    active_bucketed_features(pos, perspective, &KingBuckets::NONE, out)
}

/// The active inputs of `pos` from `perspective` in a net of king-bucket layout `kings`,
/// written into `out`; returns how many.
pub fn active_bucketed_features(
    pos: &Position,
    perspective: Color,
    kings: &KingBuckets,
    out: &mut [u16; MAX_ACTIVE],
) -> usize {
    let view = kings.view_of(pos, perspective);
    let mut count = 0;
    for sq in pos.occupied() {
        if let (Some(piece), Some(slot)) = (pos.piece_at(sq), out.get_mut(count)) {
            *slot = view_feature_index(perspective.index(), piece.index(), sq.index(), view) as u16;
            count += 1;
        }
    }
    count
}

/// Whether `piece` is a king (the moves that can change a perspective's view).
#[inline(always)]
pub fn is_king(piece: Piece) -> bool {
    piece.kind == PieceKind::King
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceKind;

    #[test]
    fn both_sides_see_their_own_pieces_alike() {
        let white_pawn = Piece::new(Color::White, PieceKind::Pawn);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let e2 = Square::new(4, 1);
        let e7 = Square::new(4, 6);
        // Own pawn on the own second rank: same input for both perspectives.
        assert_eq!(
            feature_index(Color::White, white_pawn, e2),
            feature_index(Color::Black, black_pawn, e7)
        );
        assert_eq!(feature_index(Color::White, white_pawn, e2), 12);
        // The opponent's pieces come after the own ones.
        assert_eq!(feature_index(Color::Black, white_pawn, e2), 384 + 52);
        let black_king = Piece::new(Color::Black, PieceKind::King);
        assert_eq!(feature_index(Color::White, black_king, Square::H8), 767);
        assert_eq!(
            feature_index(Color::Black, black_king, Square::H8),
            5 * 64 + 7
        );
    }

    #[test]
    fn every_input_is_reached_exactly_once_per_perspective() {
        for perspective in Color::ALL {
            let mut seen = [false; INPUTS];
            for piece in 0..12 {
                for square in 0..64 {
                    let i = raw_feature_index(perspective.index(), piece, square);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
    }

    #[test]
    fn the_start_position_has_32_active_inputs() {
        let mut out = [0u16; MAX_ACTIVE];
        let n = active_features(&Position::startpos(), Color::Black, &mut out);
        assert_eq!(n, 32);
    }
}
