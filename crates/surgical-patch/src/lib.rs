/*!
Parsing and placing patches, with no I/O: the edit formats models are trained on — Codex's
`apply_patch` patches (`*** Begin Patch`), SEARCH/REPLACE blocks (Aider's `<<<<<<< SEARCH`, Cline's
`------- SEARCH`) and unified diffs (`git diff`, `diff -u`) — read into one model, and their hunks
placed on a text with the tiers of [`surgical_core`].

# Guide

1. [`detect_format`] names the format of a patch text (or take it from the caller);
2. [`parse`] reads it into [`Op`]s — add, delete, or update a file with [`Hunk`]s (old lines → new
   lines, with what narrows their place: `@@` anchors, a line-number hint, the end of the file);
3. [`place()`] locates every hunk of one file in its text as whole lines (uniqueness required; an
   `@@` anchor, the previous hunk and a line-number hint only narrow the search, never pick among
   identical candidates), writes each with a [`surgical_core::ChangeSet`] on exactly the lines found
   (the file's bytes kept wherever old and new lines agree; new lines take the local line ending),
   and splices them in one pass: a [`Patched`] text with a [`HunkOutcome`] per hunk, or a
   [`Failure`] — data (the hunk, the kind, the candidate lines or the closest region), worded by
   the caller.

Reading and writing files, locking, the all-or-nothing transaction and every sentence a model
reads are the caller's (surgical-tool): this crate never touches a disk.

# Example

```
use surgical_patch::{detect_format, parse, place, OpKind, Rules};
use surgical_core::Tier;

let text = b"fn main() {\r\n    let x = 1;\r\n    println!(\"{x}\");\r\n}\r\n";
let patch = "*** Begin Patch\n*** Update File: src/main.rs\n@@ fn main() {\n-    let x = 1;\n+    let x = 2;\n*** End Patch\n";

let format = detect_format(patch).unwrap();
let ops = parse(patch, format, None).unwrap();
let OpKind::Update { hunks, .. } = &ops[0].kind else { unreachable!() };
let patched = place(text, hunks, &Rules::new(format, Tier::Indentation)).unwrap();
for hunk in &patched.hunks {
    // Hunk 0 landed on lines 2..=2 (unique after its @@ line, matched exactly).
    println!("hunk {} landed on lines {}..={} ({}, {})", hunk.index, hunk.new_lines.0, hunk.new_lines.1,
        hunk.how.name(), hunk.strategy.name());
}
assert_eq!(patched.hunks[0].new_lines, (2, 2));
// The file's CRLF line endings are kept.
assert_eq!(patched.text, b"fn main() {\r\n    let x = 2;\r\n    println!(\"{x}\");\r\n}\r\n");
```
*/

#![deny(missing_docs)]

mod codex;
mod place;
mod search_replace;
mod unified;

pub use place::{
    place, place_spliced, Elsewhere, Failure, FailureKind, How, HunkOutcome, Internal, Patched, PatchedSpliced, Rules,
};

/// An edit format.
///
/// Not `#[non_exhaustive]`, on purpose: a caller words every format (how to create a file in it, what
/// it calls a hunk), so a new format should stop its build until it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatchFormat {
    /// Codex's `*** Begin Patch` … `*** End Patch`.
    Codex,
    /// `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` blocks (and Cline's `------- SEARCH` /
    /// `+++++++ REPLACE`), the file name on the line before each block.
    SearchReplace,
    /// `git diff` / `diff -u` output.
    Unified,
}

impl PatchFormat {
    /// `apply_patch`, `search_replace` or `unified_diff`.
    pub fn name(self) -> &'static str {
        match self {
            PatchFormat::Codex => "apply_patch",
            PatchFormat::SearchReplace => "search_replace",
            PatchFormat::Unified => "unified_diff",
        }
    }

    /// The format with this name (also `codex`, `aider`, `cline`, `diff`, `unified`, `git`).
    pub fn from_name(name: &str) -> Option<PatchFormat> {
        match name.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "apply_patch" | "codex" | "patch" => Some(PatchFormat::Codex),
            "search_replace" | "searchreplace" | "aider" | "cline" | "blocks" => Some(PatchFormat::SearchReplace),
            "unified_diff" | "unified" | "diff" | "udiff" | "git" | "git_diff" => Some(PatchFormat::Unified),
            _ => None,
        }
    }
}

/// Which format `text` is written in: the first line that only one format has decides
/// (`*** Begin Patch`, a SEARCH marker, or a unified diff's `diff --git`, `---`/`+++` or `@@ -`).
pub fn detect_format(text: &str) -> Option<PatchFormat> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t == "*** Begin Patch"
            || t.starts_with("*** Update File:")
            || t.starts_with("*** Add File:")
            || t.starts_with("*** Delete File:")
        {
            return Some(PatchFormat::Codex);
        }
        if search_replace::is_search_marker(t) {
            return Some(PatchFormat::SearchReplace);
        }
        let next = lines.get(i + 1).map_or("", |l| l.trim_start());
        if line.starts_with("diff --git ")
            || (line.starts_with("--- ") && next.starts_with("+++ "))
            || (line.starts_with("@@ -") && line[4..].starts_with(|c: char| c.is_ascii_digit()))
        {
            return Some(PatchFormat::Unified);
        }
    }
    None
}

/// What a hunk line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// Unchanged (` `): in the old and the new lines.
    Context,
    /// `-`: only in the old lines.
    Removed,
    /// `+`: only in the new lines.
    Added,
}

/// One replacement of whole lines: an apply_patch chunk, a SEARCH/REPLACE block, a unified-diff hunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hunk {
    /// The hunk's lines in order, each with what it is.
    pub lines: Vec<(Tag, String)>,
    /// apply_patch `@@ text` lines, outermost first: each narrows the search to the lines from it on.
    pub anchors: Vec<String>,
    /// apply_patch `*** End of File`: the old lines end the file (tried first, as Codex does).
    pub at_eof: bool,
    /// The one-based old start line the hunk header claims (unified diffs, Roo's `:start_line:`).
    pub hint: Option<usize>,
    /// From `\ No newline at end of file`: whether the new lines end with a line break, when the
    /// hunk reaches the end of the file. `None`: the file's own state is kept when its last line is
    /// unchanged, and a line the hunk writes last gets a line break.
    pub final_newline: Option<bool>,
    /// The one-based line of the patch text where the hunk starts, for messages.
    pub patch_line: usize,
}

impl Hunk {
    /// The lines the hunk must find: unchanged and removed ones.
    pub fn old_lines(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter(|(t, _)| *t != Tag::Added)
            .map(|(_, l)| l.as_str())
            .collect()
    }

    /// The lines it writes in their place: unchanged and added ones.
    pub fn new_lines(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter(|(t, _)| *t != Tag::Removed)
            .map(|(_, l)| l.as_str())
            .collect()
    }
}

/// What an operation does to its file.
///
/// Not `#[non_exhaustive]`, on purpose: a caller that applied an operation it does not know would
/// do the wrong thing to a file, so a new kind should stop its build until it handles it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// Create the file with `content` (`\n` line breaks), replacing it if it exists (as Codex does).
    Add {
        /// The new file's text.
        content: String,
    },
    /// Remove the file. Hunks (unified diffs) must account for its whole content.
    Delete {
        /// The hunks (empty for apply_patch's `*** Delete File:`).
        hunks: Vec<Hunk>,
    },
    /// Apply hunks, then move the file if `move_to` is set. With `create_if_missing`
    /// (SEARCH/REPLACE), a missing file counts as empty, so an empty SEARCH creates it.
    Update {
        /// The hunks, in patch order.
        hunks: Vec<Hunk>,
        /// Where the file goes afterwards (apply_patch's `*** Move to:`, a diff's rename).
        move_to: Option<String>,
        /// A missing file counts as empty.
        create_if_missing: bool,
    },
}

/// One file operation of a patch.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Op {
    /// The file, as the patch names it.
    pub path: String,
    /// Other names the file may go by, tried in order when `path` does not exist (a unified diff's
    /// old name, or its name without the first component).
    pub alternatives: Vec<String>,
    /// What to do to it.
    pub kind: OpKind,
    /// The one-based line of the patch text where the operation starts.
    pub patch_line: usize,
}

/// A patch that could not be parsed: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    /// One-based line of the patch text (0: the patch as a whole).
    pub line: usize,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            message: message.into(),
        }
    }
}

/// A file's UTF-8 BOM as hunks may write it: at the start of their first line (git writes it so, as
/// part of the file's first line). For a file with a BOM, whose text [`place()`] is given without it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BomHunks {
    /// The hunks without the BOM characters, each with its index in the patch. A hunk that changed
    /// nothing but the BOM is left out.
    pub hunks: Vec<(usize, Hunk)>,
    /// Whether the hunks remove the BOM: a hunk's first old line has it and its first new line does not.
    pub removes_bom: bool,
}

/// Takes a U+FEFF at the start of each hunk's first old line (and of its first new line) out of
/// `hunks`: see [`BomHunks`]. Hunks without one are returned as they are.
pub fn strip_bom(hunks: &[Hunk]) -> BomHunks {
    const BOM: char = '\u{feff}';
    let mut out = BomHunks::default();
    for (index, hunk) in hunks.iter().enumerate() {
        let mut h = hunk.clone();
        let first_old = h.lines.iter().position(|(t, _)| *t != Tag::Added);
        let Some(k) = first_old.filter(|&k| h.lines[k].1.starts_with(BOM)) else {
            out.hunks.push((index, h));
            continue;
        };
        h.lines[k].1.remove(0);
        if h.lines[k].0 == Tag::Removed {
            let first_new = h.lines.iter().position(|(t, _)| *t != Tag::Removed);
            match first_new {
                Some(n) if h.lines[n].0 == Tag::Added && h.lines[n].1.starts_with(BOM) => {
                    h.lines[n].1.remove(0);
                }
                _ => out.removes_bom = true,
            }
        }
        if h.old_lines() != h.new_lines() {
            out.hunks.push((index, h));
        }
    }
    out
}

/// The lines of a patch text, CRLF or LF, without their terminators.
pub(crate) fn patch_lines(text: &str) -> Vec<&str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()
}

/// Parses `text` in `format` into operations. `default_path` names the file for formats that may
/// leave it out (SEARCH/REPLACE blocks without a file name, a unified diff of bare hunks).
pub fn parse(text: &str, format: PatchFormat, default_path: Option<&str>) -> Result<Vec<Op>, ParseError> {
    let ops = match format {
        PatchFormat::Codex => codex::parse(text)?,
        PatchFormat::SearchReplace => search_replace::parse(text, default_path)?,
        PatchFormat::Unified => unified::parse(text, default_path)?,
    };
    if ops.is_empty() {
        return Err(ParseError::new(
            0,
            "the patch changes no file: it has no file operations (an apply_patch patch needs at least one \
             `*** Add File:`, `*** Delete File:` or `*** Update File:` section)",
        ));
    }
    Ok(ops)
}
