//! One row of the per-game table as a JSON line, written by hand.
//!
//! Why not `serde_json::to_writer(row)`: the table writes a row for every
//! game (a month of lichess is ~100 million), and serde's serializer spent
//! more time on a row than the scan's reader on the game's tags (callgrind:
//! ~7,300 instructions a row, mostly escaping the 28 constant keys byte by
//! byte and every tag through the general escaper). Here the keys are
//! constant bytes, integers go through `itoa` (serde_json's own), a string
//! that needs no escaping (almost every tag) is copied as it is, and the
//! rest (strings with quotes, backslashes or control characters, and the
//! floats) is left to serde_json, so the bytes are serde_json's: the test
//! below compares the two on hostile rows.

use crate::claims::scan::Kind;
use crate::laws::GameResult;
use crate::scan::GameLine;

/// Appends `g` as one JSON object (no newline): the bytes
/// `serde_json::to_writer(out, g)` writes.
pub(crate) fn row(out: &mut Vec<u8>, g: &GameLine) {
    key(out, b"{\"file\":");
    string(out, &g.file);
    key(out, b",\"game\":");
    int(out, g.game);
    key(out, b",\"line\":");
    int(out, g.line);
    for (name, v) in [
        (&b",\"site\":"[..], g.site()),
        (b",\"event\":", g.event()),
        (b",\"date\":", g.date()),
        (b",\"round\":", g.round()),
        (b",\"white\":", g.white()),
        (b",\"black\":", g.black()),
    ] {
        key(out, name);
        opt_string(out, v);
    }
    key(out, b",\"white_elo\":");
    opt_int(out, g.white_elo);
    key(out, b",\"black_elo\":");
    opt_int(out, g.black_elo);
    for (name, v) in [
        (&b",\"time_control\":"[..], g.time_control()),
        (b",\"eco\":", g.eco()),
        (b",\"termination\":", g.termination()),
        (b",\"result\":", g.result()),
    ] {
        key(out, name);
        opt_string(out, v);
    }
    key(out, b",\"plies\":");
    int(out, g.plies);
    key(out, b",\"laws_result\":");
    opt_string(out, g.laws_result.map(GameResult::name));
    key(out, b",\"ended_by\":");
    opt_string(out, g.ended_by.map(Kind::name));
    key(out, b",\"ended_ply\":");
    opt_int(out, g.ended_ply);
    key(out, b",\"result_agrees\":");
    out.extend_from_slice(match g.result_agrees {
        None => b"null",
        Some(true) => b"true",
        Some(false) => b"false",
    });
    key(out, b",\"first_threefold_claimable_ply\":");
    opt_int(out, g.first_threefold_claimable_ply);
    key(out, b",\"first_fifty_claimable_ply\":");
    opt_int(out, g.first_fifty_claimable_ply);
    key(out, b",\"plies_after_first_claimable\":");
    opt_int(out, g.plies_after_first_claimable);
    key(out, b",\"clock_white\":");
    opt_float(out, g.clock_white);
    key(out, b",\"clock_black\":");
    opt_float(out, g.clock_black);
    key(out, b",\"error\":");
    opt_string(out, g.error.as_deref());
    key(out, b",\"error_ply\":");
    opt_int(out, g.error_ply);
    key(out, b",\"findings\":");
    int(out, g.findings);
    out.push(b'}');
}

fn key(out: &mut Vec<u8>, k: &[u8]) {
    out.extend_from_slice(k);
}

fn int(out: &mut Vec<u8>, v: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

fn opt_int(out: &mut Vec<u8>, v: Option<impl itoa::Integer>) {
    match v {
        Some(v) => int(out, v),
        None => out.extend_from_slice(b"null"),
    }
}

fn opt_float(out: &mut Vec<u8>, v: Option<f64>) {
    match v {
        // serde_json's float format (and `null` for a non-finite one).
        Some(v) => serde_json::to_writer(&mut *out, &v).unwrap_or_default(),
        None => out.extend_from_slice(b"null"),
    }
}

fn opt_string(out: &mut Vec<u8>, v: Option<&str>) {
    match v {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// The bytes serde_json escapes in a string.
const ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// A JSON string: copied between quotes when nothing in it needs an
/// escape (a quote, a backslash or a control character: what serde_json
/// escapes), else serde_json's escaping.
fn string(out: &mut Vec<u8>, s: &str) {
    if !s.bytes().any(|b| ESCAPED[usize::from(b)]) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing to a Vec cannot fail.
        serde_json::to_writer(&mut *out, s).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(g: &GameLine) {
        let mut ours = Vec::new();
        row(&mut ours, g);
        let theirs = serde_json::to_vec(g).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
    }

    #[test]
    fn a_row_is_serde_jsons_bytes() {
        both(&GameLine::default());
        let hostile = "q\"b\\s/\u{0}\u{1f}\u{7f}\t\n\r\u{8}\u{c}é♞\u{2028}";
        let mut g = GameLine::default();
        g.file = hostile.into();
        g.game = usize::MAX;
        g.line = u32::MAX;
        g.white_elo = Some(-5);
        g.black_elo = Some(i64::MAX);
        g.plies = 120;
        g.laws_result = Some(GameResult::Draw);
        g.ended_by = Some(Kind::FivefoldRepetition);
        g.ended_ply = Some(0);
        g.result_agrees = Some(false);
        g.first_threefold_claimable_ply = Some(33);
        g.first_fifty_claimable_ply = Some(100);
        g.plies_after_first_claimable = Some(87);
        g.clock_white = Some(180.0);
        g.clock_black = Some(0.5);
        g.error = Some(hostile.to_owned());
        g.error_ply = Some(7);
        g.findings = 3;
        both(&g);
        for (name, value) in [
            ("Result", "1/2-1/2"),
            ("Site", "https://lichess.org/abc"),
            ("Event", hostile),
            ("Date", ""),
            ("Round", "-"),
            ("White", "Ёжик"),
            ("Black", "O'Neil"),
            ("TimeControl", "300+0"),
            ("ECO", "B01"),
            ("Termination", "Time forfeit"),
            ("Site", "a second Site: not taken"),
        ] {
            g.set_tag(name, value);
            both(&g);
        }
        assert_eq!(g.site(), Some("https://lichess.org/abc"));
        assert_eq!(g.result(), Some("1/2-1/2"));
        for clock in [0.0, 1e-7, 12345.678, 3600.5, 1e21, f64::NAN, f64::INFINITY] {
            let mut g = GameLine::default();
            g.clock_white = Some(clock);
            g.result_agrees = Some(true);
            both(&g);
        }
    }
}
