//! The appeal report as the arbiter signs it (issue 39): printed by
//! headless Chromium to A4 and read back page by page. Without Chromium or
//! poppler-utils these tests show as ignored (CI installs both).

use crate::common;

use common::harness::SHARED;
use common::printed::{PRINTING, Printed, print};
use common::{run, run_with_stdin};

const TWIC: &str = "../shared/corpus/twic/twic1599_1000k.pgn";
const LICHESS: &str = "../shared/corpus/lichess/lichess_db_1000k.pgn";

/// The report of a claim, printed.
fn report(name: &str, args: &[&str], stdin: Option<&str>) -> Printed {
    let mut a = args.to_vec();
    a.extend(["--format", "html"]);
    let r = run_with_stdin(&a, stdin.map(str::as_bytes));
    assert!(r.status == 0 || r.status == 1, "{name}: {}", r.stderr);
    print(name, &r.stdout)
}

/// The record paragraph's moves, each with its occurrence label, as the
/// reader sees them ("4...e5", "4...Ng8 w3").
fn record_moves(dom: &str) -> Vec<String> {
    let record = dom
        .split("<p class=\"record\">")
        .nth(1)
        .and_then(|t| t.split("</p>").next())
        .expect("the record paragraph");
    record
        .split("<span class=\"m")
        .skip(1)
        .map(|m| {
            let inner = m.split_once('>').map_or("", |(_, t)| t);
            let inner = inner.split("</span>").next().unwrap_or("");
            inner.replace("<sup>", " ").replace("</sup>", "")
        })
        .collect()
}

/// Item 1: only the written move carries the written occurrence; the move
/// played after the claim point is no occurrence.
fn occurrence_labels_only_on_the_positions_counted() {
    let pgn = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 e5 5. Nf3 *\n";
    let p = report(
        "labels",
        &["-", "--after", "4.Ng1", "--move", "Ng8"],
        Some(pgn),
    );
    let moves = record_moves(&p.dom);
    assert!(moves.contains(&"4...Ng8 w3".to_owned()), "{moves:?}");
    assert!(moves.contains(&"4...e5".to_owned()), "{moves:?}");
    let p = report(
        "labels-twic",
        &[TWIC, "--game", "344", "--ply", "194", "--move", "Qb1"],
        None,
    );
    let moves = record_moves(&p.dom);
    assert!(moves.contains(&"98.Qb1 w1".to_owned()), "{moves:?}");
    assert!(moves.contains(&"98.Kd6".to_owned()), "{moves:?}");
    // The move played after the claim point is the written move: the same
    // position, the same label.
    let p = report(
        "labels-same",
        &[
            "fixtures/chess/fifty-fen-clock.pgn",
            "--ply",
            "9",
            "--move",
            "Kb5",
        ],
        None,
    );
    let moves = record_moves(&p.dom);
    let same = moves.iter().filter(|m| *m == "64...Kb5 w1").count();
    assert_eq!(same, 2, "{moves:?}");
}

/// Item 2: a game that had ended says how, with its result, and the block
/// offers no "the game continues".
fn an_ended_game_is_no_claim_to_decide() {
    for (name, args, how) in [
        (
            "ended-mate",
            vec!["fixtures/chess/fools-mate.pgn"],
            "White was checkmated (5.1.1): Black wins, 0-1",
        ),
        (
            "ended-fivefold",
            vec![TWIC, "--game", "44"],
            "Drawn by fivefold repetition (9.6.1): ½-½",
        ),
    ] {
        let p = report(name, &args, None);
        let text = p.pages.join("\n");
        let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let headline = p.dom.split("</header>").next().unwrap_or("");
        assert!(headline.contains(how), "{name}: headline: {headline}");
        let decision = p
            .dom
            .split("<th>Decision</th>")
            .nth(1)
            .and_then(|t| t.split("</td>").next())
            .expect("the decision cell");
        assert!(
            decision.contains(&format!("no claim: the game had already ended. {how}.")),
            "{name}: {decision}"
        );
        assert!(!flat.contains("game continues"), "{name}: {flat}");
        assert!(!flat.contains("upheld"), "{name}: {flat}");
    }
}

/// Item 3: every printed page names the game and says which page it is.
fn every_page_names_the_game() {
    let p = report(
        "pages",
        &["fixtures/chess/threefold-written.pgn", "--move", "Ng8"],
        None,
    );
    assert_eq!(p.pages.len(), 2, "the report's pages");
    for (i, page) in p.pages.iter().enumerate() {
        let flat: String = page.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("White Player – Black Player, Fixture: threefold only with the written move, round 5"),
            "page {}: {flat}",
            i + 1
        );
        assert!(
            flat.contains(&format!("page {}/2", i + 1)),
            "page {}: {flat}",
            i + 1
        );
    }
    // The second page holds the decision block: it is that game's.
    assert!(p.pages[1].contains("The arbiter's decision"));
}

/// Item 4: the clocks the record gives at the claim point, in every format,
/// with their source; not "not checkable".
fn the_clocks_the_record_gives() {
    let args = [LICHESS, "--game", "94", "--ply", "29", "--move", "Qa2"];
    let text = run(&args).stdout;
    assert!(
        text.contains("Clocks at the claim, from the record's [%clk] comments: White 0:02:32 after 15.Ra1, Black 0:02:35 after 14...Qa3 (running since)."),
        "{text}"
    );
    assert!(
        !text.contains("not checkable from a record: the clocks"),
        "{text}"
    );
    let (_, v) = common::json(&args);
    assert_eq!(v["clocks"]["white"]["clock"], "0:02:32");
    assert_eq!(v["clocks"]["black"]["move"], "14...Qa3");
    assert_eq!(v["clocks"]["source"], "the record's [%clk] comments");
    let p = report("clocks", &args, None);
    let block = p
        .dom
        .split("The arbiter's decision")
        .nth(1)
        .expect("the block");
    let cell = block
        .split("<th>Clocks at the claim</th>")
        .nth(1)
        .and_then(|t| t.split("</td>").next())
        .expect("the clocks' cell");
    assert!(
        cell.contains("White <b class=\"clk\">0:02:32</b>"),
        "{cell}"
    );
    assert!(
        cell.contains("Black <b class=\"clk\">0:02:35</b>"),
        "{cell}"
    );
    assert!(cell.contains("from the record's [%clk] comments"), "{cell}");
    // A record without clocks: the cell is blank and the report says so.
    let (_, v) = common::json(&["fixtures/chess/threefold-written.pgn", "--move", "Ng8"]);
    assert!(v.get("clocks").is_none(), "{v}");
}

/// Item 7: a ten-move claim with one diagram each side prints on one page.
fn a_short_claim_fits_one_page() {
    let p = report(
        "one-page",
        &[
            "fixtures/chess/fifty-fen-clock.pgn",
            "--ply",
            "9",
            "--move",
            "Kb5",
        ],
        None,
    );
    assert_eq!(p.pages.len(), 1, "{:?}", p.pages);
    assert!(p.pages[0].contains("Signature"));
}

/// Item 8: `--explain` shows at most 20 moves of a helpmate after the
/// record, and says how many plies follow.
fn helpmates_an_arbiter_can_follow() {
    let r = run(&["fixtures/chess/castling-lost.pgn", "--explain"]);
    let lines: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains("(helpmate)"))
        .collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    for line in lines {
        let shown = line
            .split("(helpmate) ")
            .nth(1)
            .and_then(|t| t.split(" … ").next())
            .unwrap_or("");
        let numbers = shown.split(' ').filter(|m| m.contains('.')).count();
        assert!(numbers <= 20, "{numbers} moves shown: {line}");
        assert!(
            line.contains(" more plies (the whole line in --format json, ending in "),
            "{line}"
        );
    }
    // The whole line stays in the JSON report.
    let (_, v) = common::json(&["fixtures/chess/castling-lost.pgn"]);
    let whole = v["dead_check"]["helpmates"]["white"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(whole > 40, "{whole}");
}

/// Item 18: the README's print command, run as the README says, writes
/// the PDF, also as root (where Chromium needs `--no-sandbox`, which the
/// README must say).
fn the_readmes_print_command_prints() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let (before, after) = readme
        .split_once("    chromium --headless")
        .expect("the README's print command");
    let line = format!(
        "chromium --headless{}",
        after.lines().next().unwrap_or_default()
    );
    let note = after.split("\n\n").nth(1).unwrap_or_default();
    assert!(
        note.contains("root") && note.contains("--no-sandbox"),
        "the README does not say what root needs: {note}"
    );
    assert!(before.contains("--format html > claim.html"));
    let dir = common::Scratch::new("readme-print");
    let html = dir.file(
        "claim.html",
        run(&["fixtures/chess/castling-lost.pgn", "--format", "html"])
            .stdout
            .as_bytes(),
    );
    let pdf = dir.join("claim.pdf");
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let chrome = common::printed::find_chromium().expect("Chromium");
    let mut cmd = std::process::Command::new(chrome);
    for word in line.split_whitespace().skip(1) {
        match word {
            "claim.html" => cmd.arg(&html),
            w if w.starts_with("--print-to-pdf=") => {
                cmd.arg(format!("--print-to-pdf={}", pdf.display()))
            }
            w => cmd.arg(w),
        };
    }
    if root {
        cmd.arg("--no-sandbox");
    }
    cmd.arg(format!("--user-data-dir={}", dir.join("profile").display()));
    let out = cmd.output().expect("run chromium");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&pdf).expect("the PDF");
    assert!(bytes.starts_with(b"%PDF"));
}

crate::verify_claim_tests! {
    the_readmes_print_command_prints: [PRINTING],
    helpmates_an_arbiter_can_follow,
    occurrence_labels_only_on_the_positions_counted: [PRINTING, SHARED],
    an_ended_game_is_no_claim_to_decide: [PRINTING, SHARED],
    every_page_names_the_game: [PRINTING],
    the_clocks_the_record_gives: [PRINTING, SHARED],
    a_short_claim_fits_one_page: [PRINTING],
}
