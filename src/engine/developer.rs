//! The developer commands known from Stockfish, as lines of text for the user: the board
//! (`d`), the evaluation explained (`eval`), perft split by root move (`go perft N`) and the
//! bench. They run on the calling thread and only while no search runs.

use super::Engine;
use crate::board::perft::divide;
use crate::board::Square;
use crate::eval::explain::explain;
use crate::search::bench::{run_bench, BenchSummary};

impl Engine {
    /// The game position as a board diagram (White at the bottom), then its FEN, its key
    /// (Polyglot-compatible Zobrist hash) and the checking pieces.
    pub fn board_diagram(&self) -> Vec<String> {
        let pos = self.game.position();
        let rule = " +---+---+---+---+---+---+---+---+".to_string();
        let mut lines = vec![String::new(), rule.clone()];
        for rank in (0..8u8).rev() {
            let mut row = String::from(" |");
            for file in 0..8u8 {
                let piece = pos.piece_at(Square::new(file, rank));
                row.push(' ');
                row.push(piece.map_or(' ', |p| p.fen_char()));
                row.push_str(" |");
            }
            row.push_str(&format!(" {}", rank + 1));
            lines.push(row);
            lines.push(rule.clone());
        }
        lines.push("   a   b   c   d   e   f   g   h".to_string());
        lines.push(String::new());
        lines.push(format!("Fen: {}", pos.to_fen()));
        lines.push(format!("Key: {:016X}", pos.key()));
        let checkers: String = pos.checkers().map(|sq| format!(" {sq}")).collect();
        lines.push(format!("Checkers:{checkers}"));
        lines
    }

    /// The evaluation of the game position explained: the hand-crafted terms, then both
    /// evaluations, then the one in use: the network's when there is one, except that at a
    /// playing level the engine's own moves are searched with the hand-crafted evaluation.
    pub fn explain_evaluation(&self) -> Vec<String> {
        let pos = self.game.position();
        let mut lines = explain(pos, self.evaluation.network.as_deref()).lines(pos.side_to_move());
        let in_use = if self.settings.limit_strength {
            format!(
                "hand-crafted for the engine's moves at the playing level (UCI_Elo {}); {} \
                 for analysis",
                self.settings.elo,
                self.evaluation_name()
            )
        } else {
            self.evaluation_name()
        };
        lines.push(format!("Evaluation in use: {in_use}"));
        lines
    }

    /// Perft of the game position to `depth` split by root move (`e2e4: 20`), then the total
    /// (`Nodes searched: N`), as Stockfish prints it.
    pub fn perft_lines(&self, depth: u32) -> Vec<String> {
        let mut pos = self.game.position().clone();
        let split = divide(&mut pos, depth.max(1));
        let mut lines: Vec<String> = split
            .iter()
            .map(|&(mv, nodes)| format!("{}: {nodes}", pos.move_to_coordinate(mv)))
            .collect();
        let total: u64 = split.iter().map(|&(_, nodes)| nodes).sum();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines
    }

    /// The bench with the evaluation in use: every bench position searched to `depth` from
    /// a fresh state (one thread), `line` called with a progress line per position.
    pub fn bench(&self, depth: u32, line: impl FnMut(&str)) -> BenchSummary {
        run_bench(depth, self.evaluation.network.as_ref(), line)
    }
}
