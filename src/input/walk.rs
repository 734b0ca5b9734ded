//! The files a scan covers: named files as given, directories recursively
//! (files whose names end in `.pgn`, `.pdn`, optionally compressed), sorted
//! by path so the order never depends on the file system.

use std::path::{Path, PathBuf};

/// One thing to read, or one that could not be read at all.
#[derive(Debug)]
pub enum Item {
    /// A path to read, or `-`.
    File(String),
    /// A path that cannot be read (missing, unreadable directory).
    Unreadable(String, String),
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

/// Expands the command-line paths into the items to scan, in order.
pub fn expand(paths: &[String]) -> Vec<Item> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Item::File(p.clone()));
            continue;
        }
        let path = Path::new(p);
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => walk_dir(path, &mut out),
            Ok(_) => out.push(Item::File(p.clone())),
            Err(e) => out.push(Item::Unreadable(p.clone(), e.to_string())),
        }
    }
    out
}

fn walk_dir(dir: &Path, out: &mut Vec<Item>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            out.push(Item::Unreadable(dir.display().to_string(), e.to_string()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = Vec::new();
    for entry in entries {
        match entry {
            Ok(e) => paths.push(e.path()),
            Err(e) => out.push(Item::Unreadable(dir.display().to_string(), e.to_string())),
        }
    }
    paths.sort();
    for path in paths {
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => walk_dir(&path, out),
            Ok(_) => {
                if path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(is_record)
                {
                    out.push(Item::File(path.display().to_string()));
                }
            }
            Err(e) => out.push(Item::Unreadable(path.display().to_string(), e.to_string())),
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
