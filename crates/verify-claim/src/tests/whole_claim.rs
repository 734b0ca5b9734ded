//! The claim printers on two small games: a valid threefold repetition
//! claimed with a written move, and a claim that fails (the position stood
//! twice), with tags to escape. Beside the other printers' whole outputs
//! (the report crate's `report/whole/`, whose `expected/` files these are
//! too), but here: the claim is made through the API, above the printers.

use crate::api::{ClaimOptions, decide};
use crate::record::{Encoding, Reader};
use crate::report::ClaimReport;
use crate::report::pgn::{annotate_game, claim_annotation};

/// The knights go out and back twice: the start position stands at plies
/// 0, 4 and 8.
const SHUFFLE: &str = "[Event \"Club <Cup> & 'Open'\"]\n[Round \"3\"]\n[Date \"2024.05.01\"]\n\
    [White \"O'Hara, A.\"]\n[Black \"Bo \\\"B\\\"\"]\n[Result \"*\"]\n\n\
    1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *\n";

fn report(ply: usize, written: Option<&str>) -> ClaimReport {
    let opts = ClaimOptions {
        ply: Some(ply),
        written_move: written.map(str::to_owned),
        ..ClaimOptions::default()
    };
    decide("club.pgn", SHUFFLE.as_bytes(), &opts).unwrap()
}

fn pgn(r: &ClaimReport) -> String {
    let mut reader = Reader::new(SHUFFLE.as_bytes(), Encoding::Utf8);
    let record = reader.next_game().unwrap().unwrap();
    String::from_utf8(annotate_game(
        SHUFFLE.as_bytes(),
        &record,
        &claim_annotation(r),
    ))
    .unwrap()
}

#[test]
fn valid_with_the_written_move() {
    let r = report(7, Some("Ng8"));
    check(&r.to_text(), expected!("claim.valid.txt"));
    check(&format!("{}\n", r.to_json()), expected!("claim.valid.json"));
    check(&pgn(&r), expected!("claim.valid.pgn"));
    check(&r.to_html(), expected!("claim.valid.html"));
}

#[test]
fn not_valid() {
    let r = report(4, None);
    check(&r.to_text(), expected!("claim.not-valid.txt"));
    check(
        &format!("{}\n", r.to_json()),
        expected!("claim.not-valid.json"),
    );
    check(&pgn(&r), expected!("claim.not-valid.pgn"));
    check(&r.to_html(), expected!("claim.not-valid.html"));
}

/// An expected output of the report crate's `report/whole/expected/`: its
/// text and its file's name.
macro_rules! expected {
    ($name:literal) => {
        (
            include_str!(concat!(
                "../../../verify-claim-report/src/report/whole/expected/",
                $name
            )),
            $name,
        )
    };
}
use expected;

/// Asserts that `actual` is the whole expected output, or, under
/// `VERIFY_CLAIM_BLESS=1`, writes it as the expected output.
fn check(actual: &str, (expected, name): (&str, &str)) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../verify-claim-report/src/report/whole/expected");
    verify_claim_test_support::check_whole(actual, expected, &dir, name);
}
