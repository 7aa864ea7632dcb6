//! The `edit` tool: `oldText`/`newText` pairs found by the engine's tiers
//! (`surgical_core::apply_spliced`) and written through the in-place pipeline
//! ([`crate::pipeline::in_place`]: read, decode, apply, encode, write, verify, report).

pub(crate) mod request;

use std::fmt::Write as _;

use surgical_core::{apply_spliced, EditError, Options};
use surgical_fs::Encoding;

use crate::pipeline::in_place::{run_engine, Call};
use crate::wording;
use crate::ErrorCode;
use crate::{Config, EditReport, EditRequest, EditSuccess, ToolError, ToolResult};

/// Runs a parsed `edit` call. On any error the file is untouched.
pub fn run_edit_with(req: &EditRequest, config: &Config) -> ToolResult {
    match run(req, config) {
        Ok(s) => ToolResult::Edit(Box::new(s.bounded())),
        Err(e) => ToolResult::Error(e),
    }
}

pub(crate) fn edit_error(e: EditError, shown: &str, words: crate::Words) -> ToolError {
    let vocabulary = match words {
        crate::Words::CommandLine => wording::COMMAND_LINE,
        _ => wording::EDIT,
    };
    let lines = match &e {
        EditError::Ambiguous { occurrences, .. } => occurrences.iter().map(|o| o.0).collect(),
        EditError::Elision {
            problem: surgical_core::ElisionProblem::Ambiguous { at, .. },
            ..
        } => at.clone(),
        _ => Vec::new(),
    };
    ToolError {
        code: ErrorCode::of_edit(&e),
        message: format!("{shown}: {}", wording::edit_error_in(&e, vocabulary)),
        edit_index: Some(e.edit_index()),
        path: Some(shown.to_string()),
        lines,
        hunk_index: None,
        patch_line: None,
    }
}

fn run(req: &EditRequest, config: &Config) -> Result<EditSuccess, ToolError> {
    let options = options(req);
    let call = Call {
        shown: req.path.as_str(),
        dry_run: req.dry_run,
        expected_hash: req.expected_hash.as_deref(),
        tool: "edit",
    };
    let (success, ()) = run_engine(
        &call,
        config,
        |text| {
            apply_spliced(text, &req.edits, &options)
                .map(|a| (a, ()))
                .map_err(|e| edit_error(e, call.shown, config.words))
        },
        |encoding, reports, diff, ()| summary(req, encoding, reports, diff),
    )?;
    Ok(success)
}

/// The engine's options for `req` (its `maxStrategy`).
pub(crate) fn options(req: &EditRequest) -> Options {
    match req.max_tier {
        Some(max) => Options::new().loosest_tier(max),
        None => Options::new(),
    }
}

/// The `text` of the result: one line for the call, one per edit with what was forgiven, the diff.
fn summary(req: &EditRequest, encoding: Encoding, reports: &[EditReport], diff: &str) -> String {
    let shown = req.path.as_str();
    let mut text = String::new();
    let n = reports.len();
    let _ = writeln!(
        text,
        "{} {shown}: {n} edit{} {}{}.",
        if req.dry_run {
            "Dry run, nothing written. Would edit"
        } else {
            "Edited"
        },
        if n == 1 { "" } else { "s" },
        if req.dry_run { "would apply" } else { "applied" },
        if encoding == Encoding::Utf8 {
            String::new()
        } else {
            format!(" (file encoding {} kept)", encoding.name())
        }
    );
    for r in reports {
        let lines = if r.start_line == r.end_line {
            format!("line {}", r.start_line)
        } else {
            format!("lines {}-{}", r.start_line, r.end_line)
        };
        let times = if r.occurrences > 1 {
            format!(", {} occurrences", r.occurrences)
        } else {
            String::new()
        };
        let at = if req.dry_run { "would be at" } else { "now at" };
        let _ = writeln!(text, "edits[{}]: {at} {lines} (matched {}{times}).", r.index, r.tier);
        for note in &r.normalized {
            let _ = writeln!(text, "  {note}");
        }
    }
    text.push('\n');
    crate::pipeline::bounded::push_diff(&mut text, diff, "the full diff is in `diff`");
    text
}
