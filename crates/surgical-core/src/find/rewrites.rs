//! The tiers that rewrite the needle and search the rewritten one again, with the tier ladder
//! itself (passed in as [`SearchAgain`]): `escapes` (an over-escaped `oldText` unescaped) and
//! line-number prefixes copied from a read view (left out). What the model sent is kept on the
//! match (`unescape_new`, `unnumber_new`) so that its `newText` is rewritten the same way.

use crate::find::forgiven::Forgiven;
use crate::find::needle::{Match, Miss, Missed, SearchAgain};
use crate::find::scope::Scope;
use crate::find::tier::Tier;
use crate::text::line_numbers::strip_line_numbers;

/// The escapes tier: `old` unescaped, searched with every tier up to `whitespace_runs`. `None` when
/// unescaping changes nothing or the unescaped needle is not found either.
pub(crate) fn unescaped(old: &str, every: bool, scope: &Scope, again: &SearchAgain<'_>) -> Result<Option<Match>, Miss> {
    let plain = unescape(old);
    if plain == old {
        return Ok(None);
    }
    match again(&plain, every, scope, Tier::WhitespaceRuns) {
        Ok(inner) => {
            let forgiven = Forgiven::Escapes {
                tier: inner.tier,
                also: inner.forgiven.clone().map(Box::new),
            };
            // The unescaped needle may have matched without line-number prefixes: newText,
            // unescaped the same way, loses them too (`inner.unnumber_new`).
            Ok(Some(Match {
                tier: Tier::Escapes,
                forgiven: Some(forgiven),
                unescape_new: true,
                ..inner
            }))
        }
        Err(Missed {
            miss: Miss::NotFound { .. },
            ..
        }) => Ok(None),
        Err(missed) => Err(missed.miss),
    }
}

/// A needle every line of which carries a line-number prefix copied from a read view (`12 | `,
/// `12→`, `12<TAB>`, numbered in order), searched without them. Only tried once the needle as
/// written is found nowhere, so a text that holds such lines itself is matched as it is. `None`
/// when the needle has no such prefixes or is not found without them either.
pub(crate) fn unnumbered(
    old: &str,
    every: bool,
    scope: &Scope,
    loosest: Tier,
    again: &SearchAgain<'_>,
) -> Result<Option<Match>, Miss> {
    let lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    let Some(view) = strip_line_numbers(&lines) else {
        return Ok(None);
    };
    let mut plain = view.lines.join("\n");
    if old.ends_with('\n') {
        plain.push('\n');
    }
    if plain.trim().is_empty() {
        return Ok(None);
    }
    match again(&plain, every, scope, loosest) {
        Ok(inner) => Ok(Some(Match {
            forgiven: Some(Forgiven::LineNumbers {
                also: inner.forgiven.clone().map(Box::new),
            }),
            unnumber_new: Some(view.style),
            ..inner
        })),
        Err(Missed {
            miss: Miss::NotFound { .. },
            ..
        }) => Ok(None),
        Err(missed) => Err(missed.miss),
    }
}

/// The needle as a model meant it when it escaped what it should not have: `\n`, `\t`, `\"`, `\'`,
/// `\\`, and `\$` and `` \` `` (escaped for a template literal or a shell) become the characters
/// they stand for; `\r` becomes a line break, `\n` (a needle's line breaks never decide which
/// terminator a line has: the file's own are kept).
pub(crate) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            let replacement = match chars.peek() {
                Some('n') => Some('\n'),
                Some('t') => Some('\t'),
                Some('r') => Some('\n'),
                Some('"') => Some('"'),
                Some('\'') => Some('\''),
                Some('\\') => Some('\\'),
                Some('$') => Some('$'),
                Some('`') => Some('`'),
                _ => None,
            };
            if let Some(r) = replacement {
                chars.next();
                out.push(r);
                continue;
            }
        }
        out.push(c);
    }
    out
}
