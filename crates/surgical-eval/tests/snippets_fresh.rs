//! The fresh lazy-snippet sets of issue 31 (built outside the repository by
//! `eval/snippets/fresh.sh`; see eval/snippets/README.md, "Fresh sets"), judged by the corpus's
//! oracle (`surgical_eval::snippets::judge`) for surgical's merger or for any other merger's
//! results read from files (the baseline of `eval/snippets/baseline.py`), one verdict per case
//! written as a table for `eval/snippets/fresh_report.py`.
//!
//! Ignored: it needs the sets, which hold other projects' code and are never committed.
//!
//! ```sh
//! SURGICAL_SNIPPETS_DIR=/work/data/snippets-fresh SNIPPETS_VERDICTS=/tmp/surgical.tsv \
//!   cargo test --release -p surgical-eval --test snippets_fresh -- --ignored --nocapture
//! # another merger's results (OUT/<repo>/<id>/<variant>/result or .../refused "code<TAB>why"):
//! SNIPPETS_MERGED=/work/data/snippets-fresh-baseline ... (the same command)
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use surgical_eval::snippets::{self, Case, Expect, Merged};
use surgical_eval::Outcome;

/// The result another merger wrote for `case` under `dir`.
fn merged_by_file(dir: &Path, case: &Case) -> Merged {
    let d = dir.join(&case.repo).join(&case.id).join(&case.variant);
    if let Ok(bytes) = std::fs::read(d.join("result")) {
        return Merged::Applied(bytes);
    }
    match std::fs::read_to_string(d.join("refused")) {
        Ok(s) => {
            let (code, message) = s.trim_end().split_once('\t').unwrap_or((s.trim_end(), ""));
            Merged::Refused {
                code: code.to_owned(),
                message: message.to_owned(),
            }
        }
        Err(_) => Merged::Refused {
            code: "missing".to_owned(),
            message: format!("no result under {}", d.display()),
        },
    }
}

/// One line for the verdict table: no tabs or line breaks inside a field.
fn field(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

#[test]
#[ignore = "needs the fresh sets (SURGICAL_SNIPPETS_DIR), built outside the repository by eval/snippets/fresh.sh"]
fn fresh_sets_first_run() {
    let dir = std::env::var_os("SURGICAL_SNIPPETS_DIR")
        .map(PathBuf::from)
        .expect("set SURGICAL_SNIPPETS_DIR to the fresh sets (eval/snippets/fresh.sh OUT)");
    let cases = snippets::load(&dir).expect("the sets load");
    assert!(!cases.is_empty(), "no case under {}", dir.display());
    let merged_dir = std::env::var_os("SNIPPETS_MERGED").map(PathBuf::from);
    let started = std::time::Instant::now();
    let outcomes: HashMap<String, Merged> = cases
        .iter()
        .map(|c| {
            let outcome = match &merged_dir {
                Some(m) => merged_by_file(m, c),
                None => snippets::surgical(c),
            };
            (c.name(), outcome)
        })
        .collect();
    let elapsed = started.elapsed();
    let mut tsv = String::from("set\tcase\tvariant\tpath\texpect\tverdict\tcode\tdamaged\tmessage\tinvisible\n");
    for c in &cases {
        let outcome = &outcomes[&c.name()];
        let verdict = snippets::judge(c, outcome);
        let (v, code, damaged) = match &verdict {
            Outcome::Placed { .. } => ("placed", String::new(), false),
            Outcome::Refused { code, .. } => ("refused", code.clone(), false),
            Outcome::Wrong { damaged, .. } => ("wrong", String::new(), *damaged),
        };
        // A wrong result that differs from the commit's file in invisible bytes only (issue 31's
        // whitespace rule), in its own column: `context` (the file's bytes kept on context lines,
        // by rule) or `new-line` (a new line re-keyed to the file's indentation).
        let invisible = match (&verdict, outcome) {
            (Outcome::Wrong { .. }, Merged::Applied(result)) => {
                match snippets::invisible(&c.before, &c.after, result) {
                    snippets::Invisible::No => "",
                    snippets::Invisible::Context => "context",
                    snippets::Invisible::NewLine => "new-line",
                }
            }
            _ => "",
        };
        let message = match outcome {
            Merged::Refused { message, .. } => message.lines().next().unwrap_or("").to_owned(),
            Merged::Applied(_) => String::new(),
        };
        let _ = writeln!(
            tsv,
            "{}\t{}\t{}\t{}\t{}\t{v}\t{code}\t{damaged}\t{}\t{invisible}",
            c.repo,
            c.id,
            c.variant,
            field(&c.path),
            if c.expect == Expect::Refused { "refuse" } else { "place" },
            field(&message)
        );
    }
    if let Some(out) = std::env::var_os("SNIPPETS_VERDICTS") {
        std::fs::write(&out, &tsv).expect("write the verdicts");
    }
    let (rows, _) = snippets::evaluate(&cases, |c| outcomes[&c.name()].clone());
    println!(
        "{} ({} cases, merged in {elapsed:.2?}, by {}):\n\n{}",
        dir.display(),
        cases.len(),
        merged_dir
            .as_ref()
            .map_or("surgical".to_owned(), |m| m.display().to_string()),
        snippets::table(&rows)
    );
    // The run is a measurement; it fails only when the sets cannot be judged at all.
    assert_eq!(tsv.lines().count(), cases.len() + 1);
}
