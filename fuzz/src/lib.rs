//! The fuzz targets' entry points: the crate's own (`verify_claim::fuzzing`,
//! feature `fuzzing`), where the properties they check can reach the
//! reader and the FEN parsers.
#![forbid(unsafe_code)]

pub use verify_claim::fuzzing::*;
