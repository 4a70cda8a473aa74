//! Syzygy tablebases: the prober against python-chess's values for 2,304 positions of every
//! 3- and 4-piece material set, unusable and missing files, the `probe` tool, the root move
//! ranking (wins kept and converted, the fifty-move rule), probes inside the search, and the
//! options of both protocols in sessions with the built engine.

use crate::common;

use betacut::board::{Move, Position};
use betacut::search::score::{self, TB_WIN};
use betacut::search::tablebases::TbSettings;
use betacut::search::{SearchControl, SearchLimits, SearchUpdate, Searcher};
use betacut::tb::root::rank_root_moves;
use betacut::tb::{ProbeError, Tablebases, Wdl};
use common::Engine;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
const PROBES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy_probes.txt");

/// One line of the test data: FEN, WDL, DTZ.
struct Expected {
    fen: String,
    wdl: i32,
    dtz: i32,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(PROBES).unwrap_or_else(|e| panic!("{PROBES}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let value = |field: &str, name: &str| -> i32 {
                field
                    .strip_prefix(name)
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or_else(|| panic!("bad field {field:?} in {line:?}"))
            };
            assert_eq!(fields.len(), 3, "{line}");
            Expected {
                fen: fields[0].to_string(),
                wdl: value(fields[1], "wdl"),
                dtz: value(fields[2], "dtz"),
            }
        })
        .collect()
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn open(dir: &Path, memory_limit: u64) -> Tablebases {
    Tablebases::open_dirs(&[dir.to_path_buf()], memory_limit)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

/// Compares every stored position's WDL and DTZ; returns the number compared.
fn compare_all(tables: &Tablebases) -> usize {
    let cases = expected();
    let mut wrong = Vec::new();
    for case in &cases {
        let mut pos = position(&case.fen);
        let before = pos.clone();
        let wdl = tables.probe_wdl_mut(&mut pos).map(Wdl::value);
        let dtz = tables.probe_dtz_mut(&mut pos);
        assert_eq!(pos, before, "a probe changed the position {}", case.fen);
        if wdl != Ok(case.wdl) || dtz != Ok(case.dtz) {
            wrong.push(format!(
                "{}: wdl {:?} dtz {:?}, python-chess {} {}",
                case.fen, wdl, dtz, case.wdl, case.dtz
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
    cases.len()
}

#[test]
fn probes_match_python_chess_for_2304_positions_in_memory_and_from_disk() {
    let dir = Path::new(TABLES);
    let in_memory = open(dir, betacut::tb::DEFAULT_MEMORY_LIMIT);
    assert_eq!(in_memory.max_pieces(), 4);
    assert_eq!(in_memory.file_counts(), (35, 35));
    assert_eq!(compare_all(&in_memory), 2304);
    assert!(in_memory.load_all().is_empty(), "every shared table loads");
    // Every file read block by block with positioned reads instead.
    assert_eq!(compare_all(&open(dir, 0)), 2304);
}

#[test]
fn tables_given_as_bytes_answer_as_the_files_do() {
    // `Tablebases::from_memory` (the fuzz target's way in) reads the same files as bytes;
    // names that are not table names are skipped.
    let mut files = vec![("README.md".to_string(), b"not a table".to_vec())];
    for item in std::fs::read_dir(TABLES).unwrap_or_else(|e| panic!("{TABLES}: {e}")) {
        let path = item.unwrap_or_else(|e| panic!("{e}")).path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with(".rtbw") || name.ends_with(".rtbz") {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
            files.push((name.to_string(), bytes));
        }
    }
    let tables = Tablebases::from_memory(files);
    assert_eq!(tables.max_pieces(), 4);
    assert_eq!(tables.file_counts(), (35, 35));
    assert!(
        tables.load_all().is_empty(),
        "every table loads from its bytes"
    );
    assert_eq!(compare_all(&tables), 2304);
}

#[test]
fn the_test_data_covers_every_material_set_both_sides_and_en_passant() {
    let cases = expected();
    let tables = open(Path::new(TABLES), betacut::tb::DEFAULT_MEMORY_LIMIT);
    let mut sets = std::collections::BTreeMap::new();
    let mut en_passant = 0;
    for case in &cases {
        let pos = position(&case.fen);
        let names: Vec<String> = ["w", "b"]
            .iter()
            .map(|side| {
                // Count pieces per colour from the FEN's placement field.
                let placement = case.fen.split(' ').next().unwrap_or_default();
                let letters: String = placement
                    .chars()
                    .filter(|c| c.is_ascii_alphabetic())
                    .filter(|c| (*side == "w") == c.is_ascii_uppercase())
                    .map(|c| c.to_ascii_uppercase())
                    .collect();
                let mut sorted: Vec<char> = letters.chars().collect();
                sorted.sort_by_key(|c| "KQRBNP".find(*c));
                sorted.into_iter().collect()
            })
            .collect();
        let (strong, weak) = if names[0].len() > names[1].len()
            || (names[0].len() == names[1].len()
                && names[0]
                    .chars()
                    .map(|c| "KQRBNP".find(c))
                    .le(names[1].chars().map(|c| "KQRBNP".find(c))))
        {
            (names[0].clone(), names[1].clone())
        } else {
            (names[1].clone(), names[0].clone())
        };
        let entry = sets
            .entry(format!("{strong}v{weak}"))
            .or_insert([0usize; 2]);
        entry[pos.side_to_move().index()] += 1;
        if pos
            .legal_moves()
            .iter()
            .any(|m| m.kind() == betacut::board::MoveKind::EnPassant)
        {
            en_passant += 1;
        }
    }
    assert_eq!(sets.len(), 35, "{:?}", sets.keys().collect::<Vec<_>>());
    for (name, counts) in &sets {
        assert!(counts[0] >= 30 && counts[1] >= 30, "{name}: {counts:?}");
        let file = Path::new(TABLES).join(format!("{name}.rtbw"));
        assert!(file.is_file(), "{name} is one of the shared tables");
    }
    assert!(en_passant >= 60, "{en_passant} positions with en passant");
    assert_eq!(tables.max_pieces(), 4);
}

/// A folder of its own under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("betacut-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        TempDir(dir)
    }

    /// Copies the shared tables of these material sets into the folder.
    fn with_tables(self, names: &[&str]) -> TempDir {
        for name in names {
            for ext in ["rtbw", "rtbz"] {
                let file = format!("{name}.{ext}");
                std::fs::copy(Path::new(TABLES).join(&file), self.0.join(&file))
                    .unwrap_or_else(|e| panic!("{file}: {e}"));
            }
        }
        self
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// No capture possible: the probe needs the KQvKR table itself.
const KQ_VS_KR: &str = "8/8/8/3k4/8/8/r7/2K2Q2 w - - 0 1";
const KQ_VS_K: &str = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1";

#[test]
fn a_truncated_table_turns_probing_off_for_its_material_only() {
    let dir = TempDir::new("truncated").with_tables(&["KQvKR", "KQvK", "KRvK"]);
    let file = dir.0.join("KQvKR.rtbw");
    let bytes = std::fs::read(&file).unwrap_or_default();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
    for limit in [betacut::tb::DEFAULT_MEMORY_LIMIT, 0] {
        let tables = open(&dir.0, limit);
        let err = tables.probe_wdl(&position(KQ_VS_KR));
        match &err {
            Err(ProbeError::Corrupt { file, reason }) => {
                assert_eq!(file, "KQvKR.rtbw");
                assert!(reason.contains("truncated"), "{reason}");
            }
            other => panic!("expected an unusable table, got {other:?}"),
        }
        assert!(tables.probe_dtz(&position(KQ_VS_KR)).is_err());
        // The other material sets still answer.
        assert_eq!(tables.probe_wdl(&position(KQ_VS_K)), Ok(Wdl::Win));
        assert!(tables.probe_dtz(&position(KQ_VS_K)).is_ok_and(|d| d > 0));
        assert_eq!(tables.load_all().len(), 1);
    }
}

#[test]
fn garbage_in_a_table_never_panics() {
    let dir = TempDir::new("garbage").with_tables(&["KQvKR", "KQvK", "KRvK"]);
    let cases: Vec<Position> = expected()
        .iter()
        .map(|c| position(&c.fen))
        .filter(|p| p.occupied().count() == 4)
        .take(400)
        .collect();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for file in ["KQvKR.rtbw", "KQvKR.rtbz"] {
        let path = dir.0.join(file);
        let original = std::fs::read(Path::new(TABLES).join(file)).unwrap_or_default();
        for round in 0..12 {
            let mut bytes = original.clone();
            // Early rounds hit the header, later ones anywhere.
            let span = if round < 6 { 256 } else { bytes.len() };
            for _ in 0..(1 + round * 4) {
                let at = (next() as usize) % span;
                bytes[at] = next() as u8;
            }
            std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
            for limit in [betacut::tb::DEFAULT_MEMORY_LIMIT, 0] {
                let tables = open(&dir.0, limit);
                for pos in &cases {
                    // Any answer or error will do; the probe must come back.
                    let _ = tables.probe_wdl(pos);
                    let _ = tables.probe_dtz(pos);
                }
            }
        }
        std::fs::write(&path, &original).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_missing_table_is_named_and_the_rest_still_answers() {
    // KQvKR without KQvK: a position where the rook can be taken needs KQvK.
    let dir = TempDir::new("missing").with_tables(&["KQvKR", "KRvK"]);
    let tables = open(&dir.0, betacut::tb::DEFAULT_MEMORY_LIMIT);
    let rook_en_prise = "8/8/8/3k4/8/8/1r6/KQ6 w - - 0 1";
    assert_eq!(
        tables.probe_wdl(&position(rook_en_prise)),
        Err(ProbeError::Missing("KQvK.rtbw".into()))
    );
    assert_eq!(
        tables.probe_wdl(&position(KQ_VS_K)),
        Err(ProbeError::Missing("KQvK.rtbw".into()))
    );
    // No capture possible: KQvKR alone answers (the queen wins).
    assert_eq!(tables.probe_wdl(&position(KQ_VS_KR)), Ok(Wdl::Win));
    // More pieces than any table: missing, not an error of another kind.
    let start = Position::startpos();
    assert!(matches!(
        tables.probe_wdl(&start),
        Err(ProbeError::Castling)
    ));
    let many = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1";
    assert!(matches!(
        tables.probe_wdl(&position(many)),
        Err(ProbeError::Missing(_))
    ));
    assert!(Tablebases::open("/nonexistent/betacut/tables").is_err());
}

#[test]
fn several_folders_are_searched() {
    let queens = TempDir::new("folder-a").with_tables(&["KQvK"]);
    let rooks = TempDir::new("folder-b").with_tables(&["KRvK", "KQvKR"]);
    let joined = std::env::join_paths([&queens.0, &rooks.0])
        .unwrap_or_else(|e| panic!("{e}"))
        .into_string()
        .unwrap_or_default();
    let tables = Tablebases::open(&joined).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tables.file_counts(), (3, 3));
    assert_eq!(tables.probe_wdl(&position(KQ_VS_KR)), Ok(Wdl::Win));
}

#[test]
fn the_probe_tool_prints_one_line_per_position() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_betacut"))
            .arg("probe")
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("run betacut probe: {e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = run(&[
        "--syzygy",
        TABLES,
        "8/8/8/8/8/8/1k6/R3K3",
        "w",
        "-",
        "-",
        "0",
        "1",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(text, "8/8/8/8/8/8/1k6/R3K3 w - - 0 1 ;wdl 2 ;dtz 19\n");
    let (code, text) = run(&["--syzygy", TABLES, "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1"]);
    assert_eq!(code, Some(0));
    assert!(text.contains(";wdl - ;dtz - ;castling"), "{text}");

    // The whole test file: the same lines as python-chess's.
    let (code, text) = run(&["--syzygy", TABLES, "--file", PROBES]);
    assert_eq!(code, Some(0));
    let reference: Vec<String> = std::fs::read_to_string(PROBES)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), reference);

    // A missing table is said on its line.
    let dir = TempDir::new("tool").with_tables(&["KRvK"]);
    let dir_text = dir.0.to_string_lossy().into_owned();
    let (code, text) = run(&["--syzygy", &dir_text, KQ_VS_K]);
    assert_eq!(code, Some(0));
    assert_eq!(
        text,
        format!("{KQ_VS_K} ;wdl - ;dtz - ;missing table KQvK.rtbw\n")
    );
    let (code, text) = run(&["--syzygy", TABLES, "not a fen"]);
    assert_eq!(code, Some(1));
    assert!(text.starts_with("not a fen ;error bad FEN"), "{text}");
}

fn shared_tables() -> Tablebases {
    open(Path::new(TABLES), betacut::tb::DEFAULT_MEMORY_LIMIT)
}

const KQ_VS_K_FAR: &str = "8/8/8/8/3k4/8/8/1Q2K3 w - - 0 1";
const KR_VS_K: &str = "8/8/8/8/8/8/1k6/R3K3 w - - 0 1";

#[test]
fn root_ranking_keeps_only_the_fastest_wins_and_converts_kqk() {
    let tables = shared_tables();
    let mut pos = position(KQ_VS_K_FAR);
    let root_dtz = tables.probe_dtz(&pos).unwrap_or_else(|e| panic!("{e}"));
    assert!(root_dtz > 0);
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let Some(ranking) = rank_root_moves(&tables, &pos, &moves, true) else {
        panic!("KQvK is in the tables");
    };
    assert_eq!(ranking.wdl, 2);
    assert!(ranking.by_dtz);
    assert_eq!(ranking.ranked.len(), moves.len());
    assert!(!ranking.kept.is_empty() && ranking.kept.len() < moves.len());
    // Every kept move wins, with the shortest DTZ of all moves; some winning moves are slower.
    let move_dtz = |pos: &Position, mv: Move| {
        let mut child = pos.clone();
        child.make_move(mv);
        let wdl = tables.probe_wdl(&child).map(Wdl::value);
        let dtz = tables.probe_dtz(&child).unwrap_or_else(|e| panic!("{e}"));
        (wdl, -dtz)
    };
    let kept: Vec<i32> = ranking
        .kept
        .iter()
        .map(|&m| move_dtz(&pos, m))
        .inspect(|(wdl, _)| assert_eq!(*wdl, Ok(-2), "a kept move wins"))
        .map(|(_, d)| d)
        .collect();
    let fastest = kept[0];
    assert!(kept.iter().all(|&d| d == fastest), "{kept:?}");
    let mut slower = 0;
    for &mv in &moves {
        let (wdl, dtz) = move_dtz(&pos, mv);
        if wdl == Ok(-2) {
            assert!(dtz >= fastest, "no faster win left out");
            slower += usize::from(dtz > fastest);
        }
    }
    assert!(slower > 0, "some wins are slower and not kept");
    // Playing the first kept move for both sides mates within the root's DTZ.
    let mut plies = 0;
    while !pos.is_checkmate() {
        assert!(
            plies < root_dtz,
            "no mate within DTZ {root_dtz}: {}",
            pos.to_fen()
        );
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        assert!(!moves.is_empty(), "stalemate: {}", pos.to_fen());
        let ranking = rank_root_moves(&tables, &pos, &moves, true);
        let Some(ranking) = ranking else {
            panic!("in the tables: {}", pos.to_fen())
        };
        let expected = if plies % 2 == 0 { 2 } else { -2 };
        assert_eq!(ranking.wdl, expected, "{}", pos.to_fen());
        pos.make_move(ranking.kept[0]);
        plies += 1;
    }
}

#[test]
fn the_fifty_move_rule_spoils_a_win_only_when_the_counter_says_so() {
    let tables = shared_tables();
    // The fastest win needs 19 plies to mate (DTZ 19).
    assert_eq!(tables.probe_dtz(&position(KR_VS_K)), Ok(19));
    let ranking = |fen: &str, rule50: bool| {
        let pos = position(fen);
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        rank_root_moves(&tables, &pos, &moves, rule50).unwrap_or_else(|| panic!("{fen}"))
    };
    // 80 plies on the counter: 80 + 19 <= 99, still a win, and only the fastest moves are kept.
    let in_time = ranking("8/8/8/8/8/8/1k6/R3K3 w - - 80 60", true);
    assert_eq!(in_time.wdl, 2);
    let fresh = ranking(KR_VS_K, true);
    assert_eq!(fresh.wdl, 2);
    assert_eq!(in_time.kept, fresh.kept);
    // 90 plies: the rule draws first. With the rule on the root is a spoiled win (1), off a win.
    let late = ranking("8/8/8/8/8/8/1k6/R3K3 w - - 90 60", true);
    assert_eq!(late.wdl, 1);
    assert_eq!(late.kept, fresh.kept, "still the fastest try");
    assert_eq!(ranking("8/8/8/8/8/8/1k6/R3K3 w - - 90 60", false).wdl, 2);
    // The same for the defender: a loss the rule saves.
    // After the rook's fastest move: DTZ -18 for Black, so with 91 plies on the counter the
    // rule saves Black, and with 60 it does not.
    let after = "8/8/8/8/R7/8/1k6/4K3 b - - 91 60";
    assert!(tables.probe_dtz(&position(after)).is_ok_and(|d| d == -18));
    assert_eq!(ranking(after, true).wdl, -1);
    assert_eq!(ranking(after, false).wdl, -2);
    assert_eq!(ranking("8/8/8/8/R7/8/1k6/4K3 b - - 60 60", true).wdl, -2);

    // The search reports what the rule leaves: a spoiled win scores 2, a win a tablebase win.
    let search = |fen: &str, rule50: bool| {
        let mut searcher = Searcher::new(4);
        let settings = TbSettings {
            rule50,
            ..TbSettings::default()
        };
        searcher.set_tablebases(Some(Arc::new(shared_tables())), settings);
        let control = SearchControl::new(false);
        searcher.search(
            &position(fen),
            &SearchLimits::depth(6),
            &control,
            &mut |_| {},
        )
    };
    assert_eq!(search("8/8/8/8/8/8/1k6/R3K3 w - - 90 60", true).score, 2);
    let off = search("8/8/8/8/8/8/1k6/R3K3 w - - 90 60", false);
    assert!(
        off.score == TB_WIN || score::is_mate(off.score),
        "{}",
        off.score
    );
}

#[test]
fn the_search_plays_a_kept_move_and_reports_a_tablebase_score_and_hits() {
    let tables = Arc::new(shared_tables());
    let pos = position(KQ_VS_K_FAR);
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let kept = rank_root_moves(&tables, &pos, &moves, true)
        .map(|r| r.kept)
        .unwrap_or_default();
    let mut searcher = Searcher::new(4);
    searcher.set_tablebases(Some(Arc::clone(&tables)), TbSettings::default());
    let control = SearchControl::new(false);
    let mut hits = 0;
    let mut scores = Vec::new();
    let result = searcher.search(&pos, &SearchLimits::depth(8), &control, &mut |u| {
        if let SearchUpdate::Line(r) = u {
            hits = hits.max(r.tbhits);
            scores.push(r.score);
        }
    });
    assert!(kept.contains(&result.best_move));
    assert!(hits >= moves.len() as u64, "{hits} hits");
    assert!(
        scores
            .iter()
            .all(|&s| s == TB_WIN || (score::is_mate(s) && s > 0)),
        "{scores:?}"
    );

    // Five pieces, out of the tables: probes after captures find the won rook capture.
    let five = position("8/8/8/3k4/8/5n2/1r6/KQ6 w - - 0 1");
    let mut hits = 0;
    let result = searcher.search(&five, &SearchLimits::depth(8), &control, &mut |u| {
        if let SearchUpdate::Line(r) = u {
            hits = hits.max(r.tbhits);
        }
    });
    assert_eq!(five.move_to_coordinate(result.best_move), "a1b2");
    assert!(score::is_tablebase(result.score), "{}", result.score);
    assert!(hits > 0);

    // Without tables nothing is probed.
    let mut plain = Searcher::new(4);
    let mut hits = 0;
    plain.search(&five, &SearchLimits::depth(8), &control, &mut |u| {
        if let SearchUpdate::Line(r) = u {
            hits = hits.max(r.tbhits);
        }
    });
    assert_eq!(hits, 0);
}

#[test]
fn without_dtz_files_the_root_is_ranked_by_wdl() {
    let dir = TempDir::new("wdl-only");
    for name in ["KRvK", "KQvK"] {
        let file = format!("{name}.rtbw");
        std::fs::copy(Path::new(TABLES).join(&file), dir.0.join(&file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    let tables = open(&dir.0, betacut::tb::DEFAULT_MEMORY_LIMIT);
    assert_eq!(tables.file_counts(), (2, 0));
    let pos = position(KR_VS_K);
    assert!(matches!(
        tables.probe_dtz(&pos),
        Err(ProbeError::Missing(name)) if name == "KRvK.rtbz"
    ));
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let Some(ranking) = rank_root_moves(&tables, &pos, &moves, true) else {
        panic!("KRvK is in the WDL tables");
    };
    assert!(!ranking.by_dtz);
    assert_eq!(ranking.wdl, 2);
    // Every winning move is kept (WDL cannot tell them apart); the rook is never given away.
    let shared = shared_tables();
    for &mv in &moves {
        let mut child = pos.clone();
        child.make_move(mv);
        let wins = shared.probe_wdl(&child) == Ok(Wdl::Loss);
        assert_eq!(
            ranking.kept.contains(&mv),
            wins,
            "{}",
            pos.move_to_coordinate(mv)
        );
    }
}

/// The fields of a UCI `info` line after `key`.
fn info_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1).copied()
}

#[test]
fn uci_session_with_syzygy_path_shows_tablebase_scores_and_hits() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.expect_line("uciok");
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    engine.send(&format!("setoption name SyzygyPath value {TABLES}"));
    engine.send("isready");
    let lines = engine.expect_line("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Syzygy: 35 WDL and 35 DTZ tables, up to 4")),
        "{lines:?}"
    );
    engine.send(&format!("position fen {KR_VS_K}"));
    engine.send("go depth 6");
    let (best, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = before
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let last = infos.last().unwrap_or_else(|| engine.fail("no info line"));
    assert!(info_field(last, "tbhits").and_then(|h| h.parse::<u64>().ok()) > Some(0));
    assert_eq!(info_field(last, "score"), Some("cp"), "{last}");
    let cp: i32 = info_field(last, "cp")
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    assert!((19_872..=20_000).contains(&cp), "{last}");
    let mut pos = position(KR_VS_K);
    let mv = pos
        .parse_coordinate(
            best.trim_start_matches("bestmove ")
                .split(' ')
                .next()
                .unwrap_or(""),
        )
        .unwrap_or_else(|e| panic!("{best}: {e}"));
    pos.make_move(mv);
    assert_eq!(
        shared_tables().probe_wdl(&pos),
        Ok(Wdl::Loss),
        "{best} wins"
    );

    // Probing off again: no hits, an ordinary score.
    engine.send("setoption name SyzygyPath value <empty>");
    engine.send(&format!("position fen {KR_VS_K}"));
    engine.send("go depth 6");
    let (_, before) = engine.expect("bestmove", |l| l.starts_with("bestmove"));
    let last = before
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(info_field(&last, "tbhits"), Some("0"), "{last}");
    assert!(engine.quit());
}

#[test]
fn xboard_session_with_egtpath_shows_tablebase_scores_and_hits() {
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    let lines = engine.expect_line("feature done=1");
    let all = lines.join(" ");
    assert!(all.contains("egt=\"syzygy\""), "{all}");
    assert!(
        all.contains("option=\"SyzygyProbeLimit -spin 7 0 7\""),
        "{all}"
    );
    engine.send("egtpath syzygy /nonexistent/betacut");
    engine.send("ping 7");
    let said = engine.expect_line("pong 7");
    assert_eq!(
        said,
        ["# Syzygy: no readable tablebase folder in \"/nonexistent/betacut\"; playing without tablebases"]
    );
    engine.send(&format!("egtpath syzygy {TABLES}"));
    engine.send("option Syzygy50MoveRule=1");
    engine.send("new");
    engine.send("force");
    engine.send(&format!("setboard {KR_VS_K}"));
    engine.send("post");
    engine.send("sd 6");
    engine.send("go");
    let (line, before) = engine.expect("move", |l| l.starts_with("move "));
    assert!(!before.iter().any(|l| l.starts_with("Error")), "{before:?}");
    let thinking = before
        .iter()
        .rfind(|l| l.contains('\t'))
        .unwrap_or_else(|| engine.fail("no thinking line with tbhits"));
    // ply score time nodes seldepth nps tbhits <tab> pv
    let (numbers, pv) = thinking.split_once('\t').unwrap_or_default();
    let fields: Vec<i64> = numbers
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(-1))
        .collect();
    assert_eq!(fields.len(), 7, "{thinking}");
    assert!((19_872..=20_000).contains(&fields[1]), "{thinking}");
    assert!(fields[6] > 0, "{thinking}");
    assert!(!pv.is_empty());
    let mut pos = position(KR_VS_K);
    let mv = pos
        .parse_coordinate(line.trim_start_matches("move "))
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    pos.make_move(mv);
    assert_eq!(
        shared_tables().probe_wdl(&pos),
        Ok(Wdl::Loss),
        "{line} wins"
    );
    assert!(engine.quit());
}
