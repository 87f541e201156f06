//! Fancy magic bitboards for the sliders: one multiplication, one shift
//! and one table read per lookup.
//!
//! For each square, the occupancy of the squares that can block a slider
//! (its rays without the board's edge) is multiplied by a magic number; the
//! top bits of the product index that square's part of one shared table of
//! attack sets. The numbers were found once by the usual random search
//! (sparse random candidates, kept when no two occupancies that attack
//! differently share an entry); the table is built from them by `const fn`
//! at compile time, and building it fails to compile if a number maps two
//! different attack sets to one entry. 107 648 entries, 841 KiB: the
//! WebAssembly build leaves it out and keeps hyperbola quintessence
//! (`super::hyperbola`), whose tables are 6 KiB.
//!
//! The technique: Pradyumna Kannan, "Magic Move-Bitboard Generation in
//! Computer Chess" (2007), and the Chess Programming Wiki's "Magic
//! Bitboards" page.

const ROOK_MAGICS: [u64; 64] = [
    0x2080002080400010,
    0x00c0002001401000,
    0x2100110008402002,
    0x0880080081041000,
    0x0200020020041008,
    0x2300040008010012,
    0x0c00283004008201,
    0x0180010000407a80,
    0x0168800080400020,
    0x0010400040201000,
    0x1001002001001048,
    0x1001002408100100,
    0x0801000408010012,
    0x4001000209000400,
    0x08a20004c8020001,
    0x2002801145002280,
    0x0080860021004200,
    0x001000c009402002,
    0x00b0002004002800,
    0x100a808010020800,
    0x8101010008000410,
    0x0244008002000480,
    0x0000040010810208,
    0x2000020000448534,
    0x4104400480008033,
    0x0000810100204000,
    0x0440430900200010,
    0x4600240900100100,
    0x0060080080040080,
    0x0001000300080400,
    0x0004084400011002,
    0x0023040200008041,
    0x0580050043002080,
    0x0400804002802008,
    0x0001002001004010,
    0x1000200901001000,
    0x4410800801800c00,
    0xa012003806001004,
    0x0020100104008802,
    0x0004808402000041,
    0x0010400170898000,
    0x0080500020004004,
    0x1040408012020020,
    0x8010040008004040,
    0x2001080100110004,
    0x0000020004008080,
    0x0021010810040002,
    0x0800008c43020024,
    0x0000800021005100,
    0x0070201040008080,
    0x0000d04282006a00,
    0x0010014400080240,
    0x0001080110050100,
    0x0012000810240600,
    0x0402000801040200,
    0x028100108a004100,
    0x0050800300102045,
    0x8208210040120882,
    0x8010600101183441,
    0x020b000910006045,
    0x0241001002480005,
    0x0081000400880241,
    0x0000009008024124,
    0x0048122980410402,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x0848020822040013,
    0x8010a40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801b8200420,
    0x200a008084012000,
    0x0040102001042084,
    0x840a505042428020,
    0x0000700102202920,
    0x44101c0c10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308c042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002a00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104a041918013446,
    0x008a000082008238,
    0x04a0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xcc01112048100480,
    0x0020402806500440,
    0x00048e0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810e04104200,
    0x901210110400088a,
    0xa003080212081050,
    0x00c1004048401004,
    0x900000a014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008a02026250,
    0x8004088250900040,
    0x1c00430088a04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080a04222020,
    0x8088802110022000,
    0x1081a10416114400,
    0x0205010a24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580c026028810840,
    0x802020441020a110,
    0x12c0022401020018,
];

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The squares a slider on `sq` moving along `dirs` reaches over `occ`;
/// with `blockers_only`, the squares whose occupancy can stop it (the
/// rays without their last square).
const fn rays(sq: usize, occ: u64, dirs: &[(i32, i32); 4], blockers_only: bool) -> u64 {
    let mut out = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let next_on_board = f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8;
            if blockers_only && !next_on_board {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            out |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    out
}

/// One square's entry: which squares matter, the magic number, the shift
/// keeping the product's top bits, and where its part of the table starts.
#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

const fn magics(numbers: &[u64; 64], dirs: &[(i32, i32); 4], start: u32) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = rays(sq, 0, dirs, true);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

/// Rook entries take 102 400 rows of the table, bishop entries the 5 248
/// after them.
const ROOK_ROWS: u32 = 102_400;
const LEN: usize = ROOK_ROWS as usize + 5_248;

static ROOK: [Magic; 64] = magics(&ROOK_MAGICS, &ROOK_DIRS, 0);
static BISHOP: [Magic; 64] = magics(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK_ROWS);

/// Every subset of every square's blockers, for rooks then bishops, with
/// its attack set at the index its magic number gives.
const fn table() -> [u64; LEN] {
    let mut table = [0u64; LEN];
    let mut kind = 0;
    while kind < 2 {
        let (entries, dirs) = if kind == 0 {
            (magics(&ROOK_MAGICS, &ROOK_DIRS, 0), &ROOK_DIRS)
        } else {
            (
                magics(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK_ROWS),
                &BISHOP_DIRS,
            )
        };
        let mut sq = 0;
        while sq < 64 {
            let m = entries[sq];
            // Every subset of the mask, by the carry-rippler trick.
            let mut subset = 0u64;
            loop {
                let attacks = rays(sq, subset, dirs, false);
                let i = m.offset as usize + (subset.wrapping_mul(m.magic) >> m.shift) as usize;
                // A slider always attacks some square: 0 marks a free entry.
                if table[i] == 0 {
                    table[i] = attacks;
                } else if table[i] != attacks {
                    panic!("a magic number maps two attack sets to one entry");
                }
                subset = subset.wrapping_sub(m.mask) & m.mask;
                if subset == 0 {
                    break;
                }
            }
            sq += 1;
        }
        kind += 1;
    }
    table
}

// About a million steps of the const evaluator, a few seconds once per
// build of the crate.
#[allow(long_running_const_eval)]
static TABLE: [u64; LEN] = table();

#[inline]
fn lookup(m: &Magic, occupied: u64) -> u64 {
    TABLE[m.offset as usize + ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Squares a rook on square index `sq` attacks over `occupied`.
#[inline]
pub(super) fn rook(sq: usize, occupied: u64) -> u64 {
    lookup(&ROOK[sq], occupied)
}

/// Squares a bishop on square index `sq` attacks over `occupied`.
#[inline]
pub(super) fn bishop(sq: usize, occupied: u64) -> u64 {
    lookup(&BISHOP[sq], occupied)
}
