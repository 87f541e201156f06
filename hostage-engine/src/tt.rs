//! The transposition table: what earlier searches learned about positions,
//! keyed by the core's Zobrist hash (which covers both prisons and both
//! airfields, so positions that differ only in a reserve never share an
//! entry).
//!
//! Buckets of two entries: one kept for the deepest search of the current
//! generation, one always replaced. The table's size is set in mebibytes
//! and never grows, so memory stays bounded by it (in WebAssembly too).

use alloc::{vec, vec::Vec};

use hostage_core::Move;

/// How a stored value bounds the true one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    check: u32,
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// The value (mates relative to this node, see `score::to_tt`).
    pub value: i16,
    /// The static evaluation, to spare recomputing it.
    pub eval: i16,
    /// The depth searched.
    pub depth: u8,
    /// How `value` bounds the truth.
    pub bound: Bound,
    generation: u8,
}

const EMPTY: Entry = Entry {
    check: 0,
    mv: None,
    value: 0,
    eval: 0,
    depth: 0,
    bound: Bound::Upper,
    generation: 0,
};

/// Default size: 16 MiB natively, as most engines default to.
pub const DEFAULT_HASH_MB: usize = 16;

/// A fixed-size hash table of search results.
pub(crate) struct Table {
    buckets: Vec<[Entry; 2]>,
    generation: u8,
}

impl Table {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub(crate) fn new(mb: usize) -> Table {
        let bytes = mb.saturating_mul(1 << 20);
        let len = (bytes / core::mem::size_of::<[Entry; 2]>()).max(1);
        Table {
            buckets: vec![[EMPTY; 2]; len],
            generation: 0,
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.buckets.fill([EMPTY; 2]);
        self.generation = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, hash: u64) -> usize {
        // Multiply-shift maps the hash onto any table length evenly.
        ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry stored for `hash`, if any.
    pub(crate) fn probe(&self, hash: u64) -> Option<Entry> {
        let check = hash as u32 | 1;
        self.buckets[self.index(hash)]
            .iter()
            .find(|e| e.check == check)
            .copied()
    }

    /// Stores a result for `hash`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store(
        &mut self,
        hash: u64,
        mv: Option<Move>,
        value: i32,
        eval: i32,
        depth: u32,
        bound: Bound,
    ) {
        let check = hash as u32 | 1;
        let generation = self.generation;
        let index = self.index(hash);
        let bucket = &mut self.buckets[index];
        let depth = depth.min(255) as u8;
        let slot = if bucket[0].check == check
            || bucket[0].generation != generation
            || depth >= bucket[0].depth
        {
            0
        } else {
            1
        };
        let old = bucket[slot];
        // Keep a known best move when this result has none.
        let mv = if mv.is_none() && old.check == check {
            old.mv
        } else {
            mv
        };
        bucket[slot] = Entry {
            check,
            mv,
            value: value.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth,
            bound,
            generation,
        };
    }

    /// Permille of the first thousand buckets' entries in use this
    /// generation (UCI `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let used = self.buckets[..sample]
            .iter()
            .flatten()
            .filter(|e| e.check != 0 && e.generation == self.generation)
            .count();
        (used * 1000 / (2 * sample).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hostage_core::{Role, Square};

    #[test]
    fn stores_and_finds_by_hash() {
        let mut tt = Table::new(1);
        let mv = Move::Drop {
            role: Role::Knight,
            to: Square::E4,
        };
        tt.store(0xDEAD_BEEF_1234_5678, Some(mv), 42, 7, 5, Bound::Exact);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored");
        assert_eq!(
            (e.mv, e.value, e.eval, e.depth, e.bound),
            (Some(mv), 42, 7, 5, Bound::Exact)
        );
        assert!(tt.probe(0x1111_2222_3333_4444).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678).is_none());
    }

    #[test]
    fn size_is_bounded_by_the_request() {
        let tt = Table::new(2);
        assert!(tt.buckets.len() * core::mem::size_of::<[Entry; 2]>() <= 2 << 20);
    }
}
