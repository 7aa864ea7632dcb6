//! The new text held as windows around the changes (`diff::Windows`, `apply_spliced`) against the
//! whole new text as the oracle: the windowed numbered diff, patch, line numbers and line count must
//! be those computed over the whole texts, and `apply_spliced` must report what `apply` does, on
//! arbitrary files (mixed terminators, lone CRs, long and missing final lines, invalid bytes) and
//! arbitrary replacements. `PROPTEST_CASES` sets the number of cases.

use proptest::prelude::*;
use surgical_core::diff::{numbered_diff, numbered_diff_cut, unified_patch, unified_patch_cut, LineCut, Windows};
use surgical_core::lines::{count_lines, LineCounter};
use surgical_core::{apply, apply_spliced, Change, Edit, Options};

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A file of lines: short contents with any terminator, now and then a long line or invalid bytes.
fn file() -> impl Strategy<Value = Vec<u8>> {
    let content = prop_oneof![
        4 => "[a-c ]{0,4}".prop_map(String::into_bytes),
        1 => Just(b"x".repeat(40)),
        1 => Just(b"\xff\xe2\x82".to_vec()),
        1 => Just("\u{e9}\u{a0}".as_bytes().to_vec()),
    ];
    let eol = prop_oneof![
        6 => Just(&b"\n"[..]),
        2 => Just(&b"\r\n"[..]),
        1 => Just(&b"\r"[..]),
    ];
    (prop::collection::vec((content, eol), 0..60), any::<bool>()).prop_map(|(lines, open)| {
        let mut out: Vec<u8> = lines.iter().flat_map(|(c, e)| [c.as_slice(), e].concat()).collect();
        if open {
            out.extend_from_slice(b"end");
        }
        out
    })
}

/// Replacement bytes: anything lines are made of, terminators included.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        "[a-z]{1,3}".prop_map(String::into_bytes),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|v| v.concat())
}

/// Non-overlapping replacements at arbitrary byte offsets of a text of `len` bytes (in file order),
/// from cut points and new bytes.
fn replacements(len: usize, cuts: &[(usize, usize)], news: &[Vec<u8>]) -> Vec<(std::ops::Range<usize>, Vec<u8>)> {
    let mut points: Vec<(usize, usize)> = cuts.iter().map(|&(a, b)| (a % (len + 1), b % 6)).collect();
    points.sort();
    let mut out: Vec<(std::ops::Range<usize>, Vec<u8>)> = Vec::new();
    let mut from = 0;
    for ((at, width), new) in points.into_iter().zip(news) {
        if at < from {
            continue;
        }
        let end = (at + width).min(len);
        if at == end && new.is_empty() {
            continue;
        }
        out.push((at..end, new.clone()));
        from = end + 1;
    }
    out
}

/// The whole new text and its changes, built directly.
fn whole(old: &[u8], reps: &[(std::ops::Range<usize>, Vec<u8>)]) -> (Vec<u8>, Vec<Change>) {
    let mut new = Vec::new();
    let mut changes = Vec::new();
    let mut cursor = 0;
    for (range, bytes) in reps {
        new.extend_from_slice(&old[cursor..range.start]);
        let at = new.len();
        new.extend_from_slice(bytes);
        changes.push(Change::new(range.clone(), at..new.len()));
        cursor = range.end;
    }
    new.extend_from_slice(&old[cursor..]);
    (new, changes)
}

/// How many characters of a numbered diff's line are its sign and number (`None` for a line that
/// is not a line of the text: `...`, `\ No newline at end of file`).
fn numbered_prefix(line: &str) -> Option<usize> {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 1;
    while i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    let digits = i;
    while i < chars.len() && chars[i].is_ascii_digit() {
        i += 1;
    }
    (i > digits && chars.get(i) == Some(&' ')).then_some(i + 1)
}

/// `cut`, a line of a rendering with lines cut (markers `[N<]` and `[>M]`), against `whole`, the
/// same line rendered whole, whose first `prefix` characters are not the text's (`None`: not a
/// line of the text). A line's terminator mark (`␍␊`, `␍`, `␊`) is not the line's.
fn check_cut_line(cut: &str, whole: &str, prefix: Option<usize>, show: usize, max_chars: usize) -> Result<(), String> {
    let Some(prefix) = prefix else {
        return if cut == whole {
            Ok(())
        } else {
            Err(format!("{cut:?} is not {whole:?}"))
        };
    };
    let strip = |l: &str| -> (String, String) {
        let l = l.trim_end_matches(['\u{240d}', '\u{240a}']);
        let head: String = l.chars().take(prefix).collect();
        (head, l.chars().skip(prefix).collect())
    };
    let ((cut_head, body), (whole_head, line)) = (strip(cut), strip(whole));
    let line: Vec<char> = line.chars().collect();
    if cut_head != whole_head {
        return Err(format!("{cut:?} and {whole:?} start differently"));
    }
    if body.chars().collect::<Vec<char>>() == line {
        return if line.len() <= max_chars {
            Ok(())
        } else {
            Err(format!("{whole:?} is not cut"))
        };
    }
    let (left, rest) = match body.strip_prefix('[').and_then(|r| r.split_once("<]")) {
        Some((n, rest)) => (n.parse::<usize>().map_err(|e| format!("{cut:?}: {e}"))?, rest),
        None => (0, body.as_str()),
    };
    let (stretch, right) = match rest.strip_suffix(']').and_then(|r| r.rsplit_once("[>")) {
        Some((stretch, m)) => (stretch, m.parse::<usize>().map_err(|e| format!("{cut:?}: {e}"))?),
        None => (rest, 0),
    };
    let stretch: Vec<char> = stretch.chars().collect();
    if left == 0 && right == 0 {
        return Err(format!("{cut:?} differs from {whole:?} without a marker"));
    }
    if line.len() <= max_chars || stretch.len() != show.min(line.len()) {
        return Err(format!(
            "{cut:?}: a stretch of {} characters of a line of {}",
            stretch.len(),
            line.len()
        ));
    }
    if left + stretch.len() + right != line.len() || line[left..left + stretch.len()] != stretch[..] {
        return Err(format!("{cut:?} is not a stretch of {whole:?}"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), ..ProptestConfig::default() })]

    #[test]
    fn windowed_diffs_and_lines_are_the_whole_texts(
        old in file(),
        cuts in prop::collection::vec((any::<usize>(), any::<usize>()), 0..6),
        news in prop::collection::vec(bytes(), 6),
    ) {
        let reps = replacements(old.len(), &cuts, &news);
        let (new, changes) = whole(&old, &reps);
        let windows = Windows::new(&old, reps.iter().map(|(r, b)| (r.clone(), b.as_slice())));
        prop_assert_eq!(windows.numbered_diff(), numbered_diff(&old, &new, &changes));
        prop_assert_eq!(windows.new_line_count(), count_lines(&new));
        for prefix in [&b""[..], &b"\xEF\xBB\xBF"[..]] {
            let shifted: Vec<Change> = changes
                .iter()
                .map(|c| Change::new(c.old.start + prefix.len()..c.old.end + prefix.len(), c.new.start + prefix.len()..c.new.end + prefix.len()))
                .collect();
            let want = unified_patch(&[prefix, &old].concat(), &[prefix, &new].concat(), &shifted, "f");
            prop_assert_eq!(windows.unified_patch(prefix, "f"), want);
        }
        // Lines cut around their changes: the same window by window as over the whole texts.
        let before = |n: usize| format!("[{n}<]");
        let after = |n: usize| format!("[>{n}]");
        for max_chars in [3, 12, 30, 10_000] {
            let cut = LineCut { max_chars, before: &before, after: &after };
            prop_assert_eq!(windows.numbered_diff_cut(&cut), numbered_diff_cut(&old, &new, &changes, &cut));
            prop_assert_eq!(windows.unified_patch_cut(b"", "f", &cut), unified_patch_cut(&old, &new, &changes, "f", &cut));
        }
        let positions: Vec<usize> = changes
            .iter()
            .flat_map(|c| [c.new.start, c.new.end.saturating_sub(1).max(c.new.start)])
            .collect();
        let mut counter = LineCounter::new(&new);
        let want: Vec<usize> = positions.iter().map(|&p| counter.line_at(p)).collect();
        prop_assert_eq!(windows.new_lines_at(positions), want);
    }

    /// What a cut line shows is the line on disk: against the rendering without cuts, each line
    /// is the same, or its markers' counts and the stretch between them are the characters of
    /// that line left out before, shown, and left out after (no character added, lost or moved),
    /// and the stretch is as long as the cut allows. Valid UTF-8 without invisible characters, so
    /// that a changed line's rendering has a character for each of the line's.
    #[test]
    fn a_cut_line_shows_the_line_on_disk(
        old in file(),
        cuts in prop::collection::vec((any::<usize>(), any::<usize>()), 0..6),
        news in prop::collection::vec(bytes(), 6),
    ) {
        let old = String::from_utf8_lossy(&old).replace(['\u{a0}', '\u{fffd}'], "_").into_bytes();
        let reps = replacements(old.len(), &cuts, &news);
        let (new, changes) = whole(&old, &reps);
        // A replacement may start or end inside a character: such a text has invalid bytes.
        prop_assume!(std::str::from_utf8(&new).is_ok());
        let before = |n: usize| format!("[{n}<]");
        let after = |n: usize| format!("[>{n}]");
        for max_chars in [3, 12, 30, 10_000] {
            let cut = LineCut { max_chars, before: &before, after: &after };
            let show = max_chars.saturating_sub(LineCut::SHOWN).max(1);
            let (shown, whole_diff) = (numbered_diff_cut(&old, &new, &changes, &cut).text, numbered_diff(&old, &new, &changes).text);
            prop_assert_eq!(shown.split('\n').count(), whole_diff.split('\n').count());
            for (c, w) in shown.split('\n').zip(whole_diff.split('\n')) {
                check_cut_line(c, w, numbered_prefix(w), show, max_chars).map_err(TestCaseError::fail)?;
            }
            let (shown, was_cut) = unified_patch_cut(&old, &new, &changes, "f", &cut);
            let whole_patch = unified_patch(&old, &new, &changes, "f");
            prop_assert_eq!(was_cut, shown != whole_patch);
            prop_assert_eq!(shown.split('\n').count(), whole_patch.split('\n').count());
            // Split at `\n` only: a lone CR is a character of a patch's line.
            for (i, (c, w)) in shown.split('\n').zip(whole_patch.split('\n')).enumerate() {
                let content = i >= 2 && !w.starts_with("@@") && !w.starts_with('\\');
                check_cut_line(c, w, content.then_some(1), show, max_chars).map_err(TestCaseError::fail)?;
            }
        }
    }

    #[test]
    fn apply_spliced_reports_what_apply_does(
        old in file(),
        picks in prop::collection::vec((any::<usize>(), 1usize..12, bytes()), 1..4),
    ) {
        // oldText: stretches of the file itself (where valid UTF-8), newText: arbitrary.
        let edits: Vec<Edit> = picks
            .iter()
            .filter_map(|(at, len, new)| {
                let at = at % (old.len() + 1);
                let end = (at + len).min(old.len());
                let old_text = std::str::from_utf8(&old[at..end]).ok()?;
                Some(Edit::new(old_text, String::from_utf8_lossy(new)))
            })
            .collect();
        let whole = apply(&old, &edits, &Options::new());
        let spliced = apply_spliced(&old, &edits, &Options::new());
        match (whole, spliced) {
            (Ok(whole), Ok(spliced)) => {
                prop_assert_eq!(&spliced.edits, &whole.edits);
                // The same result, from the whole text (as `apply_snippet`'s tool gets it).
                prop_assert_eq!(&whole.clone().into_spliced(), &spliced);
                prop_assert_eq!(spliced.text(&old), whole.text.clone());
                prop_assert_eq!(spliced.new_len(), whole.text.len());
                let mut sorted = spliced.changes().to_vec();
                sorted.sort_by_key(|c| c.old.start);
                prop_assert_eq!(sorted, whole.changes());
                let windows = spliced.windows(&old);
                prop_assert_eq!(windows.numbered_diff(), numbered_diff(&old, &whole.text, spliced.changes()));
            }
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "apply: {:?}\napply_spliced: {:?}", a.map(|a| a.edits), b.map(|b| b.edits)),
        }
    }
}

#[test]
fn windows_of_distant_changes_hold_only_their_neighbourhood() {
    let old: Vec<u8> = (0..10_000).flat_map(|i| format!("line {i}\n").into_bytes()).collect();
    let at = |i: usize| {
        old.windows(format!("\nline {i}\n").len())
            .position(|w| w == format!("\nline {i}\n").as_bytes())
            .unwrap()
            + 1
    };
    let reps = [
        (at(10)..at(10) + 4, &b"LINE"[..]),
        (at(5_000)..at(5_000), &b"new\r\n"[..]),
    ];
    let windows = Windows::new(&old, reps.iter().cloned());
    let (new, changes) = whole(
        &old,
        &reps.iter().map(|(r, b)| (r.clone(), b.to_vec())).collect::<Vec<_>>(),
    );
    let diff = windows.numbered_diff();
    assert_eq!(diff, numbered_diff(&old, &new, &changes));
    assert!(diff.text.contains("-  11 line 10\n+  11 LINE 10\n"), "{}", diff.text);
    assert!(diff.text.contains("+5001 new"), "{}", diff.text);
    assert_eq!(diff.first_changed_line, Some(11));
    assert_eq!(windows.new_line_count(), 10_001);
    assert_eq!(
        windows.unified_patch(b"", "f"),
        unified_patch(&old, &new, &changes, "f")
    );
}

/// A change far into a long line is shown cut around it, and the cut says how many characters were
/// left out on each side: what is shown, with those counts, is the line on disk.
#[test]
fn a_change_inside_a_long_line_is_shown_cut_around_it() {
    let long: String = (0..20_000).map(|i| format!("v{i}=\u{e9};")).collect();
    let old = format!("first\n{long}\nlast\n").into_bytes();
    let at = old.windows(8).position(|w| w == b"v12345=\xc3").unwrap();
    let reps = [(at + 7..at + 9, &b"2"[..])];
    let windows = Windows::new(&old, reps.iter().cloned());
    let before = |n: usize| format!("[{n} before]");
    let after = |n: usize| format!("[{n} after]");
    let cut = LineCut {
        max_chars: 400,
        before: &before,
        after: &after,
    };
    let diff = windows.numbered_diff_cut(&cut);
    let lines: Vec<&str> = diff.text.lines().collect();
    assert_eq!(lines[0], " 1 first", "{}", diff.text);
    let line_chars = long.chars().count();
    for (line, sign, changed) in [(lines[1], "-2 ", "v12345=\u{e9};"), (lines[2], "+2 ", "v12345=2;")] {
        let rest = line.strip_prefix(sign).unwrap();
        let (left, rest) = rest.split_once(" before]").unwrap();
        let (shown, right) = rest.rsplit_once('[').unwrap();
        let left: usize = left.trim_start_matches('[').parse().unwrap();
        let right: usize = right.trim_end_matches(" after]").parse().unwrap();
        assert!(shown.contains(changed), "{line}");
        assert!(shown.chars().count() <= 400 - LineCut::SHOWN);
        let whole: String = if sign == "-2 " {
            long.clone()
        } else {
            long.replace("v12345=\u{e9};", "v12345=2;")
        };
        let chars: Vec<char> = whole.chars().collect();
        assert_eq!(left + shown.chars().count() + right, chars.len());
        assert_eq!(
            chars[left..left + shown.chars().count()].iter().collect::<String>(),
            shown
        );
    }
    assert!(line_chars > 400);
    assert_eq!(lines[3], " 3 last");
    let (patch, was_cut) = windows.unified_patch_cut(b"", "f", &cut);
    assert!(was_cut);
    assert!(patch.contains("+[") && patch.contains("v12345=2;"), "{patch}");
    // Unchanged lines are shown from their start; short lines whole and the patch whole.
    let short = Windows::new(b"a\nb\n", [(2..3, &b"c"[..])]);
    assert_eq!(
        short.unified_patch_cut(b"", "f", &cut),
        (short.unified_patch(b"", "f"), false)
    );
}

/// A file for the search by pieces: lines with what the text tiers fold (trailing blanks, NBSP,
/// typographic quotes and dashes, composed and decomposed accents, CRs, invalid bytes).
fn folded_file() -> impl Strategy<Value = Vec<u8>> {
    let content = prop_oneof![
        4 => "[ab ]{0,4}".prop_map(String::into_bytes),
        1 => Just("a\u{a0}b".as_bytes().to_vec()),
        1 => Just("\u{201c}a\u{201d} \u{2014} b".as_bytes().to_vec()),
        1 => Just("e\u{301}\u{e9}".as_bytes().to_vec()),
        1 => Just("\u{fb01}".as_bytes().to_vec()),
        1 => Just(b"\xff".to_vec()),
        1 => Just(b"a \t ".to_vec()),
    ];
    let eol = prop_oneof![
        6 => Just(&b"\n"[..]),
        2 => Just(&b"\r\n"[..]),
        1 => Just(&b"\r"[..]),
    ];
    prop::collection::vec((content, eol), 0..40)
        .prop_map(|lines| lines.iter().flat_map(|(c, e)| [c.as_slice(), e].concat()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), ..ProptestConfig::default() })]

    /// A large text is searched in pieces: whatever their size, the edits land where the search of the
    /// whole normalized view puts them, and the errors are the same.
    #[test]
    fn a_search_by_pieces_finds_what_the_whole_view_does(
        old in folded_file(),
        picks in prop::collection::vec((any::<usize>(), 1usize..16, any::<bool>()), 1..3),
        chunk in 1usize..48,
    ) {
        let edits: Vec<Edit> = picks
            .iter()
            .filter_map(|&(at, len, loosen)| {
                let at = at % (old.len() + 1);
                let end = (at + len).min(old.len());
                let text = std::str::from_utf8(&old[at..end]).ok()?;
                // What a model writes: ASCII quotes and dashes, plain spaces, no CRs, no trailing blanks.
                let text = if loosen {
                    text.replace(['\u{201c}', '\u{201d}'], "\"")
                        .replace('\u{2014}', "-")
                        .replace('\u{a0}', " ")
                        .replace('\r', "")
                        .replace(" \n", "\n")
                } else {
                    text.to_string()
                };
                Some(Edit::new(text, "X\n"))
            })
            .collect();
        let whole = apply_spliced(&old, &edits, &Options::new());
        let before = surgical_core::set_search_chunk(chunk);
        let pieces = apply_spliced(&old, &edits, &Options::new());
        surgical_core::set_search_chunk(before);
        prop_assert_eq!(pieces, whole);
    }
}
