//! `surgical-eval`: runs the evaluation harness and prints its tables.
//!
//! ```text
//! cargo run --release -p surgical-eval                 # both rounds, 200 cases per row, seed 1
//! cargo run --release -p surgical-eval -- 1000 7       # cases per row, seed
//! cargo run --release -p surgical-eval -- round2 500 1 # round 2 only (round1: round 1 only)
//! ```
//!
//! Round 2 only: `SURGICAL_EVAL_KIND=text` runs only the kinds whose row name contains `text`;
//! `SURGICAL_EVAL_SHOW_REFUSALS=1` prints every refused case that should have been placed;
//! `SURGICAL_EVAL_DUMP=dir` writes the last wrong case's `file`, `old` and `new` into `dir`.

use surgical_core::Tier;
use surgical_eval::{default_tier, evaluate, round2, table};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
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
        println!("{}", round2::table(&round2::evaluate_kinds(&kinds, per, seed, default)));
        println!("With `similar` enabled (maxStrategy \"similar\"):\n");
        println!(
            "{}",
            round2::table(&round2::evaluate_kinds(&kinds, per, seed, Tier::Similar))
        );
    }
}
