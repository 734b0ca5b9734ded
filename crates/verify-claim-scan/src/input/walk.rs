//! The files a scan covers, as ripgrep walks: named paths as given (a FIFO
//! or `-` named on the command line is read), directories recursively
//! (regular files whose names end in `.pgn`, `.pdn`, optionally compressed),
//! sorted by path so the order never depends on the file system.
//!
//! In a walk, what is not a regular file (a FIFO, a socket, a device) is
//! skipped with a warning, and symbolic links are not followed unless asked
//! (`--follow`); when they are, a link back to a directory being walked is a
//! loop, skipped with a warning. Each file and directory is scanned once,
//! however many paths lead to it.
//!
//! Paths stay [`PathBuf`]s from the walk to the open, so a file whose name
//! is not UTF-8 is found and read like any other. What is printed is its
//! [`display_name`], made once at this boundary: the rest of the pipeline
//! (findings, diagnostics, JSON) carries that string.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs::{self, Metadata};
use std::path::{Path, PathBuf};

/// One thing to read, or one that could not be read at all.
#[derive(Debug, PartialEq, Eq)]
pub enum Item {
    /// A path to read, or `-`.
    File(PathBuf),
    /// A path that cannot be read (missing, unreadable directory): its
    /// name, the error's kind and the error.
    Unreadable(String, std::io::ErrorKind, String),
    /// A path left out of a walk, and why (a warning).
    Skipped(String, String),
}

/// The name a path is printed by: the path as text, each byte that is not
/// part of valid UTF-8 written `\xHH` (so `caf\xE9.pgn` for a Latin-1
/// name). JSON output carries the same text in its string. A backslash in
/// a valid name is printed as it is.
pub fn display_name(path: &Path) -> String {
    let mut out = String::new();
    for chunk in path.as_os_str().as_encoded_bytes().utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// Whether a directory entry is a record we scan (the name's ending, read
/// as bytes: the rest of the name need not be UTF-8).
pub fn is_record(name: &OsStr) -> bool {
    let lower = name.as_encoded_bytes().to_ascii_lowercase();
    let base = [&b".zst"[..], b".zstd", b".gz", b".bz2"]
        .iter()
        .find_map(|ext| lower.strip_suffix(*ext))
        .unwrap_or(&lower);
    base.ends_with(b".pgn") || base.ends_with(b".pdn")
}

/// Expands the command-line paths into the items to scan, in order, not
/// following symbolic links met in directories (the tests').
pub fn expand<P: AsRef<Path>>(paths: &[P]) -> Vec<Item> {
    expand_with(paths, false)
}

/// As `expand`, following symbolic links in directories when `follow`.
pub fn expand_with<P: AsRef<Path>>(paths: &[P], follow: bool) -> Vec<Item> {
    let mut walk = Walk {
        out: Vec::new(),
        seen: HashSet::new(),
        follow,
    };
    for p in paths {
        let path = p.as_ref();
        if path.as_os_str() == "-" {
            walk.out.push(Item::File(path.to_path_buf()));
            continue;
        }
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => walk.dir(path, &m, &mut Vec::new()),
            Ok(m) => {
                if walk.first_time(path, &m) {
                    walk.out.push(Item::File(path.to_path_buf()));
                }
            }
            Err(e) => walk.out.push(Item::Unreadable(
                display_name(path),
                e.kind(),
                e.to_string(),
            )),
        }
    }
    walk.out
}

/// A file's identity: device and inode.
#[cfg(unix)]
type Id = (u64, u64);

#[cfg(unix)]
fn id(_: &Path, m: &Metadata) -> Id {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

/// A file's identity where the standard library gives no file number
/// (stable Rust has none on Windows): its canonical path, which resolves
/// links, so a file reached twice is still scanned once.
#[cfg(not(unix))]
type Id = PathBuf;

#[cfg(not(unix))]
fn id(path: &Path, _: &Metadata) -> Id {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

struct Walk {
    out: Vec<Item>,
    seen: HashSet<Id>,
    follow: bool,
}

#[cfg(unix)]
fn kind_of(m: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn kind_of(_: &Metadata) -> &'static str {
    "not a regular file"
}

impl Walk {
    fn first_time(&mut self, path: &Path, m: &Metadata) -> bool {
        self.seen.insert(id(path, m))
    }

    fn skip(&mut self, path: &Path, why: impl Into<String>) {
        self.out.push(Item::Skipped(display_name(path), why.into()));
    }

    /// Walks `dir`; `ancestors` are the directories being walked above it.
    fn dir(&mut self, dir: &Path, meta: &Metadata, ancestors: &mut Vec<(Id, PathBuf)>) {
        let here = id(dir, meta);
        if let Some((_, above)) = ancestors.iter().find(|(a, _)| *a == here) {
            let why = format!(
                "skipped: a symbolic link loop (it leads back to {})",
                display_name(above)
            );
            self.skip(dir, why);
            return;
        }
        if !self.seen.insert(here) {
            return;
        }
        let entries = match fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => {
                self.out
                    .push(Item::Unreadable(display_name(dir), e.kind(), e.to_string()));
                return;
            }
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        for entry in entries {
            match entry {
                Ok(e) => paths.push(e.path()),
                Err(e) => {
                    self.out
                        .push(Item::Unreadable(display_name(dir), e.kind(), e.to_string()))
                }
            }
        }
        paths.sort();
        ancestors.push((id(dir, meta), dir.to_path_buf()));
        for path in paths {
            self.entry(&path, ancestors);
        }
        ancestors.pop();
    }

    fn entry(&mut self, path: &Path, ancestors: &mut Vec<(Id, PathBuf)>) {
        let record = path.file_name().is_some_and(is_record);
        let meta = match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => match fs::metadata(path) {
                Ok(target) if !self.follow => {
                    if target.is_dir() || record {
                        self.skip(path, "skipped: a symbolic link (--follow follows links)");
                    }
                    return;
                }
                Ok(target) => target,
                Err(e) => {
                    if record {
                        self.skip(path, format!("skipped: a broken symbolic link ({e})"));
                    }
                    return;
                }
            },
            Ok(m) => m,
            Err(e) => {
                self.out.push(Item::Unreadable(
                    display_name(path),
                    e.kind(),
                    e.to_string(),
                ));
                return;
            }
        };
        if meta.is_dir() {
            self.dir(path, &meta, ancestors);
        } else if record {
            if !meta.is_file() {
                self.skip(path, format!("skipped: {}", kind_of(&meta)));
            } else if self.first_time(path, &meta) {
                self.out.push(Item::File(path.to_path_buf()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_names() {
        for n in [
            "a.pgn",
            "b.PGN",
            "c.pgn.zst",
            "d.pgn.gz",
            "e.pgn.bz2",
            "f.pdn",
        ] {
            assert!(is_record(OsStr::new(n)), "{n}");
        }
        for n in ["a.txt", "pgn", "a.zst", "a.pgn.txt"] {
            assert!(!is_record(OsStr::new(n)), "{n}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let latin1 = OsStr::from_bytes(b"caf\xE9.PGN");
        assert!(is_record(latin1));
        assert_eq!(display_name(Path::new(latin1)), "caf\\xE9.PGN");
        assert_eq!(display_name(Path::new("d/é.pgn")), "d/é.pgn");
    }
}
