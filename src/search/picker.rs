//! Staged move picker: hands out moves best-first and generates lazily, so a cutoff by the
//! hash move or a good capture costs no quiet-move generation.
//!
//! Main search: TT move -> winning/equal captures and queen promotions (MVV-LVA, then capture
//! history, checked by SEE) -> killer 1 -> killer 2 -> counter move -> quiet moves by
//! butterfly (by side, from and to square, and whether the opponent attacks each) and
//! continuation history (raised for a piece escaping an attack by a cheaper piece,
//! lowered for one stepping into such an attack) -> losing captures.
//! Quiescence: TT move -> winning/equal captures only (or every evasion when in check).

use super::history::{ContinuationRows, History};
use super::see::{captured_kind, see_ge, SEE_VALUES};
use crate::board::{
    Bitboard, CheckInfo, Move, MoveKind, MoveList, Piece, PieceKind, Position, MAX_MOVES,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    GenerateEvasions,
    Evasions,
    Done,
}

/// Ordering score of the TT move's rivals in evasions: captures first.
const CAPTURE_BASE: i32 = 1 << 20;

/// Squares the side not to move attacks with pawns; with pawns and minor pieces; with pawns,
/// minor pieces and rooks: where a minor, a rook or a queen of the side to move stands
/// threatened by a cheaper piece; and with any piece (the squares the quiet histories are
/// indexed by).
#[derive(Clone, Copy, Debug)]
pub struct Threats {
    by_pawn: Bitboard,
    by_minor: Bitboard,
    by_rook: Bitboard,
    all: Bitboard,
}

impl Threats {
    /// The squares the side not to move attacks in `pos`.
    pub fn of(pos: &Position) -> Threats {
        let them = !pos.side_to_move();
        let occupied = pos.occupied();
        let attacks = |kind| pos.attacks_of_kind(them, kind, occupied);
        let by_pawn = attacks(PieceKind::Pawn);
        let by_minor = by_pawn | attacks(PieceKind::Knight) | attacks(PieceKind::Bishop);
        let by_rook = by_minor | attacks(PieceKind::Rook);
        let all = by_rook | attacks(PieceKind::Queen) | attacks(PieceKind::King);
        Threats {
            by_pawn,
            by_minor,
            by_rook,
            all,
        }
    }

    /// Every square the side not to move attacks.
    #[inline]
    pub fn all(&self) -> Bitboard {
        self.all
    }

    /// Ordering adjustment of a quiet move: a piece that leaves a square where a cheaper
    /// piece attacks it for one where none does comes early, one that steps into such an
    /// attack comes late.
    fn adjustment(&self, kind: PieceKind, mv: Move) -> i32 {
        let (threatened, worth) = match kind {
            PieceKind::Queen => (self.by_rook, 24_000),
            PieceKind::Rook => (self.by_minor, 16_000),
            PieceKind::Knight | PieceKind::Bishop => (self.by_pawn, 12_000),
            _ => return 0,
        };
        match (threatened.contains(mv.from()), threatened.contains(mv.to())) {
            (true, false) => worth,
            (_, true) => -worth,
            _ => 0,
        }
    }
}

/// True if `mv` is a capture or a queen promotion (the picker's "noisy" moves).
#[inline]
pub fn is_noisy(pos: &Position, mv: Move) -> bool {
    match mv.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        MoveKind::Promotion => {
            mv.promotion_kind() == Some(PieceKind::Queen) || pos.piece_at(mv.to()).is_some()
        }
        MoveKind::Normal => pos.piece_at(mv.to()).is_some(),
    }
}

/// Ordering score of a noisy move: MVV-LVA, then its capture history (a thirty-second of it:
/// it reorders captures of the same victim, seldom across victims).
#[inline]
fn noisy_score(pos: &Position, mv: Move, history: &History) -> i32 {
    let piece = pos.piece_at(mv.from());
    let history = piece.map_or(0, |p| {
        history.capture_score(p, mv.to(), captured_kind(pos, mv))
    });
    mvv_lva(pos, mv) + history / 32
}

/// Most valuable victim, least valuable attacker; queen promotions rank with queen captures.
#[inline]
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = captured_kind(pos, mv).map_or(0, |k| SEE_VALUES[k.index()]);
    let promotion = match mv.promotion_kind() {
        Some(PieceKind::Queen) => SEE_VALUES[PieceKind::Queen.index()],
        _ => 0,
    };
    let attacker = pos.piece_at(mv.from()).map_or(0, |p| p.kind.index() as i32);
    (victim + promotion) * 8 - attacker
}

/// Hands out the moves of one node in stages.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// The earlier moves' continuation rows for scoring quiet moves.
    rows: ContinuationRows,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    noisy_end: usize,
    bad_count: usize,
    skip_quiets: bool,
    /// Set by [`MovePicker::keep_only_checking_quiets`]: from then on only the quiet moves
    /// that give check (by this information) are handed out.
    checking_quiets_only: Option<CheckInfo>,
    quiescence: bool,
    /// The opponent's attacks, worked out when first needed (most nodes are cut before).
    threats: Option<Threats>,
}

impl MovePicker {
    /// A picker with nothing to hand out; [`MovePicker::reset`] or
    /// [`MovePicker::reset_quiescence`] arms it. The search keeps one per ply and re-arms it,
    /// so no node pays for clearing the move and score arrays.
    pub fn empty() -> MovePicker {
        MovePicker {
            stage: Stage::Done,
            tt_move: Move::NONE,
            killers: [Move::NONE; 2],
            counter: Move::NONE,
            rows: [None; 3],
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            noisy_end: 0,
            bad_count: 0,
            skip_quiets: false,
            checking_quiets_only: None,
            quiescence: false,
            threats: None,
        }
    }

    /// Picker for a main-search node.
    pub fn new(pos: &Position, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        let mut picker = MovePicker::empty();
        picker.reset(pos, tt_move, killers, counter, [None; 3]);
        picker
    }

    /// Picker for a quiescence node: good captures only, or every evasion when in check.
    pub fn quiescence(pos: &Position, tt_move: Move) -> MovePicker {
        let mut picker = MovePicker::empty();
        picker.reset_quiescence(pos, tt_move);
        picker
    }

    /// Re-arms this picker for a main-search node (as [`MovePicker::new`]), with the
    /// continuation rows of the earlier moves.
    pub fn reset(
        &mut self,
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        rows: ContinuationRows,
    ) {
        let usable = pos.is_legal(tt_move);
        self.arm(if usable { tt_move } else { Move::NONE }, false);
        self.killers = killers;
        self.counter = counter;
        self.rows = rows;
    }

    /// Re-arms this picker for a quiescence node (as [`MovePicker::quiescence`]).
    pub fn reset_quiescence(&mut self, pos: &Position, tt_move: Move) {
        let usable = pos.is_legal(tt_move) && (pos.in_check() || is_noisy(pos, tt_move));
        self.arm(if usable { tt_move } else { Move::NONE }, true);
        self.killers = [Move::NONE; 2];
        self.counter = Move::NONE;
        self.rows = [None; 3];
    }

    /// The state both kinds of node start from; the move and score arrays are left as they
    /// are (every slot is written before it is read).
    fn arm(&mut self, tt_move: Move, quiescence: bool) {
        self.stage = Stage::TtMove;
        self.tt_move = tt_move;
        self.moves.clear();
        self.next = 0;
        self.noisy_end = 0;
        self.bad_count = 0;
        self.skip_quiets = quiescence;
        self.checking_quiets_only = None;
        self.quiescence = quiescence;
        self.threats = None;
    }

    /// The squares the opponent attacks in `pos`, the position this picker was armed for
    /// (worked out once per node).
    #[inline]
    pub fn threats(&mut self, pos: &Position) -> Threats {
        *self.threats.get_or_insert_with(|| Threats::of(pos))
    }

    /// From now on, hand out no more quiet moves (late-move pruning).
    #[inline]
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// From now on, hand out only the quiet moves that give check (`info`: the node's
    /// [`Position::check_info`]): after a futile quiet move every later quiet is futile too,
    /// and only checks escape the pruning. The quiets already generated are filtered at once,
    /// keeping their order and scores, so the search no longer picks and rejects each of them.
    /// Killers and the counter move are still handed out (the search prunes them).
    pub fn keep_only_checking_quiets(&mut self, pos: &Position, info: &CheckInfo) {
        if self.checking_quiets_only.is_some() {
            return;
        }
        self.checking_quiets_only = Some(*info);
        if self.stage == Stage::Quiet {
            self.retain_checks(pos, self.next);
        }
    }

    /// Drops the moves from `start` on that do not give check, keeping the order and scores
    /// of the rest.
    fn retain_checks(&mut self, pos: &Position, start: usize) {
        let Some(info) = self.checking_quiets_only else {
            return;
        };
        let mut kept = start;
        for i in start..self.moves.len() {
            let mv = self.moves.as_slice()[i];
            if pos.gives_check_with(&info, mv) {
                self.moves.as_mut_slice()[kept] = mv;
                self.scores[kept] = self.scores[i];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
    }

    /// Takes the best-scored move among `self.next..end` and advances.
    #[inline]
    fn select_best(&mut self, end: usize) -> Move {
        // The first of the highest scores, found in two passes: the maximum (which the
        // compiler turns into SIMD `pmaxsd`), then where it first occurs. The same move a
        // one-pass scan picks.
        let pending = &self.scores[self.next..end];
        let highest = pending.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.next + pending.iter().position(|&s| s == highest).unwrap_or(0);
        let moves = self.moves.as_mut_slice();
        moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let mv = moves[self.next];
        self.next += 1;
        mv
    }

    /// What the picker knows of the move it handed out last: `Some(true)` for a capture of
    /// the good stage (SEE >= 0), `Some(false)` for a losing capture, `None` when it did not
    /// look (the hash move, quiet moves, evasions).
    #[inline]
    pub fn last_see_ge_zero(&self) -> Option<bool> {
        match self.stage {
            Stage::GoodNoisy => Some(true),
            Stage::BadNoisy => Some(false),
            _ => None,
        }
    }

    fn is_special(&self, mv: Move) -> bool {
        mv == self.tt_move || mv == self.killers[0] || mv == self.killers[1] || mv == self.counter
    }

    /// The next move, or `None` when the node's moves are exhausted.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if self.quiescence && pos.in_check() {
                        Stage::GenerateEvasions
                    } else {
                        Stage::GenerateNoisy
                    };
                    if !self.tt_move.is_none() {
                        return Some(self.tt_move);
                    }
                }
                Stage::GenerateNoisy => {
                    pos.generate_noisy(&mut self.moves);
                    self.noisy_end = self.moves.len();
                    for i in 0..self.noisy_end {
                        self.scores[i] = noisy_score(pos, self.moves.as_slice()[i], history);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    while self.next < self.noisy_end {
                        let mv = self.select_best(self.noisy_end);
                        if mv == self.tt_move {
                            continue;
                        }
                        if see_ge(pos, mv, 0) {
                            return Some(mv);
                        }
                        // Losing capture: park it at the front (those slots are used up).
                        if !self.quiescence {
                            let bad = self.bad_count;
                            self.moves.as_mut_slice()[bad] = mv;
                            self.bad_count += 1;
                        }
                    }
                    self.stage = if self.quiescence {
                        Stage::Done
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let (mv, next_stage) = match self.stage {
                        Stage::Killer1 => (self.killers[0], Stage::Killer2),
                        Stage::Killer2 => (self.killers[1], Stage::Counter),
                        _ => (self.counter, Stage::GenerateQuiet),
                    };
                    self.stage = next_stage;
                    let duplicate = mv == self.tt_move
                        || (next_stage == Stage::Counter && mv == self.killers[0])
                        || (next_stage == Stage::GenerateQuiet
                            && (mv == self.killers[0] || mv == self.killers[1]));
                    if !self.skip_quiets
                        && !mv.is_none()
                        && !duplicate
                        && !is_noisy(pos, mv)
                        && pos.is_legal(mv)
                    {
                        return Some(mv);
                    }
                }
                Stage::GenerateQuiet => {
                    self.stage = Stage::Quiet;
                    if self.skip_quiets {
                        continue;
                    }
                    let start = self.moves.len();
                    pos.generate_quiet(&mut self.moves);
                    self.retain_checks(pos, start);
                    let side = pos.side_to_move();
                    let threats = self.threats(pos);
                    for i in start..self.moves.len() {
                        let mv = self.moves.as_slice()[i];
                        let piece = pos
                            .piece_at(mv.from())
                            .unwrap_or(Piece::new(side, PieceKind::Pawn));
                        self.scores[i] =
                            history.quiet_score_after(side, piece, mv, &self.rows, threats.all())
                                + threats.adjustment(piece.kind, mv);
                    }
                    self.next = start;
                }
                Stage::Quiet => {
                    while !self.skip_quiets && self.next < self.moves.len() {
                        let mv = self.select_best(self.moves.len());
                        if !self.is_special(mv) {
                            return Some(mv);
                        }
                    }
                    self.stage = Stage::BadNoisy;
                    self.next = 0;
                }
                Stage::BadNoisy => {
                    if self.next < self.bad_count {
                        let mv = self.moves.as_slice()[self.next];
                        self.next += 1;
                        return Some(mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    pos.generate_all(&mut self.moves);
                    let side = pos.side_to_move();
                    let threatened = self.threats(pos).all();
                    for i in 0..self.moves.len() {
                        let mv = self.moves.as_slice()[i];
                        self.scores[i] = if is_noisy(pos, mv) {
                            CAPTURE_BASE + mvv_lva(pos, mv)
                        } else {
                            history.quiet_score(side, mv, threatened)
                        };
                    }
                    self.next = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    while self.next < self.moves.len() {
                        let mv = self.select_best(self.moves.len());
                        if mv != self.tt_move {
                            return Some(mv);
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn all_picked(pos: &Position, tt: Move, killers: [Move; 2], counter: Move) -> Vec<Move> {
        let history = History::new();
        let mut picker = MovePicker::new(pos, tt, killers, counter);
        let mut out = Vec::new();
        while let Some(mv) = picker.next(pos, &history) {
            out.push(mv);
        }
        out
    }

    #[test]
    fn every_legal_move_exactly_once_whatever_the_hints() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            let bogus = Move::from_raw(0x0FFF);
            let hints = [
                (Move::NONE, [Move::NONE; 2], Move::NONE),
                (legal[0], [legal[1], legal[2]], legal[3]),
                (legal[5], [legal[5], bogus], legal[1]),
                (
                    bogus,
                    [bogus, legal[legal.len() - 1]],
                    legal[legal.len() - 1],
                ),
            ];
            for (tt, killers, counter) in hints {
                let picked = all_picked(&pos, tt, killers, counter);
                let set: HashSet<Move> = picked.iter().copied().collect();
                assert_eq!(picked.len(), set.len(), "duplicates in {fen}");
                assert_eq!(set, legal.iter().copied().collect(), "{fen}");
                if pos.is_legal(tt) {
                    assert_eq!(picked[0], tt);
                }
            }
        }
    }

    #[test]
    fn after_the_call_only_checking_quiets_follow_and_none_is_lost() {
        // White's queen and knights have many quiet moves, several of them checks; a killer
        // that does not check and one that does.
        let pos = Position::from_fen("r3k2r/ppp2ppp/8/3q4/8/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let history = History::new();
        let find = |text: &str| {
            pos.legal_moves()
                .iter()
                .copied()
                .find(|&mv| pos.move_to_coordinate(mv) == text)
                .unwrap_or_else(|| panic!("{text} is not legal"))
        };
        let killers = [find("a2a3"), find("d2e3")];
        let info = pos.check_info();
        let gives_check = |mv: Move| pos.gives_check(mv);
        for cut_after in [0, 1, 2, 3, 6] {
            // The whole order, and the order after keeping only checks once `cut_after` quiet
            // moves are out (at the killers, the counter or among the generated quiets).
            let mut full = MovePicker::new(&pos, Move::NONE, killers, Move::NONE);
            let mut reference = Vec::new();
            while let Some(mv) = full.next(&pos, &history) {
                reference.push(mv);
            }
            let mut picker = MovePicker::new(&pos, Move::NONE, killers, Move::NONE);
            let mut quiets_seen = 0;
            let mut after = Vec::new();
            let mut cut = false;
            while let Some(mv) = picker.next(&pos, &history) {
                if cut {
                    after.push(mv);
                } else if !is_noisy(&pos, mv) {
                    quiets_seen += 1;
                    if quiets_seen > cut_after {
                        picker.keep_only_checking_quiets(&pos, &info);
                        cut = true;
                    }
                }
            }
            assert!(cut, "fewer than {cut_after} quiet moves");
            // What the reference hands out after the same point, quiet non-checks left out
            // (the killers still come: the search prunes them).
            let index = reference
                .iter()
                .enumerate()
                .filter(|(_, &mv)| !is_noisy(&pos, mv))
                .nth(cut_after)
                .map(|(i, _)| i)
                .unwrap_or(reference.len());
            let expected: HashSet<Move> = reference[index + 1..]
                .iter()
                .copied()
                .filter(|&mv| is_noisy(&pos, mv) || gives_check(mv))
                .collect();
            let handed: HashSet<Move> = after
                .iter()
                .copied()
                .filter(|&mv| !killers.contains(&mv))
                .collect();
            let expected: HashSet<Move> = expected
                .into_iter()
                .filter(|mv| !killers.contains(mv))
                .collect();
            assert_eq!(handed, expected, "cut after {cut_after} quiets");
            assert!(
                after
                    .iter()
                    .all(|&mv| is_noisy(&pos, mv) || gives_check(mv) || killers.contains(&mv)),
                "a quiet move that does not check was handed out"
            );
            if cut_after == 0 {
                // Qe2+ is among the quiets still to come: the test looks at a real check.
                assert!(handed.contains(&find("d2e2")), "Qe2+ was lost");
            }
        }
    }

    #[test]
    fn threatened_pieces_move_first_and_nothing_steps_into_a_pawn_attack_early() {
        // The knight on e4 is attacked by the pawn on d5; Bc4 would put the bishop en prise
        // to the same pawn. With no history, the knight's eight moves come first, Bc4 last.
        let pos = Position::from_fen("4k3/8/8/3p4/4N3/8/8/4KB2 w - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let picked: Vec<String> = all_picked(&pos, Move::NONE, [Move::NONE; 2], Move::NONE)
            .into_iter()
            .map(|mv| pos.move_to_coordinate(mv))
            .collect();
        assert_eq!(picked.len() as u64, pos.count_legal_moves());
        assert!(
            picked[..8].iter().all(|m| m.starts_with("e4")),
            "{picked:?}"
        );
        assert_eq!(picked.last().map(String::as_str), Some("f1c4"));
    }

    #[test]
    fn quiescence_gives_good_captures_or_all_evasions() {
        let pos = Position::from_fen("4k3/8/2p5/3p4/4P3/8/3Q4/4K3 w - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let history = History::new();
        let mut picker = MovePicker::quiescence(&pos, Move::NONE);
        let mut picked = Vec::new();
        while let Some(mv) = picker.next(&pos, &history) {
            picked.push(mv);
        }
        // exd5 wins a pawn (cxd5 recaptures pawn for pawn); Qxd5 would lose the queen.
        assert_eq!(picked.len(), 1);
        assert_eq!(pos.move_to_coordinate(picked[0]), "e4d5");

        let check =
            Position::from_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
        let mut picker = MovePicker::quiescence(&check, Move::NONE);
        let mut n = 0;
        while picker.next(&check, &history).is_some() {
            n += 1;
        }
        assert_eq!(n as u64, check.count_legal_moves());
    }

    #[test]
    fn says_which_captures_it_has_judged_by_see() {
        // exd5 (cxd5 recaptures: even) is a good capture, Qxd5 a losing one; the rest are quiet.
        let pos = Position::from_fen("4k3/8/2p5/3p4/4P3/8/3Q4/4K3 w - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let history = History::new();
        let verdicts = |tt: Move| {
            let mut picker = MovePicker::new(&pos, tt, [Move::NONE; 2], Move::NONE);
            let mut out = Vec::new();
            while let Some(mv) = picker.next(&pos, &history) {
                out.push((pos.move_to_coordinate(mv), picker.last_see_ge_zero()));
            }
            out
        };
        let plain = verdicts(Move::NONE);
        assert_eq!(plain[0], ("e4d5".to_string(), Some(true)));
        assert_eq!(
            plain.last().cloned(),
            Some(("d2d5".to_string(), Some(false)))
        );
        assert!(plain[1..plain.len() - 1].iter().all(|(_, v)| v.is_none()));
        // The hash move is handed out before any SEE is run.
        let queen_takes = pos
            .parse_coordinate("d2d5")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verdicts(queen_takes)[0], ("d2d5".to_string(), None));
    }
}
