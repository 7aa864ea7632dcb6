//! Peers' text-editor test suites as data: `tests/conformance/text_editor/<peer>/` holds the suite's
//! LICENSE, an ORIGIN.md (repository, path, commit, what was not ported and why) and `cases.json`:
//! each case sets up files (`files`, `symlinks`, `generate`), runs its `steps` through the
//! `text_editor` tool, and states what the peer's test expects of each step (`peer`) and, where
//! surgical differs by design (`verdict: "differs"`, with `why`), what surgical does instead
//! (`surgical`). An expectation may say `ok`, `code`, `equals` (the text), `contains`, `absent`, and
//! `files` (their content after the step).
//!
//! Checked mechanically: for `same`, every step meets the peer's expectation; for `differs`, some
//! step does not (else the case is `same`) and every step meets surgical's.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn suites_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/text_editor")
}

/// What one step did: the result and the files it names afterwards.
struct Outcome {
    result: Value,
    root: PathBuf,
}

/// Whether `outcome` meets `expect`; `Err` says what does not hold.
fn holds(expect: &Value, outcome: &Outcome) -> Result<(), String> {
    let text = outcome.result["text"].as_str().unwrap_or_default();
    if let Some(ok) = expect.get("ok").and_then(Value::as_bool) {
        if outcome.result["ok"] != ok {
            return Err(format!("ok is {}, expected {ok}: {text}", outcome.result["ok"]));
        }
    }
    if let Some(code) = expect.get("code").and_then(Value::as_str) {
        if outcome.result["error"]["code"] != code {
            return Err(format!("code {} instead of {code}", outcome.result["error"]["code"]));
        }
    }
    if let Some(equals) = expect.get("equals").and_then(Value::as_str) {
        if text != equals {
            return Err(format!("text is\n{text:?}\nnot\n{equals:?}"));
        }
    }
    for want in expect.get("contains").and_then(Value::as_array).into_iter().flatten() {
        let want = want.as_str().unwrap();
        if !text.contains(want) {
            return Err(format!("{want:?} not in\n{text}"));
        }
    }
    for unwanted in expect.get("absent").and_then(Value::as_array).into_iter().flatten() {
        let unwanted = unwanted.as_str().unwrap();
        if text.contains(unwanted) {
            return Err(format!("{unwanted:?} in\n{text}"));
        }
    }
    for (name, content) in expect.get("files").and_then(Value::as_object).into_iter().flatten() {
        let now = fs::read(outcome.root.join(name)).map_err(|e| format!("{name}: {e}"))?;
        if now != content.as_str().unwrap().as_bytes() {
            return Err(format!("{name} holds {:?}", String::from_utf8_lossy(&now)));
        }
    }
    Ok(())
}

fn set_up(case: &Value, root: &Path) {
    for (name, content) in case["files"].as_object().into_iter().flatten() {
        let path = root.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content.as_str().unwrap()).unwrap();
    }
    for g in case["generate"].as_array().into_iter().flatten() {
        for i in 0..g["count"].as_u64().unwrap() {
            let path = root.join(g["name"].as_str().unwrap().replace("{i}", &i.to_string()));
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, g["text"].as_str().unwrap()).unwrap();
        }
    }
    #[cfg(unix)]
    for (link, target) in case["symlinks"].as_object().into_iter().flatten() {
        std::os::unix::fs::symlink(root.join(target.as_str().unwrap()), root.join(link)).unwrap();
    }
}

#[test]
fn peers_text_editor_suites_agree_or_differ_for_a_stated_reason() {
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut suites: Vec<PathBuf> = fs::read_dir(suites_dir())
        .expect("tests/conformance/text_editor")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    suites.sort();
    assert!(suites.len() >= 2, "suites missing");
    for suite in suites {
        let peer = suite.file_name().unwrap().to_string_lossy().into_owned();
        assert!(suite.join("LICENSE").is_file(), "{peer}: LICENSE missing");
        assert!(suite.join("ORIGIN.md").is_file(), "{peer}: ORIGIN.md missing");
        let cases: Vec<Value> = serde_json::from_str(&fs::read_to_string(suite.join("cases.json")).unwrap()).unwrap();
        for case in cases {
            let name = format!("{peer}/{}", case["name"].as_str().unwrap());
            if cfg!(not(unix)) && case.get("symlinks").is_some() {
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            set_up(&case, dir.path());
            let verdict = case["verdict"].as_str().expect("verdict");
            let mut peer_failed = None;
            for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
                let result = surgical_tool::call("text_editor", &step["call"], dir.path()).to_json();
                let outcome = Outcome {
                    result,
                    root: dir.path().to_path_buf(),
                };
                let peer_holds = holds(&step["peer"], &outcome);
                if let Err(why) = &peer_holds {
                    peer_failed.get_or_insert(format!("step {i}: {why}"));
                }
                match verdict {
                    "same" => {
                        if let Err(why) = peer_holds {
                            panic!("{name}, step {i}: the peer's expectation does not hold: {why}");
                        }
                    }
                    "differs" => {
                        let ours = step.get("surgical").unwrap_or(&step["peer"]);
                        if let Err(why) = holds(ours, &outcome) {
                            panic!("{name}, step {i}: surgical's expectation does not hold: {why}");
                        }
                    }
                    other => panic!("{name}: verdict {other:?}"),
                }
            }
            let tally = counts.entry(peer.clone()).or_default();
            if verdict == "differs" {
                assert!(
                    case["why"].as_str().is_some_and(|w| w.len() > 20),
                    "{name}: a difference needs its reason"
                );
                assert!(
                    peer_failed.is_some(),
                    "{name}: marked differs, but the peer's expectation holds: it is `same`"
                );
                tally.1 += 1;
            } else {
                tally.0 += 1;
            }
        }
    }
    for (peer, (same, differs)) in &counts {
        println!(
            "{peer}: {} cases, {same} same, {differs} differ by design",
            same + differs
        );
    }
}
