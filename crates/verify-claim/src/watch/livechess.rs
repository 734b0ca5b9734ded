//! The folders DGT LiveChess exports: `round-N/game-M.pgn` (one game each)
//! beside `round-N/games.pgn` (the same games combined), and
//! `tournament.json`. A game in both is one board: in a folder that holds
//! `games.pgn` and `game-M.pgn` files, a game is followed in the file that
//! showed it first and skipped in its siblings. LiveChess 1 and other
//! software write only `games.pgn`, which is then followed as any file.
//! ePGN's separate `{[%clk ...]}` and `{[%emt ...]}` comments are read by
//! the page and the warnings like any `[%clk]`.

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use super::Watched;

/// `games.pgn` or `game-M.pgn`.
pub(crate) fn is_export(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let lower = name.to_ascii_lowercase();
    lower == "games.pgn"
        || lower
            .strip_prefix("game-")
            .and_then(|r| r.strip_suffix(".pgn"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The board keys that the export files beside file `i` already follow
/// (empty unless file `i` is an export file in a folder holding both
/// forms).
pub(crate) fn taken_by_siblings(files: &[Watched], i: usize) -> HashSet<String> {
    let Some(me) = files.get(i) else {
        return HashSet::new();
    };
    let path = me.path();
    if !is_export(path) {
        return HashSet::new();
    }
    let folder = path.parent();
    files
        .iter()
        .enumerate()
        .filter(|(j, w)| *j != i && w.path().parent() == folder && is_export(w.path()))
        .flat_map(|(_, w)| w.keys().cloned())
        .collect()
}

/// The tournament of a followed file, for the rows and cards (boards of
/// different tournaments are otherwise told apart only by their path):
/// the `name` of the nearest `tournament.json` (LiveChess writes one at an
/// export's top) from the file's folder up to the named folder; else, for a
/// file in a sub-folder of a named folder, that sub-folder's name; else
/// none. Read once, when the file is first followed.
pub(crate) fn tournament_of(path: &Path, named: &[String]) -> Option<String> {
    let root = named
        .iter()
        .map(Path::new)
        .filter(|r| path.starts_with(r) && path != *r)
        .max_by_key(|r| r.components().count());
    for dir in path.ancestors().skip(1) {
        if let Some(name) = json_name(&dir.join("tournament.json")) {
            return Some(name);
        }
        if root.is_none_or(|r| dir == r || !dir.starts_with(r)) {
            break;
        }
    }
    let root = root?;
    let rest = path.strip_prefix(root).ok()?;
    let mut parts = rest.components();
    let first = parts.next()?;
    // A file directly in the named folder: no tournament to show.
    parts.next()?;
    Some(first.as_os_str().to_string_lossy().into_owned())
}

/// The `name` of a `tournament.json` (at most 1 MiB read).
fn json_name(path: &Path) -> Option<String> {
    let mut text = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(1 << 20)
        .read_to_end(&mut text)
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&text).ok()?;
    let name = v.get("name")?.as_str()?.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_names() {
        assert!(is_export(Path::new("round-1/games.pgn")));
        assert!(is_export(Path::new("round-1/game-12.pgn")));
        assert!(!is_export(Path::new("round-1/game-x.pgn")));
        assert!(!is_export(Path::new("round-1/live.pgn")));
    }

    /// Each board's tournament: `tournament.json`'s name, else the folder.
    #[test]
    fn the_tournament_of_a_file() {
        let root = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/corpus/livechess"
        )
        .to_owned();
        if !Path::new(&root).is_dir() {
            return;
        }
        let of = |p: &str| tournament_of(&Path::new(&root).join(p), std::slice::from_ref(&root));
        assert_eq!(
            of("tournament-2/round-1/game-4.pgn").as_deref(),
            Some("Sample Invitational 2023")
        );
        assert_eq!(
            of("tournament-3/nested/nested/game-3.pgn").as_deref(),
            Some("tournament-3")
        );
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/watch/livechess"
        )
        .to_owned();
        let named = tournament_of(
            &Path::new(&fixture).join("round-1/game-1.pgn"),
            std::slice::from_ref(&fixture),
        );
        assert_eq!(named.as_deref(), Some("Watch test"));
        assert_eq!(
            tournament_of(Path::new("a.pgn"), &["a.pgn".to_owned()]),
            None
        );
    }
}
