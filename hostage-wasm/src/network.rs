//! The engine's network in JavaScript: the bytes that `engine.loadNetwork`
//! and the `network` option of `new Engine()` take (`engine.rs`), read
//! into the engine, and the `NetworkError` a bad file throws.
//!
//! The WebAssembly module embeds no network (it would add its 366 KB to
//! every page that imports the engine, the bots included): the weights ship
//! beside it as `nnue.bin`, the file `hostage-engine/data/nnue.bin` that the
//! native engine embeds, and a page hands their bytes to the engine once
//! they are fetched (`fetchNetwork()` of `hostage-chess/network` fetches
//! and caches them). With them the full-strength search (`analyse`,
//! `review`) evaluates as natively, node for node; the bots keep the
//! hand-written evaluation either way.

use hostage_engine::nnue::NetworkError;
use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{type_error, Throw};

impl Throw for NetworkError {
    fn throw(&self) -> JsValue {
        let e = js_sys::Error::new(&self.to_string());
        e.set_name("NetworkError");
        let _ = Reflect::set(&e, &"code".into(), &self.code().into());
        e.into()
    }
}

/// The bytes of a `Uint8Array` (a Node.js `Buffer` is one) or an
/// `ArrayBuffer`.
fn bytes_arg(value: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(view) = value.dyn_ref::<Uint8Array>() {
        Ok(view.to_vec())
    } else if let Some(buffer) = value.dyn_ref::<ArrayBuffer>() {
        Ok(Uint8Array::new(buffer).to_vec())
    } else {
        Err(type_error(
            "the network must be a Uint8Array or an ArrayBuffer (the bytes of nnue.bin)",
        ))
    }
}

/// Loads the network `bytes` into `engine` (`null` or `undefined`: back to
/// the hand-written evaluation).
pub(crate) fn load(engine: &mut hostage_engine::Engine, bytes: &JsValue) -> Result<(), JsValue> {
    if bytes.is_null() || bytes.is_undefined() {
        engine.set_network(None);
        engine.set_nnue(false);
        return Ok(());
    }
    engine
        .load_network(&bytes_arg(bytes)?)
        .map_err(|e| e.throw())
}
