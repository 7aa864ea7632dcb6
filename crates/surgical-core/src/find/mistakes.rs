//! What a line the model misremembered may differ by, and the evidence a misremembered region
//! needs: one word mistyped ([`typo`]) or renamed ([`renamed`]) on an otherwise identical line, and
//! the thresholds of the `typo`, `extra_line` and `missing_line` tiers. Shared by those tiers'
//! search, the near miss they report on a refusal, and the closest regions of a miss.

/// `typo`, `extra_line`, `missing_line`: how far (as a share of the needle's characters) the chosen
/// region's equal lines must lead those of any other reading of the file.
pub const MISREMEMBERED_MARGIN: f32 = 0.2;
/// `typo`, `extra_line`, `missing_line`: the equal lines must hold at least this many characters
/// (and more than half of the needle's).
pub const MISREMEMBERED_MIN_ANCHOR_CHARS: usize = 12;
/// `typo`, `extra_line`, `missing_line`: at least this many lines must be equal.
pub const MISREMEMBERED_MIN_EQUAL_LINES: usize = 2;
/// A mistyped word is at least this many characters long (in its longer version): shorter words
/// differing by a character (`x1`, `x2`; `30`, `60`) are different words, not typos.
const MIN_TYPO_WORD: usize = 4;

/// A word character (as the line-based tiers count them).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Words (runs of word characters) and single other characters.
fn tokens(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if is_word(c) {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            out.push(&line[s..i]);
        }
        out.push(&line[i..i + c.len_utf8()]);
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// `(mine, file's)`: the one word in which `mine` differs from `file`, when the lines are otherwise
/// the same and the two words differ by one character dropped, added or changed, or two adjacent
/// characters swapped (and the longer has at least [`MIN_TYPO_WORD`] characters).
pub(crate) fn typo(mine: &str, file: &str) -> Option<(String, String)> {
    if mine.len().abs_diff(file.len()) > 4 {
        return None;
    }
    let (x, y) = differing_word(mine, file)?;
    let (xs, ys): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
    if xs.len().max(ys.len()) < MIN_TYPO_WORD || !one_edit_apart(&xs, &ys) {
        return None;
    }
    Some((x.to_string(), y.to_string()))
}

/// The characters of the one word in which `mine` differs from `file`, when the lines are otherwise
/// the same (any other word in its place: a rename, a typo, another value).
pub(crate) fn renamed(mine: &str, file: &str) -> Option<usize> {
    differing_word(mine, file).map(|(x, _)| x.chars().count())
}

/// `(mine, file's)`: the one word (token of word characters) in which the lines differ, when every
/// other token is the same.
pub(crate) fn differing_word<'s>(mine: &'s str, file: &'s str) -> Option<(&'s str, &'s str)> {
    let (a, b) = (tokens(mine), tokens(file));
    if a.len() != b.len() {
        return None;
    }
    let mut differing = a.into_iter().zip(b).filter(|(x, y)| x != y);
    let (x, y) = differing.next()?;
    if differing.next().is_some() || !x.chars().all(is_word) || !y.chars().all(is_word) {
        return None;
    }
    Some((x, y))
}

/// Whether two different words are one character dropped, added, changed, or one adjacent pair
/// swapped apart.
fn one_edit_apart(a: &[char], b: &[char]) -> bool {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ra, rb) = (a.len() - prefix - suffix, b.len() - prefix - suffix);
    match (ra, rb) {
        (1, 1) | (1, 0) | (0, 1) => true,
        (2, 2) => a[prefix] == b[prefix + 1] && a[prefix + 1] == b[prefix],
        _ => false,
    }
}
