//! The folders DGT LiveChess exports: `round-N/game-M.pgn` (one game each)
//! beside `round-N/games.pgn` (the same games combined), and
//! `tournament.json`. A game in both is one board: in a folder that holds
//! `games.pgn` and `game-M.pgn` files, a game is followed in the file that
//! showed it first and skipped in its siblings. LiveChess 1 and other
//! software write only `games.pgn`, which is then followed as any file.
//! ePGN's separate `{[%clk ...]}` and `{[%emt ...]}` comments are read by
//! the page and the warnings like any `[%clk]`.

use std::collections::HashSet;
use std::path::Path;

use super::Watched;

/// `games.pgn` or `game-M.pgn`.
pub fn is_export(path: &Path) -> bool {
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
pub fn taken_by_siblings(files: &[Watched], i: usize) -> HashSet<String> {
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
}
