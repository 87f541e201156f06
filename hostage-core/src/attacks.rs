//! Attack tables and slider attacks.
//!
//! Every table is a `static` built by `const fn` at compile time: no build
//! script, no lazy initialisation, no `unsafe`. Sliders use fancy magic
//! bitboards (the `magic` module), except in the WebAssembly build, where the
//! 841 KiB table would be most of the module: there they use hyperbola
//! quintessence on files and diagonals and a first-rank lookup on ranks
//! (chessops' choice, for the same reason), about three times the
//! instructions of a magic lookup. Both are tested against plain ray
//! walking on every target. The tables here know nothing of Hostage Chess:
//! the frozen pawn of R8 is applied by the position, which knows the prisons.

use crate::{Bitboard, Color, Role, Square};

#[cfg(not(target_arch = "wasm32"))]
mod magic;

const fn step_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static WHITE_PAWN: [u64; 64] = step_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [u64; 64] = step_table(&[(-1, -1), (1, -1)]);

/// Squares on the line through `sq` in direction `(df, dr)` and its opposite,
/// excluding `sq` itself.
const fn line_mask(sq: usize, df: i32, dr: i32) -> u64 {
    let mut mask = 0;
    let mut sign = -1;
    while sign <= 1 {
        let (mut f, mut r) = ((sq % 8) as i32 + sign * df, (sq / 8) as i32 + sign * dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            mask |= 1 << (r * 8 + f);
            f += sign * df;
            r += sign * dr;
        }
        sign += 2;
    }
    mask
}

const fn mask_table(df: i32, dr: i32) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = line_mask(sq, df, dr);
        sq += 1;
    }
    table
}

static FILE_MASK: [u64; 64] = mask_table(0, 1);
static DIAG_MASK: [u64; 64] = mask_table(1, 1);
static ANTI_MASK: [u64; 64] = mask_table(-1, 1);

/// `FIRST_RANK[occ][file]`: attacks along rank 1 of a rook on `file`, where
/// `occ` is the occupancy of the inner six squares b1..g1 shifted down by one.
static FIRST_RANK: [[u8; 8]; 64] = {
    let mut table = [[0u8; 8]; 64];
    let mut occ = 0;
    while occ < 64 {
        let full = (occ << 1) as u32;
        let mut file = 0;
        while file < 8 {
            let mut att = 0u32;
            let mut f = file as i32 + 1;
            while f < 8 {
                att |= 1 << f;
                if full & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            f = file as i32 - 1;
            while f >= 0 {
                att |= 1 << f;
                if full & (1 << f) != 0 {
                    break;
                }
                f -= 1;
            }
            table[occ][file] = att as u8;
            file += 1;
        }
        occ += 1;
    }
    table
};

const fn ray_between(a: usize, b: usize) -> (u64, u64) {
    // Returns (squares strictly between, whole line through both) or (0, 0).
    let (af, ar, bf, br) = (
        (a % 8) as i32,
        (a / 8) as i32,
        (b % 8) as i32,
        (b / 8) as i32,
    );
    let (df, dr) = (bf - af, br - ar);
    if a == b || !(df == 0 || dr == 0 || df == dr || df == -dr) {
        return (0, 0);
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut between = 0;
    let (mut f, mut r) = (af + sf, ar + sr);
    while f != bf || r != br {
        between |= 1 << (r * 8 + f);
        f += sf;
        r += sr;
    }
    (between, line_mask(a, sf, sr) | 1 << a)
}

static BETWEEN_LINE: [[(u64, u64); 64]; 64] = {
    let mut table = [[(0, 0); 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            table[a][b] = ray_between(a, b);
            b += 1;
        }
        a += 1;
    }
    table
};

#[inline]
fn hyperbola(sq: Square, occupied: Bitboard, mask: u64) -> u64 {
    let bit = 1u64 << sq.index();
    let forward = occupied.0 & mask;
    let reverse = forward.swap_bytes();
    let forward = forward.wrapping_sub(bit);
    let reverse = reverse.wrapping_sub(bit.swap_bytes());
    (forward ^ reverse.swap_bytes()) & mask
}

#[inline]
fn rank_attacks(sq: Square, occupied: Bitboard) -> u64 {
    let shift = sq.index() & 56;
    let inner = ((occupied.0 >> shift) >> 1) & 63;
    u64::from(FIRST_RANK[inner as usize][(sq.index() & 7) as usize]) << shift
}

/// Squares a knight on `sq` attacks.
#[inline]
#[must_use]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index() as usize])
}

/// Squares a king on `sq` attacks.
#[inline]
#[must_use]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index() as usize])
}

/// Squares a pawn of `color` on `sq` attacks diagonally, as in orthodox
/// chess. Whether an attack on the last rank counts is the position's
/// business (R8).
#[inline]
#[must_use]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(match color {
        Color::White => WHITE_PAWN[sq.index() as usize],
        Color::Black => BLACK_PAWN[sq.index() as usize],
    })
}

/// Bishop attacks by hyperbola quintessence (the WebAssembly build's).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline]
fn hyperbola_bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let i = sq.index() as usize;
    Bitboard(hyperbola(sq, occupied, DIAG_MASK[i]) | hyperbola(sq, occupied, ANTI_MASK[i]))
}

/// Rook attacks by hyperbola quintessence and the first-rank table (the
/// WebAssembly build's).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline]
fn hyperbola_rook(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(hyperbola(sq, occupied, FILE_MASK[sq.index() as usize]) | rank_attacks(sq, occupied))
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
#[must_use]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider::bishop(sq, occupied)
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
#[must_use]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider::rook(sq, occupied)
}

/// The sliders of this build: magic bitboards natively.
#[cfg(not(target_arch = "wasm32"))]
mod slider {
    use crate::{Bitboard, Square};

    #[inline]
    pub(super) fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(super::magic::bishop(sq.index() as usize & 63, occupied.0))
    }

    #[inline]
    pub(super) fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(super::magic::rook(sq.index() as usize & 63, occupied.0))
    }
}

/// The sliders of this build: hyperbola quintessence in WebAssembly.
#[cfg(target_arch = "wasm32")]
mod slider {
    pub(super) use super::{hyperbola_bishop as bishop, hyperbola_rook as rook};
}

/// Squares a rook on `sq` attacks on an empty board.
#[inline]
#[must_use]
pub fn rook_rays(sq: Square) -> Bitboard {
    let i = sq.index();
    Bitboard(FILE_MASK[i as usize] | (0xff << (i & 56)) ^ (1 << i))
}

/// Squares a bishop on `sq` attacks on an empty board.
#[inline]
#[must_use]
pub fn bishop_rays(sq: Square) -> Bitboard {
    let i = sq.index() as usize;
    Bitboard(DIAG_MASK[i] | ANTI_MASK[i])
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
#[must_use]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// Squares a man of `role` and `color` on `sq` attacks (orthodox geometry).
#[must_use]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; otherwise empty.
#[inline]
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE[a.index() as usize][b.index() as usize].0)
}

/// The whole rank, file or diagonal through `a` and `b` (both included), or
/// empty if they share none.
#[inline]
#[must_use]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE[a.index() as usize][b.index() as usize].1)
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline]
#[must_use]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_slider(sq: Square, occ: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file().index() as i32 + df, sq.rank().index() as i32 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::new((r * 8 + f) as u32).unwrap();
                out.add(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn sliders_match_slow_rays() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard(seed & seed.rotate_left(17));
            for i in 0..64 {
                let sq = Square::new(i).unwrap();
                let rook = slow_slider(sq, occ, &[(1, 0), (-1, 0), (0, 1), (0, -1)]);
                let bishop = slow_slider(sq, occ, &[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
                assert_eq!(rook_attacks(sq, occ), rook, "rook {sq} {occ:?}");
                assert_eq!(bishop_attacks(sq, occ), bishop, "bishop {sq} {occ:?}");
                assert_eq!(hyperbola_rook(sq, occ), rook, "rook {sq} {occ:?}");
                assert_eq!(hyperbola_bishop(sq, occ), bishop, "bishop {sq} {occ:?}");
            }
        }
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(
            knight_attacks(Square::A1),
            Bitboard::from(Square::B3) | Square::C2
        );
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from(Square::D5) | Square::F5
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A5),
            Bitboard::from(Square::B4)
        );
        assert_eq!(
            between(Square::E1, Square::H1),
            Bitboard::from(Square::F1) | Square::G1
        );
        assert!(between(Square::E1, Square::F3).is_empty());
        assert!(aligned(Square::A1, Square::C3, Square::H8));
        for i in 0..64 {
            let sq = Square::new(i).unwrap();
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY));
        }
        assert!(!aligned(Square::A1, Square::C3, Square::H7));
    }
}
