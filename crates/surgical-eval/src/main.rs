//! `surgical-eval`: runs the evaluation harness and prints its tables.
//!
//! ```text
//! cargo run --release -p surgical-eval                 # 200 cases per perturbation, seed 1
//! cargo run --release -p surgical-eval -- 1000 7       # cases per perturbation, seed
//! ```

use surgical_core::Tier;
use surgical_eval::{evaluate, table};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let per: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    println!("Default tiers (everything but `similar`), {per} cases per row, seed {seed}:\n");
    println!("{}", table(&evaluate(per, seed, Tier::DEFAULT_LOOSEST)));
    println!("With `similar` enabled (maxStrategy \"similar\"):\n");
    println!("{}", table(&evaluate(per, seed, Tier::Similar)));
}
