//! Polyglot books against python-chess, the reference: the entries Betacut's reader finds in
//! `performance.bin` and `lasker-trap.bin` for a seeded set of positions, and the books
//! `betacut book make` makes from the PGN fixtures, must equal what python-chess computed and
//! stored in `tests/data/books/*.expected` (`scripts/book_testdata.py expected` writes them).
//! Broken books are refused with an error; the options, `bk` and book moves work over pipes in
//! both protocols, and a bad book file leaves the engine playing without one.

use crate::common;

use betacut::board::Position;
use betacut::book::make::write_book;
use betacut::book::{Book, BookError, BookMaker, Entry, MakeOptions, PgnReader};
use common::Engine;
use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/books")
        .join(name)
}

fn read_text(name: &str) -> String {
    fs::read_to_string(data(name)).unwrap_or_else(|e| panic!("test data {name}: {e}"))
}

/// A scratch file name for this test process.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("betacut-book-test-{}-{name}", std::process::id()))
}

fn open(name: &str) -> Book {
    Book::open(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn hex(text: &str) -> u64 {
    u64::from_str_radix(text, 16).unwrap_or_else(|e| panic!("hex {text:?}: {e}"))
}

fn number(text: &str) -> u64 {
    text.parse()
        .unwrap_or_else(|e| panic!("number {text:?}: {e}"))
}

/// One position of a `.expected` file of a stored book.
struct ExpectedPosition {
    fen: String,
    key: u64,
    raw: usize,
    /// (move in UCI, raw move, weight, learn) in file order.
    moves: Vec<(String, u16, u16, u32)>,
}

/// The whole-book figures and the positions of a stored book's `.expected` file.
fn expected_book(name: &str) -> (Vec<(String, u64)>, Vec<ExpectedPosition>) {
    let text = read_text(name);
    let mut totals = Vec::new();
    let mut positions: Vec<ExpectedPosition> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "position" => positions.push(ExpectedPosition {
                fen: rest.to_string(),
                key: 0,
                raw: 0,
                moves: Vec::new(),
            }),
            "key" | "raw" | "move" => {
                let Some(current) = positions.last_mut() else {
                    panic!("{name}: {line} before a position");
                };
                let f: Vec<&str> = rest.split_whitespace().collect();
                match word {
                    "key" => current.key = hex(rest),
                    "raw" => current.raw = number(rest) as usize,
                    _ => current.moves.push((
                        f[0].to_string(),
                        hex(f[1]) as u16,
                        number(f[2]) as u16,
                        number(f[3]) as u32,
                    )),
                }
            }
            "end" => {}
            _ => totals.push((
                word.to_string(),
                if word == "xor_keys" {
                    hex(rest)
                } else {
                    number(rest)
                },
            )),
        }
    }
    (totals, positions)
}

/// Checks a stored book against its expected file; returns (positions, positions with
/// entries, positions with a castling entry, promotions seen).
fn check_stored_book(book_name: &str, expected_name: &str) -> (usize, usize, usize, usize) {
    let (totals, positions) = expected_book(expected_name);
    let mut book = open(book_name);
    // The whole file, entry by entry.
    let (mut xor_keys, mut sum_raw, mut sum_weights, mut sum_learn) = (0u64, 0u64, 0u64, 0u64);
    for index in 0..book.len() {
        let entry = book
            .entry(index)
            .unwrap_or_else(|e| panic!("{book_name} entry {index}: {e}"));
        xor_keys ^= entry.key;
        sum_raw += u64::from(entry.raw_move);
        sum_weights += u64::from(entry.weight);
        sum_learn += u64::from(entry.learn);
    }
    let found = [
        ("entries", book.len()),
        ("xor_keys", xor_keys),
        ("sum_raw_moves", sum_raw),
        ("sum_weights", sum_weights),
        ("sum_learn", sum_learn),
    ];
    for (name, value) in found {
        let expected = totals.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        assert_eq!(Some(value), expected, "{book_name}: {name}");
    }
    // Each position: its key, its raw entries and its legal entries in file order.
    let (mut with_entries, mut castles, mut promotions) = (0, 0, 0);
    for expected in &positions {
        let pos = Position::from_fen(&expected.fen)
            .unwrap_or_else(|e| panic!("expected FEN {}: {e}", expected.fen));
        assert_eq!(pos.key(), expected.key, "key of {}", expected.fen);
        let raw = book
            .entries_for_key(pos.key())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(raw.len(), expected.raw, "raw entries of {}", expected.fen);
        let moves = book.moves(&pos).unwrap_or_else(|e| panic!("{e}"));
        let got: Vec<(String, u16, u16, u32)> = moves
            .iter()
            .map(|m| (pos.move_to_coordinate(m.mv), m.raw_move, m.weight, m.learn))
            .collect();
        assert_eq!(got, expected.moves, "book moves of {}", expected.fen);
        with_entries += usize::from(!moves.is_empty());
        castles += usize::from(moves.iter().any(|m| m.mv.is_castling()));
        promotions += moves
            .iter()
            .filter(|m| m.mv.promotion_kind().is_some())
            .count();
    }
    (positions.len(), with_entries, castles, promotions)
}

#[test]
fn performance_bin_gives_the_entries_python_chess_finds() {
    let (positions, with_entries, castles, _) =
        check_stored_book("performance.bin", "performance.expected");
    // The stored data covers what it should: many positions, some without entries, some
    // whose book moves castle.
    assert!(positions >= 100, "{positions} positions");
    assert!(
        with_entries >= 50 && with_entries < positions,
        "{with_entries}"
    );
    assert!(castles >= 3, "{castles} positions with castling entries");
}

#[test]
fn lasker_trap_bin_gives_its_underpromotion() {
    let (positions, with_entries, _, promotions) =
        check_stored_book("lasker-trap.bin", "lasker-trap.expected");
    assert_eq!((positions, with_entries), (15, 7));
    assert_eq!(promotions, 1, "exf2-g1=N+ is in the book");
}

/// The entries of a made book as python-chess computed them: (key, raw move, weight).
fn expected_made(name: &str) -> Vec<(u64, u16, u16)> {
    let text = read_text(name);
    let mut count = None;
    let mut entries = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f[0] == "entries" {
            count = Some(number(f[1]) as usize);
        } else {
            entries.push((hex(f[0]), hex(f[1]) as u16, number(f[2]) as u16));
        }
    }
    assert_eq!(Some(entries.len()), count, "{name}: entry count");
    entries
}

fn make_book(pgn: &str, plies: usize, min_games: u32) -> Vec<Entry> {
    let file = fs::File::open(data(pgn)).unwrap_or_else(|e| panic!("{pgn}: {e}"));
    let mut maker = BookMaker::new(MakeOptions { plies, min_games });
    for game in PgnReader::new(BufReader::new(file)) {
        let game = game.unwrap_or_else(|e| panic!("{pgn}: {e}"));
        maker.add_game(&game);
    }
    maker.finish()
}

#[test]
fn books_made_from_the_pgn_fixtures_equal_python_chess_books() {
    for (pgn, plies, min_games) in [
        ("annotated.pgn", 24, 1),
        ("annotated.pgn", 400, 1),
        ("selfplay.pgn", 24, 3),
        ("selfplay.pgn", 400, 1),
    ] {
        let stem = pgn.trim_end_matches(".pgn");
        let expected = expected_made(&format!("{stem}-{plies}-{min_games}.expected"));
        let entries = make_book(pgn, plies, min_games);
        assert!(entries.iter().all(|e| e.learn == 0));
        let got: Vec<(u64, u16, u16)> = entries
            .iter()
            .map(|e| (e.key, e.raw_move, e.weight))
            .collect();
        assert_eq!(
            got.len(),
            expected.len(),
            "{pgn} --plies {plies} --min-games {min_games}"
        );
        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "{pgn} --plies {plies}: entry {i}");
        }
        // Written and read back: a valid book with the same entries.
        let mut bytes = Vec::new();
        write_book(&entries, &mut bytes).unwrap_or_else(|e| panic!("{e}"));
        let mut book = Book::from_bytes(bytes, pgn).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(book.len(), entries.len() as u64);
        for (i, entry) in entries.iter().enumerate() {
            assert_eq!(book.entry(i as u64).ok().as_ref(), Some(entry));
        }
    }
}

#[test]
fn book_make_and_book_show_on_the_command_line() {
    let out = scratch("annotated.bin");
    let run = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .args(["book", "make"])
        .arg(data("annotated.pgn"))
        .arg(&out)
        .args(["--plies", "400", "--min-games", "1"])
        .output()
        .unwrap_or_else(|e| panic!("run betacut: {e}"));
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("8 games read, 7 used"), "{stdout}");
    assert!(
        stderr.contains("game 7 (line 75): variant \"Chess960\""),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 86: illegal move: \"Ke3\""),
        "{stderr}"
    );
    let bytes = fs::read(&out).unwrap_or_else(|e| panic!("{e}"));
    let _ = fs::remove_file(&out);
    let expected = expected_made("annotated-400-1.expected");
    assert_eq!(bytes.len(), 16 * expected.len());
    for (chunk, (key, raw, weight)) in bytes.chunks(16).zip(&expected) {
        let mut entry = [0u8; 16];
        entry.copy_from_slice(chunk);
        let entry = Entry::from_bytes(&entry);
        assert_eq!(
            (entry.key, entry.raw_move, entry.weight),
            (*key, *raw, *weight)
        );
    }

    let show = |args: &[&str]| {
        let run = Command::new(env!("CARGO_BIN_EXE_betacut"))
            .args(["book", "show"])
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("run betacut: {e}"));
        (
            run.status.success(),
            String::from_utf8_lossy(&run.stdout).into_owned(),
            String::from_utf8_lossy(&run.stderr).into_owned(),
        )
    };
    let performance = data("performance.bin").display().to_string();
    let (ok, text, _) = show(&[&performance]);
    assert!(ok);
    assert!(text.contains("92954 entries"), "{text}");
    assert!(
        text.contains("e4      e2e4   weight     1  33.3%"),
        "{text}"
    );
    assert!(text.contains("3 book moves, total weight 3"), "{text}");
    let italian = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let (ok, text, _) = show(&[&performance, italian]);
    assert!(ok);
    assert!(
        text.contains("d3      d2d3   weight   573  59.1%"),
        "{text}"
    );
    let (ok, text, _) = show(&[&performance, "8/8/4k3/8/8/4K3/4P3/8", "w", "-", "-"]);
    assert!(ok);
    assert!(text.contains("no book moves in this position"), "{text}");
    let (ok, _, err) = show(&[&data("annotated.pgn").display().to_string()]);
    assert!(!ok);
    assert!(err.contains("is not a Polyglot book"), "{err}");
}

#[test]
fn broken_book_files_are_refused_with_a_clear_error() {
    let good = fs::read(data("performance.bin")).unwrap_or_else(|e| panic!("{e}"));
    let mut unsorted = good[..16 * 100].to_vec();
    unsorted[16 * 40..16 * 41].copy_from_slice(&good[16 * 90..16 * 91]);
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let cases: [(&str, Vec<u8>); 4] = [
        ("empty.bin", Vec::new()),
        ("truncated.bin", good[..1000].to_vec()),
        ("unsorted.bin", unsorted),
        ("garbage.bin", garbage),
    ];
    for (name, bytes) in cases {
        let path = scratch(name);
        fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
        let result = Book::open(&path);
        let _ = fs::remove_file(&path);
        let err = match result {
            Ok(_) => panic!("{name} was accepted"),
            Err(err) => err,
        };
        let text = err.to_string();
        assert!(text.contains(&path.display().to_string()), "{text}");
        match name {
            "empty.bin" => assert!(matches!(err, BookError::Empty { .. }), "{text}"),
            "truncated.bin" => {
                assert!(matches!(err, BookError::Size { size: 1000, .. }), "{text}")
            }
            "unsorted.bin" => {
                assert!(
                    matches!(err, BookError::Unsorted { index: 41, .. }),
                    "{text}"
                )
            }
            _ => assert!(matches!(err, BookError::Unsorted { .. }), "{text}"),
        }
    }
    let missing = Book::open(Path::new("/nonexistent/betacut/book.bin"));
    assert!(matches!(missing, Err(BookError::Io { .. })));
}

// ----- protocols -----

const START_MOVES: [&str; 3] = ["e2e4", "d2d4", "c2c4"];

fn uci_engine() -> Engine {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.expect_line("uciok");
    engine
}

fn uci_sync(engine: &mut Engine) -> Vec<String> {
    engine.send("isready");
    engine.expect_line("readyok")
}

#[test]
fn uci_options_and_book_moves() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.expect_line("uciok");
    for option in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookBestMove type check default false",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option} in {lines:?}");
    }
    let book = data("performance.bin").display().to_string();
    engine.send("setoption name OwnBook value true");
    engine.send(&format!("setoption name BookFile value {book}"));
    assert!(uci_sync(&mut engine).is_empty());

    // The start position: one of the book's three moves at once, said to be from the book.
    engine.send("position startpos");
    engine.send("go wtime 60000 btime 60000");
    let (best, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    let words: Vec<&str> = best.split_whitespace().collect();
    assert!(START_MOVES.contains(&words[1]), "{best}");
    assert_eq!(
        before,
        vec![format!(
            "info string book move {} (weight 1 of 3)",
            words[1]
        )]
    );
    // The ponder move is the book's reply, legal after the move.
    let mut pos = Position::startpos();
    let mv = pos.parse_move(words[1]).unwrap_or_else(|e| panic!("{e}"));
    pos.make_move(mv);
    assert_eq!(words.get(2), Some(&"ponder"), "{best}");
    assert!(pos.parse_move(words[3]).is_ok(), "{best}");

    // BookBestMove: always the highest weight (Italian game: d2d3, 573 of 970).
    engine.send("setoption name BookBestMove value true");
    let italian = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    for _ in 0..3 {
        engine.send(&format!("position fen {italian}"));
        engine.send("go depth 20");
        let (best, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
        assert!(best.starts_with("bestmove d2d3"), "{best}");
        assert_eq!(
            before,
            vec!["info string book move d2d3 (weight 573 of 970)"]
        );
    }

    // Analysis is never replaced by the book: go infinite searches until stop.
    engine.send("position startpos");
    engine.send("go infinite");
    let (_, _) = engine.expect("a search line", |l| l.starts_with("info depth"));
    engine.send("stop");
    let (_, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        !before.iter().any(|l| l.contains("book move")),
        "{before:?}"
    );

    // Out of the book: a search as usual.
    engine.send("position fen 8/8/4k3/8/8/4K3/4P3/8 w - - 0 1");
    engine.send("go depth 4");
    let (_, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        before.iter().any(|l| l.starts_with("info depth 4")),
        "{before:?}"
    );

    // OwnBook off: the book is not used.
    engine.send("setoption name OwnBook value false");
    engine.send("position startpos");
    engine.send("go depth 3");
    let (_, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        !before.iter().any(|l| l.contains("book move")),
        "{before:?}"
    );
    assert!(engine.quit());
}

#[test]
fn uci_a_missing_or_broken_book_gives_an_error_and_play_goes_on() {
    let mut engine = uci_engine();
    engine.send("setoption name OwnBook value true");
    engine.send("setoption name BookFile value /nonexistent/betacut/book.bin");
    let (error, _) = engine.expect("an error", |l| l.starts_with("info string error"));
    assert!(error.contains("/nonexistent/betacut/book.bin"), "{error}");
    assert!(error.contains("playing without a book"), "{error}");
    let truncated = scratch("uci-truncated.bin");
    let good = fs::read(data("performance.bin")).unwrap_or_else(|e| panic!("{e}"));
    fs::write(&truncated, &good[..1000]).unwrap_or_else(|e| panic!("{e}"));
    engine.send(&format!(
        "setoption name BookFile value {}",
        truncated.display()
    ));
    let (error, _) = engine.expect("an error", |l| l.starts_with("info string error"));
    let _ = fs::remove_file(&truncated);
    assert!(error.contains("not a multiple of 16"), "{error}");
    // A good book, then a bad one: the good one is closed too.
    let book = data("performance.bin").display().to_string();
    engine.send(&format!("setoption name BookFile value {book}"));
    engine.send("setoption name BookFile value /nonexistent/betacut/book.bin");
    engine.expect("an error", |l| l.starts_with("info string error"));
    engine.send("position startpos");
    engine.send("go depth 3");
    let (best, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        before.iter().any(|l| l.starts_with("info depth 3")),
        "{before:?}"
    );
    assert!(
        !before.iter().any(|l| l.contains("book move")),
        "{before:?}"
    );
    assert!(best.len() > "bestmove ".len());
    assert!(engine.quit());
}

fn xboard_engine() -> Engine {
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    engine.expect_line("feature done=1");
    engine
}

fn xboard_sync(engine: &mut Engine) -> Vec<String> {
    engine.next_ping += 1;
    let n = engine.next_ping;
    engine.send(&format!("ping {n}"));
    engine.expect_line(&format!("pong {n}"))
}

/// Sends `bk` and returns its lines up to the empty line that ends them.
fn bk(engine: &mut Engine) -> Vec<String> {
    engine.send("bk");
    let before = engine.expect_line("");
    assert!(
        before.iter().all(|l| l.starts_with(' ')),
        "bk lines start with a space: {before:?}"
    );
    before
}

#[test]
fn xboard_options_bk_and_book_moves() {
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    let features = engine.expect_line("feature done=1").join(" ");
    for option in [
        "option=\"OwnBook -check 0\"",
        "option=\"BookFile -file \"",
        "option=\"BookBestMove -check 0\"",
    ] {
        assert!(features.contains(option), "{option} in {features}");
    }
    assert_eq!(
        bk(&mut engine),
        vec![" no book moves: no book is open (options BookFile and OwnBook)"]
    );
    let book = data("performance.bin").display().to_string();
    engine.send(&format!("option BookFile={book}"));
    // Open but OwnBook off: listed, and said not to be played.
    assert_eq!(
        bk(&mut engine),
        vec![
            " e4      e2e4   weight     1  33.3%",
            " d4      d2d4   weight     1  33.3%",
            " c4      c2c4   weight     1  33.3%",
            " (OwnBook is off: Betacut does not play these moves)",
        ]
    );
    engine.send("option OwnBook=1");
    engine.send("new");
    engine.send("post");
    engine.send("go");
    let (line, before) = engine.expect("move", |l| l.starts_with("move "));
    let mv = &line["move ".len()..];
    assert!(START_MOVES.contains(&mv), "{line}");
    assert!(
        before.contains(&format!("# book move {mv} (weight 1 of 3)")),
        "{before:?}"
    );
    assert!(xboard_sync(&mut engine).is_empty());
    // Black's turn now, in the book after each of the three first moves.
    let listed = bk(&mut engine);
    assert!(
        !listed.is_empty() && !listed[0].contains("no book moves"),
        "{listed:?}"
    );

    // Deep in the Italian game, BookBestMove: d2d3 every time.
    engine.send("option BookBestMove=1");
    engine.send("force");
    engine.send("setboard r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    assert_eq!(
        bk(&mut engine),
        vec![
            " d3      d2d3   weight   573  59.1%",
            " Ng5     f3g5   weight   269  27.7%",
            " d4      d2d4   weight   128  13.2%",
        ]
    );
    engine.send("go");
    let (line, _) = engine.expect("move", |l| l.starts_with("move "));
    assert_eq!(line, "move d2d3");

    // Analysis searches even in the book.
    engine.send("force");
    engine.send("new");
    engine.send("analyze");
    let (_, before) = engine.expect("a thinking line", |l| {
        l.split_whitespace()
            .next()
            .is_some_and(|w| w.parse::<u32>().is_ok())
    });
    assert!(
        !before.iter().any(|l| l.contains("book move")),
        "{before:?}"
    );
    engine.send("exit");
    let _ = xboard_sync(&mut engine); // the analysis's last lines

    // Out of the book: `bk` says so, and the engine searches.
    engine.send("force");
    engine.send("setboard 8/8/4k3/8/8/4K3/4P3/8 w - - 0 1");
    assert_eq!(bk(&mut engine), vec![" no book moves in this position"]);
    engine.send("sd 3");
    engine.send("go");
    let (_, before) = engine.expect("move", |l| l.starts_with("move "));
    assert!(
        !before.iter().any(|l| l.contains("book move")),
        "{before:?}"
    );
    assert!(engine.quit());
}

#[test]
fn xboard_a_missing_book_gives_an_error_and_play_goes_on() {
    let mut engine = xboard_engine();
    engine.send("option OwnBook=1");
    engine.send("option BookFile=/nonexistent/betacut/book.bin");
    let (error, _) = engine.expect("an error", |l| l.starts_with("Error ("));
    assert!(error.contains("/nonexistent/betacut/book.bin"), "{error}");
    assert!(error.contains("playing without a book"), "{error}");
    assert_eq!(
        bk(&mut engine),
        vec![" no book moves: no book is open (options BookFile and OwnBook)"]
    );
    engine.send("new");
    engine.send("sd 3");
    engine.send("go");
    let (line, before) = engine.expect("move", |l| l.starts_with("move "));
    assert!(
        !before.iter().any(|l| l.contains("book move")),
        "{before:?}"
    );
    assert!(
        Position::startpos().parse_move(&line[5..]).is_ok(),
        "{line}"
    );
    assert!(engine.quit());
}
