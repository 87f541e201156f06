//! The six kinds of men, [`Piece`] (a role with a colour), [`ByRole`], and
//! the exchange values of R5.

use crate::Color;

/// The kind of a man, regardless of colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn = 1,
    /// Knight.
    Knight = 2,
    /// Bishop.
    Bishop = 3,
    /// Rook.
    Rook = 4,
    /// Queen.
    Queen = 5,
    /// King: never captured, so never in a prison or an airfield (R4).
    King = 6,
}

impl Role {
    /// All roles, pawn to king.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a man can have in a prison or an airfield (all but the king, R4),
    /// in the canonical Hostage FEN order Q R B N P.
    pub const HOSTAGES: [Role; 5] = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];

    /// The roles a pawn can promote to by changing places with a man in the
    /// prison (R7); their presence there also decides whether pawns are
    /// frozen (R8).
    pub const PROMOTION: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// The lowercase letter: `p n b r q k`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter: `P N B R Q K`.
    #[must_use]
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a role letter of either case.
    #[must_use]
    pub const fn from_char(ch: char) -> Option<Role> {
        match ch.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The lowercase English name, e.g. `"knight"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// The exchange value of R5: pawn 1 < knight 2 = bishop 2 < rook 3 <
    /// queen 4. The king has no value: it is never exchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Role;
    ///
    /// assert_eq!(Role::Knight.exchange_value(), Role::Bishop.exchange_value());
    /// assert_eq!(Role::King.exchange_value(), None);
    /// ```
    #[must_use]
    pub const fn exchange_value(self) -> Option<u8> {
        match self {
            Role::Pawn => Some(1),
            Role::Knight | Role::Bishop => Some(2),
            Role::Rook => Some(3),
            Role::Queen => Some(4),
            Role::King => None,
        }
    }

    /// Whether a man of role `released` may be given up to rescue one of role
    /// `rescued` in an exchange (R5: value(released) >= value(rescued)).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Role;
    ///
    /// assert!(Role::Bishop.can_release_for(Role::Knight));
    /// assert!(Role::Queen.can_release_for(Role::Pawn));
    /// assert!(!Role::Pawn.can_release_for(Role::Knight));
    /// assert!(!Role::King.can_release_for(Role::Pawn));
    /// ```
    #[must_use]
    pub const fn can_release_for(self, rescued: Role) -> bool {
        match (self.exchange_value(), rescued.exchange_value()) {
            (Some(x), Some(y)) => x >= y,
            _ => false,
        }
    }

    /// The piece of this role and `color`.
    #[must_use]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize - 1
    }
}

impl core::fmt::Display for Role {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A man: a role and a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side the man belongs to; it never changes (R2).
    pub color: Color,
    /// The kind of man.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for White, lowercase for Black.
    #[must_use]
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN letter: uppercase for White, lowercase for Black.
    #[must_use]
    pub const fn from_char(ch: char) -> Option<Piece> {
        match Role::from_char(ch) {
            Some(role) => Some(Piece {
                color: Color::from_white(ch.is_ascii_uppercase()),
                role,
            }),
            None => None,
        }
    }
}

/// One value for each role.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub struct ByRole<T> {
    pub pawn: T,
    pub knight: T,
    pub bishop: T,
    pub rook: T,
    pub queen: T,
    pub king: T,
}

impl<T> ByRole<T> {
    /// Builds by calling `f` for each role, pawn to king.
    pub fn new_with<F: FnMut(Role) -> T>(mut f: F) -> ByRole<T> {
        ByRole {
            pawn: f(Role::Pawn),
            knight: f(Role::Knight),
            bishop: f(Role::Bishop),
            rook: f(Role::Rook),
            queen: f(Role::Queen),
            king: f(Role::King),
        }
    }

    /// The value of `role`.
    #[inline]
    pub const fn get(&self, role: Role) -> &T {
        match role {
            Role::Pawn => &self.pawn,
            Role::Knight => &self.knight,
            Role::Bishop => &self.bishop,
            Role::Rook => &self.rook,
            Role::Queen => &self.queen,
            Role::King => &self.king,
        }
    }

    /// The value of `role`, mutably.
    #[inline]
    pub fn get_mut(&mut self, role: Role) -> &mut T {
        match role {
            Role::Pawn => &mut self.pawn,
            Role::Knight => &mut self.knight,
            Role::Bishop => &mut self.bishop,
            Role::Rook => &mut self.rook,
            Role::Queen => &mut self.queen,
            Role::King => &mut self.king,
        }
    }

    /// Applies `f` to every value.
    pub fn map<U, F: FnMut(T) -> U>(self, mut f: F) -> ByRole<U> {
        ByRole {
            pawn: f(self.pawn),
            knight: f(self.knight),
            bishop: f(self.bishop),
            rook: f(self.rook),
            queen: f(self.queen),
            king: f(self.king),
        }
    }
}
