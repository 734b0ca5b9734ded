//! Every printer's whole output for small hand-built inputs: the scan's
//! text, JSON lines, CSV, GitHub annotations, PGN and HTML (`scan.rs`),
//! the claim's text, JSON, PGN and HTML (the facade's
//! `src/tests/whole_claim.rs`: a claim is made through the API). Each output is
//! compared whole, byte for byte, with its file in `expected/` (read with
//! `include_str!`, so the files move with this module); the CLI's golden
//! outputs (`tests/snapshots`) cover the fixtures end to end.
//!
//! After a change meant to change an output, `VERIFY_CLAIM_BLESS=1 cargo
//! test -p verify-claim-report report::whole` rewrites the files; review
//! them with `git diff`.

mod scan;

use std::path::Path;

/// An expected output: its text and its file's name.
macro_rules! expected {
    ($name:literal) => {
        (include_str!(concat!("expected/", $name)), $name)
    };
}
pub(super) use expected;

/// Asserts that `actual` is the whole expected output, or, under
/// `VERIFY_CLAIM_BLESS=1`, writes it as the expected output.
fn check(actual: &str, (expected, name): (&str, &str)) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report/whole/expected");
    verify_claim_test_support::check_whole(actual, expected, &dir, name);
}
