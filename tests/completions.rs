//! Completion as each shell runs it: for every subcommand, `--<TAB>`
//! offers each of its long options and `--opt <TAB>` each of an option's
//! values (and `<TAB>` a positional argument's), in bash (`COMP_WORDS`,
//! `COMP_CWORD`, the completion function, `COMPREPLY`), zsh (an
//! interactive shell on a pseudo-terminal, `tests/completions/capture.zsh`)
//! and fish (`complete -C`). The options and values expected are read from
//! each subcommand's `-h`. A shell that is not installed shows as an
//! ignored test, not a pass.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};

const BIN: &str = env!("CARGO_BIN_EXE_verify-claim");
const SUBCOMMANDS: &[&str] = &[
    "claim",
    "scan",
    "watch",
    "desk",
    "check-position",
    "perft",
    "completions",
    "man",
];

/// One thing to complete: the words before the cursor, the word being
/// completed, and what must be offered.
struct Query {
    words: Vec<String>,
    current: String,
    expected: Vec<String>,
}

/// The long options of `sub` and the values of each option and positional
/// argument that has a fixed set, from its `-h`.
fn queries(sub: &str) -> Vec<Query> {
    let help = Command::new(BIN)
        .args([sub, "-h"])
        .output()
        .expect("run -h");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let mut options = Vec::new();
    let mut out = Vec::new();
    for line in help.lines().map(str::trim_start) {
        let line_opt = line.strip_prefix("-h, ").unwrap_or(line);
        let values = line
            .split("[possible values: ")
            .nth(1)
            .and_then(|v| v.split(']').next());
        let values: Vec<String> = values
            .map(|v| v.split(", ").map(str::to_owned).collect())
            .unwrap_or_default();
        let before = |words: &[&str]| {
            let mut w = vec!["verify-claim".to_owned(), sub.to_owned()];
            w.extend(words.iter().map(|s| s.to_string()));
            w
        };
        if let Some(rest) = line_opt.strip_prefix("--") {
            let name = rest.split([' ', ',']).next().unwrap_or("").to_owned();
            if !values.is_empty() {
                let opt = format!("--{name}");
                out.push(Query {
                    words: before(&[&opt]),
                    current: String::new(),
                    expected: values,
                });
            }
            options.push(format!("--{name}"));
        } else if line.starts_with('<') && !values.is_empty() {
            out.push(Query {
                words: before(&[]),
                current: String::new(),
                expected: values,
            });
        }
    }
    assert!(options.contains(&"--help".to_owned()), "{sub}: {help}");
    out.push(Query {
        words: vec!["verify-claim".into(), sub.into()],
        current: "--".into(),
        expected: options,
    });
    out
}

/// A file as the first word is a claim (`verify-claim game.pgn --move
/// Nf3`, the README's main use): files are offered as the first word, with
/// the subcommands, and after a file each of `claim`'s options and values.
fn file_first_queries() -> Vec<Query> {
    const FILE: &str = "fixtures/chess/fools-mate.pgn";
    let mut out = vec![
        Query {
            words: vec!["verify-claim".into()],
            current: "fixtures/chess/fools".into(),
            expected: vec![FILE.into()],
        },
        Query {
            words: vec!["verify-claim".into()],
            current: "sc".into(),
            expected: vec!["scan".into()],
        },
    ];
    for q in queries("claim") {
        let mut words = q.words;
        words[1] = FILE.into();
        out.push(Query {
            words,
            current: q.current,
            expected: q.expected,
        });
    }
    out
}

fn installed(shell: &str) -> bool {
    Command::new(shell)
        .args(["-c", "exit 0"])
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success())
}

fn script(shell: &str, dir: &Path) -> PathBuf {
    let o = Command::new(BIN)
        .args(["completions", shell])
        .output()
        .expect("run completions");
    assert!(o.status.success());
    let name = match shell {
        "zsh" => "_verify-claim".to_owned(),
        other => format!("verify-claim.{other}"),
    };
    let path = dir.join(name);
    std::fs::write(&path, &o.stdout).expect("write the script");
    path
}

/// Runs `cmd`, killing it if it is still running after a minute (a hang
/// is a failure, not a wait).
fn output(mut cmd: Command) -> Result<String, Failed> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run the shell: {e}"))?;
    let until = Instant::now() + Duration::from_secs(60);
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the shell still ran after 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// What the shell offers for `q`, one match a line.
fn complete(shell: &str, script: &Path, q: &Query) -> Result<Vec<String>, Failed> {
    let line = format!("{} {}", q.words.join(" "), q.current);
    let text = match shell {
        "bash" => {
            let words: Vec<String> = q
                .words
                .iter()
                .chain([&q.current])
                .map(|w| quote(w))
                .collect();
            let probe = format!(
                "source {}; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE={}; COMP_POINT=${{#COMP_LINE}}; \
                 f=$(complete -p verify-claim | sed -E 's/.*-F ([^ ]+).*/\\1/'); \
                 $f verify-claim {} {}; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
                quote(&script.display().to_string()),
                words.join(" "),
                q.words.len(),
                quote(&line),
                quote(&q.current),
                quote(q.words.last().map_or("", |w| w.as_str())),
            );
            let mut cmd = Command::new("bash");
            cmd.args(["--norc", "--noprofile", "-c", &probe]);
            output(cmd)?
        }
        "zsh" => {
            let capture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/completions/capture.zsh");
            let dir = script.parent().unwrap_or(Path::new("."));
            let mut cmd = Command::new("zsh");
            cmd.args(["-f", capture, &dir.display().to_string(), &line]);
            let raw = output(cmd)?;
            raw.split("MATCH:")
                .skip(1)
                .filter_map(|m| m.split(['\r', '\n']).next())
                .map(|m| format!("{m}\n"))
                .collect()
        }
        _ => {
            let probe = format!(
                "source {}; complete -C {}",
                quote(&script.display().to_string()),
                quote(&line)
            );
            let mut cmd = Command::new("fish");
            cmd.args(["--no-config", "-c", &probe]);
            // `match<TAB>description`
            output(cmd)?
                .lines()
                .map(|l| format!("{}\n", l.split('\t').next().unwrap_or("")))
                .collect()
        }
    };
    Ok(text.lines().map(|l| l.trim().to_owned()).collect())
}

fn check(shell: &'static str) -> Result<(), Failed> {
    // Removed when the check ends, passed or not (test runs leave nothing
    // in the temporary directory).
    let scratch = tempfile::Builder::new()
        .prefix(&format!("verify-claim-completions-{shell}-"))
        .tempdir()
        .map_err(|e| e.to_string())?;
    let dir = scratch.path();
    let script = script(shell, dir);
    let mut missing = Vec::new();
    let all = SUBCOMMANDS
        .iter()
        .flat_map(|sub| queries(sub))
        .chain(file_first_queries());
    for q in all {
        let offered = complete(shell, &script, &q)?;
        for e in &q.expected {
            // zsh offers a file's last part after the folder typed.
            let found = offered
                .iter()
                .any(|o| o == e || e.ends_with(&format!("/{o}")));
            if !found {
                missing.push(format!(
                    "`{} {}` does not offer {e} (offers {offered:?})",
                    q.words.join(" "),
                    q.current
                ));
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(missing.join("\n").into())
    }
}

/// One trial per shell, ignored where the shell is not installed.
pub fn trials() -> Vec<Trial> {
    ["bash", "zsh", "fish"]
        .into_iter()
        .map(|shell| {
            Trial::test(
                format!("completions::{shell}_completes_every_option_and_value"),
                move || check(shell),
            )
            .with_ignored_flag(!installed(shell))
        })
        .collect()
}
