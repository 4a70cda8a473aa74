//! `betacut probe`: WDL and DTZ of positions from Syzygy tables, one line per position,
//! `<FEN> ;wdl W ;dtz D` (python-chess's sign conventions), and the cost of a probe.

use crate::board::Position;
use crate::tb::{Tablebases, DEFAULT_MEMORY_LIMIT};
use std::path::PathBuf;
use std::time::Instant;

/// The FEN part of an input line (the text before any `;`), or `None` for blank lines and
/// `#` comments.
pub fn fen_of_line(line: &str) -> Option<&str> {
    let fen = line.split(';').next().unwrap_or_default().trim();
    (!fen.is_empty() && !fen.starts_with('#')).then_some(fen)
}

/// The output line for `fen`: `<FEN> ;wdl W ;dtz D`; `-` and the reason when a value cannot be
/// had (a missing table, castling rights), `;error ...` for a FEN that does not parse. The
/// second value is false for a FEN that does not parse.
pub fn probe_line(tables: &Tablebases, fen: &str) -> (String, bool) {
    let mut pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => return (format!("{fen} ;error bad FEN: {e}"), false),
    };
    let wdl = match tables.probe_wdl_mut(&mut pos) {
        Ok(wdl) => wdl.value(),
        Err(e) => return (format!("{fen} ;wdl - ;dtz - ;{e}"), true),
    };
    match tables.probe_dtz_mut(&mut pos) {
        Ok(dtz) => (format!("{fen} ;wdl {wdl} ;dtz {dtz}"), true),
        Err(e) => (format!("{fen} ;wdl {wdl} ;dtz - ;{e}"), true),
    }
}

/// Times WDL probes of `positions` and prints the figures to standard error: loading every
/// table file (open and parse, from the operating system's file cache), the first probe of each
/// position with the tables not yet loaded ("cold"), then `rounds` rounds of probes of every
/// position with the tables held in memory, and with every file read block by block from disk
/// ("warm"; the fastest and the median round, since other programs on the machine slow some
/// rounds down).
pub fn bench(dirs: &[PathBuf], positions: &[Position], rounds: u32) -> Result<(), String> {
    if positions.is_empty() {
        return Err("no positions to time".into());
    }
    let open = |limit| Tablebases::open_dirs(dirs, limit).map_err(|e| e.to_string());
    let n = positions.len() as f64;

    let tables = open(DEFAULT_MEMORY_LIMIT)?;
    let (wdl, dtz) = tables.file_counts();
    let start = Instant::now();
    let errors = tables.load_all().len();
    let load = start.elapsed().as_secs_f64();
    crate::errln!(
        "loading {} files: {:.1} ms ({:.0} us per file, {errors} unusable)",
        wdl + dtz,
        load * 1e3,
        load * 1e6 / (wdl + dtz).max(1) as f64
    );

    let tables = open(DEFAULT_MEMORY_LIMIT)?;
    let start = Instant::now();
    let mut hits = 0u64;
    for pos in positions {
        hits += u64::from(tables.probe_wdl(pos).is_ok());
    }
    let cold = start.elapsed().as_secs_f64();
    crate::errln!(
        "cold (each table loaded by its first probe): {:.0} ns/probe, {hits} of {} positions found",
        cold * 1e9 / n,
        positions.len()
    );
    for (label, limit) in [("in memory", DEFAULT_MEMORY_LIMIT), ("read from disk", 0)] {
        let tables = open(limit)?;
        let mut work: Vec<Position> = positions.to_vec();
        for pos in &mut work {
            let _ = tables.probe_wdl_mut(pos);
        }
        let mut times = Vec::new();
        let mut sum = 0i64;
        for _ in 0..rounds.max(1) {
            let start = Instant::now();
            for pos in &mut work {
                sum += i64::from(tables.probe_wdl_mut(pos).map_or(9, |w| w.value()));
            }
            times.push(start.elapsed().as_secs_f64() * 1e9 / n);
        }
        times.sort_by(f64::total_cmp);
        crate::errln!(
            "warm, {label}: {:.0} ns/probe fastest round, {:.0} median ({} rounds of {} probes, checksum {sum})",
            times[0],
            times[times.len() / 2],
            times.len(),
            positions.len()
        );
    }
    Ok(())
}
