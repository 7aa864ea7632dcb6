//! Parsing tool-call JSON the way models really write it.

use serde_json::{Map, Value};
use surgical_core::{Edit, Tier};

use crate::tools::args::{boolean, object, path, string};
use crate::wording::call::{json_kind, not_a_tier};
use crate::wording::edit as words;
use crate::ToolError;

/// A parsed `edit` tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditRequest {
    /// The path as the model gave it (relative to the root, or absolute).
    pub path: String,
    /// The replacements, in the order given; they must not overlap. Each `oldText` is matched in the
    /// file as it was before the call, never in the text an earlier edit produced.
    pub edits: Vec<Edit>,
    /// Compute everything, write nothing.
    pub dry_run: bool,
    /// The loosest matching tier allowed (`maxStrategy`).
    pub max_tier: Option<Tier>,
    /// The file's SHA-256 (hex) as the caller last saw it; the edit fails with `stale` if it changed.
    pub expected_hash: Option<String>,
}

const OLD_KEYS: [&str; 6] = ["oldText", "old_text", "old_string", "oldString", "old_str", "old"];
const NEW_KEYS: [&str; 6] = ["newText", "new_text", "new_string", "newString", "new_str", "new"];
const ALL_KEYS: [&str; 2] = ["replaceAll", "replace_all"];

fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::invalid_input(message)
}

fn one_edit(obj: &Map<String, Value>, what: &str) -> Result<Option<Edit>, ToolError> {
    let old = string(obj, &OLD_KEYS, what)?;
    let new = string(obj, &NEW_KEYS, what)?;
    let replace_all = boolean(obj, &ALL_KEYS, what)?;
    match (old, new) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(invalid(words::new_text_missing(what))),
        (None, Some(_)) => Err(invalid(words::old_text_missing(what))),
        (Some(o), Some(n)) => Ok(Some(Edit::new(o, n).replace_all(replace_all))),
    }
}

/// Parses a call that names only a file (`undo`): `{"path": ...}` or an alias.
pub(crate) fn parse_path_request(value: &Value, tool: &str) -> Result<String, ToolError> {
    path(object(value, tool)?, &format!("the file to {tool}"))
}

/// Parses an `edit` call: `{"path", "edits": [{"oldText", "newText", "replaceAll"?}]}`, or a single
/// top-level `oldText`/`newText`; `edits` may be a JSON string; aliases `file_path`,
/// `old_string`/`new_string`, `oldString`/`newString` are accepted; unknown keys are ignored.
pub fn parse_edit_request(value: &Value) -> Result<EditRequest, ToolError> {
    let obj = object(value, "edit")?;
    let path = path(obj, "the file to edit")?;

    let mut edits = Vec::new();
    let parsed_string;
    let list = match obj.get("edits") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => Some(a),
        Some(Value::String(s)) => {
            parsed_string = serde_json::from_str::<Value>(s).map_err(|e| invalid(words::edits_not_json(&e)))?;
            match &parsed_string {
                Value::Array(a) => Some(a),
                other => return Err(invalid(words::edits_string_not_an_array(json_kind(other)))),
            }
        }
        Some(other) => return Err(invalid(words::edits_not_an_array(json_kind(other)))),
    };
    if let Some(list) = list {
        for (i, item) in list.iter().enumerate() {
            let what = format!("edits[{i}]");
            let o = item
                .as_object()
                .ok_or_else(|| invalid(words::edit_not_an_object(&what, json_kind(item))))?;
            match one_edit(o, &what)? {
                Some(e) => edits.push(e),
                None => return Err(invalid(words::edit_empty(&what))),
            }
        }
    }
    if let Some(top) = one_edit(obj, "the call")? {
        if !edits.is_empty() {
            return Err(invalid(words::EDITS_AND_TOP_LEVEL));
        }
        edits.push(top);
    }
    if edits.is_empty() {
        return Err(invalid(words::NO_EDITS));
    }

    let max_tier = match string(obj, &["maxStrategy", "max_strategy"], "maxStrategy")? {
        None => None,
        Some(name) => Some(Tier::from_name(&name).ok_or_else(|| invalid(not_a_tier(&name)))?),
    };
    Ok(EditRequest {
        path,
        edits,
        dry_run: boolean(obj, &["dryRun", "dry_run"], "dryRun")?,
        max_tier,
        expected_hash: crate::tools::args::expected_hash(obj)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shapes_models_send() {
        let r = parse_edit_request(&json!({"path": "a", "edits": [{"oldText": "x", "newText": "y"}]})).unwrap();
        assert_eq!(r.edits, vec![Edit::new("x", "y")]);
        let r =
            parse_edit_request(&json!({"file_path": "a", "old_string": "x", "new_string": "y", "replace_all": true}))
                .unwrap();
        assert_eq!(r.edits, vec![Edit::new("x", "y").replace_all(true)]);
        let r = parse_edit_request(&json!({"path": "a", "oldString": "x", "newString": ""})).unwrap();
        assert_eq!(r.edits, vec![Edit::new("x", "")]);
        let r = parse_edit_request(
            &json!({"path": "a", "edits": "[{\"oldText\":\"x\",\"newText\":\"y\",\"replaceAll\":true}]", "extra": 1}),
        )
        .unwrap();
        assert_eq!(r.edits, vec![Edit::new("x", "y").replace_all(true)]);
    }

    #[test]
    fn wrong_shapes_are_invalid_input() {
        for bad in [
            json!([]),
            json!({"edits": []}),
            json!({"path": "a"}),
            json!({"path": 3, "oldText": "x", "newText": "y"}),
            json!({"path": "a", "oldText": "x"}),
            json!({"path": "a", "oldText": 1, "newText": "y"}),
            json!({"path": "a", "edits": "not json"}),
            json!({"path": "a", "edits": [1]}),
            json!({"path": "a", "edits": {"oldText": "x"}}),
            json!({"path": "a", "oldText": "x", "newText": "y", "replaceAll": 2}),
            json!({"path": "a", "oldText": "x", "newText": "y", "maxStrategy": "loose"}),
        ] {
            let err = parse_edit_request(&bad).unwrap_err();
            assert_eq!(err.code, "invalid_input", "{bad}");
        }
    }
}
