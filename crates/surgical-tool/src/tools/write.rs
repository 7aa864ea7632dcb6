//! The `write` tool: create a file, or replace a file's whole content.
//!
//! A model writes text with `\n` line breaks and no byte-order mark; the file decides the rest. A new
//! file gets LF and UTF-8 unless the call says otherwise; an existing file keeps its encoding (BOM,
//! UTF-16) and its line-ending style unless the call says otherwise, so replacing a CRLF file with
//! text written by a model leaves a CRLF file. Writes are atomic (see `surgical_fs::write_atomic`
//! and `surgical_fs::write_new`), and what is reported — hashes, the diff, the patch — is computed
//! from the bytes before and after.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use surgical_core::diff;
use surgical_core::lines::{model_newlines, whole_lines, with_ending, Endings};
use surgical_fs::{DirLock, Encoding, FsErrorKind, Root};

use crate::contract::eol::LineEnding;
use crate::pipeline::document::{file_patch, Content, Digest, Document, Shared, Text, Version};
use crate::pipeline::files::{fs_error, fs_error_of};
use crate::pipeline::journal::{self, Journal};
use crate::tools::args;
use crate::wording::write as words;
use crate::ErrorCode;
use crate::{Config, ToolError, ToolResult, WriteSuccess};

/// A whole-file change is diffed line by line only if a trial diff finishes within this time: a
/// line diff costs (lines × differing lines), so rewriting all of a 50,000-line file would take about
/// a minute. Beyond it, the result has no numbered diff and a patch that replaces every line.
const DIFF_BUDGET: Duration = Duration::from_millis(300);

/// Changes with at most this many lines (old and new together) are always diffed.
const ALWAYS_DIFF_LINES: usize = 2000;

/// A parsed `write` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteRequest {
    /// The path as the model gave it (relative to the root, or absolute).
    pub path: String,
    /// The whole new text of the file, with `\n` line breaks (`\r\n` and `\r` count as `\n`).
    pub content: String,
    /// The line ending to write `content`'s line breaks with; by default the existing file's (its
    /// most frequent, if mixed), or LF for a new file.
    pub line_ending: Option<LineEnding>,
    /// The encoding to write; by default the existing file's, or UTF-8 without BOM for a new file.
    pub encoding: Option<Encoding>,
    /// The file's SHA-256 (hex) as the caller last saw it; the write fails with `stale` if it changed
    /// (or if the file no longer exists).
    pub expected_hash: Option<String>,
    /// Compute everything, write nothing.
    pub dry_run: bool,
}

const CONTENT_KEYS: [&str; 6] = ["content", "contents", "text", "file_text", "fileText", "newText"];

fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::invalid_input(message)
}

/// Reads an encoding name as models write it: `utf-8`, `utf8`, `UTF-8-BOM`, `utf-8-sig`,
/// `utf-16le`, `utf_16_be`, ...
pub(crate) fn parse_encoding(name: &str) -> Option<Encoding> {
    let key: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "utf8" => Some(Encoding::Utf8),
        "utf8bom" | "utf8sig" | "utf8withbom" => Some(Encoding::Utf8Bom),
        "utf16le" => Some(Encoding::Utf16Le),
        "utf16be" => Some(Encoding::Utf16Be),
        _ => None,
    }
}

/// Parses a `write` call: `{"path", "content", "lineEnding"?, "encoding"?, "expectedHash"?,
/// "dryRun"?}`. Also accepted: the path aliases of `edit`; `contents`, `text` or `file_text` for
/// `content`; `line_ending`, `expected_hash`, `dry_run`; line endings and encodings in any case.
pub fn parse_write_request(value: &Value) -> Result<WriteRequest, ToolError> {
    let obj = args::object(value, "write")?;
    let path = args::path(obj, "the file to write")?;
    let content = args::string(obj, &CONTENT_KEYS, "content")?.ok_or_else(|| invalid(words::CONTENT_MISSING))?;
    let line_ending = match args::string(obj, &["lineEnding", "line_ending"], "lineEnding")? {
        None => None,
        Some(name) => Some(LineEnding::parse(&name).ok_or_else(|| invalid(words::unknown_line_ending(&name)))?),
    };
    let encoding = match args::string(obj, &["encoding"], "encoding")? {
        None => None,
        Some(name) => Some(parse_encoding(&name).ok_or_else(|| invalid(words::unknown_encoding(&name)))?),
    };
    Ok(WriteRequest {
        path,
        content,
        line_ending,
        encoding,
        expected_hash: args::expected_hash(obj)?,
        dry_run: args::boolean(obj, &["dryRun", "dry_run"], "dryRun")?,
    })
}

/// Runs a parsed `write` call. The path must lead inside the root (`outside_root`). On any error
/// nothing is written.
///
/// Replacing a file works like `edit`: the directory lock is held from the read to the rename, the
/// old content goes to the undo journal (with `config.undo`), and the write is atomic. A new file is
/// created without replacing anything that appears at its path meanwhile (see
/// `surgical_fs::write_new`).
///
/// Edge cases: a leading U+FEFF in `content` is dropped (the BOM follows `encoding`, not the text);
/// a file that cannot be decoded (binary, UTF-32, malformed UTF-16) is not replaced; content with
/// a NUL character is refused for plain UTF-8, where it would make the file binary to surgical;
/// content equal to what the file holds writes nothing.
pub fn run_write_with(req: &WriteRequest, config: &Config) -> ToolResult {
    match run(req, config) {
        Ok(s) => ToolResult::Write(Box::new(s.bounded())),
        Err(e) => ToolResult::Error(e),
    }
}

/// The file as it was before the write.
struct Old {
    doc: Document,
    encoding: Encoding,
    text: Shared,
    endings: Endings,
}

/// The write's steps: the file opened, locked and read if it exists ([`open`]); the bytes to
/// write ([`new_content`]); then a new file created ([`create`]) or the file's content replaced
/// ([`replace`]). The directory lock is held until the end.
fn run(req: &WriteRequest, config: &Config) -> Result<WriteSuccess, ToolError> {
    let shown = req.path.as_str();
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown, ""))?;
    let (_lock, old) = open(req, config, &root)?;
    let new = new_content(req, old.as_ref(), config.max_file_size)?;
    match old {
        None => create(req, config, &root, new),
        Some(old) => replace(req, config, &root, old, new),
    }
}

/// Resolves the path inside the root (the journal's paths refused), then, if the file exists,
/// locks its directory (unless `dryRun`), reads it, checks `expectedHash` and decodes it
/// ([`old_file`]). A missing file with `expectedHash` is `stale`: it was deleted or moved.
fn open(req: &WriteRequest, config: &Config, root: &Root) -> Result<(Option<DirLock>, Option<Old>), ToolError> {
    let shown = req.path.as_str();
    if !req.dry_run {
        // Before the file is read: see `remove_orphans`.
        crate::pipeline::journal::remove_orphans(root);
    }
    crate::pipeline::files::refuse_reserved_name(root, shown)?;
    let target = match root.open(shown) {
        Ok(target) => Some(target),
        Err(e) if e.kind() == FsErrorKind::NotFound => None,
        Err(e) => return Err(fs_error(e, shown, "")),
    };
    let (lock, old) = match &target {
        Some(t) => {
            let (lock, doc) =
                Document::open_target(t, !req.dry_run, config.max_file_size).map_err(|e| fs_error(e, shown, ""))?;
            (lock, Some(old_file(doc, req, shown)?))
        }
        None => (None, None),
    };
    if let (None, Some(expected)) = (&old, &req.expected_hash) {
        return Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::new(ErrorCode::Stale, words::gone(shown, expected))
        });
    }
    Ok((lock, old))
}

/// The content to write, and what the result says about it.
struct New {
    /// The text, in the encoding to write.
    text: Text,
    line_ending: LineEnding,
    /// The bytes to write.
    raw: Shared,
    hash: Digest,
    total_lines: usize,
    /// What the file written is, in words ([`crate::wording::read::describe`]).
    about: String,
}

/// The bytes `content` becomes ([`new_text`]), within the size limit, and their hash (on the
/// second core for large content).
fn new_content(req: &WriteRequest, old: Option<&Old>, max_file_size: u64) -> Result<New, ToolError> {
    let shown = req.path.as_str();
    let (text, line_ending) = new_text(req, old)?;
    let raw = text.encoded().map_err(|e| fs_error(e, shown, ""))?;
    if raw.len() as u64 > max_file_size {
        return Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::new(ErrorCode::TooLarge, words::too_large(shown, raw.len(), max_file_size))
        });
    }
    let hash = Digest::of(&raw);
    let endings = Endings::of(&text.text);
    Ok(New {
        line_ending,
        hash,
        total_lines: endings.lines(),
        about: crate::wording::read::describe(text.encoding, endings),
        raw,
        text,
    })
}

/// A new file: recorded in the undo journal, then created with `Root::create` (unless `dryRun`).
fn create(req: &WriteRequest, config: &Config, root: &Root, new: New) -> Result<WriteSuccess, ToolError> {
    let shown = req.path.as_str();
    let mut undo_available = false;
    if !req.dry_run {
        config.cancellation.check(shown)?;
        let full = root.resolve(shown).map_err(|e| fs_error(e, shown, ""))?;
        // The step is recorded before the file appears, so that undo finds it.
        let journal = config.undo.then(|| Journal::new(root));
        let mut step = journal.as_ref().and_then(|j| j.begin("write"));
        if let Some(step) = step.as_mut() {
            let index = step
                .add(&full, None, 0, None)
                .expect("a new file has no content to keep");
            step.set_after(index, Some(new.hash.get()));
        }
        let created = root.create(&full, &new.raw, None);
        undo_available = journal::close(journal.as_ref(), step, created.is_ok());
        created.map_err(|e| fs_error(e, shown, ""))?;
    }
    let encoding = new.text.encoding;
    Ok(WriteSuccess {
        text: words::created(shown, req.dry_run, new.total_lines, &new.about),
        path: shown.to_string(),
        created: true,
        hash_before: None,
        hash_after: new.hash.get().to_string(),
        encoding: encoding.name(),
        bom: encoding.has_bom(),
        line_ending: new.line_ending.name(),
        total_lines: new.total_lines,
        diff: String::new(),
        patch: String::new(),
        first_changed_line: None,
        dry_run: req.dry_run,
        undo_available,
        patch_truncated: false,
        syntax_errors: None,
        syntax_check: None,
    })
}

/// An existing file's content replaced: nothing written when it holds the new content already;
/// otherwise journaled and written atomically (`Document::commit`, unless `dryRun`); then the diff
/// and patch ([`diff_and_patch`]) and the `text`.
fn replace(req: &WriteRequest, config: &Config, root: &Root, old: Old, new: New) -> Result<WriteSuccess, ToolError> {
    let shown = req.path.as_str();
    let unchanged = old.doc.holds(&new.text);
    // The syntax check of a replaced file, before anything is written (a new file has no text
    // before to compare with, and identical content changes nothing).
    let syntax = if unchanged {
        crate::pipeline::syntax::Outcome::default()
    } else {
        let text = new.text.text.as_slice();
        let changes = diff::whole_change(&old.text, text);
        crate::pipeline::syntax::check(config, shown, &old.text, text, &changes)
    };
    if syntax.refuses(config) {
        return Err(crate::pipeline::syntax::refusal([(shown, &syntax)], false));
    }
    let mut undo_available = false;
    if !unchanged && !req.dry_run {
        config.cancellation.check(shown)?;
        let journal = config.undo.then(|| Journal::new(root));
        let mut step = journal.as_ref().and_then(|j| j.begin("write"));
        let written = old.doc.commit(&new.raw, &new.hash, step.as_mut());
        undo_available = journal::close(journal.as_ref(), step, matches!(written, Ok(true)));
        written.map_err(|e| fs_error(e, shown, ""))?;
    }

    let (shown_diff, patch, diffable) = diff_and_patch(&old, &new.text, &new.raw, shown);
    let mut out = if unchanged {
        words::unchanged(shown, new.total_lines, &new.about)
    } else {
        replaced_summary(req, &old, &new, diffable, &shown_diff.text)
    };
    crate::pipeline::syntax::insert_before_diff(&mut out, &syntax.text);

    let encoding = new.text.encoding;
    Ok(WriteSuccess {
        text: out,
        path: shown.to_string(),
        created: false,
        hash_before: Some(old.doc.hash.get().to_string()),
        hash_after: new.hash.get().to_string(),
        encoding: encoding.name(),
        bom: encoding.has_bom(),
        line_ending: new.line_ending.name(),
        total_lines: new.total_lines,
        diff: shown_diff.text,
        patch,
        first_changed_line: shown_diff.first_changed_line,
        dry_run: req.dry_run,
        undo_available,
        patch_truncated: false,
        syntax_errors: syntax.errors,
        syntax_check: syntax.note,
    })
}

/// The bytes `content` becomes: its line breaks as the requested line ending, else the file's (its
/// most frequent), else LF; in the requested encoding, else the file's, else UTF-8.
fn new_text(req: &WriteRequest, old: Option<&Old>) -> Result<(Text, LineEnding), ToolError> {
    let shown = req.path.as_str();
    let line_ending = req
        .line_ending
        .or_else(|| old.and_then(|o| o.endings.dominant()).map(LineEnding::from))
        .unwrap_or(LineEnding::Lf);
    let encoding = req
        .encoding
        .or_else(|| old.map(|o| o.encoding))
        .unwrap_or(Encoding::Utf8);
    let text = with_line_ending(&req.content, line_ending);
    if encoding == Encoding::Utf8 {
        if let Some(at) = text.iter().position(|&b| b == 0) {
            return Err(ToolError {
                path: Some(shown.to_string()),
                ..invalid(words::nul_in_content(surgical_core::lines::line_of(&text, at)))
            });
        }
    }
    let new = Text {
        encoding,
        text: Arc::new(text),
    };
    Ok((new, line_ending))
}

/// The numbered diff and the patch of a whole-file change, and whether it was cheap enough to
/// diff line by line (if not, the diff is empty and the patch replaces every line).
fn diff_and_patch(old: &Old, new: &Text, raw: &[u8], shown: &str) -> (diff::NumberedDiff, String, bool) {
    let text = new.text.as_slice();
    let changes = diff::whole_change(&old.text, text);
    let diffable = changes
        .iter()
        .all(|c| cheap_to_diff(&old.text[c.old.clone()], &text[c.new.clone()]));
    let shown_diff = if diffable {
        diff::numbered_diff(&old.text, text, &changes)
    } else {
        diff::NumberedDiff::untold(
            changes
                .first()
                .map(|c| surgical_core::lines::line_of(&old.text, c.old.start)),
        )
    };
    let old_version = Version {
        encoding: old.encoding,
        text: &old.text,
        on_disk: None,
    };
    let new_version = new.version(Some(raw));
    let patch = if diffable {
        file_patch(Some(old_version), Some(new_version), None, shown)
    } else {
        replace_all_patch(&old_version.shown().0, &new_version.shown().0, shown)
    };
    (shown_diff, patch, diffable)
}

/// The `text` of the result when a file's content was replaced.
fn replaced_summary(req: &WriteRequest, old: &Old, new: &New, diffable: bool, diff: &str) -> String {
    let notes = words::notes(
        req.line_ending,
        new.line_ending,
        old.endings,
        new.text.encoding,
        old.encoding,
        std::str::from_utf8(&old.text).is_ok(),
    );
    words::replaced(
        &req.path,
        req.dry_run,
        old.endings.lines(),
        new.total_lines,
        &new.about,
        &notes,
        diffable,
        diff,
    )
}

/// Checks `expectedHash` against the existing file, then that it decodes.
fn old_file(doc: Document, req: &WriteRequest, shown: &str) -> Result<Old, ToolError> {
    let hash = doc.hash.get();
    if let Some(expected) = &req.expected_hash {
        if !expected.eq_ignore_ascii_case(hash) {
            return Err(ToolError {
                path: Some(shown.to_string()),
                ..ToolError::new(ErrorCode::Stale, words::stale(shown, hash, expected))
            });
        }
    }
    let (encoding, text) = match &doc.content {
        Content::Text(t) => (t.encoding, Arc::clone(&t.text)),
        Content::Undecodable(e) => {
            let mut err = fs_error_of(e, shown, "");
            err.message.push_str(words::NOT_REPLACED_UNDECODABLE);
            return Err(err);
        }
    };
    let endings = Endings::of(&text);
    Ok(Old {
        doc,
        encoding,
        text,
        endings,
    })
}

/// `content` with a leading U+FEFF dropped and every line break written as `ending`.
fn with_line_ending(content: &str, ending: LineEnding) -> Vec<u8> {
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    let content = model_newlines(content);
    if ending == LineEnding::Lf {
        return content.into_owned().into_bytes();
    }
    with_ending(&content, ending.into()).into_owned()
}

/// Whether a line diff of `old` against `new` (the changed part of a whole-file change) is quick: a
/// trial diff with a deadline, when the change is large.
fn cheap_to_diff(old: &[u8], new: &[u8]) -> bool {
    let a: Vec<&[u8]> = whole_lines(old).collect();
    let b: Vec<&[u8]> = whole_lines(new).collect();
    if a.len() + b.len() <= ALWAYS_DIFF_LINES {
        return true;
    }
    let start = Instant::now();
    let _ = similar::capture_diff_slices_deadline(similar::Algorithm::Myers, &a, &b, Some(start + DIFF_BUDGET));
    start.elapsed() < DIFF_BUDGET
}

/// A unified diff that deletes every line of `old` and adds every line of `new` (lines end at `\n`,
/// as in `diff::unified_patch`): what `git apply` needs when a line diff is too costly.
fn replace_all_patch(old: &[u8], new: &[u8], path: &str) -> String {
    let split = |t: &[u8]| -> Vec<String> {
        t.split_inclusive(|&b| b == b'\n')
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect()
    };
    let (a, b) = (split(old), split(new));
    let range = |n: usize| match n {
        0 => "0,0".to_string(),
        1 => "1".to_string(),
        n => format!("1,{n}"),
    };
    let mut out = format!(
        "--- a/{path}\n+++ b/{path}\n@@ -{} +{} @@\n",
        range(a.len()),
        range(b.len())
    );
    for (sign, lines) in [('-', &a), ('+', &b)] {
        for line in lines.iter() {
            out.push(sign);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_aliases() {
        let r = parse_write_request(&json!({"file_path": "a", "file_text": "x\n", "lineEnding": "CRLF",
            "encoding": "UTF-16LE", "dry_run": "true"}))
        .unwrap();
        assert_eq!(r.content, "x\n");
        assert_eq!(r.line_ending, Some(LineEnding::Crlf));
        assert_eq!(r.encoding, Some(Encoding::Utf16Le));
        assert!(r.dry_run);
        for bad in [
            json!({"path": "a"}),
            json!({"content": "x"}),
            json!({"path": "a", "content": 3}),
            json!({"path": "a", "content": "x", "lineEnding": "native"}),
            json!({"path": "a", "content": "x", "encoding": "latin-1"}),
            json!({"path": "a", "content": "x", "encoding": "utf-16"}),
        ] {
            assert_eq!(parse_write_request(&bad).unwrap_err().code, "invalid_input", "{bad}");
        }
        assert_eq!(parse_encoding("utf-8-sig"), Some(Encoding::Utf8Bom));
        assert_eq!(parse_encoding("UTF8"), Some(Encoding::Utf8));
        assert_eq!(parse_encoding("utf_16_be"), Some(Encoding::Utf16Be));
    }

    #[test]
    fn line_endings_applied() {
        assert_eq!(with_line_ending("a\nb\r\nc\rd", LineEnding::Crlf), b"a\r\nb\r\nc\r\nd");
        assert_eq!(with_line_ending("\u{feff}a\n", LineEnding::Cr), b"a\r");
        assert_eq!(with_line_ending("a\r\n", LineEnding::Lf), b"a\n");
        assert_eq!(with_line_ending("", LineEnding::Crlf), b"");
    }

    #[test]
    fn huge_rewrites_skip_the_line_diff() {
        let old: String = (0..30_000).map(|n| format!("old {n}\n")).collect();
        let new: String = (0..30_000).map(|n| format!("new {n}\n")).collect();
        let start = Instant::now();
        assert!(!cheap_to_diff(old.as_bytes(), new.as_bytes()));
        assert!(start.elapsed() < DIFF_BUDGET * 4, "{:?}", start.elapsed());
        // Far apart changes in a long file are cheap: few lines differ.
        let mut edited = old.clone();
        edited.replace_range(0..5, "OLD 0");
        edited.push_str("tail\n");
        assert!(cheap_to_diff(old.as_bytes(), edited.as_bytes()));
        assert!(cheap_to_diff(b"a\nb\n", b"c\n"));
    }

    #[test]
    fn replace_all_patch_shape() {
        assert_eq!(
            replace_all_patch(b"a\nb", b"c\n", "f"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1 @@\n-a\n-b\n\\ No newline at end of file\n+c\n"
        );
        assert_eq!(
            replace_all_patch(b"", b"x\n", "f"),
            "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n"
        );
    }
}
