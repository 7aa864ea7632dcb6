//! How much memory the engine takes for one edit of a large file, counted by a global allocator (so
//! it is deterministic, unlike a process's resident size): `apply_spliced` never holds a copy of
//! the file (no new text, no whole normalized view), while `apply`, which returns the new text,
//! does. One test in this binary, so no other test allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use surgical_core::{apply, apply_spliced, Edit, Options, Tier};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::SeqCst) + by;
    PEAK.fetch_max(now, Ordering::SeqCst);
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

/// The most memory `run` held at once beyond what was held before it.
fn peak_of<T>(run: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let out = run();
    (out, PEAK.load(Ordering::SeqCst) - base)
}

/// A source-like file of about `size` bytes with `ending` line breaks: trailing blanks on every 7th
/// line, accented and CJK text on every 13th, one target line in the middle.
fn file(size: usize, ending: &str) -> Vec<u8> {
    let mut out = String::with_capacity(size + 256);
    let mut i = 0usize;
    let mut planted = false;
    while out.len() < size {
        if !planted && out.len() >= size / 2 {
            out.push_str("    let message = \u{201C}ready \u{2014} set\u{201D};\u{a0}\u{a0}// target");
            out.push_str(ending);
            planted = true;
            continue;
        }
        let line = match i % 13 {
            0 => format!("    // caf\u{e9} {i}: r\u{e9}sum\u{e9} of the \u{4e2d}\u{6587} block"),
            _ if i.is_multiple_of(7) => format!("    let value_{i} = compute({i}, \"item-{i}\");   "),
            _ => format!("    let value_{i} = compute({i}, \"item-{i}\");"),
        };
        out.push_str(&line);
        out.push_str(ending);
        i += 1;
    }
    out.into_bytes()
}

#[test]
fn an_edit_of_a_large_file_holds_no_copy_of_it() {
    let exact = Edit::new(
        "    let message = \u{201C}ready \u{2014} set\u{201D};\u{a0}\u{a0}// target",
        "    let message = \u{201C}go \u{2014} now\u{201D};\u{a0}\u{a0}// target",
    );
    // ASCII quotes, a hyphen and spaces: found by the unicode tier, after the exact and trailing
    // tiers searched the whole file.
    let fuzzy = Edit::new(
        "    let message = \"ready - set\";  // target",
        "    let message = \"go - now\";  // target",
    );
    let size = 16 << 20;
    for ending in ["\n", "\r\n"] {
        let text = file(size, ending);
        for (name, edit) in [("exact", &exact), ("fuzzy", &fuzzy)] {
            let (spliced, peak) = peak_of(|| apply_spliced(&text, std::slice::from_ref(edit), &Options::new()));
            let spliced = spliced.unwrap();
            assert_eq!(spliced.edits.len(), 1);
            // Line starts, a piece of the normalized view, the automaton, the windows: a small part.
            assert!(
                peak < text.len() / 4,
                "{name} ({ending:?}): apply_spliced held {peak} bytes for a file of {}",
                text.len()
            );
            let (applied, whole_peak) = peak_of(|| apply(&text, std::slice::from_ref(edit), &Options::new()));
            assert_eq!(applied.unwrap().text, spliced.text(&text));
            // The counter sees the copy `apply` returns.
            assert!(
                whole_peak >= text.len(),
                "{name} ({ending:?}): apply held {whole_peak} bytes"
            );
        }
    }
    // A needle with a word the file does not have is not found: the unicode tier, searching the file
    // piece by piece, also looks the word up, so the line-based tiers are ruled out without the
    // whole unicode view built a second time to ask (issue 12).
    let text = file(size, "\r\n");
    let missing = Edit::new(
        "    let value_1 = compute(1, \"item-1\");\n    let unheard_of_name = 2;\n",
        "    let value_1 = 0;\n",
    );
    let (result, peak) = peak_of(|| apply_spliced(&text, std::slice::from_ref(&missing), &Options::new()));
    assert!(result.is_err());
    // The line index the typo tiers build is held (about 0.6 of the file here), a view (the file's
    // size) is not.
    assert!(
        peak < text.len(),
        "a miss held {peak} bytes for a file of {}",
        text.len()
    );
    // Up to `whitespace_runs`, the missing word rules out every line-based tier: no line index
    // either (what is held, a quarter of the file here, is mostly its line starts).
    let options = Options::new().loosest_tier(Tier::WhitespaceRuns);
    let (result, peak) = peak_of(|| apply_spliced(&text, std::slice::from_ref(&missing), &options));
    assert!(result.is_err());
    assert!(
        peak < text.len() / 2,
        "a miss held {peak} bytes for a file of {}",
        text.len()
    );
}
