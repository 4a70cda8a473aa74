//! UCI's output lines: `id`, `option`, `info` and `bestmove`.

use crate::board::{Move, Position};
use crate::engine::options::{tunable_options, OptionKind, OptionScope, OPTIONS};
use crate::engine::{engine_name, Bound, ScoreView, SearchInfo, ENGINE_AUTHOR};
use std::time::Duration;

/// The reply to `uci`: identification, the evaluation in use (`evaluation`, as an `info
/// string`), options, `uciok`.
pub fn uci_reply(evaluation: &str) -> Vec<String> {
    let mut lines = vec![
        format!("id name {}", engine_name()),
        format!("id author {ENGINE_AUTHOR}"),
        format!("info string evaluation: {evaluation}"),
    ];
    lines.extend(
        OPTIONS
            .iter()
            .copied()
            .chain(tunable_options())
            .filter(|spec| matches!(spec.scope, OptionScope::All | OptionScope::UciOnly))
            .map(|spec| {
                let kind = match spec.kind {
                    OptionKind::Check { default } => format!("type check default {default}"),
                    OptionKind::Spin { default, min, max } => {
                        format!("type spin default {default} min {min} max {max}")
                    }
                    OptionKind::Button => "type button".to_string(),
                    OptionKind::Text { default } => {
                        let shown = if default.is_empty() {
                            "<empty>"
                        } else {
                            default
                        };
                        format!("type string default {shown}")
                    }
                };
                format!("option name {} {kind}", spec.name)
            }),
    );
    lines.push("uciok".to_string());
    lines
}

/// `cp N` or `mate N` (moves; negative when the side to move is mated). A tablebase win
/// shows as `cp 20000` less the plies to the tablebase position (see
/// [`crate::search::score::TB_DISPLAY`]), never as a mate.
pub fn score_text(score: i32) -> String {
    match ScoreView::of(score) {
        ScoreView::Mate(moves) => format!("mate {moves}"),
        ScoreView::Centipawns(cp) => format!("cp {cp}"),
    }
}

/// The moves of `pv` in UCI notation from `root`, as far as each is legal where it is played.
pub fn pv_text(root: &Position, pv: &[Move]) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        words.push(pos.move_to_coordinate(mv));
        pos.make_move(mv);
    }
    words.join(" ")
}

/// One `info` line for a search line.
pub fn info_line(info: &SearchInfo) -> String {
    let report = info.report;
    let millis = info.time.as_millis();
    let nps = u128::from(report.nodes) * 1000 / millis.max(1);
    let bound = match report.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let pv = pv_text(info.root, report.pv);
    let pv = if pv.is_empty() {
        pv
    } else {
        format!(" pv {pv}")
    };
    let wdl = info
        .wdl()
        .map_or(String::new(), |wdl| format!(" wdl {wdl}"));
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {nps} hashfull {} \
         tbhits {} time {millis}{pv}",
        report.depth,
        report.seldepth.max(report.depth),
        report.multipv,
        score_text(report.score),
        report.nodes,
        report.hashfull,
        report.tbhits,
    )
}

/// How long a search runs before it reports the root move it works on.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// `bestmove MOVE [ponder MOVE]` for a search of `pos`; `(none)` when there is no legal move.
pub fn bestmove_line(pos: &Position, best: Move, ponder: Option<Move>) -> String {
    if best.is_none() || !pos.is_legal(best) {
        return "bestmove (none)".to_string();
    }
    let mut line = format!("bestmove {}", pos.move_to_coordinate(best));
    let mut after = pos.clone();
    after.make_move(best);
    if let Some(reply) = ponder.filter(|&m| !m.is_none() && after.is_legal(m)) {
        line.push_str(" ponder ");
        line.push_str(&after.move_to_coordinate(reply));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn scores_and_moves_in_uci_form() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(MATE - 1), "mate 1");
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(-(MATE - 2)), "mate -1");
        assert_eq!(score_text(crate::search::score::TB_WIN - 3), "cp 19997");
        assert_eq!(score_text(-crate::search::score::TB_WIN), "cp -20000");
        let start = Position::startpos();
        let e4 = start.parse_move("e2e4").unwrap_or(Move::NONE);
        let mut after = start.clone();
        after.make_move(e4);
        let e5 = after.parse_move("e7e5").unwrap_or(Move::NONE);
        assert_eq!(pv_text(&start, &[e4, e5]), "e2e4 e7e5");
        // An illegal tail is cut off.
        assert_eq!(pv_text(&start, &[e4, e4]), "e2e4");
        assert_eq!(
            bestmove_line(&start, e4, Some(e5)),
            "bestmove e2e4 ponder e7e5"
        );
        assert_eq!(bestmove_line(&start, e4, Some(e4)), "bestmove e2e4");
        assert_eq!(bestmove_line(&start, Move::NONE, None), "bestmove (none)");
    }

    #[test]
    fn the_option_list_is_complete() {
        let reply = uci_reply("built-in network").join("\n");
        for needed in [
            "id name Betacut",
            "info string evaluation: built-in network",
            "option name UCI_ShowWDL type check default false",
            "option name Hash type spin default 16 min 1 max 1048576",
            "option name Threads type spin default 1 min 1 max 256",
            "option name Ponder type check default false",
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name UCI_Chess960 type check default false",
            "option name Move Overhead type spin default 50 min 0 max 5000",
            "option name Clear Hash type button",
            "option name Log File type string default <empty>",
            "option name SyzygyPath type string default <empty>",
            "option name Syzygy50MoveRule type check default true",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        ] {
            assert!(reply.contains(needed), "{needed}");
        }
        assert!(reply.ends_with("uciok"));
    }
}
