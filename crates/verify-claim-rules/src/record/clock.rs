//! The clock commands of PGN comments (`[%clk 0:04:55]`, `[%emt ...]`):
//! the time a player had left as written, read by the scan's per-game
//! table, the printers' clocks and the watch's warnings.

/// The argument of a `[%name ...]` command in comment text.
pub fn command(text: &str, name: &str) -> Option<String> {
    let at = text.find(&format!("[{name}"))? + name.len() + 1;
    let rest = text.get(at..)?;
    if !rest.starts_with(|c: char| c.is_ascii_whitespace()) {
        return None;
    }
    let arg = rest.split(']').next()?.trim();
    (!arg.is_empty() && arg.len() <= 32).then(|| arg.to_owned())
}

/// A clock as written ("1:05:00", "0:00:09.5", "5:00") in seconds.
pub fn seconds(clock: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in clock.split(':') {
        let v: f64 = part.trim().parse().ok()?;
        if !(0.0..100_000.0).contains(&v) {
            return None;
        }
        total = total * 60.0 + v;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_commands() {
        assert_eq!(
            command("{ [%clk 0:04:55] }", "%clk").as_deref(),
            Some("0:04:55")
        );
        assert_eq!(command("{[%emt 0:00:03]}", "%clk"), None);
        assert_eq!(
            command("{[%emt\n00:00:11]}", "%emt").as_deref(),
            Some("00:00:11")
        );
        assert_eq!(seconds("1:05:00"), Some(3900.0));
        assert_eq!(seconds("0:00:09.5"), Some(9.5));
        assert_eq!(seconds("x"), None);
    }
}
