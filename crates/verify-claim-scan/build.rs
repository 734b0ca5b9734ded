//! Whether Debian's `pzstd` is on the PATH (`cfg(no_pzstd)`): the test of
//! a pzstd-written file shows as ignored without it, and fails under
//! `VERIFY_CLAIM_REQUIRE_ORACLE` (CI), as the facade's build.rs decides
//! for its corpus tests.

use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_pzstd)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=VERIFY_CLAIM_REQUIRE_ORACLE");
    let required =
        std::env::var("VERIFY_CLAIM_REQUIRE_ORACLE").is_ok_and(|v| !v.is_empty() && v != "0");
    let pzstd = Command::new("pzstd")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !required && !pzstd {
        println!("cargo::rustc-cfg=no_pzstd");
    }
}
