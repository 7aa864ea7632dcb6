//! The edit formats models are trained on, applied by one engine: Codex's `apply_patch` patches
//! (`*** Begin Patch`), SEARCH/REPLACE blocks (Aider's `<<<<<<< SEARCH`, Cline's `------- SEARCH`)
//! and unified diffs (`git diff`, `diff -u`).
//!
//! Every format is parsed by `surgical-patch` into the same `Op`s (add, delete, update with hunks,
//! move), and `surgical_patch::place` locates each hunk with the engine's tiers as whole lines
//! (uniqueness required; an `@@` anchor, the previous hunk and a line-number hint can only narrow
//! the search, never pick among identical candidates) and writes it, keeping the file's own bytes
//! wherever old and new lines agree; a hunk that cannot be placed is worded by
//! `wording::placement`. [`transaction`] runs one call as one transaction: every file's new content
//! is computed in memory first, and only when every hunk of every file applies is anything
//! written; a write that fails midway is rolled back.

mod transaction;

pub use surgical_patch::PatchFormat;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use surgical_core::Tier;

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
    let obj = value.as_object().ok_or_else(|| {
        ToolError::invalid_input("the apply_patch call must be a JSON object: {\"patch\": \"*** Begin Patch\\n...\"}")
    })?;
    let string = |keys: &[&str], what: &str| -> Result<Option<String>, ToolError> {
        match keys.iter().find_map(|k| obj.get(*k).map(|v| (*k, v))) {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s.clone())),
            Some((k, _)) => Err(ToolError::invalid_input(format!("{what}: `{k}` must be a string"))),
        }
    };
    let patch = string(&PATCH_KEYS, "patch")?.ok_or_else(|| {
        ToolError::invalid_input(
            "patch is missing: give the patch text as {\"patch\": \"...\"} (an apply_patch patch, SEARCH/REPLACE \
             blocks or a unified diff)",
        )
    })?;
    let format = match string(&["format"], "format")? {
        None => None,
        Some(name) if name.eq_ignore_ascii_case("auto") => None,
        Some(name) => Some(PatchFormat::from_name(&name).ok_or_else(|| {
            ToolError::invalid_input(format!(
                "format `{name}` is unknown; use apply_patch, search_replace, unified_diff or auto"
            ))
        })?),
    };
    let path = string(&["path", "file_path", "filePath", "file"], "path")?.filter(|p| !p.is_empty());
    let dry_run = match obj.get("dryRun").or_else(|| obj.get("dry_run")) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) if s == "true" || s == "false" => s == "true",
        Some(_) => return Err(ToolError::invalid_input("dryRun must be true or false")),
    };
    let max_tier = match string(&["maxStrategy", "max_strategy"], "maxStrategy")? {
        None => None,
        Some(name) => Some(Tier::from_name(&name).ok_or_else(|| {
            let names: Vec<&str> = Tier::ALL.iter().map(|s| s.name()).collect();
            ToolError::invalid_input(format!(
                "maxStrategy `{name}` is not a tier; use one of {}",
                names.join(", ")
            ))
        })?),
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

/// Where one hunk landed and how it was matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HunkReport {
    /// The hunk's index among this file's hunks (chunks, blocks), in patch order, from 0.
    pub index: usize,
    /// The tier that matched its old lines: `exact`, `trailing_whitespace`, `unicode`,
    /// `indentation` or `whitespace_runs` (`exact` for lines only added).
    #[serde(rename = "strategy")]
    pub tier: String,
    /// One-based lines of the hunk's new lines in the file after the call.
    pub start_line: usize,
    /// The last of those lines.
    pub end_line: usize,
    /// One-based lines it replaced in the file before it.
    pub old_start_line: usize,
    /// The last of the lines it replaced.
    pub old_end_line: usize,
    /// How its place was decided: `unique` (the only place its lines occur), `anchor` (the only
    /// place after its `@@` line), `after_previous_hunk` (several places; the only one after the
    /// previous hunk), `line_hint` (several places; the one clearly nearest the line number in its
    /// header), `end_of_file`, `after_anchor` (lines only added, right after the `@@` line),
    /// `start_of_file`.
    pub placement: String,
    /// Unified diffs: how many outer context lines (at each end) had to be ignored to find it, as
    /// patch(1) fuzz; at most 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<usize>,
    /// What differed between the file and the hunk's old lines and what was done about it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub normalized: Vec<String>,
}

/// What a call did to one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FileReport {
    /// The file as the patch names it.
    pub path: String,
    /// `add`, `update`, `delete` or `move`.
    pub action: String,
    /// For `move`: where the file went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved_to: Option<String>,
    /// Numbered diff for display (`+NN`/`-NN`/` NN`), invisible changes marked; empty for a
    /// deleted file.
    pub diff: String,
    /// Unified diff of the file's real bytes (git headers for added, deleted and moved files).
    pub patch: String,
    /// The one-based line of the file's first change (null when it has none, as for a deletion).
    pub first_changed_line: Option<usize>,
    /// Where each hunk landed (none for `add` and `delete`).
    pub hunks: Vec<HunkReport>,
    /// SHA-256 (hex) of the file's bytes before (absent for a new file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_before: Option<String>,
    /// SHA-256 (hex) of its bytes after (absent once deleted or moved away).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_after: Option<String>,
    /// `utf-8`, `utf-8-bom`, `utf-16le` or `utf-16be`.
    pub encoding: String,
    /// Whether `surgical undo` can restore this file's content before the call (files updated in
    /// place, or replaced by `add`/`move`; not deleted or new files).
    pub undo_available: bool,
    /// True when this file's `patch` was cut to fit a model's context (a line over 2000
    /// characters, or the call's patches past their share of 256 KiB, each cut marked): it no
    /// longer applies with `git apply`. The file itself is as the call left it.
    #[serde(default)]
    pub patch_truncated: bool,
    /// The syntax errors the patch introduced into this file (empty when none; see `edit`'s
    /// `syntaxErrors`); absent for a file it creates or deletes, or one not checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_errors: Option<Vec<crate::SyntaxErrorReport>>,
    /// `checked: LANGUAGE` or `skipped: WHY` (see `edit`'s `syntaxCheck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_check: Option<String>,
}

/// A successful `apply_patch` call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PatchSuccess {
    /// What the model reads: every file, where each hunk landed, and the diffs.
    pub text: String,
    /// The format the patch was read in: `apply_patch`, `search_replace` or `unified_diff`.
    pub format: String,
    /// One entry per file operation, in patch order.
    pub files: Vec<FileReport>,
    /// All files' unified diffs in one: `git apply` reproduces the whole change.
    pub patch: String,
    /// True when nothing was written (`dryRun`).
    pub dry_run: bool,
    /// True when the combined `patch` was cut to fit a model's context (a line over 2000
    /// characters, or the patch past 256 KiB, each cut marked): it no longer applies with
    /// `git apply`. The files themselves are as the call left them.
    #[serde(default)]
    pub patch_truncated: bool,
}

/// The arguments of `apply_patch`, for its JSON Schema (the parser, [`parse_patch_request`], also
/// accepts `input`/`diff` for `patch`, the path aliases of `edit`, and `maxStrategy`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchInput {
    /// The patch: an apply_patch patch (`*** Begin Patch` ... `*** End Patch`), SEARCH/REPLACE blocks
    /// (the file's path alone on the line before each `<<<<<<< SEARCH`), or a unified diff (`--- a/path`,
    /// `+++ b/path`, `@@` hunks). It may change several files: all change, or none does.
    pub patch: String,
    /// The patch's format. Default: detected from the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<PatchFormatName>,
    /// The file for SEARCH/REPLACE blocks or diff hunks that name no file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Only report what would change; write nothing. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// What to do if the call would introduce syntax errors (found by parsing the file before and
    /// after in its language): `report` (default: write, and list them in `syntaxErrors`),
    /// `refuse` (write nothing; the call fails with `syntax_error`) or `off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_syntax_error: Option<crate::OnSyntaxError>,
}

/// The formats' names.
// No doc comments on the variants: with them, the schema becomes a `oneOf` of constants.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PatchFormatName {
    ApplyPatch,
    SearchReplace,
    UnifiedDiff,
    Auto,
}

/// The tool's description for a model (for the tool definitions of the front ends).
pub const APPLY_PATCH_DESCRIPTION: &str = "\
Apply a patch to one or more files, in the format you know best: an apply_patch patch (*** Begin Patch / \
*** Update File: path / @@ / *** End Patch), SEARCH/REPLACE blocks (the file path on the line before \
<<<<<<< SEARCH ... ======= ... >>>>>>> REPLACE), or a unified diff (git diff or diff -u). The format is \
detected.

Each hunk is located by its unchanged and removed lines, which must match exactly one place (exactly, or \
through line endings, trailing whitespace, typographic quotes and dashes, special spaces or indentation you \
could not see or got wrong); an @@ line naming the enclosing function or class narrows the search. Several \
matches are an error, never a guess. Lines you did not change keep the file's own bytes; new lines take the \
file's line endings.

The whole patch applies or nothing does: if any hunk of any file fails, no file is changed, and the error \
names the file and hunk and shows the closest region. The result says where every hunk landed, with a \
numbered diff per file.";
