//! Byte-faithfulness of the edit formats, as properties over arbitrary files.
//!
//! A file is made of arbitrary lines (random bytes, invalid UTF-8, smart quotes, no-break spaces,
//! dashes, trailing blanks, multi-byte text) with random terminators (LF, CRLF, lone CR; the last
//! one possibly missing), an optional UTF-8 BOM, and a planted block of target lines, each carrying
//! a unique marker. A patch in each format changes every marker (`TARGET` → `CHANGED`) and inserts a
//! line, with the target lines written as a model would copy them from a rendered view: invalid
//! bytes as U+FFFD, no carriage returns, and sometimes typographic quotes, special spaces and
//! trailing blanks typed as plain ASCII. The properties:
//!
//! * every byte before the block and after it (context lines included) is unchanged;
//! * inside the block, each target line is the file's own line with only the marker changed (its
//!   quotes, special spaces, invalid bytes, trailing blanks and terminator kept), and the inserted
//!   line is there with the terminator of the line whose place it takes: the block is compared
//!   whole with the bytes a reference model builds, not with ranges the engine reports;
//! * the call reports where the hunk landed: the block's first line.

use proptest::prelude::*;
use serde_json::json;
use surgical_tool::{call_with, Config};

/// Pieces that make line content hard: look-alikes, invisible differences, invalid bytes.
const PIECES: [&[u8]; 16] = [
    b"let x = 1;",
    b"  indented",
    b"\t",
    b"   ",
    "\u{a0}".as_bytes(),
    "\u{201c}quoted\u{201d}".as_bytes(),
    "\u{2018}s\u{2019}".as_bytes(),
    "a \u{2014} b".as_bytes(),
    "caf\u{e9}".as_bytes(),
    "\u{65e5}\u{672c}".as_bytes(),
    b"\xff",
    b"\xc3",
    b"\xe2\x80",
    "\u{ff21}".as_bytes(),
    b"}",
    b"",
];

fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => (0..PIECES.len()).prop_map(|i| PIECES[i].to_vec()),
        1 => proptest::collection::vec(any::<u8>().prop_filter("no NUL, CR or LF", |b| !matches!(b, 0 | b'\r' | b'\n')), 0..6),
    ]
}

fn content() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(piece(), 0..4).prop_map(|ps| ps.concat())
}

fn eol() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b"\r"[..])]
}

#[derive(Clone, Debug)]
struct Case {
    bom: bool,
    before: Vec<(Vec<u8>, &'static [u8])>,
    targets: Vec<(Vec<u8>, &'static [u8])>,
    after: Vec<(Vec<u8>, &'static [u8])>,
    last_has_eol: bool,
    /// How the model degrades what it copies: ASCII quotes and spaces, no trailing blanks.
    ascii: bool,
    strip_trailing: bool,
    /// Where the inserted line goes (after this many target lines).
    insert_at: usize,
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        proptest::collection::vec((content(), eol()), 0..5),
        proptest::collection::vec((content(), eol()), 1..4),
        proptest::collection::vec((content(), eol()), 0..5),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0usize..4,
    )
        .prop_map(
            |(bom, before, targets, after, last_has_eol, ascii, strip_trailing, insert_at)| {
                let mut case = Case {
                    bom,
                    insert_at: insert_at.min(targets.len()),
                    before,
                    targets,
                    after,
                    last_has_eol,
                    ascii,
                    strip_trailing,
                };
                case.fix_cr_lf();
                case
            },
        )
}

fn marker(i: usize) -> String {
    format!("TARGET{i}mark")
}

impl Case {
    /// A lone CR followed by an empty line ending in LF would be one CRLF: make it one explicitly,
    /// so that the lines are the ones generated.
    fn fix_cr_lf(&mut self) {
        let mut all: Vec<&mut (Vec<u8>, &'static [u8])> = self
            .before
            .iter_mut()
            .chain(self.targets.iter_mut())
            .chain(self.after.iter_mut())
            .collect();
        for k in 1..all.len() {
            if all[k - 1].1 == b"\r" && all[k].0.is_empty() {
                all[k - 1].1 = b"\r\n";
            }
        }
        // The first byte is plain ASCII, so the file is never taken for UTF-16.
        all[0].0.insert(0, b'a');
    }

    /// The target lines' contents, each with its marker in the middle.
    fn target_content(&self, i: usize) -> Vec<u8> {
        let (c, _) = &self.targets[i];
        let mid = c.len() / 2;
        // Never split a character (or an invalid sequence) in two: put the marker after a space-free
        // ASCII boundary if possible, else at the end.
        let at = (mid..c.len()).find(|&k| c[k].is_ascii()).unwrap_or(c.len());
        let mut out = c[..at].to_vec();
        out.push(b' ');
        out.extend_from_slice(marker(i).as_bytes());
        out.push(b' ');
        out.extend_from_slice(&c[at..]);
        out
    }

    /// (file bytes, start of the block, end of the block).
    fn file(&self) -> (Vec<u8>, usize, usize) {
        let mut f = Vec::new();
        if self.bom {
            f.extend_from_slice(b"\xef\xbb\xbf");
        }
        let n = self.before.len() + self.targets.len() + self.after.len();
        let mut k = 0;
        let mut push = |f: &mut Vec<u8>, c: &[u8], e: &[u8]| {
            k += 1;
            f.extend_from_slice(c);
            if k < n || self.last_has_eol {
                f.extend_from_slice(e);
            }
        };
        for (c, e) in &self.before {
            push(&mut f, c, e);
        }
        let start = f.len();
        for i in 0..self.targets.len() {
            push(&mut f, &self.target_content(i), self.targets[i].1);
        }
        let end = f.len();
        for (c, e) in &self.after {
            push(&mut f, c, e);
        }
        (f, start, end)
    }

    /// A line as the model copies it.
    fn seen(&self, bytes: &[u8]) -> String {
        let mut s = String::from_utf8_lossy(bytes).into_owned();
        if self.ascii {
            s = s
                .replace(['\u{201c}', '\u{201d}'], "\"")
                .replace(['\u{2018}', '\u{2019}'], "'")
                .replace('\u{a0}', " ")
                .replace('\u{2014}', "-");
        }
        if self.strip_trailing {
            s = s.trim_end_matches([' ', '\t', '\u{a0}']).to_string();
        }
        s
    }

    /// The old (context + target) and new lines of the hunk, and the 1-based line of the block.
    fn hunk(&self) -> (Vec<String>, Vec<String>, Option<String>, usize) {
        let block_line = 1 + self.before.len();
        let context = self.before.last().map(|(c, _)| self.seen(c));
        let mut old = Vec::new();
        let mut new = Vec::new();
        for i in 0..self.targets.len() {
            let line = self.seen(&self.target_content(i));
            if i == self.insert_at {
                new.push("INSERTEDline".to_string());
            }
            new.push(line.replace(&marker(i), &format!("CHANGED{i}mark")));
            old.push(line);
        }
        if self.insert_at == self.targets.len() {
            new.push("INSERTEDline".to_string());
        }
        (old, new, context, block_line)
    }

    fn codex(&self) -> String {
        let (old, new, context, _) = self.hunk();
        let mut p = String::from("*** Begin Patch\n*** Update File: f.txt\n@@\n");
        if let Some(c) = &context {
            p.push_str(&format!(" {c}\n"));
        }
        for l in &old {
            p.push_str(&format!("-{l}\n"));
        }
        for l in &new {
            p.push_str(&format!("+{l}\n"));
        }
        p.push_str("*** End Patch\n");
        p
    }

    fn search_replace(&self) -> String {
        let (old, new, _, _) = self.hunk();
        format!(
            "f.txt\n```\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n```\n",
            old.join("\n"),
            new.join("\n")
        )
    }

    /// The SEARCH lines as a model copies them from a read view, each with its line number.
    fn search_replace_numbered(&self) -> String {
        let (old, new, _, line) = self.hunk();
        let numbered: Vec<String> = old
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{}\t{l}", line + i))
            .collect();
        format!(
            "f.txt\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n",
            numbered.join("\n"),
            new.join("\n")
        )
    }

    /// The apply_patch patch as a shell command, behind `cd . &&`.
    fn codex_behind_cd(&self) -> String {
        format!("cd . && apply_patch <<'EOF'\n{}EOF\n", self.codex())
    }

    fn unified(&self) -> String {
        let (old, new, context, line) = self.hunk();
        let ctx = usize::from(context.is_some());
        let mut p = format!(
            "--- a/f.txt\n+++ b/f.txt\n@@ -{},{} +{},{} @@\n",
            line - ctx,
            old.len() + ctx,
            line - ctx,
            new.len() + ctx
        );
        if let Some(c) = &context {
            p.push_str(&format!(" {c}\n"));
        }
        for l in &old {
            p.push_str(&format!("-{l}\n"));
        }
        for l in &new {
            p.push_str(&format!("+{l}\n"));
        }
        p
    }
}

/// Applies `patch` to the case's file and checks the properties.
fn check(case: &Case, patch: &str) -> Result<(), TestCaseError> {
    let (file, start, end) = case.file();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), &file).unwrap();
    let result = call_with(
        "apply_patch",
        &json!({ "patch": patch }),
        &Config::new(dir.path()).undo(false),
    );
    let json = result.to_json();
    prop_assert!(result.is_ok(), "{}\npatch:\n{patch}", json);
    let out = std::fs::read(dir.path().join("f.txt")).unwrap();
    let suffix = &file[end..];
    prop_assert!(out.starts_with(&file[..start]), "bytes before the block changed");
    prop_assert!(out.ends_with(suffix), "bytes after the block changed");
    prop_assert!(out.len() >= start + suffix.len());
    let middle = &out[start..out.len() - suffix.len()];

    // The block as the reference model writes it: every target line is the file's line with only
    // its marker changed, keeping its own terminator; the inserted line takes the terminator of the
    // target line whose place it takes (the last one's when it goes last), and where a line has
    // none (the file's last, without a final newline) the file's last terminator.
    let last_terminator = last_terminator(&file[..end]);
    let is_last_of_file = |i: usize| case.after.is_empty() && i + 1 == case.targets.len();
    let own_terminator = |i: usize| {
        if is_last_of_file(i) && !case.last_has_eol {
            last_terminator
        } else {
            case.targets[i].1
        }
    };
    let ins = b"INSERTEDline";
    let mut expected = Vec::new();
    for i in 0..case.targets.len() {
        if i == case.insert_at {
            expected.extend_from_slice(ins);
            expected.extend_from_slice(own_terminator(i));
        }
        let mut line = case.target_content(i);
        let m = marker(i);
        let pos = line.windows(m.len()).position(|w| w == m.as_bytes()).unwrap();
        line.splice(pos..pos + m.len(), format!("CHANGED{i}mark").bytes());
        expected.extend_from_slice(&line);
        if !is_last_of_file(i) || case.last_has_eol {
            expected.extend_from_slice(case.targets[i].1);
        }
    }
    if case.insert_at == case.targets.len() {
        // A block that ended the file without a final newline still does: no patch here says to add
        // one. The inserted line is then the one without a line break, and the line before it gains
        // the file's last terminator.
        let last = case.targets.len() - 1;
        if is_last_of_file(last) && !case.last_has_eol {
            expected.extend_from_slice(last_terminator);
            expected.extend_from_slice(ins);
        } else {
            expected.extend_from_slice(ins);
            expected.extend_from_slice(own_terminator(last));
        }
    }
    prop_assert_eq!(
        String::from_utf8_lossy(middle),
        String::from_utf8_lossy(&expected),
        "patch:\n{}",
        patch
    );
    prop_assert_eq!(middle, &expected[..]);
    let first = &json["files"][0]["hunks"][0];
    let block_line = case.before.len() + 1;
    let reported = first["oldStartLine"].as_u64().unwrap() as usize;
    prop_assert!(
        reported == block_line || reported + 1 == block_line,
        "reported line {reported}, block at {block_line}"
    );
    Ok(())
}

/// The last line terminator in `text` (`\n` when it has none, as at the start of a text).
fn last_terminator(text: &[u8]) -> &'static [u8] {
    match text.iter().rposition(|&b| b == b'\n' || b == b'\r') {
        Some(k) if text[k] == b'\n' && k > 0 && text[k - 1] == b'\r' => b"\r\n",
        Some(k) if text[k] == b'\n' => b"\n",
        Some(_) => b"\r",
        None => b"\n",
    }
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(128)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn apply_patch_keeps_every_byte_it_does_not_target(case in case()) {
        check(&case, &case.codex())?;
    }

    #[test]
    fn search_replace_keeps_every_byte_it_does_not_target(case in case()) {
        check(&case, &case.search_replace())?;
    }

    #[test]
    fn unified_diff_keeps_every_byte_it_does_not_target(case in case()) {
        check(&case, &case.unified())?;
    }

    #[test]
    fn numbered_search_lines_keep_every_byte_they_do_not_target(case in case()) {
        check(&case, &case.search_replace_numbered())?;
    }

    #[test]
    fn apply_patch_behind_cd_keeps_every_byte_it_does_not_target(case in case()) {
        check(&case, &case.codex_behind_cd())?;
    }

    /// A unified diff as git writes it (each line's bytes, CRs included; `\ No newline at end of
    /// file` where a side ends without one), whose new lines change line endings too: the result is
    /// exactly what `git apply` gives, the old lines replaced by the new ones byte for byte.
    #[test]
    fn git_diffs_with_cr_bytes_apply_exactly(
        lines in proptest::collection::vec(("[a-z \u{e9}\u{201c}]{0,6}", any::<bool>()), 1..8),
        last_has_eol in any::<bool>(),
        from in 0usize..8,
        count in 1usize..4,
        new in proptest::collection::vec(("[a-z ]{0,5}", any::<bool>()), 0..4),
        new_ends in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let n = lines.len();
        let from = from.min(n - 1);
        let to = (from + count).min(n);
        // Each line carries its number, so the block is unique.
        let line = |i: usize, (c, crlf): &(String, bool)| -> Vec<u8> {
            let mut l = format!("L{i} {c}").into_bytes();
            if *crlf {
                l.push(b'\r');
            }
            l
        };
        // A BOM is part of the first line's text in git's diff (kept here: the new first line has it).
        let bom_bytes: &[u8] = if bom { b"\xef\xbb\xbf" } else { b"" };
        let mut file = bom_bytes.to_vec();
        let mut starts = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            starts.push(file.len());
            file.extend_from_slice(&line(i, l));
            if i + 1 < n || last_has_eol {
                file.push(b'\n');
            }
        }
        starts.push(file.len());
        let ends_file = to == n;
        let new_lines: Vec<Vec<u8>> = new.iter().enumerate().map(|(k, l)| line(100 + k, l)).collect();
        let mut replacement = Vec::new();
        // Removing the first line with nothing in its place removes the BOM with it, as git does.
        if from == 0 && !new_lines.is_empty() {
            replacement.extend_from_slice(bom_bytes);
        }
        for (k, l) in new_lines.iter().enumerate() {
            replacement.extend_from_slice(l);
            if k + 1 < new_lines.len() || !ends_file || new_ends {
                replacement.push(b'\n');
            }
        }
        if new_lines.is_empty() && ends_file && from > 0 && !new_ends {
            // Removing the last lines of a file left without a final newline: git's diff would
            // mark the line before; not generated here.
            return Ok(());
        }
        let first = |i: usize| if i == 0 { bom_bytes } else { b"" };
        let mut expected = file[..if from == 0 { 0 } else { starts[from] }].to_vec();
        expected.extend_from_slice(&replacement);
        expected.extend_from_slice(&file[starts[to]..]);
        let mut patch = format!(
            "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -{},{} +{},{} @@\n",
            from + 1,
            to - from,
            from + 1,
            new_lines.len()
        )
        .into_bytes();
        for (i, l) in lines.iter().enumerate().take(to).skip(from) {
            patch.push(b'-');
            patch.extend_from_slice(first(i));
            patch.extend_from_slice(&line(i, l));
            patch.push(b'\n');
            if i + 1 == n && !last_has_eol {
                patch.extend_from_slice(b"\\ No newline at end of file\n");
            }
        }
        for (k, l) in new_lines.iter().enumerate() {
            patch.push(b'+');
            if from == 0 {
                patch.extend_from_slice(first(k));
            }
            patch.extend_from_slice(l);
            patch.push(b'\n');
            if k + 1 == new_lines.len() && ends_file && !new_ends {
                patch.extend_from_slice(b"\\ No newline at end of file\n");
            }
        }
        let patch = String::from_utf8(patch).unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f.txt"), &file).unwrap();
        let result = call_with("apply_patch", &json!({ "patch": patch }), &Config::new(dir.path()).undo(false));
        let out = std::fs::read(dir.path().join("f.txt")).unwrap();
        if expected == file {
            // A hunk that changes nothing is refused, and the file is untouched.
            prop_assert!(!result.is_ok());
            prop_assert_eq!(out, file);
        } else {
            prop_assert!(result.is_ok(), "{}\n{:?}", result.to_json(), patch);
            prop_assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&expected), "{:?}", patch);
        }
    }
}

/// Lines from all three grammars, and a few others, to build patch-like text from.
const FRAGMENTS: [&str; 34] = [
    "*** Begin Patch",
    "*** End Patch",
    "*** Update File: a.txt",
    "*** Update File: sub/b.txt",
    "*** Add File: c.txt",
    "*** Add File: sub/b.txt",
    "*** Delete File: a.txt",
    "*** Delete File: sub",
    "*** Move to: d.txt",
    "*** End of File",
    "@@",
    "@@ x",
    "@@ -1,2 +1,2 @@",
    "@@ -0,0 +1 @@",
    "+x",
    "+",
    "-x",
    "-y",
    " x",
    " y",
    "",
    "<<<<<<< SEARCH",
    "=======",
    ">>>>>>> REPLACE",
    "a.txt",
    "--- a/a.txt",
    "+++ b/a.txt",
    "--- /dev/null",
    "+++ /dev/null",
    "\\ No newline at end of file",
    "diff --git a/a.txt b/d.txt",
    "rename from a.txt",
    "rename to d.txt",
    "new file mode 100644",
];

fn snapshot(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for rel in ["a.txt", "sub/b.txt", "c.txt", "d.txt"] {
        if let Ok(bytes) = std::fs::read(dir.join(rel)) {
            out.push((rel.to_string(), bytes));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Any patch-like text: the call returns (never panics), and when it fails, no file changed.
    #[test]
    fn arbitrary_patches_never_panic_and_failures_change_nothing(
        lines in proptest::collection::vec(
            prop_oneof![
                4 => (0..FRAGMENTS.len()).prop_map(|i| FRAGMENTS[i].to_string()),
                1 => "[ +\\-@*<>=a-z\\\\/.\u{a0}\u{201c}]{0,12}",
            ],
            0..24,
        ),
        crlf in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("a.txt"), b"x\r\ny\n").unwrap();
        std::fs::write(dir.path().join("sub/b.txt"), b"\xef\xbb\xbfx\ny").unwrap();
        let before = snapshot(dir.path());
        let patch = lines.join(if crlf { "\r\n" } else { "\n" });
        let result = call_with("apply_patch", &json!({ "patch": patch }), &Config::new(dir.path()));
        if !result.is_ok() {
            prop_assert_eq!(snapshot(dir.path()), before, "{}", result.to_json());
        }
    }
}
