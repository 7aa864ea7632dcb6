//! `surgical-eval`: runs the evaluation harness and prints its tables.
//!
//! ```text
//! cargo run --release -p surgical-eval                 # both rounds, 200 cases per row, seed 1
//! cargo run --release -p surgical-eval -- 1000 7       # cases per row, seed
//! cargo run --release -p surgical-eval -- round2 500 1 # round 2 only (round1: round 1 only)
//! cargo run --release -p surgical-eval -- snippets      # the lazy-snippet corpus
//! cargo run --release -p surgical-eval -- snippets rust/13086af49a53/plain   # one case
//! ```
//!
//! `snippets` reads `eval/snippets` (or `SURGICAL_SNIPPETS_DIR`) and prints the per-variant table
//! and every case not placed as expected; with a case's name, that case's snippet, outcome and the
//! difference between the expected file and the result.
//!
//! Round 2 only: `SURGICAL_EVAL_KIND=text` runs only the kinds whose row name contains `text`;
//! `SURGICAL_EVAL_SHOW_REFUSALS=1` prints every refused case that should have been placed;
//! `SURGICAL_EVAL_DUMP=dir` writes the last wrong case's `file`, `old` and `new` into `dir`.

use surgical_core::Tier;
use surgical_eval::{default_tier, evaluate, round2, table};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("snippets") {
        std::process::exit(snippets(args.get(1).map(String::as_str)));
    }
    let round = match args.first().map(String::as_str) {
        Some("round1") => Some(1),
        Some("round2") => Some(2),
        _ => None,
    };
    if round.is_some() {
        args.remove(0);
    }
    let per: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let default = default_tier();
    if round != Some(2) {
        println!(
            "Round 1. Default tiers (up to `{}`), {per} cases per row, seed {seed}:\n",
            default.name()
        );
        println!("{}", table(&evaluate(per, seed, default)));
        println!("With `similar` enabled (maxStrategy \"similar\"):\n");
        println!("{}", table(&evaluate(per, seed, Tier::Similar)));
    }
    if round != Some(1) {
        let only = std::env::var("SURGICAL_EVAL_KIND").unwrap_or_default();
        let kinds: Vec<round2::Kind> = round2::Kind::ALL
            .into_iter()
            .filter(|k| k.name().contains(only.as_str()))
            .collect();
        println!(
            "Round 2. Default tiers (up to `{}`), {per} cases per row, seed {seed}:\n",
            default.name()
        );
        let report = round2::evaluate_kinds(&kinds, per, seed, default);
        println!("{}", round2::table(&report));
        println!("{}\n", round2::near_miss_share(&report));
        println!("With `similar` enabled (maxStrategy \"similar\"):\n");
        let report = round2::evaluate_kinds(&kinds, per, seed, Tier::Similar);
        println!("{}", round2::table(&report));
        println!("{}", round2::near_miss_share(&report));
    }
}

/// The lazy-snippet corpus through surgical's merger: the per-variant table, then every case that
/// was not placed as expected (or one case in detail). Exits 1 when the corpus falls short of its
/// thresholds.
fn snippets(only: Option<&str>) -> i32 {
    use surgical_eval::snippets;
    let dir = snippets::corpus_dir();
    let cases = match snippets::load(&dir) {
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("cannot read the snippet corpus at {}: {e}", dir.display());
            return 2;
        }
    };
    let merge = snippets::surgical;
    if let Some(name) = only {
        let Some(case) = cases.iter().find(|c| c.name() == name) else {
            eprintln!("no case {name} (cases are named REPO/COMMIT12/VARIANT)");
            return 2;
        };
        let outcome = merge(case);
        println!(
            "{}: {:?}\n--- snippet\n{}",
            case.name(),
            snippets::judge(case, &outcome),
            case.snippet
        );
        match outcome {
            snippets::Outcome::Refused { code, message } => println!("--- refused ({code})\n{message}"),
            snippets::Outcome::Applied(result) => {
                let (expected, result) = (String::from_utf8_lossy(&case.after), String::from_utf8_lossy(&result));
                let diff = similar::TextDiff::from_lines(expected.as_ref(), result.as_ref());
                println!("--- expected -> result\n{}", diff.unified_diff().context_radius(2));
            }
        }
        return 0;
    }
    let started = std::time::Instant::now();
    let (rows, failures) = snippets::evaluate(&cases, merge);
    let elapsed = started.elapsed();
    println!(
        "Lazy snippets from real commits ({}, {} cases, {elapsed:.2?}):\n",
        dir.display(),
        cases.len()
    );
    println!("{}", snippets::table(&rows));
    if !failures.is_empty() {
        println!("Not placed as expected:");
        for f in &failures {
            println!("- {}: {:?} {}", f.case, f.verdict, f.message);
        }
    }
    let violations = snippets::violations(&rows);
    for v in &violations {
        println!("FAILS: {v}");
    }
    i32::from(!violations.is_empty())
}
