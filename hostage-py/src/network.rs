//! The network of `hostage.engine.Engine` (`network=` of its constructor):
//! the weights embedded in the engine (the default), none (the
//! hand-written evaluation), or a network file given as bytes or a path,
//! read at run time as the WebAssembly build reads the package's
//! `nnue.bin`. A file that is not a network raises `NetworkError` with the
//! engine's stable code (`nnue_magic`, `nnue_shape`, `nnue_length`).

use std::{io::Read, path::PathBuf};

use hostage_engine::nnue::{NetworkError as CoreNetworkError, FILE_LEN};
use pyo3::{exceptions::PyOSError, prelude::*};

use crate::{engine::PyEngine, errors::error};

pyo3::create_exception!(
    hostage,
    NetworkError,
    crate::errors::HostageError,
    "Bytes that are not a network file of this engine's shape (code nnue_magic, nnue_shape or nnue_length)."
);

fn network_error(e: &CoreNetworkError) -> PyErr {
    error::<NetworkError>(e.code(), e.to_string())
}

#[pymethods]
impl PyEngine {
    /// Evaluates the full-strength search with the network file `data`
    /// (the levels keep the hand-written evaluation); on an error the
    /// engine is left as it was.
    fn load_network(&self, data: &[u8]) -> PyResult<()> {
        self.lock()
            .load_network(data)
            .map_err(|e| network_error(&e))
    }

    /// The same from the file at `path`, of which at most one byte more
    /// than a network file is read (a longer file is refused by its
    /// length; a path such as `/dev/zero` cannot fill the memory).
    fn load_network_file(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let bytes = py
            .detach(|| {
                let mut bytes = Vec::new();
                std::fs::File::open(&path)?
                    .take(FILE_LEN as u64 + 1)
                    .read_to_end(&mut bytes)
                    .map(|_| bytes)
            })
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        self.load_network(&bytes)
    }

    /// Evaluates with a network (`True`: the one loaded, else the embedded
    /// one) or by hand (`False`).
    fn set_nnue(&self, on: bool) {
        self.lock().set_nnue(on);
    }

    /// Whether the full-strength search evaluates with a network.
    #[getter]
    fn uses_network(&self) -> bool {
        self.lock().uses_network()
    }
}

/// Adds `NetworkError` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let ty = m.py().get_type::<NetworkError>();
    ty.setattr("code", "")?;
    m.add("NetworkError", ty)
}
