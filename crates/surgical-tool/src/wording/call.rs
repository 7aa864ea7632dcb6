//! What is wrong with a call itself, before any file is read: its JSON shape, a missing or
//! mistyped argument, an unknown tool; and a call cancelled before it wrote. Every tool's parser
//! takes its `invalid_input` messages from here or from its tool's file.

use serde_json::Value;
use surgical_core::Tier;

/// What a JSON value is, as a message names it: "null", "a boolean", "an array", ...
pub(crate) fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The call's arguments are not a JSON object.
pub(crate) fn not_an_object(tool: &str, value: &Value) -> String {
    format!("the {tool} call must be a JSON object, not {}", json_kind(value))
}

/// No path, or an empty one; `what` says what the path is for ("the file to read").
pub(crate) fn path_missing(what: &str) -> String {
    format!("path is missing: give the path of {what} (\"path\": \"src/main.rs\").")
}

/// A path holding a NUL byte, which names no file on any system.
pub(crate) fn path_with_nul(path: &str, what: &str) -> String {
    format!(
        "path {:?} holds a NUL byte, which no file name can hold: give the path of {what} as plain text.",
        path.replace('\0', "\\0")
    )
}

/// An `expectedHash` that is not 64 hexadecimal digits.
pub(crate) fn not_a_hash(hash: &str) -> String {
    format!(
        "expectedHash {hash:?} is not a SHA-256 hash (64 hexadecimal digits): pass the sha256 that read \
         returned for the file, or leave expectedHash out."
    )
}

/// Argument `key` (for `what`) is not a string.
pub(crate) fn not_a_string(what: &str, key: &str, value: &Value) -> String {
    format!("{what}: `{key}` must be a string, not {}", json_kind(value))
}

/// Argument `key` (for `what`) is not a boolean.
pub(crate) fn not_a_boolean(what: &str, key: &str, value: &Value) -> String {
    format!("{what}: `{key}` must be true or false, not {}", json_kind(value))
}

/// Argument `key` (for `what`) is a number or a string, but not a whole number ≥ 0: the value is
/// shown as it was sent.
pub(crate) fn not_a_whole_number(what: &str, key: &str, value: &Value) -> String {
    format!("{what}: `{key}` must be a whole number, not {value}")
}

/// Argument `key` (for `what`) is neither a number nor a string.
pub(crate) fn not_a_number(what: &str, key: &str, value: &Value) -> String {
    format!("{what}: `{key}` must be a whole number, not {}", json_kind(value))
}

/// A `maxStrategy` that names no tier.
pub(crate) fn not_a_tier(name: &str) -> String {
    let names: Vec<&str> = Tier::ALL.iter().map(|s| s.name()).collect();
    format!("maxStrategy `{name}` is not a tier; use one of {}", names.join(", "))
}

/// A `dryRun` that is neither a boolean nor "true"/"false" (`apply_patch`'s own reading).
pub(crate) const DRY_RUN_NOT_A_BOOLEAN: &str = "dryRun must be true or false";

/// A tool name that is not one of `tools`.
pub(crate) fn unknown_tool(name: &str, tools: &[&str]) -> String {
    format!("unknown tool `{name}`; the tools are: {}", tools.join(", "))
}

/// A call whose client cancelled it before its first write.
pub(crate) const CANCELLED: &str = "the call was cancelled before it wrote anything; no file was changed";
