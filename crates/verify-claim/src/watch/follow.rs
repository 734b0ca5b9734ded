//! Reading a live file safely: never acting on a half-written one.
//!
//! A file is polled: its metadata every interval, its bytes when the
//! metadata changed (and at least once a second, for file systems whose
//! times are coarse). A read is acted on when
//!
//! - it parses to its end and every game in it ends with a termination
//!   marker (`*` while a game is played, as live boards write it): at once;
//! - otherwise its moves up to the last delimiter (a space or line end
//!   outside comments, variations and tags) are acted on at once: a move
//!   followed by a delimiter is complete whatever comes after it, and only
//!   the last token can be cut (`O-O` may still become `O-O-O`). A game of
//!   which only tags are written yet waits for its first move;
//! - the whole read, cut token and all, only after it has stood unchanged
//!   for [`STALE`]: then it is what the operator wrote, and its errors are
//!   reported.
//!
//! Files that are rewritten whole, appended to, replaced (a new inode) or
//! that appear later are all the same to this: each read is of the whole
//! file, bounded by [`MAX_BYTES`].

use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use crate::record::{Encoding, Reader};

/// Files larger than this are not read (a live file of a round of 1,000
/// boards is a few MB).
pub(crate) const MAX_BYTES: u64 = 64 << 20;

/// How long a read that does not parse to its end must stand unchanged
/// before it is taken as written.
pub(crate) const STALE: Duration = Duration::from_secs(2);

/// What the metadata says; a change means the bytes must be read again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(m: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(m);
        #[cfg(not(unix))]
        let inode = 0;
        Stamp {
            len: m.len(),
            modified: m.modified().ok(),
            inode,
        }
    }
}

/// The outcome of one poll of one file.
#[derive(Debug)]
pub(crate) enum Poll {
    /// Nothing new to act on (unchanged, or still being written).
    Nothing,
    /// The file is not there (yet, or any more).
    Missing,
    /// New content to act on.
    Ready(Vec<u8>),
    /// Content that has stood unchanged for [`STALE`] and does not parse:
    /// the byte offset and the reader's message.
    Broken(Vec<u8>, usize, String),
    /// The file cannot be read, or is too large; reported once per cause.
    Failed(String),
}

/// How a read looks.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Parses to its end; every game has its termination marker.
    Complete,
    /// Parses to its end and ends between tokens (or is empty).
    Clean,
    /// Parses, but its last token may be cut.
    Partial,
    /// Does not parse: offset and message.
    Broken(usize, String),
}

/// Classifies a read.
pub(crate) fn shape(bytes: &[u8], encoding: Encoding) -> Shape {
    let mut reader = Reader::new(bytes, encoding);
    let (mut games, mut terminated) = (0usize, 0usize);
    while let Some(game) = reader.next_game() {
        match game {
            Err(e) => return Shape::Broken(e.offset, e.message),
            Ok(g) => {
                games += 1;
                terminated += usize::from(g.result.is_some());
            }
        }
    }
    if games > 0 && terminated == games {
        Shape::Complete
    } else if bytes.last().is_none_or(|b| b.is_ascii_whitespace()) {
        Shape::Clean
    } else {
        Shape::Partial
    }
}

/// Where the settled part of a read ends: after its last delimiter
/// outside comments, variations and tags, less a last game that has no
/// move or marker yet (its tags may still be written). `None` when that
/// part is empty or does not parse.
pub(crate) fn settled_head(bytes: &[u8], encoding: Encoding) -> Option<usize> {
    let mut cut = 0;
    let (mut brace, mut semi, mut tag, mut quote, mut escape) = (false, false, false, false, false);
    let mut paren = 0usize;
    let mut line_start = true;
    for (i, &b) in bytes.iter().enumerate() {
        let at_line_start = line_start;
        line_start = b == b'\n';
        if brace {
            brace = b != b'}';
        } else if semi {
            semi = b != b'\n';
            if !semi && paren == 0 {
                cut = i + 1;
            }
        } else if tag {
            if escape {
                escape = false;
            } else if quote {
                escape = b == b'\\';
                quote = b != b'"';
            } else {
                quote = b == b'"';
                tag = b != b']';
            }
        } else {
            match b {
                b'{' | b';' if paren == 0 => {
                    cut = i;
                    brace = b == b'{';
                    semi = b == b';';
                }
                b'{' => brace = true,
                b';' => semi = true,
                b'(' => paren += 1,
                b')' => paren = paren.saturating_sub(1),
                b'[' if at_line_start && paren == 0 => {
                    cut = i;
                    tag = true;
                }
                _ if b.is_ascii_whitespace() && paren == 0 => cut = i + 1,
                _ => {}
            }
        }
    }
    let head = bytes.get(..cut)?;
    let mut reader = Reader::new(head, encoding);
    let mut last = None;
    while let Some(game) = reader.next_game() {
        let g = game.ok()?;
        last = Some((g.offset, g.moves.is_empty() && g.result.is_none()));
    }
    let end = match last {
        Some((offset, true)) => offset,
        _ => cut,
    };
    (end > 0).then_some(end)
}

/// One followed file.
#[derive(Debug)]
pub(crate) struct Follow {
    pub path: PathBuf,
    stamp: Option<Stamp>,
    /// Hash of the last read and when that content was first read.
    seen: Option<(u64, Instant)>,
    /// Hash of the content last acted on whole (or reported broken).
    acted: Option<u64>,
    /// Hash of the settled head last acted on (see [`settled_head`]).
    head: Option<u64>,
    last_read: Option<Instant>,
    failed: Option<String>,
    pub present: bool,
}

fn digest(bytes: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

impl Follow {
    pub(crate) fn new(path: PathBuf) -> Follow {
        Follow {
            path,
            stamp: None,
            seen: None,
            acted: None,
            head: None,
            last_read: None,
            failed: None,
            present: false,
        }
    }

    /// Looks at the file once.
    pub(crate) fn poll(&mut self, now: Instant, encoding: Encoding) -> Poll {
        let meta = match std::fs::metadata(&self.path) {
            Ok(m) if m.is_file() => m,
            Ok(_) => return self.fail("not a regular file".to_owned()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.present = false;
                return Poll::Missing;
            }
            Err(e) => return self.fail(format!("cannot read: {e}")),
        };
        self.present = true;
        let stamp = Stamp::of(&meta);
        let settled = self.seen.is_some_and(|(h, _)| Some(h) == self.acted);
        let recent = self
            .last_read
            .is_some_and(|t| now.duration_since(t) < Duration::from_secs(1));
        if settled && recent && self.stamp == Some(stamp) {
            return Poll::Nothing;
        }
        if stamp.len > MAX_BYTES {
            return self.fail(format!(
                "{} bytes: larger than the {} MB a live file may have",
                stamp.len,
                MAX_BYTES >> 20
            ));
        }
        let bytes = match read_bounded(&self.path) {
            Ok(b) => b,
            Err(e) => return self.fail(format!("cannot read: {e}")),
        };
        self.failed = None;
        self.stamp = Some(stamp);
        self.last_read = Some(now);
        let h = digest(&bytes);
        let agree = self.seen.is_some_and(|(s, _)| s == h);
        if !agree {
            self.seen = Some((h, now));
        }
        if self.acted == Some(h) {
            return Poll::Nothing;
        }
        let stale = self
            .seen
            .is_some_and(|(_, since)| now.duration_since(since) >= STALE);
        match shape(&bytes, encoding) {
            Shape::Complete => {}
            Shape::Partial if stale => {}
            Shape::Broken(offset, message) if stale => {
                self.acted = Some(h);
                return Poll::Broken(bytes, offset, message);
            }
            _ => return self.act_on_head(bytes, h, encoding),
        }
        self.acted = Some(h);
        self.head = None;
        Poll::Ready(bytes)
    }

    /// The moves up to the last delimiter, when they are new.
    fn act_on_head(&mut self, mut bytes: Vec<u8>, whole: u64, encoding: Encoding) -> Poll {
        let Some(cut) = settled_head(&bytes, encoding) else {
            return Poll::Nothing;
        };
        let all = cut == bytes.len();
        bytes.truncate(cut);
        let h = digest(&bytes);
        if self.head == Some(h) {
            return Poll::Nothing;
        }
        self.head = Some(h);
        // A head that is the whole read is settled; a shorter one is read
        // again until the rest arrives.
        self.acted = all.then_some(whole);
        Poll::Ready(bytes)
    }

    fn fail(&mut self, message: String) -> Poll {
        if self.failed.as_deref() == Some(message.as_str()) {
            return Poll::Nothing;
        }
        self.failed = Some(message.clone());
        Poll::Failed(message)
    }
}

/// Reads a whole file, never more than [`MAX_BYTES`] (it may grow between
/// the metadata and the read).
fn read_bounded(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_BYTES)
        .read_to_end(&mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let s = |t: &str| shape(t.as_bytes(), Encoding::Utf8);
        assert_eq!(s("[White \"A\"]\n\n1. e4 e5 *\n"), Shape::Complete);
        assert_eq!(s("[White \"A\"]\n\n1. e4 e5 *"), Shape::Complete);
        assert_eq!(s("1. e4 e5 2. Nf3 "), Shape::Clean);
        assert_eq!(s(""), Shape::Clean);
        assert_eq!(s("1. e4 e5 2. Nf"), Shape::Partial);
        assert!(matches!(s("[White \"A"), Shape::Broken(..)));
        assert!(matches!(s("1. e4 {a comment"), Shape::Broken(..)));
        assert!(matches!(s("1. e4 e5 12"), Shape::Broken(..)));
        // Two games, the second not yet terminated.
        assert_eq!(s("1. e4 *\n\n[White \"B\"]\n\n1. d4 "), Shape::Clean);
    }

    #[test]
    fn settled_heads() {
        fn h(t: &str) -> Option<&str> {
            settled_head(t.as_bytes(), Encoding::Utf8).map(|n| &t[..n])
        }
        assert_eq!(h("1. e4 e5 2. Nf"), Some("1. e4 e5 2. "));
        assert_eq!(h("1. e4 e5 2. O-O"), Some("1. e4 e5 2. "));
        assert_eq!(
            h("1. e4 { [%clk 0:05:00] } e5 { [%cl"),
            Some("1. e4 { [%clk 0:05:00] } e5 ")
        );
        assert_eq!(h("1. e4 (1. d4 d5 2. c"), Some("1. e4 "));
        assert_eq!(h("[White \"A\"]\n[Black \"B"), None);
        assert_eq!(h("[White \"A\"]\n\n1. e4"), None);
        assert_eq!(h("1. e4 *\n\n[White \"B\"]\n\n"), Some("1. e4 *\n\n"));
        assert_eq!(
            h("1. e4 *\n\n[White \"B\"]\n\n1. d4 d"),
            Some("1. e4 *\n\n[White \"B\"]\n\n1. d4 ")
        );
    }

    #[test]
    fn a_half_written_move_waits_and_the_moves_before_it_do_not() {
        // Removed when the test ends, passed or not.
        let scratch = tempfile::Builder::new()
            .prefix("verify-claim-follow-")
            .tempdir()
            .unwrap();
        let dir = scratch.path();
        let path = dir.join("live.pgn");
        let mut f = Follow::new(path.clone());
        let t0 = Instant::now();
        let ready = |p: Poll| match p {
            Poll::Ready(b) => String::from_utf8(b).unwrap_or_default(),
            other => format!("{other:?}"),
        };
        assert!(matches!(f.poll(t0, Encoding::Utf8), Poll::Missing));
        std::fs::write(&path, "1. e4 e5 2. Nf").unwrap();
        assert_eq!(ready(f.poll(t0, Encoding::Utf8)), "1. e4 e5 2. ");
        assert_eq!(
            ready(f.poll(t0 + Duration::from_millis(300), Encoding::Utf8)),
            "Nothing"
        );
        std::fs::write(&path, "1. e4 e5 2. Nf3 ").unwrap();
        assert_eq!(
            ready(f.poll(t0 + Duration::from_millis(400), Encoding::Utf8)),
            "1. e4 e5 2. Nf3 "
        );
        assert_eq!(
            ready(f.poll(t0 + Duration::from_millis(600), Encoding::Utf8)),
            "Nothing"
        );
        std::fs::write(&path, "1. e4 e5 2. Nf3 Nc6 *\n").unwrap();
        assert_eq!(
            ready(f.poll(t0 + Duration::from_millis(900), Encoding::Utf8)),
            "1. e4 e5 2. Nf3 Nc6 *\n"
        );
        // A cut token that stays is what was written, after STALE.
        std::fs::write(&path, "1. e4 e5 2. Nf3 Nc6 3. Bb").unwrap();
        assert_eq!(
            ready(f.poll(t0 + Duration::from_secs(1), Encoding::Utf8)),
            "1. e4 e5 2. Nf3 Nc6 3. "
        );
        assert_eq!(
            ready(f.poll(t0 + Duration::from_secs(4), Encoding::Utf8)),
            "1. e4 e5 2. Nf3 Nc6 3. Bb"
        );
    }
}
