//! The smaller subcommands: `perft`, `completions` (`man` is `man.rs`).

use clap::Args;
use clap_complete::Shell;

use column_draughts as cd;
use verify_claim::Diagnostic;

use verify_claim::{ColumnRules, GameType};

use super::{Outcome, named};

/// Count the legal move sequences of a given length: the standard check of
/// a move generator.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    /// Plies.
    pub depth: u32,
    #[arg(long, value_parser = named::<GameType>(), default_value = "chess")]
    pub game_type: GameType,
    /// The position (chess FEN, or the tower FEN for column draughts); the
    /// start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_parser = named::<ColumnRules>(), default_value = "standard")]
    pub column_rules: ColumnRules,
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

pub(super) fn perft(args: &PerftArgs) -> Result<Outcome, Diagnostic> {
    let bad_fen =
        |m: String| Diagnostic::new(verify_claim::DiagnosticKind::Syntax, "--fen", None, m);
    let (n, mut lines) = match args.game_type {
        GameType::Chess => {
            let pos = match &args.fen {
                Some(f) => verify_claim::chess_position(f).map_err(bad_fen)?,
                None => shakmaty::Chess::default(),
            };
            chess_perft(&pos, args.depth, args.divide)
        }
        GameType::ColumnDraughts => {
            let rules = args.column_rules;
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
pub(crate) struct CompletionsArgs {
    /// The shell.
    pub shell: Shell,
}

/// The completion script for `shell`.
pub(super) fn completions(shell: Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut super::command(), "verify-claim", &mut out);
    let script = String::from_utf8_lossy(&out).into_owned();
    let names = subcommand_names();
    match shell {
        Shell::Bash => {
            // clap_complete 4.6 names the `case` branches of a hyphenated
            // binary `verify__subcmd__claim__...` but sets `cmd` to
            // `verify__claim__...`, so no branch matched and nothing after
            // the subcommand completed: the branches get the name `cmd` is
            // given.
            script.replace("verify__subcmd__claim", "verify__claim") + &bash_file_first(&names)
        }
        Shell::Zsh => zsh_file_first(&script, &names),
        Shell::Fish => {
            script.clone() + &fish_positional_values() + &fish_file_first(&script, &names)
        }
        _ => script,
    }
}

/// The subcommands and `help`, space-separated: a first word that is none
/// of them (nor an option) is a claim's record (`verify-claim game.pgn`).
fn subcommand_names() -> String {
    let cmd = super::command();
    let mut names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
    names.push("help");
    names.join(" ")
}

// clap_complete knows subcommands, not a default one: the scripts below,
// written by hand for that reason, complete files as the first word (with
// the subcommands) and, after a file, what `claim` completes.

/// bash: a wrapper around clap's function that reads `FILE ...` as
/// `claim FILE ...`, and adds files to the first word's subcommands.
fn bash_file_first(names: &str) -> String {
    format!(
        r#"
# A file as the first word is a claim (verify-claim game.pgn --move Nf3).
_verify__claim__file__first() {{
    local first="${{COMP_WORDS[1]}}"
    if [[ ${{COMP_CWORD}} -gt 1 && -n "$first" && "$first" != -* && " {names} " != *" $first "* ]]; then
        COMP_WORDS=("${{COMP_WORDS[0]}}" claim "${{COMP_WORDS[@]:1}}")
        COMP_CWORD=$((COMP_CWORD + 1))
        _verify__claim "$@"
        return
    fi
    _verify__claim "$@"
    if [[ ${{COMP_CWORD}} -eq 1 && "$2" != -* ]]; then
        local IFS=$'
'
        COMPREPLY+=($(compgen -f -- "$2"))
    fi
}}
complete -F _verify__claim__file__first -o bashdefault -o default verify-claim
"#
    )
}

/// zsh: clap's `_verify-claim` kept as `_verify-claim_clap`, and a new
/// `_verify-claim` around it (defined before the script's last lines,
/// which call it or register it).
fn zsh_file_first(script: &str, names: &str) -> String {
    let wrapper = format!(
        r#"# A file as the first word is a claim (verify-claim game.pgn --move Nf3).
functions[_verify-claim_clap]=$functions[_verify-claim]
_verify-claim() {{
    local -a subcommands; subcommands=({names})
    if (( CURRENT > 2 )) && [[ $words[2] != -* ]] && (( ! ${{subcommands[(Ie)$words[2]]}} )); then
        words=($words[1] claim "${{(@)words[2,-1]}}")
        (( CURRENT += 1 ))
        _verify-claim_clap "$@"
        return
    fi
    local ret=1
    _verify-claim_clap "$@" && ret=0
    if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
        _files && ret=0
    fi
    return ret
}}

"#
    );
    let tail = r#"if [ "$funcstack[1]" = "_verify-claim" ]; then"#;
    match script.rfind(tail) {
        Some(i) => format!("{}{wrapper}{}", &script[..i], &script[i..]),
        None => script.to_owned(),
    }
}

/// fish: files offered as the first word, and each of `claim`'s
/// completions again under a condition that is true after a file.
fn fish_file_first(script: &str, names: &str) -> String {
    let claim = r#""__fish_verify_claim_using_subcommand claim""#;
    let mut out = format!(
        r#"# A file as the first word is a claim (verify-claim game.pgn --move Nf3).
function __fish_verify_claim_file_first
    set -l cmd (commandline -opc)
    set -e cmd[1]
    set -q cmd[1]; or return 1
    string match -q -- '-*' $cmd[1]; and return 1
    not contains -- $cmd[1] {names}
end
complete -c verify-claim -n "__fish_verify_claim_needs_command" -F
"#
    );
    for entry in fish_entries(script).filter(|e| e.contains(claim)) {
        out.push_str(&entry.replace(claim, r#""__fish_verify_claim_file_first""#));
        out.push('\n');
    }
    out
}

/// The `complete` commands of a fish script, each whole: a value list with
/// descriptions goes on over several lines inside its double quotes.
fn fish_entries(script: &str) -> impl Iterator<Item = String> + '_ {
    let mut lines = script.lines();
    std::iter::from_fn(move || {
        let first = lines.find(|l| l.starts_with("complete "))?;
        let mut entry = first.to_owned();
        let quotes = |t: &str| {
            let b = t.as_bytes();
            (0..b.len())
                .filter(|&i| b[i] == b'"' && (i == 0 || b[i - 1] != b'\\'))
                .count()
        };
        while quotes(&entry) % 2 == 1 {
            let Some(next) = lines.next() else { break };
            entry.push('\n');
            entry.push_str(next);
        }
        Some(entry)
    })
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
