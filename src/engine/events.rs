//! What the engine tells its front-end while it works: search progress and messages. The
//! front-end turns them into its protocol's text; the engine knows no protocol.

use crate::board::{Move, Position};
use crate::search::score::{display_centipawns, mate_in_moves};
use crate::search::wdl::{wdl_of_position, Wdl};
use crate::search::{RootMoveReport, SearchReport};
use std::sync::Arc;
use std::time::Duration;

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Choosing the engine's move; its result is played.
    Think,
    /// Pondering on the opponent's time; becomes `Think` at the ponder hit.
    Ponder,
    /// Analysis: runs until told to stop; its result is never played.
    Analyze,
}

/// A score as interfaces show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreView {
    /// Centipawns from the side to move's view; a tablebase win shows as 20000 less the plies
    /// to the tablebase position (never as a mate).
    Centipawns(i32),
    /// Mate in this many moves: positive when the side to move mates, negative when it is
    /// mated, 0 when it is mated already.
    Mate(i32),
}

impl ScoreView {
    /// The view of a search score.
    pub fn of(score: i32) -> ScoreView {
        match mate_in_moves(score) {
            Some(moves) => ScoreView::Mate(moves),
            None => ScoreView::Centipawns(display_centipawns(score)),
        }
    }
}

/// A line of search output, with what a front-end needs to show it.
#[derive(Clone, Copy, Debug)]
pub struct SearchInfo<'a> {
    /// The search's id (as returned when it was started).
    pub search_id: u64,
    /// What the search is for.
    pub kind: SearchKind,
    /// True while the search ponders (before a ponder hit).
    pub pondering: bool,
    /// The search's latest result: depth, score, nodes and principal variation.
    pub report: &'a SearchReport<'a>,
    /// Time used so far: wall clock, or nodes at the `nps` rate when time is counted in nodes.
    pub time: Duration,
    /// The game position when the search started.
    pub game_position: &'a Position,
    /// Moves from the game position to the searched one (XBoard's expected reply while
    /// pondering); empty otherwise.
    pub prefix: &'a [Move],
    /// The position searched (the game position after `prefix`).
    pub root: &'a Position,
    /// True if the user asked for win/draw/loss chances with the scores (`UCI_ShowWDL`).
    pub show_wdl: bool,
}

impl SearchInfo<'_> {
    /// The line's score as interfaces show it.
    pub fn score(&self) -> ScoreView {
        ScoreView::of(self.report.score)
    }

    /// The side to move's chances of winning, drawing and losing after this line's score, when
    /// the user asked for them (`UCI_ShowWDL`): the model fitted to Betacut's own games
    /// (`docs/wdl.md`).
    pub fn wdl(&self) -> Option<Wdl> {
        self.show_wdl
            .then(|| wdl_of_position(self.report.score, self.root))
    }
}

/// The main thread of a search starts on a root move.
#[derive(Clone, Copy, Debug)]
pub struct CurrentMoveInfo<'a> {
    /// The search's id.
    pub search_id: u64,
    /// Depth, move and its number.
    pub report: &'a RootMoveReport,
    /// The position searched.
    pub root: &'a Position,
}

/// An event from the engine.
#[derive(Clone, Copy, Debug)]
pub enum EngineEvent<'a> {
    /// A line of a running search (complete, or a fail high / fail low bound).
    Info(SearchInfo<'a>),
    /// A running search starts on a root move.
    CurrentMove(CurrentMoveInfo<'a>),
    /// Something the user should know that is not an error of the last command (e.g. a
    /// smaller hash table than asked for, because the machine has no more memory).
    Message(&'a str),
}

/// Receives the engine's events; called from the protocol thread and the search thread.
pub type Listener = Arc<dyn Fn(&EngineEvent) + Send + Sync>;

/// Called with a search's id when it has ended (however it ended), from its thread.
pub type DoneNotifier = Arc<dyn Fn(u64) + Send + Sync>;
