//! The appeal report's part for scoresheets: both sheets as read, box by
//! box, beside the reconstruction, repairs and discrepancies marked.

use maud::{Render, html};

use super::SheetClaim;
use crate::report::page::Text;

/// The table's look (the page's own style knows no sheet table).
const STYLE: &str = "<style>\
table.sheet{border-collapse:collapse;margin:0.5em 0}\
table.sheet td,table.sheet th{border:1px solid #999;padding:0.1em 0.6em;text-align:left}\
td.repair{background:#fde2b8}td.empty{color:#888}\
tr.discrepancy td{background:#fbe3e3}\
p.depends{border:2px solid #a00;padding:0.4em}\
</style>\n";

/// The sheets beside the reading, one row per ply.
pub(super) fn sheets_table(c: &SheetClaim) -> String {
    let rec = &c.reconstruction;
    let best = &rec.readings[0];
    let mut s = String::from(STYLE);
    s.push_str("<section class=\"sheets\" id=\"sheets\">\n<h2>The scoresheets as read</h2>\n");
    if c.depends_on_reading {
        s.push_str(&depends_notice(c));
    }
    if !rec.clear {
        s.push_str(
            "<p>Another reading explains the sheets as well: the record is not clear.</p>\n",
        );
    }
    s.push_str("<table class=\"sheet\">\n<thead><tr><th>Move</th><th>Reconstruction</th>");
    for (n, code) in rec.names.iter().zip(&rec.notation) {
        html! { th { (Text(n)) " (" (Text(code)) ")" } }.render_to(&mut s);
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for (p, m) in best.moves.iter().enumerate() {
        let ply = p + 1;
        let disc = rec.discrepancies.iter().any(|d| d.ply == ply);
        let label = rec.ply_label(ply, &best.moves);
        html! {
            tr class=[disc.then_some("discrepancy")] {
                td { (Text(label.trim_end_matches(m.as_str()))) } td { (Text(m)) }
                @for (sh, col) in best.written.iter().enumerate() {
                    @let repaired = best.repairs.iter().any(|r| r.ply == ply && r.sheet == sh + 1);
                    @let text = col.get(p).cloned().flatten().unwrap_or_default();
                    @if repaired { td.repair { s { (Text(&text)) } " → " (Text(m)) } }
                    @else if text.is_empty() { td.empty { "—" } }
                    @else { td { (Text(&text)) } }
                }
            }
        }
        .render_to(&mut s);
        s.push('\n');
    }
    s.push_str("</tbody>\n</table>\n</section>\n");
    s
}

/// The verdict under each reading, when they differ.
pub(super) fn depends_notice(c: &SheetClaim) -> String {
    let word = |v: bool| if v { "valid" } else { "not valid" };
    let mut s =
        String::from("<p class=\"depends\"><strong>The verdict depends on the reading.</strong> ");
    s.push_str(&format!(
        "Reading 1 (best): {}.",
        word(c.report.verdict.valid())
    ));
    for (i, v) in &c.verdicts {
        s.push_str(&format!(" Reading {}: {}.", i + 1, word(*v)));
    }
    s.push_str(
        " The arbiter decides which reading the sheets bear (see the scoresheets below).</p>\n",
    );
    s
}
