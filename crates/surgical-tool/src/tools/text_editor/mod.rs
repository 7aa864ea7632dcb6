//! The `text_editor` tool: Anthropic's client-side text-editor tool — the one Claude models are
//! trained on (`text_editor_20250728`, named `str_replace_based_edit_tool`; `text_editor_20250124`,
//! named `str_replace_editor`, which adds `undo_edit`) — with the input object as Claude sends it
//! (`{"command", "path", ...}`) and results worded as Claude reads them, run through surgical.
//!
//! The commands, and what surgical keeps of its promises in each:
//! * `view`: a file numbered like `cat -n` (surgical's lines: no empty line after a final line
//!   break, carriage returns never shown, tabs kept), or a directory two levels deep. Paged and
//!   cut as `read` is; `max_characters` limits it further.
//! * `create`: a new file holding `file_text` byte for byte; never replaces anything.
//! * `str_replace`: the `edit` tool's one replacement — the same tiers (a model is told when a
//!   tolerant match placed it), byte-faithful transport, encodings and journal.
//! * `insert`: whole lines after `insert_line`, with the line endings, BOM and encoding of the
//!   file, which keeps its final line break (or its lack of one).
//! * `undo_edit`: the last change surgical made to the file taken back, from the undo journal.
//!
//! SWE-agent's and OpenHands' `str_replace_editor` calls are the same object and are accepted as
//! they are (see [`parse_text_editor_request`]). Every path leads inside the root, as for every
//! tool. Failures are the tool's error objects (`not_found`, `ambiguous`, `invalid_input`,
//! `file_not_found`, `not_a_file`, `no_undo`, ...), their messages opening with the reference
//! implementation's sentence.

mod change;
mod request;
mod view;
use crate::wording::text_editor as wording;

pub use crate::contract::text_editor::{EditorOutcome, TextEditorSuccess};
pub use request::{parse_text_editor_request, EditorCommand, TextEditorRequest};

use crate::{Config, ErrorCode, ToolError, ToolResult};

/// Runs a parsed `text_editor` call. On any error, nothing was changed.
pub fn run_text_editor_with(req: &TextEditorRequest, config: &Config) -> ToolResult {
    let shown = req.path.as_str();
    let command = req.command.name();
    let outcome = match &req.command {
        EditorCommand::View { range, max_characters } => {
            view::view(shown, *range, *max_characters, config).map(|viewed| match viewed {
                view::Viewed::File(s) => EditorOutcome::File(s),
                view::Viewed::Directory(s) => EditorOutcome::Directory(s),
            })
        }
        EditorCommand::Create { file_text } => {
            change::create(shown, file_text, config).map(|s| EditorOutcome::Created(Box::new(s)))
        }
        EditorCommand::StrReplace { old_str, new_str } => {
            change::str_replace(shown, old_str, new_str, config).map(|s| EditorOutcome::Edit(Box::new(s.bounded())))
        }
        EditorCommand::Insert { insert_line, text } => {
            change::insert(shown, *insert_line, text, config).map(|s| EditorOutcome::Edit(Box::new(s.bounded())))
        }
        EditorCommand::UndoEdit => change::undo_edit(shown, config).map(|s| EditorOutcome::Edit(Box::new(s.bounded()))),
    };
    match outcome {
        Ok(outcome) => {
            let text = match &outcome {
                EditorOutcome::File(s) => s.text.clone(),
                EditorOutcome::Directory(s) => s.text.clone(),
                EditorOutcome::Edit(s) => s.text.clone(),
                EditorOutcome::Created(s) => s.text.clone(),
            };
            ToolResult::TextEditor(Box::new(TextEditorSuccess { command, text, outcome }))
        }
        Err(e) => ToolResult::Error(e),
    }
}

/// A path that does not exist, in the reference implementation's words.
fn path_missing(shown: &str, command: &str) -> ToolError {
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(ErrorCode::FileNotFound, wording::path_missing(shown, command))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::text_editor::{CommandName, TextEditorInput};

    #[test]
    fn the_input_type_serializes_to_a_call_the_parser_accepts() {
        let input = TextEditorInput {
            command: CommandName::View,
            path: "a".into(),
            view_range: Some(vec![2, -1]),
            max_characters: Some(10),
            file_text: None,
            old_str: None,
            new_str: None,
            insert_line: None,
            insert_text: None,
        };
        let req = parse_text_editor_request(&serde_json::to_value(input).unwrap()).unwrap();
        assert_eq!(
            req.command,
            EditorCommand::View {
                range: Some((2, -1)),
                max_characters: Some(10)
            }
        );
    }
}
