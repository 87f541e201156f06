//! [`Params`]: every weight of the evaluation, by name.
//!
//! The weights are plain integers so the evaluation stays integer
//! arithmetic; each has a name (`piece_mg.1`, `tempo`, …) by which the
//! self-play tool (`hostage-match/examples/tune.rs`, `--set NAME=VALUE`)
//! and the Texel tuner (`hostage-match/examples/texel.rs`) read and change
//! it. The values of [`Params::DEFAULT`] and where each came from are
//! listed field by field below and in `docs/engine.md` ("Evaluation",
//! "Texel tuning").
//!
//! Arrays indexed by role run pawn, knight, bishop, rook, queen (the king
//! has no entry).

/// The weights of the evaluation.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "tuning")] {
/// use hostage_engine::eval::Params;
///
/// let mut p = Params::default();
/// assert!(p.airfield[1] > p.prisoner[1]);
/// // Every weight has a name.
/// assert_eq!(p.get("tempo"), Some(p.tempo));
/// p.set("piece_mg.4", 900).expect("a weight of that name");
/// assert_eq!(p.piece_mg[4], 900);
/// assert!(p.set("no_such_weight", 1).is_err());
/// # }
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Params {
    /// Men on the board while the board is full (phase 24), centipawns.
    pub piece_mg: [i32; 5],
    /// Men on the board once the pieces are gone (phase 0), centipawns; the
    /// value used is tapered between the two by the board's phase.
    pub piece_eg: [i32; 5],
    /// Our man in our airfield (a free drop anywhere, R6), centipawns.
    pub airfield: [i32; 5],
    /// An enemy man in our prison (exchange currency, R5), centipawns.
    pub prisoner: [i32; 5],
    /// Our man in the enemy prison that some prisoner of ours can buy
    /// back, in percent of its board value.
    pub rescuable_pct: i32,
    /// Our man in the enemy prison that nothing of ours can buy back, in
    /// percent of its board value.
    pub captive_pct: i32,
    /// Pawns on their 3rd, 4th, 5th and 6th ranks, centipawns.
    pub pawn_advance: [i32; 4],
    /// Centipawns for a pawn on its 7th rank that can promote (R7).
    pub live_seventh: i32,
    /// Centipawns for a frozen pawn on its 7th rank (R8).
    pub frozen_seventh: i32,
    /// Knights: centipawns per step of centrality (0 in a corner, 6 in the
    /// centre), around a centrality of 3.
    pub knight_centre: i32,
    /// Bishops: the same.
    pub bishop_centre: i32,
    /// Queens: the same.
    pub queen_centre: i32,
    /// Centipawns for a rook on its 7th rank.
    pub rook_seventh: i32,
    /// The king while the board is full: centipawns against each rank it
    /// stands above its back rank.
    pub king_mg_rank: i32,
    /// The king while the board is full: centipawns against each step of
    /// centrality.
    pub king_mg_centre: i32,
    /// The king once the board empties: centipawns per step of
    /// centrality, around a centrality of 3.
    pub king_eg_centre: i32,
    /// Mobility: centipawns per square a knight, bishop, rook, queen
    /// reaches (empty or enemy), around 4 squares.
    pub mobility: [i32; 4],
    /// King danger: how strongly a man the enemy could drop (airfield) or
    /// bring back (exchange) threatens our king, in quarter units.
    pub hand_danger: [i32; 5],
    /// King danger: how strongly an enemy man on the board attacking the
    /// squares around our king threatens it, in quarter units.
    pub attack_danger: [i32; 5],
    /// King danger from safe checks: per knight, bishop, rook, queen, the
    /// units added when the enemy can check our king with that role, by a
    /// drop (airfield or exchange) or a move, from a square no man of ours
    /// guards (Stockfish's safe checks, counting drops as Fairy-Stockfish
    /// does in drop variants).
    pub check_danger: [i32; 4],
    /// Threats by our knights and bishops: per role of the enemy man they
    /// attack (a piece, or a pawn no enemy pawn guards), centipawns
    /// (`threats.rs`).
    pub threat_minor: [i32; 5],
    /// Threats by our rooks: per role of the enemy man they attack that no
    /// enemy pawn guards, centipawns.
    pub threat_rook: [i32; 5],
    /// Centipawns per enemy man we attack that no enemy man guards (and no
    /// enemy pawn).
    pub hanging: i32,
    /// Centipawns per enemy piece attacked by a pawn of ours that stands
    /// where the enemy does not attack it, or where we guard it too.
    pub threat_safe_pawn: i32,
    /// King danger from empty squares next to our king that none of our
    /// men but the king guards (where a drop can land and be taken only by
    /// the king), in percent of the hand's weight per square.
    pub open_pct: i32,
    /// King danger from empty squares next to our king that the enemy
    /// attacks (a man dropped there is defended), in percent of the hand's
    /// weight per square.
    pub supported_drop_pct: i32,
    /// Multiplier of the board attackers' units in the king-danger sum.
    pub attackers_weight: i32,
    /// Scale of the king-danger term (units² / 128), in percent.
    pub king_danger_pct: i32,
    /// The most the king-danger term takes away, centipawns (before the
    /// scale).
    pub king_danger_cap: i32,
    /// Centipawns against the side in pseudo-check (R8a).
    pub pseudo_check: i32,
    /// Centipawns for the side to move.
    pub tempo: i32,
    /// Centipawns against a side for each square of its king's flank in
    /// its camp that the enemy attacks.
    pub flank_attack: i32,
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

/// A weight name that [`Params::set`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWeight(pub String);

impl UnknownWeight {
    /// A stable code for the error.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "unknown_weight"
    }
}

impl core::fmt::Display for UnknownWeight {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "no evaluation weight is named {:?}", self.0)
    }
}

impl std::error::Error for UnknownWeight {}

/// Calls `$f(name, &mut field)` for every weight of `$p`, arrays element
/// by element as `name.i`, in a fixed order.
macro_rules! each_weight {
    ($p:expr, $f:expr, [$($array:ident),*], [$($scalar:ident),*]) => {{
        $(for (i, w) in $p.$array.iter_mut().enumerate() {
            $f(format!("{}.{}", stringify!($array), i), w);
        })*
        $($f(stringify!($scalar).to_string(), &mut $p.$scalar);)*
    }};
}

impl Params {
    /// The weights the engine plays with: the Texel fit
    /// (`scripts/texel`: 98,926 quiet positions of 6,341 self-play games;
    /// see `docs/engine.md`, "Texel tuning", for the recipe,
    /// the fit and the match that confirmed it). Each field's comment gives
    /// the value it had before the fit and where that came from.
    pub const DEFAULT: Params = Params {
        // Fitted; before: Kaufman's classical values 100, 320, 330, 500,
        // 950 ("The Evaluation of Material Imbalances", 1999) in both
        // phases. The middlegame pawn is held at 100 (it sets the scale).
        piece_mg: [100, 360, 371, 538, 890],
        piece_eg: [148, 240, 351, 686, 775],
        // Fitted; before: the board value plus 40 (a free drop, R6, as
        // Fairy-Stockfish values a piece in hand in crazyhouse; confirmed
        // by matches, docs/engine-record.md).
        airfield: [-4, 270, 301, 564, 837],
        // Fitted; before: 30% of the board value (30, 96, 99, 150, 285).
        prisoner: [126, 96, 75, 6, 196],
        // Fitted; before 20 (40 measured no better).
        rescuable_pct: 17,
        // Fitted; before 5.
        captive_pct: 9,
        // Fitted; before 4, 10, 20, 35.
        pawn_advance: [-22, -16, -18, -33],
        // Fitted; before 120 (a promotion threat, R7).
        live_seventh: 61,
        // Fitted; before 30.
        frozen_seventh: 27,
        // Fitted; before 7.
        knight_centre: 33,
        // Fitted; before 3.
        bishop_centre: 5,
        // Fitted; before 2.
        queen_centre: 22,
        // Fitted; before 20.
        rook_seventh: -52,
        // Fitted; before 20.
        king_mg_rank: 100,
        // Fitted; before 6.
        king_mg_centre: 46,
        // Fitted; before 8.
        king_eg_centre: -32,
        // Fitted; before 4, 4, 2, 1.
        mobility: [31, 32, 35, 0],
        // Fitted; before 4, 12, 8, 12, 20 (a dropped queen or knight next
        // to a king does the most harm).
        hand_danger: [6, 17, 20, 32, 34],
        // Fitted; before 4, 8, 8, 12, 20.
        attack_danger: [29, 30, 16, 21, 36],
        // Stockfish's safe-check weights (knight 792, bishop 645, rook
        // 1084, queen 772, on its scale of danger² / 4096) brought to this
        // scale (× 0.19) and taken at half; at a quarter they scored less
        // against Fairy-Stockfish (docs/engine.md, "Against other engines").
        check_danger: [76, 62, 104, 74],
        // Off (0): no gain against Fairy-Stockfish over two pairs of matches.
        // Measured: Stockfish 11's middlegame threat weights
        // (ThreatByMinor, ThreatByRook, Hanging, ThreatBySafePawn) on this
        // scale (× 100 / 128, its middlegame pawn being 128), that is
        // threat_minor 5, 46, 62, 70, 62; threat_rook 2, 30, 30, 0, 40;
        // hanging 54; threat_safe_pawn 135 (docs/engine-record.md).
        threat_minor: [0; 5],
        threat_rook: [0; 5],
        hanging: 0,
        threat_safe_pawn: 0,
        // Fitted; before 100 (after the fix of the open squares, which
        // the king's own guard had made always 0).
        open_pct: 115,
        // Fitted; before 100 (0 → 100 measured +55 [+17, +95]).
        supported_drop_pct: 148,
        // Fitted, unchanged: 2.
        attackers_weight: 2,
        // Fitted; before 100.
        king_danger_pct: 85,
        // Fitted; before 900.
        king_danger_cap: 816,
        // Fitted; before 25.
        pseudo_check: 145,
        // Fitted; before 15.
        tempo: 55,
        // Stockfish 11 takes 8 a square in the middlegame, Fairy-Stockfish
        // six times that in drop games; at 20 it scored 41.5% against
        // Fairy-Stockfish where the engine without it scored 39.0%, over
        // three pairs of matches; 40 did no better (docs/engine-record.md).
        flank_attack: 20,
    };

    /// Calls `f` with the name and a mutable reference of every weight, in
    /// a fixed order (arrays element by element, as `name.i`).
    pub fn for_each_mut(&mut self, mut f: impl FnMut(String, &mut i32)) {
        each_weight!(
            self,
            f,
            [
                piece_mg,
                piece_eg,
                airfield,
                prisoner,
                pawn_advance,
                mobility,
                hand_danger,
                attack_danger,
                check_danger,
                threat_minor,
                threat_rook
            ],
            [
                rescuable_pct,
                captive_pct,
                live_seventh,
                frozen_seventh,
                knight_centre,
                bishop_centre,
                queen_centre,
                rook_seventh,
                king_mg_rank,
                king_mg_centre,
                king_eg_centre,
                open_pct,
                supported_drop_pct,
                attackers_weight,
                king_danger_pct,
                king_danger_cap,
                pseudo_check,
                tempo,
                hanging,
                threat_safe_pawn,
                flank_attack
            ]
        );
    }

    /// Whether any threat weight is set (the threats are not looked for
    /// otherwise).
    #[must_use]
    pub fn threats_on(&self) -> bool {
        self.threat_minor
            .iter()
            .chain(&self.threat_rook)
            .any(|&w| w != 0)
            || self.hanging != 0
            || self.threat_safe_pawn != 0
    }

    /// Every weight's name and value, in the order of
    /// [`Params::for_each_mut`].
    #[must_use]
    pub fn weights(&self) -> Vec<(String, i32)> {
        let mut copy = *self;
        let mut out = Vec::new();
        copy.for_each_mut(|name, w| out.push((name, *w)));
        out
    }

    /// The weight called `name`, if there is one.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<i32> {
        self.weights()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// Sets the weight called `name`.
    ///
    /// # Errors
    ///
    /// [`UnknownWeight`] when no weight has that name.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), UnknownWeight> {
        let mut found = false;
        self.for_each_mut(|n, w| {
            if n == name {
                *w = value;
                found = true;
            }
        });
        if found {
            Ok(())
        } else {
            Err(UnknownWeight(name.to_string()))
        }
    }
}
