//! The engine: locate every edit in the original text, then splice all of them in one pass.

use std::ops::Range;

use crate::align::{align, Difference};
use crate::closest::closest_region;
use crate::error::{EditError, MAX_LISTED};
use crate::lines::{line_of, model_newlines, next_terminator, prev_terminator, LineCounter};
use crate::normalize::{normalize_into, Fold, Normalized};
use crate::search::{find_all, invisible_occurrences, needle, Needle};

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
}

impl Strategy {
    /// Every tier, strictest first.
    pub const ALL: [Strategy; 3] = [Strategy::Exact, Strategy::TrailingWhitespace, Strategy::Unicode];

    /// The name used in results and options: `exact`, `trailing_whitespace`, `unicode`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Exact => "exact",
            Strategy::TrailingWhitespace => "trailing_whitespace",
            Strategy::Unicode => "unicode",
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
            Strategy::Unicode => Fold::UNICODE,
        }
    }
}

/// How [`apply`] matches. Build with [`Options::new`] and the setters; the value is immutable and
/// reusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    max_strategy: Strategy,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_strategy: Strategy::Unicode,
        }
    }
}

impl Options {
    /// All tiers allowed.
    pub fn new() -> Options {
        Options::default()
    }

    /// Allow no tier looser than `strategy` (e.g. [`Strategy::Exact`] for exact matching only).
    pub fn max_strategy(self, strategy: Strategy) -> Options {
        Options { max_strategy: strategy }
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

    // What a model cannot see never decides which occurrence it meant.
    let old_refs: Vec<&str> = olds.iter().map(|o| o.as_ref()).collect();
    let invisible = invisible_occurrences(text, &old_refs);
    let inv_counts: Vec<usize> = invisible.iter().map(|(count, _)| *count).collect();
    for (index, edit) in edits.iter().enumerate() {
        let (total, starts) = &invisible[index];
        if !edit.replace_all && *total >= 2 {
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
    let mut resolved: Vec<Option<Resolved>> = edits.iter().map(|_| None).collect();
    let mut fallback: Vec<Option<Resolved>> = edits.iter().map(|_| None).collect();
    for strategy in Strategy::ALL.into_iter().filter(|s| *s <= options.max_strategy) {
        let pending: Vec<usize> = (0..edits.len()).filter(|&i| resolved[i].is_none()).collect();
        if pending.is_empty() {
            break;
        }
        let fold = strategy.fold();
        let hay = normalize_into(text, fold, std::mem::take(&mut spare));
        let needles: Vec<Needle> = pending.iter().map(|&i| needle(&olds[i], fold)).collect();
        let refs: Vec<&Needle> = needles.iter().collect();
        let caps: Vec<usize> = pending
            .iter()
            .map(|&i| if edits[i].replace_all { usize::MAX } else { MAX_LISTED })
            .collect();
        let (starts, counts) = find_all(&hay, &refs, &caps);
        for (k, &index) in pending.iter().enumerate() {
            let count = counts[k];
            if count == 0 {
                continue;
            }
            if !edits[index].replace_all && count >= 2 {
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
            let found = Resolved { strategy, spans };
            // replaceAll: a tier that misses occurrences a model cannot tell apart is not enough.
            if edits[index].replace_all && count < inv_counts[index] {
                if fallback[index].is_none() {
                    fallback[index] = Some(found);
                }
                continue;
            }
            resolved[index] = Some(found);
        }
        spare = hay.into_buffer();
    }
    for (r, f) in resolved.iter_mut().zip(fallback) {
        if r.is_none() {
            *r = f;
        }
    }
    let missing: Vec<usize> = (0..edits.len()).filter(|&i| resolved[i].is_none()).collect();
    if let Some((&index, rest)) = missing.split_first() {
        let hint = closest_region(text, &olds[index]);
        return Err(EditError::NotFound {
            index,
            also_failing: rest.to_vec(),
            hint,
        });
    }
    drop(spare);
    let resolved: Vec<Resolved> = resolved.into_iter().map(|r| r.expect("all resolved")).collect();
    splice(text, &resolved, &olds, &news)
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
        let fold = resolved[*index].strategy.fold();
        let aligned = align(&text[span.clone()], &olds[*index], &news[*index], fold, local);
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
