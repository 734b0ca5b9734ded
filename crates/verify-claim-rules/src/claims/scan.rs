//! Scanning whole games for findings: where a draw could have been claimed,
//! where the game ended by itself, and whether the recorded result stands.
//!
//! This is the streaming counterpart of [`super::decide`]: one pass over the
//! moves, keeping only the positions since the last irreversible move (every
//! hash match confirmed by comparing positions), no move labels, and the
//! costly checks (move generation for "written move" claims) only where a
//! claim is possible at all. Written once, generic over [`Game`].

use crate::game::{Ending, Game, MoveError, Search, Side};
use crate::laws::{Edition, GameResult, Rulebook};
use crate::record::GameRecord;

mod history;
mod result;
mod stages;

use stages::{Ply, Scan};

column_draughts::named! {
    /// What a finding is about. The names (kebab-case) are part of the JSON
    /// schema.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Kind {
        /// The record cannot be read (an error, with its place).
        ParseError = "parse-error",
        /// A recorded move is not legal in its position.
        IllegalMove = "illegal-move",
        /// A threefold repetition could have been claimed (9.2).
        ThreefoldClaimable = "threefold-claimable",
        /// The fifty-move rule could have been claimed (9.3).
        FiftyMoveClaimable = "fifty-move-claimable",
        /// Column draughts: a draw by unchanged material could have been claimed.
        UnchangedMaterialClaimable = "unchanged-material-claimable",
        /// The fifth repetition ended the game as a draw (9.6.1).
        FivefoldRepetition = "fivefold-repetition",
        /// Seventy-five moves without capture or pawn move ended the game (9.6.2).
        SeventyFiveMove = "seventy-five-move",
        /// Neither side can mate with the material left (5.2.2).
        InsufficientMaterial = "insufficient-material",
        /// The game ended in checkmate (5.1.1).
        Checkmate = "checkmate",
        /// The game ended in stalemate (5.2.1).
        Stalemate = "stalemate",
        /// Column draughts: the side to move has no move and loses.
        NoMoves = "no-moves",
        /// No sequence of legal moves can end in mate (5.2.2).
        DeadPosition = "dead-position",
        /// A flag fell where the opponent cannot mate: a draw, not a loss (6.9).
        UnwinnableFlagFall = "unwinnable-flag-fall",
        /// A resignation recorded where the opponent cannot mate.
        UnwinnableResignation = "unwinnable-resignation",
        /// The Result tag and the movetext's termination marker disagree: the
        /// record states two results (`expected` is the Laws' result where
        /// they ended the game, else none).
        ResultTagMismatch = "result-tag-mismatch",
        /// The recorded result is not the one the Laws give.
        ResultMismatch = "result-mismatch",
        /// Moves recorded after the game had ended.
        MovesAfterEnd = "moves-after-end",
        /// A draw agreed before `--min-draw-moves` (9.1.1).
        EarlyDrawAgreement = "early-draw-agreement",
        /// `--min-draw-moves`: a draw recorded with no moves (a forfeit, a
        /// pairing, moves never entered): not an early agreement, since
        /// nothing shows when it was agreed; a warning, for the scoresheet.
        NoMovesRecorded = "no-moves-recorded",
    }
}

impl Kind {
    /// How much a finding of this kind matters.
    pub fn severity(self) -> Severity {
        match self {
            Kind::ResultMismatch
            | Kind::ResultTagMismatch
            | Kind::IllegalMove
            | Kind::ParseError => Severity::Error,
            Kind::EarlyDrawAgreement | Kind::MovesAfterEnd | Kind::NoMovesRecorded => {
                Severity::Warning
            }
            _ => Severity::Info,
        }
    }
}

column_draughts::named! {
    /// How much a finding matters (`--fail-on`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub enum Severity {
        /// What the Laws say happened, nothing wrong.
        Info = "info",
        /// Worth a look (an early agreement, moves after the end).
        Warning = "warning",
        /// The record is wrong or unreadable.
        Error = "error",
    }
}

/// One finding in one game, placed by byte offset (the caller turns offsets
/// into lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: Kind,
    pub ply: usize,
    /// Offset of the move that produced the position (the game's start for
    /// ply 0), or of the error.
    pub offset: usize,
    pub side: Option<Side>,
    /// The move to write for a claim with a written move.
    pub mv: Option<String>,
    pub message: String,
    /// For the result findings: the result recorded and the one the rules
    /// give (none where the rules give none: a Result tag against its
    /// marker in a game the rules did not end).
    pub recorded: Option<String>,
    pub expected: Option<String>,
}

impl Default for ScanOptions {
    /// The scan's defaults: editions by date, quick dead-position search,
    /// the game read from each record's tags.
    fn default() -> ScanOptions {
        ScanOptions {
            rules: RulesChoice::Auto,
            min_draw_moves: None,
            dead_search: Search::Quick,
            column_rules: crate::game::column_draughts::Rules::Standard,
            game_type: None,
        }
    }
}

/// Which rules a scan applies.
#[derive(Clone, Copy, Debug)]
pub enum RulesChoice {
    /// The edition in force on each game's Date.
    Auto,
    /// One edition for every game.
    Fixed(Edition),
}

/// What a scan checks and under which rules.
#[derive(Clone, Copy, Debug)]
pub struct ScanOptions {
    /// Which edition of the Laws applies.
    pub rules: RulesChoice,
    /// Article 9.1.1: an agreed draw before this move is reported.
    pub min_draw_moves: Option<u32>,
    /// How hard to look for dead positions and unwinnable flag falls.
    pub dead_search: Search,
    /// Column draughts: the reading of the re-jump rule.
    pub column_rules: crate::game::column_draughts::Rules,
    /// The game of every record, when not read from its tags.
    pub game_type: Option<crate::game::GameType>,
}

/// How the game ended by itself, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// The ply of the ending (the position the rule ended the game in).
    pub ply: usize,
    /// The rule's finding kind (`checkmate`, `fivefold-repetition`, ...).
    pub kind: Kind,
    /// The result the rules give (a win or a draw).
    pub result: GameResult,
}

/// What a game's scan knew besides its findings (the per-game table's
/// facts): how far the replay went, the Laws' ending, who moved first.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    /// Plies replayed (up to an illegal or unreadable move).
    pub plies: usize,
    /// Where the Laws ended the game (the first ending), if they did.
    pub end: Option<End>,
    /// Black made the first move (a FEN with Black to move).
    pub black_first: bool,
}

/// Scans one record of either game: chess under the FIDE edition chosen,
/// column draughts under its rulebook.
pub fn scan_record(record: &GameRecord<'_>, opts: &ScanOptions) -> Vec<Finding> {
    scan_record_outcome(record, opts).0
}

/// [`scan_record`] with the game's [`Outcome`] (the same one pass).
pub fn scan_record_outcome(record: &GameRecord<'_>, opts: &ScanOptions) -> (Vec<Finding>, Outcome) {
    let work = ScanWith { record, opts };
    crate::game::dispatch_record(record, opts.game_type, opts.column_rules, work).unwrap_or_else(
        |(offset, message)| {
            let e = error(Kind::ParseError, 0, offset, message);
            (vec![e], Outcome::default())
        },
    )
}

/// One record, scanned by the engine of its game.
struct ScanWith<'a, 'r> {
    record: &'a GameRecord<'r>,
    opts: &'a ScanOptions,
}

impl crate::game::WithGame for ScanWith<'_, '_> {
    type Output = (Vec<Finding>, Outcome);
    fn with<G: Game>(self, variant: G::Variant) -> (Vec<Finding>, Outcome) {
        let rules = rulebook_of::<G>(self.record, self.opts.rules);
        scan_game::<G>(self.record, &rules, self.opts, variant)
    }
}

/// The rulebook for a record of `G` under the scan's choice.
pub fn rulebook_of<G: Game>(record: &GameRecord<'_>, choice: RulesChoice) -> Rulebook {
    let edition = match choice {
        RulesChoice::Fixed(e) => Some(e),
        RulesChoice::Auto => None,
    };
    Rulebook::for_game(G::TYPE, edition, record.tag("Date")).0
}

/// Scans one game. A game that cannot be replayed gives only its error: no
/// other finding is made from a game the tool did not fully understand.
/// Returns the findings and the game's [`Outcome`].
pub fn scan_game<G: Game>(
    record: &GameRecord<'_>,
    rules: &Rulebook,
    opts: &ScanOptions,
    variant: G::Variant,
) -> (Vec<Finding>, Outcome) {
    let start = match G::start_without_notes(record, variant) {
        Ok(s) => s,
        Err((offset, message)) => {
            let e = error(Kind::ParseError, 0, offset, message);
            return (vec![e], Outcome::default());
        }
    };
    let mut outcome = Outcome {
        black_first: G::side_to_move(&start) == Side::Black,
        ..Outcome::default()
    };
    let n = record.moves.len();
    let mut pos = start.clone();
    let mut hash = G::hash(&pos);
    let mut scan = Scan::<G>::new(rules, &pos, hash);
    scan.moves.reserve_exact(n);
    let mut final_has_moves = false;
    for p in 0..=n {
        let is_final = p == n;
        if is_final || scan.may_report(G::count_clock(&pos)) {
            let ply = Ply::at::<G>(record, &pos, p);
            scan.position(&pos, &ply);
            if is_final {
                final_has_moves = ply.has_moves;
                break;
            }
        }
        let tok = &record.moves[p];
        let m = match G::parse_recorded_quick(&pos, tok.text) {
            Some(m) => m,
            None => match G::parse_recorded(&pos, tok.text) {
                Ok(m) => m,
                Err(e) => {
                    outcome.plies = p;
                    let e = move_error::<G>(&pos, p, tok.offset, tok.text, e);
                    return (vec![e], outcome);
                }
            },
        };
        hash = scan.play(&mut pos, m, hash);
    }
    if final_has_moves {
        let moves = std::mem::take(&mut scan.moves);
        dead_position::<G>(record, opts, &start, &moves, &pos, &mut scan);
    }
    let Scan {
        mut out,
        end,
        claimable_at_end,
        ..
    } = scan;
    result::check_result::<G>(
        record,
        rules,
        opts,
        n,
        &pos,
        end,
        claimable_at_end,
        &mut out,
    );
    out.sort_by_key(|f| (f.ply, f.kind));
    outcome.plies = n;
    outcome.end = end;
    (out, outcome)
}

/// A recorded move that cannot be read or played.
fn move_error<G: Game>(
    pos: &G::Position,
    p: usize,
    offset: usize,
    text: &str,
    e: MoveError,
) -> Finding {
    let kind = if matches!(e, MoveError::Syntax(_)) {
        Kind::ParseError
    } else {
        Kind::IllegalMove
    };
    let message = crate::claims::replay::describe_move_error::<G>(pos, text, e);
    error(kind, p, offset, message)
}

/// A dead position (5.2.2) stays dead: the final position is checked once,
/// and only when it is dead is the first dead ply looked for. Not reported
/// when insufficient material already explains it. The caller knows the
/// final position has a move (its ending was asked already), so the check
/// generates no moves again.
fn dead_position<G: Game>(
    record: &GameRecord<'_>,
    opts: &ScanOptions,
    start: &G::Position,
    moves: &[G::Move],
    final_pos: &G::Position,
    scan: &mut Scan<'_, G>,
) {
    if !G::is_dead_playable(final_pos, opts.dead_search) {
        return;
    }
    let d = first_dead_ply::<G>(start, moves, opts.dead_search);
    let explained = scan
        .out
        .iter()
        .any(|f| f.kind == Kind::InsufficientMaterial && f.ply <= d);
    if explained {
        return;
    }
    let offset = if d == 0 {
        record.offset
    } else {
        record.moves[d - 1].offset
    };
    let message = format!(
        "no sequence of legal moves can lead to {}: the game is drawn ({})",
        G::TYPE.win_words().2,
        scan.rules.ending_article(Ending::InsufficientMaterial)
    );
    scan.out
        .push(info(Kind::DeadPosition, d, offset, None, None, message));
    if scan.end.is_none_or(|e| d < e.ply) {
        scan.end = Some(End {
            ply: d,
            kind: Kind::DeadPosition,
            result: GameResult::Draw,
        });
    }
}

/// The first ply proved dead, the final one being dead.
fn first_dead_ply<G: Game>(start: &G::Position, moves: &[G::Move], search: Search) -> usize {
    let position_at = |k: usize| {
        let mut p = start.clone();
        for m in &moves[..k] {
            G::play(&mut p, m, 0);
        }
        p
    };
    let (mut lo, mut hi) = (0, moves.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        // Not the final position: a move was played from it.
        if G::is_dead_playable(&position_at(mid), search) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

fn info(
    kind: Kind,
    ply: usize,
    offset: usize,
    side: Option<Side>,
    mv: Option<String>,
    message: String,
) -> Finding {
    Finding {
        kind,
        ply,
        offset,
        side,
        mv,
        message,
        recorded: None,
        expected: None,
    }
}

/// A result-mismatch finding: the result recorded and the one the rules give.
fn mismatch(
    ply: usize,
    offset: usize,
    recorded: &str,
    expected: GameResult,
    message: String,
) -> Finding {
    Finding {
        recorded: Some(recorded.to_owned()),
        expected: Some(expected.name().to_owned()),
        ..error(Kind::ResultMismatch, ply, offset, message)
    }
}

fn error(kind: Kind, ply: usize, offset: usize, message: String) -> Finding {
    info(kind, ply, offset, None, None, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Encoding, Reader};

    fn scan(pgn: &str, min_draw_moves: Option<u32>) -> Vec<(Kind, String)> {
        let mut reader = Reader::new(pgn.as_bytes(), Encoding::Utf8);
        let opts = ScanOptions {
            min_draw_moves,
            ..ScanOptions::default()
        };
        match reader.next_game() {
            Some(Ok(record)) => scan_record(&record, &opts)
                .into_iter()
                .map(|f| (f.kind, f.message))
                .collect(),
            other => panic!("the test record does not read: {other:?}"),
        }
    }

    #[test]
    fn a_result_with_no_moves_is_no_early_agreement() {
        // TWIC game 64: only `1/2-1/2`.
        let got = scan("[White \"a\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n", Some(20));
        assert_eq!(
            got,
            vec![(
                Kind::NoMovesRecorded,
                "the record has a result (1/2-1/2) but no moves: whether the draw was agreed before move 20 (9.1.1) cannot be told from it".to_owned()
            )]
        );
        assert_eq!(Kind::NoMovesRecorded.name(), "no-moves-recorded");
        assert_eq!(Kind::NoMovesRecorded.severity(), Severity::Warning);
        // Without --min-draw-moves a result alone is no finding.
        assert_eq!(scan("[White \"a\"]\n\n1/2-1/2\n", None), vec![]);
    }

    #[test]
    fn an_unfinished_record_with_no_moves_has_no_finding() {
        assert_eq!(scan("[White \"a\"]\n\n*\n", Some(20)), vec![]);
    }

    #[test]
    fn an_early_agreement_counts_its_moves_in_words() {
        let got = scan("[White \"a\"]\n\n1. e4 e5 1/2-1/2\n", Some(20));
        assert_eq!(
            got,
            vec![(
                Kind::EarlyDrawAgreement,
                "drawn after 1 move, before move 20, with no claimable ground (9.1.1)".to_owned()
            )]
        );
    }

    /// 9.6.1 and 9.6.2 end the game at once: no claim at or after the ply
    /// where fivefold repetition or the 75-move rule ended it.
    #[test]
    fn no_claim_once_an_automatic_draw_ended_the_game() {
        let kinds =
            |pgn: &str| -> Vec<Kind> { scan(pgn, None).into_iter().map(|(k, _)| k).collect() };
        // 150 plies in the FEN's clock at ply 0.
        let pgn = "[FEN \"8/8/8/4k3/8/8/4K3/4R3 w - - 150 60\"]\n\n60. Kd2 Kd5 *\n";
        let got = kinds(pgn);
        assert!(got.contains(&Kind::SeventyFiveMove), "{got:?}");
        assert!(!got.contains(&Kind::FiftyMoveClaimable), "{got:?}");
        // Fivefold: the threefold claim comes before it, none at or after.
        let pgn = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                   7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3 *\n";
        let mut reader = Reader::new(pgn.as_bytes(), Encoding::Utf8);
        let record = reader.next_game().and_then(Result::ok).expect("the record");
        let found = scan_record(&record, &ScanOptions::default());
        let end = found
            .iter()
            .find(|f| f.kind == Kind::FivefoldRepetition)
            .map(|f| f.ply)
            .expect("fivefold");
        let claims: Vec<usize> = found
            .iter()
            .filter(|f| f.kind == Kind::ThreefoldClaimable)
            .map(|f| f.ply)
            .collect();
        assert!(
            !claims.is_empty() && claims.iter().all(|&p| p < end),
            "{claims:?} vs {end}"
        );
    }

    /// (kind, recorded, expected) of every finding.
    fn results(pgn: &str) -> Vec<(Kind, Option<String>, Option<String>)> {
        let mut reader = Reader::new(pgn.as_bytes(), Encoding::Utf8);
        let Some(Ok(record)) = reader.next_game() else {
            panic!("the test record does not read");
        };
        scan_record(&record, &ScanOptions::default())
            .into_iter()
            .map(|f| (f.kind, f.recorded, f.expected))
            .collect()
    }

    #[test]
    fn expected_is_the_laws_result_never_the_marker() {
        let s = |x: &str| Some(x.to_owned());
        // Issue 40.1: Black mated; the tag says 0-1, the marker 1-0. The
        // Laws give 0-1; the tag against its marker is its own finding.
        for marker in ["1-0", "1/2-1/2", "*"] {
            let pgn = format!("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# {marker}\n");
            assert_eq!(
                results(&pgn),
                vec![
                    (Kind::Checkmate, None, None),
                    (Kind::ResultTagMismatch, s("0-1"), s("0-1")),
                ],
                "{marker}"
            );
        }
        // The tag is the wrong one: both findings, each giving the Laws' 0-1.
        assert_eq!(
            results("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"),
            vec![
                (Kind::Checkmate, None, None),
                (Kind::ResultTagMismatch, s("1-0"), s("0-1")),
                (Kind::ResultMismatch, s("1-0"), s("0-1")),
            ]
        );
        // A game the Laws did not end: no expected result at all.
        assert_eq!(
            results("[Result \"1-0\"]\n\n1. d4 d5 0-1\n"),
            vec![(Kind::ResultTagMismatch, s("1-0"), None)]
        );
        assert_eq!(Kind::ResultTagMismatch.name(), "result-tag-mismatch");
        assert_eq!(Kind::ResultTagMismatch.severity(), Severity::Error);
    }

    #[test]
    fn moves_after_the_end_are_counted_in_words() {
        // Insufficient material from the start, then one more move.
        let pgn = "[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/4K2N w - - 0 1\"]\n\n1. Kd1 1/2-1/2\n";
        let got = scan(pgn, None);
        assert!(
            got.iter().any(|(k, m)| *k == Kind::MovesAfterEnd
                && m.starts_with("1 move recorded after the game ended at ply 0")),
            "{got:?}"
        );
    }
}
