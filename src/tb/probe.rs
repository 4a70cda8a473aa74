//! A set of Syzygy tables found in one or more folders, loaded lazily, and the probes on top of
//! the raw table lookups: the tables leave out positions where a capture is the best move (and
//! store "don't care" there), so every probe first tries the captures (a small alpha-beta over
//! captures only), and handles en passant, which the tables do not encode, by trying those
//! captures too. The rules and sign conventions are those of python-chess's `chess.syzygy`
//! (`probe_wdl`, `probe_dtz`), itself a port of Ronald de Man's original probing code.

use super::material::Material;
use super::table::{Kind, NameInfo, Table};
use super::{ProbeError, TbError, Wdl};
use crate::board::{MoveKind, PieceKind, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Files at most this large are read whole into memory when first probed; larger ones are
/// read with positioned reads, a block at a time. The 3- and 4-piece files are under 0.5 MB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 20;

/// Why a probe failed, without allocating (turned into a [`ProbeError`] for callers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fail {
    /// The position has castling rights (the tables assume none).
    Castling,
    /// No file of this kind for this material.
    Missing(Material, Kind),
    /// The file could not be read or makes no sense.
    Corrupt(Material, Kind),
}

/// Hashes a material signature (already a well-spread integer) with one multiplication.
#[derive(Default)]
struct MaterialHasher(u64);

impl Hasher for MaterialHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (value ^ (value >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type MaterialMap = HashMap<Material, usize, BuildHasherDefault<MaterialHasher>>;

/// One material set: its files and, once probed, the loaded tables.
#[derive(Debug)]
struct Entry {
    name: String,
    info: NameInfo,
    wdl_path: Option<PathBuf>,
    dtz_path: Option<PathBuf>,
    wdl: OnceLock<Result<Table, TbError>>,
    dtz: OnceLock<Result<Table, TbError>>,
}

/// A set of Syzygy tablebase files (`.rtbw` win/draw/loss, `.rtbz` distance to zeroing),
/// found in one or more folders and loaded the first time a position needs them. Shared
/// between search threads (`&self` everywhere; loading is synchronised per file).
///
/// Probes never panic on missing or corrupt files: the material sets concerned just give no
/// answer. A probe in the search allocates nothing once its tables are loaded.
#[derive(Debug)]
pub struct Tablebases {
    entries: Vec<Entry>,
    index: MaterialMap,
    max_pieces: u32,
    memory_limit: u64,
    problems: Vec<String>,
}

/// dtz_before_zeroing: the DTZ of a position whose best move zeroes the fifty-move counter.
#[inline]
fn dtz_before_zeroing(wdl: i32) -> i32 {
    wdl.signum() * if wdl.abs() == 2 { 1 } else { 101 }
}

/// The material set and kind of a Syzygy file with a normalised name (`KQvKR.rtbw`: one king
/// a side, pieces in the order K Q R B N P, the stronger side first), if `path` has one.
fn table_file(path: &Path) -> Option<(Material, Kind)> {
    let stem = path.file_stem()?.to_str()?;
    let kind = match path.extension()?.to_str()? {
        "rtbw" => Kind::Wdl,
        "rtbz" => Kind::Dtz,
        _ => return None,
    };
    let (white, black) = stem.split_once('v')?;
    let one_king = |side: &str| side.starts_with('K') && side.matches('K').count() == 1;
    if !one_king(white) || !one_king(black) || stem == "KvK" {
        return None;
    }
    let material = Material::from_sides(white, black)?;
    (material.table_name() == stem).then_some((material, kind))
}

impl Tablebases {
    /// Finds the tables in `paths`: folders separated by `:` (`;` on Windows), as in
    /// `SyzygyPath`. Folders that cannot be read are skipped and listed by
    /// [`Tablebases::problems`]; it is an error only if none can be read.
    pub fn open(paths: &str) -> Result<Tablebases, TbError> {
        let dirs: Vec<PathBuf> = std::env::split_paths(paths.trim())
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        Tablebases::open_dirs(&dirs, DEFAULT_MEMORY_LIMIT)
    }

    /// Finds the tables in `dirs`; files larger than `memory_limit` bytes are read a block at a
    /// time instead of whole.
    pub fn open_dirs(dirs: &[PathBuf], memory_limit: u64) -> Result<Tablebases, TbError> {
        let mut tables = Tablebases::empty(memory_limit);
        let mut readable = 0;
        for dir in dirs {
            match std::fs::read_dir(dir) {
                Ok(listing) => {
                    readable += 1;
                    for item in listing.flatten() {
                        let path = item.path();
                        if let Some((material, kind)) = table_file(&path) {
                            if path.is_file() {
                                tables.add_file(&path, material, kind);
                            }
                        }
                    }
                }
                Err(e) => tables
                    .problems
                    .push(format!("cannot read folder {}: {e}", dir.display())),
            }
        }
        if readable == 0 {
            return Err(TbError::NoFolder(
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ));
        }
        tables.count_pieces();
        Ok(tables)
    }

    /// A set of tables whose files are held in memory, each given as its file name
    /// (`KQvKR.rtbw`) and its bytes, and loaded at once (for tests and fuzzing, which need no
    /// folder). Names that are no normalised Syzygy file name are skipped; a file that does
    /// not load makes its material set answer [`ProbeError`], as a corrupt file on disk does.
    pub fn from_memory(files: Vec<(String, Vec<u8>)>) -> Tablebases {
        let mut tables = Tablebases::empty(DEFAULT_MEMORY_LIMIT);
        for (name, bytes) in files {
            let path = PathBuf::from(name);
            let Some((material, kind)) = table_file(&path) else {
                continue;
            };
            if let Some(i) = tables.add_file(&path, material, kind) {
                let entry = &tables.entries[i];
                let cell = match kind {
                    Kind::Wdl => &entry.wdl,
                    Kind::Dtz => &entry.dtz,
                };
                let _ = cell.set(Table::from_bytes(kind, &path, entry.info, bytes));
            }
        }
        tables.count_pieces();
        tables
    }

    /// A set with no tables yet.
    fn empty(memory_limit: u64) -> Tablebases {
        Tablebases {
            entries: Vec::new(),
            index: MaterialMap::default(),
            max_pieces: 0,
            memory_limit,
            problems: Vec::new(),
        }
    }

    /// Sets `max_pieces` from the WDL files registered.
    fn count_pieces(&mut self) {
        self.max_pieces = self
            .entries
            .iter()
            .filter(|e| e.wdl_path.is_some())
            .map(|e| e.info.material.total())
            .max()
            .unwrap_or(0);
    }

    /// Registers the file at `path` as the `kind` file of `material`, unless that material
    /// set already has one (the first file found is the one used); the entry's index if it was
    /// registered.
    fn add_file(&mut self, path: &Path, material: Material, kind: Kind) -> Option<usize> {
        let i = match self.index.get(&material) {
            Some(&i) => i,
            None => {
                self.entries.push(Entry {
                    name: material.table_name(),
                    info: NameInfo { material },
                    wdl_path: None,
                    dtz_path: None,
                    wdl: OnceLock::new(),
                    dtz: OnceLock::new(),
                });
                let i = self.entries.len() - 1;
                self.index.insert(material, i);
                self.index.insert(material.mirrored(), i);
                i
            }
        };
        let slot = match kind {
            Kind::Wdl => &mut self.entries[i].wdl_path,
            Kind::Dtz => &mut self.entries[i].dtz_path,
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(path.to_path_buf());
        Some(i)
    }

    /// Pieces (kings included) of the largest material set with a WDL file; 0 when none.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Number of WDL files and DTZ files found.
    pub fn file_counts(&self) -> (usize, usize) {
        let wdl = self.entries.iter().filter(|e| e.wdl_path.is_some()).count();
        let dtz = self.entries.iter().filter(|e| e.dtz_path.is_some()).count();
        (wdl, dtz)
    }

    /// Folders that could not be read when the set was opened.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Loads every table now (instead of at its first probe) and returns the load error of
    /// each file that is unusable.
    pub fn load_all(&self) -> Vec<TbError> {
        let mut errors = Vec::new();
        for entry in &self.entries {
            for kind in [Kind::Wdl, Kind::Dtz] {
                if let Some(Err(e)) = self.entry_table(entry, kind) {
                    errors.push(e.clone());
                }
            }
        }
        errors
    }

    /// The loaded table of `kind` of `entry`, loading it on first use; `None` when there is
    /// no such file.
    fn entry_table<'a>(&self, entry: &'a Entry, kind: Kind) -> Option<&'a Result<Table, TbError>> {
        let (path, cell) = match kind {
            Kind::Wdl => (entry.wdl_path.as_ref()?, &entry.wdl),
            Kind::Dtz => (entry.dtz_path.as_ref()?, &entry.dtz),
        };
        Some(cell.get_or_init(|| Table::load(kind, path, entry.info, self.memory_limit)))
    }

    /// The table of `kind` for `material`, or why there is none.
    #[inline]
    fn table(&self, material: Material, kind: Kind) -> Result<&Table, Fail> {
        let &i = self
            .index
            .get(&material)
            .ok_or(Fail::Missing(material, kind))?;
        match self.entry_table(&self.entries[i], kind) {
            None => Err(Fail::Missing(material, kind)),
            Some(Ok(table)) => Ok(table),
            Some(Err(_)) => Err(Fail::Corrupt(material, kind)),
        }
    }

    /// The name of the file of `kind` for `material` (as found, or as it would be named).
    pub(crate) fn file_name(&self, material: Material, kind: Kind) -> String {
        let name = match self.index.get(&material) {
            Some(&i) => self.entries[i].name.clone(),
            None => material.table_name(),
        };
        let ext = match kind {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        };
        format!("{name}.{ext}")
    }

    /// The load error of the file of `kind` for `material`, if it was loaded and failed.
    pub(crate) fn load_error(&self, material: Material, kind: Kind) -> Option<&TbError> {
        let &i = self.index.get(&material)?;
        let entry = &self.entries[i];
        let cell = match kind {
            Kind::Wdl => &entry.wdl,
            Kind::Dtz => &entry.dtz,
        };
        cell.get()?.as_ref().err()
    }

    // ----- probes -----

    /// The WDL value of `pos` for the side to move, under the fifty-move rule counted from
    /// zero (as if the last move had been a capture or pawn move): see [`Wdl`].
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        let mut pos = pos.clone();
        self.probe_wdl_mut(&mut pos)
    }

    /// [`Tablebases::probe_wdl`] on a position that is changed during the probe and given
    /// back as it was (for the search: nothing is cloned or allocated).
    #[inline]
    pub fn probe_wdl_mut(&self, pos: &mut Position) -> Result<Wdl, ProbeError> {
        self.wdl(pos)
            .map(Wdl::from_value)
            .map_err(|fail| ProbeError::new(fail, self))
    }

    /// The DTZ value of `pos` for the side to move, as python-chess's `probe_dtz`: positive
    /// when winning, negative when losing, 0 for a draw; the number of plies to the next
    /// capture or pawn move with best play (possibly one too many), plus 100 when the result
    /// is spoiled by the fifty-move rule.
    pub fn probe_dtz(&self, pos: &Position) -> Result<i32, ProbeError> {
        let mut pos = pos.clone();
        self.probe_dtz_mut(&mut pos)
    }

    /// [`Tablebases::probe_dtz`] on a position that is given back unchanged.
    pub fn probe_dtz_mut(&self, pos: &mut Position) -> Result<i32, ProbeError> {
        self.dtz(pos).map_err(|fail| ProbeError::new(fail, self))
    }

    /// True if the set may hold `pos`: no castling rights and few enough pieces.
    #[inline]
    pub fn covers(&self, pos: &Position) -> bool {
        pos.castling_rights() == 0 && pos.occupied().count() <= self.max_pieces
    }

    /// The stored WDL value of `pos` (no captures tried).
    #[inline]
    fn wdl_table(&self, pos: &Position, material: Material) -> Result<i32, Fail> {
        if pos.occupied() == pos.pieces(PieceKind::King) {
            return Ok(0);
        }
        let table = self.table(material, Kind::Wdl)?;
        table
            .probe_wdl(pos, material)
            .map_err(|_| Fail::Corrupt(material, Kind::Wdl))
    }

    /// The WDL value with captures tried first (no en passant), within (`alpha`, `beta`);
    /// and whether a capture is the best move and wins (the value then comes from it).
    fn probe_ab(&self, pos: &mut Position, mut alpha: i32, beta: i32) -> Result<(i32, bool), Fail> {
        let kings_only = pos.occupied() == pos.pieces(PieceKind::King);
        let material = Material::of(pos);
        if !kings_only && !self.index.contains_key(&material) {
            return Err(Fail::Missing(material, Kind::Wdl));
        }
        let moves = pos.legal_moves();
        let theirs = pos.color_bb(!pos.side_to_move());
        for &mv in moves.iter() {
            if mv.kind() == MoveKind::EnPassant
                || mv.kind() == MoveKind::Castling
                || !theirs.contains(mv.to())
            {
                continue;
            }
            pos.make_move(mv);
            let result = self.probe_ab(pos, -beta, -alpha);
            pos.unmake_move(mv);
            let v = -result?.0;
            if v > alpha {
                if v >= beta {
                    return Ok((v, true));
                }
                alpha = v;
            }
        }
        let v = self.wdl_table(pos, material)?;
        if alpha >= v {
            Ok((alpha, alpha > 0))
        } else {
            Ok((v, false))
        }
    }

    /// The best value of the legal en-passant captures (-3 when there is none), and whether
    /// every legal move is one.
    fn en_passant_value(&self, pos: &mut Position) -> Result<(i32, bool), Fail> {
        let moves = pos.legal_moves();
        let mut best = -3;
        let mut count = 0;
        for &mv in moves.iter().filter(|m| m.kind() == MoveKind::EnPassant) {
            count += 1;
            pos.make_move(mv);
            let result = self.probe_ab(pos, -2, 2);
            pos.unmake_move(mv);
            best = best.max(-result?.0);
        }
        Ok((best, count == moves.len()))
    }

    /// WDL with en passant (python-chess `probe_wdl`).
    pub(crate) fn wdl(&self, pos: &mut Position) -> Result<i32, Fail> {
        if pos.castling_rights() != 0 {
            return Err(Fail::Castling);
        }
        let (mut v, _) = self.probe_ab(pos, -2, 2)?;
        if pos.en_passant().is_none() {
            return Ok(v);
        }
        let (v1, only_en_passant) = self.en_passant_value(pos)?;
        if v1 > -3 {
            // Take the en-passant capture if it is better, or if it is the only move.
            if v1 >= v || (v == 0 && only_en_passant) {
                v = v1;
            }
        }
        Ok(v)
    }

    /// DTZ without en passant (python-chess `probe_dtz_no_ep`).
    fn dtz_no_ep(&self, pos: &mut Position) -> Result<i32, Fail> {
        let (wdl, capture_best) = self.probe_ab(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if capture_best {
            return Ok(dtz_before_zeroing(wdl));
        }
        let moves = pos.legal_moves();
        let empty = !pos.occupied();
        let pawns = pos.pieces(PieceKind::Pawn);
        if wdl > 0 {
            // A winning pawn push (a zeroing move) is as good as it gets.
            for &mv in moves.iter() {
                if !pawns.contains(mv.from())
                    || !empty.contains(mv.to())
                    || mv.kind() == MoveKind::EnPassant
                {
                    continue;
                }
                pos.make_move(mv);
                let result = self.wdl(pos);
                pos.unmake_move(mv);
                if -result? == wdl {
                    return Ok(if wdl == 2 { 1 } else { 101 });
                }
            }
        }
        let material = Material::of(pos);
        let table = self.table(material, Kind::Dtz)?;
        let stored = table
            .probe_dtz(pos, material, wdl)
            .map_err(|_| Fail::Corrupt(material, Kind::Dtz))?;
        if let Some(dtz) = stored {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The table stores the other side to move: one ply of search.
        if wdl > 0 {
            let mut best = 0xFFFF;
            for &mv in moves.iter() {
                if pawns.contains(mv.from()) || !empty.contains(mv.to()) {
                    continue;
                }
                pos.make_move(mv);
                let result = self.dtz(pos);
                let mated = pos.is_checkmate();
                pos.unmake_move(mv);
                let v = -result?;
                if v == 1 && mated {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for &mv in moves.iter() {
                let zeroing = pawns.contains(mv.from())
                    || mv.kind() == MoveKind::EnPassant
                    || (mv.kind() != MoveKind::Castling && pos.piece_at(mv.to()).is_some());
                pos.make_move(mv);
                let v = if zeroing {
                    if wdl == -2 {
                        Ok(-1)
                    } else {
                        self.probe_ab(pos, 1, 2)
                            .map(|(v, _)| if v == 2 { 0 } else { -101 })
                    }
                } else {
                    self.dtz(pos).map(|d| -d - 1)
                };
                pos.unmake_move(mv);
                best = best.min(v?);
            }
            Ok(best)
        }
    }

    /// DTZ with en passant (python-chess `probe_dtz`).
    pub(crate) fn dtz(&self, pos: &mut Position) -> Result<i32, Fail> {
        if pos.castling_rights() != 0 {
            return Err(Fail::Castling);
        }
        let mut v = self.dtz_no_ep(pos)?;
        if pos.en_passant().is_none() {
            return Ok(v);
        }
        let (v1, only_en_passant) = self.en_passant_value(pos)?;
        if v1 > -3 {
            const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];
            let v1 = WDL_TO_DTZ[(v1 + 2) as usize];
            if v < -100 {
                if v1 >= 0 {
                    v = v1;
                }
            } else if v < 0 {
                if !(-100..0).contains(&v1) {
                    v = v1;
                }
            } else if v > 100 {
                if v1 > 0 {
                    v = v1;
                }
            } else if v > 0 {
                if v1 == 1 {
                    v = v1;
                }
            } else if v1 >= 0 || only_en_passant {
                v = v1;
            }
        }
        Ok(v)
    }
}
