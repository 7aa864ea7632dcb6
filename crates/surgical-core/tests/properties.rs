//! The byte-faithfulness properties, over arbitrary content.
//!
//! Files are built from a planted target (the text a model means, rendered with what a model cannot
//! see or gets wrong: CRLF/CR/LF, trailing blanks, no-break spaces, typographic quotes and dashes,
//! NFKC forms) inside arbitrary surroundings (random bytes, invalid UTF-8, BOMs, multi-byte text)
//! that cannot contain the needle. Whatever the engine does, it must never change a byte outside the
//! target, a line the model left alone must come back byte for byte, and the patch must reproduce
//! the result. Set PROPTEST_CASES for longer runs (see docs/testing.md).

mod common;
use common::*;
use proptest::prelude::*;
use surgical_core::{apply, Applied, ChangeSet, Edit, EditError, Haystack, Miss, Needle, Options, Scope, Tier};

/// Surroundings: no ASCII letters, so the needle (which has letters) cannot occur there.
fn surroundings() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"  ".to_vec()),
        Just(b"\t".to_vec()),
        Just(b"123 = {};".to_vec()),
        Just("\u{a0}".as_bytes().to_vec()),
        Just("\u{e9}\u{4e2d}\u{1f600}".as_bytes().to_vec()),
        Just("\u{2014}\u{201c}".as_bytes().to_vec()),
        Just(b"\xff\xfe".to_vec()),
        Just(b"\xe2\x82".to_vec()),
        Just(b"\xef\xbb\xbf".to_vec()),
        Just("\u{301}".as_bytes().to_vec()),
        prop::collection::vec(
            any::<u8>().prop_filter("no letters", |b| !b.is_ascii_alphabetic()),
            0..6
        ),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

/// A target line as the model writes it: words of letters and ASCII punctuation.
fn model_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        "[a-z]{1,6}",
        Just("\"q\"".to_string()),
        Just("'s'".to_string()),
        Just("a-b".to_string()),
        Just("x = 1;".to_string()),
        Just("fi".to_string()),
    ];
    prop::collection::vec(word, 1..5).prop_map(|w| format!("k{}z", w.join(" ")))
}

/// How the file renders one model line: each visible ASCII character may become a look-alike, and
/// the line may get trailing blanks and any terminator.
#[derive(Debug, Clone)]
struct Render {
    swaps: Vec<bool>,
    trailing: &'static str,
    eol: &'static str,
}

fn render() -> impl Strategy<Value = Render> {
    (
        prop::collection::vec(prop::bool::weighted(0.15), 64),
        prop::sample::select(vec!["", "", " ", "  \t", "\u{a0}"]),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
    )
        .prop_map(|(swaps, trailing, eol)| Render { swaps, trailing, eol })
}

fn look_alike(c: char) -> Option<&'static str> {
    Some(match c {
        '"' => "\u{201C}",
        '\'' => "\u{2019}",
        '-' => "\u{2014}",
        ' ' => "\u{a0}",
        'A'..='Z' => return None,
        'a' => "\u{FF41}", // full-width a (NFKC folds it)
        _ => return None,
    })
}

fn render_line(line: &str, r: &Render) -> String {
    let mut out = String::new();
    for (k, c) in line.chars().enumerate() {
        match look_alike(c) {
            Some(alt) if r.swaps[k % r.swaps.len()] && k > 0 => out.push_str(alt),
            _ => out.push(c),
        }
    }
    out.push_str(r.trailing);
    out
}

#[derive(Debug, Clone)]
struct Case {
    prefix: Vec<u8>,
    lines: Vec<String>,
    renders: Vec<Render>,
    suffix: Vec<u8>,
    /// Which line the model changes, and into what.
    changed: usize,
    replacement: String,
}

fn case() -> impl Strategy<Value = Case> {
    (
        surroundings(),
        prop::collection::vec((model_line(), render()), 1..5),
        surroundings(),
        any::<prop::sample::Index>(),
        model_line(),
    )
        .prop_map(|(prefix, lines, suffix, idx, replacement)| {
            let changed = idx.index(lines.len());
            let (lines, renders) = lines.into_iter().unzip();
            Case {
                prefix,
                lines,
                renders,
                suffix,
                changed,
                replacement,
            }
        })
}

impl Case {
    /// File bytes, and the byte range of each rendered line (content + trailing + terminator).
    fn file(&self) -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
        let mut f = self.prefix.clone();
        // The target starts on a fresh line so the prefix cannot glue onto it.
        f.extend_from_slice(b"\n");
        let mut ranges = Vec::new();
        for (line, r) in self.lines.iter().zip(&self.renders) {
            let start = f.len();
            f.extend_from_slice(render_line(line, r).as_bytes());
            f.extend_from_slice(r.eol.as_bytes());
            ranges.push(start..f.len());
        }
        f.extend_from_slice(&self.suffix);
        (f, ranges)
    }

    fn old_text(&self) -> String {
        self.lines.join("\n")
    }

    fn new_text(&self) -> String {
        let mut lines = self.lines.clone();
        lines[self.changed] = self.replacement.clone();
        lines.join("\n")
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// One fuzzy edit: nothing outside the target changes, and the target's lines the model did not
    /// change come back byte for byte (their look-alikes, trailing blanks and terminators included).
    #[test]
    fn fuzzy_edit_is_byte_faithful(c in case()) {
        fuzzy_edit_holds(&c)?;
    }

    /// Arbitrary bytes and arbitrary (ASCII) edits: where the exact tier decides, the result is the
    /// reference model's plain replacement; whatever happens, the patch reproduces the result
    /// (checked inside apply_checked).
    #[test]
    fn arbitrary_bytes_and_edits(file in prop::collection::vec(prop_oneof![any::<u8>(), Just(b'a'), Just(b'\n'), Just(b'\r'), Just(b' ')], 0..200),
                                 old in "[a \n]{1,4}", new in "[ab \n]{0,4}", all in any::<bool>()) {
        exact_edit_holds(&file, &old, &new, all)?;
    }

    /// Several edits in one call, each planted once: the result is each edit made alone on its own
    /// part of the file (itself checked against the file's own lines by `fuzzy_edit_holds`), put
    /// together; none reaches into another's part.
    #[test]
    fn many_edits_are_independent(cases in prop::collection::vec(case(), 1..4)) {
        let mut file = Vec::new();
        let mut edits = Vec::new();
        let mut alone = Vec::new();
        for (k, c) in cases.iter().enumerate() {
            // Make each needle unique with a numbered marker line right after it.
            let mut c = c.clone();
            c.lines.push(format!("mark{k}x"));
            c.renders.push(Render { swaps: vec![false], trailing: "", eol: "\n" });
            fuzzy_edit_holds(&c)?;
            let part = c.file().0;
            let edit = Edit::new(c.old_text(), c.new_text());
            alone.push(apply(&part, std::slice::from_ref(&edit), &Options::new()).map(|a| a.text));
            file.extend_from_slice(&part);
            edits.push(edit);
        }
        // The order of the edits in the call does not matter (found by mutation testing: a span
        // checked against the spans after it, which only edits out of file order have).
        let mut reversed = edits.clone();
        reversed.reverse();
        let backwards = apply(&file, &reversed, &Options::new()).map(|a| a.text);
        match apply_checked(&file, &edits, &Options::new()) {
            Ok(a) => {
                prop_assert_eq!(backwards.as_ref().ok(), Some(&a.text), "in reverse order: {:?}", backwards);
                let mut want = Vec::new();
                for part in &alone {
                    prop_assert!(part.is_ok(), "alone: {:?}", part);
                    want.extend_from_slice(part.as_ref().unwrap());
                }
                prop_assert_eq!(String::from_utf8_lossy(&a.text), String::from_utf8_lossy(&want));
            }
            Err(e) => prop_assert!(matches!(e.code(), "no_change" | "ambiguous"), "{}", e),
        }
    }
}

/// Start of every occurrence of `needle` in `text`, overlapping ones included.
fn occurrences(text: &[u8], needle: &[u8]) -> Vec<usize> {
    (0..text.len().saturating_sub(needle.len() - 1))
        .filter(|&k| text[k..].starts_with(needle))
        .collect()
}

/// `text` with each line's trailing blanks left out and every terminator as `\n`.
fn without_invisibles(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < text.len() {
        let eol = text[k..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(text.len(), |e| k + e);
        let line = &text[k..eol];
        let kept = line.len() - line.iter().rev().take_while(|&&b| b == b' ' || b == b'\t').count();
        out.extend_from_slice(&line[..kept]);
        if eol < text.len() {
            out.push(b'\n');
        }
        k = if text[eol..].starts_with(b"\r\n") {
            eol + 2
        } else {
            eol + 1
        };
    }
    out
}

/// [`arbitrary_bytes_and_edits`] for one case, against a reference model of the exact tier: where
/// `old` occurs in the file as written (and line breaks need no choosing: the file has no carriage
/// return, or neither text has a line break; no blanks end its line after it; `old` has no blank
/// and is as unique with invisible differences ignored), the exact tier decides. One occurrence (or, with
/// `replace_all`, several that do not overlap) is replaced by `new`, and nothing else changes; several
/// without `replace_all` are `ambiguous`; else `old == new` is `no_change`.
fn exact_edit_holds(file: &[u8], old: &str, new: &str, all: bool) -> Result<(), TestCaseError> {
    let result = apply_checked(file, &[Edit::new(old, new).replace_all(all)], &Options::new());
    let at = occurrences(file, old.as_bytes());
    let plain_breaks = !file.contains(&b'\r') || !(old.contains('\n') || new.contains('\n'));
    let disjoint = at.windows(2).all(|w| w[1] >= w[0] + old.len());
    // A match ending where only blanks are left on its line takes them along (the line stays whole,
    // and its trailing blanks are decided with it: `trailing_blanks_after_a_match_are_decided_once`).
    let before_blanks = |k: usize| {
        let rest = &file[k + old.len()..];
        let blanks = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        blanks > 0 && matches!(rest.get(blanks), None | Some(b'\n' | b'\r'))
    };
    // So does one whose first line is blank, after blanks ending the line it starts on (its first
    // line stands for that line's end: `blanks_before_a_needle_starting_with_a_blank_line_are_decided_once`).
    let after_blanks = |k: usize| {
        let first_blank = old.split_once('\n').is_some_and(|(f, _)| f.bytes().all(|b| b == b'\t'));
        first_blank && matches!(file[..k].last(), Some(b' ' | b'\t'))
    };
    // What the model cannot see never decides: `old` must be as unique with every line's trailing
    // blanks and terminator ignored (the invisible check), which this model counts for an `old`
    // without blanks.
    let visible = occurrences(&without_invisibles(file), old.as_bytes()).len() == at.len();
    if at.is_empty()
        || !plain_breaks
        || !disjoint
        || at.iter().any(|&k| before_blanks(k) || after_blanks(k))
        || old.contains(' ')
        || !visible
    {
        return Ok(());
    }
    match result {
        Err(e) if at.len() > 1 && !all => prop_assert_eq!(e.code(), "ambiguous"),
        Err(e) if old == new => prop_assert_eq!(e.code(), "no_change"),
        Ok(a) if at.len() == 1 || all => {
            let mut want = Vec::new();
            let mut cursor = 0;
            for &k in &at {
                want.extend_from_slice(&file[cursor..k]);
                want.extend_from_slice(new.as_bytes());
                cursor = k + old.len();
            }
            want.extend_from_slice(&file[cursor..]);
            prop_assert_eq!(String::from_utf8_lossy(&a.text), String::from_utf8_lossy(&want));
            prop_assert_eq!(a.text, want);
        }
        other => prop_assert!(
            false,
            "{} occurrence(s), all: {all}: {:?}",
            at.len(),
            other.map(|a| a.text)
        ),
    }
    Ok(())
}

/// [`fuzzy_edit_is_byte_faithful`] for one case.
fn fuzzy_edit_holds(c: &Case) -> Result<(), TestCaseError> {
    let (file, ranges) = c.file();
    let result = apply_checked(&file, &[Edit::new(c.old_text(), c.new_text())], &Options::new());
    let applied = match result {
        Ok(a) => a,
        Err(e) => {
            // The needle is planted once; the only acceptable refusal is "no change".
            prop_assert_eq!(e.code(), "no_change", "{}", e);
            prop_assert_eq!(&c.lines[c.changed], &c.replacement);
            return Ok(());
        }
    };
    let out = &applied.text;
    let changed = &ranges[c.changed];
    // Everything before the changed line, and everything after it, is the original.
    prop_assert_eq!(&out[..changed.start], &file[..changed.start]);
    let tail = file.len() - changed.end;
    prop_assert_eq!(&out[out.len() - tail..], &file[changed.end..]);
    // The changed line keeps its terminator, unless it was the last of the needle (whose
    // terminator lies outside the match and so is kept anyway).
    let eol = c.renders[c.changed].eol.as_bytes();
    prop_assert!(out[..out.len() - tail].ends_with(eol));
    Ok(())
}

/// The stages by hand, one `find` per edit: what `apply` must equal.
fn staged(text: &[u8], edits: &[Edit], options: &Options) -> Result<Applied, String> {
    let hay = Haystack::new(text);
    let mut found = Vec::new();
    for e in edits {
        let needle = Needle::new(&e.old_text).every(e.replace_all);
        match hay.find_all(&[needle], options.scope(), options.get_loosest_tier()) {
            Ok(mut m) => found.push(m.pop().unwrap()),
            Err(missed) => {
                return Err(match missed.miss {
                    Miss::NotFound { .. } => "not_found".to_string(),
                    Miss::Ambiguous { .. } => "ambiguous".to_string(),
                    _ => unreachable!(),
                })
            }
        }
    }
    let mut changes = ChangeSet::new(&hay);
    for (m, e) in found.iter().zip(edits) {
        changes.replace(m, &e.new_text).map_err(|e| e.code().to_string())?;
    }
    changes.apply().map_err(|e| e.code().to_string())
}

/// `apply` and the stages agree: the same text and report, or the same kind of refusal. (With
/// several edits, `apply` reports the first failure in tier order and `staged` the first in edit
/// order, so only single edits compare refusals exactly.)
fn agrees(text: &[u8], edits: &[Edit], options: &Options) -> Result<(), TestCaseError> {
    let whole = apply(text, edits, options);
    let parts = staged(text, edits, options);
    match (&whole, &parts) {
        (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
        (Err(e), Err(code)) if edits.len() == 1 => prop_assert_eq!(e.code(), code.as_str()),
        (Err(EditError::EmptyOldText { .. }), _) | (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "apply {:?} but the stages {:?}", whole, parts),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Find-then-apply is `apply`, on arbitrary bytes, with or without whole lines.
    #[test]
    fn find_then_apply_is_apply(file in prop::collection::vec(prop_oneof![any::<u8>(), Just(b'a'), Just(b'\n'), Just(b'\r'), Just(b' ')], 0..200),
                                old in "[a \n]{1,4}", new in "[ab \n]{0,4}", all in any::<bool>(), whole in any::<bool>()) {
        let options = Options::new().whole_lines(whole);
        agrees(&file, &[Edit::new(old, new).replace_all(all)], &options)?;
    }

    /// The same on the fuzzy cases (every text tier), one edit and several.
    #[test]
    fn fuzzy_find_then_apply_is_apply(cases in prop::collection::vec(case(), 1..3)) {
        let mut file = Vec::new();
        let mut edits = Vec::new();
        for c in &cases {
            file.extend_from_slice(&c.file().0);
            edits.push(Edit::new(c.old_text(), c.new_text()));
        }
        agrees(&file, &edits[..1], &Options::new())?;
        agrees(&file, &edits, &Options::new())?;
        agrees(&file, &edits[..1], &Options::new().loosest_tier(Tier::Exact))?;
    }

    /// Whole lines: a match covers whole lines (its start and end are line boundaries, or its first line
    /// holds only blanks before it), and nothing outside it changes.
    #[test]
    fn whole_lines_match_whole_lines(file in prop::collection::vec(prop_oneof![Just(b'a'), Just(b'\n'), Just(b'\r'), Just(b' '), Just(b'\t')], 0..120),
                                     old in "[a \n]{1,5}") {
        let hay = Haystack::new(&file);
        if let Ok(m) = hay.find(&old, &Scope::everywhere().whole_lines(), Tier::Unicode) {
            let index = hay.lines();
            for span in &m.spans {
                let line = index.line_of(span.start);
                prop_assert_eq!(index.start(line), span.start, "{:?}", span);
                let end_line = index.line_of(span.end.saturating_sub(1).max(span.start));
                let content_end = index.start(end_line) + index.line(&file, end_line).content.len();
                prop_assert!(span.end == content_end || span.end == index.start(end_line + 1), "{:?}", span);
            }
        }
    }
}

/// Edits whose spans touch (one ends where the next starts) do not overlap, in either order; spans
/// that share a byte do (found by mutation testing: the overlap test's bounds).
#[test]
fn touching_spans_are_not_an_overlap() {
    for edits in [[("ab", "AB"), ("cd", "CD")], [("cd", "CD"), ("ab", "AB")]] {
        let edits: Vec<Edit> = edits.iter().map(|(o, n)| Edit::new(*o, *n)).collect();
        assert_eq!(apply(b"abcd\n", &edits, &Options::new()).unwrap().text, b"ABCD\n");
    }
    for edits in [[("abc", "X"), ("cd", "Y")], [("cd", "Y"), ("abc", "X")]] {
        let edits: Vec<Edit> = edits.iter().map(|(o, n)| Edit::new(*o, *n)).collect();
        let err = apply(b"abcd\n", &edits, &Options::new()).unwrap_err();
        assert_eq!(err.code(), "overlap", "{err}");
    }
}

/// A line break written where the match holds none (its line ends after it) takes the terminator
/// that ends that line in the file (found by mutation testing: `LocalEol::at` returning nothing).
#[test]
fn a_line_break_written_inside_a_line_takes_that_lines_terminator() {
    for eol in ["\n", "\r\n", "\r"] {
        let file = format!("first{eol}second{eol}");
        let got = apply(file.as_bytes(), &[Edit::new("first", "first\nadded")], &Options::new()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&got.text),
            format!("first{eol}added{eol}second{eol}")
        );
    }
}

#[test]
fn utf8_bom_is_just_bytes_to_the_core() {
    // The file layer strips the BOM; even if it reaches the core, it is never touched.
    let a = apply(b"\xef\xbb\xbfa\nb\n", &[Edit::new("b", "c")], &Options::new()).unwrap();
    assert_eq!(a.text, b"\xef\xbb\xbfa\nc\n");
}

/// A block of code lines as the file holds it (indented with tabs or spaces, at some depth) and as
/// the model wrote it (four spaces per level, no extra depth).
#[derive(Debug, Clone)]
struct LooseCase {
    pre: Vec<u8>,
    /// Indentation level and text of each line.
    lines: Vec<(usize, String)>,
    tabs: bool,
    width: usize,
    shift: usize,
    post: Vec<u8>,
    crlf: bool,
    changed: usize,
}

fn loose_case() -> impl Strategy<Value = LooseCase> {
    (
        surroundings(),
        prop::collection::vec((0usize..3, "[a-z]{1,5}( [a-z]{1,5}){0,2}"), 2..6),
        any::<bool>(),
        prop::sample::select(vec![2usize, 4, 8]),
        0usize..3,
        surroundings(),
        any::<bool>(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(pre, lines, tabs, width, shift, post, crlf, idx)| {
            let changed = idx.index(lines.len());
            LooseCase {
                pre,
                lines,
                tabs,
                width,
                shift,
                post,
                crlf,
                changed,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The line-based tiers: nothing outside the block changes, and the block's lines the model did
    /// not change come back byte for byte.
    #[test]
    fn loose_tiers_are_byte_faithful(case in loose_case()) {
        loose_edit_holds(case)?;
    }
}

/// [`loose_tiers_are_byte_faithful`] for one case.
fn loose_edit_holds(case: LooseCase) -> Result<(), TestCaseError> {
    let LooseCase {
        pre,
        lines,
        tabs,
        width,
        shift,
        post,
        crlf,
        changed,
    } = case;
    let eol = if crlf { "\r\n" } else { "\n" };
    let render_file = |level: usize| {
        if tabs {
            "\t".repeat(level + shift)
        } else {
            " ".repeat(width * (level + shift))
        }
    };
    let mut file = pre.clone();
    file.extend_from_slice(b"\n");
    let block_start = file.len();
    let mut line_ranges = Vec::new();
    for (i, (level, text)) in lines.iter().enumerate() {
        let start = file.len();
        // Distinct lines: a numbered suffix keeps the block from matching itself elsewhere.
        file.extend_from_slice(format!("{}{text} n{i}{eol}", render_file(*level)).as_bytes());
        line_ranges.push(start..file.len());
    }
    let block_end = file.len();
    file.extend_from_slice(&post);
    let model = |level: usize, text: &str, i: usize| format!("{}{text} n{i}", "    ".repeat(level));
    let old: Vec<String> = lines.iter().enumerate().map(|(i, (l, t))| model(*l, t, i)).collect();
    let mut new = old.clone();
    new[changed] = format!("{}changed line", "    ".repeat(lines[changed].0));
    let result = apply(
        &file,
        &[Edit::new(old.join("\n") + "\n", new.join("\n") + "\n")],
        &Options::new(),
    );
    let a = match result {
        Ok(a) => a,
        Err(e) => {
            // Refusing is allowed (e.g. the block's lines repeat); placing wrongly is not.
            prop_assert!(matches!(e.code(), "not_found" | "ambiguous"), "{}", e);
            return Ok(());
        }
    };
    if std::env::var_os("SURGICAL_TIER_STATS").is_some() {
        eprintln!("tier {}", a.edits[0].tier.name());
    }
    let out = &a.text;
    prop_assert_eq!(&out[..block_start], &file[..block_start]);
    let tail = file.len() - block_end;
    prop_assert_eq!(&out[out.len() - tail..], &file[block_end..]);
    // Unchanged lines of the block are the file's bytes, in order. (How the changed line is written,
    // re-indented or as given, depends on the tier: oracle.rs checks it against its model, tier by
    // tier, without asking the engine which tier it took.)
    let mut at = block_start;
    for (i, r) in line_ranges.iter().enumerate() {
        if i == changed {
            let nl = out[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
            let written = String::from_utf8_lossy(&out[at..at + nl]);
            prop_assert!(written.ends_with(&format!("changed line{eol}")), "{:?}", written);
            at += nl;
            continue;
        }
        prop_assert_eq!(&out[at..at + r.len()], &file[r.clone()], "line {}", i);
        at += r.len();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Past every work budget (each diff coarse, see issue 12), a fuzzy edit is as byte faithful:
    /// the coarser alignment keeps fewer of the file's characters, never writes wrong ones.
    #[test]
    fn fuzzy_edit_is_byte_faithful_past_budget(c in case()) {
        surgical_core::with_work_budget(0, || fuzzy_edit_holds(&c))?;
    }

    /// The same for the line-based tiers.
    #[test]
    fn loose_tiers_are_byte_faithful_past_budget(case in loose_case()) {
        surgical_core::with_work_budget(0, || loose_edit_holds(case))?;
    }

    /// And for arbitrary bytes and edits (the exact tier's result is the model's, the patch still
    /// reproduces the result).
    #[test]
    fn arbitrary_bytes_and_edits_past_budget(file in prop::collection::vec(prop_oneof![any::<u8>(), Just(b'a'), Just(b'\n'), Just(b'\r'), Just(b' ')], 0..200),
                                             old in "[a \n]{1,4}", new in "[ab \n]{0,4}", all in any::<bool>()) {
        surgical_core::with_work_budget(0, || exact_edit_holds(&file, &old, &new, all))?;
    }
}

/// One token of a code line: a word, or a punctuation character.
#[derive(Debug, Clone)]
enum Token {
    Word(String),
    Punct(char),
}

/// A line of tokens with, for each gap between two tokens, the file's spacing and the model's.
#[derive(Debug, Clone)]
struct SpacedLine {
    tokens: Vec<Token>,
    /// Per gap (tokens.len() - 1): the file's blanks there.
    file_gaps: Vec<String>,
    /// Per gap: whether the model writes a space where punctuation allows leaving it out.
    model_spaced: Vec<bool>,
    file_indent: String,
}

fn spaced_line() -> impl Strategy<Value = SpacedLine> {
    let token = prop_oneof![
        3 => "[a-z]{1,4}".prop_map(Token::Word),
        2 => prop::sample::select(vec!['(', ')', ',', ';', '=', '+', '[', ']']).prop_map(Token::Punct),
    ];
    (
        prop::collection::vec(token, 2..7),
        prop::collection::vec(
            (
                prop::sample::select(vec!["", " ", "  ", "   ", "\t", " \t"]),
                any::<bool>(),
            ),
            6,
        ),
        prop::sample::select(vec!["", "  ", "    ", "\t", "\t\t"]),
    )
        .prop_map(|(tokens, gaps, indent)| {
            let n = tokens.len() - 1;
            let mut file_gaps = Vec::new();
            let mut model_spaced = Vec::new();
            for (i, (g, spaced)) in gaps.into_iter().take(n).enumerate() {
                let words = matches!(tokens[i], Token::Word(_)) && matches!(tokens[i + 1], Token::Word(_));
                // Between two words a blank is visible and always there; beside punctuation, any.
                file_gaps.push(if words && g.is_empty() {
                    " ".to_string()
                } else {
                    g.to_string()
                });
                model_spaced.push(spaced);
            }
            SpacedLine {
                tokens,
                file_gaps,
                model_spaced,
                file_indent: indent.to_string(),
            }
        })
}

fn token_text(t: &Token) -> String {
    match t {
        Token::Word(w) => w.clone(),
        Token::Punct(c) => c.to_string(),
    }
}

impl SpacedLine {
    /// What token `at` is replaced by: a word by a word, punctuation by punctuation (so the spacing
    /// a model may leave out stays the same).
    fn replacement(&self, at: usize) -> &'static str {
        match self.tokens[at] {
            Token::Word(_) => "ZQ",
            Token::Punct(_) => "%",
        }
    }

    /// The line with token `replace` (if any) written as `with`, in the file's spacing.
    fn file(&self, replace: Option<(usize, &str)>) -> String {
        let mut out = self.file_indent.clone();
        for (i, t) in self.tokens.iter().enumerate() {
            match replace {
                Some((r, with)) if r == i => out.push_str(with),
                _ => out.push_str(&token_text(t)),
            }
            if let Some(g) = self.file_gaps.get(i) {
                out.push_str(g);
            }
        }
        out
    }

    /// The line as the model writes it: single spaces between words, a space or none beside
    /// punctuation, its own indentation.
    fn model(&self, replace: Option<(usize, &str)>) -> String {
        let mut out = "    ".to_string();
        for (i, t) in self.tokens.iter().enumerate() {
            match replace {
                Some((r, with)) if r == i => out.push_str(with),
                _ => out.push_str(&token_text(t)),
            }
            if i + 1 < self.tokens.len() {
                let words = matches!(t, Token::Word(_)) && matches!(self.tokens[i + 1], Token::Word(_));
                if words || self.model_spaced[i] {
                    out.push(' ');
                }
            }
        }
        out
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `whitespace_runs` (runs collapsed, spacing left out beside punctuation forgiven): the model
    /// replaces one token of one line. The expected file is built from the file's lines and that
    /// change alone (an oracle independent of the engine): the file's spacing and indentation
    /// everywhere, the new token in the old one's place; nothing outside the block changes.
    #[test]
    fn whitespace_runs_write_only_the_models_change(
        pre in surroundings(),
        lines in prop::collection::vec(spaced_line(), 1..4),
        post in surroundings(),
        crlf in any::<bool>(),
        which in any::<prop::sample::Index>(),
        token in any::<prop::sample::Index>(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let changed = which.index(lines.len());
        let at = token.index(lines[changed].tokens.len());
        let numbered = |i: usize, text: String| format!("{text} n{i}");
        let mut file = pre.clone();
        file.extend_from_slice(b"\n");
        let mut want = file.clone();
        let mut old = Vec::new();
        let mut new = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let replace = (i == changed).then(|| (at, l.replacement(at)));
            file.extend_from_slice((numbered(i, l.file(None)) + eol).as_bytes());
            want.extend_from_slice((numbered(i, l.file(replace)) + eol).as_bytes());
            old.push(numbered(i, l.model(None)));
            new.push(numbered(i, l.model(replace)));
        }
        file.extend_from_slice(&post);
        want.extend_from_slice(&post);
        let result = apply(&file, &[Edit::new(old.join("\n"), new.join("\n"))], &Options::new());
        match result {
            Ok(a) => prop_assert_eq!(String::from_utf8_lossy(&a.text), String::from_utf8_lossy(&want)),
            // The surroundings may hold the block's punctuation-only text; never a wrong placement.
            Err(e) => prop_assert!(matches!(e.code(), "ambiguous"), "{}", e),
        }
    }

    /// `similar`: the model misremembered one word of one line (a letter changed) and replaced a
    /// token. Where its change stays off the misremembered word, the expected file is the file's
    /// lines with that change alone (the misremembered letter is never written); where it falls on
    /// that word, the edit is refused.
    #[test]
    fn similar_writes_only_the_models_change(
        lines in prop::collection::vec(spaced_line(), 3..5),
        crlf in any::<bool>(),
        wrong in any::<prop::sample::Index>(),
        which in any::<prop::sample::Index>(),
        token in any::<prop::sample::Index>(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        // Long numbered anchors so that the equal lines carry the match.
        let numbered = |i: usize, text: String| format!("{text} anchor line number {i}");
        let bad = wrong.index(lines.len());
        let words: Vec<usize> = lines[bad].tokens.iter().enumerate()
            .filter(|(_, t)| matches!(t, Token::Word(_))).map(|(k, _)| k).collect();
        prop_assume!(!words.is_empty());
        let bad_token = words[0];
        let Token::Word(w) = &lines[bad].tokens[bad_token] else { unreachable!() };
        let misremembered = format!("{w}x");
        let changed = which.index(lines.len());
        let at = token.index(lines[changed].tokens.len());
        let mut file = Vec::new();
        let mut want = Vec::new();
        let mut old = Vec::new();
        let mut new = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let replace = (i == changed).then(|| (at, l.replacement(at)));
            file.extend_from_slice((numbered(i, l.file(None)) + eol).as_bytes());
            want.extend_from_slice((numbered(i, l.file(replace)) + eol).as_bytes());
            let mut model = l.clone();
            if i == bad {
                model.tokens[bad_token] = Token::Word(misremembered.clone());
            }
            old.push(numbered(i, model.model(None)));
            new.push(numbered(i, model.model(replace)));
        }
        let opts = Options::new().loosest_tier(Tier::Similar);
        let result = apply(&file, &[Edit::new(old.join("\n"), new.join("\n"))], &opts);
        let on_the_wrong_word = changed == bad && at == bad_token;
        match result {
            Ok(a) => {
                prop_assert!(!on_the_wrong_word, "wrote over a misremembered word");
                prop_assert_eq!(String::from_utf8_lossy(&a.text), String::from_utf8_lossy(&want));
            }
            Err(e) => prop_assert!(matches!(e.code(), "conflict" | "not_found"), "{}", e),
        }
    }

    /// A match whose last line stops before the file line's trailing blanks: the blanks are never
    /// doubled nor carried onto another line. The model either edits the line (appending a word: the
    /// file's blanks stay), or rewrites it with blanks of its own (its blanks alone).
    #[test]
    fn trailing_blanks_after_a_match_are_decided_once(
        pre in surroundings(),
        word in "[a-z]{3,8}",
        blanks in prop::sample::select(vec![" ", "  ", "\t", " \t "]),
        own in prop::sample::select(vec!["", " ", "   "]),
        edit_it in any::<bool>(),
        post in surroundings(),
    ) {
        let mut file = pre.clone();
        file.extend_from_slice(b"\n");
        let mut want = file.clone();
        file.extend_from_slice(format!("{word}{blanks}\n").as_bytes());
        file.extend_from_slice(&post);
        let old = word.clone();
        let (new, line) = if edit_it {
            (format!("{word} more"), format!("{word} more{blanks}\n"))
        } else {
            (format!("QQ{own}"), format!("QQ{own}\n"))
        };
        want.extend_from_slice(line.as_bytes());
        want.extend_from_slice(&post);
        let a = apply(&file, &[Edit::new(old, new)], &Options::new());
        match a {
            Ok(a) => prop_assert_eq!(String::from_utf8_lossy(&a.text), String::from_utf8_lossy(&want)),
            Err(e) => prop_assert!(false, "{}", e),
        }
    }

    /// The counterpart at the start (issue 28, trailing whitespace doubled): a needle whose first
    /// line is empty (a read view shows the file's blank line, or a line's end, without its
    /// blanks) matches after the blanks ending that line; they are decided once, with the model's
    /// first line: kept when it kept that line empty, replaced by its own blanks when it wrote some,
    /// never both.
    #[test]
    fn blanks_before_a_needle_starting_with_a_blank_line_are_decided_once(
        pre in surroundings(),
        text in prop::sample::select(vec!["", "X = 1;", "}"]),
        blanks in prop::sample::select(vec![" ", "    ", "\t", " \t "]),
        own in prop::sample::select(vec!["", " ", "\t\t"]),
        word in "[a-z]{3,8}",
        crlf in any::<bool>(),
        post in surroundings(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut file = pre.clone();
        file.extend_from_slice(eol.as_bytes());
        let mut want = file.clone();
        file.extend_from_slice(format!("{text}{blanks}{eol}{word}{eol}").as_bytes());
        file.extend_from_slice(&post);
        let kept = if own.is_empty() { blanks } else { own };
        want.extend_from_slice(format!("{text}{kept}{eol}{word} more{eol}").as_bytes());
        want.extend_from_slice(&post);
        let a = apply(&file, &[Edit::new(format!("\n{word}\n"), format!("{own}\n{word} more\n"))], &Options::new());
        match a {
            Ok(a) => prop_assert_eq!(String::from_utf8_lossy(&a.text), String::from_utf8_lossy(&want)),
            Err(e) => prop_assert!(false, "{}", e),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Line numbers copied from a read view into `oldText` (and `newText`): the expected file is the
    /// file with the one line the model changed replaced (built from the lines and the change, not
    /// from what the engine reports); no number is ever written.
    #[test]
    fn line_numbers_are_left_out_and_never_written(
        lines in prop::collection::vec("[a-z]{1,6}( [a-z]{1,6}){0,2}", 3..8),
        crlf in any::<bool>(),
        from in any::<prop::sample::Index>(),
        len in 1usize..4,
        which in any::<prop::sample::Index>(),
        style in prop::sample::select(vec!["{n} | ", "{n:>6}→", "{n}\t"]),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let lines: Vec<String> = lines.iter().enumerate().map(|(i, l)| format!("{l} n{i}")).collect();
        let first = from.index(lines.len());
        let last = (first + len).min(lines.len());
        let changed = first + which.index(last - first);
        let file: String = lines.iter().map(|l| format!("{l}{eol}")).collect();
        let want: String = lines
            .iter()
            .enumerate()
            .map(|(i, l)| if i == changed { format!("CHANGED{eol}") } else { format!("{l}{eol}") })
            .collect();
        let number = |n: usize| match style {
            "{n} | " => format!("{n} | "),
            "{n}\t" => format!("{n}\t"),
            _ => format!("{n:>6}→"),
        };
        let old: Vec<String> = (first..last).map(|i| format!("{}{}", number(i + 1), lines[i])).collect();
        let new: Vec<String> = (first..last)
            .map(|i| if i == changed { "CHANGED".to_string() } else { format!("{}{}", number(i + 1), lines[i]) })
            .collect();
        let a = apply(file.as_bytes(), &[Edit::new(old.join("\n"), new.join("\n"))], &Options::new());
        match a {
            Ok(a) => prop_assert_eq!(String::from_utf8_lossy(&a.text), want),
            Err(e) => prop_assert!(false, "{}", e),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `escapes`: a window of shell or template-literal lines (`$`, backticks, quotes, backslashes)
    /// sent over-escaped, with one line changed. The expected file is the file with that line
    /// replaced (built from the lines and the change).
    #[test]
    fn escapes_unescape_dollar_and_backtick(
        lines in prop::collection::vec("[a-z]{1,5}( [a-z$`\"]{1,5}){1,3}", 2..6),
        crlf in any::<bool>(),
        which in any::<prop::sample::Index>(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let lines: Vec<String> = lines.iter().enumerate().map(|(i, l)| format!("{l} `n{i}` $x")).collect();
        let changed = which.index(lines.len());
        let escape = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"").replace('$', "\\$").replace('`', "\\`");
        let file: String = lines.iter().map(|l| format!("{l}{eol}")).collect();
        let want: String = lines
            .iter()
            .enumerate()
            .map(|(i, l)| if i == changed { format!("echo \"$Y\" `z`{eol}") } else { format!("{l}{eol}") })
            .collect();
        let old: Vec<String> = lines.iter().map(|l| escape(l)).collect();
        let mut new = old.clone();
        new[changed] = escape("echo \"$Y\" `z`");
        let a = apply(file.as_bytes(), &[Edit::new(old.join("\\n"), new.join("\\n"))], &Options::new());
        match a {
            Ok(a) => {
                prop_assert_eq!(a.edits[0].tier, Tier::Escapes);
                prop_assert_eq!(String::from_utf8_lossy(&a.text), want);
            }
            Err(e) => prop_assert!(false, "{}", e),
        }
    }

    /// Omission placeholders: an edit whose newText holds one that oldText lacks never changes the
    /// file, whatever the rest; the same marker kept on both sides is ordinary text.
    #[test]
    fn placeholders_never_reach_the_file(
        body in prop::collection::vec("[a-z]{1,6}\\(\\);", 1..4),
        marker in prop::sample::select(vec!["// ... existing code ...", "# ... rest of the file ...", "(rest of methods ...)", "...", "/* ... */"]),
        at in any::<prop::sample::Index>(),
    ) {
        let file: String = body.iter().map(|l| format!("{l}\n")).collect();
        let old = body.join("\n");
        let mut new_lines = body.clone();
        new_lines.insert(at.index(new_lines.len() + 1), marker.to_string());
        let new = new_lines.join("\n");
        let err = apply(file.as_bytes(), &[Edit::new(old, new.clone())], &Options::new()).unwrap_err();
        prop_assert_eq!(err.code(), "placeholder");
        // The marker in the file and in oldText: an ordinary edit.
        let with_marker = format!("{marker}\n{file}");
        let old = format!("{marker}\n{}", body[0]);
        let a = apply(with_marker.as_bytes(), &[Edit::new(old, format!("{marker}\nchanged();"))], &Options::new());
        prop_assert!(a.is_ok(), "{:?}", a.err());
    }
}

/// A file for [`blank_lines_the_model_kept_are_not_written`]: lines around a target line (which the
/// file may indent, write with typographic quotes or end with blanks), the line before it and the line
/// after it chosen among empty, blank and indented ones, and how the needle begins and ends (a begun
/// line of blanks the model leaves as it is).
#[derive(Clone, Debug)]
struct BlankEdges {
    before: Vec<String>,
    prev: Option<&'static str>,
    indent: &'static str,
    quotes: bool,
    file_trailing: &'static str,
    next: Option<&'static str>,
    after: Vec<String>,
    eol: &'static str,
    final_eol: bool,
    head: Option<String>,
    tail: Option<String>,
}

fn blank_edges() -> impl Strategy<Value = BlankEdges> {
    let edge = prop::option::of(prop::sample::select(vec![
        "", " ", "\t", "  ", "\u{a0}", "    z", "\tz", "z", " \t ",
    ]));
    let blanks = prop::option::of(
        prop::collection::vec(prop::sample::select(vec![" ", "\t", "\u{a0}"]), 1..4).prop_map(|v| v.concat()),
    );
    (
        prop::collection::vec("[a-z]{0,5}", 0..3),
        edge.clone(),
        (prop::sample::select(vec!["", "", "  ", "\t"]), any::<bool>()),
        prop::sample::select(vec!["", " ", "\t"]),
        edge,
        prop::collection::vec("[a-z]{0,5}", 0..3),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
        any::<bool>(),
        (blanks.clone(), blanks),
    )
        .prop_map(
            |(before, prev, (indent, quotes), file_trailing, next, after, eol, final_eol, (head, tail))| BlankEdges {
                before,
                prev,
                indent,
                quotes,
                file_trailing,
                next,
                after,
                eol,
                final_eol,
                head,
                tail,
            },
        )
}

impl BlankEdges {
    /// The target line's content in the file (indented, where the model's is not), with the model's
    /// value `v` written in.
    fn target(&self, v: char) -> String {
        let (indent, trailing) = (self.indent, self.file_trailing);
        match self.quotes {
            true => format!("{indent}say(\u{201c}{v}\u{201d});{trailing}"),
            false => format!("{indent}say(\"{v}\");{trailing}"),
        }
    }

    /// The file with the target's value `v`: the reference for the text before (`1`) and after (`2`).
    fn file(&self, v: char) -> String {
        let mut lines: Vec<String> = self.before.clone();
        lines.extend(self.prev.map(String::from));
        lines.push(self.target(v));
        lines.extend(self.next.map(String::from));
        lines.extend(self.after.iter().cloned());
        let mut text = lines.join(self.eol);
        if self.final_eol {
            text.push_str(self.eol);
        }
        text
    }

    /// oldText or newText for value `v`: the target as the model writes it (straight quotes, no
    /// trailing blanks), after the head's blanks and a line break, before a line break and the tail's.
    fn needle(&self, v: char) -> String {
        let head = self.head.as_ref().map_or(String::new(), |h| format!("{h}\n"));
        let tail = self.tail.as_ref().map_or(String::new(), |t| format!("\n{t}"));
        format!("{head}say(\"{v}\");{tail}")
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Loose matching writes only what the model changed: oldText and newText that begin or end with
    /// the same blank line (a begun line of blanks before the first line break or after the last)
    /// change the target line only, whatever the file's lines next to it hold (an empty line, other
    /// blanks, indented text, none: the start or end of the file), under any line ending. The expected
    /// text is the file with the target's value changed, built here; `apply` and the staged API agree.
    #[test]
    fn blank_lines_the_model_kept_are_not_written(case in blank_edges()) {
        let (before, after) = (case.file('1'), case.file('2'));
        let edit = Edit::new(case.needle('1'), case.needle('2'));
        // Past the text's end the needle's final line break must stand for it: whole lines.
        let open_tail = case.tail.is_some() && case.next.is_none() && case.after.is_empty() && !case.final_eol;
        let options = Options::new().whole_lines(open_tail);
        match apply_checked(before.as_bytes(), std::slice::from_ref(&edit), &options) {
            Ok(a) => {
                prop_assert_eq!(String::from_utf8_lossy(&a.text), after.as_str());
                let staged = staged(before.as_bytes(), &[edit], &options);
                prop_assert_eq!(staged.map(|s| s.text), Ok(a.text));
            }
            // A head or tail of blanks that no line break of the file can take (the start or end of
            // the file) may be found nowhere: never a wrong text.
            Err(e) => {
                let nowhere = case.head.is_some() && case.prev.is_none() && case.before.is_empty();
                prop_assert!(nowhere || open_tail, "{:?} {:?}: {}", before, edit, e)
            }
        }
    }
}
