//! Zobrist hashing: one `u64` per position, equal for positions that R12
//! counts as the same.
//!
//! The hash covers the board, the side to move, the castling rights in force
//! (`K Q k q`, not the `E`/`e` marker), the en-passant file when an
//! en-passant capture is legal, and the four reserves: White's prison,
//! Black's prison, White's airfield and Black's airfield each have their own
//! keys, so a white bishop in White's airfield and the same bishop in Black's
//! prison hash differently.
//!
//! # Stability
//!
//! The keys are generated at compile time by SplitMix64 from the fixed seed
//! below, in a fixed order, and will not change within a major version: a
//! hash stored today (an opening book, a transposition table on disk) stays
//! valid. A test pins the start position's hash.

use crate::{Bitboard, Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// Number of count levels per reserve and role (no role has more than 8 men).
const LEVELS: usize = 8;
const PIECE_KEYS: usize = 2 * 6 * 64;
const RESERVE_KEYS: usize = 4 * 5 * LEVELS;
/// Where the reserve keys start.
const RESERVE_BASE: usize = PIECE_KEYS + 1 + 4 + 8;
/// One more role's levels after the reserve keys, never a key of a
/// position (kings never reach a reserve): an index from any role and a
/// masked level stays in the table without a clamp on the role.
const TOTAL: usize = RESERVE_BASE + RESERVE_KEYS + LEVELS;

const ALL_KEYS: [u64; TOTAL] = {
    let mut keys = [0; TOTAL];
    let mut state = 0x486f_7374_6167_6521; // "Hostage!"
    let mut i = 0;
    while i < TOTAL {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

static KEYS: [u64; TOTAL] = ALL_KEYS;

/// The xor of the castling keys of each set of rights in force, indexed by
/// `Q | K << 1 | q << 2 | k << 3` (see [`castling_rights`]).
static CASTLING_SETS: [u64; 16] = {
    // The key index (K Q k q are 0 1 2 3) of each bit of the set.
    const RIGHT_OF_BIT: [usize; 4] = [1, 0, 3, 2];
    let mut sets = [0; 16];
    let mut set = 0;
    while set < 16 {
        let mut bit = 0;
        while bit < 4 {
            if set >> bit & 1 == 1 {
                sets[set] ^= ALL_KEYS[PIECE_KEYS + 1 + RIGHT_OF_BIT[bit]];
            }
            bit += 1;
        }
        set += 1;
    }
    sets
};

/// The key of `color`'s `role` on `sq`.
#[inline]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    // The mask lets the compiler see the index in bounds.
    KEYS[(color.index() * 6 + role.index()) * 64 + (sq.index() as usize & 63)]
}

/// Xored in when Black is to move.
#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS[PIECE_KEYS]
}

/// The key of a castling right in force: `K Q k q` are 0, 1, 2, 3.
#[inline]
#[cfg(test)]
pub(crate) fn castling(index: usize) -> u64 {
    KEYS[PIECE_KEYS + 1 + index]
}

/// The key of a legal en-passant capture on `file` (0 = a).
#[inline]
pub(crate) fn ep_file(file: u32) -> u64 {
    KEYS[PIECE_KEYS + 5 + file as usize]
}

/// The slot of `color`'s prison among the four reserves: White's prison,
/// Black's prison, White's airfield, Black's airfield (the order of the
/// reserve keys, and of `Position`'s reserves).
#[inline]
pub(crate) const fn prison_slot(color: Color) -> usize {
    color.index()
}

/// The slot of `color`'s airfield (see [`prison_slot`]).
#[inline]
pub(crate) const fn airfield_slot(color: Color) -> usize {
    2 + color.index()
}

/// The key toggled when the count of `role` in the reserve of `slot` (see
/// [`prison_slot`]) goes between `level - 1` and `level` (so a count `n` is
/// the xor of levels `1..=n`).
#[inline]
pub(crate) fn reserve(slot: usize, role: Role, level: u8) -> u64 {
    // Pawn..Queen are indices 0..5; kings never reach a reserve of a
    // Position. The masks (and the spare keys after the last reserve's)
    // keep the index in the table whatever the input.
    let level = usize::from(level.wrapping_sub(1)) % LEVELS;
    KEYS[RESERVE_BASE + ((slot & 3) * 5 + role.index()) * LEVELS + level]
}

/// The keys of the castling rights in force (`K Q k q`) for the castling
/// state `unmoved` (see [`crate::Position::unmoved`]): a right is in force
/// when its king's home square and its corner are both unmoved.
#[inline]
pub(crate) fn castling_rights(unmoved: Bitboard) -> u64 {
    let u = unmoved.0;
    // Each side's corners, kept when its king's home square is unmoved:
    // bit 0 the a-file corner (Q or q), bit 7 the h-file corner (K or k).
    let white = u & 0x81 & (u >> Square::E1.index() & 1).wrapping_neg();
    let black = u >> Square::A8.index() & 0x81 & (u >> Square::E8.index() & 1).wrapping_neg();
    let set = (white | white >> 6) & 3 | ((black | black >> 6) & 3) << 2;
    CASTLING_SETS[set as usize & 15]
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn reserves_hash_separately() {
        // The same white bishop in White's airfield and in Black's prison.
        let airfield = Position::from_fen("4k3/8/8/8/8/8/8/4K3[B] w - - 0 1").expect("legal");
        let prison = Position::from_fen("4k3/8/8/8/8/8/8/4K3[#B] w - - 0 1").expect("legal");
        let black_prison_of_white_men =
            Position::from_fen("4k3/8/8/8/8/8/8/4K3[#b] w - - 0 1").expect("legal");
        let empty = Position::from_fen("4k3/8/8/8/8/8/8/4K3[] w - - 0 1").expect("legal");
        let hashes = [
            airfield.zobrist_hash(),
            prison.zobrist_hash(),
            black_prison_of_white_men.zobrist_hash(),
            empty.zobrist_hash(),
        ];
        for i in 0..hashes.len() {
            for j in i + 1..hashes.len() {
                assert_ne!(hashes[i], hashes[j], "{i} {j}");
            }
        }
        // Counts: two bishops differ from one.
        let two = Position::from_fen("4k3/8/8/8/8/8/8/4K3[BB] w - - 0 1").expect("legal");
        assert_ne!(two.zobrist_hash(), airfield.zobrist_hash());
    }

    #[test]
    fn castling_sets_xor_their_rights() {
        use crate::{Bitboard, Square};
        // K Q k q: the king's square and the corner of each right.
        let rights = [
            (Square::E1, Square::H1),
            (Square::E1, Square::A1),
            (Square::E8, Square::H8),
            (Square::E8, Square::A8),
        ];
        for set in 0..16_usize {
            let mut unmoved = Bitboard::EMPTY;
            let mut expected = 0;
            for (i, (king, corner)) in rights.into_iter().enumerate() {
                if set >> i & 1 == 1 {
                    unmoved = unmoved.with(king).with(corner);
                    expected ^= super::castling(i);
                }
            }
            assert_eq!(super::castling_rights(unmoved), expected, "{set:04b}");
        }
        // A king's square alone, or a corner alone, is no right.
        let lone = Bitboard::EMPTY.with(Square::E1).with(Square::A8);
        assert_eq!(super::castling_rights(lone), 0);
    }

    #[test]
    fn keys_are_stable() {
        // Pinned on purpose: these values are part of the public contract
        // (module docs). If this fails, the keys changed: a breaking change.
        assert_eq!(
            Position::new().zobrist_hash(),
            0xc762_5654_8ca7_3709_u64,
            "{:#x}",
            Position::new().zobrist_hash()
        );
    }
}
