//! The test harness of the targets whose tests need something a machine may
//! lack (`../shared`, python-chess, Chromium): what is missing is found when
//! the test binary starts, and each test that needs it shows as *ignored* in
//! cargo's own summary, with the reason on stderr, instead of passing
//! without having run. With [`REQUIRE`](super::REQUIRE) set (CI), such a
//! test fails instead, naming what is missing.
//!
//! A target using it has `harness = false` in Cargo.toml and ends with
//! `harness_main!` listing its tests, each with what it needs:
//!
//! ```ignore
//! verify_claim_tests_main! {
//!     plain_test,
//!     corpus_test: [common::harness::SHARED],
//! }
//! ```
//!
//! A listed test that runs anyway (`cargo test -- --include-ignored`) while
//! what it needs is missing fails with the reason.

use libtest_mimic::{Arguments, Failed, Trial};

/// Something a test needs: its name, and a check that says why it is
/// missing (`Err`) or gives nothing (`Ok`).
#[derive(Clone, Copy)]
pub struct Need {
    pub what: &'static str,
    pub check: fn() -> Result<(), String>,
}

/// `../shared` beside the crate (the corpora, labels and the oracle script).
pub const SHARED: Need = Need {
    what: "../shared",
    check: || match super::shared_dir() {
        Some(_) => Ok(()),
        None => Err("../shared is absent; this test needs its labelled data".into()),
    },
};

/// A Python with python-chess (`ORACLE_PYTHON`, else `python3`).
pub const ORACLE: Need = Need {
    what: "python-chess",
    check: || match super::find_oracle_python() {
        Some(_) => Ok(()),
        None => Err("no python with python-chess (set ORACLE_PYTHON; .ci/run installs one)".into()),
    },
};

/// One test: its name, its body, and what it needs.
pub struct Test {
    pub name: &'static str,
    pub run: fn(),
    pub needs: &'static [Need],
}

/// Runs the tests as libtest would, ignoring (or, under `REQUIRE`,
/// failing) those whose needs are missing. Each need is checked once.
pub fn run(tests: Vec<Test>) -> std::process::ExitCode {
    run_with(tests, Vec::new())
}

/// [`run`], with `more` trials that decide for themselves whether they are
/// ignored (the completion tests: a shell that is not installed).
pub fn run_with(tests: Vec<Test>, more: Vec<Trial>) -> std::process::ExitCode {
    let args = Arguments::from_args();
    let mut checked: Vec<(&'static str, Result<(), String>)> = Vec::new();
    let mut missing_of = |need: &Need| -> Option<String> {
        if let Some((_, r)) = checked.iter().find(|(w, _)| *w == need.what) {
            return r.clone().err();
        }
        let r = (need.check)();
        checked.push((need.what, r.clone()));
        r.err()
    };
    // Whether a missing need fails the test rather than ignoring it.
    let require = verify_claim_test_support::required();
    let trials = tests
        .into_iter()
        .map(|t| {
            let missing: Vec<String> = t.needs.iter().filter_map(&mut missing_of).collect();
            if missing.is_empty() {
                let body = t.run;
                return Trial::test(t.name, move || {
                    body();
                    Ok(())
                });
            }
            let why = missing.join("; ");
            if require {
                let why = format!("{} is set, but {why}", super::REQUIRE);
                Trial::test(t.name, move || Err(Failed::from(why)))
            } else {
                if !args.list {
                    eprintln!("SKIPPED (ignored): {}: {why}", t.name);
                }
                Trial::test(t.name, move || Err(Failed::from(why))).with_ignored_flag(true)
            }
        })
        .chain(more)
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}

/// The test list of one module of the `harness = false` target
/// (`tests/needs`): `pub fn tests()`, each test by name, optionally with
/// `: [needs]`; the name shown is the module's path and the test's.
#[macro_export]
macro_rules! verify_claim_tests {
    ($($name:ident $(: [$($need:expr),* $(,)?])?),* $(,)?) => {
        pub fn tests() -> Vec<$crate::common::harness::Test> {
            vec![$($crate::common::harness::Test {
                name: concat!(module_path!(), "::", stringify!($name)),
                run: $name,
                needs: &[$($($need),*)?],
            }),*]
        }
    };
}
