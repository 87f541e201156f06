//! PGN for Hostage Chess: reading and writing game records.
//!
//! # Reading
//!
//! [`Reader`] streams games from a `&str` ([`Reader::from_str`]) or, with
//! the `std` feature, from any [`std::io::BufRead`] ([`Reader::new`]). It
//! accepts:
//!
//! - tag pairs, with `\"` and `\\` escapes; a `[FEN "..."]` tag holds a
//!   Hostage FEN (brackets and `#` inside the quotes are fine) and sets the
//!   start position, with or without `[SetUp "1"]`; a `Variant` tag, if
//!   present, must name Hostage Chess (`pgn_variant` otherwise);
//! - move numbers `12.`, `12...`, `12.e4`, and the inventor's bare `12`;
//! - moves in lenient SAN ([`crate::san`]), else in long form
//!   ([`crate::uci`]); the inventor's castling written `O O` / `O O O`;
//! - comments `{...}` and `;` to the end of the line (whitespace runs are
//!   read as one space), lines starting with `%`, NAGs `$n` and the marks
//!   `!`, `?`, `!!`, `??`, `!?`, `?!` (read as `$1`..`$6`, also when glued to
//!   the move), `e.p.`;
//! - variations `( ... )`, kept as a tree of [`Node`]s, nested up to
//!   [`Limits::max_depth`]; a parenthesis whose first word is prose rather
//!   than a move (the inventor's `(Black is not in check ...)`) is read as a
//!   comment;
//! - results `1-0`, `0-1`, `1/2-1/2`, `*`, and the inventor's `Resigns` (the
//!   side to move resigns; it ends the game like a result) and `mate` (an
//!   annotation; when the main line really is checkmate it ends the game
//!   with that result).
//!
//! Every move is checked against the rules as it is read. Hostile input is
//! stopped by [`Limits`] (line, comment, symbol and game length, tokens per
//! game, nesting depth) with an error instead of exhausting memory or
//! stack: nothing in this module recurses on the input. After an error the
//! reader skips to the next line starting with `[` and goes on with the
//! next game (an I/O error ends the stream).
//!
//! # Writing
//!
//! [`PgnGame::write`] (also [`fmt::Display`]) emits one canonical form: the
//! seven-tag roster (Event, Site, Date, Round, White, Black, Result), then
//! `[Variant "Hostage"]`, then `[SetUp "1"]` and `[FEN "..."]` when the start
//! is not the standard start, then the other tags in their order; a blank
//! line; the movetext in canonical SAN with `+`/`#`, move numbers (`1. e4
//! e5`, and `3... Nf6` for a Black move after a comment or a variation), NAGs
//! as `$n`, comments as `{...}`, variations in parentheses, the result last,
//! lines of at most 79 characters (so they fit 80 columns); a final newline.
//! Reading that text back and writing it again gives the same bytes.
//!
//! A result decided off the board (resignation, time forfeit, agreed draw,
//! abandonment) is recorded with [`PgnGame::set_result`], checked against
//! the board's own outcome and written with a `Termination` tag (see
//! [`EndReason`]).
//!
//! # Examples
//!
//! ```
//! use hostage_core::pgn::{PgnGame, Reader};
//!
//! let text = "[Event \"Casual\"]\n\n1 e4 d5 2 exd5 Qxd5 3 Nc3 Qd8 4 (P-P)*d5 Resigns\n";
//! let games: Vec<PgnGame> = Reader::from_str(text).collect::<Result<_, _>>()?;
//! assert_eq!(games.len(), 1);
//! let game = games[0].mainline_game();
//! assert_eq!(game.san_moves(), ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qd8", "(P-P)*d5"]);
//! // After White's 4th move Black, to move, resigned.
//! assert_eq!(games[0].result.as_str(), "1-0");
//! assert!(games[0].write().starts_with("[Event \"Casual\"]\n[Site \"?\"]\n"));
//! # Ok::<_, hostage_core::pgn::PgnError>(())
//! ```

mod ending;
pub(crate) mod lexer;
mod reader;
mod writer;

use alloc::{
    string::{String, ToString},
    vec::Vec,
};
use core::fmt;

use crate::{fen::FenError, game::Game, Color, Move, Outcome, Position};

pub use ending::{EndReason, ResultError};
#[cfg(feature = "std")]
pub use reader::IoSource;
pub use reader::{ByteSource, Reader, StrSource};

/// The result of a game as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, or the game goes on.
    Unknown,
}

impl PgnResult {
    /// `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            PgnResult::WhiteWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// Reads a result token (`½-½` is accepted for a draw).
    #[must_use]
    pub fn from_token(s: &str) -> Option<PgnResult> {
        match s {
            "1-0" => Some(PgnResult::WhiteWins),
            "0-1" => Some(PgnResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(PgnResult::Draw),
            "*" => Some(PgnResult::Unknown),
            _ => None,
        }
    }

    /// The result of an outcome (`*` for none).
    #[must_use]
    pub const fn from_outcome(outcome: Option<Outcome>) -> PgnResult {
        match outcome {
            Some(Outcome {
                winner: Some(Color::White),
                ..
            }) => PgnResult::WhiteWins,
            Some(Outcome {
                winner: Some(Color::Black),
                ..
            }) => PgnResult::BlackWins,
            Some(Outcome { winner: None, .. }) => PgnResult::Draw,
            None => PgnResult::Unknown,
        }
    }

    /// A win for `winner`.
    #[must_use]
    pub const fn win_for(winner: Color) -> PgnResult {
        match winner {
            Color::White => PgnResult::WhiteWins,
            Color::Black => PgnResult::BlackWins,
        }
    }
}

impl fmt::Display for PgnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The index of a [`Node`] in a [`PgnGame`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root: the start position, before any move.
    pub const ROOT: NodeId = NodeId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move of a game tree with its annotations; the root holds no move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Node {
    parent: Option<NodeId>,
    mv: Option<Move>,
    ply: u32,
    children: Vec<NodeId>,
    /// Numeric annotation glyphs after the move (`$1` is `!`).
    pub nags: Vec<u8>,
    /// Comments written before the move, at the start of a variation.
    pub starting_comments: Vec<String>,
    /// Comments after the move (for the root: before the first move).
    pub comments: Vec<String>,
}

impl Node {
    fn new(parent: Option<NodeId>, mv: Option<Move>, ply: u32) -> Node {
        Node {
            parent,
            mv,
            ply,
            children: Vec::new(),
            nags: Vec::new(),
            starting_comments: Vec::new(),
            comments: Vec::new(),
        }
    }

    /// The move that leads to this node; `None` for the root.
    #[must_use]
    pub const fn mv(&self) -> Option<Move> {
        self.mv
    }

    /// The node this move is played from; `None` for the root.
    #[must_use]
    pub const fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The plies from the start of the game to this node (0 for the root).
    #[must_use]
    pub const fn ply(&self) -> u32 {
        self.ply
    }

    /// The moves played from here: the main continuation first, then the
    /// alternatives (variations).
    #[must_use]
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }
}

/// A game record: tags, start position, a tree of moves, and the result.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PgnGame {
    tags: Vec<(String, String)>,
    start: Position,
    nodes: Vec<Node>,
    /// The result, written in the `Result` tag and at the end of the
    /// movetext. [`PgnGame::set_result`] sets it checked against the board;
    /// the reader sets what the text says.
    pub result: PgnResult,
}

impl Default for PgnGame {
    fn default() -> PgnGame {
        PgnGame::new(Position::new())
    }
}

impl PgnGame {
    /// An empty record starting from `start`, with no tags and result `*`.
    #[must_use]
    pub fn new(start: Position) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            nodes: alloc::vec![Node::new(None, None, 0)],
            result: PgnResult::Unknown,
        }
    }

    /// The record of a [`Game`]: its start and moves as the main line, and
    /// the result of its outcome (`*` if none).
    #[must_use]
    pub fn from_game(game: &Game) -> PgnGame {
        let mut pgn = PgnGame::new(game.start().clone());
        let mut at = NodeId::ROOT;
        for &m in game.moves() {
            at = pgn.push_node(at, m);
        }
        pgn.result = PgnResult::from_outcome(game.outcome());
        pgn
    }

    /// The start position.
    #[must_use]
    pub const fn start(&self) -> &Position {
        &self.start
    }

    /// The tags in the order read or set (the roster tags included, as given).
    #[must_use]
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of the first tag called `name`.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the tag `name` (replacing the first one of that name). `Result`,
    /// `Variant`, `SetUp` and `FEN` are written from the record itself, so
    /// setting them changes nothing in the output: a result is recorded
    /// with [`PgnGame::set_result`].
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// A node of the tree.
    ///
    /// # Panics
    ///
    /// If `id` does not belong to this game.
    #[must_use]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// A node of the tree, to edit its comments and NAGs.
    ///
    /// # Panics
    ///
    /// If `id` does not belong to this game.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// The number of nodes, root included.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The comments before the first move.
    #[must_use]
    pub fn game_comments(&self) -> &[String] {
        &self.nodes[0].comments
    }

    /// Adds `m`, which must be legal after `parent`, as the last child of
    /// `parent` (the main continuation if it is the first).
    ///
    /// # Errors
    ///
    /// [`crate::game::GameError::IllegalMove`] if `m` is not legal there.
    ///
    /// # Panics
    ///
    /// If `parent` does not belong to this game.
    pub fn add_move(&mut self, parent: NodeId, m: Move) -> Result<NodeId, crate::game::GameError> {
        let pos = self.position_at(parent);
        if pos.is_legal(&m) {
            Ok(self.push_node(parent, m))
        } else {
            Err(crate::game::GameError::IllegalMove {
                mv: m,
                fen: pos.fen(),
                reason: pos.illegal_reason(&m),
            })
        }
    }

    /// Appends a node for `m` (known legal) below `parent`.
    pub(crate) fn push_node(&mut self, parent: NodeId, m: Move) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        let ply = self.nodes[parent.index()].ply + 1;
        self.nodes.push(Node::new(Some(parent), Some(m), ply));
        self.nodes[parent.index()].children.push(id);
        id
    }

    /// The moves from the root to `id`.
    ///
    /// # Panics
    ///
    /// If `id` does not belong to this game.
    #[must_use]
    pub fn path(&self, id: NodeId) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = id;
        while let Some(parent) = self.nodes[at.index()].parent {
            if let Some(m) = self.nodes[at.index()].mv {
                moves.push(m);
            }
            at = parent;
        }
        moves.reverse();
        moves
    }

    /// The position after the move of node `id`.
    ///
    /// # Panics
    ///
    /// If `id` does not belong to this game.
    #[must_use]
    pub fn position_at(&self, id: NodeId) -> Position {
        let mut pos = self.start.clone();
        for m in self.path(id) {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The main line: the nodes reached by always taking the first child.
    #[must_use]
    pub fn mainline(&self) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = NodeId::ROOT;
        while let Some(&next) = self.nodes[at.index()].children.first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// The moves of the main line.
    #[must_use]
    pub fn mainline_moves(&self) -> Vec<Move> {
        self.mainline()
            .into_iter()
            .filter_map(|id| self.nodes[id.index()].mv)
            .collect()
    }

    /// The main line replayed as a [`Game`].
    #[must_use]
    pub fn mainline_game(&self) -> Game {
        let mut game = Game::from_position(self.start.clone());
        for m in self.mainline_moves() {
            // Every node's move was checked when it was added.
            let _ = game.push(m);
        }
        game
    }

    /// The canonical PGN text of this game (see the module docs).
    #[must_use]
    pub fn write(&self) -> String {
        writer::write(self)
    }

    /// Reads the first game of `text`.
    ///
    /// # Errors
    ///
    /// The first game's [`PgnError`]; an input with no game at all is a
    /// [`Syntax::NoGame`] error.
    pub fn read(text: &str) -> Result<PgnGame, PgnError> {
        Reader::from_str(text).next().unwrap_or(Err(PgnError {
            kind: PgnErrorKind::Syntax(Syntax::NoGame),
            game: 1,
            line: 1,
            column: 1,
        }))
    }
}

impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write())
    }
}

/// Bounds on the input that stop hostile PGN with an error.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// Longest line, in bytes.
    pub max_line_len: usize,
    /// Longest comment, in bytes (before whitespace is collapsed).
    pub max_comment_len: usize,
    /// Longest symbol (move, number, result) or tag name, in bytes.
    pub max_symbol_len: usize,
    /// Longest tag value, in bytes.
    pub max_tag_value_len: usize,
    /// Deepest nesting of variations.
    pub max_depth: usize,
    /// Most tokens (tags, moves, numbers, comments, NAGs, parentheses) in
    /// one game.
    pub max_tokens: usize,
    /// Most bytes in one game.
    pub max_game_len: usize,
}

impl Default for Limits {
    /// 64 KiB lines and comments, 255-byte symbols, 4 KiB tag values, 64
    /// levels of variations, 100 000 tokens and 16 MiB per game.
    fn default() -> Limits {
        Limits {
            max_line_len: 1 << 16,
            max_comment_len: 1 << 16,
            max_symbol_len: 255,
            max_tag_value_len: 4096,
            max_depth: 64,
            max_tokens: 100_000,
            max_game_len: 16 << 20,
        }
    }
}

/// Which [`Limits`] bound was passed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// [`Limits::max_line_len`].
    LineLength,
    /// [`Limits::max_comment_len`].
    CommentLength,
    /// [`Limits::max_symbol_len`].
    SymbolLength,
    /// [`Limits::max_tag_value_len`].
    TagValueLength,
    /// [`Limits::max_depth`].
    Depth,
    /// [`Limits::max_tokens`].
    Tokens,
    /// [`Limits::max_game_len`].
    GameLength,
}

impl Limit {
    /// `"line_length"`, `"comment_length"`, ...
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Limit::LineLength => "line_length",
            Limit::CommentLength => "comment_length",
            Limit::SymbolLength => "symbol_length",
            Limit::TagValueLength => "tag_value_length",
            Limit::Depth => "variation_depth",
            Limit::Tokens => "tokens",
            Limit::GameLength => "game_length",
        }
    }
}

/// What is malformed in a PGN text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Syntax {
    /// A `{` comment (or a parenthesised prose comment) runs to the end of
    /// the input.
    UnterminatedComment,
    /// A tag pair is malformed or runs to the end of the input.
    InvalidTag,
    /// A `(` variation is still open when the game ends.
    UnterminatedVariation,
    /// A `)` with no open variation.
    UnmatchedParen,
    /// A `(` with no move before it to be an alternative to.
    VariationWithoutMove,
    /// A `$` not followed by a number from 0 to 255.
    InvalidNag,
    /// A byte that cannot start any token.
    UnexpectedChar,
    /// The input holds no game.
    NoGame,
}

impl Syntax {
    /// A lowercase description.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Syntax::UnterminatedComment => "unterminated comment",
            Syntax::InvalidTag => "invalid tag pair",
            Syntax::UnterminatedVariation => "unterminated variation",
            Syntax::UnmatchedParen => "unmatched closing parenthesis",
            Syntax::VariationWithoutMove => "variation before any move",
            Syntax::InvalidNag => "invalid nag",
            Syntax::UnexpectedChar => "unexpected character",
            Syntax::NoGame => "no game in the input",
        }
    }
}

/// What went wrong while reading PGN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// The text is not PGN (`pgn_syntax`).
    #[error("pgn syntax: {}", .0.description())]
    Syntax(Syntax),
    /// A [`Limits`] bound was passed (`pgn_limit`).
    #[error("pgn limit passed: {}", .0.name())]
    Limit(Limit),
    /// A move is not legal, ambiguous or unreadable (`pgn_illegal_move`).
    /// The message is the move error's, which names the move and the FEN.
    #[error("ply {ply}: {error}")]
    IllegalMove {
        /// The ply the move would have in the game (1 is the first move of
        /// the record, counting through variations).
        ply: u32,
        /// The move text as written.
        san: String,
        /// Why it was rejected (SAN, or long form when written so).
        error: crate::san::ParseMoveError,
    },
    /// The `FEN` tag is malformed or an illegal position (`pgn_fen`).
    #[error("fen tag: {0}")]
    Fen(FenError),
    /// The `Variant` tag names another game (`pgn_variant`).
    #[error("not a hostage chess game: variant {}", crate::Excerpt::new(.0.as_bytes()))]
    Variant(String),
    /// Reading failed (`pgn_io`).
    #[error("read error: {0}")]
    Io(String),
}

/// An error while reading PGN, with where it happened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}, column {column}: {kind}")]
#[non_exhaustive]
pub struct PgnError {
    /// What went wrong.
    pub kind: PgnErrorKind,
    /// The game it happened in, from 1.
    pub game: usize,
    /// The line, from 1.
    pub line: usize,
    /// The column (byte in the line), from 1.
    pub column: usize,
}

impl PgnError {
    /// `"pgn_syntax"`, `"pgn_limit"`, `"pgn_illegal_move"`, `"pgn_fen"`,
    /// `"pgn_variant"` or `"pgn_io"`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self.kind {
            PgnErrorKind::Syntax(_) => "pgn_syntax",
            PgnErrorKind::Limit(_) => "pgn_limit",
            PgnErrorKind::IllegalMove { .. } => "pgn_illegal_move",
            PgnErrorKind::Fen(_) => "pgn_fen",
            PgnErrorKind::Variant(_) => "pgn_variant",
            PgnErrorKind::Io(_) => "pgn_io",
        }
    }
}
