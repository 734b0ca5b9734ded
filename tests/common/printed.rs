//! A page as it is printed: headless Chromium prints it to an A4 PDF
//! (`--print-to-pdf`, no browser header or footer) and dumps its DOM;
//! poppler's `pdftotext` reads a printed page's text back. The PDFs stay in
//! `target/tmp/printed/` to look at (`pdftoppm -png`).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::harness::Need;

/// A program on the PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// Chromium: `$VERIFY_CLAIM_CHROMIUM`, else `chromium`,
/// `chromium-browser` or `google-chrome` on the PATH.
pub fn find_chromium() -> Option<PathBuf> {
    std::env::var_os("VERIFY_CLAIM_CHROMIUM")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .or_else(|| {
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .find_map(|n| on_path(n))
        })
}

/// What printing needs: Chromium, and poppler-utils to read pages back.
pub const PRINTING: Need = Need {
    what: "Chromium and poppler-utils",
    check: || match (find_chromium(), on_path("pdftotext")) {
        (Some(_), Some(_)) => Ok(()),
        (None, _) => Err("Chromium not installed (apt-get install chromium)".into()),
        (_, None) => Err("pdftotext not installed (apt-get install poppler-utils)".into()),
    },
};

/// A page printed: its DOM as Chromium built it, and each printed page's
/// text.
pub struct Printed {
    pub dom: String,
    pub pages: Vec<String>,
}

/// Saves `html` as `name.html`, prints it to `name.pdf` and reads it back.
pub fn print(name: &str, html: &str) -> Printed {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("printed");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join(format!("{name}.html"));
    std::fs::write(&page, html).unwrap();
    let chrome = find_chromium().expect("Chromium: list this test with PRINTING");
    let chrome_run = |extra: &str| {
        let out = Command::new(&chrome)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-pdf-header-footer",
            ])
            .arg(format!(
                "--user-data-dir={}",
                dir.join(format!("profile-{name}")).display()
            ))
            .arg(extra)
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("run chromium");
        assert!(out.status.success(), "{name}: chromium failed");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let dom = chrome_run("--dump-dom");
    let pdf = dir.join(format!("{name}.pdf"));
    chrome_run(&format!("--print-to-pdf={}", pdf.display()));
    let text = Command::new("pdftotext")
        .args(["-layout"])
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("run pdftotext");
    assert!(text.status.success(), "{name}: pdftotext failed");
    // pdftotext ends each page with a form feed.
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_owned).collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    Printed { dom, pages }
}
