//! `surgical-eval`: runs the evaluation harness and prints its tables.
//!
//! ```text
//! cargo run --release -p surgical-eval                 # both rounds, 200 cases per row, seed 1
//! cargo run --release -p surgical-eval -- 1000 7       # cases per row, seed
//! cargo run --release -p surgical-eval -- round2 500 1 # round 2 only (round1: round 1 only)
//! ```

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
        println!(
            "Round 2. Default tiers (up to `{}`), {per} cases per row, seed {seed}:\n",
            default.name()
        );
        let report = round2::evaluate(per, seed, default);
        println!("{}", round2::table(&report));
        println!("{}\n", round2::near_miss_share(&report));
        println!("With `similar` enabled (maxStrategy \"similar\"):\n");
        let report = round2::evaluate(per, seed, Tier::Similar);
        println!("{}", round2::table(&report));
        println!("{}", round2::near_miss_share(&report));
    }
}
