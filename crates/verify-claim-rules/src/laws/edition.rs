//! FIDE's editions of the Laws of Chess, and which one governs a game:
//! each is in force from its date, so a game's `Date` tag chooses it.

use column_draughts::names::Named;

column_draughts::named! {
    /// A FIDE edition of the Laws of Chess.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Edition {
        /// In force from 1 July 2009.
        Fide2009 = "fide-2009",
        /// In force from 1 July 2014.
        Fide2014 = "fide-2014",
        /// In force from 1 January 2018.
        Fide2018 = "fide-2018",
        /// In force from 1 January 2023.
        Fide2023 = "fide-2023",
    }
}

impl Edition {
    /// The edition in force today.
    pub const NEWEST: Edition = Edition::Fide2023;

    /// The date (y, m, d) from which the edition is in force.
    pub fn in_force_from(self) -> (u32, u32, u32) {
        match self {
            Edition::Fide2009 => (2009, 7, 1),
            Edition::Fide2014 => (2014, 7, 1),
            Edition::Fide2018 => (2018, 1, 1),
            Edition::Fide2023 => (2023, 1, 1),
        }
    }

    fn in_force_on(date: (u32, u32, u32)) -> Edition {
        // The name table lists every edition, oldest first.
        Edition::NAMES
            .iter()
            .map(|n| n.value)
            .rev()
            .find(|e| e.in_force_from() <= date)
            .unwrap_or(Edition::Fide2009)
    }

    /// The edition for a game's `Date` tag (`YYYY.MM.DD`, parts may be
    /// `??`), with a sentence saying how it was chosen when that is not
    /// simply "in force on the game's date".
    pub fn for_date(date: Option<&str>) -> (Edition, Option<String>) {
        let Some(date) = date else {
            return (
                Edition::NEWEST,
                Some(format!(
                    "the record has no Date tag: the newest edition ({}) applied",
                    Edition::NEWEST.name()
                )),
            );
        };
        let parts: Vec<&str> = date.trim().split(['.', '-', '/']).collect();
        let num = |i: usize| parts.get(i).and_then(|p| p.parse::<u32>().ok());
        let (y, m, d) = (num(0), num(1), num(2));
        let edition = match (y, m, d) {
            (Some(y), Some(m), Some(d)) if (1..=12).contains(&m) && (1..=31).contains(&d) => {
                Some((Edition::in_force_on((y, m, d)), None))
            }
            (Some(y), m, _) => {
                // Partial date: the editions in force on the days it allows.
                // An edition not yet (or no longer) in force then cannot
                // apply (each edition says from when it is in force), so the
                // newest of those, not the newest of all.
                let m = m.filter(|m| (1..=12).contains(m));
                let first = Edition::in_force_on((y, m.unwrap_or(1), 1));
                let last = Edition::in_force_on((y, m.unwrap_or(12), 31));
                let note = if first == last {
                    format!(
                        "the Date tag \"{date}\" is partial; every day it allows falls under {}",
                        first.name()
                    )
                } else {
                    format!(
                        "the Date tag \"{date}\" is partial; the days it allows fall under {} or {}: the newer, {}, applied (--rules {} for the other)",
                        first.name(),
                        last.name(),
                        last.name(),
                        first.name()
                    )
                };
                Some((last, Some(note)))
            }
            _ => None,
        };
        match edition {
            Some((e, note))
                if (y.unwrap_or(0), m.unwrap_or(12), d.unwrap_or(31))
                    < Edition::Fide2009.in_force_from() =>
            {
                (
                    e,
                    Some(format!(
                        "{}the game predates the 2009 Laws; the oldest edition the tool knows (fide-2009) applied",
                        note.map(|n| n + "; ").unwrap_or_default()
                    )),
                )
            }
            Some(found) => found,
            None => (
                Edition::NEWEST,
                Some(format!(
                    "the Date tag \"{date}\" does not decide the edition: the newest edition ({}) applied",
                    Edition::NEWEST.name()
                )),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_by_date() {
        assert_eq!(Edition::for_date(Some("2013.05.01")).0, Edition::Fide2009);
        assert_eq!(Edition::for_date(Some("2014.06.30")).0, Edition::Fide2009);
        assert_eq!(Edition::for_date(Some("2014.07.01")).0, Edition::Fide2014);
        assert_eq!(Edition::for_date(Some("2017.12.31")).0, Edition::Fide2014);
        assert_eq!(Edition::for_date(Some("2018.01.01")).0, Edition::Fide2018);
        assert_eq!(
            Edition::for_date(Some("2024.03.09")),
            (Edition::Fide2023, None)
        );
        let (e, note) = Edition::for_date(Some("2015.??.??"));
        assert_eq!(e, Edition::Fide2014);
        assert!(note.unwrap().contains("partial"));
        // A year of two editions: the newer of those two, never a later one.
        let (e, note) = Edition::for_date(Some("2014.??.??"));
        assert_eq!(e, Edition::Fide2014);
        assert!(note.unwrap().contains("fide-2009 or fide-2014"));
        assert_eq!(Edition::for_date(Some("2014.06.??")).0, Edition::Fide2009);
        assert_eq!(Edition::for_date(Some("2014.07.??")).0, Edition::Fide2014);
        assert_eq!(Edition::for_date(Some("2015.13.01")).0, Edition::Fide2014);
        let (e, note) = Edition::for_date(Some("????.??.??"));
        assert_eq!(e, Edition::Fide2023);
        assert!(note.unwrap().contains("does not decide"));
        let (e, note) = Edition::for_date(None);
        assert_eq!(e, Edition::Fide2023);
        assert!(note.is_some());
        let (e, note) = Edition::for_date(Some("1971.10.01"));
        assert_eq!(e, Edition::Fide2009);
        assert!(note.unwrap().contains("predates"));
    }
}
