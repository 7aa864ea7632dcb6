//! The benchmark table of issue 30: every row of [`crate::rows`] at every size, against the
//! durable-write floor measured the same way just before it.
//!
//! Method (also in `docs/benchmarks-issue30.md`):
//!
//! * **Set-up, then flushed.** Before every timed run, floor or call, the row's file is written
//!   afresh from memory (so it is in the page cache, as a file an agent just read is), then
//!   `fdatasync`ed, its directory `fsync`ed, and the whole file system `syncfs`ed (Linux): no dirty
//!   page of the set-up, of the previous run or of the journal is left for the timed run's own
//!   `fsync` to wait behind. Both sides get exactly the same set-up.
//! * **Each timed run is a fresh child process** (`surgical-bench measure`), which times only the
//!   work (not its own start): the floor (`std::fs::read`, write a temporary file in the same
//!   directory, `fsync`, rename over the file, `fsync` the directory: the least any crash-safe
//!   writer does) or the whole tool call (`surgical_tool::call`: open, lock, read, decode, hash,
//!   match, write atomically with its journal step, report). It reports its wall time, its CPU time
//!   (user + system of every thread, `getrusage`) and its peak resident memory (`VmHWM`).
//! * **Interleaved.** Run after run, each row's floor then its call, the rows in turn, so a load
//!   that comes and goes slows the floor and the call alike; the table gives the medians, and the
//!   ratio of the call's median wall time to the floor's.
//! * With `--stages`, one more call per row runs with `SURGICAL_TIMINGS=1`, and its stage lines
//!   (wall and CPU milliseconds per stage, the hashes and the report on their own threads) are
//!   printed.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::rows::{self, Case, Files, Row};

const MIB: usize = 1 << 20;

/// What one child process measured.
#[derive(Clone, Copy, Debug)]
struct Sample {
    wall: Duration,
    cpu: Duration,
    peak: usize,
}

/// The command line of the table.
struct Args {
    sizes: Vec<usize>,
    runs: usize,
    rows: Option<String>,
    json: Option<PathBuf>,
    stages: bool,
    show: bool,
    dir: Option<PathBuf>,
    /// The binary the timed runs execute (`measure`), when not this one: an older build, to
    /// measure its code on these rows.
    binary: Option<PathBuf>,
}

const USAGE: &str = "surgical-bench [--sizes 16,64,256] [--runs 5] [--rows NAME,NAME|all] [--json FILE] [--stages] \
                     [--show] [--dir DIR] [--binary OTHER-SURGICAL-BENCH]";

fn parse(args: &[String]) -> Args {
    let mut out = Args {
        sizes: vec![16, 64, 256],
        runs: 5,
        rows: None,
        json: None,
        stages: false,
        show: false,
        dir: std::env::var_os("BENCH_DIR").map(PathBuf::from),
        binary: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| panic!("{a} needs a value; {USAGE}"))
                .clone()
        };
        match a.as_str() {
            "--sizes" => {
                out.sizes = value()
                    .split(',')
                    .map(|s| s.trim().parse().expect("--sizes takes MiB, e.g. 16,64"))
                    .collect()
            }
            "--runs" => out.runs = value().parse().expect("--runs N"),
            "--rows" => out.rows = Some(value()),
            "--json" => out.json = Some(PathBuf::from(value())),
            "--dir" => out.dir = Some(PathBuf::from(value())),
            "--binary" => out.binary = Some(PathBuf::from(value())),
            "--stages" => out.stages = true,
            "--show" => out.show = true,
            other => panic!("unknown argument {other}; {USAGE}"),
        }
    }
    assert!(out.runs > 0, "--runs must be at least 1");
    out
}

/// `surgical-bench [options]`: the table.
pub fn main(args: &[String]) {
    let args = parse(args);
    let rows = rows::select(args.rows.as_deref());
    assert!(
        !rows.is_empty(),
        "no row matches {:?}; rows: {}",
        args.rows,
        row_names()
    );
    let base = args.dir.clone().unwrap_or_else(std::env::temp_dir);
    let tmp = tempfile::tempdir_in(&base).expect("a temporary directory for the bench");
    let started = now_utc();
    let machine = machine();
    let exe = args
        .binary
        .clone()
        .unwrap_or_else(|| std::env::current_exe().expect("this binary's path"));
    println!("surgical-bench (issue 30 table), {started}, {machine}");
    println!(
        "{} runs per row, floor and call interleaved; each timed run a fresh process; set-up flushed (fdatasync + \
         syncfs) before every timed run; files under {}",
        args.runs,
        base.display()
    );
    if args.binary.is_some() {
        println!("timed runs execute {}", exe.display());
    }
    let mut results: Vec<Value> = Vec::new();
    let mut stage_lines: Vec<(String, usize, Vec<Stage>)> = Vec::new();
    let mut markdown = String::new();
    markdown.push_str(
        "| row | file | floor (wall) | call (wall) | ratio | CPU call / floor | peak memory (x file) | load |\n",
    );
    markdown.push_str("|---|---|---|---|---|---|---|---|\n");
    println!();
    print!("{markdown}");
    for &size in &args.sizes {
        let files = Files::new(size * MIB);
        let cases: Vec<(&Row, Case, PathBuf)> = rows
            .iter()
            .map(|row| {
                let case = row.case(&files);
                let root = tmp.path().join(format!("{}-{size}", row.name));
                fs::create_dir_all(&root).unwrap();
                fs::write(
                    root.join("call.json"),
                    json!({"tool": case.tool, "input": case.input, "file": case.file_name}).to_string(),
                )
                .unwrap();
                (*row, case, root)
            })
            .collect();
        if args.show {
            for (row, case, _) in &cases {
                show(row, case, size);
            }
        }
        let mut floors = vec![Vec::new(); cases.len()];
        let mut calls = vec![Vec::new(); cases.len()];
        let mut loads = vec![Vec::new(); cases.len()];
        for _ in 0..args.runs {
            for (k, (_, case, root)) in cases.iter().enumerate() {
                loads[k].push(load_average());
                set_up(root, case);
                floors[k].push(measure(&exe, root, "floor", false).0);
                set_up(root, case);
                calls[k].push(measure(&exe, root, "call", false).0);
            }
        }
        for (k, (row, case, root)) in cases.iter().enumerate() {
            let floor = medians(&floors[k]);
            let call = medians(&calls[k]);
            let len = case.file.len();
            let ratio = secs(call.wall) / secs(floor.wall);
            let load = format!(
                "{:.1}–{:.1}",
                loads[k].iter().cloned().fold(f64::INFINITY, f64::min),
                loads[k].iter().cloned().fold(0.0, f64::max)
            );
            let line = format!(
                "| {} | {size} MB | {} | {} | {ratio:.2}x | {} / {} | {:.0} MB ({:.2}x) | {load} |\n",
                row.name,
                ms(floor.wall),
                ms(call.wall),
                ms(call.cpu),
                ms(floor.cpu),
                call.peak as f64 / MIB as f64,
                call.peak as f64 / len as f64,
            );
            print!("{line}");
            markdown.push_str(&line);
            let stages = if args.stages {
                set_up(root, case);
                let (_, stages) = measure(&exe, root, "call", true);
                stage_lines.push((row.name.to_string(), size, stages.clone()));
                stages
            } else {
                Vec::new()
            };
            results.push(json!({
                "row": row.name,
                "class": row.class,
                "tool": case.tool,
                "size_mib": size,
                "file_bytes": len,
                "runs": args.runs,
                "floor": summary(&floors[k]),
                "call": summary(&calls[k]),
                "ratio": ratio,
                "peak_ratio": call.peak as f64 / len as f64,
                "load_average": loads[k],
                "stages": stages.iter().map(Stage::to_json).collect::<Vec<_>>(),
            }));
        }
        // Each size's files go before the next size's are made.
        for (_, _, root) in &cases {
            let _ = fs::remove_dir_all(root);
        }
    }
    println!();
    println!("Load average (1 min) at the end: {:.2}", load_average());
    println!();
    println!("Rows:");
    for row in &rows {
        println!("- `{}` ({}): {}", row.name, row.class, row.about);
    }
    if !stage_lines.is_empty() {
        println!();
        println!("Stages of one call per row (SURGICAL_TIMINGS=1; wall / CPU ms; [t] = on its own thread):");
        println!();
        println!("| row | file | stages |");
        println!("|---|---|---|");
        for (row, size, stages) in &stage_lines {
            let cells: Vec<String> = stages.iter().map(Stage::cell).collect();
            println!("| {row} | {size} MB | {} |", cells.join("; "));
        }
    }
    if let Some(path) = &args.json {
        let doc = json!({
            "started": started,
            "machine": machine,
            "git": git_commit(),
            "binary": exe.display().to_string(),
            "runs": args.runs,
            "method": "fresh child process per timed run; set-up written, fdatasync + fsync dir + syncfs before every \
                       timed run; floor = fs::read + temp write + fsync + rename + fsync dir; medians of interleaved runs",
            "rows": results,
            "markdown": markdown,
        });
        fs::write(path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
        println!();
        println!("JSON written to {}", path.display());
    }
}

fn row_names() -> String {
    rows::ROWS.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
}

/// Prints what a row's file holds (a few lines from its start and around its middle) and its call.
fn show(row: &Row, case: &Case, size: usize) {
    println!();
    println!(
        "### {} ({size} MB, {} bytes, `{}`)",
        row.name,
        case.file.len(),
        case.file_name
    );
    println!("{}", row.about);
    println!("File, from its start:");
    println!("```\n{}\n```", rows::sample(&case.file, 0, 400));
    println!("File, around its middle:");
    println!("```\n{}\n```", rows::sample(&case.file, case.file.len() / 2, 400));
    let call = json!({"tool": case.tool, "input": case.input}).to_string();
    let shown: String = call.chars().take(1500).collect();
    println!(
        "Call ({} bytes{}):",
        call.len(),
        if shown.len() < call.len() {
            ", first 1500 shown"
        } else {
            ""
        }
    );
    println!("```json\n{shown}\n```");
}

/// Writes the row's file afresh and flushes it and everything else dirty on its file system.
fn set_up(root: &Path, case: &Case) {
    let path = root.join(case.file_name);
    let mut f = File::create(&path).unwrap();
    f.write_all(&case.file).unwrap();
    f.sync_data().unwrap();
    drop(f);
    let dir = File::open(root).unwrap();
    dir.sync_all().unwrap();
    sync_file_system(&dir);
}

#[cfg(target_os = "linux")]
fn sync_file_system(dir: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: a valid open descriptor.
    unsafe { libc::syncfs(dir.as_raw_fd()) };
}

#[cfg(not(target_os = "linux"))]
fn sync_file_system(_dir: &File) {}

/// One timed run in a fresh child process of `exe`; with `stages`, under `SURGICAL_TIMINGS=1`, and
/// the stage lines it printed.
fn measure(exe: &Path, root: &Path, what: &str, stages: bool) -> (Sample, Vec<Stage>) {
    let mut cmd = Command::new(exe);
    cmd.arg("measure").arg(what).arg(root);
    if stages {
        cmd.env("SURGICAL_TIMINGS", "1");
    } else {
        cmd.env_remove("SURGICAL_TIMINGS");
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<u128> = text.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    let [wall, cpu, peak] = words[..] else {
        panic!(
            "the child measuring {what} in {} said {text:?} {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let sample = Sample {
        wall: Duration::from_nanos(wall as u64),
        cpu: Duration::from_nanos(cpu as u64),
        peak: peak as usize,
    };
    let stages = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(Stage::parse)
        .collect();
    (sample, stages)
}

/// `surgical-bench measure floor|call ROOT`, in the child: the floor or the call of `ROOT/call.json`
/// (`{"tool", "input", "file"}`), then one line: wall ns, CPU ns, peak bytes.
pub fn child(args: &[String]) {
    let (what, root) = (args[0].as_str(), Path::new(&args[1]));
    let call: Value = serde_json::from_str(&fs::read_to_string(root.join("call.json")).unwrap()).unwrap();
    let tool = call["tool"].as_str().unwrap();
    let input = &call["input"];
    let cpu = process_cpu_time();
    let start = Instant::now();
    match what {
        "floor" => {
            floor(&root.join(call["file"].as_str().expect("the file the call changes")));
        }
        "call" => {
            let result = surgical_tool::call(tool, input, root);
            assert!(result.is_ok(), "{}", result.text());
        }
        other => panic!("measure floor|call, not {other}"),
    }
    let wall = start.elapsed();
    let cpu = process_cpu_time().saturating_sub(cpu);
    println!("{} {} {}", wall.as_nanos(), cpu.as_nanos(), crate::vm_hwm());
}

/// The durable-write floor: read the file, write it to a temporary file beside it, fsync, rename
/// over it, fsync the directory.
pub fn floor(path: &Path) {
    let bytes = fs::read(path).unwrap();
    let tmp = path.with_extension("floor-tmp");
    let mut f = File::create(&tmp).unwrap();
    f.write_all(&bytes).unwrap();
    f.sync_all().unwrap();
    drop(f);
    fs::rename(&tmp, path).unwrap();
    File::open(path.parent().unwrap()).unwrap().sync_all().unwrap();
}

/// One stage line of `SURGICAL_TIMINGS`.
#[derive(Clone, Debug)]
struct Stage {
    name: String,
    wall_ms: f64,
    cpu_ms: f64,
    own_thread: bool,
}

impl Stage {
    /// `surgical timing: NAME W ms, cpu C ms (total T ms)` or `... (on its own thread)`.
    fn parse(line: &str) -> Option<Stage> {
        let rest = line.strip_prefix("surgical timing: ")?;
        let (head, tail) = rest.split_once(" ms, cpu ")?;
        let (name, wall) = head.rsplit_once(' ')?;
        let (cpu, tail) = tail.split_once(" ms")?;
        Some(Stage {
            name: name.to_string(),
            wall_ms: wall.parse().ok()?,
            cpu_ms: cpu.parse().ok()?,
            own_thread: tail.contains("own thread"),
        })
    }

    fn cell(&self) -> String {
        format!(
            "{}{} {:.1}/{:.1}",
            self.name,
            if self.own_thread { " [t]" } else { "" },
            self.wall_ms,
            self.cpu_ms
        )
    }

    fn to_json(&self) -> Value {
        json!({"stage": self.name, "wall_ms": self.wall_ms, "cpu_ms": self.cpu_ms, "own_thread": self.own_thread})
    }
}

/// The medians of wall time, CPU time and peak memory (each on its own).
fn medians(samples: &[Sample]) -> Sample {
    fn median<T: Ord + Copy>(mut v: Vec<T>) -> T {
        v.sort();
        v[v.len() / 2]
    }
    Sample {
        wall: median(samples.iter().map(|s| s.wall).collect()),
        cpu: median(samples.iter().map(|s| s.cpu).collect()),
        peak: median(samples.iter().map(|s| s.peak).collect()),
    }
}

fn summary(samples: &[Sample]) -> Value {
    let m = medians(samples);
    json!({
        "wall_ms_median": secs(m.wall) * 1e3,
        "cpu_ms_median": secs(m.cpu) * 1e3,
        "peak_bytes_median": m.peak,
        "wall_ms": samples.iter().map(|s| secs(s.wall) * 1e3).collect::<Vec<_>>(),
        "cpu_ms": samples.iter().map(|s| secs(s.cpu) * 1e3).collect::<Vec<_>>(),
        "peak_bytes": samples.iter().map(|s| s.peak).collect::<Vec<_>>(),
    })
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// The CPU time (user and system, all threads) of this process so far; zero where not measured.
#[cfg(unix)]
pub fn process_cpu_time() -> Duration {
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
pub fn process_cpu_time() -> Duration {
    Duration::ZERO
}

/// The load average over the last minute (`/proc/loadavg`; 0 elsewhere).
pub fn load_average() -> f64 {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().and_then(|w| w.parse().ok()))
        .unwrap_or(0.0)
}

/// The processor's name and the number of processors.
fn machine() -> String {
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines().find_map(|l| {
                l.strip_prefix("model name")
                    .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
            })
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let sha = fs::read_to_string("/proc/cpuinfo").is_ok_and(|c| c.contains(" sha_ni"));
    format!(
        "{cpu}, {} processors{}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        if sha { ", SHA extensions" } else { "" }
    )
}

fn git_commit() -> String {
    Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The time now, UTC, as `YYYY-MM-DD HH:MM UTC`.
fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_lines_are_read() {
        let s = Stage::parse("surgical timing: open and lock 0.3 ms, cpu 0.2 ms (total 0.4 ms)").unwrap();
        assert_eq!(
            (s.name.as_str(), s.wall_ms, s.cpu_ms, s.own_thread),
            ("open and lock", 0.3, 0.2, false)
        );
        let s = Stage::parse("surgical timing: hash 31.0 ms, cpu 30.5 ms (on its own thread)").unwrap();
        assert!(s.own_thread && s.name == "hash");
        assert!(Stage::parse("something else").is_none());
    }
}
