//! The integration tests whose needs (../shared, python-chess, Chromium,
//! a shell) a machine may lack: one `harness = false` target, whose harness
//! (tests/common/harness.rs) shows each test that cannot run here as
//! ignored (or fails it under VERIFY_CLAIM_REQUIRE_ORACLE). The files stay
//! where they were, one module each.

#[path = "../common/mod.rs"]
mod common;

#[path = "../annotate.rs"]
mod annotate;
#[path = "../appeal_report.rs"]
mod appeal_report;
#[path = "../cli_conventions.rs"]
mod cli_conventions;
#[path = "../completions.rs"]
mod completions;
#[path = "../desk/main.rs"]
mod desk;
#[path = "../html.rs"]
mod html;
#[path = "../per_game.rs"]
mod per_game;
#[path = "../pipeline.rs"]
mod pipeline;
#[path = "../scan.rs"]
mod scan;
#[path = "../scan_oracle.rs"]
mod scan_oracle;
#[path = "../scan_trust.rs"]
mod scan_trust;
#[path = "../sheets.rs"]
mod sheets;
#[path = "../skips.rs"]
mod skips;
#[path = "../watch/main.rs"]
mod watch;

fn main() -> std::process::ExitCode {
    if let Some(status) = skips::inner_suite() {
        return status;
    }
    let tests = [
        annotate::tests(),
        appeal_report::tests(),
        cli_conventions::tests(),
        html::tests(),
        per_game::tests(),
        pipeline::tests(),
        scan::tests(),
        scan_oracle::tests(),
        scan_trust::tests(),
        sheets::tests(),
        skips::tests(),
        desk::tests(),
        watch::tests(),
    ]
    .into_iter()
    .flatten()
    .collect();
    common::harness::run_with(tests, completions::trials())
}
