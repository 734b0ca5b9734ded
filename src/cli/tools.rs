//! The smaller subcommands: `perft`, `completions` (`man` is `man.rs`).

use clap::Args;
use clap_complete::Shell;

use crate::Diagnostic;
use crate::game::column_draughts as cd;

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
    /// One line per legal first move, `move: count` (chess moves in UCI
    /// form, `e2e4`; column draughts as recorded, `c3-d4`), then a blank
    /// line and the total.
    #[arg(long)]
    pub divide: bool,
}

/// Each legal first move with the count below it (depth 0: none).
type Divided = Vec<(String, u64)>;

fn chess_perft(pos: &shakmaty::Chess, depth: u32, divide: bool) -> (u64, Divided) {
    use shakmaty::{CastlingMode, Position};
    if !divide || depth == 0 {
        return (shakmaty::perft(pos, depth), Vec::new());
    }
    let lines: Divided = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let uci = m.to_uci(CastlingMode::Standard).to_string();
            (uci, shakmaty::perft(&after, depth - 1))
        })
        .collect();
    (lines.iter().map(|l| l.1).sum(), lines)
}

fn draughts_perft(pos: &cd::Position, depth: u32, divide: bool) -> (u64, Divided) {
    if !divide || depth == 0 {
        return (cd::perft(pos, depth), Vec::new());
    }
    let lines: Divided = cd::legal_moves(pos)
        .iter()
        .map(|m| {
            let mut after = pos.clone();
            cd::play(&mut after, m);
            (m.to_string(), cd::perft(&after, depth - 1))
        })
        .collect();
    (lines.iter().map(|l| l.1).sum(), lines)
}

pub fn perft(args: &PerftArgs) -> Result<Outcome, Diagnostic> {
    let bad_fen = |m: String| Diagnostic::new("--fen", None, m);
    let (n, mut lines) = match args.game_type {
        GameTypeArg::Chess => {
            let pos = match &args.fen {
                Some(f) => crate::game::chess::unwinnable::position_from_fen(f).map_err(bad_fen)?,
                None => shakmaty::Chess::default(),
            };
            chess_perft(&pos, args.depth, args.divide)
        }
        GameTypeArg::ColumnDraughts => {
            let rules = args.column_rules.rules();
            let pos = match &args.fen {
                Some(f) => cd::fen::parse(f, rules).map_err(bad_fen)?,
                None => cd::Position::start(rules),
            };
            draughts_perft(&pos, args.depth, args.divide)
        }
    };
    lines.sort();
    let mut out: String = lines.iter().map(|(m, c)| format!("{m}: {c}\n")).collect();
    if args.divide {
        out.push('\n');
    }
    out.push_str(&format!("{n}\n"));
    Ok(Outcome::print(out))
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
    let script = String::from_utf8_lossy(&out).into_owned();
    if shell == Shell::Bash {
        // clap_complete 4.6 names the `case` branches of a hyphenated
        // binary `verify__subcmd__claim__...` but sets `cmd` to
        // `verify__claim__...`, so no branch matched and nothing after the
        // subcommand completed: the branches get the name `cmd` is given.
        return script.replace("verify__subcmd__claim", "verify__claim");
    }
    if shell == Shell::Fish {
        return script + &fish_positional_values();
    }
    script
}

/// clap_complete's fish script completes the values of options but not
/// those of a positional argument (`verify-claim completions <TAB>`): one
/// line each for those.
fn fish_positional_values() -> String {
    let cmd = super::command();
    let mut out = String::new();
    for sub in cmd.get_subcommands() {
        for arg in sub.get_positionals() {
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_owned())
                .collect();
            if !values.is_empty() {
                out.push_str(&format!(
                    "complete -c verify-claim -n \"__fish_verify_claim_using_subcommand {}\" -f -a \"{}\"\n",
                    sub.get_name(),
                    values.join(" ")
                ));
            }
        }
    }
    out
}
