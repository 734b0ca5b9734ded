//! `verify-claim watch` as it is used: the real binary follows a folder
//! while writer threads play games into it move by move (rewriting whole
//! files, appending, replacing by rename, writing in halves), and the test
//! checks the exact sequence of JSON events per file, that each arrives
//! within a second of the write that caused it and never before it, and
//! what the Ctrl-C summary says.
//!
//! The expected sequence of each file is what the library's `LiveFile`
//! gives when handed every state of the file in turn, with no timing at
//! all; the made games also have their sequences written out by hand, and
//! the corpus games are checked against the scan.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use hostile::{
    a_folder_too_deep_is_said, a_restarted_watch_tells_old_clients_to_start_again,
    an_unread_output_never_stops_the_watch, another_loopback_address_is_served,
    slow_heads_get_408_and_leave_room, text_output_escapes_control_bytes,
};
use live::{
    a_clock_written_after_its_move_is_read, a_glitched_clock_reading_is_not_a_flag_fall,
    the_printable_snapshot_ends_and_shows_the_boards, the_urls_printed_are_the_machines_addresses,
};
use page::{
    the_page_follows_a_restarted_watch, the_page_shows_every_board_and_its_alerts_in_chromium,
};
use serde_json::Value;
use serve::{
    another_address_than_loopback_needs_a_token, connections_arriving_together_are_all_answered,
    serve_gives_the_jsonl_events_and_the_boards_of_a_livechess_folder,
};
use terminal::live_view_draws_one_line_per_board;

use common::harness::{Need, SHARED};
use verify_claim::{Encoding, Kind, LiveFile, ScanOptions};

use crate::common;
mod hostile;
mod live;
mod page;
mod serve;
mod terminal;
mod writer;

use writer::{
    Game, Mode, Scenario, append, edits, games_of, halves, read, rewrite, with_comments, write_step,
};

const INTERVAL_MS: u64 = 25;

/// An event without its time, and the step that caused it.
type Expected = Vec<(usize, Value)>;

fn untimed(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("time");
    v
}

/// What the library says, handed every state of the file in turn.
fn expected(dir: &str, s: &Scenario) -> Expected {
    let mut w = LiveFile::new(format!("{dir}/{}", s.name));
    let mut out = Vec::new();
    for (k, step) in s.steps.iter().enumerate() {
        for e in w.update(
            step.content.as_bytes(),
            &ScanOptions::default(),
            Encoding::Utf8,
            SystemTime::UNIX_EPOCH,
        ) {
            out.push((k, untimed(e)));
        }
    }
    out
}

/// (kind, ply, side, move) of each event.
fn brief(events: &Expected) -> Vec<(String, u64, String, String)> {
    let s = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    events
        .iter()
        .filter(|(_, v)| !is_warning(v))
        .map(|(_, v)| {
            (
                s(&v["kind"]),
                v["ply"].as_u64().unwrap(),
                s(&v["side"]),
                s(&v["move"]),
            )
        })
        .collect()
}

/// The early warnings have their own test (the library's watch::warn).
fn is_warning(v: &Value) -> bool {
    [
        "repetition-warning",
        "count-warning",
        "low-time",
        "flag-fall",
    ]
    .contains(&v["kind"].as_str().unwrap_or(""))
}

fn t(kind: &str, ply: u64, side: &str, mv: &str) -> (String, u64, String, String) {
    (kind.to_owned(), ply, side.to_owned(), mv.to_owned())
}

fn scenarios(corpus: &[Game]) -> Vec<Scenario> {
    let one = |p: &str| games_of(&read(p)).remove(0);
    let mut lichess = games_of(&read("fixtures/chess/lichess-sample.pgn"));
    lichess.truncate(2);
    let mut out = vec![
        rewrite(
            "fivefold.pgn",
            &[&one("fixtures/watch/fivefold.pgn")],
            Mode::Rewrite,
        ),
        rewrite(
            "wrong-result.pgn",
            &[&one("fixtures/watch/wrong-result.pgn")],
            Mode::Rewrite,
        ),
        append("seventy-five.pgn", &one("fixtures/chess/seventy-five.pgn")),
        rewrite(
            "dead.pgn",
            &[&one("fixtures/chess/dead-wall.pgn")],
            Mode::Rename,
        ),
        rewrite(
            "draughts.pdn",
            &[&Game {
                result: "1-1".into(),
                ..one("fixtures/draughts/repetition.pdn")
            }],
            Mode::Rewrite,
        ),
        edits(
            "illegal.pgn",
            &[("White", "E"), ("Black", "F"), ("Result", "*")],
            &[
                &["e4", "e5", "Nf3", "Nc6"],
                &["e4", "e5", "Nf3", "Nc6", "Qh5"],
                &["e4", "e5", "Nf3", "Nc6", "Bc4"],
                &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"],
            ],
        ),
        edits(
            "takeback.pgn",
            &[("White", "G"), ("Black", "H"), ("Result", "*")],
            &[
                &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"],
                &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"],
                &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"],
                &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Nc3"],
            ],
        ),
        halves(
            rewrite("half.pgn", &[&with_comments(&lichess[0])], Mode::Rewrite),
            12,
        ),
        append("lichess-append.pgn", &lichess[1]),
    ];
    if corpus.len() >= 3 {
        out.push(rewrite(
            "corpus-round.pgn",
            &[&corpus[0], &corpus[1]],
            Mode::Rewrite,
        ));
        out.push(append("corpus-append.pgn", &corpus[2]));
    }
    out
}

/// Three short games of the corpus, if it is there.
fn corpus() -> Vec<Game> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/twic/twic1599_1000k.pgn");
    // Present whenever ../shared is (the test needs SHARED).
    let Ok(text) = std::fs::read_to_string(&path) else {
        panic!("{} cannot be read", path.display());
    };
    let mut games: Vec<Game> = games_of(&text)
        .into_iter()
        .filter(|g| (40..=70).contains(&g.moves.len()))
        .take(3)
        .collect();
    // The writer rewrites the two boards of one round in turn.
    for (i, g) in games.iter_mut().enumerate().take(2) {
        g.tags.retain(|(k, _)| k != "Board");
        g.tags.push(("Board".into(), (i + 1).to_string()));
    }
    games
}

fn watch_follows_games_played_into_a_folder() {
    // The folder followed, removed when the test ends (passed or not).
    let dir = common::Scratch::new("watch");
    let dir_s = dir.display().to_string();
    let corpus = corpus();
    let scenarios = scenarios(&corpus);
    let expect: Vec<Expected> = scenarios.iter().map(|s| expected(&dir_s, s)).collect();
    check_by_hand(&scenarios, &expect);
    if corpus.len() >= 3 {
        check_against_scan(
            &scenarios[scenarios.len() - 2..],
            &expect[expect.len() - 2..],
        );
    }

    let mut child = Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args([
            "watch",
            &dir_s,
            "--format",
            "jsonl",
            "--interval",
            &INTERVAL_MS.to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<(Instant, Value)>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let _ = tx.send((Instant::now(), v));
        }
    });
    std::thread::sleep(Duration::from_millis(200));
    let writes = write_scenarios(&dir, &scenarios);
    let total: usize = expect.iter().map(Vec::len).sum();
    let got = receive(&rx, total);
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    reader.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit: {:?}\n{stderr}", out.status);
    assert!(
        stderr.contains(&format!("watched {} file(s)", scenarios.len())),
        "{stderr}"
    );
    assert!(stderr.contains("events: game-ended"), "{stderr}");

    let worst = check_arrivals(&dir_s, &scenarios, &expect, &got, &writes);
    let steps: usize = scenarios.iter().map(|s| s.steps.len()).sum();
    println!(
        "{} files, {steps} writes, {total} events; slowest event {worst:?} after its write",
        scenarios.len()
    );
}

/// Each scenario written by a thread of its own, step by step: the time
/// of each write, per scenario.
fn write_scenarios(dir: &Path, scenarios: &[Scenario]) -> Vec<Vec<Instant>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = scenarios
            .iter()
            .map(|s| {
                scope.spawn(move || {
                    let mut times = Vec::new();
                    let mut previous = String::new();
                    for step in &s.steps {
                        times.push(write_step(dir, &s.name, step, &previous));
                        previous.clone_from(&step.content);
                        std::thread::sleep(step.pause);
                    }
                    times
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The events the watch printed, with the time each arrived: `total`, or
/// what came within 3 s, and then whatever more comes in 300 ms (nothing
/// may).
fn receive(rx: &mpsc::Receiver<(Instant, Value)>, total: usize) -> Vec<(Instant, Value)> {
    let mut got: Vec<(Instant, Value)> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(3);
    while got.len() < total {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(e) => got.push(e),
            Err(_) => break,
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    got.extend(rx.try_iter());
    got
}

/// Each file's events are the expected ones, each arrived after the write
/// that caused it and within a second of it: the slowest arrival.
fn check_arrivals(
    dir: &str,
    scenarios: &[Scenario],
    expect: &[Expected],
    got: &[(Instant, Value)],
    writes: &[Vec<Instant>],
) -> Duration {
    let mut worst = Duration::ZERO;
    for (i, s) in scenarios.iter().enumerate() {
        let file = format!("{dir}/{}", s.name);
        let live: Vec<&(Instant, Value)> = got
            .iter()
            .filter(|(_, v)| v["file"] == file.as_str())
            .collect();
        let want: Vec<&Value> = expect[i].iter().map(|(_, v)| v).collect();
        let have: Vec<Value> = live.iter().map(|(_, v)| untimed(v.clone())).collect();
        assert_eq!(
            have.iter().collect::<Vec<_>>(),
            want,
            "{}: the events differ",
            s.name
        );
        for ((at, v), (step, _)) in live.iter().zip(&expect[i]) {
            let written = writes[i][*step];
            assert!(
                *at >= written,
                "{}: {v} arrived before step {step} was written",
                s.name
            );
            let late = at.duration_since(written);
            worst = worst.max(late);
            assert!(
                late <= Duration::from_secs(1),
                "{}: {v} arrived {late:?} after its move",
                s.name
            );
            assert!(v["time"].as_str().is_some_and(|t| t.ends_with('Z')), "{v}");
        }
    }
    worst
}

/// The made games' events, written out.
fn check_by_hand(scenarios: &[Scenario], expect: &[Expected]) {
    let by_name = |n: &str| -> Expected {
        expect[scenarios.iter().position(|s| s.name == n).unwrap()]
            .iter()
            .filter(|(_, v)| !is_warning(v))
            .cloned()
            .collect()
    };
    assert_eq!(
        brief(&by_name("fivefold.pgn")),
        [
            t("claim-available", 11, "black", "6...Kh8"),
            t("claim-available", 12, "white", "-"),
            // On the board now, where at ply 11 only by writing 6...Kh8.
            t("claim-available", 13, "black", "-"),
            t("game-ended", 24, "black", "12...Kh8"),
            t("moves-after-end", 25, "white", "13.Rxe5"),
            t("result-entered", 25, "-", "-"),
        ]
    );
    let fivefold = by_name("fivefold.pgn");
    assert_eq!(fivefold[3].1["article"], "9.6.1");
    assert_eq!(fivefold[3].1["reason"], "fivefold-repetition");
    assert_eq!(fivefold[4].1["article"], "9.6.1");
    assert_eq!(fivefold[5].1["agrees"], false);
    assert_eq!(fivefold[5].1["board"], "3.1");
    let wrong = by_name("wrong-result.pgn");
    assert_eq!(
        brief(&wrong),
        [
            t("game-ended", 4, "black", "2...Qh4#"),
            t("result-entered", 4, "-", "-")
        ]
    );
    assert_eq!(wrong[1].1["agrees"], false, "{}", wrong[1].1);
    assert_eq!(
        brief(&by_name("seventy-five.pgn")),
        [
            t("claim-available", 0, "white", "-"),
            t("claim-available", 1, "black", "-"),
            t("game-ended", 2, "black", "120...Kb8"),
            t("moves-after-end", 3, "white", "121.Rg1"),
            t("result-entered", 4, "-", "-"),
        ]
    );
    assert_eq!(by_name("seventy-five.pgn")[2].1["article"], "9.6.2");
    let dead = by_name("dead.pgn");
    assert_eq!(
        brief(&dead),
        [
            t("game-ended", 6, "black", "42...Kxc6"),
            t("moves-after-end", 7, "white", "43.Ke3"),
            t("result-entered", 8, "-", "-"),
        ]
    );
    assert_eq!(dead[0].1["reason"], "dead-position");
    assert_eq!(dead[2].1["agrees"], false);
    let draughts = by_name("draughts.pdn");
    assert_eq!(
        brief(&draughts),
        [
            t("claim-available", 7, "black", "33...e7-f8"),
            t("claim-available", 8, "white", "-"),
            t("result-entered", 8, "-", "-"),
        ]
    );
    assert_eq!(draughts[0].1["article"], "1.13.2");
    assert_eq!(draughts[1].1["article"], "1.13.1");
    assert_eq!(draughts[2].1["agrees"], true);
    let illegal = by_name("illegal.pgn");
    assert_eq!(
        brief(&illegal),
        [
            t("illegal-move", 5, "white", "3.Qh5"),
            t("record-changed", 4, "-", "-")
        ]
    );
    assert_eq!(
        (&illegal[0].1["line"], &illegal[0].1["col"]),
        (&Value::from(5), &Value::from(15))
    );
    assert_eq!(illegal[0].0, 1);
    // No Date tag: the newest edition, whose 7.5.1 reinstates the position.
    assert_eq!(illegal[0].1["article"], "7.5.1");
    let takeback = by_name("takeback.pgn");
    assert_eq!(
        brief(&takeback),
        [
            t("claim-available", 7, "black", "4...Ng8"),
            t("record-changed", 6, "-", "-")
        ]
    );
    assert_eq!(takeback.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [1, 2]);
}

/// Corpus games: the watcher's endings and first claims are where the scan
/// puts them.
fn check_against_scan(scenarios: &[Scenario], expect: &[Expected]) {
    for (s, events) in scenarios.iter().zip(expect) {
        let last = &s.steps.last().unwrap().content;
        let all: Vec<verify_claim::FindingLine> = verify_claim::scan_bytes(
            &s.name,
            last.as_bytes(),
            &verify_claim::ScanSettings::default(),
        )
        .map(|f| f.unwrap())
        .collect();
        let games = events
            .iter()
            .filter_map(|(_, v)| v["game"]["index"].as_u64())
            .chain(all.iter().map(|f| f.game as u64))
            .max()
            .unwrap_or(0);
        for index in 1..=games {
            let findings: Vec<&verify_claim::FindingLine> =
                all.iter().filter(|f| f.game as u64 == index).collect();
            let first = |kinds: &[Kind]| {
                findings
                    .iter()
                    .find(|f| kinds.contains(&f.kind))
                    .map(|f| f.ply as u64)
            };
            let mine = |kind: &str, reason: Option<&str>| {
                events
                    .iter()
                    .map(|(_, v)| v)
                    .find(|v| {
                        v["game"]["index"] == index
                            && v["kind"] == kind
                            && reason.is_none_or(|r| v["reason"] == r)
                    })
                    .and_then(|v| v["ply"].as_u64())
            };
            use Kind::*;
            let ending = first(&[
                Checkmate,
                Stalemate,
                InsufficientMaterial,
                DeadPosition,
                FivefoldRepetition,
                SeventyFiveMove,
            ]);
            assert_eq!(mine("game-ended", None), ending, "{}: game {index}", s.name);
            assert_eq!(
                mine("claim-available", Some("threefold-repetition")),
                first(&[ThreefoldClaimable]),
                "{}: game {index}",
                s.name
            );
            assert_eq!(
                mine("claim-available", Some("fifty-move")),
                first(&[FiftyMoveClaimable]),
                "{}: game {index}",
                s.name
            );
        }
        assert!(games >= 1);
    }
}

/// `script(1)`, which gives the watch a terminal.
const SCRIPT: Need = Need {
    what: "script(1)",
    check: || match Command::new("script").arg("--version").output() {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("no script(1) to give the watch a terminal: {e}")),
    },
};

/// Chromium and python3 (the page's driver, `cdp.py`).
const CHROMIUM: Need = Need {
    what: "Chromium",
    check: || {
        let have = |c: &str| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if have("chromium") && have("python3") {
            Ok(())
        } else {
            Err("no chromium or python3 (apt-get install chromium)".into())
        }
    },
};

/// python3 (it makes a folder tree deeper than any path can name).
const PYTHON: Need = Need {
    what: "python3",
    check: || match Command::new("python3").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(()),
        _ => Err("no python3".into()),
    },
};

/// `hostname -I`, which lists the machine's addresses.
const HOSTNAME: Need = Need {
    what: "hostname -I",
    check: || match Command::new("hostname").arg("-I").output() {
        Ok(o) if o.status.success() => Ok(()),
        _ => Err("no hostname -I to list the machine's addresses".into()),
    },
};

crate::verify_claim_tests! {
    watch_follows_games_played_into_a_folder: [SHARED],
    live_view_draws_one_line_per_board: [SCRIPT],
    serve_gives_the_jsonl_events_and_the_boards_of_a_livechess_folder,
    connections_arriving_together_are_all_answered,
    another_address_than_loopback_needs_a_token,
    the_page_shows_every_board_and_its_alerts_in_chromium: [CHROMIUM],
    slow_heads_get_408_and_leave_room,
    a_restarted_watch_tells_old_clients_to_start_again,
    another_loopback_address_is_served,
    an_unread_output_never_stops_the_watch,
    text_output_escapes_control_bytes,
    a_folder_too_deep_is_said: [PYTHON],
    a_glitched_clock_reading_is_not_a_flag_fall,
    a_clock_written_after_its_move_is_read,
    the_urls_printed_are_the_machines_addresses: [HOSTNAME],
    the_printable_snapshot_ends_and_shows_the_boards: [CHROMIUM],
    the_page_follows_a_restarted_watch: [CHROMIUM],
}
