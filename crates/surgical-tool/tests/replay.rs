//! The replay harness: real commits (of surgical's own history, and CRLF/BOM variants derived
//! from some of them), applied through `surgical_tool::call`
//! to the parent's file in three formats — the unified diff as git writes it, `edit` calls (one
//! edit per hunk: oldText = the hunk's old lines, newText = its new lines) and a Codex patch (one
//! `@@` section per hunk). Each result must equal the commit's file byte for byte, or be an
//! `ambiguous` refusal where the refused hunk's old text really occurs more than once in the
//! parent's file (counted here, independently of surgical).
//!
//! The cases live in `<repo>/tests/replay/<directory>/cases/<case>/` (`path`, `before`,
//! `after`, `diff`), made by `tests/replay/build.sh` (extract.sh, derive.py); an ORIGIN file lies
//! beside them. `SURGICAL_REPLAY_DIR=DIR` runs the cases under DIR instead (the full run, see
//! `tests/replay/README.md`). Run with `--nocapture` to see the counts per format.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use surgical_tool::{call_with, Config, ToolResult};

/// One hunk of a git diff: its old and new lines, each with its terminator as in the file (a last
/// line without a final newline has none).
#[derive(Debug)]
struct Hunk {
    old: String,
    new: String,
    /// The hunk's lines as the diff writes them (` `, `-`, `+` prefix; terminator as in the file).
    lines: Vec<(char, String)>,
}

fn parse_hunks(diff: &str) -> Vec<Hunk> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut in_hunk = false;
    for line in diff.split_inclusive('\n') {
        if line.starts_with("@@ ") {
            hunks.push(Hunk {
                old: String::new(),
                new: String::new(),
                lines: Vec::new(),
            });
            in_hunk = true;
            continue;
        }
        if !in_hunk {
            continue;
        }
        let hunk = hunks.last_mut().unwrap();
        let (tag, body) = line.split_at(1);
        match tag {
            " " | "-" | "+" => hunk.lines.push((tag.chars().next().unwrap(), body.to_string())),
            // `\ No newline at end of file`: the line before it has no terminator in the file.
            "\\" => {
                let last = hunk.lines.last_mut().unwrap();
                assert!(last.1.ends_with('\n'));
                last.1.pop();
            }
            _ => in_hunk = false,
        }
    }
    for hunk in &mut hunks {
        for (tag, body) in &hunk.lines {
            if *tag != '+' {
                hunk.old.push_str(body);
            }
            if *tag != '-' {
                hunk.new.push_str(body);
            }
        }
    }
    hunks
}

/// What a model would write for text that is CRLF in the file: the same without the CRs, and
/// without the file's BOM (a hunk at line 1 carries it in its first line; `read` does not show it).
fn model_text(s: &str) -> String {
    s.strip_prefix('\u{feff}').unwrap_or(s).replace("\r\n", "\n")
}

/// Whether the hunk adds or removes the file's BOM (which a model's text cannot do).
fn changes_bom(h: &Hunk) -> bool {
    h.old.starts_with('\u{feff}') != h.new.starts_with('\u{feff}')
}

/// Occurrences (overlapping) of `needle` in `hay`.
fn occurrences(hay: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return 0;
    }
    (0..hay.len())
        .filter(|&i| hay.is_char_boundary(i) && hay[i..].starts_with(needle))
        .count()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Format {
    UnifiedDiff,
    Edit,
    CodexPatch,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// The result equals the commit's file byte for byte.
    Placed,
    /// `ambiguous`, and the refused hunk's old text occurs more than once in the parent's file.
    AmbiguousCorrect,
    /// The change cannot be written in this format as a model would (it only changes line endings
    /// or a final newline, which a model's text does not hold); not sent.
    NotExpressible,
    /// Another refusal, file untouched.
    Refused,
    /// `ambiguous` although the hunk's old text occurs once: a refusal surgical should not make.
    AmbiguousFalse,
    /// Success reported, but the file differs from the commit's.
    Wrong,
    /// Refused, but the file changed.
    Damaged,
}

struct Case {
    name: String,
    path: String,
    before: Vec<u8>,
    after: Vec<u8>,
    diff: String,
}

fn load_cases(dir: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    let mut repos: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("cases").is_dir())
        .collect();
    repos.sort();
    for repo in repos {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(repo.join("cases"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        cases.sort();
        for c in cases {
            let read = |f: &str| std::fs::read(c.join(f)).unwrap();
            out.push(Case {
                name: format!(
                    "{}/{}",
                    repo.file_name().unwrap().to_string_lossy(),
                    c.file_name().unwrap().to_string_lossy()
                ),
                path: String::from_utf8(read("path")).unwrap().trim_end().to_string(),
                before: read("before"),
                after: read("after"),
                diff: String::from_utf8(read("diff")).unwrap(),
            });
        }
    }
    out
}

/// The call for `format`, or `None` when the change cannot be written in it as a model would.
fn call_for(format: Format, case: &Case, hunks: &[Hunk]) -> Option<(&'static str, Value)> {
    match format {
        Format::UnifiedDiff => Some(("apply_patch", json!({ "patch": case.diff, "format": "unified_diff" }))),
        Format::Edit => {
            let mut edits = Vec::new();
            for h in hunks {
                if changes_bom(h) {
                    return None;
                }
                let (old, new) = (model_text(&h.old), model_text(&h.new));
                // A change of line endings only, or of a final newline only: nothing a model writes.
                if old == new || old.trim_end_matches('\n') == new.trim_end_matches('\n') {
                    return None;
                }
                edits.push(json!({ "oldText": old, "newText": new }));
            }
            Some(("edit", json!({ "path": case.path, "edits": edits })))
        }
        Format::CodexPatch => {
            let mut patch = format!("*** Begin Patch\n*** Update File: {}\n", case.path);
            for h in hunks {
                let (old, new) = (model_text(&h.old), model_text(&h.new));
                if old == new || changes_bom(h) {
                    return None;
                }
                // A Codex patch has no way to add or drop a final newline.
                if old.ends_with('\n') != new.ends_with('\n') && !(old.is_empty() || new.is_empty()) {
                    return None;
                }
                patch.push_str("@@\n");
                let mut at_eof = false;
                for (tag, body) in &h.lines {
                    let body = model_text(body);
                    patch.push(*tag);
                    patch.push_str(&body);
                    if !body.ends_with('\n') {
                        patch.push('\n');
                        at_eof = true;
                    }
                }
                if at_eof {
                    patch.push_str("*** End of File\n");
                }
            }
            patch.push_str("*** End Patch\n");
            Some(("apply_patch", json!({ "patch": patch, "format": "apply_patch" })))
        }
    }
}

fn run(format: Format, case: &Case, hunks: &[Hunk]) -> (Outcome, String) {
    let Some((tool, input)) = call_for(format, case, hunks) else {
        return (Outcome::NotExpressible, String::new());
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(&case.path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &case.before).unwrap();
    let result = call_with(tool, &input, &Config::new(dir.path()));
    let now = std::fs::read(&file).unwrap();
    match &result {
        ToolResult::Error(e) => {
            let detail = format!("{}: {}", e.code.as_str(), e.message);
            if now != case.before {
                return (Outcome::Damaged, detail);
            }
            if e.code.as_str() != "ambiguous" {
                return (Outcome::Refused, detail);
            }
            // Which hunk was refused: the error names it (edit_index / hunk_index); if it does not,
            // any hunk whose old text repeats makes the refusal correct.
            let before = model_text(&String::from_utf8_lossy(&case.before));
            let index = e.edit_index.or(e.hunk_index);
            let repeats = |h: &Hunk| occurrences(&before, &model_text(&h.old)) > 1;
            let correct = match index.and_then(|i| hunks.get(i)) {
                Some(h) => repeats(h),
                None => hunks.iter().any(repeats),
            };
            if correct {
                (Outcome::AmbiguousCorrect, detail)
            } else {
                (Outcome::AmbiguousFalse, detail)
            }
        }
        _ if now == case.after => (Outcome::Placed, String::new()),
        _ => (Outcome::Wrong, first_difference(&now, &case.after)),
    }
}

fn first_difference(got: &[u8], want: &[u8]) -> String {
    let at = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let from = at.saturating_sub(40);
    format!(
        "first difference at byte {at}: got {:?}, want {:?}",
        String::from_utf8_lossy(&got[from..(at + 40).min(got.len())]),
        String::from_utf8_lossy(&want[from..(at + 40).min(want.len())]),
    )
}

#[test]
fn replayed_commits_land_byte_for_byte() {
    let dir = match std::env::var_os("SURGICAL_REPLAY_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay"),
    };
    let cases = load_cases(&dir);
    assert!(!cases.is_empty(), "no replay cases under {}", dir.display());
    let formats = [Format::UnifiedDiff, Format::Edit, Format::CodexPatch];
    let mut counts: BTreeMap<(Format, Outcome), usize> = BTreeMap::new();
    let mut time: BTreeMap<Format, Duration> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut refusals = Vec::new();
    for case in &cases {
        let hunks = parse_hunks(&case.diff);
        for format in formats {
            let start = Instant::now();
            let (outcome, detail) = run(format, case, &hunks);
            *time.entry(format).or_default() += start.elapsed();
            *counts.entry((format, outcome)).or_default() += 1;
            match outcome {
                Outcome::Wrong | Outcome::Damaged | Outcome::AmbiguousFalse => {
                    failures.push(format!("{} {format:?} {outcome:?}: {detail}", case.name))
                }
                Outcome::Refused => refusals.push(format!("{} {format:?}: {detail}", case.name)),
                _ => {}
            }
        }
    }
    println!(
        "{} cases (files changed by a commit) under {}",
        cases.len(),
        dir.display()
    );
    for format in formats {
        let line: Vec<String> = counts
            .iter()
            .filter(|((f, _), _)| *f == format)
            .map(|((_, o), n)| format!("{o:?} {n}"))
            .collect();
        println!("{format:?}: {} ({:.2?})", line.join(", "), time[&format]);
    }
    for r in &refusals {
        println!("refused: {r}");
    }
    assert!(
        failures.is_empty(),
        "{} wrong results:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Found by the replay (Humanizer 4a51bffc): git's diff of a CRLF file whose commit adds the final
/// newline as a bare LF (`-}` `\ No newline at end of file` `+}`). The hunk's lines are the same
/// apart from the marker; the line break it adds is the diff's LF, as `git apply` writes it, not
/// the file's CRLF.
#[test]
fn a_git_diff_adding_a_final_lf_to_a_crlf_file_writes_lf() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.cs");
    std::fs::write(&file, b"a\r\nb\r\n}").unwrap();
    let diff = "--- a/f.cs\n+++ b/f.cs\n@@ -2,2 +2,2 @@\n b\r\n-}\n\\ No newline at end of file\n+}\n";
    let result = call_with(
        "apply_patch",
        &json!({ "patch": diff, "format": "unified_diff" }),
        &Config::new(dir.path()),
    );
    assert!(result.is_ok(), "{}", result.to_json());
    assert_eq!(std::fs::read(&file).unwrap(), b"a\r\nb\r\n}\n");
}
