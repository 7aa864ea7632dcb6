//! `surgical-bench`: how fast real edits are, and how much memory they take, against plain I/O.
//!
//! ```text
//! cargo run --release -p surgical-bench                 # 16, 64 and 256 MB files, 5 runs each
//! cargo run --release -p surgical-bench -- --sizes 1,10 --runs 3
//! ```
//!
//! For each file size it times, as the median of several runs, on a file in the page cache:
//! * the durable-write floor: `std::fs::read`, then write a temp file in the same directory, fsync,
//!   rename, fsync the directory — the least any crash-safe writer does;
//! * `exact` and `fuzzy`: a whole `edit` tool call (read, decode, match, splice, diff, atomic write),
//!   run by turns with the floor (timed right before each call, so twice per run and its median
//!   over twice as many runs) so a busy machine slows all three alike; their CPU time (user and
//!   system, all threads) too, which a busy machine changes less than wall time. The fuzzy call's oldText uses ASCII quotes, a hyphen and spaces where
//!   the file has typographic quotes, an em dash and no-break spaces, so every tier up to
//!   `unicode` runs;
//! * the engine alone (no I/O) for both;
//! * peak memory (the child process's VmHWM) of the exact and the fuzzy call, and its ratio to the
//!   file size.
//!
//! Then it applies 1,000, 10,000 and 100,000 edits in one call to a 10 MB file, to show the cost
//! grows linearly with the number of edits. Prints a Markdown table.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use surgical_core::{apply_spliced, Edit, Options};

mod pathological;

const MB: usize = 1 << 20;

/// A source-like file of about `size` bytes with one target line in the middle. Every 7th line has
/// trailing spaces, every 13th a non-ASCII character, so normalization has real work to do.
fn make_file(size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + 256);
    let mut i = 0usize;
    let mut target_done = false;
    while out.len() < size {
        if !target_done && out.len() >= size / 2 {
            out.extend_from_slice(
                "    let message = \u{201C}ready \u{2014} set\u{201D};\u{a0}\u{a0}// target\n".as_bytes(),
            );
            target_done = true;
            continue;
        }
        let line = match i % 13 {
            0 => format!("    // caf\u{e9} {i}: r\u{e9}sum\u{e9} of the \u{4e2d}\u{6587} block\n"),
            _ if i.is_multiple_of(7) => format!("    let value_{i} = compute({i}, \"item-{i}\");   \n"),
            _ => format!("    let value_{i} = compute({i}, \"item-{i}\");\n"),
        };
        out.extend_from_slice(line.as_bytes());
        i += 1;
    }
    out
}

fn exact_call() -> Value {
    json!({"path": "bench.rs", "edits": [{
        "oldText": "    let message = \u{201C}ready \u{2014} set\u{201D};\u{a0}\u{a0}// target",
        "newText": "    let message = \u{201C}go \u{2014} now\u{201D};\u{a0}\u{a0}// target"
    }]})
}

fn fuzzy_call() -> Value {
    json!({"path": "bench.rs", "edits": [{
        "oldText": "    let message = \"ready - set\";  // target",
        "newText": "    let message = \"go - now\";  // target"
    }]})
}

fn edits_of(call: &Value) -> Vec<Edit> {
    call["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Edit::new(e["oldText"].as_str().unwrap(), e["newText"].as_str().unwrap()))
        .collect()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// The durable-write floor: copy the file to a temp file, fsync, rename, fsync the directory — the
/// least any crash-safe writer does.
fn floor(path: &Path) -> Duration {
    let start = Instant::now();
    let bytes = fs::read(path).unwrap();
    let tmp = path.with_extension("tmp");
    let mut f = File::create(&tmp).unwrap();
    f.write_all(&bytes).unwrap();
    f.sync_all().unwrap();
    drop(f);
    fs::rename(&tmp, path).unwrap();
    File::open(path.parent().unwrap()).unwrap().sync_all().unwrap();
    start.elapsed()
}

fn timed_call(dir: &Path, original: &[u8], call: &Value) -> Duration {
    timed_call_cpu(dir, original, call).0
}

/// A whole call's wall time and CPU time (user and system, every thread of this process).
fn timed_call_cpu(dir: &Path, original: &[u8], call: &Value) -> (Duration, Duration) {
    fs::write(dir.join("bench.rs"), original).unwrap();
    let cpu = process_cpu_time();
    let start = Instant::now();
    let result = surgical_tool::call("edit", call, dir);
    let took = start.elapsed();
    // The hashing threads have finished: the call waited for both hashes.
    let cpu = process_cpu_time().saturating_sub(cpu);
    assert!(result.is_ok(), "{}", result.text());
    (took, cpu)
}

/// The CPU time (user and system) of this process so far; zero where it is not measured.
#[cfg(unix)]
fn process_cpu_time() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let of = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    of(usage.ru_utime) + of(usage.ru_stime)
}

#[cfg(not(unix))]
fn process_cpu_time() -> Duration {
    Duration::ZERO
}

/// The load average over the last minute, as `/proc/loadavg` says (empty elsewhere).
fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_default()
}

/// Runs one call in a child process and returns its peak resident memory in bytes.
fn peak_memory(dir: &Path, original: &[u8], call: &Value) -> usize {
    fs::write(dir.join("bench.rs"), original).unwrap();
    let call_file = dir.join("call.json");
    fs::write(&call_file, call.to_string()).unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("child")
        .arg(dir)
        .arg(&call_file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim()
        .parse::<usize>()
        .unwrap_or_else(|_| panic!("child said {text:?} {}", String::from_utf8_lossy(&out.stderr)))
}

/// Peak resident memory of this process (`VmHWM`), in bytes; 0 where `/proc` is missing.
fn vm_hwm() -> usize {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn child(dir: &Path, call_file: &Path) {
    let call: Value = serde_json::from_str(&fs::read_to_string(call_file).unwrap()).unwrap();
    let result = surgical_tool::call("edit", &call, dir);
    assert!(result.is_ok(), "{}", result.text());
    println!("{}", vm_hwm());
}

fn many_edits(dir: &Path, count: usize) -> (usize, Duration, Duration) {
    let mut text = Vec::with_capacity(10 * MB);
    let mut i = 0;
    while text.len() < 10 * MB {
        text.extend_from_slice(format!("let v{i} = compute({i});\n").as_bytes());
        i += 1;
    }
    let step = (i / count).max(1);
    let edits: Vec<Value> = (0..count)
        .map(|k| {
            let n = k * step;
            json!({"oldText": format!("let v{n} = compute({n});\n"), "newText": format!("let v{n} = compute({n}) + 1;\n")})
        })
        .collect();
    let call = json!({"path": "bench.rs", "edits": edits});
    let core_edits = edits_of(&call);
    let start = Instant::now();
    let applied = apply_spliced(&text, &core_edits, &Options::new()).unwrap();
    let core = start.elapsed();
    assert_eq!(applied.edits.len(), count);
    let whole = timed_call(dir, &text, &call);
    (text.len(), core, whole)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("child") {
        child(Path::new(&args[2]), Path::new(&args[3]));
        return;
    }
    match args.get(1).map(String::as_str) {
        Some("pathological") => return pathological::main(&args[2..]),
        Some("pathological-child") => return pathological::child(Path::new(&args[2]), Path::new(&args[3])),
        _ => {}
    }
    if args.get(1).map(String::as_str) == Some("make-file") {
        // For profiling by hand: surgical-bench make-file MB PATH
        fs::write(&args[3], make_file(args[2].parse::<usize>().unwrap() * MB)).unwrap();
        return;
    }
    let mut sizes = vec![16, 64, 256];
    let mut runs = 5;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--sizes" => {
                sizes = it
                    .next()
                    .expect("--sizes N,N")
                    .split(',')
                    .map(|s| s.parse().unwrap())
                    .collect()
            }
            "--runs" => runs = it.next().expect("--runs N").parse().unwrap(),
            other => panic!("unknown argument {other}; use --sizes 16,64,256 --runs 5"),
        }
    }
    let tmp = tempfile::tempdir_in(
        std::env::var_os("BENCH_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir),
    )
    .unwrap();
    let dir = tmp.path();
    println!("Load average (1 min) at the start: {}", load_average());
    println!();
    println!("| file | durable-write floor | exact edit | ratio | fuzzy edit | ratio | CPU exact / fuzzy | engine only: exact / fuzzy | peak memory exact / fuzzy |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for size in sizes {
        let original = make_file(size * MB);
        let path = dir.join("bench.rs");
        // The floor right before each call, run after run, so that a busy machine slows all three
        // alike.
        let (mut bases, mut exacts, mut fuzzies) = (Vec::new(), Vec::new(), Vec::new());
        let (mut exact_cpu, mut fuzzy_cpu) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            fs::write(&path, &original).unwrap();
            bases.push(floor(&path));
            let (wall, cpu) = timed_call_cpu(dir, &original, &exact_call());
            exacts.push(wall);
            exact_cpu.push(cpu);
            fs::write(&path, &original).unwrap();
            bases.push(floor(&path));
            let (wall, cpu) = timed_call_cpu(dir, &original, &fuzzy_call());
            fuzzies.push(wall);
            fuzzy_cpu.push(cpu);
        }
        let (base, exact, fuzzy) = (median(bases), median(exacts), median(fuzzies));
        let core_time = |call: &Value| {
            let edits = edits_of(call);
            median(
                (0..runs)
                    .map(|_| {
                        let start = Instant::now();
                        // What the edit tool runs: the replacements, not a new copy of the file.
                        let a = apply_spliced(&original, &edits, &Options::new()).unwrap();
                        std::hint::black_box(a);
                        start.elapsed()
                    })
                    .collect(),
            )
        };
        let (core_exact, core_fuzzy) = (core_time(&exact_call()), core_time(&fuzzy_call()));
        let peak_exact = peak_memory(dir, &original, &exact_call());
        let peak_fuzzy = peak_memory(dir, &original, &fuzzy_call());
        let len = original.len() as f64;
        println!(
            "| {size} MB | {} | {} | {:.2}x | {} | {:.2}x | {} / {} | {} / {} | {:.0} MB ({:.1}x) / {:.0} MB ({:.1}x) |",
            ms(base),
            ms(exact),
            exact.as_secs_f64() / base.as_secs_f64(),
            ms(fuzzy),
            fuzzy.as_secs_f64() / base.as_secs_f64(),
            ms(median(exact_cpu)),
            ms(median(fuzzy_cpu)),
            ms(core_exact),
            ms(core_fuzzy),
            peak_exact as f64 / MB as f64,
            peak_exact as f64 / len,
            peak_fuzzy as f64 / MB as f64,
            peak_fuzzy as f64 / len,
        );
    }
    println!("Load average (1 min) at the end: {}", load_average());
    println!();
    println!("| edits in one call (10 MB file) | engine only | whole call | per edit (whole call) |");
    println!("|---|---|---|---|");
    for count in [1_000, 10_000, 100_000] {
        let (_, core, whole) = many_edits(dir, count);
        println!(
            "| {count} | {} | {} | {:.1} µs |",
            ms(core),
            ms(whole),
            whole.as_secs_f64() * 1e6 / count as f64
        );
    }
}
