//! The `read` tool: a file, or a range of its lines, numbered the way surgical counts lines, with
//! what an edit needs to know about the file (its hash, encoding, BOM and line endings).
//!
//! What the model is shown is the file's text and nothing else: line terminators (`\r\n`, a lone
//! `\r`, `\n`) end lines and are never printed, so no carriage return reaches the model; bytes that
//! are not valid UTF-8 show as U+FFFD, which `oldText` may use for them; a BOM is reported, not
//! shown. Every other character is shown as it is, trailing blanks included.

use std::fmt::Write as _;

use serde_json::Value;
use surgical_core::lines::{lines, Endings};
use surgical_fs::Root;

use crate::contract::eol::style;
use crate::pipeline::bounded::MAX_LINE_CHARS;
use crate::pipeline::document::{Content, Document};
use crate::pipeline::files::{fs_error, fs_error_of};
use crate::tools::args;
use crate::wording::read as words;
use crate::{Config, ReadSuccess, ToolError, ToolResult};

/// How many lines one `read` shows unless told otherwise.
pub(crate) const DEFAULT_READ_LIMIT: usize = 2000;

/// A page ends early, before the line that would take its text past this many bytes (a model's
/// context is finite; the rest is one call away). A page always shows at least one line.
pub(crate) const MAX_PAGE_BYTES: usize = 256 * 1024;

/// A parsed `read` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadRequest {
    /// The path as the model gave it (relative to the root, or absolute).
    pub path: String,
    /// The first line to show, one-based.
    pub start_line: usize,
    /// The last line to show, inclusive (`endLine`), if given.
    pub end_line: Option<usize>,
    /// The most lines to show (`limit`), if given; 2000 otherwise.
    pub limit: Option<usize>,
}

fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::invalid_input(message)
}

/// Parses a `read` call: `{"path", "startLine"?, "endLine"?, "limit"?}`. Also accepted: the path
/// aliases of `edit` (`file_path`, `filePath`), `offset` or `start_line` for `startLine`,
/// `end_line`, `maxLines`/`max_lines` for `limit`, numbers as strings. `startLine` is one-based, as
/// its schema says (0 is `invalid_input`, in every front end alike); `offset`, which some agents
/// count from 0, may be 0 and then means 1.
pub fn parse_read_request(value: &Value) -> Result<ReadRequest, ToolError> {
    let obj = args::object(value, "read")?;
    let path = args::path(obj, "the file to read")?;
    let zero = |key: &str| obj.get(key).is_some_and(|v| *v == 0 || *v == "0");
    if ["startLine", "start_line", "line"].into_iter().any(zero) {
        return Err(invalid(words::START_LINE_ZERO));
    }
    let start_line = args::count(obj, &["startLine", "start_line", "offset", "line"], "startLine")?
        .unwrap_or(1)
        .max(1);
    let end_line = args::count(obj, &["endLine", "end_line"], "endLine")?;
    let limit = args::count(obj, &["limit", "maxLines", "max_lines"], "limit")?;
    if limit == Some(0) {
        return Err(invalid(words::LIMIT_ZERO));
    }
    if let Some(end) = end_line {
        if end < start_line {
            return Err(invalid(words::end_before_start(end, start_line)));
        }
    }
    Ok(ReadRequest {
        path,
        start_line,
        end_line,
        limit,
    })
}

/// Runs a parsed `read` call. The path must lead inside the root (`outside_root`); binary files,
/// UTF-32 and malformed UTF-16 are refused (`binary_file`, `unsupported_encoding`), as `edit`
/// refuses them, and so are files over `config.max_file_size` (`too_large`).
pub fn run_read_with(req: &ReadRequest, config: &Config) -> ToolResult {
    match run(req, config) {
        Ok(s) => ToolResult::Read(Box::new(s)),
        Err(e) => ToolResult::Error(e),
    }
}

/// The lines of one page, rendered.
struct Page {
    lines: String,
    end_line: usize,
    next_line: Option<usize>,
    cut: Vec<usize>,
    invalid_utf8: Vec<usize>,
}

fn run(req: &ReadRequest, config: &Config) -> Result<ReadSuccess, ToolError> {
    let shown = req.path.as_str();
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown, ""))?;
    crate::pipeline::files::refuse_reserved_name(&root, shown)?;
    // No lock: reading changes nothing.
    let (_, doc) = Document::open(&root, shown, false, config.max_file_size)
        .map_err(|e| fs_error(e, shown, words::NOT_FOUND_HINT))?;
    let (encoding, text) = match &doc.content {
        Content::Text(t) => (t.encoding, t.text.as_slice()),
        Content::Undecodable(e) => return Err(fs_error_of(e, shown, "")),
    };
    // The page is rendered while the other core hashes the file.
    let endings = Endings::of(text);
    let total = endings.lines();
    let page = (req.start_line <= total.max(1)).then(|| page(text, req, total));
    let hash = doc.hash.get().to_string();
    let Some(page) = page else {
        return Err(ToolError {
            path: Some(shown.to_string()),
            ..invalid(words::past_the_end(shown, req.start_line, total))
        });
    };

    let mut out = String::with_capacity(page.lines.len() + 512);
    let about = words::describe(encoding, endings);
    out.push_str(&words::headline(
        shown,
        (req.start_line, page.end_line),
        total,
        &about,
        &hash,
    ));
    out.push_str(&page.lines);
    out.push_str(&words::notes(
        &page.cut,
        MAX_LINE_CHARS,
        &page.invalid_utf8,
        page.next_line,
        total,
    ));

    Ok(ReadSuccess {
        text: out,
        path: shown.to_string(),
        hash,
        encoding: encoding.name(),
        bom: encoding.has_bom(),
        line_ending: style(endings),
        total_lines: total,
        start_line: req.start_line,
        end_line: page.end_line,
        next_line: page.next_line,
        cut_lines: page.cut,
    })
}

/// Renders the lines `req` asks for (`req.start_line <= total`, or an empty text).
fn page(text: &[u8], req: &ReadRequest, total: usize) -> Page {
    let limit = req.limit.unwrap_or(DEFAULT_READ_LIMIT);
    let last = req
        .end_line
        .unwrap_or(usize::MAX)
        .min(req.start_line.saturating_add(limit - 1))
        .min(total);
    let width = last.max(1).to_string().len();
    let mut page = Page {
        lines: String::new(),
        end_line: req.start_line - 1,
        next_line: None,
        cut: Vec::new(),
        invalid_utf8: Vec::new(),
    };
    // The lines wanted, read no further than the last of them.
    let mut wanted = lines(text).skip(req.start_line - 1);
    let mut line = req.start_line;
    while line <= last {
        let content = wanted.next().map_or(&b""[..], |l| l.content);
        let shown = String::from_utf8_lossy(content);
        if matches!(shown, std::borrow::Cow::Owned(_)) {
            page.invalid_utf8.push(line);
        }
        let (body, cut_chars) = match shown.char_indices().nth(MAX_LINE_CHARS) {
            Some((cut_at, _)) => (&shown[..cut_at], shown[cut_at..].chars().count()),
            None => (&*shown, 0),
        };
        if page.end_line >= req.start_line && page.lines.len() + body.len() + width + 2 > MAX_PAGE_BYTES {
            break;
        }
        let _ = write!(page.lines, "{line:>width$}\t{body}");
        if cut_chars > 0 {
            page.cut.push(line);
            page.lines.push_str(&crate::wording::output::line_cut(cut_chars));
        }
        page.lines.push('\n');
        page.end_line = line;
        line += 1;
    }
    // Lines asked for (up to `endLine`, else to the end) but left out by `limit` or the page budget.
    if page.end_line < req.end_line.map_or(total, |end| end.min(total)) {
        page.next_line = Some(page.end_line + 1);
    }
    page
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_aliases_and_defaults() {
        let r = parse_read_request(&json!({"file_path": "a.rs"})).unwrap();
        assert_eq!(
            r,
            ReadRequest {
                path: "a.rs".into(),
                start_line: 1,
                end_line: None,
                limit: None
            }
        );
        let r = parse_read_request(&json!({"filePath": "a", "offset": "0", "limit": 5, "endLine": 3})).unwrap();
        assert_eq!((r.start_line, r.end_line, r.limit), (1, Some(3), Some(5)));
        for bad in [
            json!("a.rs"),
            json!({}),
            json!({"path": ""}),
            json!({"path": "a", "startLine": -1}),
            json!({"path": "a", "startLine": 0}),
            json!({"path": "a", "start_line": "0"}),
            json!({"path": "a", "limit": 0}),
            json!({"path": "a", "startLine": 5, "endLine": 4}),
            json!({"path": "a", "endLine": true}),
        ] {
            assert_eq!(parse_read_request(&bad).unwrap_err().code, "invalid_input", "{bad}");
        }
    }

    fn req(start: usize, end: Option<usize>, limit: Option<usize>) -> ReadRequest {
        ReadRequest {
            path: "x".into(),
            start_line: start,
            end_line: end,
            limit,
        }
    }

    #[test]
    fn pages_by_line_terminators_of_every_kind() {
        let text = b"a\r\nb\rc\nd";
        let p = page(text, &req(1, None, None), 4);
        assert_eq!(p.lines, "1\ta\n2\tb\n3\tc\n4\td\n");
        assert_eq!((p.end_line, p.next_line), (4, None));
        let p = page(text, &req(2, None, Some(2)), 4);
        assert_eq!(p.lines, "2\tb\n3\tc\n");
        assert_eq!((p.end_line, p.next_line), (3, Some(4)));
        let p = page(text, &req(3, Some(3), None), 4);
        assert_eq!((p.lines.as_str(), p.next_line), ("3\tc\n", None));
        // An end past the file is clipped.
        let p = page(text, &req(4, Some(10), None), 4);
        assert_eq!((p.lines.as_str(), p.end_line), ("4\td\n", 4));
    }

    #[test]
    fn cuts_long_lines_and_marks_invalid_bytes() {
        let long = "é".repeat(MAX_LINE_CHARS + 5);
        let mut text = format!("{long}\nok").into_bytes();
        text.extend_from_slice(b"\xff\n");
        let p = page(&text, &req(1, None, None), 2);
        assert_eq!(p.cut, vec![1]);
        assert!(p.lines.starts_with(&format!("1\t{}", "é".repeat(MAX_LINE_CHARS))));
        assert!(p.lines.contains("[... line cut here: 5 more characters not shown]\n"));
        assert!(
            p.lines.ends_with("2\tok\u{fffd}\n"),
            "{:?}",
            &p.lines[p.lines.len() - 20..]
        );
        assert_eq!(p.invalid_utf8, vec![2]);
    }

    #[test]
    fn page_budget_ends_a_page_early() {
        let line = "x".repeat(MAX_LINE_CHARS - 10);
        let text = format!("{line}\n").repeat(300).into_bytes();
        let p = page(&text, &req(1, None, None), 300);
        assert!(p.end_line < 300 && p.end_line > 100, "{}", p.end_line);
        assert!(p.lines.len() <= MAX_PAGE_BYTES);
        assert_eq!(p.next_line, Some(p.end_line + 1));
        // Even with an explicit end line, the rest is offered.
        let p = page(&text, &req(1, Some(300), Some(300)), 300);
        assert_eq!(p.next_line, Some(p.end_line + 1));
    }
}
