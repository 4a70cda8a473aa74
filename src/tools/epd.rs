//! `betacut epd`: runs a test suite of EPD positions with best-move (`bm`) or avoid-move (`am`)
//! operations and reports how many the engine solves.

use crate::board::{Move, Position};
use crate::eval::nnue::Network;
use crate::search::{Bound, SearchControl, SearchLimits, SearchReport, SearchUpdate, Searcher};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdCase {
    /// The `id` operation, or the line number.
    pub id: String,
    /// The position.
    pub fen: String,
    /// Moves that solve it (`bm`), in SAN as written.
    pub best: Vec<String>,
    /// Moves that fail it (`am`), in SAN as written.
    pub avoid: Vec<String>,
}

/// Problems reading an EPD suite.
pub use super::input::InputError as EpdError;

/// Parses EPD text: four FEN fields, then `;`-separated operations (`bm`, `am`, `id`, others
/// ignored).
pub fn parse_epd(text: &str) -> Result<Vec<EpdCase>, EpdError> {
    let mut cases = Vec::new();
    for (line, raw) in super::input::content_lines(text) {
        let bad = |reason: &str| EpdError::BadLine {
            line,
            reason: reason.to_string(),
        };
        let mut words = raw.splitn(5, char::is_whitespace);
        let fen_fields: Vec<&str> = words.by_ref().take(4).collect();
        if fen_fields.len() < 4 {
            return Err(bad("fewer than four FEN fields"));
        }
        let fen = fen_fields.join(" ");
        Position::from_fen(&fen).map_err(|e| bad(&format!("bad position: {e}")))?;
        let mut case = EpdCase {
            id: format!("line {line}"),
            fen,
            best: Vec::new(),
            avoid: Vec::new(),
        };
        for op in words.next().unwrap_or_default().split(';') {
            let op = op.trim();
            let (name, value) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            let value = value.trim();
            match name {
                "bm" => case.best = value.split_whitespace().map(String::from).collect(),
                "am" => case.avoid = value.split_whitespace().map(String::from).collect(),
                "id" => case.id = value.trim_matches('"').to_string(),
                _ => {}
            }
        }
        if case.best.is_empty() && case.avoid.is_empty() {
            return Err(bad("no bm or am operation"));
        }
        cases.push(case);
    }
    Ok(cases)
}

/// Reads and parses an EPD file.
pub fn load_epd(path: &Path) -> Result<Vec<EpdCase>, EpdError> {
    parse_epd(&super::input::read_text(path)?)
}

/// Outcome of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOutcome {
    /// The case's id.
    pub id: String,
    /// True if the engine's move is a `bm` move and not an `am` move.
    pub solved: bool,
    /// The engine's move in SAN.
    pub played: String,
    /// What was expected, e.g. `bm Qg6` or `am Bxh7`.
    pub expected: String,
}

/// Decides whether `played` answers the case: it must be one of the `bm` moves (if any) and
/// none of the `am` moves. SAN is compared by meaning (parsed in the position), so `Qg6+`,
/// `Qg6` and `Qg6#` are the same move.
pub fn judge(pos: &Position, case: &EpdCase, played: Move) -> bool {
    let matches = |list: &[String]| {
        list.iter()
            .any(|san| pos.parse_san(san).is_ok_and(|m| m == played))
    };
    (case.best.is_empty() || matches(&case.best)) && !matches(&case.avoid)
}

/// Runs every case with a fresh search of `limits` each (evaluating with `network`, or the
/// hand-crafted evaluation if `None`), calling `on_iteration` (with a copy of the case's
/// position) after each completed iteration and `report` per case.
pub fn run_epd(
    cases: &[EpdCase],
    limits: &SearchLimits,
    hash_mb: usize,
    threads: usize,
    network: Option<Arc<Network>>,
    on_iteration: &mut (dyn FnMut(&mut Position, &SearchReport) + Send),
    mut report: impl FnMut(&EpdOutcome),
) -> Vec<EpdOutcome> {
    let mut searcher = Searcher::new(hash_mb);
    searcher.set_threads(threads);
    searcher.set_network(network);
    let mut outcomes = Vec::with_capacity(cases.len());
    for case in cases {
        let Ok(mut pos) = Position::from_fen(&case.fen) else {
            continue;
        };
        searcher.clear();
        let control = SearchControl::new(false);
        let mut shown = pos.clone();
        let result = searcher.search(&pos, limits, &control, &mut |update| {
            if let SearchUpdate::Line(r) = update {
                if r.bound == Bound::Exact && r.multipv == 1 {
                    on_iteration(&mut shown, r);
                }
            }
        });
        let solved = judge(&pos, case, result.best_move);
        let played = pos.move_to_san(result.best_move);
        let expected = if case.best.is_empty() {
            format!("am {}", case.avoid.join(" "))
        } else {
            format!("bm {}", case.best.join(" "))
        };
        let outcome = EpdOutcome {
            id: case.id.clone(),
            solved,
            played,
            expected,
        };
        report(&outcome);
        outcomes.push(outcome);
    }
    outcomes
}

/// Limits for a suite run: `--movetime MS`, `--depth N` and/or `--nodes N` (each one given
/// applies; with none, 1 s per position). A node budget makes a run independent of machine
/// load, which is what comparisons between builds want.
pub fn suite_limits(
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
) -> SearchLimits {
    let mut limits = SearchLimits {
        depth,
        nodes,
        movetime: movetime_ms.map(Duration::from_millis),
        ..SearchLimits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(Duration::from_secs(1));
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_wac_style_lines_and_judges_moves() {
        let text = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
                    r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - am Nxc6; id \"x\";\n";
        let cases = parse_epd(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].id, "WAC.001");
        assert_eq!(cases[0].best, vec!["Qg6"]);
        assert_eq!(cases[1].avoid, vec!["Nxc6"]);
        let pos = Position::from_fen(&cases[0].fen).unwrap_or_else(|e| panic!("{e}"));
        let qg6 = pos.parse_move("g3g6").unwrap_or(Move::NONE);
        let qg4 = pos.parse_move("g3g4").unwrap_or(Move::NONE);
        assert!(judge(&pos, &cases[0], qg6));
        assert!(!judge(&pos, &cases[0], qg4));
        assert!(parse_epd("8/8/8 w - - bm e4;").is_err());
        assert!(parse_epd("4k3/8/8/8/8/8/8/4K3 w - - id \"no ops\";").is_err());
    }

    #[test]
    fn suite_limits_default_to_one_second_and_keep_every_given_limit() {
        assert_eq!(
            suite_limits(None, None, None).movetime,
            Some(Duration::from_secs(1))
        );
        let both = suite_limits(None, Some(9), Some(5000));
        assert_eq!(
            (both.depth, both.nodes, both.movetime),
            (Some(9), Some(5000), None)
        );
    }

    #[test]
    fn a_node_limited_run_solves_a_sacrifice_that_mates() {
        // WAC.004: 1. Qxh7+ Kxh7 2. hxg6+ Kxg6 (or Kg8) and the rook mates on h8 or h6.
        let text =
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";\n";
        let cases = parse_epd(text).unwrap_or_else(|e| panic!("{e}"));
        let limits = suite_limits(None, None, Some(2_000_000));
        let outcomes = run_epd(&cases, &limits, 16, 1, None, &mut |_, _| {}, |_| {});
        assert_eq!(outcomes.len(), 1);
        assert!(outcomes[0].solved, "played {}", outcomes[0].played);
        assert_eq!(outcomes[0].played, "Qxh7+");
    }
}
