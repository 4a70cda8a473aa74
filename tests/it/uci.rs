//! Whole-program tests of the UCI front-end: the built `betacut` binary is started and driven
//! over pipes through complete sessions. Every move the engine sends (best moves, ponder moves,
//! every move of every PV) is checked for legality with Betacut's own move generator in a
//! position the test keeps itself.
//!
//! Blocking reads use generous timeouts; no test asserts how long anything took.

use crate::common;

use betacut::board::{Move, Position, START_FEN};
use common::{position, weak_move, Engine};

/// The UCI side of the harness.
trait UciSession {
    /// Starts an engine and completes the `uci` handshake; returns it with the handshake's
    /// lines.
    fn uci() -> (Engine, Vec<String>);
    /// Sends `isready` and returns everything printed before `readyok`.
    fn sync(&mut self) -> Vec<String>;
    /// Waits for `bestmove` and returns it with the lines before it; fails on an error line on
    /// the way.
    fn expect_bestmove(&mut self) -> (String, Vec<String>);
    /// Waits for an `info string error` line.
    fn expect_error(&mut self, about: &str) -> String;
}

impl UciSession for Engine {
    fn uci() -> (Engine, Vec<String>) {
        let mut engine = Engine::start();
        engine.send("uci");
        let lines = engine.expect_line("uciok");
        (engine, lines)
    }

    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.expect_line("readyok")
    }

    fn expect_bestmove(&mut self) -> (String, Vec<String>) {
        let (line, before) = self.expect("bestmove", |l| l.starts_with("bestmove"));
        if let Some(bad) = before.iter().find(|l| is_error(l)) {
            self.fail(&format!("error before the best move: {bad}"));
        }
        (line, before)
    }

    fn expect_error(&mut self, about: &str) -> String {
        self.expect(&format!("an error about {about}"), is_error).0
    }
}

fn is_error(line: &str) -> bool {
    line.starts_with("info string error")
}

/// The fields of an `info` line as (keyword, value) pairs; the `pv` value is the rest.
fn info_fields(line: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut fields = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        match key {
            "pv" => {
                fields.push((key.to_string(), words[i + 1..].join(" ")));
                break;
            }
            "score" => {
                let mut value = format!("{} {}", words[i + 1], words[i + 2]);
                i += 3;
                if let Some(&bound @ ("lowerbound" | "upperbound")) = words.get(i) {
                    value.push(' ');
                    value.push_str(bound);
                    i += 1;
                }
                fields.push((key.to_string(), value));
            }
            _ => {
                fields.push((key.to_string(), words.get(i + 1).unwrap_or(&"").to_string()));
                i += 2;
            }
        }
    }
    fields
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Plays `moves` (UCI notation) from `pos`, each checked to be legal and written the way the
/// engine must write it there; returns the moves.
fn play_line(pos: &Position, moves: &str) -> Vec<Move> {
    let mut p = pos.clone();
    let mut line = Vec::new();
    for text in moves.split_whitespace() {
        let mv = p
            .parse_coordinate(text)
            .unwrap_or_else(|e| panic!("move {text:?} in {}: {e}", p.to_fen()));
        assert!(
            p.legal_moves().contains(mv),
            "{text} legal in {}",
            p.to_fen()
        );
        assert_eq!(
            p.move_to_coordinate(mv),
            text,
            "UCI notation in {}",
            p.to_fen()
        );
        p.make_move(mv);
        line.push(mv);
    }
    line
}

/// Checks a `bestmove` line against `pos`: a legal best move, and a ponder move legal after
/// it. Returns the best move.
fn check_bestmove(pos: &Position, line: &str) -> Move {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert!(
        matches!(words.len(), 2 | 4) && words[0] == "bestmove",
        "{line}"
    );
    if words.len() == 4 {
        assert_eq!(words[2], "ponder", "{line}");
    }
    let moves = words[1..]
        .iter()
        .filter(|w| **w != "ponder")
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    play_line(pos, &moves)[0]
}

/// Checks every `info` line with a PV: all fields present, numbers sane, PV legal from `pos`.
fn check_infos(pos: &Position, lines: &[String]) -> usize {
    let mut checked = 0;
    for line in lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" pv "))
    {
        let fields = info_fields(line);
        for key in [
            "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "tbhits", "time",
            "pv",
        ] {
            assert!(field(&fields, key).is_some(), "{key} missing in {line}");
        }
        for key in [
            "depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits", "time",
        ] {
            let value = field(&fields, key).unwrap_or("");
            assert!(value.parse::<u64>().is_ok(), "{key} {value:?} in {line}");
        }
        let score = field(&fields, "score").unwrap_or("");
        assert!(
            score.starts_with("cp ") || score.starts_with("mate "),
            "{score} in {line}"
        );
        play_line(pos, field(&fields, "pv").unwrap_or(""));
        checked += 1;
    }
    checked
}

#[test]
fn handshake_lists_identity_and_every_option() {
    let (mut engine, lines) = Engine::uci();
    assert!(lines[0].starts_with("id name Betacut "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "option name Hash type spin default 16 min 1 max 1048576",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name UCI_Chess960 type check default false",
        "option name Move Overhead type spin default 50 min 0 max 5000",
        "option name Clear Hash type button",
        "option name Log File type string default <empty>",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option} in {lines:?}");
    }
    assert!(engine.sync().is_empty());
    // Accepted quietly: debug, register, options set to their own values, a new game.
    for line in [
        "debug on",
        "debug off",
        "register later",
        "register name Someone code 1234",
        "setoption name Hash value 16",
        "setoption name Threads value 1",
        "setoption name Ponder value false",
        "setoption name MultiPV value 1",
        "setoption name UCI_Chess960 value false",
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
        "ucinewgame",
        "",
    ] {
        engine.send(line);
    }
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert!(engine.quit());
}

#[test]
fn go_depth_reports_complete_info_lines_and_a_legal_best_move() {
    let (mut engine, _) = Engine::uci();
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    engine.send("go depth 8");
    let (best, infos) = engine.expect_bestmove();
    let mut pos = position(START_FEN);
    for mv in play_line(&pos, "e2e4 e7e5 g1f3") {
        pos.make_move(mv);
    }
    assert!(
        check_infos(&pos, &infos) >= 8,
        "one line per depth at least: {infos:?}"
    );
    let last = infos.iter().rev().find(|l| l.contains(" pv ")).cloned();
    let last = info_fields(&last.unwrap_or_default());
    assert_eq!(field(&last, "depth"), Some("8"));
    check_bestmove(&pos, &best);
    assert!(engine.quit());
}

#[test]
fn every_kind_of_limit_ends_with_a_legal_best_move() {
    let (mut engine, _) = Engine::uci();
    let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    engine.send(&format!("position fen {}", pos.to_fen()));
    for go in [
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 3000 btime 100 movestogo 10",
        "go wtime 0 btime 0",
        "go wtime -100 btime 5000 winc 50 binc 50",
        "go movetime 150",
        "go nodes 20000",
        "go depth 1",
        "go depth 5 nodes 100000 movetime 5000",
    ] {
        engine.send(go);
        let (best, infos) = engine.expect_bestmove();
        check_infos(&pos, &infos);
        check_bestmove(&pos, &best);
    }
    assert!(engine.quit());
}

#[test]
fn isready_and_stop_during_an_infinite_search() {
    let (mut engine, _) = Engine::uci();
    engine.send("position startpos moves d2d4");
    engine.send("go infinite");
    // Answered at once although a search runs; no best move before `stop`.
    for _ in 0..3 {
        let before = engine.sync();
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "{before:?}"
        );
    }
    let _ = engine.expect("an info line", |l| l.starts_with("info depth"));
    engine.send("stop");
    let (best, infos) = engine.expect_bestmove();
    let mut pos = Position::startpos();
    pos.make_move(play_line(&pos, "d2d4")[0]);
    check_infos(&pos, &infos);
    check_bestmove(&pos, &best);
    // A second `stop` without a search does nothing.
    engine.send("stop");
    assert!(engine.sync().is_empty());
    // A bare `go` is infinite too.
    engine.send("go");
    assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
    engine.send("stop");
    check_bestmove(&pos, &engine.expect_bestmove().0);
    assert!(engine.quit());
}

#[test]
fn an_infinite_search_that_runs_out_of_depth_still_waits_for_stop() {
    let (mut engine, _) = Engine::uci();
    // Mate in one: the search reaches its depth limit at once.
    engine.send("position fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1");
    engine.send("go infinite depth 3");
    let (line, _) = engine.expect("mate score", |l| l.contains("score mate 1"));
    assert!(line.contains("pv a1a8"), "{line}");
    assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
    engine.send("stop");
    assert_eq!(engine.expect_bestmove().0, "bestmove a1a8");
    assert!(engine.quit());
}

#[test]
fn ponder_hit_and_ponder_miss() {
    let (mut engine, _) = Engine::uci();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4");
    engine.send("go wtime 5000 btime 5000 winc 50 binc 50");
    let (best, _) = engine.expect_bestmove();
    let words: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(words.len(), 4, "a ponder move is offered: {best}");
    let (reply, expected) = (words[1], words[3]);
    // Ponder on the expected move: no best move until the hit, however long it takes.
    engine.send(&format!("position startpos moves e2e4 {reply} {expected}"));
    engine.send("go ponder wtime 5000 btime 5000 winc 50 binc 50");
    let _ = engine.expect("ponder output", |l| l.starts_with("info depth"));
    assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
    engine.send("ponderhit");
    let (best, _) = engine.expect_bestmove();
    let mut pos = Position::startpos();
    for mv in play_line(&pos, &format!("e2e4 {reply} {expected}")) {
        pos.make_move(mv);
    }
    check_bestmove(&pos, &best);
    // A miss: ponder on the new expected reply, the opponent plays another move; the GUI
    // stops the ponder search (its best move is ignored) and starts a normal one.
    let words: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(words.len(), 4, "a ponder move is offered: {best}");
    let (played, next_expected) = (words[1], words[3]);
    let game = format!("e2e4 {reply} {expected} {played}");
    engine.send(&format!("position startpos moves {game} {next_expected}"));
    engine.send("go ponder wtime 5000 btime 5000");
    assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
    engine.send("stop");
    let _ = engine.expect_bestmove();
    let mut pos = Position::startpos();
    for mv in play_line(&pos, &game) {
        pos.make_move(mv);
    }
    let mut seed = 7;
    let mut other = weak_move(&pos, &mut seed);
    while other == next_expected && pos.legal_moves().len() > 1 {
        other = weak_move(&pos, &mut seed);
    }
    pos.make_move(play_line(&pos, &other)[0]);
    engine.send(&format!("position startpos moves {game} {other}"));
    engine.send("go wtime 5000 btime 5000");
    check_bestmove(&pos, &engine.expect_bestmove().0);
    assert!(engine.quit());
}

#[test]
fn multipv_shows_distinct_legal_lines_in_order() {
    let (mut engine, _) = Engine::uci();
    engine.send("setoption name MultiPV value 3");
    engine
        .send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    engine.send("go depth 7");
    let (best, infos) = engine.expect_bestmove();
    let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    check_infos(&pos, &infos);
    let final_lines: Vec<Vec<(String, String)>> = infos
        .iter()
        .map(|l| info_fields(l))
        .filter(|f| {
            field(f, "depth") == Some("7") && !field(f, "score").unwrap_or("").contains("bound")
        })
        .collect();
    let numbers: Vec<&str> = final_lines
        .iter()
        .filter_map(|f| field(f, "multipv"))
        .collect();
    assert_eq!(numbers, vec!["1", "2", "3"], "{infos:?}");
    let firsts: Vec<&str> = final_lines
        .iter()
        .filter_map(|f| field(f, "pv").and_then(|pv| pv.split_whitespace().next()))
        .collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(
        best.split_whitespace().nth(1),
        Some(firsts[0]),
        "the best line is played"
    );
    // Back to one line.
    engine.send("setoption name MultiPV value 1");
    engine.send("go depth 5");
    let (_, infos) = engine.expect_bestmove();
    assert!(infos.iter().all(|l| !l.contains("multipv 2")));
    assert!(engine.quit());
}

#[test]
fn searchmoves_and_mate_limit_the_search() {
    let (mut engine, _) = Engine::uci();
    engine.send("position startpos");
    engine.send("go depth 6 searchmoves a2a3 h2h4");
    let (best, _) = engine.expect_bestmove();
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(mv == "a2a3" || mv == "h2h4", "{best}");
    // Mate in two; `go mate 2` ends by itself once it is found.
    engine.send("position fen 7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
    engine.send("go mate 2");
    let (best, infos) = engine.expect_bestmove();
    assert!(
        infos.iter().any(|l| l.contains("score mate 2")),
        "{infos:?}"
    );
    let pos = position("7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
    check_bestmove(&pos, &best);
    assert!(engine.quit());
}

#[test]
fn chess960_castling_is_king_takes_rook_and_standard_castling_is_the_king_move() {
    let (mut engine, _) = Engine::uci();
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    // Standard chess: castling is e1g1 / e1c1, in and out.
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 3 searchmoves e1g1");
    assert!(engine.expect_bestmove().0.starts_with("bestmove e1g1"));
    engine.send(&format!("position fen {fen} moves e1c1 e8g8"));
    engine.send("go depth 3");
    let mut pos = position(fen);
    for mv in play_line(&pos, "e1c1 e8g8") {
        pos.make_move(mv);
    }
    check_bestmove(&pos, &engine.expect_bestmove().0);
    // Chess960: the same castling is written as the king taking its rook.
    engine.send("setoption name UCI_Chess960 value true");
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 3 searchmoves e1h1");
    assert!(engine.expect_bestmove().0.starts_with("bestmove e1h1"));
    engine.send(&format!("position fen {fen} moves e1g1"));
    engine.expect_error("e1g1 is no castling in Chess960");
    engine.send(&format!("position fen {fen} moves e1a1 e8h8"));
    engine.send("go depth 3");
    let mut pos = position(fen);
    pos.set_chess960(true);
    for mv in play_line(&pos, "e1a1 e8h8") {
        pos.make_move(mv);
    }
    check_bestmove(&pos, &engine.expect_bestmove().0);
    // A Chess960 start position (Shredder-FEN), then a few moves of self-play.
    let start = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let mut pos = position(start);
    pos.set_chess960(true);
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        if !pos.has_legal_move() {
            break;
        }
        engine.send(&format!("position fen {start} moves {}", moves.join(" ")));
        engine.send("go depth 4");
        let (best, infos) = engine.expect_bestmove();
        check_infos(&pos, &infos);
        let mv = check_bestmove(&pos, &best);
        moves.push(pos.move_to_coordinate(mv));
        pos.make_move(mv);
    }
    assert!(engine.quit());
}

#[test]
fn bad_input_gets_an_error_and_changes_nothing() {
    let (mut engine, _) = Engine::uci();
    engine.send("position startpos moves e2e4");
    for bad in [
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999999999999999",
        "setoption name Threads value -1",
        "setoption name Ponder value maybe",
        "setoption name MultiPV value 1000",
        "setoption name Nonsense value 3",
        "setoption name",
        "setoption value 3",
        "debug sometimes",
        "bench deep",
        "frobnicate 1 2",
        "\u{1}\u{7f}}{ ~~",
    ] {
        engine.send(bad);
        let line = engine.expect_error(bad);
        assert!(line.ends_with(bad.trim()), "{line} names the input {bad}");
        assert!(engine.sync().is_empty(), "one reply to {bad}");
    }
    // The position is still the one after 1. e4, the engine still searches.
    engine.send("go depth 4");
    let mut pos = Position::startpos();
    pos.make_move(play_line(&pos, "e2e4")[0]);
    check_bestmove(&pos, &engine.expect_bestmove().0);
    assert!(engine.quit());
}

/// The position after `moves` (UCI notation) from the start position.
fn after(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for mv in play_line(&pos, moves) {
        pos.make_move(mv);
    }
    pos
}

#[test]
fn a_bad_move_in_position_sets_up_the_position_before_it() {
    let (mut engine, _) = Engine::uci();
    // `0000` (a null move) is no legal move: the position after 1. e4 is searched, for Black.
    // (Betacut ff239ac kept the previous position and answered a White move.)
    for (line, played, error) in [
        ("position startpos moves e2e4 0000", "e2e4", "move 2 (0000)"),
        (
            "position startpos moves e2e4 e7e5 e1e3 g8f6",
            "e2e4 e7e5",
            "move 3 (e1e3)",
        ),
        ("position startpos moves zz e2e4", "", "move 1 (zz)"),
    ] {
        engine.send("position startpos moves d2d4 d7d5 c2c4");
        engine.send(line);
        let reported = engine.expect_error(line);
        assert!(reported.contains(error), "{reported}");
        assert!(
            reported.contains("the position before it is used"),
            "{reported}"
        );
        engine.send("go depth 3");
        check_bestmove(&after(played), &engine.expect_bestmove().0);
    }
    assert!(engine.quit());
}

#[test]
fn a_position_that_describes_none_leaves_no_position_to_search() {
    let (mut engine, _) = Engine::uci();
    for bad in [
        "position fen this is not a fen",
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
        "position",
        "position moves e2e4",
    ] {
        engine.send("position startpos moves e2e4");
        engine.send(bad);
        engine.expect_error(bad);
        // Never a move of the previous position: no position, no move.
        engine.send("go depth 3");
        let error = engine.expect_error("go without a position");
        assert!(error.contains("no position to search"), "{error}");
        assert_eq!(engine.expect_bestmove().0, "bestmove (none)", "after {bad}");
        // Nor do the developer commands show the position before the bad one.
        for command in ["d", "eval", "go perft 1"] {
            engine.send(command);
            let error = engine.expect_error(command);
            assert!(
                error.contains("no position"),
                "{command} after {bad}: {error}"
            );
        }
    }
    // A good position brings the engine back.
    engine.send("position startpos moves g1f3");
    engine.send("go depth 3");
    check_bestmove(&after("g1f3"), &engine.expect_bestmove().0);
    engine.send("position fen this is not a fen");
    engine.expect_error("a bad FEN");
    engine.send("ucinewgame");
    engine.send("go depth 2");
    check_bestmove(&Position::startpos(), &engine.expect_bestmove().0);
    assert!(engine.quit());
}

#[test]
fn go_leaves_out_what_it_cannot_use_and_still_searches() {
    let (mut engine, _) = Engine::uci();
    let pos = after("e2e4");
    engine.send("position startpos moves e2e4");
    // Each ends by a limit it still has (Betacut ff239ac refused them all: no search, no
    // best move, and a GUI that sent a clock waited for ever).
    for (line, errors) in [
        ("go wtime 1000 btime 1000 foo", 1),
        ("go sideways depth 2", 1),
        ("go movetime 1e3 depth 3", 1),
        ("go searchmoves e2e5 e7e5 depth 3", 1),
        ("go depth movetime 100", 1),
        ("go nodes -5 depth 2 winc", 2),
    ] {
        engine.send(line);
        for _ in 0..errors {
            let error = engine.expect_error(line);
            assert!(error.contains("ignored"), "{error}");
        }
        let best = check_bestmove(&pos, &engine.expect_bestmove().0);
        if line.contains("searchmoves") {
            assert_eq!(pos.move_to_coordinate(best), "e7e5", "{line}");
        }
    }
    // What is left without a limit is a bare `go`: infinite, ended by `stop`.
    for line in ["go depth many", "go wtime", "go sideways"] {
        engine.send(line);
        engine.expect_error(line);
        assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
        engine.send("stop");
        check_bestmove(&pos, &engine.expect_bestmove().0);
    }
    assert!(engine.quit());
}

#[test]
fn a_clock_for_the_other_side_only_is_a_minimal_think() {
    let (mut engine, _) = Engine::uci();
    // White to move with only Black's clock, or with none left: a timed game all the same
    // (Betacut ff239ac searched for ever after `go btime 1000`).
    for (moves, go) in [
        ("", "go btime 1000"),
        ("", "go wtime 0 btime 5000 winc 0"),
        ("e2e4", "go wtime 5000"),
        ("e2e4", "go wtime 5000 btime -20"),
    ] {
        engine.send(&format!("position startpos moves {moves}"));
        engine.send(go);
        check_bestmove(&after(moves), &engine.expect_bestmove().0);
    }
    assert!(engine.quit());
}

#[test]
fn a_position_without_legal_moves_reports_its_result_and_waits_when_told_to() {
    let (mut engine, _) = Engine::uci();
    // Black is mated (queen g7 guarded by the king); then stalemated.
    let mated = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    for (fen, score) in [(mated, "score mate 0"), (stalemate, "score cp 0")] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 5");
        let (best, infos) = engine.expect_bestmove();
        assert_eq!(best, "bestmove (none)");
        assert!(
            infos
                .iter()
                .any(|l| l.starts_with("info depth 0 ") && l.contains(score)),
            "{infos:?}"
        );
        // Under `infinite` and `ponder` the best move waits for `stop` / `ponderhit`
        // (Betacut ff239ac printed `bestmove (none)` at once).
        engine.send("go infinite");
        let (line, _) = engine.expect("the result line", |l| l.starts_with("info depth 0"));
        assert!(line.contains(score), "{line}");
        assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
        engine.send("stop");
        assert_eq!(engine.expect_bestmove().0, "bestmove (none)");
        engine.send("go ponder wtime 1000 btime 1000");
        assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
        engine.send("ponderhit");
        assert_eq!(engine.expect_bestmove().0, "bestmove (none)");
    }
    assert!(engine.quit());
}

/// The node count of the `info nodes N time T nps R` line printed before a `bestmove`.
fn final_nodes(infos: &[String]) -> u64 {
    let line = infos
        .iter()
        .rev()
        .find(|l| l.starts_with("info nodes "))
        .unwrap_or_else(|| panic!("a final node count: {infos:?}"));
    field(&info_fields(line), "nodes")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

#[test]
fn the_node_limit_counts_the_nodes_of_every_thread() {
    let (mut engine, _) = Engine::uci();
    engine.send("setoption name Threads value 2");
    engine.send("position startpos");
    // Betacut ff239ac counted the main thread's nodes alone: about twice the budget.
    for budget in [20_000u64, 100_000] {
        engine.send(&format!("go nodes {budget}"));
        let (best, infos) = engine.expect_bestmove();
        check_bestmove(&Position::startpos(), &best);
        let nodes = final_nodes(&infos);
        // The count is looked at every 1024 or 2048 nodes of each thread.
        assert!(
            nodes >= budget && nodes <= budget + 2 * 2048,
            "{nodes} nodes for a budget of {budget}"
        );
    }
    assert!(engine.quit());
}

#[test]
fn show_wdl_adds_win_draw_and_loss_chances_to_every_score() {
    let (mut engine, _) = Engine::uci();
    engine.send("position startpos");
    engine.send("go depth 3");
    let (_, infos) = engine.expect_bestmove();
    assert!(infos.iter().all(|l| !l.contains(" wdl ")), "off by default");
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("go depth 5");
    let (_, infos) = engine.expect_bestmove();
    let lines: Vec<&String> = infos
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!lines.is_empty());
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|&w| w == "wdl")
            .unwrap_or_else(|| panic!("no wdl in {line}"));
        let chances: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap_or_else(|_| panic!("{line}")))
            .collect();
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
    }
    // Mated: certainly lost; king and queen against king: won in at least 95 % of games.
    engine.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    engine.send("go depth 3");
    let (_, infos) = engine.expect_bestmove();
    assert!(
        infos
            .iter()
            .any(|l| l.contains("score mate 0 wdl 0 0 1000")),
        "{infos:?}"
    );
    engine.send("position fen 8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    engine.send("go depth 6");
    let (_, infos) = engine.expect_bestmove();
    let last = infos
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned();
    let last = last.unwrap_or_default();
    let win: u32 = last
        .split(" wdl ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|w| w.parse().ok())
        .unwrap_or(0);
    assert!(win >= 950, "{last}");
    assert!(engine.quit());
}

#[test]
fn developer_commands_show_the_board_the_evaluation_perft_and_bench() {
    let (mut engine, handshake) = Engine::uci();
    assert!(
        handshake
            .iter()
            .any(|l| l.starts_with("info string evaluation: built-in network (768x2 -> ")),
        "{handshake:?}"
    );
    engine.send("position startpos moves e2e4");
    engine.send("d");
    let lines = engine.sync();
    assert!(
        lines.contains(&" | r | n | b | q | k | b | n | r | 8".to_string()),
        "{lines:?}"
    );
    assert!(lines
        .contains(&"Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".to_string()));
    // The Polyglot key of this position, from the Polyglot specification.
    assert!(
        lines.contains(&"Key: 823C9B50FD114196".to_string()),
        "{lines:?}"
    );
    engine.send("eval");
    let lines = engine.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("Network evaluation: ")),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Hand-crafted evaluation: ")));
    assert!(
        lines.iter().any(|l| l.starts_with("psqt pawn ")),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"Evaluation in use: built-in network (768x2 -> 384 -> 1, 8 output buckets)"
                .to_string()
        ),
        "{lines:?}"
    );
    // At a playing level the engine's moves are searched with the hand-crafted evaluation,
    // and `eval` says so (298e6e1 said the network was used).
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 1200");
    engine.send("eval");
    let lines = engine.sync();
    assert!(
        lines.iter().any(|l| l.starts_with(
            "Evaluation in use: hand-crafted for the engine's moves at the playing level (UCI_Elo 1200); built-in network"
        )),
        "{lines:?}"
    );
    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("go perft 3");
    let lines = engine.sync();
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 13160")
    );
    assert!(lines.contains(&"e7e5: 835".to_string()), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);
    engine.send("bench 3");
    let (line, _) = engine.expect("the bench result", |l| l.ends_with(" nps"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert!(words.len() == 4 && words[0].parse::<u64>().is_ok() && words[1] == "nodes");
    // Not while a search runs.
    engine.send("go infinite");
    engine.send("d");
    engine.expect_error("d during a search");
    engine.send("stop");
    engine.expect_bestmove();
    assert!(engine.quit());
}

#[test]
fn a_hash_larger_than_the_machine_is_reduced_and_said_so() {
    let (mut engine, _) = Engine::uci();
    engine.send("setoption name Hash value 1048576");
    let (line, _) = engine.expect("the smaller hash", |l| l.starts_with("info string"));
    assert!(
        line.starts_with("info string Hash 1048576 MB does not fit"),
        "{line}"
    );
    assert!(engine.sync().is_empty());
    engine.send("ucinewgame");
    engine.send("position startpos");
    engine.send("go depth 5");
    check_bestmove(&Position::startpos(), &engine.expect_bestmove().0);
    engine.send("setoption name Hash value 8");
    assert!(engine.sync().is_empty());
    assert!(engine.quit());
}

#[test]
fn new_position_or_go_during_a_search_finishes_it_first() {
    let (mut engine, _) = Engine::uci();
    engine.send("position startpos");
    engine.send("go infinite");
    let _ = engine.expect("info", |l| l.starts_with("info depth"));
    // Another `go`: the running search ends with its best move, the new one starts.
    engine.send("go depth 3");
    check_bestmove(&Position::startpos(), &engine.expect_bestmove().0);
    check_bestmove(&Position::startpos(), &engine.expect_bestmove().0);
    engine.send("go infinite");
    engine.send("position startpos moves g1f3");
    check_bestmove(&Position::startpos(), &engine.expect_bestmove().0);
    engine.send("go infinite");
    engine.send("ucinewgame");
    let mut pos = Position::startpos();
    pos.make_move(play_line(&pos, "g1f3")[0]);
    check_bestmove(&pos, &engine.expect_bestmove().0);
    assert!(engine.sync().is_empty());
    assert!(engine.quit());
}

#[test]
fn quit_during_a_search_and_the_end_of_input_both_exit() {
    let (mut engine, _) = Engine::uci();
    engine.send("go infinite");
    let _ = engine.expect("info", |l| l.starts_with("info depth"));
    assert!(engine.quit());
    let (mut engine, _) = Engine::uci();
    engine.send("go infinite");
    let _ = engine.expect("info", |l| l.starts_with("info depth"));
    engine.close_input();
    assert!(engine.wait_exit());
}

#[test]
fn current_move_lines_come_after_the_first_second() {
    let (mut engine, _) = Engine::uci();
    engine.send("position startpos");
    engine.send("go movetime 2500");
    let (best, infos) = engine.expect_bestmove();
    check_bestmove(&Position::startpos(), &best);
    let current: Vec<&String> = infos.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "a 2.5 s search reports its root moves");
    for line in current {
        let fields = info_fields(line);
        let mv = field(&fields, "currmove").unwrap_or("");
        play_line(&Position::startpos(), mv);
        assert!(field(&fields, "currmovenumber").is_some_and(|n| n.parse::<u32>().is_ok()));
    }
    assert!(engine.quit());
}

#[test]
fn log_file_records_both_directions() {
    let path = std::env::temp_dir().join(format!("betacut-uci-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let (mut engine, _) = Engine::uci();
    engine.send(&format!("setoption name Log File value {}", path.display()));
    assert!(engine.sync().is_empty());
    assert!(engine.quit());
    let log = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    assert!(log.contains("< isready"), "{log}");
    assert!(log.contains("> readyok"), "{log}");
}

#[test]
fn the_protocol_is_chosen_by_the_first_command() {
    // `xboard` first: an XBoard session (the XBoard tests cover it); `uci` first: UCI.
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    engine.expect_line("feature done=1");
    assert!(engine.quit());
    let (mut engine, lines) = Engine::uci();
    assert!(lines.iter().any(|l| l.starts_with("id name")));
    engine.send("xboard");
    engine.expect_error("xboard inside a UCI session");
    assert!(engine.quit());
}

/// Scid's game window sends `setoption` before `uci` when the engine has printed nothing for
/// five seconds: a command only UCI has starts a UCI session, and the option it sets holds.
#[test]
fn a_uci_only_first_command_starts_uci() {
    for first in [
        "setoption name MultiPV value 2",
        "isready",
        "ucinewgame",
        "position startpos",
    ] {
        let mut engine = Engine::start();
        engine.send(first);
        engine.send("uci");
        engine.expect_line("uciok");
        engine.send("isready");
        engine.expect_line("readyok");
        assert!(engine.quit(), "{first}");
    }
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 2");
    engine.send("uci");
    engine.expect_line("uciok");
    engine.send("position startpos");
    engine.send("go depth 3");
    let (_, infos) = engine.expect_bestmove();
    assert!(
        infos.iter().any(|l| l.contains(" multipv 2 ")),
        "the option set before `uci` holds: {infos:?}"
    );
    assert!(engine.quit());
}

/// The sample session in uci.md, replayed line by line: `> ` lines are sent, `< ` lines must
/// come back in this order (a trailing `*` matches any rest of line); `info` lines of the
/// searches in between are allowed.
#[test]
fn sample_session_in_uci_md_replays() {
    common::replay_session("uci.md", |l| {
        l.starts_with("info depth") || l.starts_with("info nodes")
    });
}

#[test]
fn a_playing_level_searches_a_node_budget_and_picks_among_good_moves() {
    let (mut engine, lines) = Engine::uci();
    assert!(lines
        .iter()
        .any(|l| l == "option name UCI_LimitStrength type check default false"));
    assert!(lines
        .iter()
        .any(|l| l == "option name UCI_Elo type spin default 1500 min 800 max 2800"));
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 800");
    engine.send("setoption name UCI_Elo value 5000");
    engine.expect_error("an Elo out of range");
    let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    engine.send(&format!("position fen {}", pos.to_fen()));
    // The lowest level searches about 1,900 nodes (the first iteration always completes), looks
    // at four lines, and plays a legal move, whatever depth is asked for.
    engine.send("go depth 20");
    let (best, infos) = engine.expect_bestmove();
    check_infos(&pos, &infos);
    check_bestmove(&pos, &best);
    let most_nodes = infos
        .iter()
        .filter_map(|l| field(&info_fields(l), "nodes").and_then(|n| n.parse::<u64>().ok()))
        .max()
        .unwrap_or(0);
    assert!(most_nodes < 5_000, "a node budget: {most_nodes} nodes");
    assert!(
        infos.iter().any(|l| l.contains(" multipv 4 ")),
        "four lines"
    );
    // A stronger level searches more; full strength again without the limit.
    engine.send("setoption name UCI_Elo value 2400");
    engine.send("go wtime 20000 btime 20000");
    let (best, infos) = engine.expect_bestmove();
    check_bestmove(&pos, &best);
    let nodes = |infos: &[String]| {
        infos
            .iter()
            .filter_map(|l| field(&info_fields(l), "nodes").and_then(|n| n.parse::<u64>().ok()))
            .max()
            .unwrap_or(0)
    };
    assert!(nodes(&infos) > most_nodes);
    assert!(
        nodes(&infos) < 300_000,
        "the 2400 level's budget (about 170,000 nodes)"
    );
    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("go depth 6");
    let (best, infos) = engine.expect_bestmove();
    check_bestmove(&pos, &best);
    assert!(infos.iter().all(|l| !l.contains(" multipv 2 ")));
    assert!(engine.quit());
}
