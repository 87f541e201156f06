//! PGN: `hostage.pgn.Game` (a [`PgnGame`]), `Board.pgn`, and the streaming
//! reader behind `hostage.pgn.read_game` / `read_games`.
//!
//! A result decided off the board (resignation, time forfeit, agreed draw,
//! abandonment) is recorded by the core's [`PgnGame::set_result`]: through
//! `Game.set_result(result, reason)`, the `Game.result` setter, a `Result`
//! header, or `Board.pgn(..., result=, reason=)`. It wins over `*` only:
//! a result that contradicts the board's own outcome raises `ResultError`.

use hostage_core::{
    game::Game,
    pgn::{ByteSource, EndReason, PgnGame, Reader, ResultError},
};
use pyo3::{
    exceptions::PyTypeError,
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

    /// Sets a header. `Result` is recorded as `set_result(value)` is (and
    /// may raise `ResultError`); `Variant`, `SetUp` and `FEN` are written
    /// from the record itself.
    fn set_header(&mut self, name: &str, value: &str) -> PyResult<()> {
        if name == "Result" {
            return self.record(value, None);
        }
        self.inner.set_tag(name, value);
        Ok(())
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`. Setting it is
    /// `set_result(value)`.
    #[getter]
    fn result(&self) -> &'static str {
        self.inner.result.as_str()
    }

    #[setter(result)]
    fn set_result_property(&mut self, result: &str) -> PyResult<()> {
        self.record(result, None)
    }

    /// Records `result`, decided off the board when `reason` is given
    /// (`"resignation"`, `"time_forfeit"`, `"agreement"`, `"abandonment"`;
    /// written as the `Termination` tag). Raises `ResultError` (the record
    /// unchanged) when the main line's own outcome differs or a reason is
    /// given for a game the board has ended, or when the result does not
    /// fit the reason.
    #[pyo3(name = "set_result", signature = (result, reason = None))]
    fn record(&mut self, result: &str, reason: Option<&str>) -> PyResult<()> {
        let result = result.parse().map_err(|e: ResultError| e.to_py())?;
        let reason = reason
            .map(str::parse::<EndReason>)
            .transpose()
            .map_err(|e| e.to_py())?;
        self.inner.set_result(result, reason).map_err(|e| e.to_py())
    }

    /// Why the game ended away from the board, read back from the
    /// `Termination` tag: `"resignation"`, `"time_forfeit"`, `"agreement"`,
    /// `"abandonment"`, or `None` (no such tag, the board ended the game, or
    /// the result does not fit).
    #[getter]
    fn end_reason(&self) -> Option<&'static str> {
        self.inner.end_reason().map(EndReason::name)
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

#[pymethods]
impl PyBoard {
    /// The game as PGN (canonical form): `headers` added in order (a
    /// `Result` header is recorded as `result=` is), then `result` and
    /// `reason` recorded as by `Game.set_result` (`result` defaults to the
    /// record's: the board's, or the `Result` header's).
    #[pyo3(signature = (headers = None, *, result = None, reason = None))]
    fn pgn(
        &self,
        headers: Option<&Bound<'_, PyAny>>,
        result: Option<&str>,
        reason: Option<&str>,
    ) -> PyResult<String> {
        let mut record = PyPgnGame {
            inner: PgnGame::from_game(&self.game),
        };
        if let Some(headers) = headers {
            let items = headers.call_method0("items").map_err(|_| {
                PyTypeError::new_err("headers must be a mapping of names to values")
            })?;
            for item in items.try_iter()? {
                let (name, value): (String, String) = item?.extract()?;
                record.set_header(&name, &value)?;
            }
        }
        if result.is_some() || reason.is_some() {
            let result = result.unwrap_or(record.inner.result.as_str());
            record.record(result, reason)?;
        }
        Ok(record.inner.write())
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
