//! Links `src/closed_stdout.c` into the binary (see that file). The
//! library's own build script (crates/verify-claim/build.rs) decides which
//! of its corpus tests can run here.

fn main() {
    closed_stdout();
}

/// Links `src/closed_stdout.c` (a constructor that runs before the Rust
/// runtime: see that file) into the binary, on Unix. Only the binary: the
/// object is given to the linker directly, so it is kept although nothing
/// names it, and the library (Python's module, the fuzz targets) never
/// has it.
fn closed_stdout() {
    println!("cargo::rerun-if-changed=src/closed_stdout.c");
    if std::env::var_os("CARGO_CFG_UNIX").is_none() {
        return;
    }
    let objects = cc::Build::new()
        .file("src/closed_stdout.c")
        .warnings(true)
        .compile_intermediates();
    for o in objects {
        println!("cargo::rustc-link-arg-bins={}", o.display());
    }
}
