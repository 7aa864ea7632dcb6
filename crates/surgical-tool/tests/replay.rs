//! The replay harness: real commits applied through `surgical_tool::call_with` (what `surgical
//! call` runs) to the parent's file, in every format a model writes — the unified diff as git
//! writes it, `edit` calls (one edit per hunk), `edit` calls perturbed as models perturb what they
//! copy (trailing whitespace dropped, indentation shifted, typography written as ASCII or the
//! reverse: one row each), a Codex patch (one `@@` section per hunk) and SEARCH/REPLACE blocks
//! (one block per hunk, through `apply_patch`).
//!
//! Scoring is an oracle independent of surgical: **placed** when the result is the commit's file
//! byte for byte (for every row, perturbed ones included: what a model gets wrong in text it
//! copies is not a change; see `replay/perturb.rs` for what each perturbation alters and which
//! changes it makes inexpressible); **ambiguous, correctly refused** when the refused hunk's old
//! text stands for more than one place of the parent's file (counted here under the row's
//! equivalence); **refused** (by error code) otherwise, file untouched; **wrong** when a success
//! leaves a file that differs from the commit's only on lines the commit changes; **damaged** when
//! bytes changed that the commit did not touch (or a refusal changed the file).
//!
//! The cases live in `<repo>/tests/replay/<directory>/cases/<case>/` (`path`, `before`,
//! `after`, `diff`), made by `tests/replay/build.sh` (extract.sh, derive.py); an ORIGIN file lies
//! beside them. `SURGICAL_REPLAY_DIR=DIR` runs the cases under DIR instead (the full run, see
//! `tests/replay/README.md`); `SURGICAL_REPLAY_REPORT=DIR` writes every case that was not placed
//! (the call, the file it left and the commit's file) under DIR to reproduce it;
//! `SURGICAL_REPLAY_FORMATS=edit,search_replace,...` runs only those rows. Run with
//! `--nocapture` to see the table.

#[path = "replay/diff.rs"]
mod diff;
#[path = "replay/perturb.rs"]
mod perturb;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use surgical_tool::{call_with, Config, ToolResult};

use diff::{changed_runs, equal_up_to_invisible_whitespace, hunk_at_new_line, parse_hunks, untouched_outside, Hunk};
use perturb::{invisible_change, model_text, perturbed, places, plain, ModelHunk, Perturbation, Skip};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Format {
    UnifiedDiff,
    Edit,
    EditPerturbed(Perturbation),
    CodexPatch,
    SearchReplace,
    /// SEARCH/REPLACE blocks in Roo's form: `:start_line:N` (the hunk's old start line) and
    /// `-------` after each SEARCH marker.
    SearchReplaceRoo,
}

impl Format {
    const ALL: [Format; 9] = [
        Format::UnifiedDiff,
        Format::Edit,
        Format::EditPerturbed(Perturbation::TrailingWhitespace),
        Format::EditPerturbed(Perturbation::Indentation),
        Format::EditPerturbed(Perturbation::TypographicAsAscii),
        Format::EditPerturbed(Perturbation::AsciiAsTypographic),
        Format::CodexPatch,
        Format::SearchReplace,
        Format::SearchReplaceRoo,
    ];

    fn name(self) -> &'static str {
        match self {
            Format::UnifiedDiff => "unified_diff",
            Format::Edit => "edit",
            Format::EditPerturbed(Perturbation::TrailingWhitespace) => "edit~trailing_ws",
            Format::EditPerturbed(Perturbation::Indentation) => "edit~indent",
            Format::EditPerturbed(Perturbation::TypographicAsAscii) => "edit~typography_as_ascii",
            Format::EditPerturbed(Perturbation::AsciiAsTypographic) => "edit~ascii_as_typography",
            Format::CodexPatch => "codex_patch",
            Format::SearchReplace => "search_replace",
            Format::SearchReplaceRoo => "search_replace~roo_line_hints",
        }
    }

    fn perturbation(self) -> Option<Perturbation> {
        match self {
            Format::EditPerturbed(p) => Some(p),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// The result equals the commit's file byte for byte.
    Placed,
    /// Trailing-whitespace and indentation rows only: the commit's file up to trailing whitespace
    /// (blank lines' included) the model could not see or wrote blank, on lines the hunks write
    /// (see `equal_up_to_invisible_whitespace`).
    PlacedUpToInvisibleWhitespace,
    /// `ambiguous`, and the refused hunk's old text stands for more than one place.
    AmbiguousCorrect,
    /// The change cannot be written in this row as a model would (see [`Skip`]); not sent.
    NotExpressible,
    /// The perturbation changes nothing in this case; not sent (the `edit` row covers it).
    Unperturbed,
    /// A perturbed oldText is word for word elsewhere in the file; not sent.
    Collides,
    /// Refused with this code, file untouched (`ambiguous` here: the text stands for one place).
    Refused(String),
    /// Success, and the file differs from the commit's only on lines the commit changes.
    Wrong,
    /// Bytes changed that the commit did not touch (by a success or by a refusal).
    Damaged,
}

struct Case {
    repo: String,
    name: String,
    dir: PathBuf,
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
                repo: repo.file_name().unwrap().to_string_lossy().into_owned(),
                name: c.file_name().unwrap().to_string_lossy().into_owned(),
                path: String::from_utf8(read("path")).unwrap().trim_end().to_string(),
                before: read("before"),
                after: read("after"),
                diff: String::from_utf8(read("diff")).unwrap(),
                dir: c,
            });
        }
    }
    out
}

/// Whether the hunk adds or removes the file's BOM (which a model's text cannot do).
fn changes_bom(h: &Hunk) -> bool {
    h.old_text().starts_with('\u{feff}') != h.new_text().starts_with('\u{feff}')
}

/// A change of line endings only, or of a final newline only, or of the BOM: nothing a model
/// writes in `edit`.
/// An empty oldText (a file that was empty) is the write tool's job.
fn edit_expressible(h: &Hunk) -> bool {
    let m = plain(h);
    let (old, new) = (m.old_text(), m.new_text());
    !changes_bom(h)
        && invisible_change(h).is_none()
        && !old.is_empty()
        && old != new
        && old.trim_end_matches('\n') != new.trim_end_matches('\n')
}

/// What is sent for one case in one row: the tool, its input, and each hunk's old text as the
/// model wrote it (to count its places when it is refused as ambiguous).
struct Call {
    tool: &'static str,
    input: Value,
    needles: Vec<String>,
}

/// A line that SEARCH/REPLACE parsers take for a marker or a directive, escaped with a backslash
/// as Roo's format says (surgical reads the escape too).
fn escape_block_line(line: &str) -> String {
    let t = line.trim();
    let marker_run = |chars: &[char], word: &str| {
        let Some(c) = t.chars().next().filter(|c| chars.contains(c)) else {
            return false;
        };
        let run = t.chars().take_while(|&x| x == c).count();
        run >= 3 && {
            let rest = t[run..].trim_start();
            rest == word || rest == format!("{word}>")
        }
    };
    let is_marker = (t.len() >= 3 && t.chars().all(|c| c == '='))
        || t.starts_with("<<<<<<<")
        || t.starts_with(">>>>>>>")
        || marker_run(&['<', '-'], "SEARCH")
        || marker_run(&['>', '+'], "REPLACE")
        || t.starts_with(":start_line:")
        || t.starts_with(":end_line:");
    if is_marker {
        format!("\\{line}")
    } else {
        line.to_string()
    }
}

fn call_for(format: Format, case: &Case, hunks: &[Hunk]) -> Result<Call, Skip> {
    // A commit that changes no text of the file (a mode change only).
    if hunks.is_empty() {
        return Err(Skip::NotExpressible);
    }
    match format {
        Format::UnifiedDiff => Ok(Call {
            tool: "apply_patch",
            input: json!({ "patch": case.diff, "format": "unified_diff" }),
            needles: hunks.iter().map(|h| model_text(&h.old_text())).collect(),
        }),
        Format::Edit | Format::EditPerturbed(_) => {
            let mut models: Vec<ModelHunk> = Vec::new();
            let mut any_changed = false;
            for h in hunks {
                if !edit_expressible(h) {
                    return Err(Skip::NotExpressible);
                }
                match format.perturbation() {
                    None => models.push(plain(h)),
                    Some(p) => {
                        let (m, changed) = perturbed(h, p)?;
                        any_changed |= changed;
                        models.push(m);
                    }
                }
            }
            if format.perturbation().is_some() && !any_changed {
                return Err(Skip::Unperturbed);
            }
            if format.perturbation().is_some() {
                let file = model_text(&String::from_utf8_lossy(&case.before));
                let exact: Vec<String> = hunks.iter().map(|h| plain(h).old_text()).collect();
                if models
                    .iter()
                    .zip(&exact)
                    .any(|(m, e)| m.old_text() != *e && places(&file, &m.old_text(), None) > 0)
                {
                    return Err(Skip::Collides);
                }
            }
            let edits: Vec<Value> = models
                .iter()
                .map(|m| json!({ "oldText": m.old_text(), "newText": m.new_text() }))
                .collect();
            Ok(Call {
                tool: "edit",
                input: json!({ "path": case.path, "edits": edits }),
                needles: models.iter().map(ModelHunk::old_text).collect(),
            })
        }
        Format::CodexPatch => {
            let mut patch = format!("*** Begin Patch\n*** Update File: {}\n", case.path);
            for h in hunks {
                let m = plain(h);
                let (old, new) = (m.old_text(), m.new_text());
                if old == new || changes_bom(h) || invisible_change(h).is_some() {
                    return Err(Skip::NotExpressible);
                }
                // A Codex patch has no way to add or drop a final newline.
                if old.ends_with('\n') != new.ends_with('\n') && !(old.is_empty() || new.is_empty()) {
                    return Err(Skip::NotExpressible);
                }
                patch.push_str("@@\n");
                let mut at_eof = false;
                for (tag, body) in &m.lines {
                    patch.push(*tag);
                    patch.push_str(body);
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
            Ok(Call {
                tool: "apply_patch",
                input: json!({ "patch": patch, "format": "apply_patch" }),
                needles: hunks.iter().map(|h| plain(h).old_text()).collect(),
            })
        }
        Format::SearchReplace | Format::SearchReplaceRoo => {
            // Aider's layout: the file's name alone on the line before the first block (and
            // `path` in the call, for a name with spaces, which a name line cannot hold).
            let mut patch = format!("{}\n", case.path);
            for h in hunks {
                let m = plain(h);
                let (old, new) = (m.old_text(), m.new_text());
                if old == new || changes_bom(h) || invisible_change(h).is_some() {
                    return Err(Skip::NotExpressible);
                }
                // A block's lines always end with a line break: it cannot add or drop a final
                // newline, and an empty (or blank) SEARCH means "create the file".
                if old.ends_with('\n') != new.ends_with('\n') || old.trim().is_empty() {
                    return Err(Skip::NotExpressible);
                }
                patch.push_str("<<<<<<< SEARCH\n");
                if format == Format::SearchReplaceRoo {
                    patch.push_str(&format!(":start_line:{}\n-------\n", h.old_start));
                }
                for l in old.split_inclusive('\n') {
                    patch.push_str(&escape_block_line(l.trim_end_matches('\n')));
                    patch.push('\n');
                }
                patch.push_str("=======\n");
                for l in new.split_inclusive('\n') {
                    patch.push_str(&escape_block_line(l.trim_end_matches('\n')));
                    patch.push('\n');
                }
                patch.push_str(">>>>>>> REPLACE\n");
            }
            Ok(Call {
                tool: "apply_patch",
                input: json!({ "patch": patch, "format": "search_replace", "path": case.path }),
                needles: hunks.iter().map(|h| plain(h).old_text()).collect(),
            })
        }
    }
}

/// One case in one row: its outcome, a one-line detail, and what to keep for a reproduction.
struct Run {
    outcome: Outcome,
    detail: String,
    call: Option<Call>,
    got: Vec<u8>,
}

fn run(format: Format, case: &Case, hunks: &[Hunk], runs: &[(usize, usize)]) -> Run {
    let call = match call_for(format, case, hunks) {
        Ok(c) => c,
        Err(skip) => {
            let outcome = match skip {
                Skip::NotExpressible => Outcome::NotExpressible,
                Skip::Unperturbed => Outcome::Unperturbed,
                Skip::Collides => Outcome::Collides,
            };
            return Run {
                outcome,
                detail: String::new(),
                call: None,
                got: Vec::new(),
            };
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(&case.path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &case.before).unwrap();
    let result = call_with(call.tool, &call.input, &Config::new(dir.path()));
    let got = std::fs::read(&file).unwrap();
    let (outcome, detail) = match &result {
        ToolResult::Error(e) => {
            let detail = format!("{}: {}", e.code.as_str(), e.message);
            if got != case.before {
                (Outcome::Damaged, format!("refused, yet the file changed: {detail}"))
            } else if e.code.as_str() != "ambiguous" {
                (Outcome::Refused(e.code.as_str().to_string()), detail)
            } else {
                // Which hunk was refused: the error names it (edit_index / hunk_index); if it does
                // not, any hunk whose old text stands for several places makes the refusal correct.
                let file_text = model_text(&String::from_utf8_lossy(&case.before));
                let repeats = |n: &String| places(&file_text, n, format.perturbation()) > 1;
                let index = e.edit_index.or(e.hunk_index);
                let correct = match index.and_then(|i| call.needles.get(i)) {
                    Some(n) => repeats(n),
                    None => call.needles.iter().any(repeats),
                };
                if correct {
                    (Outcome::AmbiguousCorrect, detail)
                } else {
                    (
                        Outcome::Refused("ambiguous (the text stands for one place)".into()),
                        detail,
                    )
                }
            }
        }
        _ if got == case.after => (Outcome::Placed, String::new()),
        _ if matches!(
            format.perturbation(),
            Some(Perturbation::TrailingWhitespace | Perturbation::Indentation)
        ) && equal_up_to_invisible_whitespace(&got, &case.after, hunks) =>
        {
            (
                Outcome::PlacedUpToInvisibleWhitespace,
                difference(&got, &case.after, hunks),
            )
        }
        _ => {
            let detail = difference(&got, &case.after, hunks);
            if untouched_outside(&case.before, runs, &got) {
                (Outcome::Wrong, detail)
            } else {
                (Outcome::Damaged, detail)
            }
        }
    };
    Run {
        outcome,
        detail,
        call: Some(call),
        got,
    }
}

/// The first line where `got` and `want` differ (one-based, in the commit's file), the hunk
/// nearest it, and both lines.
fn difference(got: &[u8], want: &[u8], hunks: &[Hunk]) -> String {
    let g: Vec<&[u8]> = got.split_inclusive(|&b| b == b'\n').collect();
    let w: Vec<&[u8]> = want.split_inclusive(|&b| b == b'\n').collect();
    let at = g
        .iter()
        .zip(&w)
        .position(|(a, b)| a != b)
        .unwrap_or(g.len().min(w.len()));
    let show = |v: &[&[u8]]| {
        v.get(at).map_or("(end of file)".to_string(), |l| {
            format!("{:?}", String::from_utf8_lossy(l))
        })
    };
    format!(
        "line {} (hunk {}): wrote {}, commit has {} ({} vs {} lines)",
        at + 1,
        hunk_at_new_line(hunks, at + 1),
        show(&g),
        show(&w),
        g.len(),
        w.len()
    )
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// Writes a case that was not placed under `out/<repo>/<case>/<row>/`: the call, the file it
/// left, the parent's and the commit's file.
fn write_report(out: &Path, case: &Case, format: Format, r: &Run) {
    let d = out.join(&case.repo).join(&case.name).join(format.name());
    std::fs::create_dir_all(&d).unwrap();
    let mut note = format!(
        "case: {}\nrow: {}\noutcome: {:?}\n{}\n",
        case.dir.display(),
        format.name(),
        r.outcome,
        r.detail
    );
    if let Some(call) = &r.call {
        let _ = writeln!(note, "tool: {}", call.tool);
        std::fs::write(d.join("call.json"), serde_json::to_string_pretty(&call.input).unwrap()).unwrap();
        std::fs::write(d.join("got"), &r.got).unwrap();
    }
    std::fs::write(d.join("before"), &case.before).unwrap();
    std::fs::write(d.join("after"), &case.after).unwrap();
    std::fs::write(d.join("README"), note).unwrap();
}

/// Wrong or damaged results the engine on main still gives on the slice kept in this repository
/// (`tests/replay/`), each a known bug with an ignored regression test: (case, row, the test). They
/// are printed, not failed on; the test fails when one of them is placed, so that its entry goes
/// with its fix. Nothing else is exempt, and nothing is exempt in a `SURGICAL_REPLAY_DIR` run.
const KNOWN_ON_MAIN: [(&str, &str, &str); 1] = [(
    "surgical/cases/1830cf3dfa26-0",
    "edit~ascii_as_typography",
    "round3.rs: a_line_the_model_copied_keeps_the_files_characters_wherever_the_alignment_puts_it",
)];

#[derive(Default)]
struct Tally {
    counts: BTreeMap<Outcome, usize>,
    time: Duration,
}

#[test]
fn replayed_commits_land_byte_for_byte() {
    let slice = std::env::var_os("SURGICAL_REPLAY_DIR").is_none();
    let dir = match std::env::var_os("SURGICAL_REPLAY_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay"),
    };
    let report = std::env::var_os("SURGICAL_REPLAY_REPORT").map(PathBuf::from);
    let formats: Vec<Format> = match std::env::var("SURGICAL_REPLAY_FORMATS") {
        Ok(list) => Format::ALL
            .into_iter()
            .filter(|f| list.split(',').any(|n| n.trim() == f.name()))
            .collect(),
        Err(_) => Format::ALL.to_vec(),
    };
    let cases = load_cases(&dir);
    assert!(!cases.is_empty(), "no replay cases under {}", dir.display());
    let mut tally: BTreeMap<(String, Format), Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut known = Vec::new();
    let mut refusals = Vec::new();
    for case in &cases {
        let hunks = parse_hunks(&case.diff);
        let runs = changed_runs(&hunks);
        for &format in &formats {
            let start = Instant::now();
            let r = run(format, case, &hunks, &runs);
            let t = tally.entry((case.repo.clone(), format)).or_default();
            t.time += start.elapsed();
            *t.counts.entry(r.outcome.clone()).or_default() += 1;
            let at = format!("{}/cases/{} {}", case.repo, case.name, format.name());
            let known_bug = KNOWN_ON_MAIN
                .iter()
                .find(|(c, f, _)| slice && *c == format!("{}/cases/{}", case.repo, case.name) && *f == format.name());
            match &r.outcome {
                Outcome::Wrong | Outcome::Damaged if known_bug.is_some() => {
                    let (c, f, test) = known_bug.unwrap();
                    println!("KNOWN BUG {c} {f} {:?} ({test}): {}", r.outcome, r.detail);
                    known.push((*c, *f));
                }
                Outcome::Wrong | Outcome::Damaged => {
                    let mut line = format!("{at} {:?}: {}", r.outcome, r.detail);
                    if let Some(call) = &r.call {
                        let _ = write!(line, "\n    call: {}", shorten(&call.input.to_string(), 1200));
                    }
                    failures.push(line);
                }
                Outcome::Refused(_) => refusals.push(format!("{at}: {}", shorten(&r.detail, 300))),
                _ => {}
            }
            if let Some(out) = &report {
                if !matches!(
                    r.outcome,
                    Outcome::Placed
                        | Outcome::PlacedUpToInvisibleWhitespace
                        | Outcome::NotExpressible
                        | Outcome::Unperturbed
                        | Outcome::Collides
                ) {
                    write_report(out, case, format, &r);
                }
            }
        }
    }
    println!(
        "{} cases (files changed by a commit) under {}",
        cases.len(),
        dir.display()
    );
    println!();
    println!("| repository | format | placed | ambiguous, correctly refused | refused (by code) | not expressible | unperturbed, collides | wrong | damaged | time |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for ((repo, format), t) in &tally {
        let n = |o: Outcome| t.counts.get(&o).copied().unwrap_or(0);
        let refused: Vec<String> = t
            .counts
            .iter()
            .filter_map(|(o, c)| match o {
                Outcome::Refused(code) => Some(format!("{c} {code}")),
                _ => None,
            })
            .collect();
        let refused_total: usize = t
            .counts
            .iter()
            .filter(|(o, _)| matches!(o, Outcome::Refused(_)))
            .map(|(_, c)| c)
            .sum();
        println!(
            "| {repo} | {} | {}{} | {} | {}{} | {} | {}, {} | {} | {} | {:.1} s |",
            format.name(),
            n(Outcome::Placed),
            match n(Outcome::PlacedUpToInvisibleWhitespace) {
                0 => String::new(),
                k => format!(" (+{k} up to invisible whitespace)"),
            },
            n(Outcome::AmbiguousCorrect),
            refused_total,
            if refused.is_empty() {
                String::new()
            } else {
                format!(" ({})", refused.join(", "))
            },
            n(Outcome::NotExpressible),
            n(Outcome::Unperturbed),
            n(Outcome::Collides),
            n(Outcome::Wrong),
            n(Outcome::Damaged),
            t.time.as_secs_f64()
        );
    }
    println!();
    for r in &refusals {
        println!("refused: {r}");
    }
    assert!(
        failures.is_empty(),
        "{} wrong or damaged results:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if slice && formats.len() == Format::ALL.len() {
        for (c, f, test) in KNOWN_ON_MAIN {
            assert!(
                known.contains(&(c, f)),
                "{c} {f} is placed now: remove it from KNOWN_ON_MAIN and the #[ignore] of {test}"
            );
        }
    }
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
