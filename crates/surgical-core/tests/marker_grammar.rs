//! The omission-marker grammar of issue 31 as a table (tests/data/markers/markers.tsv; the
//! grammar is specified in docs/snippets-fresh.md, "Marker grammar", and read by the reference
//! implementation eval/snippets/markers.py). One grammar for the whole project: the snippet
//! detector and the placeholder guard both follow it.
//!
//! The grammar's function is `surgical_core::marker::read(line, kind) -> Option<Marker>` (`Marker`
//! holding its `Strength` — `Strong` or `Weak` — and the comment syntax it was written in;
//! `TextKind::of_path` tells prose — `.md`, `.rst`, `.txt`, ... — from code and data). The tests
//! below run the grammar itself, the snippet detector and the placeholder guard against the table
//! (before issue 31's phase B the two readers disagreed with it and with each other: the detector
//! on 24 of 113 rows, the guard on 33).

use std::path::Path;

use surgical_core::marker::{self, Strength, TextKind};

/// One row of the table: what the line must read as, in a file named `path`.
struct Row {
    /// `strong`, `weak` or `no`.
    expect: String,
    path: String,
    line: String,
    /// Where the row is, for the failure message.
    at: String,
}

fn table() -> Vec<Row> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/markers");
    let mut rows = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/markers")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    names.sort();
    for file in names {
        let text = std::fs::read_to_string(&file).expect("UTF-8 table");
        for (n, raw) in text.lines().enumerate() {
            if raw.trim().is_empty() || raw.starts_with("##") {
                continue;
            }
            let mut cols = raw.splitn(3, '\t');
            let (Some(expect), Some(path), Some(line)) = (cols.next(), cols.next(), cols.next()) else {
                panic!("{}:{}: expect<TAB>path<TAB>line", file.display(), n + 1);
            };
            assert!(
                matches!(expect, "strong" | "weak" | "no"),
                "{}:{}: unknown expectation {expect:?}",
                file.display(),
                n + 1
            );
            rows.push(Row {
                expect: expect.to_owned(),
                path: path.to_owned(),
                line: line.to_owned(),
                at: format!("{}:{}", file.file_name().unwrap().to_string_lossy(), n + 1),
            });
        }
    }
    rows
}

/// Prose files: where a weak marker (a bare ellipsis) is content to the placeholder guard.
fn is_prose(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".markdown", ".mdx", ".rst", ".txt", ".text", ".adoc"]
        .iter()
        .any(|e| lower.ends_with(e))
}

/// The rows a reader gets wrong, one line each.
fn disagreements(rows: &[Row], wants: impl Fn(&Row) -> bool, reads: impl Fn(&Row) -> bool) -> Vec<String> {
    rows.iter()
        .filter(|r| wants(r) != reads(r))
        .map(|r| {
            format!(
                "{}: {:?} in {} ({}): should {}be a marker",
                r.at,
                r.line,
                r.path,
                r.expect,
                if wants(r) { "" } else { "not " }
            )
        })
        .collect()
}

#[test]
fn the_table_is_well_formed_and_covers_every_syntax() {
    let rows = table();
    assert!(rows.len() >= 100, "{} rows", rows.len());
    for expect in ["strong", "weak", "no"] {
        assert!(rows.iter().any(|r| r.expect == expect), "no {expect} row");
    }
    // Each comment syntax of the grammar has a marker row.
    for lead in [
        "//", "#", "--", ";", "%", "REM", "::", "'", "!", "..", "/*", "<!--", "{/*", "{#", "(*", "{{/*", "<%--",
        "{{!--",
    ] {
        assert!(
            rows.iter()
                .any(|r| r.expect == "strong" && r.line.trim_start().starts_with(lead)),
            "no strong row in the {lead} syntax"
        );
    }
}

#[test]
fn the_grammar_reads_every_row_as_the_table_says() {
    let rows = table();
    let wrong: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let got = match marker::read(&r.line, TextKind::of_path(&r.path)).map(|m| m.strength) {
                Some(Strength::Strong) => "strong",
                Some(Strength::Weak) => "weak",
                None => "no",
            };
            (got != r.expect).then(|| {
                format!(
                    "{}: {:?} in {}: read {got}, expected {}",
                    r.at, r.line, r.path, r.expect
                )
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{} rows:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn the_snippet_detector_follows_the_marker_table() {
    // Strong and weak lines are markers to the detector (a weak one is content only where the file
    // holds it there, which the merge decides with the file at hand).
    let rows = table();
    let wrong = disagreements(
        &rows,
        |r| r.expect != "no",
        |r| surgical_core::snippet::is_marker_in(&r.line, TextKind::of_path(&r.path)),
    );
    assert!(wrong.is_empty(), "{} rows:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn the_placeholder_guard_follows_the_marker_table() {
    // The guard refuses a newText line that is a strong marker anywhere, or a weak one in code;
    // a bare ellipsis in prose is content (issue 28, class 4). It asks `marker::read` with the
    // edited file's kind.
    let rows = table();
    let wants = |r: &Row| r.expect == "strong" || (r.expect == "weak" && !is_prose(&r.path));
    let reads = |r: &Row| {
        surgical_core::omission_placeholder_in("", &format!("{}\n", r.line), TextKind::of_path(&r.path)).is_some()
    };
    let wrong = disagreements(&rows, wants, reads);
    assert!(wrong.is_empty(), "{} rows:\n{}", wrong.len(), wrong.join("\n"));
    // The kind-less guard reads as code: a bare `...` in code is refused.
    assert!(surgical_core::omission_placeholder("", "...\n").is_some());
}
