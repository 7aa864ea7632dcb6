//! Round 2 of the evaluation harness: mistakes of content, elisions and stale views (issue 11).
//!
//! Its own corpus (`eval/corpus/round2/`: Python, Go, TypeScript, C and Rust files with many
//! multi-line regions, tabs, aligned columns and typographic characters) and its own seeds. A case
//! picks a window of 3 to 12 lines (8 to 12 for elisions) that occurs once in the file, even with
//! spacing, indentation and typographic characters ignored, and an intended change: [`MARKER`]
//! inserted at the end of one line's text (before its trailing blanks). The model's `oldText` is
//! the window with one [`Kind`] of mistake, and its `newText` is that `oldText` with the change:
//! what a model that misremembered the window writes.
//!
//! Scoring is an **independent oracle**: the expected bytes are built from the file alone — the
//! file with [`MARKER`] inserted at the intended place, every other byte the file's own — never
//! from what the engine or the model produced. So a result that writes any character the model
//! misremembered (a mistyped name, an invented line, an elision marker, a stale line another writer
//! has since changed) can never count as placed correctly. Every outcome is one of:
//! * **placed**: the result is exactly the expected bytes (**byte-ideal**), or, for a change at
//!   the end of a line with trailing blanks, exactly the file with the change after those blanks
//!   (the model cannot see them, so cannot say which side it meant; placed, not byte-ideal);
//! * **refused**: an error (the only right answer for the traps, [`Kind::must_refuse`]);
//! * **wrong**: any other result (for a trap, any result at all);
//!
//! and a case is **damaged** when bytes outside the window changed (a wrong result that also
//! reached outside the window).

use std::ops::Range;

use surgical_core::{apply, Edit, Options, Tier};

use crate::harness::run::{generate, run};
use crate::harness::table::{self, render, Column};
use crate::harness::text::{content, split, variant};
use crate::harness::{Outcome, Rng, Round, Row, Suite, Tally};

/// The intended change: inserted at the end of one line's text (before its trailing blanks), or at
/// the cut when the window ends mid-line on that line.
pub const MARKER: &str = " /*EDIT*/";

/// What another writer puts in the file after the model read it (stale views).
const OTHER_WRITER: &str = "OTHER_NAME";

/// What the model renames a word to when its change and another writer's fall on the same word.
const MODEL_RENAME: &str = "EDITED_NAME";

/// One file of the round-2 corpus.
struct Source {
    name: &'static str,
    text: &'static str,
    /// The language's line comment (`//`, `#`).
    comment: &'static str,
}

const CORPUS: [Source; 5] = [
    Source {
        name: "orders.py",
        text: include_str!("../../../../eval/corpus/round2/orders.py"),
        comment: "#",
    },
    Source {
        name: "scheduler.go",
        text: include_str!("../../../../eval/corpus/round2/scheduler.go"),
        comment: "//",
    },
    Source {
        name: "store.ts",
        text: include_str!("../../../../eval/corpus/round2/store.ts"),
        comment: "//",
    },
    Source {
        name: "hashmap.c",
        text: include_str!("../../../../eval/corpus/round2/hashmap.c"),
        comment: "//",
    },
    Source {
        name: "limiter.rs",
        text: include_str!("../../../../eval/corpus/round2/limiter.rs"),
        comment: "//",
    },
];

/// The mistake in the model's `oldText` (and in its `newText`, written from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// One identifier mistyped (a character dropped, added or changed) on the line the model
    /// changes, away from its change.
    TypoChangedLine,
    /// One identifier mistyped on another line of the window.
    TypoOtherLine,
    /// A neighbouring line written twice.
    ExtraLineDuplicate,
    /// An invented comment line the file does not have.
    ExtraLineComment,
    /// One non-blank line inside the window left out.
    MissingLine,
    /// The middle of a long window elided with `...`, `// ... existing code ...` or `# ...`, at the
    /// same place in `oldText` and `newText`.
    Elision,
    /// `oldText` starts or ends (or both) in the middle of a line.
    MidLine,
    /// `oldText` starts in the middle of a line and the lines after it are de-indented.
    MidLineDedented,
    /// The indentation shifted (removed or added) and typographic quotes, dashes and no-break
    /// spaces typed as ASCII.
    IndentAndQuotes,
    /// A CRLF file with trailing blanks: `oldText` without the trailing blanks, and with tabs
    /// typed as four spaces.
    CrlfTrailingTabs,
    /// Runs of spaces that align columns collapsed to one, sometimes with the indentation removed.
    CollapsedAlignment,
    /// Another writer changed a line of the window after the model read it; the model changes
    /// another line. May be placed, with the other writer's line kept.
    StaleOtherLine,
    /// Another writer changed a word on the line the model changes, away from the model's change.
    /// May be placed, with the other writer's word kept.
    StaleSameLine,
    /// Trap: another writer renamed a word after the model read it, and the model renames the same
    /// word: placing it would overwrite a change the model never saw. Must be refused.
    TrapStaleSameWord,
    /// Trap: a near-duplicate of the window elsewhere in the file, and a mistake in `oldText` that
    /// is exactly as far from both: must be refused.
    TrapNearDuplicate,
    /// Trap: text that resembles the window but differs on most of its lines: must be refused.
    TrapResembling,
}

impl Kind {
    /// Every kind, in the order of the report's rows.
    pub const ALL: [Kind; 16] = [
        Kind::TypoChangedLine,
        Kind::TypoOtherLine,
        Kind::ExtraLineDuplicate,
        Kind::ExtraLineComment,
        Kind::MissingLine,
        Kind::Elision,
        Kind::MidLine,
        Kind::MidLineDedented,
        Kind::IndentAndQuotes,
        Kind::CrlfTrailingTabs,
        Kind::CollapsedAlignment,
        Kind::StaleOtherLine,
        Kind::StaleSameLine,
        Kind::TrapStaleSameWord,
        Kind::TrapNearDuplicate,
        Kind::TrapResembling,
    ];

    /// The row's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::TypoChangedLine => "typo on the changed line",
            Kind::TypoOtherLine => "typo on another line",
            Kind::ExtraLineDuplicate => "extra line: a neighbour duplicated",
            Kind::ExtraLineComment => "extra line: an invented comment",
            Kind::MissingLine => "one line left out",
            Kind::Elision => "middle elided (`...`, `// ... existing code ...`)",
            Kind::MidLine => "starts or ends mid-line",
            Kind::MidLineDedented => "starts mid-line, next lines de-indented",
            Kind::IndentAndQuotes => "indentation shifted + quotes typed as ASCII",
            Kind::CrlfTrailingTabs => "CRLF + trailing blanks dropped + tabs as spaces",
            Kind::CollapsedAlignment => "alignment runs collapsed (+ de-indented)",
            Kind::StaleOtherLine => "stale view: another line changed since",
            Kind::StaleSameLine => "stale view: the changed line changed since",
            Kind::TrapStaleSameWord => "trap: stale view, the same word changed since",
            Kind::TrapNearDuplicate => "trap: near-duplicate block elsewhere",
            Kind::TrapResembling => "trap: resembles, differs on most lines",
        }
    }

    /// Whether refusing is the only right answer.
    pub fn must_refuse(self) -> bool {
        matches!(
            self,
            Kind::TrapStaleSameWord | Kind::TrapNearDuplicate | Kind::TrapResembling
        )
    }

    /// The size of the window: 8 to 12 lines for elisions, 4 to 8 for the resembling text, 3 to
    /// 12 otherwise.
    fn window_lines(self, rng: &mut Rng) -> usize {
        match self {
            Kind::Elision => 8 + rng.below(5),
            Kind::TrapResembling => 4 + rng.below(5),
            Kind::TrapNearDuplicate => 3 + rng.below(6),
            _ => 3 + rng.below(10),
        }
    }
}

/// The one mistake a case's `oldText` makes, as a `not_found` message should name it.
#[derive(Clone, Debug)]
enum Mistake {
    /// `wrote` where the file has `file`.
    Typo { wrote: String, file: String },
    /// A line the file does not have there (trimmed).
    Extra { text: String },
    /// A file line left out (trimmed).
    Missing { text: String },
}

/// Characters of a line looked for in a message (messages cut long lines).
const NAMED_PREFIX: usize = 40;

impl Mistake {
    /// Whether some line of `message` names this mistake in the words `wording` uses.
    fn named_in(&self, message: &str) -> bool {
        let prefix = |text: &str| text.chars().take(NAMED_PREFIX).collect::<String>();
        match self {
            Mistake::Typo { wrote, file } => message.contains(&format!("you wrote `{wrote}`, the file has `{file}`")),
            Mistake::Extra { text } => message
                .lines()
                .any(|l| l.contains("is not in the file") && l.contains(&prefix(text))),
            Mistake::Missing { text } => message
                .lines()
                .any(|l| (l.contains("leaves out") || l.contains("is not in your")) && l.contains(&prefix(text))),
        }
    }
}

/// The near-miss part of a `not_found` message (empty when it has none).
fn near_miss_part(message: &str) -> &str {
    let Some(start) = message.find("Almost matched") else {
        return "";
    };
    let end = message[start..]
        .find("Closest region")
        .map_or(message.len(), |e| start + e);
    &message[start..end]
}

/// A case: the file as it is when the edit arrives, the window the model meant, the expected
/// bytes, and what the model sent.
pub struct Case {
    kind: Kind,
    source: &'static str,
    file: String,
    /// The bytes of `file` that `oldText` stands for.
    window: Range<usize>,
    /// The file with only the intended change; `None` for a trap.
    expected: Option<String>,
    /// The same with the change after the trailing blanks of its line, when the line has some
    /// and the change is at its end: the model, which cannot see them, cannot say which side it
    /// meant. Placed correctly, but not byte-ideal.
    expected_after_blanks: Option<String>,
    old: String,
    new: String,
    /// What the model misremembered (a mistyped name, an invented comment): never in the file,
    /// and never to be written into it.
    foreign: Vec<String>,
    /// What another writer put in the file: never to be lost.
    kept: Vec<String>,
    /// The one mistake the model made, for the kinds that make one (typo, extra line, missing
    /// line).
    mistake: Option<Mistake>,
}

/// A case under construction: the file's lines, the window in them, and the model's lines.
struct Draft {
    kind: Kind,
    source: &'static Source,
    /// The file's lines with their terminators (a stale view or a near-duplicate changes them).
    lines: Vec<String>,
    /// First line and number of lines of the window.
    first: usize,
    count: usize,
    /// Where the window starts in its first line (a byte column), for a start mid-line.
    start_col: usize,
    /// Where the window ends in its last line, for an end mid-line (`None`: the whole line).
    end_col: Option<usize>,
    /// The model's `oldText` and `newText` lines.
    old: Vec<String>,
    new: Vec<String>,
    /// The intended change: the window's line, and the byte column in the file's line when the
    /// window ends mid-line there (else the end of the line's text, taken when the case is
    /// finished, after any other writer's change).
    target: Option<(usize, Option<usize>)>,
    final_newline: bool,
    foreign: Vec<String>,
    kept: Vec<String>,
    mistake: Option<Mistake>,
}

/// The length of `line` without trailing spaces and tabs.
fn trimmed_len(line: &str) -> usize {
    line.trim_end_matches([' ', '\t']).len()
}

/// The leading spaces and tabs of `line`.
fn indentation(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// Words that are not identifiers a model would mistype as names.
const KEYWORDS: [&str; 24] = [
    "return", "const", "self", "None", "True", "False", "func", "def", "class", "struct", "static", "while", "else",
    "break", "continue", "import", "from", "elif", "pub", "impl", "void", "size_t", "true", "false",
];

/// The identifiers of `line` (ASCII, starting with a letter or `_`, at least four bytes).
fn identifiers(line: &str) -> Vec<Range<usize>> {
    let bytes = line.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_word(bytes[i]) {
            let start = i;
            while i < bytes.len() && is_word(bytes[i]) {
                i += 1;
            }
            let word = &line[start..i];
            if word.len() >= 4 && !bytes[start].is_ascii_digit() && !KEYWORDS.contains(&word) {
                out.push(start..i);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// `word` with one character dropped, added or changed (never the first).
fn mistype(word: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    let i = 1 + rng.below(chars.len() - 1);
    match rng.below(3) {
        0 => {
            chars.remove(i);
        }
        1 => {
            let c = if rng.below(2) == 0 {
                chars[i - 1]
            } else {
                other_letter(chars[i], rng)
            };
            chars.insert(i, c);
        }
        _ => chars[i] = other_letter(chars[i], rng),
    }
    chars.into_iter().collect()
}

/// A lowercase letter other than `c` (and other than `not`, when given).
fn other_letter_than(c: char, not: Option<char>, rng: &mut Rng) -> char {
    const LETTERS: &[u8] = b"aeiourstnlmdkpgz";
    loop {
        let l = LETTERS[rng.below(LETTERS.len())] as char;
        if l != c.to_ascii_lowercase() && Some(l) != not {
            return l;
        }
    }
}

fn other_letter(c: char, rng: &mut Rng) -> char {
    other_letter_than(c, None, rng)
}

/// Typographic characters a model types as ASCII.
fn ascii_typed(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{201C}' | '\u{201D}' | '\u{201E}' => '"',
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{2013}' | '\u{2014}' => '-',
            '\u{a0}' | '\u{202F}' => ' ',
            c => c,
        })
        .collect()
}

/// The text as a model cannot tell it apart: blank lines left out; per line, typographic
/// characters as ASCII, tabs as spaces, no leading or trailing blanks, runs of blanks as one space.
/// Two windows with the same key are the same to the loose tiers (`whitespace_runs` skips blank
/// lines), so a window is only used when its key occurs once in the file's, and a mistake only
/// when its key occurs nowhere.
fn key(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split('\n').filter(|l| !is_blank(l)) {
        if !out.is_empty() {
            out.push('\n');
        }
        let line = ascii_typed(line.trim_end_matches('\r'));
        let mut space = false;
        for c in line.trim().chars() {
            if c == ' ' || c == '\t' {
                space = true;
                continue;
            }
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// Occurrences of `needle` in `hay`, overlapping ones included.
fn occurrences(hay: &str, needle: &str) -> usize {
    let mut n = 0;
    let mut from = 0;
    while let Some(at) = hay[from..].find(needle) {
        n += 1;
        from += at + hay[from + at..].chars().next().map_or(1, char::len_utf8);
    }
    n
}

/// A CRLF file where every third line has trailing blanks.
fn crlf_with_trailing_blanks(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if i % 3 == 1 && !l.is_empty() {
                format!("{l}  \t\r\n")
            } else {
                format!("{l}\r\n")
            }
        })
        .collect()
}

impl Draft {
    /// A window of the kind's size in a random file, unique by [`key`], with non-blank first and
    /// last lines, ending before the file's last line.
    fn new(kind: Kind, rng: &mut Rng) -> Option<Draft> {
        let source = &CORPUS[rng.below(CORPUS.len())];
        let text = match kind {
            Kind::CrlfTrailingTabs => crlf_with_trailing_blanks(source.text),
            _ => variant(source.text, rng.below(4)),
        };
        let lines: Vec<String> = split(&text).into_iter().map(String::from).collect();
        let count = kind.window_lines(rng);
        if lines.len() < count + 2 {
            return None;
        }
        let first = rng.below(lines.len() - count);
        let model: Vec<String> = lines[first..first + count]
            .iter()
            .map(|l| content(l).to_string())
            .collect();
        if is_blank(&model[0]) || is_blank(&model[count - 1]) {
            return None;
        }
        if model.iter().filter(|l| l.trim().len() >= 3).count() < 2 {
            return None;
        }
        if occurrences(&key(&text), &key(&model.join("\n"))) != 1 {
            return None;
        }
        Some(Draft {
            kind,
            source,
            lines,
            first,
            count,
            start_col: 0,
            end_col: None,
            old: model.clone(),
            new: model,
            target: None,
            final_newline: rng.below(2) == 0,
            foreign: Vec::new(),
            kept: Vec::new(),
            mistake: None,
        })
    }

    /// Window lines that are not blank (and have at least 3 characters), except `but`.
    fn non_blank(&self, but: &[usize]) -> Vec<usize> {
        (0..self.old.len())
            .filter(|&k| self.old[k].trim().len() >= 3 && !but.contains(&k))
            .collect()
    }

    fn pick(list: &[usize], rng: &mut Rng) -> Option<usize> {
        (!list.is_empty()).then(|| list[rng.below(list.len())])
    }

    /// Puts the intended change on window line `k`: at the end of the model's line text, and at
    /// the end of the file's line text (or at the cut, when the window ends mid-line there).
    fn mark(&mut self, k: usize) {
        let col = match self.end_col {
            Some(cut) if k + 1 == self.count => Some(cut),
            _ => None,
        };
        self.target = Some((k, col));
        let at = trimmed_len(&self.new[k]);
        self.new[k].insert_str(at, MARKER);
    }

    /// Picks a line for the intended change among the non-blank ones (except `but`) and marks it.
    fn mark_any(&mut self, but: &[usize], rng: &mut Rng) -> Option<usize> {
        let k = Draft::pick(&self.non_blank(but), rng)?;
        self.mark(k);
        Some(k)
    }

    /// Mistypes one identifier on window line `k` of both `oldText` and `newText`; on the changed
    /// line, only a word with something between it and the change.
    fn mistype_line(&mut self, k: usize, rng: &mut Rng) -> Option<()> {
        let limit = trimmed_len(&self.old[k]);
        let words: Vec<Range<usize>> = identifiers(&self.old[k])
            .into_iter()
            .filter(|w| w.end < limit)
            .collect();
        let w = words.get(rng.below(words.len().max(1)))?.clone();
        let word = self.old[k][w.clone()].to_string();
        let typo = mistype(&word, rng);
        if self.lines.iter().any(|l| l.contains(&typo)) {
            return None;
        }
        self.old[k].replace_range(w.clone(), &typo);
        self.new[k].replace_range(w, &typo);
        self.mistake.get_or_insert(Mistake::Typo {
            wrote: typo.clone(),
            file: word,
        });
        self.foreign.push(typo);
        Some(())
    }

    /// Another writer replaces one identifier on window line `k` of the file (not in the model's
    /// lines, which are its view from before); returns the word's range on the model's line.
    fn other_writer(&mut self, k: usize, rng: &mut Rng) -> Option<Range<usize>> {
        let limit = trimmed_len(&self.old[k]);
        let words: Vec<Range<usize>> = identifiers(&self.old[k])
            .into_iter()
            .filter(|w| w.end < limit)
            .collect();
        let w = words.get(rng.below(words.len().max(1)))?.clone();
        let at = self.first + k;
        self.lines[at].replace_range(w.clone(), OTHER_WRITER);
        self.kept.push(OTHER_WRITER.to_string());
        Some(w)
    }

    /// Every line of `oldText` and `newText` through `f`.
    fn both(&mut self, f: impl Fn(&str) -> String) {
        for l in self.old.iter_mut().chain(self.new.iter_mut()) {
            *l = f(l);
        }
    }

    /// The common indentation of the model's non-blank lines from `from` on, removed.
    fn dedent(&mut self, from: usize) -> bool {
        let common = self.old[from..]
            .iter()
            .filter(|l| !is_blank(l))
            .map(|l| indentation(l).len())
            .min()
            .unwrap_or(0);
        if common == 0 {
            return false;
        }
        for l in self.old[from..].iter_mut().chain(self.new[from..].iter_mut()) {
            *l = l.get(common..).unwrap_or("").to_string();
        }
        true
    }

    /// A byte column in `line` where a token starts, past the indentation and the first token.
    fn cut_start(line: &str, rng: &mut Rng) -> Option<usize> {
        let ind = indentation(line).len();
        let bytes = line.as_bytes();
        let limit = trimmed_len(line);
        let cuts: Vec<usize> = (ind + 2..limit.saturating_sub(2))
            .filter(|&p| {
                line.is_char_boundary(p)
                    && !bytes[p].is_ascii_whitespace()
                    && (bytes[p - 1] == b' ' || (bytes[p - 1].is_ascii_punctuation() && bytes[p - 1] != b'_'))
                    && !(bytes[p].is_ascii_alphanumeric() && bytes[p - 1].is_ascii_alphanumeric())
            })
            .collect();
        Draft::pick(&cuts, rng)
    }

    /// A byte column in `line` where a token ends, past the indentation and before the line's end.
    fn cut_end(line: &str, rng: &mut Rng) -> Option<usize> {
        let ind = indentation(line).len();
        let bytes = line.as_bytes();
        let limit = trimmed_len(line);
        let cuts: Vec<usize> = (ind + 3..limit.saturating_sub(2))
            .filter(|&p| {
                line.is_char_boundary(p)
                    && !bytes[p - 1].is_ascii_whitespace()
                    && !(bytes[p].is_ascii_alphanumeric() && bytes[p - 1].is_ascii_alphanumeric())
                    && bytes[p] != b'_'
                    && bytes[p - 1] != b'_'
            })
            .collect();
        Draft::pick(&cuts, rng)
    }

    /// The case: the file, the window's bytes, the expected bytes and the model's texts. `None`
    /// when the model's mistake could be read as text the file really holds elsewhere, or a
    /// misremembered string is in the file.
    fn finish(self) -> Option<Case> {
        let file: String = self.lines.concat();
        let mut starts = Vec::with_capacity(self.lines.len());
        let mut at = 0;
        for l in &self.lines {
            starts.push(at);
            at += l.len();
        }
        let last = self.first + self.count - 1;
        let window = starts[self.first] + self.start_col..match self.end_col {
            Some(cut) => starts[last] + cut,
            None => starts[last] + self.lines[last].len(),
        };
        let (expected, expected_after_blanks) = if self.kind.must_refuse() {
            (None, None)
        } else {
            let (k, col) = self.target?;
            let line = content(&self.lines[self.first + k]);
            let start = starts[self.first + k];
            let x = start + col.unwrap_or_else(|| trimmed_len(line));
            let inserted_at = |x: usize| format!("{}{MARKER}{}", &file[..x], &file[x..]);
            let after_blanks =
                (col.is_none() && trimmed_len(line) < line.len()).then(|| inserted_at(start + line.len()));
            (Some(inserted_at(x)), after_blanks)
        };
        let newline = if self.final_newline && self.end_col.is_none() {
            "\n"
        } else {
            ""
        };
        let old = self.old.join("\n") + newline;
        let new = self.new.join("\n") + newline;
        // oldText as written is the window (once) or a mistake found nowhere in the file.
        let (file_key, old_key) = (key(&file), key(&old));
        let wanted = usize::from(old_key == key(&file[window.clone()]));
        if occurrences(&file_key, &old_key) != wanted {
            return None;
        }
        if self.foreign.iter().any(|f| file.contains(f.as_str())) || old == new {
            return None;
        }
        Some(Case {
            kind: self.kind,
            source: self.source.name,
            file,
            window,
            expected,
            expected_after_blanks,
            old,
            new,
            foreign: self.foreign,
            kept: self.kept,
            mistake: match self.kind {
                Kind::TypoChangedLine
                | Kind::TypoOtherLine
                | Kind::ExtraLineDuplicate
                | Kind::ExtraLineComment
                | Kind::MissingLine => self.mistake,
                _ => None,
            },
        })
    }
}

/// Builds a case of `kind`, or `None` if this file and window do not suit it.
fn make_case(kind: Kind, rng: &mut Rng) -> Option<Case> {
    let mut d = Draft::new(kind, rng)?;
    match kind {
        Kind::TypoChangedLine => {
            let k = d.mark_any(&[], rng)?;
            d.mistype_line(k, rng)?;
        }
        Kind::TypoOtherLine => {
            let t = d.mark_any(&[], rng)?;
            let k = Draft::pick(&d.non_blank(&[t]), rng)?;
            d.mistype_line(k, rng)?;
        }
        Kind::ExtraLineDuplicate => {
            let t = d.mark_any(&[], rng)?;
            let at = 1 + rng.below(d.count - 1);
            let twin = if rng.below(2) == 0 { at - 1 } else { at };
            if twin == t || d.old[twin].trim().len() < 3 {
                return None;
            }
            let line = d.old[twin].clone();
            d.mistake = Some(Mistake::Extra {
                text: line.trim().to_string(),
            });
            d.old.insert(at, line.clone());
            d.new.insert(at, line);
        }
        Kind::ExtraLineComment => {
            d.mark_any(&[], rng)?;
            let at = 1 + rng.below(d.count - 1);
            const COMMENTS: [&str; 4] = [
                "make sure the value is valid first",
                "TODO: handle the empty case",
                "keep the previous behaviour here",
                "see the design notes",
            ];
            let text = format!("{} {}", d.source.comment, COMMENTS[rng.below(COMMENTS.len())]);
            let line = format!("{}{text}", indentation(&d.old[at]));
            d.mistake = Some(Mistake::Extra {
                text: text.trim().to_string(),
            });
            d.old.insert(at, line.clone());
            d.new.insert(at, line);
            d.foreign.push(text);
        }
        Kind::MissingLine => {
            let t = d.mark_any(&[], rng)?;
            let inner: Vec<usize> = d.non_blank(&[t, 0, d.count - 1]);
            let k = Draft::pick(&inner, rng)?;
            d.mistake = Some(Mistake::Missing {
                text: d.old[k].trim().to_string(),
            });
            d.old.remove(k);
            d.new.remove(k);
        }
        Kind::Elision => {
            // At least two lines before, two elided, two after.
            let head = 2 + rng.below(d.count - 5);
            let tail = head + 2 + rng.below(d.count - head - 3);
            let elided: Vec<usize> = (head..tail).collect();
            d.mark_any(&elided, rng)?;
            let markers: [&str; 3] = if d.source.comment == "#" {
                ["# ...", "# ... existing code ...", "..."]
            } else {
                ["// ...", "// ... existing code ...", "..."]
            };
            let marker = format!("{}{}", indentation(&d.old[head]), markers[rng.below(markers.len())]);
            d.old.splice(head..tail, [marker.clone()]);
            d.new.splice(head..tail, [marker]);
        }
        Kind::MidLine | Kind::MidLineDedented => {
            let (start, end) = match (kind, rng.below(3)) {
                (Kind::MidLineDedented, 2) => (true, true),
                (Kind::MidLineDedented, _) => (true, false),
                (_, 0) => (true, false),
                (_, 1) => (false, true),
                _ => (true, true),
            };
            if start {
                let cut = Draft::cut_start(&d.old[0], rng)?;
                d.start_col = cut;
                d.old[0] = d.old[0][cut..].to_string();
                d.new[0] = d.new[0][cut..].to_string();
            }
            if end {
                let last = d.count - 1;
                let cut = Draft::cut_end(&d.old[last], rng)?;
                d.end_col = Some(cut);
                d.old[last].truncate(cut);
                d.new[last].truncate(cut);
            }
            d.mark_any(&[], rng)?;
            if kind == Kind::MidLineDedented && !d.dedent(1) {
                return None;
            }
        }
        Kind::IndentAndQuotes => {
            if ascii_typed(&d.old.join("\n")) == d.old.join("\n") {
                return None;
            }
            d.mark_any(&[], rng)?;
            if rng.below(2) == 0 {
                if !d.dedent(0) {
                    return None;
                }
            } else {
                let add = if rng.below(2) == 0 { "  " } else { "    " };
                d.both(|l| {
                    if is_blank(l) {
                        l.to_string()
                    } else {
                        format!("{add}{l}")
                    }
                });
            }
            d.both(ascii_typed);
        }
        Kind::CrlfTrailingTabs => {
            if !d.old.iter().any(|l| indentation(l).contains('\t')) || !d.old.iter().any(|l| trimmed_len(l) < l.len()) {
                return None;
            }
            d.mark_any(&[], rng)?;
            d.both(|l| l.trim_end_matches([' ', '\t']).replace('\t', "    "));
        }
        Kind::CollapsedAlignment => {
            // Runs inside the line's text only: indentation and trailing blanks stay.
            let collapse = |l: &str| {
                let ind = indentation(l);
                let end = trimmed_len(l).max(ind.len());
                let mut out = ind.to_string();
                let mut space = false;
                for c in l[ind.len()..end].chars() {
                    if c == ' ' && space {
                        continue;
                    }
                    space = c == ' ';
                    out.push(c);
                }
                out + &l[end..]
            };
            if d.old.iter().all(|l| collapse(l) == *l) {
                return None;
            }
            d.mark_any(&[], rng)?;
            d.both(collapse);
            if rng.below(2) == 0 {
                d.dedent(0);
            }
        }
        Kind::StaleOtherLine => {
            let t = d.mark_any(&[], rng)?;
            let k = Draft::pick(&d.non_blank(&[t]), rng)?;
            d.other_writer(k, rng)?;
        }
        Kind::StaleSameLine => {
            let t = d.mark_any(&[], rng)?;
            d.other_writer(t, rng)?;
        }
        Kind::TrapStaleSameWord => {
            let t = Draft::pick(&d.non_blank(&[]), rng)?;
            let w = d.other_writer(t, rng)?;
            // The model renames the word the other writer renamed.
            d.new[t].replace_range(w, MODEL_RENAME);
        }
        Kind::TrapNearDuplicate => {
            d.mark_any(&[], rng)?;
            let k = Draft::pick(&d.non_blank(&[]), rng)?;
            let words = identifiers(&d.old[k]);
            let w = words.get(rng.below(words.len().max(1)))?.clone();
            // The copy and oldText change the same character of one word, differently: each is
            // one character from the window and one from the other.
            let i = w.start + 1 + rng.below(w.len() - 1);
            let original = d.old[k].as_bytes()[i] as char;
            let in_copy = other_letter(original, rng);
            let in_old = other_letter_than(original, Some(in_copy), rng);
            let mut copy: Vec<String> = d.lines[d.first..d.first + d.count].to_vec();
            copy[k].replace_range(i..i + 1, &in_copy.to_string());
            for l in [&mut d.old[k], &mut d.new[k]] {
                l.replace_range(i..i + 1, &in_old.to_string());
            }
            d.foreign.push(d.old[k][w].to_string());
            // The copy goes at a line start away from the window.
            let n = d.lines.len();
            let at = rng.below(n + 1);
            if (d.first.saturating_sub(1)..=d.first + d.count + 1).contains(&at) {
                return None;
            }
            if at == n && !d.lines[n - 1].ends_with('\n') {
                return None;
            }
            d.lines.splice(at..at, copy);
            if at < d.first {
                d.first += d.count;
            }
        }
        Kind::TrapResembling => {
            d.mark_any(&[], rng)?;
            let candidates = d.non_blank(&[]);
            let need = (candidates.len() * 3).div_ceil(5).max(3);
            let mut changed = 0;
            for k in candidates {
                if changed < need && d.mistype_line(k, rng).is_some() {
                    changed += 1;
                }
            }
            if changed < need {
                return None;
            }
        }
    }
    d.finish()
}

/// Bytes of `before` outside `window` that differ in `after` (from the common prefix and suffix).
fn bytes_outside(before: &[u8], after: &[u8], window: &Range<usize>) -> usize {
    let pre = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let post = before[pre..]
        .iter()
        .rev()
        .zip(after[pre..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (start, end) = (pre, before.len() - post);
    if start == end {
        // A pure insertion: outside when it is not inside the window.
        return if (window.start..=window.end).contains(&start) {
            0
        } else {
            after.len() - before.len()
        };
    }
    end.min(window.start).saturating_sub(start) + end.saturating_sub(start.max(window.end))
}

/// The first line where `got` differs from `expected`, both shown with their terminators.
fn first_difference(expected: &str, got: &str) -> String {
    let (e, g) = (split(expected), split(got));
    let at = e.iter().zip(&g).take_while(|(a, b)| a == b).count();
    format!(
        "line {}: expected {:?}, got {:?}",
        at + 1,
        e.get(at).copied().unwrap_or(""),
        g.get(at).copied().unwrap_or("")
    )
}

/// Runs one case through `surgical_core::apply` and judges the result ([`judge`]).
fn run_case(case: &Case, options: &Options) -> Outcome {
    let edit = Edit::new(case.old.clone(), case.new.clone());
    let applied = match apply(case.file.as_bytes(), &[edit], options) {
        Ok(applied) => applied,
        Err(e) => {
            if std::env::var_os("SURGICAL_EVAL_SHOW_REFUSALS").is_some() && !case.kind.must_refuse() {
                eprintln!(
                    "REFUSED ({}, {}): {e}\n--- oldText ---\n{}\n--- newText ---\n{}",
                    case.kind.name(),
                    case.source,
                    case.old,
                    case.new
                );
            }
            return Outcome::Refused {
                code: e.code().to_string(),
                message: e.to_string(),
            };
        }
    };
    judge(case, &applied.text, applied.edits[0].tier)
}

/// Scores a result the engine placed (`text`, by `tier`) against the case's expected bytes alone.
fn judge(case: &Case, text: &[u8], tier: Tier) -> Outcome {
    if case.expected.as_deref().map(str::as_bytes) == Some(text) {
        return Outcome::Placed {
            tier: Some(tier),
            ideal: true,
        };
    }
    if case.expected_after_blanks.as_deref().map(str::as_bytes) == Some(text) {
        return Outcome::Placed {
            tier: Some(tier),
            ideal: false,
        };
    }
    let out = String::from_utf8_lossy(text);
    let outside = bytes_outside(case.file.as_bytes(), text, &case.window);
    let written = case
        .foreign
        .iter()
        .find(|f| occurrences(&out, f) > occurrences(&case.file, f));
    let lost = case
        .kept
        .iter()
        .find(|k| occurrences(&out, k) < occurrences(&case.file, k));
    let why = if case.kind.must_refuse() {
        "a trap was placed".to_string()
    } else if let Some(f) = written {
        format!("wrote what the model misremembered: {f:?}")
    } else if let Some(k) = lost {
        format!("lost another writer's change: {k:?}")
    } else if outside > 0 {
        "changed bytes outside the window".to_string()
    } else {
        "not the expected bytes".to_string()
    };
    // Where the result first departs from what was expected (from the file, for a trap).
    let reference = case.expected.as_deref().unwrap_or(&case.file);
    let why = format!("{why}\n{}", first_difference(reference, &out));
    Outcome::Wrong {
        tier: Some(tier),
        damaged: outside > 0,
        outside_bytes: outside,
        why,
    }
}

/// The message the `edit` tool gives for a case it refuses (through `surgical-tool`, in memory).
fn not_found_message(case: &Case, max: Tier) -> String {
    let call = serde_json::json!({
        "oldText": case.old,
        "newText": case.new,
        "maxStrategy": max.name(),
    });
    match surgical_tool::apply_edits(case.file.clone().into_bytes(), &call) {
        Err(e) => e.message,
        Ok(_) => String::new(),
    }
}

/// Over the refused `not_found` cases of the typo, extra-line and missing-line kinds: how many
/// messages name the actual mistake in their near miss, and anywhere, as a sentence for the report.
pub fn near_miss_share(report: &[Row<Kind>]) -> String {
    let (asked, near, anywhere) = report.iter().fold((0, 0, 0), |(a, n, w), Row { tally: t, .. }| {
        (a + t.not_found_with_mistake, n + t.near_miss_named, w + t.message_named)
    });
    let share = |k: usize| {
        if asked == 0 {
            0.0
        } else {
            100.0 * k as f64 / asked as f64
        }
    };
    format!(
        "Refused as `not_found` (typo, extra-line and missing-line kinds): {asked}; the near miss names the \
         actual mistake in {near} ({:.0}%), the whole message in {anywhere} ({:.0}%).",
        share(near),
        share(anywhere)
    )
}

/// Round 2 as a suite of the harness: its kinds, run with the tiers up to a loosest one.
pub struct Round2 {
    options: Options,
    max: Tier,
}

impl Round2 {
    /// Round 2 with the tiers up to `max`.
    pub fn new(max: Tier) -> Round2 {
        Round2 {
            options: Options::new().loosest_tier(max),
            max,
        }
    }
}

impl Suite for Round2 {
    type Kind = Kind;
    type Case = Case;

    fn run(&self, case: &Case) -> Outcome {
        run_case(case, &self.options)
    }

    /// A `not_found` refusal of a case with one named mistake: whether the `edit` tool's message
    /// names it. A wrong case: listed on stderr (and written into `SURGICAL_EVAL_DUMP`).
    fn observe(&mut self, kind: &Kind, case: &Case, outcome: &Outcome, tally: &mut Tally) {
        match outcome {
            Outcome::Refused { code, .. } => {
                if let (Some(mistake), "not_found") = (&case.mistake, code.as_str()) {
                    let message = not_found_message(case, self.max);
                    tally.not_found_with_mistake += 1;
                    tally.near_miss_named += usize::from(mistake.named_in(near_miss_part(&message)));
                    tally.message_named += usize::from(mistake.named_in(&message));
                    if std::env::var_os("SURGICAL_EVAL_SHOW_NEAR_MISSES").is_some()
                        && !mistake.named_in(near_miss_part(&message))
                    {
                        eprintln!(
                            "NOT NAMED ({}, {mistake:?}):\n{message}\n--- oldText ---\n{}\n",
                            kind.name(),
                            case.old
                        );
                    }
                }
            }
            Outcome::Wrong { tier, why, .. } => {
                if let Some(dir) = std::env::var_os("SURGICAL_EVAL_DUMP") {
                    let _ = std::fs::write(std::path::Path::new(&dir).join("file"), &case.file);
                    let _ = std::fs::write(std::path::Path::new(&dir).join("old"), &case.old);
                    let _ = std::fs::write(std::path::Path::new(&dir).join("new"), &case.new);
                }
                eprintln!(
                    "WRONG ({}, tier {}): {why} in {}, bytes {}..{}\n--- oldText ---\n{}\n--- newText ---\n{}\n--- window in the file ---\n{}",
                    kind.name(),
                    tier.map_or("", |t| t.name()),
                    case.source,
                    case.window.start,
                    case.window.end,
                    case.old,
                    case.new,
                    &case.file[case.window.clone()],
                );
            }
            Outcome::Placed { .. } => {}
        }
    }
}

impl Round for Round2 {
    const ATTEMPTS_PER_CASE: usize = 500;

    /// Each kind draws its cases from its own generator, seeded from the seed and the kind.
    fn own_seed(seed: u64, kind: Kind) -> Option<u64> {
        Some(seed.wrapping_mul(1000).wrapping_add(kind as u64))
    }

    fn make_case(kind: Kind, rng: &mut Rng) -> Option<Case> {
        make_case(kind, rng)
    }
}

/// Runs `per` cases of every kind, with the tiers up to `max`.
pub fn evaluate(per: usize, seed: u64, max: Tier) -> Vec<Row<Kind>> {
    evaluate_kinds(&Kind::ALL, per, seed, max)
}

/// Runs `per` cases of each of `kinds`, with the tiers up to `max`. Each kind draws its cases from
/// its own generator (seeded from `seed` and the kind), so a kind's cases do not depend on which
/// other kinds run.
pub fn evaluate_kinds(kinds: &[Kind], per: usize, seed: u64, max: Tier) -> Vec<Row<Kind>> {
    run(&mut Round2::new(max), kinds, generate::<Round2>(kinds, per, seed))
}

/// Round 2's columns: the kind, the cases, what became of them (wrong and damaged apart), the tiers
/// that placed them, the codes of the refusals.
const COLUMNS: [Column<Kind>; 9] = [
    Column {
        header: "model's oldText",
        cell: |r| r.kind.name().to_string(),
        total: None,
    },
    Column {
        header: "cases",
        cell: |r| r.tally.cases.to_string(),
        total: Some(|t| t.cases.to_string()),
    },
    Column {
        header: "placed correctly",
        cell: |r| table::placed(r.tally.placed, r.kind.must_refuse()),
        total: Some(|t| t.placed.to_string()),
    },
    Column {
        header: "of which byte-ideal",
        cell: |r| r.tally.ideal.to_string(),
        total: Some(|t| t.ideal.to_string()),
    },
    Column {
        header: "refused",
        cell: |r| r.tally.refused.to_string(),
        total: Some(|t| t.refused.to_string()),
    },
    Column {
        header: "wrong",
        cell: |r| r.tally.wrong.to_string(),
        total: Some(|t| format!("**{}**", t.wrong)),
    },
    Column {
        header: "damaged",
        cell: |r| r.tally.damaged.to_string(),
        total: Some(|t| format!("**{}**", t.damaged)),
    },
    Column {
        header: "tiers used",
        cell: |r| table::tiers(&r.tally),
        total: None,
    },
    Column {
        header: "refusals",
        cell: |r| {
            let refusals: Vec<String> = r.tally.refusals.iter().map(|(c, n)| format!("{c} {n}")).collect();
            refusals.join(", ")
        },
        total: None,
    },
];

/// The report as a Markdown table.
pub fn table(rows: &[Row<Kind>]) -> String {
    render(&COLUMNS, rows, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: for every kind, the expected bytes are the file with the marker inserted once
    /// inside the window, and hold nothing the model misremembered; the model's `oldText` is not
    /// the window as written.
    #[test]
    fn the_expected_bytes_come_from_the_file_alone() {
        for kind in Kind::ALL {
            let mut rng = Rng::new(kind as u64 + 7);
            let mut built = 0;
            for _ in 0..4000 {
                let Some(case) = make_case(kind, &mut rng) else {
                    continue;
                };
                built += 1;
                assert_eq!(case.kind, kind);
                assert!(case.window.start < case.window.end && case.window.end <= case.file.len());
                let window_text = &case.file[case.window.clone()];
                let lines = window_text.matches('\n').count() + usize::from(!window_text.ends_with('\n'));
                assert!((3..=12).contains(&lines), "{}: {lines} lines", kind.name());
                assert_eq!(
                    case.new.matches(MARKER).count() + usize::from(kind == Kind::TrapStaleSameWord),
                    1
                );
                for f in &case.foreign {
                    assert!(!case.file.contains(f.as_str()), "{}: {f:?} in the file", kind.name());
                    assert!(case.old.contains(f.as_str()), "{}: {f:?} not in oldText", kind.name());
                }
                for k in &case.kept {
                    assert!(case.file.contains(k.as_str()) && !case.old.contains(k.as_str()));
                }
                match &case.expected {
                    None => assert!(kind.must_refuse()),
                    Some(expected) => {
                        assert!(!kind.must_refuse());
                        let at = case.window.start + expected[case.window.start..].find(MARKER).expect("the marker");
                        assert!(at <= case.window.end, "{}: marker past the window", kind.name());
                        assert_eq!(
                            format!("{}{}", &expected[..at], &expected[at + MARKER.len()..]),
                            case.file
                        );
                        assert_eq!(expected.matches(MARKER).count(), 1);
                    }
                }
                if kind != Kind::MidLine && kind != Kind::StaleOtherLine && kind != Kind::StaleSameLine {
                    // Every other kind makes a mistake the model's text shows.
                    assert_ne!(case.old, window_text.replace("\r\n", "\n"), "{}", kind.name());
                }
                if built == 40 {
                    break;
                }
            }
            assert_eq!(built, 40, "{}: only {built} cases could be built", kind.name());
        }
    }

    fn case_of(kind: Kind, seed: u64) -> Case {
        let mut rng = Rng::new(seed);
        loop {
            if let Some(c) = make_case(kind, &mut rng) {
                return c;
            }
        }
    }

    /// What a naive tool writes: the window replaced by `newText` as the model wrote it (with the
    /// file's first line ending).
    fn naive(case: &Case) -> String {
        let eol = if case.file.contains("\r\n") { "\r\n" } else { "\n" };
        let mut new = case.new.replace('\n', eol);
        if case.file[..case.window.end].ends_with('\n') && !new.ends_with('\n') {
            new.push_str(eol);
        }
        format!(
            "{}{new}{}",
            &case.file[..case.window.start],
            &case.file[case.window.end..]
        )
    }

    fn why(outcome: Outcome) -> String {
        match outcome {
            Outcome::Wrong { why, .. } => why,
            Outcome::Placed { ideal, .. } => format!("placed (ideal: {ideal})"),
            Outcome::Refused { code, .. } => format!("refused ({code})"),
        }
    }

    #[test]
    fn the_judge_places_only_the_expected_bytes() {
        for kind in Kind::ALL {
            for seed in 0..10 {
                let case = case_of(kind, seed);
                match &case.expected {
                    Some(expected) => assert!(matches!(
                        judge(&case, expected.as_bytes(), Tier::Exact),
                        Outcome::Placed { ideal: true, .. }
                    )),
                    None => {
                        assert!(why(judge(&case, case.file.as_bytes(), Tier::Exact)).starts_with("a trap was placed"))
                    }
                }
                if let Some(after) = &case.expected_after_blanks {
                    assert!(matches!(
                        judge(&case, after.as_bytes(), Tier::Exact),
                        Outcome::Placed { ideal: false, .. }
                    ));
                }
            }
        }
    }

    #[test]
    fn writing_what_the_model_misremembered_is_wrong() {
        for (kind, expected_why) in [
            (Kind::TypoChangedLine, "wrote what the model misremembered"),
            (Kind::TypoOtherLine, "wrote what the model misremembered"),
            (Kind::ExtraLineComment, "wrote what the model misremembered"),
            (Kind::StaleOtherLine, "lost another writer's change"),
            (Kind::StaleSameLine, "lost another writer's change"),
        ] {
            for seed in 0..10 {
                let case = case_of(kind, seed);
                let got = why(judge(&case, naive(&case).as_bytes(), Tier::Similar));
                assert!(got.starts_with(expected_why), "{}: {got}", kind.name());
            }
        }
        // Anything else that is not the expected bytes is wrong too: here, the window without the
        // line the model left out.
        let case = case_of(Kind::MissingLine, 1);
        let wrong = naive(&case);
        assert_ne!(Some(&wrong), case.expected.as_ref());
        assert!(matches!(
            judge(&case, wrong.as_bytes(), Tier::Similar),
            Outcome::Wrong { .. }
        ));
    }

    #[test]
    fn bytes_outside_counts_only_outside_the_window() {
        assert_eq!(bytes_outside(b"abcdef", b"abXcdef", &(1..4)), 0);
        assert_eq!(bytes_outside(b"abcdef", b"Xbcdef", &(1..4)), 1);
        assert_eq!(bytes_outside(b"abcdef", b"abcdeX", &(1..4)), 1);
        assert_eq!(bytes_outside(b"abcdef", b"abcdef", &(1..4)), 0);
        assert_eq!(bytes_outside(b"abcdef", b"XXXXXX", &(1..4)), 3);
        assert_eq!(bytes_outside(b"abcdef", b"abcdefXY", &(1..4)), 2);
        assert_eq!(bytes_outside(b"abcdef", b"abcdXdef", &(1..4)), 0);
    }
}
