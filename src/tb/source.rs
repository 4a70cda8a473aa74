//! Reading a table file: small files are read whole into memory; larger ones stay on disk and
//! are read with positioned reads (`pread` on Unix, `seek_read` on Windows), a block at a time,
//! so that many threads can probe one file at once without a shared cursor. No memory mapping.

use super::TbError;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Where a table's bytes come from.
pub(crate) enum Source {
    /// The whole file, read at load time.
    Memory(Box<[u8]>),
    /// The open file; bytes are read on demand.
    #[cfg_attr(not(any(unix, windows)), allow(dead_code))]
    Disk {
        /// The open file.
        file: File,
        /// Its length in bytes.
        len: u64,
    },
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Memory(bytes) => write!(f, "Memory({} bytes)", bytes.len()),
            Source::Disk { len, .. } => write!(f, "Disk({len} bytes)"),
        }
    }
}

#[cfg(unix)]
fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, mut offset: u64, mut buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_at(_file: &File, _offset: u64, _buf: &mut [u8]) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

impl Source {
    /// Opens `path`: read whole if it is at most `memory_limit` bytes (or positioned reads are
    /// not available on this platform), else kept open for positioned reads.
    pub fn open(path: &Path, memory_limit: u64) -> Result<Source, TbError> {
        let io = |e: std::io::Error| TbError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len <= memory_limit || cfg!(not(any(unix, windows))) {
            let bytes = std::fs::read(path).map_err(io)?;
            return Ok(Source::Memory(bytes.into_boxed_slice()));
        }
        Ok(Source::Disk { file, len })
    }

    /// Length of the file in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Source::Memory(bytes) => bytes.len() as u64,
            Source::Disk { len, .. } => *len,
        }
    }

    /// Fills `buf` with the bytes at `offset`; bytes past the end of the file read as zero (the
    /// decoder may look a few bytes beyond the last block). Only a failing read is an error.
    pub fn read_padded(&self, offset: u64, buf: &mut [u8]) -> Result<(), ()> {
        let len = self.len();
        let available = len.saturating_sub(offset).min(buf.len() as u64) as usize;
        let (head, tail) = buf.split_at_mut(available);
        tail.fill(0);
        if head.is_empty() {
            return Ok(());
        }
        match self {
            Source::Memory(bytes) => {
                let start = offset as usize;
                head.copy_from_slice(&bytes[start..start + available]);
                Ok(())
            }
            Source::Disk { file, .. } => read_at(file, offset, head).map_err(|_| ()),
        }
    }

    /// The bytes at `offset..offset + len`, which must lie inside the file (used while a
    /// table is being set up, never in a probe).
    pub fn bytes(&self, path: &Path, offset: u64, len: u64) -> Result<Vec<u8>, TbError> {
        let end = offset.checked_add(len).filter(|&end| end <= self.len());
        if end.is_none() {
            return Err(TbError::Corrupt {
                path: path.to_path_buf(),
                reason: format!(
                    "needs bytes {offset}..{} but the file has {}",
                    offset.saturating_add(len),
                    self.len()
                ),
            });
        }
        let mut out = vec![0u8; len as usize];
        match self {
            Source::Memory(bytes) => {
                out.copy_from_slice(&bytes[offset as usize..(offset + len) as usize]);
            }
            Source::Disk { file, .. } => {
                read_at(file, offset, &mut out).map_err(|e| TbError::Io {
                    path: path.to_path_buf(),
                    message: e.to_string(),
                })?;
            }
        }
        Ok(out)
    }

    /// The in-memory bytes, if the file was read whole.
    #[inline]
    pub fn memory(&self) -> Option<&[u8]> {
        match self {
            Source::Memory(bytes) => Some(bytes),
            Source::Disk { .. } => None,
        }
    }
}

/// Bytes read so far while a table is set up, with bounds-checked little-endian access.
pub(crate) struct Header<'a> {
    pub path: &'a PathBuf,
    pub source: &'a Source,
}

impl Header<'_> {
    /// The byte at `offset`.
    pub fn u8(&self, offset: u64) -> Result<u8, TbError> {
        Ok(self.source.bytes(self.path, offset, 1)?[0])
    }

    /// The little-endian 16-bit number at `offset`.
    pub fn u16(&self, offset: u64) -> Result<u16, TbError> {
        let b = self.source.bytes(self.path, offset, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// The little-endian 32-bit number at `offset`.
    pub fn u32(&self, offset: u64) -> Result<u32, TbError> {
        let b = self.source.bytes(self.path, offset, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The bytes at `offset..offset + len`.
    pub fn bytes(&self, offset: u64, len: u64) -> Result<Vec<u8>, TbError> {
        self.source.bytes(self.path, offset, len)
    }

    /// A "corrupt file" error for this file.
    pub fn corrupt(&self, reason: impl Into<String>) -> TbError {
        TbError::Corrupt {
            path: self.path.clone(),
            reason: reason.into(),
        }
    }
}
