//! Reading the arguments of a call as models write them (the same path aliases in every tool,
//! quoted numbers and booleans accepted, wrong types named in the error).

use serde_json::{Map, Value};

use crate::wording::call as words;
use crate::ToolError;

/// The keys a path may come under; the same as the `edit` call's (see `request.rs`).
pub(crate) const PATH_KEYS: [&str; 4] = ["path", "file_path", "filePath", "file"];

fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::invalid_input(message)
}

/// The call's arguments as an object, or `invalid_input` naming the tool.
pub(crate) fn object<'a>(value: &'a Value, tool: &str) -> Result<&'a Map<String, Value>, ToolError> {
    value
        .as_object()
        .ok_or_else(|| invalid(words::not_an_object(tool, value)))
}

/// The first of `keys` present in `obj`, with the key used.
fn pick<'a>(obj: &'a Map<String, Value>, keys: &[&'static str]) -> Option<(&'static str, &'a Value)> {
    keys.iter().find_map(|k| obj.get(*k).map(|v| (*k, v)))
}

/// The path, required and non-empty; `what` says what the path is for ("the file to read"). A NUL
/// byte names no file on any system: `invalid_input`, not an I/O failure.
pub(crate) fn path(obj: &Map<String, Value>, what: &str) -> Result<String, ToolError> {
    let path = string(obj, &PATH_KEYS, "path")?
        .filter(|p| !p.is_empty())
        .ok_or_else(|| invalid(words::path_missing(what)))?;
    if path.contains('\0') {
        return Err(invalid(words::path_with_nul(&path, what)));
    }
    Ok(path)
}

/// An optional `expectedHash`: the SHA-256 of a file as `read` reports it, 64 hexadecimal digits
/// (either case; returned lower-case). Anything else is `invalid_input`, not `stale`: it could
/// never match, and the model should copy the hash again rather than re-read the file.
pub(crate) fn expected_hash(obj: &Map<String, Value>) -> Result<Option<String>, ToolError> {
    let Some(hash) = string(obj, &["expectedHash", "expected_hash"], "expectedHash")? else {
        return Ok(None);
    };
    let trimmed = hash.trim();
    if trimmed.len() != 64 || !trimmed.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(invalid(words::not_a_hash(&hash)));
    }
    Ok(Some(trimmed.to_ascii_lowercase()))
}

/// An optional string; null counts as absent.
pub(crate) fn string(obj: &Map<String, Value>, keys: &[&'static str], what: &str) -> Result<Option<String>, ToolError> {
    match pick(obj, keys) {
        None | Some((_, Value::Null)) => Ok(None),
        Some((_, Value::String(s))) => Ok(Some(s.clone())),
        Some((k, v)) => Err(invalid(words::not_a_string(what, k, v))),
    }
}

/// An optional boolean (false when absent); "true"/"false" as strings are accepted.
pub(crate) fn boolean(obj: &Map<String, Value>, keys: &[&'static str], what: &str) -> Result<bool, ToolError> {
    match pick(obj, keys) {
        None | Some((_, Value::Null)) => Ok(false),
        Some((_, Value::Bool(b))) => Ok(*b),
        // Models sometimes quote booleans.
        Some((_, Value::String(s))) if s == "true" || s == "false" => Ok(s == "true"),
        Some((k, v)) => Err(invalid(words::not_a_boolean(what, k, v))),
    }
}

/// An optional whole number ≥ 0; a quoted number ("12") is accepted, since models send them.
pub(crate) fn count(obj: &Map<String, Value>, keys: &[&'static str], what: &str) -> Result<Option<usize>, ToolError> {
    let bad = |k: &str, v: &Value| invalid(words::not_a_whole_number(what, k, v));
    match pick(obj, keys) {
        None | Some((_, Value::Null)) => Ok(None),
        Some((k, v @ Value::Number(n))) => match (n.as_u64(), n.as_f64()) {
            (Some(n), _) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
            // 12.0 is a whole number too.
            (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 1e15 => Ok(Some(f as usize)),
            _ => Err(bad(k, v)),
        },
        Some((k, v @ Value::String(s))) => s.trim().parse::<usize>().map(Some).map_err(|_| bad(k, v)),
        Some((k, v)) => Err(invalid(words::not_a_number(what, k, v))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counts() {
        let obj = json!({"a": 3, "b": "12", "c": 4.0, "d": -1, "e": "x", "f": true, "g": null});
        let obj = obj.as_object().unwrap();
        assert_eq!(count(obj, &["a"], "a").unwrap(), Some(3));
        assert_eq!(count(obj, &["b"], "b").unwrap(), Some(12));
        assert_eq!(count(obj, &["c"], "c").unwrap(), Some(4));
        assert_eq!(count(obj, &["g"], "g").unwrap(), None);
        assert_eq!(count(obj, &["missing"], "m").unwrap(), None);
        for bad in ["d", "e", "f"] {
            let err = count(obj, &[bad], bad).unwrap_err();
            assert_eq!(err.code, "invalid_input");
            assert!(err.message.contains("whole number"), "{}", err.message);
        }
    }
}
