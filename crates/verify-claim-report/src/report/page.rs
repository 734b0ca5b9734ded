//! What the HTML pages share: escaping, the style (screen and A4 print),
//! the page's head with the piece symbols, the rulebook in words.
//!
//! The pages are maud templates (`html!`): every splice is escaped unless
//! it is wrapped in `PreEscaped`, which marks markup this crate made
//! itself (the SVG diagrams, a fragment of another template). Text from
//! the input is spliced as [`Text`], which escapes a little more than
//! maud does (see there); a plain `(x)` is still escaped by maud, so
//! forgetting `Text` cannot let markup in.

use maud::{PreEscaped, Render, html};

use super::svg;

/// Text in a page (a tag value, a file name, a move, a message): escaped
/// as maud escapes (`&`, `<`, `>`, `"`), and besides `'` as `&#39;` and a
/// control character other than LF and TAB as U+FFFD (a control character
/// is no character of an HTML page). These two were the pages' escaping
/// before they were templates; they stay, so that every page is the same
/// byte for byte.
pub struct Text<T>(pub T);

impl<T: AsRef<str>> Render for Text<T> {
    fn render_to(&self, out: &mut String) {
        for c in self.0.as_ref().chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\'' => out.push_str("&#39;"),
                c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
                c => out.push(c),
            }
        }
    }
}

impl<T: AsRef<str>> std::fmt::Display for Text<T> {
    /// The escaped text, for the hand-written SVG (svg.rs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render().into_string())
    }
}

/// The page's style: screen and A4 print (no diagram cut across pages).
pub const CSS: &str = r#"
@page { size: A4; margin: 8mm 12mm; }
* { -webkit-print-color-adjust: exact; print-color-adjust: exact; box-sizing: border-box; }
html { font: 10.5pt/1.35 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #111; background: #fff; }
body { max-width: 190mm; margin: 1.5em auto; padding: 0 1em; }
h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
h2 { font-size: 12pt; border-bottom: 1px solid #888; margin: .7em 0 .3em; }
h3 { font-size: 11pt; margin: .8em 0 .3em; }
p, li { orphans: 2; widows: 2; }
.verdict { border: 3px solid; border-radius: 4px; padding: .3em 1em; margin: 0 0 .6em; break-inside: avoid; }
.verdict.ok { border-color: #1a7f37; background: #eaf6ec; }
.verdict.no { border-color: #b42318; background: #fcebea; }
.verdict h1 { font-size: 18pt; line-height: 1.1; margin: .1em 0 .2em; }
.verdict p { margin: .2em 0; font-size: 12pt; }
dl.head { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: .1em 1em; margin: 0; }
dl.head dt { font-weight: bold; } dl.head dt.wide { grid-column: 1; } dl.head dd.wide { grid-column: 2 / -1; } dl.head dd { margin: 0; }
.row { display: flex; flex-wrap: wrap; gap: 4mm 5mm; align-items: flex-start; }
figure { margin: 0; width: 38mm; break-inside: avoid; page-break-inside: avoid; }
figure svg.board { width: 38mm; height: auto; display: block; }
figure.compact, figure.compact svg.board { width: 30mm; }
figcaption { font-size: 8.5pt; line-height: 1.25; text-align: center; margin-top: 1mm; }
figcaption b { display: block; }
figure.claim svg.board { outline: 2px solid #1f4e9c; outline-offset: 1px; }
figure.written svg.board { outline: 2px dashed #1f4e9c; outline-offset: 1px; }
.legend { font-size: 8pt; color: #333; }
svg .l { fill: #f0d9b5; } svg .d { fill: #b58863; }
svg .m { fill: #f6e05e; opacity: .6; }
svg .x { fill: none; stroke: #d00; stroke-width: 1; }
svg .c { font: bold 4.6px "DejaVu Sans", sans-serif; text-anchor: middle; dominant-baseline: central; fill: #333; }
svg .g { font: 9.4px "DejaVu Sans", "Noto Sans Symbols2", "Segoe UI Symbol", sans-serif; text-anchor: middle; dominant-baseline: central; }
svg .g.white { fill: #fff; stroke: #000; stroke-width: .45px; paint-order: stroke; } svg .g.black { fill: #000; }
svg .n { font: bold 3px sans-serif; text-anchor: end; fill: #fff; paint-order: stroke; stroke: #000; stroke-width: .6px; }
svg.strip { width: 100%; height: auto; display: block; break-inside: avoid; }
svg.strip .fen { fill: #9aa5b1; } svg.strip .play { fill: #3b82c4; } svg.strip .wr { fill: #f59e0b; }
svg.strip .need { fill: none; stroke: #bbb; stroke-width: .3; } svg.strip text { font: 3.2px sans-serif; fill: #333; }
.key span { display: inline-block; width: .9em; height: .9em; vertical-align: -.1em; margin: 0 .3em 0 .8em; }
code, .fen { font-family: "DejaVu Sans Mono", monospace; font-size: 9pt; overflow-wrap: anywhere; }
.small, .small li { font-size: 9pt; } .small ul { margin: .2em 0; }
footer { margin-top: .4em; font-size: 7.5pt; color: #555; border-top: 1px solid #ccc; } footer p { margin: .2em 0; }
@media print { body { margin: 0; max-width: none; padding: 0; } }
"#;

/// `<!doctype html>` to `<body>`, with the style and the piece symbols.
/// The page's end tags are written by each page (the scan page streams).
pub fn page_start(title: &str, extra_css: &str, s: &mut String) {
    s.push_str("<!doctype html>\n<html lang=\"en\">");
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            meta name="generator" content={ "verify-claim " (env!("CARGO_PKG_VERSION")) };
            title { (Text(title)) }
            // The style is the crate's own text, not the input's.
            style { (PreEscaped(CSS)) (PreEscaped(extra_css)) }
        }
    }
    .render_to(s);
    s.push_str("\n<body>\n");
    // The piece symbols: SVG this crate writes (svg.rs).
    s.push_str(&svg::defs());
}

/// The rulebook in words: "FIDE Laws of Chess in force from 1 January 2023
/// (fide-2023)".
pub fn rulebook_words(rules: crate::laws::Laws) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    match rules {
        crate::laws::Laws::Fide(e) => {
            let (y, m, d) = e.in_force_from();
            let month = MONTHS.get(m as usize - 1).copied().unwrap_or("?");
            format!("FIDE Laws of Chess in force from {d} {month} {y} ({rules})")
        }
        crate::laws::Laws::SpbColumnDraughts => {
            format!("St Petersburg rules of Russian column draughts ({rules})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Input text escapes as the hand `esc` did; a splice without `Text`
    /// is still escaped (by maud), only without the two extras.
    #[test]
    fn text_escapes_as_the_pages_always_have() {
        let input = "O'Hara <b>&\"x\"\x1b\x07\tend\n";
        assert_eq!(
            html! { p title=(Text(input)) { (Text(input)) } }.into_string(),
            "<p title=\"O&#39;Hara &lt;b&gt;&amp;&quot;x&quot;\u{FFFD}\u{FFFD}\tend\n\">\
             O&#39;Hara &lt;b&gt;&amp;&quot;x&quot;\u{FFFD}\u{FFFD}\tend\n</p>"
        );
        assert_eq!(
            html! { p { (input) } }.into_string(),
            "<p>O'Hara &lt;b&gt;&amp;&quot;x&quot;\x1b\x07\tend\n</p>"
        );
        assert_eq!(Text("a'b").to_string(), "a&#39;b");
    }
}
