//! Line-ending styles: what a file uses, and what `write` writes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use surgical_core::lines::{Ending, Endings};

/// A line terminator `write` can write: `lf` (`\n`), `crlf` (`\r\n`) or `cr` (a lone `\r`).
// No doc comments on the variants: with them, the schema becomes a `oneOf` of constants instead of
// the plain `enum` of names that every model and client understands.
#[allow(missing_docs)]
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

    /// The terminator's bytes: `\n`, `\r\n` or `\r`.
    pub fn bytes(self) -> &'static [u8] {
        Ending::from(self).bytes()
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

impl From<Ending> for LineEnding {
    fn from(ending: Ending) -> LineEnding {
        match ending {
            Ending::Crlf => LineEnding::Crlf,
            Ending::Cr => LineEnding::Cr,
            _ => LineEnding::Lf,
        }
    }
}

impl From<LineEnding> for Ending {
    fn from(ending: LineEnding) -> Ending {
        match ending {
            LineEnding::Lf => Ending::Lf,
            LineEnding::Crlf => Ending::Crlf,
            LineEnding::Cr => Ending::Cr,
        }
    }
}

/// How a report names a file's endings: `lf`, `crlf` or `cr` when every terminator is of that
/// kind, `mixed` when they differ, `none` when there are none (the `lineEnding` result field).
pub(crate) fn style(endings: Endings) -> &'static str {
    match endings.single() {
        Some(ending) => LineEnding::from(ending).name(),
        None if endings.total() == 0 => "none",
        None => "mixed",
    }
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
            assert_eq!(super::style(e), style, "{text:?}");
            assert_eq!(e.lines(), lines, "{text:?}");
            assert_eq!(e.dominant().map(LineEnding::from), dominant, "{text:?}");
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
