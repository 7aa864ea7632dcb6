//! Line-ending styles: what a file uses, and what `write` writes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use surgical_core::lines::next_terminator;

/// A line terminator `write` can write: `lf` (`\n`), `crlf` (`\r\n`) or `cr` (a lone `\r`).
// No doc comments on the variants: with them, the schema becomes a `oneOf` of constants instead of
// the plain `enum` of names that every model and client understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LineEnding {
    Lf,
    Crlf,
    Cr,
}

impl LineEnding {
    /// `lf`, `crlf` or `cr`.
    pub fn name(self) -> &'static str {
        match self {
            LineEnding::Lf => "lf",
            LineEnding::Crlf => "crlf",
            LineEnding::Cr => "cr",
        }
    }

    pub fn bytes(self) -> &'static [u8] {
        match self {
            LineEnding::Lf => b"\n",
            LineEnding::Crlf => b"\r\n",
            LineEnding::Cr => b"\r",
        }
    }

    /// Reads a name as models write it: `lf`/`crlf`/`cr` in any case, or the characters themselves.
    pub fn parse(name: &str) -> Option<LineEnding> {
        // Not trimmed when it is all whitespace: "\r\n" itself is a name.
        let trimmed = name.trim();
        let name = if trimmed.is_empty() { name } else { trimmed };
        match name.to_ascii_lowercase().as_str() {
            "lf" | "\n" | "\\n" | "unix" => Some(LineEnding::Lf),
            "crlf" | "\r\n" | "\\r\\n" | "windows" | "dos" => Some(LineEnding::Crlf),
            "cr" | "\r" | "\\r" => Some(LineEnding::Cr),
            _ => None,
        }
    }
}

/// How many terminators of each kind a text has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Endings {
    pub lf: usize,
    pub crlf: usize,
    pub cr: usize,
}

impl Endings {
    /// Counts the terminators of `text` (`\r\n`, lone `\r`, `\n`, as surgical counts lines).
    pub fn of(text: &[u8]) -> Endings {
        let mut counts = Endings::default();
        let mut at = 0;
        while let Some(t) = next_terminator(text, at) {
            match (t.len(), text[t.start]) {
                (2, _) => counts.crlf += 1,
                (_, b'\r') => counts.cr += 1,
                _ => counts.lf += 1,
            }
            at = t.end;
        }
        counts
    }

    pub fn total(self) -> usize {
        self.lf + self.crlf + self.cr
    }

    /// `lf`, `crlf` or `cr` when every terminator is of that kind, `mixed` when they differ, `none`
    /// when there are none.
    pub fn style(self) -> &'static str {
        match (self.lf > 0, self.crlf > 0, self.cr > 0) {
            (false, false, false) => "none",
            (true, false, false) => "lf",
            (false, true, false) => "crlf",
            (false, false, true) => "cr",
            _ => "mixed",
        }
    }

    /// The most frequent kind (ties: LF, then CRLF), or `None` without terminators.
    pub fn dominant(self) -> Option<LineEnding> {
        if self.total() == 0 {
            None
        } else if self.lf >= self.crlf && self.lf >= self.cr {
            Some(LineEnding::Lf)
        } else if self.crlf >= self.cr {
            Some(LineEnding::Crlf)
        } else {
            Some(LineEnding::Cr)
        }
    }
}

/// The number of lines in `text` as surgical counts them: one per terminator, plus a last line
/// without one. An empty text has none.
pub(crate) fn count_lines(text: &[u8], endings: Endings) -> usize {
    let unterminated = match text.last() {
        None | Some(b'\n' | b'\r') => 0,
        Some(_) => 1,
    };
    endings.total() + unterminated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles() {
        let cases: [(&[u8], &str, usize, Option<LineEnding>); 7] = [
            (b"", "none", 0, None),
            (b"one line", "none", 1, None),
            (b"a\nb\n", "lf", 2, Some(LineEnding::Lf)),
            (b"a\r\nb", "crlf", 2, Some(LineEnding::Crlf)),
            (b"a\rb\r", "cr", 2, Some(LineEnding::Cr)),
            (b"a\r\nb\nc\r\n", "mixed", 3, Some(LineEnding::Crlf)),
            (b"\r\r\n\n", "mixed", 3, Some(LineEnding::Lf)),
        ];
        for (text, style, lines, dominant) in cases {
            let e = Endings::of(text);
            assert_eq!(e.style(), style, "{text:?}");
            assert_eq!(count_lines(text, e), lines, "{text:?}");
            assert_eq!(e.dominant(), dominant, "{text:?}");
        }
    }

    #[test]
    fn parses_names() {
        assert_eq!(LineEnding::parse("CRLF"), Some(LineEnding::Crlf));
        assert_eq!(LineEnding::parse("\r\n"), Some(LineEnding::Crlf));
        assert_eq!(LineEnding::parse(" lf "), Some(LineEnding::Lf));
        assert_eq!(LineEnding::parse("cr"), Some(LineEnding::Cr));
        assert_eq!(LineEnding::parse("native"), None);
    }
}
