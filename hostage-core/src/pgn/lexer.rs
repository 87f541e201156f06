//! The PGN lexer: bytes to tokens, with bounded lookahead, line and column
//! tracking and the length limits of [`Limits`].

use alloc::{collections::VecDeque, string::String, vec::Vec};

use super::{Limit, Limits, PgnErrorKind, Syntax};
use crate::{san::San, uci::UciMove};

/// A source of bytes for [`Reader`](super::Reader).
pub trait ByteSource {
    /// The next byte, `Ok(None)` at the end of the input.
    ///
    /// # Errors
    ///
    /// A description of a read failure; the reader reports it as
    /// [`PgnErrorKind::Io`] and stops.
    fn next_byte(&mut self) -> Result<Option<u8>, String>;
}

/// Bytes of a string.
#[derive(Clone, Debug)]
pub struct StrSource<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
}

impl ByteSource for StrSource<'_> {
    fn next_byte(&mut self) -> Result<Option<u8>, String> {
        let b = self.bytes.get(self.at).copied();
        self.at += usize::from(b.is_some());
        Ok(b)
    }
}

/// Bytes of a [`std::io::BufRead`], read as needed.
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct IoSource<R> {
    pub(super) inner: R,
}

#[cfg(feature = "std")]
impl<R: std::io::BufRead> ByteSource for IoSource<R> {
    fn next_byte(&mut self) -> Result<Option<u8>, String> {
        loop {
            match self.inner.fill_buf() {
                Ok([]) => return Ok(None),
                Ok(buf) => {
                    let b = buf[0];
                    self.inner.consume(1);
                    return Ok(Some(b));
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.to_string()),
            }
        }
    }
}

/// An error before the game number is known.
pub(crate) struct At {
    pub(crate) kind: PgnErrorKind,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

pub(crate) type Lexed<T> = Result<T, At>;

#[derive(Clone, Debug)]
pub(crate) enum Token {
    Tag { name: String, value: String },
    Symbol(String),
    Nag(u8),
    Comment(String),
    Open,
    Close,
    Eof,
}

/// Where a token starts.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Loc {
    pub(crate) line: usize,
    pub(crate) column: usize,
}

pub(crate) struct Lexer<S> {
    src: S,
    ahead: VecDeque<u8>,
    line: usize,
    column: usize,
    pub(super) offset: u64,
    pub(super) limits: Limits,
    skipping: bool,
}

/// The NAG of an annotation mark (`!`, `?`, `!!`, `??`, `!?`, `?!`).
pub(crate) fn mark_nag(mark: &str) -> Option<u8> {
    Some(match mark {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// Whether a symbol is a move number: `12`, `12.`, `12...`, or dots alone
/// (the lexer splits `12...e5` into `12...` and `e5`).
pub(crate) fn is_move_number(s: &str) -> bool {
    let digits = s.trim_end_matches('.');
    digits.bytes().all(|b| b.is_ascii_digit())
}

/// Symbols that annotate a move and are skipped where a move is expected:
/// a detached check mark or en-passant note.
pub(crate) fn is_move_suffix(s: &str) -> bool {
    matches!(s, "e.p." | "ep" | "e.p" | "+" | "#" | "++")
}

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn ends_symbol(b: u8) -> bool {
    is_space(b)
        || matches!(
            b,
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'"'
        )
}

fn is_role_letter(b: u8) -> bool {
    matches!(b, b'N' | b'B' | b'R' | b'Q' | b'P' | b'K')
}

/// Collects comment text, collapsing whitespace runs into one space.
pub(super) struct CommentText {
    bytes: Vec<u8>,
    raw_len: usize,
    space: bool,
}

impl CommentText {
    fn new() -> CommentText {
        CommentText {
            bytes: Vec::new(),
            raw_len: 0,
            space: false,
        }
    }
    fn push(&mut self, b: u8) {
        self.raw_len += 1;
        if is_space(b) {
            self.space = true;
        } else {
            if self.space && !self.bytes.is_empty() {
                self.bytes.push(b' ');
            }
            self.space = false;
            self.bytes.push(b);
        }
    }
    fn finish(self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

impl<S: ByteSource> Lexer<S> {
    pub(crate) fn new(src: S, limits: Limits) -> Lexer<S> {
        Lexer {
            src,
            ahead: VecDeque::new(),
            line: 1,
            column: 1,
            offset: 0,
            limits,
            skipping: false,
        }
    }

    pub(super) fn loc(&self) -> Loc {
        Loc {
            line: self.line,
            column: self.column,
        }
    }

    fn err<T>(&self, loc: Loc, kind: PgnErrorKind) -> Lexed<T> {
        Err(At {
            kind,
            line: loc.line,
            column: loc.column,
        })
    }

    /// The byte `k` places ahead, reading it if needed.
    fn peek(&mut self, k: usize) -> Lexed<Option<u8>> {
        while self.ahead.len() <= k {
            match self.src.next_byte() {
                Ok(Some(b)) => self.ahead.push_back(b),
                Ok(None) => return Ok(None),
                Err(e) => return self.err(self.loc(), PgnErrorKind::Io(e)),
            }
        }
        Ok(self.ahead.get(k).copied())
    }

    /// Consumes the next byte (already peeked).
    fn bump(&mut self) -> Lexed<()> {
        if let Some(b) = self.ahead.pop_front() {
            self.offset += 1;
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
                if self.column - 1 > self.limits.max_line_len && !self.skipping {
                    return self.err(self.loc(), PgnErrorKind::Limit(Limit::LineLength));
                }
            }
        }
        Ok(())
    }

    /// Skips to the start of the next line that begins with `[`.
    pub(super) fn skip_to_tag_line(&mut self) -> Lexed<()> {
        self.skipping = true;
        let result = self.skip_lines();
        self.skipping = false;
        result
    }

    fn skip_lines(&mut self) -> Lexed<()> {
        loop {
            loop {
                match self.peek(0)? {
                    None => return Ok(()),
                    Some(b'\n') => {
                        self.bump()?;
                        break;
                    }
                    Some(_) => self.bump()?,
                }
            }
            if self.peek(0)? == Some(b'[') {
                return Ok(());
            }
        }
    }

    pub(crate) fn next_token(&mut self) -> Lexed<(Token, Loc)> {
        // A file saved with a UTF-8 byte-order mark (common on Windows)
        // starts with EF BB BF: not part of the PGN.
        if self.offset == 0
            && self.peek(0)? == Some(0xef)
            && self.peek(1)? == Some(0xbb)
            && self.peek(2)? == Some(0xbf)
        {
            for _ in 0..3 {
                self.bump()?;
            }
        }
        loop {
            let loc = self.loc();
            let Some(b) = self.peek(0)? else {
                return Ok((Token::Eof, loc));
            };
            let token = match b {
                _ if is_space(b) => {
                    self.bump()?;
                    continue;
                }
                b'%' if self.column == 1 => {
                    // PGN escape: the whole line is ignored.
                    while !matches!(self.peek(0)?, None | Some(b'\n')) {
                        self.bump()?;
                    }
                    continue;
                }
                b';' => {
                    self.bump()?;
                    let mut text = CommentText::new();
                    while let Some(c) = self.peek(0)? {
                        if c == b'\n' {
                            break;
                        }
                        self.push_comment(&mut text, c, loc)?;
                    }
                    Token::Comment(text.finish())
                }
                b'{' => {
                    self.bump()?;
                    let mut text = CommentText::new();
                    loop {
                        match self.peek(0)? {
                            None => {
                                return self
                                    .err(loc, PgnErrorKind::Syntax(Syntax::UnterminatedComment))
                            }
                            Some(b'}') => {
                                self.bump()?;
                                break;
                            }
                            Some(c) => self.push_comment(&mut text, c, loc)?,
                        }
                    }
                    Token::Comment(text.finish())
                }
                b'[' => self.tag(loc)?,
                b'(' => {
                    if let Some(len) = self.exchange_ahead()? {
                        let mut head = Vec::new();
                        for _ in 0..len {
                            head.extend(self.peek(0)?);
                            self.bump()?;
                        }
                        self.symbol(head, loc)?
                    } else if self.prose_ahead()? {
                        self.paren_comment(loc)?
                    } else {
                        self.bump()?;
                        Token::Open
                    }
                }
                b')' => {
                    self.bump()?;
                    Token::Close
                }
                b'$' => {
                    self.bump()?;
                    let mut value: u32 = 0;
                    let mut digits = 0;
                    while let Some(d @ b'0'..=b'9') = self.peek(0)? {
                        self.bump()?;
                        value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
                        digits += 1;
                    }
                    match u8::try_from(value) {
                        Ok(nag) if digits > 0 => Token::Nag(nag),
                        _ => return self.err(loc, PgnErrorKind::Syntax(Syntax::InvalidNag)),
                    }
                }
                b'}' | b']' | b'"' => {
                    return self.err(loc, PgnErrorKind::Syntax(Syntax::UnexpectedChar))
                }
                _ => self.symbol(Vec::new(), loc)?,
            };
            return Ok((token, loc));
        }
    }

    fn push_comment(&mut self, text: &mut CommentText, c: u8, loc: Loc) -> Lexed<()> {
        self.bump()?;
        text.push(c);
        if text.raw_len > self.limits.max_comment_len {
            return self.err(loc, PgnErrorKind::Limit(Limit::CommentLength));
        }
        Ok(())
    }

    /// The length of an exchange's `(X-Y)` (or `(X–Y)` with an en dash) ahead.
    fn exchange_ahead(&mut self) -> Lexed<Option<usize>> {
        if !self.peek(1)?.is_some_and(is_role_letter) {
            return Ok(None);
        }
        let dash = match (self.peek(2)?, self.peek(3)?, self.peek(4)?) {
            (Some(b'-'), _, _) => 1,
            (Some(0xe2), Some(0x80), Some(0x93)) => 3,
            _ => return Ok(None),
        };
        let ok =
            self.peek(2 + dash)?.is_some_and(is_role_letter) && self.peek(3 + dash)? == Some(b')');
        Ok(ok.then_some(4 + dash))
    }

    /// Whether the `(` ahead opens prose (`(Black is not in check ...)`)
    /// rather than a variation: its first word is no move, number or mark.
    fn prose_ahead(&mut self) -> Lexed<bool> {
        const LOOK: usize = 64;
        const WORD: usize = 32;
        let mut i = 1;
        while i < LOOK && self.peek(i)?.is_some_and(is_space) {
            i += 1;
        }
        let mut word = Vec::new();
        while let Some(b) = self.peek(i)? {
            if is_space(b) || matches!(b, b')' | b'{' | b'}' | b';' | b'$' | b'[' | b']' | b'"') {
                break;
            }
            word.push(b);
            if word.len() > WORD {
                break;
            }
            i += 1;
        }
        let Some(&first) = word.first() else {
            return Ok(false);
        };
        if first.is_ascii_digit() || matches!(first, b'(' | b'*' | b'.' | b'!' | b'?' | b'@') {
            return Ok(false);
        }
        // No move is that long.
        if word.len() > WORD {
            return Ok(true);
        }
        Ok(San::from_ascii(&word).is_err() && UciMove::from_ascii(&word).is_err())
    }

    /// A parenthesised prose comment, up to the matching `)`.
    fn paren_comment(&mut self, loc: Loc) -> Lexed<Token> {
        self.bump()?;
        let mut depth = 1usize;
        let mut text = CommentText::new();
        loop {
            match self.peek(0)? {
                None => return self.err(loc, PgnErrorKind::Syntax(Syntax::UnterminatedComment)),
                Some(b')') if depth == 1 => {
                    self.bump()?;
                    return Ok(Token::Comment(text.finish()));
                }
                Some(c) => {
                    match c {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    self.push_comment(&mut text, c, loc)?;
                }
            }
        }
    }

    fn symbol(&mut self, mut buf: Vec<u8>, loc: Loc) -> Lexed<Token> {
        while let Some(b) = self.peek(0)? {
            if ends_symbol(b) {
                // The inventor's disambiguation `N(b)d7`: a role letter, then
                // a file or rank in parentheses, then more of the move.
                if b == b'(' && buf.len() == 1 && is_role_letter(buf[0]) {
                    let inner = self.peek(1)?;
                    if inner.is_some_and(|c| matches!(c, b'a'..=b'h' | b'1'..=b'8'))
                        && self.peek(2)? == Some(b')')
                    {
                        for _ in 0..3 {
                            buf.extend(self.peek(0)?);
                            self.bump()?;
                        }
                        continue;
                    }
                }
                // An exchange that lost its `(` in the record (`N-B)B*d6`,
                // as in one of the inventor's games): `)` after `X-Y` closes
                // no variation, since nothing else is spelled that way.
                if b == b')'
                    && buf.len() == 3
                    && buf[1] == b'-'
                    && buf.iter().step_by(2).all(|&c| is_role_letter(c))
                {
                    buf.push(b);
                    self.bump()?;
                    continue;
                }
                break;
            }
            if b == b'.' && !buf.is_empty() && buf.iter().all(u8::is_ascii_digit) {
                // A move number glued to its move: `12.e4` or `12...e5`.
                while self.peek(0)? == Some(b'.') {
                    buf.push(b'.');
                    self.bump()?;
                    self.check_symbol(&buf, loc)?;
                }
                break;
            }
            buf.push(b);
            self.bump()?;
            self.check_symbol(&buf, loc)?;
        }
        if buf.is_empty() {
            return self.err(loc, PgnErrorKind::Syntax(Syntax::UnexpectedChar));
        }
        Ok(Token::Symbol(String::from_utf8_lossy(&buf).into_owned()))
    }

    fn check_symbol(&self, buf: &[u8], loc: Loc) -> Lexed<()> {
        if buf.len() > self.limits.max_symbol_len {
            return self.err(loc, PgnErrorKind::Limit(Limit::SymbolLength));
        }
        Ok(())
    }

    fn skip_blank(&mut self) -> Lexed<()> {
        while self.peek(0)?.is_some_and(|b| b == b' ' || b == b'\t') {
            self.bump()?;
        }
        Ok(())
    }

    fn tag(&mut self, loc: Loc) -> Lexed<Token> {
        let bad = |lexer: &Self| lexer.err(loc, PgnErrorKind::Syntax(Syntax::InvalidTag));
        self.bump()?;
        self.skip_blank()?;
        let mut name = Vec::new();
        while let Some(b) = self.peek(0)? {
            if !(b.is_ascii_alphanumeric() || b == b'_') {
                break;
            }
            name.push(b);
            self.bump()?;
            self.check_symbol(&name, loc)?;
        }
        self.skip_blank()?;
        if name.is_empty() || self.peek(0)? != Some(b'"') {
            return bad(self);
        }
        self.bump()?;
        let mut value = Vec::new();
        loop {
            match self.peek(0)? {
                None | Some(b'\n' | b'\r') => return bad(self),
                Some(b'"') => {
                    self.bump()?;
                    break;
                }
                Some(b'\\') => {
                    self.bump()?;
                    match self.peek(0)? {
                        Some(c @ (b'"' | b'\\')) => {
                            value.push(c);
                            self.bump()?;
                        }
                        _ => value.push(b'\\'),
                    }
                }
                Some(c) => {
                    value.push(c);
                    self.bump()?;
                }
            }
            if value.len() > self.limits.max_tag_value_len {
                return self.err(loc, PgnErrorKind::Limit(Limit::TagValueLength));
            }
        }
        self.skip_blank()?;
        if self.peek(0)? != Some(b']') {
            return bad(self);
        }
        self.bump()?;
        Ok(Token::Tag {
            name: String::from_utf8_lossy(&name).into_owned(),
            value: String::from_utf8_lossy(&value).into_owned(),
        })
    }
}
