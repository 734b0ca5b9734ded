//! Deciding one claim: from a record's bytes and the claim's options to a
//! [`ClaimReport`]. This is all the glue between the layers that claim mode
//! needs (which game of the file, which edition, which claim point); the
//! CLI and the Python binding are thin layers over [`decide`].

use crate::claims::{self, ClaimKind, ClaimRequest, Replay};
use crate::diag::{Diagnostic, DiagnosticKind};
use crate::game::column_draughts;
use crate::game::{Game, GameType, Search, Side, WithGame};
use crate::input::{self, Input, Selected};
use crate::laws::{Edition, Rulebook, TimeClass};
use crate::record::{Encoding, GameRecord};
use crate::report::ClaimReport;

use super::Stop;

/// What is claimed, where, and under which rules. `ClaimOptions::default()`
/// is a claim of any ground at the end of the record, by the player having
/// the move, under the edition in force on the game's date.
#[derive(Clone, Debug, Default)]
pub struct ClaimOptions {
    /// The move written on the scoresheet and not played (SAN, `g1-f3`,
    /// `0-0`, Russian piece letters; column draughts `c3-d4`).
    pub written_move: Option<String>,
    /// The claim point: after this recorded move (`31...Kg8`, `32.Nf3`).
    pub after: Option<String>,
    /// The claim point as plies from the start (ignored when `after` is set).
    pub ply: Option<usize>,
    /// Which game of a file of several (1-based); required when there are
    /// several.
    pub game: Option<usize>,
    /// The rule claimed (threefold, fifty moves, or any).
    pub claim: ClaimKind,
    /// Who claimed; only the player having the move may. `None`: that player.
    pub claimant: Option<Side>,
    /// The edition of the Laws; `None`: the one in force on the game's Date.
    pub rules: Option<Edition>,
    /// How tag values that are not UTF-8 are read.
    pub encoding: Encoding,
    /// How hard to look for a dead position (default: the full search).
    pub dead_search: DeadSearch,
    /// The game; `None`: from the GameType or Variant tag, chess otherwise.
    pub game_type: Option<GameType>,
    /// Column draughts: the reading of the re-jump rule.
    pub column_rules: column_draughts::Rules,
}

/// [`Search`] with claim mode's default (the full search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadSearch(pub Search);

impl Default for DeadSearch {
    fn default() -> DeadSearch {
        DeadSearch(Search::Full)
    }
}

/// Decides the claim in the record `bytes` (named `file` in messages).
///
/// Every problem, in the record or in the options, is a [`Diagnostic`] with
/// the file and, where the record is at fault, the line and column.
pub fn decide(file: &str, bytes: &[u8], opts: &ClaimOptions) -> Result<ClaimReport, Diagnostic> {
    check_game(file, opts.game)?;
    decide_selected(
        &input::select_from(file, bytes, opts.encoding, opts.game)?,
        opts,
    )
}

/// Decides the claim in the record at `path` (`-`: standard input;
/// compressed files by name or magic bytes). The input is read as a stream:
/// only the text that holds the chosen game is kept.
pub fn decide_file(path: &str, opts: &ClaimOptions) -> Result<ClaimReport, Diagnostic> {
    decide_path(std::path::Path::new(path), opts, &Stop::default())
}

/// [`decide_file`] for any path (a name that is not UTF-8 too, shown with
/// `\xHH` in messages), whose reading ends, as a read error, once `stop`
/// is set (a caller's interrupt: the Python binding's Ctrl-C). The claim
/// itself, once the game is read, is not stopped (it is bounded).
pub fn decide_path(
    path: &std::path::Path,
    opts: &ClaimOptions,
    stop: &Stop,
) -> Result<ClaimReport, Diagnostic> {
    let name = crate::input::walk::display_name(path);
    check_game(&name, opts.game)?;
    let selected = input::select_path(path, opts.encoding, opts.game, Some(stop.flag()))?;
    decide_selected(&selected, opts)
}

/// Like [`decide_file`], and also the decided game written back annotated
/// with the verdict (`--format pgn`): its text exactly as in the input,
/// with a `VerifyClaim` tag and comments at the claim point, the
/// occurrences of the position and where the game ended.
pub fn decide_file_pgn(
    path: &str,
    opts: &ClaimOptions,
) -> Result<(ClaimReport, Vec<u8>), Diagnostic> {
    check_game(path, opts.game)?;
    let selected = input::select(path, opts.encoding, opts.game)?;
    let report = decide_selected(&selected, opts)?;
    let record = selected.record()?;
    let annotation = crate::report::pgn::claim_annotation(&report);
    let text = crate::report::pgn::annotate_game(&selected.input.bytes, &record, &annotation);
    Ok((report, text))
}

fn decide_selected(selected: &Selected, opts: &ClaimOptions) -> Result<ClaimReport, Diagnostic> {
    let (input, index) = (&selected.input, selected.index);
    let record = selected.record()?;
    let more_notes = selected.notes(&record);
    let work = Decide {
        input,
        opts,
        index,
        record: &record,
        notes: more_notes,
    };
    let mut report = crate::game::dispatch_record(&record, opts.game_type, opts.column_rules, work)
        .map_err(|(o, m)| input.diag(DiagnosticKind::Syntax, o, m))??;
    if record.latin1 {
        report.encoding = "latin1";
    }
    Ok(report)
}

/// An error about the options (no place in the record).
fn error(input: &Input, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(DiagnosticKind::Option, &input.name, None, message)
}

/// Resolves `--after 31...Kg8` to the ply after that move.
fn resolve_after<G: Game>(replay: &Replay<G>, text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    let number: u32 = t[..digits].parse().map_err(|_| {
        format!("--after {text}: expected a numbered move such as 31...Kg8 or 32.Nf3")
    })?;
    let rest = &t[digits..];
    let dots = rest
        .chars()
        .take_while(|&c| c == '.' || c == '…')
        .collect::<String>();
    let side = match dots.as_str() {
        "." => Side::White,
        "..." | "…" | ".." => Side::Black,
        _ => {
            return Err(format!(
                "--after {text}: write 32.Nf3 for White's move or 31...Kg8 for Black's"
            ));
        }
    };
    let mv = rest[dots.len()..].trim();
    let mut seen = None;
    for (p, pos) in replay.positions().take(replay.len()).enumerate() {
        let pos = &pos;
        if G::move_number(pos) == number && G::side_to_move(pos) == side {
            if let Ok(m) = G::parse_written(pos, mv)
                && m == replay.moves[p]
            {
                return Ok(p + 1);
            }
            seen = Some(replay.label(p + 1));
        }
    }
    Err(match seen {
        Some(l) => format!("--after {text}: the game has {l} there, not {mv}"),
        None => format!(
            "--after {text}: the game has no move {number} for {}",
            side.title()
        ),
    })
}

/// A move number before a move ("56...Kh7", "32. Nf3"): the number, the
/// side its dots name, and the move; `None` when the text starts with no
/// numbered prefix (castling's `0-0` has no dot after its digit).
fn numbered(text: &str) -> Option<(u32, Side, &str)> {
    let t = text.trim();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    let number = t.get(..digits)?.parse().ok()?;
    let rest = t.get(digits..)?;
    let dots: String = rest.chars().take_while(|&c| c == '.' || c == '…').collect();
    let side = match dots.as_str() {
        "" => return None,
        "." => Side::White,
        _ => Side::Black,
    };
    Some((number, side, rest.get(dots.len()..)?.trim()))
}

/// The written move without a move number written before it, when the
/// number agrees with the claim point (the form `--after` takes); a number
/// that does not agree is an error saying whose move it is there.
fn written_at<'t, G: Game>(pos: &G::Position, text: &'t str) -> Result<&'t str, String> {
    let Some((number, side, mv)) = numbered(text) else {
        return Ok(text);
    };
    let (here, to_move) = (G::move_number(pos), G::side_to_move(pos));
    if (number, side) == (here, to_move) {
        return Ok(mv);
    }
    let dots = |s: Side| if s == Side::White { "." } else { "..." };
    Err(format!(
        "--move {text}: the claim point is before {}'s move {here} ({here}{}{mv}), not {}'s move {number}",
        to_move.title(),
        dots(to_move),
        side.title()
    ))
}

/// `--game 0`: games are counted from 1.
fn check_game(file: &str, game: Option<usize>) -> Result<(), Diagnostic> {
    match game {
        Some(0) => Err(Diagnostic::new(
            DiagnosticKind::Option,
            file,
            None,
            "--game 0: games are counted from 1 (the first game of the file is --game 1)",
        )),
        _ => Ok(()),
    }
}

/// The claim point: `after`, else `ply`, else the end of the record.
fn claim_point<G: Game>(replay: &Replay<G>, opts: &ClaimOptions) -> Result<usize, String> {
    match (&opts.after, opts.ply) {
        (Some(a), _) => resolve_after(replay, a),
        (None, Some(p)) if p <= replay.len() => Ok(p),
        (None, Some(p)) => Err(format!(
            "--ply {p}: the game has only {} plies",
            replay.len()
        )),
        (None, None) => Ok(replay.len()),
    }
}

/// "rapid play, by the TimeControl tag", when the tag says.
fn time_note(time: Option<TimeClass>) -> Option<String> {
    let class = match time? {
        TimeClass::Standard => "standard",
        TimeClass::Rapid => "rapid",
        TimeClass::Blitz => "blitz",
    };
    Some(format!("{class} play, by the TimeControl tag"))
}

/// White, Black, Event and Round as the report shows them.
fn tags_of(record: &GameRecord<'_>) -> (String, String, Option<String>, Option<String>) {
    let shown = |t: &str| {
        record
            .tag(t)
            .filter(|e| !e.is_empty() && *e != "?" && *e != "-")
            .map(str::to_owned)
    };
    (
        record.tag("White").unwrap_or("?").to_owned(),
        record.tag("Black").unwrap_or("?").to_owned(),
        shown("Event"),
        shown("Round"),
    )
}

/// A claim in one record, decided by the engine of its game.
struct Decide<'a, 'r> {
    input: &'a Input,
    opts: &'a ClaimOptions,
    index: usize,
    record: &'a GameRecord<'r>,
    /// What the input says about the record (its encoding, the game chosen).
    notes: Vec<String>,
}

impl WithGame for Decide<'_, '_> {
    type Output = Result<ClaimReport, Diagnostic>;
    fn with<G: Game>(self, variant: G::Variant) -> Self::Output {
        let date = self.record.tag("Date");
        let (rules, note) = Rulebook::for_game(G::TYPE, self.opts.rules, date);
        let notes = note.into_iter().chain(self.notes).collect();
        let (input, opts) = (self.input, self.opts);
        decide_game::<G>(input, opts, self.index, self.record, variant, rules, notes)
    }
}

fn decide_game<G: Game>(
    input: &Input,
    opts: &ClaimOptions,
    index: usize,
    record: &GameRecord<'_>,
    variant: G::Variant,
    rules: Rulebook,
    more_notes: Vec<String>,
) -> Result<ClaimReport, Diagnostic> {
    let (start, mut notes) = G::start_position(record, variant)
        .map_err(|(o, m)| input.diag(DiagnosticKind::Syntax, o, m))?;
    let replay = Replay::<G>::new(start, &record.moves).map_err(|e| {
        let kind = if e.syntax {
            DiagnosticKind::Syntax
        } else {
            DiagnosticKind::IllegalMove
        };
        input.diag(kind, e.offset, e.message)
    })?;
    notes.extend(more_notes);
    let time = TimeClass::from_tag(record.tag("TimeControl"));
    notes.extend(time_note(time));
    let ply = claim_point(&replay, opts).map_err(|m| error(input, m))?;
    let pos = replay.position(ply);
    // A claim by the player not having the move reads no written move.
    let wrong_side = opts.claimant.is_some_and(|c| c != G::side_to_move(&pos));
    let written = match opts.written_move.as_deref() {
        Some(w) if !wrong_side => Some(written_at::<G>(&pos, w).map_err(|m| error(input, m))?),
        w => w,
    };
    let req = ClaimRequest {
        ply,
        written,
        kind: opts.claim,
        claimant: opts.claimant,
        dead_search: opts.dead_search.0,
        scope: claims::Scope::Report,
    };
    let mut verdict = claims::decide(&replay, &rules, time, &req).map_err(|e| {
        let at = match ply {
            0 => "the start".to_owned(),
            _ => replay.label(ply),
        };
        let written = opts.written_move.as_deref().unwrap_or("");
        let fen = G::fen(&replay.position(ply));
        error(
            input,
            format!("--move {written}: {e} (position after {at}: {fen})"),
        )
    })?;
    // The report shows the helpmates: as short as the search finds them.
    let at = replay.position(ply);
    verdict.dead_check = verdict.dead_check.shown::<G>(&at);
    let tags = tags_of(record);
    let clocks = crate::report::clocks::at(&replay, &input.bytes, record.end, ply);
    let mut report = ClaimReport::new(&input.name, index, &rules, tags, &replay, verdict, notes)
        .with_clocks(clocks);
    report.date = record
        .tag("Date")
        .filter(|d| !d.is_empty() && !d.starts_with('?'))
        .map(str::to_owned);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str =
        "[White \"a\"]\n[Black \"b\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n";

    fn claim(opts: &ClaimOptions) -> Result<ClaimReport, String> {
        decide("t.pgn", GAME.as_bytes(), opts).map_err(|d| d.message)
    }

    #[test]
    fn a_move_number_before_the_written_move_is_read_when_it_agrees() {
        let opts = ClaimOptions {
            written_move: Some("4...Ng8".to_owned()),
            ..ClaimOptions::default()
        };
        let r = claim(&opts).map(|r| (r.verdict.valid(), r.verdict.written_move));
        assert_eq!(r, Ok((true, Some("Ng8".to_owned()))));
    }

    #[test]
    fn a_move_number_that_disagrees_says_whose_move_it_is() {
        let opts = ClaimOptions {
            written_move: Some("5.Ng8".to_owned()),
            ..ClaimOptions::default()
        };
        let e = claim(&opts).map(|_| ());
        assert_eq!(
            e,
            Err("--move 5.Ng8: the claim point is before Black's move 4 (4...Ng8), not White's move 5".to_owned())
        );
    }

    #[test]
    fn castling_written_with_zeros_is_no_move_number() {
        assert_eq!(numbered("0-0"), None);
        assert_eq!(numbered("56...Kh7"), Some((56, Side::Black, "Kh7")));
        assert_eq!(numbered("32. Nf3"), Some((32, Side::White, "Nf3")));
    }

    #[test]
    fn game_zero_says_games_count_from_one() {
        let opts = ClaimOptions {
            game: Some(0),
            ..ClaimOptions::default()
        };
        let e = claim(&opts).map(|_| ());
        assert_eq!(
            e,
            Err(
                "--game 0: games are counted from 1 (the first game of the file is --game 1)"
                    .to_owned()
            )
        );
    }
}
