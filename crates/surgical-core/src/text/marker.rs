//! The omission-marker grammar: whether one line is a marker a model writes for code (or text) it
//! left out (`// ... existing code ...`, `# ...`, `<!-- ... -->`, `.. ... rest of the document ...`,
//! a bare `...`), and how sure that reading is. One grammar for the whole project: the lazy-snippet
//! detector (`snippet`), the `edit` tool's placeholder guard (`text::placeholder`) and the
//! `elision` tier all ask [`read`].
//!
//! The specification is docs/snippets-fresh.md ("Marker grammar"); its table is
//! `tests/data/markers/markers.tsv` and its reference reading eval/snippets/markers.py. In short:
//!
//! 1. The line is trimmed (blanks and a BOM). An empty line is no marker.
//! 2. At most one comment syntax is taken off: an enclosing one (`<!-- -->`, `/* */`, `{/* */}`,
//!    `{{/* */}}`, `{# #}`, `(* *)`, `<%-- --%>`, `{{!-- --}}`, `{{! }}`) or a leading one (`///`,
//!    `//!`, `//`, `##`, `#`, `--`, `;;`, `;`, `%%`, `%`, `'` unless the line also ends with `'`,
//!    `REM`/`rem` and `..` followed by a blank, `::`, `*`, `!`); then at most one pair of brackets.
//!    If what is left reads as no phrase, the whole line is read again with no syntax (`...` is not
//!    `..` then `.`).
//! 3. The phrase is *bare* (3 to 5 dots, or 1 to 3 of `…`, `⋯`, `⋮`: six dots or more are a
//!    reStructuredText adornment) or *worded*: 1 to 8 words holding an omission word ([`WORDS`]) or
//!    a number followed by lines, line, more, rows, entries, items or steps, with an ellipsis that
//!    opens the phrase standing apart (`... rest`, not `...args`) or, inside a comment or brackets
//!    only, closes it (`// rest of code...`; not after `(` or `,`). A backtick, a double quote or
//!    code punctuation (`=`, `;`, `<`, `>`, `$`, `->`, `=>`) makes it no phrase (prose quoting code).
//! 4. A worded phrase is a [`Strength::Strong`] marker in any syntax or none. A bare ellipsis is
//!    strong inside a comment syntax of code, and in prose only inside that prose's own comment
//!    (Markdown's `<!-- -->`, reStructuredText's `..`); anywhere else it is [`Strength::Weak`]:
//!    Python's `...`, YAML's document end, a pause in prose, a Markdown heading `# ...`.
//!
//! Decided: the ellipsis is required (`// existing code` or `# keep the existing behaviour` is an
//! ordinary comment a model may add); `other` is an omission word, `see`, `etc`, `above`, `below`
//! are not (`// see below ...` is a real comment); a sentence ending with an ellipsis is prose
//! outside a comment.

/// What kind of text a file holds, which decides how sure a bare ellipsis is as a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TextKind {
    /// Source code, and everything that is not prose: data, configuration, lock and project files.
    /// The safe default when the file's name is unknown (the in-memory API): markers in any comment
    /// syntax are read as markers.
    #[default]
    Code,
    /// Markdown (`.md`, `.markdown`): its comment is `<!-- -->`.
    Markdown,
    /// MDX (`.mdx`): its comments are `<!-- -->` and `{/* */}`.
    Mdx,
    /// reStructuredText (`.rst`): its comment is `..` followed by a blank.
    ReStructuredText,
    /// Prose without a comment syntax: `.txt`, `.text`, `.adoc`, `.rdoc`, and README, CHANGELOG,
    /// LICENSE, AUTHORS, CONTRIBUTING, NEWS without an extension.
    PlainText,
}

impl TextKind {
    /// The kind of a file, from its name (the last path component's extension, case ignored). A
    /// name this does not know is [`TextKind::Code`].
    pub fn of_path(path: &str) -> TextKind {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path).to_ascii_lowercase();
        let ext = match name.rfind('.') {
            Some(dot) if dot > 0 => &name[dot..],
            _ => "",
        };
        match ext {
            ".md" | ".markdown" => TextKind::Markdown,
            ".mdx" => TextKind::Mdx,
            ".rst" => TextKind::ReStructuredText,
            ".txt" | ".text" | ".adoc" | ".rdoc" => TextKind::PlainText,
            "" if matches!(
                name.as_str(),
                "readme" | "changelog" | "license" | "authors" | "contributing" | "news"
            ) =>
            {
                TextKind::PlainText
            }
            _ => TextKind::Code,
        }
    }

    /// Whether the kind is prose (every kind but [`TextKind::Code`]).
    pub fn is_prose(self) -> bool {
        self != TextKind::Code
    }

    /// Whether `syntax` is a comment of this prose kind (a bare ellipsis inside it is strong).
    fn own_comment(self, syntax: &str) -> bool {
        match self {
            TextKind::Code => true,
            TextKind::Markdown => syntax == "<!--",
            TextKind::Mdx => syntax == "<!--" || syntax == "{/*",
            TextKind::ReStructuredText => syntax == "..",
            TextKind::PlainText => false,
        }
    }
}

/// How sure a marker reading is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strength {
    /// A marker wherever it stands: worded (`... existing code ...`), or a bare ellipsis inside a
    /// comment syntax of the file's kind.
    Strong,
    /// A bare ellipsis with no comment syntax (or in one that is not the prose's own): Python's
    /// `...`, YAML's document end, a pause in prose. Content where the file holds it.
    Weak,
}

/// The phrase a marker line holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phrase {
    /// An ellipsis alone.
    Bare,
    /// Words with an ellipsis, one of them saying what was left out.
    Worded,
}

/// A line read as an omission marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Marker {
    /// How sure the reading is.
    pub strength: Strength,
    /// What the line says.
    pub phrase: Phrase,
    /// The comment syntax around the phrase, as its opening token (`//`, `#`, `<!--`, `..`, ...);
    /// `None` for none (brackets alone are no comment syntax).
    pub syntax: Option<&'static str>,
}

/// The words that say a marker stands for something left out.
pub const WORDS: [&str; 18] = [
    "existing",
    "unchanged",
    "rest",
    "remaining",
    "remainder",
    "previous",
    "previously",
    "same",
    "keep",
    "kept",
    "omitted",
    "omit",
    "elided",
    "skipped",
    "unmodified",
    "untouched",
    "other",
    "others",
];

/// What a number counts in a marker (`... 12 lines unchanged ...`, `[... 40 more lines ...]`).
const COUNTED: [&str; 8] = ["lines", "line", "more", "rows", "entries", "items", "steps", "lines)"];

/// Leading comment tokens, longest first.
const LEADS: [&str; 17] = [
    "///", "//!", "//", "##", "#", "--", ";;", ";", "%%", "%", "'", "REM", "rem", "::", "..", "*", "!",
];

/// Comment syntaxes that enclose the phrase on one line.
const PAIRS: [(&str, &str); 9] = [
    ("{{!--", "--}}"),
    ("{{/*", "*/}}"),
    ("<%--", "--%>"),
    ("<!--", "-->"),
    ("{/*", "*/}"),
    ("{{!", "}}"),
    ("/*", "*/"),
    ("{#", "#}"),
    ("(*", "*)"),
];

/// Reads `line` (one line, without its terminator) as an omission marker in a file of `kind`, or
/// `None` when it is content. See the module documentation for the grammar. Never a marker:
/// spread syntax and ellipses inside code (`...args`, `f(a...)`), a phrase quoting code (a
/// backtick or a double quote), a comment inside a doc comment's continuation line (` *     // ...`:
/// code quoted in the doc).
pub fn read(line: &str, kind: TextKind) -> Option<Marker> {
    let trimmed = line.trim().trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return None;
    }
    let (inner, syntax) = unwrap(trimmed)?;
    let (phrase, syntax) = match phrase_of(inner, syntax.is_some()) {
        Some(p) => (p, syntax),
        None if syntax.is_some() => (phrase_of(trimmed, false)?, None),
        None => return None,
    };
    let strength = match (phrase, syntax) {
        (Phrase::Worded, _) => Strength::Strong,
        (Phrase::Bare, None) => Strength::Weak,
        (Phrase::Bare, Some(s)) if kind.own_comment(s) => Strength::Strong,
        (Phrase::Bare, Some(_)) => Strength::Weak,
    };
    Some(Marker {
        strength,
        phrase,
        syntax,
    })
}

/// The text inside the comment syntax the trimmed line is in, with the syntax's opening token;
/// `(trimmed, None)` when it is in none; `None` when the line is a doc comment's continuation line
/// quoting a comment (code in the doc: never a marker).
fn unwrap(trimmed: &str) -> Option<(&str, Option<&'static str>)> {
    for (open, close) in PAIRS {
        if trimmed.len() >= open.len() + close.len() && trimmed.starts_with(open) && trimmed.ends_with(close) {
            return Some((trimmed[open.len()..trimmed.len() - close.len()].trim(), Some(open)));
        }
    }
    for lead in LEADS {
        let Some(rest) = trimmed.strip_prefix(lead) else {
            continue;
        };
        if matches!(lead, "REM" | "rem" | "..") && rest.chars().next().is_some_and(|c| !c.is_whitespace()) {
            // `REMOVE`, `...` (the ellipsis itself, not reStructuredText's comment).
            continue;
        }
        if lead == "'" && rest.trim_end().ends_with('\'') {
            // A quoted string: `'...'`.
            continue;
        }
        let inner = rest.trim();
        if lead == "*" && ["//", "/*", "#", "<!--", "--"].iter().any(|l| inner.starts_with(l)) {
            return None;
        }
        return Some((inner, Some(lead)));
    }
    Some((trimmed, None))
}

fn is_dot(c: char) -> bool {
    c == '.'
}

/// One of the ellipsis characters other than the dot.
fn is_ellipsis_char(c: char) -> bool {
    matches!(c, '…' | '⋯' | '⋮')
}

/// Whether `s` is a bare ellipsis: 3 to 5 dots, or 1 to 3 of one of `…`, `⋯`, `⋮`.
fn is_bare(s: &str) -> bool {
    let n = s.chars().count();
    if s.chars().all(is_dot) {
        return (3..=5).contains(&n);
    }
    let Some(first) = s.chars().next() else {
        return false;
    };
    is_ellipsis_char(first) && s.chars().all(|c| c == first) && (1..=3).contains(&n)
}

/// The length in bytes of an ellipsis at the start of `s` (three dots or more, or a run of `…`),
/// greedy, or 0.
fn ellipsis_at_start(s: &str) -> usize {
    let dots = s.chars().take_while(|&c| is_dot(c)).count();
    if dots >= 3 {
        return dots;
    }
    if dots == 0 {
        return s.chars().take_while(|&c| c == '…').map(char::len_utf8).sum();
    }
    0
}

/// The start of an ellipsis ending `s` (three dots or more, or a run of `…`), if any.
fn ellipsis_at_end(s: &str) -> Option<usize> {
    let dots = s.chars().rev().take_while(|&c| is_dot(c)).count();
    if dots >= 3 {
        return Some(s.len() - dots);
    }
    if dots == 0 {
        let n: usize = s.chars().rev().take_while(|&c| c == '…').map(char::len_utf8).sum();
        if n > 0 {
            return Some(s.len() - n);
        }
    }
    None
}

/// The phrase `inner` is, if any (`wrapped`: inside a comment syntax).
fn phrase_of(inner: &str, mut wrapped: bool) -> Option<Phrase> {
    let mut inner = inner;
    for (open, close) in [('[', ']'), ('(', ')'), ('{', '}')] {
        if inner.starts_with(open) && inner.ends_with(close) {
            inner = if inner.len() >= 2 {
                inner[1..inner.len() - 1].trim()
            } else {
                ""
            };
            wrapped = true;
            break;
        }
    }
    if inner.is_empty() {
        return None;
    }
    if is_bare(inner) {
        return Some(Phrase::Bare);
    }
    if inner.contains(['`', '"', '=', ';', '<', '>', '$']) || inner.contains("->") {
        return None;
    }
    // The ellipsis opens the phrase standing apart (not `...args`), or closes it (inside a comment
    // or brackets only: prose ends sentences so).
    let open = ellipsis_at_start(inner);
    let opens = open > 0
        && inner[open..]
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || matches!(c, ']' | ')' | '}'));
    let close = ellipsis_at_end(inner);
    if !(opens || close.is_some() && wrapped) {
        return None;
    }
    if let (Some(at), false) = (close, opens) {
        let before = &inner[..at];
        if before.ends_with(['(', ',']) {
            return None;
        }
    }
    let words = words(inner);
    if !(1..=8).contains(&words.len()) {
        return None;
    }
    let omission = words.iter().any(|w| WORDS.contains(&w.trim_matches('\'')));
    let counted = words
        .iter()
        .zip(words.iter().skip(1))
        .any(|(w, next)| w.bytes().all(|b| b.is_ascii_digit()) && COUNTED.contains(&next.as_str()));
    (omission || counted).then_some(Phrase::Worded)
}

/// The words of `s` (ASCII letters, digits, `_` and `'`), lowercased, ellipses read as blanks.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strength(line: &str, path: &str) -> Option<Strength> {
        read(line, TextKind::of_path(path)).map(|m| m.strength)
    }

    #[test]
    fn kinds_come_from_the_name() {
        assert_eq!(TextKind::of_path("docs/index.RST"), TextKind::ReStructuredText);
        assert_eq!(TextKind::of_path("README"), TextKind::PlainText);
        assert_eq!(TextKind::of_path("a/README.md"), TextKind::Markdown);
        assert_eq!(TextKind::of_path("x.mdx"), TextKind::Mdx);
        assert_eq!(TextKind::of_path("notes.txt"), TextKind::PlainText);
        assert_eq!(TextKind::of_path(".github/workflows/ci.yml"), TextKind::Code);
        assert_eq!(TextKind::of_path(".md"), TextKind::Code);
        assert_eq!(TextKind::of_path("Cargo.lock"), TextKind::Code);
        assert_eq!(TextKind::of_path(""), TextKind::Code);
    }

    #[test]
    fn each_syntax_and_the_words() {
        for (line, path) in [
            ("// ... existing code ...", "a.rs"),
            ("    # ...", "a.py"),
            ("<!-- ... -->", "a.html"),
            (".. ... existing content ...", "a.rst"),
            (".. ...", "a.rst"),
            ("REM ... existing commands ...", "a.cmd"),
            ("{{!-- ... --}}", "a.hbs"),
            ("[... 40 more lines ...]", "a.py"),
            ("(rest of methods ...)", "a.py"),
            ("// rest of code...", "a.rs"),
            ("... existing rows ...", "a.csv"),
            ("<!-- ... -->", "README.md"),
        ] {
            assert_eq!(strength(line, path), Some(Strength::Strong), "{line} in {path}");
        }
        for (line, path) in [
            ("...", "a.py"),
            ("...", "README.md"),
            ("# ...", "README.md"),
            ("* ...", "README.md"),
            ("(...)", "a.py"),
            ("....", "a.rs"),
        ] {
            assert_eq!(strength(line, path), Some(Strength::Weak), "{line} in {path}");
        }
        for (line, path) in [
            ("...args", "a.js"),
            ("f(...args);", "a.js"),
            ("// TODO ...", "a.rs"),
            ("// see a...b", "a.rs"),
            (" *     // ...", "a.c"),
            ("......", "a.rst"),
            ("rest of the document...", "README.md"),
            ("// one, two, three, ...", "a.rs"),
            ("# keep the existing behaviour", "a.py"),
            ("print(\"...\")", "a.py"),
            ("", "a.py"),
            ("'...'", "a.py"),
            ("REMOVE ...", "a.cmd"),
        ] {
            assert_eq!(strength(line, path), None, "{line} in {path}");
        }
    }
}
