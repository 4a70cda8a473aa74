//! Property tests of the XBoard front-end: random command lines and random byte strings are fed
//! to the in-process engine; it must never panic, must stay responsive, and its game must stay
//! a consistent position reachable by its recorded moves.

use betacut::board::Position;
use betacut::protocol::{Flow, Session};
use proptest::prelude::*;
use std::time::Duration;

/// FENs, good and bad, for `setboard`.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2P5/8/8/8/8/5k2/K7 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "k7/8/1Q6/8/8/8/8/K7 b - - 0 1",
    "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1",
    "8/8/8/4k3/8/8/r7/K7 w - - 99 80",
    "8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w KQkq e3 0 1",
    "garbage",
];

fn command_line() -> impl Strategy<Value = String> {
    let fixed = prop::sample::select(vec![
        "xboard",
        "protover 2",
        "new",
        "force",
        "go",
        "playother",
        "white",
        "black",
        "?",
        "draw",
        "hint",
        "bk",
        "undo",
        "remove",
        "hard",
        "easy",
        "post",
        "nopost",
        "analyze",
        "exit",
        ".",
        "computer",
        "pause",
        "resume",
        "random",
        "edit",
        "c",
        "#",
        "result 1-0",
        "result *",
        "variant normal",
        "variant suicide",
        "exclude all",
        "include all",
        "option Ponder=1",
        "option Ponder=0",
        "option Hash=8",
        "option Threads=2",
        "option Move Overhead=0",
        "name Opponent",
        "rating 1 2",
        "ics -",
        "quit",
        "egtpath syzygy /x",
        "accepted ping",
        "rejected debug",
        "uci",
        "",
    ])
    .prop_map(str::to_string);
    prop_oneof![
        4 => fixed,
        2 => "[a-h][1-8][a-h][1-8][qrbnk]?",
        1 => "(usermove|exclude|include) [a-h][1-8][a-h][1-8]",
        1 => "[NBRQK]?[a-h]?x?[a-h][1-8][+#]?",
        1 => "O-O(-O)?",
        1 => prop::sample::select(FENS.to_vec()).prop_map(|fen| format!("setboard {fen}")),
        1 => (0u32..60, 0u32..3, 0u32..60, 0u32..3)
            .prop_map(|(m, b, s, i)| format!("level {m} {b}:{s:02} {i}")),
        1 => "(time|otim) -?[0-9]{1,7}",
        1 => "st 0\\.0[1-9]",
        1 => "sd [0-9]{1,4}",
        1 => "nps [0-9]{1,6}",
        1 => "ping -?[0-9]{1,30}",
        1 => "(memory|cores) [1-9]",
        1 => "[PNBRQKx][a-h][1-8]",
        1 => "[ -~]{0,24}",
    ]
}

/// The engine's position is sound: FEN round trip, and its moves lead back to a legal start
/// position and forward to the same position.
fn assert_consistent(session: &Session) {
    let engine = session.engine();
    let pos = engine.position().clone();
    let fen = pos.to_fen();
    let reparsed = Position::from_fen(&fen);
    assert!(
        reparsed
            .as_ref()
            .is_ok_and(|p| p.to_fen() == fen && p.key() == pos.key()),
        "FEN round trip: {fen}"
    );
    assert_eq!(pos.key(), pos.compute_key(), "incremental key");
    let mut back = pos.clone();
    for &mv in engine.moves().iter().rev() {
        back.unmake_move(mv);
        assert!(
            Position::from_fen(&back.to_fen()).is_ok(),
            "earlier position {}",
            back.to_fen()
        );
    }
    for &mv in engine.moves() {
        assert!(back.legal_moves().contains(mv), "recorded move legal");
        back.make_move(mv);
    }
    assert_eq!(back, pos, "moves replay to the position");
}

/// After any input the engine still answers: stop everything, then ping.
fn assert_responsive(session: &mut Session) {
    if session.has_quit() {
        return;
    }
    // Edit mode only takes edit commands: leave it first (this may start a search), then stop.
    if session.engine().is_editing() {
        session.send(".");
    }
    session.send("exit");
    session.send("resume");
    session.send("force");
    session.take_output();
    assert_eq!(session.send("ping 424242"), Flow::Continue);
    assert!(
        session.wait_for(Duration::from_secs(20), |out| out.contains("pong 424242")),
        "no pong"
    );
    assert!(!session.engine().is_searching(), "search stopped by force");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_command_lines_never_break_the_engine(lines in prop::collection::vec(command_line(), 1..40)) {
        let mut session = Session::new();
        session.send("st 0.02");
        for line in &lines {
            session.send(line);
        }
        assert_consistent(&session);
        assert_responsive(&mut session);
        assert_consistent(&session);
    }

    #[test]
    fn random_bytes_never_break_the_engine(lines in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..48), 1..24)) {
        let mut session = Session::new();
        session.send("new");
        session.send("force");
        session.send("e2e4");
        for bytes in &lines {
            session.send_bytes(bytes);
        }
        assert_consistent(&session);
        assert_responsive(&mut session);
        let out = session.output();
        assert!(!out.contains("move "), "no move without go: {out}");
    }
}
