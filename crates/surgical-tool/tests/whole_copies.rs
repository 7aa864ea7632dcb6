//! How many whole copies of a file each tool call holds, counted by a global allocator (exact and
//! repeatable, unlike a process's resident size): every allocation of at least half the file's size
//! made during one call, and the most memory the call held at once, for each path a file takes —
//! `edit` of UTF-8, UTF-8 with a BOM and CRLF, UTF-16; `apply_patch` as a Codex patch and as a unified
//! diff; `apply_snippet` (issue 30). The bounds are today's counts: a change that adds a copy fails
//! here and must say why in the docs (`docs/benchmarks-issue30.md`), one that removes one lowers the
//! bound. One test in this binary, so no other test allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};
use surgical_tool::{call_with, Config};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Allocations at least this large are counted (0: none).
static LARGE_FROM: AtomicUsize = AtomicUsize::new(0);
static LARGE: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::SeqCst) + by;
    PEAK.fetch_max(now, Ordering::SeqCst);
    let from = LARGE_FROM.load(Ordering::SeqCst);
    if from > 0 && by >= from {
        LARGE.fetch_add(1, Ordering::SeqCst);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Memory a call may hold whatever the file's size, left out of the peak: the counters of the
/// rarity sample an edit's anchors are chosen with (`surgical-core` `text/rarity.rs`, 2^19 `u16`:
/// 1 MiB for any text past 256 KiB; 1.6% of a 64 MB file, 17% of this test's 6 MB one).
const FIXED: usize = 1 << 20;

/// Lines `from..to` of the source below, joined, without the last line break.
fn lines(from: usize, to: usize) -> String {
    let s: String = (from..to).map(line).collect();
    s.trim_end_matches('\n').to_string()
}

/// Line `i` of a source file with a quote on every line, unique by its number.
fn line(i: usize) -> String {
    format!("    let name_{i} = lookup(\"key-{i}\", 'q', \"default\");\n")
}

/// One call on `file` (its bytes) in a fresh directory: the allocations of at least half the file
/// and the peak memory beyond what was held before, in bytes.
fn measure(name: &str, file: &[u8], tool: &str, input: Value) -> (usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), file).unwrap();
    let config = Config::new(dir.path()).undo(false);
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    LARGE.store(0, Ordering::SeqCst);
    LARGE_FROM.store(file.len() / 2, Ordering::SeqCst);
    let result = call_with(tool, &input, &config);
    LARGE_FROM.store(0, Ordering::SeqCst);
    let peak = PEAK.load(Ordering::SeqCst) - base;
    assert!(result.is_ok(), "{tool} on {name}: {}", result.text());
    drop(result);
    (LARGE.load(Ordering::SeqCst), peak)
}

/// A path a file takes: what it is, the file, the tool and its input, the most allocations of half
/// the file or more, the most memory held at once (in files).
type Case<'a> = (&'a str, &'a [u8], &'a str, Value, usize, f64);

#[test]
fn each_path_holds_the_copies_it_is_known_to_hold() {
    // About 6 MB: past the 2 MiB from which the engine searches a normalized view in pieces.
    const LINES: usize = 120_000;
    let text: String = (0..LINES).map(line).collect();
    let middle = LINES / 2;
    let old = lines(middle, middle + 2);
    let edit =
        |path: &str| json!({"path": path, "edits": [{"oldText": old, "newText": old.replace("default", "fallback")}]});
    let bom_crlf = [&b"\xEF\xBB\xBF"[..], text.replace('\n', "\r\n").as_bytes()].concat();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let hunks: Vec<usize> = (1..=10).map(|k| k * LINES / 11).collect();
    let mut codex = String::from("*** Begin Patch\n*** Update File: f.rs\n");
    let mut unified = String::from("--- a/f.rs\n+++ b/f.rs\n");
    for &h in &hunks {
        let body: String = format!(
            " {}-{}+{} {}",
            line(h - 1),
            line(h),
            line(h).replace("default", "fallback"),
            line(h + 1)
        );
        codex.push_str("@@\n");
        codex.push_str(&body);
        unified.push_str(&format!("@@ -{h},3 +{h},3 @@\n"));
        unified.push_str(&body);
    }
    codex.push_str("*** End Patch\n");
    let snippet = format!(
        "    // ... existing code ...\n{}\n{}\n{}\n    // ... existing code ...\n",
        lines(middle - 2, middle),
        line(middle).replace("default", "fallback").trim_end(),
        lines(middle + 1, middle + 3)
    );
    let cases: [Case<'_>; 7] = [
        // The bytes read; the new version is written from them and the replacements.
        ("edit, UTF-8", text.as_bytes(), "edit", edit("f.rs"), 1, 1.1),
        // The same: the BOM is set aside, CRLF read through the exact fold in pieces.
        (
            "edit, UTF-8 with BOM and CRLF",
            &bom_crlf,
            "edit",
            edit("f.rs"),
            1,
            1.45,
        ),
        // The bytes read (kept for the hash and the journal), the text decoded (half their size for
        // ASCII), and the new version encoded from the old text and the replacements.
        ("edit, UTF-16", &utf16, "edit", edit("f.rs"), 2, 2.6),
        // The bytes read and the new text, which `place` builds whole (a later operation of the same
        // patch on the same file sees it, and it is written and hashed whole).
        (
            "apply_patch, Codex",
            text.as_bytes(),
            "apply_patch",
            json!({"patch": codex}),
            2,
            2.3,
        ),
        (
            "apply_patch, unified diff",
            text.as_bytes(),
            "apply_patch",
            json!({"patch": unified}),
            2,
            2.1,
        ),
        // The same, and the report's patch, which shows the BOM: the old and the new version each
        // joined to it (`document::Version::shown`). The new version itself is written and hashed
        // after its BOM, not joined to it (one copy fewer than before issue 30).
        (
            "apply_patch, Codex, UTF-8 with BOM and CRLF",
            &bom_crlf,
            "apply_patch",
            json!({"patch": codex}),
            4,
            4.1,
        ),
        // The bytes read, the merge's new text (`surgical_core::snippet` returns it whole) and what
        // the merge builds on the way (views of the file's lines): issue 30's phase B.
        (
            "apply_snippet",
            text.as_bytes(),
            "apply_snippet",
            json!({"path": "f.rs", "snippet": snippet}),
            7,
            8.7,
        ),
    ];
    let mut report = String::new();
    for (what, file, tool, input, most_copies, most_peak) in cases {
        let (copies, peak) = measure("f.rs", file, tool, input);
        // The fixed part is left out: the bounds count copies of the file.
        let ratio = peak.saturating_sub(FIXED) as f64 / file.len() as f64;
        report.push_str(&format!(
            "{what}: {copies} allocations of half the file or more, peak {ratio:.2}x the file \
             (plus up to {FIXED} bytes whatever its size)\n"
        ));
        assert!(
            copies <= most_copies,
            "{what}: {copies} copies of the file, at most {most_copies} known\n{report}"
        );
        assert!(
            ratio <= most_peak,
            "{what}: peak {ratio:.2}x the file, at most {most_peak} known\n{report}"
        );
    }
    eprint!("{report}");
}
