//! What Betacut's fuzz targets share: the positions they probe, the checks every parsed position
//! must pass, and the harness that feeds fuzz input to the UCI and XBoard front-ends with the
//! real engine behind them, bounded so that no input can make a run hang or leave the machine.
//!
//! A failed check panics: libFuzzer records the input as a crash. Bad input itself must never
//! panic the engine; it gets an error.

#![warn(missing_docs)]

pub mod session;

use betacut::board::{Move, Position};

/// Positions the move and book targets probe: the start position, a Chess960 game (Shredder
/// castling), and one with castling both ways, promotions of both colours and en passant,
/// from each side.
pub const PROBE_FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
    "r3k2r/1P6/8/8/3pP3/8/6p1/R3K2R b KQkq e3 0 1",
];

/// The positions of [`PROBE_FENS`].
pub fn probe_positions() -> Vec<Position> {
    PROBE_FENS
        .iter()
        .map(|fen| match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(err) => panic!("the harness's own FEN {fen} is refused: {err}"),
        })
        .collect()
}

/// Checks a position the engine accepted: its FEN parses again to the same position (and the
/// same FEN), its key is the one computed from scratch, and every legal move makes and unmakes
/// back to it, prints as SAN and coordinates that parse back to the move.
pub fn check_position(pos: &Position) {
    let fen = pos.to_fen();
    let again = match Position::from_fen(&fen) {
        Ok(again) => again,
        Err(err) => panic!("the FEN the engine wrote, {fen}, does not parse: {err}"),
    };
    assert_eq!(again.to_fen(), fen, "FEN round trip");
    // Not `==`: a position reached by moves also remembers the last move (its changes, the
    // piece it took, the plies since a null move), which a FEN does not hold.
    // Nor the castling setup of rights already lost, nor the Chess960 flag of a position
    // without castling rights: a FEN cannot say them, and they change nothing.
    assert!(
        again.key() == pos.key()
            && again.pawn_key() == pos.pawn_key()
            && again.checkers() == pos.checkers(),
        "the FEN {fen} parses to another position"
    );
    assert_eq!(pos.key(), pos.compute_key(), "key of {fen}");
    let mut scratch = pos.clone();
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves(), "{fen}");
    for &mv in moves.iter() {
        check_move_text(&mut scratch, mv);
        scratch.make_move(mv);
        assert_eq!(
            scratch.key(),
            scratch.compute_key(),
            "key after {mv:?} in {fen}"
        );
        // Every position reached must itself be a position the FEN parser accepts.
        let after = scratch.to_fen();
        assert!(
            Position::from_fen(&after).is_ok(),
            "{after}, after a legal move in {fen}, is refused"
        );
        scratch.unmake_move(mv);
        assert!(scratch == *pos, "unmake after {mv:?} in {fen}");
    }
}

/// Checks that the legal move `mv` of `pos` prints as SAN and as coordinates that both parse
/// back to `mv` (the position is used as scratch and restored).
pub fn check_move_text(pos: &mut Position, mv: Move) {
    let san = pos.move_to_san(mv);
    assert_eq!(pos.parse_san(&san), Ok(mv), "SAN {san} in {}", pos.to_fen());
    let coordinate = pos.move_to_coordinate(mv);
    assert_eq!(
        pos.parse_move(&coordinate),
        Ok(mv),
        "coordinates {coordinate} in {}",
        pos.to_fen()
    );
}

/// Lines of fuzz input as the engine's standard-input reader splits them (line ends removed,
/// invalid UTF-8 replaced, over-long lines cut).
pub fn input_lines(data: &[u8]) -> Vec<String> {
    let mut input = std::io::Cursor::new(data);
    let mut lines = Vec::new();
    while let Some(line) = betacut::protocol::read_line(&mut input) {
        lines.push(line);
    }
    lines
}
