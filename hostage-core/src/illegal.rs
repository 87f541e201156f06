//! [`IllegalReason`]: why a move is not legal, for error messages.
//!
//! The move generator only says *whether* a move is legal. When a move is
//! refused, [`Position::illegal_reason`] works out *why*, on the error path
//! only: it walks the rules in the order a player would (is the man there,
//! does it move that way, is the way free, what does the move fetch from a
//! prison or an airfield) and finally plays the move on a copy to judge the
//! king's safety, prisons included (R8a). Legal move generation never calls
//! it, so it costs nothing when every move is legal.
//!
//! `illegal_reason(m)` is `None` exactly when `m` is legal; the tests check
//! this against the generator's move list.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{IllegalReason, Position};
//!
//! let pos = Position::from_fen("4k3/8/8/8/8/4r3/8/4K3[] w - - 0 1")?;
//! let err = pos.parse_san("Ke2").unwrap_err();
//! assert_eq!(err.reason(), Some(IllegalReason::LeavesKingInCheck));
//! assert_eq!(err.reason().map(|r| r.code()), Some("leaves_king_in_check"));
//! assert!(err.to_string().ends_with(": the mover's king would be in check"));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use crate::{
    attacks, mv::king_home, Bitboard, CastlingSide, Move, PlayError, Position, Rank, Role, Square,
};

/// Why a move is not legal in a position: the first rule it breaks.
///
/// Each variant names the rule of `docs/rules.md` it comes from. The
/// [`code`](IllegalReason::code) is stable and shared with the Python and
/// JavaScript bindings; the [`Display`](fmt::Display) text is a short
/// English clause ("the mover's king would be in check").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// No man of the side to move stands on the start square, or the side
    /// to move has no man of that role able to make the move (R1).
    NoOwnMan,
    /// The move does not describe the board: the moving or captured man has
    /// another role, a promotion is named where no pawn promotes, or an
    /// en-passant capture is written as an ordinary one. Only hand-built
    /// moves have this reason; moves read from SAN or UCI text never do.
    Mismatch,
    /// The man does not move that way (R1: orthodox moves; a pawn moves
    /// diagonally only to capture, and double-steps only from its 2nd rank).
    WrongWay,
    /// Another man stands in the way: on a line between the start and the
    /// target, in front of a pawn, or between king and rook for castling
    /// (R1, R9).
    PathBlocked,
    /// A man of the side to move stands on the target square (R1).
    OwnManOnTarget,
    /// No en-passant capture is possible there: the last move was not a
    /// double step past this square (R10; a drop never allows one, R6).
    NoEnPassant,
    /// A frozen pawn: its side has no queen, rook, bishop or knight in the
    /// enemy prison, so it cannot enter the last rank (R8).
    FrozenPawn,
    /// A pawn reaching the last rank must name the man it fetches from the
    /// enemy prison (R7).
    PromotionRequired,
    /// The promotion names a man that is not in the enemy prison (R7).
    PromotionUnavailable,
    /// The king or the rook has moved, so the castling right is gone (R9).
    NoCastlingRight,
    /// The king is in check, or would pass through an attacked square, when
    /// castling (R9; frozen pawns attack nothing on the last rank, R8).
    CastlingThroughCheck,
    /// The dropped man is not in the mover's airfield (R6; a king never is,
    /// R4).
    NotInAirfield,
    /// The man released in an exchange is not in the mover's prison (R5).
    ReleasedNotHeld,
    /// The man rescued in an exchange is not in the opponent's prison (R5).
    RescuedNotHeld,
    /// The released man is worth less than the rescued one (R5: pawn 1 <
    /// knight 2 = bishop 2 < rook 3 < queen 4).
    ExchangeValue,
    /// A drop (airfield or exchange) onto a square that is not empty (R5, R6).
    SquareOccupied,
    /// A pawn dropped on rank 1 or 8 (R6, also for exchanges, R5).
    PawnOnBackRank,
    /// After the move the mover's king would be attacked: it moves into
    /// check, stays in check, or a pinned man uncovers it (orthodox, R8a).
    LeavesKingInCheck,
    /// Pseudo-check (R8a): the move captures an enemy queen, rook, bishop or
    /// knight, which unfreezes an enemy pawn that then attacks the mover's
    /// king.
    UnfreezesPawn,
}

impl IllegalReason {
    /// Every reason, in the order [`Position::illegal_reason`] tests them.
    pub const ALL: [IllegalReason; 19] = [
        IllegalReason::NoOwnMan,
        IllegalReason::Mismatch,
        IllegalReason::WrongWay,
        IllegalReason::PathBlocked,
        IllegalReason::OwnManOnTarget,
        IllegalReason::NoEnPassant,
        IllegalReason::FrozenPawn,
        IllegalReason::PromotionRequired,
        IllegalReason::PromotionUnavailable,
        IllegalReason::NoCastlingRight,
        IllegalReason::CastlingThroughCheck,
        IllegalReason::NotInAirfield,
        IllegalReason::ReleasedNotHeld,
        IllegalReason::RescuedNotHeld,
        IllegalReason::ExchangeValue,
        IllegalReason::SquareOccupied,
        IllegalReason::PawnOnBackRank,
        IllegalReason::LeavesKingInCheck,
        IllegalReason::UnfreezesPawn,
    ];

    /// A stable identifier, shared with the Python and JavaScript bindings
    /// (`"leaves_king_in_check"`, ...).
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            IllegalReason::NoOwnMan => "no_own_man",
            IllegalReason::Mismatch => "mismatch",
            IllegalReason::WrongWay => "wrong_way",
            IllegalReason::PathBlocked => "path_blocked",
            IllegalReason::OwnManOnTarget => "own_man_on_target",
            IllegalReason::NoEnPassant => "no_en_passant",
            IllegalReason::FrozenPawn => "frozen_pawn",
            IllegalReason::PromotionRequired => "promotion_required",
            IllegalReason::PromotionUnavailable => "promotion_unavailable",
            IllegalReason::NoCastlingRight => "no_castling_right",
            IllegalReason::CastlingThroughCheck => "castling_through_check",
            IllegalReason::NotInAirfield => "not_in_airfield",
            IllegalReason::ReleasedNotHeld => "released_not_held",
            IllegalReason::RescuedNotHeld => "rescued_not_held",
            IllegalReason::ExchangeValue => "exchange_value",
            IllegalReason::SquareOccupied => "square_occupied",
            IllegalReason::PawnOnBackRank => "pawn_on_back_rank",
            IllegalReason::LeavesKingInCheck => "leaves_king_in_check",
            IllegalReason::UnfreezesPawn => "unfreezes_pawn",
        }
    }

    /// The reason with this [`code`](IllegalReason::code).
    #[must_use]
    pub fn from_code(code: &str) -> Option<IllegalReason> {
        IllegalReason::ALL.into_iter().find(|r| r.code() == code)
    }

    /// How far through the rules a move got before breaking this one: the
    /// index in [`IllegalReason::ALL`]. SAN picks, among the men that could
    /// be meant, the one that got furthest.
    fn depth(self) -> usize {
        IllegalReason::ALL
            .iter()
            .position(|&r| r == self)
            .unwrap_or(0)
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalReason::NoOwnMan => "the side to move has no such man there",
            IllegalReason::Mismatch => "the move does not match the men on the board",
            IllegalReason::WrongWay => "that man does not move that way",
            IllegalReason::PathBlocked => "another man is in the way",
            IllegalReason::OwnManOnTarget => "a man of the same side stands on the target square",
            IllegalReason::NoEnPassant => "no en-passant capture is possible there",
            IllegalReason::FrozenPawn => {
                "the pawn is frozen: no man of its side is in the enemy prison to promote to"
            }
            IllegalReason::PromotionRequired => "a pawn reaching the last rank must promote",
            IllegalReason::PromotionUnavailable => "no man of that role is in the enemy prison",
            IllegalReason::NoCastlingRight => "the king or the rook has already moved",
            IllegalReason::CastlingThroughCheck => {
                "the king may not castle out of or through check"
            }
            IllegalReason::NotInAirfield => "no man of that role is in the airfield",
            IllegalReason::ReleasedNotHeld => "the released man is not in the mover's prison",
            IllegalReason::RescuedNotHeld => "the rescued man is not in the opponent's prison",
            IllegalReason::ExchangeValue => "the released man is worth less than the rescued one",
            IllegalReason::SquareOccupied => "a man may only be dropped on an empty square",
            IllegalReason::PawnOnBackRank => "a pawn may not be dropped on rank 1 or 8",
            IllegalReason::LeavesKingInCheck => "the mover's king would be in check",
            IllegalReason::UnfreezesPawn => {
                "the capture would unfreeze an enemy pawn that attacks the mover's king"
            }
        })
    }
}

/// `": <clause>"` after an error message when the reason is known, nothing
/// otherwise.
pub(crate) struct Because(pub Option<IllegalReason>);

impl fmt::Display for Because {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(reason) => write!(f, ": {reason}"),
            None => Ok(()),
        }
    }
}

// `PlayError` is defined with `Position::play`; its reason and message live
// here, beside the checks, so that `position` does not import this module.
impl PlayError {
    /// Why the move is illegal ([`Position::illegal_reason`], worked out
    /// when asked). `None` only for a move that is in fact legal.
    #[must_use]
    pub fn reason(&self) -> Option<IllegalReason> {
        self.position.illegal_reason(&self.mv)
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal move {} in {}{}",
            self.mv,
            self.position.fen(),
            Because(self.reason())
        )
    }
}

impl Position {
    /// Why `m` is not legal here, or `None` if it is legal.
    ///
    /// The reason is the first rule `m` breaks, tested in the order of
    /// [`IllegalReason::ALL`]: the man, its way, the target, en passant,
    /// promotion, castling, the reserves a drop or an exchange uses, and
    /// last the king's safety after the whole move, prisons included (R8a).
    /// Costs about one move generation; meant for error paths.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{IllegalReason, Move, Position, Role, Square};
    ///
    /// let pos = Position::new();
    /// let e2e5 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E5, promotion: None };
    /// assert_eq!(pos.illegal_reason(&e2e5), Some(IllegalReason::WrongWay));
    /// let drop = Move::Drop { role: Role::Knight, to: Square::E4 };
    /// assert_eq!(pos.illegal_reason(&drop), Some(IllegalReason::NotInAirfield));
    /// let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
    /// assert_eq!(pos.illegal_reason(&e4), None);
    /// ```
    #[must_use]
    pub fn illegal_reason(&self, m: &Move) -> Option<IllegalReason> {
        if let Err(reason) = self.check_form(m) {
            return Some(reason);
        }
        self.check_king_safety(m)
    }

    /// Everything but the king's safety: whether `m` is a move the men,
    /// reserves and castling state allow. On success `m` can be played
    /// with [`Position::play_unchecked`] without breaking the position's
    /// bookkeeping.
    fn check_form(&self, m: &Move) -> Result<(), IllegalReason> {
        let us = self.turn;
        let them = !us;
        let board = &self.board;
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let piece = board.piece_at(from).ok_or(IllegalReason::NoOwnMan)?;
                if piece.color != us {
                    return Err(IllegalReason::NoOwnMan);
                }
                if piece.role != role {
                    return Err(IllegalReason::Mismatch);
                }
                if role == Role::Pawn {
                    self.check_pawn_way(from, to)?;
                } else {
                    check_piece_way(role, from, to, board.occupied())?;
                }
                if board.by_color(us).contains(to) {
                    return Err(IllegalReason::OwnManOnTarget);
                }
                if capture != board.role_at(to) {
                    return Err(IllegalReason::Mismatch);
                }
                let last_rank = to.rank() == Rank::EIGHTH.relative_to(us);
                if role != Role::Pawn || !last_rank {
                    return match promotion {
                        None => Ok(()),
                        Some(_) => Err(IllegalReason::Mismatch),
                    };
                }
                // R7/R8: the pawn enters the last rank only by fetching one of
                // its side's pieces from the enemy prison.
                if !self.can_promote(us) {
                    return Err(IllegalReason::FrozenPawn);
                }
                match promotion {
                    None => Err(IllegalReason::PromotionRequired),
                    Some(p) if !Role::PROMOTION.contains(&p) => Err(IllegalReason::Mismatch),
                    Some(p) if !self.prison(them).has(p) => {
                        Err(IllegalReason::PromotionUnavailable)
                    }
                    Some(_) => Ok(()),
                }
            }
            Move::EnPassant { from, to } => {
                let piece = board.piece_at(from).ok_or(IllegalReason::NoOwnMan)?;
                if piece.color != us {
                    return Err(IllegalReason::NoOwnMan);
                }
                if piece.role != Role::Pawn {
                    return Err(IllegalReason::Mismatch);
                }
                if !attacks::pawn_attacks(us, from).contains(to) {
                    return Err(IllegalReason::WrongWay);
                }
                // R10: only onto the square a double step just skipped.
                if self.ep_square != Some(to) {
                    return Err(if self.board.occupied().contains(to) {
                        // A capture written as en passant.
                        IllegalReason::Mismatch
                    } else {
                        IllegalReason::NoEnPassant
                    });
                }
                Ok(())
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::ALL
                    .into_iter()
                    .find(|s| s.rook_square(us) == rook)
                    .ok_or(IllegalReason::Mismatch)?;
                if king != king_home(us) {
                    return Err(IllegalReason::Mismatch);
                }
                match board.piece_at(king) {
                    Some(p) if p == Role::King.of(us) => {}
                    Some(p) if p.color == them => return Err(IllegalReason::NoOwnMan),
                    // The king has left its home square.
                    _ => return Err(IllegalReason::NoCastlingRight),
                }
                // R9: a never-moved king and an unmoved rook on that corner.
                if !self.king_unmoved(us)
                    || !self.has_castling_right(us, side)
                    || board.piece_at(rook) != Some(Role::Rook.of(us))
                {
                    return Err(IllegalReason::NoCastlingRight);
                }
                if (attacks::between(king, rook) & board.occupied()).any() {
                    return Err(IllegalReason::PathBlocked);
                }
                // R9 with R8 attacks: the king's square and the one it
                // crosses; the square it lands on is the king's safety below.
                let crossed = attacks::between(king, side.king_to(us)).with(king);
                if crossed
                    .into_iter()
                    .any(|sq| self.attackers(sq, them, board.occupied()).any())
                {
                    return Err(IllegalReason::CastlingThroughCheck);
                }
                Ok(())
            }
            Move::Drop { role, to } => {
                if !self.airfield(us).has(role) {
                    return Err(IllegalReason::NotInAirfield);
                }
                check_drop_square(board.occupied(), role, to)
            }
            Move::Exchange {
                released,
                rescued,
                to,
            } => {
                if !self.prison(us).has(released) {
                    return Err(IllegalReason::ReleasedNotHeld);
                }
                if !self.prison(them).has(rescued) {
                    return Err(IllegalReason::RescuedNotHeld);
                }
                if !released.can_release_for(rescued) {
                    return Err(IllegalReason::ExchangeValue);
                }
                check_drop_square(board.occupied(), rescued, to)
            }
        }
    }

    /// A pawn's step, double step or capture from `from` to `to`, judged
    /// on the board (the capture's target is judged by the caller).
    fn check_pawn_way(&self, from: Square, to: Square) -> Result<(), IllegalReason> {
        let us = self.turn;
        let occupied = self.board.occupied();
        if attacks::pawn_attacks(us, from).contains(to) {
            return if occupied.contains(to) {
                Ok(())
            } else if self.ep_square == Some(to) {
                // The capture exists, as `Move::EnPassant`.
                Err(IllegalReason::Mismatch)
            } else if self.looks_like_en_passant(from, to) {
                Err(IllegalReason::NoEnPassant)
            } else {
                Err(IllegalReason::WrongWay)
            };
        }
        let forward: i32 = if us.is_white() { 8 } else { -8 };
        let step = from.offset(forward);
        if step == Some(to) {
            return if occupied.contains(to) {
                Err(IllegalReason::PathBlocked)
            } else {
                Ok(())
            };
        }
        let double = step.and_then(|s| s.offset(forward));
        if double == Some(to) && from.rank() == Rank::SECOND.relative_to(us) {
            return if step.is_some_and(|s| occupied.contains(s)) || occupied.contains(to) {
                Err(IllegalReason::PathBlocked)
            } else {
                Ok(())
            };
        }
        Err(IllegalReason::WrongWay)
    }

    /// Whether a pawn's diagonal step from `from` to the empty `to` would
    /// take an enemy pawn en passant if a double step had just been made:
    /// the enemy pawn stands beside it, on our 5th rank.
    fn looks_like_en_passant(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        let beside = Square::from_coords(to.file(), from.rank());
        from.rank() == Rank::FIFTH.relative_to(us)
            && self.board.piece_at(beside) == Some(Role::Pawn.of(!us))
    }

    /// Plays a well-formed `m` on a copy: `None` if the mover's king is
    /// safe afterwards, else whether it is attacked at all or only by a
    /// pawn the move unfroze (R8a).
    fn check_king_safety(&self, m: &Move) -> Option<IllegalReason> {
        let us = self.turn;
        let them = !us;
        let mut after = self.clone();
        after.play_unchecked(*m);
        let king = after.king_of(us);
        let occupied = after.board.occupied();
        if after.attackers(king, them, occupied).is_empty() {
            return None;
        }
        let frozen_before = !self.can_promote(them);
        if frozen_before && after.attackers_live(king, them, occupied, false).is_empty() {
            Some(IllegalReason::UnfreezesPawn)
        } else {
            Some(IllegalReason::LeavesKingInCheck)
        }
    }

    /// The move a player means by moving the man of `role` on `from` to
    /// `to`: an en-passant capture onto the square a double step just
    /// skipped, otherwise a board move capturing what stands on `to`.
    pub(crate) fn board_move(
        &self,
        role: Role,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Move {
        if role == Role::Pawn
            && promotion.is_none()
            && from.file() != to.file()
            && self.ep_square == Some(to)
        {
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role,
                from,
                capture: self.board.role_at(to),
                to,
                promotion,
            }
        }
    }

    /// The best reason among `moves` (what a SAN could mean): the one that
    /// got furthest through the rules. `None` if one is legal or there are
    /// none ([`IllegalReason::NoOwnMan`] is the caller's choice then).
    pub(crate) fn best_illegal_reason(
        &self,
        moves: impl IntoIterator<Item = Move>,
    ) -> Option<IllegalReason> {
        let mut best: Option<IllegalReason> = None;
        for m in moves {
            let reason = self.illegal_reason(&m)?;
            if best.is_none_or(|b| reason.depth() > b.depth()) {
                best = Some(reason);
            }
        }
        best
    }
}

/// A knight, bishop, rook, queen or king from `from` to `to` (R1).
fn check_piece_way(
    role: Role,
    from: Square,
    to: Square,
    occupied: Bitboard,
) -> Result<(), IllegalReason> {
    let reach = |occupied: Bitboard| match role {
        Role::Knight => attacks::knight_attacks(from),
        Role::Bishop => attacks::bishop_attacks(from, occupied),
        Role::Rook => attacks::rook_attacks(from, occupied),
        Role::Queen => attacks::queen_attacks(from, occupied),
        Role::King => attacks::king_attacks(from),
        Role::Pawn => Bitboard::EMPTY,
    };
    if !reach(Bitboard::EMPTY).contains(to) {
        Err(IllegalReason::WrongWay)
    } else if !reach(occupied).contains(to) {
        Err(IllegalReason::PathBlocked)
    } else {
        Ok(())
    }
}

/// R5/R6: a dropped man lands on an empty square, a pawn not on rank 1 or 8.
fn check_drop_square(occupied: Bitboard, role: Role, to: Square) -> Result<(), IllegalReason> {
    if occupied.contains(to) {
        Err(IllegalReason::SquareOccupied)
    } else if role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
        Err(IllegalReason::PawnOnBackRank)
    } else {
        Ok(())
    }
}
