//! Chess960 (Fischer Random) start positions for data generation: the 960 back ranks by their
//! standard numbers (Scharnagl's numbering, 518 = the usual start), and double Chess960 starts,
//! where White and Black each get their own back rank.

use betacut::board::Position;

/// Number of Chess960 back ranks.
pub const BACK_RANKS: u32 = 960;

/// The back rank numbered `n` (0..960; 518 is `RNBQKBNR`), a to h, as upper-case letters.
/// `None` for a number out of range.
pub fn back_rank(n: u32) -> Option<[char; 8]> {
    if n >= BACK_RANKS {
        return None;
    }
    let mut rank = [' '; 8];
    let (n, light) = (n / 4, n % 4);
    rank[(2 * light + 1) as usize] = 'B';
    let (n, dark) = (n / 4, n % 4);
    rank[(2 * dark) as usize] = 'B';
    let (knights, queen) = (n / 6, n % 6);
    place_on_empty(&mut rank, queen as usize, 'Q');
    // The ten ways to put two knights on five empty squares, in order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[knights as usize];
    // The second knight's index counts the empty squares before the first is placed.
    place_on_empty(&mut rank, second, 'N');
    place_on_empty(&mut rank, first, 'N');
    // Rook, king, rook on the three squares left, in that order.
    for piece in ['R', 'K', 'R'] {
        place_on_empty(&mut rank, 0, piece);
    }
    Some(rank)
}

/// Puts `piece` on the `index`-th empty square (`' '`) of `rank`, counting from a.
fn place_on_empty(rank: &mut [char; 8], index: usize, piece: char) {
    if let Some(square) = rank.iter_mut().filter(|c| **c == ' ').nth(index) {
        *square = piece;
    }
}

/// The FEN of the start with White's back rank `white` and Black's `black` (both 0..960; equal
/// for Chess960, different for double Chess960), castling rights on both rooks of each side
/// given by their files (Shredder-FEN, e.g. `HAha`). `None` for a number out of range.
pub fn start_fen(white: u32, black: u32) -> Option<String> {
    let (w, b) = (back_rank(white)?, back_rank(black)?);
    let rooks = |rank: &[char; 8]| -> String {
        let files: Vec<char> = (0..8u8)
            .rev()
            .filter(|&f| rank[usize::from(f)] == 'R')
            .map(|f| char::from(b'A' + f))
            .collect();
        files.into_iter().collect()
    };
    let white_rank: String = w.iter().collect();
    let black_rank: String = b.iter().map(|c| c.to_ascii_lowercase()).collect();
    let castling = format!("{}{}", rooks(&w), rooks(&b).to_ascii_lowercase());
    Some(format!(
        "{black_rank}/pppppppp/8/8/8/8/PPPPPPPP/{white_rank} w {castling} - 0 1"
    ))
}

/// The start position with back ranks `white` and `black`, set to play Chess960 castling.
pub fn start_position(white: u32, black: u32) -> Option<Position> {
    let mut pos = Position::from_fen(&start_fen(white, black)?).ok()?;
    pos.set_chess960(true);
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn number_518_is_the_usual_start_and_every_number_a_legal_distinct_back_rank() {
        let usual: String = back_rank(518)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        assert_eq!(usual, "RNBQKBNR");
        // Known numbers from the published table: 0 is BBQNNRKR, 959 is RKRNNQBB.
        let text = |n| back_rank(n).map(|r| r.iter().collect::<String>());
        assert_eq!(text(0).as_deref(), Some("BBQNNRKR"));
        assert_eq!(text(959).as_deref(), Some("RKRNNQBB"));
        assert_eq!(back_rank(960), None);
        let mut seen = HashSet::new();
        for n in 0..BACK_RANKS {
            let Some(rank) = back_rank(n) else {
                panic!("{n} is in range");
            };
            assert!(seen.insert(rank), "{n} repeats a back rank");
            let files = |piece| (0..8).filter(move |&f| rank[f] == piece);
            let bishops: Vec<usize> = files('B').collect();
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            let rooks: Vec<usize> = files('R').collect();
            let king: Vec<usize> = files('K').collect();
            assert!(
                rooks[0] < king[0] && king[0] < rooks[1],
                "{n}: king between the rooks"
            );
            assert_eq!(files('N').count(), 2);
            assert_eq!(files('Q').count(), 1);
        }
        assert_eq!(seen.len(), 960);
    }

    #[test]
    fn starts_parse_as_chess960_with_castling_on_both_wings() {
        let Some(pos) = start_position(0, 959) else {
            panic!("0 and 959 are starts");
        };
        assert!(pos.is_chess960());
        // Knights on d1 and e1 (and d8, e8): the pawns' 16 moves and two for each knight.
        assert_eq!(pos.legal_moves().len(), 20);
        assert_eq!(
            start_fen(518, 518).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
        );
        assert_eq!(
            start_fen(0, 959).as_deref(),
            Some("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1")
        );
        // Castling is playable once the way is clear: White's short castling from 518.
        let Ok(mut open) =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w HAha - 0 1")
        else {
            panic!("valid FEN");
        };
        open.set_chess960(true);
        assert!(open
            .legal_moves()
            .as_slice()
            .iter()
            .any(|m| m.is_castling()));
    }
}
