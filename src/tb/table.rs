//! One Syzygy table file (`.rtbw` or `.rtbz`): its header parsed at load time, and the probe of
//! one position: the pieces' squares become an index (after mirroring the board into the
//! table's canonical orientation), and the index is looked up in the compressed value stream.
//!
//! File layout (all numbers little-endian unless said otherwise): a 4-byte magic, a flags byte
//! (bit 0: both sides to move stored, bit 1: split by the leading pawn's file), then for each
//! file the piece order of each side, then for each file and side a "pairs" header (Huffman
//! code lengths and the symbol tree of a re-pair compression), then (DTZ) the value maps, then
//! the index tables, the block size tables and, each aligned to 64 bytes, the compressed blocks.
//! Symbol codes are read big-endian, 64 bits at first, then 32 at a time.

use super::consts::{
    binomial, flip_diagonal, folded_file, off_diagonal, DIAGONAL, FLAP, KING_PAIRS,
    KING_PAIR_INDEX, LEAD_PAWN_FACTOR, LEAD_PAWN_INDEX, LOWER, MAX_LEADING_PAWNS, PAWN_TWIST,
    TRIANGLE, UNIQUE_TRIPLES,
};
use super::material::Material;
use super::source::{Header, Source};
use super::TbError;
use crate::board::{Color, PieceKind, Position};
use std::path::Path;

/// Most pieces a table may hold (a board never holds more than 32).
pub(crate) const MAX_PIECES: usize = 32;

/// Which of the two files of a material set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Win/draw/loss (`.rtbw`).
    Wdl,
    /// Distance to zeroing (`.rtbz`).
    Dtz,
}

impl Kind {
    const fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xE8, 0x23, 0x5D],
            Kind::Dtz => [0xD7, 0x66, 0x0C, 0xA5],
        }
    }
}

/// A probe that failed because the table's data does not make sense (a corrupt file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BadData;

/// One compressed value stream: the values of one side to move (of one leading-pawn file).
#[derive(Debug, Default)]
struct Pairs {
    /// Every value is this one (the stream is not stored).
    constant: Option<u16>,
    block_size: u32,
    idx_bits: u32,
    min_len: u32,
    /// First symbol of each code length from `min_len` up.
    lowest_symbol: Vec<u16>,
    /// Smallest left-aligned 64-bit code of each code length from `min_len` up.
    base: Vec<u128>,
    /// How many values (minus one) each symbol stands for.
    symbol_len: Vec<u32>,
    /// Each symbol's two halves, 12 bits each, or (leaves) its value.
    symbol_pattern: Vec<u8>,
    /// Every 2^idx_bits-th value: its block (u32) and its offset in the block (u16).
    index_table: Vec<u8>,
    /// Values in each block, minus one.
    size_table: Vec<u16>,
    /// File offset of the first block.
    data_offset: u64,
    /// Number of positions (indices) of the stream.
    positions: u64,
    /// Bytes of the index table, the size table and the blocks (set up in two passes).
    sizes: [u64; 3],
}

/// How one side to move encodes its position: the pieces in index order, their grouping and
/// the factor of each group.
#[derive(Debug, Default)]
struct Encoding {
    /// Colour bit (0 the table's white, 1 its black) and kind of each piece, in index order.
    pieces: Vec<(u8, PieceKind)>,
    /// At the first piece of each group of identical pieces (and of the leading group), the
    /// group's size; 0 elsewhere.
    norm: Vec<u8>,
    /// At the first piece of each group, the factor of its index.
    factor: Vec<u64>,
    /// The stream; `None` for the second side of a table that stores one side only.
    pairs: Option<Pairs>,
}

/// The encodings of one leading-pawn file (the only "file" of a table without pawns).
#[derive(Debug, Default)]
struct FileData {
    /// Per side to move (WDL: two; DTZ: the one side stored).
    sides: Vec<Encoding>,
    /// DTZ: the stream's flags (bit 0: side stored is Black, bit 1: values mapped, bits 2-3:
    /// distances stored in plies for wins/losses, bit 4: 16-bit map).
    dtz_flags: u8,
    /// DTZ: where each of the four value maps starts in `maps` (in bytes or 16-bit words).
    map_start: [usize; 4],
}

/// A loaded table.
#[derive(Debug)]
pub(crate) struct Table {
    kind: Kind,
    source: Source,
    pieces: usize,
    /// Pawns of the leading group and of the other colour (0, 0 without pawns).
    lead_pawns: usize,
    other_pawns: usize,
    has_pawns: bool,
    /// 0: three or more unique pieces lead; 2: only the kings are unique.
    encoding_type: u8,
    /// The material of the table's white side with White to move as stored.
    white: Material,
    symmetric: bool,
    files: Vec<FileData>,
    /// DTZ value maps.
    maps: Vec<u8>,
}

/// What the material set's name tells before the file is read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameInfo {
    /// Material with the name's first side as White.
    pub material: Material,
}

impl Table {
    /// Reads and checks the header of the `kind` file at `path` for `info`'s material.
    pub fn load(
        kind: Kind,
        path: &Path,
        info: NameInfo,
        memory_limit: u64,
    ) -> Result<Table, TbError> {
        let source = Source::open(path, memory_limit)?;
        Table::from_source(kind, path, info, source)
    }

    /// A table of `kind` for `info`'s material from the bytes of its file, held in memory
    /// (`name` stands for the file in messages).
    pub fn from_bytes(
        kind: Kind,
        name: &Path,
        info: NameInfo,
        bytes: Vec<u8>,
    ) -> Result<Table, TbError> {
        Table::from_source(kind, name, info, Source::Memory(bytes.into_boxed_slice()))
    }

    /// Checks the header of the file read through `source` (named `path` in messages).
    fn from_source(
        kind: Kind,
        path: &Path,
        info: NameInfo,
        source: Source,
    ) -> Result<Table, TbError> {
        let path_buf = path.to_path_buf();
        let header = Header {
            path: &path_buf,
            source: &source,
        };
        if source.len() % 64 != 16 {
            return Err(header.corrupt(format!(
                "file size {} is not 16 more than a multiple of 64 (truncated?)",
                source.len()
            )));
        }
        if header.bytes(0, 4)? != kind.magic() {
            return Err(header.corrupt("wrong magic number for a Syzygy table of this kind"));
        }
        let material = info.material;
        let pieces = material.total() as usize;
        if !(2..=MAX_PIECES).contains(&pieces) {
            return Err(header.corrupt("impossible number of pieces"));
        }
        let (white_pawns, black_pawns) = (
            material.count(Color::White, PieceKind::Pawn) as usize,
            material.count(Color::Black, PieceKind::Pawn) as usize,
        );
        let has_pawns = white_pawns + black_pawns > 0;
        // The leading pawns are the colour with fewer pawns (but at least one).
        let (lead_pawns, other_pawns) =
            if black_pawns > 0 && (white_pawns == 0 || black_pawns < white_pawns) {
                (black_pawns, white_pawns)
            } else {
                (white_pawns, black_pawns)
            };
        if lead_pawns > MAX_LEADING_PAWNS {
            return Err(header.corrupt("too many pawns"));
        }
        let unique = Color::ALL
            .iter()
            .flat_map(|&c| PieceKind::ALL.iter().map(move |&k| material.count(c, k)))
            .filter(|&n| n == 1)
            .count();
        let encoding_type = match unique {
            0..=1 if !has_pawns => {
                return Err(header.corrupt("tables without two unique pieces are not chess"))
            }
            2 => 2,
            _ => 0,
        };
        let mut table = Table {
            kind,
            source: Source::Memory(Box::new([])),
            pieces,
            lead_pawns,
            other_pawns,
            has_pawns,
            encoding_type,
            white: material,
            symmetric: material.is_symmetric(),
            files: Vec::new(),
            maps: Vec::new(),
        };
        table.parse(&header)?;
        table.source = source;
        Ok(table)
    }

    /// Parses everything after the magic number.
    fn parse(&mut self, h: &Header) -> Result<(), TbError> {
        let flags = h.u8(4)?;
        let split = flags & 1 != 0;
        let file_count = if flags & 2 != 0 { 4 } else { 1 };
        if self.has_pawns != (file_count == 4) {
            return Err(h.corrupt("pawn file split does not match the material"));
        }
        let wdl = self.kind == Kind::Wdl;
        let sides = if wdl { 2 } else { 1 };
        let n = self.pieces as u64;
        let mut ptr = 5u64;

        // Piece orders of every file (tables with pawns describe all four files).
        let order_bytes = if self.has_pawns && self.other_pawns > 0 {
            2
        } else {
            1
        };
        let described = if self.has_pawns { 4 } else { 1 };
        for file in 0..described {
            let orders = h.bytes(ptr, order_bytes)?;
            let codes = h.bytes(ptr + order_bytes, n)?;
            let mut data = FileData::default();
            for side in 0..sides {
                let shift = 4 * side as u32;
                let order = (orders[0] >> shift) & 0x0F;
                let order2 = if order_bytes == 2 {
                    (orders[1] >> shift) & 0x0F
                } else {
                    0x0F
                };
                let mut pieces = Vec::with_capacity(self.pieces);
                for &code in &codes {
                    let code = (code >> shift) & 0x0F;
                    let kind = match code & 7 {
                        k @ 1..=6 => PieceKind::from_index(k as usize - 1),
                        _ => return Err(h.corrupt("bad piece code")),
                    };
                    pieces.push((code >> 3, kind));
                }
                let mut enc = Encoding {
                    pieces,
                    ..Encoding::default()
                };
                let size = if self.has_pawns {
                    self.setup_pawn_encoding(&mut enc, order, order2, file)
                } else {
                    self.setup_piece_encoding(&mut enc, order)
                }
                .ok_or_else(|| h.corrupt("piece order does not match the material"))?;
                enc.pairs = Some(Pairs {
                    positions: size,
                    ..Pairs::default()
                });
                data.sides.push(enc);
            }
            self.files.push(data);
            ptr += n + order_bytes;
        }
        ptr += ptr & 1;
        if !self.has_pawns {
            // The material of the table's white side, as its piece order says.
            self.white = self
                .header_material()
                .ok_or_else(|| h.corrupt("piece order does not match the material"))?;
            if self.white != self.white.mirrored() && self.symmetric {
                return Err(h.corrupt("piece order does not match the material"));
            }
        }

        // Pairs headers.
        let stored_sides = if wdl && split { 2 } else { 1 };
        for f in 0..file_count {
            for side in 0..sides {
                let enc = &mut self.files[f].sides[side];
                if side >= stored_sides {
                    enc.pairs = None;
                    continue;
                }
                let positions = enc.pairs.as_ref().map_or(0, |p| p.positions);
                let (pairs, flags, next) = setup_pairs(h, ptr, positions, wdl)?;
                enc.pairs = Some(pairs);
                if !wdl {
                    self.files[f].dtz_flags = flags;
                }
                ptr = next;
            }
        }

        // DTZ value maps.
        if !wdl {
            let map_base = ptr;
            for f in 0..file_count {
                let flags = self.files[f].dtz_flags;
                if flags & 2 == 0 {
                    continue;
                }
                if flags & 16 == 0 {
                    for i in 0..4 {
                        self.files[f].map_start[i] = (ptr + 1 - map_base) as usize;
                        ptr += 1 + u64::from(h.u8(ptr)?);
                    }
                } else {
                    ptr += ptr & 1;
                    for i in 0..4 {
                        self.files[f].map_start[i] = ((ptr + 2 - map_base) / 2) as usize;
                        ptr += 2 + 2 * u64::from(h.u16(ptr)?);
                    }
                }
            }
            self.maps = h.bytes(map_base, ptr - map_base)?;
            ptr += ptr & 1;
        }

        // Index tables, size tables, blocks.
        for part in 0..3 {
            for f in 0..file_count {
                for side in 0..stored_sides {
                    let Some(pairs) = self.files[f].sides[side].pairs.as_mut() else {
                        continue;
                    };
                    let len = pairs.sizes[part];
                    match part {
                        0 => pairs.index_table = h.bytes(ptr, len)?,
                        1 => {
                            pairs.size_table = h
                                .bytes(ptr, len)?
                                .chunks_exact(2)
                                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                                .collect()
                        }
                        _ => {
                            ptr = ptr.saturating_add(63) & !63;
                            pairs.data_offset = ptr;
                        }
                    }
                    ptr = ptr.saturating_add(len);
                }
            }
        }
        if ptr > h.source.len() {
            return Err(h.corrupt(format!(
                "the blocks end at byte {ptr} but the file has {} (truncated?)",
                h.source.len()
            )));
        }
        Ok(())
    }

    /// The material of the white side of a table without pawns as its header lists it.
    fn header_material(&self) -> Option<Material> {
        let mut white = String::new();
        let mut black = String::new();
        for &(color, kind) in &self.files[0].sides[0].pieces {
            let letter = kind.letter().to_ascii_uppercase();
            if color == 0 {
                white.push(letter);
            } else {
                black.push(letter);
            }
        }
        Material::from_sides(&white, &black)
            .filter(|m| *m == self.white || *m == self.white.mirrored())
    }

    /// Groups and factors of a side of a table without pawns; the number of positions.
    fn setup_piece_encoding(&self, enc: &mut Encoding, order: u8) -> Option<u64> {
        let n = self.pieces;
        let mut norm = vec![0u8; n];
        norm[0] = if self.encoding_type == 0 { 3 } else { 2 };
        let lead = usize::from(norm[0]);
        group_identical(&enc.pieces, &mut norm, lead)?;
        let mut factor = vec![0u64; n];
        let lead = if self.encoding_type == 0 {
            UNIQUE_TRIPLES
        } else {
            KING_PAIRS
        };
        let mut free = 64 - i32::from(norm[0]);
        let mut f = 1u64;
        let mut i = usize::from(norm[0]);
        let mut k = 0u8;
        while i < n || k == order {
            if k == order {
                factor[0] = f;
                f = f.checked_mul(lead)?;
            } else {
                factor[i] = f;
                f = f.checked_mul(binomial(free, i32::from(norm[i])))?;
                free -= i32::from(norm[i]);
                i += usize::from(norm[i]);
            }
            k += 1;
            if k > 16 {
                return None;
            }
        }
        enc.norm = norm;
        enc.factor = factor;
        Some(f)
    }

    /// Groups and factors of a side of a table with pawns for the leading pawn on `file`.
    fn setup_pawn_encoding(
        &self,
        enc: &mut Encoding,
        order: u8,
        order2: u8,
        file: usize,
    ) -> Option<u64> {
        let n = self.pieces;
        let (lead, other) = (self.lead_pawns, self.other_pawns);
        let mut norm = vec![0u8; n];
        norm[0] = lead as u8;
        if other > 0 {
            norm[lead] = other as u8;
        }
        group_identical(&enc.pieces, &mut norm, lead + other)?;
        let mut factor = vec![0u64; n];
        let mut i = lead;
        if order2 < 0x0F {
            i += usize::from(norm[i]);
        }
        let mut free = 64 - i as i32;
        let mut f = 1u64;
        let mut k = 0u8;
        while i < n || k == order || k == order2 {
            if k == order {
                factor[0] = f;
                f = f.checked_mul(LEAD_PAWN_FACTOR[lead - 1][file])?;
            } else if k == order2 {
                factor[lead] = f;
                f = f.checked_mul(binomial(48 - lead as i32, i32::from(norm[lead])))?;
            } else {
                factor[i] = f;
                f = f.checked_mul(binomial(free, i32::from(norm[i])))?;
                free -= i32::from(norm[i]);
                i += usize::from(norm[i]);
            }
            k += 1;
            if k > 16 {
                return None;
            }
        }
        enc.norm = norm;
        enc.factor = factor;
        Some(f)
    }

    /// Probes the WDL value (-2..2 for the side to move) of `pos`, whose material is
    /// `material` (one of this table's two orientations).
    #[inline]
    pub fn probe_wdl(&self, pos: &Position, material: Material) -> Result<i32, BadData> {
        let (value, _) = self.probe_value(pos, material, None)?;
        match value {
            0..=4 => Ok(i32::from(value) - 2),
            _ => Err(BadData),
        }
    }

    /// Probes the DTZ table for `pos` (of WDL value `wdl`): the number the table stores, in
    /// plies, or `None` when the table stores the other side to move only.
    #[inline]
    pub fn probe_dtz(
        &self,
        pos: &Position,
        material: Material,
        wdl: i32,
    ) -> Result<Option<i32>, BadData> {
        let (value, file) = self.probe_value(pos, material, Some(wdl))?;
        let Some(file) = file else {
            return Ok(None);
        };
        let data = &self.files[file];
        let mut res = usize::from(value);
        // wdl -2, -1, 0, 1, 2 -> map 1, 3, 0, 2, 0.
        const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
        // wdl -2 and 2: flags that say the distances are stored in plies, not moves.
        const PLY_FLAGS: [u8; 5] = [8, 0, 0, 0, 4];
        let w = (wdl + 2).clamp(0, 4) as usize;
        if data.dtz_flags & 2 != 0 {
            let start = data.map_start[WDL_TO_MAP[w]] + res;
            res = if data.dtz_flags & 16 == 0 {
                usize::from(*self.maps.get(start).ok_or(BadData)?)
            } else {
                let b = self.maps.get(2 * start..2 * start + 2).ok_or(BadData)?;
                usize::from(u16::from_le_bytes([b[0], b[1]]))
            };
        }
        if data.dtz_flags & PLY_FLAGS[w] == 0 || wdl & 1 != 0 {
            res *= 2;
        }
        Ok(Some(res as i32))
    }

    /// The raw value stored for `pos`, and (DTZ) the file it came from; `wdl` is `Some` for
    /// a DTZ probe, and then `None` comes back for the file when the side is not stored.
    fn probe_value(
        &self,
        pos: &Position,
        material: Material,
        wdl: Option<i32>,
    ) -> Result<(u16, Option<usize>), BadData> {
        let black_to_move = pos.side_to_move() == Color::Black;
        // Colour swap (the position's white plays the table's black), rank flip, side index.
        let (color_flip, rank_flip, side) = if self.symmetric {
            (black_to_move, if black_to_move { 0x38 } else { 0 }, 0usize)
        } else if material != self.white {
            (true, 0x38u8, usize::from(!black_to_move))
        } else {
            (false, 0u8, usize::from(black_to_move))
        };
        let mut squares = [0u8; MAX_PIECES];
        let n = self.pieces;
        let place = |squares: &mut [u8; MAX_PIECES],
                     from: usize,
                     pieces: &[(u8, PieceKind)],
                     flip: u8|
         -> Result<usize, BadData> {
            let (color_bit, kind) = *pieces.get(from).ok_or(BadData)?;
            let color = if (color_bit == 1) != color_flip {
                Color::Black
            } else {
                Color::White
            };
            let mut i = from;
            for sq in pos.pieces_of(color, kind) {
                *squares.get_mut(i).ok_or(BadData)? = sq.index() as u8 ^ flip;
                i += 1;
            }
            if i == from || i > n {
                return Err(BadData);
            }
            Ok(i)
        };
        if !self.has_pawns {
            let data = &self.files[0];
            let (enc, stored) = self.side_encoding(data, side, wdl)?;
            if !stored {
                return Ok((0, None));
            }
            let mut i = 0;
            while i < n {
                i = place(&mut squares, i, &enc.pieces, 0)?;
            }
            let index = self.encode_pieces(enc, &mut squares)?;
            let pairs = enc.pairs.as_ref().ok_or(BadData)?;
            Ok((pairs.decompress(&self.source, index, self.kind)?, Some(0)))
        } else {
            let lead = self.lead_pawns;
            let first = &self.files[0].sides[0].pieces;
            let end = place(&mut squares, 0, first, rank_flip)?;
            if end != lead {
                return Err(BadData);
            }
            // The leading pawn is the one nearest the a- or h-file (then the lowest rank).
            for i in 1..lead {
                if FLAP[squares[0] as usize] > FLAP[squares[i] as usize] {
                    squares.swap(0, i);
                }
            }
            let file = folded_file(squares[0]);
            let data = &self.files[file];
            let (enc, stored) = self.side_encoding(data, side, wdl)?;
            if !stored {
                return Ok((0, None));
            }
            let mut i = lead;
            while i < n {
                i = place(&mut squares, i, &enc.pieces, rank_flip)?;
            }
            let index = self.encode_pawns(enc, &mut squares)?;
            let pairs = enc.pairs.as_ref().ok_or(BadData)?;
            Ok((
                pairs.decompress(&self.source, index, self.kind)?,
                Some(file),
            ))
        }
    }

    /// The encoding of `side` in `data`, and whether its values are stored (a DTZ table keeps
    /// one side to move only).
    #[inline]
    fn side_encoding<'a>(
        &self,
        data: &'a FileData,
        side: usize,
        wdl: Option<i32>,
    ) -> Result<(&'a Encoding, bool), BadData> {
        match wdl {
            None => Ok((data.sides.get(side).ok_or(BadData)?, true)),
            Some(_) => {
                let stored_side = usize::from(data.dtz_flags & 1);
                let stored = if self.has_pawns {
                    stored_side == side
                } else {
                    stored_side == side || self.symmetric
                };
                Ok((data.sides.first().ok_or(BadData)?, stored))
            }
        }
    }

    /// The index of a position of a table without pawns (`squares` in piece order).
    fn encode_pieces(
        &self,
        enc: &Encoding,
        squares: &mut [u8; MAX_PIECES],
    ) -> Result<u64, BadData> {
        let n = self.pieces;
        let p = &mut squares[..n];
        if p[0] & 0x04 != 0 {
            p.iter_mut().for_each(|s| *s ^= 0x07);
        }
        if p[0] & 0x20 != 0 {
            p.iter_mut().for_each(|s| *s ^= 0x38);
        }
        let leading = if self.encoding_type == 0 { 3 } else { 2 };
        if let Some(i) = p.iter().position(|&s| off_diagonal(s) != 0) {
            if i < leading && off_diagonal(p[i]) > 0 {
                p.iter_mut().for_each(|s| *s = flip_diagonal(*s));
            }
        }
        let mut index: u64;
        if self.encoding_type == 0 {
            let (a, b, c) = (p[0], p[1], p[2]);
            let i = u64::from(b > a);
            let j = u64::from(c > a) + u64::from(c > b);
            let (a, b, c) = (u64::from(a), u64::from(b), u64::from(c));
            let tri = |s: u64| u64::from(TRIANGLE[s as usize]);
            let diag = |s: u64| u64::from(DIAGONAL[s as usize]);
            let low = |s: u64| u64::from(LOWER[s as usize]);
            index = if off_diagonal(p[0]) != 0 {
                tri(a) * 63 * 62 + (b - i) * 62 + (c - j)
            } else if off_diagonal(p[1]) != 0 {
                6 * 63 * 62 + diag(a) * 28 * 62 + low(b) * 62 + c - j
            } else if off_diagonal(p[2]) != 0 {
                6 * 63 * 62 + 4 * 28 * 62 + diag(a) * 7 * 28 + (diag(b) - i) * 28 + low(c)
            } else {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + 4 * 7 * 28
                    + diag(a) * 7 * 6
                    + (diag(b) - i) * 6
                    + (diag(c) - j)
            };
        } else {
            let pair = KING_PAIR_INDEX[TRIANGLE[p[0] as usize] as usize][p[1] as usize];
            index = u64::try_from(pair).map_err(|_| BadData)?;
        }
        index = index.wrapping_mul(enc.factor[0]);
        index = index.wrapping_add(encode_groups(p, &enc.norm, &enc.factor, leading)?);
        Ok(index)
    }

    /// The index of a position of a table with pawns (`squares` in piece order, the leading
    /// pawn first).
    fn encode_pawns(&self, enc: &Encoding, squares: &mut [u8; MAX_PIECES]) -> Result<u64, BadData> {
        let n = self.pieces;
        let lead = self.lead_pawns;
        let p = &mut squares[..n];
        if p[0] & 0x04 != 0 {
            p.iter_mut().for_each(|s| *s ^= 0x07);
        }
        // The other leading pawns by decreasing twist.
        for i in 1..lead {
            for j in i + 1..lead {
                if PAWN_TWIST[p[i] as usize] < PAWN_TWIST[p[j] as usize] {
                    p.swap(i, j);
                }
            }
        }
        let t = lead - 1;
        let mut index = LEAD_PAWN_INDEX[t][FLAP[p[0] as usize] as usize];
        for i in (1..=t).rev() {
            index += binomial(i32::from(PAWN_TWIST[p[i] as usize]), (t - i + 1) as i32);
        }
        index = index.wrapping_mul(enc.factor[0]);
        let mut i = lead;
        let end = lead + self.other_pawns;
        if end > i {
            p[i..end].sort_unstable();
            let mut s = 0u64;
            for m in i..end {
                let sq = i32::from(p[m]);
                let below = p[..i].iter().filter(|&&q| i32::from(q) < sq).count() as i32;
                s += binomial(sq - below - 8, (m - i + 1) as i32);
            }
            index = index.wrapping_add(s.wrapping_mul(enc.factor[i]));
            i = end;
        }
        index = index.wrapping_add(encode_groups(p, &enc.norm, &enc.factor, i)?);
        Ok(index)
    }
}

/// Marks the groups of identical pieces from `start` on in `norm` (the size at each group's
/// first piece); `None` if a group would run past the pieces.
fn group_identical(pieces: &[(u8, PieceKind)], norm: &mut [u8], start: usize) -> Option<()> {
    let n = pieces.len();
    if start > n || norm.len() != n {
        return None;
    }
    let mut i = start;
    while i < n {
        let mut j = i;
        while j < n && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i += usize::from(norm[i]).max(1);
    }
    Some(())
}

/// Index contribution of the groups of identical pieces from `start` on: each group's squares
/// sorted and counted as a combination of the squares the earlier pieces leave free.
#[inline]
fn encode_groups(p: &mut [u8], norm: &[u8], factor: &[u64], start: usize) -> Result<u64, BadData> {
    let n = p.len();
    let mut index = 0u64;
    let mut i = start;
    while i < n {
        let t = usize::from(norm[i]);
        if t == 0 || i + t > n {
            return Err(BadData);
        }
        p[i..i + t].sort_unstable();
        let mut s = 0u64;
        for m in i..i + t {
            let sq = i32::from(p[m]);
            let below = p[..i].iter().filter(|&&q| i32::from(q) < sq).count() as i32;
            s += binomial(sq - below, (m - i + 1) as i32);
        }
        index = index.wrapping_add(s.wrapping_mul(factor[i]));
        i += t;
    }
    Ok(index)
}

/// Reads a pairs header at `ptr` for a stream of `positions` values: the stream (its tables
/// still to be read), the header's flags byte and where the next header starts.
fn setup_pairs(
    h: &Header,
    ptr: u64,
    positions: u64,
    wdl: bool,
) -> Result<(Pairs, u8, u64), TbError> {
    let flags = h.u8(ptr)?;
    if flags & 0x80 != 0 {
        let value = if wdl { u16::from(h.u8(ptr + 1)?) } else { 0 };
        let pairs = Pairs {
            constant: Some(value),
            positions,
            ..Pairs::default()
        };
        return Ok((pairs, flags, ptr + 2));
    }
    let block_size = u32::from(h.u8(ptr + 1)?);
    let idx_bits = u32::from(h.u8(ptr + 2)?);
    let real_blocks = u64::from(h.u32(ptr + 4)?);
    let blocks = real_blocks + u64::from(h.u8(ptr + 3)?);
    let max_len = u32::from(h.u8(ptr + 8)?);
    let min_len = u32::from(h.u8(ptr + 9)?);
    if !(1..=32).contains(&block_size)
        || !(1..=40).contains(&idx_bits)
        || min_len == 0
        || max_len < min_len
        || max_len > 63
    {
        return Err(h.corrupt("impossible compression parameters"));
    }
    let lengths = (max_len - min_len + 1) as u64;
    let symbols = u64::from(h.u16(ptr + 10 + 2 * lengths)?);
    let lowest_symbol: Vec<u16> = h
        .bytes(ptr + 10, 2 * lengths)?
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let symbol_pattern = h.bytes(ptr + 12 + 2 * lengths, 3 * symbols)?;
    let next = ptr + 12 + 2 * lengths + 3 * symbols + (symbols & 1);
    let symbol_len = symbol_lengths(&symbol_pattern, symbols as usize)
        .ok_or_else(|| h.corrupt("the symbol tree has a cycle or a bad reference"))?;

    // Canonical Huffman code: the smallest code of each length, left-aligned in 64 bits.
    let mut base = vec![0u128; lengths as usize];
    for i in (0..lengths as usize - 1).rev() {
        let sum = base[i + 1] + u128::from(lowest_symbol[i]);
        let value = sum
            .checked_sub(u128::from(lowest_symbol[i + 1]))
            .ok_or_else(|| h.corrupt("bad code lengths"))?;
        base[i] = value / 2;
    }
    for (i, b) in base.iter_mut().enumerate() {
        *b <<= 64 - (min_len + i as u32);
    }

    let indices = positions.div_ceil(1u64 << idx_bits);
    let data_bytes = (1u64 << block_size)
        .checked_mul(real_blocks)
        .ok_or_else(|| h.corrupt("impossible block count"))?;
    let sizes = [6 * indices, 2 * blocks, data_bytes];
    let pairs = Pairs {
        constant: None,
        block_size,
        idx_bits,
        min_len,
        lowest_symbol,
        base,
        symbol_len,
        symbol_pattern,
        positions,
        sizes,
        ..Pairs::default()
    };
    Ok((pairs, flags, next))
}

/// How many values (minus one) each symbol stands for: 0 for a leaf, else the sum of its two
/// halves' plus one. `None` if the tree refers past its end or to itself.
fn symbol_lengths(pattern: &[u8], symbols: usize) -> Option<Vec<u32>> {
    let halves = |s: usize| -> Option<(usize, usize)> {
        let w = &pattern[3 * s..3 * s + 3];
        let right = (usize::from(w[2]) << 4) | (usize::from(w[1]) >> 4);
        if right == 0xFFF {
            return None;
        }
        let left = (usize::from(w[1] & 0x0F) << 8) | usize::from(w[0]);
        Some((left, right))
    };
    // 0 unvisited, 1 in progress, 2 done.
    let mut state = vec![0u8; symbols];
    let mut len = vec![0u32; symbols];
    let mut stack = Vec::new();
    for root in 0..symbols {
        if state[root] == 2 {
            continue;
        }
        stack.push(root);
        while let Some(&s) = stack.last() {
            match halves(s) {
                None => {
                    state[s] = 2;
                    stack.pop();
                }
                Some((l, r)) => {
                    if l >= symbols || r >= symbols {
                        return None;
                    }
                    if state[l] == 2 && state[r] == 2 {
                        len[s] = len[l].saturating_add(len[r]).saturating_add(1);
                        state[s] = 2;
                        stack.pop();
                        continue;
                    }
                    state[s] = 1;
                    for child in [l, r] {
                        match state[child] {
                            0 => stack.push(child),
                            1 => return None,
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    Some(len)
}

/// Big-endian reading of a block's bits from memory or, a chunk at a time, from disk.
trait ByteStream {
    fn u32_be(&mut self) -> Result<u32, BadData>;
}

/// A block in memory; bytes past the end of the file read as zero.
struct MemoryStream<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl ByteStream for MemoryStream<'_> {
    #[inline]
    fn u32_be(&mut self) -> Result<u32, BadData> {
        let value = match self.bytes.get(self.pos..self.pos + 4) {
            Some(b) => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            None => {
                let mut b = [0u8; 4];
                for (k, byte) in b.iter_mut().enumerate() {
                    *byte = self.bytes.get(self.pos + k).copied().unwrap_or(0);
                }
                u32::from_be_bytes(b)
            }
        };
        self.pos += 4;
        Ok(value)
    }
}

/// Bytes of a block on disk, read in chunks into a buffer on the stack.
struct DiskStream<'a> {
    source: &'a Source,
    /// File offset of `buf[0]`.
    start: u64,
    /// Next byte to hand out, relative to `start`.
    pos: usize,
    buf: [u8; DISK_CHUNK],
}

/// Bytes read from disk at a time while decoding a block.
const DISK_CHUNK: usize = 256;

impl ByteStream for DiskStream<'_> {
    #[inline]
    fn u32_be(&mut self) -> Result<u32, BadData> {
        if self.pos + 4 > DISK_CHUNK {
            self.start += self.pos as u64;
            self.pos = 0;
            self.source
                .read_padded(self.start, &mut self.buf)
                .map_err(|()| BadData)?;
        }
        let b = &self.buf[self.pos..self.pos + 4];
        self.pos += 4;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl Pairs {
    /// The value at `index` of this stream.
    #[inline]
    fn decompress(&self, source: &Source, index: u64, kind: Kind) -> Result<u16, BadData> {
        if let Some(value) = self.constant {
            return Ok(value);
        }
        if index >= self.positions {
            return Err(BadData);
        }
        let main = (index >> self.idx_bits) as usize;
        let entry = self
            .index_table
            .get(6 * main..6 * main + 6)
            .ok_or(BadData)?;
        let mut block = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) as usize;
        let offset = i64::from(u16::from_le_bytes([entry[4], entry[5]]));
        let half = 1i64 << (self.idx_bits - 1);
        let mut literal = (index & ((1u64 << self.idx_bits) - 1)) as i64 - half + offset;
        let sizes = &self.size_table;
        if literal < 0 {
            while literal < 0 {
                block = block.checked_sub(1).ok_or(BadData)?;
                literal += i64::from(*sizes.get(block).ok_or(BadData)?) + 1;
            }
        } else {
            loop {
                let size = i64::from(*sizes.get(block).ok_or(BadData)?);
                if literal <= size {
                    break;
                }
                literal -= size + 1;
                block += 1;
            }
        }
        let start = self.data_offset + ((block as u64) << self.block_size);
        let symbol = match source.memory() {
            Some(bytes) => {
                let pos = usize::try_from(start).map_err(|_| BadData)?;
                let mut stream = MemoryStream { bytes, pos };
                self.find_symbol(&mut stream, literal)?
            }
            None => {
                let mut stream = DiskStream {
                    source,
                    start,
                    pos: 0,
                    buf: [0; DISK_CHUNK],
                };
                source
                    .read_padded(start, &mut stream.buf)
                    .map_err(|()| BadData)?;
                self.find_symbol(&mut stream, literal)?
            }
        };
        let w = self
            .symbol_pattern
            .get(3 * symbol..3 * symbol + 3)
            .ok_or(BadData)?;
        Ok(match kind {
            Kind::Wdl => u16::from(w[0]),
            Kind::Dtz => (u16::from(w[1] & 0x0F) << 8) | u16::from(w[0]),
        })
    }

    /// Decodes symbols from the block's start until the one holding value number `literal`,
    /// then descends its tree to the leaf of that value.
    #[inline]
    fn find_symbol<S: ByteStream>(
        &self,
        stream: &mut S,
        mut literal: i64,
    ) -> Result<usize, BadData> {
        let high = u64::from(stream.u32_be()?);
        let mut code = (high << 32) | u64::from(stream.u32_be()?);
        let mut bits = 0u32;
        let lengths = self.base.len();
        let mut symbol;
        loop {
            let mut l = 0;
            while u128::from(code) < self.base[l] {
                l += 1;
                if l >= lengths {
                    return Err(BadData);
                }
            }
            let len = self.min_len + l as u32;
            let shift = 64 - len;
            let delta = ((u128::from(code) - self.base[l]) >> shift) as usize;
            symbol = usize::from(self.lowest_symbol[l]) + delta;
            let covers = i64::from(*self.symbol_len.get(symbol).ok_or(BadData)?) + 1;
            if literal < covers {
                break;
            }
            literal -= covers;
            code <<= len;
            bits += len;
            if bits >= 32 {
                bits -= 32;
                code |= u64::from(stream.u32_be()?) << bits;
            }
        }
        while self.symbol_len[symbol] != 0 {
            let w = &self.symbol_pattern[3 * symbol..3 * symbol + 3];
            let left = (usize::from(w[1] & 0x0F) << 8) | usize::from(w[0]);
            let covers = i64::from(*self.symbol_len.get(left).ok_or(BadData)?) + 1;
            if literal < covers {
                symbol = left;
            } else {
                literal -= covers;
                symbol = (usize::from(w[2]) << 4) | (usize::from(w[1]) >> 4);
                if symbol >= self.symbol_len.len() {
                    return Err(BadData);
                }
            }
        }
        Ok(symbol)
    }
}
