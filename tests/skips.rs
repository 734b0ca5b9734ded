//! The harness's own test (tests/common/harness.rs): a test whose need is
//! missing shows as ignored in the summary, with its reason, and fails
//! under `VERIFY_CLAIM_REQUIRE_ORACLE`. The test runs this binary again as
//! the inner suite, whose one test needs what no machine has.

use crate::common;

use common::harness::{Need, Test};
use std::process::{Command, ExitCode};

const INNER: &str = "VERIFY_CLAIM_SKIPS_INNER";

const NEVER: Need = Need {
    what: "nothing",
    check: || Err("a need no machine has".into()),
};

fn needs_what_is_missing() {
    panic!("ran without its need");
}

/// The inner suite's output: (exit success, stdout and stderr together).
fn inner(require: bool) -> (bool, String) {
    let mut cmd = Command::new(std::env::current_exe().expect("this test binary"));
    cmd.env(INNER, "1");
    if require {
        cmd.env(common::REQUIRE, "1");
    } else {
        cmd.env_remove(common::REQUIRE);
    }
    let out = cmd.output().expect("run the inner suite");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn a_missing_need_is_ignored_in_the_summary() {
    let (ok, text) = inner(false);
    assert!(ok, "{text}");
    assert!(text.contains("0 passed; 0 failed; 1 ignored"), "{text}");
    assert!(
        text.contains("SKIPPED (ignored): needs_what_is_missing: a need no machine has"),
        "{text}"
    );
}

fn a_missing_need_fails_when_required() {
    let (ok, text) = inner(true);
    assert!(!ok, "{text}");
    assert!(text.contains("0 passed; 1 failed; 0 ignored"), "{text}");
    assert!(
        text.contains("VERIFY_CLAIM_REQUIRE_ORACLE is set, but a need no machine has"),
        "{text}"
    );
}

/// Whether this run is the inner suite (the binary run again by the tests
/// below), which has one test only.
pub fn inner_suite() -> Option<ExitCode> {
    std::env::var_os(INNER).is_some().then(|| {
        common::harness::run(vec![Test {
            name: "needs_what_is_missing",
            run: needs_what_is_missing,
            needs: &[NEVER],
        }])
    })
}

pub fn tests() -> Vec<Test> {
    vec![
        Test {
            name: "skips::a_missing_need_is_ignored_in_the_summary",
            run: a_missing_need_is_ignored_in_the_summary,
            needs: &[],
        },
        Test {
            name: "skips::a_missing_need_fails_when_required",
            run: a_missing_need_fails_when_required,
            needs: &[],
        },
    ]
}
