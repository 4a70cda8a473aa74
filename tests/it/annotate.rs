//! `betacut annotate` on real games, run as the built binary with a node budget (one thread,
//! so every run gives the same output): blunders get `??` and the refutation, book moves are
//! not judged, a tablebase win thrown away is a blunder whatever the search says, a corrupt
//! file gets its errors and its good games, and the output reads back as PGN with every move
//! and every annotation of the input. Data: `tests/data/annotate/` (README there).

use betacut::book::pgn::split_games;
use betacut::book::Book;
use betacut::tools::annotate::eval::{parse_eval, Eval};
use betacut::tools::annotate::game::{build, Game};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Nodes per position: enough to see a mate in one or a hanging queen, cheap enough for CI.
const NODES: &str = "30000";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A scratch path for this test process.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("betacut-annotate-{}-{name}", std::process::id()))
}

fn annotate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_betacut"))
        .arg("annotate")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut annotate: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Annotates a file of `tests/data/annotate` with `extra` options; returns stdout, after
/// checking that the run succeeded.
fn annotated(name: &str, extra: &[&str]) -> String {
    let input = data(&format!("annotate/{name}"));
    let mut args = vec![input.to_str().unwrap_or_default(), "--nodes", NODES];
    args.extend_from_slice(extra);
    let out = annotate(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Reads PGN text back into games, failing on any game that does not read.
fn read_back(pgn: &str) -> Vec<Game> {
    split_games(pgn)
        .iter()
        .enumerate()
        .map(|(i, raw)| build(raw, i + 1).unwrap_or_else(|e| panic!("game {}: {e}\n{pgn}", i + 1)))
        .collect()
}

fn sans(game: &Game) -> Vec<&str> {
    game.main.nodes.iter().map(|n| n.san.as_str()).collect()
}

/// The main-line move `san` (the first with that SAN) of `game`.
fn node<'a>(game: &'a Game, san: &str) -> &'a betacut::tools::annotate::game::Node {
    game.main
        .nodes
        .iter()
        .find(|n| n.san == san)
        .unwrap_or_else(|| panic!("no move {san} in {:?}", sans(game)))
}

fn tag<'a>(game: &'a Game, name: &str) -> &'a str {
    game.tag(name)
        .unwrap_or_else(|| panic!("no tag {name} in {:?}", game.tags))
}

#[test]
fn a_missed_mate_and_a_hanging_queen_are_blunders_with_the_refutation() {
    // 3...Nf6 allows Qxf7#; 4.Nc3 misses that mate and leaves the queen to Nf6; 4...d6 leaves
    // the queen where it stands and allows the mate.
    let pgn = annotated("blunders.pgn", &[]);
    let games = read_back(&pgn);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(
        sans(game),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Nc3", "d6", "Qxf7#"]
    );
    for san in ["Nf6", "Nc3", "d6"] {
        assert!(
            node(game, san).nags.contains(&4),
            "{san} is not $4 in\n{pgn}"
        );
    }
    let first_move = |san: &str| {
        node(game, san)
            .variations
            .last()
            .map(|v| v.nodes[0].san.clone())
    };
    assert_eq!(first_move("Nc3").as_deref(), Some("Qxf7#"), "{pgn}");
    assert_eq!(first_move("d6").as_deref(), Some("Nxh5"), "{pgn}");
    // The refutation carries its evaluation: White mates in one after 4.Qxf7#'s position.
    let mate = &node(game, "Nc3").variations[0].nodes[0];
    assert_eq!(
        mate.comments.first().and_then(|c| parse_eval(c)),
        Some(Eval::Mate(1))
    );
    // After 4...d6 White mates in one; after 4.Nc3 Black is a queen up.
    assert_eq!(eval_of(node(game, "d6")), Some(Eval::Mate(1)));
    assert!(matches!(eval_of(node(game, "Nc3")), Some(Eval::Centipawns(cp)) if cp < -500));
    // The mate itself gets no evaluation: the game is over.
    assert_eq!(eval_of(node(game, "Qxf7#")), None);
    assert_eq!(
        tag(game, "Annotator"),
        format!("Betacut {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(tag(game, "BlackBlunders"), "2");
    assert_eq!(tag(game, "WhiteBlunders"), "1");
    let white_acpl: u32 = tag(game, "WhiteACPL").parse().unwrap_or(0);
    let black_acpl: u32 = tag(game, "BlackACPL").parse().unwrap_or(0);
    assert!(
        black_acpl > white_acpl && white_acpl > 100,
        "{white_acpl} {black_acpl}"
    );
    let accuracy: f64 = tag(game, "WhiteAccuracy").parse().unwrap_or(-1.0);
    assert!((0.0..100.0).contains(&accuracy), "{accuracy}");
    assert!(pgn.contains("Black: ACPL"), "no closing summary in\n{pgn}");
}

fn eval_of(node: &betacut::tools::annotate::game::Node) -> Option<Eval> {
    node.comments.iter().find_map(|c| parse_eval(c))
}

#[test]
fn a_forced_reply_is_searched_past_so_a_timed_run_sees_the_mate_behind_it() {
    // The Opera Game's finish: 16.Qb8+ Nxb8 (Black's only move) 17.Rd8#. A timed search of
    // the position after 16.Qb8+ stops after one iteration (one legal move), which sees a
    // queen won, not the mate; annotate values it by the search after 16...Nxb8 instead.
    let input = data("annotate/forced.pgn");
    let out = annotate(&[
        input.to_str().unwrap_or_default(),
        "--movetime",
        "100",
        "--threads",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let pgn = text(&out.stdout);
    let game = &read_back(&pgn)[0];
    let sacrifice = node(game, "Qb8+");
    assert_eq!(eval_of(sacrifice), Some(Eval::Mate(1)), "{pgn}");
    assert!(
        !sacrifice.nags.iter().any(|n| [2, 4, 6].contains(n)),
        "{pgn}"
    );
    assert_eq!(eval_of(node(game, "Nxb8")), Some(Eval::Mate(1)), "{pgn}");
}

#[test]
fn a_node_budget_gives_the_same_output_every_time() {
    let first = annotated("blunders.pgn", &["--threads", "2"]);
    let second = annotated("blunders.pgn", &[]);
    assert_eq!(first, second);
}

#[test]
fn book_moves_are_marked_and_not_judged() {
    let book_path = data("books/performance.bin");
    let pgn = annotated(
        "book.pgn",
        &["--book", book_path.to_str().unwrap_or_default()],
    );
    let games = read_back(&pgn);
    let game = &games[0];
    // Which moves the book holds, by Betacut's reader: the leading run of them.
    let mut book = Book::open(&book_path).unwrap_or_else(|e| panic!("{e}"));
    let mut pos = game.start.clone();
    let mut in_book = true;
    let mut book_moves = 0;
    for n in &game.main.nodes {
        in_book &= book
            .moves(&pos)
            .unwrap_or_else(|e| panic!("{e}"))
            .iter()
            .any(|m| m.mv == n.mv);
        let marked = n
            .comments
            .iter()
            .any(|c| c.split_whitespace().any(|w| w == "book"));
        assert_eq!(marked, in_book, "{} in\n{pgn}", n.san);
        if in_book {
            book_moves += 1;
            assert!(n.nags.is_empty(), "book move {} judged in\n{pgn}", n.san);
            assert!(eval_of(n).is_some(), "book move {} has no [%eval]", n.san);
        }
        pos.make_move(n.mv);
    }
    assert!(book_moves >= 3, "only {book_moves} book moves in\n{pgn}");
    // 5...Bxd1 walks into Legal's mate: judged, and bad.
    assert!(
        node(game, "Bxd1").nags.iter().any(|n| [2, 4].contains(n)),
        "{pgn}"
    );
}

#[test]
fn a_tablebase_win_thrown_into_a_draw_is_a_blunder() {
    // Kd5 and Pe4 against Ke7, White to move: only 2.Ke5 wins (the tables say so); 2.e5
    // draws, and 2...Kd7 is then the only drawing move.
    let tables = data("syzygy");
    let pgn = annotated(
        "tablebase.pgn",
        &["--syzygy", tables.to_str().unwrap_or_default()],
    );
    let games = read_back(&pgn);
    let game = &games[0];
    let push = node(game, "e5");
    assert!(push.nags.contains(&4), "{pgn}");
    assert!(
        push.comments.iter().any(|c| c.contains("(tablebases)")),
        "{pgn}"
    );
    assert_eq!(push.variations[0].nodes[0].san, "Ke5", "{pgn}");
    assert_eq!(eval_of(push), Some(Eval::Centipawns(0)));
    let defence = node(game, "Kd7");
    assert!(defence.nags.contains(&1), "{pgn}");
    // Black's first move loses whatever it is: not judged as an error.
    assert!(node(game, "Ke7").nags.is_empty(), "{pgn}");
}

#[test]
fn a_corrupt_file_gets_its_errors_and_its_good_games() {
    let input = data("annotate/corrupt.pgn");
    let output = scratch("corrupt.pgn");
    let out = annotate(&[
        input.to_str().unwrap_or_default(),
        "--nodes",
        "3000",
        "-o",
        output.to_str().unwrap_or_default(),
    ]);
    assert_eq!(out.status.code(), Some(1), "some games are skipped");
    let stderr = text(&out.stderr);
    let name = input.display().to_string();
    for expected in [
        format!("{name}:13: 5. Ke3: illegal in this position"),
        format!("{name}:18: 2. Zc3: unknown piece letter 'Z'"),
        format!("{name}:20: malformed tag pair"),
        format!("{name}:33: comment opened here is never closed"),
    ] {
        assert!(stderr.contains(&expected), "no {expected:?} in\n{stderr}");
    }
    assert!(
        stderr.contains("3 of 7 games annotated, 4 skipped"),
        "{stderr}"
    );
    assert!(
        stderr.contains("annotate: game 7 of 7"),
        "no progress line in\n{stderr}"
    );
    let pgn = fs::read_to_string(&output).unwrap_or_else(|e| panic!("{e}"));
    let _ = fs::remove_file(&output);
    let games = read_back(&pgn);
    let events: Vec<&str> = games.iter().map(|g| tag(g, "Event")).collect();
    assert_eq!(events, ["Good one", "Second good one", "Third good one"]);
    // The first game's own annotations are all kept.
    let good = &games[0];
    assert_eq!(good.main.intro, ["A game in the reader's syntax"]);
    let e4 = node(good, "e4");
    assert_eq!(e4.nags, [1]);
    assert!(e4.comments.iter().any(|c| c == "best by test"), "{pgn}");
    let e5 = node(good, "e5");
    assert_eq!(
        sans(&Game {
            main: e5.variations[0].clone(),
            ..good.clone()
        }),
        ["c5", "Nf3", "d6"]
    );
    assert_eq!(e5.variations[0].nodes[1].variations[0].nodes[0].san, "c3");
    assert!(
        node(good, "Nf3").nags.contains(&5),
        "!? kept as $5 in\n{pgn}"
    );
    assert!(node(good, "Nf3")
        .comments
        .iter()
        .any(|c| c == "a line comment"));
    // Every move of every annotated game has its evaluation, except a mate.
    for game in &games {
        for n in &game.main.nodes {
            assert_eq!(
                eval_of(n).is_some(),
                !n.san.ends_with('#'),
                "{} in\n{pgn}",
                n.san
            );
        }
    }
}

#[test]
fn side_and_first_move_limit_what_is_judged() {
    let pgn = annotated("blunders.pgn", &["--side", "black", "--from-move", "3"]);
    let games = read_back(&pgn);
    let game = &games[0];
    assert!(game.tag("WhiteACPL").is_none() && game.tag("BlackACPL").is_some());
    // White's blunder 4.Nc3 is not judged; Black's 3...Nf6 and 4...d6 are.
    assert!(node(game, "Nc3").nags.is_empty(), "{pgn}");
    assert!(node(game, "Nf6").nags.contains(&4) && node(game, "d6").nags.contains(&4));
    // Moves before move 3 get no evaluation; those from move 3 on do.
    assert_eq!(eval_of(node(game, "Nc6")), None);
    assert!(eval_of(node(game, "Bc4")).is_some());
}

#[test]
fn the_graph_is_an_svg_with_title_axes_and_marks() {
    let dir = scratch("graphs");
    let pgn = annotated(
        "blunders.pgn",
        &["--graph", dir.to_str().unwrap_or_default()],
    );
    let svg = fs::read_to_string(dir.join("game-001.svg")).unwrap_or_else(|e| panic!("{e}"));
    let _ = fs::remove_dir_all(&dir);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains("Test \u{2013} Test") && svg.contains("1-0"),
        "no title"
    );
    assert!(svg.contains("White's expected score") && svg.contains(">move<"));
    // One red mark per blunder, one mark per inaccuracy, mistake or blunder (plus the
    // legend's four circles).
    let game = &read_back(&pgn)[0];
    let marked = |nags: &[u8]| {
        game.main
            .nodes
            .iter()
            .filter(|n| n.nags.iter().any(|g| nags.contains(g)))
            .count()
    };
    assert_eq!(marked(&[4]), 3);
    assert_eq!(svg.matches("fill=\"#e02020\"").count(), marked(&[4]) + 1);
    assert_eq!(svg.matches("<circle").count(), marked(&[2, 4, 6]) + 4);
}

#[test]
fn bad_command_lines_exit_with_2() {
    let input = data("annotate/blunders.pgn");
    let input = input.to_str().unwrap_or_default();
    for args in [
        vec![],
        vec!["/nonexistent/games.pgn"],
        vec![input, "--side", "red"],
        vec![input, "--bogus"],
        vec![input, "--nodes", "many"],
    ] {
        let out = annotate(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
