//! Python bindings of surgical's tool layer (PyO3): the native module `surgical._surgical`, which
//! the `surgical` package wraps (`python/surgical/`).
//!
//! Every tool call goes through `surgical_tool::call_with` — the function behind `surgical call`,
//! the MCP server and the Node package — so a call gives the same result object, as a plain dict.
//! The interpreter lock is released while a call works (reading, matching, writing, hashing), so
//! other Python threads run meanwhile and several calls run at once. Tool failures are results
//! (`{"ok": False, "error": {...}}`); exceptions are for misuse of the API: a call or options that
//! are not what the signature says (`TypeError`, `ValueError`). `apply_edits` raises `EditError` on
//! failure, as the Node package's `applyEdits` throws.

// `surgical_tool::ToolError` is the contract's error object, returned once per call: its size does
// not matter (as in surgical-tool itself).
#![allow(clippy::result_large_err)]

use std::path::PathBuf;

use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

pyo3::create_exception!(
    _surgical,
    EditError,
    PyException,
    "apply_edits could not apply the edits: `code` is the edit tool's error code (`not_found`, \
     `ambiguous`, ...), `error` its error object, and the message the text the tool gives a model."
);

/// Calls nested deeper than this are refused (a tool call is a few levels deep).
const MAX_DEPTH: usize = 64;

/// A flag that abandons running calls before they change anything: pass it as `cancellation=`, and
/// `cancel()` it from any thread; a call holding it stops at its last check before writing, with
/// the error `cancelled` and every file untouched (a call already writing completes). One flag may
/// serve several calls.
#[pyclass(module = "surgical._surgical", frozen)]
#[derive(Clone, Default)]
struct Cancellation(surgical_tool::Cancellation);

#[pymethods]
impl Cancellation {
    #[new]
    fn new() -> Self {
        Cancellation::default()
    }

    /// Sets the flag: calls holding it stop before their first write.
    fn cancel(&self) {
        self.0.cancel();
    }

    /// Whether the flag is set.
    #[getter]
    fn cancelled(&self) -> bool {
        self.0.is_cancelled()
    }

    fn __repr__(&self) -> String {
        format!("Cancellation(cancelled={})", self.cancelled())
    }
}

/// A Python object as JSON: dicts with string keys, lists and tuples, strings, ints, floats,
/// booleans and None. Anything else is a `TypeError` (a call must be JSON, as `surgical call`'s is).
fn to_json(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "the call is nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    // bool before int: a Python bool is an int.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.cast::<PyInt>().is_ok() {
        if let Ok(n) = obj.extract::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        if let Ok(n) = obj.extract::<u64>() {
            return Ok(Value::Number(n.into()));
        }
        // Larger than any JSON integer a parser keeps exact: a float, as JSON numbers are; the
        // tool then says what is wrong with it.
        let f: f64 = obj.extract()?;
        return Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err("an integer too large for JSON"));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err(format!("{} is not a JSON number", f.value())));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, value) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(PyTypeError::new_err(format!(
                    "a call's keys must be strings, not {}",
                    key.get_type().name()?
                )));
            };
            map.insert(key.to_cow()?.into_owned(), to_json(&value, depth + 1)?);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(list) = obj.cast::<PyList>() {
        return list
            .iter()
            .map(|v| to_json(&v, depth + 1))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return tuple
            .iter()
            .map(|v| to_json(&v, depth + 1))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(PyTypeError::new_err(format!(
        "a call holds JSON values only (dict, list, str, int, float, bool, None), not {}",
        obj.get_type().name()?
    )))
}

/// JSON as Python objects: dicts, lists, str, int, float, bool, None.
fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// The configuration of a call from its keyword options.
fn config(
    root: Option<PathBuf>,
    max_file_size: Option<&Bound<'_, PyAny>>,
    undo: bool,
    cancellation: Option<&Cancellation>,
) -> PyResult<surgical_tool::Config> {
    let root = root.unwrap_or_else(|| PathBuf::from("."));
    let mut config = surgical_tool::Config::new(&root).undo(undo);
    if let Some(limit) = max_file_size.filter(|v| !v.is_none()) {
        if limit.cast::<PyBool>().is_ok() || limit.cast::<PyInt>().is_err() {
            return Err(PyTypeError::new_err(format!(
                "max_file_size must be a whole number of bytes, not {}",
                limit.get_type().name()?
            )));
        }
        let bytes: u64 = limit.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "max_file_size must be a whole number of bytes >= 0, not {limit}"
            ))
        })?;
        config = config.max_file_size(bytes);
    }
    if let Some(c) = cancellation {
        config = config.cancellation(c.0.clone());
    }
    Ok(config)
}

/// Runs tool `tool` (`edit`, `read`, `write`, `apply_patch`, `apply_snippet`, `undo`, `text_editor`,
/// or a name of Anthropic's text-editor tool) with the call `call`, and returns its result object
/// as a dict: the JSON of `surgical call TOOL`. The interpreter lock is released while it runs.
#[pyfunction]
#[pyo3(signature = (tool, call, *, root=None, max_file_size=None, undo=true, cancellation=None))]
fn call<'py>(
    py: Python<'py>,
    tool: &str,
    call: &Bound<'py, PyAny>,
    root: Option<PathBuf>,
    max_file_size: Option<&Bound<'py, PyAny>>,
    undo: bool,
    cancellation: Option<PyRef<'py, Cancellation>>,
) -> PyResult<Bound<'py, PyAny>> {
    let known = surgical_tool::TOOLS.contains(&tool) || surgical_tool::TEXT_EDITOR_ALIASES.contains(&tool);
    if !known {
        return Err(PyValueError::new_err(format!(
            "unknown tool {tool:?}; the tools are: {}",
            surgical_tool::TOOLS.join(", ")
        )));
    }
    let input = to_json(call, 0)?;
    let config = config(root, max_file_size, undo, cancellation.as_deref())?;
    let tool = tool.to_string();
    let result = py.detach(move || surgical_tool::call_with(&tool, &input, &config).to_json());
    to_py(py, &result)
}

/// Runs the edit engine on content the caller holds (nothing is read or written): `edits` as in an
/// edit call (`[{"oldText", "newText", "replaceAll"?}]`). Returns a dict with `text` (the new
/// content: `str` for a `str`, `bytes` for bytes), `diff`, `patch`, `edits`, `firstChangedLine` and
/// `encoding`, as the edit tool reports them. Raises `EditError` when the edits cannot be applied.
#[pyfunction]
#[pyo3(signature = (content, edits, *, path=None, max_strategy=None))]
fn apply_edits<'py>(
    py: Python<'py>,
    content: &Bound<'py, PyAny>,
    edits: &Bound<'py, PyAny>,
    path: Option<String>,
    max_strategy: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let (bytes, as_str) = if let Ok(s) = content.cast::<PyString>() {
        (s.to_cow()?.as_bytes().to_vec(), true)
    } else if let Ok(b) = content.cast::<PyBytes>() {
        (b.as_bytes().to_vec(), false)
    } else if let Ok(b) = content.cast::<PyByteArray>() {
        (b.to_vec(), false)
    } else {
        return Err(PyTypeError::new_err(format!(
            "content must be str or bytes, not {}",
            content.get_type().name()?
        )));
    };
    let mut call = Map::new();
    call.insert("edits".into(), to_json(edits, 0)?);
    if let Some(path) = path {
        call.insert("path".into(), Value::String(path));
    }
    if let Some(max) = max_strategy {
        call.insert("maxStrategy".into(), Value::String(max));
    }
    let call = Value::Object(call);
    let done = py.detach(move || surgical_tool::apply_edits(bytes, &call));
    match done {
        Ok(done) => {
            let out = PyDict::new(py);
            let text: Bound<'py, PyAny> = if as_str {
                match String::from_utf8(done.content) {
                    Ok(s) => PyString::new(py, &s).into_any(),
                    // UTF-8 in gives UTF-8 out; kept as bytes should that ever not hold.
                    Err(e) => PyBytes::new(py, e.as_bytes()).into_any(),
                }
            } else {
                PyBytes::new(py, &done.content).into_any()
            };
            out.set_item("text", text)?;
            out.set_item("diff", done.diff)?;
            out.set_item("patch", done.patch)?;
            let edits = serde_json::to_value(&done.edits).map_err(|e| PyValueError::new_err(e.to_string()))?;
            out.set_item("edits", to_py(py, &edits)?)?;
            out.set_item("firstChangedLine", done.first_changed_line)?;
            out.set_item("encoding", done.encoding)?;
            Ok(out.into_any())
        }
        Err(e) => {
            let result = surgical_tool::ToolResult::Error(e).to_json();
            let err = EditError::new_err(result["text"].as_str().unwrap_or_default().to_string());
            let value = err.value(py);
            value.setattr("code", result["error"]["code"].as_str().unwrap_or_default())?;
            value.setattr("error", to_py(py, &result["error"])?)?;
            Err(err)
        }
    }
}

/// Every tool's definition: `name`, `title`, `description`, `input_schema`, `output_schema` and
/// the hints `read_only`, `destructive`, `idempotent` (the source of `surgical tools` and the MCP
/// server's list).
#[pyfunction]
fn tool_specs(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let specs: Vec<Value> = surgical_tool::schema::TOOL_SPECS
        .iter()
        .map(|s| {
            serde_json::json!({
                "name": s.name,
                "title": s.title,
                "description": s.description,
                "input_schema": s.input_schema(),
                "output_schema": s.output_schema(),
                "read_only": s.read_only,
                "destructive": s.destructive,
                "idempotent": s.idempotent,
            })
        })
        .collect();
    to_py(py, &Value::Array(specs))
}

#[pymodule]
fn _surgical(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(apply_edits, m)?)?;
    m.add_function(wrap_pyfunction!(tool_specs, m)?)?;
    m.add_class::<Cancellation>()?;
    m.add("EditError", m.py().get_type::<EditError>())?;
    m.add("TOOLS", PyTuple::new(m.py(), surgical_tool::TOOLS)?)?;
    m.add(
        "TEXT_EDITOR_ALIASES",
        PyTuple::new(m.py(), surgical_tool::TEXT_EDITOR_ALIASES)?,
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
