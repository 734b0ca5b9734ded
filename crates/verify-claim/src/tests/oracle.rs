//! The claim engine against python-chess, an independent implementation.
//!
//! - `labelled_cases`: the 99 checks of `../shared/labels/repetition_fifty_cases.tsv`
//!   (python-chess's answer is recorded in the file).
//! - `ashlar_games_agree_with_the_oracle`: the threefold, fifty, seventyFive and
//!   fivefold folders of ashlar-chess, run through `../shared/tools/claims_oracle.py`
//!   live; first ply and number of plies of every flag must agree.
//!
//! Both skip, saying so, without `../shared` (and the second without a Python
//! that has python-chess). The comparison uses python-chess's semantics for
//! the "pending" forms, where the tool itself deliberately differs (a written
//! move that would checkmate still supports a claim: notes, decision 5); that
//! deviation has its own test in tests/claims.rs.

use super::support;
use std::path::Path;

use crate::claims::{self, ClaimKind, ClaimRequest, Replay};
use crate::game::{Game, chess::ChessGame};
use crate::laws::{Edition, Rulebook};
use crate::record::{Encoding, MoveToken, Reader};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Flags {
    now3: bool,
    pend3: bool,
    now50: bool,
    pend50: bool,
    insuf: bool,
    five: bool,
    s75: bool,
    mate: bool,
    stalemate: bool,
}

const NAMES: [&str; 9] = [
    "3now",
    "3pend",
    "50now",
    "50pend",
    "insuf",
    "5fold",
    "75",
    "mate",
    "stalemate",
];

impl Flags {
    fn get(&self, i: usize) -> bool {
        [
            self.now3,
            self.pend3,
            self.now50,
            self.pend50,
            self.insuf,
            self.five,
            self.s75,
            self.mate,
            self.stalemate,
        ][i]
    }
}

fn flags_at(replay: &Replay<ChessGame>, rules: &Rulebook, p: usize) -> Flags {
    let pos = &replay.position(p);
    let req = ClaimRequest {
        ply: p,
        written: None,
        kind: ClaimKind::Any,
        claimant: None,
        // Dead positions are not compared here (python-chess has none).
        dead_search: crate::game::Search::Quick,
        scope: claims::Scope::Report,
    };
    let v = claims::decide(replay, rules, None, &req).expect("no written move");
    let legal = !pos.legal_moves().is_empty();
    let reps = v.repetitions.len();
    let pend = claims::pending(replay, rules, p);
    let now50 = v.count.plies >= 100 && legal;
    Flags {
        now3: reps >= 3,
        pend3: reps < 3 && legal && !pend.repetition.is_empty(),
        now50,
        pend50: !now50 && legal && !pend.count.is_empty(),
        insuf: pos.is_insufficient_material(),
        five: reps >= 5,
        s75: v.count.plies >= 150 && legal,
        mate: pos.is_checkmate(),
        stalemate: pos.is_stalemate(),
    }
}

fn replay_san(fen: &str, moves: &str) -> Replay<ChessGame> {
    let start: Chess = Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap();
    let tokens: Vec<MoveToken<'_>> = moves
        .split_ascii_whitespace()
        .map(|t| MoveToken { text: t, offset: 0 })
        .collect();
    Replay::new(start, &tokens).unwrap_or_else(|e| panic!("{}", e.message))
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn labelled_cases() {
    let Some(shared) = support::shared() else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("labels/repetition_fifty_cases.tsv")).unwrap();
    let rules = Rulebook::fide(Edition::Fide2023);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (id, fen, moves, ply, api, pychess) =
            (f[0], f[2], f[3], f[4].parse::<usize>().unwrap(), f[5], f[7]);
        let replay = replay_san(fen, moves);
        let fl = flags_at(&replay, &rules, ply);
        let pos = &replay.position(ply);
        let claim3 = fl.now3 || fl.pend3;
        let claim50 = fl.now50 || fl.pend50;
        let over = fl.mate || fl.stalemate || fl.insuf || fl.five || fl.s75;
        let ours = match api {
            "can_claim_threefold_repetition" => claim3.to_string(),
            "is_repetition(3)" | "isThreefoldRepetition" | "history.threefoldRepetition" => {
                fl.now3.to_string()
            }
            "can_claim_fifty_moves" => claim50.to_string(),
            "is_fifty_moves" => fl.now50.to_string(),
            "is_fivefold_repetition" => fl.five.to_string(),
            "is_game_over()" => over.to_string(),
            "is_game_over(claim_draw=True)" => (over || claim3 || claim50).to_string(),
            "can_claim_draw" => (claim3 || claim50).to_string(),
            "autoDraw(lichess)" => {
                (ChessGame::count_clock(pos) >= 100 || fl.insuf || fl.five).to_string()
            }
            "is_stalemate" => fl.stalemate.to_string(),
            "outcome" => match (fl.mate, fl.stalemate || fl.insuf) {
                (true, _) => ChessGame::side_to_move(pos).other().name().to_owned(),
                (false, true) => "draw".to_owned(),
                _ => "unknown".to_owned(),
            },
            other => panic!("unknown api {other}"),
        };
        checked += 1;
        if !ours.eq_ignore_ascii_case(pychess) {
            wrong.push(format!(
                "{id} ply {ply} {api}: ours {ours}, python-chess {pychess}"
            ));
        }
    }
    assert_eq!(checked, 99);
    assert!(wrong.is_empty(), "disagreements:\n{}", wrong.join("\n"));
}

/// Our first ply and count of each flag for every game of a file.
fn our_games(path: &Path, rules: &Rulebook) -> Vec<([Option<usize>; 9], [usize; 9])> {
    let bytes = std::fs::read(path).unwrap();
    let mut reader = Reader::new(&bytes, Encoding::Utf8);
    let mut out = Vec::new();
    while let Some(rec) = reader.next_game() {
        let rec = rec.unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
        let (start, _) = ChessGame::start_position(&rec, ()).unwrap();
        let replay =
            Replay::<ChessGame>::new(start, &rec.moves).unwrap_or_else(|e| panic!("{}", e.message));
        let mut first = [None; 9];
        let mut n = [0; 9];
        for p in 0..=replay.len() {
            let fl = flags_at(&replay, rules, p);
            for i in 0..9 {
                if fl.get(i) {
                    n[i] += 1;
                    first[i].get_or_insert(p);
                }
            }
        }
        out.push((first, n));
    }
    out
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
#[cfg_attr(no_oracle, ignore = "no python with python-chess (ORACLE_PYTHON)")]
fn ashlar_games_agree_with_the_oracle() {
    let Some(shared) = support::shared() else {
        return;
    };
    let Some(python) = support::oracle_python() else {
        return;
    };
    let mut files = Vec::new();
    for dir in ["threefold", "fifty", "seventyFive", "fivefold"] {
        let d = shared.join("labels/ashlar-chess/pgn/basic").join(dir);
        let mut v: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        files.extend(v);
    }
    let (header, oracle) = support::run_oracle(&python, &shared, &files, 1);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rules = Rulebook::fide(Edition::Fide2023);
    let mut wrong = Vec::new();
    let mut games = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for (i, (first, n)) in our_games(path, &rules).into_iter().enumerate() {
            games += 1;
            let row = &oracle[&(name.clone(), i + 1)];
            for (k, flag) in NAMES.iter().enumerate() {
                let theirs_first = &row[col(&format!("first_{flag}"))];
                let ours_first = first[k].map(|p| p.to_string()).unwrap_or_default();
                let theirs_n = &row[col(&format!("n_{flag}"))];
                if *theirs_first != ours_first || *theirs_n != n[k].to_string() {
                    wrong.push(format!(
                        "{name} game {}: {flag}: first ply ours {ours_first:?} oracle {theirs_first:?}; plies ours {} oracle {theirs_n}",
                        i + 1,
                        n[k]
                    ));
                }
            }
        }
    }
    eprintln!("compared {games} games with the python-chess oracle");
    assert_eq!(games, files.len());
    assert!(wrong.is_empty(), "disagreements:\n{}", wrong.join("\n"));
}
