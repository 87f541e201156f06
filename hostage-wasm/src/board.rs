//! `Board` (`JsBoard` here): a [`Game`] with chess.js-style push and pop,
//! the main class of the package's rules module. Its analysis queries
//! (attacks, pins, text diagrams, editing) are in [`crate::query`], its
//! drawing in [`crate::svg`]. Each method converts its arguments, makes one
//! call into `hostage-core` and converts the result or the error. The rules
//! module's free functions (`isValidFen`, `isHostageError`, `version`) are
//! here too.

use hostage_core::{
    game::Game,
    pgn::{EndReason, PgnGame, PgnResult, ResultError},
    CastlingSide, Move, Position,
};
use js_sys::{Array, Map, Object};
use wasm_bindgen::prelude::*;

use crate::{
    convert::{self, by_color, move_arg, set, square_arg, string_arg, MoveArg, MoveObjects},
    errors::{type_error, Throw},
    svg,
};

/// A game of Hostage Chess in progress: a start position, the moves
/// played, and the current position.
#[wasm_bindgen(js_name = Board)]
#[derive(Clone)]
pub struct JsBoard {
    pub(crate) game: Game,
}

impl JsBoard {
    pub(crate) fn pos(&self) -> &Position {
        self.game.position()
    }

    /// The legal move named by a `Move | string` argument.
    pub(crate) fn parse(&self, value: &JsValue) -> Result<Move, JsValue> {
        match move_arg(value)? {
            MoveArg::Text(text) => self.pos().parse_move(&text).map_err(|e| e.throw()),
            MoveArg::Uci(text) => self.pos().parse_uci(&text).map_err(|e| e.throw()),
        }
    }

    /// Plays a legal move and returns its move object.
    fn play(&mut self, m: Move) -> Result<JsValue, JsValue> {
        let obj = convert::move_object(self.pos(), &m);
        self.game.push(m).map_err(|e| e.throw())?;
        Ok(obj)
    }
}

#[wasm_bindgen(js_class = Board)]
impl JsBoard {
    /// A board at the Hostage FEN `fen`, or at the start position.
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<js_sys::JsString>) -> Result<JsBoard, JsValue> {
        let pos = match fen {
            None => Position::new(),
            Some(fen) => {
                let text = string_arg(&fen, "fen")?;
                Position::from_fen(&text).map_err(|e| e.throw())?
            }
        };
        Ok(JsBoard {
            game: Game::from_position(pos),
        })
    }

    /// A board replaying the main line of the first game of a PGN text.
    #[wasm_bindgen(js_name = fromPgn)]
    pub fn from_pgn(
        #[wasm_bindgen(unchecked_param_type = "string")] pgn: &JsValue,
    ) -> Result<JsBoard, JsValue> {
        let text = string_arg(pgn, "pgn")?;
        let record = PgnGame::read(&text).map_err(|e| e.throw())?;
        Ok(JsBoard {
            game: record.mainline_game(),
        })
    }

    /// The tags of the first game of a PGN text, and its end as
    /// `board.pgn(tags, end)` takes it: `end.result` is the record's result
    /// and `end.reason` the off-board reason its `Termination` tag gives
    /// (`Normal` with a decisive result is a resignation, with a draw an
    /// agreement), left out when there is none or the board ended the game.
    /// So `Board.fromPgn(t).pgn(headers, end)` writes the game again.
    #[wasm_bindgen(js_name = pgnTags, unchecked_return_type = "PgnTags")]
    pub fn pgn_tags(
        #[wasm_bindgen(unchecked_param_type = "string")] pgn: &JsValue,
    ) -> Result<Object, JsValue> {
        let text = string_arg(pgn, "pgn")?;
        let record = PgnGame::read(&text).map_err(|e| e.throw())?;
        let headers = Object::new();
        for (name, value) in record.tags() {
            set(&headers, name, value.as_str());
        }
        let end = Object::new();
        set(&end, "result", record.result.as_str());
        if let Some(reason) = record.end_reason() {
            set(&end, "reason", reason.name());
        }
        let tags = Object::new();
        set(&tags, "headers", headers);
        set(&tags, "end", end);
        Ok(tags)
    }

    /// Replaces the game with the position of `fen` and no history
    /// (chess.js's `load`); on error the board is unchanged.
    pub fn load(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] fen: &JsValue,
    ) -> Result<(), JsValue> {
        let text = string_arg(fen, "fen")?;
        let pos = Position::from_fen(&text).map_err(|e| e.throw())?;
        self.game = Game::from_position(pos);
        Ok(())
    }

    /// Back to the start position with no history (chess.js's `reset`).
    pub fn reset(&mut self) {
        self.game = Game::new();
    }

    /// A copy of this board, history included.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> JsBoard {
        self.clone()
    }

    /// The canonical Hostage FEN of the current position.
    pub fn fen(&self) -> String {
        self.pos().fen()
    }

    /// The Hostage FEN of the start position.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.game.start().fen()
    }

    /// The side to move: `'w'` or `'b'`.
    #[wasm_bindgen(unchecked_return_type = "Color")]
    pub fn turn(&self) -> JsValue {
        convert::color(self.pos().turn())
    }

    /// The man on `square` (`'e4'`), or `null`.
    #[wasm_bindgen(js_name = pieceAt, unchecked_return_type = "Piece | null")]
    pub fn piece_at(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] square: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let sq = square_arg(square)?;
        Ok(convert::piece_or_null(self.pos().board().piece_at(sq)))
    }

    /// Every man on the board, a1 to h8: `{ square, color, role }`.
    #[wasm_bindgen(unchecked_return_type = "PlacedPiece[]")]
    pub fn pieces(&self) -> Array {
        self.pos()
            .board()
            .iter()
            .map(|(sq, p)| {
                let obj = convert::piece(p);
                set(&obj, "square", sq.to_string());
                JsValue::from(obj)
            })
            .collect()
    }

    /// Both prisons by owner: `prisons().w` is White's prison, which holds
    /// black men (R2).
    #[wasm_bindgen(unchecked_return_type = "ByColor<Reserve>")]
    pub fn prisons(&self) -> Object {
        by_color(|c| convert::reserve(self.pos().prison(c)).into())
    }

    /// Both airfields by owner: `airfields().w` holds White's own men (R3).
    #[wasm_bindgen(unchecked_return_type = "ByColor<Reserve>")]
    pub fn airfields(&self) -> Object {
        by_color(|c| convert::reserve(self.pos().airfield(c)).into())
    }

    /// The castling rights in force (R9), as in the FEN's K/Q/k/q.
    #[wasm_bindgen(unchecked_return_type = "ByColor<CastlingRights>")]
    pub fn castling(&self) -> Object {
        by_color(|c| {
            let obj = Object::new();
            set(
                &obj,
                "kingSide",
                self.pos().has_castling_right(c, CastlingSide::KingSide),
            );
            set(
                &obj,
                "queenSide",
                self.pos().has_castling_right(c, CastlingSide::QueenSide),
            );
            set(&obj, "kingUnmoved", self.pos().king_unmoved(c));
            obj.into()
        })
    }

    /// The square behind a pawn that can be taken en passant right now, or `null`.
    #[wasm_bindgen(js_name = epSquare, unchecked_return_type = "Square | null")]
    pub fn ep_square(&self) -> JsValue {
        convert::square(self.pos().ep_square())
    }

    /// Plies since the last capture, pawn move or pawn drop (R12).
    #[wasm_bindgen(js_name = halfmoveClock)]
    pub fn halfmove_clock(&self) -> u32 {
        self.game.halfmove_clock()
    }

    /// The move number, starting at 1 and growing after Black moves.
    #[wasm_bindgen(js_name = fullmoveNumber)]
    pub fn fullmove_number(&self) -> u32 {
        self.pos().fullmoves().get()
    }

    /// The number of moves played on this board.
    pub fn ply(&self) -> usize {
        self.game.ply()
    }

    /// Every legal move: board moves, airfield drops and exchanges.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "Move[]")]
    pub fn legal_moves(&self) -> Array {
        let pos = self.pos();
        let moves = pos.legal_moves();
        let mut objects = MoveObjects::with_capacity(moves.len());
        for m in &moves {
            objects.push(pos, m);
        }
        objects.finish()
    }

    /// Plays a move given as a move object, SAN or long form; returns its
    /// move object. Throws, leaving the board unchanged, if it is not legal.
    #[wasm_bindgen(unchecked_return_type = "Move")]
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let m = self.parse(mv)?;
        self.play(m)
    }

    /// Plays a move given in SAN (lenient reading, see docs/notation.md).
    #[wasm_bindgen(js_name = pushSan, unchecked_return_type = "Move")]
    pub fn push_san(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] san: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = string_arg(san, "san")?;
        let m = self.pos().parse_san(&text).map_err(|e| e.throw())?;
        self.play(m)
    }

    /// Plays a move given in long form (`e2e4`, `N@c7`, `N#B@c7`).
    #[wasm_bindgen(js_name = pushUci, unchecked_return_type = "Move")]
    pub fn push_uci(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] uci: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = string_arg(uci, "uci")?;
        let m = self.pos().parse_uci(&text).map_err(|e| e.throw())?;
        self.play(m)
    }

    /// Plays a list of moves written as text: SAN or long form separated by
    /// spaces, with move numbers, comments, the inventor's `O O` and a final
    /// result allowed (the core's move-text layer, as the CLI and PGN read
    /// lists). All or nothing: on error the board is unchanged and the
    /// error's `ply` is the failing move's place in the list, from 1.
    /// Returns the number of moves played.
    #[wasm_bindgen(js_name = pushMoves)]
    pub fn push_moves(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] moves: &JsValue,
    ) -> Result<usize, JsValue> {
        let text = string_arg(moves, "moves")?;
        self.game.push_move_text(&text).map_err(|e| e.throw())
    }

    /// Takes back the last move and returns it, or `null` at the start.
    #[wasm_bindgen(unchecked_return_type = "Move | null")]
    pub fn pop(&mut self) -> JsValue {
        match self.game.pop() {
            Some(m) => convert::move_object(self.pos(), &m),
            None => JsValue::NULL,
        }
    }

    /// The moves played, in SAN.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn history(&self) -> Array {
        self.game
            .san_moves()
            .into_iter()
            .map(JsValue::from)
            .collect()
    }

    /// The moves played, as move objects.
    #[wasm_bindgen(js_name = historyMoves, unchecked_return_type = "Move[]")]
    pub fn history_moves(&self) -> Array {
        let moves = self.game.moves();
        let mut objects = MoveObjects::with_capacity(moves.len());
        for (m, pos) in moves.iter().zip(self.game.positions()) {
            objects.push(pos, m);
        }
        objects.finish()
    }

    /// Whether a move (object, SAN or long form) is legal here. Text that
    /// names no legal move gives `false`; a non-string, non-move throws.
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        move_arg(mv)?;
        Ok(self.parse(mv).is_ok())
    }

    /// Whether the side to move is in check (frozen pawns never check, R8).
    #[wasm_bindgen(js_name = isCheck)]
    pub fn is_check(&self) -> bool {
        self.pos().is_check()
    }

    /// Whether the king to move is attacked only by frozen pawns (R8a).
    #[wasm_bindgen(js_name = isPseudoCheck)]
    pub fn is_pseudo_check(&self) -> bool {
        self.pos().is_pseudo_check()
    }

    /// Whether the side to move is checkmated (R11).
    #[wasm_bindgen(js_name = isCheckmate)]
    pub fn is_checkmate(&self) -> bool {
        self.pos().is_checkmate()
    }

    /// Whether the side to move is stalemated (R12).
    #[wasm_bindgen(js_name = isStalemate)]
    pub fn is_stalemate(&self) -> bool {
        self.pos().is_stalemate()
    }

    /// Whether the game has ended (`outcome() !== null`).
    #[wasm_bindgen(js_name = isGameOver)]
    pub fn is_game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// How the game has ended, history included (R11, R12), or `null`.
    #[wasm_bindgen(unchecked_return_type = "Outcome | null")]
    pub fn outcome(&self) -> JsValue {
        match self.game.outcome() {
            None => JsValue::NULL,
            Some(o) => {
                let obj = Object::new();
                set(&obj, "termination", o.termination.name());
                set(
                    &obj,
                    "winner",
                    o.winner.map_or(JsValue::NULL, convert::color),
                );
                obj.into()
            }
        }
    }

    /// How many times the current position has occurred (R12).
    #[wasm_bindgen(js_name = repetitionCount)]
    pub fn repetition_count(&self) -> u32 {
        self.game.repetition_count()
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: JsValue) -> Result<f64, JsValue> {
        let d = depth
            .as_f64()
            .filter(|d| d.fract() == 0.0 && (0.0..=64.0).contains(d))
            .ok_or_else(|| type_error("depth must be an integer from 0 to 64"))?;
        // Counts stay far below 2^53 at any depth that finishes.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        Ok(hostage_core::perft(self.pos(), d as u32) as f64)
    }

    /// The Zobrist hash of the current position, as R12 compares positions.
    pub fn hash(&self) -> u64 {
        self.pos().zobrist_hash()
    }

    /// The game as PGN (canonical form), with optional extra tags (a
    /// `Result` tag is recorded as `end.result` is) and a result decided
    /// off the board: `end.reason` (`'resignation'`, `'time_forfeit'`,
    /// `'agreement'`, `'abandonment'`, written as the `Termination` tag)
    /// with `end.result` (default: the board's, or the `Result` tag's).
    /// Throws a `ResultError` when the result contradicts the board's own
    /// outcome or does not fit the reason.
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn pgn(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string> | null")]
        tags: Option<Object>,
        #[wasm_bindgen(unchecked_optional_param_type = "PgnEnd | null")] end: Option<Object>,
    ) -> Result<String, JsValue> {
        let mut record = PgnGame::from_game(&self.game);
        let result_arg = |value: &JsValue, what: &str| -> Result<PgnResult, JsValue> {
            string_arg(value, what)?
                .parse()
                .map_err(|e: ResultError| e.throw())
        };
        if let Some(tags) = tags {
            for entry in Object::entries(&tags).iter() {
                let pair = Array::from(&entry);
                let name = string_arg(&pair.get(0), "tag name")?;
                if name == "Result" {
                    let result = result_arg(&pair.get(1), "tag value")?;
                    record.set_result(result, None).map_err(|e| e.throw())?;
                } else {
                    record.set_tag(&name, &string_arg(&pair.get(1), "tag value")?);
                }
            }
        }
        if let Some(end) = end {
            let field = |key: &str| {
                js_sys::Reflect::get(&end, &key.into())
                    .ok()
                    .filter(|v| !v.is_undefined() && !v.is_null())
            };
            let result = match field("result") {
                Some(v) => result_arg(&v, "end.result")?,
                None => record.result,
            };
            let reason = match field("reason") {
                Some(v) => Some(
                    string_arg(&v, "end.reason")?
                        .parse::<EndReason>()
                        .map_err(|e| e.throw())?,
                ),
                None => None,
            };
            record.set_result(result, reason).map_err(|e| e.throw())?;
        }
        Ok(record.write())
    }

    /// Legal destinations of board moves per start square (castling as the
    /// king's two-square move), for drag-and-drop ([`Position::dests`]).
    #[wasm_bindgen(unchecked_return_type = "Map<Square, Square[]>")]
    pub fn dests(&self) -> Map {
        let map = Map::new();
        for (from, to) in self.pos().dests().board {
            map.set(&from.to_string().into(), &convert::squares(to));
        }
        map
    }

    /// Legal squares per airfield role of the side to move: `{ knight: ['a3', ...] }`.
    #[wasm_bindgen(js_name = dropDests, unchecked_return_type = "Partial<Record<Role, Square[]>>")]
    pub fn drop_dests(&self) -> Object {
        let obj = Object::new();
        for (role, to) in self.pos().dests().drops {
            set(&obj, role.name(), convert::squares(to));
        }
        obj
    }

    /// Legal squares per exchange pair: `[{ released, rescued, to: [...] }]`.
    #[wasm_bindgen(js_name = exchangeDests, unchecked_return_type = "ExchangeDests[]")]
    pub fn exchange_dests(&self) -> Array {
        let out = Array::new();
        for (released, rescued, to) in self.pos().dests().exchanges {
            let obj = Object::new();
            set(&obj, "released", released.name());
            set(&obj, "rescued", rescued.name());
            set(&obj, "to", convert::squares(to));
            out.push(&obj);
        }
        out
    }

    /// The square of the king to move if it is in check, else `null`.
    #[wasm_bindgen(js_name = checkSquare, unchecked_return_type = "Square | null")]
    pub fn check_square(&self) -> JsValue {
        let pos = self.pos();
        convert::square(pos.is_check().then(|| pos.king_of(pos.turn())))
    }

    /// The square of the king to move if it is in pseudo-check (R8a), else `null`.
    #[wasm_bindgen(js_name = pseudoCheckSquare, unchecked_return_type = "Square | null")]
    pub fn pseudo_check_square(&self) -> JsValue {
        let pos = self.pos();
        convert::square(pos.is_pseudo_check().then(|| pos.king_of(pos.turn())))
    }

    /// The squares of the men giving check.
    #[wasm_bindgen(unchecked_return_type = "Square[]")]
    pub fn checkers(&self) -> Array {
        convert::squares(self.pos().checkers())
    }

    /// The squares of the frozen pawns that would give check if unfrozen (R8a).
    #[wasm_bindgen(js_name = pseudoCheckers, unchecked_return_type = "Square[]")]
    pub fn pseudo_checkers(&self) -> Array {
        convert::squares(self.pos().pseudo_checkers())
    }

    /// The current position as a self-contained SVG image, with both
    /// prisons and airfields (see `SvgOptions`; `lastMove: true` highlights
    /// the last move played on this board).
    pub fn svg(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SvgOptions")] options: Option<Object>,
    ) -> Result<String, JsValue> {
        let value = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let options = svg::options(&value, self.game.moves().last().copied())?;
        Ok(hostage_core::svg::board(self.pos(), &options))
    }
}

/// The version of this package (the workspace version).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// Whether `fen` is a legal Hostage FEN (no exception).
#[wasm_bindgen(js_name = isValidFen)]
pub fn is_valid_fen(#[wasm_bindgen(unchecked_param_type = "string")] fen: &JsValue) -> bool {
    fen.as_string()
        .is_some_and(|f| Position::from_fen(&f).is_ok())
}

/// Whether a caught value is an error thrown by this package: an `Error`
/// with a string `code`.
#[wasm_bindgen(js_name = isHostageError, unchecked_return_type = "e is HostageError")]
pub fn is_hostage_error(#[wasm_bindgen(unchecked_param_type = "unknown")] e: &JsValue) -> bool {
    e.is_instance_of::<js_sys::Error>()
        && js_sys::Reflect::get(e, &"code".into()).is_ok_and(|c| c.is_string())
}
