//! What a model writes for a hunk: the commit's text as a model would see it (no CRs, no BOM), and
//! the perturbed variants — the text a model copies from a read view, altered the way models
//! alter it. A model copies the hunk's unchanged and removed lines from what it read; the lines
//! the commit adds are its own, written as the commit has them. So only copied lines are
//! perturbed (except for indentation, which shifts the model's whole frame), and the expected
//! result is always the commit's file: whatever the model got wrong in copied text is not a
//! change, and must not be written.

use super::diff::Hunk;

/// How the model's text differs from the file's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Perturbation {
    /// Trailing spaces and tabs dropped from every copied line (read views and models drop them).
    TrailingWhitespace,
    /// Every line with visible text shifted by the same indentation: the hunk's common indentation
    /// removed when it has one, else 4 spaces added. Lines of only whitespace are written empty, as
    /// models write blank lines (their whitespace is invisible: the row is scored up to it).
    Indentation,
    /// Typographic quotes, dashes, special spaces and the ellipsis character in copied lines
    /// written as ASCII (`'`, `"`, `-`, a space, `...`).
    TypographicAsAscii,
    /// ASCII written typographically in copied lines: an apostrophe between letters as `’`,
    /// paired `"` as `“`…`”`, a spaced ` - ` as ` – `, and the indentation of
    /// the first indented copied line as no-break spaces (the seed report's case).
    AsciiAsTypographic,
}

/// A line as a model writes it: without the CR of a CRLF ending.
pub fn model_line(body: &str) -> String {
    body.replace("\r\n", "\n")
}

/// A whole text as a model writes it: without CRs of CRLF endings and without the file's BOM.
pub fn model_text(s: &str) -> String {
    model_line(s.strip_prefix('\u{feff}').unwrap_or(s))
}

/// `line` without its `\n`, and the `\n` (or "").
fn split_end(line: &str) -> (&str, &str) {
    match line.strip_suffix('\n') {
        Some(body) => (body, "\n"),
        None => (line, ""),
    }
}

pub fn strip_trailing_whitespace(line: &str) -> String {
    let (body, end) = split_end(line);
    format!("{}{end}", body.trim_end_matches([' ', '\t']))
}

/// Typographic punctuation and special spaces mapped to ASCII (the equivalence a model's
/// misremembered punctuation is judged by).
pub fn to_ascii(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' => out.push('\''),
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' => out.push('"'),
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' => out.push('-'),
            '\u{00a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => out.push(' '),
            '\u{2026}' => out.push_str("..."),
            c => out.push(c),
        }
    }
    out
}

/// ASCII written typographically (see [`Perturbation::AsciiAsTypographic`]), without the NBSP
/// indentation (done per hunk).
fn to_typographic(line: &str) -> String {
    let (body, end) = split_end(line);
    let chars: Vec<char> = body.chars().collect();
    let quotes = chars.iter().filter(|&&c| c == '"').count();
    let mut open = true;
    let mut out = String::with_capacity(line.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        match c {
            '\'' if prev.is_some_and(char::is_alphabetic) && next.is_some_and(char::is_alphabetic) => {
                out.push('\u{2019}')
            }
            '"' if quotes % 2 == 0 => {
                out.push(if open { '\u{201c}' } else { '\u{201d}' });
                open = !open;
            }
            c => out.push(c),
        }
    }
    let out = out.replace(" - ", " \u{2013} ");
    format!("{out}{end}")
}

fn indentation(line: &str) -> &str {
    let body = split_end(line).0;
    &body[..body.len() - body.trim_start_matches([' ', '\t']).len()]
}

fn is_blank(line: &str) -> bool {
    split_end(line).0.trim_matches([' ', '\t', '\r']).is_empty()
}

/// What the model sends for one hunk.
pub struct ModelHunk {
    /// The hunk's lines with the model's text (tag, line).
    pub lines: Vec<(char, String)>,
}

impl ModelHunk {
    pub fn old_text(&self) -> String {
        self.lines
            .iter()
            .filter(|(t, _)| *t != '+')
            .map(|(_, l)| l.as_str())
            .collect()
    }
    pub fn new_text(&self) -> String {
        self.lines
            .iter()
            .filter(|(t, _)| *t != '-')
            .map(|(_, l)| l.as_str())
            .collect()
    }
}

/// Why a hunk is not sent in a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// The change cannot be stated by a model under this perturbation (it is one of the bytes the
    /// model cannot see: only line endings, a final newline, the BOM, or only trailing whitespace /
    /// typography that the perturbation hides).
    NotExpressible,
    /// The perturbation leaves every hunk as it is (the same call as plain `edit`).
    Unperturbed,
    /// A perturbed oldText is itself in the file, word for word: any engine takes the model at its
    /// word there, so the case says nothing about the perturbation.
    Collides,
}

/// The model's text for `h` without perturbation.
pub fn plain(h: &Hunk) -> ModelHunk {
    let mut lines: Vec<(char, String)> = h.lines.iter().map(|(t, l)| (*t, model_line(l))).collect();
    // The file's BOM, which git writes at the start of line 1, is not in what a model reads (a
    // U+FEFF anywhere else is, invisibly: see `invisible_change`).
    if h.old_start <= 1 && h.new_start <= 1 {
        for side in ['+', '-'] {
            if let Some((_, l)) = lines.iter_mut().find(|(t, _)| *t != side) {
                if let Some(rest) = l.strip_prefix('\u{feff}') {
                    *l = rest.to_string();
                }
            }
        }
    }
    ModelHunk { lines }
}

/// What makes a hunk inexpressible in a model's text (`edit`, Codex patch, SEARCH/REPLACE): a
/// change of line endings (the hunk's old lines end in more than one way, or its added lines end
/// otherwise than its old lines), or a U+FEFF other than the file's BOM — bytes a model does not
/// see, so whichever way an engine writes them is a guess.
pub fn invisible_change(h: &Hunk) -> Option<&'static str> {
    fn ending(l: &str) -> Option<&'static str> {
        if l.ends_with("\r\n") {
            Some("crlf")
        } else if l.ends_with('\n') {
            Some("lf")
        } else {
            None
        }
    }
    let old: std::collections::BTreeSet<_> = h
        .lines
        .iter()
        .filter(|(t, _)| *t != '+')
        .filter_map(|(_, l)| ending(l))
        .collect();
    let added: std::collections::BTreeSet<_> = h
        .lines
        .iter()
        .filter(|(t, _)| *t == '+')
        .filter_map(|(_, l)| ending(l))
        .collect();
    if old.len() > 1 || (!old.is_empty() && !added.is_empty() && added != old) {
        return Some("line endings");
    }
    if plain(h).lines.iter().any(|(_, l)| l.contains('\u{feff}')) {
        return Some("a U+FEFF inside the file");
    }
    None
}

/// The model's text for `h` under `p`, and whether the perturbation changed anything.
pub fn perturbed(h: &Hunk, p: Perturbation) -> Result<(ModelHunk, bool), Skip> {
    let base = plain(h);
    let copied = |f: &dyn Fn(&str) -> String| -> Vec<(char, String)> {
        base.lines
            .iter()
            .map(|(t, l)| (*t, if *t == '+' { l.clone() } else { f(l) }))
            .collect()
    };
    // The commit changes a line only in what the perturbation hides: the model cannot say so.
    let hides = |norm: &dyn Fn(&str) -> String| -> bool {
        let removed: Vec<&String> = base.lines.iter().filter(|(t, _)| *t == '-').map(|(_, l)| l).collect();
        base.lines
            .iter()
            .filter(|(t, _)| *t == '+')
            .any(|(_, a)| removed.iter().any(|r| *r != a && norm(r) == norm(a)))
    };
    let lines = match p {
        Perturbation::TrailingWhitespace => {
            if hides(&strip_trailing_whitespace) {
                return Err(Skip::NotExpressible);
            }
            copied(&strip_trailing_whitespace)
        }
        Perturbation::TypographicAsAscii => {
            if hides(&to_ascii) {
                return Err(Skip::NotExpressible);
            }
            copied(&to_ascii)
        }
        Perturbation::AsciiAsTypographic => {
            if hides(&to_ascii) {
                return Err(Skip::NotExpressible);
            }
            let mut lines = copied(&to_typographic);
            // The first copied line indented with spaces: its indentation as no-break spaces.
            if let Some((_, l)) = lines
                .iter_mut()
                .find(|(t, l)| *t != '+' && !is_blank(l) && l.starts_with(' '))
            {
                let n = l.len() - l.trim_start_matches(' ').len();
                *l = format!("{}{}", "\u{a0}".repeat(n), &l[n..]);
            }
            // The same line, where it is unchanged, is copied the same way on both sides (a
            // context line stands for one line of old and new text).
            lines
        }
        Perturbation::Indentation => {
            // A line whose only change is tabs for spaces (or the reverse): indentation a model
            // shifted is read by its width, so the characters it is written in are the file's.
            let retabbed = base.lines.iter().filter(|(t, _)| *t == '-').any(|(_, r)| {
                base.lines.iter().filter(|(t, _)| *t == '+').any(|(_, a)| {
                    r.trim_start() == a.trim_start() && indentation(r).contains('\t') != indentation(a).contains('\t')
                })
            });
            if retabbed {
                return Err(Skip::NotExpressible);
            }
            let common = base
                .lines
                .iter()
                .filter(|(_, l)| !is_blank(l))
                .map(|(_, l)| indentation(l))
                .reduce(|a, b| {
                    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                    &a[..n]
                })
                .unwrap_or("")
                .to_string();
            base.lines
                .iter()
                .map(|(t, l)| {
                    let l = if is_blank(l) {
                        // A blank line as a model writes one in a block it re-indents: empty (a
                        // last line without a line break stays: emptied, it would be no line).
                        if l.ends_with('\n') {
                            "\n".to_string()
                        } else {
                            l.clone()
                        }
                    } else if common.is_empty() {
                        format!("    {l}")
                    } else {
                        l[common.len()..].to_string()
                    };
                    (*t, l)
                })
                .collect()
        }
    };
    let changed = lines != base.lines;
    let model = ModelHunk { lines };
    // What the commit changes in this hunk is all in what the perturbation hides (e.g. only the
    // whitespace of blank lines): the model's oldText and newText are the same.
    if model.old_text() == model.new_text() {
        return Err(Skip::NotExpressible);
    }
    Ok((model, changed))
}

/// Occurrences (overlapping) of `needle` in `hay`.
pub fn occurrences(hay: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return 0;
    }
    (0..hay.len())
        .filter(|&i| hay.is_char_boundary(i) && hay[i..].starts_with(needle))
        .count()
}

/// How many places of `file` (model text: no CRs, no BOM) the model's old text of a hunk stands
/// for under `p`'s equivalence — counted here, independently of surgical: exact occurrences when
/// unperturbed; with trailing whitespace or typography folded on both sides; for indentation,
/// windows of whole lines equal to the needle's up to one indentation prefix added to (or removed
/// from) every line with visible text, or up to one shift in columns (tabs of 4 or 8).
pub fn places(file: &str, needle: &str, p: Option<Perturbation>) -> usize {
    match p {
        None => occurrences(file, needle),
        Some(Perturbation::TrailingWhitespace) => {
            let fold = |s: &str| {
                s.split_inclusive('\n')
                    .map(strip_trailing_whitespace)
                    .collect::<String>()
            };
            occurrences(&fold(file), &fold(needle))
        }
        Some(Perturbation::TypographicAsAscii | Perturbation::AsciiAsTypographic) => {
            occurrences(&to_ascii(file), &to_ascii(needle))
        }
        Some(Perturbation::Indentation) => {
            let lines: Vec<&str> = file.split_inclusive('\n').collect();
            let needle: Vec<&str> = needle.split_inclusive('\n').collect();
            if needle.is_empty() || needle.len() > lines.len() {
                return 0;
            }
            (0..=lines.len() - needle.len())
                .filter(|&i| {
                    let window = &lines[i..i + needle.len()];
                    shifted_equal(window, &needle) || [4, 8].iter().any(|&w| columns_shifted_equal(window, &needle, w))
                })
                .count()
        }
    }
}

/// Whether `file` and `needle` lines have the same text after their indentation, and indentations
/// (in columns, tabs to the next multiple of `tab`) that differ by the same number of columns on
/// every line with visible text: what an engine that reads indentation as columns sees as one shift.
fn columns_shifted_equal(file: &[&str], needle: &[&str], tab: usize) -> bool {
    let cols = |s: &str| {
        indentation(s)
            .chars()
            .fold(0usize, |c, ch| if ch == '\t' { (c / tab + 1) * tab } else { c + 1 })
    };
    let mut delta: Option<isize> = None;
    for (f, n) in file.iter().zip(needle) {
        if is_blank(f) || is_blank(n) {
            if is_blank(f) != is_blank(n) {
                return false;
            }
            continue;
        }
        if split_end(f).0.trim_start_matches([' ', '\t']) != split_end(n).0.trim_start_matches([' ', '\t']) {
            return false;
        }
        let d = cols(f) as isize - cols(n) as isize;
        if *delta.get_or_insert(d) != d {
            return false;
        }
    }
    true
}

/// Whether `file` and `needle` lines are equal up to one indentation prefix on every line with
/// visible text (blank lines equal when both are blank).
fn shifted_equal(file: &[&str], needle: &[&str]) -> bool {
    let strip = |l: &str| split_end(l).0.to_string();
    let mut shift: Option<(bool, String)> = None; // (file has the prefix, prefix)
    for (f, n) in file.iter().zip(needle) {
        let (f, n) = (strip(f), strip(n));
        if is_blank(&f) || is_blank(&n) {
            if is_blank(&f) != is_blank(&n) {
                return false;
            }
            continue;
        }
        let this = if let Some(p) = f.strip_suffix(n.as_str()) {
            (true, p.to_string())
        } else if let Some(p) = n.strip_suffix(f.as_str()) {
            (false, p.to_string())
        } else {
            return false;
        };
        if !this.1.chars().all(|c| c == ' ' || c == '\t') {
            return false;
        }
        match &shift {
            None => shift = Some(this),
            Some(s) if *s == this || (s.1.is_empty() && this.1.is_empty()) => {}
            Some(_) => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(lines: &[(char, &str)]) -> Hunk {
        Hunk {
            old_start: 1,
            old_empty: false,
            new_start: 1,
            lines: lines.iter().map(|(t, l)| (*t, l.to_string())).collect(),
        }
    }

    #[test]
    fn perturbations_touch_copied_lines_only() {
        let h = hunk(&[(' ', "  a  \r\n"), ('-', "  b \u{2014} c\r\n"), ('+', "  B  \r\n")]);
        let (m, changed) = perturbed(&h, Perturbation::TrailingWhitespace).unwrap();
        assert!(changed);
        assert_eq!(m.old_text(), "  a\n  b \u{2014} c\n");
        assert_eq!(m.new_text(), "  a\n  B  \n");
        let (m, _) = perturbed(&h, Perturbation::TypographicAsAscii).unwrap();
        assert_eq!(m.old_text(), "  a  \n  b - c\n");
        let (m, _) = perturbed(&h, Perturbation::Indentation).unwrap();
        assert_eq!(m.old_text(), "a  \nb \u{2014} c\n");
        assert_eq!(m.new_text(), "a  \nB  \n");
        let (m, _) = perturbed(
            &hunk(&[(' ', "\tx\n"), ('+', "\t  \n"), ('+', "\t\ty\n")]),
            Perturbation::Indentation,
        )
        .unwrap();
        assert_eq!(m.new_text(), "x\n\n\ty\n");
        let (m, _) = perturbed(
            &hunk(&[(' ', "x\n"), ('-', "don't say \"a\"\n"), ('+', "y\n")]),
            Perturbation::AsciiAsTypographic,
        )
        .unwrap();
        assert_eq!(m.old_text(), "x\ndon\u{2019}t say \u{201c}a\u{201d}\n");
        // A change of trailing whitespace only cannot be stated by a model that cannot see it.
        assert!(perturbed(&hunk(&[('-', "a \n"), ('+', "a\n")]), Perturbation::TrailingWhitespace).is_err());
    }

    #[test]
    fn places_fold_what_the_perturbation_hides() {
        assert_eq!(
            places("  a\n  b\nx\na\nb\n", "a\nb\n", Some(Perturbation::Indentation)),
            2
        );
        assert_eq!(places("  a\n    b\n", "a\nb\n", Some(Perturbation::Indentation)), 0);
        // The same lines in columns (a tab of 4 against 4 spaces, one level deeper).
        assert_eq!(
            places(
                "\t\tx\n\ty\n\tx\ny\n",
                "    \tx\n    y\n",
                Some(Perturbation::Indentation)
            ),
            2
        );
        assert_eq!(
            places("a \nb\na\nb\t\n", "a\nb\n", Some(Perturbation::TrailingWhitespace)),
            2
        );
        assert_eq!(
            places(
                "\u{201c}q\u{201d}\n\"q\"\n",
                "\"q\"\n",
                Some(Perturbation::TypographicAsAscii)
            ),
            2
        );
    }
}
