//! Legal move generation: checkers, pin rays and attacked squares decide legality up front, so
//! no move is generated and then tested.
//!
//! One generic generator serves every use: the move kinds (noisy = captures and queen
//! promotions; quiet = the rest, underpromotions included) are const parameters, and the
//! output goes to a [`MoveSink`]: a [`MoveList`], or a [`MoveCounter`] that counts whole target
//! sets with a popcount (perft's bulk counting at the leaves).

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, piece_attacks,
    rook_attacks,
};
use super::bitboard::Bitboard;
use super::castling::{castle_destinations, CastleSide, CastlingSetup};
use super::chess_move::{Move, MoveKind, MoveList};
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::Square;

/// Receives generated moves. Bulk methods have per-move defaults; a counter overrides them.
pub trait MoveSink {
    /// Takes one move.
    fn add(&mut self, mv: Move);

    /// Takes a normal move from `from` to every square of `targets`.
    #[inline(always)]
    fn add_normal(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.add(Move::normal(from, to));
        }
    }

    /// Takes a pawn move to every square of `targets`, each from `delta` squares behind it.
    #[inline(always)]
    fn add_pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.add(Move::normal(to.offset(-delta), to));
        }
    }

    /// Takes promotions onto every square of `targets` (from `delta` behind): to a queen if
    /// `QUEEN`, to knight, rook and bishop if `UNDER`.
    #[inline(always)]
    fn add_promotions<const QUEEN: bool, const UNDER: bool>(
        &mut self,
        targets: Bitboard,
        delta: i8,
    ) {
        for to in targets {
            let from = to.offset(-delta);
            if QUEEN {
                self.add(Move::promotion(from, to, PieceKind::Queen));
            }
            if UNDER {
                self.add(Move::promotion(from, to, PieceKind::Knight));
                self.add(Move::promotion(from, to, PieceKind::Rook));
                self.add(Move::promotion(from, to, PieceKind::Bishop));
            }
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without building them: every target set is counted with one popcount.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn add(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn add_normal(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn add_pawn_moves(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn add_promotions<const QUEEN: bool, const UNDER: bool>(
        &mut self,
        targets: Bitboard,
        _delta: i8,
    ) {
        let per_square = u64::from(QUEEN) + 3 * u64::from(UNDER);
        self.0 += per_square * u64::from(targets.count());
    }
}

/// Both castling-right bits of `color`.
#[inline(always)]
fn castling_rights_of(color: Color) -> u8 {
    0b11 << (2 * color.index())
}

impl Position {
    /// Every legal move.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<MoveList, true, true>(&mut list);
        list
    }

    /// Appends the legal noisy moves: captures (en passant included) and queen promotions.
    #[inline]
    pub fn generate_noisy(&self, list: &mut MoveList) {
        self.generate::<MoveList, true, false>(list);
    }

    /// Appends the legal quiet moves: non-captures, castling and underpromotions (capturing
    /// underpromotions included).
    #[inline]
    pub fn generate_quiet(&self, list: &mut MoveList) {
        self.generate::<MoveList, false, true>(list);
    }

    /// Appends every legal move.
    #[inline]
    pub fn generate_all(&self, list: &mut MoveList) {
        self.generate::<MoveList, true, true>(list);
    }

    /// Number of legal moves, counted without generating them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate::<MoveCounter, true, true>(&mut counter);
        counter.0
    }

    /// True if the side to move has a legal move.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// True if the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// True if the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// The generator: legal moves of the kinds selected by `NOISY` and `QUIET` into `sink`.
    #[inline(always)]
    pub fn generate<S: MoveSink, const NOISY: bool, const QUIET: bool>(&self, sink: &mut S) {
        let us = self.side_to_move();
        let them = !us;
        let ours = self.color_bb(us);
        let theirs = self.color_bb(them);
        let occupied = ours | theirs;
        let king = self.king_square(us);
        let checkers = self.checkers();

        let kind_mask = match (NOISY, QUIET) {
            (true, true) => !ours,
            (true, false) => theirs,
            (false, true) => !occupied,
            (false, false) => Bitboard::EMPTY,
        };
        // King moves: each destination is tested with the king lifted off the board, so a
        // slider checking along a line still covers the square behind the king. (Cheaper than
        // building the whole enemy attack map: a king rarely has more than a few targets.)
        let without_king = occupied.without(king);
        for to in king_attacks(king) & kind_mask {
            if !self.is_attacked_by(to, them, without_king) {
                sink.add(Move::normal(king, to));
            }
        }
        if checkers.more_than_one() {
            return;
        }

        let check_mask = if checkers.any() {
            between(king, checkers.lsb()) | checkers
        } else {
            Bitboard::FULL
        };
        let targets = kind_mask & check_mask;
        let pinned = self.pinned();
        let diagonal = self.diagonal_sliders(us);
        let orthogonal = self.orthogonal_sliders(us);
        let pawns = self.pieces_of(us, PieceKind::Pawn);

        for from in self.pieces_of(us, PieceKind::Knight) & !pinned {
            sink.add_normal(from, knight_attacks(from) & targets);
        }
        for from in diagonal & !pinned {
            sink.add_normal(from, bishop_attacks(from, occupied) & targets);
        }
        for from in orthogonal & !pinned {
            sink.add_normal(from, rook_attacks(from, occupied) & targets);
        }
        self.pawn_moves::<S, NOISY, QUIET>(sink, pawns & !pinned, check_mask);

        // A pinned piece can never answer a check: it may only slide along its pin ray.
        if checkers.is_empty() && pinned.any() {
            for from in diagonal & pinned {
                sink.add_normal(
                    from,
                    bishop_attacks(from, occupied) & targets & line(king, from),
                );
            }
            for from in orthogonal & pinned {
                sink.add_normal(
                    from,
                    rook_attacks(from, occupied) & targets & line(king, from),
                );
            }
            for from in pawns & pinned {
                self.pawn_moves::<S, NOISY, QUIET>(sink, Bitboard::from(from), line(king, from));
            }
        }

        if NOISY {
            if let Some(ep) = self.en_passant() {
                let captured = ep.offset(-us.forward());
                if checkers.is_empty() || checkers == Bitboard::from(captured) {
                    for from in pawn_attacks(them, ep) & pawns {
                        if self.en_passant_is_legal(from, ep) {
                            sink.add(Move::en_passant(from, ep));
                        }
                    }
                }
            }
        }

        if QUIET && checkers.is_empty() && self.castling_rights() & castling_rights_of(us) != 0 {
            for side in CastleSide::ALL {
                if self.castling_is_legal(side) {
                    sink.add(Move::castling(
                        king,
                        self.castling_setup().rook_from(us, side),
                    ));
                }
            }
        }
    }

    /// Pawn pushes, captures and promotions of `pawns`, landing only inside `mask`.
    #[inline(always)]
    fn pawn_moves<S: MoveSink, const NOISY: bool, const QUIET: bool>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        mask: Bitboard,
    ) {
        let us = self.side_to_move();
        let up = us.forward();
        let (up_west, up_east) = (up - 1, up + 1);
        let empty = !self.occupied();
        let enemies = self.color_bb(!us) & mask;
        let seventh = Bitboard::rank(us.relative_rank(6));
        let third = Bitboard::rank(us.relative_rank(2));
        let promoting = pawns & seventh;
        let others = pawns & !seventh;

        if QUIET {
            let single = others.shift(up) & empty;
            let double = (single & third).shift(up) & empty;
            sink.add_pawn_moves(single & mask, up);
            sink.add_pawn_moves(double & mask, up + up);
        }
        if NOISY {
            let west = (others & !Bitboard::FILE_A).shift(up_west) & enemies;
            let east = (others & !Bitboard::FILE_H).shift(up_east) & enemies;
            sink.add_pawn_moves(west, up_west);
            sink.add_pawn_moves(east, up_east);
        }
        if promoting.any() {
            let push = promoting.shift(up) & empty & mask;
            let west = (promoting & !Bitboard::FILE_A).shift(up_west) & enemies;
            let east = (promoting & !Bitboard::FILE_H).shift(up_east) & enemies;
            sink.add_promotions::<NOISY, QUIET>(push, up);
            sink.add_promotions::<NOISY, QUIET>(west, up_west);
            sink.add_promotions::<NOISY, QUIET>(east, up_east);
        }
    }

    /// True if the pawn on `from` may capture en passant on `ep` without exposing its king to a
    /// slider (both pawns leave their squares, which the pin masks cannot see).
    fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let captured = ep.offset(-us.forward());
        let king = self.king_square(us);
        let occupied = (self.occupied().without(from).without(captured)).with(ep);
        (rook_attacks(king, occupied) & self.orthogonal_sliders(them)).is_empty()
            && (bishop_attacks(king, occupied) & self.diagonal_sliders(them)).is_empty()
    }

    /// True if the side to move, not in check, may castle to `side`.
    #[inline]
    fn castling_is_legal(&self, side: CastleSide) -> bool {
        let us = self.side_to_move();
        if !self.has_castling_right(us, side) {
            return false;
        }
        let setup = self.castling_setup();
        let rook = setup.rook_from(us, side);
        let king = self.king_square(us);
        let occupied = self.occupied();
        if (occupied & setup.must_be_empty(us, side)).any() {
            return false;
        }
        // The king is not in check, so no enemy line runs through its square: the squares on
        // its way can be tested with the current occupancy.
        let mut path = setup.king_path(us, side);
        if Iterator::any(&mut path, |sq| self.is_attacked_by(sq, !us, occupied)) {
            return false;
        }
        // Chess960: the castling rook may have been shielding the king's destination along the
        // back rank (e.g. rook b1, enemy queen a1, king castles to c1).
        let (king_to, _) = castle_destinations(us, side);
        let without_both = occupied.without(rook).without(king);
        (rook_attacks(king_to, without_both) & self.orthogonal_sliders(!us)).is_empty()
    }

    /// True if `mv` could be played here ignoring whether it leaves the own king in check
    /// (castling is checked completely). Validates moves from the hash table and killer slots.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        if mv.is_none() {
            return false;
        }
        let us = self.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        // Only promotions carry a promotion piece: any other kind with those bits set is no move
        // the generator makes (it would compare unequal to the generated move).
        let canonical = match mv.kind() {
            MoveKind::Normal => Move::normal(from, to),
            MoveKind::EnPassant => Move::en_passant(from, to),
            MoveKind::Castling => Move::castling(from, to),
            MoveKind::Promotion => mv,
        };
        if mv != canonical {
            return false;
        }
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color != us {
            return false;
        }
        let last_rank = us.relative_rank(7);
        match mv.kind() {
            MoveKind::Castling => {
                let side = CastlingSetup::side_of(from, to);
                piece.kind == PieceKind::King
                    && !self.in_check()
                    && self.castling_setup().rook_from(us, side) == to
                    && self.piece_at(to) == Some(Piece::new(us, PieceKind::Rook))
                    && self.castling_is_legal(side)
            }
            MoveKind::EnPassant => {
                piece.kind == PieceKind::Pawn
                    && self.en_passant() == Some(to)
                    && pawn_attacks(us, from).contains(to)
            }
            MoveKind::Promotion => {
                piece.kind == PieceKind::Pawn
                    && to.rank() == last_rank
                    && self.pawn_can_reach(from, to)
            }
            MoveKind::Normal => {
                if piece.kind == PieceKind::Pawn {
                    to.rank() != last_rank && self.pawn_can_reach(from, to)
                } else {
                    !self.color_bb(us).contains(to)
                        && piece_attacks(piece.kind, from, self.occupied()).contains(to)
                }
            }
        }
    }

    /// Pawn geometry: a push to an empty square, a double push from the start rank through an
    /// empty square, or a diagonal capture of an enemy piece.
    fn pawn_can_reach(&self, from: Square, to: Square) -> bool {
        let us = self.side_to_move();
        let occupied = self.occupied();
        if pawn_attacks(us, from).contains(to) {
            return self.color_bb(!us).contains(to);
        }
        let up = us.forward();
        let one = from.offset(up);
        if to == one {
            return !occupied.contains(to);
        }
        from.rank() == us.relative_rank(1)
            && to == one.offset(up)
            && !occupied.contains(one)
            && !occupied.contains(to)
    }

    /// True if `mv` is legal here (any 16-bit value is accepted and checked).
    pub fn is_legal(&self, mv: Move) -> bool {
        if !self.is_pseudo_legal(mv) {
            return false;
        }
        let us = self.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        match mv.kind() {
            MoveKind::Castling => true,
            MoveKind::EnPassant => {
                let checkers = self.checkers();
                let captured = to.offset(-us.forward());
                (checkers.is_empty() || checkers == Bitboard::from(captured))
                    && self.en_passant_is_legal(from, to)
            }
            MoveKind::Normal | MoveKind::Promotion => {
                let king = self.king_square(us);
                if from == king {
                    return !self.is_attacked_by(to, !us, self.occupied().without(from));
                }
                let checkers = self.checkers();
                if checkers.more_than_one() {
                    return false;
                }
                if checkers.any() && !(between(king, checkers.lsb()) | checkers).contains(to) {
                    return false;
                }
                !self.pinned().contains(from) || line(king, from).contains(to)
            }
        }
    }

    /// True if the legal move `mv` checks the opponent: after the move, does a piece of ours
    /// attack the enemy king? Computed from the post-move occupancy and slider sets, so direct,
    /// discovered, en-passant, castling and promotion checks all follow from one rule.
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let enemy_king = self.king_square(!us);
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let mut occupied = self.occupied().without(from);
        let mut diagonal = self.diagonal_sliders(us).without(from);
        let mut orthogonal = self.orthogonal_sliders(us).without(from);
        let (dest, kind) = match mv.kind() {
            MoveKind::Castling => {
                let side = CastlingSetup::side_of(from, to);
                let (king_to, rook_to) = castle_destinations(us, side);
                occupied = occupied.without(to).with(king_to).with(rook_to);
                orthogonal = orthogonal.without(to).with(rook_to);
                (king_to, PieceKind::King)
            }
            MoveKind::EnPassant => {
                occupied = occupied.without(to.offset(-us.forward()));
                (to, PieceKind::Pawn)
            }
            MoveKind::Promotion => (to, mv.promotion_kind().unwrap_or(PieceKind::Queen)),
            MoveKind::Normal => (to, piece.kind),
        };
        occupied = occupied.with(dest);
        match kind {
            PieceKind::Pawn => {
                if pawn_attacks(us, dest).contains(enemy_king) {
                    return true;
                }
            }
            PieceKind::Knight => {
                if knight_attacks(dest).contains(enemy_king) {
                    return true;
                }
            }
            PieceKind::Bishop => diagonal = diagonal.with(dest),
            PieceKind::Rook => orthogonal = orthogonal.with(dest),
            PieceKind::Queen => {
                diagonal = diagonal.with(dest);
                orthogonal = orthogonal.with(dest);
            }
            PieceKind::King => {}
        }
        // A capture removes an enemy piece from `dest`, which we now occupy anyway; captured
        // sliders of the enemy are not in our sets, so nothing else changes.
        (bishop_attacks(enemy_king, occupied) & diagonal).any()
            || (rook_attacks(enemy_king, occupied) & orthogonal).any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `gives_check` agrees with making the move and looking, for every legal move two plies
    /// deep from positions rich in checks, pins, en passant, promotions and castling.
    #[test]
    fn gives_check_matches_making_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
            "1rk1r3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        let mut checked = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for &first in pos.legal_moves().clone().iter() {
                pos.make_move(first);
                for &mv in pos.legal_moves().iter() {
                    let predicted = pos.gives_check(mv);
                    pos.make_move(mv);
                    assert_eq!(predicted, pos.in_check(), "{fen} {first:?} {mv:?}");
                    checked += usize::from(predicted);
                    pos.unmake_move(mv);
                }
                pos.unmake_move(first);
            }
        }
        assert!(
            checked > 100,
            "the positions must produce checks ({checked})"
        );
    }
}
