//! Printing for people: colour decided per stream, and text from files made safe for a terminal.
//!
//! Everything the CLI prints for a person may hold bytes of the file being edited — diff context
//! lines, paths, the lines an `ambiguous` error lists — and a file can hold an escape sequence that
//! retitles the terminal, moves the cursor or worse. [`escape_controls`] makes every such
//! character visible before it is printed; the only escape sequences that reach a terminal are the
//! colour codes [`Painter`] adds itself.

use std::borrow::Cow;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::IsTerminal;

/// When to colour output: `--color auto|always|never`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a stream when it is a terminal, unless the environment says otherwise (see
    /// [`wants_color`]).
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

/// Whether to colour one stream.
///
/// `always` and `never` decide alone. Under `auto`, in this order: `NO_COLOR` set to anything but
/// the empty string turns colour off; `CLICOLOR_FORCE` set to anything but empty or `0` turns it on
/// even when the stream is not a terminal; `TERM=dumb` turns it off; otherwise the stream is
/// coloured when it is a terminal. `env` reads a variable (the process environment in [`Painter`]).
pub fn wants_color(choice: ColorChoice, is_terminal: bool, env: impl Fn(&str) -> Option<OsString>) -> bool {
    let set = |name: &str| env(name).filter(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if set("NO_COLOR").is_some() {
                false
            } else if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                true
            } else if env("TERM").is_some_and(|v| v == "dumb") {
                false
            } else {
                is_terminal
            }
        }
    }
}

/// Colours for one output stream, decided once.
#[derive(Clone, Copy, Debug)]
pub struct Painter {
    color: bool,
}

impl Painter {
    /// The painter for standard output.
    pub fn stdout(choice: ColorChoice) -> Painter {
        Painter::new(choice, std::io::stdout().is_terminal())
    }

    /// The painter for standard error (errors go there, so their colour follows stderr, not stdout).
    pub fn stderr(choice: ColorChoice) -> Painter {
        Painter::new(choice, std::io::stderr().is_terminal())
    }

    fn new(choice: ColorChoice, is_terminal: bool) -> Painter {
        Painter {
            color: wants_color(choice, is_terminal, |name| std::env::var_os(name)),
        }
    }

    /// `text` with its control characters escaped, wrapped in the SGR `code` when colouring.
    pub fn paint(self, text: &str, code: &str) -> String {
        let text = escape_controls(text);
        if self.color && !code.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.into_owned()
        }
    }

    /// A numbered diff (as `surgical-core::diff::numbered_diff` renders it) with removed lines red,
    /// added lines green and skipped or note lines dim; every line escaped.
    pub fn diff(self, diff: &str) -> String {
        let mut out = String::with_capacity(diff.len());
        for line in diff.lines() {
            let code = match line.as_bytes().first() {
                Some(b'-') => "31",
                Some(b'+') => "32",
                _ if line.trim_start().starts_with("...") || line.trim_start().starts_with('\\') => "2",
                _ => "",
            };
            out.push_str(&self.paint(line, code));
            out.push('\n');
        }
        out
    }
}

/// `text` with every character that a terminal would act on instead of showing written as a
/// visible escape: C0 controls but line feed and tab (`\r` as `\r`, the others as `\u{1b}`), DEL,
/// C1 controls (U+0080–U+009F, which some terminals read as escape introducers), and the
/// bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what is shown.
/// Borrowed when there is nothing to escape. A backslash in the text is left as it is, so the
/// result is for reading, not for parsing back.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    let needs = |c: char| {
        (c.is_control() && c != '\n' && c != '\t') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(needs) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\r' => out.push_str("\\r"),
            c if needs(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn auto_follows_the_stream_and_the_conventions() {
        use ColorChoice::*;
        assert!(wants_color(Auto, true, env(&[])));
        assert!(!wants_color(Auto, false, env(&[])));
        assert!(!wants_color(Auto, true, env(&[("NO_COLOR", "1")])));
        assert!(
            wants_color(Auto, true, env(&[("NO_COLOR", "")])),
            "an empty NO_COLOR is unset"
        );
        assert!(wants_color(Auto, false, env(&[("CLICOLOR_FORCE", "1")])));
        assert!(!wants_color(Auto, false, env(&[("CLICOLOR_FORCE", "0")])));
        assert!(!wants_color(
            Auto,
            true,
            env(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")])
        ));
        assert!(!wants_color(Auto, true, env(&[("TERM", "dumb")])));
        assert!(wants_color(
            Auto,
            false,
            env(&[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")])
        ));
        assert!(wants_color(Always, false, env(&[("NO_COLOR", "1"), ("TERM", "dumb")])));
        assert!(!wants_color(Never, true, env(&[("CLICOLOR_FORCE", "1")])));
    }

    #[test]
    fn controls_are_escaped_and_plain_text_is_borrowed() {
        assert!(matches!(escape_controls("a\tb\nc — “d”"), Cow::Borrowed(_)));
        assert_eq!(escape_controls("a\x1b]0;pwned\x07b"), "a\\u{1b}]0;pwned\\u{7}b");
        assert_eq!(escape_controls("x\r\ny\x7f\u{9b}"), "x\\r\ny\\u{7f}\\u{9b}");
        assert_eq!(escape_controls("\u{202e}evil\u{2066}"), "\\u{202e}evil\\u{2066}");
    }

    #[test]
    fn painting_escapes_the_text_but_keeps_its_own_codes() {
        let painter = Painter { color: true };
        assert_eq!(painter.paint("a\x1b[2Jb", "31"), "\x1b[31ma\\u{1b}[2Jb\x1b[0m");
        let plain = Painter { color: false };
        assert_eq!(plain.diff(" 1 a\x1b[2J\n-2 b\n+2 c\n"), " 1 a\\u{1b}[2J\n-2 b\n+2 c\n");
    }
}
