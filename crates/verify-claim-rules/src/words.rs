//! Counts with their nouns, as an arbiter writes them: "1 move", "2 times",
//! "4.5 moves", "1 ply". Every message of the claim engine and every
//! printer counts through here (never "move(s)").

/// `n` with its noun, singular for exactly one: "1 ply", "9 plies".
pub fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// "2 times", "1 time".
pub fn times(n: usize) -> String {
    count(n, "time", "times")
}

/// "9 plies", "1 ply".
pub fn plies(n: u32) -> String {
    count(n as usize, "ply", "plies")
}

/// Plies as moves by each player: "4.5 moves", "1 move", "0 moves".
pub fn moves_of_plies(n: u32) -> String {
    if n.is_multiple_of(2) {
        count((n / 2) as usize, "move", "moves")
    } else {
        format!("{}.5 moves", n / 2)
    }
}

/// "1 move", "3 moves".
pub fn moves(n: usize) -> String {
    count(n, "move", "moves")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_their_noun_in_the_singular_for_one() {
        assert_eq!(times(1), "1 time");
        assert_eq!(times(2), "2 times");
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(9), "9 plies");
        assert_eq!(moves_of_plies(9), "4.5 moves");
        assert_eq!(moves_of_plies(2), "1 move");
        assert_eq!(moves_of_plies(1), "0.5 moves");
        assert_eq!(moves_of_plies(0), "0 moves");
    }
}
