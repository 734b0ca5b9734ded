//! The documentation holds together: every relative link of README.md,
//! CHANGELOG.md, ARCHITECTURE.md and docs/*.md leads to a file that exists
//! and, when it names a heading (`page.md#heading`), to a heading that
//! exists, as GitHub renders it; and the README stays a README (at most
//! 300 lines: the rest belongs in docs/).
//!
//! Hand-written on purpose: a Markdown parser would be a dependency for the
//! two things checked here (links outside code, and heading anchors), and
//! the documentation keeps to plain CommonMark.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

const README_MAX_LINES: usize = 300;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documentation files: the three at the root and every page in docs/.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut files: Vec<PathBuf> = ["README.md", "CHANGELOG.md", "ARCHITECTURE.md"]
        .iter()
        .map(|f| root.join(f))
        .collect();
    let mut pages: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    files.extend(pages);
    files
}

/// The lines of `text` outside code blocks: fenced blocks and lines
/// indented by four spaces or a tab are left out.
fn outside_code(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced && !line.starts_with("    ") && !line.starts_with('\t') {
            out.push((n + 1, line));
        }
    }
    out
}

/// The lines outside code (with their line numbers), inline code spans
/// blanked: the text links can be in.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    outside_code(text)
        .into_iter()
        .map(|(n, l)| (n, without_code_spans(l)))
        .collect()
}

fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    out
}

/// The link targets of one line: inline links and images `[text](target)`
/// and reference definitions `[name]: target`.
fn targets(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(end) = trimmed.find("]:")
    {
        let target = trimmed[end + 2..].split_whitespace().next().unwrap_or("");
        found.push(target.to_owned());
    }
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after
            .find(|c: char| c == ')' || c.is_whitespace())
            .unwrap_or(after.len());
        found.push(after[..end].trim_matches(['<', '>']).to_owned());
        rest = &after[end..];
    }
    found
}

/// GitHub's anchor for a heading: lower case, word characters, hyphens and
/// spaces kept (spaces become hyphens), everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code), with GitHub's
/// `-1`, `-2` suffixes for repeated ones.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, line) in outside_code(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// Every relative link in `text` (the contents of `file`) that leads
/// nowhere: a missing file, or a heading the target page does not have.
fn dead_links(file: &Path, text: &str) -> Vec<String> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut dead = Vec::new();
    for (n, line) in prose_lines(text) {
        for target in targets(&line) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let resolved = dir.join(path);
            let problem = if path.is_empty() {
                // A heading of this page.
                (!anchors(text).iter().any(|a| a == fragment)).then_some("no such heading")
            } else if !resolved.exists() {
                Some("no such file")
            } else if fragment.is_empty() || resolved.extension().is_none_or(|x| x != "md") {
                None
            } else {
                let page = fs::read_to_string(&resolved).unwrap_or_default();
                (!anchors(&page).iter().any(|a| a == fragment)).then_some("no such heading")
            };
            if let Some(why) = problem {
                dead.push(format!("{}:{n}: {target}: {why}", file.display()));
            }
        }
    }
    dead
}

#[test]
fn every_relative_link_resolves() {
    let mut dead = Vec::new();
    let mut checked = 0;
    for file in documents() {
        let text = fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{}: cannot read: {e}", file.display()));
        checked += prose_lines(&text)
            .iter()
            .map(|(_, l)| targets(l).len())
            .sum::<usize>();
        dead.extend(dead_links(&file, &text));
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser broken?"
    );
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}

#[test]
fn the_readme_is_short() {
    let text = fs::read_to_string(root().join("README.md")).unwrap_or_default();
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines (at most {README_MAX_LINES}): move the detail into docs/"
    );
}

#[test]
fn the_checker_finds_dead_links_and_anchors() {
    // A page that would sit in docs/, with links as the pages write them.
    let file = root().join("docs").join("imagined.md");
    let text = "# Imagined\n\n\
                [fine](claims.md) [fine too](claims.md#json-output) [self](#imagined)\n\
                [gone](no-such-page.md) [no heading](claims.md#no-such-heading)\n\
                ![picture](claim-report.png) [up](../README.md#where-to-go-next)\n\
                `[in code](nowhere.md)`\n\n    [indented code](nowhere.md)\n\n\
                [ref]: ../ARCHITECTURE.md\n[web](https://example.org/x.md)\n";
    let dead = dead_links(&file, text);
    assert_eq!(dead.len(), 2, "{dead:#?}");
    assert!(
        dead[0].contains("no-such-page.md: no such file"),
        "{dead:#?}"
    );
    assert!(
        dead[1].contains("claims.md#no-such-heading: no such heading"),
        "{dead:#?}"
    );
}

#[test]
fn anchors_are_githubs() {
    let text = "# Claim mode's memory\n## `check-position`\n## Column draughts (1.11)\n\
                ## Column draughts (1.11)\n## What `x` does\n```\n# not a heading\n```\n";
    assert_eq!(
        anchors(text),
        [
            "claim-modes-memory",
            "check-position",
            "column-draughts-111",
            "column-draughts-111-1",
            "what-x-does"
        ]
    );
}
