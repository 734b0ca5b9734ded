//! The engine's own tests over corpora, oracles and exhaustive counts:
//! they read internal modules (the SAN resolver, the replay, the analyser's
//! boundary, perft), so they live in the crate and the integration tests
//! in tests/ use only the public API. Those needing `../shared` or the
//! python-chess oracle find them from the crate root (`support`).

mod dead_chess960;
mod dead_positions;
mod dead_quick_memo;
mod draughts_perft;
mod fuzz_corpus;
mod helpmate_lines;
mod module_examples;
mod no_panic;
mod oracle;
mod quick_gate;
mod real_games;
mod san_resolver;
mod support;
mod whole_claim;
