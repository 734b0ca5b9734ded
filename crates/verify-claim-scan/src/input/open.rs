//! Opening an input with decompression: by extension (`.zst`, `.gz`,
//! `.bz2`), else by the first bytes, so `-` and misnamed files work too.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Compression formats we read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Zstd,
    Gzip,
    Bzip2,
}

impl Compression {
    pub fn from_name(name: &str) -> Option<Compression> {
        Compression::from_path(Path::new(name))
    }

    /// By the name's extension, read as bytes (the name need not be UTF-8).
    pub fn from_path(path: &Path) -> Option<Compression> {
        let lower = path.as_os_str().as_encoded_bytes().to_ascii_lowercase();
        if lower.ends_with(b".zst") || lower.ends_with(b".zstd") {
            Some(Compression::Zstd)
        } else if lower.ends_with(b".gz") {
            Some(Compression::Gzip)
        } else if lower.ends_with(b".bz2") {
            Some(Compression::Bzip2)
        } else {
            None
        }
    }

    pub fn from_magic(head: &[u8]) -> Compression {
        if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
            Compression::Zstd
        } else if head.starts_with(&[0x1F, 0x8B]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }
}

/// How a scan reads an input.
pub enum Source {
    /// A regular, uncompressed file: workers read their own ranges of it.
    Plain(super::ranges::Ranges),
    /// Anything else (compressed, standard input, a FIFO): one thread reads
    /// it in order.
    Stream(Box<dyn Read + Send>),
}

/// Opens a path for a scan; `count` gets the raw bytes a stream passes.
pub fn open_source(path: impl AsRef<Path>, count: Arc<AtomicU64>) -> io::Result<Source> {
    let path = path.as_ref();
    if !is_stdin(path) && Compression::from_path(path).is_none() {
        let file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_file() {
            let mut head = [0u8; 4];
            let n = read_head(&file, &mut head)?;
            if Compression::from_magic(&head[..n]) == Compression::None {
                return Ok(Source::Plain(super::ranges::Ranges::new(file, meta.len())));
            }
        }
        return Ok(Source::Stream(decompress(file_reader(file, count), path)?));
    }
    open_counted(path, count).map(Source::Stream)
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn read_head(file: &File, head: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < head.len() {
        match read_at(file, &mut head[n..], n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads at `offset` without moving a cursor another thread relies on: the
/// one place the platform shows in reading.
#[cfg(unix)]
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// Windows' positional read (it moves the file's cursor, which no reader of
/// a [`Source::Plain`] file uses).
#[cfg(windows)]
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// Elsewhere: seek and read, one thread at a time.
#[cfg(not(any(unix, windows)))]
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::io::{Seek, SeekFrom};
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut cursor = file;
    cursor.seek(SeekFrom::Start(offset))?;
    cursor.read(buf)
}

/// Fills `buf` from `offset` (an `UnexpectedEof` error if the file ends
/// first).
#[cfg(unix)]
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `offset`, as Unix's `read_exact_at` does.
#[cfg(not(unix))]
pub(crate) fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match read_at(file, buf, offset) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "failed to fill whole buffer",
                ));
            }
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn file_reader(file: File, count: Arc<AtomicU64>) -> Box<dyn Read + Send> {
    Box::new(Counted { inner: file, count })
}

/// A reader over the decompressed bytes of a path (`-`: standard input).
pub fn open(path: impl AsRef<Path>) -> io::Result<Box<dyn Read + Send>> {
    open_counted(path, Arc::new(AtomicU64::new(0)))
}

/// A reader that counts the bytes it passes (the raw, compressed bytes when
/// wrapped round a file), for progress.
pub struct Counted<R> {
    pub inner: R,
    pub count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Like [`open`], adding the raw bytes read to `count`.
pub fn open_counted(
    path: impl AsRef<Path>,
    count: Arc<AtomicU64>,
) -> io::Result<Box<dyn Read + Send>> {
    let path = path.as_ref();
    let raw: Box<dyn Read + Send> = if is_stdin(path) {
        Box::new(Counted {
            inner: io::stdin(),
            count,
        })
    } else {
        file_reader(File::open(path)?, count)
    };
    decompress(raw, path)
}

/// Decompresses by the name's extension, else by the first bytes.
fn decompress(raw: Box<dyn Read + Send>, path: &Path) -> io::Result<Box<dyn Read + Send>> {
    let mut buffered = BufReader::with_capacity(1 << 16, raw);
    let compression = match Compression::from_path(path) {
        Some(c) => c,
        None => Compression::from_magic(buffered.fill_buf()?),
    };
    Ok(match compression {
        Compression::None => Box::new(buffered),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(buffered)?),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(buffered)),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(buffered)),
    })
}
