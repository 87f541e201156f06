//! A deliberately simple, slow REFERENCE move generator for Hostage Chess.
//!
//! It shares no code with `hostage-core` (std only) and exists to be an
//! independent oracle for differential tests and perft numbers. The rules it
//! implements are those of `docs/rules.md` (R1..R12); comments cite them.
//!
//! Method: generate every pseudo-legal candidate (board moves including
//! castling, en passant and promotions; airfield drops; exchanges), apply each
//! one to a full copy of the position (board, both prisons, both airfields),
//! and keep it iff the mover's king is not attacked afterwards, attacks being
//! computed from scratch by scanning every enemy man. Because a pawn's attack
//! on its last rank is only counted when its side could promote in the
//! position after the move (R8), pseudo-check (R8a) needs no special case.
//!
//! Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
#![allow(dead_code)]

/// The colour of a man.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    fn idx(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }
    /// Rank index (0..8) of this colour's 2nd rank.
    fn second_rank(self) -> usize {
        match self {
            Color::White => 1,
            Color::Black => 6,
        }
    }
    /// Rank index of this colour's last rank (where its pawns promote).
    fn last_rank(self) -> usize {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }
    /// Rank index of this colour's back rank.
    fn back_rank(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
    /// Rank direction of this colour's pawns.
    fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// The role of a man. The discriminants of P..Q index the count arrays.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

/// Roles that can be in a prison or an airfield (R4: never the king).
const POOL_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];
/// Roles a pawn can promote to (R7).
const PROMO_ROLES: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
/// Canonical bracket order in the Hostage FEN: Q R B N P.
const FEN_ORDER: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

impl Role {
    /// R5 values: P1 < N2 = B2 < R3 < Q4.
    fn value(self) -> u32 {
        match self {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop => 2,
            Role::Rook => 3,
            Role::Queen => 4,
            Role::King => 100,
        }
    }
    fn upper(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }
    fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            'K' => Some(Role::King),
            _ => None,
        }
    }
    fn idx(self) -> usize {
        self as usize
    }
}

fn file_of(sq: usize) -> usize {
    sq % 8
}
fn rank_of(sq: usize) -> usize {
    sq / 8
}
/// The square at (file + df, rank + dr), if it is on the board.
fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = file_of(sq) as i32 + df;
    let r = rank_of(sq) as i32 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}
fn sq_name(sq: usize) -> String {
    let f = (b'a' + file_of(sq) as u8) as char;
    let r = (b'1' + rank_of(sq) as u8) as char;
    format!("{f}{r}")
}
fn parse_sq(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(((b[1] - b'1') * 8 + (b[0] - b'a')) as usize)
}

const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// One move, before it is turned into text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mv {
    /// Orthodox board move; castling is the king's two-square move, en
    /// passant the pawn's diagonal move to the empty en-passant square.
    Board {
        from: usize,
        to: usize,
        promo: Option<Role>,
    },
    /// R6 airfield drop.
    Drop { role: Role, to: usize },
    /// R5 exchange: `released` (enemy man, from the mover's prison) goes to
    /// the opponent's airfield, `rescued` (own man, from the opponent's
    /// prison) is dropped on `to`.
    Exchange {
        rescued: Role,
        released: Role,
        to: usize,
    },
}

impl Mv {
    /// Long (UCI-style) form of rules.md.
    fn text(self) -> String {
        match self {
            Mv::Board { from, to, promo } => {
                let mut s = sq_name(from) + &sq_name(to);
                if let Some(r) = promo {
                    s.push(r.upper().to_ascii_lowercase());
                }
                s
            }
            Mv::Drop { role, to } => format!("{}@{}", role.upper(), sq_name(to)),
            Mv::Exchange {
                rescued,
                released,
                to,
            } => {
                format!("{}#{}@{}", rescued.upper(), released.upper(), sq_name(to))
            }
        }
    }
}

/// A Hostage Chess position.
#[derive(Clone, PartialEq, Debug)]
pub struct RefPos {
    board: [Option<(Color, Role)>; 64],
    turn: Color,
    /// `airfield[c][r]`: men of colour `c` and role `r` in `c`'s own airfield (R3).
    airfield: [[u8; 5]; 2],
    /// `prison[c][r]`: men of role `r` held in `c`'s prison; they are of the
    /// colour opposite to `c` (R2).
    prison: [[u8; 5]; 2],
    /// R9: this side's king has never moved (implies it stands on e1/e8).
    king_unmoved: [bool; 2],
    /// R9: `rook_unmoved[c][0]` for the a-file corner, `[1]` for the h-file
    /// corner. Kept false unless the king is unmoved and the rook is there.
    rook_unmoved: [[bool; 2]; 2],
    /// R10: the square passed over by a double step, kept only when an
    /// en-passant capture onto it is legal (so equal positions compare equal).
    ep: Option<usize>,
    halfmove: u32,
    fullmove: u32,
}

fn corner(c: Color, side: usize) -> usize {
    c.back_rank() * 8 + if side == 0 { 0 } else { 7 }
}
fn king_home(c: Color) -> usize {
    c.back_rank() * 8 + 4
}

impl RefPos {
    // ------------------------------------------------------------------
    // Hostage FEN
    // ------------------------------------------------------------------

    /// Parses a Hostage FEN. Lenient: any letter order inside the brackets,
    /// no bracket = empty prisons and airfields, missing fields default to
    /// `w - - 0 1`. Castling letters that the board does not support are
    /// dropped; an en-passant square is kept only if the capture is legal.
    /// Rejects positions that are illegal per the rules: not exactly one
    /// king per side, pawns on rank 1/8, kings in brackets, more men of a
    /// colour and role than the standard set, side not to move in check.
    pub fn from_fen(fen: &str) -> Result<RefPos, String> {
        let mut fields = fen.split_whitespace();
        let first = fields.next().ok_or("empty FEN")?;
        let (placement, bracket) = match first.find('[') {
            Some(i) => {
                let rest = &first[i + 1..];
                let close = rest.find(']').ok_or("missing ']'")?;
                if close + 1 != rest.len() {
                    return Err("text after ']'".into());
                }
                (&first[..i], &rest[..close])
            }
            None => (first, ""),
        };

        let mut pos = RefPos {
            board: [None; 64],
            turn: Color::White,
            airfield: [[0; 5]; 2],
            prison: [[0; 5]; 2],
            king_unmoved: [false; 2],
            rook_unmoved: [[false; 2]; 2],
            ep: None,
            halfmove: 0,
            fullmove: 1,
        };

        // Placement, rank 8 first.
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("placement needs 8 ranks, got {}", ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0usize;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(format!("bad digit {ch}"));
                    }
                    file += d as usize;
                } else if ch == '~' {
                    // Fairy-Stockfish's "promoted" marker: irrelevant here.
                    continue;
                } else {
                    let role = Role::from_char(ch).ok_or(format!("bad piece letter {ch}"))?;
                    let color = if ch.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    if file >= 8 {
                        return Err(format!("rank {} too long", rank + 1));
                    }
                    pos.board[rank * 8 + file] = Some((color, role));
                    file += 1;
                }
                if file > 8 {
                    return Err(format!("rank {} too long", rank + 1));
                }
            }
            if file != 8 {
                return Err(format!("rank {} has {} files", rank + 1, file));
            }
        }

        // Brackets: airfields before '#', prisons after.
        let (air_text, prison_text) = match bracket.find('#') {
            Some(i) => (&bracket[..i], &bracket[i + 1..]),
            None => (bracket, ""),
        };
        for ch in air_text.chars() {
            let role = Role::from_char(ch).ok_or(format!("bad airfield letter {ch}"))?;
            if role == Role::King {
                return Err("a king is never in an airfield (R4)".into());
            }
            let owner = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            pos.airfield[owner.idx()][role.idx()] += 1;
        }
        for ch in prison_text.chars() {
            let role = Role::from_char(ch).ok_or(format!("bad prison letter {ch}"))?;
            if role == Role::King {
                return Err("a king is never in a prison (R4)".into());
            }
            // Uppercase = white men, held in Black's prison.
            let holder = if ch.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            pos.prison[holder.idx()][role.idx()] += 1;
        }

        pos.turn = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(t) => return Err(format!("bad side to move {t}")),
        };

        let castling = fields.next().unwrap_or("-");
        if castling != "-" {
            for ch in castling.chars() {
                let (c, side) = match ch {
                    'K' => (Color::White, Some(1)),
                    'Q' => (Color::White, Some(0)),
                    'E' => (Color::White, None),
                    'k' => (Color::Black, Some(1)),
                    'q' => (Color::Black, Some(0)),
                    'e' => (Color::Black, None),
                    _ => return Err(format!("bad castling letter {ch}")),
                };
                if pos.board[king_home(c)] != Some((c, Role::King)) {
                    continue; // unsupported by the board: dropped
                }
                pos.king_unmoved[c.idx()] = true;
                if let Some(s) = side {
                    if pos.board[corner(c, s)] == Some((c, Role::Rook)) {
                        pos.rook_unmoved[c.idx()][s] = true;
                    }
                }
            }
        }

        let ep_text = fields.next().unwrap_or("-");
        if ep_text != "-" {
            let sq = parse_sq(ep_text).ok_or(format!("bad en-passant square {ep_text}"))?;
            // The side that just moved double-stepped over `sq`.
            let mover = pos.turn.other();
            let plausible = rank_of(sq) as i32 == mover.second_rank() as i32 + mover.forward()
                && pos.board[sq].is_none()
                && offset(sq, 0, -mover.forward()).is_some_and(|o| pos.board[o].is_none())
                && offset(sq, 0, mover.forward())
                    .is_some_and(|p| pos.board[p] == Some((mover, Role::Pawn)));
            if plausible {
                pos.ep = Some(sq);
            }
        }

        if let Some(h) = fields.next() {
            pos.halfmove = h.parse().map_err(|_| format!("bad halfmove clock {h}"))?;
        }
        if let Some(f) = fields.next() {
            pos.fullmove = f.parse().map_err(|_| format!("bad fullmove number {f}"))?;
        }
        if fields.next().is_some() {
            return Err("too many FEN fields".into());
        }

        pos.validate()?;
        pos.normalize_ep();
        Ok(pos)
    }

    /// Checks that the position is legal per the rules (see `from_fen`).
    fn validate(&self) -> Result<(), String> {
        for c in [Color::White, Color::Black] {
            let kings = (0..64)
                .filter(|&s| self.board[s] == Some((c, Role::King)))
                .count();
            if kings != 1 {
                return Err(format!("{c:?} has {kings} kings"));
            }
            // Per colour and role: board + own airfield + enemy prison <= standard set.
            let limits = [8, 2, 2, 2, 1];
            for r in POOL_ROLES {
                let n = (0..64).filter(|&s| self.board[s] == Some((c, r))).count()
                    + self.airfield[c.idx()][r.idx()] as usize
                    + self.prison[c.other().idx()][r.idx()] as usize;
                if n > limits[r.idx()] {
                    return Err(format!("{c:?} has {n} men of role {r:?}"));
                }
            }
        }
        for s in 0..64 {
            if let Some((_, Role::Pawn)) = self.board[s] {
                if rank_of(s) == 0 || rank_of(s) == 7 {
                    return Err(format!("pawn on {}", sq_name(s)));
                }
            }
        }
        let them = self.turn.other();
        if self.attacked_by(self.king_sq(them), self.turn) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }

    /// Canonical Hostage FEN (rules.md "Position text").
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    None => empty += 1,
                    Some((c, r)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let ch = r.upper();
                        s.push(if c == Color::White {
                            ch
                        } else {
                            ch.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }

        s.push('[');
        let group = |counts: &[u8; 5], upper: bool| -> String {
            let mut g = String::new();
            for r in FEN_ORDER {
                for _ in 0..counts[r.idx()] {
                    let ch = r.upper();
                    g.push(if upper { ch } else { ch.to_ascii_lowercase() });
                }
            }
            g
        };
        s += &group(&self.airfield[Color::White.idx()], true);
        s += &group(&self.airfield[Color::Black.idx()], false);
        let prisons_empty = self.prison.iter().all(|p| p.iter().all(|&n| n == 0));
        if !prisons_empty {
            s.push('#');
            // White men (uppercase) are held in Black's prison.
            s += &group(&self.prison[Color::Black.idx()], true);
            s += &group(&self.prison[Color::White.idx()], false);
        }
        s.push(']');

        s.push(' ');
        s.push(if self.turn == Color::White { 'w' } else { 'b' });

        s.push(' ');
        let mut castling = String::new();
        for c in [Color::White, Color::Black] {
            if !self.king_unmoved[c.idx()] {
                continue;
            }
            let conv = |ch: char| {
                if c == Color::White {
                    ch
                } else {
                    ch.to_ascii_lowercase()
                }
            };
            let k = self.rook_unmoved[c.idx()][1];
            let q = self.rook_unmoved[c.idx()][0];
            if k {
                castling.push(conv('K'));
            }
            if q {
                castling.push(conv('Q'));
            }
            if !k && !q {
                castling.push(conv('E'));
            }
        }
        s += if castling.is_empty() { "-" } else { &castling };

        s.push(' ');
        match self.ep {
            Some(sq) => s += &sq_name(sq),
            None => s.push('-'),
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }

    // ------------------------------------------------------------------
    // Attacks
    // ------------------------------------------------------------------

    fn king_sq(&self, c: Color) -> usize {
        (0..64)
            .find(|&s| self.board[s] == Some((c, Role::King)))
            .expect("each side has a king")
    }

    /// R7/R8: side `c` can promote iff the opponent's prison (which holds
    /// `c`'s captured men) holds at least one of `c`'s Q/R/B/N.
    fn can_promote(&self, c: Color) -> bool {
        PROMO_ROLES
            .iter()
            .any(|r| self.prison[c.other().idx()][r.idx()] > 0)
    }

    /// Does the man standing on `from` attack `target`?
    fn attacks(&self, from: usize, target: usize) -> bool {
        let Some((c, role)) = self.board[from] else {
            return false;
        };
        match role {
            Role::Pawn => {
                let hits = [-1, 1]
                    .iter()
                    .any(|&df| offset(from, df, c.forward()) == Some(target));
                // R8: a frozen pawn attacks no square on its last rank.
                hits && (rank_of(target) != c.last_rank() || self.can_promote(c))
            }
            Role::Knight => KNIGHT_STEPS
                .iter()
                .any(|&(df, dr)| offset(from, df, dr) == Some(target)),
            Role::King => KING_STEPS
                .iter()
                .any(|&(df, dr)| offset(from, df, dr) == Some(target)),
            Role::Bishop => self.ray_hits(from, target, &BISHOP_DIRS),
            Role::Rook => self.ray_hits(from, target, &ROOK_DIRS),
            Role::Queen => {
                self.ray_hits(from, target, &BISHOP_DIRS) || self.ray_hits(from, target, &ROOK_DIRS)
            }
        }
    }

    fn ray_hits(&self, from: usize, target: usize, dirs: &[(i32, i32)]) -> bool {
        for &(df, dr) in dirs {
            let mut s = from;
            while let Some(n) = offset(s, df, dr) {
                if n == target {
                    return true;
                }
                if self.board[n].is_some() {
                    break;
                }
                s = n;
            }
        }
        false
    }

    /// Is `target` attacked by any man of colour `by`? (Scans them all.)
    fn attacked_by(&self, target: usize, by: Color) -> bool {
        (0..64).any(|s| matches!(self.board[s], Some((c, _)) if c == by) && self.attacks(s, target))
    }

    /// Is the side to move's king attacked (R8: frozen pawns do not attack)?
    pub fn is_check(&self) -> bool {
        self.attacked_by(self.king_sq(self.turn), self.turn.other())
    }

    // ------------------------------------------------------------------
    // Move generation
    // ------------------------------------------------------------------

    /// Every pseudo-legal candidate. Castling is already checked for the
    /// squares it passes (R9); everything else is checked by `legal`.
    fn pseudo_moves(&self) -> Vec<Mv> {
        let us = self.turn;
        let them = us.other();
        let mut out = Vec::new();

        for from in 0..64 {
            let Some((c, role)) = self.board[from] else {
                continue;
            };
            if c != us {
                continue;
            }
            let add_to = |to: usize, out: &mut Vec<Mv>| match self.board[to] {
                None => out.push(Mv::Board {
                    from,
                    to,
                    promo: None,
                }),
                Some((tc, tr)) if tc == them && tr != Role::King => out.push(Mv::Board {
                    from,
                    to,
                    promo: None,
                }),
                _ => {}
            };
            match role {
                Role::Pawn => self.pawn_moves(from, &mut out),
                Role::Knight => {
                    for (df, dr) in KNIGHT_STEPS {
                        if let Some(to) = offset(from, df, dr) {
                            add_to(to, &mut out);
                        }
                    }
                }
                Role::King => {
                    for (df, dr) in KING_STEPS {
                        if let Some(to) = offset(from, df, dr) {
                            add_to(to, &mut out);
                        }
                    }
                    self.castling_moves(&mut out);
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    let mut dirs: Vec<(i32, i32)> = Vec::new();
                    if role != Role::Rook {
                        dirs.extend(BISHOP_DIRS);
                    }
                    if role != Role::Bishop {
                        dirs.extend(ROOK_DIRS);
                    }
                    for (df, dr) in dirs {
                        let mut s = from;
                        while let Some(to) = offset(s, df, dr) {
                            add_to(to, &mut out);
                            if self.board[to].is_some() {
                                break;
                            }
                            s = to;
                        }
                    }
                }
            }
        }

        // R6: airfield drops.
        for role in POOL_ROLES {
            if self.airfield[us.idx()][role.idx()] > 0 {
                for to in self.drop_squares(role) {
                    out.push(Mv::Drop { role, to });
                }
            }
        }

        // R5: exchanges. X = released (enemy man from our prison),
        // Y = rescued (our man from the opponent's prison), value(X) >= value(Y).
        for released in POOL_ROLES {
            if self.prison[us.idx()][released.idx()] == 0 {
                continue;
            }
            for rescued in POOL_ROLES {
                if self.prison[them.idx()][rescued.idx()] == 0 || released.value() < rescued.value()
                {
                    continue;
                }
                for to in self.drop_squares(rescued) {
                    out.push(Mv::Exchange {
                        rescued,
                        released,
                        to,
                    });
                }
            }
        }
        out
    }

    /// Empty squares where a man of `role` may be dropped (R6: no pawn on
    /// rank 1 or 8).
    fn drop_squares(&self, role: Role) -> Vec<usize> {
        (0..64)
            .filter(|&s| self.board[s].is_none())
            .filter(|&s| role != Role::Pawn || (rank_of(s) != 0 && rank_of(s) != 7))
            .collect()
    }

    fn pawn_moves(&self, from: usize, out: &mut Vec<Mv>) {
        let us = self.turn;
        let them = us.other();
        // R7: one move per role available in the opponent's prison; none
        // at all (frozen pawn, R8) when there is nothing to promote to.
        let push = |to: usize, out: &mut Vec<Mv>| {
            if rank_of(to) == us.last_rank() {
                for r in PROMO_ROLES {
                    if self.prison[them.idx()][r.idx()] > 0 {
                        out.push(Mv::Board {
                            from,
                            to,
                            promo: Some(r),
                        });
                    }
                }
            } else {
                out.push(Mv::Board {
                    from,
                    to,
                    promo: None,
                });
            }
        };
        if let Some(one) = offset(from, 0, us.forward()) {
            if self.board[one].is_none() {
                push(one, out);
                if rank_of(from) == us.second_rank() {
                    if let Some(two) = offset(from, 0, 2 * us.forward()) {
                        if self.board[two].is_none() {
                            out.push(Mv::Board {
                                from,
                                to: two,
                                promo: None,
                            });
                        }
                    }
                }
            }
        }
        for df in [-1, 1] {
            if let Some(to) = offset(from, df, us.forward()) {
                match self.board[to] {
                    Some((c, r)) if c == them && r != Role::King => push(to, out),
                    None if self.ep == Some(to) => out.push(Mv::Board {
                        from,
                        to,
                        promo: None,
                    }),
                    _ => {}
                }
            }
        }
    }

    /// R9 castling as the king's two-square move. The landing square is
    /// checked again by `legal` like any other move.
    fn castling_moves(&self, out: &mut Vec<Mv>) {
        let us = self.turn;
        let them = us.other();
        if !self.king_unmoved[us.idx()] {
            return;
        }
        let e = king_home(us);
        if self.board[e] != Some((us, Role::King)) || self.attacked_by(e, them) {
            return;
        }
        // (side, squares that must be empty, squares the king crosses/lands on)
        let b = us.back_rank() * 8;
        let options = [
            (1usize, vec![b + 5, b + 6], vec![b + 5, b + 6], b + 6),
            (0usize, vec![b + 1, b + 2, b + 3], vec![b + 3, b + 2], b + 2),
        ];
        for (side, empty, safe, to) in options {
            if !self.rook_unmoved[us.idx()][side]
                || self.board[corner(us, side)] != Some((us, Role::Rook))
            {
                continue;
            }
            if empty.iter().any(|&s| self.board[s].is_some()) {
                continue;
            }
            if safe.iter().any(|&s| self.attacked_by(s, them)) {
                continue;
            }
            out.push(Mv::Board {
                from: e,
                to,
                promo: None,
            });
        }
    }

    /// Applies a pseudo-legal move to a full copy of the position. The
    /// en-passant square is left raw (any double step); `play` normalizes.
    fn apply(&self, mv: Mv) -> RefPos {
        let us = self.turn;
        let them = us.other();
        let mut p = self.clone();
        p.ep = None;
        p.halfmove += 1;

        match mv {
            Mv::Board { from, to, promo } => {
                let (_, role) = self.board[from].expect("a man on the from square");
                // Captures: the captured man goes into the captor's prison (R2).
                if let Some((_, captured)) = self.board[to] {
                    p.prison[us.idx()][captured.idx()] += 1;
                    p.halfmove = 0;
                }
                p.board[to] = self.board[from];
                p.board[from] = None;

                if role == Role::Pawn {
                    p.halfmove = 0;
                    // En passant: diagonal move onto the empty ep square.
                    if file_of(from) != file_of(to) && self.board[to].is_none() {
                        let victim = offset(to, 0, -us.forward()).expect("on board");
                        p.board[victim] = None;
                        p.prison[us.idx()][Role::Pawn.idx()] += 1;
                    }
                    if rank_of(from) == us.second_rank() && rank_of(from).abs_diff(rank_of(to)) == 2
                    {
                        p.ep = offset(from, 0, us.forward());
                    }
                    if let Some(r) = promo {
                        // R7: the pawn and the chosen man change places in
                        // the opponent's prison.
                        p.prison[them.idx()][r.idx()] -= 1;
                        p.prison[them.idx()][Role::Pawn.idx()] += 1;
                        p.board[to] = Some((us, r));
                    }
                }
                if role == Role::King {
                    p.king_unmoved[us.idx()] = false;
                    if file_of(from) == 4 && file_of(to) == 6 {
                        let (rf, rt) = (corner(us, 1), from + 1);
                        p.board[rt] = p.board[rf];
                        p.board[rf] = None;
                    } else if file_of(from) == 4 && file_of(to) == 2 {
                        let (rf, rt) = (corner(us, 0), from - 1);
                        p.board[rt] = p.board[rf];
                        p.board[rf] = None;
                    }
                }
                // A move from or onto a corner ends that rook's "unmoved" state.
                for c in [Color::White, Color::Black] {
                    for side in 0..2 {
                        let k = corner(c, side);
                        if from == k || to == k {
                            p.rook_unmoved[c.idx()][side] = false;
                        }
                    }
                }
            }
            Mv::Drop { role, to } => {
                p.airfield[us.idx()][role.idx()] -= 1;
                p.board[to] = Some((us, role));
                if role == Role::Pawn {
                    p.halfmove = 0;
                }
                p.mark_dropped_rook(role, to);
            }
            Mv::Exchange {
                rescued,
                released,
                to,
            } => {
                p.prison[us.idx()][released.idx()] -= 1;
                p.airfield[them.idx()][released.idx()] += 1;
                p.prison[them.idx()][rescued.idx()] -= 1;
                p.board[to] = Some((us, rescued));
                if rescued == Role::Pawn {
                    p.halfmove = 0;
                }
                p.mark_dropped_rook(rescued, to);
            }
        }

        // Keep the castling state tidy: rights only with an unmoved king.
        for c in [Color::White, Color::Black] {
            if !p.king_unmoved[c.idx()] {
                p.rook_unmoved[c.idx()] = [false, false];
            }
        }
        if us == Color::Black {
            p.fullmove += 1;
        }
        p.turn = them;
        p
    }

    /// R6/R9: a rook dropped on its own home corner counts as unmoved.
    fn mark_dropped_rook(&mut self, role: Role, to: usize) {
        let us = self.turn;
        if role == Role::Rook {
            for side in 0..2 {
                if to == corner(us, side) && self.king_unmoved[us.idx()] {
                    self.rook_unmoved[us.idx()][side] = true;
                }
            }
        }
    }

    /// Every legal move with the position it leads to. A candidate is legal
    /// iff, in the position after it (prisons included), the mover's king is
    /// not attacked.
    fn legal(&self) -> Vec<(Mv, RefPos)> {
        let us = self.turn;
        let mut out = Vec::new();
        for mv in self.pseudo_moves() {
            let next = self.apply(mv);
            if !next.attacked_by(next.king_sq(us), us.other()) {
                out.push((mv, next));
            }
        }
        out
    }

    /// Drops the en-passant square unless an en-passant capture is legal.
    fn normalize_ep(&mut self) {
        if let Some(ep) = self.ep {
            let us = self.turn;
            let legal_ep = [-1, 1].iter().any(|&df| {
                let Some(from) = offset(ep, df, -us.forward()) else {
                    return false;
                };
                if self.board[from] != Some((us, Role::Pawn)) {
                    return false;
                }
                let next = self.apply(Mv::Board {
                    from,
                    to: ep,
                    promo: None,
                });
                !next.attacked_by(next.king_sq(us), us.other())
            });
            if !legal_ep {
                self.ep = None;
            }
        }
    }

    /// Every legal move in the long (UCI-style) form of rules.md.
    pub fn legal_moves(&self) -> Vec<String> {
        self.legal().into_iter().map(|(mv, _)| mv.text()).collect()
    }

    /// Applies one of `legal_moves()`; `None` if `uci` is not legal here.
    pub fn play(&self, uci: &str) -> Option<RefPos> {
        self.legal()
            .into_iter()
            .find(|(mv, _)| mv.text() == uci)
            .map(|(_, mut next)| {
                next.normalize_ep();
                next
            })
    }

    /// Number of leaf nodes of the legal move tree of the given depth.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        // The raw ep square only admits ep captures; `legal` re-checks them,
        // so normalizing is not needed for counting.
        moves.iter().map(|(_, next)| next.perft(depth - 1)).sum()
    }

    /// Perft split by first move, sorted by move text.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = self
            .legal()
            .into_iter()
            .map(|(mv, next)| {
                (
                    mv.text(),
                    if depth <= 1 { 1 } else { next.perft(depth - 1) },
                )
            })
            .collect();
        v.sort();
        v
    }

    /// The colour-swapped position (ranks flipped, White <-> Black). Every
    /// rule is colour-symmetric, so perft counts must be equal.
    pub fn mirror(&self) -> RefPos {
        let mut m = self.clone();
        for s in 0..64 {
            m.board[s ^ 56] = self.board[s].map(|(c, r)| (c.other(), r));
        }
        m.turn = self.turn.other();
        m.airfield = [self.airfield[1], self.airfield[0]];
        m.prison = [self.prison[1], self.prison[0]];
        m.king_unmoved = [self.king_unmoved[1], self.king_unmoved[0]];
        m.rook_unmoved = [self.rook_unmoved[1], self.rook_unmoved[0]];
        m.ep = self.ep.map(|s| s ^ 56);
        m
    }

    /// The side to move.
    pub fn white_to_move(&self) -> bool {
        self.turn == Color::White
    }

    /// Per colour (0 White, 1 Black) and role P N B R Q K: men summed over the
    /// board, the own airfield and the enemy prison (invariant of R4).
    pub fn material(&self) -> [[u32; 6]; 2] {
        let mut m = [[0u32; 6]; 2];
        for s in 0..64 {
            if let Some((c, r)) = self.board[s] {
                m[c.idx()][r.idx()] += 1;
            }
        }
        for c in [Color::White, Color::Black] {
            for r in POOL_ROLES {
                m[c.idx()][r.idx()] += u32::from(self.airfield[c.idx()][r.idx()])
                    + u32::from(self.prison[c.other().idx()][r.idx()]);
            }
        }
        m
    }
}
