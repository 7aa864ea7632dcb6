//! The `view` command: a file numbered like `cat -n`, or a directory two levels deep; and the
//! numbered snippets the other commands show.
//!
//! Lines are surgical's (those `read` and every edit report count): a line terminator — LF, CRLF
//! or a lone CR — ends a line and is never shown, and a file ending with one has no empty line
//! after it, as the real `cat -n` shows it. Tabs and every other character are shown as they are.

use std::fmt::Write as _;
use std::path::Path;

use surgical_core::lines::{lines, Endings};
use surgical_fs::Root;

use super::wording;
use crate::contract::eol::style;
pub use crate::contract::text_editor::DirectoryListing;
use crate::pipeline::bounded::MAX_LINE_CHARS;
use crate::pipeline::document::{Content, Document};
use crate::pipeline::files::{fs_error, fs_error_of, refuse_reserved};
use crate::tools::read::{DEFAULT_READ_LIMIT, MAX_PAGE_BYTES};
use crate::{Config, ErrorCode, ReadSuccess, ToolError};

/// At most this many entries are listed.
const MAX_ENTRIES: usize = 1000;

/// What `view` found at a path.
pub(crate) enum Viewed {
    File(Box<ReadSuccess>),
    Directory(Box<DirectoryListing>),
}

/// Runs `view` on `shown`: a directory is listed (a `view_range` is refused there), a file shown.
pub(crate) fn view(
    shown: &str,
    range: Option<(i64, i64)>,
    max_characters: Option<usize>,
    config: &Config,
) -> Result<Viewed, ToolError> {
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown, ""))?;
    let real = root.resolve(shown).map_err(|e| fs_error(e, shown, ""))?;
    refuse_reserved(&root, &real, shown)?;
    match std::fs::metadata(&real) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(super::path_missing(shown, "view")),
        Ok(meta) if meta.is_dir() => {
            if range.is_some() {
                return Err(ToolError {
                    path: Some(shown.to_string()),
                    ..ToolError::invalid_input(wording::view_range_on_directory())
                });
            }
            Ok(Viewed::Directory(Box::new(list(&real, shown))))
        }
        _ => view_file(&root, shown, range, max_characters, config).map(|s| Viewed::File(Box::new(s))),
    }
}

fn view_file(
    root: &Root,
    shown: &str,
    range: Option<(i64, i64)>,
    max_characters: Option<usize>,
    config: &Config,
) -> Result<ReadSuccess, ToolError> {
    // No lock: viewing changes nothing.
    let (_, doc) = Document::open(root, shown, false, config.max_file_size).map_err(|e| fs_error(e, shown, ""))?;
    let (encoding, text) = match &doc.content {
        Content::Text(t) => (t.encoding, t.text.as_slice()),
        Content::Undecodable(e) => return Err(fs_error_of(e, shown, "")),
    };
    let endings = Endings::of(text);
    let total = endings.lines();
    let invalid = |message: String| ToolError {
        path: Some(shown.to_string()),
        ..ToolError::invalid_input(message)
    };
    let mut out = String::new();
    let (start, end) = match range {
        None => (1, total),
        Some((first, last)) => {
            if first < 1 || first as u64 > total.max(1) as u64 {
                return Err(invalid(wording::view_range_start((first, last), total)));
            }
            let first = first as usize;
            if last == -1 {
                (first, total)
            } else if last < first as i64 {
                return Err(invalid(wording::view_range_order((first as i64, last))));
            } else if last as u64 > total as u64 {
                // Past the end: shown to the end, with a note (viewing changes nothing, so the
                // model gets the lines rather than a retry).
                out.push_str(&wording::view_range_clipped(shown, total));
                (first, total)
            } else {
                (first, last as usize)
            }
        }
    };
    out.push_str(&wording::cat_n(shown));
    let budget = Budget {
        lines: DEFAULT_READ_LIMIT,
        bytes: MAX_PAGE_BYTES,
        characters: max_characters,
    };
    let shown_lines = numbered(&mut out, text, start, end, &budget);
    if total == 0 {
        out.push_str(&wording::empty_file(shown));
    }
    out.push_str(&shown_lines.notes());
    let next_line = (shown_lines.last < end).then_some(shown_lines.last + 1);
    if let Some(next) = next_line {
        let why = match shown_lines.stopped_by {
            Some(Stop::Characters) => wording::clipped_by_max_characters(max_characters.unwrap_or_default()),
            _ => wording::clipped_by_page(DEFAULT_READ_LIMIT, MAX_PAGE_BYTES / 1024),
        };
        out.push_str(&wording::view_clipped(&why, next, end, total));
    }
    let hash = doc.hash.get().to_string();
    Ok(ReadSuccess {
        text: out,
        path: shown.to_string(),
        hash,
        encoding: encoding.name(),
        bom: encoding.has_bom(),
        line_ending: style(endings),
        total_lines: total,
        start_line: start,
        end_line: shown_lines.last,
        next_line,
        cut_lines: shown_lines.cut,
    })
}

/// How much one numbered rendering may show.
pub(crate) struct Budget {
    /// Lines.
    pub lines: usize,
    /// Bytes of the rendering.
    pub bytes: usize,
    /// Characters of the file's lines (`max_characters`), if limited.
    pub characters: Option<usize>,
}

/// Why a rendering stopped before its last line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Characters,
    Budget,
}

/// What a numbered rendering showed.
pub(crate) struct Shown {
    /// The last line shown (`first - 1` when none was).
    pub last: usize,
    /// Lines cut at [`MAX_LINE_CHARS`] characters.
    pub cut: Vec<usize>,
    /// Lines holding bytes that are not valid UTF-8.
    pub invalid_utf8: Vec<usize>,
    pub stopped_by: Option<Stop>,
}

impl Shown {
    /// The notes that follow the lines: cut lines, invalid UTF-8.
    pub(crate) fn notes(&self) -> String {
        let mut out = String::new();
        if !self.cut.is_empty() {
            out.push_str(&wording::lines_cut(&self.cut, MAX_LINE_CHARS));
        }
        if !self.invalid_utf8.is_empty() {
            out.push_str(&wording::invalid_utf8(&self.invalid_utf8));
        }
        out
    }
}

/// Appends lines `first..=last` of `text` (numbered from 1) to `out` as `cat -n` shows them: the
/// number right-aligned in six columns, a tab, the line. Lines longer than [`MAX_LINE_CHARS`]
/// characters are cut (marked); bytes that are not UTF-8 show as U+FFFD. Stops early, after at
/// least one line, where `budget` runs out.
pub(crate) fn numbered(out: &mut String, text: &[u8], first: usize, last: usize, budget: &Budget) -> Shown {
    numbered_from(out, lines(text).skip(first.saturating_sub(1)), first, last, budget)
}

/// [`numbered`] for a window of a text whose first line is line `first`: every line of `window`.
pub(crate) fn numbered_window(out: &mut String, window: &[u8], first: usize, budget: &Budget) -> Shown {
    numbered_from(out, lines(window), first, usize::MAX, budget)
}

fn numbered_from<'a>(
    out: &mut String,
    mut source: impl Iterator<Item = surgical_core::lines::Line<'a>>,
    first: usize,
    last: usize,
    budget: &Budget,
) -> Shown {
    let mut shown = Shown {
        last: first.saturating_sub(1),
        cut: Vec::new(),
        invalid_utf8: Vec::new(),
        stopped_by: None,
    };
    let start_len = out.len();
    let mut characters = 0usize;
    let mut number = first;
    while number <= last {
        let Some(line) = source.next() else { break };
        let body = String::from_utf8_lossy(line.content);
        let count = body.chars().count();
        let any = number > first;
        if any && number - first >= budget.lines {
            shown.stopped_by = Some(Stop::Budget);
            break;
        }
        // The characters of the file shown, line breaks included.
        let mut keep = count.min(MAX_LINE_CHARS);
        if let Some(max) = budget.characters {
            if characters + keep + 1 > max {
                if any {
                    shown.stopped_by = Some(Stop::Characters);
                    break;
                }
                // A first line longer than the whole budget is shown cut to it.
                keep = keep.min(max);
            }
        }
        if any && out.len() - start_len + body.len() + 8 > budget.bytes {
            shown.stopped_by = Some(Stop::Budget);
            break;
        }
        if matches!(body, std::borrow::Cow::Owned(_)) {
            shown.invalid_utf8.push(number);
        }
        let cut_at = body.char_indices().nth(keep).map_or(body.len(), |(at, _)| at);
        let _ = write!(out, "{number:6}\t{}", &body[..cut_at]);
        if keep < count {
            if count > MAX_LINE_CHARS {
                shown.cut.push(number);
            }
            out.push_str(&wording::line_cut_marker(count - keep));
        }
        out.push('\n');
        characters += keep + 1;
        shown.last = number;
        number += 1;
        if keep < count && budget.characters.is_some_and(|max| characters >= max) {
            shown.stopped_by = Some(Stop::Characters);
            break;
        }
    }
    shown
}

/// Lists `real` (a directory) two levels deep, as `shown` names it.
fn list(real: &Path, shown: &str) -> DirectoryListing {
    let (top, hidden) = sorted_entries(real);
    let mut entries = Vec::new();
    let mut truncated = false;
    'outer: for (name, is_dir) in top {
        if entries.len() >= MAX_ENTRIES {
            truncated = true;
            break;
        }
        if !is_dir {
            entries.push(name);
            continue;
        }
        entries.push(format!("{name}/"));
        let (inner, _) = sorted_entries(&real.join(&name));
        for (child, child_is_dir) in inner {
            if entries.len() >= MAX_ENTRIES {
                truncated = true;
                break 'outer;
            }
            entries.push(format!("{name}/{child}{}", if child_is_dir { "/" } else { "" }));
        }
    }
    let prefix = shown.trim_end_matches('/');
    let mut text = wording::directory(shown);
    let _ = writeln!(text, "{prefix}/");
    for entry in &entries {
        let _ = writeln!(text, "{prefix}/{entry}");
    }
    if truncated {
        text.push_str(&wording::listing_clipped(MAX_ENTRIES, shown));
    }
    if hidden > 0 {
        text.push_str(&wording::hidden(hidden, shown));
    }
    DirectoryListing {
        text,
        path: shown.to_string(),
        entries,
        hidden,
        truncated,
    }
}

/// The visible entries of a directory, sorted, each with whether it is a directory (a symbolic link
/// is not: it is listed, never followed), and how many hidden ones it holds. An unreadable
/// directory has none.
fn sorted_entries(dir: &Path) -> (Vec<(String, bool)>, usize) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return (Vec::new(), 0);
    };
    let mut hidden = 0;
    let mut entries: Vec<(String, bool)> = read
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                hidden += 1;
                return None;
            }
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            Some((name, is_dir))
        })
        .collect();
    entries.sort();
    (entries, hidden)
}

/// The error for a path that is a directory, for the commands that need a file.
pub(crate) fn is_directory(shown: &str) -> ToolError {
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(ErrorCode::NotAFile, wording::is_directory(shown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &[u8], first: usize, last: usize, characters: Option<usize>) -> (String, Shown) {
        let mut out = String::new();
        let budget = Budget {
            lines: 2000,
            bytes: 1 << 20,
            characters,
        };
        let shown = numbered(&mut out, text, first, last, &budget);
        (out, shown)
    }

    #[test]
    fn numbers_like_cat_n_without_a_line_after_the_last_terminator() {
        let (out, shown) = render(b"a\r\n\tb\rc\n", 1, 3, None);
        assert_eq!(out, "     1\ta\n     2\t\tb\n     3\tc\n");
        assert_eq!(shown.last, 3);
        let (out, _) = render(b"a\nb\nc", 2, 3, None);
        assert_eq!(out, "     2\tb\n     3\tc\n");
    }

    #[test]
    fn max_characters_stops_at_a_whole_line_or_cuts_the_first() {
        let (out, shown) = render(b"abc\ndef\nghi\n", 1, 3, Some(8));
        assert_eq!(out, "     1\tabc\n     2\tdef\n");
        assert_eq!((shown.last, shown.stopped_by), (2, Some(Stop::Characters)));
        let (out, shown) = render(b"abcdef\nx\n", 1, 2, Some(3));
        assert_eq!(out, "     1\tabc [... line cut here: 3 more characters not shown]\n");
        assert_eq!((shown.last, shown.stopped_by), (1, Some(Stop::Characters)));
    }

    #[test]
    fn invalid_utf8_is_shown_as_replacement_characters_and_noted() {
        let (out, shown) = render(b"ok\n\xffx\n", 1, 2, None);
        assert_eq!(out, "     1\tok\n     2\t\u{fffd}x\n");
        assert_eq!(shown.invalid_utf8, vec![2]);
    }
}
