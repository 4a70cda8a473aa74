//! The position: piece placement, side to move, castling, en passant, clocks, Zobrist keys, and
//! make/unmake with an undo stack.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::castling::{castle_destinations, right_bit, CastleSide, CastlingSetup};
use super::changes::BoardChanges;
use super::chess_move::{Move, MoveKind};
use super::piece::{Color, Piece, PieceKind};
use super::square::Square;
use super::zobrist;

/// The part of a position that make/unmake saves and restores wholesale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist key of the whole position (the Polyglot book key).
    pub key: u64,
    /// Zobrist key of the pawns alone (for the pawn hash table).
    pub pawn_key: u64,
    /// Zobrist keys of each side's pieces other than pawns, kings included (for the search's
    /// correction history), by colour.
    pub non_pawn_keys: [u64; 2],
    /// Pieces of the side not to move that give check.
    pub checkers: Bitboard,
    /// Castling rights: bit 1 white short, 2 white long, 4 black short, 8 black long.
    pub castling: u8,
    /// Square a pawn may capture onto en passant, if the last move was a double push.
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move (fifty-move rule).
    pub halfmove_clock: u32,
    /// Piece captured by the move that led here.
    pub captured: Option<Piece>,
    /// Plies since the last null move (repetitions are not looked for across a null move).
    pub plies_from_null: u32,
    /// The pieces the move that led here moved, removed and added (empty after a null move
    /// or a set-up): what running state kept outside the board (the evaluation's) must update.
    pub changes: BoardChanges,
}

/// A chess position with its game history (the undo stack).
#[derive(Clone, Debug)]
pub struct Position {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side: Color,
    fullmove: u32,
    state: State,
    castling: CastlingSetup,
    chess960: bool,
    history: Vec<State>,
}

/// Room reserved in the undo stack up front so that make_move never allocates in a search.
const HISTORY_CAPACITY: usize = 1024;

/// FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// An empty board, White to move, no rights; used by the FEN parser to build positions.
    pub(crate) fn empty() -> Position {
        Position {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side: Color::White,
            fullmove: 1,
            state: State {
                key: 0,
                pawn_key: 0,
                non_pawn_keys: [0; 2],
                checkers: Bitboard::EMPTY,
                castling: 0,
                en_passant: None,
                halfmove_clock: 0,
                captured: None,
                plies_from_null: 0,
                changes: BoardChanges::NONE,
            },
            castling: CastlingSetup::default(),
            chess960: false,
            history: Vec::with_capacity(HISTORY_CAPACITY),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        match Position::from_fen(START_FEN) {
            Ok(pos) => pos,
            Err(err) => unreachable!("the start FEN is valid: {err}"),
        }
    }

    // ----- queries -----

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// Squares holding pieces of `kind`, both colours.
    #[inline]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// `color`'s bishops and queens (the diagonal sliders).
    #[inline]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Queen.index()])
            & self.by_color[color.index()]
    }

    /// `color`'s rooks and queens (the orthogonal sliders).
    #[inline]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()])
            & self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces_of(color, PieceKind::King).lsb()
    }

    /// Zobrist key (equal to the Polyglot book key).
    #[inline]
    pub fn key(&self) -> u64 {
        self.state.key
    }

    /// Zobrist key of the pawn structure.
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.state.pawn_key
    }

    /// Zobrist key of `color`'s pieces other than pawns (kings included).
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.state.non_pawn_keys[color.index()]
    }

    /// What the move that led to this position changed on the board (empty after a null move
    /// or a set-up).
    #[inline]
    pub fn last_changes(&self) -> &BoardChanges {
        &self.state.changes
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.state.checkers
    }

    /// True if the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.state.checkers.any()
    }

    /// Castling rights as a 4-bit set (1 white short, 2 white long, 4 black short, 8 black long).
    #[inline]
    pub fn castling_rights(&self) -> u8 {
        self.state.castling
    }

    /// True if `color` may still castle to `side` (ignoring whether it is possible right now).
    #[inline]
    pub fn has_castling_right(&self, color: Color, side: CastleSide) -> bool {
        self.state.castling & right_bit(color, side) != 0
    }

    /// Castling geometry of this game.
    #[inline]
    pub fn castling_setup(&self) -> &CastlingSetup {
        &self.castling
    }

    /// En-passant target square, if any.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.state.en_passant
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.state.halfmove_clock
    }

    /// Full-move number as in FEN (starts at 1, grows after Black moves).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// True when the game is Chess960 (castling printed and parsed the Chess960 way).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches between Chess960 and normal notation for castling (the board is unchanged).
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    /// True if a castling right of this position can only be played as Chess960 castling: its
    /// king is off the e-file or its rook off the a- or h-file.
    pub fn has_chess960_castling(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            [(CastleSide::Short, 7), (CastleSide::Long, 0)]
                .into_iter()
                .any(|(side, rook_file)| {
                    self.has_castling_right(color, side)
                        && (self.castling.king_from(color).file() != 4
                            || self.castling.rook_from(color, side).file() != rook_file)
                })
        })
    }

    /// The saved state (for tests and diagnostics).
    #[inline]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Number of moves made since the position was set up (length of the undo stack).
    #[inline]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// Piece captured by the last move made, if any.
    #[inline]
    pub fn captured_piece(&self) -> Option<Piece> {
        self.state.captured
    }

    /// Every piece of either colour attacking `sq`, given the occupancy `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, PieceKind::Pawn))
            | (knight_attacks(sq) & self.pieces(PieceKind::Knight))
            | (king_attacks(sq) & self.pieces(PieceKind::King))
            | (bishop_attacks(sq, occupied)
                & (self.pieces(PieceKind::Bishop) | self.pieces(PieceKind::Queen)))
            | (rook_attacks(sq, occupied)
                & (self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen)))
    }

    /// True if any piece of `by` attacks `sq`, given the occupancy `occupied`.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        (pawn_attacks(!by, sq) & self.by_kind[PieceKind::Pawn.index()] & them).any()
            || (knight_attacks(sq) & self.by_kind[PieceKind::Knight.index()] & them).any()
            || (king_attacks(sq) & self.by_kind[PieceKind::King.index()] & them).any()
            || (bishop_attacks(sq, occupied) & self.diagonal_sliders(by)).any()
            || (rook_attacks(sq, occupied) & self.orthogonal_sliders(by)).any()
    }

    /// Every square attacked by `by`'s pieces, given the occupancy `occupied`.
    #[inline]
    pub fn attacked_squares(&self, by: Color, occupied: Bitboard) -> Bitboard {
        let mut attacked =
            super::attacks::pawn_attacks_bulk(by, self.pieces_of(by, PieceKind::Pawn))
                | king_attacks(self.king_square(by));
        for sq in self.pieces_of(by, PieceKind::Knight) {
            attacked |= knight_attacks(sq);
        }
        for sq in self.diagonal_sliders(by) {
            attacked |= bishop_attacks(sq, occupied);
        }
        for sq in self.orthogonal_sliders(by) {
            attacked |= rook_attacks(sq, occupied);
        }
        attacked
    }

    /// Every square attacked by `by`'s pieces of `kind`, given the occupancy `occupied`.
    #[inline]
    pub fn attacks_of_kind(&self, by: Color, kind: PieceKind, occupied: Bitboard) -> Bitboard {
        let pieces = self.pieces_of(by, kind);
        if kind == PieceKind::Pawn {
            return super::attacks::pawn_attacks_bulk(by, pieces);
        }
        let mut attacked = Bitboard::EMPTY;
        for sq in pieces {
            attacked |= super::attacks::piece_attacks(kind, sq, occupied);
        }
        attacked
    }

    /// Pieces of the side to move that are pinned to their own king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.blockers_for_king(self.side) & self.by_color[self.side.index()]
    }

    /// Pieces of either colour that alone stand between `color`'s king and an enemy slider.
    #[inline]
    pub fn blockers_for_king(&self, color: Color) -> Bitboard {
        let king = self.king_square(color);
        let them = !color;
        let snipers = (rook_attacks(king, Bitboard::EMPTY) & self.orthogonal_sliders(them))
            | (bishop_attacks(king, Bitboard::EMPTY) & self.diagonal_sliders(them));
        let occupied = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = super::attacks::between(king, sniper) & occupied;
            if between.any() && !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// True if the side to move may capture en passant on `ep` (pseudo-legally: a pawn of
    /// theirs attacks the square). This is the Polyglot rule for hashing the en-passant file.
    #[inline]
    fn en_passant_capturable(&self, ep: Square, side: Color) -> bool {
        (pawn_attacks(!side, ep) & self.pieces_of(side, PieceKind::Pawn)).any()
    }

    // ----- low-level piece placement -----

    #[inline(always)]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.by_kind[piece.kind.index()] |= bit;
        self.by_color[piece.color.index()] |= bit;
        self.mailbox[sq.index()] = Some(piece);
    }

    #[inline(always)]
    fn take_piece(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.by_kind[piece.kind.index()] ^= bit;
        self.by_color[piece.color.index()] ^= bit;
        self.mailbox[sq.index()] = None;
    }

    #[inline(always)]
    fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bits = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_kind[piece.kind.index()] ^= bits;
        self.by_color[piece.color.index()] ^= bits;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
    }

    /// Places a piece while setting up a position (keys are computed afterwards).
    pub(crate) fn setup_put(&mut self, piece: Piece, sq: Square) {
        self.put_piece(piece, sq);
    }

    /// Sets the side to move while setting up a position.
    pub(crate) fn setup_side(&mut self, side: Color) {
        self.side = side;
    }

    /// Sets castling rights and geometry while setting up a position.
    pub(crate) fn setup_castling(&mut self, rights: u8, setup: CastlingSetup, chess960: bool) {
        self.state.castling = rights;
        self.castling = setup;
        self.chess960 = chess960;
    }

    /// Sets the en-passant square and clocks while setting up a position.
    pub(crate) fn setup_counters(&mut self, ep: Option<Square>, halfmove: u32, fullmove: u32) {
        self.state.en_passant = ep;
        self.state.halfmove_clock = halfmove;
        self.fullmove = fullmove;
    }

    /// Finishes setting up: computes keys and checkers from scratch and clears the history.
    pub(crate) fn setup_finish(&mut self) {
        self.state.key = self.compute_key();
        self.state.pawn_key = self.compute_pawn_key();
        self.state.non_pawn_keys = Color::ALL.map(|c| self.compute_non_pawn_key(c));
        self.state.changes = BoardChanges::NONE;
        self.state.checkers = self.compute_checkers();
        self.state.captured = None;
        self.state.plies_from_null = 0;
        self.history.clear();
    }

    // ----- keys from scratch -----

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                key ^= zobrist::piece_key(piece, sq);
            }
        }
        key ^= zobrist::castling_key(self.state.castling);
        if let Some(ep) = self.state.en_passant {
            if self.en_passant_capturable(ep, self.side) {
                key ^= zobrist::en_passant_key(ep.file());
            }
        }
        key ^ zobrist::side_key(self.side)
    }

    /// The pawn-structure key computed from scratch.
    pub fn compute_pawn_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            let pawn = Piece::new(color, PieceKind::Pawn);
            for sq in self.pieces_of(color, PieceKind::Pawn) {
                key ^= zobrist::piece_key(pawn, sq);
            }
        }
        key
    }

    /// The key of `color`'s pieces other than pawns, computed from scratch.
    pub fn compute_non_pawn_key(&self, color: Color) -> u64 {
        let mut key = 0;
        for kind in PieceKind::ALL {
            if kind == PieceKind::Pawn {
                continue;
            }
            let piece = Piece::new(color, kind);
            for sq in self.pieces_of(color, kind) {
                key ^= zobrist::piece_key(piece, sq);
            }
        }
        key
    }

    /// Pieces giving check to the side to move, computed from scratch.
    pub fn compute_checkers(&self) -> Bitboard {
        self.attackers_to(self.king_square(self.side), self.occupied())
            & self.by_color[(!self.side).index()]
    }

    // ----- make / unmake -----

    /// Plays `mv`, which must be legal in this position, and pushes the old state on the undo
    /// stack. Castling is the king taking its own rook (works for Chess960 too).
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        self.history.push(self.state);

        let mut key = self.state.key ^ zobrist::side_toggle();
        if let Some(ep) = self.state.en_passant.take() {
            if self.en_passant_capturable(ep, us) {
                key ^= zobrist::en_passant_key(ep.file());
            }
        }
        self.state.halfmove_clock += 1;
        self.state.plies_from_null += 1;
        self.state.captured = None;
        let mut changes = BoardChanges::NONE;

        let Some(moving) = self.mailbox[from.index()] else {
            // Not a legal move (nothing to move); keep the position consistent and bail out.
            self.state.key = key;
            self.state.changes = changes;
            self.side = them;
            return;
        };

        match mv.kind() {
            MoveKind::Castling => {
                let side = CastlingSetup::side_of(from, to);
                let (king_to, rook_to) = castle_destinations(us, side);
                let rook = Piece::new(us, PieceKind::Rook);
                self.take_piece(moving, from);
                self.take_piece(rook, to);
                self.put_piece(moving, king_to);
                self.put_piece(rook, rook_to);
                let castled = zobrist::piece_key(moving, from)
                    ^ zobrist::piece_key(moving, king_to)
                    ^ zobrist::piece_key(rook, to)
                    ^ zobrist::piece_key(rook, rook_to);
                key ^= castled;
                self.state.non_pawn_keys[us.index()] ^= castled;
                changes.moved(moving, from, king_to);
                changes.moved(rook, to, rook_to);
            }
            kind => {
                if kind == MoveKind::EnPassant {
                    let captured_sq = to.offset(-us.forward());
                    let pawn = Piece::new(them, PieceKind::Pawn);
                    self.take_piece(pawn, captured_sq);
                    let pk = zobrist::piece_key(pawn, captured_sq);
                    key ^= pk;
                    self.state.pawn_key ^= pk;
                    changes.removed(pawn, captured_sq);
                    self.state.captured = Some(pawn);
                    self.state.halfmove_clock = 0;
                } else if let Some(captured) = self.mailbox[to.index()] {
                    self.take_piece(captured, to);
                    let ck = zobrist::piece_key(captured, to);
                    key ^= ck;
                    changes.removed(captured, to);
                    if captured.kind == PieceKind::Pawn {
                        self.state.pawn_key ^= ck;
                    } else {
                        self.state.non_pawn_keys[them.index()] ^= ck;
                    }
                    self.state.captured = Some(captured);
                    self.state.halfmove_clock = 0;
                }
                if let Some(promo) = mv.promotion_kind() {
                    let new_piece = Piece::new(us, promo);
                    self.take_piece(moving, from);
                    self.put_piece(new_piece, to);
                    let pk = zobrist::piece_key(moving, from);
                    let nk = zobrist::piece_key(new_piece, to);
                    key ^= pk ^ nk;
                    self.state.pawn_key ^= pk;
                    self.state.non_pawn_keys[us.index()] ^= nk;
                    changes.removed(moving, from);
                    changes.added(new_piece, to);
                } else {
                    self.shift_piece(moving, from, to);
                    let mk = zobrist::piece_key(moving, from) ^ zobrist::piece_key(moving, to);
                    key ^= mk;
                    changes.moved(moving, from, to);
                    if moving.kind == PieceKind::Pawn {
                        self.state.pawn_key ^= mk;
                    } else {
                        self.state.non_pawn_keys[us.index()] ^= mk;
                    }
                }
                if moving.kind == PieceKind::Pawn {
                    self.state.halfmove_clock = 0;
                    if from.index() ^ to.index() == 16 {
                        let ep = from.offset(us.forward());
                        self.state.en_passant = Some(ep);
                        if self.en_passant_capturable(ep, them) {
                            key ^= zobrist::en_passant_key(ep.file());
                        }
                    }
                }
            }
        }

        let lost = self.castling.guarded_rights(from) | self.castling.guarded_rights(to);
        if self.state.castling & lost != 0 {
            key ^= zobrist::castling_key(self.state.castling);
            self.state.castling &= !lost;
            key ^= zobrist::castling_key(self.state.castling);
        }

        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        self.state.key = key;
        self.state.changes = changes;
        self.state.checkers =
            self.attackers_to(self.king_square(them), self.occupied()) & self.by_color[us.index()];
    }

    /// Takes back `mv`, which must be the last move made.
    pub fn unmake_move(&mut self, mv: Move) {
        let them = self.side;
        let us = !them;
        let from = mv.from();
        let to = mv.to();
        let captured = self.state.captured;
        match mv.kind() {
            MoveKind::Castling => {
                let side = CastlingSetup::side_of(from, to);
                let (king_to, rook_to) = castle_destinations(us, side);
                let king = Piece::new(us, PieceKind::King);
                let rook = Piece::new(us, PieceKind::Rook);
                self.take_piece(king, king_to);
                self.take_piece(rook, rook_to);
                self.put_piece(king, from);
                self.put_piece(rook, to);
            }
            kind => {
                if let Some(moved) = self.mailbox[to.index()] {
                    if kind == MoveKind::Promotion {
                        self.take_piece(moved, to);
                        self.put_piece(Piece::new(us, PieceKind::Pawn), from);
                    } else {
                        self.shift_piece(moved, to, from);
                    }
                }
                if let Some(captured) = captured {
                    let sq = if kind == MoveKind::EnPassant {
                        to.offset(-us.forward())
                    } else {
                        to
                    };
                    self.put_piece(captured, sq);
                }
            }
        }
        if us == Color::Black {
            self.fullmove -= 1;
        }
        self.side = us;
        if let Some(state) = self.history.pop() {
            self.state = state;
        }
    }

    /// Passes the move to the opponent (for null-move pruning); the side to move must not be in
    /// check.
    pub fn make_null(&mut self) {
        self.history.push(self.state);
        let mut key = self.state.key ^ zobrist::side_toggle();
        if let Some(ep) = self.state.en_passant.take() {
            if self.en_passant_capturable(ep, self.side) {
                key ^= zobrist::en_passant_key(ep.file());
            }
        }
        self.state.key = key;
        self.state.halfmove_clock += 1;
        self.state.plies_from_null = 0;
        self.state.captured = None;
        self.state.changes = BoardChanges::NONE;
        self.state.checkers = Bitboard::EMPTY;
        self.side = !self.side;
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        self.side = !self.side;
        if let Some(state) = self.history.pop() {
            self.state = state;
        }
    }

    /// Forgets the game history (keeps the current position); used after a game is set up so
    /// the undo stack does not grow without bound over very long games.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    // ----- draws -----

    /// True if the position repeats one reached earlier in the game or search, looking back
    /// only as far as the last irreversible move (same side to move, same key).
    pub fn is_repetition(&self) -> bool {
        self.repetition_count(1) >= 1
    }

    /// How many plies back a position can repeat this one: since the last capture, pawn move
    /// or null move, as far as the history reaches.
    #[inline]
    fn reversible_plies(&self) -> usize {
        (self.state.halfmove_clock.min(self.state.plies_from_null) as usize).min(self.history.len())
    }

    /// How many plies back each earlier occurrence of the current position lies, nearest
    /// first (same side to move, so every other ply, within the reversible plies).
    #[inline]
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let key = self.state.key;
        let len = self.history.len();
        (4..=self.reversible_plies())
            .step_by(2)
            .filter(move |&back| self.history[len - back].key == key)
    }

    /// True if the current position is a repetition draw for a search `ply` plies below its
    /// root: a position of the searched line repeated once (the side that repeats could go on
    /// repeating), a position of the game before the root only when it occurs for the third
    /// time, as the rules say.
    pub fn is_repetition_draw(&self, ply: usize) -> bool {
        self.earlier_occurrences()
            .enumerate()
            .any(|(earlier, back)| back < ply || earlier >= 1)
    }

    /// Counts earlier occurrences of the current position (stops counting at `limit`).
    pub fn repetition_count(&self, limit: usize) -> usize {
        self.earlier_occurrences().take(limit).count()
    }

    /// True if the side to move has a reversible move that brings back a position of the
    /// line searched from the root (`ply` plies from it), so the node can score at least a
    /// draw (see [`super::cuckoo`]). Earlier positions, of the game before the root, count
    /// only as real repetitions do, so they are left out here.
    pub fn has_upcoming_repetition(&self, ply: usize) -> bool {
        let reversible = self.reversible_plies();
        let len = self.history.len();
        let occupied = self.occupied();
        let mut back = 3;
        while back <= reversible && back < ply {
            let move_key = self.state.key ^ self.history[len - back].key;
            if let Some((a, b)) = super::cuckoo::lookup(move_key) {
                // The piece that would walk back must be ours: a move of the opponent's
                // piece is not one this node can make.
                let ours = self.by_color[self.side.index()];
                if (between(a, b) & occupied).is_empty() && (ours.contains(a) || ours.contains(b)) {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// True if the number of plies since the last capture or pawn move has reached 100 (the
    /// fifty-move rule; a checkmate on the hundredth ply still counts as mate).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.state.halfmove_clock >= 100
    }

    /// True if neither side can possibly mate: K v K, K+minor v K, or only same-coloured
    /// bishops besides the kings.
    pub fn has_insufficient_material(&self) -> bool {
        let heavy = self.pieces(PieceKind::Pawn)
            | self.pieces(PieceKind::Rook)
            | self.pieces(PieceKind::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.pieces(PieceKind::Knight);
        let bishops = self.pieces(PieceKind::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// Material bound: true if `color` has any piece besides king and pawns.
    #[inline]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.by_color[color.index()]
            & !(self.by_kind[PieceKind::Pawn.index()] | self.by_kind[PieceKind::King.index()]))
        .any()
    }
}

impl PartialEq for Position {
    /// Two positions are equal when board, side, rights, en passant, clocks and keys agree
    /// (the game history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.by_kind == other.by_kind
            && self.by_color == other.by_color
            && self.mailbox == other.mailbox
            && self.side == other.side
            && self.fullmove == other.fullmove
            && self.state == other.state
            && self.castling == other.castling
            && self.chess960 == other.chess960
    }
}

impl Eq for Position {}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for text in moves {
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn a_move_back_to_a_searched_position_is_seen_coming() {
        // Black's knight can go back to g8: the start position again, three plies back.
        let pos = after(&["g1f3", "g8f6", "f3g1"]);
        assert!(pos.has_upcoming_repetition(4));
        // At the root (or one ply below) the start position is game history: not counted.
        assert!(!pos.has_upcoming_repetition(3));
        // A pawn move in between makes the old position unreachable.
        assert!(!after(&["g1f3", "e7e5", "f3g1"]).has_upcoming_repetition(10));
        // Two pieces stand elsewhere: no single move brings the start back.
        assert!(!after(&["g1f3", "b8c6", "b1c3"]).has_upcoming_repetition(10));
        // A rook that went a8-a5-h5-h8 can go back to h5, over empty squares.
        let mut rook =
            Position::from_fen("r3k3/8/8/8/8/8/8/2K5 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
        for text in ["c1d1", "a8a5", "d1c1", "a5h5", "c1d1", "h5h8", "d1c1"] {
            let mv = rook
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            rook.make_move(mv);
        }
        assert!(rook.has_upcoming_repetition(4));
    }

    #[test]
    fn only_a_piece_of_the_side_to_move_can_walk_back_to_a_repetition() {
        // White's rook went a1-a3-a4 while Black's king stepped to d8 and back.
        let mut pos =
            Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
        for text in ["a1a3", "e8d8", "a3a4", "d8e8"] {
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make_move(mv);
        }
        // White to move: Ra3 brings back the position after 1.Ra3, White's own move.
        assert!(pos.has_upcoming_repetition(10));
        // After 3.Ra2 the position differs from the start by White's rook alone (a1 or a2):
        // only White could walk it back, so Black to move has no repetition to claim.
        let mv = pos.parse_move("a4a2").unwrap_or_else(|e| panic!("{e}"));
        pos.make_move(mv);
        assert!(!pos.has_upcoming_repetition(10));
    }

    #[test]
    fn a_position_of_the_game_before_the_root_is_a_draw_only_the_third_time() {
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let once = after(&cycle);
        // The start position again: one earlier occurrence, four plies back.
        assert!(once.is_repetition());
        // Before the root (the search is at most four plies deep) that is no draw yet...
        assert!(!once.is_repetition_draw(0));
        assert!(!once.is_repetition_draw(4));
        // ...inside the searched line (the first occurrence after the root) it is.
        assert!(once.is_repetition_draw(5));
        // The third occurrence is a draw wherever the earlier ones lie.
        let twice = after(&[cycle, cycle].concat());
        assert!(twice.is_repetition_draw(0));
        // A pawn move in between: the earlier positions cannot come back.
        let reset = after(&["g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5"]);
        assert!(!reset.is_repetition_draw(100));
    }

    #[test]
    fn attacks_of_each_kind_make_up_all_attacked_squares() {
        let start = Position::startpos();
        let knights = start.attacks_of_kind(Color::White, PieceKind::Knight, start.occupied());
        // a3, c3, d2, e2, f3, h3 as (file, rank) from 0.
        let expected = [(0, 2), (2, 2), (3, 1), (4, 1), (5, 2), (7, 2)]
            .into_iter()
            .fold(Bitboard::EMPTY, |bb, (file, rank)| {
                bb.with(Square::new(file, rank))
            });
        assert_eq!(knights, expected);
        assert_eq!(
            start.attacks_of_kind(Color::Black, PieceKind::Pawn, start.occupied()),
            Bitboard::rank(5)
        );

        let kiwipete = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let occupied = kiwipete.occupied();
        for color in [Color::White, Color::Black] {
            let union = PieceKind::ALL
                .into_iter()
                .fold(Bitboard::EMPTY, |bb, kind| {
                    bb | kiwipete.attacks_of_kind(color, kind, occupied)
                });
            assert_eq!(union, kiwipete.attacked_squares(color, occupied));
        }
    }
}
