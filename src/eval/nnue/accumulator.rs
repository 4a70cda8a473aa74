//! The accumulators of the positions on the line being searched, one pair (White's and Black's
//! perspective) per ply, preallocated.
//!
//! Making a move only records what it changed ([`BoardChanges`]); the accumulators are brought
//! up to date when a position is evaluated, from the nearest ply below that is up to date, one
//! fused pass per ply (`new = old + added rows - removed rows`). Positions that are never
//! evaluated (cut off by the table, or pruned first) cost nothing. Taking a move back pops a
//! ply. Past the capacity, positions are evaluated from scratch in a spare buffer, so a line
//! of any length works without allocating.

use super::features::feature_index;
use super::network::Network;
use crate::board::{BoardChanges, Color, Position};

/// Running accumulators along a search line.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    /// `[ply][perspective][unit]`: White's perspective first.
    values: Box<[i16]>,
    /// What the move into each ply changed (ply 0, the root, has none).
    changes: Box<[BoardChanges]>,
    /// Whether each ply's accumulators are up to date.
    computed: Box<[bool]>,
    /// The ply of the position on the board.
    top: usize,
    /// Plies made beyond the capacity.
    overflow: usize,
    /// Both perspectives of a position beyond the capacity, computed from scratch.
    spare: Box<[i16]>,
}

/// Removed and added inputs of one move in one perspective.
#[derive(Clone, Copy, Default)]
struct Delta {
    added: [usize; 3],
    removed: [usize; 3],
    adds: usize,
    removes: usize,
}

impl Delta {
    #[inline(always)]
    fn of(changes: &BoardChanges, perspective: Color) -> Delta {
        let mut delta = Delta::default();
        for change in changes.iter() {
            if let (Some(from), Some(slot)) = (change.from, delta.removed.get_mut(delta.removes)) {
                *slot = feature_index(perspective, change.piece, from);
                delta.removes += 1;
            }
            if let (Some(to), Some(slot)) = (change.to, delta.added.get_mut(delta.adds)) {
                *slot = feature_index(perspective, change.piece, to);
                delta.adds += 1;
            }
        }
        delta
    }
}

impl AccumulatorStack {
    /// Room for `plies` positions (the root and `plies - 1` moves) of a net with `hidden`
    /// units, all reserved now.
    pub fn new(hidden: usize, plies: usize) -> AccumulatorStack {
        let plies = plies.max(1);
        AccumulatorStack {
            hidden,
            values: vec![0; plies * 2 * hidden].into_boxed_slice(),
            changes: vec![BoardChanges::NONE; plies].into_boxed_slice(),
            computed: vec![false; plies].into_boxed_slice(),
            top: 0,
            overflow: 0,
            spare: vec![0; 2 * hidden].into_boxed_slice(),
        }
    }

    /// Hidden size the stack was built for.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Number of plies held before positions are evaluated from scratch.
    pub fn capacity(&self) -> usize {
        self.computed.len()
    }

    /// Starts a new line at `pos`, computing its accumulators from scratch.
    pub fn set_root(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.overflow = 0;
        self.changes[0] = BoardChanges::NONE;
        self.refresh_slot(net, pos, 0);
    }

    /// A move (or null move, with no changes) was made; `changes` is what it changed.
    #[inline]
    pub fn push(&mut self, changes: &BoardChanges) {
        if self.top + 1 < self.capacity() && self.overflow == 0 {
            self.top += 1;
            self.changes[self.top] = *changes;
            self.computed[self.top] = false;
        } else {
            self.overflow += 1;
        }
    }

    /// The last move was taken back.
    #[inline]
    pub fn pop(&mut self) {
        if self.overflow > 0 {
            self.overflow -= 1;
        } else if self.top > 0 {
            self.top -= 1;
        }
    }

    /// The evaluation of `pos`, the position at the end of the line, in centipawns from the
    /// side to move's view.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let bucket = net.bucket_of(pos);
        let (white, black) = self.current(net, pos);
        match pos.side_to_move() {
            Color::White => net.output(white, black, bucket),
            Color::Black => net.output(black, white, bucket),
        }
    }

    /// The accumulators of `pos`, the position at the end of the line: (White's, Black's).
    pub fn current(&mut self, net: &Network, pos: &Position) -> (&[i16], &[i16]) {
        let h = self.hidden;
        if self.overflow > 0 {
            let (white, black) = self.spare.split_at_mut(h);
            net.refresh(pos, Color::White, white);
            net.refresh(pos, Color::Black, black);
            return (white, black);
        }
        let mut base = self.top;
        while base > 0 && !self.computed[base] {
            base -= 1;
        }
        if self.computed[base] {
            for ply in base + 1..=self.top {
                self.update_slot(net, ply);
            }
        } else {
            // Nothing below is known (no root was set): start from the board.
            self.refresh_slot(net, pos, self.top);
        }
        let slot = &self.values[self.top * 2 * h..(self.top + 1) * 2 * h];
        slot.split_at(h)
    }

    /// True if the running accumulators of `pos` equal a computation from scratch (tests).
    pub fn matches_refresh(&mut self, net: &Network, pos: &Position) -> bool {
        let mut white = vec![0i16; self.hidden];
        let mut black = vec![0i16; self.hidden];
        net.refresh(pos, Color::White, &mut white);
        net.refresh(pos, Color::Black, &mut black);
        let (w, b) = self.current(net, pos);
        w == white.as_slice() && b == black.as_slice()
    }

    fn refresh_slot(&mut self, net: &Network, pos: &Position, ply: usize) {
        let h = self.hidden;
        let slot = &mut self.values[ply * 2 * h..(ply + 1) * 2 * h];
        let (white, black) = slot.split_at_mut(h);
        net.refresh(pos, Color::White, white);
        net.refresh(pos, Color::Black, black);
        self.computed[ply] = true;
    }

    /// Computes ply `ply` from ply `ply - 1`, which is up to date.
    #[inline]
    fn update_slot(&mut self, net: &Network, ply: usize) {
        let h = self.hidden;
        let changes = self.changes[ply];
        let (below, rest) = self.values.split_at_mut(ply * 2 * h);
        let previous = &below[(ply - 1) * 2 * h..];
        for perspective in Color::ALL {
            let offset = perspective.index() * h;
            let src = &previous[offset..offset + h];
            let dst = &mut rest[offset..offset + h];
            apply(net, &Delta::of(&changes, perspective), src, dst);
        }
        self.computed[ply] = true;
    }
}

/// `dst = src + added rows - removed rows`, in one pass for the usual shapes of a move: with
/// 256-bit vectors when the CPU has AVX2 (the build's target, x86-64-v2, has 128-bit ones).
#[inline(always)]
fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        unsafe { apply_avx2(net, delta, src, dst) };
        return;
    }
    apply_rows(net, delta, src, dst);
}

/// [`apply_rows`] compiled for AVX2: the same loops, which the compiler vectorises sixteen
/// units an instruction instead of eight.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_avx2(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
    apply_rows(net, delta, src, dst);
}

/// The loops of [`apply`], for whatever vector width the caller is compiled for.
#[inline(always)]
fn apply_rows(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
    let row = |i: usize| net.feature_row(i);
    match (delta.adds, delta.removes) {
        // A quiet move or a promotion without capture: one in, one out.
        (1, 1) => {
            let (a, r) = (row(delta.added[0]), row(delta.removed[0]));
            for (((d, &s), &a), &r) in dst.iter_mut().zip(src).zip(a).zip(r) {
                *d = s.wrapping_add(a).wrapping_sub(r);
            }
        }
        // A capture (or a capture that promotes): one in, two out.
        (1, 2) => {
            let (a, r1, r2) = (
                row(delta.added[0]),
                row(delta.removed[0]),
                row(delta.removed[1]),
            );
            for ((((d, &s), &a), &r1), &r2) in dst.iter_mut().zip(src).zip(a).zip(r1).zip(r2) {
                *d = s.wrapping_add(a).wrapping_sub(r1).wrapping_sub(r2);
            }
        }
        // Castling: two in, two out.
        (2, 2) => {
            let (a1, a2) = (row(delta.added[0]), row(delta.added[1]));
            let (r1, r2) = (row(delta.removed[0]), row(delta.removed[1]));
            for (((((d, &s), &a1), &a2), &r1), &r2) in
                dst.iter_mut().zip(src).zip(a1).zip(a2).zip(r1).zip(r2)
            {
                *d = s
                    .wrapping_add(a1)
                    .wrapping_add(a2)
                    .wrapping_sub(r1)
                    .wrapping_sub(r2);
            }
        }
        // A null move, or anything else.
        _ => {
            dst.copy_from_slice(src);
            for &i in &delta.added[..delta.adds] {
                for (d, &w) in dst.iter_mut().zip(row(i)) {
                    *d = d.wrapping_add(w);
                }
            }
            for &i in &delta.removed[..delta.removes] {
                for (d, &w) in dst.iter_mut().zip(row(i)) {
                    *d = d.wrapping_sub(w);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::random_network;

    #[test]
    fn accumulators_follow_moves_of_every_kind_and_overflow_the_capacity() {
        let net = random_network(64, 3);
        // Castling both ways, en passant, promotion with capture.
        let fen = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1";
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
        // Capacity 4: the last two moves go past it.
        let mut stack = AccumulatorStack::new(net.hidden(), 4);
        stack.set_root(&net, &pos);
        let mut made = Vec::new();
        for text in ["e5d6", "e8g8", "b7a8q", "f8a8", "e1c1"] {
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make_move(mv);
            stack.push(pos.last_changes());
            made.push(mv);
            // Evaluate only every other position: the lazy update catches up several plies.
            if made.len() % 2 == 0 {
                assert!(stack.matches_refresh(&net, &pos), "after {text}");
                assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos));
            }
        }
        pos.make_null();
        stack.push(pos.last_changes());
        assert!(stack.matches_refresh(&net, &pos));
        pos.unmake_null();
        stack.pop();
        while let Some(mv) = made.pop() {
            pos.unmake_move(mv);
            stack.pop();
            assert!(stack.matches_refresh(&net, &pos));
            assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos));
        }
    }

    #[test]
    fn the_dispatched_update_equals_the_plain_loops_for_every_shape_of_move() {
        // On a CPU with AVX2 `apply` runs the 256-bit build of the loops: it must give what
        // the plain build gives, also where the sums wrap (the source starts near i16::MAX).
        let net = random_network(320, 6);
        let h = net.hidden();
        let src: Vec<i16> = (0..h)
            .map(|i| (i as i16).wrapping_mul(977).wrapping_add(i16::MAX - 300))
            .collect();
        let shapes: [(&[usize], &[usize]); 5] = [
            (&[5], &[700]),
            (&[5], &[700, 64]),
            (&[100, 200], &[300, 400]),
            (&[], &[]),
            (&[1, 2, 3], &[767]),
        ];
        for (added, removed) in shapes {
            let mut delta = Delta::default();
            delta.added[..added.len()].copy_from_slice(added);
            delta.removed[..removed.len()].copy_from_slice(removed);
            delta.adds = added.len();
            delta.removes = removed.len();
            let (mut fast, mut plain) = (vec![0i16; h], vec![0i16; h]);
            apply(&net, &delta, &src, &mut fast);
            apply_rows(&net, &delta, &src, &mut plain);
            assert_eq!(fast, plain, "{added:?} in, {removed:?} out");
            // And both are the definition: src plus the added rows minus the removed ones.
            let expected: Vec<i16> = (0..h)
                .map(|u| {
                    let plus = added.iter().map(|&f| net.feature_row(f)[u]);
                    let minus = removed.iter().map(|&f| net.feature_row(f)[u]);
                    let sum = plus.fold(src[u], |a, w| a.wrapping_add(w));
                    minus.fold(sum, |a, w| a.wrapping_sub(w))
                })
                .collect();
            assert_eq!(plain, expected, "{added:?} in, {removed:?} out");
        }
    }

    #[test]
    fn a_stack_without_a_root_starts_from_the_board() {
        let net = random_network(32, 4);
        let pos = Position::startpos();
        let mut stack = AccumulatorStack::new(net.hidden(), 8);
        assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos));
    }
}
