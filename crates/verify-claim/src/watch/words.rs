//! The words of the watch's messages that take some choosing.

use crate::claims;

/// What a changed record did: moves taken back, a move replaced, moves
/// replaced by others (`old` the moves followed, `new` the record now;
/// they agree up to ply `from`).
pub(crate) fn changed(from: usize, old: &[String], new: &[&str], restart: bool) -> String {
    let (was, now) = (old.len(), new.len());
    if restart {
        return format!(
            "the start position or the rules changed (FEN, SetUp, Variant, GameType or Date tag): the record ({now} plies) is replayed from the start"
        );
    }
    let plies = |n: usize| {
        if n == 1 {
            "1 ply".to_owned()
        } else {
            format!("{n} plies")
        }
    };
    if now <= from {
        let k = was - now;
        return format!(
            "{} taken back: the record now has {} (was {was}); replayed from it",
            if k == 1 {
                "1 move".to_owned()
            } else {
                format!("{k} moves")
            },
            plies(now)
        );
    }
    let gone = old.get(from..).unwrap_or_default();
    let came = new.get(from..).unwrap_or_default();
    let list = |m: &[&str]| {
        let mut s = m.iter().take(6).copied().collect::<Vec<_>>().join(" ");
        if m.len() > 6 {
            s.push_str(&format!(" … ({} more)", m.len() - 6));
        }
        s
    };
    let gone_s: Vec<&str> = gone.iter().map(String::as_str).collect();
    let what = match (gone.len(), came.len()) {
        (0, _) => format!(
            "{} added at ply {}: {}",
            plies(came.len()),
            from + 1,
            list(came)
        ),
        (1, 1) => format!(
            "ply {} replaced: {} is now {}",
            from + 1,
            gone_s[0],
            came[0]
        ),
        (1, _) => format!(
            "ply {} replaced: {} is now {}",
            from + 1,
            gone_s[0],
            list(came)
        ),
        _ => format!(
            "plies {}-{was} ({}) replaced by {}",
            from + 1,
            list(&gone_s),
            list(came)
        ),
    };
    // The event's ply is `from`, the last ply kept: the words say the
    // same ply.
    format!(
        "the record changed after ply {from}: {what}; it now has {} (was {was}); replayed from it",
        plies(now)
    )
}

/// The JSON name of how a game ended.
pub(crate) fn reason_name(r: claims::GameOverReason) -> &'static str {
    use claims::GameOverReason as R;
    match r {
        R::Checkmate => "checkmate",
        R::Stalemate => "stalemate",
        R::InsufficientMaterial => "insufficient-material",
        R::DeadPosition => "dead-position",
        R::FivefoldRepetition => "fivefold-repetition",
        R::SeventyFiveMove => "seventy-five-move",
        R::NoMoves => "no-moves",
    }
}

pub(crate) fn short_reason(r: claims::GameOverReason) -> &'static str {
    use claims::GameOverReason as R;
    match r {
        R::Checkmate => "checkmate",
        R::Stalemate => "stalemate",
        R::InsufficientMaterial => "insufficient material",
        R::DeadPosition => "dead position",
        R::FivefoldRepetition => "fivefold",
        R::SeventyFiveMove => "75 moves",
        R::NoMoves => "no moves (lost)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_says_what_changed() {
        let old: Vec<String> = ["e4", "e5", "Nf3"].map(str::to_owned).to_vec();
        assert_eq!(
            changed(2, &old, &["e4", "e5", "Nc3"], false),
            "the record changed after ply 2: ply 3 replaced: Nf3 is now Nc3; it now has 3 plies (was 3); replayed from it"
        );
        assert_eq!(
            changed(1, &old, &["e4"], false),
            "2 moves taken back: the record now has 1 ply (was 3); replayed from it"
        );
        assert_eq!(
            changed(1, &old, &["e4", "c5", "Nf3", "d6"], false),
            "the record changed after ply 1: plies 2-3 (e5 Nf3) replaced by c5 Nf3 d6; it now has 4 plies (was 3); replayed from it"
        );
    }
}
