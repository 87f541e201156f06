//! `Reserve`: a prison or an airfield (the core's [`Reserve`]) as a
//! read-only mapping role → count, like `collections.Counter`.

use hostage_core::{Reserve, Role};
use pyo3::{
    basic::CompareOp,
    exceptions::PyKeyError,
    prelude::*,
    types::{PyDict, PyIterator, PyList},
    IntoPyObjectExt,
};

use crate::moves::{role_from_int, role_int};

/// A prison or an airfield: a read-only mapping role → count, holding only
/// roles with a non-zero count (like `collections.Counter`, a missing role
/// reads as 0).
#[pyclass(name = "Reserve", module = "hostage", frozen, mapping)]
#[derive(Copy, Clone)]
pub struct PyReserve(pub Reserve);

impl PyReserve {
    fn key(key: &Bound<'_, PyAny>) -> Option<Role> {
        key.extract::<i64>().ok().and_then(role_from_int)
    }

    fn letters(&self) -> String {
        self.0
            .iter()
            .flat_map(|(r, n)| std::iter::repeat_n(r.upper_char(), usize::from(n)))
            .collect()
    }
}

#[pymethods]
impl PyReserve {
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<u8> {
        match PyReserve::key(key) {
            Some(role) => Ok(self.0.count(role)),
            None => Err(PyKeyError::new_err(key.clone().unbind())),
        }
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> bool {
        PyReserve::key(key).is_some_and(|r| self.0.has(r))
    }

    fn __len__(&self) -> usize {
        self.0.roles().count()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.keys(py)?.try_iter()
    }

    /// The roles held, in the order Q R B N P.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.0.roles().map(role_int).collect::<Vec<_>>())
    }

    /// The counts, in the order of `keys()`.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.0.iter().map(|(_, n)| n).collect::<Vec<_>>())
    }

    /// `(role, count)` pairs, in the order of `keys()`.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(
            py,
            self.0
                .iter()
                .map(|(r, n)| (role_int(r), n))
                .collect::<Vec<_>>(),
        )
    }

    /// The count of `key`, or `default` if it is not a role held.
    #[pyo3(signature = (key, default = None))]
    fn get(&self, key: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let py = key.py();
        match PyReserve::key(key) {
            Some(role) if self.0.has(role) => self.0.count(role).into_py_any(py),
            _ => Ok(default.unwrap_or_else(|| py.None())),
        }
    }

    /// How many men of `role` (0 if none).
    fn count(&self, role: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.0.count(crate::moves::role(role)?))
    }

    /// How many men in all.
    fn total(&self) -> u32 {
        self.0.total()
    }

    fn __bool__(&self) -> bool {
        !self.0.is_empty()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let equal = if let Ok(o) = other.cast::<PyReserve>() {
            self.0 == o.get().0
        } else if other.cast::<PyDict>().is_ok() {
            let mine = PyDict::from_sequence(&self.items(py)?.into_any())?;
            mine.eq(other)?
        } else {
            return Ok(py.NotImplemented());
        };
        match op {
            CompareOp::Eq => equal.into_py_any(py),
            CompareOp::Ne => (!equal).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        Role::HOSTAGES
            .iter()
            .fold(0u64, |h, &r| h * 31 + u64::from(self.0.count(r)))
    }

    fn __repr__(&self) -> String {
        format!("Reserve('{}')", self.letters())
    }

    fn __str__(&self) -> String {
        self.letters()
    }
}
