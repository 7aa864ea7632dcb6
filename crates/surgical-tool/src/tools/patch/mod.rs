//! The `apply_patch` tool: the edit formats models are trained on, applied by one engine —
//! Codex's `apply_patch` patches (`*** Begin Patch`), SEARCH/REPLACE blocks (Aider's
//! `<<<<<<< SEARCH`, Cline's `------- SEARCH`) and unified diffs (`git diff`, `diff -u`).
//!
//! Every format is parsed by `surgical-patch` into the same `Op`s (add, delete, update with hunks,
//! move), and `surgical_patch::place` locates each hunk with the engine's tiers as whole lines
//! (uniqueness required; an `@@` anchor, the previous hunk and a line-number hint can only narrow
//! the search, never pick among identical candidates) and writes it, keeping the file's own bytes
//! wherever old and new lines agree; a hunk that cannot be placed is worded by
//! `wording::patch::placement`. One call is one transaction ([`transaction`], its steps in
//! [`files`], [`simulate`], [`commit`] and [`report`]): every file's new content is computed in
//! memory first, and only when every hunk of every file applies is anything written; a write that
//! fails midway is rolled back.
//!
//! This module holds the call's parser ([`parse_patch_request`]) and its entry point
//! ([`run_patch_with`]). May import: the contract, `pipeline`, `wording` and `tools::args`; the
//! step modules import each other only downward (`transaction` → `commit`, `report`, `simulate` →
//! `files` → `errors`).

mod commit;
mod errors;
mod files;
mod report;
mod simulate;
mod transaction;

pub use surgical_patch::PatchFormat;

use serde_json::Value;
use surgical_core::Tier;

use crate::wording::patch as words;
use crate::{Config, ToolError, ToolResult};

/// A parsed `apply_patch` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchRequest {
    /// The patch text, in any of the formats.
    pub patch: String,
    /// The format, if the caller named it; otherwise it is detected.
    pub format: Option<PatchFormat>,
    /// The file for SEARCH/REPLACE blocks or diff hunks that name none.
    pub path: Option<String>,
    /// Compute everything, write nothing.
    pub dry_run: bool,
    /// The loosest matching tier allowed.
    pub max_tier: Option<Tier>,
}

const PATCH_KEYS: [&str; 5] = ["patch", "input", "diff", "content", "text"];

/// Parses an `apply_patch` call: `{"patch": "...", "format"?, "path"?, "dryRun"?, "maxStrategy"?}`.
/// Also accepted: `input` (Codex's own key), `diff`, `content` or `text` for `patch`; the path
/// aliases of `edit`; `dry_run`, `max_strategy`.
pub fn parse_patch_request(value: &Value) -> Result<PatchRequest, ToolError> {
    let obj = value
        .as_object()
        .ok_or_else(|| ToolError::invalid_input(words::NOT_AN_OBJECT))?;
    let string = |keys: &[&str], what: &str| -> Result<Option<String>, ToolError> {
        match keys.iter().find_map(|k| obj.get(*k).map(|v| (*k, v))) {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s.clone())),
            Some((k, _)) => Err(ToolError::invalid_input(words::not_a_string(what, k))),
        }
    };
    let patch = string(&PATCH_KEYS, "patch")?.ok_or_else(|| ToolError::invalid_input(words::PATCH_MISSING))?;
    let format = match string(&["format"], "format")? {
        None => None,
        Some(name) if name.eq_ignore_ascii_case("auto") => None,
        Some(name) => {
            Some(PatchFormat::from_name(&name).ok_or_else(|| ToolError::invalid_input(words::unknown_format(&name)))?)
        }
    };
    let path = string(&["path", "file_path", "filePath", "file"], "path")?.filter(|p| !p.is_empty());
    let dry_run = match obj.get("dryRun").or_else(|| obj.get("dry_run")) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) if s == "true" || s == "false" => s == "true",
        Some(_) => return Err(ToolError::invalid_input(crate::wording::call::DRY_RUN_NOT_A_BOOLEAN)),
    };
    let max_tier = match string(&["maxStrategy", "max_strategy"], "maxStrategy")? {
        None => None,
        Some(name) => Some(
            Tier::from_name(&name).ok_or_else(|| ToolError::invalid_input(crate::wording::call::not_a_tier(&name)))?,
        ),
    };
    Ok(PatchRequest {
        patch,
        format,
        path,
        dry_run,
        max_tier,
    })
}

/// Runs a parsed `apply_patch` call: all files or none. See the module docs.
pub fn run_patch_with(req: &PatchRequest, config: &Config) -> ToolResult {
    match transaction::run(req, config) {
        Ok(s) => ToolResult::Patch(Box::new(s.bounded())),
        Err(e) => ToolResult::Error(e),
    }
}
