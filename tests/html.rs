//! The HTML reports as a reader sees them: each page rendered by headless
//! Chromium to PNG and PDF (A4), checked for console errors, for the number
//! of board diagrams (the occurrences and near misses the JSON report
//! lists), and for its page count. The PNGs are kept in
//! `target/tmp/html/` to look at.
//!
//! Without Chromium the rendering tests show as ignored (the reason on
//! stderr), unless `VERIFY_CLAIM_REQUIRE_ORACLE=1` (CI), where they fail;
//! the checks of the pages' text run everywhere.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::harness::{Need, SHARED};
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
    signable(name, &got.dom, &v);
}

/// What makes a claim report the document an arbiter signs: the record
/// with the claim point and the occurrences marked, the block for the
/// arbiter's name, the times and the decision.
fn signable(name: &str, dom: &str, v: &serde_json::Value) {
    assert!(
        dom.contains("The record around the claim"),
        "{name}: no record"
    );
    let record = dom
        .split("<p class=\"record\">")
        .nth(1)
        .and_then(|t| t.split("</p>").next())
        .unwrap_or_else(|| panic!("{name}: no record paragraph"));
    assert_eq!(
        record.matches(" claim\"").count() + record.matches(" claim ").count(),
        usize::from(v["ply"].as_u64() != Some(0)),
        "{name}: the claim point is marked once: {record}"
    );
    let on_board = v["repetitions"].as_array().map_or(0, Vec::len);
    assert_eq!(
        record.matches("m occ ").count() + record.matches("m occ\"").count(),
        on_board,
        "{name}: every occurrence on the board is marked: {record}"
    );
    if !v["written_move"].is_null() && v["claimed_by"].is_null() {
        assert!(
            record.contains("m wr"),
            "{name}: the written move: {record}"
        );
    }
    for blank in [
        "The arbiter's decision",
        "<th>Arbiter</th>",
        "<th>Signature</th>",
        "<th>Time of the claim</th>",
        "<th>Time of the decision</th>",
        "<th>Decision</th>",
    ] {
        assert!(dom.contains(blank), "{name}: no {blank}");
    }
}

fn claim_report_coordinates_are_readable_on_a4() {
    // The board's coordinates: a font of at least 4.5 units of a 10-unit
    // square (about 1.7 mm on a 38 mm diagram), bold.
    let r = run(&[&fx("chess/castling-lost.pgn"), "--format", "html"]);
    let rule = r
        .stdout
        .split("svg .c {")
        .nth(1)
        .and_then(|t| t.split('}').next())
        .expect("the coordinates' style");
    let size: f64 = rule
        .split_whitespace()
        .find_map(|w| w.strip_suffix("px").and_then(|n| n.parse().ok()))
        .expect("a font size in px");
    assert!(size >= 4.5, "coordinates at {size} units: {rule}");
    assert!(rule.contains("bold"), "{rule}");
}

fn claim_reports_render() {
    let chrome = chromium();
    // Threefold on the board, with a near miss (castling rights lost).
    // One page where it fits: three occurrences and a near miss.
    claim_case(&chrome, "near-miss", &[&fx("chess/castling-lost.pgn")], 1);
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
        1,
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
    claim_case(&chrome, "draughts", &[&fx("draughts/repetition.pdn")], 1);
    claim_case(
        &chrome,
        "draughts-towers",
        &[
            &fx("draughts/material.pdn"),
            "--claim",
            "unchanged-material",
        ],
        1,
    );
}

fn claim_report_escapes_tag_values() {
    let pgn = "[Event \"<script>alert(1)</script>\"]\n[White \"O'Neil & \\\"Sons\\\"\"]\n[Black \"<b>B</b>\"]\n[Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
    let r = common::run_with_stdin(&["-", "--format", "html"], Some(pgn.as_bytes()));
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("<script"), "unescaped tag value");
    assert!(!r.stdout.contains("<b>B</b>"), "unescaped tag value");
    assert!(r.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(r.stdout.contains("O&#39;Neil &amp; &quot;Sons&quot;"));
    let chrome = chromium();
    let got = render(&chrome, "escaped", &r.stdout);
    assert_eq!(diagrams(&got.dom), 3);
}

/// The appeal report on scoresheets: both sheets as read beside the
/// reconstruction, the repaired box and the discrepancy marked, names
/// escaped; and a verdict that depends on the reading said so.
fn sheet_claim_report_renders() {
    let s = common::Scratch::new("html-sheets");
    let a = s.file(
        "<a>.txt",
        "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf5\n5. Ng5 Ng8\n6. Nf3 Nf6\n7. Ng5 Ng8\n8. Nf3 Nf6\n".as_bytes(),
    );
    let b = s.file(
        "b.txt",
        "1. e4 e5\n2. Кf3 Кc6\n3. Сb5 a6\n4. Сa4 Кf6\n5. Кg5 Кg8\n6. Кf3 Кf6\n7. Кg5 -\n8. Кf3 Кf6\n".as_bytes(),
    );
    let r = common::run(&["claim", "--sheet", &a, "--sheet", &b, "--format", "html"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("<a>.txt"), "unescaped sheet name");
    let chrome = chromium();
    let got = render(&chrome, "sheets", &r.stdout);
    assert!(got.dom.contains("The scoresheets as read"), "{}", got.dom);
    assert_eq!(
        got.dom.matches("<tr class=\"discrepancy\">").count(),
        2,
        "{}",
        got.dom
    );
    assert_eq!(got.dom.matches("class=\"repair\"").count(), 1);
    assert!(got.dom.contains("<s>Nf5</s> → Nf6"));
    assert!(got.dom.contains("&lt;a&gt;.txt (en)"));
    let amb = s.file(
        "amb.txt",
        b"1. Nf3 Nf6\n2. d3 Nc6\n3. Nbd2 Nb8\n4. Nb1 Nc6\n5. Nbd2 Nb8\n6. Nb1 Nc6\n7. Nd2\n",
    );
    let r = common::run(&["claim", "--sheet", &amb, "--format", "html"]);
    let got = render(&chrome, "sheets-depends", &r.stdout);
    assert!(
        got.dom.contains("The verdict depends on the reading."),
        "{}",
        got.dom
    );
}

/// The kinds whose position the scan page does not draw: game ends the
/// Laws make by themselves, which the record agrees with.
const AUTOMATIC_ENDS: [&str; 7] = [
    "checkmate",
    "stalemate",
    "no-moves",
    "insufficient-material",
    "fivefold-repetition",
    "seventy-five-move",
    "dead-position",
];

/// The diagrams the scan page draws for these findings (in input order):
/// none for an automatic end or a parse error at ply 0; under a game
/// heading (errors, warnings), findings at the ply just drawn share it.
fn scan_diagrams(findings: &[serde_json::Value]) -> usize {
    let mut last: std::collections::HashMap<(String, String, u64), u64> = Default::default();
    let mut n = 0;
    for f in findings {
        let (kind, ply) = (f["kind"].as_str().unwrap(), f["ply"].as_u64().unwrap());
        if AUTOMATIC_ENDS.contains(&kind) || (kind == "parse-error" && ply == 0) {
            continue;
        }
        let sev = f["severity"].as_str().unwrap().to_owned();
        if sev == "info" {
            n += 1;
            continue;
        }
        let key = (
            sev,
            f["file"].as_str().unwrap().to_owned(),
            f["game"].as_u64().unwrap(),
        );
        if last.get(&key) != Some(&ply) {
            n += 1;
            last.insert(key, ply);
        }
    }
    n
}

fn jsonl(args: &[&str]) -> Vec<serde_json::Value> {
    let mut a = args.to_vec();
    a.extend(["--format", "jsonl"]);
    run(&a)
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The organiser's page: errors, then warnings, then notices; every link
/// of the summary leads somewhere; the header names the run.
fn organised(name: &str, html: &str) {
    let first = |t: &str| html.find(t);
    let last = |t: &str| html.rfind(t);
    if let (Some(e), Some(w)) = (last("class=\"sev error\""), first("class=\"sev warning\"")) {
        assert!(e < w, "{name}: a warning before an error");
    }
    if let (Some(w), Some(i)) = (last("class=\"sev warning\""), first("class=\"sev info\"")) {
        assert!(w < i, "{name}: a notice before a warning");
    }
    for id in html
        .split("href=\"#")
        .skip(1)
        .filter_map(|t| t.split('"').next())
    {
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "{name}: the link #{id} leads nowhere"
        );
    }
    for head in [
        "<dt>Inputs</dt>",
        "<dt>Rules</dt>",
        "<dt>Run</dt>",
        "<dt>Scanned</dt>",
    ] {
        assert!(html.contains(head), "{name}: no {head}");
    }
    // A result never breaks across lines; a message ends its sentence.
    for (i, _) in html.match_indices("1/2-1/2") {
        assert!(
            html[..i].ends_with("class=\"nw\">"),
            "{name}: a result that can wrap: {}",
            &html[i.saturating_sub(80)..i + 7]
        );
    }
    assert!(!html.contains("give Recorded"), "{name}: a sentence run on");
}

fn scan_report_renders() {
    let args = ["scan", "fixtures/scan", "fixtures/draughts", "--jobs", "2"];
    let findings = jsonl(&args);
    let mut a = args.to_vec();
    a.extend(["--format", "html"]);
    let r = run(&a);
    assert_eq!(r.status, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout.matches("class=\"finding\"").count(),
        findings.len()
    );
    organised("scan", &r.stdout);
    assert!(
        r.stdout
            .contains("<code>fixtures/scan</code>, <code>fixtures/draughts</code>")
    );
    let chrome = chromium();
    let got = render(&chrome, "scan", &r.stdout);
    assert_eq!(
        diagrams(&got.dom),
        scan_diagrams(&findings),
        "scan: board diagrams"
    );
    assert!(got.dom.contains("Scan report"));
    // fixtures/scan holds kinds.pgn, flag-fall.pgn and annotate.pgn.
    assert_eq!(got.pages, 3, "scan: PDF pages");
}

fn scan_report_says_what_it_left_out() {
    let args = ["scan", "fixtures/scan", "--jobs", "2"];
    let all = jsonl(&args);
    let mut a = args.to_vec();
    a.extend(["--min-severity", "warning", "--format", "html"]);
    let r = run(&a);
    let listed = all.iter().filter(|f| f["severity"] != "info").count();
    assert!(listed < all.len(), "the fixture has notices");
    assert_eq!(r.stdout.matches("class=\"finding\"").count(), listed);
    let total = format!(
        "listed of all found</th><td class=\"n\"><b>{listed}</b></td><td class=\"n\"><b>{}</b></td>",
        all.len()
    );
    assert!(r.stdout.contains(&total), "the totals: {}", r.stdout);
    assert!(
        r.stdout
            .contains("(--min-severity warning) are counted, not listed")
    );
    organised("scan-warning", &r.stdout);
}

fn scan_report_prints_an_archives_errors_in_a_few_pages() {
    // The shared corpus: 9,288 games, about 30 errors and warnings among
    // some 4,000 notices (collapsed, so not printed).
    let r = run(&["scan", "../shared/corpus", "--format", "html"]);
    organised("corpus", &r.stdout);
    // No start-position diagram for a parse error at ply 0.
    for entry in r.stdout.split("<div class=\"finding\">").skip(1) {
        let head = entry.split("</p>").next().unwrap_or("");
        if head.contains("<b>parse-error</b> · ply 0 ") {
            assert!(!entry.split("</p>").next().unwrap().contains("<figure"));
        }
    }
    let chrome = chromium();
    let got = render(&chrome, "corpus", &r.stdout);
    assert!(got.pages <= 6, "corpus: {} PDF pages", got.pages);
}

/// An automatic end the record agrees with gets no diagram, unless asked.
fn scan_report_draws_automatic_ends_when_asked() {
    let page = |extra: &[&str]| {
        let mut a = vec!["scan", "fixtures/chess/fools-mate.pgn", "--format", "html"];
        a.extend(extra);
        let r = run(&a);
        assert!(r.stdout.contains("checkmate"), "{}", r.stderr);
        diagrams(&r.stdout)
    };
    assert_eq!(page(&[]), 0, "a checkmate the record agrees with");
    assert_eq!(page(&["--all-diagrams"]), 1, "with --all-diagrams");
}

crate::verify_claim_tests! {
    scan_report_draws_automatic_ends_when_asked,
    claim_report_coordinates_are_readable_on_a4,
    claim_reports_render: [CHROMIUM],
    claim_report_escapes_tag_values: [CHROMIUM],
    sheet_claim_report_renders: [CHROMIUM],
    scan_report_renders: [CHROMIUM],
    scan_report_says_what_it_left_out,
    scan_report_prints_an_archives_errors_in_a_few_pages: [CHROMIUM, SHARED],
}
