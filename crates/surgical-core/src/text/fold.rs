//! Character classes the matching tiers fold, and how to name a character to a model.
//!
//! The sets follow what models get wrong when they copy text from rendered output: typographic quotes
//! and dashes typed as ASCII, and the many Unicode spaces typed as U+0020.

/// Spaces other than U+0020 that a model cannot tell from a space: every `Zs` character but the space.
pub fn is_special_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Whitespace that counts as trailing whitespace when it ends a line: ASCII space and tab, plus the
/// special spaces (a no-break space at the end of a line is as invisible as a space).
pub fn is_line_blank(c: char) -> bool {
    c == ' ' || c == '\t' || is_special_space(c)
}

/// The ASCII character a visible typographic character folds to in the `unicode` tier, if any.
///
/// Applied after NFKC, so compatibility forms (full-width letters, ligatures) are already gone.
pub fn fold_typographic(c: char) -> Option<char> {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => Some('\''),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => Some('"'),
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' => Some('-'),
        c if is_special_space(c) => Some(' '),
        _ => None,
    }
}

/// Characters that render as nothing or as a plain space; the display diff spells them out.
pub fn is_invisible(c: char) -> bool {
    is_special_space(c)
        || matches!(
            c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
        )
        || (c.is_control() && c != '\t' && c != '\n' && c != '\r')
}

/// `U+00A0 (no-break space)` for the characters models most often confuse, `U+1234` otherwise, and
/// the character itself in quotes for plain ASCII.
pub fn describe_char(c: char) -> String {
    let name = match c {
        '\u{00A0}' => "no-break space",
        '\u{202F}' => "narrow no-break space",
        '\u{2007}' => "figure space",
        '\u{2009}' => "thin space",
        '\u{200A}' => "hair space",
        '\u{2002}' => "en space",
        '\u{2003}' => "em space",
        '\u{3000}' => "ideographic space",
        '\u{2018}' => "left single quotation mark",
        '\u{2019}' => "right single quotation mark",
        '\u{201A}' => "single low-9 quotation mark",
        '\u{201B}' => "single high-reversed-9 quotation mark",
        '\u{201C}' => "left double quotation mark",
        '\u{201D}' => "right double quotation mark",
        '\u{201E}' => "double low-9 quotation mark",
        '\u{201F}' => "double high-reversed-9 quotation mark",
        '\u{2010}' => "hyphen",
        '\u{2011}' => "non-breaking hyphen",
        '\u{2012}' => "figure dash",
        '\u{2013}' => "en dash",
        '\u{2014}' => "em dash",
        '\u{2015}' => "horizontal bar",
        '\u{2212}' => "minus sign",
        '\u{FFFD}' => "replacement character",
        '\u{200B}' => "zero width space",
        '\u{FEFF}' => "zero width no-break space",
        '\t' => "tab",
        ' ' => "space",
        _ => "",
    };
    if c.is_ascii_graphic() {
        return format!("'{c}'");
    }
    if name.is_empty() {
        format!("U+{:04X} '{c}'", c as u32)
    } else {
        format!("U+{:04X} ({name})", c as u32)
    }
}

/// Describes a short run of text character by character, for notes like "the file has X where you wrote Y".
pub fn describe_text(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return "nothing".to_string();
    }
    if chars.len() == 1 {
        return describe_char(chars[0]);
    }
    if chars.iter().all(|c| c.is_ascii_graphic() || *c == ' ') {
        return format!("\"{s}\"");
    }
    let parts: Vec<String> = chars.iter().take(6).map(|&c| describe_char(c)).collect();
    let more = if chars.len() > 6 { " ..." } else { "" };
    format!("{}{more}", parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_report_sets_fold() {
        for c in ['\u{2018}', '\u{2019}', '\u{201A}', '\u{201B}'] {
            assert_eq!(fold_typographic(c), Some('\''));
        }
        for c in ['\u{201C}', '\u{201D}', '\u{201E}', '\u{201F}'] {
            assert_eq!(fold_typographic(c), Some('"'));
        }
        for c in [
            '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
        ] {
            assert_eq!(fold_typographic(c), Some('-'));
        }
        for c in ['\u{00A0}', '\u{202F}', '\u{2009}', '\u{3000}'] {
            assert_eq!(fold_typographic(c), Some(' '));
            assert!(is_line_blank(c));
        }
        assert_eq!(fold_typographic('a'), None);
        assert_eq!(fold_typographic('-'), None);
    }

    #[test]
    fn descriptions() {
        assert_eq!(describe_char('\u{00A0}'), "U+00A0 (no-break space)");
        assert_eq!(describe_char('-'), "'-'");
        assert_eq!(describe_text("a - b"), "\"a - b\"");
        assert_eq!(describe_text(""), "nothing");
    }
}
