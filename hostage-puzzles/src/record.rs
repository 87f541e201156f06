//! The puzzle record: one puzzle a line, and its parser with typed errors.
//!
//! Policy: the data file (`data/puzzles.csv`) holds one puzzle a line,
//! thirteen fields separated by commas (no field contains one), or the
//! first eleven for a puzzle without its lead-in move:
//!
//! ```text
//! id,fen,moves,rating,rd,themes,seed,ply,solvers,depth,nodes,before,lead_in
//! ```
//!
//! - `id`: 10 lowercase hex digits, a hash of the position (stable across
//!   runs and shards);
//! - `fen`: Hostage FEN of the puzzle position, the **solver to move**;
//! - `moves`: the solution in the library's long form (`e2e4`, `R@a8`,
//!   `N#B@c7`), separated by spaces: the solver's move first, then the
//!   opponent's reply, and so on, always ending with a solver's move;
//! - `rating`, `rd`: the initial Glicko-2 rating and deviation (integers);
//! - `themes`: theme names separated by spaces (see [`crate::themes`]);
//! - `seed`, `ply`: the game seed of the generator and the ply of the game
//!   at which the puzzle starts (so any puzzle can be regenerated);
//! - `solvers`: five digits, how many of the generator's seeds each bot
//!   level (Novice … Club) solved the puzzle with;
//! - `depth`, `nodes`: the search effort the full-strength engine needs to
//!   play the solution (the deepest iteration at which a solver move
//!   settled, and the nodes summed over the solver moves): `nodes` is the
//!   source of `rating` (see [`crate::initial`]);
//! - `before`, `lead_in`: the [`LeadIn`], the opponent's move that led to
//!   the puzzle in its game (long form) and the Hostage FEN before it, the
//!   opponent to move: a puzzle opens on `before`, `lead_in` is played, then
//!   the solver moves (as on lichess). Both are empty, or the two fields
//!   are left out, for a puzzle whose lead-in is not known; the writer
//!   leaves them out then, so an eleven-field line reads and writes back
//!   unchanged.
//!
//! Blank lines and lines starting with `#` are comments. Every field is
//! checked when read: the FEN must be a legal position and each move legal
//! in turn; the lead-in must be legal in `before` and lead exactly to `fen`
//! (the whole FEN, clocks included).
//!
//! # Example
//!
//! ```
//! use hostage_puzzles::record::Puzzle;
//!
//! let line = "00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300";
//! let puzzle: Puzzle = line.parse()?;
//! assert_eq!(puzzle.moves.len(), 1);
//! assert_eq!(puzzle.to_string(), line);
//! # Ok::<_, hostage_puzzles::record::ParsePuzzleError>(())
//! ```

use core::{fmt, str::FromStr};

use hostage_core::{san::ParseMoveError, Color, Excerpt, Game, Move, MoveTextError, Position};

use crate::themes::Theme;

/// How many bot levels the `solvers` field covers (Novice … Club).
pub const LEVELS: usize = 5;

/// One puzzle.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Puzzle {
    /// The puzzle's id: 10 lowercase hex digits.
    pub id: String,
    /// The position, the solver to move.
    pub position: Position,
    /// The solution: solver's move, reply, solver's move, … (odd length).
    pub moves: Vec<Move>,
    /// The initial rating.
    pub rating: u32,
    /// The initial rating deviation.
    pub deviation: u32,
    /// The themes, sorted.
    pub themes: Vec<Theme>,
    /// The generator's game seed.
    pub seed: u64,
    /// The ply of that game at which the puzzle starts.
    pub ply: u32,
    /// Per level (Novice … Club), how many generator seeds solved it.
    pub solvers: [u8; LEVELS],
    /// The deepest iteration at which the engine settled on a solver
    /// move (1–8).
    pub depth: u8,
    /// The nodes the engine needed to settle on every solver move.
    pub nodes: u64,
    /// The opponent's move that led to [`Puzzle::position`] in the game,
    /// with the position before it; `None` when it is not known.
    ///
    /// ```
    /// use hostage_puzzles::record::Puzzle;
    ///
    /// let line = "00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 1 2,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300,\
    ///             5k2/5ppp/8/8/8/8/8/6K1[R] b - - 0 1,f8g8";
    /// let puzzle: Puzzle = line.parse()?;
    /// let lead_in = puzzle.lead_in.as_ref().expect("recorded");
    /// assert_eq!(lead_in.mv.to_string(), "f8g8");
    /// assert_eq!(lead_in.position.fen(), "5k2/5ppp/8/8/8/8/8/6K1[R] b - - 0 1");
    /// assert_eq!(puzzle.start(), &lead_in.position);
    /// # Ok::<_, hostage_puzzles::record::ParsePuzzleError>(())
    /// ```
    pub lead_in: Option<LeadIn>,
}

/// The move that led to a puzzle: the opponent's last move in the game the
/// puzzle comes from, and the position before it (the opponent to move).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LeadIn {
    /// The position before the move, the opponent to move.
    pub position: Position,
    /// The opponent's move.
    pub mv: Move,
}

impl LeadIn {
    /// The lead-in `mv` played in `position`.
    #[must_use]
    pub fn new(position: Position, mv: Move) -> LeadIn {
        LeadIn { position, mv }
    }

    /// The position after the move, `None` when the move is not legal in
    /// [`LeadIn::position`].
    #[must_use]
    pub fn after(&self) -> Option<Position> {
        let mut pos = self.position.clone();
        pos.is_legal(&self.mv).then(|| {
            pos.play_unchecked(self.mv);
            pos
        })
    }

    /// Whether the move is legal in [`LeadIn::position`] and leads exactly
    /// to `puzzle` (the same FEN, clocks included).
    ///
    /// ```
    /// use hostage_core::Position;
    /// use hostage_puzzles::record::LeadIn;
    ///
    /// let before = Position::from_fen("5k2/5ppp/8/8/8/8/8/6K1[R] b - - 0 1")?;
    /// let puzzle = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 1 2")?;
    /// assert!(LeadIn::new(before.clone(), before.parse_uci("f8g8")?).leads_to(&puzzle));
    /// assert!(!LeadIn::new(before.clone(), before.parse_uci("f8e8")?).leads_to(&puzzle));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn leads_to(&self, puzzle: &Position) -> bool {
        self.after()
            .is_some_and(|after| after.fen() == puzzle.fen())
    }
}

impl Puzzle {
    /// The position the puzzle opens on: before the lead-in move when it
    /// is known ([`Puzzle::lead_in`]), else the puzzle position itself.
    #[must_use]
    pub fn start(&self) -> &Position {
        self.lead_in
            .as_ref()
            .map_or(&self.position, |l| &l.position)
    }

    /// The side that solves the puzzle (to move in [`Puzzle::position`]).
    #[must_use]
    pub fn solver(&self) -> Color {
        self.position.turn()
    }

    /// The puzzle's Hostage FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        self.position.fen()
    }

    /// The moves in long form.
    #[must_use]
    pub fn moves_text(&self) -> Vec<String> {
        self.moves.iter().map(Move::to_string).collect()
    }

    /// Whether the solution ends in checkmate.
    #[must_use]
    pub fn is_mate(&self) -> bool {
        self.themes.iter().any(|t| matches!(t, Theme::MateIn(_)))
    }

    /// The position before move `index` of the solution (`index` 0 is the
    /// puzzle position); `None` past the end.
    #[must_use]
    pub fn position_at(&self, index: usize) -> Option<Position> {
        if index > self.moves.len() {
            return None;
        }
        let mut pos = self.position.clone();
        for m in &self.moves[..index] {
            pos.play_unchecked(*m);
        }
        Some(pos)
    }

    /// Whether `m`, played as move `index` of the solution (a solver move:
    /// `index` even), is right: the solution's move, or on the last move
    /// of a mate any move that mates (as lichess accepts).
    ///
    /// ```
    /// use hostage_core::uci::UciMove;
    /// use hostage_puzzles::record::Puzzle;
    ///
    /// let p: Puzzle = "00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300".parse()?;
    /// let mv = |s: &str| UciMove::from_ascii(s.as_bytes()).unwrap().to_move(&p.position).unwrap();
    /// assert!(p.accepts(0, &mv("R@a8")));
    /// assert!(!p.accepts(0, &mv("R@a7")));
    /// assert!(!p.accepts(1, &mv("R@a8")));
    /// # Ok::<_, hostage_puzzles::record::ParsePuzzleError>(())
    /// ```
    #[must_use]
    pub fn accepts(&self, index: usize, m: &Move) -> bool {
        let Some(expected) = self.moves.get(index) else {
            return false;
        };
        if index % 2 != 0 {
            return false;
        }
        if m == expected {
            return true;
        }
        let last = index + 1 == self.moves.len();
        let Some(mut pos) = self.position_at(index) else {
            return false;
        };
        if !(last && self.is_mate() && pos.is_legal(m)) {
            return false;
        }
        pos.play_unchecked(*m);
        pos.is_checkmate()
    }

    /// Whether move text (SAN or the long form, read as
    /// [`Position::parse_move`] reads it) is right as move `index`: the
    /// reading of a player's answer that every interface shares (the CLI,
    /// Python's `Puzzle.accepts`, JavaScript's `Puzzles.accepts`). An index
    /// past the solution or of a reply is `Ok(false)`.
    ///
    /// ```
    /// use hostage_puzzles::record::Puzzle;
    ///
    /// let p: Puzzle = "00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300".parse()?;
    /// assert_eq!(p.accepts_text(0, "R@a8"), Ok(true));
    /// assert_eq!(p.accepts_text(0, "R*a8#"), Ok(true));
    /// assert_eq!(p.accepts_text(0, "R@a7"), Ok(false));
    /// assert_eq!(p.accepts_text(3, "R@a8"), Ok(false));
    /// assert!(p.accepts_text(0, "not a move").is_err());
    /// assert!(p.accepts_text(0, "Kh3").is_err()); // no legal move
    /// # Ok::<_, hostage_puzzles::record::ParsePuzzleError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ParseMoveError`] when the text is not a move or names no legal
    /// move in the puzzle's position at `index`.
    pub fn accepts_text(&self, index: usize, text: &str) -> Result<bool, ParseMoveError> {
        let Some(pos) = self.position_at(index) else {
            return Ok(false);
        };
        let m = pos.parse_move(text)?;
        Ok(self.accepts(index, &m))
    }

    /// Whether a theme names a Hostage mechanic.
    #[must_use]
    pub fn uses_hostage_mechanic(&self) -> bool {
        self.themes.iter().any(|t| t.is_hostage())
    }
}

/// The key that makes two puzzles the same position: board with prisons
/// and airfields, and the side to move (the first two FEN fields).
#[must_use]
pub fn position_key(pos: &Position) -> String {
    let fen = pos.fen();
    let mut fields = fen.split(' ');
    let placement = fields.next().unwrap_or_default();
    let turn = fields.next().unwrap_or_default();
    format!("{placement} {turn}")
}

/// The id of a puzzle at `pos`: FNV-1a (64 bit) of [`position_key`], the
/// low 40 bits as 10 hex digits.
#[must_use]
pub fn puzzle_id(pos: &Position) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in position_key(pos).bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:010x}", h & 0xff_ffff_ffff)
}

/// What was wrong with a record line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PuzzleErrorKind {
    /// Not eleven or thirteen comma-separated fields.
    Fields,
    /// The id is not 10 lowercase hex digits.
    Id,
    /// The FEN does not parse or is not a legal position.
    Fen,
    /// A move does not parse, or is illegal where it stands.
    Move,
    /// No moves, or an even number (the solution ends on a solver move).
    MoveCount,
    /// A number field is not a number in range.
    Number,
    /// An unknown theme name.
    Theme,
    /// The `solvers` field is not five digits.
    Solvers,
    /// The lead-in: one of `before` and `lead_in` without the other, a
    /// `before` that is not a legal position, or a move that is not legal
    /// there or does not lead to the puzzle position.
    LeadIn,
}

/// A record line that could not be read: what was wrong, the line number
/// (1-based, 0 when parsing a single record) and the text at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParsePuzzleError {
    /// What was wrong.
    pub kind: PuzzleErrorKind,
    /// The line number (1-based), 0 for a lone record.
    pub line: usize,
    /// The offending text (shortened).
    pub given: Excerpt,
    /// For a bad move: the core's error, naming the move's place in the
    /// solution, its text and the position (boxed: it is large).
    pub move_error: Option<Box<MoveTextError>>,
}

impl ParsePuzzleError {
    fn new(kind: PuzzleErrorKind, given: &str) -> ParsePuzzleError {
        ParsePuzzleError {
            kind,
            line: 0,
            given: Excerpt::new(given.as_bytes()),
            move_error: None,
        }
    }

    /// The stable code shared with the bindings: `invalid_puzzle_fields`,
    /// `invalid_puzzle_id`, `invalid_puzzle_fen`, `invalid_puzzle_move`,
    /// `invalid_puzzle_move_count`, `invalid_puzzle_number`,
    /// `invalid_puzzle_theme`, `invalid_puzzle_solvers` or
    /// `invalid_puzzle_lead_in`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self.kind {
            PuzzleErrorKind::Fields => "invalid_puzzle_fields",
            PuzzleErrorKind::Id => "invalid_puzzle_id",
            PuzzleErrorKind::Fen => "invalid_puzzle_fen",
            PuzzleErrorKind::Move => "invalid_puzzle_move",
            PuzzleErrorKind::MoveCount => "invalid_puzzle_move_count",
            PuzzleErrorKind::Number => "invalid_puzzle_number",
            PuzzleErrorKind::Theme => "invalid_puzzle_theme",
            PuzzleErrorKind::Solvers => "invalid_puzzle_solvers",
            PuzzleErrorKind::LeadIn => "invalid_puzzle_lead_in",
        }
    }
}

impl fmt::Display for ParsePuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            PuzzleErrorKind::Fields => "expected 11 or 13 comma-separated fields",
            PuzzleErrorKind::Id => "invalid puzzle id",
            PuzzleErrorKind::Fen => "invalid puzzle fen",
            PuzzleErrorKind::Move => "invalid or illegal puzzle move",
            PuzzleErrorKind::MoveCount => "the solution needs an odd number of moves",
            PuzzleErrorKind::Number => "invalid number",
            PuzzleErrorKind::Theme => "unknown theme",
            PuzzleErrorKind::Solvers => "solvers must be 5 digits",
            PuzzleErrorKind::LeadIn => {
                "the lead-in must be a legal move of the position before that leads to the puzzle"
            }
        };
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match &self.move_error {
            Some(error) => write!(f, "{what}: {error}"),
            None => write!(f, "{what}: {}", self.given),
        }
    }
}

impl std::error::Error for ParsePuzzleError {}

impl FromStr for Puzzle {
    type Err = ParsePuzzleError;

    fn from_str(s: &str) -> Result<Puzzle, ParsePuzzleError> {
        use PuzzleErrorKind as K;
        let err = ParsePuzzleError::new;
        let fields: Vec<&str> = s.trim().split(',').collect();
        let (fields, lead) = match fields.len() {
            11 => (&fields[..], None),
            13 => (&fields[..11], Some((fields[11], fields[12]))),
            _ => return Err(err(K::Fields, s)),
        };
        let [id, fen, moves, rating, rd, themes, seed, ply, solvers, depth, nodes] = fields[..]
        else {
            return Err(err(K::Fields, s));
        };
        if id.len() != 10 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(err(K::Id, id));
        }
        let position = Position::from_fen(fen).map_err(|_| err(K::Fen, fen))?;
        let list = Game::from_moves(position.clone(), moves.split_whitespace())
            .map_err(|e| {
                let mut error = err(K::Move, e.text().as_str());
                error.move_error = Some(Box::new(e));
                error
            })?
            .moves()
            .to_vec();
        if list.len() % 2 == 0 {
            return Err(err(K::MoveCount, moves));
        }
        let number = |t: &str| t.parse::<u64>().map_err(|_| err(K::Number, t));
        let rating = u32::try_from(number(rating)?)
            .ok()
            .filter(|r| *r <= 4000)
            .ok_or_else(|| err(K::Number, rating))?;
        let deviation = u32::try_from(number(rd)?)
            .ok()
            .filter(|r| *r <= 1000)
            .ok_or_else(|| err(K::Number, rd))?;
        let mut theme_list = themes
            .split_whitespace()
            .map(|t| Theme::from_name(t).ok_or_else(|| err(K::Theme, t)))
            .collect::<Result<Vec<Theme>, _>>()?;
        theme_list.sort();
        theme_list.dedup();
        let seed = number(seed)?;
        let ply = u32::try_from(number(ply)?).map_err(|_| err(K::Number, ply))?;
        let digits: Vec<u8> = solvers.bytes().collect();
        if digits.len() != LEVELS || !digits.iter().all(u8::is_ascii_digit) {
            return Err(err(K::Solvers, solvers));
        }
        let mut solver_counts = [0u8; LEVELS];
        for (slot, d) in solver_counts.iter_mut().zip(digits) {
            *slot = d - b'0';
        }
        let depth = u8::try_from(number(depth)?)
            .ok()
            .filter(|d| (1..=9).contains(d))
            .ok_or_else(|| err(K::Number, depth))?;
        let nodes = number(nodes)?;
        let lead_in = match lead {
            None | Some(("", "")) => None,
            Some((before, mv)) => Some(parse_lead_in(before, mv, &position)?),
        };
        Ok(Puzzle {
            depth,
            nodes,
            id: id.to_string(),
            position,
            moves: list,
            rating,
            deviation,
            themes: theme_list,
            seed,
            ply,
            solvers: solver_counts,
            lead_in,
        })
    }
}

/// The `before` and `lead_in` fields, checked against the puzzle position.
fn parse_lead_in(before: &str, mv: &str, puzzle: &Position) -> Result<LeadIn, ParsePuzzleError> {
    let err = || ParsePuzzleError::new(PuzzleErrorKind::LeadIn, &format!("{before},{mv}"));
    let position = Position::from_fen(before).map_err(|_| err())?;
    let mv = position.parse_uci(mv).map_err(|_| err())?;
    let lead_in = LeadIn::new(position, mv);
    lead_in.leads_to(puzzle).then_some(lead_in).ok_or_else(err)
}

impl fmt::Display for Puzzle {
    /// The record line (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let themes: Vec<&str> = self.themes.iter().map(|t| t.name()).collect();
        let solvers: String = self.solvers.iter().map(|d| char::from(b'0' + d)).collect();
        write!(
            f,
            "{},{},{},{},{},{},{},{},{},{},{}",
            self.id,
            self.position.fen(),
            self.moves_text().join(" "),
            self.rating,
            self.deviation,
            themes.join(" "),
            self.seed,
            self.ply,
            solvers,
            self.depth,
            self.nodes
        )?;
        match &self.lead_in {
            Some(l) => write!(f, ",{},{}", l.position.fen(), l.mv),
            None => Ok(()),
        }
    }
}

/// Reads a whole data file: one record a line, comments and blank lines
/// skipped.
///
/// # Errors
///
/// The first bad line, with its line number.
///
/// # Examples
///
/// ```
/// use hostage_puzzles::record::parse_puzzles;
///
/// let text = "# a comment\n00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300\n";
/// assert_eq!(parse_puzzles(text)?.len(), 1);
/// let err = parse_puzzles("\nnot,a,puzzle\n").unwrap_err();
/// assert_eq!((err.code(), err.line), ("invalid_puzzle_fields", 2));
/// # Ok::<_, hostage_puzzles::record::ParsePuzzleError>(())
/// ```
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, ParsePuzzleError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = line.parse::<Puzzle>().map_err(|mut e| {
            e.line = i + 1;
            e
        })?;
        out.push(puzzle);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str =
        "00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300";

    fn code_of(line: &str) -> &'static str {
        line.parse::<Puzzle>().expect_err("bad record").code()
    }

    #[test]
    fn each_field_is_checked() {
        assert!(GOOD.parse::<Puzzle>().is_ok());
        let with = |i: usize, v: &str| {
            let mut f: Vec<&str> = GOOD.split(',').collect();
            f[i] = v;
            f.join(",")
        };
        assert_eq!(code_of("a,b"), "invalid_puzzle_fields");
        assert_eq!(code_of(&with(0, "XYZ")), "invalid_puzzle_id");
        assert_eq!(code_of(&with(1, "8/8/8 w - - 0 1")), "invalid_puzzle_fen");
        assert_eq!(code_of(&with(2, "R@a9")), "invalid_puzzle_move");
        // Legal syntax, but White has no knight in its airfield.
        assert_eq!(code_of(&with(2, "N@a8")), "invalid_puzzle_move");
        // A bad move reads as the core's move-text error, as everywhere.
        let err = with(2, "N@a8").parse::<Puzzle>().expect_err("bad move");
        assert_eq!(err.given.as_str(), "N@a8");
        assert!(
            err.to_string().starts_with(
                "invalid or illegal puzzle move: cannot play move 1 'N@a8' (white's move 1): illegal uci"
            ),
            "{err}"
        );
        assert_eq!(code_of(&with(2, "")), "invalid_puzzle_move_count");
        assert_eq!(code_of(&with(3, "-5")), "invalid_puzzle_number");
        assert_eq!(code_of(&with(3, "99999")), "invalid_puzzle_number");
        assert_eq!(
            code_of(&with(5, "mateIn1 brilliant")),
            "invalid_puzzle_theme"
        );
        assert_eq!(code_of(&with(8, "3333")), "invalid_puzzle_solvers");
        assert_eq!(code_of(&with(9, "0")), "invalid_puzzle_number");
        assert_eq!(code_of(&with(10, "many")), "invalid_puzzle_number");
        let err = with(5, "brilliant").parse::<Puzzle>().expect_err("bad");
        assert!(err.to_string().contains("brilliant"), "{err}");
    }

    /// The puzzle of `GOOD` one move later (Black's king came to g8 from
    /// f8), with that lead-in.
    const PUZZLE: &str = "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 1 2";
    const BEFORE: &str = "5k2/5ppp/8/8/8/8/8/6K1[R] b - - 0 1";

    fn with_lead_in(fen: &str, before: &str, mv: &str) -> String {
        format!("00c0ffee00,{fen},R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300,{before},{mv}")
    }

    #[test]
    fn the_lead_in_reads_writes_and_is_checked() {
        let line = with_lead_in(PUZZLE, BEFORE, "f8g8");
        let p: Puzzle = line.parse().expect("a good record");
        let lead_in = p.lead_in.as_ref().expect("a lead-in");
        assert_eq!(lead_in.position.fen(), BEFORE);
        assert_eq!(lead_in.mv.to_string(), "f8g8");
        assert_eq!(p.start().fen(), BEFORE);
        assert_eq!(p.to_string(), line);
        // Without one: eleven fields, or the two left empty, write eleven.
        let none: Puzzle = GOOD.parse().expect("eleven fields");
        assert_eq!((none.lead_in.clone(), none.start()), (None, &none.position));
        assert_eq!(none.to_string(), GOOD);
        let empty: Puzzle = format!("{GOOD},,").parse().expect("empty lead-in");
        assert_eq!(empty, none);
        // Twelve fields, one half of the lead-in, a bad FEN, an illegal
        // move, a legal move that leads elsewhere, the wrong clocks.
        assert_eq!(
            code_of(&format!("{GOOD},{BEFORE}")),
            "invalid_puzzle_fields"
        );
        for bad in [
            with_lead_in(PUZZLE, BEFORE, ""),
            with_lead_in(PUZZLE, "", "f8g8"),
            with_lead_in(PUZZLE, "5k2/5ppp/8 b - - 0 1", "f8g8"),
            with_lead_in(PUZZLE, BEFORE, "f8f7"),
            with_lead_in(PUZZLE, BEFORE, "f8e8"),
            with_lead_in("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 2", BEFORE, "f8g8"),
        ] {
            assert_eq!(code_of(&bad), "invalid_puzzle_lead_in", "{bad}");
        }
        let err = with_lead_in(PUZZLE, BEFORE, "f8e8")
            .parse::<Puzzle>()
            .expect_err("leads elsewhere");
        assert!(err.to_string().contains("f8e8"), "{err}");
    }

    #[test]
    fn ids_are_stable_hex() {
        let pos = Position::new();
        let id = puzzle_id(&pos);
        assert_eq!(id.len(), 10);
        assert_eq!(id, puzzle_id(&Position::new()));
        // The key ignores the clocks.
        let later =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 7 30")
                .expect("fen");
        assert_eq!(puzzle_id(&later), id);
    }
}
