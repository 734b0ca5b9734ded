//! `verify-claim man`: the manual pages, in roff. `verify-claim.1` lists
//! the subcommands; each has its own page, `verify-claim-SUB.1` (the names
//! the top page's SEE ALSO and COMMANDS point to), with EXAMPLES and EXIT
//! STATUS. `verify-claim man --dir DIR` writes them all, for packagers.

use std::path::{Path, PathBuf};

use clap::Args;
use roff::{Roff, bold, roman};

use verify_claim::Diagnostic;

#[derive(Args, Debug)]
pub(crate) struct ManArgs {
    /// A subcommand's own page (`scan`, `claim`, ...); default: the
    /// top-level page, which lists them all.
    #[arg(conflicts_with = "dir")]
    pub subcommand: Option<String>,
    /// Write every page into DIR (`verify-claim.1`, `verify-claim-SUB.1`
    /// for each subcommand) and list the files written on stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// A page's examples (command, what it does) and exit statuses.
struct Extra {
    examples: &'static [(&'static str, &'static str)],
    exit: &'static [(&'static str, &'static str)],
}

const CLAIM_EXIT: &[(&str, &str)] = &[
    ("0", "the claim is valid"),
    ("1", "the claim is not valid"),
    (
        "2",
        "the question could not be answered: a bad record, option or file, or output that could not be written",
    ),
];

/// Each page's examples and exit statuses; the last is the top page's.
const PAGES: &[(&str, Extra)] = &[
    (
        "claim",
        Extra {
            examples: &[
                (
                    "verify-claim game.pgn --move Nf3",
                    "a threefold or fifty-move claim with the written move Nf3, after the last recorded move",
                ),
                (
                    "verify-claim claim event.pgn --game 3 --after 31...Kg8 --claim threefold",
                    "game 3 of the file, claimed after Black's 31st move",
                ),
                (
                    "verify-claim game.pgn --format html > appeal.html",
                    "the appeal report, a printable page with diagrams",
                ),
            ],
            exit: CLAIM_EXIT,
        },
    ),
    (
        "scan",
        Extra {
            examples: &[
                (
                    "verify-claim scan archive/",
                    "every .pgn, .pgn.zst, .pgn.gz and .pgn.bz2 below archive/",
                ),
                (
                    "verify-claim scan games.pgn.zst --format jsonl --fail-on never",
                    "one JSON object per finding; status 0 whatever is found",
                ),
                (
                    "verify-claim scan games.pgn.zst --per-game --format csv > games.csv",
                    "one row per game: tags, first claimable plies, how the Laws ended it, clocks, errors",
                ),
                (
                    "verify-claim scan games.pgn --format github",
                    "workflow annotations of the warnings and errors, and a last line saying what was left out",
                ),
            ],
            exit: &[
                (
                    "0",
                    "no finding at or above --fail-on; also when the output was closed by its reader (| head)",
                ),
                ("1", "a finding at or above --fail-on"),
                (
                    "2",
                    "an input could not be read, no input held a game, or the output could not be written",
                ),
            ],
        },
    ),
    (
        "watch",
        Extra {
            examples: &[
                (
                    "verify-claim watch live/",
                    "follow every .pgn and .pdn below live/, new ones included",
                ),
                (
                    "verify-claim watch round5.pgn --format jsonl",
                    "one JSON object per event",
                ),
            ],
            exit: &[
                ("0", "stopped by Ctrl-C (a summary is said on stderr)"),
                ("2", "bad options, or output that could not be written"),
            ],
        },
    ),
    (
        "desk",
        Extra {
            examples: &[
                (
                    "verify-claim desk",
                    "the arbiter's desk at http://127.0.0.1:8041/desk (the URL is printed)",
                ),
                (
                    "verify-claim desk 0.0.0.0:8041 --token generate",
                    "reachable from a phone on the same network, with the token in the printed URL",
                ),
            ],
            exit: &[
                ("0", "stopped by Ctrl-C"),
                ("2", "bad options, or the address cannot be served"),
            ],
        },
    ),
    (
        "check-position",
        Extra {
            examples: &[
                (
                    "verify-claim check-position --fen '8/8/8/4k3/8/8/8/4KB2 w - - 0 1'",
                    "a dead position: neither side can checkmate",
                ),
                (
                    "verify-claim check-position --fen FEN --side white --format json",
                    "can White still checkmate (the flag-fall question of 6.9)",
                ),
            ],
            exit: &[
                ("0", "answered (even if undetermined)"),
                ("2", "a bad FEN or option"),
            ],
        },
    ),
    (
        "perft",
        Extra {
            examples: &[
                (
                    "verify-claim perft 5",
                    "4865609: the move sequences of 5 plies from the chess start position",
                ),
                (
                    "verify-claim perft 3 --divide",
                    "one line per first move (a2a3: 380, ...), then the total",
                ),
                ("verify-claim perft 5 --game-type column-draughts", "7482"),
            ],
            exit: &[("0", "counted"), ("2", "a bad FEN or option")],
        },
    ),
    (
        "completions",
        Extra {
            examples: &[
                (
                    "source <(verify-claim completions bash)",
                    "completion in the running bash",
                ),
                (
                    "verify-claim completions zsh > \"${fpath[1]}/_verify-claim\"",
                    "for zsh",
                ),
                (
                    "verify-claim completions fish > ~/.config/fish/completions/verify-claim.fish",
                    "for fish",
                ),
            ],
            exit: &[
                ("0", "written"),
                ("2", "an unknown shell, or output that could not be written"),
            ],
        },
    ),
    (
        "reconstruct",
        Extra {
            examples: &[
                (
                    "verify-claim reconstruct white.txt black.txt",
                    "the game both players' scoresheets record, through their slips",
                ),
                (
                    "verify-claim reconstruct sheet.txt --format pgn > game.pgn",
                    "the best reading as PGN, a comment at each repair",
                ),
                (
                    "verify-claim claim --sheet black.txt --sheet white.txt",
                    "a claim decided on the reading of the sheets",
                ),
            ],
            exit: &[
                ("0", "a reading was made"),
                (
                    "2",
                    "no game explains the sheets, or a bad sheet, option or file, or output that could not be written",
                ),
            ],
        },
    ),
    (
        "man",
        Extra {
            examples: &[
                ("verify-claim man | man -l -", "read this manual"),
                (
                    "verify-claim man scan | man -l -",
                    "the page of one subcommand",
                ),
                (
                    "verify-claim man --dir \"$pkgdir/usr/share/man/man1\"",
                    "every page, for a package",
                ),
            ],
            exit: &[
                ("0", "written"),
                (
                    "2",
                    "an unknown subcommand, a folder that cannot be written, or output that could not be written",
                ),
            ],
        },
    ),
    (
        "",
        Extra {
            examples: &[
                (
                    "verify-claim game.pgn --move Nf3",
                    "decide a claim (claim is the default subcommand)",
                ),
                (
                    "verify-claim scan archive/ --format csv > findings.csv",
                    "check a whole archive",
                ),
                (
                    "verify-claim watch live/",
                    "follow the games of a round while they are played",
                ),
            ],
            exit: &[
                ("0", "success (claim: the claim is valid)"),
                (
                    "1",
                    "claim: the claim is not valid; scan: a finding at or above --fail-on",
                ),
                (
                    "2",
                    "an error: bad options or input, or output that could not be written (a reader that closed the pipe is not an error: status 0)",
                ),
            ],
        },
    ),
];

fn extra(name: &str) -> &'static Extra {
    let top = &PAGES[PAGES.len() - 1].1;
    PAGES.iter().find(|p| p.0 == name).map_or(top, |p| &p.1)
}

/// The EXAMPLES and EXIT STATUS sections.
fn extra_sections(name: &str) -> String {
    let extra = extra(name);
    let mut roff = Roff::new();
    roff.control("SH", ["EXAMPLES"]);
    for (command, what) in extra.examples {
        roff.control("TP", [])
            .text([bold(*command)])
            .text([roman(*what)]);
    }
    roff.control("SH", ["EXIT STATUS"]);
    for (status, meaning) in extra.exit {
        roff.control("TP", [])
            .text([bold(*status)])
            .text([roman(*meaning)]);
    }
    roff.to_roff()
}

/// The clap command with its subcommands named as their pages are
/// (`verify-claim-scan`), without the `help` subcommand.
fn built() -> clap::Command {
    let mut cmd = super::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// One page, `name` a subcommand or `None` for the top page.
fn page(cmd: &clap::Command, name: Option<&str>) -> Result<(String, Vec<u8>), Diagnostic> {
    let fail = |kind, m: String| Diagnostic::new(kind, "verify-claim man", None, m);
    let page = match name {
        None => cmd.clone(),
        Some(n) => cmd.find_subcommand(n).cloned().ok_or_else(|| {
            fail(
                verify_claim::DiagnosticKind::Option,
                format!("no subcommand {n}"),
            )
        })?,
    };
    let version = cmd.get_version().unwrap_or_default();
    let man = clap_mangen::Man::new(page).source(format!("verify-claim {version}"));
    let mut out = Vec::new();
    man.render(&mut out)
        .map_err(|e| fail(verify_claim::DiagnosticKind::Io(e.kind()), e.to_string()))?;
    out.extend_from_slice(extra_sections(name.unwrap_or("")).as_bytes());
    Ok((man.get_filename(), out))
}

/// The page asked for, or with `--dir` every page written there (their
/// paths are the output).
pub(super) fn man(args: &ManArgs) -> Result<String, Diagnostic> {
    let cmd = built();
    let Some(dir) = &args.dir else {
        let (_, text) = page(&cmd, args.subcommand.as_deref())?;
        return Ok(String::from_utf8_lossy(&text).into_owned());
    };
    let names = std::iter::once(None).chain(cmd.get_subcommands().map(|s| Some(s.get_name())));
    let mut listed = String::new();
    for name in names {
        let (file, text) = page(&cmd, name)?;
        let path = write_page(dir, &file, &text)?;
        listed.push_str(&format!("{}\n", path.display()));
    }
    Ok(listed)
}

fn write_page(dir: &Path, file: &str, text: &[u8]) -> Result<PathBuf, Diagnostic> {
    let path = dir.join(file);
    std::fs::write(&path, text).map_err(|e| {
        Diagnostic::new(
            verify_claim::DiagnosticKind::Io(e.kind()),
            &path.display().to_string(),
            None,
            format!("cannot write the page: {e}"),
        )
    })?;
    Ok(path)
}
