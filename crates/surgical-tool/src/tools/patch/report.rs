//! The result of a call: per operation its numbered diff, its patch (git headers for added,
//! deleted and moved files), the hashes before and after, where each hunk went; the text; the
//! combined patch.

use std::fmt::Write as _;

use surgical_core::diff;
use surgical_fs::Encoding;
use surgical_patch::{HunkOutcome, PatchFormat};

use super::files::{Body, Files};
use super::simulate::Outcome;
use crate::pipeline::document::{file_patch, sha256_hex, Version};
use crate::wording::patch as words;
use crate::{FileReport, HunkReport, PatchSuccess};

/// What the report shows of one operation that depends on the operation alone, not on the write:
/// its numbered diff, its patch and how many lines its file has after it (before it, for a
/// deletion). The costly part of a report for a large file (the diffs' line numbers are a pass over
/// it), so made while the files are written ([`render`]).
pub(super) struct Rendered {
    shown: diff::NumberedDiff,
    patch: String,
    lines: usize,
}

/// [`Rendered`] for every operation, in order.
pub(super) fn render(outcomes: &[Outcome]) -> Vec<Rendered> {
    outcomes.iter().map(rendered).collect()
}

/// One operation's [`Rendered`]: for a new text held as replacements on the old one, the windows
/// around them are counted once and give the diff, the patch and the line count (the same as the
/// whole texts'), with no pass over the new text.
fn rendered(o: &Outcome) -> Rendered {
    let old_text = o.before.as_ref().map_or(&[][..], |(_, t)| t.text().as_slice());
    let windows = replacements_of(o).map(|r| diff::Windows::new(old_text, r));
    let (shown, patch) = diffs_of(o, windows.as_ref());
    let count = |c: &Option<(Encoding, Body)>| c.as_ref().map_or(0, |(_, t)| t.count_lines());
    let lines = match &windows {
        Some(w) if o.action != "delete" => w.new_line_count(),
        _ => count(if o.action == "delete" { &o.before } else { &o.after }),
    };
    Rendered { shown, patch, lines }
}

/// The result: each operation's file report ([`file_report`]) and its lines of `text`
/// ([`operation_text`]), from its [`Rendered`] diffs; then the headline, those lines and the files'
/// diffs; the combined patch.
pub(super) fn report(
    outcomes: &[Outcome],
    rendered: Vec<Rendered>,
    syntax: &[crate::pipeline::syntax::Outcome],
    files: &Files,
    format: PatchFormat,
    dry_run: bool,
) -> PatchSuccess {
    let mut reports = Vec::with_capacity(outcomes.len());
    let mut summary = String::new();
    let mut diffs = String::new();
    let mut combined = String::new();
    for ((index, o), r) in outcomes.iter().enumerate().zip(rendered) {
        summary.push_str(&operation_text(o, r.lines, format, dry_run));
        let mut report = file_report(o, (r.shown, r.patch), index, files, format, dry_run);
        for line in syntax[index].text.lines() {
            let _ = writeln!(summary, "  {line}");
        }
        report.syntax_errors = syntax[index].errors.clone();
        report.syntax_check = syntax[index].note.clone();
        if o.before.is_some() && o.after.is_some() && !report.diff.is_empty() {
            let _ = writeln!(diffs, "--- {}", o.moved_to.as_deref().unwrap_or(&o.path));
            diffs.push_str(&report.diff);
        }
        combined.push_str(&report.patch);
        reports.push(report);
    }
    let count = |a: &str| outcomes.iter().filter(|o| o.action == a).count();
    let counts = [count("add"), count("update"), count("move"), count("delete")];
    let mut text = words::headline(dry_run, format, outcomes.len(), counts);
    text.push_str(&summary);
    if !diffs.is_empty() {
        text.push('\n');
        crate::wording::output::push_diff(&mut text, &diffs, crate::wording::output::WHOLE_DIFFS_IN_FILES);
    }
    PatchSuccess {
        text,
        format: format.name().to_string(),
        files: reports,
        patch: combined,
        dry_run,
        patch_truncated: false,
    }
}

/// What operation `index` did to its file: its diffs (`shown`, `patch`: see [`diffs_of`]), the
/// hashes of its bytes before and after ([`hashes_of`]), where each hunk went.
fn file_report(
    o: &Outcome,
    (shown, patch): (diff::NumberedDiff, String),
    index: usize,
    files: &Files,
    format: PatchFormat,
    dry_run: bool,
) -> FileReport {
    let slot = &files.slots[o.slot];
    let (hash_before, hash_after) = hashes_of(o, index, files);
    let encoding = o
        .after
        .as_ref()
        .or(o.before.as_ref())
        .map_or(Encoding::Utf8, |(e, _)| *e);
    FileReport {
        path: o.path.clone(),
        action: o.action.to_string(),
        moved_to: o.moved_to.clone(),
        diff: shown.text,
        patch,
        first_changed_line: shown.first_changed_line,
        hunks: o.hunks.iter().map(|h| hunk_report(h, format)).collect(),
        hash_before,
        hash_after,
        encoding: encoding.name().to_string(),
        undo_available: !dry_run && slot.journaled,
        patch_truncated: false,
        syntax_errors: None,
        syntax_check: None,
    }
}

/// An operation's numbered diff (none for a deleted file: the `text` says how many lines went,
/// and the patch still has them, so that `git apply` reproduces the deletion) and its patch
/// ([`patch_of`]); `windows`, those of its replacements when its new text is held so.
fn diffs_of(o: &Outcome, windows: Option<&diff::Windows<'_>>) -> (diff::NumberedDiff, String) {
    let shown = match (&o.before, &o.after) {
        (_, None) => diff::NumberedDiff::untold(None),
        // Window by window: the same diff as over the whole texts, without passes over them.
        (before, Some((_, after))) => {
            let old_text = before.as_ref().map_or(&[][..], |(_, t)| t.text().as_slice());
            match windows {
                Some(windows) => windows.numbered_diff(),
                None => {
                    let new_text = after.text().as_slice();
                    let changes = match &o.changes {
                        Some(c) if o.before.is_some() => c.clone(),
                        _ => diff::whole_change(old_text, new_text),
                    };
                    diff::Windows::new(
                        old_text,
                        changes.iter().map(|c| (c.old.clone(), &new_text[c.new.clone()])),
                    )
                    .numbered_diff()
                }
            }
        }
    };
    (shown, patch_of(o, windows))
}

/// The replaced ranges of an operation's old text with their new bytes, when its new text is held
/// as replacements on its old one (as an update's is): nothing is built to diff it.
fn replacements_of(o: &Outcome) -> Option<Vec<(std::ops::Range<usize>, &[u8])>> {
    let (Some((_, before)), Some((_, after))) = (&o.before, &o.after) else {
        return None;
    };
    let spliced = after.spliced_on(before.text())?;
    Some(spliced.replacements().map(|(c, b)| (c.old.clone(), b)).collect())
}

/// The SHA-256 of an operation's file before and after it, as bytes on disk: known for the file
/// as read (its slot's hash) and as written (the slot of the file after the call); computed for a state in between (a
/// file several operations change).
fn hashes_of(o: &Outcome, index: usize, files: &Files) -> (Option<String>, Option<String>) {
    let slot = &files.slots[o.slot];
    let hash = |c: &Option<(Encoding, Body)>| {
        c.as_ref().map(|(e, t)| (e, t.text())).map(|(e, t)| match e {
            Encoding::Utf8 | Encoding::Utf8Bom => sha256_hex(&[e.bom(), t]),
            _ => sha256_hex(&[&surgical_fs::encode(*e, t).unwrap_or_else(|_| t.to_vec())]),
        })
    };
    let as_read = |k: usize| files.slots[k].before.as_ref().map(|b| b.hash.get().to_string());
    let hash_before = o.hash_before.and_then(as_read).or_else(|| hash(&o.before));
    let is_final = slot.last_op == Some(index) && o.after.is_some();
    let hash_after = if is_final {
        slot.hash_after.as_ref().map(|d| d.get().to_string())
    } else {
        hash(&o.after)
    };
    (hash_before, hash_after)
}

/// An operation's lines of `text` (see [`words::operation`]); `lines`, how many its file has
/// after it (before it, for a deletion).
fn operation_text(o: &Outcome, lines: usize, format: PatchFormat, dry_run: bool) -> String {
    let had_bom = |c: &Option<(Encoding, Body)>| matches!(c, Some((Encoding::Utf8Bom, _)));
    let bom_changed = o.after.is_some() && had_bom(&o.before) != had_bom(&o.after);
    words::operation(
        &words::Operation {
            action: o.action,
            path: &o.path,
            moved_to: o.moved_to.as_deref(),
            replaced: o.replaced,
            lines,
            hunks: &o.hunks,
            bom_now: bom_changed.then(|| had_bom(&o.after)),
        },
        format,
        dry_run,
    )
}

/// The unified diff of one operation, with git's headers for added, deleted and moved files;
/// `windows`, those of its replacements when its new text is held so.
fn patch_of(o: &Outcome, windows: Option<&diff::Windows<'_>>) -> String {
    fn version(c: &Option<(Encoding, Body)>) -> Option<Version<'_>> {
        c.as_ref().map(|(encoding, text)| Version {
            encoding: *encoding,
            text: text.text(),
            on_disk: None,
        })
    }
    let old_name = o.path.as_str();
    let new_name = o.moved_to.as_deref().unwrap_or(old_name);
    // What the patch shows before the text: a UTF-8 BOM (see `document::file_patch`).
    let prefix = |c: &Option<(Encoding, Body)>| match c {
        Some((Encoding::Utf8Bom, _)) => Encoding::Utf8Bom.bom(),
        _ => &[][..],
    };
    let body = match windows {
        // A new text held as replacements on the old one, with the same prefix: window by window,
        // as `file_patch` does for known changes, without building it.
        Some(windows) if prefix(&o.before) == prefix(&o.after) => windows.unified_patch(prefix(&o.before), new_name),
        _ => file_patch(version(&o.before), version(&o.after), o.changes.as_deref(), new_name),
    };
    let body = body
        .split_once('\n')
        .and_then(|(_, r)| r.split_once('\n'))
        .map_or("", |(_, r)| r);
    let (header, from, to) = match (o.before.is_some(), o.after.is_some(), o.moved_to.is_some()) {
        (false, true, _) => (
            format!("diff --git a/{new_name} b/{new_name}\nnew file mode 100644\n"),
            "/dev/null".to_string(),
            format!("b/{new_name}"),
        ),
        (true, false, _) => (
            format!("diff --git a/{old_name} b/{old_name}\ndeleted file mode 100644\n"),
            format!("a/{old_name}"),
            "/dev/null".to_string(),
        ),
        (_, _, true) => (
            format!("diff --git a/{old_name} b/{new_name}\nrename from {old_name}\nrename to {new_name}\n"),
            format!("a/{old_name}"),
            format!("b/{new_name}"),
        ),
        _ => (String::new(), format!("a/{old_name}"), format!("b/{new_name}")),
    };
    // git cannot rename onto an existing file: the patch deletes it first.
    let mut out = String::new();
    if o.displaced.is_some() {
        out = patch_of(
            &Outcome {
                path: new_name.to_string(),
                action: "delete",
                moved_to: None,
                before: o.displaced.clone(),
                after: None,
                hash_before: None,
                changes: None,
                hunks: Vec::new(),
                slot: o.slot,
                replaced: false,
                displaced: None,
            },
            None,
        );
    }
    out.push_str(&header);
    if !body.is_empty() {
        let _ = write!(out, "--- {from}\n+++ {to}\n{body}");
    }
    out
}

fn hunk_report(h: &HunkOutcome, format: PatchFormat) -> HunkReport {
    HunkReport {
        index: h.index,
        tier: h.strategy.name().to_string(),
        start_line: h.new_lines.0,
        end_line: h.new_lines.1,
        old_start_line: h.old_lines.0,
        old_end_line: h.old_lines.1,
        placement: h.how.name().to_string(),
        fuzz: (format == PatchFormat::Unified).then_some(h.fuzz),
        normalized: words::notes(h, format),
    }
}
