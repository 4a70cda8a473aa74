//! Property tests of the board, on positions reached by random legal games from the perft suite
//! positions (standard, CPW and Chess960) and on every suite position itself. They prove that:
//!
//! - make followed by unmake (and null move followed by unmake) restores the position exactly,
//!   and make_move puts the pieces, rights, clocks and en-passant square where the rules say;
//! - the incremental key, pawn key and checkers always equal their from-scratch values;
//! - the legal move generator agrees with a deliberately plain reference generator written here
//!   (rays walked square by square from `piece_at`; no engine attack table or generator), and
//!   `generate_noisy` / `generate_quiet` split the legal moves exactly, `count_legal_moves`
//!   counts them;
//! - `is_legal` is true exactly for the legal moves and `is_pseudo_legal` exactly for the
//!   pseudo-legal ones, for every legal move, every 16-bit value (suite positions) and random
//!   or mutated 16-bit values (random games);
//! - SAN and coordinate notation round-trip for every legal move;
//! - FEN round-trips (exactly, for every suite FEN), and the FEN parser never panics on
//!   arbitrary input, and what it accepts prints to a FEN that reads back to an equal position;
//! - random Chess960 castling set-ups (and random boards) obey all of the above, and X-FEN
//!   `KQkq` letters name the outermost rooks (same rights, key and moves as Shredder letters).
//!
//! Proptest seeds are random; a failure prints the minimal failing input (no regression files
//! are written into the source tree).

use betacut::board::{
    CastleSide, Color, FenError, Move, MoveKind, MoveList, Piece, PieceKind, Position, Square,
};
use betacut::eval::Evaluator;
use betacut::tools::perft::load_suite;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------
// Suite positions
// ---------------------------------------------------------------------------------------------

/// A FEN from a perft suite, with where it came from.
struct SuiteFen {
    suite: &'static str,
    line: usize,
    fen: String,
}

/// The FENs of the three suites, one list per suite (standard, cpw, fischer).
fn suites() -> &'static [Vec<SuiteFen>; 3] {
    static SUITES: OnceLock<[Vec<SuiteFen>; 3]> = OnceLock::new();
    SUITES.get_or_init(|| {
        ["standard", "cpw", "fischer"].map(|name| {
            let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "perft", &format!("{name}.epd")]
                .iter()
                .collect();
            let entries = load_suite(&path).unwrap_or_else(|e| panic!("{name}.epd: {e}"));
            assert!(!entries.is_empty(), "{name}.epd is empty");
            entries
                .into_iter()
                .map(|e| SuiteFen {
                    suite: name,
                    line: e.line,
                    fen: e.fen,
                })
                .collect()
        })
    })
}

/// Every suite FEN.
fn all_suite_fens() -> impl Iterator<Item = &'static SuiteFen> {
    suites().iter().flatten()
}

/// Parses a suite FEN (a failure here is a test failure, not a property failure).
fn parse_suite_fen(entry: &SuiteFen) -> Position {
    Position::from_fen(&entry.fen).unwrap_or_else(|e| {
        panic!(
            "{}.epd line {}: {e} | {}",
            entry.suite, entry.line, entry.fen
        )
    })
}

/// In debug builds the exhaustive tests look at every `DEBUG_STRIDE`-th suite position only.
const DEBUG_STRIDE: usize = if cfg!(debug_assertions) { 16 } else { 1 };

// ---------------------------------------------------------------------------------------------
// The reference: a plain mailbox board, rays walked square by square
// ---------------------------------------------------------------------------------------------

/// The pieces of a position, square by square (a1 = 0).
type Board = [Option<Piece>; 64];

/// Copies the pieces of `pos` into a mailbox.
fn board_of(pos: &Position) -> Board {
    let mut board = [None; 64];
    for sq in Square::all() {
        board[sq.index()] = pos.piece_at(sq);
    }
    board
}

/// The square `df` files and `dr` ranks from `sq`, if it is on the board.
fn step(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let file = sq.file() as i8 + df;
    let rank = sq.rank() as i8 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square::new(file as u8, rank as u8))
}

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Rank direction of `color`'s pawns: +1 for White, -1 for Black.
fn pawn_direction(color: Color) -> i8 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Rank index 0..8 of `color`'s back rank.
fn back_rank(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => 7,
    }
}

/// Every piece of `by` that attacks `target` on `board`.
fn attackers(board: &Board, target: Square, by: Color) -> BTreeSet<Square> {
    let mut found = BTreeSet::new();
    let is = |sq: Square, kind: PieceKind| board[sq.index()] == Some(Piece::new(by, kind));
    // A pawn attacks one step diagonally forward, so it stands one rank behind its target.
    for df in [-1, 1] {
        if let Some(sq) = step(target, df, -pawn_direction(by)) {
            if is(sq, PieceKind::Pawn) {
                found.insert(sq);
            }
        }
    }
    for (df, dr) in KNIGHT_JUMPS {
        if let Some(sq) = step(target, df, dr) {
            if is(sq, PieceKind::Knight) {
                found.insert(sq);
            }
        }
    }
    for (df, dr) in ORTHOGONAL.into_iter().chain(DIAGONAL) {
        if let Some(sq) = step(target, df, dr) {
            if is(sq, PieceKind::King) {
                found.insert(sq);
            }
        }
    }
    for (directions, slider) in [(ORTHOGONAL, PieceKind::Rook), (DIAGONAL, PieceKind::Bishop)] {
        for (df, dr) in directions {
            let mut sq = target;
            while let Some(next) = step(sq, df, dr) {
                sq = next;
                if let Some(piece) = board[sq.index()] {
                    if piece.color == by && (piece.kind == slider || piece.kind == PieceKind::Queen)
                    {
                        found.insert(sq);
                    }
                    break;
                }
            }
        }
    }
    found
}

/// True if any piece of `by` attacks `target` on `board`.
fn attacked(board: &Board, target: Square, by: Color) -> bool {
    !attackers(board, target, by).is_empty()
}

/// Square of `color`'s king on `board`.
fn king_on(board: &Board, color: Color) -> Square {
    Square::all()
        .find(|sq| board[sq.index()] == Some(Piece::new(color, PieceKind::King)))
        .unwrap_or_else(|| panic!("no {color:?} king on the board"))
}

/// Squares of one rank from file `a` to file `b`, both included, in either order.
fn rank_span(rank: u8, a: u8, b: u8) -> impl Iterator<Item = Square> {
    (a.min(b)..=a.max(b)).map(move |file| Square::new(file, rank))
}

/// Where king and rook stand after castling: files g and f (short) or c and d (long).
fn castling_destinations(color: Color, side: CastleSide) -> (Square, Square) {
    let rank = back_rank(color);
    match side {
        CastleSide::Short => (Square::new(6, rank), Square::new(5, rank)),
        CastleSide::Long => (Square::new(2, rank), Square::new(3, rank)),
    }
}

/// True for moves that take a piece (en passant included; castling never does).
fn is_capture(board: &Board, mv: Move) -> bool {
    mv.is_en_passant() || (!mv.is_castling() && board[mv.to().index()].is_some())
}

/// True for the moves `generate_noisy` documents: captures and queen promotions, but not
/// underpromotions, which are quiet even when they capture.
fn is_noisy(board: &Board, mv: Move) -> bool {
    match mv.promotion_kind() {
        Some(kind) => kind == PieceKind::Queen,
        None => is_capture(board, mv),
    }
}

/// Adds a pawn move, as the four promotions when it reaches the last rank.
fn add_pawn_move(moves: &mut Vec<Move>, from: Square, to: Square, us: Color) {
    if to.rank() == back_rank(!us) {
        for kind in [
            PieceKind::Queen,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
        ] {
            moves.push(Move::promotion(from, to, kind));
        }
    } else {
        moves.push(Move::normal(from, to));
    }
}

/// Reference pseudo-legal moves: every move by the rules of piece movement, without looking at
/// whether the own king is left in check; castling is included only when fully legal (its
/// rules are all about attacks already), en passant when the captured pawn is there.
fn reference_pseudo_legal(pos: &Position) -> Vec<Move> {
    let board = board_of(pos);
    let us = pos.side_to_move();
    let them = !us;
    let mut moves = Vec::new();
    let empty = |sq: Square| board[sq.index()].is_none();
    let enemy = |sq: Square| board[sq.index()].is_some_and(|p| p.color == them);
    let free_or_enemy = |sq: Square| board[sq.index()].is_none_or(|p| p.color == them);
    for from in Square::all() {
        let Some(piece) = board[from.index()] else {
            continue;
        };
        if piece.color != us {
            continue;
        }
        match piece.kind {
            PieceKind::Pawn => {
                let dir = pawn_direction(us);
                if let Some(one) = step(from, 0, dir).filter(|&sq| empty(sq)) {
                    add_pawn_move(&mut moves, from, one, us);
                    let start_rank = if us == Color::White { 1 } else { 6 };
                    if from.rank() == start_rank {
                        if let Some(two) = step(one, 0, dir).filter(|&sq| empty(sq)) {
                            moves.push(Move::normal(from, two));
                        }
                    }
                }
                for df in [-1, 1] {
                    let Some(to) = step(from, df, dir) else {
                        continue;
                    };
                    if enemy(to) {
                        add_pawn_move(&mut moves, from, to, us);
                    } else if pos.en_passant() == Some(to) && empty(to) {
                        // The pawn that just made a double step stands beside us.
                        let victim = Square::new(to.file(), from.rank());
                        if board[victim.index()] == Some(Piece::new(them, PieceKind::Pawn)) {
                            moves.push(Move::en_passant(from, to));
                        }
                    }
                }
            }
            PieceKind::Knight | PieceKind::King => {
                let steps: Vec<(i8, i8)> = if piece.kind == PieceKind::Knight {
                    KNIGHT_JUMPS.to_vec()
                } else {
                    ORTHOGONAL.into_iter().chain(DIAGONAL).collect()
                };
                for (df, dr) in steps {
                    if let Some(to) = step(from, df, dr).filter(|&sq| free_or_enemy(sq)) {
                        moves.push(Move::normal(from, to));
                    }
                }
            }
            PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen => {
                let directions: Vec<(i8, i8)> = match piece.kind {
                    PieceKind::Bishop => DIAGONAL.to_vec(),
                    PieceKind::Rook => ORTHOGONAL.to_vec(),
                    _ => ORTHOGONAL.into_iter().chain(DIAGONAL).collect(),
                };
                for (df, dr) in directions {
                    let mut to = from;
                    while let Some(next) = step(to, df, dr) {
                        to = next;
                        if empty(to) {
                            moves.push(Move::normal(from, to));
                        } else {
                            if enemy(to) {
                                moves.push(Move::normal(from, to));
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
    moves.extend(reference_castling(pos, &board));
    moves
}

/// Reference castling (Chess960 rules, which include the normal ones): the side holds the
/// right; every square between the king and its destination and between the rook and its
/// destination (destinations included) is empty but for that king and rook; the king is not in
/// check and no square it crosses or lands on is attacked (looked at with the king lifted off
/// the board); and, as for every move, the king is not attacked once king and rook stand on
/// their new squares (checked by the legality filter).
fn reference_castling(pos: &Position, board: &Board) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut moves = Vec::new();
    for side in CastleSide::ALL {
        if !pos.has_castling_right(us, side) {
            continue;
        }
        let king = king_on(board, us);
        let rook = pos.castling_setup().rook_from(us, side);
        let rank = back_rank(us);
        assert!(
            king.rank() == rank
                && rook.rank() == rank
                && board[rook.index()] == Some(Piece::new(us, PieceKind::Rook)),
            "castling right {side:?} of {us:?} without king and rook on the back rank: {}",
            pos.to_fen()
        );
        let (king_to, rook_to) = castling_destinations(us, side);
        let clear = rank_span(rank, king.file(), king_to.file())
            .chain(rank_span(rank, rook.file(), rook_to.file()))
            .all(|sq| sq == king || sq == rook || board[sq.index()].is_none());
        let mut without_king = *board;
        without_king[king.index()] = None;
        let safe = rank_span(rank, king.file(), king_to.file())
            .all(|sq| !attacked(&without_king, sq, !us));
        if clear && safe {
            moves.push(Move::castling(king, rook));
        }
    }
    moves
}

/// The board after `mv` (played by `us`), worked out on the mailbox.
fn apply(board: &Board, mv: Move, us: Color) -> Board {
    let mut after = *board;
    let (from, to) = (mv.from(), mv.to());
    match mv.kind() {
        MoveKind::Castling => {
            let side = if to.file() > from.file() {
                CastleSide::Short
            } else {
                CastleSide::Long
            };
            let (king_to, rook_to) = castling_destinations(us, side);
            after[from.index()] = None;
            after[to.index()] = None;
            after[king_to.index()] = Some(Piece::new(us, PieceKind::King));
            after[rook_to.index()] = Some(Piece::new(us, PieceKind::Rook));
        }
        MoveKind::EnPassant => {
            after[to.index()] = after[from.index()].take();
            after[Square::new(to.file(), from.rank()).index()] = None;
        }
        MoveKind::Promotion => {
            let kind = mv.promotion_kind().unwrap_or(PieceKind::Queen);
            after[from.index()] = None;
            after[to.index()] = Some(Piece::new(us, kind));
        }
        MoveKind::Normal => {
            after[to.index()] = after[from.index()].take();
        }
    }
    after
}

/// Reference legal moves: the pseudo-legal moves after which the own king is not attacked.
fn reference_legal(pos: &Position) -> Vec<Move> {
    let board = board_of(pos);
    let us = pos.side_to_move();
    reference_pseudo_legal(pos)
        .into_iter()
        .filter(|&mv| {
            let after = apply(&board, mv, us);
            !attacked(&after, king_on(&after, us), !us)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Checks run on one position; each leaves the position as it found it
// ---------------------------------------------------------------------------------------------

/// Returns `Err(message)` from the enclosing check when `cond` is false.
macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

/// A check of one position: `Err` says what is wrong.
type Check = fn(&mut Position) -> Result<(), String>;

/// The raw values of a move list, checking it has no duplicates.
fn raw_set(moves: &[Move], what: &str) -> Result<BTreeSet<u16>, String> {
    let set: BTreeSet<u16> = moves.iter().map(|m| m.raw()).collect();
    ensure!(
        set.len() == moves.len(),
        "{what} lists a move twice: {moves:?}"
    );
    Ok(set)
}

/// Names the moves of `raws` for a failure message.
fn describe(raws: &BTreeSet<u16>) -> Vec<Move> {
    raws.iter().map(|&r| Move::from_raw(r)).collect()
}

/// make_move puts everything where the rules say, unmake_move (and null move / unmake_null)
/// restores the position exactly.
fn check_make_unmake(pos: &mut Position) -> Result<(), String> {
    let before = pos.clone();
    let fen = pos.to_fen();
    let board = board_of(pos);
    let us = pos.side_to_move();
    for &mv in pos.legal_moves().iter() {
        let rights_before: Vec<(Color, CastleSide, Square)> = Color::ALL
            .into_iter()
            .flat_map(|c| CastleSide::ALL.map(|s| (c, s)))
            .filter(|&(c, s)| pos.has_castling_right(c, s))
            .map(|(c, s)| (c, s, pos.castling_setup().rook_from(c, s)))
            .collect();
        let moving = board[mv.from().index()];
        pos.make_move(mv);

        ensure!(
            board_of(pos) == apply(&board, mv, us),
            "{mv:?}: pieces after make_move are wrong: {}",
            pos.to_fen()
        );
        ensure!(
            pos.side_to_move() == !us,
            "{mv:?}: side to move not switched"
        );
        ensure!(
            pos.game_ply() == before.game_ply() + 1,
            "{mv:?}: game ply not increased"
        );
        let captured = if mv.is_en_passant() {
            Some(Piece::new(!us, PieceKind::Pawn))
        } else if mv.is_castling() {
            None
        } else {
            board[mv.to().index()]
        };
        ensure!(
            pos.captured_piece() == captured,
            "{mv:?}: captured piece {:?}, expected {captured:?}",
            pos.captured_piece()
        );
        let pawn_move = moving.is_some_and(|p| p.kind == PieceKind::Pawn);
        let clock = if pawn_move || captured.is_some() {
            0
        } else {
            before.halfmove_clock() + 1
        };
        ensure!(
            pos.halfmove_clock() == clock,
            "{mv:?}: half-move clock {}, expected {clock}",
            pos.halfmove_clock()
        );
        let fullmove = before.fullmove_number() + u32::from(us == Color::Black);
        ensure!(
            pos.fullmove_number() == fullmove,
            "{mv:?}: full-move number {}, expected {fullmove}",
            pos.fullmove_number()
        );
        // A right is lost when its king moves or its rook moves or is captured.
        for &(color, side, rook) in &rights_before {
            let king = king_on(&board, color);
            let lost = mv.from() == king || mv.from() == rook || mv.to() == rook;
            ensure!(
                pos.has_castling_right(color, side) != lost,
                "{mv:?}: castling right {color:?} {side:?} should be {}",
                if lost { "lost" } else { "kept" }
            );
        }
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if pos.has_castling_right(color, side) {
                    ensure!(
                        rights_before
                            .iter()
                            .any(|&(c, s, _)| (c, s) == (color, side)),
                        "{mv:?}: castling right {color:?} {side:?} appeared"
                    );
                }
            }
        }
        // En passant: only right after a double step, and always when a pawn stands ready to
        // take.
        let double_step = pawn_move && mv.from().rank().abs_diff(mv.to().rank()) == 2;
        if double_step {
            let passed = Square::new(mv.from().file(), (mv.from().rank() + mv.to().rank()) / 2);
            let takers = [-1, 1].into_iter().filter_map(|df| step(mv.to(), df, 0));
            let capturable = takers
                .clone()
                .any(|sq| board[sq.index()] == Some(Piece::new(!us, PieceKind::Pawn)));
            ensure!(
                pos.en_passant() == Some(passed) || (!capturable && pos.en_passant().is_none()),
                "{mv:?}: en-passant square {:?} after a double step over {passed}",
                pos.en_passant()
            );
        } else {
            ensure!(
                pos.en_passant().is_none(),
                "{mv:?}: en-passant square {:?} after a move that is no double step",
                pos.en_passant()
            );
        }

        pos.unmake_move(mv);
        ensure!(
            *pos == before,
            "{mv:?}: unmake_move does not restore the position (now {})",
            pos.to_fen()
        );
        ensure!(pos.to_fen() == fen, "{mv:?}: unmake_move changes the FEN");
        ensure!(
            pos.key() == before.key() && pos.pawn_key() == before.pawn_key(),
            "{mv:?}: unmake_move does not restore the keys"
        );
        ensure!(
            pos.game_ply() == before.game_ply(),
            "{mv:?}: unmake_move does not pop the history"
        );
    }

    if !pos.in_check() {
        pos.make_null();
        ensure!(pos.side_to_move() == !us, "null move: side not switched");
        ensure!(board_of(pos) == board, "null move: pieces moved");
        ensure!(
            pos.en_passant().is_none(),
            "null move: en-passant square kept"
        );
        ensure!(
            pos.key() == pos.compute_key(),
            "null move: key {:016x}, from scratch {:016x}",
            pos.key(),
            pos.compute_key()
        );
        ensure!(
            pos.pawn_key() == pos.compute_pawn_key(),
            "null move: pawn key wrong"
        );
        ensure!(
            pos.checkers() == pos.compute_checkers() && pos.checkers().is_empty(),
            "null move: checkers {:?}, from scratch {:?}",
            pos.checkers(),
            pos.compute_checkers()
        );
        pos.unmake_null();
        ensure!(
            *pos == before,
            "unmake_null does not restore the position (now {})",
            pos.to_fen()
        );
        ensure!(pos.to_fen() == fen, "unmake_null changes the FEN");
        ensure!(
            pos.game_ply() == before.game_ply(),
            "unmake_null does not pop the history"
        );
    }
    Ok(())
}

/// The incremental key, pawn key and checkers equal their from-scratch values, here and after
/// every legal move.
fn check_incremental_state(pos: &mut Position) -> Result<(), String> {
    fn consistent(pos: &Position, after: &str) -> Result<(), String> {
        ensure!(
            pos.key() == pos.compute_key(),
            "{after}: key {:016x}, from scratch {:016x}",
            pos.key(),
            pos.compute_key()
        );
        ensure!(
            pos.pawn_key() == pos.compute_pawn_key(),
            "{after}: pawn key {:016x}, from scratch {:016x}",
            pos.pawn_key(),
            pos.compute_pawn_key()
        );
        for color in [Color::White, Color::Black] {
            ensure!(
                pos.non_pawn_key(color) == pos.compute_non_pawn_key(color),
                "{after}: {color:?} non-pawn key {:016x}, from scratch {:016x}",
                pos.non_pawn_key(color),
                pos.compute_non_pawn_key(color)
            );
        }
        ensure!(
            pos.checkers() == pos.compute_checkers(),
            "{after}: checkers {:?}, from scratch {:?}",
            pos.checkers(),
            pos.compute_checkers()
        );
        Ok(())
    }
    /// Applies the recorded changes of the last move to `before` (removals first, then
    /// arrivals, as castling in Chess960 may put the king where its rook stood).
    fn replay_changes(pos: &Position, before: &[Option<Piece>; 64]) -> [Option<Piece>; 64] {
        let mut board = *before;
        for change in pos.last_changes().iter() {
            if let Some(from) = change.from {
                board[from.index()] = None;
            }
        }
        for change in pos.last_changes().iter() {
            if let Some(to) = change.to {
                board[to.index()] = Some(change.piece);
            }
        }
        board
    }
    let squares = |pos: &Position| -> [Option<Piece>; 64] {
        std::array::from_fn(|i| pos.piece_at(Square::from_index(i)))
    };
    consistent(pos, "here")?;
    let before = squares(pos);
    let mut evaluator = Evaluator::new();
    evaluator.set_root(pos);
    for &mv in pos.legal_moves().iter() {
        pos.make_move(mv);
        evaluator.on_make(pos);
        let mut result = consistent(pos, &format!("after {mv:?}"));
        if result.is_ok() && replay_changes(pos, &before) != squares(pos) {
            result = Err(format!(
                "after {mv:?}: the recorded changes {:?} do not lead to the new board",
                pos.last_changes().iter().collect::<Vec<_>>()
            ));
        }
        if result.is_ok() && !evaluator.is_consistent_with(pos) {
            result = Err(format!(
                "after {mv:?}: the evaluator's running sums differ from scratch"
            ));
        }
        pos.unmake_move(mv);
        evaluator.on_unmake();
        result?;
    }
    if !evaluator.is_consistent_with(pos) {
        return Err("the evaluator's running sums differ after the moves were taken back".into());
    }
    Ok(())
}

/// The generator agrees with the reference, noisy and quiet split it exactly, the count agrees
/// and the checkers are the pieces that attack the king.
fn check_movegen(pos: &mut Position) -> Result<(), String> {
    let board = board_of(pos);
    let us = pos.side_to_move();
    let expected = raw_set(&reference_legal(pos), "the reference")?;
    let legal = raw_set(pos.legal_moves().as_slice(), "legal_moves")?;
    if legal != expected {
        let missing: BTreeSet<u16> = expected.difference(&legal).copied().collect();
        let extra: BTreeSet<u16> = legal.difference(&expected).copied().collect();
        return Err(format!(
            "legal_moves differs from the reference: missing {:?}, extra {:?}",
            describe(&missing),
            describe(&extra)
        ));
    }
    ensure!(
        pos.count_legal_moves() == legal.len() as u64,
        "count_legal_moves {} but {} legal moves",
        pos.count_legal_moves(),
        legal.len()
    );
    let mut noisy = MoveList::new();
    pos.generate_noisy(&mut noisy);
    let mut quiet = MoveList::new();
    pos.generate_quiet(&mut quiet);
    let noisy_set = raw_set(noisy.as_slice(), "generate_noisy")?;
    let quiet_set = raw_set(quiet.as_slice(), "generate_quiet")?;
    let both: BTreeSet<u16> = noisy_set.intersection(&quiet_set).copied().collect();
    ensure!(
        both.is_empty(),
        "moves both noisy and quiet: {:?}",
        describe(&both)
    );
    let union: BTreeSet<u16> = noisy_set.union(&quiet_set).copied().collect();
    ensure!(
        union == legal,
        "noisy + quiet is not the legal set: noisy {noisy:?}, quiet {quiet:?}"
    );
    for &mv in noisy.iter() {
        ensure!(is_noisy(&board, mv), "{mv:?} generated as noisy");
    }
    for &mv in quiet.iter() {
        ensure!(!is_noisy(&board, mv), "{mv:?} generated as quiet");
    }
    let checkers: BTreeSet<Square> = pos.checkers().collect();
    let expected_checkers = attackers(&board, king_on(&board, us), !us);
    ensure!(
        checkers == expected_checkers,
        "checkers {checkers:?}, but {expected_checkers:?} attack the king"
    );
    Ok(())
}

/// `is_legal` / `is_pseudo_legal` agree with the reference on one raw 16-bit value.
fn check_raw_move(
    pos: &Position,
    raw: u16,
    legal: &BTreeSet<u16>,
    pseudo: &BTreeSet<u16>,
) -> Result<(), String> {
    let mv = Move::from_raw(raw);
    ensure!(
        pos.is_legal(mv) == legal.contains(&raw),
        "is_legal({mv:?} = {raw:#06x}) is {}",
        pos.is_legal(mv)
    );
    ensure!(
        pos.is_pseudo_legal(mv) == pseudo.contains(&raw),
        "is_pseudo_legal({mv:?} = {raw:#06x}) is {}",
        pos.is_pseudo_legal(mv)
    );
    Ok(())
}

/// The reference legal and pseudo-legal sets (castling only when legal, as `is_pseudo_legal`
/// checks castling completely).
fn reference_sets(pos: &Position) -> (BTreeSet<u16>, BTreeSet<u16>) {
    let legal: BTreeSet<u16> = reference_legal(pos).iter().map(|m| m.raw()).collect();
    let pseudo: BTreeSet<u16> = reference_pseudo_legal(pos)
        .iter()
        .filter(|m| !m.is_castling() || legal.contains(&m.raw()))
        .map(|m| m.raw())
        .collect();
    (legal, pseudo)
}

/// `is_legal` and `is_pseudo_legal` are true for every legal move and exact on every value one
/// bit away from a legal move.
fn check_is_legal_near_legal_moves(pos: &mut Position) -> Result<(), String> {
    let (legal, pseudo) = reference_sets(pos);
    for &mv in pos.legal_moves().iter() {
        ensure!(
            pos.is_legal(mv),
            "is_legal({mv:?}) is false for a legal move"
        );
        ensure!(
            pos.is_pseudo_legal(mv),
            "is_pseudo_legal({mv:?}) is false for a legal move"
        );
        for bit in 0..16 {
            check_raw_move(pos, mv.raw() ^ (1 << bit), &legal, &pseudo)?;
        }
    }
    ensure!(!pos.is_legal(Move::NONE), "Move::NONE is legal");
    Ok(())
}

/// SAN and coordinate notation of every legal move read back to the move; SAN marks check and
/// mate and captures correctly; no two moves print alike.
fn check_notation(pos: &mut Position) -> Result<(), String> {
    let board = board_of(pos);
    let before = pos.clone();
    let mut sans = BTreeSet::new();
    let mut coordinates = BTreeSet::new();
    for &mv in before.legal_moves().iter() {
        let san = pos.move_to_san(mv);
        ensure!(*pos == before, "move_to_san({mv:?}) changed the position");
        ensure!(
            pos.parse_san(&san) == Ok(mv),
            "parse_san({san:?}) is {:?}, expected {mv:?}",
            pos.parse_san(&san)
        );
        ensure!(
            pos.parse_move(&san) == Ok(mv),
            "parse_move({san:?}) is {:?}, expected {mv:?}",
            pos.parse_move(&san)
        );
        let coordinate = pos.move_to_coordinate(mv);
        ensure!(
            pos.parse_move(&coordinate) == Ok(mv),
            "parse_move({coordinate:?}) is {:?}, expected {mv:?}",
            pos.parse_move(&coordinate)
        );
        ensure!(
            pos.parse_coordinate(&coordinate) == Ok(mv),
            "parse_coordinate({coordinate:?}) is {:?}, expected {mv:?}",
            pos.parse_coordinate(&coordinate)
        );
        let core = san.trim_end_matches(['+', '#']);
        ensure!(
            core.contains('x') == is_capture(&board, mv),
            "SAN {san:?} of {mv:?} marks a capture wrongly"
        );
        ensure!(
            core.starts_with("O-O") == mv.is_castling(),
            "SAN {san:?} of {mv:?} marks castling wrongly"
        );
        pos.make_move(mv);
        let suffix = if pos.compute_checkers().is_empty() {
            ""
        } else if pos.count_legal_moves() == 0 {
            "#"
        } else {
            "+"
        };
        pos.unmake_move(mv);
        ensure!(
            san.strip_prefix(core) == Some(suffix),
            "SAN {san:?} of {mv:?} should end in {suffix:?}"
        );
        ensure!(sans.insert(san.clone()), "two moves print as SAN {san:?}");
        ensure!(
            coordinates.insert(coordinate.clone()),
            "two moves print as {coordinate:?}"
        );
    }
    Ok(())
}

/// The position's FEN reads back to a position with the same FEN, keys, checkers and moves.
fn check_fen_round_trip(pos: &mut Position) -> Result<(), String> {
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen).map_err(|e| format!("own FEN {fen:?} rejected: {e}"))?;
    ensure!(
        again.to_fen() == fen,
        "FEN {fen:?} reads back as {:?}",
        again.to_fen()
    );
    ensure!(
        again.key() == pos.key() && again.pawn_key() == pos.pawn_key(),
        "FEN {fen:?} reads back with other keys"
    );
    ensure!(
        again.checkers() == pos.checkers(),
        "FEN {fen:?} reads back with other checkers"
    );
    let moves = raw_set(pos.legal_moves().as_slice(), "legal_moves")?;
    let moves_again = raw_set(again.legal_moves().as_slice(), "legal_moves")?;
    ensure!(
        moves == moves_again,
        "FEN {fen:?} reads back with other legal moves"
    );
    Ok(())
}

/// Every check above.
const ALL_CHECKS: [(&str, Check); 6] = [
    ("make/unmake", check_make_unmake),
    ("incremental state", check_incremental_state),
    ("move generation", check_movegen),
    ("is_legal", check_is_legal_near_legal_moves),
    ("notation", check_notation),
    ("FEN round trip", check_fen_round_trip),
];

// ---------------------------------------------------------------------------------------------
// Random games
// ---------------------------------------------------------------------------------------------

/// Picks a move from a choice value: one time in four among the special moves (castling, en
/// passant, promotions) if there are any, so that those are well covered.
fn pick(moves: &MoveList, choice: u32) -> Move {
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.kind() != MoveKind::Normal)
        .collect();
    let index = (choice / 4) as usize;
    if choice.is_multiple_of(4) && !special.is_empty() {
        special[index % special.len()]
    } else {
        moves.as_slice()[index % moves.len()]
    }
}

/// Plays a random game from a suite position, running `check` on every position reached (the
/// start included) and making sure `check` leaves the position as it found it.
fn walk_game(
    suite: usize,
    index: Index,
    choices: &[u32],
    mut check: impl FnMut(&mut Position) -> Result<(), String>,
) -> Result<(), TestCaseError> {
    let entry = index.get(&suites()[suite % 3]);
    let mut pos = parse_suite_fen(entry);
    let mut line: Vec<String> = Vec::new();
    let fail = |pos: &Position, line: &[String], msg: String| {
        TestCaseError::fail(format!(
            "{msg}\n  position: {}\n  reached from {}.epd line {} ({}) by: {}",
            pos.to_fen(),
            entry.suite,
            entry.line,
            entry.fen,
            line.join(" ")
        ))
    };
    for ply in 0..=choices.len() {
        let before = pos.clone();
        if let Err(msg) = check(&mut pos) {
            return Err(fail(&pos, &line, msg));
        }
        if pos != before || pos.game_ply() != before.game_ply() {
            return Err(fail(
                &before,
                &line,
                "the check left the position changed".into(),
            ));
        }
        let moves = pos.legal_moves();
        let (Some(&choice), false) = (choices.get(ply), moves.is_empty()) else {
            break;
        };
        let mv = pick(&moves, choice);
        line.push(pos.move_to_coordinate(mv));
        pos.make_move(mv);
    }
    Ok(())
}

/// Longest random game.
const MAX_PLIES: usize = 40;

/// Cases per random-game property.
const GAME_CASES: u32 = if cfg!(debug_assertions) { 16 } else { 256 };

/// Strategy: which suite, which position in it, and the move choices.
fn game() -> impl Strategy<Value = (usize, Index, Vec<u32>)> {
    (
        0usize..3,
        any::<Index>(),
        prop::collection::vec(any::<u32>(), 0..=MAX_PLIES),
    )
}

/// A small xorshift generator for the random 16-bit moves of one case.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: GAME_CASES,
        // No regression files: this suite must not write into the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn make_unmake_restores_the_position((suite, index, choices) in game()) {
        walk_game(suite, index, &choices, check_make_unmake)?;
    }

    #[test]
    fn incremental_keys_and_checkers_match_scratch((suite, index, choices) in game()) {
        walk_game(suite, index, &choices, check_incremental_state)?;
    }

    #[test]
    fn move_generator_matches_reference((suite, index, choices) in game()) {
        // Every position of the game and every position one legal move away from it.
        walk_game(suite, index, &choices, |pos| {
            check_movegen(pos)?;
            for &mv in pos.legal_moves().iter() {
                pos.make_move(mv);
                let result = check_movegen(pos);
                pos.unmake_move(mv);
                result.map_err(|msg| format!("after {mv:?}: {msg}"))?;
            }
            Ok(())
        })?;
    }

    #[test]
    fn is_legal_is_exact(
        (suite, index, choices) in game(),
        seed in any::<u64>(),
    ) {
        let mut state = seed | 1;
        walk_game(suite, index, &choices, |pos| {
            check_is_legal_near_legal_moves(pos)?;
            let (legal, pseudo) = reference_sets(pos);
            for _ in 0..512 {
                check_raw_move(pos, xorshift(&mut state) as u16, &legal, &pseudo)?;
            }
            Ok(())
        })?;
    }

    #[test]
    fn san_and_coordinate_notation_round_trip((suite, index, choices) in game()) {
        walk_game(suite, index, &choices, check_notation)?;
    }

    #[test]
    fn fen_round_trips_along_games((suite, index, choices) in game()) {
        walk_game(suite, index, &choices, check_fen_round_trip)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Every suite position
// ---------------------------------------------------------------------------------------------

#[test]
fn suite_positions_pass_every_check() {
    let mut failures = Vec::new();
    for entry in all_suite_fens() {
        let mut pos = parse_suite_fen(entry);
        for (name, check) in ALL_CHECKS {
            if let Err(msg) = check(&mut pos) {
                failures.push(format!(
                    "{}.epd line {}: {name}: {msg} | {}",
                    entry.suite, entry.line, entry.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn is_legal_and_is_pseudo_legal_exact_on_every_16_bit_value() {
    let mut failures = Vec::new();
    for entry in all_suite_fens().step_by(DEBUG_STRIDE) {
        let pos = parse_suite_fen(entry);
        let (legal, pseudo) = reference_sets(&pos);
        let mut is_legal = vec![false; 1 << 16];
        let mut is_pseudo = vec![false; 1 << 16];
        for &raw in &legal {
            is_legal[raw as usize] = true;
        }
        for &raw in &pseudo {
            is_pseudo[raw as usize] = true;
        }
        for raw in 0..=u16::MAX {
            let mv = Move::from_raw(raw);
            if pos.is_legal(mv) != is_legal[raw as usize]
                || pos.is_pseudo_legal(mv) != is_pseudo[raw as usize]
            {
                failures.push(format!(
                    "{}.epd line {}: {mv:?} = {raw:#06x}: is_legal {} (should be {}), \
                     is_pseudo_legal {} (should be {}) | {}",
                    entry.suite,
                    entry.line,
                    pos.is_legal(mv),
                    is_legal[raw as usize],
                    pos.is_pseudo_legal(mv),
                    is_pseudo[raw as usize],
                    entry.fen
                ));
            }
        }
    }
    let shown: Vec<&String> = failures.iter().take(40).collect();
    assert!(
        failures.is_empty(),
        "{} wrong answers, first ones:\n{shown:#?}",
        failures.len()
    );
}

#[test]
fn suite_fens_print_back_exactly() {
    for entry in all_suite_fens() {
        let printed = parse_suite_fen(entry).to_fen();
        let fields: Vec<&str> = entry.fen.split_whitespace().take(6).collect();
        let printed_fields: Vec<&str> = printed.split_whitespace().collect();
        assert_eq!(
            printed_fields, fields,
            "{}.epd line {}: printed {printed:?}",
            entry.suite, entry.line
        );
    }
}

#[test]
fn reference_generator_sees_every_kind_of_move() {
    // Guards the reference itself: over the suites it must produce every move kind, checks,
    // and Chess960 castling with the king not on the e-file.
    let mut kinds = BTreeSet::new();
    let mut chess960_castles = 0;
    let mut in_check = 0;
    for entry in all_suite_fens() {
        let pos = parse_suite_fen(entry);
        in_check += usize::from(pos.in_check());
        for mv in reference_legal(&pos) {
            kinds.insert(format!("{:?}", mv.kind()));
            if mv.is_castling() && mv.from().file() != 4 {
                chess960_castles += 1;
            }
        }
    }
    assert_eq!(kinds.len(), 4, "move kinds seen: {kinds:?}");
    assert!(
        chess960_castles > 100,
        "{chess960_castles} Chess960 castlings"
    );
    assert!(in_check > 0, "no suite position is in check");
}

// ---------------------------------------------------------------------------------------------
// FEN parser robustness
// ---------------------------------------------------------------------------------------------

/// Parses `text`; panicking is the failure proptest looks for. When it is accepted, its FEN
/// must read back to an equal position, and its keys and checkers must be consistent.
fn check_fen_input(text: &str) -> Result<(), TestCaseError> {
    match Position::from_fen(text) {
        Err(err) => {
            // The error must print (its Display is part of the protocol's error replies).
            prop_assert!(!err.to_string().is_empty());
        }
        Ok(pos) => {
            let fen = pos.to_fen();
            let again = Position::from_fen(&fen);
            prop_assert_eq!(
                again.as_ref(),
                Ok(&pos),
                "{:?} was accepted, printed as {:?}, which reads back differently",
                text,
                fen
            );
            prop_assert_eq!(pos.key(), pos.compute_key());
            prop_assert_eq!(pos.pawn_key(), pos.compute_pawn_key());
            prop_assert_eq!(pos.checkers(), pos.compute_checkers());
        }
    }
    Ok(())
}

/// Cases per FEN-parser property.
const FUZZ_CASES: u32 = if cfg!(debug_assertions) { 500 } else { 5000 };

/// Characters FEN is made of, and a few it is not.
const FEN_CHARS: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', '1', '2', '3', '4', '5', '6', '7',
    '8', '9', '0', '/', ' ', '-', 'w', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'C', 'D', 'E', 'F',
    'G', 'H', 'x', '\t', '+', 'é', '\u{0}', '\u{3000}', '٣',
];

/// One edit of a FEN.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the character at (index modulo length).
    Replace(usize, char),
    /// Delete the character at (index modulo length).
    Delete(usize),
    /// Insert a character before (index modulo length + 1).
    Insert(usize, char),
    /// Swap two space-separated fields.
    SwapFields(usize, usize),
    /// Drop everything from (index modulo length).
    Truncate(usize),
}

fn fen_char() -> impl Strategy<Value = char> {
    prop_oneof![3 => prop::sample::select(FEN_CHARS), 1 => any::<char>()]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), fen_char()).prop_map(|(i, c)| Mutation::Replace(i, c)),
        2 => any::<usize>().prop_map(Mutation::Delete),
        2 => (any::<usize>(), fen_char()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        1 => (0usize..6, 0usize..6).prop_map(|(i, j)| Mutation::SwapFields(i, j)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

/// Applies `mutations` to `fen`.
fn mutate(fen: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    for mutation in mutations {
        let len = chars.len().max(1);
        match *mutation {
            Mutation::Replace(i, c) => {
                if !chars.is_empty() {
                    chars[i % len] = c;
                }
            }
            Mutation::Delete(i) => {
                if !chars.is_empty() {
                    chars.remove(i % len);
                }
            }
            Mutation::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Mutation::SwapFields(i, j) => {
                let text: String = chars.iter().collect();
                let mut fields: Vec<&str> = text.split(' ').collect();
                if i < fields.len() && j < fields.len() {
                    fields.swap(i, j);
                }
                chars = fields.join(" ").chars().collect();
            }
            Mutation::Truncate(i) => chars.truncate(i % len),
        }
    }
    chars.into_iter().collect()
}

/// A FEN built from random parts: a random board (kings and rooks often on their back ranks),
/// side, castling letters, en-passant square and clocks. Many are accepted, which is what
/// exercises the round trip; many are not, which exercises the errors.
fn random_fen() -> impl Strategy<Value = String> {
    let square = 0usize..64;
    let piece = (0usize..12).prop_filter("no kings", |&i| i % 6 != 5);
    let king = prop_oneof![
        (0usize..8).prop_map(|f| (f, true)),
        (0usize..64).prop_map(|s| (s, false))
    ];
    (
        prop::collection::vec((square.clone(), piece), 0..14),
        prop::collection::vec((0usize..8, any::<bool>()), 0..4),
        king.clone(),
        king,
        any::<bool>(),
        "-|[KQkqA-Ha-h]{1,4}",
        "-|[a-h][36]|[a-h][1-8]",
        (0u32..120, 1u32..200),
    )
        .prop_map(
            |(pieces, back_rooks, white_king, black_king, black_to_move, castling, ep, clocks)| {
                let mut board: Board = [None; 64];
                for (sq, index) in pieces {
                    let color = if index < 6 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let mut kind = PieceKind::ALL[index % 6];
                    if kind == PieceKind::Pawn && !(8..56).contains(&sq) {
                        kind = PieceKind::Knight;
                    }
                    board[sq] = Some(Piece::new(color, kind));
                }
                for (file, black) in back_rooks {
                    let (color, rank) = if black {
                        (Color::Black, 7)
                    } else {
                        (Color::White, 0)
                    };
                    board[rank * 8 + file] = Some(Piece::new(color, PieceKind::Rook));
                }
                for (color, (sq, on_back_rank)) in
                    [(Color::White, white_king), (Color::Black, black_king)]
                {
                    let sq = if on_back_rank {
                        usize::from(back_rank(color)) * 8 + sq
                    } else {
                        sq
                    };
                    board[sq] = Some(Piece::new(color, PieceKind::King));
                }
                let side = if black_to_move { "b" } else { "w" };
                format!(
                    "{} {side} {castling} {ep} {} {}",
                    placement(&board),
                    clocks.0,
                    clocks.1
                )
            },
        )
}

/// One side's castling setup: king file (b to g), whether each rook is there, where (index into
/// the files beyond the king) and whether it keeps its right.
type CastlingSide = (u8, [(bool, Index, bool); 2]);

fn castling_side() -> impl Strategy<Value = CastlingSide> {
    (
        1u8..7,
        [
            (any::<bool>(), any::<Index>(), any::<bool>()),
            (any::<bool>(), any::<Index>(), any::<bool>()),
        ],
    )
}

/// A FEN with each king between its rooks on its back rank, Chess960 fashion, castling rights
/// in Shredder letters, and a few other pieces, half of them on the back ranks: castling gets
/// tried in many geometries, with pieces in the way and attackers on and off the back rank.
/// Returned twice: with Shredder castling letters, and in X-FEN (`K`/`Q` for a right whose
/// rook is the outermost rook on its side of the king, the file letter otherwise).
fn castling_fen() -> impl Strategy<Value = (String, String)> {
    (
        castling_side(),
        castling_side(),
        prop::collection::vec((any::<bool>(), 0usize..64, 0usize..12), 0..8),
        any::<bool>(),
    )
        .prop_map(|(white, black, others, black_to_move)| {
            let mut board: Board = [None; 64];
            // (colour, rook file, king file) of every right.
            let mut rights: Vec<(Color, u8, u8)> = Vec::new();
            for (color, (king_file, rooks)) in [(Color::White, white), (Color::Black, black)] {
                let rank = usize::from(back_rank(color));
                board[rank * 8 + usize::from(king_file)] = Some(Piece::new(color, PieceKind::King));
                let [long, short] = rooks;
                let long_files: Vec<u8> = (0..king_file).collect();
                let short_files: Vec<u8> = (king_file + 1..8).collect();
                for ((present, index, right), files) in [(long, long_files), (short, short_files)] {
                    if present {
                        let file = *index.get(&files);
                        board[rank * 8 + usize::from(file)] =
                            Some(Piece::new(color, PieceKind::Rook));
                        if right {
                            rights.push((color, file, king_file));
                        }
                    }
                }
            }
            for (on_back_rank, sq, index) in others {
                let sq = if on_back_rank {
                    sq % 8 + 56 * (sq / 8 % 2)
                } else {
                    sq
                };
                let color = if index < 6 {
                    Color::White
                } else {
                    Color::Black
                };
                let kind = match PieceKind::ALL[index % 6] {
                    PieceKind::King => PieceKind::Queen,
                    PieceKind::Pawn if !(8..56).contains(&sq) => PieceKind::Bishop,
                    kind => kind,
                };
                if board[sq].is_none() {
                    board[sq] = Some(Piece::new(color, kind));
                }
            }
            let mut shredder = String::new();
            let mut xfen = String::new();
            for &(color, file, king_file) in &rights {
                let rank = back_rank(color);
                let rook = Piece::new(color, PieceKind::Rook);
                let short = file > king_file;
                let beyond = if short { file + 1..8 } else { 0..file };
                let outermost = beyond
                    .into_iter()
                    .all(|f| board[usize::from(rank) * 8 + usize::from(f)] != Some(rook));
                let letter = char::from(b'a' + file);
                let xletter = match (outermost, short) {
                    (true, true) => 'k',
                    (true, false) => 'q',
                    (false, _) => letter,
                };
                let case = |c: char| match color {
                    Color::White => c.to_ascii_uppercase(),
                    Color::Black => c,
                };
                shredder.push(case(letter));
                xfen.push(case(xletter));
            }
            if rights.is_empty() {
                shredder.push('-');
                xfen.push('-');
            }
            let side = if black_to_move { "b" } else { "w" };
            let fen = |castling: &str| format!("{} {side} {castling} - 0 1", placement(&board));
            (fen(&shredder), fen(&xfen))
        })
}

/// The piece-placement field of `board`, written plainly.
fn placement(board: &Board) -> String {
    let mut text = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(piece.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: FUZZ_CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn fen_parser_survives_arbitrary_strings(text in any::<String>()) {
        check_fen_input(&text)?;
    }

    #[test]
    fn fen_parser_survives_byte_soup(bytes in prop::collection::vec(any::<u8>(), 0..120)) {
        check_fen_input(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn fen_parser_survives_fen_alphabet_soup(
        chars in prop::collection::vec(fen_char(), 0..100),
    ) {
        check_fen_input(&chars.into_iter().collect::<String>())?;
    }

    #[test]
    fn fen_parser_survives_mutated_suite_fens(
        suite in 0usize..3,
        index in any::<Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let entry = index.get(&suites()[suite]);
        check_fen_input(&mutate(&entry.fen, &mutations))?;
    }

    #[test]
    fn castling_positions_generate_correct_moves((fen, xfen) in castling_fen()) {
        check_fen_input(&fen)?;
        check_fen_input(&xfen)?;
        let shredder_pos = Position::from_fen(&fen);
        let xfen_pos = Position::from_fen(&xfen);
        prop_assert_eq!(
            shredder_pos.is_ok(),
            xfen_pos.is_ok(),
            "{:?} and {:?} are not both accepted",
            fen,
            xfen
        );
        if let (Ok(a), Ok(b)) = (&shredder_pos, &xfen_pos) {
            // The same rights on the same rooks: same key, same moves.
            prop_assert_eq!(a.key(), b.key(), "{} / {}", fen, xfen);
            for color in Color::ALL {
                for side in CastleSide::ALL {
                    prop_assert_eq!(
                        a.has_castling_right(color, side),
                        b.has_castling_right(color, side)
                    );
                    if a.has_castling_right(color, side) {
                        prop_assert_eq!(
                            a.castling_setup().rook_from(color, side),
                            b.castling_setup().rook_from(color, side),
                            "{} / {}",
                            fen,
                            xfen
                        );
                    }
                }
            }
            let moves_a: BTreeSet<u16> = a.legal_moves().iter().map(|m| m.raw()).collect();
            let moves_b: BTreeSet<u16> = b.legal_moves().iter().map(|m| m.raw()).collect();
            prop_assert_eq!(moves_a, moves_b, "{} / {}", fen, xfen);
        }
        if let Ok(mut pos) = shredder_pos {
            for (name, check) in ALL_CHECKS {
                check(&mut pos).map_err(|msg| {
                    TestCaseError::fail(format!("{name}: {msg}\n  position: {fen}"))
                })?;
            }
        }
    }

    #[test]
    fn random_fens_round_trip_and_generate_correct_moves(fen in random_fen()) {
        check_fen_input(&fen)?;
        // Accepted positions without an en-passant square follow the same rules of movement
        // even when no game could reach them: the generator must still agree with the
        // reference. (With an en-passant square an unreachable position can let the capture
        // block a check, which the generator rightly assumes never happens.)
        if let Ok(mut pos) = Position::from_fen(&fen) {
            if pos.en_passant().is_none() {
                for (name, check) in ALL_CHECKS {
                    check(&mut pos).map_err(|msg| {
                        TestCaseError::fail(format!("{name}: {msg}\n  position: {fen}"))
                    })?;
                }
            }
        }
    }
}

#[test]
fn fen_parser_rejects_material_no_game_can_produce() {
    // 26 white queens have 263 legal moves here, more than a move list holds: legal_moves()
    // would drop some while count_legal_moves() counts them all.
    let crowded = "QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
    let impossible = [
        crowded,
        // Nine pawns.
        "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
        // Eight pawns and a third knight (no pawn left to have promoted).
        "4k3/8/8/8/8/8/PPPPPPPP/1NN1KN2 w - - 0 1",
        // Seven black pawns and three promoted pieces.
        "qqqrkrrr/1ppppppp/8/8/8/8/8/4K3 w - - 0 1",
    ];
    for fen in impossible {
        let result = Position::from_fen(fen).map(|p| p.to_fen());
        assert!(
            matches!(result, Err(FenError::ImpossibleMaterial(_))),
            "{fen}: {result:?}"
        );
    }
    // Promoted pieces matched by missing pawns are fine: the 218-move record position has nine
    // queens and no pawns.
    let record = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
    let pos = Position::from_fen(record).unwrap_or_else(|e| panic!("{record}: {e}"));
    assert_eq!(pos.legal_moves().len(), 218);
    assert_eq!(pos.count_legal_moves(), 218);
    let possible = [
        "4k3/8/8/8/8/8/1PPPPPPP/1NN1KN2 w - - 0 1",
        "qqqrkrrr/4pppp/8/8/8/8/8/4K3 w - - 0 1",
    ];
    for fen in possible {
        assert!(Position::from_fen(fen).is_ok(), "{fen} rejected");
    }
}
