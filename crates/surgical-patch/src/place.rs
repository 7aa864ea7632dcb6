//! Placing hunks in a file's text: each hunk (old lines → new lines) is located with the engine's
//! tiers as whole lines, written by the engine (which keeps the file's bytes wherever old and new
//! lines agree and gives new lines the local line ending), and all hunks of a file are spliced in
//! one pass. Bytes outside the hunks' spans are copied unchanged.
//!
//! Searching only finds (`Haystack::find`/`find_all` with [`Scope::whole_lines`], on the lines a
//! hunk may occupy: no edit is made to learn where lines are); writing is one [`ChangeSet`] on a
//! haystack of exactly the hunk's lines. The text tiers run first on whole lines; the line-based tiers
//! (`indentation`, `whitespace_runs`) match whole lines by themselves and run in a second pass, where
//! a text tier's match may also start after indentation the file adds to its first line
//! ([`Scope::indented_first_line`]). Each engine call gets a slice of the file's text, so nothing is
//! copied per hunk and a haystack holds just the hunk's lines, which keeps placing a hunk
//! proportional to its size.

use std::ops::Range;

use surgical_core::line_numbers::{line_number_prefix, strip_line_numbers};
use surgical_core::lines::{ends_open, line_start, prev_terminator, LineCounter, LineIndex};
use surgical_core::{
    line_destinations, Change, ChangeSet, Difference, EditError, Haystack, Match, Miss, Needle, Options, Scope,
    Spliced, Tier,
};

use surgical_core::Closest;

use crate::{Hunk, PatchFormat, Tag};

mod byte_exact;
#[cfg(test)]
mod tester;

use byte_exact::place_bytes;

/// A file's text split into lines (each with its terminator: `\r\n`, `\r` or `\n`).
struct Lines<'a> {
    text: &'a [u8],
    index: LineIndex,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a [u8]) -> Lines<'a> {
        Lines {
            text,
            index: LineIndex::new(text),
        }
    }

    pub fn count(&self) -> usize {
        self.index.count()
    }

    /// Where line `k` (zero-based) starts; the text's length for `k == count`.
    pub fn start(&self, k: usize) -> usize {
        self.index.start(k)
    }

    /// The zero-based line holding byte `at` (`count` at the end of the text).
    pub fn line_of(&self, at: usize) -> usize {
        self.index.line_of(at)
    }

    /// Line `k` without its terminator.
    pub fn content(&self, k: usize) -> &'a [u8] {
        self.index.line(self.text, k).content
    }

    fn is_blank(&self, k: usize) -> bool {
        self.content(k).iter().all(|b| matches!(b, b' ' | b'\t'))
    }
}

/// How a hunk's place was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum How {
    /// The only place its old lines occur (in the whole file, or after its `@@` anchor).
    Unique,
    /// The only place after its `@@` anchor line (zero-based).
    Anchor(usize),
    /// Its old lines occur several times; this is the only place after the previous hunk.
    AfterPrevious,
    /// Its old lines occur several times; this place is clearly the nearest to the line number of
    /// its header (one-based, as written).
    LineHint(usize),
    /// Lines only added, right after the `@@` anchor line (zero-based).
    AfterAnchor(usize),
    /// At the end of the file.
    EndOfFile,
    /// Lines only added, at the start of the file.
    StartOfFile,
}

impl How {
    /// Its name in results: `unique`, `anchor`, `after_previous_hunk`, `line_hint`, `after_anchor`,
    /// `end_of_file`, `start_of_file`.
    pub fn name(self) -> &'static str {
        match self {
            How::Unique => "unique",
            How::Anchor(_) => "anchor",
            How::AfterPrevious => "after_previous_hunk",
            How::LineHint(_) => "line_hint",
            How::AfterAnchor(_) => "after_anchor",
            How::EndOfFile => "end_of_file",
            How::StartOfFile => "start_of_file",
        }
    }
}

/// One hunk, placed and written.
#[derive(Clone, Debug)]
struct Placed {
    index: usize,
    /// The replaced bytes of the original text (whole lines).
    span: Range<usize>,
    /// What replaces them.
    bytes: Vec<u8>,
    strategy: Tier,
    /// Line numbers zero-based within `bytes`.
    differences: Vec<Difference>,
    fuzz: usize,
    /// Context lines ignored at the start and at the end (fuzz).
    dropped: (usize, usize),
    how: How,
    /// Found once the line-number prefixes of its lines were left out.
    unnumbered: bool,
}

/// Where one hunk went in the new text.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HunkOutcome {
    /// The hunk's index among the file's hunks, from 0.
    pub index: usize,
    /// The tier that matched its old lines (`exact` for lines only added).
    pub strategy: Tier,
    /// How its place was decided.
    pub how: How,
    /// How many outer context lines (at most, at each end) were ignored to find it (unified diffs).
    pub fuzz: usize,
    /// Context lines ignored at the start and at the end.
    pub dropped: (usize, usize),
    /// One-based first and last line in the original text.
    pub old_lines: (usize, usize),
    /// One-based first and last line in the new text.
    pub new_lines: (usize, usize),
    /// What differed and what was forgiven, with one-based line numbers of the new text.
    pub differences: Vec<Difference>,
    /// Its lines carried line-number prefixes copied from a read view (`12 | `, `12→`, `12<TAB>`),
    /// not in the file: it was found, and written, without them.
    pub unnumbered: bool,
}

impl HunkOutcome {
    /// A hunk that changed nothing but the file's BOM (see [`crate::strip_bom`]): it stands on the
    /// first line, which it leaves as it is, matched exactly.
    pub fn bom_only(index: usize) -> HunkOutcome {
        HunkOutcome {
            index,
            strategy: Tier::Exact,
            how: How::StartOfFile,
            fuzz: 0,
            dropped: (0, 0),
            old_lines: (1, 1),
            new_lines: (1, 1),
            differences: Vec::new(),
            unnumbered: false,
        }
    }
}

/// A file's new text and where every hunk went.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Patched {
    /// The new text.
    pub text: Vec<u8>,
    /// One per hunk, in patch order.
    pub hunks: Vec<HunkOutcome>,
    /// Every replaced range with its replacement, in file order (for the diffs).
    pub changes: Vec<Change>,
}

/// Where every hunk of a file went and the replacements on its text ([`place_spliced`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PatchedSpliced {
    /// One per hunk, in patch order.
    pub hunks: Vec<HunkOutcome>,
    /// The replaced ranges and their new bytes, in file order.
    pub spliced: Spliced,
}

/// Why a hunk could not be placed: data, for the caller to word.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Failure {
    /// The hunk's index among the file's hunks, from 0 (for an overlap, the later of the two).
    pub hunk: usize,
    /// What went wrong.
    pub kind: FailureKind,
}

/// What went wrong with a hunk. Lines are zero-based lines of the text, unless said otherwise.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FailureKind {
    /// Its old lines occur several times and nothing the patch states singles one out.
    Ambiguous {
        /// The first lines of the first [`surgical_core::MAX_LISTED`] places.
        candidates: Vec<usize>,
        /// How many places there are.
        total: usize,
        /// The tier that found them; `None` when they differ only in what a model cannot see.
        tier: Option<Tier>,
    },
    /// Its old lines are not where it may go.
    NotFound {
        /// The line of its (last) `@@` anchor, if it has one.
        anchor: Option<usize>,
        /// The first line searched (0 without anchor: the whole file).
        from: usize,
        /// What the whole text holds instead.
        elsewhere: Elsewhere,
    },
    /// An `@@` line names a line that occurs several times.
    AnchorAmbiguous {
        /// The anchor's text, trimmed.
        anchor: String,
        /// The lines holding it (the first [`surgical_core::MAX_LISTED`]).
        candidates: Vec<usize>,
        /// How many there are.
        total: usize,
    },
    /// An `@@` line names a line that is not there.
    AnchorNotFound {
        /// The anchor's text, trimmed.
        anchor: String,
        /// The line of the `@@` line before it, which it was searched after.
        outer: Option<usize>,
        /// The regions of the whole text most like it, when it occurs nowhere; `None` when it occurs
        /// only before the searched lines.
        closest: Option<Closest>,
    },
    /// It only adds lines, with nothing that shows where, in a file that is not empty.
    NoPlace,
    /// It changes lines another hunk changes.
    Overlap {
        /// The earlier hunk's index.
        first: usize,
        /// The later hunk's index.
        second: usize,
        /// The one-based line where they meet.
        line: usize,
    },
    /// The engine refused to write it (it changes nothing, writes U+FFFD over invalid bytes, or adds
    /// non-ASCII text to a legacy 8-bit file).
    Engine {
        /// The engine's error; its line numbers count from the lines the hunk was written on.
        error: EditError,
        /// Add this to the error's line numbers to get the text's (one-based) lines.
        lines_before: usize,
    },
    /// A place found could not be written on (a bug: please report the patch).
    Internal(Internal),
}

/// What the whole text holds, for a hunk whose old lines were not found where it may go.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Elsewhere {
    /// They occur nowhere: the regions most like them.
    Closest(Closest),
    /// They occur once, but not as whole lines (or not after the `@@` line): its first line.
    Once(usize),
    /// They occur several times, not as whole lines where the hunk may go: their first lines.
    Several(Vec<usize>),
    /// Nothing to say (no old lines).
    Nothing,
}

/// A place found that could not be written on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Internal {
    /// The hunk's old lines were found but could not be written there.
    Unwritable,
}

impl Failure {
    fn new(hunk: usize, kind: FailureKind) -> Failure {
        Failure { hunk, kind }
    }
}

/// How the hunks of one format are placed.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Rules {
    /// The loosest tier allowed.
    pub options: Options,
    /// Hunks come in file order (apply_patch, unified diffs): the previous hunk's end may
    /// disambiguate.
    pub ordered: bool,
    /// How many outer context lines may be ignored (unified diffs: 2).
    pub max_fuzz: usize,
    /// A hunk that only adds lines, with no anchor and no line hint, goes at the end of the file
    /// (apply_patch); otherwise it is refused unless the file is empty.
    pub append_bare_additions: bool,
    /// Line-number prefixes copied from a read view (`12 | `, `12→`, `12<TAB>`) on every old line
    /// are left out when the lines as written are not found (SEARCH/REPLACE blocks).
    pub strip_line_numbers: bool,
    /// Hunks are first applied byte for byte, as `git apply` does (unified diffs): see [`place`].
    pub bytes_first: bool,
    /// A hunk whose last line is one it removes, at the end of a file without a final line break,
    /// leaves the line before it as it was, with its line break (apply_patch, which ends every file
    /// with one, and unified diffs, which say otherwise with `\ No newline at end of file`).
    /// Without it (SEARCH/REPLACE blocks, which cannot say either way) the file's own state is kept,
    /// as Roo, Cline and Aider keep it.
    pub removed_last_line_keeps_its_break: bool,
}

impl Rules {
    /// The rules of `format`, with `loosest` the loosest tier allowed.
    pub fn new(format: PatchFormat, loosest: Tier) -> Rules {
        Rules {
            options: Options::new().loosest_tier(loosest),
            ordered: format != PatchFormat::SearchReplace,
            max_fuzz: if format == PatchFormat::Unified { 2 } else { 0 },
            append_bare_additions: format == PatchFormat::Codex,
            strip_line_numbers: format == PatchFormat::SearchReplace,
            bytes_first: format == PatchFormat::Unified,
            removed_last_line_keeps_its_break: format != PatchFormat::SearchReplace,
        }
    }
}

/// The outcome of one engine call on a window that holds exactly a hunk's place.
enum Attempt {
    Placed(Box<Placed>),
    /// Not there (or, which a window this narrow cannot hold, several times).
    NotFound,
    Failed(Failure),
}

/// Lines `range` (zero-based) of the file as one engine call sees them: a slice of its text.
struct Window<'b> {
    buf: &'b [u8],
    /// Where the lines start in the file.
    base: usize,
    /// The first file line (zero-based) in the window.
    first_line: usize,
}

fn window<'b>(lines: &Lines<'b>, range: Range<usize>) -> Window<'b> {
    let base = lines.start(range.start);
    Window {
        buf: &lines.text[base..lines.start(range.end)],
        base,
        first_line: range.start,
    }
}

/// A hunk's old (or new) lines as the engine takes them: each line with its line break.
fn joined(lines: &[&str]) -> String {
    let mut text = lines.join("\n");
    if !lines.is_empty() {
        text.push('\n');
    }
    text
}

/// Which matches a search takes: whole lines ([`Pass::Text`], the text tiers) or, for the line-based
/// tiers' pass, also a text tier's match whose first line the file indents more ([`Pass::Loose`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Text,
    Loose,
}

impl Pass {
    fn scope(self) -> Scope {
        match self {
            // Line numbers copied into a hunk are the placement's decision (`Rules::strip_line_numbers`).
            Pass::Text => Scope::everywhere().whole_lines().numbers_as_written(),
            Pass::Loose => Scope::everywhere()
                .whole_lines()
                .indented_first_line()
                .numbers_as_written(),
        }
    }
}

/// One engine call: `old` → `new` on the lines `range` (zero-based), which hold the hunk's place.
#[allow(clippy::too_many_arguments)]
fn attempt(
    lines: &Lines<'_>,
    range: Range<usize>,
    index: usize,
    old: &[&str],
    new: &[&str],
    final_newline: Option<bool>,
    options: &Options,
    pass: Pass,
) -> Attempt {
    if range.is_empty() {
        return Attempt::NotFound;
    }
    let w = window(lines, range);
    let hay = Haystack::new(w.buf);
    let Ok(mut found) = hay.find(&joined(old), &pass.scope(), options.get_loosest_tier()) else {
        return Attempt::NotFound;
    };
    // A first line the file indents more is matched after that indentation. Replacing from there
    // would glue the indentation onto whatever comes first in the new lines (the next line when the
    // hunk deletes it, a line inserted before it), so the match is taken from the line's start and
    // the indentation goes where the first line goes: onto the new line the engine keeps it as or
    // edits it into, and onto the lines written before that one (they stand where it started); when
    // no new line continues it (deleted or rewritten), onto the first new line if that is a written
    // one (never onto another old line, which keeps its own indentation).
    let rebased: Vec<String>;
    let rebased_refs: Vec<&str>;
    let mut new = new;
    // (A blank first line keeps the file's blanks as they are: nothing is glued to it.)
    if found.indented_first_line && !old[0].trim().is_empty() {
        let start = found.spans[0].start;
        let line = line_start(w.buf, start);
        let indent = std::str::from_utf8(&w.buf[line..start]).unwrap_or_default();
        let mut wide: Vec<String> = old.iter().map(|l| l.to_string()).collect();
        wide[0] = format!("{indent}{}", old[0]);
        let wide_refs: Vec<&str> = wide.iter().map(String::as_str).collect();
        let whole = hay.find(&joined(&wide_refs), &Pass::Text.scope(), options.get_loosest_tier());
        if let Some(m) = whole.ok().filter(|m| m.spans[0].start == line) {
            found = m;
            let destinations = line_destinations(&joined(old), &joined(new));
            let first_goes_to = destinations[0];
            let mut continues_old = vec![false; new.len()];
            for &k in destinations.iter().flatten() {
                continues_old[k] = true;
            }
            let written = |i: usize| !continues_old[i];
            let last_written = first_goes_to.unwrap_or(0);
            rebased = new
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let indented = first_goes_to == Some(i) || (written(i) && i <= last_written);
                    if indented && !l.is_empty() {
                        format!("{indent}{l}")
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            rebased_refs = rebased.iter().map(String::as_str).collect();
            new = &rebased_refs;
        }
    }
    let at = found.spans[0].clone();
    let span = w.base + at.start..w.base + at.end;
    // The new lines end with a line break unless they end the file and the hunk (or, when it says
    // nothing, the file's own state where the hunk keeps its last line) says they do not.
    let at_end = span.end == lines.text.len();
    let open_end = at_end && !matches!(lines.text.last(), Some(b'\n' | b'\r') | None);
    // Without a marker the file's own state is kept: a last line without a line break stays without
    // one even when the hunk rewrites it, as `edit` does for the same change.
    let final_break = final_newline.unwrap_or(!open_end);
    let mut new_text = new.join("\n");
    if !new.is_empty() && (!at_end || final_break) {
        new_text.push('\n');
    }
    let before = prev_terminator(lines.text, w.base).map_or(&b"\n"[..], |t| &lines.text[t]);
    let mut changes = ChangeSet::new(&hay).terminator_before(before);
    let added = if open_end && final_break {
        changes.replace_ending_text(&found, &new_text)
    } else {
        changes.replace(&found, &new_text)
    };
    let applied = match added.and_then(|_| changes.apply()) {
        Ok(a) => a,
        Err(error) => {
            let kind = FailureKind::Engine {
                error,
                lines_before: w.first_line,
            };
            return Attempt::Failed(Failure::new(index, kind));
        }
    };
    let edit = &applied.edits[0];
    let occ = &edit.occurrences[0];
    let differences = edit
        .differences
        .iter()
        .map(|d| d.clone().on_line(d.line.saturating_sub(occ.new_lines.0)))
        .collect();
    Attempt::Placed(Box::new(Placed {
        index,
        span,
        bytes: applied.text[occ.new.clone()].to_vec(),
        strategy: edit.tier,
        differences,
        fuzz: 0,
        dropped: (0, 0),
        how: How::Unique,
        unnumbered: false,
    }))
}

impl Locate {
    /// A miss in a window whose first line is the file's line `first_line` (zero-based).
    fn from_miss(miss: Miss, window: &Haystack<'_>, first_line: usize) -> Locate {
        match miss {
            Miss::Ambiguous { starts, total, tier } => Locate::Many {
                lines: starts.iter().map(|&s| first_line + window.lines().line_of(s)).collect(),
                total,
                strategy: tier,
            },
            _ => Locate::NotFound,
        }
    }
}

/// Where `old` occurs in `range` (zero-based lines) in one `pass`: the first line and the number of
/// lines of the one place, found without editing; [`attempt`] then writes the hunk on exactly those
/// lines. Writing on a window that holds nothing after the match also keeps the trimming tiers from
/// taking a following blank line along.
fn locate(
    lines: &Lines<'_>,
    range: Range<usize>,
    old: &[&str],
    options: &Options,
    pass: Pass,
) -> Result<(usize, usize), Locate> {
    if range.is_empty() {
        return Err(Locate::NotFound);
    }
    let w = window(lines, range);
    let hay = Haystack::new(w.buf);
    match hay.find(&joined(old), &pass.scope(), options.get_loosest_tier()) {
        Ok(found) => Ok(lines_of(&hay, &found, w.first_line)),
        Err(miss) => Err(Locate::from_miss(miss, &hay, w.first_line)),
    }
}

/// The first line (zero-based, in the file) and the number of lines of a match in a window whose
/// first line is the file's `first_line`.
fn lines_of(hay: &Haystack<'_>, found: &Match, first_line: usize) -> (usize, usize) {
    let span = &found.spans[0];
    let index = hay.lines();
    let first = index.line_of(span.start);
    let last = index.line_of(span.end.saturating_sub(1).max(span.start));
    (first_line + first, last + 1 - first)
}

/// Why [`locate`] found no single place.
enum Locate {
    NotFound,
    /// Several places: the zero-based first lines of those listed, how many there are, the tier.
    Many {
        lines: Vec<usize>,
        total: usize,
        strategy: Option<Tier>,
    },
}

/// Places the hunks of one file, in patch order, and splices them into the text.
struct Placer<'a> {
    lines: Lines<'a>,
    rules: &'a Rules,
    /// The zero-based line after the previous hunk's old lines.
    prev_end: Option<usize>,
    /// Where the previous hunk with a line hint landed, minus where it claimed to be.
    offset: isize,
}

/// Places `hunks` (one file's, in patch order) on `text` under `rules`: every hunk is located in the
/// original text, written on the lines found, then all are spliced in one pass. Bytes outside the
/// hunks' lines are copied unchanged. The first hunk that cannot be placed fails the whole call.
///
/// A unified diff's hunks (as git writes them: a CRLF file's lines carry their CR, a change of line
/// endings is `-x\r` / `+x`), and any hunk whose lines carry CR bytes, are first applied as `git
/// apply` does, byte for byte: each old line with `\n` found once at line starts (in patch order,
/// each after the one before; a line hint picks among identical places only when one starts exactly
/// there), replaced by the new lines' bytes. When that fails for any hunk, their CRs are read as
/// line endings and all are placed as usual.
pub fn place(text: &[u8], hunks: &[Hunk], rules: &Rules) -> Result<Patched, Failure> {
    let r = place_replacements(text, hunks, rules)?;
    Ok(Patched {
        text: r.text(text),
        hunks: r.hunks,
        changes: r.changes,
    })
}

/// [`place()`] without building the new text: where every hunk went and the replacements on
/// `text` ([`Spliced`]), for a caller that writes, hashes and diffs the new version as the old
/// bytes and the changed ranges (as an edit's). The same placement, outcomes and failures.
pub fn place_spliced(text: &[u8], hunks: &[Hunk], rules: &Rules) -> Result<PatchedSpliced, Failure> {
    let r = place_replacements(text, hunks, rules)?;
    Ok(PatchedSpliced {
        hunks: r.hunks,
        spliced: Spliced::from_replacements(text.len(), r.changes, r.bytes),
    })
}

/// Where the hunks go on `text` and what replaces their lines: see [`place()`].
fn place_replacements(text: &[u8], hunks: &[Hunk], rules: &Rules) -> Result<Replacements, Failure> {
    if rules.bytes_first || hunks.iter().any(carries_cr) {
        if let Some(placed) = place_bytes(text, hunks) {
            return replacements(text, placed, None);
        }
        let plain: Vec<Hunk> = hunks.iter().map(without_cr).collect();
        return place_lines(text, &plain, rules);
    }
    place_lines(text, hunks, rules)
}

/// The hunk without the line-number prefixes a model copied from a read view: every old line must
/// carry one, numbered in order ([`strip_line_numbers`]); an added line loses its own when it has one
/// in the same style. `None` when the old lines are not such a view.
fn unnumbered(hunk: &Hunk) -> Option<Hunk> {
    let old = hunk.old_lines();
    let view = strip_line_numbers(&old)?;
    let mut plain = hunk.clone();
    let mut olds = view.lines.iter();
    for (tag, line) in &mut plain.lines {
        let text = match tag {
            Tag::Added => match line_number_prefix(line) {
                Some((_, style, text)) if style == view.style => text.to_string(),
                _ => continue,
            },
            _ => olds.next()?.to_string(),
        };
        *line = text;
    }
    plain.hint = plain.hint.or(Some(view.first));
    Some(plain)
}

/// Whether new lines that end the file end with a line break, for a hunk (or the part of it being
/// placed) with these lines: as the patch says, else, when its last line is one it removes and the
/// format's rules say so ([`Rules::removed_last_line_keeps_its_break`]), yes (the line left last
/// had its break), else the file's own state (`None`).
fn final_newline(lines: &[(Tag, String)], given: Option<bool>, rules: &Rules) -> Option<bool> {
    let removes_last = lines.last().is_some_and(|(t, _)| *t == Tag::Removed);
    given.or_else(|| (rules.removed_last_line_keeps_its_break && removes_last).then_some(true))
}

/// Whether a hunk line holds a CR byte.
fn carries_cr(hunk: &Hunk) -> bool {
    hunk.lines.iter().any(|(_, l)| l.contains('\r'))
}

/// The hunk with one CR removed from the end of each line (a CRLF line break).
fn without_cr(hunk: &Hunk) -> Hunk {
    let mut h = hunk.clone();
    for (_, l) in &mut h.lines {
        if l.ends_with('\r') {
            l.pop();
        }
    }
    h
}

/// [`place`] for hunks of lines without CRs.
fn place_lines(text: &[u8], hunks: &[Hunk], rules: &Rules) -> Result<Replacements, Failure> {
    let mut placer = Placer {
        lines: Lines::new(text),
        rules,
        prev_end: None,
        offset: 0,
    };
    let found = placer.locate_all(hunks);
    let mut placed = Vec::with_capacity(hunks.len());
    for (index, hunk) in hunks.iter().enumerate() {
        placed.push(placer.place(index, hunk, found.get(index).copied().flatten())?);
    }
    replacements(text, placed, Some(&placer.lines.index))
}

/// Whether a hunk searches the whole file for its old lines (no anchor, not at the end).
fn searches_whole_file(hunk: &Hunk) -> bool {
    !hunk.at_eof && hunk.anchors.iter().all(|a| a.trim().is_empty()) && hunk.lines.iter().any(|(t, _)| *t != Tag::Added)
}

impl<'a> Placer<'a> {
    fn text_options(&self) -> Options {
        Options::new().loosest_tier(self.rules.options.get_loosest_tier().min(Tier::Unicode))
    }

    /// The line-based tiers, if allowed.
    fn line_options(&self) -> Option<Options> {
        let max = self.rules.options.get_loosest_tier();
        (max >= Tier::Indentation).then(|| Options::new().loosest_tier(max.min(Tier::WhitespaceRuns)))
    }

    /// The first line of every hunk that searches the whole file, found in one pass of the engine
    /// (all needles at once) when each occurs exactly once, as usual; otherwise nothing, and each
    /// hunk is searched on its own (which says which one failed and why).
    fn locate_all(&mut self, hunks: &[Hunk]) -> Vec<Option<(usize, usize)>> {
        let batch: Vec<usize> = (0..hunks.len()).filter(|&i| searches_whole_file(&hunks[i])).collect();
        if batch.len() < 2 {
            return Vec::new();
        }
        let olds: Vec<String> = batch.iter().map(|&i| joined(&hunks[i].old_lines())).collect();
        let needles: Vec<Needle<'_>> = olds.iter().map(|o| Needle::new(o)).collect();
        // The haystack borrows the placer's line index (the search numbers its matches with it),
        // and gives it back: one index of the whole file, not two.
        let index = std::mem::replace(&mut self.lines.index, LineIndex::new(&[]));
        let hay = Haystack::with_lines(self.lines.text, index);
        let options = self.text_options();
        let matches = hay.find_all(&needles, &Pass::Text.scope(), options.get_loosest_tier());
        let found = matches.map(|matches| {
            let found: Vec<(usize, usize)> = matches.iter().map(|m| lines_of(&hay, m, 0)).collect();
            (matches.iter().map(|m| m.spans[0].clone()).collect::<Vec<_>>(), found)
        });
        self.lines.index = hay.into_lines().expect("given to the haystack");
        let Ok((mut spans, lines)) = found else {
            return Vec::new();
        };
        // Places that overlap are placed one by one instead, each after the one before (which says
        // which hunk failed and why).
        spans.sort_by_key(|s| (s.start, s.end));
        if spans.windows(2).any(|p| p[1].start < p[0].end) {
            return Vec::new();
        }
        let mut found = vec![None; hunks.len()];
        for (l, &i) in lines.into_iter().zip(&batch) {
            found[i] = Some(l);
        }
        found
    }

    fn place(&mut self, index: usize, hunk: &Hunk, found: Option<(usize, usize)>) -> Result<Placed, Failure> {
        if let Some((first, n)) = found {
            let (old, new) = (hunk.old_lines(), hunk.new_lines());
            let text = self.text_options();
            match attempt(
                &self.lines,
                first..first + n,
                index,
                &old,
                &new,
                final_newline(&hunk.lines, hunk.final_newline, self.rules),
                &text,
                Pass::Text,
            ) {
                Attempt::Placed(p) => {
                    self.note_placed(hunk, &p);
                    return Ok(*p);
                }
                Attempt::Failed(f) => return Err(f),
                // Not expected (the lines were just found there): search as usual.
                _ => {}
            }
        }
        let count = self.lines.count();
        let mut search = 0..count;
        let mut anchor = None;
        for text in &hunk.anchors {
            if text.trim().is_empty() {
                continue;
            }
            let line = self.find_anchor(index, search.clone(), text.trim(), anchor)?;
            anchor = Some(line);
            // The old lines may start at the anchor line itself (models repeat it as context).
            search = line..count;
        }
        let old = hunk.old_lines();
        let placed = if old.is_empty() {
            self.insert(index, hunk, anchor)?
        } else {
            self.replace(index, hunk, search, anchor)?
        };
        self.note_placed(hunk, &placed);
        Ok(placed)
    }

    /// Remembers where a hunk went: the end of its lines (the next hunk comes after it) and, for a
    /// hunk with a line number, how far off that number was (the next one is probably off alike).
    fn note_placed(&mut self, hunk: &Hunk, placed: &Placed) {
        let end = if placed.span.is_empty() {
            self.lines.line_of(placed.span.start)
        } else {
            self.lines.line_of(placed.span.end - 1) + 1
        };
        self.prev_end = Some(end);
        if let Some(hint) = hunk.hint.filter(|h| *h > 0) {
            let lead_dropped = placed.dropped.0;
            let first = self.lines.line_of(placed.span.start) as isize - lead_dropped as isize;
            self.offset = first - (hint as isize - 1);
        }
    }

    /// A hunk with old lines: at the end of the file first if it says so, then anywhere in `search`,
    /// with up to `max_fuzz` outer context lines ignored.
    fn replace(
        &mut self,
        index: usize,
        hunk: &Hunk,
        search: Range<usize>,
        anchor: Option<usize>,
    ) -> Result<Placed, Failure> {
        let as_written = self.replace_as_written(index, hunk, search.clone(), anchor);
        let Err(failure) = as_written else {
            return as_written;
        };
        if !matches!(failure.kind, FailureKind::NotFound { .. }) || !self.rules.strip_line_numbers {
            return Err(failure);
        }
        match unnumbered(hunk) {
            Some(plain) => match self.replace_as_written(index, &plain, search, anchor) {
                Ok(p) => Ok(Placed { unnumbered: true, ..p }),
                Err(_) => Err(failure),
            },
            None => Err(failure),
        }
    }

    fn replace_as_written(
        &mut self,
        index: usize,
        hunk: &Hunk,
        search: Range<usize>,
        anchor: Option<usize>,
    ) -> Result<Placed, Failure> {
        if hunk.at_eof {
            if let Some(p) = self.at_end(index, hunk, search.start)? {
                return Ok(p);
            }
        }
        let (lead, trail) = (leading_context(hunk), trailing_context(hunk));
        // What to try, in order: the whole hunk; with fuzz (unified diffs), up to `max_fuzz`
        // unchanged lines fewer at each end; last, without the blank unchanged lines at its ends
        // (models add an empty line the file does not have around a block).
        let blank = |l: &(Tag, String)| l.0 == Tag::Context && l.1.trim().is_empty();
        let blank_lead = hunk.lines.iter().take_while(|l| blank(l)).count();
        let blank_trail = hunk.lines.iter().rev().take_while(|l| blank(l)).count();
        let mut trims: Vec<(usize, usize, usize)> = (0..=self.rules.max_fuzz)
            .map(|fuzz| (fuzz, fuzz.min(lead), fuzz.min(trail)))
            .collect();
        trims.push((0, blank_lead, blank_trail));
        let mut tried: Vec<(usize, usize)> = Vec::new();
        for (fuzz, drop_lead, drop_trail) in trims {
            if tried.contains(&(drop_lead, drop_trail)) || drop_lead + drop_trail >= hunk.lines.len() {
                continue;
            }
            tried.push((drop_lead, drop_trail));
            let body = &hunk.lines[drop_lead..hunk.lines.len() - drop_trail];
            let old: Vec<&str> = body
                .iter()
                .filter(|(t, _)| *t != Tag::Added)
                .map(|(_, l)| l.as_str())
                .collect();
            let new: Vec<&str> = body
                .iter()
                .filter(|(t, _)| *t != Tag::Removed)
                .map(|(_, l)| l.as_str())
                .collect();
            if old.is_empty() {
                continue;
            }
            let hint = hunk.hint.map(|h| h + drop_lead);
            let ends = final_newline(body, hunk.final_newline, self.rules);
            if let Some(mut p) = self.search(index, search.clone(), &old, &new, ends, hint, anchor)? {
                p.fuzz = fuzz;
                p.dropped = (drop_lead, drop_trail);
                return Ok(p);
            }
        }
        Err(self.not_found(index, hunk, search, anchor))
    }

    /// The hunk's old lines at the very end of the file (trailing blank lines forgiven).
    fn at_end(&self, index: usize, hunk: &Hunk, from: usize) -> Result<Option<Placed>, Failure> {
        let (old, new) = (hunk.old_lines(), hunk.new_lines());
        let n = old.len();
        let mut end = self.lines.count();
        for _ in 0..3 {
            if end < n || end - n < from {
                break;
            }
            match attempt(
                &self.lines,
                end - n..end,
                index,
                &old,
                &new,
                final_newline(&hunk.lines, hunk.final_newline, self.rules),
                &self.text_options(),
                Pass::Text,
            ) {
                Attempt::Placed(p) => {
                    return Ok(Some(Placed {
                        how: How::EndOfFile,
                        ..*p
                    }))
                }
                Attempt::Failed(f) => return Err(f),
                _ => {}
            }
            if end > 0 && self.lines.is_blank(end - 1) {
                end -= 1;
            } else {
                break;
            }
        }
        Ok(None)
    }

    /// Looks for `old` in `search`: the text tiers on whole lines, then the line-based tiers; when
    /// several places qualify, the previous hunk and the line hint may single one out.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        index: usize,
        search: Range<usize>,
        old: &[&str],
        new: &[&str],
        final_newline: Option<bool>,
        hint: Option<usize>,
        anchor: Option<usize>,
    ) -> Result<Option<Placed>, Failure> {
        let text = self.text_options();
        // The text tiers find whole lines; the hunk is then written on exactly the lines found.
        let (first, how) = match locate(&self.lines, search.clone(), old, &text, Pass::Text) {
            Ok((first, _)) => (Some(first), anchor.map_or(How::Unique, How::Anchor)),
            Err(Locate::Many { lines, total, strategy }) => {
                let (line, how) = self.choose(index, &lines, total, strategy, hint, search.start)?;
                (Some(line), how)
            }
            Err(Locate::NotFound) => (None, How::Unique),
        };
        if let Some(first) = first {
            let range = first..(first + old.len()).min(self.lines.count());
            return match attempt(&self.lines, range, index, old, new, final_newline, &text, Pass::Text) {
                Attempt::Placed(p) => Ok(Some(Placed { how, ..*p })),
                Attempt::Failed(f) => Err(f),
                _ => Err(Failure::new(index, FailureKind::Internal(Internal::Unwritable))),
            };
        }
        let Some(loose) = self.line_options() else {
            return Ok(None);
        };
        let (range, how) = match locate(&self.lines, search.clone(), old, &loose, Pass::Loose) {
            Ok((first, n)) => (first..first + n, anchor.map_or(How::Unique, How::Anchor)),
            Err(Locate::Many { lines, total, strategy }) => {
                let (line, how) = self.choose(index, &lines, total, strategy, hint, search.start)?;
                // The candidate's extent is unknown (blank lines may be skipped): up to the next one.
                let next = lines.iter().copied().filter(|&l| l > line).min().unwrap_or(search.end);
                match locate(&self.lines, line..next, old, &loose, Pass::Loose) {
                    Ok((first, n)) => (first..first + n, how),
                    Err(_) => return Err(self.ambiguous(index, &lines, total, strategy)),
                }
            }
            Err(Locate::NotFound) => return Ok(None),
        };
        match attempt(&self.lines, range, index, old, new, final_newline, &loose, Pass::Loose) {
            Attempt::Placed(p) => Ok(Some(Placed { how, ..*p })),
            Attempt::Failed(f) => Err(f),
            _ => Err(Failure::new(index, FailureKind::Internal(Internal::Unwritable))),
        }
    }

    /// Picks one of several candidate places, or fails as ambiguous. Only facts the patch states
    /// decide: hunks are in file order (the only candidate after the previous hunk), and a line
    /// number singles out a candidate only when it is at least twice as near as any other.
    fn choose(
        &self,
        index: usize,
        candidates: &[usize],
        total: usize,
        strategy: Option<Tier>,
        hint: Option<usize>,
        search_start: usize,
    ) -> Result<(usize, How), Failure> {
        let fail = || self.ambiguous(index, candidates, total, strategy);
        if total > candidates.len() || candidates.is_empty() {
            return Err(fail());
        }
        let mut pool: Vec<usize> = candidates.to_vec();
        if self.rules.ordered {
            if let Some(prev) = self.prev_end.filter(|&p| p > search_start) {
                let after: Vec<usize> = pool.iter().copied().filter(|&l| l >= prev).collect();
                if after.len() == 1 {
                    return Ok((after[0], How::AfterPrevious));
                }
                if !after.is_empty() {
                    pool = after;
                }
            }
        }
        if let Some(h) = hint.filter(|h| *h > 0) {
            let expected = (h as isize - 1 + self.offset).max(0);
            let mut by_distance: Vec<(usize, usize)> = pool
                .iter()
                .map(|&l| ((l as isize - expected).unsigned_abs(), l))
                .collect();
            by_distance.sort();
            if let [(d0, l0), (d1, _), ..] = by_distance[..] {
                if d0 * 2 < d1 {
                    return Ok((l0, How::LineHint(h)));
                }
            }
        }
        Err(fail())
    }

    fn ambiguous(&self, index: usize, lines: &[usize], total: usize, tier: Option<Tier>) -> Failure {
        let candidates = lines.iter().copied().take(surgical_core::MAX_LISTED).collect();
        Failure::new(
            index,
            FailureKind::Ambiguous {
                candidates,
                total,
                tier,
            },
        )
    }

    /// Not found where the hunk may go, with what the whole text holds instead.
    fn not_found(&self, index: usize, hunk: &Hunk, search: Range<usize>, anchor: Option<usize>) -> Failure {
        let old = hunk.old_lines().join("\n");
        // Where the lines are in the whole file, whole lines or not: only to explain the miss, by
        // the tiers placement itself uses (a place only a looser tier finds, one word off say, is
        // not where the lines "occur": the closest regions then say what differs).
        let options = &self.rules.options;
        let loosest = self
            .line_options()
            .unwrap_or_else(|| self.text_options())
            .get_loosest_tier();
        let whole = (!old.is_empty()).then(|| Haystack::new(self.lines.text).find(&old, options.scope(), loosest));
        let elsewhere = match whole {
            Some(Err(Miss::NotFound { closest, .. })) => Elsewhere::Closest(closest),
            Some(Ok(found)) => Elsewhere::Once(self.lines.line_of(found.spans[0].start)),
            Some(Err(Miss::Ambiguous { starts, .. })) => {
                Elsewhere::Several(starts.iter().map(|&s| self.lines.line_of(s)).collect())
            }
            _ => Elsewhere::Nothing,
        };
        let kind = FailureKind::NotFound {
            anchor,
            from: search.start,
            elsewhere,
        };
        Failure::new(index, kind)
    }

    /// The line an `@@ text` anchor names: the one line in `search` containing `text`; among
    /// several, the only one that is `text` as a whole line, or the only one after the previous hunk.
    fn find_anchor(
        &self,
        index: usize,
        search: Range<usize>,
        text: &str,
        outer: Option<usize>,
    ) -> Result<usize, Failure> {
        // Only the searched lines are normalized (a haystack of the window, not of the file), so that
        // placing many anchored hunks stays linear in the file.
        let w = window(&self.lines, search.clone());
        let loosest = self.text_options().get_loosest_tier();
        let everywhere = Scope::everywhere();
        let result = if search.is_empty() || text.is_empty() {
            None
        } else {
            Some(Haystack::new(w.buf).find(text, &everywhere, loosest))
        };
        let line_at = |at: usize| {
            self.lines
                .line_of((w.base + at).min(self.lines.text.len().saturating_sub(1)))
        };
        match result {
            Some(Ok(found)) => Ok(line_at(found.spans[0].start)),
            Some(Err(Miss::Ambiguous { starts, total, .. })) => {
                let candidates: Vec<usize> = starts.iter().map(|&s| line_at(s)).collect();
                if total == candidates.len() {
                    let whole: Vec<usize> = candidates
                        .iter()
                        .copied()
                        .filter(|&l| String::from_utf8_lossy(self.lines.content(l)).trim() == text)
                        .collect();
                    if whole.len() == 1 {
                        return Ok(whole[0]);
                    }
                    if let Some(prev) = self.prev_end.filter(|&p| self.rules.ordered && p > search.start) {
                        let after: Vec<usize> = candidates.iter().copied().filter(|&l| l >= prev).collect();
                        if after.len() == 1 {
                            return Ok(after[0]);
                        }
                    }
                }
                let candidates = candidates.into_iter().take(surgical_core::MAX_LISTED).collect();
                let kind = FailureKind::AnchorAmbiguous {
                    anchor: text.to_string(),
                    candidates,
                    total,
                };
                Err(Failure::new(index, kind))
            }
            _ => {
                let whole = (!text.is_empty()).then(|| Haystack::new(self.lines.text).find(text, &everywhere, loosest));
                let closest = match whole {
                    Some(Err(Miss::NotFound { closest, .. })) => Some(closest),
                    _ => None,
                };
                let kind = FailureKind::AnchorNotFound {
                    anchor: text.to_string(),
                    outer,
                    closest,
                };
                Err(Failure::new(index, kind))
            }
        }
    }

    /// A hunk that only adds lines: after its anchor, at the start of the file (a hint of line 0,
    /// or an empty file), or at the end of the file (apply_patch without an anchor).
    fn insert(&self, index: usize, hunk: &Hunk, anchor: Option<usize>) -> Result<Placed, Failure> {
        let count = self.lines.count();
        let added = hunk.new_lines();
        if let Some(a) = anchor {
            return self.insert_after(index, hunk, a, How::AfterAnchor(a));
        }
        if count == 0 || hunk.hint == Some(0) {
            return self.insert_at_start(index, hunk, &added);
        }
        if self.rules.append_bare_additions {
            return self.insert_after(index, hunk, count - 1, How::EndOfFile);
        }
        Err(Failure::new(index, FailureKind::NoPlace))
    }

    /// The added lines right after line `line` (zero-based), which stays as it is.
    fn insert_after(&self, index: usize, hunk: &Hunk, line: usize, how: How) -> Result<Placed, Failure> {
        let added = hunk.new_lines();
        let text = self.lines.text;
        // The added lines end with a line break unless they end the file and the hunk says they do
        // not or, when it says nothing, the file has no final line break (its state is kept).
        let at_end = self.lines.start(line + 1) == text.len();
        let open_end = at_end && !matches!(text.last(), Some(b'\n' | b'\r') | None);
        let final_break = hunk.final_newline.unwrap_or(!open_end);
        let mut new_text = added.join("\n");
        if !added.is_empty() && (!at_end || final_break) {
            new_text.push('\n');
        }
        self.insert_lines(index, line..line + 1, false, &new_text, how)
    }

    /// The added lines before the first line (which stays as it is), or as the whole text of an
    /// empty file (written as given, with `\n`).
    fn insert_at_start(&self, index: usize, hunk: &Hunk, added: &[&str]) -> Result<Placed, Failure> {
        if self.lines.count() > 0 {
            let mut new_text = added.join("\n");
            new_text.push('\n');
            return self.insert_lines(index, 0..1, true, &new_text, How::StartOfFile);
        }
        let mut bytes = Vec::new();
        for line in added {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        if hunk.final_newline == Some(false) {
            bytes.pop();
        }
        Ok(Placed {
            index,
            span: 0..0,
            bytes,
            strategy: Tier::Exact,
            differences: Vec::new(),
            fuzz: 0,
            dropped: (0, 0),
            how: How::StartOfFile,
            unnumbered: false,
        })
    }

    /// One engine call that inserts `new_text` (whole lines) at the start or the end of the lines
    /// `range` (zero-based): no line of the file is edited to put them there.
    fn insert_lines(
        &self,
        index: usize,
        range: Range<usize>,
        at_start: bool,
        new_text: &str,
        how: How,
    ) -> Result<Placed, Failure> {
        let w = window(&self.lines, range);
        let hay = Haystack::new(w.buf);
        let at = if at_start { 0 } else { w.buf.len() };
        let before = prev_terminator(self.lines.text, w.base).map_or(&b"\n"[..], |t| &self.lines.text[t]);
        let mut changes = ChangeSet::new(&hay).terminator_before(before);
        let applied = changes
            .insert_lines(at, new_text)
            .and_then(|_| changes.apply())
            .map_err(|error| {
                let kind = FailureKind::Engine {
                    error,
                    lines_before: w.first_line,
                };
                Failure::new(index, kind)
            })?;
        let edit = &applied.edits[0];
        let occ = &edit.occurrences[0];
        Ok(Placed {
            index,
            span: w.base + at..w.base + at,
            bytes: applied.text[occ.new.clone()].to_vec(),
            strategy: edit.tier,
            differences: Vec::new(),
            fuzz: 0,
            dropped: (0, 0),
            how,
            unnumbered: false,
        })
    }
}

fn leading_context(hunk: &Hunk) -> usize {
    hunk.lines.iter().take_while(|(t, _)| *t == Tag::Context).count()
}

fn trailing_context(hunk: &Hunk) -> usize {
    hunk.lines.iter().rev().take_while(|(t, _)| *t == Tag::Context).count()
}

/// The replacements of placed hunks on one text, in file order, and where every hunk went.
struct Replacements {
    hunks: Vec<HunkOutcome>,
    /// Every replaced range with its range in the new text, in file order.
    changes: Vec<Change>,
    /// The changes' new bytes, one after the other.
    bytes: Vec<u8>,
}

impl Replacements {
    /// The new text, built whole from `text` (the text the hunks were placed on).
    fn text(&self, text: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + self.bytes.len());
        let (mut cursor, mut at) = (0, 0);
        for c in &self.changes {
            out.extend_from_slice(&text[cursor..c.old.start]);
            out.extend_from_slice(&self.bytes[at..at + c.new.len()]);
            at += c.new.len();
            cursor = c.old.end;
        }
        out.extend_from_slice(&text[cursor..]);
        out
    }
}

/// Lines terminated in `bytes` before `upto` (as [`LineCounter::line_at`] counts them: a `\r\n`
/// is one, a `\r` before a `\n` that follows it is none), `next` the byte after `bytes` in the
/// new text.
fn terminators_in(bytes: &[u8], upto: usize, next: Option<u8>) -> usize {
    let lf = memchr::memchr_iter(b'\n', &bytes[..upto]).count();
    let cr = memchr::memchr_iter(b'\r', &bytes[..upto])
        .filter(|&at| bytes.get(at + 1).copied().or(next) != Some(b'\n'))
        .count();
    lf + cr
}

/// The one-based lines of ascending positions of a text, as [`LineCounter::line_at`] numbers them:
/// looked up in the text's line index when there is one, else counted (one pass up to the last).
enum OldLines<'a> {
    Indexed(&'a [u8], &'a LineIndex),
    Counted(LineCounter<'a>),
}

impl OldLines<'_> {
    fn line_at(&mut self, at: usize) -> usize {
        match self {
            // A position inside the text is on the line holding it; the end (or past it) is on the
            // line after the last terminator, as the counter says.
            OldLines::Indexed(text, index) if at < text.len() => index.line_of(at) + 1,
            OldLines::Indexed(text, index) => index.count() + 1 - usize::from(ends_open(text)),
            OldLines::Counted(counter) => counter.line_at(at),
        }
    }
}

/// The replacements of placed hunks on `text` (refusing overlaps), their lines numbered in the old
/// and the new text without building the new text: a line of the new text is counted from the old
/// text's lines before it (looked up in `index`, the text's line index, when the placement built
/// one; else one pass up to the last hunk) and the replacements before it.
fn replacements(text: &[u8], mut placed: Vec<Placed>, index: Option<&LineIndex>) -> Result<Replacements, Failure> {
    placed.sort_by_key(|p| (p.span.start, p.span.end, p.index));
    for w in placed.windows(2) {
        if w[1].span.start < w[0].span.end {
            let (a, b) = (w[0].index.min(w[1].index), w[0].index.max(w[1].index));
            let line = surgical_core::lines::line_of(text, w[1].span.start);
            return Err(Failure::new(
                b,
                FailureKind::Overlap {
                    first: a,
                    second: b,
                    line,
                },
            ));
        }
    }
    // The first byte of the new text from the replacement `k` on (`None` at its end).
    let next_from = |k: usize| -> Option<u8> {
        let mut cursor = placed[k].span.start;
        for p in &placed[k..] {
            if cursor < p.span.start {
                return Some(text[cursor]);
            }
            if let Some(&b) = p.bytes.first() {
                return Some(b);
            }
            cursor = p.span.end;
        }
        text.get(cursor).copied()
    };
    let mut old_counter = match index {
        Some(index) => OldLines::Indexed(text, index),
        None => OldLines::Counted(LineCounter::new(text)),
    };
    let mut bytes = Vec::with_capacity(placed.iter().map(|p| p.bytes.len()).sum::<usize>());
    let mut hunks = Vec::with_capacity(placed.len());
    let mut changes = Vec::with_capacity(placed.len());
    // Where the old text's kept stretch before the next replacement starts, its line there, and the
    // new text's length and terminators before it.
    let (mut cursor, mut cursor_line) = (0, 1);
    let (mut new_len, mut new_terminators) = (0, 0);
    for k in 0..placed.len() {
        let p = &placed[k];
        // The kept stretch `cursor..p.span.start`: its terminators as the old text counts them, but
        // for its last byte, a CR, whose LF (or not) is now the replacement's first byte.
        let old_first = old_counter.line_at(p.span.start);
        let mut kept = old_first - cursor_line;
        if p.span.start > cursor && text[p.span.start - 1] == b'\r' {
            let was = text.get(p.span.start) == Some(&b'\n');
            let now = next_from(k) == Some(b'\n');
            kept = kept + usize::from(was) - usize::from(now);
        }
        new_terminators += kept;
        new_len += p.span.start - cursor;
        let old_last = if p.span.is_empty() {
            old_first
        } else {
            old_counter.line_at(p.span.end - 1)
        };
        let new = new_len..new_len + p.bytes.len();
        // A replacement that starts by ending the line before it (after a last line that had no
        // terminator) starts, as lines go, on the next line.
        let lead = if p.bytes.first().is_some_and(|b| matches!(b, b'\n' | b'\r')) {
            if p.bytes.starts_with(b"\r\n") {
                2
            } else {
                1
            }
        } else {
            0
        };
        // The line of the new text at `new.start`, and at `new.end - 1`.
        let first_line = new_terminators + 1;
        let new_first = if lead > 0 && new.len() > lead {
            first_line + 1
        } else {
            first_line
        };
        let next = if k + 1 < placed.len() {
            next_from(k + 1)
        } else {
            text.get(p.span.end).copied()
        };
        let new_last = if new.len() > lead {
            let last = p.bytes.len() - 1;
            (first_line + terminators_in(&p.bytes, last, Some(p.bytes[last]))).max(new_first)
        } else {
            new_first
        };
        let differences = p
            .differences
            .iter()
            .map(|d| d.clone().on_line(first_line + d.line))
            .collect();
        new_terminators += terminators_in(&p.bytes, p.bytes.len(), next);
        new_len = new.end;
        bytes.extend_from_slice(&p.bytes);
        changes.push(Change::new(p.span.clone(), new));
        cursor = p.span.end;
        cursor_line = old_counter.line_at(cursor);
        hunks.push(HunkOutcome {
            index: p.index,
            strategy: p.strategy,
            how: p.how,
            fuzz: p.fuzz,
            dropped: p.dropped,
            old_lines: (old_first, old_last),
            new_lines: (new_first, new_last),
            differences,
            unnumbered: p.unnumbered,
        });
    }
    hunks.sort_by_key(|h| h.index);
    Ok(Replacements { hunks, changes, bytes })
}
