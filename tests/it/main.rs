//! The integration tests that need nothing a machine may lack: one target
//! (one link of the binary and the library) with a module per area, as
//! ripgrep and uv keep theirs. The tests that need ../shared, python-chess
//! or Chromium are in `tests/needs` (their harness shows what is missing).

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod claim_report;
mod claims;
mod dead_cli;
mod dead_more;
#[cfg(unix)]
mod diag_kind;
mod docs_links;
mod draughts_claims;
mod output;
#[cfg(unix)]
mod paths;
mod reader_hostile;
mod reader_input;
mod scan_api;
mod sheet_cli;
mod snapshots;
mod zst_frames;

/// autotests is off (tests/*.rs are modules of `tests/needs`): a new file
/// there that no target names would never run, so this test says so.
#[test]
fn every_test_file_is_a_module_of_a_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let needs = std::fs::read_to_string(root.join("needs/main.rs")).unwrap();
    let it = std::fs::read_to_string(root.join("it/main.rs")).unwrap();
    for dir in [root.clone(), root.join("it")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.extension().is_none_or(|e| e != "rs") || stem == "main" {
                continue;
            }
            let module = format!("mod {stem};");
            assert!(
                needs.contains(&module) || it.contains(&module),
                "{} is in no test target: add `{module}` to tests/it/main.rs or tests/needs/main.rs",
                path.display()
            );
        }
    }
}
