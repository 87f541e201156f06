//! The PGN reader: a game builder over the lexer's tokens, with an explicit
//! stack of variations (no recursion on the input).

use alloc::{
    string::{String, ToString},
    vec::Vec,
};
use core::mem;

#[cfg(feature = "std")]
pub use super::lexer::IoSource;
pub use super::lexer::{ByteSource, StrSource};
use super::{
    lexer::{is_move_number, is_move_suffix, mark_nag, At, Lexed, Lexer, Loc, Token},
    Limit, Limits, NodeId, PgnError, PgnErrorKind, PgnGame, PgnResult, Syntax,
};
use crate::Position;

/// A streaming reader of PGN games: an iterator of `Result<PgnGame, PgnError>`.
///
/// After an error the reader skips to the next line that starts with `[`
/// and goes on; after an I/O error it stops.
///
/// # Examples
///
/// ```
/// use hostage_core::pgn::Reader;
///
/// let text = "1. e4 e5 1-0\n\n1. d4 {queen's pawn} d5 (1... Nf6) *\n";
/// let games = Reader::from_str(text).collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].write().lines().last(), Some("1. d4 {queen's pawn} 1... d5 (1... Nf6) *"));
/// # Ok::<_, hostage_core::pgn::PgnError>(())
/// ```
pub struct Reader<S> {
    lexer: Lexer<S>,
    games: usize,
    pending: Option<(Token, Loc)>,
    fused: bool,
    resync: bool,
}

impl<'a> Reader<StrSource<'a>> {
    /// Reads games from a string.
    #[allow(clippy::should_implement_trait)]
    #[must_use]
    pub fn from_str(text: &'a str) -> Reader<StrSource<'a>> {
        Reader::from_source(StrSource {
            bytes: text.as_bytes(),
            at: 0,
        })
    }
}

#[cfg(feature = "std")]
impl<R: std::io::BufRead> Reader<IoSource<R>> {
    /// Reads games from a buffered reader, as they are needed.
    #[must_use]
    pub fn new(inner: R) -> Reader<IoSource<R>> {
        Reader::from_source(IoSource { inner })
    }
}

impl<S: ByteSource> Reader<S> {
    /// Reads games from any byte source.
    #[must_use]
    pub fn from_source(src: S) -> Reader<S> {
        Reader {
            lexer: Lexer::new(src, Limits::default()),
            games: 0,
            pending: None,
            fused: false,
            resync: false,
        }
    }

    /// Replaces the default [`Limits`].
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Reader<S> {
        self.lexer.limits = limits;
        self
    }

    fn read_game(&mut self) -> Result<Option<PgnGame>, At> {
        let limits = self.lexer.limits;
        let start_offset = self.lexer.offset;
        let mut builder = Builder::new(limits);
        let mut tokens = 0usize;
        loop {
            let (token, loc) = match self.pending.take() {
                Some(pending) => pending,
                None => self.lexer.next_token()?,
            };
            tokens += 1;
            let limit = if tokens > limits.max_tokens {
                Some(Limit::Tokens)
            } else if self.lexer.offset - start_offset > limits.max_game_len as u64 {
                Some(Limit::GameLength)
            } else {
                None
            };
            if let Some(limit) = limit {
                return Err(At {
                    kind: PgnErrorKind::Limit(limit),
                    line: loc.line,
                    column: loc.column,
                });
            }
            match token {
                Token::Eof if builder.is_empty() => return Ok(None),
                Token::Eof => return builder.finish(self.lexer.loc()).map(Some),
                Token::Tag { .. } if builder.game.is_some() => {
                    self.pending = Some((token, loc));
                    return builder.finish(loc).map(Some);
                }
                Token::Tag { name, value } => builder.tag(name, value, loc),
                token => {
                    if builder.ended_by_mate && !builder.continues_mated_game(&token) {
                        self.pending = Some((token, loc));
                        return builder.finish(loc).map(Some);
                    }
                    builder.movetext(token, loc)?;
                    if builder.done {
                        return builder.finish(self.lexer.loc()).map(Some);
                    }
                }
            }
        }
    }
}

impl<S: ByteSource> Iterator for Reader<S> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Result<PgnGame, PgnError>> {
        if self.fused {
            return None;
        }
        let number = self.games + 1;
        let to_error = |at: At| PgnError {
            kind: at.kind,
            game: number,
            line: at.line,
            column: at.column,
        };
        if mem::take(&mut self.resync) {
            if let Err(at) = self.lexer.skip_to_tag_line() {
                self.fused = true;
                return Some(Err(to_error(at)));
            }
        }
        match self.read_game() {
            Ok(Some(game)) => {
                self.games = number;
                Some(Ok(game))
            }
            Ok(None) => {
                self.fused = true;
                None
            }
            Err(at) => {
                self.games = number;
                if matches!(at.kind, PgnErrorKind::Io(_)) {
                    self.fused = true;
                } else {
                    // A game ended by the next game's tag keeps that tag.
                    self.resync = self.pending.is_none();
                }
                Some(Err(to_error(at)))
            }
        }
    }
}

/// One line of play being read: the main line or an open variation.
struct Frame {
    /// The position after `last`.
    pos: Position,
    /// The position before `last`, if a move has been read on this line.
    before: Option<Position>,
    /// The last node of this line (its parent while no move is read).
    last: NodeId,
    /// Comments before the first move of a variation.
    starting_comments: Vec<String>,
}

/// Builds one game from its tokens.
struct Builder {
    limits: Limits,
    tags: Vec<(String, String)>,
    fen: Option<(String, Loc)>,
    variant: Option<(String, Loc)>,
    game: Option<PgnGame>,
    frames: Vec<Frame>,
    /// The inventor's castling `O O` / `O O O`: how many `O`s, and where.
    castle: Option<(u8, Loc)>,
    result: Option<PgnResult>,
    mate_claim: Option<PgnResult>,
    ended_by_mate: bool,
    done: bool,
}

impl Builder {
    fn new(limits: Limits) -> Builder {
        Builder {
            limits,
            tags: Vec::new(),
            fen: None,
            variant: None,
            game: None,
            frames: Vec::new(),
            castle: None,
            result: None,
            mate_claim: None,
            ended_by_mate: false,
            done: false,
        }
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.game.is_none()
    }

    fn tag(&mut self, name: String, value: String, loc: Loc) {
        if name == "FEN" && self.fen.is_none() {
            self.fen = Some((value.clone(), loc));
        }
        if name == "Variant" && self.variant.is_none() {
            self.variant = Some((value.clone(), loc));
        }
        self.tags.push((name, value));
    }

    fn begin(&mut self) -> Lexed<()> {
        if self.game.is_some() {
            return Ok(());
        }
        if let Some((variant, loc)) = &self.variant {
            let v = variant.trim().to_ascii_lowercase();
            if !matches!(v.as_str(), "hostage" | "hostage chess" | "hostagechess") {
                return Err(At {
                    kind: PgnErrorKind::Variant(variant.clone()),
                    line: loc.line,
                    column: loc.column,
                });
            }
        }
        let start = match &self.fen {
            Some((fen, loc)) => Position::from_fen(fen).map_err(|e| At {
                kind: PgnErrorKind::Fen(e),
                line: loc.line,
                column: loc.column,
            })?,
            None => Position::new(),
        };
        let mut game = PgnGame::new(start.clone());
        game.tags = mem::take(&mut self.tags);
        self.game = Some(game);
        self.frames.push(Frame {
            pos: start,
            before: None,
            last: NodeId::ROOT,
            starting_comments: Vec::new(),
        });
        Ok(())
    }

    /// Whether `token`, after a main line that ended in a claimed and real
    /// mate, still belongs to this game (a result, a comment or a NAG).
    fn continues_mated_game(&self, token: &Token) -> bool {
        match token {
            Token::Symbol(s) => {
                PgnResult::from_token(s).is_some()
                    || matches!(s.as_str(), "Resigns" | "resigns" | "mate" | "Mate" | "MATE")
            }
            Token::Comment(_) | Token::Nag(_) => true,
            _ => false,
        }
    }

    fn finish(&mut self, loc: Loc) -> Lexed<PgnGame> {
        self.flush_castle()?;
        self.begin()?;
        if self.frames.len() > 1 {
            return Err(At {
                kind: PgnErrorKind::Syntax(Syntax::UnterminatedVariation),
                line: loc.line,
                column: loc.column,
            });
        }
        let mut game = self.game.take().unwrap_or_default();
        let tag_result = game.tag("Result").and_then(PgnResult::from_token);
        game.result = self
            .result
            .or(self.mate_claim)
            .or(tag_result)
            .unwrap_or(PgnResult::Unknown);
        Ok(game)
    }

    fn movetext(&mut self, token: Token, loc: Loc) -> Lexed<()> {
        self.begin()?;
        if let Token::Symbol(s) = &token {
            if s == "O" {
                let (n, at) = self.castle.map_or((0, loc), |(n, at)| (n, at));
                self.castle = Some((n + 1, at));
                if n + 1 == 3 {
                    self.flush_castle()?;
                }
                return Ok(());
            }
        }
        self.flush_castle()?;
        match token {
            Token::Symbol(s) => self.symbol(&s, loc),
            Token::Comment(text) => {
                let depth = self.frames.len();
                let game = self.game.as_mut().unwrap_or_else(|| unreachable!());
                let frame = self.frames.last_mut().unwrap_or_else(|| unreachable!());
                if frame.before.is_some() || depth == 1 {
                    game.nodes[frame.last.index()].comments.push(text);
                } else {
                    frame.starting_comments.push(text);
                }
                Ok(())
            }
            Token::Nag(nag) => {
                self.add_nag(nag);
                Ok(())
            }
            Token::Open => {
                if self.frames.len() > self.limits.max_depth {
                    return Err(At {
                        kind: PgnErrorKind::Limit(Limit::Depth),
                        line: loc.line,
                        column: loc.column,
                    });
                }
                let game = self.game.as_ref().unwrap_or_else(|| unreachable!());
                let frame = self.frames.last().unwrap_or_else(|| unreachable!());
                let Some(before) = &frame.before else {
                    return Err(At {
                        kind: PgnErrorKind::Syntax(Syntax::VariationWithoutMove),
                        line: loc.line,
                        column: loc.column,
                    });
                };
                let parent = game.nodes[frame.last.index()]
                    .parent
                    .unwrap_or(NodeId::ROOT);
                let new = Frame {
                    pos: before.clone(),
                    before: None,
                    last: parent,
                    starting_comments: Vec::new(),
                };
                self.frames.push(new);
                Ok(())
            }
            Token::Close => {
                if self.frames.len() == 1 {
                    return Err(At {
                        kind: PgnErrorKind::Syntax(Syntax::UnmatchedParen),
                        line: loc.line,
                        column: loc.column,
                    });
                }
                let closed = self.frames.pop().unwrap_or_else(|| unreachable!());
                if !closed.starting_comments.is_empty() {
                    // An empty variation's comments stay with the move before it.
                    let game = self.game.as_mut().unwrap_or_else(|| unreachable!());
                    let frame = self.frames.last().unwrap_or_else(|| unreachable!());
                    game.nodes[frame.last.index()]
                        .comments
                        .extend(closed.starting_comments);
                }
                Ok(())
            }
            Token::Tag { .. } | Token::Eof => Ok(()),
        }
    }

    fn add_nag(&mut self, nag: u8) {
        let game = self.game.as_mut().unwrap_or_else(|| unreachable!());
        let frame = self.frames.last().unwrap_or_else(|| unreachable!());
        // A NAG before any move of its line annotates nothing; it is dropped.
        if frame.before.is_some() {
            game.nodes[frame.last.index()].nags.push(nag);
        }
    }

    fn flush_castle(&mut self) -> Lexed<()> {
        match self.castle.take() {
            Some((n, loc)) => {
                let text = match n {
                    2 => "O-O",
                    3 => "O-O-O",
                    _ => "O",
                };
                self.play(text, loc)
            }
            None => Ok(()),
        }
    }

    fn symbol(&mut self, s: &str, loc: Loc) -> Lexed<()> {
        let main_line = self.frames.len() == 1;
        if is_move_number(s) || is_move_suffix(s) {
            return Ok(());
        }
        if let Some(result) = PgnResult::from_token(s) {
            // A result inside a variation ends nothing.
            if main_line {
                self.result = Some(result);
                self.done = true;
            }
            return Ok(());
        }
        let turn = self
            .frames
            .last()
            .map_or(crate::Color::White, |f| f.pos.turn());
        if matches!(s, "Resigns" | "resigns") {
            // The inventor's records: the side to move resigns.
            if main_line {
                self.result = Some(PgnResult::win_for(!turn));
                self.done = true;
            }
            return Ok(());
        }
        if matches!(s, "mate" | "Mate" | "MATE") {
            let frame = self.frames.last().unwrap_or_else(|| unreachable!());
            if main_line && frame.pos.is_checkmate() {
                self.mate_claim = Some(PgnResult::win_for(!turn));
                self.ended_by_mate = true;
            }
            return Ok(());
        }
        if let Some(nag) = mark_nag(s) {
            self.add_nag(nag);
            return Ok(());
        }
        self.play(s, loc)
    }

    fn play(&mut self, s: &str, loc: Loc) -> Lexed<()> {
        // Marks glued to the move (`e4!?`) become a NAG.
        let text = s.trim_end_matches(['!', '?']);
        let nag = mark_nag(&s[text.len()..]);
        let game = self.game.as_mut().unwrap_or_else(|| unreachable!());
        let frame = self.frames.last_mut().unwrap_or_else(|| unreachable!());
        let m = frame.pos.parse_move(text).map_err(|error| At {
            kind: PgnErrorKind::IllegalMove {
                ply: game.nodes[frame.last.index()].ply + 1,
                san: s.to_string(),
                error,
            },
            line: loc.line,
            column: loc.column,
        })?;
        let id = game.push_node(frame.last, m);
        let node = &mut game.nodes[id.index()];
        node.starting_comments = mem::take(&mut frame.starting_comments);
        node.nags.extend(nag);
        let mut after = frame.pos.clone();
        after.play_unchecked(m);
        frame.before = Some(mem::replace(&mut frame.pos, after));
        frame.last = id;
        Ok(())
    }
}
