//! Writing one reading: each segment's runs of changed lines through a [`ChangeSet`], every other
//! byte the file's.

use crate::changes::ChangeSet;
use crate::error::EditError;
use crate::find::haystack::Haystack;
use crate::find::needle::Match;
use crate::find::tier::Tier;
use crate::snippet::cut::Segment;
use crate::snippet::keys::{indent_of, is_blank_key, FileLines, Keying};
use crate::snippet::readings::SegReading;
use crate::snippet::types::{Placement, SegmentPlacement, SnippetApplied, SnippetError};
use crate::text::normalize::Fold;

/// Writes the one reading: per segment, its region (`places`) with the pairing its score was
/// computed on, the blank lines the model wrote differently taken as its own
/// ([`model_blank_lines`]).
pub(crate) fn merge(
    text: &[u8],
    file: &FileLines<'_>,
    segments: &[Segment<'_>],
    places: &[SegReading],
    keying: Keying,
    first_is_marker: bool,
    last_is_marker: bool,
) -> Result<SnippetApplied, SnippetError> {
    let indentation_ignored = keying == Keying::Trimmed;
    let hay = Haystack::new(text);
    let index = hay.lines();
    let mut set = ChangeSet::new(&hay);
    let tabs = uses_tabs(file.lines.iter().map(|l| l.content));
    let mut reports = Vec::with_capacity(segments.len());
    let mut changed_ids = Vec::new();
    let mut delta: isize = 0;
    for (k, (seg, place)) in segments.iter().zip(places).enumerate() {
        let mut kept = place.kept.clone();
        model_blank_lines(&mut kept, seg, file);
        let deleted = (place.end - place.start) - kept.iter().flatten().count();
        let lossy = |j: usize| String::from_utf8_lossy(file.lines[j].content).into_owned();
        let mut old = String::new();
        for j in place.start..place.end {
            old.push_str(&lossy(j));
            if !file.lines[j].eol.is_empty() {
                old.push('\n');
            }
        }
        // The nearest kept line before each new line sets its indentation (trimmed keying only).
        let mut anchor: Option<(usize, usize)> = kept.iter().enumerate().find_map(|(i, j)| j.map(|j| (i, j)));
        let mut written: Vec<String> = Vec::with_capacity(seg.lines.len());
        for (i, line) in seg.lines.iter().enumerate() {
            written.push(match kept[i] {
                Some(j) => {
                    anchor = Some((i, j));
                    lossy(j)
                }
                None if keying == Keying::Trimmed => reindent(
                    line.text,
                    anchor.map(|(a, j)| (seg.lines[a].text, file.lines[j].content)),
                    tabs,
                ),
                // The model's line as written, trailing blanks included (a changed line that keeps
                // the file's trailing space, a line of blanks only the model wrote so).
                None => line.text.to_string(),
            });
        }
        let mut new = written.join("\n");
        if !file.lines[place.end - 1].eol.is_empty() {
            new.push('\n');
        }
        let changed = new != old;
        let new_start = (place.start as isize + delta) as usize;
        if changed {
            // One replacement per run of changed lines: the kept lines between them are not
            // rewritten, so the file line the alignment keeps is the one whose bytes (line ending,
            // trailing blanks) stay, whatever alignment a diff of the whole region would choose.
            for block in change_blocks(&kept, place, file) {
                let new_lines = &written[block.new.clone()];
                if block.old.is_empty() {
                    let at = index.start(block.old.start);
                    let mut text = new_lines.join("\n");
                    if at < hay.text().len() || file.lines.last().is_some_and(|l| !l.eol.is_empty()) {
                        text.push('\n');
                    }
                    set.insert_lines(at, &text).map_err(SnippetError::Engine)?;
                } else {
                    let mut old = String::new();
                    for j in block.old.clone() {
                        old.push_str(&lossy(j));
                        if !file.lines[j].eol.is_empty() {
                            old.push('\n');
                        }
                    }
                    let mut text = new_lines.join("\n");
                    if !new_lines.is_empty() && !file.lines[block.old.end - 1].eol.is_empty() {
                        text.push('\n');
                    }
                    let found = Match {
                        tier: Tier::Exact,
                        spans: vec![index.range(block.old.clone())],
                        forgiven: None,
                        indented_first_line: false,
                        old,
                        fold: Fold::EXACT,
                        unescape_new: false,
                        unnumber_new: None,
                        lines: None,
                        open_end: false,
                        pieces: Vec::new(),
                        unpinned: Vec::new(),
                    };
                    set.replace(&found, &text).map_err(SnippetError::Engine)?;
                }
                changed_ids.push(k);
            }
        }
        delta += seg.lines.len() as isize - (place.end - place.start) as isize;
        reports.push(SegmentPlacement {
            snippet_lines: (seg.lines[0].number, seg.lines.last().map_or(0, |l| l.number)),
            old_lines: (place.start + 1, place.end),
            new_lines: (new_start + 1, new_start + seg.lines.len()),
            deleted_lines: deleted,
            changed,
        });
    }
    if changed_ids.is_empty() {
        return Err(SnippetError::NoChange);
    }
    let mut applied = set
        .apply()
        .map_err(|e| SnippetError::Engine(renumber(e, &changed_ids)))?;
    for edit in &mut applied.edits {
        edit.index = changed_ids[edit.index];
    }
    let regions: Vec<_> = places
        .iter()
        .zip(&reports)
        .map(|(place, report)| Region {
            old: index.range(place.start..place.end),
            old_lines: report.old_lines,
            new_lines: report.new_lines,
        })
        .collect();
    applied.edits = one_edit_per_segment(std::mem::take(&mut applied.edits), &regions);
    let first = places.first().expect("a segment");
    let last = places.last().expect("a segment");
    Ok(SnippetApplied {
        applied,
        placement: Placement {
            segments: reports,
            kept_before: (!first_is_marker && first.start > 0).then_some((1, first.start)),
            kept_after: (!last_is_marker && last.end < file.len()).then_some((last.end + 1, file.len())),
            indentation_ignored,
        },
    })
}

/// A run of changed lines of a segment: file lines `old` (absolute) written as segment lines `new`.
struct ChangeBlock {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// The runs of changed lines between the kept ones, in order. A deletion of the file's last lines
/// where its last line has no line break is written with the kept line before it (as the whole
/// region), so that the file does not gain a final line break.
fn change_blocks(kept: &[Option<usize>], place: &SegReading, file: &FileLines<'_>) -> Vec<ChangeBlock> {
    let mut blocks = Vec::new();
    let (mut i, mut f) = (0, place.start);
    while i < kept.len() || f < place.end {
        if i < kept.len() && kept[i] == Some(f) {
            i += 1;
            f += 1;
            continue;
        }
        let mut i2 = i;
        while i2 < kept.len() && kept[i2].is_none() {
            i2 += 1;
        }
        let f2 = kept.get(i2).copied().flatten().unwrap_or(place.end);
        let unterminated_end = f2 == file.lines.len() && file.lines[f2 - 1].eol.is_empty();
        if i == i2 && f < f2 && unterminated_end {
            return vec![ChangeBlock {
                old: place.start..place.end,
                new: 0..kept.len(),
            }];
        }
        blocks.push(ChangeBlock { old: f..f2, new: i..i2 });
        i = i2;
        f = f2;
    }
    blocks
}

/// A segment's region: its bytes before, its one-based lines before and after.
#[derive(Clone)]
struct Region {
    old: std::ops::Range<usize>,
    old_lines: (usize, usize),
    new_lines: (usize, usize),
}

/// The engine's edits merged per segment: one edit whose occurrence is the segment's region
/// (`regions[k]`: its bytes before, its lines before and after), as the result reports segments. The
/// lines of the region around the runs of changed lines are kept byte for byte, so the region's new
/// bytes are the runs' new bytes widened by as many bytes as the old ones.
fn one_edit_per_segment(
    edits: Vec<crate::changes::AppliedEdit>,
    regions: &[Region],
) -> Vec<crate::changes::AppliedEdit> {
    let mut merged: Vec<crate::changes::AppliedEdit> = Vec::with_capacity(edits.len());
    for edit in edits {
        match merged.last_mut() {
            Some(last) if last.index == edit.index => {
                last.occurrences.extend(edit.occurrences);
                last.differences.extend(edit.differences);
                last.coarse_alignment |= edit.coarse_alignment;
            }
            _ => merged.push(edit),
        }
    }
    for edit in &mut merged {
        let (Some(first), Some(last)) = (edit.occurrences.first(), edit.occurrences.last()) else {
            continue;
        };
        let Region {
            old,
            old_lines,
            new_lines,
        } = regions[edit.index].clone();
        let new = first.new.start - (first.old.start - old.start)..last.new.end + (old.end - last.old.end);
        edit.occurrences = vec![crate::changes::Occurrence {
            old,
            new,
            old_lines,
            new_lines,
        }];
    }
    merged
}

/// An engine error about replacement `i` names segment `ids[i]`.
fn renumber(e: EditError, ids: &[usize]) -> EditError {
    match e {
        EditError::NoChange { index, line } => EditError::NoChange {
            index: ids.get(index).copied().unwrap_or(index),
            line,
        },
        other => other,
    }
}

/// Whether these lines indent with tabs (more lines start with a tab than with a space). A block
/// comment's continuation line (` * text`) is no indentation: one space before its `*` whatever the
/// file's style (a license header in a tab-indented file).
fn uses_tabs<'l>(lines: impl Iterator<Item = &'l [u8]>) -> bool {
    let (mut tabs, mut spaces) = (0usize, 0usize);
    for line in lines {
        let body = line.trim_ascii_start();
        if body.starts_with(b"*") {
            continue;
        }
        match line.first() {
            Some(b'\t') => tabs += 1,
            Some(b' ') => spaces += 1,
            _ => {}
        }
    }
    tabs > spaces
}

/// `line` (a new line of the snippet) re-indented like the file: the indentation its nearest kept
/// line (`anchor`: the snippet's line and the file's) has in the snippet is replaced by the file's,
/// and what it indents beyond that is written with tabs in a file indented with tabs.
fn reindent(line: &str, anchor: Option<(&str, &[u8])>, tabs: bool) -> String {
    // Trailing blanks are the model's, kept as written. An empty line stays empty; a line of
    // blanks only is indentation like any other, so it takes the file's indentation style.
    if line.is_empty() {
        return String::new();
    }
    let body = line.trim_start_matches([' ', '\t']);
    let own = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
    let Some((snippet_anchor, file_anchor)) = anchor else {
        return format!("{own}{body}");
    };
    let s_ind = &snippet_anchor[..snippet_anchor.len() - snippet_anchor.trim_start_matches([' ', '\t']).len()];
    let f_ind = String::from_utf8_lossy(indent_of(file_anchor)).into_owned();
    let width = |s: &str| s.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum::<usize>();
    let (own_w, s_w) = (width(own), width(s_ind));
    if own_w >= s_w {
        let extra = own_w - s_w;
        let extra = if tabs {
            "\t".repeat(extra / 4) + &" ".repeat(extra % 4)
        } else {
            " ".repeat(extra)
        };
        format!("{f_ind}{extra}{body}")
    } else {
        // Less indented than its anchor: as much less as in the snippet, from the file's indentation.
        let less = s_w - own_w;
        let f_w = width(&f_ind);
        let target = f_w.saturating_sub(less);
        let indent = if tabs {
            "\t".repeat(target / 4) + &" ".repeat(target % 4)
        } else {
            " ".repeat(target)
        };
        format!("{indent}{body}")
    }
}

/// The whitespace rule for blank lines: the file's invisible bytes are kept only on lines that pair
/// one to one with unchanged context; on lines the model wrote, its bytes are written.
///
/// A blank segment line (blanks only, or nothing) kept as a file blank line whose bytes differ from
/// the model's is taken as a line the model wrote (the file's line replaced by the model's) when
/// - it is in the changed part: the run of blank lines it is in touches a line the segment writes
///   or a file line it deletes (the model wrote the blank lines of a change, `    ` for four lines it
///   deleted, an emptied line beside the line it changed); or
/// - the model wrote blanks on it (`    ` where the file's line is empty): a model that writes
///   whitespace on a blank line wrote it.
///
/// A blank line the model wrote empty, among unchanged context, keeps the file's blanks: the model
/// may not have seen them (read views and models drop trailing whitespace), and what a model
/// cannot see is never what it changed.
fn model_blank_lines(kept: &mut [Option<usize>], seg: &Segment<'_>, file: &FileLines<'_>) {
    let m = kept.len();
    let blank = |i: usize| is_blank_key(seg.lines[i].text.as_bytes());
    let mut i = 0;
    while i < m {
        if !blank(i) {
            i += 1;
            continue;
        }
        let a = i;
        while i < m && blank(i) {
            i += 1;
        }
        let b = i;
        // The run a..b of blank segment lines: does it touch a change?
        let contiguous = |x: usize, y: usize| matches!((kept[x], kept[y]), (Some(f), Some(g)) if g == f + 1);
        let touches = (a..b).any(|x| kept[x].is_none())
            || (a > 0 && !contiguous(a - 1, a))
            || (b < m && !contiguous(b - 1, b))
            || (a + 1..b).any(|x| !contiguous(x - 1, x));
        for (slot, line) in kept[a..b].iter_mut().zip(&seg.lines[a..b]) {
            let Some(f) = *slot else { continue };
            let model = line.text.as_bytes();
            if model == file.lines[f].content {
                continue;
            }
            if touches || !model.is_empty() {
                *slot = None;
            }
        }
    }
}
