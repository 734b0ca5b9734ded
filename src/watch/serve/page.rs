//! The page: one HTML document with the piece drawings, its script and its
//! style, all served by the tool itself.

/// The script (no library; EventSource and fetch).
pub const JS: &str = include_str!("app.js");
const APP_CSS: &str = include_str!("app.css");

/// The report pages' style (the diagrams' pieces and squares), then the
/// board's own.
pub fn css() -> String {
    format!("{}{APP_CSS}", crate::report::page::CSS)
}

/// The page, with the piece symbols every diagram uses.
pub fn html() -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>verify-claim watch</title><link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/app.css\"></head>\
<body>{defs}\n<header><h1>verify-claim watch</h1>\
<input id=\"filter\" type=\"search\" placeholder=\"filter: board, player, file\" aria-label=\"filter\">\
<label><input id=\"sound\" type=\"checkbox\"> sound</label>\
<button id=\"all-seen\" type=\"button\">Mark all seen</button>\
<span id=\"status\" role=\"status\">connecting…</span> <span id=\"count\"></span></header>\
<section id=\"other\" hidden></section><main id=\"grid\"></main>\
<script src=\"/app.js\"></script></body></html>\n",
        defs = crate::report::svg::defs()
    )
}
