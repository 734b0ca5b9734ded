//! `verify-claim reconstruct SHEET [SHEET2]`: the game the scoresheets
//! record, read through their slips; and the scoresheet options of `claim`.

use clap::{Args, ValueEnum};

use verify_claim::{Diagnostic, ReconstructOptions, Sheet};

use super::{Auto, Outcome, auto_or};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReconstructFormat {
    /// What an arbiter reads: the game, the repairs, the discrepancies.
    Text,
    Json,
    /// The best reading as PGN, a comment at each repair.
    Pgn,
}

#[derive(Args, Debug)]
#[command(after_help = "Exit status: 0 a reading was made, 2 none could be (or the input is bad).")]
pub(crate) struct ReconstructArgs {
    /// The scoresheet (one row per move number; `-` for standard input).
    pub sheet: String,
    /// The other player's scoresheet of the same game.
    pub sheet2: Option<String>,
    #[command(flatten)]
    pub read: SheetReadArgs,
    /// How many readings to give, best first.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub candidates: usize,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReconstructFormat,
    /// The game of the sheets (auto: from a GameType tag or the first move).
    #[arg(long, value_parser = auto_or::<verify_claim::GameType>(), default_value = "auto")]
    pub game_type: Auto<verify_claim::GameType>,
    /// The position on the board (FEN) after a gap both sheets share (8.4,
    /// 8.5.1): say what the gap can still prove.
    #[arg(long, value_name = "FEN")]
    pub board: Option<String>,
    /// With --board: the moves White has made, as the clock counted them.
    #[arg(long, value_name = "N", requires = "board")]
    pub moves: Option<u32>,
}

/// How to read scoresheets (`reconstruct`, `claim --sheet`).
#[derive(Args, Debug, Clone)]
pub(crate) struct SheetReadArgs {
    /// The sheets' notation: auto (each sheet's own, from the whole sheet)
    /// or a code of Appendix C's table: en, ru, de, fr, es, it, nl, pl, cs,
    /// hu, sv, figurine.
    #[arg(long, value_name = "CODE", default_value = "auto")]
    pub notation: String,
}

/// Reads a sheet file (`-`: standard input).
pub(super) fn load(path: &str) -> Result<Sheet, Diagnostic> {
    use std::io::Read;
    let mut text = Vec::new();
    let res = if path == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_BYTES)
            .read_to_end(&mut text)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(MAX_BYTES).read_to_end(&mut text))
    };
    let name = if path == "-" { "<stdin>" } else { path };
    res.map_err(|e| {
        Diagnostic::new(
            verify_claim::DiagnosticKind::Io(e.kind()),
            name,
            None,
            format!("cannot read: {e}"),
        )
    })?;
    if text.len() as u64 >= MAX_BYTES {
        return Err(Diagnostic::new(
            verify_claim::DiagnosticKind::Limit,
            name,
            None,
            "over 4 MB: no game's scoresheet is this long",
        ));
    }
    Ok(Sheet {
        name: name.to_owned(),
        text,
    })
}

/// A scoresheet is read whole; no game's is near this size (6,000 rows of
/// long algebraic with marks are under 200 KB).
const MAX_BYTES: u64 = 4 << 20;

pub(super) fn run(args: &ReconstructArgs) -> Result<Outcome, Diagnostic> {
    let mut sheets = vec![load(&args.sheet)?];
    if let Some(s) = &args.sheet2 {
        sheets.push(load(s)?);
    }
    let opts = ReconstructOptions {
        notation: Some(args.read.notation.clone()),
        candidates: args.candidates.max(1),
        game_type: args.game_type,
        board: args.board.clone(),
        moves: args.moves,
        ..ReconstructOptions::default()
    };
    let rec = verify_claim::reconstruct(&sheets, &opts)?;
    let stdout = match args.format {
        ReconstructFormat::Text => rec.to_text(),
        ReconstructFormat::Json => format!("{}\n", rec.to_json()),
        ReconstructFormat::Pgn => rec.to_pgn(),
    };
    Ok(Outcome::print(stdout))
}
