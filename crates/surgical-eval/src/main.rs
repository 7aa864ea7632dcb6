//! `surgical-eval`: runs the suites of the evaluation harness and prints their tables.
//!
//! ```text
//! surgical-eval [round1|round2|snippets|all] [PER [SEED]]
//!
//! cargo run --release -p surgical-eval                 # round 1 and round 2, 200 cases per row, seed 1
//! cargo run --release -p surgical-eval -- 1000 7       # cases per row, seed
//! cargo run --release -p surgical-eval -- round2 500 1 # round 2 only (round1: round 1 only)
//! cargo run --release -p surgical-eval -- snippets      # the lazy-snippet corpus
//! cargo run --release -p surgical-eval -- snippets rust/13086af49a53/plain   # one case
//! cargo run --release -p surgical-eval -- all 200 1     # both rounds, then the snippet corpus
//! ```
//!
//! `snippets` reads `eval/snippets` (or `SURGICAL_SNIPPETS_DIR`) and prints the per-variant table
//! and every case not placed as expected; with a case's name, that case's snippet, outcome and the
//! difference between the expected file and the result. It exits with 1 when the corpus falls
//! short of its thresholds (`snippets::THRESHOLDS`), 2 when the corpus cannot be read.
//!
//! Round 2 only: `SURGICAL_EVAL_KIND=text` runs only the kinds whose row name contains `text`;
//! `SURGICAL_EVAL_SHOW_REFUSALS=1` prints every refused case that should have been placed;
//! `SURGICAL_EVAL_DUMP=dir` writes the last wrong case's `file`, `old` and `new` into `dir`.

use surgical_core::Tier;
use surgical_eval::{default_tier, round1, round2, snippets};

const USAGE: &str = "usage: surgical-eval [round1|round2|snippets|all] [PER [SEED]]
       surgical-eval snippets [REPO/COMMIT12/VARIANT]
  no name: round1 and round2; PER cases per row (200), SEED (1);
  snippets: the lazy-snippet corpus (eval/snippets, or SURGICAL_SNIPPETS_DIR)";

/// What to run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    /// Round 1 and round 2 (no name).
    Rounds,
    Round1,
    Round2,
    Snippets,
    All,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str);
    let what = match name {
        Some("round1") => Run::Round1,
        Some("round2") => Run::Round2,
        Some("snippets") => Run::Snippets,
        Some("all") => Run::All,
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return;
        }
        Some(n) if n.parse::<u64>().is_err() => {
            eprintln!("unknown suite `{n}`\n{USAGE}");
            std::process::exit(2);
        }
        _ => Run::Rounds,
    };
    if what != Run::Rounds {
        args.remove(0);
    }
    if what == Run::Snippets {
        std::process::exit(snippets(args.first().map(String::as_str)));
    }
    let per: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    if matches!(what, Run::Rounds | Run::Round1 | Run::All) {
        round_1(per, seed);
    }
    if matches!(what, Run::Rounds | Run::Round2 | Run::All) {
        round_2(per, seed);
    }
    if what == Run::All {
        println!();
        std::process::exit(snippets(None));
    }
}

/// Round 1's tables: the default tiers, then with `similar`.
fn round_1(per: usize, seed: u64) {
    let default = default_tier();
    println!(
        "Round 1. Default tiers (up to `{}`), {per} cases per row, seed {seed}:\n",
        default.name()
    );
    println!("{}", round1::table(&round1::evaluate(per, seed, default)));
    println!("With `similar` enabled (maxStrategy \"similar\"):\n");
    println!("{}", round1::table(&round1::evaluate(per, seed, Tier::Similar)));
}

/// Round 2's tables and near-miss sentences: the default tiers, then with `similar`.
fn round_2(per: usize, seed: u64) {
    let default = default_tier();
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

/// The lazy-snippet corpus through surgical's merger: the per-variant table, then every case that
/// was not placed as expected (or one case in detail). Exits 1 when the corpus falls short of its
/// thresholds.
fn snippets(only: Option<&str>) -> i32 {
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
        let merged = merge(case);
        println!(
            "{}: {}\n--- snippet\n{}",
            case.name(),
            snippets::verdict(&snippets::judge(case, &merged)),
            case.snippet
        );
        match merged {
            snippets::Merged::Refused { code, message } => println!("--- refused ({code})\n{message}"),
            snippets::Merged::Applied(result) => {
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
            println!("- {}: {} {}", f.case, snippets::verdict(&f.verdict), f.message);
        }
    }
    let violations = snippets::violations(&rows);
    for v in &violations {
        println!("FAILS: {v}");
    }
    i32::from(!violations.is_empty())
}
