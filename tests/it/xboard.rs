//! Whole-program tests of the XBoard (CECP v2) front-end: the built `betacut` binary is started
//! and driven over pipes through complete sessions. Every move the engine sends is checked for
//! legality with Betacut's own move generator in a position the test keeps itself.
//!
//! Blocking reads use generous timeouts; no test asserts how long anything took.

use crate::common;

use betacut::board::{Move, Position, START_FEN};
use common::{position, weak_move, Engine};

/// The XBoard side of the harness.
trait XboardSession {
    /// Starts an engine and completes the `xboard` / `protover 2` handshake.
    fn started() -> Engine;
    /// Sends `ping N` and returns everything printed before `pong N`.
    fn sync(&mut self) -> Vec<String>;
    /// Syncs with `ping`, then returns the first line satisfying `wanted`, whether the engine
    /// printed it before the `pong` (a search of a mate in one reaches the depth limit almost
    /// at once, racing the `pong`) or after it. Only for predicates that no line of the search
    /// before the last command can satisfy.
    fn sync_then_expect(&mut self, what: &str, wanted: impl Fn(&str) -> bool) -> String;
    /// Waits for `move X` and returns X; fails on any error reply on the way.
    fn expect_move(&mut self) -> String;
}

impl XboardSession for Engine {
    fn started() -> Engine {
        let mut engine = Engine::start();
        engine.send("xboard");
        engine.send("protover 2");
        engine.expect_line("feature done=1");
        engine
    }

    fn sync(&mut self) -> Vec<String> {
        self.next_ping += 1;
        let n = self.next_ping;
        self.send(&format!("ping {n}"));
        self.expect_line(&format!("pong {n}"))
    }

    fn sync_then_expect(&mut self, what: &str, wanted: impl Fn(&str) -> bool) -> String {
        let before = self.sync();
        match before.into_iter().find(|l| wanted(l)) {
            Some(line) => line,
            None => self.expect(what, wanted).0,
        }
    }

    fn expect_move(&mut self) -> String {
        let (line, before) = self.expect("move", |l| l.starts_with("move "));
        if let Some(bad) = before.iter().find(|l| is_error(l)) {
            self.fail(&format!("error before the move: {bad}"));
        }
        line["move ".len()..].to_string()
    }
}

fn is_error(line: &str) -> bool {
    line.starts_with("Error")
        || line.starts_with("Illegal move")
        || line.starts_with("tellusererror")
}

/// True for a thinking line: `ply score time nodes pv...`.
fn is_thinking(line: &str) -> bool {
    let fields: Vec<&str> = line.split_whitespace().collect();
    fields.len() >= 4 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok())
}

/// Plays the engine's move `text` on `pos` after checking that it is legal there and written
/// in coordinate notation (`e1g1` castling).
fn play_engine_move(pos: &mut Position, text: &str) -> Move {
    let mv = pos
        .parse_coordinate(text)
        .unwrap_or_else(|e| panic!("engine move {text:?} in {}: {e}", pos.to_fen()));
    assert!(
        pos.legal_moves().contains(mv),
        "{text} legal in {}",
        pos.to_fen()
    );
    assert_eq!(pos.move_to_coordinate(mv), text, "coordinate notation");
    pos.make_move(mv);
    mv
}

/// Plays a move for the test's side.
fn play_own_move(engine: &mut Engine, pos: &mut Position, text: &str) {
    let mv = pos
        .parse_move(text)
        .unwrap_or_else(|e| panic!("test move {text}: {e}"));
    engine.send(text);
    pos.make_move(mv);
}

#[test]
fn feature_negotiation() {
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    let (first, _) = engine.expect("feature line", |l| l.starts_with("feature"));
    assert_eq!(first, "feature done=0");
    let before = engine.expect_line("feature done=1");
    let all = before.join(" ");
    for needed in [
        "ping=1",
        "setboard=1",
        "playother=1",
        "usermove=1",
        "time=1",
        "draw=1",
        "sigint=0",
        "sigterm=0",
        "reuse=1",
        "analyze=1",
        "myname=\"Betacut ",
        "variants=\"normal,fischerandom\"",
        "colors=0",
        "name=1",
        "nps=1",
        "debug=1",
        "memory=1",
        "smp=1",
        "exclude=1",
        "option=\"Hash -spin",
        "option=\"Threads -spin",
        "option=\"Ponder -check",
        "option=\"Move Overhead -spin",
        "option=\"Log File -file",
        "option=\"MultiPV -spin 1 1 256\"",
        "option=\"Clear Hash -button\"",
    ] {
        assert!(all.contains(needed), "feature {needed} missing in {all}");
    }
    assert!(
        before.iter().all(|l| l.starts_with("feature ")),
        "{before:?}"
    );
    // XBoard answers every feature; none of the answers may cause an error.
    for feature in ["ping", "setboard", "usermove", "myname", "option", "done"] {
        engine.send(&format!("accepted {feature}"));
    }
    engine.send("rejected ics");
    let lines = engine.sync();
    assert!(lines.is_empty(), "{lines:?}");
    assert!(engine.quit());
}

#[test]
fn whole_game_under_force_go_alternation_ends_in_mate() {
    // python-chess style: every move is sent in force mode, then time/otim and go.
    let mut engine = Engine::started();
    let mut pos = Position::startpos();
    engine.send("new");
    engine.send("sd 4");
    engine.send("level 0 5 0");
    let mut seed = 7;
    let mut claim = None;
    for _ in 0..300 {
        engine.send("force");
        engine.send("time 30000");
        engine.send("otim 30000");
        engine.send("post");
        engine.send("go");
        let mv = engine.expect_move();
        play_engine_move(&mut pos, &mv);
        let lines = engine.sync();
        if let Some(result) = lines
            .iter()
            .find(|l| l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("1/2"))
        {
            claim = Some(result.clone());
            break;
        }
        assert!(lines.iter().all(|l| is_thinking(l)), "{lines:?}");
        engine.send("force");
        let reply = weak_move(&pos, &mut seed);
        play_own_move(&mut engine, &mut pos, &reply);
    }
    assert!(pos.is_checkmate(), "game over by mate: {}", pos.to_fen());
    assert_eq!(claim.as_deref(), Some("1-0 {White mates}"));
    engine.send("result 1-0 {White mates}");
    assert!(engine.sync().is_empty());
    assert!(engine.quit());
}

#[test]
fn xboard_style_game_replies_without_go() {
    // XBoard after the first move: time, otim and the opponent's move, no go.
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("random");
    engine.send("level 40 0:20 0");
    engine.send("post");
    engine.send("hard");
    engine.send("easy");
    let _ = engine.sync();
    engine.send("force");
    engine.send("computer");
    engine.send("name Tester");
    let mut pos = Position::startpos();
    let mut seed = 3;
    engine.send("time 2000");
    engine.send("otim 2000");
    play_own_move(&mut engine, &mut pos, "e2e4");
    engine.send("go");
    for ply in 0..12 {
        let mv = engine.expect_move();
        play_engine_move(&mut pos, &mv);
        if pos.legal_moves().is_empty() {
            break;
        }
        let reply = weak_move(&pos, &mut seed);
        engine.send(&format!("time {}", 2000 - 50 * ply));
        engine.send("otim 1900");
        engine.send(&format!("usermove {reply}"));
        pos.make_move(pos.parse_move(&reply).expect("own move"));
    }
    engine.send("force");
    engine.send("result * {test over}");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| !is_error(l)), "{lines:?}");
    assert!(engine.quit());
}

#[test]
fn claims_when_the_opponent_mates_or_the_position_is_drawn() {
    let mut engine = Engine::started();
    // Fool's mate: the engine plays White and gets mated.
    engine.send("new");
    engine.send("force");
    engine.send("setboard rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    engine.send("playother");
    engine.send("d8h4");
    engine.expect_line("0-1 {Black mates}");
    // Stalemate and insufficient material on go.
    engine.send("force");
    engine.send("setboard k7/8/1Q6/8/8/8/8/K7 b - - 0 1");
    engine.send("go");
    engine.expect_line("1/2-1/2 {Stalemate}");
    engine.send("force");
    engine.send("setboard 8/8/8/4k3/8/8/8/K1N5 w - - 0 1");
    engine.send("go");
    engine.expect_line("1/2-1/2 {Insufficient material}");
    // Fifty-move rule reached on the opponent's move.
    engine.send("force");
    engine.send("setboard 8/8/8/4k3/8/8/r7/K7 w - - 99 80");
    engine.send("playother");
    engine.send("a1b1");
    engine.expect_line("1/2-1/2 {Fifty move rule}");
    // Threefold repetition brought about by the opponent.
    engine.send("new");
    engine.send("force");
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        engine.send(mv);
    }
    engine.send("playother");
    engine.send("f6g8");
    engine.expect_line("1/2-1/2 {Draw by repetition}");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| !l.starts_with("move")), "{lines:?}");
    assert!(engine.quit());
}

#[test]
fn setboard_then_go_returns_a_legal_move() {
    let mut engine = Engine::started();
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "8/2P5/8/8/8/8/5k2/K7 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1",
    ] {
        let mut pos = position(fen);
        engine.send("new");
        engine.send("force");
        engine.send(&format!("setboard {fen}"));
        engine.send("st 0.3");
        if pos.legal_moves().is_empty() {
            engine.send("go");
            engine.expect_line("1-0 {White mates}");
            continue;
        }
        engine.send("go");
        let mv = engine.expect_move();
        play_engine_move(&mut pos, &mv);
    }
    assert!(engine.quit());
}

#[test]
fn bad_input_gets_replies_and_leaves_the_state_intact() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    let mut pos = Position::startpos();
    play_own_move(&mut engine, &mut pos, "e2e4");
    for (input, reply) in [
        ("e2e5", "Illegal move: e2e5"),
        ("e7e6e5", "Error (unknown command): e7e6e5"),
        ("usermove zz9", "Illegal move (not a move): zz9"),
        ("usermove e1g1", "Illegal move: e1g1"),
        ("Nf6x", "Error (unknown command): Nf6x"),
        ("frobnicate 1 2", "Error (unknown command): frobnicate 1 2"),
        ("sd many", "Error (bad number \"many\"): sd many"),
        ("level 40", "Error (level needs MPS BASE INC): level 40"),
        ("time", "Error (missing argument): time"),
        ("new please", "Error (too many parameters): new please"),
        (
            "variant crazyhouse",
            "Error (unsupported variant): variant crazyhouse",
        ),
        (
            "option Nonsense=3",
            "Error (unknown option \"Nonsense\"): option Nonsense=3",
        ),
        (
            "option Hash=0",
            "Error (bad value \"0\" for option \"Hash\" [a whole number from 1 to 1048576]): \
             option Hash=0",
        ),
        (
            "option Threads=lots",
            "Error (bad value \"lots\" for option \"Threads\" [a whole number from 1 to 256]): \
             option Threads=lots",
        ),
        (
            "option UCI_Chess960=1",
            "Error (unknown option \"UCI_Chess960\"): option UCI_Chess960=1",
        ),
    ] {
        engine.send(input);
        let lines = engine.expect_line(reply);
        assert!(lines.is_empty(), "{input}: {lines:?}");
    }
    // Random bytes are no command either.
    engine.send("\u{1}\u{7f}}{ ~~");
    let (line, _) = engine.expect("error", is_error);
    assert!(line.starts_with("Error (unknown command)"), "{line}");
    // Nothing above changed the game: Black to move after 1. e4, and e7e5 is legal.
    play_own_move(&mut engine, &mut pos, "e7e5");
    assert!(engine.sync().is_empty());
    engine.send("st 0.2");
    engine.send("go");
    let mv = engine.expect_move();
    play_engine_move(&mut pos, &mv);
    assert!(engine.quit());
}

#[test]
fn a_refused_position_leaves_the_engine_without_one() {
    let mut engine = Engine::started();
    for (input, reason) in [
        (
            "setboard 8/8/8 w - - 0 1",
            "piece placement has 3 ranks, expected 8",
        ),
        (
            "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
            "white king is missing",
        ),
    ] {
        engine.send("new");
        engine.send("force");
        engine.send("e2e4");
        engine.send(input);
        let fen = input.trim_start_matches("setboard ");
        let lines =
            engine.expect_line(&format!("tellusererror Illegal position ({reason}): {fen}"));
        assert!(lines.is_empty(), "{input}: {lines:?}");
        // Neither a move of the old position nor a search of it (Betacut ff239ac kept the
        // position after 1. e4 and played Black's move in it).
        engine.send("e7e5");
        engine.expect_line("Illegal move (no position set up): e7e5");
        engine.send("st 0.2");
        engine.send("go");
        let lines = engine.expect_line(&format!(
            "Error (no position: the last position was refused: {reason}): go"
        ));
        assert!(lines.is_empty(), "{lines:?}");
        engine.send("analyze");
        engine.expect("an error", is_error);
        engine.send("exit");
        assert!(!engine.sync().iter().any(|l| l.starts_with("move")));
        // No hint, book listing or undo of the old game either (298e6e1 hinted a Black
        // move of the position after 1. e4, listed its book moves and took 1. e4 back).
        engine.send("hint");
        let lines = engine.sync();
        assert!(!lines.iter().any(|l| l.starts_with("Hint")), "{lines:?}");
        for command in ["bk", "undo", "remove"] {
            engine.send(command);
            let lines = engine.expect_line(&format!(
                "Error (no position: the last position was refused: {reason}): {command}"
            ));
            assert!(lines.is_empty(), "{command}: {lines:?}");
        }
    }
    // Nor does `playother` choose a side by the old position.
    engine.send("playother");
    engine.expect_line(
        "Error (no position: the last position was refused: white king is missing): playother",
    );
    // A good position brings it back, still in force mode: no side was chosen (Betacut
    // 1.0.0 before this test let `playother` pick White from the old board and then
    // thought for White after the next `setboard`, refusing White's move from the GUI).
    engine.send("setboard 7k/8/8/8/8/8/8/KR6 w - - 0 1");
    engine.send("b1b2");
    engine.send("st 0.2");
    assert!(!engine
        .sync()
        .iter()
        .any(|l| l.starts_with("move") || is_error(l)));
    engine.send("setboard 7k/8/8/8/8/8/8/KR6 w - - 0 1");
    engine.send("go");
    let mv = engine.expect_move();
    play_engine_move(&mut position("7k/8/8/8/8/8/8/KR6 w - - 0 1"), &mv);
    assert!(engine.quit());
}

#[test]
fn analysis_of_a_position_without_legal_moves_gives_its_result() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    engine.send("post");
    // Depth 0, mated (-100000) or drawn, no nodes, no moves.
    for (fen, score) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "-100000"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "0"),
    ] {
        engine.send(&format!("setboard {fen}"));
        engine.send("analyze");
        let (line, _) = engine.expect("the result line", is_thinking);
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(
            fields.len() == 4 && fields[0] == "0" && fields[1] == score && fields[3] == "0",
            "{line}"
        );
        engine.send("exit");
        assert!(engine.sync().iter().all(|l| !l.starts_with("move")));
    }
    assert!(engine.quit());
}

#[test]
fn san_moves_and_castling_forms_are_accepted() {
    let mut engine = Engine::started();
    for castle in ["e1g1", "e1h1", "O-O"] {
        engine.send("new");
        engine.send("force");
        engine.send("setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        engine.send(castle);
        engine.send("st 0.2");
        engine.send("go");
        let mut pos = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        let mv = pos.parse_move(castle).expect("castling");
        pos.make_move(mv);
        let reply = engine.expect_move();
        play_engine_move(&mut pos, &reply);
    }
    engine.send("new");
    engine.send("force");
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"] {
        engine.send(san);
    }
    let lines = engine.sync();
    assert!(lines.is_empty(), "{lines:?}");
    assert!(engine.quit());
}

#[test]
fn ping_pong_ordering() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    engine.send("e2e4");
    engine.send("ping 1");
    assert!(engine.expect_line("pong 1").is_empty());
    // A ping that arrives while the engine thinks is answered after its move.
    engine.send("st 60");
    engine.send("go");
    engine.send("ping 2");
    engine.send("?");
    let (first, _) = engine.expect("move or pong", |l| {
        l.starts_with("move") || l.starts_with("pong")
    });
    assert!(first.starts_with("move "), "pong before the move: {first}");
    engine.expect_line("pong 2");
    // Pings of any size come back unchanged; after force/new the pong comes at once.
    engine.send("force");
    engine.send("new");
    engine.send("ping 98765432109876543210");
    engine.expect_line("pong 98765432109876543210");
    assert!(engine.quit());
}

#[test]
fn analyze_mode_output_moves_undo_new_setboard_and_exit() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    engine.send("post");
    engine.send("analyze");
    let (line, _) = engine.expect("thinking line", is_thinking);
    check_pv(&Position::startpos(), &line);
    engine.send(".");
    let (stat, _) = engine.expect("stat01", |l| l.starts_with("stat01:"));
    let fields: Vec<&str> = stat.split_whitespace().collect();
    assert!(fields.len() >= 6, "{stat}");
    assert!(
        fields[1..6].iter().all(|f| f.parse::<u64>().is_ok()),
        "{stat}"
    );
    // A move inside analysis: later lines analyse the new position.
    let mut pos = Position::startpos();
    play_own_move(&mut engine, &mut pos, "e2e4");
    let _ = engine.sync();
    let (line, _) = engine.expect("thinking line", is_thinking);
    check_pv(&pos, &line);
    // undo goes back; new resets; setboard sets up; all stay in analysis.
    engine.send("undo");
    let _ = engine.sync();
    let (line, _) = engine.expect("thinking line", is_thinking);
    check_pv(&Position::startpos(), &line);
    engine.send("new");
    let _ = engine.sync();
    let (line, _) = engine.expect("thinking line", is_thinking);
    check_pv(&Position::startpos(), &line);
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    engine.send(&format!("setboard {fen}"));
    let line = engine.sync_then_expect("mate score", |l| {
        is_thinking(l) && l.split_whitespace().nth(1) == Some("100001")
    });
    check_pv(&position(fen), &line);
    assert!(line.ends_with("Ra8#"), "{line}");
    // exclude / include change the moves searched at the root; with every move excluded the
    // analysis has nothing to show and says nothing (no move is played in analysis).
    engine.send("exclude all");
    let mut quiet = engine.sync();
    engine.send("include h2h3");
    quiet.extend(engine.sync());
    assert!(
        quiet.iter().all(|l| !l.contains("no legal move")),
        "{quiet:?}"
    );
    let (line, _) = engine.expect("thinking line", is_thinking);
    assert_eq!(line.split_whitespace().nth(4), Some("h3"), "{line}");
    engine.send("include all");
    let line = engine.sync_then_expect("thinking line", |l| is_thinking(l) && l.ends_with("Ra8#"));
    check_pv(&position(fen), &line);
    // exit: analysis stops; nothing more is printed after the pong.
    engine.send("exit");
    let _ = engine.sync();
    engine.send("ping 77");
    let lines = engine.expect_line("pong 77");
    assert!(lines.is_empty(), "output after exit: {lines:?}");
    assert!(engine.quit());
}

/// Checks that the PV of a thinking line is a legal line (SAN) from `pos`.
fn check_pv(pos: &Position, line: &str) {
    let mut pos = pos.clone();
    for san in line.split_whitespace().skip(4) {
        let san = san.trim_end_matches(['?', '!']);
        let mv = pos
            .parse_move(san)
            .unwrap_or_else(|e| panic!("PV move {san} in {}: {e} ({line})", pos.to_fen()));
        pos.make_move(mv);
    }
}

#[test]
fn undo_and_remove() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    engine.send("undo");
    engine.expect_line("Error (no move to undo): undo");
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        engine.send(mv);
    }
    engine.send("undo"); // takes back b8c6
    engine.send("remove"); // takes back g1f3 and e7e5
                           // Black is to move after 1. e4: a White move is refused.
    engine.send("g1f3");
    engine.expect_line("Illegal move: g1f3");
    let mut pos = Position::startpos();
    pos.make_move(pos.parse_move("e2e4").expect("e4"));
    engine.send("st 0.2");
    engine.send("go");
    let reply = engine.expect_move();
    play_engine_move(&mut pos, &reply);
    // remove while playing: the user's move and the engine's reply go; the engine keeps
    // playing Black and waits for the user's new move.
    let d4 = pos.parse_move("d2d4").expect("d4");
    engine.send("d2d4");
    pos.make_move(d4);
    let reply = engine.expect_move();
    let answer = play_engine_move(&mut pos, &reply);
    engine.send("remove");
    pos.unmake_move(answer);
    pos.unmake_move(d4);
    let lines = engine.sync();
    assert!(lines.iter().all(|l| !l.starts_with("move")), "{lines:?}");
    play_own_move(&mut engine, &mut pos, "c2c4");
    let reply = engine.expect_move();
    play_engine_move(&mut pos, &reply);
    assert!(engine.quit());
}

#[test]
fn every_level_form_and_limit_gives_a_legal_move() {
    let mut engine = Engine::started();
    // Clocks short enough that every move comes well inside the harness's 30 s wait: on a full
    // 2 min + 12 s clock a first move may rightly take 2.5 times its 18 s plan.
    for limits in [
        &["level 40 5 0", "time 30000", "otim 30000"][..],
        &["level 40 0:30 0", "time 3000", "otim 3000"],
        &["level 0 2 12", "time 1500", "otim 1500"],
        &["level 0 0:05 0.05", "time 500", "otim 500"],
        &["level 0 0:01 0.01", "time 100", "otim 100"],
        &["level 40 0:10 0", "time 1000", "otim 1000"],
        &["level 40 25+5 0", "time 1000", "otim 1000"],
        &["level 0 0.5 0", "time 300", "otim 300"],
        &["level 0 1 0", "time 3", "otim 6000"],
        &["level 0 1 0", "time -20", "otim 6000"],
        &["st 1"],
        &["st 0.05"],
        &["sd 3"],
        &["nps 20000", "st 1"],
        &["nps 0", "level 0 0:02 0", "time 200"],
    ] {
        engine.send("new");
        for line in limits {
            engine.send(line);
        }
        engine.send("post");
        engine.send("go");
        let mut pos = Position::startpos();
        let mv = engine.expect_move();
        play_engine_move(&mut pos, &mv);
        let lines = engine.sync();
        assert!(lines.iter().all(|l| !is_error(l)), "{limits:?}: {lines:?}");
    }
    // sd caps the depth of the thinking output.
    engine.send("new");
    engine.send("sd 2");
    engine.send("st 5");
    engine.send("post");
    engine.send("go");
    let (_, before) = engine.expect("move", |l| l.starts_with("move "));
    let depths: Vec<u32> = before
        .iter()
        .filter(|l| is_thinking(l))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(
        !depths.is_empty() && depths.iter().all(|&d| d <= 2),
        "{depths:?}"
    );
    assert!(engine.quit());
}

#[test]
fn move_now_during_a_long_search_returns_a_move() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("level 0 100 0");
    engine.send("time 600000");
    engine.send("otim 600000");
    engine.send("st 1000");
    engine.send("post");
    engine.send("go");
    // Let the search get going, then interrupt it.
    let _ = engine.expect("thinking line", is_thinking);
    engine.send("?");
    let mv = engine.expect_move();
    play_engine_move(&mut Position::startpos(), &mv);
    // `?` when not thinking is a no-op.
    engine.send("?");
    assert!(engine.sync().is_empty());
    assert!(engine.quit());
}

#[test]
fn quit_during_a_search_exits() {
    for start in [&["st 1000", "go"][..], &["analyze"]] {
        let mut engine = Engine::started();
        engine.send("new");
        engine.send("post");
        for line in start {
            engine.send(line);
        }
        let _ = engine.expect("thinking line", is_thinking);
        assert!(engine.quit(), "clean exit after {start:?}");
    }
    // While pondering: after its move the engine thinks on the expected reply.
    let mut engine = Engine::started();
    for line in ["new", "post", "hard", "st 0.3", "go"] {
        engine.send(line);
    }
    let _ = engine.expect_move();
    let _ = engine.expect("ponder output", is_thinking);
    assert!(engine.quit(), "clean exit while pondering");
}

#[test]
fn closing_input_during_a_search_exits() {
    let mut engine = Engine::started();
    engine.send("analyze");
    engine.send("post");
    let _ = engine.expect("thinking line", is_thinking);
    engine.close_input();
    assert!(engine.wait_exit());
}

#[test]
fn pondering_hit_and_miss() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("hard");
    engine.send("st 0.5");
    engine.send("post");
    engine.send("go");
    let mut pos = Position::startpos();
    for round in 0..4 {
        let mv = engine.expect_move();
        play_engine_move(&mut pos, &mv);
        // While pondering the engine answers ping at once and gives its expected move.
        engine.send("hint");
        let (hint, _) = engine.expect("hint", |l| l.starts_with("Hint: "));
        let expected = hint["Hint: ".len()..].to_string();
        let expected_move = pos.parse_coordinate(&expected).expect("hint is legal");
        let _ = engine.sync();
        let reply = if round % 2 == 0 {
            expected.clone() // ponder hit
        } else {
            // ponder miss: any other legal move
            let other = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|&m| m != expected_move)
                .expect("another move");
            pos.move_to_coordinate(other)
        };
        engine.send("time 5000");
        engine.send("otim 5000");
        play_own_move(&mut engine, &mut pos, &reply);
    }
    let mv = engine.expect_move();
    play_engine_move(&mut pos, &mv);
    engine.send("easy");
    engine.send("force");
    assert!(engine.sync().iter().all(|l| !is_error(l)));
    assert!(engine.quit());
}

#[test]
fn edit_mode_sets_up_positions() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    engine.send("edit");
    engine.send("#");
    for cmd in ["Ke1", "Ra1", "Pb2", "c", "Ke8", "Pd7", "xd7", "Ph7"] {
        engine.send(cmd);
    }
    engine.send(".");
    engine.send("st 0.2");
    engine.send("go");
    let mut pos = position("4k3/7p/8/8/8/8/1P6/R3K3 w Q - 0 1");
    let mv = engine.expect_move();
    play_engine_move(&mut pos, &mv);
    // The black-to-move idiom: a2a3 first, then edit.
    engine.send("new");
    engine.send("force");
    engine.send("a2a3");
    engine.send("edit");
    engine.send("#");
    for cmd in ["Kh1", "Qa2", "c", "Kh8", "Rb8"] {
        engine.send(cmd);
    }
    engine.send(".");
    engine.send("go");
    let mut pos = position("1r5k/8/8/8/8/8/Q7/7K b - - 0 1");
    let mv = engine.expect_move();
    play_engine_move(&mut pos, &mv);
    // An illegal edited position is refused: the engine has no position until a new one.
    engine.send("force");
    engine.send("edit");
    engine.send("#");
    engine.send("Ke1");
    engine.send("frob");
    engine.expect_line("Error (edit mode expects c, #, . or a piece such as Pa4): frob");
    engine.send(".");
    engine.expect_line(
        "tellusererror Illegal position (black king is missing): 8/8/8/8/8/8/8/4K3 w - - 0 2",
    );
    engine.send("go");
    engine.expect_line(
        "Error (no position: the last position was refused: black king is missing): go",
    );
    engine.send("edit");
    engine.send("#");
    engine.send("Ke1");
    engine.send("Qd1");
    engine.send("c");
    engine.send("Kh8");
    engine.send(".");
    engine.send("go");
    let mv = engine.expect_move();
    play_engine_move(&mut position("7k/8/8/8/8/8/8/3QK3 w - - 0 1"), &mv);
    assert!(engine.quit());
}

#[test]
fn draw_offers_follow_the_engines_score() {
    let mut engine = Engine::started();
    // Engine (White) is a queen down: it accepts.
    engine.send("new");
    engine.send("force");
    engine.send("setboard 3qk3/8/8/8/8/8/8/4K3 w - - 0 1");
    engine.send("sd 4");
    engine.send("go");
    let mut pos = position("3qk3/8/8/8/8/8/8/4K3 w - - 0 1");
    let mv = engine.expect_move();
    play_engine_move(&mut pos, &mv);
    engine.send("draw");
    engine.expect_line("offer draw");
    // A new position set up after that move is not judged by its score: now the engine is
    // the side a queen up and declines (Betacut 298e6e1 kept the old score and offered).
    engine.send("force");
    engine.send("setboard 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    engine.send("draw");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| l != "offer draw"), "{lines:?}");
    // Engine is a queen up: it declines (says nothing).
    engine.send("new");
    engine.send("force");
    engine.send("setboard 3QK3/8/8/8/8/8/8/4k3 w - - 0 1");
    engine.send("sd 4");
    engine.send("go");
    let _ = engine.expect_move();
    engine.send("draw");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| l != "offer draw"), "{lines:?}");
    // A dead draw is accepted whatever the score.
    engine.send("new");
    engine.send("force");
    engine.send("setboard 8/8/8/4k3/8/8/8/K1B5 w - - 0 1");
    engine.send("draw");
    engine.expect_line("offer draw");
    assert!(engine.quit());
}

#[test]
fn pause_and_resume() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("st 60");
    engine.send("post");
    engine.send("go");
    let _ = engine.expect("thinking line", is_thinking);
    engine.send("pause");
    let _ = engine.sync();
    // Paused: nothing is printed.
    engine.send("ping 5");
    let lines = engine.expect_line("pong 5");
    assert!(lines.is_empty(), "{lines:?}");
    engine.send("resume");
    let _ = engine.expect("thinking line", is_thinking);
    engine.send("?");
    let mv = engine.expect_move();
    play_engine_move(&mut Position::startpos(), &mv);
    assert!(engine.quit());
}

#[test]
fn every_other_command_is_acknowledged_without_error() {
    let mut engine = Engine::started();
    for line in [
        "accepted ping",
        "rejected pause",
        "memory 32",
        "cores 1",
        "new",
        "variant normal",
        "random",
        "random",
        "level 0 1 0",
        "post",
        "nopost",
        "hard",
        "easy",
        "computer",
        "name Some Opponent",
        "rating 2100 1800",
        "ics -",
        "egtpath gaviota /nonexistent",
        "option Hash=8",
        "option Threads=1",
        "option Ponder=0",
        "option Move Overhead=40",
        "option Log File=",
        "nps 0",
        "sd 10",
        "time 6000",
        "otim 6000",
        "force",
        "setscore 50 3",
        "lift e2",
        "put e4",
        "hover e4",
        "result 1/2-1/2 {Draw agreed}",
        "",
        "   ",
        "xboard",
        "protover 1",
    ] {
        engine.send(line);
    }
    let lines = engine.sync();
    assert!(lines.is_empty(), "{lines:?}");
    engine.send("bk");
    let (_, _) = engine.expect("book text", |l| l.starts_with(' ') || l.starts_with('\t'));
    engine.expect_line("");
    engine.send("hint");
    let (hint, _) = engine.expect("hint", |l| l.starts_with("Hint: "));
    assert!(
        Position::startpos().parse_coordinate(&hint[6..]).is_ok(),
        "{hint}"
    );
    engine.send("white");
    engine.send("black");
    engine.send("white");
    engine.send("go");
    let mv = engine.expect_move();
    play_engine_move(&mut Position::startpos(), &mv);
    assert!(engine.quit());
}

#[test]
fn uci_inside_an_xboard_session_gets_an_error_and_the_engine_stays_usable() {
    let mut engine = Engine::started();
    engine.send("uci");
    let (line, _) = engine.expect("error", is_error);
    assert!(
        line.starts_with("Error (this session speaks XBoard"),
        "{line}"
    );
    engine.send("ping 5");
    engine.expect_line("pong 5");
    assert!(engine.quit());
}

#[test]
fn log_file_records_both_directions() {
    let path = std::env::temp_dir().join(format!("betacut-xboard-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut engine = Engine::started();
    engine.send(&format!("option Log File={}", path.display()));
    engine.send("ping 42");
    engine.expect_line("pong 42");
    assert!(engine.quit());
    let log = std::fs::read_to_string(&path).expect("log file written");
    let _ = std::fs::remove_file(&path);
    assert!(log.contains("< ping 42"), "{log}");
    assert!(log.contains("> pong 42"), "{log}");
}

/// The sample session in xboard.md, replayed line by line: `> ` lines are sent, `< ` lines
/// must come back in this order (a trailing `*` matches any rest of line); thinking lines and
/// `#` comments in between are allowed.
#[test]
fn sample_session_in_xboard_md_replays() {
    common::replay_session("xboard.md", |l| is_thinking(l) || l.starts_with('#'));
}

/// Plays the engine's move `text` in a Chess960 game: castling must come as `O-O` / `O-O-O`,
/// every other move in coordinates.
fn play_engine_move_960(pos: &mut Position, text: &str) -> Move {
    let mv = if text == "O-O" || text == "O-O-O" {
        pos.parse_san(text)
            .unwrap_or_else(|e| panic!("engine castling {text} in {}: {e}", pos.to_fen()))
    } else {
        let mv = pos
            .parse_coordinate(text)
            .unwrap_or_else(|e| panic!("engine move {text:?} in {}: {e}", pos.to_fen()));
        assert!(
            !mv.is_castling(),
            "castling {text} must be sent as O-O or O-O-O"
        );
        mv
    };
    assert!(
        pos.legal_moves().contains(mv),
        "{text} legal in {}",
        pos.to_fen()
    );
    pos.make_move(mv);
    mv
}

#[test]
fn chess960_games_use_x_fen_shredder_fen_and_o_o_castling() {
    let mut engine = Engine::started();
    // Normal chess refuses Chess960 castling rights; `variant fischerandom` takes them.
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    engine.send("new");
    engine.send(&format!("setboard {shredder}"));
    let (line, _) = engine.expect("refusal", is_error);
    assert!(line.contains("Chess960"), "{line}");
    for (start, ours) in [
        (
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
            7u64,
        ),
        (
            "qbbnnrkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNNRKR w HFhf - 0 1",
            11,
        ),
        (shredder, 13),
    ] {
        engine.send("new");
        engine.send("variant fischerandom");
        engine.send(&format!("setboard {start}"));
        engine.send("st 0.05");
        engine.send("go");
        let mut pos = position(start);
        pos.set_chess960(true);
        let mut seed = ours;
        let mut castled_by_us = false;
        for _ in 0..30 {
            let mv = engine.expect_move();
            play_engine_move_960(&mut pos, &mv);
            if !pos.has_legal_move() {
                break;
            }
            // Our reply: castling when we can (as O-O / O-O-O, or as king takes rook), else a
            // pseudo-random move.
            let castle = pos.legal_moves().iter().copied().find(|m| m.is_castling());
            let text = match castle {
                Some(c) if !castled_by_us => {
                    castled_by_us = true;
                    if seed % 2 == 0 {
                        pos.clone()
                            .move_to_san(c)
                            .trim_end_matches(['+', '#'])
                            .to_string()
                    } else {
                        pos.move_to_coordinate(c)
                    }
                }
                _ => weak_move(&pos, &mut seed),
            };
            let mv = pos
                .parse_move(&text)
                .unwrap_or_else(|e| panic!("our move {text}: {e}"));
            engine.send(&format!("usermove {text}"));
            pos.make_move(mv);
            if !pos.has_legal_move() {
                break;
            }
        }
        engine.send("force");
        assert!(
            engine.sync().iter().all(|l| !is_error(l)),
            "no errors in the game from {start}"
        );
    }
    // After `new` the variant is normal again.
    engine.send("new");
    engine.send(&format!("setboard {shredder}"));
    let (line, _) = engine.expect("refusal", is_error);
    assert!(line.contains("Chess960"), "{line}");
    assert!(engine.quit());
}

#[test]
fn chess960_hint_and_analysis_write_castling_as_o_o() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("variant fischerandom");
    engine.send("setboard 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    engine.send("force");
    engine.send("post");
    engine.send("analyze");
    engine.send("exclude all");
    engine.send("include O-O");
    let _ = engine.sync();
    let (line, _) = engine.expect("a line starting with O-O", |l| {
        is_thinking(l) && l.split_whitespace().nth(4) == Some("O-O")
    });
    assert!(is_thinking(&line));
    engine.send("hint");
    let (hint, _) = engine.expect("hint", |l| l.starts_with("Hint:"));
    assert_eq!(hint, "Hint: O-O");
    engine.send("exit");
    assert!(engine.quit());
}

#[test]
fn multipv_in_analysis_shows_distinct_legal_lines() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    engine.send("option MultiPV=3");
    engine.send("post");
    engine.send("analyze");
    // Collect lines until depth 6 has shown three of them.
    let mut by_depth: std::collections::BTreeMap<u32, Vec<String>> = Default::default();
    while by_depth.get(&6).map_or(0, Vec::len) < 3 {
        let (line, _) = engine.expect("thinking line", is_thinking);
        check_pv(&Position::startpos(), &line);
        if line.ends_with('?') || line.ends_with('!') {
            continue;
        }
        let depth = line
            .split_whitespace()
            .next()
            .and_then(|d| d.parse::<u32>().ok())
            .unwrap_or(0);
        by_depth.entry(depth).or_default().push(line);
    }
    let firsts: Vec<&str> = by_depth[&6]
        .iter()
        .filter_map(|l| l.split_whitespace().nth(4))
        .collect();
    assert_eq!(firsts.len(), 3);
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    engine.send("exit");
    engine.send("option MultiPV=1");
    engine.send("option Clear Hash");
    assert!(engine.sync().iter().all(|l| !is_error(l)));
    assert!(engine.quit());
}

#[test]
fn a_memory_size_beyond_the_machine_is_reduced_and_play_goes_on() {
    let mut engine = Engine::started();
    engine.send("memory 309979095654");
    let (note, _) = engine.expect("a note on the hash size", |l| l.starts_with('#'));
    assert!(note.contains("does not fit"), "{note}");
    engine.send("new");
    engine.send("st 0.2");
    engine.send("go");
    let mv = engine.expect_move();
    play_engine_move(&mut Position::startpos(), &mv);
    engine.send("memory 16");
    assert!(engine.sync().iter().all(|l| !is_error(l)));
    assert!(engine.quit());
}

#[test]
fn no_hint_in_a_finished_game() {
    let mut engine = Engine::started();
    engine.send("new");
    engine.send("force");
    engine.send("hint");
    let (hint, _) = engine.expect("a hint in the start position", |l| l.starts_with("Hint:"));
    assert!(hint.len() > "Hint: ".len());
    // The start position for the third time: a draw by repetition on the board.
    for mv in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ] {
        engine.send(mv);
    }
    engine.send("hint");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| !l.starts_with("Hint")), "{lines:?}");
    // Mate on the board: no hint either.
    engine.send("setboard rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    engine.send("hint");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| !l.starts_with("Hint")), "{lines:?}");
    assert!(engine.quit());
}

/// PyChess 1.0.3 (`pychess/Players/CECPEngine.py`) as an analyser: it starts with `force`,
/// `setboard`, `post`, `analyze`, and before every new position stops the analysis with `exit`
/// followed by `setboard 8/8/8/8/8/8/8/8 w - - 0 1` (for engines that ignore `exit`). PyChess
/// shows every `tellusererror` as a dialog unless the line holds that empty board's FEN, so the
/// refusal must name it; and the `exit` after analysis ended is no error. The analysis of the
/// next position then goes on as usual.
#[test]
fn pychess_stops_analysis_without_an_error() {
    let mut engine = Engine::started();
    engine.send("post");
    engine.send("force");
    engine.send(&format!("setboard {START_FEN}"));
    engine.send("post");
    engine.send("analyze");
    let (line, _) = engine.expect("thinking line", is_thinking);
    check_pv(&Position::startpos(), &line);
    // The user plays 1. e4 on PyChess's board.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    engine.send("exit");
    engine.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    let lines = engine.sync();
    let refusals: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("tellusererror"))
        .collect();
    assert_eq!(refusals.len(), 1, "{lines:?}");
    // PyChess's own test: `"8/8/8/8/8/8/8/8" in "".join(parts[1:])`.
    let joined: String = refusals[0].split_whitespace().skip(1).collect();
    assert!(joined.contains("8/8/8/8/8/8/8/8"), "{}", refusals[0]);
    assert!(lines.iter().all(|l| !l.starts_with("Error")), "{lines:?}");
    engine.send("force");
    engine.send(&format!("setboard {after_e4}"));
    engine.send("post");
    engine.send("analyze");
    let line = engine.sync_then_expect("thinking line", is_thinking);
    check_pv(&position(after_e4), &line);
    // Analysis ended by `force` (PyChess while analysing), then `exit`: quietly nothing.
    engine.send("force");
    engine.send("exit");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| !l.starts_with("Error")), "{lines:?}");
    engine.send("ping 78");
    let lines = engine.expect_line("pong 78");
    assert!(lines.is_empty(), "output after exit: {lines:?}");
    assert!(engine.quit());
}

/// GNOME Chess 43 drives a CECP engine without `protover`, `level` or `time` and keeps its own
/// clock: the engine must still play, moving on its fixed no-clock time (unit-tested in
/// `timecontrol.rs`), and take moves back.
#[test]
fn a_session_without_protover_or_clock_plays() {
    let mut engine = Engine::start();
    engine.send("xboard");
    let mut pos = Position::startpos();
    play_own_move(&mut engine, &mut pos, "e2e4");
    let reply = engine.expect_move();
    play_engine_move(&mut pos, &reply);
    play_own_move(&mut engine, &mut pos, "d2d4");
    let reply = engine.expect_move();
    play_engine_move(&mut pos, &reply);
    engine.send("remove");
    engine.send("force");
    engine.send("ping 5");
    let lines = engine.expect_line("pong 5");
    assert!(lines.iter().all(|l| !is_error(l)), "{lines:?}");
    assert!(engine.quit());
}
