//! The `edit` tool: `oldText`/`newText` pairs found by the engine's tiers
//! (`surgical_core::apply_spliced`) and written through the in-place pipeline
//! ([`crate::pipeline::in_place`]: read, decode, apply, encode, write, verify, report).

pub(crate) mod request;

use surgical_core::{apply_spliced, EditError, Options};

use crate::pipeline::in_place::{run_engine, Call};
use crate::wording;
use crate::ErrorCode;
use crate::{Config, EditRequest, EditSuccess, ToolError, ToolResult};

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
        message: format!("{shown}: {}", wording::engine::edit_error_in(&e, vocabulary)),
        edit_index: Some(e.edit_index()),
        path: Some(shown.to_string()),
        lines,
        hunk_index: None,
        patch_line: None,
        syntax_errors: None,
        files: Vec::new(),
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
        |encoding, reports, diff, ()| wording::edit::summary(call.shown, req.dry_run, encoding, reports, diff),
    )?;
    Ok(success)
}

/// The engine's options for `req` (its `maxStrategy`; the file's kind of text from its path, which
/// decides what the placeholder check refuses: a bare `...` line is content in prose).
pub(crate) fn options(req: &EditRequest) -> Options {
    let options = Options::new().text_kind(surgical_core::marker::TextKind::of_path(&req.path));
    match req.max_tier {
        Some(max) => options.loosest_tier(max),
        None => options,
    }
}
