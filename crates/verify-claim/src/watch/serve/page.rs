//! The page: one HTML document with the piece drawings, its script and its
//! style, all served by the tool itself.

/// The script (no library; EventSource and fetch).
pub(super) const JS: &str = include_str!("app.js");
const APP_CSS: &str = include_str!("app.css");

/// The report pages' style (the diagrams' pieces and squares), then the
/// board's own.
pub(super) fn css() -> String {
    format!("{}{APP_CSS}", crate::report::page::CSS)
}

/// What the Laws say of displays (6.12.2 in the 2023 Laws, as in 2018):
/// shown on every page of the board.
pub(super) const DISPLAYS: &str = "The Laws (6.12.2): a player may not make a claim relying only on what a display shows (this board, a demonstration board, a monitor, a move counter).";

/// The live page, with the piece symbols every diagram uses.
pub(super) fn html() -> String {
    page("")
}

/// The printable snapshot (`/print`): the same page drawn once from
/// `/state`, with no event stream (a printer or a kiosk's
/// `--virtual-time-budget` does not wait forever on it).
pub(super) fn print() -> String {
    page(" data-snapshot=\"1\"")
}

fn page(body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>verify-claim watch</title><link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/app.css\"></head>\
<body{body}>{defs}\n<header><h1>verify-claim watch</h1>\
<input id=\"filter\" type=\"search\" placeholder=\"filter: board, player, file\" aria-label=\"filter\">\
<label><input id=\"sound\" type=\"checkbox\"> sound</label>\
<button id=\"all-seen\" type=\"button\">Mark all seen</button>\
<span id=\"status\" role=\"status\">connecting…</span> <span id=\"count\"></span></header>\
<p id=\"laws\" class=\"laws\">{DISPLAYS}</p>\
<section id=\"other\" hidden></section><main id=\"grid\"></main>\
<script src=\"/app.js\"></script></body></html>\n",
        defs = crate::report::svg::defs()
    )
}
