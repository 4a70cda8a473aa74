//! Proves that Betacut's Zobrist keys are exactly the Polyglot opening-book keys, using the
//! published example keys from the Polyglot book format description: the incremental key after
//! each move, the key computed from scratch, and the key of the same position read back from
//! its FEN must all equal the published value (this covers the Polyglot en-passant rule: the
//! file is hashed only when a pawn of the side to move could capture).

use betacut::board::{Move, Position};

/// Plays `line` (coordinate moves, each with its published key if there is one) from the start
/// position. After every move the incremental key must equal the key computed from scratch and
/// the key of the position read back from its own FEN, and the published key where given; then
/// the moves are taken back and every earlier key must come back.
fn check_line(line: &[(&str, Option<u64>)]) {
    let mut pos = Position::startpos();
    let start_key = pos.key();
    assert_eq!(
        start_key, 0x463b96181691fc9c,
        "start position key is {start_key:016x}"
    );
    let mut played: Vec<(Move, u64)> = Vec::new();
    let mut text = String::from("startpos");
    for &(coordinate, published) in line {
        let mv = pos
            .parse_move(coordinate)
            .unwrap_or_else(|e| panic!("after {text}: {coordinate} rejected: {e}"));
        pos.make_move(mv);
        text.push(' ');
        text.push_str(coordinate);
        let key = pos.key();
        if let Some(expected) = published {
            assert_eq!(
                key, expected,
                "incremental key after {text}: found {key:016x}, expected {expected:016x}"
            );
        }
        assert_eq!(
            pos.compute_key(),
            key,
            "key from scratch after {text}: found {:016x}, incremental {key:016x}",
            pos.compute_key()
        );
        let fen = pos.to_fen();
        let reparsed = Position::from_fen(&fen)
            .unwrap_or_else(|e| panic!("after {text}: own FEN {fen:?} rejected: {e}"));
        assert_eq!(
            reparsed.key(),
            key,
            "key of FEN {fen:?} (after {text}): found {:016x}, incremental {key:016x}",
            reparsed.key()
        );
        assert_eq!(
            reparsed.pawn_key(),
            pos.pawn_key(),
            "pawn key of FEN {fen:?} differs from the incremental one (after {text})"
        );
        played.push((mv, key));
    }
    // Unmaking restores every earlier key.
    while let Some((mv, key)) = played.pop() {
        assert_eq!(pos.key(), key, "key before unmaking {mv:?}");
        pos.unmake_move(mv);
        let back = played.last().map_or(start_key, |&(_, k)| k);
        assert_eq!(
            pos.key(),
            back,
            "key after unmaking {mv:?}: found {:016x}, expected {back:016x}",
            pos.key()
        );
    }
    assert_eq!(
        pos,
        Position::startpos(),
        "unmaking every move restores the start"
    );
}

#[test]
fn start_position_key() {
    assert_eq!(Position::startpos().key(), 0x463b96181691fc9c);
    assert_eq!(Position::startpos().compute_key(), 0x463b96181691fc9c);
    let parsed = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .unwrap_or_else(|e| panic!("start FEN rejected: {e}"));
    assert_eq!(parsed.key(), 0x463b96181691fc9c);
}

#[test]
fn king_walk_line_matches_published_keys() {
    check_line(&[
        ("e2e4", Some(0x823c9b50fd114196)),
        ("d7d5", Some(0x0756b94461c50fb0)),
        ("e4e5", Some(0x662fafb965db29d4)),
        // f7f5 beside the e5 pawn: the en-passant file enters the key.
        ("f7f5", Some(0x22a48b5a8e47ff78)),
        // King moves remove castling rights.
        ("e1e2", Some(0x652a607ca3f242c1)),
        ("e8f7", Some(0x00fdd303c946bdd9)),
    ]);
}

#[test]
fn rook_pawn_line_matches_published_keys() {
    check_line(&[
        ("a2a4", None),
        ("b7b5", None),
        ("h2h4", None),
        ("b5b4", None),
        // c2c4 beside the b4 pawn: Black could capture en passant, so the c-file is hashed.
        ("c2c4", Some(0x3c8123ea7b067637)),
        // The en-passant capture itself, then a rook move that loses White's long castling.
        ("b4c3", None),
        ("a1a3", Some(0x5c3f9b829b279560)),
    ]);
}

#[test]
fn en_passant_square_is_hashed_only_when_capturable() {
    // After 1.e4 no black pawn can take on e3: with or without the en-passant field the key is
    // the published one.
    for ep in ["e3", "-"] {
        let fen = format!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq {ep} 0 1");
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.key(), 0x823c9b50fd114196, "{fen}");
    }
    // After 1.e4 d5 2.e5 f5 White can take on f6: the field changes the key.
    let with = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let without = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    let key = |fen: &str| {
        Position::from_fen(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .key()
    };
    assert_eq!(key(with), 0x22a48b5a8e47ff78);
    assert_ne!(key(without), 0x22a48b5a8e47ff78);
}
