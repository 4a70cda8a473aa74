//! Property tests of the XBoard and UCI front-ends: random command lines, mutated command lines
//! and random byte strings are fed to the in-process engine; it must never panic, must stay
//! responsive, and its game must stay a consistent position reachable by its recorded moves.

use betacut::board::Position;
use betacut::engine::Game;
use betacut::protocol::{Flow, Session, Uci};
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
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
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
        "variant fischerandom",
        "variant suicide",
        "option MultiPV=2",
        "option Clear Hash",
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
    assert_game_consistent(session.engine().engine().game());
}

/// The game's position is sound: FEN round trip, and its moves lead back to a legal start
/// position and forward to the same position.
fn assert_game_consistent(game: &Game) {
    let pos = game.position().clone();
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
    for &mv in game.moves().iter().rev() {
        back.unmake_move(mv);
        assert!(
            Position::from_fen(&back.to_fen()).is_ok(),
            "earlier position {}",
            back.to_fen()
        );
    }
    for &mv in game.moves() {
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

fn uci_command_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => uci_fixed_line(),
        2 => (uci_fixed_line(), prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..4))
            .prop_map(|(line, edits)| mutate(&line, &edits)),
        1 => (prop::sample::select(FENS.to_vec()), "([a-h][1-8][a-h][1-8][qrbn]? ?){0,4}")
            .prop_map(|(fen, moves)| format!("position fen {fen} moves {moves}")),
        1 => "position startpos moves ([a-h][1-8][a-h][1-8] ?){0,6}",
        1 => "go (depth|nodes|movetime|wtime|btime|winc|binc|movestogo|mate) -?[0-9]{1,12}",
        1 => "go (searchmoves [a-h][1-8][a-h][1-8] )?(ponder )?(depth [0-4])?",
        1 => "setoption name (Hash|Threads|MultiPV|Move Overhead|Ponder|UCI_Chess960|Nope) value [ -~]{0,10}",
        1 => "[ -~]{0,24}",
    ]
}

fn uci_fixed_line() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "uci",
        "isready",
        "ucinewgame",
        "stop",
        "ponderhit",
        "debug on",
        "debug off",
        "register later",
        "go infinite",
        "go ponder",
        "go depth 3",
        "go nodes 500",
        "go movetime 20",
        "go mate 2",
        "go wtime 100 btime 100",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 3",
        "go searchmoves e2e4 d2d4 depth 2",
        "setoption name MultiPV value 2",
        "setoption name UCI_Chess960 value true",
        "setoption name UCI_Chess960 value false",
        "setoption name Hash value 2",
        "setoption name Threads value 2",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "position startpos",
        "position startpos moves e2e4 e7e5 g1f3",
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1",
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1",
        "quit",
        "",
    ])
    .prop_map(str::to_string)
}

/// Applies character edits to `line`: (where, byte, 0 = replace, 1 = insert, 2 = delete).
fn mutate(line: &str, edits: &[(prop::sample::Index, u8, u8)]) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for (at, byte, kind) in edits {
        let c = char::from(*byte);
        match (kind, chars.is_empty()) {
            (1, _) | (_, true) => {
                let i = at.index(chars.len() + 1);
                chars.insert(i, c);
            }
            (0, false) => {
                let i = at.index(chars.len());
                chars[i] = c;
            }
            _ => {
                let i = at.index(chars.len());
                chars.remove(i);
            }
        }
    }
    chars.into_iter().collect()
}

/// After any input the UCI engine still answers: `isready` gets `readyok` (even during a
/// search), a search still running ends with its `bestmove` after `stop`, and no `go` got more
/// than one `bestmove`.
fn assert_uci_responsive(session: &mut Session<Uci>, gos_sent: usize) {
    if session.has_quit() {
        return;
    }
    assert_eq!(session.send("isready"), Flow::Continue);
    assert!(
        session.wait_for(Duration::from_secs(20), |out| out.contains("readyok")),
        "no readyok"
    );
    let searching = session.frontend().engine().is_searching();
    let before = session.output().matches("bestmove").count();
    session.send("stop");
    if searching {
        assert!(
            session.wait_for(Duration::from_secs(20), |out| {
                out.matches("bestmove").count() > before
            }),
            "no bestmove after stop"
        );
    }
    assert!(!session.frontend().engine().is_searching(), "stopped");
    let bestmoves = session.output().matches("bestmove").count();
    assert!(
        bestmoves <= gos_sent,
        "{bestmoves} best moves for {gos_sent} go commands"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_and_mutated_uci_lines_never_break_the_engine(
        lines in prop::collection::vec(uci_command_line(), 1..40)
    ) {
        let mut session = Session::uci();
        session.send("uci");
        for line in &lines {
            session.send(line);
        }
        let gos = lines
            .iter()
            .filter(|l| l.split_whitespace().any(|w| w == "go"))
            .count();
        assert_game_consistent(session.frontend().engine().game());
        assert_uci_responsive(&mut session, gos);
        assert_game_consistent(session.frontend().engine().game());
    }
}
