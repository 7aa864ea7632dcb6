//! Pathological inputs: edits whose cost once grew with the square (or cube) of a line's length, and
//! a miss on a large file. Each must finish within a small multiple of a trivial edit.
//!
//! ```text
//! surgical-bench pathological DIR            # write every case into DIR (file + edits JSON)
//! surgical-bench pathological DIR --run      # and time each as a whole `edit` call in a child
//! ```
//!
//! With `--run`, each case runs in a fresh child process (start-up included, as a model's call
//! would) on a fresh copy of its file; the table gives the wall time, the ratio to a trivial edit of
//! a small file, and the child's peak memory. Every case is also written as `NAME.txt` and
//! `NAME.json` (`{"path", "edits"}`), so `surgical edit DIR/NAME.txt --edits DIR/NAME.json` or
//! `surgical call edit` reproduces it by hand.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::vm_hwm;

const KB: usize = 1 << 10;
const MB: usize = 1 << 20;

/// One pathological input: a file, and the edit call to make on it.
pub struct Case {
    /// Short name (file stem).
    pub name: String,
    /// What it exercises.
    pub about: String,
    /// The file before the edit.
    pub file: Vec<u8>,
    /// The edits (`[{"oldText", "newText"}]`).
    pub edits: Value,
    /// Whether the call is expected to fail (`not_found`).
    pub expect_error: bool,
}

/// A deterministic blob of `len` printable ASCII bytes without line breaks (a pasted base64 block).
fn blob(len: usize, seed: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ALPHABET[(x % 64) as usize] as char
        })
        .collect()
}

/// A small source file of `lines` lines, the same every time.
fn small_source(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("    let value_{i} = compute({i}, \"item-{i}\");\n"))
        .collect()
}

/// One minified line of about `len` bytes: `f(a0,b0);f(a1,b1);...`.
fn minified(len: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.len() < len {
        s.push_str(&format!("f(a{i},b{i});"));
        i += 1;
    }
    s
}

/// `line` cut into lines of `width` bytes (at char boundaries: the line is ASCII).
fn split_into(line: &str, width: usize) -> String {
    line.as_bytes()
        .chunks(width)
        .map(|c| format!("{}\n", std::str::from_utf8(c).unwrap()))
        .collect()
}

/// A trivial edit of a small file: the yardstick.
fn trivial() -> Case {
    Case {
        name: "trivial".into(),
        about: "one line of a 50-line file".into(),
        file: small_source(50).into_bytes(),
        edits: json!([{"oldText": "    let value_7 = compute(7, \"item-7\");", "newText": "    let value_7 = compute(8, \"item-7\");"}]),
        expect_error: false,
    }
}

/// A `newText` holding one long line: a pasted data blob of `len` bytes.
fn long_line(len: usize) -> Case {
    Case {
        name: format!("long-line-{}k", len / KB),
        about: format!("newText: one {} KB line replacing a short one", len / KB),
        file: format!("{}    let data = None;\n{}", small_source(20), small_source(20)).into_bytes(),
        edits: json!([{"oldText": "    let data = None;", "newText": format!("    let data = Some(\"{}\");", blob(len, 1))}]),
        expect_error: false,
    }
}

/// A long line edited in its middle, with the file holding typographic quotes where the model wrote
/// ASCII ones (so the characters of the line must be aligned, not copied).
fn long_line_edited(len: usize) -> Case {
    let (a, b) = (blob(len / 2, 2), blob(len / 2, 3));
    let file = format!("x\nlet data = \u{201C}{a}{b}\u{201D};\ny\n");
    Case {
        name: format!("long-line-edited-{}k", len / KB),
        about: format!("a {} KB line (typographic quotes) edited in the middle", len / KB),
        file: file.into_bytes(),
        edits: json!([{"oldText": format!("let data = \"{a}{b}\";"), "newText": format!("let data = \"{a}CHANGED{b}\";")}]),
        expect_error: false,
    }
}

/// One minified line of `len` bytes split into lines of 256 bytes, as a formatter does.
fn split(len: usize) -> Case {
    let line = minified(len);
    Case {
        name: format!("split-{}k", len / KB),
        about: format!("one {} KB line split into {} lines", len / KB, line.len().div_ceil(256)),
        file: format!("// head\n{line}\n// tail\n").into_bytes(),
        edits: json!([{"oldText": format!("{line}\n"), "newText": split_into(&line, 256)}]),
        expect_error: false,
    }
}

/// `lines` lines rewritten in one edit, every one of them changed a little.
fn rewrite(lines: usize) -> Case {
    let old = small_source(lines);
    let new: String = (0..lines)
        .map(|i| format!("    let value_{i} = compute_all({}, \"item-{i}\");\n", i * 3))
        .collect();
    Case {
        name: format!("rewrite-{lines}"),
        about: format!("{lines} lines rewritten, each a little"),
        file: format!("fn main() {{\n{old}}}\n").into_bytes(),
        edits: json!([{"oldText": old, "newText": new}]),
        expect_error: false,
    }
}

/// A source-like file of about `size` bytes (as the main bench's, with a target line in the middle).
fn big_file(size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + 256);
    let mut i = 0usize;
    let mut target_done = false;
    while out.len() < size {
        if !target_done && out.len() >= size / 2 {
            out.extend_from_slice("    let message = \u{201C}ready \u{2014} set\u{201D}; // target\n".as_bytes());
            target_done = true;
            continue;
        }
        let line = match i % 13 {
            0 => format!("    // caf\u{e9} {i}: r\u{e9}sum\u{e9} of the \u{4e2d}\u{6587} block\n"),
            _ => format!("    let value_{i} = compute({i}, \"item-{i}\");\n"),
        };
        out.extend_from_slice(line.as_bytes());
        i += 1;
    }
    out
}

/// An exact edit of a large file, and on the same file: a miss (`not_found`, closest regions), a miss
/// whose every word is in the file (the line-based tiers index the file before they can tell), and
/// a line found only by its indentation (`indentation`), and a miss that almost matched (two
/// mistyped words: the misremembered tiers refuse it and the message names both).
fn big(size_mb: usize) -> [Case; 5] {
    let file = big_file(size_mb * MB);
    [
        Case {
            name: format!("exact-{size_mb}mb"),
            about: format!("exact edit of a {size_mb} MB file"),
            file: file.clone(),
            edits: json!([{"oldText": "    let message = \u{201C}ready \u{2014} set\u{201D}; // target", "newText": "    let message = \u{201C}go\u{201D}; // target"}]),
            expect_error: false,
        },
        Case {
            name: format!("not-found-{size_mb}mb"),
            about: format!("a miss on the same {size_mb} MB file"),
            file: file.clone(),
            edits: json!([{"oldText": "    let message = \"steady - go\"; // targets\n    let value_1 = compute(2);", "newText": "x"}]),
            expect_error: true,
        },
        Case {
            name: format!("not-found-words-{size_mb}mb"),
            about: format!("a miss on the same {size_mb} MB file, every word of it in the file"),
            file: file.clone(),
            edits: json!([{"oldText": "    let value_1 = compute(2, \"item-1\");\n    let value_3 = compute(3, \"item-2\");", "newText": "x"}]),
            expect_error: true,
        },
        Case {
            name: format!("not-found-near-{size_mb}mb"),
            about: format!("a miss on the same {size_mb} MB file that almost matched (two mistyped words)"),
            file: file.clone(),
            edits: json!([{"oldText": "    let value_1002 = compute(1002, \"item-1002\");\n    let value_1003 = compute(1003, \"item-1003\");\n    let value_1004 = compute(1004, \"itme-1004\");\n    let value_1005 = compute(1005, \"itme-1005\");", "newText": "x"}]),
            expect_error: true,
        },
        Case {
            name: format!("indentation-{size_mb}mb"),
            about: format!("a line of the same {size_mb} MB file indented with a tab (`indentation`)"),
            file,
            edits: json!([{"oldText": "\tlet value_1000 = compute(1000, \"item-1000\");", "newText": "\tlet value_1000 = compute(1001, \"item-1000\");"}]),
            expect_error: false,
        },
    ]
}

/// Every case, the yardstick first.
pub fn cases(big_mb: usize) -> Vec<Case> {
    let mut all = vec![
        trivial(),
        long_line(300 * KB),
        long_line_edited(300 * KB),
        split(8 * KB),
        split(16 * KB),
        split(32 * KB),
        rewrite(2_000),
    ];
    all.extend(big(big_mb));
    all
}

/// In the child: one `edit` call (`CALL_FILE` holds its JSON) under `DIR`; prints whether it
/// succeeded and the peak memory.
pub fn child(dir: &Path, call_file: &Path) {
    let call: Value = serde_json::from_str(&fs::read_to_string(call_file).unwrap()).unwrap();
    let result = surgical_tool::call("edit", &call, dir);
    println!("{} {}", result.is_ok(), vm_hwm());
}

/// `surgical-bench pathological DIR [--run] [--mb N] [--only WORD]` (`--only`: the yardstick and the
/// cases whose name holds WORD).
pub fn main(args: &[String]) {
    let dir = Path::new(
        args.first()
            .expect("surgical-bench pathological DIR [--run] [--mb N] [--only WORD]"),
    );
    let run = args.iter().any(|a| a == "--run");
    let big_mb = args
        .iter()
        .position(|a| a == "--mb")
        .map_or(64, |i| args[i + 1].parse().expect("--mb N"));
    fs::create_dir_all(dir).unwrap();
    let only = args.iter().position(|a| a == "--only").map(|i| args[i + 1].as_str());
    let mut cases = cases(big_mb);
    cases.retain(|c| c.name == "trivial" || only.is_none_or(|w| c.name.contains(w)));
    for c in &cases {
        fs::write(dir.join(format!("{}.txt", c.name)), &c.file).unwrap();
        let call = json!({"path": format!("{}.txt", c.name), "edits": c.edits});
        fs::write(dir.join(format!("{}.json", c.name)), call.to_string()).unwrap();
    }
    if !run {
        println!("wrote {} cases to {}", cases.len(), dir.display());
        return;
    }
    println!("| case | what | time | x trivial | peak memory |");
    println!("|---|---|---|---|---|");
    let mut yardstick = None;
    for c in &cases {
        let (took, peak) = run_case(dir, c);
        let base = *yardstick.get_or_insert(took);
        println!(
            "| {} | {} | {:.0} ms | {:.1}x | {:.1} MB |",
            c.name,
            c.about,
            took.as_secs_f64() * 1000.0,
            took.as_secs_f64() / base.as_secs_f64(),
            peak as f64 / MB as f64
        );
    }
}

/// Times one case in a child process, on a fresh copy of its file: the median of three runs for small
/// files, one run for large ones.
fn run_case(dir: &Path, c: &Case) -> (Duration, usize) {
    let runs = if c.file.len() > MB { 1 } else { 3 };
    let mut times = Vec::new();
    let mut peak = 0;
    for _ in 0..runs {
        fs::write(dir.join(format!("{}.txt", c.name)), &c.file).unwrap();
        let start = Instant::now();
        let out = Command::new(std::env::current_exe().unwrap())
            .arg("pathological-child")
            .arg(dir)
            .arg(dir.join(format!("{}.json", c.name)))
            .output()
            .unwrap();
        times.push(start.elapsed());
        let text = String::from_utf8_lossy(&out.stdout);
        let mut words = text.split_whitespace();
        let ok = words.next() == Some("true");
        assert_eq!(
            ok,
            !c.expect_error,
            "{}: {text} {}",
            c.name,
            String::from_utf8_lossy(&out.stderr)
        );
        peak = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
    }
    times.sort();
    (times[times.len() / 2], peak)
}
