//! What each caller calls the text to find and its replacement: the words every sentence about an
//! engine finding is written in (`oldText` for `edit`, "the SEARCH lines" for SEARCH/REPLACE blocks,
//! "the hunk's old lines" for diffs and `apply_patch`, "the segment" for `apply_snippet`).

/// What the caller calls the text to find and its replacement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Vocabulary {
    /// In full, as the subject or object of a sentence: `oldText`, "the SEARCH lines".
    pub old: &'static str,
    /// Before "line"/"lines" and after "your": `oldText`, `SEARCH`, `hunk`.
    pub short: &'static str,
    /// `old` as a possessive: `oldText's`, "the SEARCH lines'".
    pub old_possessive: &'static str,
    /// The replacement, as the subject of "replaced it": "your newText", "the REPLACE lines".
    pub your_new: &'static str,
    /// The replacement and its verb, before a participle: "newText was", "the REPLACE lines were".
    pub new_was: &'static str,
    /// The replacement, as a noun: `newText`, "the REPLACE lines".
    pub new: &'static str,
    /// How to ask for every occurrence: "set replaceAll: true" (empty where there is no way).
    pub replace_all: &'static str,
}

/// The `edit` tool's words.
pub(crate) const EDIT: Vocabulary = Vocabulary {
    old: "oldText",
    short: "oldText",
    old_possessive: "oldText's",
    your_new: "your newText",
    new_was: "newText was",
    new: "newText",
    replace_all: "set replaceAll: true",
};

/// The words of `surgical edit --old ... --new ...` for people: its flags, not the JSON keys.
pub(crate) const COMMAND_LINE: Vocabulary = Vocabulary {
    old: "the --old text",
    short: "--old",
    old_possessive: "the --old text's",
    your_new: "your --new text",
    new_was: "the --new text was",
    new: "the --new text",
    replace_all: "pass --replace-all",
};

/// SEARCH/REPLACE blocks' words, for what a replacement forgave or kept.
pub(crate) const SEARCH_REPLACE: Vocabulary = Vocabulary {
    old: "the SEARCH lines",
    short: "SEARCH",
    old_possessive: "the SEARCH lines'",
    your_new: "the REPLACE lines",
    new_was: "the REPLACE lines were",
    new: "the REPLACE lines",
    replace_all: "",
};

/// Diff and `apply_patch` hunks' words, for what a replacement forgave or kept.
pub(crate) const HUNK: Vocabulary = Vocabulary {
    old: "the hunk's old lines",
    short: "hunk",
    old_possessive: "the hunk's old lines'",
    your_new: "the hunk's new lines",
    new_was: "the hunk's new lines were",
    new: "the hunk's new lines",
    replace_all: "",
};

impl Vocabulary {
    /// The same words, with `old` and `short` as patch placement names a hunk's lines.
    pub fn placing(old: &'static str, short: &'static str) -> Vocabulary {
        Vocabulary { old, short, ..HUNK }
    }
}

/// A snippet segment's words, for the closest regions of `not_found`.
pub(crate) const SNIPPET: Vocabulary = Vocabulary {
    old: "the segment",
    short: "segment",
    old_possessive: "the segment's",
    your_new: "the segment",
    new_was: "the segment was",
    new: "the segment",
    replace_all: "",
};
