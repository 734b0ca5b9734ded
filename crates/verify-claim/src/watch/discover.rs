//! Finding the records to follow, cheaply.
//!
//! A folder is listed again only when its modification time changed (a
//! file created, deleted or renamed in it changes it), or while that time
//! is recent enough that a coarse clock could hide a second change. A
//! file's own changes are the follower's business ([`super::follow`]), so a
//! folder of 50,000 other files costs one `stat` per folder per poll, not a
//! walk. Only `.pgn` and `.pdn` names are kept; symbolic links met inside
//! folders are not followed (as the scan's walker does).
//!
//! Hand-written rather than through `notify`: the watch already polls its
//! files (inotify says nothing on network and FUSE mounts, where live
//! boards often write), and one `stat` per folder is as cheap as an event.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// At most this many folders are listed under the named ones.
pub(crate) const MAX_DIRS: usize = 10_000;

/// A modification time this close to now may hide a change made in the
/// same clock tick: such a folder is listed again on the next poll.
const COARSE: Duration = Duration::from_secs(2);

/// Whether a name can be a record the watch follows.
pub(crate) fn is_record(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".pgn") || lower.ends_with(".pdn")
}

#[derive(Debug, Default)]
struct Listed {
    modified: Option<SystemTime>,
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
    /// Why the folder could not be listed.
    error: Option<String>,
}

/// What is known of the named paths.
#[derive(Debug, Default)]
pub(crate) struct Discover {
    dirs: BTreeMap<PathBuf, Listed>,
    /// A folder limit hit, said once: the first folder left out.
    pub dirs_left_out: Option<PathBuf>,
    /// Folders that could not be listed, not said yet (each said once):
    /// the folder and why (`File name too long` for a folder 5,000 deep).
    pub failed: Vec<(PathBuf, String)>,
    said: std::collections::HashSet<PathBuf>,
}

impl Discover {
    /// The record files under the named paths now (named files whether
    /// present or not), sorted, with no repeats.
    pub(crate) fn targets(&mut self, paths: &[String]) -> Vec<PathBuf> {
        let mut out = BTreeSet::new();
        let mut live = BTreeSet::new();
        for p in paths {
            let path = PathBuf::from(p);
            if path.is_dir() {
                self.visit(&path, &mut out, &mut live);
            } else {
                out.insert(path);
            }
        }
        self.dirs.retain(|d, _| live.contains(d));
        out.into_iter().collect()
    }

    /// A folder and the folders under it, each listed only when changed.
    fn visit(&mut self, root: &Path, out: &mut BTreeSet<PathBuf>, live: &mut BTreeSet<PathBuf>) {
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            if !live.contains(&dir) && live.len() >= MAX_DIRS {
                self.dirs_left_out.get_or_insert(dir);
                continue;
            }
            live.insert(dir.clone());
            let modified = std::fs::metadata(&dir).and_then(|m| m.modified()).ok();
            let fresh = modified
                .and_then(|m| SystemTime::now().duration_since(m).ok())
                .is_none_or(|age| age < COARSE);
            let known = self.dirs.get(&dir).is_some_and(|l| l.modified == modified);
            if !known || fresh {
                let listed = list(&dir, modified);
                if let Some(e) = &listed.error
                    && self.said.insert(dir.clone())
                {
                    self.failed.push((dir.clone(), e.clone()));
                }
                self.dirs.insert(dir.clone(), listed);
            }
            if let Some(l) = self.dirs.get(&dir) {
                out.extend(l.files.iter().cloned());
                stack.extend(l.dirs.iter().rev().cloned());
            }
        }
    }
}

/// One folder's record files and sub-folders (not through links).
fn list(dir: &Path, modified: Option<SystemTime>) -> Listed {
    let mut l = Listed {
        modified,
        ..Listed::default()
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            l.error = Some(e.to_string());
            return l;
        }
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            l.dirs.push(path);
        } else if !kind.is_symlink() && is_record(&entry.file_name().to_string_lossy()) {
            l.files.push(path);
        }
    }
    l.dirs.sort();
    l.files.sort();
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_listed_again_only_when_it_changed() {
        // Removed when the test ends, passed or not.
        let scratch = tempfile::Builder::new()
            .prefix("verify-claim-discover-")
            .tempdir()
            .unwrap();
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("round-1")).unwrap();
        std::fs::write(dir.join("round-1/game-1.pgn"), "*\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        let mut d = Discover::default();
        let paths = [dir.display().to_string()];
        assert_eq!(d.targets(&paths), [dir.join("round-1/game-1.pgn")]);
        std::fs::write(dir.join("round-1/game-2.PGN"), "*\n").unwrap();
        assert_eq!(
            d.targets(&paths),
            [
                dir.join("round-1/game-1.pgn"),
                dir.join("round-1/game-2.PGN")
            ]
        );
        std::fs::remove_file(dir.join("round-1/game-1.pgn")).unwrap();
        assert_eq!(d.targets(&paths), [dir.join("round-1/game-2.PGN")]);
    }
}
