//! Structure-aware fuzzing: inputs generated from the shapes models send, then mutated, so that
//! nearly every input reaches the request parser and most reach the engine (arbitrary bytes parse
//! as JSON about once in five thousand inputs; see `fuzz.rs`).
//!
//! * `edit` calls built from the target file's own lines (so `oldText` usually occurs), then
//!   mutated: keys renamed to aliases or wrong names, values given other types (numbers and
//!   booleans as strings, `edits` as a JSON string or a single object), extra nesting, unknown
//!   keys, dropped keys, over-escaped and very long text, CRs and look-alikes typed into `oldText`;
//! * patches in each grammar (Codex `apply_patch`, SEARCH/REPLACE, unified diff) built from the
//!   file's lines, then mutated line by line (dropped, doubled, prefix changed, markers broken,
//!   CRLF, fences, heredoc, wrong counts);
//! * bytes near a valid call: a serialized call with a few bytes flipped, inserted or deleted.
//!
//! Every call must return (never panic) with a known error code when it fails, and leave the file
//! untouched when it fails. Each generator asserts its *reach*: the share of inputs that reach the
//! request parser (valid JSON) and the engine (placed, or refused by the engine: `not_found`,
//! `ambiguous`, `overlap`, `no_change`, `empty_old_text`), and prints it. CI runs a short run; for
//! a long one: `PROPTEST_CASES=20000 cargo test --release -p surgical-tool --test structured_fuzz
//! -- --nocapture`.

use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestRunner};
use serde_json::{json, Value};
use surgical_tool::{call_with, Config};

/// The target file: mixed endings, look-alikes, trailing blanks, invalid-UTF-8 stand-ins.
const FILE: &str = "fn main() {\r\n    let x = \u{201c}a\u{201d};\n    let y = 2; \r\tz \u{2014} w\n    call(x, y);\r\n}\nline one\nline one\n";

const ENGINE_CODES: [&str; 7] = [
    "not_found",
    "ambiguous",
    "overlap",
    "no_change",
    "empty_old_text",
    "placeholder",
    "conflict",
];

fn is_known_code(code: &str) -> bool {
    surgical_tool::ErrorCode::ALL.iter().any(|c| c.as_str() == code)
}

fn file_lines() -> Vec<&'static str> {
    FILE.split(['\n', '\r']).filter(|l| !l.is_empty()).collect()
}

/// A run of the file's lines as a model would copy them (ASCII look-alikes sometimes).
fn copied_lines() -> impl Strategy<Value = Vec<String>> {
    let n = file_lines().len();
    (0..n, 1usize..4, any::<bool>()).prop_map(move |(start, len, ascii)| {
        let lines = file_lines();
        lines[start..(start + len).min(n)]
            .iter()
            .map(|l| {
                let l = l.to_string();
                if ascii {
                    l.replace(['\u{201c}', '\u{201d}'], "\"").replace('\u{2014}', "-")
                } else {
                    l
                }
            })
            .collect()
    })
}

/// Text mutations a model makes: none (most often), a CR, an over-escaped line break, a dropped or
/// doubled character, a very long tail.
fn mutate_text(text: String, how: u8, at: usize) -> String {
    let at = (0..=text.len())
        .rev()
        .filter(|&k| text.is_char_boundary(k))
        .find(|&k| k <= at % (text.len() + 1))
        .unwrap_or(0);
    match how {
        0 => text.replacen('\n', "\r\n", 1),
        1 => text.replace('\n', "\\n"),
        2 => {
            let mut t = text;
            if let Some(c) = t[at..].chars().next() {
                t.replace_range(at..at + c.len_utf8(), "");
            }
            t
        }
        3 => format!("{text}{}", "x".repeat(3_000)),
        4 => {
            let mut t = text;
            t.insert(at, '\u{a0}');
            t
        }
        _ => text,
    }
}

/// One JSON-level mutation of a call.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    None,
    RenameKey(usize),
    NumberAsString,
    BoolAsString,
    EditsAsString,
    SingleEditObject,
    FlatPair,
    Nest,
    UnknownKey,
    DropKey(usize),
    WrongType(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        6 => Just(Mutation::None),
        1 => any::<usize>().prop_map(Mutation::RenameKey),
        1 => Just(Mutation::NumberAsString),
        1 => Just(Mutation::BoolAsString),
        1 => Just(Mutation::EditsAsString),
        1 => Just(Mutation::SingleEditObject),
        1 => Just(Mutation::FlatPair),
        1 => Just(Mutation::Nest),
        1 => Just(Mutation::UnknownKey),
        1 => any::<usize>().prop_map(Mutation::DropKey),
        1 => any::<usize>().prop_map(Mutation::WrongType),
    ]
}

const ALIASES: [(&str, &str); 8] = [
    ("oldText", "old_string"),
    ("newText", "new_string"),
    ("oldText", "oldString"),
    ("newText", "newString"),
    ("path", "file_path"),
    ("replaceAll", "replace_all"),
    ("oldText", "old_txt"),
    ("path", "filename"),
];

/// Renames `from` to `to` anywhere in `v`.
fn rename(v: &mut Value, from: &str, to: &str) {
    match v {
        Value::Object(m) => {
            if let Some(x) = m.remove(from) {
                m.insert(to.to_string(), x);
            }
            for x in m.values_mut() {
                rename(x, from, to);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rename(x, from, to)),
        _ => {}
    }
}

fn apply_mutation(call: &mut Value, m: Mutation) {
    let obj = call.as_object_mut().unwrap();
    match m {
        Mutation::None => {}
        Mutation::RenameKey(k) => {
            let (from, to) = ALIASES[k % ALIASES.len()];
            rename(call, from, to);
        }
        Mutation::NumberAsString => {
            obj.insert("maxStrategy".into(), json!("3"));
        }
        Mutation::BoolAsString => {
            obj.insert("dryRun".into(), json!("true"));
        }
        Mutation::EditsAsString => {
            if let Some(edits) = obj.get("edits").map(Value::to_string) {
                obj.insert("edits".into(), Value::String(edits));
            }
        }
        Mutation::SingleEditObject => {
            if let Some(first) = obj.get("edits").and_then(|e| e.get(0)).cloned() {
                obj.insert("edits".into(), first);
            }
        }
        Mutation::FlatPair => {
            if let Some(Value::Object(first)) = obj.get("edits").and_then(|e| e.get(0)).cloned() {
                obj.remove("edits");
                obj.extend(first);
            }
        }
        Mutation::Nest => {
            *call = json!({ "input": call.clone() });
        }
        Mutation::UnknownKey => {
            obj.insert("explanation".into(), json!({"why": [1, 2, {"deep": null}]}));
        }
        Mutation::DropKey(k) => {
            let keys: Vec<String> = obj.keys().cloned().collect();
            if !keys.is_empty() {
                obj.remove(&keys[k % keys.len()]);
            }
        }
        Mutation::WrongType(k) => {
            let keys: Vec<String> = obj.keys().cloned().collect();
            if keys.is_empty() {
                return;
            }
            let key = &keys[k % keys.len()];
            let wrong = [json!(null), json!(7), json!([]), json!({}), json!(1.5e300)][k % 5].clone();
            obj.insert(key.clone(), wrong);
        }
    }
}

/// An `edit` call from the file's lines, with text and JSON mutations.
fn edit_call() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(
            (copied_lines(), "[a-z ]{0,12}", 0u8..12, any::<usize>(), any::<bool>()),
            1..3,
        ),
        prop::collection::vec(mutation(), 0..3),
        prop::sample::select(vec![
            "f.txt",
            "f.txt",
            "f.txt",
            "f.txt",
            "f.txt",
            "./f.txt",
            "missing.txt",
            "../f.txt",
        ]),
    )
        .prop_map(|(edits, mutations, path)| {
            let edits: Vec<Value> = edits
                .into_iter()
                .map(|(lines, insert, how, at, all)| {
                    let old = lines.join("\n");
                    let new = format!("{old}{insert}");
                    let mut e = json!({ "oldText": mutate_text(old, how, at), "newText": new });
                    if all {
                        e["replaceAll"] = json!(true);
                    }
                    e
                })
                .collect();
            let mut call = json!({ "path": path, "edits": edits });
            for m in mutations {
                apply_mutation(&mut call, m);
            }
            call
        })
}

/// A patch in one of the three grammars from the file's lines, then mutated line by line.
fn patch_call() -> impl Strategy<Value = Value> {
    (
        0usize..3,
        copied_lines(),
        "[a-z ]{1,10}",
        prop::collection::vec((0u8..16, any::<usize>()), 0..3),
        any::<bool>(),
        0u8..4,
    )
        .prop_map(|(format, old, add, mutations, crlf, wrap)| {
            let new: Vec<String> = old.iter().map(|l| format!("{l}{add}")).collect();
            let mut lines: Vec<String> = match format {
                0 => {
                    let mut p = vec![
                        "*** Begin Patch".to_string(),
                        "*** Update File: f.txt".into(),
                        "@@".into(),
                    ];
                    p.extend(old.iter().map(|l| format!("-{l}")));
                    p.extend(new.iter().map(|l| format!("+{l}")));
                    p.push("*** End Patch".into());
                    p
                }
                1 => {
                    let mut p = vec!["f.txt".to_string(), "```".into(), "<<<<<<< SEARCH".into()];
                    p.extend(old.iter().cloned());
                    p.push("=======".into());
                    p.extend(new.iter().cloned());
                    p.push(">>>>>>> REPLACE".into());
                    p.push("```".into());
                    p
                }
                _ => {
                    let mut p = vec![
                        "--- a/f.txt".to_string(),
                        "+++ b/f.txt".into(),
                        format!("@@ -1,{} +1,{} @@", old.len(), new.len()),
                    ];
                    p.extend(old.iter().map(|l| format!("-{l}")));
                    p.extend(new.iter().map(|l| format!("+{l}")));
                    p
                }
            };
            for (how, at) in mutations {
                let k = at % lines.len();
                match how {
                    0 => {
                        lines.remove(k);
                    }
                    1 => {
                        let l = lines[k].clone();
                        lines.insert(k, l);
                    }
                    2 => lines[k] = format!(" {}", lines[k]),
                    3 => lines[k] = lines[k].chars().skip(1).collect(),
                    4 => lines[k] = lines[k].to_lowercase(),
                    5 => lines[k] = format!("{}  ", lines[k]),
                    6 => lines[k] = "@@ -9,9 +9,9 @@".into(),
                    7 => lines.insert(k, "*** End of File".into()),
                    _ => {}
                }
                if lines.is_empty() {
                    lines.push(String::new());
                }
            }
            let eol = if crlf { "\r\n" } else { "\n" };
            let mut patch = lines.join(eol) + eol;
            match wrap {
                1 => patch = format!("```diff\n{patch}```\n"),
                2 => patch = format!("apply_patch <<'EOF'\n{patch}EOF\n"),
                _ => {}
            }
            json!({ "patch": patch })
        })
}

/// Bytes near a valid call: a serialized call with a few bytes changed.
fn near_valid_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        edit_call(),
        prop::collection::vec((0u8..3, any::<usize>(), any::<u8>()), 1..4),
    )
        .prop_map(|(call, edits)| {
            let mut bytes = call.to_string().into_bytes();
            for (how, at, byte) in edits {
                let k = at % (bytes.len() + 1);
                match how {
                    0 if k < bytes.len() => bytes[k] = byte,
                    1 => bytes.insert(k, byte),
                    _ if k < bytes.len() => {
                        bytes.remove(k);
                    }
                    _ => {}
                }
            }
            bytes
        })
}

/// How far inputs got.
#[derive(Default)]
struct Reach {
    inputs: usize,
    parsed: usize,
    engine: usize,
}

impl Reach {
    fn share(&self, n: usize) -> f64 {
        n as f64 / self.inputs.max(1) as f64
    }

    fn report(&self, name: &str) {
        eprintln!(
            "{name}: {} inputs, {:.1}% reach the request parser, {:.1}% the engine",
            self.inputs,
            100.0 * self.share(self.parsed),
            100.0 * self.share(self.engine)
        );
    }
}

/// Runs one call on a fresh copy of the file and checks it; returns whether it reached the engine.
fn run(tool: &str, call: &Value) -> Result<bool, TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.txt");
    std::fs::write(&path, FILE).unwrap();
    let result = call_with(tool, call, &Config::new(dir.path()).undo(false));
    let json = result.to_json();
    if result.is_ok() {
        return Ok(true);
    }
    let code = json["error"]["code"].as_str().unwrap_or("");
    prop_assert!(is_known_code(code), "unknown code {code}: {json}");
    prop_assert!(!json["error"]["message"].as_str().unwrap_or("").is_empty());
    prop_assert_eq!(
        std::fs::read(&path).unwrap(),
        FILE.as_bytes(),
        "a failed call changed the file"
    );
    Ok(ENGINE_CODES.contains(&code))
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Runs `strategy` through `tool`, then asserts and prints the reach.
fn fuzz<S: Strategy>(name: &str, strategy: S, tool: &str, to_call: impl Fn(&S::Value) -> Option<Value>, min_engine: f64)
where
    S::Value: std::fmt::Debug,
{
    let reach = std::cell::RefCell::new(Reach::default());
    let mut runner = TestRunner::new(RunnerConfig {
        cases: cases(),
        failure_persistence: None,
        ..RunnerConfig::default()
    });
    runner
        .run(&strategy, |input| {
            let mut r = reach.borrow_mut();
            r.inputs += 1;
            if let Some(call) = to_call(&input) {
                r.parsed += 1;
                if run(tool, &call)? {
                    r.engine += 1;
                }
            }
            Ok(())
        })
        .unwrap();
    let reach = reach.into_inner();
    reach.report(name);
    // Shrinking re-runs inputs, so the counts are of every input tried; the shares stay meaningful.
    assert!(
        reach.share(reach.engine) >= min_engine,
        "{name}: too few inputs reach the engine"
    );
}

#[test]
fn structured_edit_calls() {
    fuzz("edit calls", edit_call(), "edit", |v| Some(v.clone()), 0.4);
}

#[test]
fn structured_patches() {
    fuzz("patches", patch_call(), "apply_patch", |v| Some(v.clone()), 0.5);
}

#[test]
fn bytes_near_valid_calls() {
    fuzz(
        "bytes near valid calls",
        near_valid_bytes(),
        "edit",
        |b| serde_json::from_slice::<Value>(b).ok(),
        0.02,
    );
}
