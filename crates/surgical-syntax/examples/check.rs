//! Shows what the check reports for an edit: `cargo run -p surgical-syntax --example check --
//! BEFORE AFTER [NAME]` (NAME, default AFTER's path, says the language). The whole rewrite is one
//! change: what lies between the common prefix and suffix.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [before, after, rest @ ..] = args.as_slice() else {
        eprintln!("usage: check BEFORE AFTER [NAME]");
        std::process::exit(2);
    };
    let old = std::fs::read(before).expect("BEFORE readable");
    let new = std::fs::read(after).expect("AFTER readable");
    let name = rest.first().unwrap_or(after);
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let change = surgical_core::Change::new(prefix..old.len() - suffix, prefix..new.len() - suffix);
    let began = std::time::Instant::now();
    let check = surgical_syntax::check(name, &old, &new, &[change], &surgical_syntax::Limits::default());
    let took = began.elapsed();
    println!("{check:#?}");
    eprintln!("checked in {took:?}");
}
