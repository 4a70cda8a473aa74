//! `betacut-lab datagen`: self-play games at a fixed node budget (or depth) that produce training
//! data for the network (binary records, [`crate::records`]) or the Texel tuner (text).
//!
//! Every game starts from the start position (or a line of an openings file) followed by a few
//! random plies drawn from a generator seeded by the run's seed and the game's number, then
//! Betacut plays both sides with a fixed budget per move (nodes, optionally a soft node budget
//! that ends each move on a completed iteration, or depth), single-threaded per game, with its
//! table and histories cleared: game `i` depends only on the seed and `i`, whatever the number
//! of threads, so a run can be split into ranges of games (`first_game`) whose outputs
//! concatenate into the output of one run. Games are written in game order.
//!
//! Options for better data: a range of random plies (`random_plies..=random_plies_max`), a
//! limit on the first search's score beyond which the game is dropped, keeping only exact
//! scores, and searching without the fifty-move damping of the evaluation (see
//! [`DatagenConfig`]).
//!
//! A position is kept if it is not in check, the move the search chose is not a capture or
//! queen promotion and its score is below 2000 cp (so no mate scores). The binary data also
//! leaves out positions whose chosen move is an underpromotion (any promotion is noisy); the
//! text data keeps them, as it always has. Text lines are `FEN | result`; records hold the
//! search score and the result, both from White's view.

use crate::frc;
use crate::records::{DataRecord, GameResult, PackedRecord};
use betacut::board::{Color, Position};
use betacut::eval::nnue::Network;
use betacut::search::picker::is_noisy;
use betacut::search::{SearchControl, SearchLimits, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Scores at or beyond this (centipawns, either side) are not written.
pub const MAX_RECORDED_SCORE: i32 = 2000;

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Number of games.
    pub games: usize,
    /// Number of the first game (games `first_game .. first_game + games` are played).
    pub first_game: usize,
    /// Node budget per move, the hard cap (`None`: no node limit).
    pub nodes: Option<u64>,
    /// Soft node budget per move: the move comes from the first iteration that ends with at
    /// least this many nodes spent (`None`: only the hard cap).
    pub soft_nodes: Option<u64>,
    /// Depth limit per move (`None`: no depth limit).
    pub depth: Option<u32>,
    /// Random plies played after the opening position (at least; see `random_plies_max`).
    pub random_plies: usize,
    /// Most random plies: each game draws its number from `random_plies..=random_plies_max`
    /// (so both sides get the first searched move); a number not above `random_plies` (the
    /// default, 0) plays exactly `random_plies`.
    pub random_plies_max: usize,
    /// A game whose first search scores beyond this (centipawns, either side) is dropped: a
    /// random opening that is already lost teaches little (`None`: every game is played).
    pub opening_limit: Option<i32>,
    /// Keep only positions whose score is exact (a completed iteration), never the lower bound
    /// of a fail high that the node cap interrupted.
    pub exact_only: bool,
    /// Search without drawing evaluations towards zero as the fifty-move count grows, so the
    /// recorded scores do not depend on a count the network never sees.
    pub undamped: bool,
    /// Seed of the random openings.
    pub seed: u64,
    /// Games played in parallel.
    pub threads: usize,
    /// Transposition table per thread, MiB.
    pub hash_mb: usize,
    /// Opening positions (FENs) to start from; the start position when empty.
    pub openings: Vec<String>,
    /// Share of games (0..=1) that start from a Chess960 back rank (both sides alike) instead,
    /// drawn uniformly from the 960.
    pub chess960_share: f64,
    /// Share of games (0..=1) that start from a double Chess960 start (each side its own back
    /// rank). With both shares 0 no game's start or moves change.
    pub double_chess960_share: f64,
    /// The network both sides play with; the hand-crafted evaluation when `None`.
    pub network: Option<Arc<Network>>,
}

impl Default for DatagenConfig {
    fn default() -> DatagenConfig {
        DatagenConfig {
            games: 1000,
            first_game: 0,
            nodes: Some(6000),
            soft_nodes: None,
            depth: None,
            random_plies: 8,
            random_plies_max: 0,
            opening_limit: None,
            exact_only: false,
            undamped: false,
            seed: 1,
            threads: 1,
            hash_mb: 16,
            openings: Vec::new(),
            chess960_share: 0.0,
            double_chess960_share: 0.0,
            network: None,
        }
    }
}

/// What a run writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// 32-byte records with score and result ([`crate::records`]).
    Binary,
    /// `FEN | result` lines for the Texel tuner.
    Text,
}

/// A kept position of a game.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position's FEN.
    pub fen: String,
    /// The position's record (its result is filled in when the game ends).
    pub record: DataRecord,
    /// The chosen move was a promotion (an underpromotion: queen promotions are not kept).
    pub promotes: bool,
}

/// A finished game: its kept positions and its result.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Kept positions, in game order.
    pub samples: Vec<Sample>,
    /// The result from White's view.
    pub result: GameResult,
    /// Random plies played before the first search.
    pub opening_plies: usize,
}

impl PlayedGame {
    fn empty() -> PlayedGame {
        PlayedGame {
            samples: Vec::new(),
            result: GameResult::Draw,
            opening_plies: 0,
        }
    }

    /// Appends the game's data in `format` to `out`; returns the number of positions.
    fn write(&self, format: DataFormat, out: &mut dyn Write) -> std::io::Result<usize> {
        let mut written = 0;
        for sample in &self.samples {
            match format {
                DataFormat::Text => writeln!(out, "{} | {}", sample.fen, self.result.label())?,
                DataFormat::Binary if sample.promotes => continue,
                DataFormat::Binary => {
                    let record = DataRecord {
                        result: self.result,
                        ..sample.record.clone()
                    };
                    let bytes: PackedRecord = record.to_bytes();
                    out.write_all(&bytes)?;
                }
            }
            written += 1;
        }
        Ok(written)
    }
}

/// The Chess960 or double Chess960 start of game `index`, if its draw picks one. The draw has
/// a generator of its own (from the seed and `index`), so the shares change no other game.
fn chess960_start(index: usize, config: &DatagenConfig) -> Option<Position> {
    let (single, double) = (config.chess960_share, config.double_chess960_share);
    if single <= 0.0 && double <= 0.0 {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(
        config.seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x0960_0960_0960_0960,
    );
    let draw: f64 = rng.gen();
    let white = rng.gen_range(0..frc::BACK_RANKS);
    if draw < single {
        frc::start_position(white, white)
    } else if draw < single + double {
        frc::start_position(white, rng.gen_range(0..frc::BACK_RANKS))
    } else {
        None
    }
}

/// Plays game number `index` (its opening depends only on the seed and `index`).
pub fn play_game(index: usize, config: &DatagenConfig, searcher: &mut Searcher) -> PlayedGame {
    let mut rng =
        StdRng::seed_from_u64(config.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let start = if let Some(start) = chess960_start(index, config) {
        start
    } else if config.openings.is_empty() {
        Position::startpos()
    } else {
        let line = &config.openings[rng.gen_range(0..config.openings.len())];
        match Position::from_fen(line) {
            Ok(pos) => pos,
            Err(_) => return PlayedGame::empty(),
        }
    };
    let mut pos = start;
    // A range is drawn from the game's generator only when there is one, so the games of a
    // fixed number of plies are those of earlier versions.
    let plies = if config.random_plies_max > config.random_plies {
        rng.gen_range(config.random_plies..=config.random_plies_max)
    } else {
        config.random_plies
    };
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return PlayedGame::empty();
        }
        let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
        pos.make_move(mv);
    }
    if !pos.has_legal_move() {
        return PlayedGame::empty();
    }
    pos.clear_history();
    searcher.clear();
    searcher.set_fifty_move_damping(!config.undamped);
    let start_ply = pos.game_ply();

    let limits = SearchLimits {
        nodes: config.nodes,
        soft_nodes: config.soft_nodes,
        depth: config.depth,
        ..SearchLimits::default()
    };
    let mut samples = Vec::new();
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
        let control = SearchControl::new(false);
        let result = searcher.search(&pos, &limits, &control, &mut |_| {});
        if result.best_move.is_none() {
            break 0.5;
        }
        let white_view = result.score * pos.side_to_move().sign();
        // The first search is the opening's verification: a lopsided opening is dropped.
        if pos.game_ply() == start_ply
            && config
                .opening_limit
                .is_some_and(|limit| white_view.abs() > limit)
        {
            return PlayedGame::empty();
        }
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
        if !pos.in_check()
            && !is_noisy(&pos, result.best_move)
            && white_view.abs() < MAX_RECORDED_SCORE
            && (result.exact || !config.exact_only)
        {
            samples.push(Sample {
                fen: pos.to_fen(),
                record: DataRecord::from_position(&pos, white_view as i16, GameResult::Draw),
                promotes: result.best_move.promotion_kind().is_some(),
            });
        }
        pos.make_move(result.best_move);
    };
    PlayedGame {
        samples,
        result: GameResult::from_white_score(white_score),
        opening_plies: plies,
    }
}

/// Plays games `first_game .. first_game + games` on `config.threads` threads and writes their
/// data in `format` to `out` in game order. `progress` is called after each game written with
/// (games done, positions written). Returns the number of positions written.
pub fn run_datagen(
    config: &DatagenConfig,
    format: DataFormat,
    out: &mut dyn Write,
    mut progress: impl FnMut(usize, usize),
) -> std::io::Result<usize> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, PlayedGame)>();
    let mut written = 0;
    std::thread::scope(|scope| -> std::io::Result<()> {
        for _ in 0..config.threads.max(1) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                let mut searcher = Searcher::new(config.hash_mb);
                searcher.set_network(config.network.clone());
                loop {
                    let offset = next.fetch_add(1, Ordering::Relaxed);
                    if offset >= config.games {
                        break;
                    }
                    let game = play_game(config.first_game + offset, config, &mut searcher);
                    if sender.send((offset, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Games finish out of order; write them strictly by number so output is reproducible.
        let mut pending: BTreeMap<usize, PlayedGame> = BTreeMap::new();
        let mut next_to_write = 0;
        for (offset, game) in receiver {
            pending.insert(offset, game);
            while let Some(game) = pending.remove(&next_to_write) {
                written += game.write(format, out)?;
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
    use crate::records::parse_records;
    use betacut::search::score::is_mate;
    use std::path::Path;

    fn config(games: usize, threads: usize) -> DatagenConfig {
        DatagenConfig {
            games,
            nodes: Some(500),
            random_plies: 6,
            seed: 7,
            threads,
            hash_mb: 2,
            ..DatagenConfig::default()
        }
    }

    fn run(config: &DatagenConfig, format: DataFormat) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        let n = run_datagen(config, format, &mut out, |_, _| {}).unwrap_or(0);
        (out, n)
    }

    #[test]
    fn games_are_reproducible_and_labelled() {
        let (a, n) = run(&config(2, 1), DataFormat::Text);
        let (b, _) = run(&config(2, 2), DataFormat::Text);
        assert!(n > 10, "a game yields positions");
        assert_eq!(a, b, "same seed, same data, whatever the threads");
        let text = String::from_utf8(a).unwrap_or_default();
        for line in text.lines() {
            let (fen, label) = line.split_once(" | ").unwrap_or(("", ""));
            assert!(Position::from_fen(fen).is_ok(), "{line}");
            assert!(["1.0", "0.5", "0.0"].contains(&label), "{line}");
        }
    }

    #[test]
    fn a_soft_node_budget_plays_reproducible_games_of_its_own() {
        let soft = |threads| DatagenConfig {
            soft_nodes: Some(300),
            nodes: Some(1500),
            ..config(2, threads)
        };
        let (a, n) = run(&soft(1), DataFormat::Binary);
        let (b, _) = run(&soft(2), DataFormat::Binary);
        assert!(n > 10, "a game yields positions");
        assert_eq!(a, b, "same seed, same data, whatever the threads");
        let (hard_only, _) = run(&config(2, 1), DataFormat::Binary);
        assert_ne!(a, hard_only, "the soft budget reaches the searches");
    }

    fn fens(game: &PlayedGame) -> Vec<String> {
        game.samples.iter().map(|s| s.fen.clone()).collect()
    }

    #[test]
    fn chess960_shares_change_only_the_games_they_pick() {
        let mut searcher = Searcher::new(2);
        let plain = config(1, 1);
        let mixed = DatagenConfig {
            chess960_share: 0.4,
            double_chess960_share: 0.3,
            ..config(1, 1)
        };
        let fens = |game: &PlayedGame| -> Vec<String> {
            game.samples.iter().map(|s| s.fen.clone()).collect()
        };
        let (mut single, mut double, mut usual) = (0, 0, 0);
        for index in 0..16 {
            let before = play_game(index, &plain, &mut searcher);
            let after = play_game(index, &mixed, &mut searcher);
            let Some(start) = chess960_start(index, &mixed) else {
                // Not picked: the very same game as without the shares.
                assert_eq!(fens(&after), fens(&before), "game {index}");
                usual += 1;
                continue;
            };
            assert!(start.is_chess960());
            let fen = start.to_fen();
            let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
            if ranks[0].to_ascii_uppercase() == ranks[7] {
                single += 1;
            } else {
                double += 1;
            }
            // The game is played from it (random plies, then searched moves).
            assert_eq!(after.opening_plies, 6);
            assert_ne!(fens(&after), fens(&before), "game {index}");
        }
        assert!(
            single > 0 && double > 0 && usual > 0,
            "{single} {double} {usual}"
        );
    }

    #[test]
    fn a_range_of_random_plies_gives_both_sides_the_first_search() {
        let mut searcher = Searcher::new(2);
        let fixed = config(1, 1);
        let range = DatagenConfig {
            random_plies_max: 9,
            ..config(1, 1)
        };
        let mut counts = [0usize; 2];
        for index in 0..12 {
            let game = play_game(index, &fixed, &mut searcher);
            assert!(game.samples.is_empty() || game.opening_plies == 6);
            let game = play_game(index, &range, &mut searcher);
            if !game.samples.is_empty() {
                assert!((6..=9).contains(&game.opening_plies));
                counts[game.opening_plies % 2] += 1;
            }
        }
        assert!(
            counts[0] > 0 && counts[1] > 0,
            "odd and even openings: {counts:?}"
        );
    }

    #[test]
    fn the_opening_limit_drops_lopsided_games_and_keeps_the_rest_as_they_were() {
        let mut searcher = Searcher::new(2);
        let all = config(1, 1);
        let limited = DatagenConfig {
            opening_limit: Some(40),
            ..config(1, 1)
        };
        let mut dropped = 0;
        for index in 0..12 {
            let full = play_game(index, &all, &mut searcher);
            let kept = play_game(index, &limited, &mut searcher);
            if kept.samples.is_empty() {
                dropped += usize::from(!full.samples.is_empty());
            } else {
                assert_eq!(fens(&kept), fens(&full), "game {index} is the same game");
            }
        }
        assert!(
            dropped > 0,
            "six random plies give some opening beyond 40 cp"
        );
    }

    #[test]
    fn exact_only_keeps_a_subset_of_the_same_games_positions() {
        let mut searcher = Searcher::new(2);
        // A hard cap close to the soft budget interrupts many iterations.
        let base = DatagenConfig {
            soft_nodes: Some(300),
            nodes: Some(420),
            ..config(1, 1)
        };
        let exact = DatagenConfig {
            exact_only: true,
            ..base.clone()
        };
        let (mut all_count, mut exact_count) = (0, 0);
        for index in 0..4 {
            let all = fens(&play_game(index, &base, &mut searcher));
            let kept = fens(&play_game(index, &exact, &mut searcher));
            let mut rest = all.iter();
            for fen in &kept {
                assert!(
                    rest.any(|f| f == fen),
                    "{fen} is a position of the same game"
                );
            }
            all_count += all.len();
            exact_count += kept.len();
        }
        assert!(exact_count < all_count, "{exact_count} of {all_count}");
        assert!(exact_count > all_count / 2, "{exact_count} of {all_count}");
    }

    #[test]
    fn binary_data_is_reproducible_resumable_and_filtered() {
        let (whole, n) = run(&config(3, 2), DataFormat::Binary);
        assert_eq!(whole.len(), 32 * n);
        assert!(n > 20);
        // Games 0..1 then 1..3 concatenate into games 0..3.
        let (head, _) = run(&config(1, 1), DataFormat::Binary);
        let tail_config = DatagenConfig {
            first_game: 1,
            ..config(2, 1)
        };
        let (tail, _) = run(&tail_config, DataFormat::Binary);
        assert_eq!([head, tail].concat(), whole);

        // The same games as text: the binary records are the text's positions (less any
        // underpromotions), with the same results.
        let (text, _) = run(&config(3, 1), DataFormat::Text);
        let text = String::from_utf8(text).unwrap_or_default();
        let records = parse_records(Path::new("whole"), &whole).unwrap_or_else(|e| panic!("{e}"));
        let mut lines = text.lines();
        for bytes in &records {
            let record = DataRecord::from_bytes(bytes).unwrap_or_else(|e| panic!("{e}"));
            let line = lines
                .find(|l| {
                    l.split_whitespace().take(2).collect::<Vec<_>>()
                        == record
                            .to_fen()
                            .split_whitespace()
                            .take(2)
                            .collect::<Vec<_>>()
                })
                .unwrap_or_else(|| panic!("{} not in the text data", record.to_fen()));
            assert!(line.ends_with(record.result.label()), "{line}");
            let score = i32::from(record.score);
            assert!(score.abs() < MAX_RECORDED_SCORE && !is_mate(score));
            let pos = Position::from_fen(&record.to_fen()).unwrap_or_else(|e| panic!("{e}"));
            assert!(!pos.in_check(), "{}", record.to_fen());
        }
    }
}
