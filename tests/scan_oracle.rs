//! The scan against python-chess on every game of `../shared/corpus/`.
//!
//! For each game the first ply of `threefold-claimable`,
//! `fifty-move-claimable`, `fivefold-repetition`, `seventy-five-move`,
//! `insufficient-material`, `checkmate` and `stalemate` must equal what
//! `../shared/tools/claims_oracle.py` computes. The scan runs with
//! `--rules fide-2023` (python-chess implements the current Laws: fivefold
//! at any five occurrences). Games either side could not read are left out
//! and counted. Skips, saying so, without `../shared` or python-chess.
//! The malformed files are covered by tests/scan.rs (no crash, no gap).

use crate::common;

use common::harness::{ORACLE, SHARED};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A game: its file's base name and its number in the file.
type Game = (String, usize);

fn corpus(shared: &Path, tmp: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && !p.ends_with("malformed"))
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        for p in v {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".zst") {
                // python-chess reads plain PGN: decompress into the temp dir.
                let out = tmp.join(stem);
                let bytes = zstd::decode_all(std::fs::File::open(&p).unwrap()).unwrap();
                std::fs::write(&out, bytes).unwrap();
                files.push(out);
            } else if name.ends_with(".pgn") {
                files.push(p);
            }
        }
    }
    files
}

fn scan_agrees_with_the_oracle_on_the_corpus() {
    let shared = common::shared_dir().expect("SHARED found ../shared");
    let python = common::find_oracle_python().expect("ORACLE found python-chess");
    // The decompressed corpus, removed when the test ends (passed or not).
    let tmp = common::Scratch::new("scan-oracle");
    let files = corpus(&shared, &tmp);
    // Base names must be unique: the oracle reports base names.
    let mut seen = HashSet::new();
    for f in &files {
        assert!(
            seen.insert(f.file_name().unwrap().to_owned()),
            "duplicate base name {}",
            f.display()
        );
    }

    let (header, oracle) = common::run_oracle(&python, &shared, &files, 2);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();

    let (ours, unreadable) = our_scan(&files);

    let pairs = [
        ("threefold-claimable", &["first_3now", "first_3pend"][..]),
        ("fifty-move-claimable", &["first_50now", "first_50pend"][..]),
        ("fivefold-repetition", &["first_5fold"][..]),
        ("seventy-five-move", &["first_75"][..]),
        ("insufficient-material", &["first_insuf"][..]),
        ("checkmate", &["first_mate"][..]),
        ("stalemate", &["first_stalemate"][..]),
    ];
    let mut compared = 0;
    let mut skipped = 0;
    let mut wrong = Vec::new();
    let empty = HashMap::new();
    let mut keys: Vec<_> = oracle.keys().cloned().collect();
    keys.sort();
    for key in keys {
        let row = &oracle[&key];
        if row[col("status")] != "ok" || row[col("errors")] != "0" || unreadable.contains(&key) {
            skipped += 1;
            continue;
        }
        compared += 1;
        let mine = ours.get(&key).unwrap_or(&empty);
        for (kind, cols) in pairs {
            let theirs = cols
                .iter()
                .filter_map(|c| row[col(c)].parse::<usize>().ok())
                .min();
            let mine = mine.get(kind).copied();
            if theirs != mine {
                wrong.push(format!(
                    "{} game {}: {kind}: ours {mine:?}, oracle {theirs:?}",
                    key.0, key.1
                ));
            }
        }
    }
    eprintln!(
        "compared {compared} games with the oracle; {skipped} left out (unreadable by either)"
    );
    assert!(compared > 8000, "{compared}");
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}

/// Our scan, through the binary, as users run it: the first ply of each
/// kind of finding, by file base name and game; and the games that could
/// not be read.
fn our_scan(files: &[PathBuf]) -> (HashMap<Game, HashMap<String, usize>>, HashSet<Game>) {
    let mut args: Vec<String> = vec![
        "scan".into(),
        "--format".into(),
        "jsonl".into(),
        "--rules".into(),
        "fide-2023".into(),
    ];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut ours: HashMap<Game, HashMap<String, usize>> = HashMap::new();
    let mut unreadable = HashSet::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = Path::new(v["file"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let key = (file, v["game"].as_u64().unwrap() as usize);
        let kind = v["kind"].as_str().unwrap().to_owned();
        if kind == "parse-error" || kind == "illegal-move" {
            unreadable.insert(key.clone());
        }
        let ply = v["ply"].as_u64().unwrap() as usize;
        ours.entry(key).or_default().entry(kind).or_insert(ply);
    }
    (ours, unreadable)
}

crate::verify_claim_tests! {
    scan_agrees_with_the_oracle_on_the_corpus: [SHARED, ORACLE],
}
