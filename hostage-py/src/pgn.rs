//! PGN: `hostage.pgn.Game` (a [`PgnGame`]) and the streaming reader behind
//! `hostage.pgn.read_game` / `read_games`.

use hostage_core::{
    game::Game,
    pgn::{ByteSource, PgnGame, PgnResult, Reader},
};
use pyo3::{
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    types::{PyBytes, PyDict, PyString},
};

use crate::{board::PyBoard, errors::ToPyErr, moves::PyMove};

/// A game record: headers, the start position, the main line and the result.
#[pyclass(name = "Game", module = "hostage.pgn")]
#[derive(Clone)]
pub struct PyPgnGame {
    inner: PgnGame,
}

#[pymethods]
impl PyPgnGame {
    /// An empty record from the standard start position.
    #[new]
    fn new() -> PyPgnGame {
        PyPgnGame {
            inner: PgnGame::default(),
        }
    }

    /// The record of a board: its start position and move stack, and the
    /// result of its outcome (`*` if the game goes on).
    #[staticmethod]
    fn from_board(board: PyRef<'_, PyBoard>) -> PyPgnGame {
        PyPgnGame {
            inner: PgnGame::from_game(&board.game),
        }
    }

    /// The tags (headers), in order, as a new dict.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let headers = PyDict::new(py);
        for (name, value) in self.inner.tags() {
            headers.set_item(name, value)?;
        }
        Ok(headers)
    }

    /// Sets a header (`Result`, `Variant`, `SetUp` and `FEN` are written
    /// from the record itself).
    fn set_header(&mut self, name: &str, value: &str) {
        self.inner.set_tag(name, value);
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    #[getter]
    fn result(&self) -> &'static str {
        self.inner.result.as_str()
    }

    #[setter]
    fn set_result(&mut self, result: &str) -> PyResult<()> {
        self.inner.result = PgnResult::from_token(result).ok_or_else(|| {
            let given = hostage_core::Excerpt::new(result.as_bytes());
            PyValueError::new_err(format!("invalid result {given}"))
        })?;
        Ok(())
    }

    /// A board at the start position.
    fn board(&self) -> PyBoard {
        PyBoard {
            game: Game::from_position(self.inner.start().clone()),
        }
    }

    /// A board with the main line played (its move stack is the main line).
    fn end_board(&self) -> PyBoard {
        PyBoard {
            game: self.inner.mainline_game(),
        }
    }

    /// The moves of the main line.
    fn mainline_moves(&self) -> Vec<PyMove> {
        self.inner
            .mainline_moves()
            .into_iter()
            .map(PyMove::from_core)
            .collect()
    }

    /// The canonical PGN text (also `str(game)`).
    fn write(&self) -> String {
        self.inner.write()
    }

    fn __str__(&self) -> String {
        self.inner.write()
    }

    fn __repr__(&self) -> String {
        let tag = |name| self.inner.tag(name).unwrap_or("?");
        format!(
            "<Game ({} vs {}, {} plies, {})>",
            tag("White"),
            tag("Black"),
            self.inner.mainline().len(),
            self.inner.result.as_str()
        )
    }
}

/// Bytes from Python: a string's UTF-8, or chunks from a `read` callable.
struct PySource {
    read: Option<Py<PyAny>>,
    buf: Vec<u8>,
    at: usize,
}

impl PySource {
    fn refill(&mut self, read: &Py<PyAny>) -> Result<(), String> {
        Python::attach(|py| {
            let chunk = read.call0(py).map_err(|e| e.to_string())?;
            let chunk = chunk.bind(py);
            self.buf = if let Ok(s) = chunk.cast::<PyString>() {
                s.to_cow().map_err(|e| e.to_string())?.as_bytes().to_vec()
            } else if let Ok(b) = chunk.cast::<PyBytes>() {
                b.as_bytes().to_vec()
            } else {
                return Err("read() must return str or bytes".to_string());
            };
            self.at = 0;
            Ok(())
        })
    }
}

impl ByteSource for PySource {
    fn next_byte(&mut self) -> Result<Option<u8>, String> {
        loop {
            if let Some(&b) = self.buf.get(self.at) {
                self.at += 1;
                return Ok(Some(b));
            }
            let Some(read) = self.read.take() else {
                return Ok(None);
            };
            self.refill(&read)?;
            if self.buf.is_empty() {
                return Ok(None);
            }
            self.read = Some(read);
        }
    }
}

/// An iterator of games read from PGN text or from a `read()` callable.
#[pyclass(name = "PgnReader", module = "hostage.pgn")]
pub struct PyPgnReader {
    reader: Reader<PySource>,
}

#[pymethods]
impl PyPgnReader {
    /// `source` is PGN text, or a callable returning the next chunk of text
    /// (str or UTF-8 bytes; empty at the end), such as a file's `read`.
    #[new]
    fn new(source: &Bound<'_, PyAny>) -> PyResult<PyPgnReader> {
        let src = if let Ok(text) = source.cast::<PyString>() {
            PySource {
                read: None,
                buf: text.to_cow()?.as_bytes().to_vec(),
                at: 0,
            }
        } else if source.is_callable() {
            PySource {
                read: Some(source.clone().unbind()),
                buf: Vec::new(),
                at: 0,
            }
        } else {
            return Err(PyTypeError::new_err(
                "PgnReader takes PGN text or a read() callable",
            ));
        };
        Ok(PyPgnReader {
            reader: Reader::from_source(src),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<PyPgnGame>> {
        match self.reader.next() {
            None => Ok(None),
            Some(Ok(inner)) => Ok(Some(PyPgnGame { inner })),
            Some(Err(e)) => Err(e.to_py()),
        }
    }
}
