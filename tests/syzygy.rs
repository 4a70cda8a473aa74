//! Syzygy tablebases: the prober against python-chess's values for 2,304 positions of every
//! 3- and 4-piece material set, unusable and missing files, and the `probe` tool.

mod common;

use betacut::board::Position;
use betacut::tb::{ProbeError, Tablebases, Wdl};
use std::path::{Path, PathBuf};
use std::process::Command;

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
