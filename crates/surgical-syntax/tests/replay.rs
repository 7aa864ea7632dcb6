//! Real commits replayed through the check: each case (a file a commit modified: `path`,
//! `before`, `after`, `diff`; see `tests/replay/README.md`) is checked with the changes its diff's
//! hunks make, and every error reported is an alarm. In CI, the repository's slices
//! (`tests/replay/surgical`, `tests/replay/surgical-derived`) must raise none.
//!
//! `SURGICAL_REPLAY_DIR=DIR[:DIR...]` runs the sets under each DIR instead (a DIR holding `cases/`,
//! or holding such sets), and lists every alarm without failing: whether the commit broke the
//! syntax itself is for a person to judge (docs/syntax-check.md has the figures). Run with
//! `--nocapture` to see the table; `SURGICAL_REPLAY_ONLY=TEXT` keeps the cases whose name
//! (`set/commit-n`) holds TEXT.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use surgical_core::Change;
use surgical_syntax::{check, Check, Limits, Skip};

struct Case {
    name: String,
    path: String,
    before: Vec<u8>,
    after: Vec<u8>,
    diff: String,
}

fn sets(dir: &Path) -> Vec<PathBuf> {
    if dir.join("cases").is_dir() {
        return vec![dir.to_path_buf()];
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join("cases").is_dir())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

fn load(set: &Path) -> Vec<Case> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(set.join("cases"))
        .expect("cases readable")
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|d| {
            let read = |f: &str| std::fs::read(d.join(f)).unwrap_or_else(|e| panic!("{}/{f}: {e}", d.display()));
            Case {
                name: format!(
                    "{}/{}",
                    set.file_name().unwrap().to_string_lossy(),
                    d.file_name().unwrap().to_string_lossy()
                ),
                path: String::from_utf8(read("path")).unwrap().trim_end().to_string(),
                before: read("before"),
                after: read("after"),
                diff: String::from_utf8_lossy(&read("diff")).into_owned(),
            }
        })
        .collect()
}

/// The byte ranges of lines `lines` (zero-based, `\n`-lines as git counts them) of `text`.
fn line_bytes(starts: &[usize], len: usize, lines: Range<usize>) -> Range<usize> {
    let at = |k: usize| starts.get(k).copied().unwrap_or(len);
    at(lines.start)..at(lines.end)
}

/// The changes the diff's hunks make, as byte ranges of whole lines.
fn changes(case: &Case) -> Vec<Change> {
    let starts = |t: &[u8]| -> Vec<usize> {
        std::iter::once(0)
            .chain(t.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1))
            .filter(|&s| s < t.len())
            .collect()
    };
    let (old_starts, new_starts) = (starts(&case.before), starts(&case.after));
    let mut out = Vec::new();
    for line in case.diff.lines().filter(|l| l.starts_with("@@ ")) {
        let mut parts = line.split_whitespace().skip(1);
        let range = |s: &str| -> Range<usize> {
            let s = &s[1..];
            let (start, count) = match s.split_once(',') {
                Some((a, b)) => (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()),
                None => (s.parse::<usize>().unwrap(), 1),
            };
            // An empty side's start is the line before the hunk.
            let first = if count == 0 { start } else { start - 1 };
            first..first + count
        };
        let old = range(parts.next().unwrap());
        let new = range(parts.next().unwrap());
        out.push(Change::new(
            line_bytes(&old_starts, case.before.len(), old),
            line_bytes(&new_starts, case.after.len(), new),
        ));
    }
    out
}

#[derive(Default)]
struct Tally {
    cases: usize,
    clean: usize,
    alarms: Vec<String>,
    skipped: BTreeMap<String, usize>,
    time: Duration,
    slowest: Duration,
}

#[test]
fn replayed_commits_raise_no_alarm() {
    let (dirs, strict) = match std::env::var("SURGICAL_REPLAY_DIR") {
        Ok(list) => (list.split(':').map(PathBuf::from).collect::<Vec<_>>(), false),
        Err(_) => (
            vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay")],
            true,
        ),
    };
    // `SURGICAL_REPLAY_ONLY=TEXT`: only the cases whose name (`set/commit-n`) holds TEXT.
    let only = std::env::var("SURGICAL_REPLAY_ONLY").ok();
    let mut by_language: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = 0;
    for dir in &dirs {
        for set in sets(dir) {
            for case in load(&set) {
                if only.as_ref().is_some_and(|o| !case.name.contains(o.as_str())) {
                    continue;
                }
                total += 1;
                let changes = changes(&case);
                let began = Instant::now();
                let result = check(&case.path, &case.before, &case.after, &changes, &Limits::default());
                let took = began.elapsed();
                let (language, outcome) = match result {
                    Check::Checked { language, errors, .. } => (language.name().to_string(), Ok(errors)),
                    Check::Skipped {
                        reason: Skip::UnknownLanguage,
                        ..
                    } => ("(unknown)".to_string(), Err("unknown language".to_string())),
                    Check::Skipped { language, reason } => (
                        language.map_or("(unknown)", |l| l.name()).to_string(),
                        Err(format!("{reason:?}")),
                    ),
                };
                let tally = by_language.entry(language).or_default();
                tally.cases += 1;
                tally.time += took;
                tally.slowest = tally.slowest.max(took);
                match outcome {
                    Ok(errors) if errors.is_empty() => tally.clean += 1,
                    Ok(errors) => {
                        for e in errors {
                            tally.alarms.push(format!(
                                "{} {} line {}: {:?} | {}",
                                case.name,
                                case.path,
                                e.line,
                                e.problem,
                                e.source.trim()
                            ));
                        }
                    }
                    Err(why) => *tally.skipped.entry(why).or_default() += 1,
                }
            }
        }
    }
    assert!(total > 0, "no replay cases under {dirs:?}");
    println!("| language | files | checked | clean | alarms | skipped | mean | slowest |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut alarms = Vec::new();
    for (language, t) in &by_language {
        let skipped: usize = t.skipped.values().sum();
        println!(
            "| {language} | {} | {} | {} | {} | {} | {:.2} ms | {:.1} ms |",
            t.cases,
            t.cases - skipped,
            t.clean,
            t.alarms.len(),
            if t.skipped.is_empty() {
                "0".to_string()
            } else {
                format!("{:?}", t.skipped)
            },
            t.time.as_secs_f64() * 1000.0 / t.cases as f64,
            t.slowest.as_secs_f64() * 1000.0
        );
        alarms.extend(t.alarms.iter().cloned());
    }
    for a in &alarms {
        println!("ALARM {a}");
    }
    if strict {
        assert!(
            alarms.is_empty(),
            "{} alarms on the repository's replay slices",
            alarms.len()
        );
    }
}
