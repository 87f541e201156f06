//! Helpers shared by the fuzz targets: fuzzer bytes to positions and moves.
//!
//! The targets read their input as plain bytes through [`Bytes`], so that the
//! layout of a seed is simple enough to write by hand (see `make_seeds.py`):
//!
//! - a *walk* is one byte choosing a start in [`STARTS`] (or `0xff` and a
//!   sparse position, see [`start`]), one byte for the number of plies, then
//!   per ply one byte (two when more than 256 moves are legal) choosing the
//!   move, among the captures only when its top bit is set;
//! - a missing byte reads as 0, so every input is a valid one.

use hostage_core::{Color, Move, Position, Role, Square};

/// Hostage-rich starting points, by name: the start position, the rules'
/// examples and every position of `tests/vectors/rules.perft`. Seeds refer
/// to them by index, so only append.
pub const STARTS: &[(&str, &str)] = &[
    (
        "initial",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    ),
    (
        "pawns-taken",
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3",
    ),
    (
        "middlegame-pools",
        "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
    ),
    (
        "frozen-pawns",
        "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
    ),
    (
        "castling-promotion",
        "r3k2r/1P6/8/8/8/8/6p1/R3K2R[#Qn] w KQkq - 0 20",
    ),
    ("revived-castling", "4k3/8/8/8/8/8/8/4K3[RRrr] w Ee - 0 30"),
    (
        "full-prisons",
        "4k3/8/8/8/8/8/8/4K3[#QRRBBNNPPPPPPPPqrrbbnnpppppppp] w Ee - 0 50",
    ),
    (
        "full-airfields",
        "4k3/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbbnnpppppppp] b Ee - 0 50",
    ),
    ("exchange-check", "k7/8/8/8/8/8/8/7K[#Nq] w - - 0 1"),
    ("exchange-block", "7k/8/8/8/8/8/PP6/K6r[#NPbp] w - - 0 1"),
    (
        "exchange-distinct-triples",
        "4k3/8/8/8/8/8/8/4K3[#Pbn] w - - 0 1",
    ),
    ("freeze-checker", "8/8/8/8/8/5k2/4n1pP/7K[#NPrp] w - - 0 1"),
    (
        "freeze-checker-black",
        "7k/4N1Pp/5K2/8/8/8/8/8[#RPnp] b - - 0 1",
    ),
    (
        "frozen-vs-unfrozen",
        "2b1k3/3P4/8/8/8/7K/4p3/8[#n] w - - 0 1",
    ),
    ("promotion-choice", "2r4k/1P6/8/8/8/8/8/K7[#QRBN] w - - 0 1"),
    (
        "promotion-last-man-freezes",
        "4k3/1P4P1/8/8/8/8/8/K7[#Q] w - - 0 1",
    ),
    (
        "pseudo-check-capture",
        "k7/8/8/4n3/8/3N4/6pP/7K[#p] w - - 0 1",
    ),
    (
        "pseudo-check-king-capture",
        "k7/8/8/8/8/8/4Np2/6rK[] w - - 0 1",
    ),
    (
        "pseudo-check-king-capture-black",
        "6Rk/4nP2/8/8/8/8/8/K7[] b - - 0 1",
    ),
    (
        "capture-promotion-illegal",
        "r6k/1P6/8/8/8/8/3p4/2K5[#Q] w - - 0 1",
    ),
    (
        "capture-promotion-illegal-black",
        "2k5/3P4/8/8/8/8/1p6/R6K[#q] b - - 0 1",
    ),
    ("castle-frozen", "4k3/8/8/8/8/8/6p1/4K2R[] w K - 0 1"),
    ("castle-unfrozen", "4k3/8/8/8/8/8/6p1/4K2R[#n] w K - 0 1"),
    ("castle-frozen-black", "4k2r/6P1/8/8/8/8/8/4K3[] b k - 0 1"),
    (
        "castle-unfrozen-black",
        "4k2r/6P1/8/8/8/8/8/4K3[#N] b k - 0 1",
    ),
    ("castle-revived-drop", "4k3/8/8/8/8/8/8/4K3[Rr] w Ee - 0 1"),
    (
        "castle-revived-exchange",
        "4k3/8/8/8/8/8/8/4K3[#Rq] w E - 0 1",
    ),
    ("ep-after-drop", "7k/8/8/8/3p4/8/8/7K[P] w - - 0 1"),
    (
        "ep-dropped-pawn-double-stepped",
        "6k1/8/8/8/3pP3/8/8/7K[] b - e3 0 2",
    ),
    ("stalemate", "k7/8/1Q6/8/8/8/8/7K[#Pq] b - - 0 1"),
    ("mate-by-drop", "6k1/5ppp/8/8/8/8/8/K7[R] w - - 0 1"),
    ("mate-by-exchange", "6rk/6pp/8/8/8/8/8/K7[#Nb] w - - 0 1"),
    (
        "pools-large",
        "6k1/5ppp/8/8/8/8/5PPP/6K1[QNPqnp#RBNPrbp] w - - 0 1",
    ),
    (
        "pools-check",
        "6k1/5ppp/8/8/8/8/5PPP/r5K1[QNPqnp#RBNPrbp] w - - 0 1",
    ),
];

/// A cursor over the fuzzer's bytes; reading past the end gives 0.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// Reads `data` from the start.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, at: 0 }
    }

    /// The next byte, 0 past the end.
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// An index below `len` (> 0): one byte, or two when `len` > 256.
    pub fn index(&mut self, len: usize) -> usize {
        let n = if len > 256 {
            usize::from(self.byte()) << 8 | usize::from(self.byte())
        } else {
            usize::from(self.byte())
        };
        n % len
    }

    /// Whether unread bytes remain.
    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// A byte string: a length byte, then up to that many bytes.
    pub fn text(&mut self) -> &'a [u8] {
        let len = usize::from(self.byte());
        let start = self.at.min(self.data.len());
        let end = (start + len).min(self.data.len());
        self.at = start + len;
        &self.data[start..end]
    }

    /// A square.
    pub fn square(&mut self) -> Square {
        Square::new(u32::from(self.byte() % 64)).expect("below 64")
    }

    /// Any role, the king included.
    pub fn role(&mut self) -> Role {
        Role::ALL[self.index(Role::ALL.len())]
    }
}

/// The start chosen by the next byte: `0xff` builds a [`sparse_fen`] from
/// the bytes that follow (the start position if that is not legal), any
/// other value picks one of [`STARTS`].
pub fn start(b: &mut Bytes<'_>) -> Position {
    let i = b.byte();
    if i == 0xff {
        return Position::from_fen(&sparse_fen(b)).unwrap_or_default();
    }
    let (name, fen) = STARTS[usize::from(i) % STARTS.len()];
    Position::from_fen(fen).unwrap_or_else(|e| panic!("start {name} is illegal: {e}"))
}

/// A legal move chosen by the next byte(s), captures only if its top bit
/// is set and there are any (so that prisons fill up); `None` at a mate or
/// stalemate.
pub fn choose_move(b: &mut Bytes<'_>, pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    let captures: Vec<Move> = moves.iter().copied().filter(Move::is_capture).collect();
    let first = b.data.get(b.at).copied().unwrap_or(0);
    let pool = if first & 0x80 != 0 && !captures.is_empty() {
        &captures
    } else {
        &moves
    };
    (!pool.is_empty()).then(|| pool[b.index(pool.len())])
}

/// A walk (see the module docs): a start, then up to the chosen number of
/// plies, calling `each(before, move, after)` after every one.
pub fn walk(b: &mut Bytes<'_>, mut each: impl FnMut(&Position, Move, &Position)) -> Position {
    let mut pos = start(b);
    let plies = b.byte();
    for _ in 0..plies {
        let Some(m) = choose_move(b, &pos) else { break };
        let before = pos.clone();
        pos.play_unchecked(m);
        each(&before, m, &pos);
    }
    pos
}

/// A move built from the bytes, legal or not: either a legal move with one
/// field changed (the near misses a checker most likely gets wrong) or any
/// roles and squares at all.
pub fn any_move(b: &mut Bytes<'_>, pos: &Position) -> Move {
    let near = b.byte();
    if near & 1 == 1 {
        if let Some(m) = choose_move(b, pos) {
            return mutate(b, m, near >> 1);
        }
    }
    let opt_role = |b: &mut Bytes<'_>| (!b.byte().is_multiple_of(3)).then(|| b.role());
    match near % 10 {
        0 | 2 => Move::Normal {
            role: b.role(),
            from: b.square(),
            capture: opt_role(b),
            to: b.square(),
            promotion: opt_role(b),
        },
        4 => Move::EnPassant {
            from: b.square(),
            to: b.square(),
        },
        6 => Move::Castle {
            king: b.square(),
            rook: b.square(),
        },
        8 => Move::Drop {
            role: b.role(),
            to: b.square(),
        },
        _ => Move::Exchange {
            released: b.role(),
            rescued: b.role(),
            to: b.square(),
        },
    }
}

/// `m` with one field replaced from the bytes (`field` picks which, for the
/// kinds with more than one worth changing).
fn mutate(b: &mut Bytes<'_>, mut m: Move, field: u8) -> Move {
    let maybe_role = |b: &mut Bytes<'_>| (b.byte() & 1 == 0).then(|| b.role());
    match (&mut m, field % 4) {
        (Move::Normal { role, .. }, 0) => *role = b.role(),
        (Move::Normal { capture, .. }, 1) => *capture = maybe_role(b),
        (Move::Normal { promotion, .. }, 2) => *promotion = maybe_role(b),
        (Move::Normal { from, .. }, _) => *from = b.square(),
        (Move::EnPassant { to, .. }, _) => *to = b.square(),
        (Move::Castle { rook, .. }, _) => *rook = b.square(),
        (Move::Drop { role, .. }, _) => *role = b.role(),
        (Move::Exchange { released, .. }, 0) => *released = b.role(),
        (Move::Exchange { rescued, .. }, 1) => *rescued = b.role(),
        (Move::Exchange { to, .. }, _) => *to = b.square(),
    }
    m
}

/// A sparse FEN built from the bytes, in the spirit of
/// `hostage-core/tests/differential.rs`: two kings, up to 15 other men on
/// any squares, up to 7 men in each of the airfields and the prisons, the side
/// to move, and the castling state that the kings' and rooks' squares allow,
/// kept or dropped per side. The text may be an illegal position.
///
/// Layout: white king square, black king square, count n, n × (man, square),
/// airfield count a, a × man, prison count p, p × man, flags (bit 0: Black
/// to move, bit 1/2: keep White's/Black's castling state).
pub fn sparse_fen(b: &mut Bytes<'_>) -> String {
    const MEN: &[u8; 10] = b"PNBRQpnbrq";
    let mut board = [0u8; 64];
    board[usize::from(b.byte() % 64)] = b'K';
    board[usize::from(b.byte() % 64)] = b'k';
    for _ in 0..b.byte() % 16 {
        let (man, sq) = (MEN[b.index(10)], usize::from(b.byte() % 64));
        if board[sq] == 0 {
            board[sq] = man;
        }
    }
    let reserve = |b: &mut Bytes<'_>| -> String {
        (0..b.byte() % 8)
            .map(|_| char::from(MEN[b.index(10)]))
            .collect()
    };
    let (airfields, prisons) = (reserve(b), reserve(b));
    let flags = b.byte();
    let mut castling = String::new();
    for (color, keep) in [
        (Color::White, flags & 2 != 0),
        (Color::Black, flags & 4 != 0),
    ] {
        let (king, rook, home, corners) = match color {
            Color::White => (b'K', b'R', 4, [(7, 'K'), (0, 'Q')]),
            Color::Black => (b'k', b'r', 60, [(63, 'k'), (56, 'q')]),
        };
        if keep && board[home] == king {
            let rights: String = corners
                .iter()
                .filter(|(sq, _)| board[*sq] == rook)
                .map(|c| c.1)
                .collect();
            castling.push_str(if rights.is_empty() {
                if color == Color::White {
                    "E"
                } else {
                    "e"
                }
            } else {
                &rights
            });
        }
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                0 => empty += 1,
                man => {
                    if empty > 0 {
                        placement.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    placement.push(char::from(man));
                }
            }
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let turn = if flags & 1 == 0 { 'w' } else { 'b' };
    let castling = if castling.is_empty() {
        "-".to_owned()
    } else {
        castling
    };
    format!("{placement}[{airfields}#{prisons}] {turn} {castling} - 0 1")
}
