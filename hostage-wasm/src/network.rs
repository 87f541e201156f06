//! The engine's network in JavaScript: `engine.loadNetwork(bytes)`, the
//! `network` option of `new Engine()` and `engine.usesNetwork`.
//!
//! The WebAssembly module embeds no network (it would add its 366 KB to
//! every page that imports the engine, the bots included): the weights ship
//! beside it as `nnue.bin`, the file `hostage-engine/data/nnue.bin` that the
//! native engine embeds, and a page hands their bytes to the engine once
//! they are fetched (`fetchNetwork()` of `hostage-chess/worker` fetches
//! and caches them). With them the full-strength search (`analyse`,
//! `review`) evaluates as natively, node for node; the bots keep the
//! hand-written evaluation either way.

use hostage_engine::nnue::NetworkError;
use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use wasm_bindgen::{prelude::*, JsCast};

use crate::{
    engine::JsEngine,
    errors::{type_error, Throw},
};

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

#[wasm_bindgen(js_class = Engine)]
impl JsEngine {
    /// Evaluates the full-strength search (`analyse`, `review`) with the
    /// network of `bytes`, the contents of the package's `nnue.bin`
    /// (`null`: the hand-written evaluation again). Throws a
    /// `NetworkError` (code `nnue_magic`, `nnue_shape` or `nnue_length`)
    /// for bytes that are not such a file, a truncated one included, and
    /// then leaves the engine as it was. The bots keep the hand-written
    /// evaluation.
    #[wasm_bindgen(js_name = loadNetwork)]
    pub fn load_network(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | null")] bytes: &JsValue,
    ) -> Result<(), JsValue> {
        load(&mut self.engine, bytes)
    }

    /// Whether the full-strength search evaluates with a network (one was
    /// loaded).
    #[wasm_bindgen(getter, js_name = usesNetwork)]
    pub fn uses_network(&self) -> bool {
        self.engine.uses_network()
    }
}
