//! Line numbers a model copied from a read view into the text it searches for: `12 | text`,
//! `12→text` (with the number right-aligned, as some read tools print it), `12<TAB>text` (`cat -n`,
//! and surgical's own `read`).
//!
//! One function decides, for every caller (SEARCH lines, oldText): [`strip_line_numbers`]. It only
//! says what the lines would be without their numbers; whether to use them is the caller's rule:
//! only when the lines as written are not in the file and the stripped ones are (so a file that
//! really holds such text is matched as it is).

/// How the number is separated from the line's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberStyle {
    /// `12 | text` (also `12| text`, `12 |text`).
    Pipe,
    /// `12→text`.
    Arrow,
    /// `12<TAB>text`.
    Tab,
}

/// Lines without the line-number prefixes they all carried.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unnumbered<'a> {
    /// The number of the first line (one-based, as the read view printed it).
    pub first: usize,
    /// The prefix style every line had.
    pub style: NumberStyle,
    /// Each line without its prefix.
    pub lines: Vec<&'a str>,
}

/// The prefix of one line: its number, its style and the text after it.
pub fn line_number_prefix(line: &str) -> Option<(usize, NumberStyle, &str)> {
    let rest = line.trim_start_matches(' ');
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let number: usize = rest[..digits].parse().ok()?;
    let after = &rest[digits..];
    if let Some(text) = after.strip_prefix('\t') {
        return Some((number, NumberStyle::Tab, text));
    }
    if let Some(text) = after.strip_prefix('→') {
        return Some((number, NumberStyle::Arrow, text));
    }
    let text = after.trim_start_matches(' ').strip_prefix('|')?;
    Some((number, NumberStyle::Pipe, text.strip_prefix(' ').unwrap_or(text)))
}

/// `lines` without their line-number prefixes, when every line carries one, all in the same style,
/// numbered one after another (12, 13, 14...). `None` otherwise (also for no lines).
///
/// Edge cases: an empty line has no prefix, so lines holding one are not a numbered view; a single
/// line qualifies on its own (the caller's rule, "only when the stripped text matches", guards it).
pub fn strip_line_numbers<'a>(lines: &[&'a str]) -> Option<Unnumbered<'a>> {
    let mut out = Vec::with_capacity(lines.len());
    let (first, style, _) = line_number_prefix(lines.first()?)?;
    for (k, line) in lines.iter().enumerate() {
        let (n, s, text) = line_number_prefix(line)?;
        if s != style || n != first + k {
            return None;
        }
        out.push(text);
    }
    Some(Unnumbered {
        first,
        style,
        lines: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_style() {
        let u = strip_line_numbers(&["12 | fn a() {", "13 |     x", "14 |", "15 | }"]).unwrap();
        assert_eq!((u.first, u.style), (12, NumberStyle::Pipe));
        assert_eq!(u.lines, vec!["fn a() {", "    x", "", "}"]);
        let u = strip_line_numbers(&["     9→a", "    10→  b"]).unwrap();
        assert_eq!((u.first, u.style, u.lines), (9, NumberStyle::Arrow, vec!["a", "  b"]));
        let u = strip_line_numbers(&["1\tx", "2\t"]).unwrap();
        assert_eq!((u.style, u.lines), (NumberStyle::Tab, vec!["x", ""]));
    }

    #[test]
    fn refused_unless_every_line_is_numbered_in_order() {
        assert_eq!(strip_line_numbers(&[]), None);
        assert_eq!(strip_line_numbers(&["1\tx", "y"]), None);
        assert_eq!(strip_line_numbers(&["1\tx", "3\ty"]), None);
        assert_eq!(strip_line_numbers(&["1\tx", "2 | y"]), None);
        assert_eq!(strip_line_numbers(&["1\tx", ""]), None);
        assert_eq!(strip_line_numbers(&["x = 1", "y"]), None);
        assert_eq!(line_number_prefix("2024 is a year"), None);
    }
}
