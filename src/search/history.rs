//! Move-ordering memory: killer moves per ply, counter moves, and history scores (bonus on a
//! cutoff, malus for the moves tried before it, with gravity so scores stay bounded and old
//! knowledge fades): for quiet moves by side, from and to square and whether the opponent
//! attacks each of the two (butterfly: a move out of an attack is another move than the same
//! move in a quiet position, as in Stormphrax and Stockfish), by the earlier
//! move one, two and four plies back and the move's own piece and destination (continuation
//! history), and for captures by piece, destination and captured kind (capture history).

use super::params;
use super::score::MAX_PLY;
use crate::board::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// Upper bound of a history score's magnitude.
pub const MAX_HISTORY: i32 = 16_384;

/// History bonus for a cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (params::history_bonus_quadratic() * depth * depth + params::history_bonus_linear() * depth)
        .min(params::history_bonus_max())
}

/// Adds a bonus (or malus, if negative) to a history entry bounded by `limit`, with gravity
/// towards zero: the nearer the entry is to the limit, the less a bonus moves it on.
#[inline]
pub(super) fn apply_with_gravity(entry: &mut i16, bonus: i32, limit: i32) {
    let value = i32::from(*entry);
    let updated = value + bonus - value * bonus.abs() / limit;
    *entry = updated.clamp(-limit, limit) as i16;
}

/// [`apply_with_gravity`] within the move histories' bound.
#[inline]
fn apply(entry: &mut i16, bonus: i32) {
    apply_with_gravity(entry, bonus, MAX_HISTORY);
}

/// Which of the butterfly's four tables a quiet move uses: 2 if the opponent attacks its
/// from-square (the piece flees or stays en prise), plus 1 if it attacks its to-square.
#[inline]
pub fn threat_index(mv: Move, threatened: Bitboard) -> usize {
    2 * usize::from(threatened.contains(mv.from())) + usize::from(threatened.contains(mv.to()))
}

/// Entries of the continuation table: (earlier piece, its destination) x (piece, destination).
const CONTINUATION_SIZE: usize = 12 * 64 * 12 * 64;
/// Entries of the capture table: piece x destination x captured kind (6, or 6 for none: a
/// queen promotion without capture).
const CAPTURE_SIZE: usize = 12 * 64 * 7;

/// Where an earlier move's row of the continuation table starts (see
/// [`History::continuation_row`]); `None` where there is no earlier move (the root, a null move).
pub type ContinuationRows = [Option<usize>; 3];

/// How far back the continuation rows look, in plies.
pub const CONTINUATION_PLIES: [usize; 3] = [1, 2, 4];

/// All move-ordering tables of one search thread.
#[derive(Clone)]
pub struct History {
    /// Quiet-move history by side, whether the from- and to-squares are attacked (see
    /// [`threat_index`]), from-square and to-square.
    butterfly: Box<[[[[i16; 64]; 64]; 4]; 2]>,
    /// Two killer moves per ply.
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Best reply to the previous move, by the piece that made it and its destination.
    counters: Box<[[Move; 64]; 12]>,
    /// Continuation history (one table for every distance back).
    continuation: Box<[i16]>,
    /// Capture history.
    captures: Box<[i16]>,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("History")
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            butterfly: Box::new([[[[0; 64]; 64]; 4]; 2]),
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            counters: Box::new([[Move::NONE; 64]; 12]),
            continuation: vec![0; CONTINUATION_SIZE].into_boxed_slice(),
            captures: vec![0; CAPTURE_SIZE].into_boxed_slice(),
        }
    }

    /// `piece` moving to `to` as one index (12 x 64 of them): the row of an earlier move and
    /// the column of a later one in the continuation table.
    #[inline]
    fn piece_to(piece: Piece, to: Square) -> usize {
        piece.index() * 64 + to.index()
    }

    /// The continuation row of an earlier move: `piece` moved to `to`.
    #[inline]
    pub fn continuation_row(piece: Piece, to: Square) -> usize {
        Self::piece_to(piece, to) * 12 * 64
    }

    /// The continuation score of `piece` moving to `to` after the earlier moves of `rows`: the
    /// moves one and two plies back count fully, four plies back half.
    #[inline]
    fn continuation_score(&self, rows: &ContinuationRows, piece: Piece, to: Square) -> i32 {
        let column = Self::piece_to(piece, to);
        let entry =
            |row: Option<usize>| row.map_or(0, |r| i32::from(self.continuation[r + column]));
        entry(rows[0]) + entry(rows[1]) + entry(rows[2]) / 2
    }

    /// The ordering score of a quiet move of `piece`: butterfly plus continuation history.
    /// `threatened`: the squares the opponent attacks.
    #[inline]
    pub fn quiet_score_after(
        &self,
        side: Color,
        piece: Piece,
        mv: Move,
        rows: &ContinuationRows,
        threatened: Bitboard,
    ) -> i32 {
        self.quiet_score(side, mv, threatened) + self.continuation_score(rows, piece, mv.to())
    }

    /// Adds `bonus` (negative: malus) to a quiet move's butterfly and continuation histories.
    #[inline]
    pub fn update_quiet_after(
        &mut self,
        side: Color,
        piece: Piece,
        mv: Move,
        rows: &ContinuationRows,
        threatened: Bitboard,
        bonus: i32,
    ) {
        self.update_quiet(side, mv, threatened, bonus);
        self.update_continuation(piece, mv.to(), rows, bonus);
    }

    /// Adds `bonus` to the continuation histories of `piece` moving to `to` after the moves
    /// of `rows` (the butterfly table is left alone).
    #[inline]
    pub fn update_continuation(
        &mut self,
        piece: Piece,
        to: Square,
        rows: &ContinuationRows,
        bonus: i32,
    ) {
        let column = Self::piece_to(piece, to);
        for row in rows.iter().flatten() {
            apply(&mut self.continuation[row + column], bonus);
        }
    }

    /// The capture-table slot of `piece` moving to `to` and taking `captured` (`None`: a
    /// promotion that takes nothing).
    #[inline]
    fn capture_slot(piece: Piece, to: Square, captured: Option<PieceKind>) -> usize {
        Self::piece_to(piece, to) * 7 + captured.map_or(6, PieceKind::index)
    }

    /// Capture history of `piece` moving to `to` and taking `captured`.
    #[inline]
    pub fn capture_score(&self, piece: Piece, to: Square, captured: Option<PieceKind>) -> i32 {
        i32::from(self.captures[Self::capture_slot(piece, to, captured)])
    }

    /// Adds `bonus` (negative: malus) to a capture's history.
    #[inline]
    pub fn update_capture(
        &mut self,
        piece: Piece,
        to: Square,
        captured: Option<PieceKind>,
        bonus: i32,
    ) {
        apply(
            &mut self.captures[Self::capture_slot(piece, to, captured)],
            bonus,
        );
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = History::new();
    }

    /// Forgets the killers (they are per search); histories and counters carry over.
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
    }

    /// History score of a quiet move for `side` where the opponent attacks `threatened`.
    #[inline]
    pub fn quiet_score(&self, side: Color, mv: Move, threatened: Bitboard) -> i32 {
        let threat = threat_index(mv, threatened);
        i32::from(self.butterfly[side.index()][threat][mv.from().index()][mv.to().index()])
    }

    /// Adds `bonus` (negative: malus) to a quiet move's history where the opponent attacks
    /// `threatened`.
    #[inline]
    pub fn update_quiet(&mut self, side: Color, mv: Move, threatened: Bitboard, bonus: i32) {
        let threat = threat_index(mv, threatened);
        apply(
            &mut self.butterfly[side.index()][threat][mv.from().index()][mv.to().index()],
            bonus,
        );
    }

    /// The two killers of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline]
    pub fn store_killer(&mut self, ply: usize, mv: Move) {
        let slot = &mut self.killers[ply.min(MAX_PLY)];
        if slot[0] != mv {
            slot[1] = slot[0];
            slot[0] = mv;
        }
    }

    /// The counter move to the previous move (made by `piece`, landing on its `to` square).
    #[inline]
    pub fn counter(&self, piece: Option<Piece>, prev: Move) -> Move {
        match piece {
            Some(p) if !prev.is_none() => self.counters[p.index()][prev.to().index()],
            _ => Move::NONE,
        }
    }

    /// Records `mv` as the refutation of the previous move.
    #[inline]
    pub fn store_counter(&mut self, piece: Option<Piece>, prev: Move, mv: Move) {
        if let Some(p) = piece {
            if !prev.is_none() {
                self.counters[p.index()][prev.to().index()] = mv;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn gravity_keeps_scores_bounded() {
        let mut h = History::new();
        let mv = Move::normal(Square::E1, Square::E8);
        for _ in 0..1000 {
            h.update_quiet(Color::White, mv, Bitboard::EMPTY, history_bonus(20));
        }
        let s = h.quiet_score(Color::White, mv, Bitboard::EMPTY);
        assert!(s > 10_000 && s <= MAX_HISTORY, "{s}");
        for _ in 0..1000 {
            h.update_quiet(Color::White, mv, Bitboard::EMPTY, -history_bonus(20));
        }
        assert!(h.quiet_score(Color::White, mv, Bitboard::EMPTY) < -10_000);
        assert_eq!(h.quiet_score(Color::Black, mv, Bitboard::EMPTY), 0);
    }

    #[test]
    fn continuation_and_capture_histories_learn_in_their_own_context() {
        let mut h = History::new();
        let knight = Piece::new(Color::White, PieceKind::Knight);
        let pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let mv = Move::normal(Square::G1, Square::new(5, 2));
        let after_e5 = [
            Some(History::continuation_row(pawn, Square::new(4, 4))),
            None,
            None,
        ];
        let after_d5 = [
            Some(History::continuation_row(pawn, Square::new(3, 4))),
            None,
            None,
        ];
        for _ in 0..50 {
            h.update_quiet_after(
                Color::White,
                knight,
                mv,
                &after_e5,
                Bitboard::EMPTY,
                history_bonus(8),
            );
        }
        let butterfly = h.quiet_score(Color::White, mv, Bitboard::EMPTY);
        let with_e5 = h.quiet_score_after(Color::White, knight, mv, &after_e5, Bitboard::EMPTY);
        let with_d5 = h.quiet_score_after(Color::White, knight, mv, &after_d5, Bitboard::EMPTY);
        assert!(
            butterfly > 0 && with_d5 == butterfly,
            "{butterfly} {with_d5}"
        );
        assert!(
            with_e5 > butterfly && with_e5 <= 2 * MAX_HISTORY,
            "{with_e5}"
        );
        // Four plies back counts half.
        let far = [None, None, after_e5[0]];
        let half = h.quiet_score_after(Color::White, knight, mv, &far, Bitboard::EMPTY) - butterfly;
        assert_eq!(half, (with_e5 - butterfly) / 2);
        // Captures: by piece, destination and victim.
        let to = Square::new(4, 4);
        h.update_capture(knight, to, Some(PieceKind::Pawn), 1000);
        assert!(h.capture_score(knight, to, Some(PieceKind::Pawn)) > 0);
        assert_eq!(h.capture_score(knight, to, Some(PieceKind::Rook)), 0);
        assert_eq!(h.capture_score(knight, to, None), 0);
        h.clear();
        assert_eq!(
            h.quiet_score_after(Color::White, knight, mv, &after_e5, Bitboard::EMPTY),
            0
        );
    }

    #[test]
    fn a_move_out_of_an_attack_learns_apart_from_the_same_move_in_peace() {
        let mut h = History::new();
        // Nf3-e5: the knight attacked on f3 (by a pawn on g4, say), e5 not attacked.
        let mv = Move::normal(Square::new(5, 2), Square::new(4, 4));
        let from_attacked = Bitboard::from_square(mv.from());
        let to_attacked = Bitboard::from_square(mv.to());
        assert_eq!(threat_index(mv, Bitboard::EMPTY), 0);
        assert_eq!(threat_index(mv, to_attacked), 1);
        assert_eq!(threat_index(mv, from_attacked), 2);
        assert_eq!(threat_index(mv, from_attacked | to_attacked), 3);
        for _ in 0..20 {
            h.update_quiet(Color::White, mv, from_attacked, history_bonus(10));
        }
        assert!(h.quiet_score(Color::White, mv, from_attacked) > 0);
        // Squares other than the move's two change nothing.
        let elsewhere = from_attacked | Bitboard::from_square(Square::A1);
        assert_eq!(
            h.quiet_score(Color::White, mv, elsewhere),
            h.quiet_score(Color::White, mv, from_attacked)
        );
        for threatened in [Bitboard::EMPTY, to_attacked, from_attacked | to_attacked] {
            assert_eq!(h.quiet_score(Color::White, mv, threatened), 0);
        }
    }

    #[test]
    fn killers_shift() {
        let mut h = History::new();
        let (a, b) = (
            Move::normal(Square::A1, Square::B1),
            Move::normal(Square::H8, Square::H1),
        );
        h.store_killer(3, a);
        h.store_killer(3, a);
        h.store_killer(3, b);
        assert_eq!(h.killers(3), [b, a]);
        assert_eq!(h.killers(4), [Move::NONE; 2]);
    }
}
