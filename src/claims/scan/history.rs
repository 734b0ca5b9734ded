//! The positions since the last irreversible move, kept small.
//!
//! Each ply costs one 16-byte entry (hash, count, and which position it
//! is); a position itself is stored once however often it recurs, so a
//! million plies of shuffling pieces hold a handful of positions. Every
//! hash match is confirmed by comparing positions, so a hash collision can
//! never make a repetition; and since equal positions share one stored
//! copy, two entries are the same position exactly when they name the same
//! copy.

/// One ply of the history.
#[derive(Clone, Copy)]
struct Entry {
    hash: u64,
    /// Index of the position in `positions`.
    id: u32,
    /// How many times the position had stood when it was reached.
    count: u32,
}

pub(super) struct History<P> {
    entries: Vec<Entry>,
    /// The distinct positions, each once.
    positions: Vec<P>,
    /// Some entry of this parity (index % 2) has stood twice or more.
    repeated: [bool; 2],
}

impl<P: Clone + PartialEq> History<P> {
    pub(super) fn new() -> History<P> {
        History {
            entries: Vec::with_capacity(64),
            positions: Vec::with_capacity(64),
            repeated: [false, false],
        }
    }

    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.positions.clear();
        self.repeated = [false, false];
    }

    /// The parity of the next entry: the side to move, as entries alternate.
    pub(super) fn parity(&self) -> usize {
        self.entries.len() % 2
    }

    /// Whether some position of this parity has stood twice or more.
    pub(super) fn repeated(&self, parity: usize) -> bool {
        self.repeated[parity]
    }

    /// The positions of this parity that have stood twice or more.
    pub(super) fn twice_stood(&self, parity: usize) -> impl Iterator<Item = &P> {
        self.entries
            .iter()
            .enumerate()
            .filter(move |(i, e)| i % 2 == parity && e.count >= 2)
            .map(|(_, e)| &self.positions[e.id as usize])
    }

    /// Adds the position reached; returns how many times it has now stood.
    pub(super) fn push(&mut self, hash: u64, pos: &P) -> u32 {
        let parity = self.parity();
        // Scanning back every second entry: same side to move.
        let mut found = None;
        let mut i = self.entries.len();
        while i >= 2 {
            i -= 2;
            let e = self.entries[i];
            if e.hash == hash && self.positions[e.id as usize] == *pos {
                found = Some((e.id, e.count + 1));
                break;
            }
        }
        let (id, count) = found.unwrap_or_else(|| {
            self.positions.push(pos.clone());
            (id_of(self.positions.len() - 1), 1)
        });
        if count >= 2 {
            self.repeated[parity] = true;
        }
        self.entries.push(Entry { hash, id, count });
        count
    }

    /// fide-2014: the position stood at the last `need` consecutive
    /// alternate moves (every four plies).
    pub(super) fn consecutive(&self, need: u32) -> bool {
        let Some(last) = self.entries.len().checked_sub(1) else {
            return false;
        };
        let id = self.entries[last].id;
        (1..need as usize).all(|k| last >= 4 * k && self.entries[last - 4 * k].id == id)
    }
}

/// Positions are numbered in a u32: a game has fewer plies than that (the
/// reader's own limits stop far earlier), and saturating keeps it total.
fn id_of(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_repetitions_and_stores_each_position_once() {
        let mut h: History<u8> = History::new();
        // a b a b a: "a" stands three times, "b" twice.
        let seq = [1u8, 2, 1, 2, 1];
        let counts: Vec<u32> = seq.iter().map(|&p| h.push(u64::from(p), &p)).collect();
        assert_eq!(counts, [1, 1, 2, 2, 3]);
        assert_eq!(h.positions.len(), 2);
        assert!(h.repeated(0) && h.repeated(1));
        assert_eq!(h.twice_stood(0).count(), 2);
        // A hash collision is not a repetition.
        assert_eq!(h.push(1, &9), 1);
        h.clear();
        assert_eq!(h.push(1, &1), 1);
        assert!(!h.repeated(0));
    }

    #[test]
    fn consecutive_alternate_repetitions() {
        let mut h: History<u8> = History::new();
        for p in [1u8, 2, 3, 4, 1, 2, 3, 4, 1] {
            h.push(u64::from(p), &p);
        }
        assert!(h.consecutive(3));
        assert!(!h.consecutive(4));
    }
}
