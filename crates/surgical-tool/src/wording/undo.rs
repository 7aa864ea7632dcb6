//! The `undo` tool's sentences: why there is nothing to undo or undoing would lose a change, what
//! an undo that stopped midway did, and the result's `text` (what was put back, the diff).

use std::fmt::Display;
use std::fmt::Write as _;

/// What undoing a call does to one of its files (and did, in the result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Undone {
    /// Its content before the call put back.
    Restored,
    /// The call deleted it (or moved it away): created again.
    Recreated,
    /// The call created it: removed.
    Removed,
}

/// How a file differs from what the call to undo left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Since<'a> {
    /// Its hash is `now`; the call left `left`.
    Changed { now: &'a str, left: &'a str },
    /// It is gone.
    DeletedOrMoved,
    /// The call deleted it, and it exists again.
    CreatedAgain,
}

/// The journal holds no change to the file (`max_mib`, `max_entries`: the journal's bounds).
pub(crate) fn nothing_to_undo(shown: &str, max_mib: u64, max_entries: usize) -> String {
    format!(
        "{shown} has nothing to undo: surgical's journal holds no change to it. Every edit, write and \
         apply_patch made through surgical can be undone (with the journal on, for files up to {max_mib} MiB, \
         the last {max_entries} calls), one call at a time; a change made by another program cannot."
    )
}

/// A file of the call changed since surgical's last `tool` call left it.
pub(crate) fn stale(shown: &str, tool: &str, since: Since<'_>) -> String {
    let why = match since {
        Since::Changed { now, left } => format!("changed (its hash is now {now}, the call left {left})"),
        Since::DeletedOrMoved => "was deleted or moved".to_string(),
        Since::CreatedAgain => "was created again".to_string(),
    };
    format!(
        "{shown} {why} since surgical's last {tool} call changed it, so undoing that call would throw the change \
         away. Nothing was restored."
    )
}

/// The journal entry holding a file's old content could not be read.
pub(crate) fn journal_unreadable(shown: &str, error: &dyn Display) -> String {
    format!("could not read the undo journal entry for {shown}: {error}")
}

/// What the error of an undo that failed on a file adds when the files it had put back were
/// taken back again.
pub(crate) const ABANDONED: &str = " The undo was abandoned and every file left as it was.";

/// What it adds when taking them back failed too (`failed`: one message per file).
pub(crate) fn stopped_midway(failed: &[String]) -> String {
    format!(
        " The undo stopped midway, and putting back the files it had restored failed too; check them: {}",
        failed.join("; ")
    )
}

/// The `text` of the result: what was done to the file named (`bytes`: its content put back), to
/// the call's `others`, whether an `older` change can be undone too, and the `diff`.
pub(crate) fn summary(
    shown: &str,
    tool: &str,
    (undone, bytes): (Undone, usize),
    others: &[(&str, Undone)],
    older: bool,
    diff: &str,
) -> String {
    let mut text = match undone {
        Undone::Restored => {
            format!("Restored {shown} to its content before the last surgical {tool} call ({bytes} bytes).")
        }
        Undone::Recreated => {
            format!("Recreated {shown}, which the last surgical {tool} call had deleted or moved away ({bytes} bytes).")
        }
        Undone::Removed => format!("Removed {shown}, which the last surgical {tool} call had created."),
    };
    if !others.is_empty() {
        let others: Vec<String> = others
            .iter()
            .map(|(name, undone)| {
                let what = match undone {
                    Undone::Restored => "restored",
                    Undone::Recreated => "recreated",
                    Undone::Removed => "removed",
                };
                format!("{name} ({what})")
            })
            .collect();
        let _ = write!(
            text,
            " The same call's other files were undone too: {}.",
            others.join(", ")
        );
    }
    if older {
        text.push_str(" An older change to it can be undone too.");
    }
    text.push_str("\n\n");
    text.push_str(diff);
    text
}
