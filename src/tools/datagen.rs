//! `betacut datagen`: self-play games at a fixed node budget that produce tuning data.
//!
//! Every game starts from the start position (or a line of an openings file) followed by a few
//! random plies drawn from a seeded generator, then Betacut plays both sides with a fixed node
//! budget per move, single-threaded per game: the same seed always gives the same games,
//! whatever the number of threads. Quiet positions (not in check, best move not a capture or
//! queen promotion) are written as `FEN | result`, the result from White's view (1.0, 0.5,
//! 0.0), games in index order.

use crate::board::{Color, Position};
use crate::search::picker::is_noisy;
use crate::search::{SearchControl, SearchLimits, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Number of games.
    pub games: usize,
    /// Node budget per move.
    pub nodes: u64,
    /// Random plies played after the opening position.
    pub random_plies: usize,
    /// Seed of the random openings.
    pub seed: u64,
    /// Games played in parallel.
    pub threads: usize,
    /// Opening positions (FENs) to start from; the start position when empty.
    pub openings: Vec<String>,
}

/// Result of one game from White's view, as written in the data.
fn result_label(white_score: f32) -> &'static str {
    if white_score > 0.75 {
        "1.0"
    } else if white_score < 0.25 {
        "0.0"
    } else {
        "0.5"
    }
}

/// Plays game number `index` and returns its labelled positions.
pub fn play_game(index: usize, config: &DatagenConfig, searcher: &mut Searcher) -> Vec<String> {
    let mut rng =
        StdRng::seed_from_u64(config.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let start = if config.openings.is_empty() {
        Position::startpos()
    } else {
        let line = &config.openings[rng.gen_range(0..config.openings.len())];
        match Position::from_fen(line) {
            Ok(pos) => pos,
            Err(_) => return Vec::new(),
        }
    };
    let mut pos = start;
    for _ in 0..config.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
        pos.make_move(mv);
    }
    if !pos.has_legal_move() {
        return Vec::new();
    }
    pos.clear_history();
    searcher.clear();

    let mut recorded: Vec<String> = Vec::new();
    let mut decisive_plies = 0;
    let mut quiet_plies = 0;
    let white_score: f32 = loop {
        if pos.is_checkmate() {
            break if pos.side_to_move() == Color::White {
                0.0
            } else {
                1.0
            };
        }
        if !pos.has_legal_move()
            || pos.repetition_count(2) >= 2
            || pos.is_fifty_move_draw()
            || pos.has_insufficient_material()
            || pos.game_ply() >= 400
        {
            break 0.5;
        }
        let limits = SearchLimits {
            nodes: Some(config.nodes),
            ..SearchLimits::default()
        };
        let control = SearchControl::new(false);
        let result = searcher.search(&pos, &limits, &control, &mut |_| {});
        if result.best_move.is_none() {
            break 0.5;
        }
        let white_view = result.score * pos.side_to_move().sign();
        // Adjudication: a clear advantage kept for 8 plies wins; a dead level game is drawn.
        if white_view.abs() >= 1000 {
            decisive_plies += 1;
            if decisive_plies >= 8 {
                break if white_view > 0 { 1.0 } else { 0.0 };
            }
        } else {
            decisive_plies = 0;
        }
        if white_view.abs() <= 8 && pos.game_ply() >= 80 {
            quiet_plies += 1;
            if quiet_plies >= 12 {
                break 0.5;
            }
        } else {
            quiet_plies = 0;
        }
        if !pos.in_check() && !is_noisy(&pos, result.best_move) && white_view.abs() < 2000 {
            recorded.push(pos.to_fen());
        }
        pos.make_move(result.best_move);
    };
    let label = result_label(white_score);
    recorded
        .into_iter()
        .map(|fen| format!("{fen} | {label}"))
        .collect()
}

/// Runs the games on `config.threads` threads and writes the positions to `out` in game order.
/// `progress` is called after each game with (games done, positions written).
pub fn run_datagen(
    config: &DatagenConfig,
    out: &mut dyn Write,
    mut progress: impl FnMut(usize, usize),
) -> std::io::Result<usize> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Vec<String>)>();
    let mut written = 0;
    std::thread::scope(|scope| -> std::io::Result<()> {
        for _ in 0..config.threads.max(1) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                let mut searcher = Searcher::new(16);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let lines = play_game(index, config, &mut searcher);
                    if sender.send((index, lines)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Games finish out of order; write them strictly by index so output is reproducible.
        let mut pending: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        let mut next_to_write = 0;
        for (index, lines) in receiver {
            pending.insert(index, lines);
            while let Some(lines) = pending.remove(&next_to_write) {
                for line in &lines {
                    writeln!(out, "{line}")?;
                }
                written += lines.len();
                next_to_write += 1;
                progress(next_to_write, written);
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_and_labelled() {
        let config = DatagenConfig {
            games: 2,
            nodes: 500,
            random_plies: 6,
            seed: 7,
            threads: 1,
            openings: Vec::new(),
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        let n = run_datagen(&config, &mut a, |_, _| {}).unwrap_or(0);
        let config2 = DatagenConfig {
            threads: 2,
            ..config
        };
        run_datagen(&config2, &mut b, |_, _| {}).unwrap_or(0);
        assert!(n > 10, "a game yields positions");
        assert_eq!(a, b, "same seed, same data, whatever the threads");
        let text = String::from_utf8(a).unwrap_or_default();
        for line in text.lines() {
            let (fen, label) = line.split_once(" | ").unwrap_or(("", ""));
            assert!(Position::from_fen(fen).is_ok(), "{line}");
            assert!(["1.0", "0.5", "0.0"].contains(&label), "{line}");
        }
    }
}
