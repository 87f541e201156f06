//! Puzzle themes: what a solution shows, found from the position and the
//! moves alone (so the verifier can recompute and compare them).
//!
//! Policy: a theme names something the *solver's* moves do. The chess
//! themes follow lichess's names where one applies (`mateIn1`…`mateIn5`,
//! `fork`, `pin`, `hangingPiece`, `sacrifice`); the Hostage themes name the
//! game's own mechanics (R5–R9 of `docs/rules.md`): `dropMate`,
//! `exchangeMate`, `rescue`, `airfieldDrop`, `promotionSwap`, `frozenPawn`,
//! `pseudoCheck`, `revivedCastling`. A puzzle "uses a Hostage mechanic"
//! when it has one of the latter ([`Theme::is_hostage`]). There is no
//! catch-all theme (such as lichess's `advantage`), so that no theme covers
//! most of the set.
//!
//! # Example
//!
//! ```
//! use hostage_core::{uci::UciMove, Position};
//! use hostage_puzzles::themes::{detect, Theme};
//!
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1")?;
//! let m = UciMove::from_ascii(b"R@a8")?.to_move(&pos)?;
//! assert_eq!(detect(&pos, &[m]), vec![Theme::MateIn(1), Theme::DropMate]);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use hostage_core::{attacks, Bitboard, CastlingSide, Color, Move, Position, Rank, Role};

/// A puzzle theme.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Theme {
    /// The solution is a forced mate in this many moves (1–9).
    MateIn(u8),
    /// A man attacks two or more enemy men worth more than it, or the king.
    Fork,
    /// A line piece pins an enemy man to its king or to a more valuable man.
    Pin,
    /// The first move takes an undefended man (not a pawn).
    HangingPiece,
    /// A man is given up: the opponent takes the man that just moved.
    Sacrifice,
    /// The mating move is an airfield drop (R6).
    DropMate,
    /// The mating move is a hostage exchange (R5).
    ExchangeMate,
    /// A solver's move (other than the mate) is an exchange (R5).
    Rescue,
    /// A solver's move (other than the mate) is an airfield drop (R6).
    AirfieldDrop,
    /// A solver's pawn promotes by swapping with a prisoner (R7).
    PromotionSwap,
    /// A 7th-rank pawn is frozen or unfrozen during the solution (R8).
    FrozenPawn,
    /// A king stands in pseudo-check during the solution (R8a).
    PseudoCheck,
    /// A rook dropped on its home corner revives a castling right (R6, R9).
    RevivedCastling,
}

/// Every theme name, in the order [`detect`] reports them.
pub const NAMES: [&str; 17] = [
    "mateIn1",
    "mateIn2",
    "mateIn3",
    "mateIn4",
    "mateIn5",
    "fork",
    "pin",
    "hangingPiece",
    "sacrifice",
    "dropMate",
    "exchangeMate",
    "rescue",
    "airfieldDrop",
    "promotionSwap",
    "frozenPawn",
    "pseudoCheck",
    "revivedCastling",
];

impl Theme {
    /// The camelCase name used in the data file and the bindings.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Theme::MateIn(n) => match n {
                1 => "mateIn1",
                2 => "mateIn2",
                3 => "mateIn3",
                4 => "mateIn4",
                _ => "mateIn5",
            },
            Theme::Fork => "fork",
            Theme::Pin => "pin",
            Theme::HangingPiece => "hangingPiece",
            Theme::Sacrifice => "sacrifice",
            Theme::DropMate => "dropMate",
            Theme::ExchangeMate => "exchangeMate",
            Theme::Rescue => "rescue",
            Theme::AirfieldDrop => "airfieldDrop",
            Theme::PromotionSwap => "promotionSwap",
            Theme::FrozenPawn => "frozenPawn",
            Theme::PseudoCheck => "pseudoCheck",
            Theme::RevivedCastling => "revivedCastling",
        }
    }

    /// The theme of a name; `None` for an unknown name.
    ///
    /// ```
    /// use hostage_puzzles::themes::Theme;
    /// assert_eq!(Theme::from_name("mateIn2"), Some(Theme::MateIn(2)));
    /// assert_eq!(Theme::from_name("rescue"), Some(Theme::Rescue));
    /// assert_eq!(Theme::from_name("brilliancy"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Theme> {
        if let Some(n) = name.strip_prefix("mateIn") {
            return match n {
                "1" | "2" | "3" | "4" | "5" => n.parse().ok().map(Theme::MateIn),
                _ => None,
            };
        }
        Some(match name {
            "fork" => Theme::Fork,
            "pin" => Theme::Pin,
            "hangingPiece" => Theme::HangingPiece,
            "sacrifice" => Theme::Sacrifice,
            "dropMate" => Theme::DropMate,
            "exchangeMate" => Theme::ExchangeMate,
            "rescue" => Theme::Rescue,
            "airfieldDrop" => Theme::AirfieldDrop,
            "promotionSwap" => Theme::PromotionSwap,
            "frozenPawn" => Theme::FrozenPawn,
            "pseudoCheck" => Theme::PseudoCheck,
            "revivedCastling" => Theme::RevivedCastling,
            _ => return None,
        })
    }

    /// Whether the theme is one of Hostage Chess's own mechanics.
    #[must_use]
    pub const fn is_hostage(self) -> bool {
        matches!(
            self,
            Theme::DropMate
                | Theme::ExchangeMate
                | Theme::Rescue
                | Theme::AirfieldDrop
                | Theme::PromotionSwap
                | Theme::FrozenPawn
                | Theme::PseudoCheck
                | Theme::RevivedCastling
        )
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Chess values for judging forks, pins and sacrifices (the king above all).
fn value(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// The themes of the solution `moves` (solver first, then alternating
/// with the opponent) from `pos`, sorted and without repeats. Moves that
/// are not legal end the scan (the verifier reports them separately).
#[must_use]
pub fn detect(pos: &Position, moves: &[Move]) -> Vec<Theme> {
    let solver = pos.turn();
    let mut themes = Vec::new();
    let mut positions = vec![pos.clone()];
    for m in moves {
        let last = positions.last().expect("starts with pos").clone();
        if !last.is_legal(m) {
            break;
        }
        let mut next = last;
        next.play_unchecked(*m);
        positions.push(next);
    }
    let played = positions.len() - 1;
    let end = &positions[played];
    let mated = played > 0 && end.is_checkmate() && end.turn() != solver;
    if mated {
        themes.push(Theme::MateIn(played.div_ceil(2).min(5) as u8));
        match moves[played - 1] {
            Move::Drop { .. } => themes.push(Theme::DropMate),
            Move::Exchange { .. } => themes.push(Theme::ExchangeMate),
            _ => {}
        }
    }
    for (i, m) in moves.iter().take(played).enumerate() {
        let (before, after) = (&positions[i], &positions[i + 1]);
        // Either side's 7th-rank pawns changing between frozen and live.
        for color in Color::ALL {
            let seventh = Rank::SEVENTH.relative_to(color);
            let on_seventh =
                before.board().by_piece(Role::Pawn.of(color)) & Bitboard::from_rank(seventh);
            if on_seventh.any() && before.can_promote(color) != after.can_promote(color) {
                themes.push(Theme::FrozenPawn);
            }
        }
        if before.is_pseudo_check() || after.is_pseudo_check() {
            themes.push(Theme::PseudoCheck);
        }
        if i % 2 != 0 {
            continue;
        }
        let is_mate = mated && i + 1 == played;
        match m {
            Move::Exchange { .. } if !is_mate => themes.push(Theme::Rescue),
            Move::Drop { .. } if !is_mate => themes.push(Theme::AirfieldDrop),
            _ => {}
        }
        if m.promotion().is_some() {
            themes.push(Theme::PromotionSwap);
        }
        if CastlingSide::ALL.iter().any(|&side| {
            !before.has_castling_right(solver, side) && after.has_castling_right(solver, side)
        }) {
            themes.push(Theme::RevivedCastling);
        }
        if i == 0 && hanging_capture(before, m) {
            themes.push(Theme::HangingPiece);
        }
        if !is_mate && is_fork(after, m, solver) {
            themes.push(Theme::Fork);
        }
        if !is_mate && is_pin(after, m, solver) {
            themes.push(Theme::Pin);
        }
        if let Some(reply) = moves.get(i + 1).filter(|_| i + 1 < played) {
            let given = value(m.role());
            let taken = m.capture().map_or(0, value);
            if reply.to() == m.to() && reply.is_capture() && given > taken + 1 {
                themes.push(Theme::Sacrifice);
            }
        }
    }
    themes.sort();
    themes.dedup();
    themes
}

fn hanging_capture(before: &Position, m: &Move) -> bool {
    let Some(role) = m.capture() else {
        return false;
    };
    if role == Role::Pawn || !matches!(m, Move::Normal { .. }) {
        return false;
    }
    let them = !before.turn();
    let board = before.board();
    board
        .attackers_to(m.to(), them, board.occupied())
        .is_empty()
}

/// The man that moved (or was dropped) attacks two enemy men that are the
/// king, worth more than it, or undefended (pawns aside).
fn is_fork(after: &Position, m: &Move, solver: Color) -> bool {
    let board = after.board();
    let to = m.to();
    let Some(piece) = board.piece_at(to) else {
        return false;
    };
    if piece.role == Role::King {
        return false;
    }
    let them = !solver;
    let targets = attacks::attacks(piece.role, solver, to, board.occupied()) & board.by_color(them);
    let mine = value(piece.role);
    let count = targets
        .into_iter()
        .filter(|&sq| {
            let role = board.role_at(sq).expect("target is occupied");
            role != Role::Pawn
                && (value(role) > mine || board.attackers_to(sq, them, board.occupied()).is_empty())
        })
        .count();
    count >= 2
}

/// A line piece that moved attacks an enemy man behind which, on the same
/// line, stands the enemy king or a more valuable enemy man.
fn is_pin(after: &Position, m: &Move, solver: Color) -> bool {
    let board = after.board();
    let to = m.to();
    let Some(piece) = board.piece_at(to) else {
        return false;
    };
    if !matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen) {
        return false;
    }
    let them = !solver;
    let occupied = board.occupied();
    let front = attacks::attacks(piece.role, solver, to, occupied) & board.by_color(them);
    front.into_iter().any(|sq| {
        let front_role = board.role_at(sq).expect("occupied");
        if front_role == Role::King {
            return false;
        }
        let xray = attacks::attacks(piece.role, solver, to, occupied & !Bitboard::from(sq))
            & !attacks::attacks(piece.role, solver, to, occupied)
            & board.by_color(them)
            & attacks::line(to, sq);
        xray.into_iter().any(|behind| {
            board
                .role_at(behind)
                .is_some_and(|r| value(r) > value(front_role))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hostage_core::Game;

    fn line(fen: &str, moves: &str) -> (Position, Vec<Move>) {
        let pos = Position::from_fen(fen).expect("fen");
        let game = Game::from_moves(pos.clone(), moves.split_whitespace()).expect("legal");
        (pos, game.moves().to_vec())
    }

    #[test]
    fn names_round_trip() {
        for name in NAMES {
            let theme = Theme::from_name(name).expect(name);
            assert_eq!(theme.name(), name);
        }
        assert_eq!(Theme::from_name("mateIn0"), None);
        assert_eq!(Theme::from_name("mateIn12"), None);
    }

    #[test]
    fn knight_fork_of_king_and_rook() {
        // Nc7+ attacks the king on e8 and the rook on a8.
        let (pos, moves) = line("r3k3/8/8/3N4/8/8/8/4K3[] w - - 0 1", "d5c7");
        let themes = detect(&pos, &moves);
        assert!(themes.contains(&Theme::Fork), "{themes:?}");
        assert!(!themes.iter().any(|t| t.is_hostage()), "{themes:?}");
    }

    #[test]
    fn bishop_pins_knight_to_king() {
        // Ba4 stands on the diagonal a4-b5-c6-d7: the knight on c6 is
        // pinned to the king on d7.
        let (pos, moves) = line("4k3/8/2n5/8/8/8/8/3BK3[] w - - 0 1", "d1b3 e8d7 b3a4");
        assert!(detect(&pos, &moves).contains(&Theme::Pin));
        // Ba7 attacks nothing with a man behind it: no pin.
        let (pos, moves) = line("4k3/8/2n5/8/8/8/8/4K1B1[] w - - 0 1", "g1f2 e8d8 f2a7");
        assert!(!detect(&pos, &moves).contains(&Theme::Pin));
    }

    #[test]
    fn exchange_is_a_rescue_and_drop_mate_is_hostage() {
        // White releases a black rook and rescues its knight onto a1 (R5).
        let (pos, moves) = line("4k3/8/8/8/8/8/8/4K3[#Nr] w - - 0 1", "N#R@a1");
        let themes = detect(&pos, &moves);
        assert_eq!(themes, vec![Theme::Rescue]);
        assert!(Theme::Rescue.is_hostage() && !Theme::Fork.is_hostage());
    }
}
