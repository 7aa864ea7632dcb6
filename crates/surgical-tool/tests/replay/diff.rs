//! A commit's `git diff` of one file, read independently of surgical: its hunks, the lines of the
//! parent's file the commit changes, and whether a result left every other byte alone.

/// One hunk of a git diff.
#[derive(Debug)]
pub struct Hunk {
    /// The one-based first old line the header names (`@@ -a,b`); for a hunk that removes
    /// nothing (`-a,0`), the line after which it inserts.
    pub old_start: usize,
    /// Whether the header's old count is 0 (a pure insertion).
    pub old_empty: bool,
    /// The one-based first new line (`+c,d`).
    pub new_start: usize,
    /// The hunk's lines as the diff writes them (` `, `-`, `+` tag; body with its terminator as in
    /// the file: a last line without a final newline has none).
    pub lines: Vec<(char, String)>,
}

impl Hunk {
    /// The old lines (unchanged and removed), as in the parent's file.
    pub fn old_text(&self) -> String {
        self.side('+')
    }

    /// The new lines (unchanged and added), as in the commit's file.
    pub fn new_text(&self) -> String {
        self.side('-')
    }

    fn side(&self, leave_out: char) -> String {
        self.lines
            .iter()
            .filter(|(t, _)| *t != leave_out)
            .map(|(_, l)| l.as_str())
            .collect()
    }
}

/// `@@ -a[,b] +c[,d] @@`: (a, b == 0, c).
fn header(line: &str) -> (usize, bool, usize) {
    let mut parts = line.split_whitespace().skip(1);
    let range = |s: Option<&str>, sign: char| -> (usize, usize) {
        let s = s.and_then(|s| s.strip_prefix(sign)).unwrap_or("1");
        let mut it = s.split(',');
        let start = it.next().and_then(|n| n.parse().ok()).unwrap_or(1);
        let count = it.next().map_or(1, |n| n.parse().unwrap_or(1));
        (start, count)
    };
    let (a, b) = range(parts.next(), '-');
    let (c, _) = range(parts.next(), '+');
    (a, b == 0, c)
}

/// The hunks of `diff` (one file's `git diff`).
pub fn parse_hunks(diff: &str) -> Vec<Hunk> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut in_hunk = false;
    for line in diff.split_inclusive('\n') {
        if line.starts_with("@@ ") {
            let (old_start, old_empty, new_start) = header(line);
            hunks.push(Hunk {
                old_start,
                old_empty,
                new_start,
                lines: Vec::new(),
            });
            in_hunk = true;
            continue;
        }
        if !in_hunk {
            continue;
        }
        let hunk = hunks.last_mut().unwrap();
        let (tag, body) = line.split_at(1);
        match tag {
            " " | "-" | "+" => hunk.lines.push((tag.chars().next().unwrap(), body.to_string())),
            // `\ No newline at end of file`: the line before it has no terminator in the file.
            "\\" => {
                let last = hunk.lines.last_mut().unwrap();
                assert!(last.1.ends_with('\n'));
                last.1.pop();
            }
            _ => in_hunk = false,
        }
    }
    hunks
}

/// The parent's lines (0-based, end exclusive) each hunk's changes replace, in order: a run of
/// removed and added lines with nothing unchanged between them. A pure insertion is an empty range.
pub fn changed_runs(hunks: &[Hunk]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    for h in hunks {
        let mut pos = if h.old_empty {
            h.old_start
        } else {
            h.old_start.saturating_sub(1)
        };
        let mut open: Option<usize> = None;
        for (tag, _) in &h.lines {
            match tag {
                ' ' => {
                    if let Some(start) = open.take() {
                        runs.push((start, pos));
                    }
                    pos += 1;
                }
                '-' => {
                    open.get_or_insert(pos);
                    pos += 1;
                }
                _ => {
                    open.get_or_insert(pos);
                }
            }
        }
        if let Some(start) = open {
            runs.push((start, pos));
        }
    }
    runs
}

/// Whether `got` keeps every line of `before` that no run changes, in order and in place: the
/// lines before the first run as its start, those after the last as its end, and those between
/// runs in between, in order. False means bytes moved that the commit did not touch.
pub fn untouched_outside(before: &[u8], runs: &[(usize, usize)], got: &[u8]) -> bool {
    let lines: Vec<&[u8]> = before.split_inclusive(|&b| b == b'\n').collect();
    let join = |from: usize, to: usize| -> Vec<u8> { lines[from.min(lines.len())..to.min(lines.len())].concat() };
    if runs.is_empty() {
        return got == before;
    }
    let first = join(0, runs[0].0);
    let last = join(runs.last().unwrap().1, lines.len());
    if got.len() < first.len() + last.len() || !got.starts_with(&first) || !got.ends_with(&last) {
        return false;
    }
    let mut middle = &got[first.len()..got.len() - last.len()];
    for pair in runs.windows(2) {
        let gap = join(pair[0].1, pair[1].0);
        if gap.is_empty() {
            continue;
        }
        match middle.windows(gap.len()).position(|w| w == gap.as_slice()) {
            Some(at) => middle = &middle[at + gap.len()..],
            None => return false,
        }
    }
    true
}

/// A line split into its text, its trailing spaces and tabs, and its terminator (CRLF, LF or none).
fn split_trailing(line: &[u8]) -> (&[u8], &[u8], &[u8]) {
    let end = if line.ends_with(b"\r\n") {
        2
    } else if line.ends_with(b"\n") {
        1
    } else {
        0
    };
    let body = &line[..line.len() - end];
    let text = body.len() - body.iter().rev().take_while(|&&b| b == b' ' || b == b'\t').count();
    (&body[..text], &body[text..], &line[line.len() - end..])
}

/// Whether `got` is the commit's file `after` up to trailing whitespace the model could not see:
/// every line equal, except lines inside a hunk's new lines that differ only in their trailing
/// spaces and tabs, each such run being one that a line of the same hunk carries in the parent's
/// or the commit's file (the file's run kept on a line the model rewrote, or runs of blank lines
/// the model could not tell apart) — never a run nobody wrote, such as the file's and the model's
/// added together.
pub fn equal_up_to_invisible_whitespace(got: &[u8], after: &[u8], hunks: &[Hunk]) -> bool {
    let g: Vec<&[u8]> = got.split_inclusive(|&b| b == b'\n').collect();
    let w: Vec<&[u8]> = after.split_inclusive(|&b| b == b'\n').collect();
    if g.len() != w.len() {
        return false;
    }
    let spans: Vec<(usize, usize, Vec<Vec<u8>>)> = hunks
        .iter()
        .map(|h| {
            let count = h.lines.iter().filter(|(t, _)| *t != '-').count();
            let start = h.new_start.saturating_sub(1);
            let runs = h
                .lines
                .iter()
                .map(|(_, l)| split_trailing(l.as_bytes()).1.to_vec())
                .collect();
            (start, start + count, runs)
        })
        .collect();
    g.iter().zip(&w).enumerate().all(|(i, (a, b))| {
        if a == b {
            return true;
        }
        let (ta, wa, ea) = split_trailing(a);
        let (tb, _, eb) = split_trailing(b);
        ta == tb
            && ea == eb
            && spans
                .iter()
                .any(|(from, to, runs)| (*from..*to).contains(&i) && runs.iter().any(|r| r.as_slice() == wa))
    })
}

/// The index of the hunk whose new lines hold (or come nearest before) the one-based line `line`
/// of the commit's file.
pub fn hunk_at_new_line(hunks: &[Hunk], line: usize) -> usize {
    hunks.iter().rposition(|h| h.new_start <= line).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_the_bytes_outside_them() {
        let diff = "@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d\n@@ -8,0 +9,1 @@\n+x\n";
        let hunks = parse_hunks(diff);
        assert_eq!(changed_runs(&hunks), vec![(1, 2), (8, 8)]);
        let before = b"a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        assert!(untouched_outside(
            before,
            &changed_runs(&hunks),
            b"a\nB\nc\nd\ne\nf\ng\nh\nx\ni\n"
        ));
        // A change inside a run only.
        assert!(untouched_outside(
            before,
            &changed_runs(&hunks),
            b"a\nZ\nc\nd\ne\nf\ng\nh\ni\n"
        ));
        // The insertion landed on the wrong side of `h`: the lines between the runs are split.
        assert!(!untouched_outside(
            before,
            &changed_runs(&hunks),
            b"a\nB\nc\nd\ne\nf\ng\nx\nh\ni\n"
        ));
        assert!(!untouched_outside(
            before,
            &changed_runs(&hunks),
            b"a\nB\nc\nd\ne  \nf\ng\nh\nx\ni\n"
        ));
    }

    #[test]
    fn invisible_whitespace_is_one_a_line_of_the_hunk_carries() {
        let hunks = parse_hunks("@@ -1,3 +1,3 @@\n a\n-b    \r\n+B\r\n c\n");
        let after = b"a\nB\r\nc\nd  \n";
        assert!(equal_up_to_invisible_whitespace(b"a\nB    \r\nc\nd  \n", after, &hunks));
        // Doubled: a run no line carries.
        assert!(!equal_up_to_invisible_whitespace(
            b"a\nB        \r\nc\nd  \n",
            after,
            &hunks
        ));
        // Outside the hunk, exact.
        assert!(!equal_up_to_invisible_whitespace(b"a\nB\r\nc\nd\n", after, &hunks));
        // The terminator is never loose.
        assert!(!equal_up_to_invisible_whitespace(b"a\nB\nc\nd  \n", after, &hunks));
    }
}
