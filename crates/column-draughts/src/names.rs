//! One name table per enum of the vocabulary: the names it is written and
//! read by in options, JSON and text, its aliases, and the one-line help the
//! command line shows for each value. Serde, the command line (clap, in the
//! binary: this crate knows no clap) and the Python options all read the
//! same table, so no name is written twice.
//!
//! Written by hand rather than with strum: strum would name the variants,
//! but serde and clap would each still need their own glue per enum (a
//! `Serialize` through `IntoStaticStr`, a help text, a second name for
//! aliases), and a proc-macro crate more in every build of the wheel. A
//! `macro_rules!` of a few lines keeps the name, its aliases and its help
//! beside the variant. It lives in this crate, the lowest, because `Side`
//! and `Search` do.

use std::fmt;

/// One entry of an enum's name table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name<T: 'static> {
    /// The value.
    pub value: T,
    /// Its name, as written in options and output (`fide-2023`).
    pub name: &'static str,
    /// Other names it is read by, never written (`repetition`).
    pub aliases: &'static [&'static str],
    /// What it means, in one line for the command line's help (none: the
    /// help lists the name alone).
    pub help: Option<&'static str>,
}

/// An enum with a name table. [`named!`](crate::named) implements it; a
/// table may also map several names to one value (the claim kinds).
pub trait Named: Copy + PartialEq + 'static {
    /// Every value with its names, in the order help and errors list them.
    const NAMES: &'static [Name<Self>];

    /// The value a name or an alias stands for.
    fn from_name(text: &str) -> Option<Self> {
        lookup(Self::NAMES, text)
    }
}

/// The value `text` names in `table`, by a name or an alias.
pub fn lookup<T: Copy>(table: &[Name<T>], text: &str) -> Option<T> {
    table
        .iter()
        .find(|n| n.name == text || n.aliases.contains(&text))
        .map(|n| n.value)
}

/// The value of `T` that `text` names, or the error listing its names:
/// what `FromStr` of a [`named!`](crate::named) enum does, for code
/// generic over [`Named`].
pub fn parse<T: Named>(text: &str) -> Result<T, UnknownName> {
    T::from_name(text).ok_or_else(|| UnknownName::of(T::NAMES, text))
}

/// The option value that stands for no value of the enum: decide by the
/// input (`--rules auto`, `--game-type auto`).
pub const AUTO: &str = "auto";

/// A value of `T`, or `None` for [`AUTO`].
pub fn auto_or<T: Named>(text: &str) -> Result<Option<T>, UnknownName> {
    if text == AUTO {
        return Ok(None);
    }
    parse(text).map(Some).map_err(|mut e| {
        e.expected.insert(0, AUTO);
        e
    })
}

/// A name no value of the enum has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// The text that was not a name.
    pub text: String,
    /// The names it could have been.
    pub expected: Vec<&'static str>,
}

impl UnknownName {
    /// The error for `text` against `table`.
    pub fn of<T>(table: &[Name<T>], text: &str) -> UnknownName {
        UnknownName {
            text: text.to_owned(),
            expected: table.iter().map(|n| n.name).collect(),
        }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not one of {}",
            self.text,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// The serde crate, for [`named!`](crate::named)'s expansion in other crates.
#[doc(hidden)]
pub use serde as __serde;

/// Declares a unit enum with its name table: each variant is followed by
/// `= "name"`, optional `| "alias"`es and an optional `("help")`. It
/// implements [`Named`], `name()` (a `const fn`, exhaustive), `Display`,
/// `FromStr` and serde's `Serialize` and `Deserialize` as the name: the
/// name is written once, here.
///
/// ```
/// column_draughts::named! {
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Speed {
///         Slow = "slow" ("Take your time"),
///         Fast = "fast" | "quick",
///     }
/// }
/// use column_draughts::names::Named;
/// assert_eq!(Speed::Fast.name(), "fast");
/// assert_eq!(Speed::from_name("quick"), Some(Speed::Fast));
/// assert_eq!("slow".parse::<Speed>(), Ok(Speed::Slow));
/// assert_eq!(Speed::NAMES[0].help, Some("Take your time"));
/// ```
#[macro_export]
macro_rules! named {
    (
        $(#[$meta:meta])*
        $vis:vis enum $ty:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $name:literal $(| $alias:literal)* $(($help:literal))?
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $ty {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $ty {
            /// The name in options and output.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $ty::$variant => $name, )+
                }
            }
        }

        impl $crate::names::Named for $ty {
            const NAMES: &'static [$crate::names::Name<Self>] = &[
                $(
                    $crate::names::Name {
                        value: $ty::$variant,
                        name: $name,
                        aliases: &[$($alias),*],
                        help: $crate::named!(@help $($help)?),
                    },
                )+
            ];
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::names::UnknownName;
            fn from_str(text: &str) -> ::std::result::Result<Self, Self::Err> {
                $crate::names::parse(text)
            }
        }

        impl $crate::names::__serde::Serialize for $ty {
            fn serialize<S: $crate::names::__serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        impl<'de> $crate::names::__serde::Deserialize<'de> for $ty {
            fn deserialize<D: $crate::names::__serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                let text: ::std::borrow::Cow<'de, str> =
                    $crate::names::__serde::Deserialize::deserialize(deserializer)?;
                text.parse().map_err($crate::names::__serde::de::Error::custom)
            }
        }
    };
    (@help $help:literal) => { ::std::option::Option::Some($help) };
    (@help) => { ::std::option::Option::None };
}

#[cfg(test)]
mod tests {
    use super::Named;
    use crate::{Search, Side};

    /// Every value has one entry, found again by its name, and the name is
    /// what serde writes.
    #[test]
    fn names_round_trip() {
        for n in Side::NAMES {
            assert_eq!(Side::from_name(n.name), Some(n.value));
            assert_eq!(n.value.name(), n.name);
        }
        assert_eq!(Search::NAMES.len(), 2);
        assert_eq!(Side::NAMES.len(), 2);
    }

    #[test]
    fn auto_or_a_name() {
        assert_eq!(super::auto_or::<Side>("auto"), Ok(None));
        assert_eq!(super::auto_or::<Side>("black"), Ok(Some(Side::Black)));
        let e = super::auto_or::<Side>("grey").unwrap_err();
        assert_eq!(e.expected, ["auto", "white", "black"]);
    }

    #[test]
    fn an_unknown_name_lists_the_names() {
        let e = "grey".parse::<Side>().unwrap_err();
        assert_eq!(e.to_string(), "\"grey\" is not one of white, black");
    }
}
