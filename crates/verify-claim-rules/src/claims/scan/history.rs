//! The positions since the last irreversible move, kept small.
//!
//! Each ply costs one 16-byte entry: its hash, how many times its position
//! had stood, and which stored copy of the position it is. A position is
//! stored when a later hash matches it, rebuilt by replaying fewer than
//! [`SNAPSHOT`] moves from the entry before it that is a multiple of
//! `SNAPSHOT` (whose position is always stored, as a snapshot); a position
//! stored once serves however often it recurs, so a million plies of
//! shuffling pieces hold a handful of positions. Every hash match is
//! confirmed by comparing positions, so a hash collision can never make a
//! repetition; and since equal positions share one stored copy, two
//! entries are the same position exactly when they name the same copy (an
//! entry that names none is the only one of its position).

/// Plies between two snapshots: fewer moves than this are replayed to
/// rebuild a position, and a position is copied at most once per this many
/// plies unless it recurs.
const SNAPSHOT: usize = 32;

/// An entry whose position is not stored: it has stood once, no later
/// position has matched its hash, and it is not a snapshot.
const UNSTORED: u32 = u32::MAX;

/// One ply of the history.
#[derive(Clone, Copy)]
struct Entry {
    hash: u64,
    /// Index of the position in `positions`, or [`UNSTORED`].
    id: u32,
    /// How many times the position had stood when it was reached.
    count: u32,
}

pub(super) struct History<P> {
    entries: Vec<Entry>,
    /// The ply of the first entry.
    first_ply: usize,
    /// The stored positions, each once: those that recurred (or whose
    /// hash collided) and the snapshots.
    positions: Vec<P>,
    /// Some entry of this parity (index % 2) has stood twice or more.
    repeated: [bool; 2],
    /// For each parity, one bit per entry: bit `hash >> 58` (see [`tag`]).
    /// A hash whose bit is clear matches no entry of that parity, so the
    /// common new position skips the scan back (and its loop's exit, a
    /// branch mispredicted at every ply).
    tags: [u64; 2],
}

/// The bit of a hash in [`History::tags`].
fn tag(hash: u64) -> u64 {
    1 << (hash >> 58)
}

impl<P: Clone + PartialEq> History<P> {
    pub(super) fn new() -> History<P> {
        History {
            entries: Vec::with_capacity(64),
            first_ply: 0,
            positions: Vec::new(),
            repeated: [false, false],
            tags: [0, 0],
        }
    }

    /// Forgets every position; the next one pushed is that of `ply`.
    pub(super) fn clear(&mut self, ply: usize) {
        self.entries.clear();
        self.positions.clear();
        self.first_ply = ply;
        self.repeated = [false, false];
        self.tags = [0, 0];
    }

    /// The parity of the next entry: the side to move, as entries alternate.
    pub(super) fn parity(&self) -> usize {
        self.entries.len() % 2
    }

    /// Whether some position of this parity has stood twice or more.
    pub(super) fn repeated(&self, parity: usize) -> bool {
        self.repeated[parity]
    }

    /// The positions of this parity that have stood twice or more (all of
    /// them stored: a position is stored when it recurs).
    pub(super) fn twice_stood(&self, parity: usize) -> impl Iterator<Item = &P> {
        self.entries
            .iter()
            .enumerate()
            .filter(move |(i, e)| i % 2 == parity && e.count >= 2)
            .filter_map(|(_, e)| self.positions.get(e.id as usize))
    }

    /// Adds the position reached; returns how many times it has now stood.
    /// `replay(snapshot, from, to)` is the position at ply `to`, reached by
    /// playing the game's moves from ply `from` on the snapshot; it is asked
    /// only when a hash matches a position not stored yet.
    pub(super) fn push(
        &mut self,
        hash: u64,
        pos: &P,
        replay: impl Fn(&P, usize, usize) -> P,
    ) -> u32 {
        let parity = self.parity();
        let index = self.entries.len();
        // Scanning back every second entry: same side to move.
        let mut found = None;
        let mut i = if self.tags[parity] & tag(hash) == 0 {
            0
        } else {
            index
        };
        self.tags[parity] |= tag(hash);
        while i >= 2 {
            i -= 2;
            if self.entries[i].hash == hash && *self.stored(i, &replay) == *pos {
                let e = self.entries[i];
                found = Some((e.id, e.count + 1));
                break;
            }
        }
        let (id, count) = found.unwrap_or_else(|| {
            if index.is_multiple_of(SNAPSHOT) {
                (self.store(pos.clone()), 1)
            } else {
                (UNSTORED, 1)
            }
        });
        if count >= 2 {
            self.repeated[parity] = true;
        }
        self.entries.push(Entry { hash, id, count });
        count
    }

    /// The position of entry `i`, stored now if it was not.
    fn stored(&mut self, i: usize, replay: &impl Fn(&P, usize, usize) -> P) -> &P {
        if self.entries[i].id == UNSTORED {
            let s = i - i % SNAPSHOT;
            let snapshot = &self.positions[self.entries[s].id as usize];
            let pos = replay(snapshot, self.first_ply + s, self.first_ply + i);
            self.entries[i].id = self.store(pos);
        }
        &self.positions[self.entries[i].id as usize]
    }

    fn store(&mut self, pos: P) -> u32 {
        self.positions.push(pos);
        id_of(self.positions.len() - 1)
    }

    /// fide-2014: the position stood at the last `need` consecutive
    /// alternate moves (every four plies).
    pub(super) fn consecutive(&self, need: u32) -> bool {
        let Some(last) = self.entries.len().checked_sub(1) else {
            return false;
        };
        let id = self.entries[last].id;
        (1..need as usize)
            .all(|k| id != UNSTORED && last >= 4 * k && self.entries[last - 4 * k].id == id)
    }
}

/// Positions are numbered in a u32 below [`UNSTORED`]: a game has fewer
/// plies than that (the reader's own limits stop far earlier), and
/// saturating keeps it total.
fn id_of(index: usize) -> u32 {
    u32::try_from(index).map_or(UNSTORED - 1, |i| i.min(UNSTORED - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions are the plies' numbers modulo a period: `replay` finds
    /// the position of a ply from the ply alone.
    fn replay_mod(period: u8) -> impl Fn(&u8, usize, usize) -> u8 {
        move |_, _, to| (to % usize::from(period)) as u8
    }

    #[test]
    fn counts_repetitions_and_stores_each_position_once() {
        let mut h: History<u8> = History::new();
        // a b a b a: "a" stands three times, "b" twice.
        let seq = [0u8, 1, 0, 1, 0];
        let counts: Vec<u32> = seq
            .iter()
            .map(|&p| h.push(u64::from(p), &p, replay_mod(2)))
            .collect();
        assert_eq!(counts, [1, 1, 2, 2, 3]);
        assert_eq!(h.positions.len(), 2);
        assert!(h.repeated(0) && h.repeated(1));
        assert_eq!(h.twice_stood(0).count(), 2);
        // A hash collision is not a repetition.
        assert_eq!(h.push(0, &9, replay_mod(2)), 1);
        h.clear(7);
        assert_eq!(h.push(1, &1, replay_mod(2)), 1);
        assert!(!h.repeated(0));
    }

    #[test]
    fn rebuilds_positions_from_the_nearest_snapshot() {
        // A long cycle of 40 positions: each recurs after 40 plies, so the
        // positions are rebuilt from snapshots (never further than
        // SNAPSHOT plies back), from a history that starts at ply 5.
        let mut h: History<u8> = History::new();
        h.clear(5);
        let replayed = std::cell::Cell::new(0usize);
        let replay = |snap: &u8, from: usize, to: usize| {
            assert_eq!(usize::from(*snap), from % 40, "snapshot of ply {from}");
            assert!(to - from < SNAPSHOT);
            replayed.set(replayed.get() + 1);
            (to % 40) as u8
        };
        for ply in 5..5 + 200 {
            let p = (ply % 40) as u8;
            let count = h.push(u64::from(p) * 7919, &p, replay);
            assert_eq!(count as usize, (ply - 5) / 40 + 1, "ply {ply}");
        }
        // Plies 5 and 37 are snapshots, stored as they stand.
        assert_eq!(replayed.get(), 38);
        assert_eq!(h.positions.len(), 40);
    }

    #[test]
    fn consecutive_alternate_repetitions() {
        let mut h: History<u8> = History::new();
        for p in [1u8, 2, 3, 4, 1, 2, 3, 4, 1] {
            h.push(u64::from(p), &p, |_, _, to| [1, 2, 3, 4][to % 4]);
        }
        assert!(h.consecutive(3));
        assert!(!h.consecutive(4));
        // Positions that stood once are not the same position.
        let mut h: History<u8> = History::new();
        for p in [1u8, 2, 3, 4, 5] {
            h.push(u64::from(p), &p, |_, _, _| unreachable!());
        }
        assert!(!h.consecutive(2));
    }
}
