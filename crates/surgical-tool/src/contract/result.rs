//! The result object of every tool call: the envelope ([`ToolResult`]: `ok`, and `text` for a
//! failure) and the success object of each tool, in the order of [`crate::TOOLS`]. Their JSON
//! field names are the machine contract: fields are added, never renamed.

use crate::contract::syntax::SyntaxErrorReport;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::contract::text_editor::TextEditorSuccess;
use crate::ToolError;

/// The result object of every tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolResult {
    /// A successful `edit` (or `undo`, which reports the restored content as an edit).
    Edit(Box<EditSuccess>),
    /// A successful `read`.
    Read(Box<ReadSuccess>),
    /// A successful `write`.
    Write(Box<WriteSuccess>),
    /// A successful `apply_patch`.
    Patch(Box<PatchSuccess>),
    /// A successful `apply_snippet`.
    Snippet(Box<SnippetSuccess>),
    /// A successful `text_editor` call.
    TextEditor(Box<TextEditorSuccess>),
    /// A failed call of any tool; nothing was written.
    Error(ToolError),
}

impl ToolResult {
    /// Whether the call succeeded (the JSON's `ok`).
    pub fn is_ok(&self) -> bool {
        !matches!(self, ToolResult::Error(_))
    }

    /// The text a model should read.
    pub fn text(&self) -> String {
        match self {
            ToolResult::Edit(s) => s.text.clone(),
            ToolResult::Read(s) => s.text.clone(),
            ToolResult::Write(s) => s.text.clone(),
            ToolResult::Patch(s) => s.text.clone(),
            ToolResult::Snippet(s) => s.edit.text.clone(),
            ToolResult::TextEditor(s) => s.text.clone(),
            ToolResult::Error(e) => format!("Error ({}): {}", e.code, e.message),
        }
    }

    /// The JSON object of the machine interface: `{"ok": true, ...}` or
    /// `{"ok": false, "text": ..., "error": {"code", "message", "editIndex"?, ...}}`.
    pub fn to_json(&self) -> Value {
        match self {
            ToolResult::Edit(s) => {
                let mut v = serde_json::to_value(s).expect("serializable");
                v.as_object_mut()
                    .expect("object")
                    .insert("ok".into(), Value::Bool(true));
                v
            }
            ToolResult::Read(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::Write(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::Patch(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::Snippet(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::TextEditor(s) => s.to_json(),
            ToolResult::Error(e) => serde_json::json!({"ok": false, "text": self.text(), "error": e}),
        }
    }
}

/// `{"ok": true}` added to a success object.
fn with_ok(mut v: Value) -> Value {
    v.as_object_mut()
        .expect("object")
        .insert("ok".into(), Value::Bool(true));
    v
}

/// A successful read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReadSuccess {
    /// What the model reads: a header (path, lines shown, encoding, line endings, hash), the lines
    /// as `<number><TAB><text>`, and notes (cut lines, invalid UTF-8, where to continue).
    pub text: String,
    /// The path as the caller gave it.
    pub path: String,
    /// SHA-256 (hex) of the file's bytes on disk: pass it as `expectedHash` to `edit` or `write`.
    pub hash: String,
    /// `utf-8`, `utf-8-bom`, `utf-16le` or `utf-16be`.
    pub encoding: &'static str,
    /// Whether the file starts with a byte-order mark.
    pub bom: bool,
    /// `lf`, `crlf`, `cr`, `mixed` or `none` (no line terminator at all).
    pub line_ending: &'static str,
    /// Lines in the whole file (a last line without a terminator counts; an empty file has 0).
    pub total_lines: usize,
    /// The first line shown, one-based.
    pub start_line: usize,
    /// The last line shown; `startLine - 1` when no line is shown (an empty file).
    pub end_line: usize,
    /// Where to continue reading, when lines after `endLine` were not shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_line: Option<usize>,
    /// Lines shown only up to their first 2000 characters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut_lines: Vec<usize>,
}

/// Where one edit landed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EditReport {
    /// The edit's index in `edits`, from 0.
    pub index: usize,
    /// The tier that matched: `exact`, `trailing_whitespace`, `unicode`, `indentation`,
    /// `whitespace_runs`, `escapes`, `typo`, `extra_line`, `missing_line` or `similar`.
    #[serde(rename = "strategy")]
    pub tier: &'static str,
    /// One-based lines of the new text in the file after the edit (first occurrence to last).
    pub start_line: usize,
    /// The last of those lines (equal to `startLine` for a one-line result; for a deletion, the line
    /// the removed text stood before).
    pub end_line: usize,
    /// One-based lines the edit replaced in the file before it.
    pub old_start_line: usize,
    /// The last of the lines replaced.
    pub old_end_line: usize,
    /// How many places changed (more than one only with `replaceAll`).
    pub occurrences: usize,
    /// What differed between the file and `oldText` and what was done about it, in words.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub normalized: Vec<String>,
    /// True when the span was too large to align in detail within the work budget and a coarser
    /// alignment was used: the file's bytes were kept wherever whole lines are equal, but characters
    /// inside changed lines are the model's (`normalized` says so too). Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub coarse_alignment: bool,
}

/// A successful edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EditSuccess {
    /// What the model reads: where each edit landed, what was normalized, and the diff.
    pub text: String,
    /// The path as the caller gave it.
    pub path: String,
    /// Numbered diff for display (`+NN`/`-NN`/` NN`), invisible changes marked.
    pub diff: String,
    /// Unified diff of the file's real bytes; `git apply` reproduces the new file.
    pub patch: String,
    /// The one-based line of the first change in the new file (null when nothing changed).
    pub first_changed_line: Option<usize>,
    /// Where each edit landed, in the order of `edits`.
    pub edits: Vec<EditReport>,
    /// `utf-8`, `utf-8-bom`, `utf-16le` or `utf-16be`.
    pub encoding: &'static str,
    /// SHA-256 (hex) of the file's bytes before the edit.
    pub hash_before: String,
    /// SHA-256 (hex) of the file's bytes after it (what they would be, for a dry run).
    pub hash_after: String,
    /// True when nothing was written (`dryRun`).
    pub dry_run: bool,
    /// Whether `surgical undo` (or the `undo` tool) can restore the content before this change.
    pub undo_available: bool,
    /// True when `patch` was cut to fit a model's context (a line over 2000 characters, or the
    /// patch past 256 KiB, each cut marked): it no longer applies with `git apply`. The file
    /// itself is as the edit left it.
    pub patch_truncated: bool,
    /// The syntax errors this call introduced into the file (empty when none), found by parsing it
    /// before and after in its language; absent when it was not checked (`syntaxCheck` says why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_errors: Option<Vec<SyntaxErrorReport>>,
    /// `checked: LANGUAGE`, or `skipped: WHY` (a language the check does not know, a file over the
    /// size limit, parsing over its time budget); absent when `onSyntaxError` is `off`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_check: Option<String>,
}

/// A successful write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WriteSuccess {
    /// What the model reads: what was written (lines, encoding, line endings, what was kept from
    /// the file) and, when a file was replaced, the diff.
    pub text: String,
    /// The path as the caller gave it.
    pub path: String,
    /// True when the file did not exist before (parent directories are created as needed).
    pub created: bool,
    /// SHA-256 (hex) of the file's bytes before (null for a new file).
    pub hash_before: Option<String>,
    /// SHA-256 (hex) of the bytes written (that would be written, for a dry run).
    pub hash_after: String,
    /// `utf-8`, `utf-8-bom`, `utf-16le` or `utf-16be`.
    pub encoding: &'static str,
    /// Whether the file starts with a byte-order mark.
    pub bom: bool,
    /// The line ending `content`'s line breaks were written with: `lf`, `crlf` or `cr`.
    pub line_ending: &'static str,
    /// Lines in the file written.
    pub total_lines: usize,
    /// Numbered diff of the old text against the new (`+NN`/`-NN`/` NN`); empty for a new file.
    pub diff: String,
    /// Unified diff of the file's bytes (of its text for UTF-16); `git apply` reproduces the new
    /// file. Empty for a new file.
    pub patch: String,
    /// The one-based line of the first change (null for a new file or an unchanged one).
    pub first_changed_line: Option<usize>,
    /// True when nothing was written (`dryRun`).
    pub dry_run: bool,
    /// Whether `surgical undo` (or the `undo` tool) can put back what the file held before (for a
    /// new file: remove it, while it is unchanged).
    pub undo_available: bool,
    /// True when `patch` was cut to fit a model's context (a line over 2000 characters, or the
    /// patch past 256 KiB, each cut marked): it no longer applies with `git apply`. The file
    /// itself is as the write left it.
    pub patch_truncated: bool,
    /// The syntax errors this call introduced into a file it replaced (empty when none; see
    /// `edit`'s `syntaxErrors`); absent for a new file, an unchanged one, or one not checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_errors: Option<Vec<SyntaxErrorReport>>,
    /// `checked: LANGUAGE` or `skipped: WHY` for a replaced file (see `edit`'s `syntaxCheck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_check: Option<String>,
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
    pub syntax_errors: Option<Vec<SyntaxErrorReport>>,
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

/// Where one segment of the snippet landed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SegmentReport {
    /// One-based first line of the segment in the file after the call.
    pub start_line: usize,
    /// Its last line there.
    pub end_line: usize,
    /// How many lines of the file the segment deleted: lines of the region it replaced that it does
    /// not show as they are (a line it rewrites counts: its old version is gone). A number, not a
    /// list; `diff` shows which.
    pub deleted_lines: usize,
    /// One-based first and last line of the file the segment replaced, before the call.
    pub old_start_line: usize,
    /// The last of those.
    pub old_end_line: usize,
    /// One-based first and last line of the snippet the segment is made of.
    pub snippet_start_line: usize,
    /// The last of those.
    pub snippet_end_line: usize,
    /// Whether the segment changed anything (false for a segment of unchanged lines only).
    pub changed: bool,
}

/// A successful `apply_snippet`: the `edit` result (its `edits` are the segments that changed
/// something, `index` being the segment's) plus where every segment landed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SnippetSuccess {
    /// Everything `edit` reports.
    #[serde(flatten)]
    pub edit: EditSuccess,
    /// Every segment of the snippet (code between marker lines), in order.
    pub segments: Vec<SegmentReport>,
    /// One-based first and last line of the file kept before the first segment although the
    /// snippet has no marker there (its start read as "keep the rest"). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_before: Option<[usize; 2]>,
    /// The same after the last segment (lines of the file before the call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_after: Option<[usize; 2]>,
    /// True when lines were compared with indentation ignored (none fit as written) and new lines
    /// were re-indented like the file's. Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub indentation_ignored: bool,
    /// The call's `instructions`, as given (recorded; the merge does not use them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
}

/// One step of the undo journal: one call that changed files (see [`crate::undo_history`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct UndoStep {
    /// The tool that made the change: `edit`, `write` or `apply_patch`.
    pub tool: String,
    /// When, in seconds since the Unix epoch.
    pub time: u64,
    /// The files it changed, in the order it wrote them.
    pub files: Vec<UndoFile>,
}

/// One file of an [`UndoStep`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct UndoFile {
    /// The file's path relative to the root.
    pub path: String,
    /// What undoing the step does to it: `restore` (put back its old content), `remove` (the call
    /// created it) or `recreate` (the call deleted or moved it away).
    pub undo: &'static str,
    /// Whether it still is what the call left; when a file of a step is not, undoing the step is
    /// refused (`stale`).
    pub unchanged: bool,
}
