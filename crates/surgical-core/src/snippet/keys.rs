//! Lines as the snippet merge compares them (keys), how often the file holds each, and the weight
//! of a line as evidence of a place.

use std::collections::HashMap;

use crate::text::lines::Line;

/// How lines are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keying {
    /// Trailing blanks ignored, indentation as written.
    Indented,
    /// Leading and trailing blanks ignored.
    Trimmed,
}

pub(crate) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0c' | b'\x0b')
}

/// The line as compared: trailing blanks (and, trimmed, leading ones) left out.
pub(crate) fn key(bytes: &[u8], keying: Keying) -> &[u8] {
    let end = bytes.iter().rposition(|&b| !is_blank(b)).map_or(0, |p| p + 1);
    let start = match keying {
        Keying::Indented => 0,
        Keying::Trimmed => bytes[..end].iter().position(|&b| !is_blank(b)).unwrap_or(end),
    };
    &bytes[start..end]
}

/// A line as [`key`] compares it, its trailing blanks kept.
pub(crate) fn exact_key(bytes: &[u8], keying: Keying) -> &[u8] {
    match keying {
        Keying::Indented => bytes,
        Keying::Trimmed => &bytes[bytes.iter().position(|&b| !is_blank(b)).unwrap_or(bytes.len())..],
    }
}

pub(crate) fn indent_of(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().position(|&b| !is_blank(b)).unwrap_or(bytes.len());
    &bytes[..n]
}

/// Whether a key is blank (blanks only, or nothing).
pub(crate) fn is_blank_key(key: &[u8]) -> bool {
    key.iter().all(|&b| is_blank(b))
}

/// A line that closes a block: it starts with `}`, `)`, `]` or the word `end`.
pub(crate) fn is_closer(trimmed: &[u8]) -> bool {
    trimmed.first().is_some_and(|b| b"}])".contains(b))
        || trimmed
            .strip_prefix(b"end")
            .is_some_and(|r| r.first().is_none_or(|b| !b.is_ascii_alphanumeric()))
}

/// How much a line says by itself, before its count in the file divides it
/// ([`crate::snippet::scoring`]): a line with a word of more than six letters, or two words, says
/// all it can ([`FULL`]); one short word with punctuation (`end`, `pass`, `} else {`) says half
/// ([`SHORT_WORD`]); punctuation only (`}`, `});`) a quarter ([`PUNCTUATION`]); a blank line
/// nothing.
pub(crate) fn content_weight(key: &[u8]) -> f64 {
    if is_blank_key(key) {
        return 0.0;
    }
    let mut words = key
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b >= 0x80))
        .filter(|w| !w.is_empty());
    match (words.next(), words.next()) {
        (None, _) => PUNCTUATION,
        (Some(w), None) if w.len() <= 6 => SHORT_WORD,
        _ => FULL,
    }
}

/// The content weight of a line that says all it can.
pub(crate) const FULL: f64 = 1.0;
/// The content weight of one short word with punctuation.
pub(crate) const SHORT_WORD: f64 = 0.5;
/// The content weight of punctuation only.
pub(crate) const PUNCTUATION: f64 = 0.25;

/// The file's lines, keyed, with where each key occurs.
pub(crate) struct FileLines<'t> {
    pub(crate) lines: Vec<Line<'t>>,
    pub(crate) keys: Vec<&'t [u8]>,
    /// Where each key occurs, ascending.
    pub(crate) places: HashMap<&'t [u8], Vec<usize>>,
}

impl<'t> FileLines<'t> {
    pub(crate) fn new(all: &[Line<'t>], keying: Keying) -> FileLines<'t> {
        let keys: Vec<&[u8]> = all.iter().map(|l| key(l.content, keying)).collect();
        let mut places: HashMap<&[u8], Vec<usize>> = HashMap::with_capacity(keys.len());
        for (i, k) in keys.iter().enumerate() {
            places.entry(k).or_default().push(i);
        }
        FileLines {
            lines: all.to_vec(),
            keys,
            places,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// How often the file holds `k` (anywhere).
    pub(crate) fn count(&self, k: &[u8]) -> usize {
        self.places.get(k).map_or(0, Vec::len)
    }

    /// Places of `k` in `lo..hi`.
    pub(crate) fn places_in(&self, k: &[u8], lo: usize, hi: usize) -> &[usize] {
        match self.places.get(k) {
            Some(v) => {
                let from = v.partition_point(|&p| p < lo);
                let to = v.partition_point(|&p| p < hi);
                &v[from..to]
            }
            None => &[],
        }
    }

    /// The weight of `k` as evidence of a place: its content weight divided by how often the file
    /// holds it (a line found once says all it can; found twenty times, a twentieth of that).
    pub(crate) fn weight(&self, k: &[u8]) -> f64 {
        let n = self.count(k).max(1);
        content_weight(k) / n as f64
    }
}
