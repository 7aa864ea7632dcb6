//! A reference model of one multi-line edit, written for the tests and independent of the engine.
//!
//! A case is a *window* of whole lines planted in a file (each line with its own terminator: LF,
//! CRLF or lone CR, mixed freely), rendered the way a tier has to forgive (look-alike characters and
//! trailing blanks, another indentation style, wider runs of spaces), and a list of line operations
//! the model performs on it: keep a line, edit it (append a character), rewrite it (replace it with
//! an unrelated line), delete it, or insert a new line. From the same operations the model's
//! `oldText`/`newText` and the bytes the window must hold afterwards are built, following the rules
//! docs/matching.md states, without asking the engine anything:
//!
//! * a kept line is the file's bytes, terminator included;
//! * an edited line is the file's line (its look-alikes, spacing and indentation) with the model's
//!   change, and keeps its own terminator;
//! * a written line (rewritten or inserted) is the model's text, re-indented in the file's style,
//!   and takes the terminator of the place it lands: in a run of changed lines, the k-th line
//!   written takes the terminator of the k-th line the run removes (or of the run's last removed
//!   line when it writes more lines than it removes; or, when it removes none, of the kept line
//!   before it, or the window's first line at its top).
//!
//! Lines carry a unique tag (`L0`, `L1`, …) so that no line of the window occurs twice, and written
//! lines are upper case so that they resemble no old line.
#![allow(dead_code)]

use proptest::prelude::*;

/// Ends every written line: long and unlike any old line, so that no written line resembles one
/// (the engine edits a line in place when the model's new line is at least half like it).
const WRITTEN_TAIL: &str = " ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ";

/// What the model does with a line of the window (`Insert` adds one before the next).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Keep,
    Edit,
    Rewrite,
    Delete,
    Insert,
}

/// How the file renders the window compared with what the model writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Byte for byte what the model writes (only terminators differ): the `exact` tier.
    Exact,
    /// Look-alike quotes, dashes, spaces and letters, and trailing blanks: `trailing_whitespace`
    /// and `unicode`.
    LookAlike,
    /// Another indentation (tabs, or another width, shifted): `indentation`.
    Indented,
    /// Runs of spaces inside lines made wider: `whitespace_runs`.
    WiderRuns,
}

/// One line of the window.
#[derive(Clone, Debug)]
pub struct WindowLine {
    /// Indentation level the model writes (four spaces each).
    pub level: usize,
    /// The text after the indentation, as the model writes it.
    pub text: String,
    /// Which characters the file swaps for look-alikes (by character index).
    pub swaps: Vec<bool>,
    /// Trailing blanks in the file.
    pub trailing: &'static str,
    /// The line's terminator in the file.
    pub eol: &'static str,
}

/// One generated case.
#[derive(Clone, Debug)]
pub struct Case {
    pub style: Style,
    pub lines: Vec<WindowLine>,
    /// The operations in order; every line of `lines` is consumed by exactly one non-`Insert` op.
    pub ops: Vec<Op>,
    /// Indentation of the file: tabs, or spaces of this width per level, plus `shift` levels.
    pub tabs: bool,
    pub width: usize,
    pub shift: usize,
    /// Levels of the inserted and rewritten lines, in order of appearance.
    pub new_levels: Vec<usize>,
}

/// Words the model writes; some have look-alikes the file may use.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z]{1,5}",
        1 => Just("\"q\"".to_string()),
        1 => Just("'s'".to_string()),
        1 => Just("a-b".to_string()),
        1 => Just("x = 1;".to_string()),
    ]
}

fn window_line() -> impl Strategy<Value = WindowLine> {
    (
        0usize..3,
        prop::collection::vec(word(), 1..4),
        prop::collection::vec(prop::bool::weighted(0.2), 24),
        prop::sample::select(vec!["", "", " ", "  \t", "\u{a0}"]),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
    )
        .prop_map(|(level, words, swaps, trailing, eol)| WindowLine {
            level,
            text: words.join(" "),
            swaps,
            trailing,
            eol,
        })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => Just(Op::Keep),
        2 => Just(Op::Edit),
        2 => Just(Op::Rewrite),
        2 => Just(Op::Delete),
    ]
}

/// Cases of one style: 1 to 7 window lines, each kept, edited, rewritten or deleted, with up to two
/// lines inserted before each and at the end; at least one line changes.
pub fn case(style: Style) -> impl Strategy<Value = Case> {
    (
        prop::collection::vec((window_line(), op(), 0usize..3), 1..8),
        0usize..3,
        any::<bool>(),
        prop::sample::select(vec![2usize, 4, 8]),
        0usize..3,
        prop::collection::vec(0usize..3, 24),
    )
        .prop_map(move |(rows, tail_inserts, tabs, width, shift, new_levels)| {
            let mut lines = Vec::new();
            let mut ops = Vec::new();
            for (k, (mut line, op, inserts)) in rows.into_iter().enumerate() {
                // Zero or two inserts before a line, fewer than one in three lines.
                for _ in 0..(inserts / 2) * 2 {
                    ops.push(Op::Insert);
                }
                line.text = format!("L{k} {}", line.text);
                lines.push(line);
                ops.push(op);
            }
            for _ in 0..tail_inserts / 2 {
                ops.push(Op::Insert);
            }
            if ops.iter().all(|o| *o == Op::Keep) {
                let last = ops.len() - 1;
                ops[last] = Op::Rewrite;
            }
            // Written lines stay at levels the window shows, so the file's indentation unit for
            // them can be known.
            let levels: Vec<usize> = lines.iter().map(|l: &WindowLine| l.level).collect();
            let new_levels = new_levels.iter().map(|&k| levels[k % levels.len()]).collect();
            // The indentation tier forgives a shift or another unit, not both at once (the
            // whitespace_runs tier takes those, and writes new lines as given).
            let shift = if tabs || width == 4 { shift } else { 0 };
            Case {
                style,
                lines,
                ops,
                tabs,
                width,
                shift,
                new_levels,
            }
        })
}

fn look_alike(c: char) -> Option<&'static str> {
    Some(match c {
        '"' => "\u{201C}",
        '\'' => "\u{2019}",
        '-' => "\u{2014}",
        ' ' => "\u{a0}",
        'a' => "\u{FF41}",
        _ => return None,
    })
}

impl Case {
    /// The model's indentation.
    fn model_indent(level: usize) -> String {
        "    ".repeat(level)
    }

    /// The file's indentation for a model level.
    fn file_indent(&self, level: usize) -> String {
        match self.style {
            Style::Indented if self.tabs => "\t".repeat(level + self.shift),
            Style::Indented => " ".repeat(self.width * (level + self.shift)),
            _ => Self::model_indent(level),
        }
    }

    /// The model's line `i` of `oldText` (without a line break).
    pub fn model_old(&self, i: usize) -> String {
        let l = &self.lines[i];
        format!("{}{}", Self::model_indent(l.level), l.text)
    }

    /// The file's line `i`, without its terminator. An edited line gets no trailing blanks (where
    /// the model's appended character would go relative to them is not what this model is about).
    pub fn file_content(&self, i: usize) -> Vec<u8> {
        let l = &self.lines[i];
        let mut out = self.file_indent(l.level);
        match self.style {
            Style::LookAlike => {
                for (k, c) in l.text.chars().enumerate() {
                    // The tag (`L<k> `) stays plain, so the line stays recognisably itself.
                    match look_alike(c) {
                        Some(alt) if k > 3 && l.swaps[k % l.swaps.len()] => out.push_str(alt),
                        _ => out.push(c),
                    }
                }
                if self.op_of(i) != Op::Edit {
                    out.push_str(l.trailing);
                }
            }
            Style::WiderRuns => {
                for (k, c) in l.text.chars().enumerate() {
                    out.push(c);
                    if c == ' ' && l.swaps[k % l.swaps.len()] {
                        out.push_str(if k % 2 == 0 { " " } else { "\t" });
                    }
                }
            }
            Style::Exact | Style::Indented => out.push_str(&l.text),
        }
        out.into_bytes()
    }

    /// The op that consumes window line `i`.
    pub fn op_of(&self, i: usize) -> Op {
        *self.ops.iter().filter(|o| **o != Op::Insert).nth(i).unwrap()
    }

    /// The window as the file holds it.
    pub fn window(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, l) in self.lines.iter().enumerate() {
            out.extend_from_slice(&self.file_content(i));
            out.extend_from_slice(l.eol.as_bytes());
        }
        out
    }

    /// The model's old lines (one per window line).
    pub fn old_lines(&self) -> Vec<String> {
        (0..self.lines.len()).map(|i| self.model_old(i)).collect()
    }

    /// The model's new lines, in order, each with the window line it comes from (kept or edited) or
    /// none (written).
    pub fn new_lines(&self) -> Vec<(String, Option<usize>)> {
        let mut out = Vec::new();
        let mut i = 0;
        let mut written = 0;
        let next_level = |written: &mut usize| {
            let level = self.new_levels[*written % self.new_levels.len()];
            *written += 1;
            level
        };
        for op in &self.ops {
            match op {
                Op::Keep => {
                    out.push((self.model_old(i), Some(i)));
                    i += 1;
                }
                Op::Edit => {
                    out.push((format!("{}!", self.model_old(i)), Some(i)));
                    i += 1;
                }
                Op::Rewrite => {
                    let level = next_level(&mut written);
                    out.push((
                        format!("{}REWRITTEN W{written}{WRITTEN_TAIL}", Self::model_indent(level)),
                        None,
                    ));
                    i += 1;
                }
                Op::Delete => i += 1,
                Op::Insert => {
                    let level = next_level(&mut written);
                    out.push((
                        format!("{}INSERTED W{written}{WRITTEN_TAIL}", Self::model_indent(level)),
                        None,
                    ));
                }
            }
        }
        out
    }

    /// `oldText`: the window's lines as the model writes them, each ending with a line break.
    pub fn old_text(&self) -> String {
        self.old_lines().iter().map(|l| format!("{l}\n")).collect()
    }

    /// `newText`.
    pub fn new_text(&self) -> String {
        self.new_lines().iter().map(|(l, _)| format!("{l}\n")).collect()
    }

    /// The bytes the window must hold after the edit: the reference model.
    pub fn expected_window(&self) -> Vec<u8> {
        self.expected(None)
    }

    /// The bytes the window must hold when a format placing whole lines finds the model's lines after
    /// indentation the file adds to the first line ([`Case::found_after_first_indentation`]). The
    /// match is then exact: written lines are the model's text as given (its own indentation), and
    /// the hunk is taken from the first line's start, so the extra indentation goes with the first
    /// line: kept or edited, it keeps the file's line (extra included) and the lines written before
    /// it get the extra too (they stand where the first line started); deleted or rewritten, the
    /// first new line gets it if it is a written one. Other kept and edited lines keep the file's.
    pub fn expected_window_first_line_rebased(&self) -> Vec<u8> {
        let first = self.lines[0].level;
        let file = self.file_indent(first);
        let extra = file[..file.len() - Self::model_indent(first).len()].to_string();
        // The new line the first line comes back as (kept or edited); 0 when it does not.
        let carrier = self
            .new_lines()
            .iter()
            .position(|(_, from)| *from == Some(0))
            .unwrap_or(0);
        self.expected(Some((extra, carrier)))
    }

    /// [`Case::expected_window`], or with `rebased` (the first line's extra indentation, and the last
    /// new line that gets it) [`Case::expected_window_first_line_rebased`].
    fn expected(&self, rebased: Option<(String, usize)>) -> Vec<u8> {
        let written_indent = |level: usize| match rebased {
            Some(_) => Self::model_indent(level),
            None => self.file_indent(level),
        };
        // The n-th new line's extra indentation.
        let extra = |n: usize| match &rebased {
            Some((extra, kept)) if n <= *kept => extra.as_bytes(),
            _ => &b""[..],
        };
        let mut n = 0;
        let eol = |i: usize| self.lines[i].eol.as_bytes();
        let mut out = Vec::new();
        let mut i = 0; // next window line
        let mut written = 0;
        // The terminator of the last kept line (the window's first line's before any).
        let mut last_kept_eol = eol(0);
        let mut k = 0;
        while k < self.ops.len() {
            if self.ops[k] == Op::Keep {
                // A kept or edited line keeps the file's indentation, the first line's extra included.
                n += 1;
                out.extend_from_slice(&self.file_content(i));
                out.extend_from_slice(eol(i));
                last_kept_eol = eol(i);
                i += 1;
                k += 1;
                continue;
            }
            // A run of changes: the lines it removes, and what it writes in their place.
            let run_start = i;
            let mut run: Vec<(Op, usize)> = Vec::new();
            while k < self.ops.len() && self.ops[k] != Op::Keep {
                run.push((self.ops[k], i));
                if self.ops[k] != Op::Insert {
                    i += 1;
                }
                k += 1;
            }
            let run_end = i;
            let mut nth_written = 0;
            for (op, line) in run {
                let landing = || {
                    let at = run_start + nth_written;
                    if at < run_end {
                        eol(at)
                    } else if run_end > run_start {
                        eol(run_end - 1)
                    } else {
                        last_kept_eol
                    }
                };
                match op {
                    Op::Edit => {
                        out.extend_from_slice(&self.file_content(line));
                        out.push(b'!');
                        out.extend_from_slice(eol(line));
                    }
                    Op::Rewrite | Op::Insert => {
                        let level = self.new_levels[written % self.new_levels.len()];
                        written += 1;
                        let word = if op == Op::Rewrite { "REWRITTEN" } else { "INSERTED" };
                        out.extend_from_slice(extra(n));
                        out.extend_from_slice(written_indent(level).as_bytes());
                        out.extend_from_slice(format!("{word} W{written}{WRITTEN_TAIL}").as_bytes());
                        out.extend_from_slice(landing());
                    }
                    Op::Delete | Op::Keep => {}
                }
                if op != Op::Delete {
                    nth_written += 1;
                    n += 1;
                }
            }
        }
        out
    }

    /// Whether the model's lines occur in the file starting inside the first line, after
    /// indentation the file adds there (every other line indented as the model writes it): the
    /// text tiers' match under `Scope::indented_first_line`.
    pub fn found_after_first_indentation(&self) -> bool {
        let (first, rest) = (self.lines[0].level, &self.lines[1..]);
        self.style == Style::Indented
            && self.file_indent(first).ends_with(&Self::model_indent(first))
            && rest
                .iter()
                .all(|l| self.file_indent(l.level) == Self::model_indent(l.level))
    }

    /// Whether the case touches lines with two different terminators (what the properties are about;
    /// reported in the statistics of long runs).
    pub fn mixed(&self) -> bool {
        self.lines.iter().any(|l| l.eol != self.lines[0].eol)
    }
}

/// Surroundings of the window: no ASCII letters (so no line of the window occurs there), any
/// terminators, invalid UTF-8, multi-byte text, a BOM's bytes.
pub fn surroundings() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"  ".to_vec()),
        Just(b"\t".to_vec()),
        Just(b"123 = {};".to_vec()),
        Just("\u{a0}".as_bytes().to_vec()),
        Just("\u{e9}\u{4e2d}\u{1f600}".as_bytes().to_vec()),
        Just("\u{2014}\u{201c}".as_bytes().to_vec()),
        Just(b"\xff\xfe".to_vec()),
        Just(b"\xe2\x82".to_vec()),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|v| v.concat())
}

/// The file around a window: `prefix`, a line break (so the window starts a line), the window, a
/// line `=` (so a lone CR ending the window cannot pair with an LF after it), `suffix`.
pub fn planted(prefix: &[u8], window: &[u8], suffix: &[u8]) -> Vec<u8> {
    let mut f = prefix.to_vec();
    f.push(b'\n');
    f.extend_from_slice(window);
    f.extend_from_slice(b"=\n");
    f.extend_from_slice(suffix);
    f
}

/// Number of proptest cases: `PROPTEST_CASES` if set, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
