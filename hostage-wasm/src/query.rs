//! The `Board` methods of python-chess and chess.js depth: attacks, pins,
//! frozen pawns, what a move does, the draw questions, text diagrams, LAN and SAN
//! variations, equality and the mirror image. Each converts, makes one core
//! call and converts back.

use hostage_core::{text::TextOptions, uci::UciMove, Color, Game, Move, Piece};
use js_sys::Array;
use wasm_bindgen::prelude::*;

use crate::{
    board::JsBoard,
    convert::{self, color_arg, move_arg, piece_arg, square_arg, MoveArg},
    errors::{type_error, Throw},
    setup::JsSetup,
};

impl JsBoard {
    /// A colour argument, the side to move when it is `undefined`.
    fn color_or_turn(&self, value: Option<JsValue>) -> Result<Color, JsValue> {
        match value {
            Some(v) if !v.is_undefined() && !v.is_null() => color_arg(&v),
            _ => Ok(self.pos().turn()),
        }
    }

    /// A long-form move from a `Move | string` argument (SAN is read in the
    /// position where the move is played, so only long form and move
    /// objects are accepted in a variation).
    fn uci_arg(value: &JsValue) -> Result<UciMove, JsValue> {
        let text = match move_arg(value)? {
            MoveArg::Text(text) | MoveArg::Uci(text) => text,
        };
        UciMove::from_ascii(text.as_bytes()).map_err(|e| e.throw())
    }

    /// The legal move a `Move | string` argument names.
    fn legal(&self, value: &JsValue) -> Result<Move, JsValue> {
        self.parse(value)
    }
}

#[wasm_bindgen(js_class = Board)]
impl JsBoard {
    /// The men of `color` (default: the side to move, as chess.js) that
    /// attack `square` (R8: a frozen pawn attacks nothing on its last rank).
    #[wasm_bindgen(unchecked_return_type = "Square[]")]
    pub fn attackers(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Color")] color: Option<JsValue>,
    ) -> Result<Array, JsValue> {
        let (sq, c) = (square_arg(square)?, self.color_or_turn(color)?);
        Ok(convert::squares(self.pos().attackers_to(sq, c)))
    }

    /// Whether a man of `color` attacks `square` (chess.js's `isAttacked`).
    #[wasm_bindgen(js_name = isAttacked)]
    pub fn is_attacked(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Color")] color: &JsValue,
    ) -> Result<bool, JsValue> {
        let (sq, c) = (square_arg(square)?, color_arg(color)?);
        Ok(self.pos().is_attacked_by(sq, c))
    }

    /// The squares the man on `square` attacks (none for an empty square).
    #[wasm_bindgen(unchecked_return_type = "Square[]")]
    pub fn attacks(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
    ) -> Result<Array, JsValue> {
        Ok(convert::squares(
            self.pos().attacks_from(square_arg(square)?),
        ))
    }

    /// The men of `color` (default: the side to move) pinned to their king.
    #[wasm_bindgen(unchecked_return_type = "Square[]")]
    pub fn pinned(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "Color")] color: Option<JsValue>,
    ) -> Result<Array, JsValue> {
        Ok(convert::squares(
            self.pos().pinned(self.color_or_turn(color)?),
        ))
    }

    /// The frozen pawns (R8: on their 7th rank while the enemy prison
    /// holds no Q/R/B/N of their side): of `color`, or of both sides when
    /// `color` is omitted.
    #[wasm_bindgen(js_name = frozenPawns, unchecked_return_type = "Square[]")]
    pub fn frozen_pawns(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "Color")] color: Option<JsValue>,
    ) -> Result<Array, JsValue> {
        Ok(convert::squares(match color {
            Some(c) if !c.is_undefined() && !c.is_null() => {
                self.pos().frozen_pawns_of(color_arg(&c)?)
            }
            _ => self.pos().frozen_pawns(),
        }))
    }

    /// The line the man on `square` is pinned along (king to pinner, the
    /// whole line), or `null` if it is not pinned.
    #[wasm_bindgen(js_name = pinLine, unchecked_return_type = "Square[] | null")]
    pub fn pin_line(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let sq = square_arg(square)?;
        let Some(color) = self.pos().board().color_at(sq) else {
            return Ok(JsValue::NULL);
        };
        let line = self.pos().pin_mask(color, sq);
        Ok(if line == hostage_core::Bitboard::FULL {
            JsValue::NULL
        } else {
            convert::squares(line).into()
        })
    }

    /// The square of `color`'s king.
    #[wasm_bindgen(unchecked_return_type = "Square")]
    pub fn king(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Color")] color: &JsValue,
    ) -> Result<JsValue, JsValue> {
        Ok(convert::square(
            self.pos().board().king_of(color_arg(color)?),
        ))
    }

    /// The squares of the men `piece` (`{ color, role }`), as chess.js's
    /// `findPiece`.
    #[wasm_bindgen(js_name = findPiece, unchecked_return_type = "Square[]")]
    pub fn find_piece(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Piece")] piece: &JsValue,
    ) -> Result<Array, JsValue> {
        let Piece { color, role } = piece_arg(piece)?;
        Ok(convert::squares(self.pos().pieces(role, color)))
    }

    /// Whether the legal move gives check.
    #[wasm_bindgen(js_name = givesCheck)]
    pub fn gives_check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.pos().gives_check(&self.legal(mv)?))
    }

    /// Whether the legal move captures (en passant included).
    #[wasm_bindgen(js_name = isCapture)]
    pub fn is_capture(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.legal(mv)?.is_capture())
    }

    /// Whether the legal move resets the fifty-move count (R12).
    #[wasm_bindgen(js_name = isZeroing)]
    pub fn is_zeroing(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.pos().is_zeroing(&self.legal(mv)?))
    }

    /// Whether no earlier position can recur after the legal move: a king's
    /// move while its side has a castling right.
    #[wasm_bindgen(js_name = isIrreversible)]
    pub fn is_irreversible(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.pos().is_irreversible(&self.legal(mv)?))
    }

    /// Whether the legal move is an en-passant capture.
    #[wasm_bindgen(js_name = isEnPassant)]
    pub fn is_en_passant(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.legal(mv)?.is_en_passant())
    }

    /// Whether the legal move is castling.
    #[wasm_bindgen(js_name = isCastling)]
    pub fn is_castling(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.legal(mv)?.is_castling())
    }

    /// Whether the legal move puts a man on the board from outside it (an
    /// airfield drop or the drop of an exchange).
    #[wasm_bindgen(js_name = isDrop)]
    pub fn is_drop(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.legal(mv)?.is_drop())
    }

    /// Whether the legal move is an exchange (R5).
    #[wasm_bindgen(js_name = isExchange)]
    pub fn is_exchange(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.legal(mv)?.is_exchange())
    }

    /// Whether the position has occurred three times (R12's automatic draw).
    #[wasm_bindgen(js_name = isThreefoldRepetition)]
    pub fn is_threefold_repetition(&self) -> bool {
        self.game.is_threefold_repetition()
    }

    /// Whether 100 plies passed without capture, pawn move or pawn drop
    /// (R12's automatic draw).
    #[wasm_bindgen(js_name = isDrawByFiftyMoves)]
    pub fn is_draw_by_fifty_moves(&self) -> bool {
        self.game.is_fifty_moves()
    }

    /// Whether the game ended in a draw (stalemate, repetition, perpetual
    /// check or the fifty-move rule; all automatic, R12).
    #[wasm_bindgen(js_name = isDraw)]
    pub fn is_draw(&self) -> bool {
        self.game.outcome().is_some_and(|o| o.winner.is_none())
    }

    /// The piece placement field of the FEN, without the reserves.
    #[wasm_bindgen(js_name = boardFen)]
    pub fn board_fen(&self) -> String {
        self.pos().board_fen()
    }

    /// The board framed as chess.js's `ascii()`, then the four reserves.
    pub fn ascii(&self) -> String {
        let mut options = TextOptions::default();
        options.borders = true;
        self.pos().text(&options)
    }

    /// The board in figurines (`·` for empty squares), then the reserves.
    pub fn unicode(&self) -> String {
        let mut options = TextOptions::default();
        (options.unicode, options.empty_square) = (true, '·');
        self.pos().text(&options)
    }

    /// The board in letters (`.` empty), then the reserves: what
    /// `String(board)` and template literals show.
    #[wasm_bindgen(js_name = toString)]
    pub fn to_text(&self) -> String {
        self.pos().text(&TextOptions::default())
    }

    /// Long algebraic notation of a legal move (`Ng1-f3`, `e4xd5`, `N*c7`).
    pub fn lan(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Move | string")] mv: &JsValue,
    ) -> Result<String, JsValue> {
        Ok(self.pos().lan(&self.legal(mv)?))
    }

    /// Moves (move objects or long form, played in turn from the current
    /// position) as numbered SAN: `1. e4 e5 2. Nf3`.
    #[wasm_bindgen(js_name = variationSan)]
    pub fn variation_san(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Array<Move | string>")] moves: &JsValue,
    ) -> Result<String, JsValue> {
        if !Array::is_array(moves) {
            return Err(type_error("moves must be an array"));
        }
        let moves: Vec<UciMove> = Array::from(moves)
            .iter()
            .map(|m| JsBoard::uci_arg(&m))
            .collect::<Result<_, _>>()?;
        self.pos().variation_san_uci(&moves).map_err(|e| e.throw())
    }

    /// Whether the current positions are equal (board, reserves, turn,
    /// castling state, en passant, clocks; not the histories).
    pub fn equals(&self, other: &JsBoard) -> bool {
        self.pos() == other.pos()
    }

    /// The colour-swapped mirror image, with no history.
    pub fn mirror(&self) -> JsBoard {
        JsBoard {
            game: Game::from_position(self.pos().mirror()),
        }
    }

    /// Puts `piece` on `square` if the result is a legal position (the
    /// history is cleared) and returns `true`; else returns `false` and
    /// changes nothing, as chess.js's `put`. `Setup` edits freely.
    pub fn put(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Piece")] piece: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
    ) -> Result<bool, JsValue> {
        let (p, sq) = (piece_arg(piece)?, square_arg(square)?);
        Ok(match self.pos().edited(|s| s.board.set_piece_at(sq, p)) {
            Ok(pos) => {
                self.game = Game::from_position(pos);
                true
            }
            Err(_) => false,
        })
    }

    /// Empties `square` and returns the man that stood there (the history
    /// is cleared), or `null` if it was empty; throws a `PositionError`
    /// naming the FEN, changing nothing, if the result is not a legal
    /// position (a king removed).
    #[wasm_bindgen(unchecked_return_type = "Piece | null")]
    pub fn remove(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let sq = square_arg(square)?;
        let Some(piece) = self.pos().board().piece_at(sq) else {
            return Ok(JsValue::NULL);
        };
        let pos = self
            .pos()
            .edited(|s| {
                s.board.remove_piece_at(sq);
            })
            .map_err(|e| e.throw())?;
        self.game = Game::from_position(pos);
        Ok(convert::piece(piece).into())
    }

    /// The current position as an editable `Setup`.
    pub fn setup(&self) -> JsSetup {
        JsSetup(self.pos().to_setup())
    }

    /// A board at the position of `setup` (no history); throws a
    /// `PositionError` naming the FEN if it is not legal.
    #[wasm_bindgen(js_name = fromSetup)]
    pub fn from_setup(setup: &JsSetup) -> Result<JsBoard, JsValue> {
        let pos = hostage_core::fen::Fen(setup.0.clone())
            .into_position()
            .map_err(|e| e.throw())?;
        Ok(JsBoard {
            game: Game::from_position(pos),
        })
    }
}
