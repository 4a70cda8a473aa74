//! Thinking output (`ply score time nodes pv`) and analysis status lines (`stat01: ...`).

use crate::board::{Move, Position};
use crate::engine::{Bound, ScoreView, SearchReport};
use std::time::Duration;

/// A search score in XBoard's units: centipawns, or ±(100000 + N) for mate in N moves. A
/// tablebase win shows as 20000 centipawns less the plies to the tablebase position.
pub fn xboard_score(score: i32) -> i64 {
    match ScoreView::of(score) {
        ScoreView::Mate(n) if n > 0 => 100_000 + i64::from(n),
        ScoreView::Mate(n) => -100_000 + i64::from(n),
        ScoreView::Centipawns(cp) => i64::from(cp),
    }
}

/// A duration in centiseconds.
pub fn centiseconds(time: Duration) -> u128 {
    time.as_millis() / 10
}

/// Formats one thinking line. `root` is the position the PV starts from, `prefix` moves played
/// before the search's own PV (the expected reply while pondering), `time` the time used. The
/// PV is in SAN; a fail low ends with `?`, a fail high with `!`. When the search has probed
/// tablebases, the optional fields of XBoard 4.8 follow the nodes, `seldepth nps tbhits`, and a
/// tab comes before the PV (XBoard reads the last number before the tab as the tbhits, the first
/// as the selective depth; earlier versions show them with the PV).
pub fn thinking_line(
    report: &SearchReport,
    root: &Position,
    prefix: &[Move],
    time: Duration,
) -> String {
    let mut line_moves = prefix.to_vec();
    line_moves.extend_from_slice(report.pv);
    let mut pv = root.clone().line_to_san(&line_moves);
    match report.bound {
        Bound::Exact => {}
        Bound::Upper => pv.push('?'),
        Bound::Lower => pv.push('!'),
    }
    let tbhits = if report.tbhits > 0 {
        let nps = u128::from(report.nodes) * 1000 / time.as_millis().max(1);
        let seldepth = report.seldepth.max(report.depth);
        format!(" {seldepth} {nps} {}\t", report.tbhits)
    } else {
        " ".to_string()
    };
    let line = format!(
        "{} {} {} {}{tbhits}{}",
        report.depth,
        xboard_score(report.score),
        centiseconds(time),
        report.nodes,
        pv
    );
    // A line without moves (a position without legal moves) ends with its numbers.
    line.trim_end().to_string()
}

/// Formats the answer to `.`: `stat01: time nodes ply mvleft mvtot mvname`.
pub fn stat01_line(
    time: Duration,
    nodes: u64,
    depth: u32,
    root_index: u32,
    root_total: u32,
    current: Option<String>,
) -> String {
    let left = root_total.saturating_sub(root_index);
    let mut line = format!(
        "stat01: {} {nodes} {depth} {left} {root_total}",
        centiseconds(time)
    );
    if let Some(name) = current {
        line.push(' ');
        line.push_str(&name);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn mate_scores_follow_the_protocol() {
        assert_eq!(xboard_score(35), 35);
        assert_eq!(xboard_score(-120), -120);
        assert_eq!(xboard_score(MATE - 1), 100_001);
        assert_eq!(xboard_score(MATE - 3), 100_002);
        assert_eq!(xboard_score(-(MATE - 2)), -100_001);
        assert_eq!(xboard_score(-(MATE - 4)), -100_002);
        assert_eq!(xboard_score(crate::search::score::TB_WIN - 2), 19_998);
        assert_eq!(xboard_score(-crate::search::score::TB_WIN), -20_000);
    }

    #[test]
    fn thinking_line_in_san_with_prefix_and_bounds() {
        let root = Position::startpos();
        let e4 = root.parse_move("e2e4").unwrap_or(Move::NONE);
        let mut after = root.clone();
        after.make_move(e4);
        let e5 = after.parse_move("e7e5").unwrap_or(Move::NONE);
        let report = SearchReport {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: 31,
            bound: Bound::Exact,
            elapsed: Duration::from_millis(1234),
            nodes: 5000,
            hashfull: 0,
            tbhits: 0,
            pv: &[e5],
            final_line: false,
        };
        assert_eq!(
            thinking_line(&report, &root, &[e4], report.elapsed),
            "7 31 123 5000 e4 e5"
        );
        let low = SearchReport {
            bound: Bound::Upper,
            pv: &[e4],
            ..report
        };
        assert_eq!(
            thinking_line(&low, &root, &[], Duration::from_secs(5)),
            "7 31 500 5000 e4?"
        );
        let high = SearchReport {
            bound: Bound::Lower,
            pv: &[e4],
            ..report
        };
        assert_eq!(
            thinking_line(&high, &root, &[], Duration::from_secs(5)),
            "7 31 500 5000 e4!"
        );
        let tb = SearchReport {
            tbhits: 12,
            pv: &[e4],
            ..report
        };
        assert_eq!(
            thinking_line(&tb, &root, &[], Duration::from_secs(5)),
            "7 31 500 5000 9 1000 12\te4"
        );
    }

    #[test]
    fn stat01() {
        assert_eq!(
            stat01_line(
                Duration::from_millis(12_340),
                30_000,
                7,
                25,
                30,
                Some("Nf3".into())
            ),
            "stat01: 1234 30000 7 5 30 Nf3"
        );
        assert_eq!(
            stat01_line(Duration::ZERO, 0, 0, 0, 0, None),
            "stat01: 0 0 0 0 0"
        );
    }
}
