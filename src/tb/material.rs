//! Material signatures: how many pieces of each kind and colour a position or a table holds,
//! packed in one integer so that finding a position's table costs a few popcounts and a hash
//! lookup, and nothing is allocated.

use crate::board::{Color, PieceKind, Position};

/// Table-name letters in the order Syzygy names list them (strongest first).
const LETTERS: [(char, PieceKind); 6] = [
    ('K', PieceKind::King),
    ('Q', PieceKind::Queen),
    ('R', PieceKind::Rook),
    ('B', PieceKind::Bishop),
    ('N', PieceKind::Knight),
    ('P', PieceKind::Pawn),
];

/// Piece counts by colour and kind, four bits each (kings included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Material(u64);

#[inline]
const fn shift(color: Color, kind: PieceKind) -> u32 {
    (color as u32 * 6 + kind as u32) * 4
}

impl Material {
    /// The material of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Material {
        let mut bits = 0u64;
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = u64::from(pos.pieces_of(color, kind).count());
                bits |= count << shift(color, kind);
            }
        }
        Material(bits)
    }

    /// The material of a table name's two sides (`"KQ"`, `"KR"`); `None` for letters that are
    /// not pieces or more than 15 of one kind.
    pub fn from_sides(white: &str, black: &str) -> Option<Material> {
        let mut bits = 0u64;
        for (color, side) in [(Color::White, white), (Color::Black, black)] {
            for letter in side.chars() {
                let &(_, kind) = LETTERS.iter().find(|(l, _)| *l == letter)?;
                let at = shift(color, kind);
                if (bits >> at) & 15 == 15 {
                    return None;
                }
                bits += 1 << at;
            }
        }
        Some(Material(bits))
    }

    /// The same material with the colours swapped.
    #[inline]
    pub fn mirrored(self) -> Material {
        let white = self.0 & 0xFF_FFFF;
        let black = (self.0 >> 24) & 0xFF_FFFF;
        Material(black | (white << 24))
    }

    /// Number of `color`'s pieces of `kind`.
    #[inline]
    pub fn count(self, color: Color, kind: PieceKind) -> u32 {
        ((self.0 >> shift(color, kind)) & 15) as u32
    }

    /// Number of `color`'s pieces.
    pub fn side_total(self, color: Color) -> u32 {
        PieceKind::ALL.iter().map(|&k| self.count(color, k)).sum()
    }

    /// Number of pieces of both colours.
    pub fn total(self) -> u32 {
        self.side_total(Color::White) + self.side_total(Color::Black)
    }

    /// True when both sides have the same pieces.
    pub fn is_symmetric(self) -> bool {
        self == self.mirrored()
    }

    /// `color`'s pieces as table-name letters, strongest first (`"KQ"`).
    fn side_letters(self, color: Color) -> String {
        let mut text = String::new();
        for (letter, kind) in LETTERS {
            for _ in 0..self.count(color, kind) {
                text.push(letter);
            }
        }
        text
    }

    /// White's pieces, `v`, Black's pieces (`"KQvKR"`).
    pub fn name(self) -> String {
        format!(
            "{}v{}",
            self.side_letters(Color::White),
            self.side_letters(Color::Black)
        )
    }

    /// The table name of this material as Syzygy files are named: the side with more pieces
    /// first, and for equal numbers the side with the stronger pieces.
    pub fn table_name(self) -> String {
        if self.white_leads() {
            self.name()
        } else {
            self.mirrored().name()
        }
    }

    /// True if White's side is the one a table name lists first.
    fn white_leads(self) -> bool {
        let rank = |color: Color| -> Vec<usize> {
            let mut ranks = Vec::new();
            for (i, (_, kind)) in LETTERS.iter().enumerate() {
                for _ in 0..self.count(color, *kind) {
                    ranks.push(i);
                }
            }
            ranks
        };
        let (white, black) = (rank(Color::White), rank(Color::Black));
        // Black first when (white count, black's letters) < (black count, white's letters).
        (white.len(), &black) >= (black.len(), &white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_mirrors() {
        let m = Material::from_sides("KQ", "KR").unwrap_or(Material(0));
        assert_eq!(m.name(), "KQvKR");
        assert_eq!(m.mirrored().name(), "KRvKQ");
        assert_eq!(m.mirrored().table_name(), "KQvKR");
        assert_eq!(m.total(), 4);
        assert!(!m.is_symmetric());
        let knights = Material::from_sides("KN", "KB").unwrap_or(Material(0));
        assert_eq!(knights.table_name(), "KBvKN");
        let pawns = Material::from_sides("KP", "KRB").unwrap_or(Material(0));
        assert_eq!(pawns.table_name(), "KRBvKP");
        assert!(Material::from_sides("KX", "K").is_none());
        let pos = Position::from_fen("8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1");
        let pos = pos.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Material::of(&pos), m);
    }
}
