//! The HTML reports as a reader sees them: each page rendered by headless
//! Chromium to PNG and PDF (A4), checked for console errors, for the number
//! of board diagrams (the occurrences and near misses the JSON report
//! lists), and for its page count. The PNGs are kept in
//! `target/tmp/html/` to look at.
//!
//! Without Chromium the rendering tests show as ignored (the reason on
//! stderr), unless `VERIFY_CLAIM_REQUIRE_ORACLE=1` (CI), where they fail;
//! the checks of the pages' text run everywhere.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::harness::Need;
use common::{json, run};

/// Chromium: `$VERIFY_CLAIM_CHROMIUM`, else `chromium`, `chromium-browser`
/// or `google-chrome` on the PATH.
fn find_chromium() -> Option<PathBuf> {
    std::env::var_os("VERIFY_CLAIM_CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .filter_map(|name| {
                    std::env::var_os("PATH").and_then(|paths| {
                        std::env::split_paths(&paths)
                            .map(|d| d.join(name))
                            .find(|p| p.is_file())
                    })
                }),
        )
        .find(|p| p.is_file())
}

/// What the rendering tests need.
const CHROMIUM: Need = Need {
    what: "Chromium",
    check: || match find_chromium() {
        Some(_) => Ok(()),
        None => Err("Chromium not installed (apt-get install chromium)".into()),
    },
};

/// Chromium, for a test listed with [`CHROMIUM`].
fn chromium() -> PathBuf {
    find_chromium().expect("Chromium: list this test with CHROMIUM")
}

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html");
    std::fs::create_dir_all(&d).unwrap();
    d
}

struct Rendered {
    dom: String,
    pages: usize,
}

/// Renders `html` (saved as `name.html`) to DOM, PNG and PDF; fails on a
/// console message or a reference to anything outside the page.
fn render(chrome: &Path, name: &str, html: &str) -> Rendered {
    assert!(html.starts_with("<!doctype html>"), "{name}: not a page");
    for outside in ["http:", "https:", "src=", "<link", "@import", "url("] {
        assert!(
            !html.contains(outside),
            "{name}: the page refers outside itself ({outside})"
        );
    }
    let dir = out_dir();
    let page = dir.join(format!("{name}.html"));
    std::fs::write(&page, html).unwrap();
    let url = format!("file://{}", page.display());
    let chrome_run = |extra: &[String]| {
        let profile = dir.join(format!("profile-{name}"));
        let out = Command::new(chrome)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--hide-scrollbars",
                "--enable-logging=stderr",
                "--v=0",
                "--no-pdf-header-footer",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(&url)
            .output()
            .expect("run chromium");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        for line in stderr.lines() {
            assert!(
                !line.contains(":CONSOLE") && !line.contains("Uncaught"),
                "{name}: console message: {line}"
            );
        }
        assert!(out.status.success(), "{name}: chromium failed: {stderr}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let dom = chrome_run(&["--dump-dom".to_owned()]);
    let png = dir.join(format!("{name}.png"));
    chrome_run(&[
        "--window-size=900,1400".to_owned(),
        format!("--screenshot={}", png.display()),
    ]);
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "{name}: no PNG");
    let pdf = dir.join(format!("{name}.pdf"));
    chrome_run(&[format!("--print-to-pdf={}", pdf.display())]);
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF"), "{name}: no PDF");
    Rendered {
        dom,
        pages: pdf_pages(&bytes),
    }
}

/// Pages of a PDF: its `/Type /Page` objects (Chromium writes them
/// uncompressed).
fn pdf_pages(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    text.match_indices("/Type /Page")
        .filter(|(i, m)| !text[i + m.len()..].starts_with('s'))
        .count()
}

fn diagrams(dom: &str) -> usize {
    dom.matches("<svg class=\"board").count()
}

fn fx(name: &str) -> String {
    format!("fixtures/{name}")
}

/// A claim report: the diagrams are the occurrences (on the board and after
/// the written move), the near misses and the position where the game
/// ended, as the JSON report lists them.
fn claim_case(chrome: &Path, name: &str, args: &[&str], pages: usize) {
    let (_, v) = json(args);
    let count = |k: &str| v[k].as_array().map_or(0, Vec::len);
    let want = count("repetitions")
        + count("repetitions_with_written_move")
        + count("near_misses").min(12)
        + usize::from(!v["game_over"].is_null());
    let mut a = args.to_vec();
    a.extend(["--format", "html"]);
    let r = run(&a);
    assert!(r.status == 0 || r.status == 1, "{name}: {}", r.stderr);
    let got = render(chrome, name, &r.stdout);
    assert_eq!(diagrams(&got.dom), want, "{name}: board diagrams");
    assert!(
        got.dom.contains(if v["valid"] == true {
            "Claim valid"
        } else {
            "Claim not valid"
        }),
        "{name}: verdict"
    );
    assert_eq!(got.pages, pages, "{name}: PDF pages");
}

fn claim_reports_render() {
    let chrome = chromium();
    // Threefold on the board, with a near miss (castling rights lost).
    claim_case(&chrome, "near-miss", &[&fx("chess/castling-lost.pgn")], 2);
    // With a written move.
    claim_case(
        &chrome,
        "written-move",
        &[&fx("chess/threefold-written.pgn"), "--move", "Ng8"],
        2,
    );
    // Fifty moves, partly from the FEN, with a written move.
    claim_case(
        &chrome,
        "fifty",
        &[
            &fx("chess/fifty-fen-clock.pgn"),
            "--ply",
            "9",
            "--move",
            "Kb5",
        ],
        2,
    );
    // A near miss by en passant; an incorrect claim (the penalty).
    claim_case(&chrome, "en-passant", &[&fx("chess/ep-legal.pgn")], 2);
    // An incorrect claim after the game ended: checkmate, a dead position.
    claim_case(
        &chrome,
        "after-mate",
        &[&fx("chess/fools-mate.pgn"), "--move", "Ke2"],
        2,
    );
    claim_case(&chrome, "dead", &[&fx("chess/dead-wall.pgn")], 2);
    // Column draughts: towers.
    claim_case(&chrome, "draughts", &[&fx("draughts/repetition.pdn")], 2);
    claim_case(
        &chrome,
        "draughts-towers",
        &[
            &fx("draughts/material.pdn"),
            "--claim",
            "unchanged-material",
        ],
        2,
    );
}

/// The claim report of a record whose tag values hold markup.
fn escaped_page() -> String {
    let pgn = "[Event \"<script>alert(1)</script>\"]\n[White \"O'Neil & \\\"Sons\\\"\"]\n[Black \"<b>B</b>\"]\n[Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
    let r = common::run_with_stdin(&["-", "--format", "html"], Some(pgn.as_bytes()));
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("<script"), "unescaped tag value");
    assert!(!r.stdout.contains("<b>B</b>"), "unescaped tag value");
    assert!(r.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(r.stdout.contains("O&#39;Neil &amp; &quot;Sons&quot;"));
    r.stdout
}

fn claim_report_escapes_tag_values() {
    escaped_page();
}

fn claim_report_with_markup_renders() {
    let got = render(&chromium(), "escaped", &escaped_page());
    assert_eq!(diagrams(&got.dom), 3);
}

/// The scan page of the scan fixtures, checked against the JSON lines, and
/// the number of positions that have findings.
fn scan_page() -> (String, usize) {
    let args = ["scan", "fixtures/scan", "fixtures/draughts", "--jobs", "2"];
    let mut a = args.to_vec();
    a.extend(["--format", "jsonl"]);
    let findings: Vec<serde_json::Value> = run(&a)
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // One diagram per position with findings (findings at one ply share it).
    let positions: BTreeSet<(String, u64, u64)> = findings
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_owned(),
                f["game"].as_u64().unwrap(),
                f["ply"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut a = args.to_vec();
    a.extend(["--format", "html"]);
    let r = run(&a);
    assert_eq!(r.status, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout.matches("class=\"finding\"").count(),
        findings.len()
    );
    (r.stdout, positions.len())
}

fn scan_report_lists_every_finding() {
    scan_page();
}

fn scan_report_renders() {
    let (page, positions) = scan_page();
    let got = render(&chromium(), "scan", &page);
    assert_eq!(diagrams(&got.dom), positions, "scan: board diagrams");
    assert!(got.dom.contains("Scan report"));
    // fixtures/scan holds kinds.pgn, flag-fall.pgn and annotate.pgn.
    assert_eq!(got.pages, 5, "scan: PDF pages");
}

verify_claim_tests_main! {
    claim_reports_render: [CHROMIUM],
    claim_report_escapes_tag_values,
    claim_report_with_markup_renders: [CHROMIUM],
    scan_report_lists_every_finding,
    scan_report_renders: [CHROMIUM],
}
