//! `surgical-bench`: how fast real edits are, and how much memory they take, against plain I/O.
//!
//! ```text
//! cargo run --release -p surgical-bench                       # the table: every row at 16, 64, 256 MB, 5 runs
//! cargo run --release -p surgical-bench -- --sizes 16,64 --runs 7 --rows exact,fuzzy --stages --json out.json
//! surgical-bench --show --sizes 16 --runs 1                   # and print the content each row uses
//! surgical-bench --binary OLD/surgical-bench ...             # the same rows, timed runs of an older build
//! surgical-bench write-cases DIR [--sizes 64] [--rows ...]    # each row's file and call, for perf/callgrind
//! surgical-bench many                                         # 1,000 / 10,000 / 100,000 edits in one call
//! surgical-bench pathological DIR --run                       # inputs that were once quadratic
//! ```
//!
//! The table (issue 30, [`table`]): every row of [`rows`] (source code with a quote on every line
//! edited exactly and fuzzily, a CRLF + BOM C# file, an 8 MiB minified line, 100 edits in one call, a
//! unified diff and a Codex patch of 50 hunks, a lazy snippet of 10 segments) at each size, against
//! the durable-write floor measured the same way right before it: each timed run a fresh process on
//! a file in the page cache whose dirty pages were flushed first, medians of interleaved runs, wall
//! and CPU time, peak memory. Markdown on stdout, every sample in `--json FILE`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use surgical_core::{apply_spliced, Edit, Options};

mod pathological;
mod rows;
mod table;

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

fn edits_of(call: &Value) -> Vec<Edit> {
    call["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Edit::new(e["oldText"].as_str().unwrap(), e["newText"].as_str().unwrap()))
        .collect()
}

fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// A whole `edit` call on `original` written as `dir/bench.rs`: its wall time.
fn timed_call(dir: &Path, original: &[u8], call: &Value) -> Duration {
    fs::write(dir.join("bench.rs"), original).unwrap();
    let start = Instant::now();
    let result = surgical_tool::call("edit", call, dir);
    let took = start.elapsed();
    assert!(result.is_ok(), "{}", result.text());
    took
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
    match args.get(1).map(String::as_str) {
        Some("measure") => table::child(&args[2..]),
        Some("pathological") => pathological::main(&args[2..]),
        Some("pathological-child") => pathological::child(Path::new(&args[2]), Path::new(&args[3])),
        Some("make-file") => {
            // For profiling by hand: surgical-bench make-file MB PATH (the old bench's friendly file).
            fs::write(&args[3], make_file(args[2].parse::<usize>().unwrap() * MB)).unwrap();
        }
        Some("write-cases") => write_cases(&args[2..]),
        Some("many") => many(),
        _ => table::main(&args[1..]),
    }
}

/// `surgical-bench write-cases DIR [--sizes 64] [--rows ...]`: each row's file and call under
/// `DIR/ROW-SIZE/` (`FILE` and `call.json`, `{"tool", "input", "file"}`), and `input.json` (the
/// tool's input alone), so that `surgical call TOOL --root DIR/ROW-SIZE < input.json` runs it
/// under `perf`, `valgrind` or `SURGICAL_TIMINGS=1`.
fn write_cases(args: &[String]) {
    let dir = Path::new(
        args.first()
            .expect("surgical-bench write-cases DIR [--sizes 64] [--rows ...]"),
    );
    let get = |flag: &str| args.iter().position(|a| a == flag).map(|i| args[i + 1].clone());
    let sizes: Vec<usize> = get("--sizes")
        .unwrap_or_else(|| "64".into())
        .split(',')
        .map(|s| s.parse().expect("--sizes in MiB"))
        .collect();
    for size in sizes {
        let files = rows::Files::new(size * MB);
        for row in rows::select(get("--rows").as_deref()) {
            let case = row.case(&files);
            let root = dir.join(format!("{}-{size}", row.name));
            fs::create_dir_all(&root).unwrap();
            fs::write(root.join(case.file_name), case.file.as_slice()).unwrap();
            fs::write(
                root.join("call.json"),
                json!({"tool": case.tool, "input": case.input, "file": case.file_name}).to_string(),
            )
            .unwrap();
            fs::write(root.join("input.json"), case.input.to_string()).unwrap();
            println!("{} ({} {})", root.display(), case.tool, case.file_name);
        }
    }
}

/// 1,000, 10,000 and 100,000 edits in one call on a 10 MB file: the cost grows linearly with the
/// number of edits.
fn many() {
    let tmp = tempfile::tempdir_in(
        std::env::var_os("BENCH_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir),
    )
    .unwrap();
    println!("Load average (1 min): {:.2}", table::load_average());
    println!();
    println!("| edits in one call (10 MB file) | engine only | whole call | per edit (whole call) |");
    println!("|---|---|---|---|");
    for count in [1_000, 10_000, 100_000] {
        let (_, core, whole) = many_edits(tmp.path(), count);
        println!(
            "| {count} | {} | {} | {:.1} µs |",
            ms(core),
            ms(whole),
            whole.as_secs_f64() * 1e6 / count as f64
        );
    }
}
