//! Decides, when the crate is built, which of its own corpus tests
//! (`src/tests/`) can run here, so that cargo's summary shows a test that
//! cannot as *ignored* rather than as passed: `cfg(no_shared)` when
//! `../shared` (the corpora and labels beside the crate) is absent,
//! `cfg(no_oracle)` when no Python with python-chess is found (looked for
//! only when `../shared` is there, so a build outside the project's
//! checkout never runs Python) (`pzstd` is the scan crate's build.rs's
//! question). Libtest cannot ignore a test at run time;
//! the integration tests decide at run time instead (tests/common/harness.rs).
//!
//! With `VERIFY_CLAIM_REQUIRE_ORACLE` set (CI) neither is set: the tests
//! run and fail, naming what is missing. The decision is remade when that
//! variable or `ORACLE_PYTHON` changes, or `../shared/labels` does; after
//! adding `../shared` or installing python-chess elsewhere, `touch build.rs`.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_shared)");
    println!("cargo::rustc-check-cfg=cfg(no_oracle)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=../test-support/src/oracle_python.rs");
    println!("cargo::rerun-if-env-changed=VERIFY_CLAIM_REQUIRE_ORACLE");
    println!("cargo::rerun-if-env-changed=ORACLE_PYTHON");
    let required =
        std::env::var("VERIFY_CLAIM_REQUIRE_ORACLE").is_ok_and(|v| !v.is_empty() && v != "0");
    if required {
        return;
    }
    let labels = Path::new("../../../shared/labels");
    if !labels.is_dir() {
        println!("cargo::rustc-cfg=no_shared");
        println!("cargo::rustc-cfg=no_oracle");
        return;
    }
    println!("cargo::rerun-if-changed=../../../shared/labels");
    if !has_python_chess() {
        println!("cargo::rustc-cfg=no_oracle");
    }
}

#[path = "../test-support/src/oracle_python.rs"]
mod oracle_python;

/// `$ORACLE_PYTHON`, else `python3`, imports python-chess 1.11 or later.
fn has_python_chess() -> bool {
    oracle_python::find_oracle_python().is_some()
}
