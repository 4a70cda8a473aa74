//! Reading a Polyglot book: checked once when it is opened, then looked up by binary search
//! with positioned reads.
//!
//! Why positioned reads rather than the whole file in memory: books range from a few kilobytes
//! to hundreds of megabytes, and the engine looks one position up per move. A lookup is a
//! binary search of about log2(entries) 16-byte reads (27 for a 100-million-entry book), served
//! by the operating system's page cache: microseconds, with no memory held and nothing to load.
//! Opening reads the file once from start to end (buffered) to check it: a size that is a
//! positive multiple of 16 and keys in ascending order, without which binary search would give
//! wrong answers.

use super::polyglot::{matches_raw, Entry, ENTRY_BYTES};
use crate::board::{Move, Position};
use rand::Rng;
use std::fs::File;
use std::io::{self, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::Path;
use thiserror::Error;

/// Why a book cannot be used.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be opened or read.
    #[error("cannot read the book {name}: {source}")]
    Io {
        /// The book's file name.
        name: String,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The file is empty.
    #[error("the book {name} is empty (a Polyglot book holds 16-byte entries)")]
    Empty {
        /// The book's file name.
        name: String,
    },
    /// The size is not a multiple of the entry size: truncated, or not a book.
    #[error(
        "the book {name} is not a Polyglot book: its size, {size} bytes, is not a multiple of \
         16 (truncated, or another format)"
    )]
    Size {
        /// The book's file name.
        name: String,
        /// Its size in bytes.
        size: u64,
    },
    /// Keys out of order: binary search would miss entries.
    #[error(
        "the book {name} is not a Polyglot book: its entries are not sorted by key (entry \
         {index} has a smaller key than the entry before it)"
    )]
    Unsorted {
        /// The book's file name.
        name: String,
        /// Index of the first entry whose key is smaller than its predecessor's.
        index: u64,
    },
}

/// A book move that is legal in the position looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (castling as Betacut stores it: king takes rook).
    pub mv: Move,
    /// The move as the book stores it.
    pub raw_move: u16,
    /// Its weight.
    pub weight: u16,
    /// Its learn field.
    pub learn: u32,
}

/// What the book file is read through: a file, or bytes in memory (tests).
trait Source: Read + Seek + Send {}
impl<T: Read + Seek + Send> Source for T {}

/// An open Polyglot book.
pub struct Book {
    name: String,
    source: Box<dyn Source>,
    entries: u64,
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("name", &self.name)
            .field("entries", &self.entries)
            .finish_non_exhaustive()
    }
}

impl Book {
    /// Opens and checks the book at `path`.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|source| BookError::Io {
            name: name.clone(),
            source,
        })?;
        Book::from_source(Box::new(file), name)
    }

    /// A book held in memory (`name` is used in messages).
    pub fn from_bytes(bytes: Vec<u8>, name: &str) -> Result<Book, BookError> {
        Book::from_source(Box::new(Cursor::new(bytes)), name.to_string())
    }

    fn from_source(mut source: Box<dyn Source>, name: String) -> Result<Book, BookError> {
        let io = |source| BookError::Io {
            name: name.clone(),
            source,
        };
        let size = source.seek(SeekFrom::End(0)).map_err(io)?;
        if size == 0 {
            return Err(BookError::Empty { name });
        }
        if size % ENTRY_BYTES as u64 != 0 {
            return Err(BookError::Size { name, size });
        }
        let entries = size / ENTRY_BYTES as u64;
        source.seek(SeekFrom::Start(0)).map_err(io)?;
        let mut reader = BufReader::with_capacity(1 << 16, &mut source);
        let mut previous = 0u64;
        let mut bytes = [0u8; ENTRY_BYTES];
        for index in 0..entries {
            reader.read_exact(&mut bytes).map_err(io)?;
            let key = Entry::from_bytes(&bytes).key;
            if key < previous {
                return Err(BookError::Unsorted { name, index });
            }
            previous = key;
        }
        Ok(Book {
            name,
            source,
            entries,
        })
    }

    /// The name given when opening it (the file name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.entries
    }

    /// True if the book has no entries (never: such a book is refused when opened).
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    fn read_entry(&mut self, index: u64) -> Result<Entry, BookError> {
        let mut bytes = [0u8; ENTRY_BYTES];
        let read = self
            .source
            .seek(SeekFrom::Start(index * ENTRY_BYTES as u64))
            .and_then(|_| self.source.read_exact(&mut bytes));
        read.map_err(|source| BookError::Io {
            name: self.name.clone(),
            source,
        })?;
        Ok(Entry::from_bytes(&bytes))
    }

    /// The entry at `index` (0-based, in file order).
    pub fn entry(&mut self, index: u64) -> Result<Entry, BookError> {
        self.read_entry(index)
    }

    /// Every entry with `key`, in file order (binary search for the first one).
    pub fn entries_for_key(&mut self, key: u64) -> Result<Vec<Entry>, BookError> {
        let (mut lo, mut hi) = (0, self.entries);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.read_entry(mid)?.key < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut found = Vec::new();
        for index in lo..self.entries {
            let entry = self.read_entry(index)?;
            if entry.key != key {
                break;
            }
            found.push(entry);
        }
        Ok(found)
    }

    /// The book moves of `pos` that are legal there, in file order, weight-0 entries included.
    /// Entries whose move is not legal in the position are left out.
    pub fn moves(&mut self, pos: &Position) -> Result<Vec<BookMove>, BookError> {
        let entries = self.entries_for_key(pos.key())?;
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let legal = pos.legal_moves();
        Ok(entries
            .iter()
            .filter_map(|entry| {
                let mv = legal
                    .iter()
                    .copied()
                    .find(|&mv| matches_raw(pos, mv, entry.raw_move))?;
                Some(BookMove {
                    mv,
                    raw_move: entry.raw_move,
                    weight: entry.weight,
                    learn: entry.learn,
                })
            })
            .collect())
    }
}

/// Sum of the weights of `moves`.
pub fn total_weight(moves: &[BookMove]) -> u64 {
    moves.iter().map(|m| u64::from(m.weight)).sum()
}

/// The highest-weight move (the first of equals, in file order); none if all weigh 0.
pub fn best_move(moves: &[BookMove]) -> Option<BookMove> {
    let mut best: Option<BookMove> = None;
    for m in moves.iter().filter(|m| m.weight > 0) {
        if best.is_none_or(|b| m.weight > b.weight) {
            best = Some(*m);
        }
    }
    best
}

/// A move drawn with probability proportional to its weight; none if all weigh 0.
pub fn weighted_move(moves: &[BookMove], rng: &mut impl Rng) -> Option<BookMove> {
    let total = total_weight(moves);
    if total == 0 {
        return None;
    }
    let mut pick = rng.gen_range(0..total);
    for m in moves {
        let weight = u64::from(m.weight);
        if pick < weight {
            return Some(*m);
        }
        pick -= weight;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::polyglot::encode_move;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn book_bytes(entries: &[Entry]) -> Vec<u8> {
        entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    fn start_entries() -> Vec<Entry> {
        let start = Position::startpos();
        let raw = |text: &str| encode_move(start.parse_move(text).unwrap_or(Move::NONE));
        vec![
            Entry {
                key: 1,
                raw_move: 0,
                weight: 9,
                learn: 0,
            },
            Entry {
                key: start.key(),
                raw_move: raw("e2e4"),
                weight: 30,
                learn: 7,
            },
            Entry {
                key: start.key(),
                raw_move: raw("d2d4"),
                weight: 10,
                learn: 0,
            },
            Entry {
                key: start.key(),
                raw_move: 36 | 12 << 6, // e2e5: not legal, ignored
                weight: 50,
                learn: 0,
            },
            Entry {
                key: start.key(),
                raw_move: raw("g1f3"),
                weight: 0,
                learn: 0,
            },
            Entry {
                key: u64::MAX,
                raw_move: 0,
                weight: 1,
                learn: 0,
            },
        ]
    }

    #[test]
    fn lookups_find_the_legal_entries_of_a_position() {
        let entries = start_entries();
        let Ok(mut book) = Book::from_bytes(book_bytes(&entries), "test") else {
            panic!("a valid book");
        };
        assert_eq!(book.len(), 6);
        let start = Position::startpos();
        let Ok(moves) = book.moves(&start) else {
            panic!("lookup");
        };
        let texts: Vec<(String, u16)> = moves
            .iter()
            .map(|m| (start.move_to_coordinate(m.mv), m.weight))
            .collect();
        assert_eq!(
            texts,
            vec![("e2e4".into(), 30), ("d2d4".into(), 10), ("g1f3".into(), 0)]
        );
        assert_eq!(moves[0].learn, 7);
        assert_eq!(total_weight(&moves), 40);
        assert_eq!(best_move(&moves).map(|m| m.weight), Some(30));
        assert_eq!(
            book.entries_for_key(u64::MAX).map(|e| e.len()).ok(),
            Some(1)
        );
        assert_eq!(book.entries_for_key(0).map(|e| e.len()).ok(), Some(0));
        assert_eq!(book.entries_for_key(2).map(|e| e.len()).ok(), Some(0));
        let mut other = start.clone();
        other.make_move(moves[0].mv);
        assert_eq!(book.moves(&other).map(|m| m.len()).ok(), Some(0));
    }

    #[test]
    fn weighted_picks_follow_the_weights_and_skip_weight_zero() {
        let entries = start_entries();
        let Ok(mut book) = Book::from_bytes(book_bytes(&entries), "test") else {
            panic!("a valid book");
        };
        let Ok(moves) = book.moves(&Position::startpos()) else {
            panic!("lookup");
        };
        let mut rng = StdRng::seed_from_u64(42);
        let mut counts = [0u32; 3];
        for _ in 0..4000 {
            let Some(pick) = weighted_move(&moves, &mut rng) else {
                panic!("a pick");
            };
            let index = moves.iter().position(|m| m.mv == pick.mv).unwrap_or(2);
            counts[index] += 1;
        }
        assert_eq!(counts[2], 0, "weight 0 is never played");
        // 3 : 1 expected; with 4000 draws the share of e2e4 is 0.75 +/- 0.02 (3 sigma).
        let share = f64::from(counts[0]) / 4000.0;
        assert!((0.73..=0.77).contains(&share), "e2e4 share {share}");
        let zero = [BookMove {
            weight: 0,
            ..moves[0]
        }];
        assert_eq!(weighted_move(&zero, &mut rng), None);
        assert_eq!(best_move(&zero), None);
    }

    #[test]
    fn broken_books_are_refused() {
        let good = book_bytes(&start_entries());
        assert!(matches!(
            Book::from_bytes(Vec::new(), "empty"),
            Err(BookError::Empty { .. })
        ));
        assert!(matches!(
            Book::from_bytes(good[..good.len() - 5].to_vec(), "cut"),
            Err(BookError::Size { size: 91, .. })
        ));
        let mut swapped = start_entries();
        swapped.swap(0, 5);
        assert!(matches!(
            Book::from_bytes(book_bytes(&swapped), "unsorted"),
            Err(BookError::Unsorted { index: 1, .. })
        ));
        let text = b"[Event \"not a book\"]\n".to_vec();
        let err = Book::from_bytes(text, "games.pgn");
        assert!(
            matches!(err, Err(BookError::Size { size: 21, .. })),
            "{err:?}"
        );
        // Ten entries of seeded random bytes: sorted by chance with probability 1/10!.
        let mut rng = StdRng::seed_from_u64(7);
        let garbage: Vec<u8> = (0..160).map(|_| rng.gen::<u8>()).collect();
        let err = Book::from_bytes(garbage, "garbage.bin");
        assert!(matches!(err, Err(BookError::Unsorted { .. })), "{err:?}");
        let missing = Book::open(Path::new("/nonexistent/betacut/book.bin"));
        let Err(err) = missing else {
            panic!("a missing file is an error");
        };
        assert!(matches!(err, BookError::Io { .. }));
        assert!(err.to_string().contains("/nonexistent/betacut/book.bin"));
    }
}
