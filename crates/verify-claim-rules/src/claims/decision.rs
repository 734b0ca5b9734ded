//! A claim's outcome: valid on grounds or not valid for reasons, never
//! both; and the names `--claim` and Python's `claim=` take.

use column_draughts::names::{Name, Named};

use super::{ClaimKind, Ground, Reason, Verdict};

/// Whether a claim is correct, with what makes it so: a claim is valid
/// on grounds or not valid for reasons, never both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Valid: every rule under which it is (at least one).
    Valid { grounds: Vec<Ground> },
    /// Not valid: why, the first reason first.
    NotValid { reasons: Vec<Reason> },
}

impl Decision {
    /// Whether the claim is correct.
    pub fn is_valid(&self) -> bool {
        matches!(self, Decision::Valid { .. })
    }

    /// The grounds, taken (none when not valid).
    pub fn into_grounds(self) -> Vec<Ground> {
        match self {
            Decision::Valid { grounds } => grounds,
            Decision::NotValid { .. } => Vec::new(),
        }
    }
}

impl Verdict {
    /// Whether the claim is correct.
    pub fn valid(&self) -> bool {
        self.decision.is_valid()
    }

    /// Every rule under which the claim is valid (none when it is not).
    pub fn grounds(&self) -> &[Ground] {
        match &self.decision {
            Decision::Valid { grounds } => grounds,
            Decision::NotValid { .. } => &[],
        }
    }

    /// Why the claim fails (none when it is valid).
    pub fn reasons(&self) -> &[Reason] {
        match &self.decision {
            Decision::Valid { .. } => &[],
            Decision::NotValid { reasons } => reasons,
        }
    }
}

/// The names of `--claim` (and Python's `claim=`): the count has one per
/// game, and `repetition` is the older name of `threefold`.
impl Named for ClaimKind {
    const NAMES: &'static [Name<ClaimKind>] = &[
        Name {
            value: ClaimKind::Repetition,
            name: "threefold",
            aliases: &["repetition"],
            help: Some("Threefold repetition (9.2)"),
        },
        Name {
            value: ClaimKind::Count,
            name: "fifty",
            aliases: &[],
            help: Some("The fifty-move rule (9.3)"),
        },
        Name {
            value: ClaimKind::Count,
            name: "unchanged-material",
            aliases: &[],
            help: Some("Column draughts: material unchanged for 15 moves by each player (1.13.1)"),
        },
        Name {
            value: ClaimKind::Any,
            name: "any",
            aliases: &[],
            help: Some("Any ground"),
        },
    ];
}
