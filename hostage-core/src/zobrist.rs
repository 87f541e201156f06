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

use crate::{Color, Role, Square};

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
const TOTAL: usize = PIECE_KEYS + 1 + 4 + 8 + RESERVE_KEYS;

static KEYS: [u64; TOTAL] = {
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
pub(crate) fn castling(index: usize) -> u64 {
    KEYS[PIECE_KEYS + 1 + index]
}

/// The key of a legal en-passant capture on `file` (0 = a).
#[inline]
pub(crate) fn ep_file(file: u32) -> u64 {
    KEYS[PIECE_KEYS + 5 + file as usize]
}

/// Which reserve a count is in.
#[derive(Copy, Clone)]
pub(crate) enum ReserveKind {
    Prison(Color),
    Airfield(Color),
}

/// The key toggled when the count of `role` in the reserve goes between
/// `level - 1` and `level` (so a count `n` is the xor of levels `1..=n`).
#[inline]
pub(crate) fn reserve(kind: ReserveKind, role: Role, level: u8) -> u64 {
    let k = match kind {
        ReserveKind::Prison(c) => c.index(),
        ReserveKind::Airfield(c) => 2 + c.index(),
    };
    // Pawn..Queen are indices 0..5; kings never reach a reserve of a Position.
    let r = role.index().min(4);
    let level = usize::from(level.max(1) - 1) % LEVELS;
    KEYS[PIECE_KEYS + 13 + (k * 5 + r) * LEVELS + level]
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
