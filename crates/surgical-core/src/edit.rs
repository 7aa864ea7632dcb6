//! The engine: locate every edit in the original text, then splice all of them in one pass.

use std::borrow::Cow;
use std::ops::Range;

use crate::align::{align, Difference, DifferenceKind};
use crate::closest::closest_region;
use crate::error::{EditError, MAX_LISTED};
use crate::lines::{line_of, model_newlines, next_terminator, prev_terminator, LineCounter};
use crate::loose::{find, FileLines, Found};
use crate::normalize::{normalize_into, Fold, Normalized};
use crate::search::{find_all, invisible_occurrences, needle, Needle, Scope};

/// One `oldText` → `newText` replacement, as a model sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The text to find. Line breaks in it match any line terminator in the file.
    pub old_text: String,
    /// What to put in its place. Its line breaks are written with the terminator used where it lands.
    pub new_text: String,
    /// Replace every occurrence instead of requiring exactly one.
    pub replace_all: bool,
}

impl Edit {
    /// An edit that must match exactly one place.
    pub fn new(old_text: impl Into<String>, new_text: impl Into<String>) -> Edit {
        Edit {
            old_text: old_text.into(),
            new_text: new_text.into(),
            replace_all: false,
        }
    }

    /// The same edit, replacing every occurrence when `yes`.
    pub fn replace_all(self, yes: bool) -> Edit {
        Edit {
            replace_all: yes,
            ..self
        }
    }
}

/// A matching tier, strictest first. Each is tried only when the ones before it found nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strategy {
    /// Bytes equal, except that line terminators never count (`\n` in `oldText` matches `\r\n`,
    /// `\r` or `\n`) and bytes that are not valid UTF-8 match U+FFFD.
    Exact,
    /// Also ignores spaces and tabs at the ends of lines.
    TrailingWhitespace,
    /// Also folds NFKC forms, typographic quotes and dashes, and special spaces to ASCII.
    Unicode,
    /// Whole lines that match after a uniform change of indentation, or with tabs and spaces
    /// exchanged; `newText` is re-indented the same way, in the file's own style.
    Indentation,
    /// Whole lines that match when runs of spaces and tabs count as one space, indentation is
    /// ignored, and blank lines are skipped on both sides.
    WhitespaceRuns,
    /// `oldText` arrived over-escaped (`\\n` for a newline, `\\t`, `\\"`): unescaped, it matches
    /// by one of the tiers above, and `newText` is unescaped the same way.
    Escapes,
    /// Opt-in: a near match for a paraphrased line or two, anchored by equal lines, with a
    /// similarity threshold and a margin over the next best region (see the `SIMILAR_*` constants).
    Similar,
}

impl Strategy {
    /// Every tier, strictest first.
    pub const ALL: [Strategy; 7] = [
        Strategy::Exact,
        Strategy::TrailingWhitespace,
        Strategy::Unicode,
        Strategy::Indentation,
        Strategy::WhitespaceRuns,
        Strategy::Escapes,
        Strategy::Similar,
    ];

    /// The tiers that search text (the others work on lines or rewrite `oldText`).
    const TEXT: [Strategy; 3] = [Strategy::Exact, Strategy::TrailingWhitespace, Strategy::Unicode];

    /// The name used in results and options: `exact`, `trailing_whitespace`, `unicode`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Exact => "exact",
            Strategy::TrailingWhitespace => "trailing_whitespace",
            Strategy::Unicode => "unicode",
            Strategy::Indentation => "indentation",
            Strategy::WhitespaceRuns => "whitespace_runs",
            Strategy::Escapes => "escapes",
            Strategy::Similar => "similar",
        }
    }

    /// The tier with this name.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }

    fn fold(self) -> Fold {
        match self {
            Strategy::Exact => Fold::EXACT,
            Strategy::TrailingWhitespace => Fold::TRAILING,
            _ => Fold::UNICODE,
        }
    }
}

/// How [`apply`] matches. Build with [`Options::new`] and the setters; the value is immutable and
/// reusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    max_strategy: Strategy,
    scope: Scope,
}

impl Default for Options {
    /// Every tier but the opt-in [`Strategy::Similar`].
    fn default() -> Self {
        Options {
            max_strategy: Strategy::Escapes,
            scope: Scope::default(),
        }
    }
}

impl Options {
    /// Every tier allowed but the opt-in [`Strategy::Similar`].
    pub fn new() -> Options {
        Options::default()
    }

    /// Allow no tier looser than `strategy` (e.g. [`Strategy::Exact`] for exact matching only).
    pub fn max_strategy(self, strategy: Strategy) -> Options {
        Options {
            max_strategy: strategy,
            ..self
        }
    }

    /// Count only matches inside `range` (byte offsets of the text given to [`apply`]), for
    /// uniqueness too. Bytes outside the matched spans are kept as always; this only narrows where
    /// edits may land (a patch's `@@` anchor, the lines after the previous hunk).
    pub fn within(self, range: Range<usize>) -> Options {
        Options {
            scope: Scope {
                within: Some(range),
                ..self.scope
            },
            ..self
        }
    }

    /// Count only matches that are whole lines: starting at a line start and ending at a line end
    /// (or right after a terminator, when `oldText` ends with a line break, or at the end of the
    /// text). For callers whose edits are made of lines (patch hunks, SEARCH/REPLACE blocks).
    pub fn whole_lines(self, yes: bool) -> Options {
        Options {
            scope: Scope {
                whole_lines: yes,
                ..self.scope
            },
            ..self
        }
    }

    /// The loosest tier allowed.
    pub fn get_max_strategy(&self) -> Strategy {
        self.max_strategy
    }
}

/// One place an edit changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// Byte range replaced in the original text.
    pub old: Range<usize>,
    /// Byte range of the replacement in the new text.
    pub new: Range<usize>,
    /// One-based first and last line of `old` in the original (the last line is the one holding the
    /// range's last byte).
    pub old_lines: (usize, usize),
    /// One-based first and last line of `new` in the new text; for an empty replacement, both are the
    /// line where it was removed.
    pub new_lines: (usize, usize),
}

/// How one edit was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedEdit {
    pub index: usize,
    pub strategy: Strategy,
    /// In file order; one unless `replace_all`.
    pub occurrences: Vec<Occurrence>,
    /// What differed between the file and `oldText`, with one-based line numbers in the new text.
    pub differences: Vec<Difference>,
}

/// The result of applying edits: the new text and where each edit went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub text: Vec<u8>,
    /// In request order.
    pub edits: Vec<AppliedEdit>,
}

impl Applied {
    /// Every replaced range with its replacement, in file order: the input of [`crate::diff`].
    pub fn changes(&self) -> Vec<(Range<usize>, Range<usize>)> {
        let mut all: Vec<_> = self
            .edits
            .iter()
            .flat_map(|e| e.occurrences.iter().map(|o| (o.old.clone(), o.new.clone())))
            .collect();
        all.sort_by_key(|c| c.0.start);
        all
    }
}

/// A resolved edit: its tier and its matched spans in the original.
struct Resolved {
    strategy: Strategy,
    spans: Vec<Range<usize>>,
    /// The fold the spans matched under (what alignment may treat as equal).
    fold: Fold,
    /// `oldText`/`newText` as rewritten by a tier that rewrites them (line-based tiers, escapes).
    rewrite: Option<(String, String)>,
    /// What that tier forgave, for the model.
    note: Option<String>,
}

impl Resolved {
    fn text(strategy: Strategy, spans: Vec<Range<usize>>) -> Resolved {
        Resolved {
            strategy,
            spans,
            fold: strategy.fold(),
            rewrite: None,
            note: None,
        }
    }
}

/// Applies `edits` to `text` (UTF-8, possibly with invalid bytes) and returns the new text.
///
/// Every edit is matched against the original text, never against the result of an earlier edit.
/// Either every edit applies or an error says which one failed and why; the input is never partially
/// edited. Bytes outside the matched spans are copied unchanged; inside a span, the file's own
/// characters are kept wherever `oldText` and `newText` agree (see the crate docs).
pub fn apply(text: &[u8], edits: &[Edit], options: &Options) -> Result<Applied, EditError> {
    if let Some(index) = edits.iter().position(|e| e.old_text.is_empty()) {
        return Err(EditError::EmptyOldText { index });
    }
    let olds: Vec<_> = edits.iter().map(|e| model_newlines(&e.old_text)).collect();
    let news: Vec<_> = edits.iter().map(|e| model_newlines(&e.new_text)).collect();
    let replace_all: Vec<bool> = edits.iter().map(|e| e.replace_all).collect();
    let resolved = locate(text, &olds, &news, &replace_all, options)?;
    splice(text, &resolved, &olds, &news)
}

/// Finds where every edit goes: the tiers, strictest first, each for the edits still unresolved.
fn locate(
    text: &[u8],
    olds: &[Cow<'_, str>],
    news: &[Cow<'_, str>],
    replace_all: &[bool],
    options: &Options,
) -> Result<Vec<Resolved>, EditError> {
    // What a model cannot see never decides which occurrence it meant.
    let old_refs: Vec<&str> = olds.iter().map(|o| o.as_ref()).collect();
    let invisible = invisible_occurrences(text, &old_refs, &options.scope);
    let inv_counts: Vec<usize> = invisible.iter().map(|(count, _)| *count).collect();
    for (index, all) in replace_all.iter().enumerate() {
        let (total, starts) = &invisible[index];
        if !all && *total >= 2 {
            let occurrences = listing(text, starts);
            return Err(EditError::Ambiguous {
                index,
                strategy: None,
                occurrences,
                total: *total,
            });
        }
    }
    let mut spare = String::new();
    let mut resolved: Vec<Option<Resolved>> = olds.iter().map(|_| None).collect();
    let mut fallback: Vec<Option<Resolved>> = olds.iter().map(|_| None).collect();
    for strategy in Strategy::TEXT.into_iter().filter(|s| *s <= options.max_strategy) {
        let pending: Vec<usize> = (0..olds.len()).filter(|&i| resolved[i].is_none()).collect();
        if pending.is_empty() {
            break;
        }
        let fold = strategy.fold();
        let hay = normalize_into(text, fold, std::mem::take(&mut spare));
        let needles: Vec<Needle> = pending.iter().map(|&i| needle(&olds[i], fold)).collect();
        let refs: Vec<&Needle> = needles.iter().collect();
        let caps: Vec<usize> = pending
            .iter()
            .map(|&i| if replace_all[i] { usize::MAX } else { MAX_LISTED })
            .collect();
        let (starts, counts) = find_all(&hay, &refs, &caps, &options.scope, text, fold.trim_trailing);
        for (k, &index) in pending.iter().enumerate() {
            let count = counts[k];
            if count == 0 {
                continue;
            }
            if !replace_all[index] && count >= 2 {
                let origins: Vec<usize> = starts[k].iter().filter_map(|&p| hay.orig_start(p)).collect();
                let occurrences = listing(text, &origins);
                return Err(EditError::Ambiguous {
                    index,
                    strategy: Some(strategy),
                    occurrences,
                    total: count,
                });
            }
            let len = needles[k].text.len();
            let mut spans = Vec::new();
            let mut last_end = 0;
            for &start in &starts[k] {
                let span = map_span(&hay, start, start + len, fold);
                if span.start >= last_end {
                    last_end = span.end;
                    spans.push(span);
                }
            }
            let found = Resolved::text(strategy, spans);
            // replaceAll: a tier that misses occurrences a model cannot tell apart is not enough.
            if replace_all[index] && count < inv_counts[index] {
                if fallback[index].is_none() {
                    fallback[index] = Some(found);
                }
                continue;
            }
            resolved[index] = Some(found);
        }
        spare = hay.into_buffer();
    }
    drop(spare);
    for (r, f) in resolved.iter_mut().zip(fallback) {
        if r.is_none() {
            *r = f;
        }
    }
    locate_loose(text, olds, news, replace_all, options, &mut resolved)?;
    let missing: Vec<usize> = (0..olds.len()).filter(|&i| resolved[i].is_none()).collect();
    if let Some((&index, rest)) = missing.split_first() {
        let hint = closest_region(text, &olds[index]);
        return Err(EditError::NotFound {
            index,
            also_failing: rest.to_vec(),
            hint,
        });
    }
    Ok(resolved.into_iter().map(|r| r.expect("all resolved")).collect())
}

/// The tiers past `unicode`, for the edits still unresolved: the line-based ones, then escapes
/// (which unescapes `oldText` and tries every tier before it again), then the opt-in `similar`.
fn locate_loose(
    text: &[u8],
    olds: &[Cow<'_, str>],
    news: &[Cow<'_, str>],
    replace_all: &[bool],
    options: &Options,
    resolved: &mut [Option<Resolved>],
) -> Result<(), EditError> {
    let mut file: Option<FileLines<'_>> = None;
    for strategy in [
        Strategy::Indentation,
        Strategy::WhitespaceRuns,
        Strategy::Escapes,
        Strategy::Similar,
    ] {
        if strategy > options.max_strategy {
            break;
        }
        for index in 0..olds.len() {
            if resolved[index].is_some() {
                continue;
            }
            if strategy == Strategy::Escapes {
                let (old, new) = (unescape(&olds[index]), unescape(&news[index]));
                if old == olds[index] {
                    continue;
                }
                let inner = Options {
                    max_strategy: Strategy::WhitespaceRuns,
                    scope: options.scope.clone(),
                };
                let (old, new) = (Cow::Owned(old), Cow::Owned(new));
                match locate(
                    text,
                    std::slice::from_ref(&old),
                    std::slice::from_ref(&new),
                    &replace_all[index..=index],
                    &inner,
                ) {
                    Ok(mut found) => {
                        let mut r = found.pop().expect("one edit, one result");
                        let (o, n) = r.rewrite.take().unwrap_or((old.into_owned(), new.into_owned()));
                        let tier = r.strategy.name();
                        r.note = Some(match r.note {
                            Some(inner_note) => format!("oldText was over-escaped; unescaped, it matched ({tier}): {inner_note}; newText was unescaped the same way"),
                            None => format!("oldText was over-escaped (\\n, \\t or \\\" for a newline, tab or quote); unescaped, it matched ({tier}), and newText was unescaped the same way"),
                        });
                        r.rewrite = Some((o, n));
                        r.strategy = Strategy::Escapes;
                        resolved[index] = Some(r);
                    }
                    Err(EditError::NotFound { .. }) => {}
                    Err(e) => return Err(e.for_edit(index)),
                }
                continue;
            }
            let file = file.get_or_insert_with(|| FileLines::new(text));
            match find(strategy, file, &olds[index], &news[index], &options.scope) {
                Found::None => {}
                Found::One(m) => {
                    resolved[index] = Some(Resolved {
                        strategy,
                        spans: vec![m.span],
                        fold: Fold::EXACT,
                        rewrite: Some((m.old, m.new)),
                        note: Some(m.note),
                    });
                }
                Found::Many(firsts) => {
                    let starts: Vec<usize> = firsts.iter().map(|&i| file.line_start(i)).collect();
                    let occurrences = listing(text, &starts[..starts.len().min(MAX_LISTED)]);
                    return Err(EditError::Ambiguous {
                        index,
                        strategy: Some(strategy),
                        occurrences,
                        total: firsts.len(),
                    });
                }
            }
        }
    }
    Ok(())
}

/// `oldText` as a model meant it when it escaped what it should not have: `\n`, `\t`, `\r`, `\"`,
/// `\'` and `\\` become the characters they stand for.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            let replacement = match chars.peek() {
                Some('n') => Some('\n'),
                Some('t') => Some('\t'),
                Some('r') => Some('\n'),
                Some('"') => Some('"'),
                Some('\'') => Some('\''),
                Some('\\') => Some('\\'),
                _ => None,
            };
            if let Some(r) = replacement {
                chars.next();
                out.push(r);
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Maps a normalized match back to the original. For the tiers that trim, a match ending at a line
/// end takes the line's trailing blanks along, so the line stays whole and alignment can keep them.
fn map_span(hay: &Normalized, start: usize, end: usize, fold: Fold) -> Range<usize> {
    let s = hay.orig_start(start).expect("checked by find_all");
    let e = hay.orig_end(end, fold.trim_trailing).expect("checked by find_all");
    s..e.max(s)
}

/// Line numbers and text of occurrences (ascending original positions), for an `ambiguous` error.
fn listing(text: &[u8], starts: &[usize]) -> Vec<(usize, String)> {
    let mut counter = LineCounter::new(text);
    starts
        .iter()
        .map(|&at| {
            let line = counter.line_at(at);
            let begin = prev_terminator(text, at).map_or(0, |t| t.end);
            let end = next_terminator(text, at).map_or(text.len(), |t| t.start);
            let mut shown = String::from_utf8_lossy(&text[begin..end]).trim().to_string();
            if shown.chars().count() > 100 {
                shown = shown.chars().take(100).collect::<String>() + "...";
            }
            (line, shown)
        })
        .collect()
}

/// The terminator that new lines take at a span: the one that ends the span's last line in the file
/// (inside the span or right after it), else the last one before the span, else `\n`. Spans are
/// visited in order, so the forward search is reused (linear overall).
struct LocalEol<'a> {
    text: &'a [u8],
    next: Option<Range<usize>>,
    searched_from: Option<usize>,
    last: Option<Option<Range<usize>>>,
}

impl<'a> LocalEol<'a> {
    fn new(text: &'a [u8]) -> Self {
        LocalEol {
            text,
            next: None,
            searched_from: None,
            last: None,
        }
    }

    fn at(&mut self, span: &Range<usize>) -> &'a [u8] {
        let text = self.text;
        // The span's last line ends inside it when the span ends with a terminator.
        let from = if span.end > span.start && matches!(text[span.end - 1], b'\n' | b'\r') {
            crate::lines::prev_terminator(text, span.end).map_or(span.end, |t| t.start)
        } else {
            span.end
        };
        let fresh = match (&self.next, self.searched_from) {
            (Some(t), Some(_)) => t.start >= from,
            (None, Some(searched)) => searched <= from,
            (_, None) => false,
        };
        if !fresh {
            self.next = next_terminator(text, from);
            self.searched_from = Some(from);
        }
        if let Some(t) = &self.next {
            return &text[t.clone()];
        }
        let last = self.last.get_or_insert_with(|| prev_terminator(text, text.len()));
        match last {
            Some(t) => &text[t.clone()],
            None => b"\n",
        }
    }
}

fn is_legacy_8bit(text: &[u8]) -> bool {
    let mut invalid = false;
    if std::str::from_utf8(text).is_ok() {
        return false;
    }
    for (valid, bad) in crate::lines::utf8_pieces(text) {
        if !valid.is_ascii() {
            return false;
        }
        invalid |= !bad.is_empty();
    }
    invalid
}

/// One occurrence spliced: edit index, old range, new range, old lines, differences.
type Placed = (usize, Range<usize>, Range<usize>, (usize, usize), Vec<Difference>);

fn splice(
    text: &[u8],
    resolved: &[Resolved],
    olds: &[std::borrow::Cow<'_, str>],
    news: &[std::borrow::Cow<'_, str>],
) -> Result<Applied, EditError> {
    // (span, edit index) in file order.
    let mut spans: Vec<(Range<usize>, usize)> = resolved
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.spans.iter().map(move |s| (s.clone(), i)))
        .collect();
    spans.sort_by_key(|(s, i)| (s.start, s.end, *i));
    for w in spans.windows(2) {
        if w[1].0.start < w[0].0.end {
            let (a, b) = (w[0].1.min(w[1].1), w[0].1.max(w[1].1));
            return Err(EditError::Overlap {
                first: a,
                second: b,
                line: line_of(text, w[1].0.start),
            });
        }
    }

    let mut eol = LocalEol::new(text);
    let mut out = Vec::with_capacity(text.len() + news.iter().map(|n| n.len()).sum::<usize>());
    let mut old_lines = LineCounter::new(text);
    let mut legacy: Option<bool> = None;
    let mut changed = vec![false; resolved.len()];
    let mut placed: Vec<Placed> = Vec::new();
    let mut cursor = 0;
    for (span, index) in &spans {
        out.extend_from_slice(&text[cursor..span.start]);
        let local = eol.at(span);
        let r = &resolved[*index];
        let (old, new) = match &r.rewrite {
            Some((o, n)) => (o.as_str(), n.as_str()),
            None => (olds[*index].as_ref(), news[*index].as_ref()),
        };
        let mut aligned = align(&text[span.clone()], old, new, r.fold, local);
        if let Some(note) = &r.note {
            aligned.differences.insert(
                0,
                Difference {
                    line: 0,
                    kind: DifferenceKind::Note(note.clone()),
                },
            );
        }
        let first_line = old_lines.line_at(span.start);
        let last_line = old_lines.line_at(span.end.saturating_sub(1).max(span.start));
        if let Some(line) = aligned.fabricated_replacement_char {
            return Err(EditError::FabricatedReplacementChar {
                index: *index,
                line: first_line + line,
            });
        }
        if !aligned.bytes.is_ascii() {
            let is_legacy = *legacy.get_or_insert_with(|| is_legacy_8bit(text));
            if is_legacy && crate::lines::utf8_pieces(&aligned.bytes).any(|(valid, _)| !valid.is_ascii()) {
                return Err(EditError::LegacyEncoding {
                    index: *index,
                    line: first_line,
                });
            }
        }
        changed[*index] |= aligned.bytes != text[span.clone()];
        let new_start = out.len();
        out.extend_from_slice(&aligned.bytes);
        placed.push((
            *index,
            span.clone(),
            new_start..out.len(),
            (first_line, last_line),
            aligned.differences,
        ));
        cursor = span.end;
    }
    out.extend_from_slice(&text[cursor..]);
    if let Some(index) = changed.iter().position(|c| !c) {
        let at = resolved[index].spans[0].start;
        return Err(EditError::NoChange {
            index,
            line: line_of(text, at),
        });
    }

    let mut new_lines = LineCounter::new(&out);
    let mut edits: Vec<AppliedEdit> = resolved
        .iter()
        .enumerate()
        .map(|(index, r)| AppliedEdit {
            index,
            strategy: r.strategy,
            occurrences: Vec::new(),
            differences: Vec::new(),
        })
        .collect();
    for (index, old, new, old_range_lines, differences) in placed {
        let first = new_lines.line_at(new.start);
        let last = if new.is_empty() {
            first
        } else {
            new_lines.line_at(new.end - 1)
        };
        let edit = &mut edits[index];
        edit.differences.extend(differences.into_iter().map(|d| Difference {
            line: first + d.line,
            ..d
        }));
        edit.occurrences.push(Occurrence {
            old,
            new,
            old_lines: old_range_lines,
            new_lines: (first, last),
        });
    }
    Ok(Applied { text: out, edits })
}
