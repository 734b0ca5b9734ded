//! The smaller subcommands: `perft`, `completions`, `man`.

use clap::Args;
use clap_complete::Shell;

use verify_claim::Diagnostic;
use verify_claim::game::column_draughts as cd;

use super::{ColumnRulesArg, GameTypeArg, Outcome};

/// Count the legal move sequences of a given length: the standard check of
/// a move generator.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies.
    pub depth: u32,
    #[arg(long, value_enum, default_value = "chess")]
    pub game_type: GameTypeArg,
    /// The position (chess FEN, or the tower FEN for column draughts); the
    /// start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
}

pub fn perft(args: &PerftArgs) -> Result<Outcome, Diagnostic> {
    let bad_fen = |m: String| Diagnostic::new("--fen", None, m);
    let n = match args.game_type {
        GameTypeArg::Chess => {
            let pos = match &args.fen {
                Some(f) => {
                    verify_claim::game::chess::unwinnable::position_from_fen(f).map_err(bad_fen)?
                }
                None => shakmaty::Chess::default(),
            };
            shakmaty::perft(&pos, args.depth)
        }
        GameTypeArg::ColumnDraughts => {
            let rules = args.column_rules.rules();
            let pos = match &args.fen {
                Some(f) => cd::fen::parse(f, rules).map_err(bad_fen)?,
                None => cd::Position::start(rules),
            };
            cd::perft(&pos, args.depth)
        }
    };
    Ok(Outcome::print(format!("{n}\n")))
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: Shell,
}

/// The completion script for `shell`.
pub fn completions(shell: Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut super::command(), "verify-claim", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// A subcommand's own page (`scan`, `claim`, ...); default: the
    /// top-level page, which lists them all.
    pub subcommand: Option<String>,
}

/// The manual page, in roff: the top-level one or a subcommand's.
pub fn man(args: &ManArgs) -> Result<String, Diagnostic> {
    let cmd = super::command();
    let page = match &args.subcommand {
        None => cmd,
        Some(name) => {
            let sub = cmd.find_subcommand(name).cloned().ok_or_else(|| {
                Diagnostic::new("verify-claim man", None, format!("no subcommand {name}"))
            })?;
            let full = format!("verify-claim-{name}");
            sub.name(full).bin_name(format!("verify-claim {name}"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut out)
        .map_err(|e| Diagnostic::new("verify-claim man", None, e.to_string()))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
