//! Legal move generation (private machinery of [`crate::Position`]).
//!
//! Board moves are generated with check and pin masks, as in orthodox chess,
//! with three Hostage changes that a mask computed before the move cannot
//! see, each applied where the prison changes:
//!
//! - R8: a pawn of a side that cannot promote neither moves to nor attacks
//!   its last rank;
//! - R8a: while enemy pawns are frozen, a capture of an enemy queen, rook,
//!   bishop or knight puts it in our prison and so unfreezes them; such a
//!   capture is illegal when a frozen pawn attacks our king (for the king's
//!   own captures, its new square is tested with the pawns unfrozen);
//! - R5: releasing the enemy's last queen, rook, bishop or knight from our
//!   prison freezes its pawns, so an exchange can answer a pawn's check
//!   wherever the rescued man is dropped.
//!
//! Drops and exchanges never expose the mover's king (a man appears; none
//! leaves the board; our prison only loses men), so when not in check all of
//! them are legal, and in check the legal drop squares depend only on which
//! checkers remain.

use crate::{
    attacks, mv::king_home, Bitboard, Board, CastlingSide, Color, Move, MoveList, Position, Rank,
    Role, Square,
};

/// Where generated moves go: a list, a counter, a search for one move, or a
/// list of some men's board moves only ([`Sink::movers`]).
pub(crate) trait Sink {
    fn push(&mut self, m: Move);
    /// Non-promoting board moves of the man of `role` on `from` to each
    /// square of `to` (captures where an enemy man stands).
    fn normals(&mut self, board: &Board, role: Role, from: Square, to: Bitboard);
    /// Non-promoting pawn moves onto each square of `to`, each from the
    /// square `delta` indices back.
    fn pawn_shift(&mut self, board: &Board, delta: i32, to: Bitboard);
    /// Airfield drops of `role` on each square of `to`.
    fn drops(&mut self, role: Role, to: Squares);
    /// Exchanges `(released, rescued)` dropping on each square of `to`.
    fn exchanges(&mut self, released: Role, rescued: Role, to: Squares);
    /// The squares whose men's board moves are wanted (all by default).
    fn movers(&self) -> Bitboard {
        Bitboard::FULL
    }
    /// Whether drops and exchanges are wanted (by default, yes).
    fn wants_drops(&self) -> bool {
        true
    }
}

impl Sink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    fn normals(&mut self, board: &Board, role: Role, from: Square, to: Bitboard) {
        for to in to {
            self.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    fn pawn_shift(&mut self, board: &Board, delta: i32, to: Bitboard) {
        // A push (a whole number of ranks) lands on an empty square: no
        // need to look for a captured man.
        let pushes = delta % 8 == 0;
        for to in to {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            let capture = if pushes { None } else { board.role_at(to) };
            self.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: None,
            });
        }
    }
    fn drops(&mut self, role: Role, to: Squares) {
        extend_counted(self, to, |to| Move::Drop { role, to });
    }
    fn exchanges(&mut self, released: Role, rescued: Role, to: Squares) {
        extend_counted(self, to, |to| Move::Exchange {
            released,
            rescued,
            to,
        });
    }
}

/// Appends `f(square)` for each square of `to`, a1 to h8. The squares come
/// from a counted range (a `TrustedLen` iterator), so `Vec::extend`
/// reserves room once and writes each move without testing the capacity.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn extend_counted(list: &mut MoveList, to: Squares, mut f: impl FnMut(Square) -> Move) {
    let mut rest = to.set.0;
    list.extend((0..to.count).map(|_| {
        let sq = Square::new_unchecked(rest.trailing_zeros());
        rest &= rest.wrapping_sub(1);
        f(sq)
    }));
}

/// A set of squares with its size, counted once for every role dropped or
/// exchange pair that lands on it (a population count is about twenty
/// instructions on the default x86-64 build).
#[derive(Copy, Clone)]
pub(crate) struct Squares {
    set: Bitboard,
    count: u32,
}

impl Squares {
    /// The squares.
    #[inline]
    pub(crate) fn set(self) -> Bitboard {
        self.set
    }

    #[inline]
    fn new(set: Bitboard) -> Squares {
        Squares {
            set,
            count: set.count(),
        }
    }
}

/// Where a man can be dropped, with and without R6's pawn restriction.
#[derive(Copy, Clone)]
struct DropSquares {
    any: Squares,
    pawn: Squares,
}

impl DropSquares {
    #[inline]
    fn new(mask: Bitboard) -> DropSquares {
        DropSquares {
            any: Squares::new(mask),
            // R6: pawns are never dropped on rank 1 or 8.
            pawn: Squares::new(mask & !Bitboard::BACKRANKS),
        }
    }

    #[inline]
    fn of(self, role: Role) -> Squares {
        if role == Role::Pawn {
            self.pawn
        } else {
            self.any
        }
    }
}

/// Counts moves without listing them: a set of moves by its population
/// count.
///
/// The x86-64 build without `target-cpu` flags has no population-count
/// instruction, and `count_ones` costs about twenty instructions, so sets
/// known to be disjoint are joined before they are counted: the pawns'
/// pushes (one and two squares land on empty squares, never the same one)
/// and their captures towards one side (enemy squares) go into `pawns`,
/// counted once at the end; captures towards the other side may share
/// squares with those and are counted alone. And each set is counted only
/// per byte ([`byte_counts`]), the bytes summed once in [`Counter::total`].
pub(crate) struct Counter {
    count: usize,
    pawns: Bitboard,
    /// Per byte, the squares of the sets counted so far in that byte of the
    /// board: at most 8 per set, and at most 17 sets per position (7
    /// pieces, 8 pinned pawns, a pawn capture set, the joined pawn set; R1
    /// bounds the pieces), so no byte overflows.
    #[cfg(not(any(target_arch = "wasm32", target_feature = "popcnt")))]
    bytes: u64,
}

impl Counter {
    pub(crate) const fn new() -> Counter {
        Counter {
            count: 0,
            pawns: Bitboard::EMPTY,
            #[cfg(not(any(target_arch = "wasm32", target_feature = "popcnt")))]
            bytes: 0,
        }
    }

    /// Counts the squares of `set`.
    #[inline]
    fn add(&mut self, set: Bitboard) {
        #[cfg(any(target_arch = "wasm32", target_feature = "popcnt"))]
        {
            self.count += set.count() as usize;
        }
        #[cfg(not(any(target_arch = "wasm32", target_feature = "popcnt")))]
        {
            self.bytes = self.bytes.wrapping_add(byte_counts(set));
        }
    }

    /// The number of moves counted.
    #[inline]
    pub(crate) fn total(&self) -> usize {
        #[cfg(any(target_arch = "wasm32", target_feature = "popcnt"))]
        {
            self.count + self.pawns.count() as usize
        }
        #[cfg(not(any(target_arch = "wasm32", target_feature = "popcnt")))]
        {
            let bytes = self.bytes.wrapping_add(byte_counts(self.pawns));
            // Bytes into 16-bit lanes (each at most 17 * 8 * 2), then the
            // sum of the four lanes in the top one.
            let lanes = (bytes & 0x00ff_00ff_00ff_00ff) + ((bytes >> 8) & 0x00ff_00ff_00ff_00ff);
            self.count + (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
        }
    }
}

/// The first three steps of a population count (the Chess Programming
/// Wiki's "SWAR-Popcount"): each byte of the result holds how many squares
/// of `set` lie in that byte, 0 to 8. Adding such values for many sets and
/// summing the bytes once saves the multiplication and shift of each count.
#[cfg(not(any(target_arch = "wasm32", target_feature = "popcnt")))]
#[inline]
fn byte_counts(set: Bitboard) -> u64 {
    let x = set.0;
    let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.count += 1;
    }
    #[inline]
    fn normals(&mut self, _: &Board, _: Role, _: Square, to: Bitboard) {
        self.add(to);
    }
    #[inline]
    fn pawn_shift(&mut self, _: &Board, delta: i32, to: Bitboard) {
        // Pushes (a multiple of 8) and captures towards the a-file (7 for
        // White, -9 for Black) land on pairwise different squares.
        if delta % 8 == 0 || delta == 7 || delta == -9 {
            debug_assert!(!self.pawns.intersects(to));
            self.pawns |= to;
        } else {
            self.add(to);
        }
    }
    #[inline]
    fn drops(&mut self, _: Role, to: Squares) {
        self.count += to.count as usize;
    }
    #[inline]
    fn exchanges(&mut self, _: Role, _: Role, to: Squares) {
        self.count += to.count as usize;
    }
}

/// Collects the board moves of some of our men only.
pub(crate) struct Restricted {
    pub movers: Bitboard,
    pub moves: MoveList,
}

impl Sink for Restricted {
    fn push(&mut self, m: Move) {
        self.moves.push(m);
    }
    fn normals(&mut self, board: &Board, role: Role, from: Square, to: Bitboard) {
        self.moves.normals(board, role, from, to);
    }
    fn pawn_shift(&mut self, board: &Board, delta: i32, to: Bitboard) {
        self.moves.pawn_shift(board, delta, to);
    }
    fn drops(&mut self, _: Role, _: Squares) {}
    fn exchanges(&mut self, _: Role, _: Role, _: Squares) {}
    fn movers(&self) -> Bitboard {
        self.movers
    }
    fn wants_drops(&self) -> bool {
        false
    }
}

/// Looks for one move.
pub(crate) struct Finder {
    pub target: Move,
    pub found: bool,
}

impl Sink for Finder {
    fn push(&mut self, m: Move) {
        self.found |= m == self.target;
    }
    fn movers(&self) -> Bitboard {
        self.target
            .from()
            .map_or(Bitboard::EMPTY, Bitboard::from_square)
    }
    fn wants_drops(&self) -> bool {
        self.target.is_drop()
    }
    fn normals(&mut self, board: &Board, role: Role, from: Square, to: Bitboard) {
        if let Move::Normal {
            role: r,
            from: f,
            to: t,
            ..
        } = self.target
        {
            if r == role && f == from && to.contains(t) {
                let m = Move::Normal {
                    role,
                    from,
                    capture: board.role_at(t),
                    to: t,
                    promotion: None,
                };
                self.found |= m == self.target;
            }
        }
    }
    fn pawn_shift(&mut self, board: &Board, delta: i32, to: Bitboard) {
        if let Move::Normal {
            role: Role::Pawn,
            from,
            to: t,
            ..
        } = self.target
        {
            if to.contains(t) && t.index() as i32 - delta == from.index() as i32 {
                let capture = board.role_at(t);
                let m = Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to: t,
                    promotion: None,
                };
                self.found |= m == self.target;
            }
        }
    }
    fn drops(&mut self, role: Role, to: Squares) {
        if let Move::Drop { role: r, to: sq } = self.target {
            self.found |= r == role && to.set.contains(sq);
        }
    }
    fn exchanges(&mut self, released: Role, rescued: Role, to: Squares) {
        if let Move::Exchange {
            released: x,
            rescued: y,
            to: sq,
        } = self.target
        {
            self.found |= x == released && y == rescued && to.set.contains(sq);
        }
    }
}

/// Collects captures (en passant included) and promotions only: the moves
/// a quiescence search looks at. Drops, exchanges and castling are never
/// captures (R5, R6: the dropped man lands on an empty square).
pub(crate) struct Tactical<'a>(pub &'a mut MoveList);

impl Sink for Tactical<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        if m.is_capture()
            || matches!(
                m,
                Move::Normal {
                    promotion: Some(_),
                    ..
                }
            )
        {
            self.0.push(m);
        }
    }
    #[inline]
    fn normals(&mut self, board: &Board, role: Role, from: Square, to: Bitboard) {
        self.0.normals(board, role, from, to & board.occupied());
    }
    #[inline]
    fn pawn_shift(&mut self, board: &Board, delta: i32, to: Bitboard) {
        self.0.pawn_shift(board, delta, to & board.occupied());
    }
    fn drops(&mut self, _: Role, _: Squares) {}
    fn exchanges(&mut self, _: Role, _: Role, _: Squares) {}
    fn wants_drops(&self) -> bool {
        false
    }
}

/// Where a dropped man can stop the checks in `checkers` against `king`:
/// anywhere if none, between king and checker if one slider, nowhere else.
fn drop_mask(pos: &Position, king: Square, checkers: Bitboard) -> Bitboard {
    let empty = !pos.board.occupied();
    if checkers.is_empty() {
        empty
    } else if let Some(checker) = checkers.single_square() {
        attacks::between(king, checker) & empty
    } else {
        Bitboard::EMPTY
    }
}

pub(crate) fn generate<S: Sink>(pos: &Position, sink: &mut S) {
    // One copy of the generator per side to move, so that every choice by
    // colour (pawn directions, ranks, home squares) is a constant. The
    // WebAssembly build keeps one copy, for size.
    #[cfg(not(target_arch = "wasm32"))]
    match pos.turn {
        Color::White => generate_as(pos, sink, Color::White),
        Color::Black => generate_as(pos, sink, Color::Black),
    }
    #[cfg(target_arch = "wasm32")]
    generate_as(pos, sink, pos.turn);
}

/// [`generate`] for the side to move `us` (`pos.turn`).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn generate_as<S: Sink>(pos: &Position, sink: &mut S, us: Color) {
    let them = !us;
    let board = &pos.board;
    let king = pos.king_of(us);
    let ours = board.by_color(us);
    let theirs = board.by_color(them);
    let occupied = board.occupied();
    let their_live = pos.can_promote(them);
    let KingSafety {
        checkers,
        pinned,
        pseudo_checkers,
    } = king_safety(pos, us, king, their_live);

    let movers = sink.movers();
    // Board moves of men other than the king.
    if !checkers.more_than_one() && (movers & ours & !board.by_role(Role::King)).any() {
        let mut target = match checkers.first() {
            Some(checker) => attacks::between(king, checker) | checker,
            None => !ours,
        };
        // R8a: with a frozen pawn next to our king, taking an enemy piece
        // would unfreeze it.
        if pseudo_checkers.any() {
            target &= !(theirs & !board.pawns());
        }
        let limits = BoardMoveLimits {
            movers,
            target,
            pinned,
            king,
            us,
        };
        gen_pieces(pos, sink, limits);
        gen_pawns(pos, sink, limits);
    }
    if let Some(ep) = pos.ep_square {
        // Tested by playing it out on the occupancy: no mask needed.
        gen_en_passant(pos, sink, us, movers, ep, king);
    }
    if movers.contains(king) {
        gen_king(pos, sink, us, king, their_live);
        if checkers.is_empty() {
            gen_castling(pos, sink, us, king, their_live);
        }
    }
    if !sink.wants_drops() {
        return;
    }

    // Airfield drops (R6).
    let airfield = pos.airfield(us);
    if !airfield.is_empty() {
        let squares = DropSquares::new(drop_mask(pos, king, checkers));
        for role in airfield.roles() {
            sink.drops(role, squares.of(role));
        }
    }

    // Exchanges (R5).
    let our_prison = pos.prison(us);
    let their_prison = pos.prison(them);
    if !our_prison.is_empty() && !their_prison.is_empty() {
        let unreleased = DropSquares::new(drop_mask(pos, king, checkers));
        for released in our_prison.roles() {
            // R8: giving back the enemy's last promotable piece freezes its
            // pawns, and a pawn's check on our back rank with them.
            let freezes = their_live
                && released != Role::Pawn
                && our_prison.count(released) == 1
                && Role::PROMOTION
                    .iter()
                    .all(|&r| r == released || !our_prison.has(r));
            let squares = if freezes && checkers.any() {
                let remaining = pos.attackers_live(king, them, occupied, false);
                DropSquares::new(drop_mask(pos, king, remaining))
            } else {
                unreleased
            };
            if squares.any.count == 0 {
                continue;
            }
            for rescued in their_prison.roles() {
                if released.can_release_for(rescued) {
                    sink.exchanges(released, rescued, squares.of(rescued));
                }
            }
        }
    }
}

/// What attacks our king, and what is pinned to it.
struct KingSafety {
    /// The enemy men giving check (R8: frozen pawns do not).
    checkers: Bitboard,
    /// Our men pinned to our king by enemy sliders.
    pinned: Bitboard,
    /// Frozen enemy pawns that would attack our king if they were not
    /// frozen (R8a), as [`Position::pseudo_checkers`].
    pseudo_checkers: Bitboard,
}

/// Checkers, pins and pseudo-checkers in one pass over the enemy sliders
/// on our king's lines: a slider with nothing between gives check, one with
/// a single man of ours between pins it. No slider attack is looked up.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg(target_arch = "wasm32")]
fn king_safety(pos: &Position, us: Color, king: Square, their_live: bool) -> KingSafety {
    // The WebAssembly build asks the position's own queries, whose code it
    // has anyway: smaller than the one pass below, for the rules module's
    // size budget.
    let board = &pos.board;
    let occupied = board.occupied();
    let snipers = (attacks::rook_rays(king) & board.rooks_and_queens()
        | attacks::bishop_rays(king) & board.bishops_and_queens())
        & board.by_color(!us);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers & board.by_color(us);
        }
    }
    KingSafety {
        checkers: pos.attackers_live(king, !us, occupied, their_live),
        pinned,
        pseudo_checkers: pos.pseudo_checkers(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn king_safety(pos: &Position, us: Color, king: Square, their_live: bool) -> KingSafety {
    let board = &pos.board;
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    let pawns = attacks::pawn_attacks(us, king) & board.pawns() & theirs;
    // R8: a frozen pawn attacks nothing on its last rank, our first.
    let frozen = !their_live && king.rank() == Rank::FIRST.relative_to(us);
    let (mut checkers, pseudo_checkers) = if frozen {
        (Bitboard::EMPTY, pawns)
    } else {
        (pawns, Bitboard::EMPTY)
    };
    checkers |= (attacks::knight_attacks(king) & board.by_role(Role::Knight)
        | attacks::king_attacks(king) & board.by_role(Role::King))
        & theirs;
    let snipers = (attacks::rook_rays(king) & board.rooks_and_queens()
        | attacks::bishop_rays(king) & board.bishops_and_queens())
        & theirs;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if blockers.is_empty() {
            checkers.add(sniper);
        } else if !blockers.more_than_one() {
            pinned |= blockers & ours;
        }
    }
    KingSafety {
        checkers,
        pinned,
        pseudo_checkers,
    }
}

/// What limits the board moves of men other than the king, worked out once
/// for the pieces and the pawns.
#[derive(Copy, Clone)]
struct BoardMoveLimits {
    /// The men the sink asks moves of.
    movers: Bitboard,
    /// The squares a move may land on (capture the checker or block it;
    /// R8a: no capture of an enemy piece beside a frozen pawn).
    target: Bitboard,
    /// Our men pinned to our king: each moves only along its pin line.
    pinned: Bitboard,
    /// Our king's square.
    king: Square,
    /// The side to move.
    us: Color,
}

#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn gen_pieces<S: Sink>(pos: &Position, sink: &mut S, limits: BoardMoveLimits) {
    let board = &pos.board;
    let ours = board.by_color(limits.us) & limits.movers;
    let occupied = board.occupied();
    let mut emit = |role: Role, from: Square, to: Bitboard| {
        let to = if limits.pinned.contains(from) {
            to & attacks::line(limits.king, from)
        } else {
            to
        };
        sink.normals(board, role, from, to);
    };
    // A pinned knight can never move.
    for from in board.by_role(Role::Knight) & ours & !limits.pinned {
        emit(
            Role::Knight,
            from,
            attacks::knight_attacks(from) & limits.target,
        );
    }
    for from in board.by_role(Role::Bishop) & ours {
        emit(
            Role::Bishop,
            from,
            attacks::bishop_attacks(from, occupied) & limits.target,
        );
    }
    for from in board.by_role(Role::Rook) & ours {
        emit(
            Role::Rook,
            from,
            attacks::rook_attacks(from, occupied) & limits.target,
        );
    }
    for from in board.by_role(Role::Queen) & ours {
        emit(
            Role::Queen,
            from,
            attacks::queen_attacks(from, occupied) & limits.target,
        );
    }
}

#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn gen_pawns<S: Sink>(pos: &Position, sink: &mut S, limits: BoardMoveLimits) {
    let board = &pos.board;
    let us = limits.us;
    let pawns = board.by_piece(Role::Pawn.of(us)) & limits.movers;
    if pawns.is_empty() {
        return;
    }
    let theirs = board.by_color(!us);
    let empty = !board.occupied();
    let last_rank = Bitboard::relative_rank(us, Rank::EIGHTH);
    let third = Bitboard::relative_rank(us, Rank::THIRD);
    // R7/R8: promotion fetches one of our men from the opponent's prison;
    // with none there, the pawn cannot enter the last rank at all.
    let promotable = pos.prison(!us);
    let entry = if promotable.has_promotion_piece() {
        Bitboard::FULL
    } else {
        !last_rank
    };
    let (forward, left, right) = if us.is_white() {
        (8, 7, 9)
    } else {
        (-8, -9, -7)
    };
    let shift = |bb: Bitboard, delta: i32| {
        Bitboard(if delta > 0 {
            bb.0 << delta
        } else {
            bb.0 >> -delta
        })
    };
    // Captures towards the a-file cannot start on it, nor towards h on h.
    let left_from = !Bitboard::from_file(crate::File::A);
    let right_from = !Bitboard::from_file(crate::File::H);

    let free = pawns & !limits.pinned;
    let single = shift(free, forward) & empty;
    let double = shift(single & third, forward) & empty & limits.target;
    let single = single & limits.target & entry;
    let captures_left = shift(free & left_from, left) & theirs & limits.target & entry;
    let captures_right = shift(free & right_from, right) & theirs & limits.target & entry;
    for (delta, to) in [
        (forward, single),
        (left, captures_left),
        (right, captures_right),
    ] {
        sink.pawn_shift(board, delta, to & !last_rank);
        for to in to & last_rank {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            promotions(sink, board, promotable, from, to);
        }
    }
    sink.pawn_shift(board, 2 * forward, double);

    // Pinned pawns move only along the pin line.
    for from in pawns & limits.pinned {
        let line = attacks::line(limits.king, from);
        let mut to = attacks::pawn_attacks(us, from) & theirs & limits.target & line & entry;
        let single = Square::new_unchecked((from.index() as i32 + forward) as u32);
        if empty.contains(single) && line.contains(single) {
            if limits.target.contains(single) && entry.contains(single) {
                to.add(single);
            }
            if third.contains(single) {
                let double = Square::new_unchecked((single.index() as i32 + forward) as u32);
                if empty.contains(double) && limits.target.contains(double) {
                    to.add(double);
                }
            }
        }
        sink.normals(board, Role::Pawn, from, to & !last_rank);
        for to in to & last_rank {
            promotions(sink, board, promotable, from, to);
        }
    }
}

/// One move per role of ours held in the opponent's prison (R7).
fn promotions<S: Sink>(
    sink: &mut S,
    board: &Board,
    promotable: &crate::Reserve,
    from: Square,
    to: Square,
) {
    let capture = board.role_at(to);
    for promotion in Role::PROMOTION {
        if promotable.has(promotion) {
            sink.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: Some(promotion),
            });
        }
    }
}

/// Whether our king would be safe after an en-passant capture from `from`.
fn ep_is_safe(pos: &Position, us: Color, from: Square, ep: Square, king: Square) -> bool {
    let captured = Square::from_coords(ep.file(), from.rank());
    let occupied = (pos.board.occupied() ^ from ^ captured) | ep;
    let attackers = pos.attackers(king, !us, occupied) & !Bitboard::from_square(captured);
    attackers.is_empty()
}

fn gen_en_passant<S: Sink>(
    pos: &Position,
    sink: &mut S,
    us: Color,
    movers: Bitboard,
    ep: Square,
    king: Square,
) {
    let capturers = attacks::pawn_attacks(!us, ep) & pos.board.by_piece(Role::Pawn.of(us)) & movers;
    for from in capturers {
        if ep_is_safe(pos, us, from, ep, king) {
            sink.push(Move::EnPassant { from, to: ep });
        }
    }
}

impl Position {
    /// The en-passant square if an en-passant capture is legal: what FEN
    /// writes and the hash keys (R12).
    pub(crate) fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        has_legal_ep(self, ep).then_some(ep)
    }
}

/// Whether an en-passant capture onto `ep` is legal (R10, R12).
fn has_legal_ep(pos: &Position, ep: Square) -> bool {
    let us = pos.turn;
    let king = pos.king_of(us);
    let capturers = attacks::pawn_attacks(!us, ep) & pos.board.by_piece(Role::Pawn.of(us));
    capturers
        .into_iter()
        .any(|from| ep_is_safe(pos, us, from, ep, king))
}

#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn gen_king<S: Sink>(pos: &Position, sink: &mut S, us: Color, king: Square, their_live: bool) {
    let board = &pos.board;
    let occupied = board.occupied().without(king);
    for to in attacks::king_attacks(king) & !board.by_color(us) {
        let capture = board.role_at(to);
        // R8a: taking an enemy piece puts it in our prison and may unfreeze
        // the enemy pawns that guard the square.
        let live = their_live || matches!(capture, Some(r) if r != Role::Pawn);
        if pos.attackers_live(to, !us, occupied, live).is_empty() {
            sink.push(Move::Normal {
                role: Role::King,
                from: king,
                capture,
                to,
                promotion: None,
            });
        }
    }
}

#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn gen_castling<S: Sink>(pos: &Position, sink: &mut S, us: Color, king: Square, their_live: bool) {
    if king != king_home(us) || !pos.king_unmoved(us) {
        return;
    }
    let board = &pos.board;
    for side in CastlingSide::ALL {
        let rook = side.rook_square(us);
        if !pos.has_castling_right(us, side)
            || board.piece_at(rook) != Some(Role::Rook.of(us))
            || (attacks::between(king, rook) & board.occupied()).any()
        {
            continue;
        }
        let king_to = side.king_to(us);
        // R9 with R8 attacks: a frozen pawn does not stop castling.
        let path = attacks::between(king, king_to) | king_to;
        if path.into_iter().all(|sq| {
            pos.attackers_live(sq, !us, board.occupied(), their_live)
                .is_empty()
        }) {
            sink.push(Move::Castle { king, rook });
        }
    }
}

/// The public face of move generation: each call runs `generate` with
/// the sink it needs.
impl Position {
    /// Every legal move: board moves, airfield drops and exchanges.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::with_capacity(64);
        generate(self, &mut moves);
        moves
    }

    /// Appends every legal move to `moves` (reusing its allocation).
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        generate(self, moves);
    }

    /// Appends the legal captures (en passant included) and promotions to
    /// `moves`: the "noisy" moves a quiescence search considers. Drops,
    /// exchanges and castling never capture, so they are left out.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{fen::Fen, MoveList, Position};
    ///
    /// // After 1.e4 d5: exd5 is White's only capture.
    /// let pos: Position = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"
    ///     .parse::<Fen>()?
    ///     .into_position()?;
    /// let mut moves = MoveList::new();
    /// pos.legal_captures_into(&mut moves);
    /// assert_eq!(moves.len(), 1);
    /// assert!(moves.iter().all(|m| m.is_capture()));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn legal_captures_into(&self, moves: &mut MoveList) {
        generate(self, &mut Tactical(moves));
    }

    /// The legal board moves (castling and en passant included, no drops or
    /// exchanges) of the men of the side to move standing on `movers`: for
    /// a board UI's destinations, or SAN disambiguation.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Bitboard, Position, Square};
    ///
    /// let pos = Position::new();
    /// let knight = pos.legal_board_moves(Bitboard::from_square(Square::G1));
    /// assert_eq!(knight.len(), 2);
    /// ```
    #[must_use]
    pub fn legal_board_moves(&self, movers: Bitboard) -> MoveList {
        let mut sink = Restricted {
            movers,
            moves: MoveList::new(),
        };
        generate(self, &mut sink);
        sink.moves
    }

    /// The number of legal moves, counted without building the list (drops
    /// and exchanges are counted per role pair, not one by one).
    #[must_use]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = Counter::new();
        generate(self, &mut counter);
        counter.total()
    }

    /// Whether `m` is legal here.
    #[must_use]
    pub fn is_legal(&self, m: &Move) -> bool {
        let mut finder = Finder {
            target: *m,
            found: false,
        };
        generate(self, &mut finder);
        finder.found
    }
}
