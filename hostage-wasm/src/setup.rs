//! `Setup`: an editable position that need not be legal (the core's
//! [`Setup`]), for a board editor: chess.js's `put`/`remove`/`clear` and
//! reserve contents, validated when it becomes a `Board` again
//! (`Board.fromSetup`, `toBoard`), as chessops's `Setup`/`fromSetup`.

use hostage_core::{fen::Fen, Setup};
use js_sys::Object;
use wasm_bindgen::prelude::*;

use crate::{
    board::JsBoard,
    convert::{self, by_color, color_arg, piece_arg, reserve_arg, square_arg, string_arg},
    errors::Throw,
};

/// A position that may be illegal, for editing.
#[wasm_bindgen(js_name = Setup)]
#[derive(Clone)]
pub struct JsSetup(pub(crate) Setup);

#[wasm_bindgen(js_class = Setup)]
impl JsSetup {
    /// The setup of a Hostage FEN (read, not validated: a `FenError` only
    /// for malformed text), or the start position.
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<js_sys::JsString>) -> Result<JsSetup, JsValue> {
        match fen {
            None => Ok(JsSetup(Setup::start())),
            Some(fen) => {
                let text = string_arg(&fen, "fen")?;
                Fen::from_ascii(text.as_bytes())
                    .map(|f| JsSetup(f.into_setup()))
                    .map_err(|e| e.throw())
            }
        }
    }

    /// An empty board and reserves, White to move.
    pub fn empty() -> JsSetup {
        JsSetup(Setup::empty())
    }

    /// The Hostage FEN, written even when the setup is not legal.
    pub fn fen(&self) -> String {
        Fen(self.0.clone()).to_string()
    }

    /// The man on `square`, or `null` (chess.js's `get`).
    #[wasm_bindgen(unchecked_return_type = "Piece | null")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let sq = square_arg(square)?;
        Ok(convert::piece_or_null(self.0.board.piece_at(sq)))
    }

    /// Puts `piece` on `square`, replacing what stood there (chess.js's `put`).
    pub fn put(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Piece")] piece: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
    ) -> Result<(), JsValue> {
        let (p, sq) = (piece_arg(piece)?, square_arg(square)?);
        self.0.board.set_piece_at(sq, p);
        Ok(())
    }

    /// Empties `square`; returns the man that stood there, or `null`.
    #[wasm_bindgen(unchecked_return_type = "Piece | null")]
    pub fn remove(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Square")] square: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let sq = square_arg(square)?;
        Ok(convert::piece_or_null(self.0.board.remove_piece_at(sq)))
    }

    /// Empties the board and the reserves; White to move, clocks `0 1`.
    pub fn clear(&mut self) {
        self.0 = Setup::empty();
    }

    /// Both prisons, keyed by owner.
    #[wasm_bindgen(unchecked_return_type = "ByColor<Reserve>")]
    pub fn prisons(&self) -> Object {
        by_color(|c| convert::reserve(self.0.prison(c)).into())
    }

    /// Both airfields, keyed by owner.
    #[wasm_bindgen(unchecked_return_type = "ByColor<Reserve>")]
    pub fn airfields(&self) -> Object {
        by_color(|c| convert::reserve(self.0.airfield(c)).into())
    }

    /// Replaces `color`'s prison with `reserve` (missing roles: 0).
    #[wasm_bindgen(js_name = setPrison)]
    pub fn set_prison(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Color")] color: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Partial<Reserve>")] reserve: &JsValue,
    ) -> Result<(), JsValue> {
        let (c, r) = (color_arg(color)?, reserve_arg(reserve)?);
        *self.0.prisons.get_mut(c) = r;
        Ok(())
    }

    /// Replaces `color`'s airfield with `reserve` (missing roles: 0).
    #[wasm_bindgen(js_name = setAirfield)]
    pub fn set_airfield(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Color")] color: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Partial<Reserve>")] reserve: &JsValue,
    ) -> Result<(), JsValue> {
        let (c, r) = (color_arg(color)?, reserve_arg(reserve)?);
        *self.0.airfields.get_mut(c) = r;
        Ok(())
    }

    /// The side to move.
    #[wasm_bindgen(unchecked_return_type = "Color")]
    pub fn turn(&self) -> JsValue {
        convert::color(self.0.turn)
    }

    /// Sets the side to move.
    #[wasm_bindgen(js_name = setTurn)]
    pub fn set_turn(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Color")] color: &JsValue,
    ) -> Result<(), JsValue> {
        self.0.turn = color_arg(color)?;
        Ok(())
    }

    /// Drops castling state the board no longer supports (a king off its
    /// square, a corner without its rook).
    #[wasm_bindgen(js_name = cleanCastlingRights)]
    pub fn clean_castling_rights(&mut self) {
        self.0.clean_castling_rights();
    }

    /// The colour-swapped mirror image.
    pub fn mirror(&self) -> JsSetup {
        JsSetup(self.0.mirror())
    }

    /// `null` for a legal position, else the `PositionError` code.
    #[wasm_bindgen(unchecked_return_type = "ErrorCode | null")]
    pub fn status(&self) -> JsValue {
        self.0
            .validate()
            .err()
            .map_or(JsValue::NULL, |e| e.code().into())
    }

    /// Whether the setup is a legal position.
    #[wasm_bindgen(js_name = isValid)]
    pub fn is_valid(&self) -> bool {
        self.0.validate().is_ok()
    }

    /// The position as a `Board` (`Board.fromSetup(this)`).
    #[wasm_bindgen(js_name = toBoard)]
    pub fn to_board(&self) -> Result<JsBoard, JsValue> {
        JsBoard::from_setup(self)
    }

    /// A copy.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> JsSetup {
        self.clone()
    }

    /// Whether both setups are the same (board, reserves, turn, castling
    /// state, en passant, clocks).
    pub fn equals(&self, other: &JsSetup) -> bool {
        self.0 == other.0
    }
}
