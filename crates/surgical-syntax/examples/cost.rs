//! What the check costs on a large file: `cargo run --release -p surgical-syntax --example cost --
//! FILE [RUNS] [LINE]`. Takes FILE's first 10,000 lines and times, as medians over RUNS (default
//! 21): one parse of the whole text (for scale), the check of a one-line edit at the end of LINE
//! (one-based; default the middle line) that keeps the syntax (the common case: windows), and of
//! one that breaks it (from windows when they can decide, else the whole texts).

use std::time::{Duration, Instant};

use surgical_core::Change;
use surgical_syntax::{check, Check, Limits};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: cost FILE [RUNS] [LINE]");
    let runs: usize = args.next().map_or(21, |r| r.parse().expect("RUNS a number"));
    let at_line: Option<usize> = args.next().map(|l| l.parse().expect("LINE a number"));
    let whole = std::fs::read(&path).expect("FILE readable");
    let cut = whole
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(9_999)
        .map_or(whole.len(), |(i, _)| i + 1);
    let old = &whole[..cut];
    let lines = old.iter().filter(|&&b| b == b'\n').count();
    let language = surgical_syntax::Language::detect(&path, old).expect("a known language");
    // A line in the middle: the clean edit appends a comment-free token-neutral space before its
    // line break; the breaking one adds an opening bracket at its end.
    let middle = old
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(at_line.map_or(lines / 2, |l| l.saturating_sub(1)))
        .map(|(i, _)| i)
        .unwrap();
    let edit = |insert: &[u8]| {
        let mut new = old[..middle].to_vec();
        new.extend_from_slice(insert);
        new.extend_from_slice(&old[middle..]);
        let change = Change::new(middle..middle, middle..middle + insert.len());
        (new, change)
    };
    let limits = Limits::default();
    let mut parse = Vec::new();
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&surgical_syntax::tree_sitter_language(language).unwrap())
        .unwrap();
    for _ in 0..runs {
        let began = Instant::now();
        let _ = parser.parse(old, None).unwrap();
        parse.push(began.elapsed());
    }
    let mut report = Vec::new();
    for (name, insert) in [("clean edit", &b" "[..]), ("breaking edit", &b" ((("[..])] {
        let (new, change) = edit(insert);
        let mut times = Vec::new();
        let mut outcome = None;
        for _ in 0..runs {
            let began = Instant::now();
            let c = check(&path, old, &new, std::slice::from_ref(&change), &limits);
            times.push(began.elapsed());
            outcome = Some(c);
        }
        let errors = match outcome.unwrap() {
            Check::Checked { errors, .. } => errors.len().to_string(),
            other => format!("{other:?}"),
        };
        report.push(format!("{name}: {:?} ({errors} errors)", median(times)));
    }
    println!(
        "{path}{} ({}, {lines} lines, {} bytes): whole parse {:?}; {}",
        at_line.map_or(String::new(), |l| format!(" line {l}")),
        language.name(),
        old.len(),
        median(parse),
        report.join("; ")
    );
}
