//! The byte-faithfulness properties, over arbitrary content.
//!
//! Files are built from a planted target (the text a model means, rendered with what a model cannot
//! see or gets wrong: CRLF/CR/LF, trailing blanks, no-break spaces, typographic quotes and dashes,
//! NFKC forms) inside arbitrary surroundings (random bytes, invalid UTF-8, BOMs, multi-byte text)
//! that cannot contain the needle. Whatever the engine does, it must never change a byte outside the
//! target, a line the model left alone must come back byte for byte, and the patch must reproduce
//! the result. Set PROPTEST_CASES for longer runs (see the README).

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

    /// Arbitrary bytes and arbitrary (ASCII) edits: whatever happens, bytes between edits survive and
    /// the patch reproduces the result (checked inside apply_checked).
    #[test]
    fn arbitrary_bytes_and_edits(file in prop::collection::vec(prop_oneof![any::<u8>(), Just(b'a'), Just(b'\n'), Just(b'\r'), Just(b' ')], 0..200),
                                 old in "[a \n]{1,4}", new in "[ab \n]{0,4}", all in any::<bool>()) {
        let _ = apply_checked(&file, &[Edit::new(old, new).replace_all(all)], &Options::new());
    }

    /// Several edits in one call, each planted once: each lands on its own target only.
    #[test]
    fn many_edits_are_independent(cases in prop::collection::vec(case(), 1..4)) {
        let mut file = Vec::new();
        let mut edits = Vec::new();
        let mut spans = Vec::new();
        for (k, c) in cases.iter().enumerate() {
            // Make each needle unique with a numbered marker line right after it.
            let mut c = c.clone();
            c.lines.push(format!("mark{k}x"));
            c.renders.push(Render { swaps: vec![false], trailing: "", eol: "\n" });
            let base = file.len();
            file.extend_from_slice(&c.file().0);
            spans.push(base..file.len());
            edits.push(Edit::new(c.old_text(), c.new_text()));
        }
        match apply_checked(&file, &edits, &Options::new()) {
            Ok(a) => {
                for e in &a.edits {
                    for o in &e.occurrences {
                        prop_assert!(o.old.start >= spans[e.index].start && o.old.end <= spans[e.index].end);
                    }
                }
            }
            Err(e) => prop_assert!(matches!(e.code(), "no_change" | "ambiguous"), "{}", e),
        }
    }
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
    // Unchanged lines of the block are the file's bytes, in order.
    let mut at = block_start;
    for (i, r) in line_ranges.iter().enumerate() {
        if i == changed {
            let nl = out[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
            if a.edits[0].tier == surgical_core::Tier::Indentation {
                // Re-indented into the file's own style and depth.
                let want = format!("{}changed line{eol}", render_file(lines[i].0));
                prop_assert_eq!(String::from_utf8_lossy(&out[at..at + nl]), want);
            }
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

    /// And for arbitrary bytes and edits (the patch still reproduces the result).
    #[test]
    fn arbitrary_bytes_and_edits_past_budget(file in prop::collection::vec(prop_oneof![any::<u8>(), Just(b'a'), Just(b'\n'), Just(b'\r'), Just(b' ')], 0..200),
                                             old in "[a \n]{1,4}", new in "[ab \n]{0,4}", all in any::<bool>()) {
        surgical_core::with_work_budget(0, || {
            let _ = apply_checked(&file, &[Edit::new(old, new).replace_all(all)], &Options::new());
        });
    }
}
