//! The desk's page: one HTML document, its script and its style, all
//! served by the tool itself (nothing from elsewhere: the server's
//! Content-Security-Policy allows nothing else).

/// The script (no library; fetch only). Record text is only ever set as
/// text (`textContent`, `value`), never as markup.
pub(super) const JS: &str = include_str!("desk.js");
const DESK_CSS: &str = include_str!("desk.css");
const HTML: &str = include_str!("desk.html");

/// The style.
pub(super) fn css() -> String {
    DESK_CSS.to_owned()
}

/// The page.
pub(super) fn html() -> String {
    HTML.to_owned()
}
