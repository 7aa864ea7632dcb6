//! The text helpers the rounds share: lines as a file holds them, and the file variants models
//! meet in practice.

/// The file as one of the variants models meet: as it is, CRLF, trailing blanks on every third
/// line, or CRLF and LF alternating.
pub fn variant(text: &str, which: usize) -> String {
    match which % 4 {
        0 => text.to_string(),
        1 => text.replace('\n', "\r\n"),
        2 => text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i % 3 == 1 && !l.is_empty() {
                    format!("{l}   \n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect(),
        _ => text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i % 2 == 0 {
                    format!("{l}\r\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect(),
    }
}

/// Lines with their terminators, as the file holds them.
pub fn split(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// A line without its terminator.
pub fn content(line: &str) -> &str {
    line.trim_end_matches(['\n', '\r'])
}
