//! The transposition table: what earlier searches learned about positions,
//! keyed by the core's Zobrist hash (which covers both prisons and both
//! airfields, so positions that differ only in a reserve never share an
//! entry).
//!
//! Buckets of two entries: one kept for the deepest search of the current
//! generation, one always replaced. The table's size is set in mebibytes
//! and never grows, so memory stays bounded by it (in WebAssembly too).
//!
//! The table is shared by the threads of a Lazy SMP search without locks
//! and without `unsafe`: an entry is two `AtomicU64` words, `data` (value,
//! static evaluation, depth, bound, generation) and `key ^ data`, where
//! `key` is the 32-bit check of the hash and the 32-bit encoded move
//! (Hyatt and Mann's lockless hashing, as Crafty and Stockfish use it). A
//! reader that sees one word of one write and the other of another gets a
//! check that no longer matches, and treats the entry as absent; the move
//! it decodes is only ever compared with generated legal moves, so even a
//! rare undetected mix cannot make the search play an illegal move. With
//! one thread nothing races, and the table behaves exactly as a plain one.

use alloc::{boxed::Box, vec::Vec};
use core::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use hostage_core::{Move, Role, Square};

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

impl Bound {
    /// Whether a stored `value` of this kind decides the window
    /// `(alpha, beta)`, so the node can return it without searching.
    pub(crate) fn cuts(self, value: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }
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

/// The largest table an engine makes, in MiB ([`Engine::with_hash_mb`]
/// clamps to it; UCI's `Hash` and the bindings accept up to it): 4 GiB
/// natively, 1 GiB in WebAssembly, whose whole memory is at most 4 GiB.
///
/// [`Engine::with_hash_mb`]: crate::Engine::with_hash_mb
pub const MAX_HASH_MB: usize = if cfg!(target_family = "wasm") {
    1024
} else {
    4096
};

/// The bytes of one bucket. Fixed (two entries of two words), so that a
/// table of a given size in MiB has the same number of buckets everywhere
/// and node-limited searches agree across platforms.
const BUCKET_BYTES: usize = 32;

/// One entry's two words.
#[derive(Default)]
struct Slot {
    /// `(check << 32 | move) ^ data`.
    keyed: AtomicU64,
    /// Value, eval, depth, bound and generation.
    data: AtomicU64,
}

impl Slot {
    fn load(&self) -> Entry {
        let data = self.data.load(Relaxed);
        let key = self.keyed.load(Relaxed) ^ data;
        unpack(key, data)
    }

    fn save(&self, e: &Entry) {
        let (key, data) = pack(e);
        self.keyed.store(key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

fn pack(e: &Entry) -> (u64, u64) {
    let key = u64::from(e.check) << 32 | u64::from(encode(e.mv));
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    // Value and eval in the high half: two writes for one position that
    // differ in them also differ in the check a torn read computes.
    let data = u64::from(e.value as u16) << 48
        | u64::from(e.eval as u16) << 32
        | u64::from(e.depth) << 16
        | bound << 8
        | u64::from(e.generation);
    (key, data)
}

fn unpack(key: u64, data: u64) -> Entry {
    Entry {
        check: (key >> 32) as u32,
        mv: decode(key as u32),
        value: (data >> 48) as u16 as i16,
        eval: (data >> 32) as u16 as i16,
        depth: (data >> 16) as u8,
        bound: match (data >> 8) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        generation: data as u8,
    }
}

/// A move in 32 bits: kind (3 bits: 0 none, 1 normal, 2 en passant,
/// 3 castle, 4 drop, 5 exchange), then role, from, to, capture and
/// promotion (or released and rescued) as 3- and 6-bit fields.
fn encode(mv: Option<Move>) -> u32 {
    let sq = |s: Square| s.index();
    let role = |r: Role| r as u32;
    let opt = |r: Option<Role>| r.map_or(0, role);
    match mv {
        None => 0,
        Some(Move::Normal {
            role: r,
            from,
            capture,
            to,
            promotion,
        }) => {
            1 | role(r) << 3
                | sq(from) << 6
                | sq(to) << 12
                | opt(capture) << 18
                | opt(promotion) << 21
        }
        Some(Move::EnPassant { from, to }) => 2 | sq(from) << 6 | sq(to) << 12,
        Some(Move::Castle { king, rook }) => 3 | sq(king) << 6 | sq(rook) << 12,
        Some(Move::Drop { role: r, to }) => 4 | role(r) << 3 | sq(to) << 12,
        Some(Move::Exchange {
            released,
            rescued,
            to,
        }) => 5 | role(released) << 3 | sq(to) << 12 | role(rescued) << 18,
    }
}

/// The move of [`encode`]; `None` for none or for bits no move encodes to
/// (a torn read), never a panic.
fn decode(bits: u32) -> Option<Move> {
    let sq = |shift: u32| Square::new(bits >> shift & 63);
    let role = |shift: u32| match bits >> shift & 7 {
        0 => None,
        n => Role::ALL.get(n as usize - 1).copied(),
    };
    match bits & 7 {
        1 => Some(Move::Normal {
            role: role(3)?,
            from: sq(6)?,
            to: sq(12)?,
            capture: role(18),
            promotion: role(21),
        }),
        2 => Some(Move::EnPassant {
            from: sq(6)?,
            to: sq(12)?,
        }),
        3 => Some(Move::Castle {
            king: sq(6)?,
            rook: sq(12)?,
        }),
        4 => Some(Move::Drop {
            role: role(3)?,
            to: sq(12)?,
        }),
        5 => Some(Move::Exchange {
            released: role(3)?,
            rescued: role(18)?,
            to: sq(12)?,
        }),
        _ => None,
    }
}

/// A fixed-size hash table of search results, shareable between threads.
pub(crate) struct Table {
    buckets: Box<[[Slot; 2]]>,
    generation: AtomicU8,
}

impl Table {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub(crate) fn new(mb: usize) -> Table {
        let bytes = mb.saturating_mul(1 << 20);
        let len = (bytes / BUCKET_BYTES).max(1);
        let buckets: Vec<[Slot; 2]> = (0..len).map(|_| Default::default()).collect();
        Table {
            buckets: buckets.into_boxed_slice(),
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        for bucket in self.buckets.iter_mut() {
            for slot in bucket {
                *slot.keyed.get_mut() = 0;
                *slot.data.get_mut() = 0;
            }
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
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
            .map(Slot::load)
            .find(|e| e.check == check)
    }

    /// Stores a result for `hash`.
    pub(crate) fn store(
        &self,
        hash: u64,
        mv: Option<Move>,
        value: i32,
        eval: i32,
        depth: u32,
        bound: Bound,
    ) {
        let check = hash as u32 | 1;
        let generation = self.generation.load(Relaxed);
        let bucket = &self.buckets[self.index(hash)];
        let depth = depth.min(255) as u8;
        let first = bucket[0].load();
        let slot = if first.check == check || first.generation != generation || depth >= first.depth
        {
            0
        } else {
            1
        };
        let old = if slot == 0 { first } else { bucket[1].load() };
        // Keep a known best move when this result has none.
        let mv = if mv.is_none() && old.check == check {
            old.mv
        } else {
            mv
        };
        bucket[slot].save(&Entry {
            check,
            mv,
            value: value.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth,
            bound,
            generation,
        });
    }

    /// Permille of the first thousand entries in use this generation (UCI
    /// `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let generation = self.generation.load(Relaxed);
        let used = self.buckets[..sample]
            .iter()
            .flatten()
            .map(Slot::load)
            .filter(|e| e.check != 0 && e.generation == generation)
            .count();
        (used * 1000 / (2 * sample).max(1)) as u32
    }
}

impl Default for Entry {
    fn default() -> Entry {
        EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn negative_values_and_every_bound_survive_packing() {
        let tt = Table::new(1);
        for (i, bound) in [Bound::Exact, Bound::Lower, Bound::Upper]
            .into_iter()
            .enumerate()
        {
            let hash = 0x0123_4567_89AB_CDEF ^ (i as u64) << 40;
            tt.store(hash, None, -31_990, -250, 63, bound);
            let e = tt.probe(hash).expect("stored");
            assert_eq!(
                (e.mv, e.value, e.eval, e.depth, e.bound),
                (None, -31_990, -250, 63, bound)
            );
        }
    }

    #[test]
    fn every_legal_move_of_a_hostage_position_round_trips() {
        // Drops, exchanges, promotions, castling and en passant.
        let fens = [
            "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
            "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
            "4k3/8/8/3pP3/8/8/8/4K3[#Nn] w - d6 0 2",
        ];
        for fen in fens {
            let pos = hostage_core::Position::from_fen(fen).expect("valid FEN");
            let moves = pos.legal_moves();
            assert!(!moves.is_empty());
            for mv in moves {
                assert_eq!(decode(encode(Some(mv))), Some(mv), "{mv}");
            }
        }
        assert_eq!(decode(0), None);
        // Bits no move encodes to decode to nothing rather than panicking.
        assert_eq!(decode(7), None);
        assert_eq!(decode(1 | 7 << 3), None);
    }

    #[test]
    fn a_torn_entry_reads_as_absent() {
        let tt = Table::new(1);
        let hash = 0xDEAD_BEEF_1234_5678;
        tt.store(hash, None, 100, 10, 4, Bound::Exact);
        let bucket = &tt.buckets[tt.index(hash)];
        // Another write's data word with this entry's keyed word.
        let (key, data) = pack(&Entry {
            value: -300,
            eval: 20,
            ..tt.probe(hash).expect("stored")
        });
        assert_ne!(key ^ data, bucket[0].keyed.load(Relaxed));
        bucket[0].data.store(data, Relaxed);
        assert!(tt.probe(hash).is_none());
    }

    #[test]
    fn size_is_bounded_by_the_request() {
        let tt = Table::new(2);
        assert_eq!(core::mem::size_of::<[Slot; 2]>(), BUCKET_BYTES);
        assert!(tt.buckets.len() * BUCKET_BYTES <= 2 << 20);
    }

    #[test]
    fn the_table_is_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Table>();
    }
}
