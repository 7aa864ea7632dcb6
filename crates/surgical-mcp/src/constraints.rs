//! The constraints a tool's input schema declares, enforced before the tool runs.
//!
//! The tool layer's parsers accept the canonical arguments and, leniently, what models also send
//! (aliases, numbers as strings). Where a declared property breaks a constraint its schema states
//! (`minimum`, `maximum`, `enum`), the call is refused here with `invalid_input` rather than run
//! with a value the client was told is not allowed (for example `read` with `startLine: 0`).
//! Constraints the parsers enforce themselves (`required`, `minItems` of `edits`, `minLength` of
//! `oldText`, whole numbers) keep their more specific errors.

use serde_json::{Map, Value};
use surgical_tool::ToolError;

/// `Err` with an `invalid_input` error for the first declared property of `schema` whose value in
/// `args` breaks a `minimum`, `maximum` or `enum` of its schema.
// Once per call, like the tool layer's own `Result<_, ToolError>`s: its size does not matter.
#[allow(clippy::result_large_err)]
pub(crate) fn check(schema: &Value, args: &Map<String, Value>) -> Result<(), ToolError> {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Ok(());
    };
    for (name, property) in properties {
        let Some(value) = args.get(name).filter(|v| !v.is_null()) else {
            continue;
        };
        let about = property
            .get("description")
            .and_then(Value::as_str)
            .map(|d| format!(" ({name}: {d})"))
            .unwrap_or_default();
        if let Some(number) = as_number(value) {
            if let Some(min) = property.get("minimum").and_then(Value::as_f64) {
                if number < min {
                    return Err(ToolError::invalid_input(format!(
                        "{name} must be at least {min}, not {value}{about}"
                    )));
                }
            }
            if let Some(max) = property.get("maximum").and_then(Value::as_f64) {
                if number > max {
                    return Err(ToolError::invalid_input(format!(
                        "{name} must be at most {max}, not {value}{about}"
                    )));
                }
            }
        }
        if let (Some(Value::Array(allowed)), Value::String(given)) = (property.get("enum"), value) {
            if !allowed.iter().any(|a| a.as_str() == Some(given)) {
                let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
                return Err(ToolError::invalid_input(format!(
                    "{name} `{given}` is not one of {}; use one of them exactly, or leave {name} out for the default",
                    names.join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// A number, or a string that is one (the parsers accept numbers written as strings).
fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn every_declared_bound_and_enum() {
        let read = surgical_tool::schema::tool_spec("read").unwrap().input_schema();
        for key in ["startLine", "endLine", "limit"] {
            for bad in [json!(0), json!("0"), json!(-3)] {
                let err = check(&read, &args(json!({"path": "a", key: bad}))).unwrap_err();
                assert_eq!(err.code, "invalid_input");
                assert!(
                    err.message.starts_with(&format!("{key} must be at least 1, not ")),
                    "{}",
                    err.message
                );
            }
            assert!(check(&read, &args(json!({"path": "a", key: 1}))).is_ok());
            assert!(check(&read, &args(json!({"path": "a", key: null}))).is_ok());
        }
        // Aliases are not declared: the parser decides (`offset` counts from 0 or 1).
        assert!(check(&read, &args(json!({"path": "a", "offset": 0}))).is_ok());
        // A value that is no number at all is the parser's to refuse, with its own message.
        assert!(check(&read, &args(json!({"path": "a", "limit": "many"}))).is_ok());

        let write = surgical_tool::schema::tool_spec("write").unwrap().input_schema();
        let err = check(&write, &args(json!({"path": "a", "content": "", "lineEnding": "CRLF"}))).unwrap_err();
        assert!(
            err.message.contains("lineEnding `CRLF` is not one of lf, crlf, cr"),
            "{}",
            err.message
        );
        assert!(check(
            &write,
            &args(json!({"path": "a", "content": "", "encoding": "utf-16le"}))
        )
        .is_ok());
        let edit = surgical_tool::schema::tool_spec("edit").unwrap().input_schema();
        assert!(check(&edit, &args(json!({"path": "a", "maxStrategy": "loose"}))).is_err());
        let patch = surgical_tool::schema::tool_spec("apply_patch").unwrap().input_schema();
        assert!(check(&patch, &args(json!({"patch": "", "format": "git"}))).is_err());
        assert!(check(&patch, &args(json!({"patch": "", "format": "auto"}))).is_ok());
    }
}
