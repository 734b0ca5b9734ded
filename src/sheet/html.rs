//! The appeal report's part for scoresheets: both sheets as read, box by
//! box, beside the reconstruction, repairs and discrepancies marked.

use super::SheetClaim;
use crate::report::page::esc;

/// The sheets beside the reading, one row per ply.
pub fn sheets_table(c: &SheetClaim) -> String {
    let rec = &c.reconstruction;
    let best = &rec.readings[0];
    let mut s = String::from(
        "<section class=\"sheets\" id=\"sheets\">\n<h2>The scoresheets as read</h2>\n",
    );
    if c.depends_on_reading {
        s.push_str("<p class=\"depends\"><strong>The verdict depends on the reading.</strong> ");
        let word = |v: bool| if v { "valid" } else { "not valid" };
        s.push_str(&format!(
            "Reading 1 (best): {}.",
            word(c.report.verdict.valid)
        ));
        for (i, v) in &c.verdicts {
            s.push_str(&format!(" Reading {}: {}.", i + 1, word(*v)));
        }
        s.push_str(" The arbiter decides which reading the sheets bear.</p>\n");
    }
    if !rec.clear {
        s.push_str(
            "<p>Another reading explains the sheets as well: the record is not clear.</p>\n",
        );
    }
    s.push_str("<table class=\"sheet\">\n<thead><tr><th>Move</th><th>Reconstruction</th>");
    for (n, code) in rec.names.iter().zip(&rec.notation) {
        s.push_str(&format!("<th>{} ({})</th>", esc(n), esc(code)));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for (p, m) in best.moves.iter().enumerate() {
        let ply = p + 1;
        let disc = rec.discrepancies.iter().any(|d| d.ply == ply);
        let class = if disc { " class=\"discrepancy\"" } else { "" };
        s.push_str(&format!(
            "<tr{class}><td>{}</td><td>{}</td>",
            esc(rec.ply_label(ply, &best.moves).trim_end_matches(m.as_str())),
            esc(m)
        ));
        for (sh, col) in best.written.iter().enumerate() {
            let repaired = best
                .repairs
                .iter()
                .any(|r| r.ply == ply && r.sheet == sh + 1);
            let text = col.get(p).cloned().flatten().unwrap_or_default();
            let cell = if repaired {
                format!(
                    "<td class=\"repair\"><s>{}</s> → {}</td>",
                    esc(&text),
                    esc(m)
                )
            } else if text.is_empty() {
                "<td class=\"empty\">—</td>".to_owned()
            } else {
                format!("<td>{}</td>", esc(&text))
            };
            s.push_str(&cell);
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n</section>\n");
    s
}
