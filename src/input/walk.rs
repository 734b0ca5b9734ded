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

use std::collections::HashSet;
use std::fs::{self, Metadata};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// One thing to read, or one that could not be read at all.
#[derive(Debug, PartialEq, Eq)]
pub enum Item {
    /// A path to read, or `-`.
    File(String),
    /// A path that cannot be read (missing, unreadable directory).
    Unreadable(String, String),
    /// A path left out of a walk, and why (a warning).
    Skipped(String, String),
}

/// Whether a directory entry is a record we scan.
pub fn is_record(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let base = ["zst", "zstd", "gz", "bz2"]
        .iter()
        .find_map(|ext| lower.strip_suffix(&format!(".{ext}")))
        .unwrap_or(&lower);
    base.ends_with(".pgn") || base.ends_with(".pdn")
}

/// Expands the command-line paths into the items to scan, in order, not
/// following symbolic links met in directories.
pub fn expand(paths: &[String]) -> Vec<Item> {
    expand_with(paths, false)
}

/// [`expand`], following symbolic links in directories when `follow`.
pub fn expand_with(paths: &[String], follow: bool) -> Vec<Item> {
    let mut walk = Walk {
        out: Vec::new(),
        seen: HashSet::new(),
        follow,
    };
    for p in paths {
        if p == "-" {
            walk.out.push(Item::File(p.clone()));
            continue;
        }
        let path = Path::new(p);
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => walk.dir(path, &m, &mut Vec::new()),
            Ok(m) => {
                if walk.first_time(&m) {
                    walk.out.push(Item::File(p.clone()));
                }
            }
            Err(e) => walk.out.push(Item::Unreadable(p.clone(), e.to_string())),
        }
    }
    walk.out
}

/// A file's identity: device and inode.
type Id = (u64, u64);

fn id(m: &Metadata) -> Id {
    (m.dev(), m.ino())
}

struct Walk {
    out: Vec<Item>,
    seen: HashSet<Id>,
    follow: bool,
}

fn kind_of(m: &Metadata) -> &'static str {
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

impl Walk {
    fn first_time(&mut self, m: &Metadata) -> bool {
        self.seen.insert(id(m))
    }

    fn skip(&mut self, path: &Path, why: impl Into<String>) {
        self.out
            .push(Item::Skipped(path.display().to_string(), why.into()));
    }

    /// Walks `dir`; `ancestors` are the directories being walked above it.
    fn dir(&mut self, dir: &Path, meta: &Metadata, ancestors: &mut Vec<(Id, PathBuf)>) {
        if let Some((_, above)) = ancestors.iter().find(|(a, _)| *a == id(meta)) {
            let why = format!(
                "skipped: a symbolic link loop (it leads back to {})",
                above.display()
            );
            self.skip(dir, why);
            return;
        }
        if !self.first_time(meta) {
            return;
        }
        let entries = match fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => {
                self.out
                    .push(Item::Unreadable(dir.display().to_string(), e.to_string()));
                return;
            }
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        for entry in entries {
            match entry {
                Ok(e) => paths.push(e.path()),
                Err(e) => self
                    .out
                    .push(Item::Unreadable(dir.display().to_string(), e.to_string())),
            }
        }
        paths.sort();
        ancestors.push((id(meta), dir.to_path_buf()));
        for path in paths {
            self.entry(&path, ancestors);
        }
        ancestors.pop();
    }

    fn entry(&mut self, path: &Path, ancestors: &mut Vec<(Id, PathBuf)>) {
        let record = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(is_record);
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
                self.out
                    .push(Item::Unreadable(path.display().to_string(), e.to_string()));
                return;
            }
        };
        if meta.is_dir() {
            self.dir(path, &meta, ancestors);
        } else if record {
            if !meta.is_file() {
                self.skip(path, format!("skipped: {}", kind_of(&meta)));
            } else if self.first_time(&meta) {
                self.out.push(Item::File(path.display().to_string()));
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
            assert!(is_record(n), "{n}");
        }
        for n in ["a.txt", "pgn", "a.zst", "a.pgn.txt"] {
            assert!(!is_record(n), "{n}");
        }
    }
}
