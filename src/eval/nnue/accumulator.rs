//! The accumulators of the positions on the line being searched, one pair (White's and Black's
//! perspective) per ply, preallocated.
//!
//! Making a move only records what it changed ([`BoardChanges`]); the accumulators are brought
//! up to date when a position is evaluated, from the nearest ply below that is up to date, one
//! fused pass per ply (`new = old + added rows - removed rows`). Positions that are never
//! evaluated (cut off by the table, or pruned first) cost nothing. Taking a move back pops a
//! ply. Past the capacity, positions are evaluated from scratch in a spare buffer, so a line
//! of any length works without allocating.
//!
//! With king buckets or mirroring ([`KingBuckets`]) each ply also knows how each perspective
//! sees its board (its view: the own king's bucket and side, followed from the king moves among
//! the changes). A perspective whose view changed reads other inputs altogether, so it is
//! computed from the board instead of updated; the two perspectives are brought up to date
//! separately, and only the one whose king moved pays. It pays little: the stack keeps, for
//! each perspective and view, the last accumulator it computed from a board and that board's
//! pieces (`RefreshCache`, the "finny table" of other engines), and a refresh starts from it,
//! adding and removing only the pieces that differ.

use super::aligned::AlignedI16;
use super::features::{is_king, raw_feature_index, view_feature_index, KingBuckets};
use super::forward;
use super::network::Network;
use super::simd::SimdLevel;
use crate::board::{BoardChanges, Color, PieceKind, Position};

/// Running accumulators along a search line.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    /// The vector instructions of this stack's updates and output layer.
    simd: SimdLevel,
    /// `[ply][perspective][unit]`: White's perspective first; every accumulator starts on a
    /// cache line (the hidden size is a multiple of 32 values, 64 bytes).
    values: AlignedI16,
    /// What the move into each ply changed (ply 0, the root, has none).
    changes: Box<[BoardChanges]>,
    /// Whether each ply's accumulators are up to date, per perspective (White's first).
    computed: Box<[[bool; 2]]>,
    /// How each perspective sees each ply's board ([`KingBuckets::view`]; always 0 for a
    /// plain net).
    views: Box<[[u8; 2]]>,
    /// The king-bucket layout of the net of the last root.
    kings: KingBuckets,
    /// The ply of the position on the board.
    top: usize,
    /// Plies made beyond the capacity.
    overflow: usize,
    /// Both perspectives of a position beyond the capacity, computed from scratch.
    spare: AlignedI16,
    /// Where refreshes start from.
    cache: RefreshCache,
}

/// For each perspective and view ([`KingBuckets::view`]), the last accumulator computed from a
/// board and the pieces of that board: a refresh in that view starts from it and adds and
/// removes the pieces that differ, usually a few, instead of all of them. An entry holds the
/// feature biases and an empty board until first used; [`AccumulatorStack::set_root`] resets
/// every entry (the net may have changed).
#[derive(Clone, Debug)]
struct RefreshCache {
    /// Views per perspective: two per king bucket (unmirrored and mirrored).
    slots: usize,
    /// `[perspective][slot][unit]`.
    values: AlignedI16,
    /// `[perspective][slot]`: the squares of each of the 12 pieces (White's pawn first) that
    /// the entry's accumulator holds.
    boards: Box<[[u64; 12]]>,
}

impl RefreshCache {
    /// The slot of `view`: the bucket twice, plus one if mirrored.
    #[inline(always)]
    fn slot(view: u8) -> usize {
        usize::from(view >> 3) * 2 + usize::from(view & 1)
    }

    /// Every entry back to the biases of `net` and an empty board, the cache sized for it
    /// (allocating only when its shape changed).
    fn reset(&mut self, net: &Network) {
        let h = net.hidden();
        let slots = 2 * net.king_buckets().count();
        if self.slots != slots || self.values.len() != 2 * slots * h {
            self.slots = slots;
            self.values = AlignedI16::zeroed(2 * slots * h);
            self.boards = vec![[0; 12]; 2 * slots].into_boxed_slice();
        }
        for entry in self.values.chunks_exact_mut(h) {
            entry.copy_from_slice(net.feature_bias());
        }
        self.boards.fill([0; 12]);
    }

    /// `perspective`'s accumulator of `pos` in view `view` (that of `pos`) into `out`, from the
    /// entry of that view, which then holds `pos`.
    #[inline(always)]
    fn refresh(
        &mut self,
        net: &Network,
        pos: &Position,
        perspective: Color,
        view: u8,
        out: &mut [i16],
    ) {
        let h = net.hidden();
        if self.values.len() != 2 * 2 * net.king_buckets().count() * h {
            self.reset(net);
        }
        let p = perspective.index();
        let index = p * self.slots + RefreshCache::slot(view);
        let entry = &mut self.values[index * h..(index + 1) * h];
        let boards = &mut self.boards[index];
        for (piece, held) in boards.iter_mut().enumerate() {
            let color = if piece < 6 {
                Color::White
            } else {
                Color::Black
            };
            let now = pos.pieces_of(color, PieceKind::from_index(piece % 6)).0;
            let (added, removed) = (now & !*held, *held & !now);
            *held = now;
            let row =
                |square: u32| net.feature_row(view_feature_index(p, piece, square as usize, view));
            let mut bits = added;
            while bits != 0 {
                for (a, &w) in entry.iter_mut().zip(row(bits.trailing_zeros())) {
                    *a = a.wrapping_add(w);
                }
                bits &= bits - 1;
            }
            let mut bits = removed;
            while bits != 0 {
                for (a, &w) in entry.iter_mut().zip(row(bits.trailing_zeros())) {
                    *a = a.wrapping_sub(w);
                }
                bits &= bits - 1;
            }
        }
        out.copy_from_slice(entry);
    }
}

/// Removed and added inputs of one move in one perspective, at most three of each, packed
/// ten bits an input into integers: the whole delta lives in registers (arrays indexed by a
/// running count went through memory, and each read of them waited on a store). The inputs are
/// those of one king bucket, whose first row is `base`.
#[derive(Clone, Copy, Default)]
struct Delta {
    base: usize,
    added: u32,
    removed: u32,
    adds: u32,
    removes: u32,
}

/// Most inputs a move adds, or removes, in one perspective (castling and promotions with
/// capture take two; three leaves room).
const MAX_DELTA: u32 = 3;
/// Bits of one packed input (768 inputs).
const INPUT_BITS: u32 = 10;
const _: () = assert!(super::INPUTS <= 1 << INPUT_BITS);

impl Delta {
    /// The inputs `changes` removes and adds for `perspective`, whose view (the same before
    /// and after them) is `view`.
    #[inline(always)]
    fn of(changes: &BoardChanges, perspective: Color, view: u8) -> Delta {
        let mut delta = Delta {
            base: usize::from(view >> 3) * super::INPUTS,
            ..Delta::default()
        };
        let (p, flip) = (perspective.index(), usize::from(view & 7));
        for change in changes.iter() {
            let piece = change.piece.index();
            if let Some(from) = change.from {
                delta.remove(raw_feature_index(p, piece, from.index() ^ flip));
            }
            if let Some(to) = change.to {
                delta.add(raw_feature_index(p, piece, to.index() ^ flip));
            }
        }
        delta
    }

    #[inline(always)]
    fn add(&mut self, input: usize) {
        if self.adds < MAX_DELTA {
            self.added |= (input as u32) << (INPUT_BITS * self.adds);
            self.adds += 1;
        }
    }

    #[inline(always)]
    fn remove(&mut self, input: usize) {
        if self.removes < MAX_DELTA {
            self.removed |= (input as u32) << (INPUT_BITS * self.removes);
            self.removes += 1;
        }
    }

    /// The `k`-th added input (`k` below `adds`).
    #[inline(always)]
    fn added(&self, k: u32) -> usize {
        ((self.added >> (INPUT_BITS * k)) & ((1 << INPUT_BITS) - 1)) as usize
    }

    /// The `k`-th removed input (`k` below `removes`).
    #[inline(always)]
    fn removed(&self, k: u32) -> usize {
        ((self.removed >> (INPUT_BITS * k)) & ((1 << INPUT_BITS) - 1)) as usize
    }
}

impl AccumulatorStack {
    /// Room for `plies` positions (the root and `plies - 1` moves) of a net with `hidden`
    /// units, all reserved now.
    pub fn new(hidden: usize, plies: usize) -> AccumulatorStack {
        AccumulatorStack::with_simd(hidden, plies, SimdLevel::current())
    }

    /// [`AccumulatorStack::new`] on the path `simd` (the portable one if this CPU lacks it).
    pub fn with_simd(hidden: usize, plies: usize, simd: SimdLevel) -> AccumulatorStack {
        let plies = plies.max(1);
        AccumulatorStack {
            hidden,
            simd: if simd.is_supported() {
                simd
            } else {
                SimdLevel::Portable
            },
            values: AlignedI16::zeroed(plies * 2 * hidden),
            changes: vec![BoardChanges::NONE; plies].into_boxed_slice(),
            computed: vec![[false; 2]; plies].into_boxed_slice(),
            views: vec![[0; 2]; plies].into_boxed_slice(),
            kings: KingBuckets::NONE,
            top: 0,
            overflow: 0,
            spare: AlignedI16::zeroed(2 * hidden),
            cache: RefreshCache {
                slots: 0,
                values: AlignedI16::zeroed(0),
                boards: Box::new([]),
            },
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
        self.cache.reset(net);
        self.refresh_slot(net, pos, 0);
    }

    /// A move (or null move, with no changes) was made; `changes` is what it changed.
    #[inline]
    pub fn push(&mut self, changes: &BoardChanges) {
        if self.top + 1 < self.capacity() && self.overflow == 0 {
            // A plain net's views are all 0 and never read: no work on its path.
            if !self.kings.is_plain() {
                self.views[self.top + 1] = self.next_views(changes);
            }
            self.top += 1;
            self.changes[self.top] = *changes;
            self.computed[self.top] = [false; 2];
        } else {
            self.overflow += 1;
        }
    }

    /// The views after the move of `changes` from the position on the board: those of the
    /// side whose king moved follow it.
    #[inline(never)]
    fn next_views(&self, changes: &BoardChanges) -> [u8; 2] {
        let mut views = self.views[self.top];
        for change in changes.iter() {
            if let (true, Some(to)) = (is_king(change.piece), change.to) {
                let color = change.piece.color;
                views[color.index()] = self.kings.view(color, to);
            }
        }
        views
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
    /// side to move's view. One dispatch on the stack's [`SimdLevel`]; below it the updates and
    /// the output layer are compiled for that level and inlined.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        match self.simd {
            // SAFETY (each x86 arm): the stack's level is supported (`with_simd`), so the CPU
            // has its instructions.
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx2 => unsafe { x86::evaluate_avx2(self, net, pos) },
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512 => unsafe { x86::evaluate_avx512(self, net, pos) },
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512Vnni => unsafe { x86::evaluate_avx512_vnni(self, net, pos) },
            #[cfg(target_arch = "aarch64")]
            SimdLevel::Neon => self.evaluate_on::<Neon>(net, pos),
            _ => self.evaluate_on::<Portable>(net, pos),
        }
    }

    /// [`AccumulatorStack::evaluate`] on the path `P`.
    #[inline(always)]
    fn evaluate_on<P: Path>(&mut self, net: &Network, pos: &Position) -> i32 {
        let bucket = net.bucket_of(pos);
        let (w_us, w_them) = net.bucket_weights(bucket);
        let side = pos.side_to_move();
        let (white, black) = self.current_on::<P>(net, pos);
        let (us, them) = match side {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        net.output_of_sum(P::dot_pair(us, them, w_us, w_them), bucket)
    }

    /// The accumulators of `pos`, the position at the end of the line: (White's, Black's).
    pub fn current(&mut self, net: &Network, pos: &Position) -> (&[i16], &[i16]) {
        self.current_on::<Portable>(net, pos)
    }

    #[inline(always)]
    fn current_on<P: Path>(&mut self, net: &Network, pos: &Position) -> (&[i16], &[i16]) {
        let h = self.hidden;
        if self.overflow > 0 {
            let (white, black) = self.spare.split_at_mut(h);
            net.refresh(pos, Color::White, white);
            net.refresh(pos, Color::Black, black);
            return (white, black);
        }
        if self.kings.is_plain() {
            // One view for ever: both perspectives are computed together, from the nearest
            // ply below that is up to date, one fused pass per ply.
            let mut base = self.top;
            while base > 0 && !self.computed[base][0] {
                base -= 1;
            }
            if self.computed[base][0] {
                for ply in base + 1..=self.top {
                    self.update_plain_slot::<P>(net, ply);
                }
            } else {
                // Nothing below is known (no root was set): start from the board.
                self.refresh_slot(net, pos, self.top);
            }
            let slot = &self.values[self.top * 2 * h..(self.top + 1) * 2 * h];
            return slot.split_at(h);
        }
        for perspective in Color::ALL {
            let p = perspective.index();
            // Down to the nearest ply that is up to date, through plies of the same view.
            let view = self.views[self.top][p];
            let mut base = self.top;
            while base > 0 && !self.computed[base][p] && self.views[base - 1][p] == view {
                base -= 1;
            }
            if self.computed[base][p] {
                for ply in base + 1..=self.top {
                    self.update_slot::<P>(net, ply, perspective);
                }
            } else {
                // The king changed bucket or side on the way (or no root was set): from the
                // board.
                self.refresh_perspective(net, pos, self.top, perspective);
            }
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
        for perspective in Color::ALL {
            self.refresh_perspective(net, pos, ply, perspective);
        }
    }

    /// Computes `perspective`'s accumulator of ply `ply`, whose board is `pos`, from the
    /// refresh cache. Inlined, so that its loops are compiled for the caller's vector
    /// instructions (AVX2 halves its instructions against the build's baseline).
    #[inline(always)]
    fn refresh_perspective(
        &mut self,
        net: &Network,
        pos: &Position,
        ply: usize,
        perspective: Color,
    ) {
        let h = self.hidden;
        let p = perspective.index();
        let offset = (ply * 2 + p) * h;
        // The plies made after this one follow the view from here (a stack used without a
        // root learns the net's layout here).
        self.kings = *net.king_buckets();
        let view = self.kings.view_of(pos, perspective);
        let out = &mut self.values[offset..offset + h];
        self.cache.refresh(net, pos, perspective, view, out);
        self.computed[ply][p] = true;
        self.views[ply][p] = view;
    }

    /// Computes both accumulators of ply `ply` from ply `ply - 1`, which is up to date, for a
    /// net of the plain layout (every view 0).
    #[inline(always)]
    fn update_plain_slot<P: Path>(&mut self, net: &Network, ply: usize) {
        let h = self.hidden;
        let changes = &self.changes[ply];
        let (below, rest) = self.values.split_at_mut(ply * 2 * h);
        let previous = &below[(ply - 1) * 2 * h..];
        for perspective in Color::ALL {
            let offset = perspective.index() * h;
            let src = &previous[offset..offset + h];
            let dst = &mut rest[offset..offset + h];
            P::apply(net, &Delta::of(changes, perspective, 0), src, dst);
        }
        self.computed[ply] = [true; 2];
    }

    /// Computes `perspective`'s accumulator of ply `ply` from ply `ply - 1`, which is up to
    /// date and has the same view.
    #[inline(always)]
    fn update_slot<P: Path>(&mut self, net: &Network, ply: usize, perspective: Color) {
        let h = self.hidden;
        let p = perspective.index();
        let delta = Delta::of(&self.changes[ply], perspective, self.views[ply][p]);
        let (below, rest) = self.values.split_at_mut(ply * 2 * h);
        let offset = p * h;
        let start = (ply - 1) * 2 * h + offset;
        let src = &below[start..start + h];
        let dst = &mut rest[offset..offset + h];
        P::apply(net, &delta, src, dst);
        self.computed[ply][p] = true;
    }
}

/// The inner loops of an evaluation for one [`SimdLevel`]: the accumulator update and the
/// output layer's sum. Each is inlined into a function compiled for its level.
trait Path {
    /// `dst = src + added rows - removed rows`.
    fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]);
    /// The output layer's sum ([`forward::screlu_dot_pair`]).
    fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64;
}

/// Plain loops, vectorised by the compiler for the build's target.
struct Portable;

impl Path for Portable {
    #[inline(always)]
    fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
        apply_rows(net, delta, src, dst);
    }

    #[inline(always)]
    fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        forward::portable::dot_pair(us, them, w_us, w_them)
    }
}

/// NEON: the update's loops, which the compiler vectorises with NEON (every `aarch64` target
/// has it: `add v0.8h`, eight units an instruction), and the output layer's intrinsics.
#[cfg(target_arch = "aarch64")]
struct Neon;

#[cfg(target_arch = "aarch64")]
impl Path for Neon {
    #[inline(always)]
    fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
        apply_rows(net, delta, src, dst);
    }

    #[inline(always)]
    fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        forward::neon::dot_pair(us, them, w_us, w_them)
    }
}

/// The x86-64 paths: one function per level compiled with its instructions, the update's loops
/// vectorised for them (16 or 32 units an instruction) and the output layer's intrinsics.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{apply_rows, forward, AccumulatorStack, Delta, Network, Path, Position};

    /// The paths below are only reached from these functions, which only run on a CPU with
    /// their instructions (their callers' promise).
    struct Avx2;
    struct Avx512;
    struct Avx512Vnni;

    impl Path for Avx2 {
        #[inline(always)]
        fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
            apply_rows(net, delta, src, dst);
        }

        #[inline(always)]
        fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
            // SAFETY: only reached from `evaluate_avx2`, whose caller checked AVX2.
            unsafe { forward::avx2::dot_pair(us, them, w_us, w_them) }
        }
    }

    impl Path for Avx512 {
        #[inline(always)]
        fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
            apply_rows(net, delta, src, dst);
        }

        #[inline(always)]
        fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
            // SAFETY: only reached from `evaluate_avx512`, whose caller checked AVX-512.
            unsafe { forward::avx512::dot_pair(us, them, w_us, w_them) }
        }
    }

    impl Path for Avx512Vnni {
        #[inline(always)]
        fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
            apply_rows(net, delta, src, dst);
        }

        #[inline(always)]
        fn dot_pair(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
            // SAFETY: only reached from `evaluate_avx512_vnni`, whose caller checked VNNI.
            unsafe { forward::avx512::dot_pair_vnni(us, them, w_us, w_them) }
        }
    }

    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn evaluate_avx2(
        stack: &mut AccumulatorStack,
        net: &Network,
        pos: &Position,
    ) -> i32 {
        stack.evaluate_on::<Avx2>(net, pos)
    }

    /// # Safety
    ///
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    pub(super) unsafe fn evaluate_avx512(
        stack: &mut AccumulatorStack,
        net: &Network,
        pos: &Position,
    ) -> i32 {
        stack.evaluate_on::<Avx512>(net, pos)
    }

    /// # Safety
    ///
    /// The CPU must support AVX-512 F, BW and VNNI.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn evaluate_avx512_vnni(
        stack: &mut AccumulatorStack,
        net: &Network,
        pos: &Position,
    ) -> i32 {
        stack.evaluate_on::<Avx512Vnni>(net, pos)
    }

    /// The update of `level` alone (for the tests: it must equal the plain loops).
    #[cfg(test)]
    pub(super) fn apply_on(
        level: super::SimdLevel,
        net: &Network,
        delta: &Delta,
        src: &[i16],
        dst: &mut [i16],
    ) {
        /// # Safety
        ///
        /// The CPU must support AVX2.
        #[target_feature(enable = "avx2")]
        unsafe fn avx2(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
            Avx2::apply(net, delta, src, dst);
        }
        /// # Safety
        ///
        /// The CPU must support AVX-512 F and BW.
        #[target_feature(enable = "avx2,avx512f,avx512bw")]
        unsafe fn avx512(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
            Avx512::apply(net, delta, src, dst);
        }
        match level {
            // SAFETY: the level is supported (checked by the match guard).
            super::SimdLevel::Avx2 if level.is_supported() => unsafe { avx2(net, delta, src, dst) },
            super::SimdLevel::Avx512 | super::SimdLevel::Avx512Vnni if level.is_supported() => unsafe {
                avx512(net, delta, src, dst)
            },
            _ => super::Portable::apply(net, delta, src, dst),
        }
    }
}

/// The update's loops, for whatever vector width the caller is compiled for.
#[inline(always)]
fn apply_rows(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
    let row = |i: usize| net.feature_row(delta.base + i);
    match (delta.adds, delta.removes) {
        // A quiet move or a promotion without capture: one in, one out.
        (1, 1) => {
            let (a, r) = (row(delta.added(0)), row(delta.removed(0)));
            for (((d, &s), &a), &r) in dst.iter_mut().zip(src).zip(a).zip(r) {
                *d = s.wrapping_add(a).wrapping_sub(r);
            }
        }
        // A capture (or a capture that promotes): one in, two out.
        (1, 2) => {
            let (a, r1, r2) = (
                row(delta.added(0)),
                row(delta.removed(0)),
                row(delta.removed(1)),
            );
            for ((((d, &s), &a), &r1), &r2) in dst.iter_mut().zip(src).zip(a).zip(r1).zip(r2) {
                *d = s.wrapping_add(a).wrapping_sub(r1).wrapping_sub(r2);
            }
        }
        // Castling: two in, two out.
        (2, 2) => {
            let (a1, a2) = (row(delta.added(0)), row(delta.added(1)));
            let (r1, r2) = (row(delta.removed(0)), row(delta.removed(1)));
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
            for k in 0..delta.adds {
                for (d, &w) in dst.iter_mut().zip(row(delta.added(k))) {
                    *d = d.wrapping_add(w);
                }
            }
            for k in 0..delta.removes {
                for (d, &w) in dst.iter_mut().zip(row(delta.removed(k))) {
                    *d = d.wrapping_sub(w);
                }
            }
        }
    }
}

/// The update of `level` alone (for the tests: it must equal the plain loops).
#[cfg(all(test, not(target_arch = "x86_64")))]
fn apply_on(_level: SimdLevel, net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
    // On ARM the portable loops are the NEON build; elsewhere they are all there is.
    Portable::apply(net, delta, src, dst);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::{random_king_network, random_network};
    #[cfg(target_arch = "x86_64")]
    use x86::apply_on;

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

    /// Plays `line` from `fen` on a stack of `capacity` plies on every vector path, checking
    /// the running accumulators and the evaluation against a refresh every other ply, at the
    /// end, after a null move and on the way back.
    fn follow_line(net: &Network, fen: &str, line: &[&str], capacity: usize) {
        for level in SimdLevel::supported() {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            let mut stack = AccumulatorStack::with_simd(net.hidden(), capacity, level);
            stack.set_root(net, &pos);
            let mut made = Vec::new();
            for &text in line {
                let mv = pos
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                pos.make_move(mv);
                stack.push(pos.last_changes());
                made.push(mv);
                if made.len() % 2 == 0 {
                    assert_eq!(stack.evaluate(net, &pos), net.evaluate(&pos), "{text}");
                    assert!(stack.matches_refresh(net, &pos), "{level:?} after {text}");
                }
            }
            assert!(stack.matches_refresh(net, &pos), "at the end of {line:?}");
            pos.make_null();
            stack.push(pos.last_changes());
            assert!(stack.matches_refresh(net, &pos));
            pos.unmake_null();
            stack.pop();
            while let Some(mv) = made.pop() {
                pos.unmake_move(mv);
                stack.pop();
                assert_eq!(stack.evaluate(net, &pos), net.evaluate(&pos));
                assert!(stack.matches_refresh(net, &pos), "{level:?} back at {mv:?}");
            }
        }
    }

    #[test]
    fn king_buckets_follow_kings_across_buckets_and_wings() {
        for kings in [KingBuckets::DEFAULT, KingBuckets::DEFAULT_MIRRORED] {
            let net = random_king_network(64, kings, 21);
            // Both kings walk up the board and across the d/e files and back; castling both
            // ways changes the bucket of the side that castles.
            let fen = "r3k2r/7p/8/8/8/8/7P/R3K2R w KQkq - 0 1";
            let walk = [
                "e1d2", "e8f7", "d2e3", "f7g6", "e3d4", "g6h5", "d4e5", "h5g4", "e5f6", "a8a1",
                "f6g7", "g4f3", "g7h8", "f3e2", "h8g8", "e2d2", "g8f8", "d2c2",
            ];
            follow_line(&net, fen, &walk, 64);
            follow_line(&net, fen, &["e1g1", "e8c8", "g1h1", "c8b8", "h1g2"], 64);
            follow_line(
                &net,
                fen,
                &["e1c1", "e8g8", "c1b1", "g8h8", "b1c2", "h8g8"],
                64,
            );
            // Past the capacity, and a line evaluated only at its end.
            follow_line(&net, fen, &walk, 5);
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            let mut stack = AccumulatorStack::new(net.hidden(), 64);
            stack.set_root(&net, &pos);
            for text in walk {
                let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
                pos.make_move(mv);
                stack.push(pos.last_changes());
            }
            assert!(stack.matches_refresh(&net, &pos));
            // Another net of the same shape on the same stack: its root resets the refresh
            // cache, whose entries held the first net's sums.
            let other = random_king_network(64, kings, 22);
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            stack.set_root(&other, &pos);
            for text in ["e1d2", "e8d7", "d2e3", "d7e6"] {
                let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
                pos.make_move(mv);
                stack.push(pos.last_changes());
                assert!(stack.matches_refresh(&other, &pos), "{text}");
            }
            // A stack without a root sizes its cache on the first evaluation.
            let mut fresh = AccumulatorStack::new(net.hidden(), 8);
            assert_eq!(fresh.evaluate(&net, &pos), net.evaluate(&pos));
        }
    }

    #[test]
    fn the_dispatched_update_equals_the_plain_loops_for_every_shape_of_move() {
        // Each level's build of the loops (256 or 512 bits on x86, NEON on ARM) must give what
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
            added.iter().for_each(|&i| delta.add(i));
            removed.iter().for_each(|&i| delta.remove(i));
            let mut plain = vec![0i16; h];
            apply_rows(&net, &delta, &src, &mut plain);
            for level in SimdLevel::supported() {
                let mut fast = vec![0i16; h];
                apply_on(level, &net, &delta, &src, &mut fast);
                assert_eq!(fast, plain, "{level:?}: {added:?} in, {removed:?} out");
            }
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
    fn every_path_evaluates_a_game_as_the_network_does_from_scratch() {
        // A real net and real moves: the Ruy Lopez into a middlegame with captures, castling
        // and a queen trade, each position evaluated through the stack on every level.
        let Ok(Some(net)) = crate::eval::nnue::embedded::embedded_network() else {
            panic!("the build embeds a network");
        };
        let moves = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f7f6 d2d4 e5d4 f3d4 c6c5 \
                     d4b3 d8d1 f1d1 c8g4 f2f3 g4e6 b1c3 g8e7 c1e3 e7g6 c3d5 e6d5 e4d5 e8c8 \
                     e3c5 f8c5 g1f1 c5b6 a2a4 g6f4 a4a5 b6a7 d5d6 c7d6";
        for level in SimdLevel::supported() {
            let mut pos = Position::startpos();
            let mut stack = AccumulatorStack::with_simd(net.hidden(), 64, level);
            stack.set_root(&net, &pos);
            for text in moves.split_whitespace() {
                let mv = pos
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                pos.make_move(mv);
                stack.push(pos.last_changes());
                assert_eq!(
                    stack.evaluate(&net, &pos),
                    net.evaluate(&pos),
                    "{level:?} after {text}"
                );
            }
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
