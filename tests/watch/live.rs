//! The live board's words and pages (issue 39): a glitched clock reading
//! is not a flag fall, the URLs printed for `0.0.0.0` are the machine's
//! addresses, the printable snapshot ends (no event stream) and shows the
//! tournament and what the Laws say of displays. The real binary, a
//! writer, loopback only.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::hostile::stderr_after_ctrl_c;
use super::serve::{games, get, play, start, stop, temp, until};

/// The clock events of a run, as they come, until `n` or the bound.
fn clock_events(w: &super::serve::Watch, n: usize) -> Vec<Value> {
    events_of(w, &["clock-zero", "flag-fall"], n)
}

/// The events of these kinds, as they come, until `n` or the bound.
fn events_of(w: &super::serve::Watch, kinds: &[&str], n: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let end = Instant::now() + Duration::from_secs(15);
    while out.len() < n {
        let Ok((_, l)) = w
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        else {
            break;
        };
        let v: Value = serde_json::from_str(&l).unwrap();
        if kinds.iter().any(|k| v["kind"] == *k) {
            out.push(v);
        }
    }
    out
}

/// A writer plays a board whose clock reads 0:00:00 once and then
/// 0:16:15 (as a DGT board did): "not confirmed", never a flag fall; on
/// another board a second reading at zero confirms it.
pub fn a_glitched_clock_reading_is_not_a_flag_fall() {
    let dir = temp("glitch");
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    let file = dir.join("round-1/game-1.pgn");
    let tags = "[Round \"1.1\"]\n[White \"A\"]\n[Black \"B\"]\n\n";
    let moves = [
        "1. e4 {[%clk 00:20:00]} e5 {[%clk 00:20:00]}",
        "2. Nf3 {[%clk 00:00:00]}",
        "Nc6 {[%clk 00:19:30]} 3. Bb5 {[%clk 00:16:15]}",
        "a6 {[%clk 00:19:00]}",
    ];
    let mut text = String::new();
    for (k, m) in moves.iter().enumerate() {
        text.push_str(m);
        text.push(' ');
        std::fs::write(&file, format!("{tags}{text}*\n")).unwrap();
        if k == 1 {
            let got = clock_events(&w, 1);
            assert_eq!(got.len(), 1, "{got:?}");
            assert_eq!(got[0]["kind"], "clock-zero");
            assert!(
                got[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("not confirmed"),
                "{}",
                got[0]
            );
        }
    }
    // A second board: zero, then zero again: the flag fell.
    let second = dir.join("round-1/game-2.pgn");
    let tags = "[Round \"1.2\"]\n[White \"C\"]\n[Black \"D\"]\n\n";
    std::fs::write(&second, format!("{tags}1. e4 {{[%clk 00:00:00]}} e5 *\n")).unwrap();
    std::fs::write(
        &second,
        format!("{tags}1. e4 {{[%clk 00:00:00]}} e5 2. Nf3 {{[%clk 00:00:00]}} *\n"),
    )
    .unwrap();
    let got = clock_events(&w, 2);
    stop(w);
    let kinds: Vec<(&str, &str)> = got
        .iter()
        .map(|v| {
            (
                v["board"].as_str().unwrap_or(""),
                v["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [("1.2", "clock-zero"), ("1.2", "flag-fall")],
        "{got:?}"
    );
    assert_eq!(got[1]["article"], "6.9");
}

/// A writer that writes a move and, in a later write, its `[%clk]`: the
/// clock is read when it comes (it was never read: the move had been
/// looked at already). The second write waits until `/state` shows the
/// move, so the two writes are seen apart.
pub fn a_clock_written_after_its_move_is_read() {
    let dir = temp("late-clock");
    let w = start(&dir, &["--serve", "127.0.0.1:0", "--low-time", "60"]);
    let file = dir.join("round-1/game-1.pgn");
    let tags = "[Round \"1.1\"]\n[White \"A\"]\n[Black \"B\"]\n\n";
    std::fs::write(&file, format!("{tags}1. e4 {{[%clk 00:20:00]}} e5 *\n")).unwrap();
    let plies = || {
        let (_, body) = get(&w.url, "/state", "");
        serde_json::from_str::<Value>(&body).unwrap_or_default()["boards"][0]["plies"].clone()
    };
    assert!(
        until(Duration::from_secs(15), || plies() == 2),
        "the board never showed 2 plies: {}",
        plies()
    );
    std::fs::write(
        &file,
        format!("{tags}1. e4 {{[%clk 00:20:00]}} e5 {{[%clk 00:00:50]}} *\n"),
    )
    .unwrap();
    let got = events_of(&w, &["low-time"], 1);
    stop(w);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (&got[0]["ply"], &got[0]["side"]),
        (&2.into(), &"black".into())
    );
}

/// `--serve 0.0.0.0:P --token generate` prints URLs another device can
/// open: the machine's interface addresses (`hostname -I`), never
/// 0.0.0.0. No traffic leaves loopback: only the printed text is checked.
pub fn the_urls_printed_are_the_machines_addresses() {
    let dir = temp("lan");
    let child = Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args(["watch", &dir.display().to_string(), "--serve", "0.0.0.0:0"])
        .args(["--token", "generate"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let said = stderr_after_ctrl_c(child);
    let hosts: BTreeSet<String> = said
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("http://"))
        .map(|u| {
            let hostport = u.split('/').next().unwrap_or("");
            let (h, _) = hostport.rsplit_once(':').unwrap_or((hostport, ""));
            h.trim_matches(['[', ']']).to_owned()
        })
        .collect();
    assert!(!hosts.contains("0.0.0.0"), "{said}");
    let machine = Command::new("hostname").arg("-I").output().unwrap();
    let machine: BTreeSet<String> = String::from_utf8_lossy(&machine.stdout)
        .split_whitespace()
        .filter(|a| !a.contains(':'))
        .map(str::to_owned)
        .collect();
    for a in &machine {
        assert!(hosts.contains(a), "{a} not printed: {said}");
    }
    for h in &hosts {
        assert!(
            machine.contains(h) || h == "127.0.0.1",
            "{h} is not this machine's: {said}"
        );
    }
    assert!(
        said.lines().next().unwrap_or("").contains("?token="),
        "{said}"
    );
}

/// `/print`: the board drawn once, no event stream: headless Chromium's
/// `--virtual-time-budget` ends (it waits forever on `/`), and the page
/// shows every board, its tournament, and the Laws on displays (6.12.2).
pub fn the_printable_snapshot_ends_and_shows_the_boards() {
    let dir = temp("print");
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    play(&dir, &games()[..2]);
    let scratch = crate::common::Scratch::new("chromium-print");
    let url = format!("{}print", w.url);
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .args(["--dump-dom", &url])
        .env("TMPDIR", &*scratch)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(out).unwrap_or_default());
    let done = (0..1200).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        child.try_wait().ok().flatten().is_some()
    });
    if !done {
        let _ = child.kill();
    }
    let _ = child.wait();
    let dom = reader.join().unwrap();
    stop(w);
    assert!(done, "chromium did not end within 60 s");
    for want in [
        "Board 1.1",
        "Board 1.2",
        "Watch test",
        "(6.12.2)",
        "snapshot of",
    ] {
        assert!(dom.contains(want), "no {want:?} in the page");
    }
}
