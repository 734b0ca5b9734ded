//! The command line follows the conventions: subcommands, `help`,
//! completion scripts a shell accepts, a man page `man` renders. Without
//! `man` its test shows as ignored (tests/common/harness.rs).

use crate::common;

use common::harness::Need;
use std::process::{Command, Stdio};

/// `man`, which renders the page.
const MAN: Need = Need {
    what: "man",
    check: || match Command::new("man").arg("--version").output() {
        Ok(_) => Ok(()),
        Err(_) => Err("man is not installed".into()),
    },
};

fn vc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args(args)
        .output()
        .expect("run verify-claim")
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn help_lists_every_subcommand() {
    for args in [&["--help"][..], &["help"]] {
        let o = vc(args);
        assert!(o.status.success(), "{args:?}");
        let text = stdout(&o);
        for sub in [
            "claim",
            "reconstruct",
            "scan",
            "check-position",
            "perft",
            "completions",
            "man",
        ] {
            assert!(
                text.contains(&format!("  {sub} ")),
                "{sub} missing from {text}"
            );
        }
    }
    let o = vc(&["help", "scan"]);
    assert!(stdout(&o).contains("--fail-on"));
}

fn a_file_is_a_claim_and_claim_names_it_too() {
    let f = "fixtures/chess/threefold-written.pgn";
    let a = vc(&[f, "--move", "Ng8", "--format", "json"]);
    let b = vc(&["claim", f, "--move", "Ng8", "--format", "json"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    assert!(stdout(&a).contains("\"valid\":true"));
}

fn a_missing_file_is_an_error_with_its_name() {
    let o = vc(&["no-such-file.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("no-such-file.pgn: error:"));
}

fn bash_accepts_the_completion_script_and_completes_subcommands() {
    let o = vc(&["completions", "bash"]);
    assert!(o.status.success());
    // In a scratch file, removed when the test ends (passed or not).
    let script = common::temp_file("completion.bash", &o.stdout);
    // Load it, then ask the completion function what follows `verify-claim sc`.
    let probe = format!(
        "source {}; COMP_WORDS=(verify-claim sc); COMP_CWORD=1; COMP_LINE='verify-claim sc'; \
         COMP_POINT=${{#COMP_LINE}}; \
         f=$(complete -p verify-claim | sed -E 's/.*-F ([^ ]+).*/\\1/'); $f verify-claim sc verify-claim; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script
    );
    let out = Command::new("bash")
        .args(["--norc", "-c", &probe])
        .output()
        .expect("run bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The subcommand, and (the first word may be a claim's file) the
    // crate root's `scripts` folder.
    let offered = stdout(&out);
    let offered: Vec<&str> = offered.lines().collect();
    assert_eq!(offered, ["scan", "scripts"]);
}

fn every_shell_gets_a_script() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = vc(&["completions", shell]);
        assert!(o.status.success() && o.stdout.len() > 500, "{shell}");
        assert!(stdout(&o).contains("check-position"), "{shell}");
    }
}

fn man_renders_the_page() {
    for args in [&["man"][..], &["man", "scan"]] {
        let page = vc(args);
        assert!(page.status.success());
        let file = common::temp_file(&format!("vc-{}.1", args.len()), &page.stdout);
        let out = Command::new("man")
            .arg("-l")
            .arg(&file)
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "100")
            .stderr(Stdio::piped())
            .output()
            .expect("run man");
        let text = stdout(&out);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("SYNOPSIS"), "{text}");
        let expected = if args.len() == 1 {
            "check-position"
        } else {
            "--fail-on"
        };
        assert!(text.contains(expected), "{text}");
    }
}

crate::verify_claim_tests! {
    help_lists_every_subcommand,
    a_file_is_a_claim_and_claim_names_it_too,
    a_missing_file_is_an_error_with_its_name,
    bash_accepts_the_completion_script_and_completes_subcommands,
    every_shell_gets_a_script,
    man_renders_the_page: [MAN],
}
