//! The live board's page as an arbiter sees it: headless Chromium opens
//! `watch --serve` while a writer plays the LiveChess folder; every board's
//! diagram must follow its writes within a second, the alerts must show
//! and clear, and the console must stay free of errors.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::serve::{games, get, play, start, stop, temp};
use crate::common::Scratch;

/// The page in headless Chromium, driven over its DevTools pipe by
/// `cdp.py`: what it shows every 100 ms, as it arrives.
struct Browser {
    child: Child,
    views: mpsc::Receiver<(Instant, Value)>,
    /// Chromium's profile and temporary directory (its singleton socket),
    /// removed when the browser is dropped (test runs leave nothing in the
    /// temporary directory).
    _scratch: Scratch,
}

impl Browser {
    fn open(url: &str) -> Option<Browser> {
        let scratch = Scratch::new("chromium");
        let profile = scratch.join("profile");
        let mut child = Command::new("python3")
            .args(["tests/watch/cdp.py", url, &profile.display().to_string()])
            .env("TMPDIR", &*scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .ok()?;
        let out = child.stdout.take()?;
        let (tx, views) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if let Ok(v) = serde_json::from_str::<Value>(&l) {
                    let _ = tx.send((Instant::now(), v));
                }
            }
        });
        Some(Browser {
            child,
            views,
            _scratch: scratch,
        })
    }

    /// The first view (or the errors line) that `ok` accepts, within `limit`.
    fn until(&self, limit: Duration, ok: impl Fn(&Value) -> bool) -> Option<(Instant, Value)> {
        let end = Instant::now() + limit;
        while let Ok((at, v)) = self
            .views
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            if ok(&v) {
                return Some((at, v));
            }
        }
        None
    }

    fn say(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
}

pub fn the_page_shows_every_board_and_its_alerts_in_chromium() {
    let have = |c: &str| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    assert!(have("chromium") && have("python3"), "CHROMIUM found them");
    let dir = temp("page");
    let games = games();
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    let mut b = Browser::open(&w.url).expect("the driver starts");
    b.until(Duration::from_secs(30), |v| v["status"] == "live")
        .expect("the page opens its event stream");
    let writes = play(&dir, &games);
    let (_, state) = get(&w.url, "/state", "");
    let state: Value = serde_json::from_str(&state).unwrap();
    let boards = state["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 8);
    // Every view since the stream opened, to a second and a half after
    // the last write.
    let end = Instant::now() + Duration::from_millis(1500);
    let mut views = Vec::new();
    while let Ok(v) = b
        .views
        .recv_timeout(end.saturating_duration_since(Instant::now()))
    {
        views.push(v);
    }
    diagrams_in_time(boards, &views, &writes);
    // The alerts: a claim, an end by the Laws, an illegal move.
    let (_, view) = views.last().cloned().expect("views");
    counts_as_the_rulebook_says(boards, &view);
    let open: Vec<String> = view["boards"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|v| v["open"].as_array().cloned().unwrap_or_default())
        .filter_map(|k| k.as_str().map(str::to_owned))
        .collect();
    for kind in ["game-ended", "illegal-move", "claim-available"] {
        assert!(open.iter().any(|k| k == kind), "no open {kind}: {view}");
    }
    // Marking board 1's alerts seen clears them.
    let first = boards.iter().find(|x| x["board"] == "1.1").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    b.say(&format!("seen {first}"));
    b.until(Duration::from_secs(2), |v| {
        v["boards"][&first]["alert"] == false
            && v["boards"][&first]["open"]
                .as_array()
                .is_some_and(Vec::is_empty)
    })
    .expect("marked seen, the alert is cleared");
    // Kept for a person to look at, under one name that each run replaces.
    let shot = std::env::temp_dir().join("verify-claim-watch-page.png");
    b.say(&format!("shot {}", shot.display()));
    b.say("quit");
    let (_, end) = b
        .until(Duration::from_secs(10), |v| v.get("errors").is_some())
        .expect("the driver ends");
    assert_eq!(end["errors"], serde_json::json!([]), "console errors");
    let _ = b.child.wait();
    println!("screenshot: {}", shot.display());
    stop(w);
}

/// Each board's diagram at its last position within a second of the
/// write (`views`: the page's views and when each came; `writes`: each
/// board's writes).
fn diagrams_in_time(boards: &[Value], views: &[(Instant, Value)], writes: &[Vec<Instant>]) {
    for board in boards {
        let id = board["id"].as_str().unwrap().to_owned();
        let last = board["look"]["last_moves"]
            .as_array()
            .and_then(|m| m.last())
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let want = format!("the position after {last}");
        let n: usize = board["board"]
            .as_str()
            .and_then(|l| l.strip_prefix("1."))
            .and_then(|l| l.parse().ok())
            .unwrap();
        let written = *writes[n - 1].last().unwrap();
        let (at, _) = views
            .iter()
            .find(|(_, v)| v["boards"][&id]["label"] == want.as_str())
            .unwrap_or_else(|| panic!("{id}: never showed {want}"));
        let late = at.saturating_duration_since(written);
        assert!(
            late <= Duration::from_secs(1),
            "{id} showed {want} {late:?} after the write"
        );
    }
}

/// The count as the rulebook says it (the LiveChess games are dated
/// 2026: fide-2023), plural or not.
fn counts_as_the_rulebook_says(boards: &[Value], view: &Value) {
    for board in boards {
        let id = board["id"].as_str().unwrap();
        let shown = view["boards"][id]["count"].as_str().unwrap_or("");
        let n = board["look"]["count"].as_u64().unwrap();
        let plies = if n == 1 { "ply" } else { "plies" };
        let want = format!(
            "Count: {n} {plies} without a pawn move or a capture: a claim at 100 (9.3.2), the game drawn at 150 (9.6.2)"
        );
        assert_eq!(shown, want, "{id}");
    }
}

/// The page across a restart of the watch (issue 40): its stream resumes
/// with an id of the earlier run, the server says `reset`, the page loads
/// the new run's state, and the new run's alert is open, not taken as
/// seen because an alert of the earlier run had the same number (before:
/// the stream stayed silent and the marks were kept by number).
pub fn the_page_follows_a_restarted_watch() {
    let dir = temp("page-restart");
    let tags = |b: &str| format!("[Round \"1.{b}\"]\n[White \"W{b}\"]\n[Black \"B{b}\"]\n\n");
    let first = dir.join("round-1/game-1.pgn");
    // Three alerts on board 1.1: a claim, and two repetition warnings
    // besides (the warnings are events too).
    std::fs::write(
        &first,
        format!(
            "{}1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n",
            tags("1")
        ),
    )
    .unwrap();
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    let url = w.url.clone();
    let mut b = Browser::open(&url).expect("the driver starts");
    let open_on = |v: &Value, board: &str| {
        v["boards"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(id, _)| id.ends_with(board))
            .flat_map(|(_, x)| x["open"].as_array().cloned().unwrap_or_default())
            .count()
    };
    let (_, v) = b
        .until(Duration::from_secs(30), |v| {
            v["status"] == "live" && open_on(v, "#1.1") > 0
        })
        .expect("board 1.1's alerts open");
    let id = v["boards"]
        .as_object()
        .unwrap()
        .keys()
        .find(|k| k.ends_with("#1.1"))
        .unwrap()
        .clone();
    b.say(&format!("seen {id}"));
    b.until(Duration::from_secs(5), |v| open_on(v, "#1.1") == 0)
        .expect("marked seen");
    stop(w);
    // The next run follows another board, whose one alert gets id 1.
    std::fs::remove_file(&first).unwrap();
    std::fs::write(
        dir.join("round-1/game-2.pgn"),
        format!("{}1. f3 e5 2. g4 Qh4# *\n", tags("2")),
    )
    .unwrap();
    let port = url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .to_owned();
    let w = start(&dir, &["--serve", &format!("127.0.0.1:{port}")]);
    let shown = b.until(Duration::from_secs(20), |v| open_on(v, "#1.2") > 0);
    b.say("quit");
    let _ = b.until(Duration::from_secs(10), |v| v.get("errors").is_some());
    let _ = b.child.wait();
    stop(w);
    shown.expect("the new run's alert is shown open");
}
