//! Breaking edits, per language: each file of a set is parsed (it must parse without a problem),
//! edits that break its syntax are made from its tree (a closing bracket dropped, an opening one
//! dropped, a string's closing quote dropped, a `;` or a `,` between elements dropped, a Python
//! line dedented to no level or indented, a YAML key indented out of its mapping, a block's `end`
//! or `fi`/`done` dropped, a Markdown fence's closing line dropped), and each must be reported,
//! on the right line: the line of the edit (±1), or the line of the opener the edit left
//! unclosed, or the line the report says the closer belongs before (±1).
//!
//! In CI: the synthetic set `tests/detection/` (our own text, a file per language). With
//! `SURGICAL_DETECTION_DIR=DIR`, the files under DIR instead (real files, kept outside the
//! repository), and the table is printed (`--nocapture`); the thresholds are asserted on both.
//! `SURGICAL_DETECTION_BUDGET_MS=N` sets the check's time budget (default 200 ms): on a loaded
//! machine a check over the budget counts as not reported, which a larger budget tells apart from
//! a break the check does not see.

#[path = "support/breaking.rs"]
#[allow(dead_code)]
mod breaking;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use breaking::{files, mutations, on_the_right_line};
use surgical_core::Change;
use surgical_syntax::{check_as, Check, Language, Limits};

#[derive(Default)]
struct Tally {
    files: usize,
    edits: usize,
    reported: usize,
    right_line: usize,
    kinds: BTreeMap<String, (usize, usize, usize)>,
    misses: Vec<String>,
}

#[test]
fn breaking_edits_are_reported_on_the_right_line() {
    let (dir, real) = match std::env::var_os("SURGICAL_DETECTION_DIR") {
        Some(d) => (PathBuf::from(d), true),
        None => (Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/detection"), false),
    };
    let mut paths = Vec::new();
    files(&dir, &mut paths);
    let limits = match std::env::var("SURGICAL_DETECTION_BUDGET_MS") {
        Ok(ms) => Limits {
            budget: std::time::Duration::from_millis(ms.parse().expect("a number of milliseconds")),
            ..Limits::default()
        },
        Err(_) => Limits::default(),
    };
    let mut tally: BTreeMap<Language, Tally> = BTreeMap::new();
    let mut unclean = Vec::new();
    for path in paths {
        let text = std::fs::read(&path).unwrap();
        let name = path.to_string_lossy().into_owned();
        let Some(language) = Language::detect(&name, &text) else {
            continue;
        };
        // The file must be clean: its own problems would hide or explain the edits'.
        let clean = check_as(language, b"", &text, &[Change::new(0..0, 0..text.len())], &limits);
        match clean {
            Check::Checked { ref errors, .. } if errors.is_empty() => {}
            other => {
                unclean.push(format!("{name}: {other:?}"));
                continue;
            }
        }
        let t = tally.entry(language).or_default();
        t.files += 1;
        for m in mutations(language, &text) {
            let mut new = text[..m.at.start].to_vec();
            new.extend_from_slice(&m.with);
            new.extend_from_slice(&text[m.at.end..]);
            let change = Change::new(m.at.clone(), m.at.start..m.at.start + m.with.len());
            let result = check_as(language, &text, &new, &[change], &limits);
            let errors = match result {
                Check::Checked { errors, .. } => errors,
                // Past the time budget (a loaded machine): counted as not reported.
                _ => Vec::new(),
            };
            let reported = !errors.is_empty();
            let right = on_the_right_line(&errors, &m);
            t.edits += 1;
            t.reported += reported as usize;
            t.right_line += right as usize;
            let k = t.kinds.entry(format!("{:?}", m.kind)).or_default();
            k.0 += 1;
            k.1 += reported as usize;
            k.2 += right as usize;
            if !right {
                t.misses.push(format!(
                    "{name} {:?} line {}: {}",
                    m.kind,
                    m.lines[0] + 1,
                    errors
                        .iter()
                        .map(|e| format!("{}: {:?}", e.line, e.problem))
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
        }
    }
    println!("| language | files | breaking edits | reported | on the right line | kinds (edits/reported/right) |");
    println!("|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for (language, t) in &tally {
        let kinds: Vec<String> = t
            .kinds
            .iter()
            .map(|(k, (n, r, l))| format!("{k} {n}/{r}/{l}"))
            .collect();
        println!(
            "| {} | {} | {} | {} ({:.1}%) | {} ({:.1}%) | {} |",
            language.name(),
            t.files,
            t.edits,
            t.reported,
            100.0 * t.reported as f64 / t.edits.max(1) as f64,
            t.right_line,
            100.0 * t.right_line as f64 / t.edits.max(1) as f64,
            kinds.join(", ")
        );
        if t.edits < 10 || t.right_line * 100 < t.edits * 95 {
            failures.push(language.name());
        }
    }
    for t in tally.values() {
        for m in &t.misses {
            println!("MISS {m}");
        }
    }
    for u in &unclean {
        println!("UNCLEAN {u}");
    }
    if !real {
        assert!(unclean.is_empty(), "synthetic files with problems: {unclean:?}");
        assert_eq!(tally.len(), Language::ALL.len(), "a synthetic file per language");
    }
    assert!(
        failures.is_empty(),
        "under 10 edits or 95% on the right line: {failures:?}"
    );
}
