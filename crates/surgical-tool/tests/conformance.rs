//! Peers' edit-tool test suites as data: `tests/conformance/edit/<peer>/` holds the suite's LICENSE, an
//! ORIGIN.md (repository, path, commit) and `cases/<name>/`: `input` (the file's bytes),
//! `case.json` (`call`: the `edit` call without `path`; `peer`: what the peer's test expects;
//! `verdict`: `same`, `differs` or `fixed`; `why`: the reason for a difference), and surgical's
//! result, `expected` (bytes after) or `error` (the code; the file must come back untouched).
//!
//! What the peer expects is checked mechanically against surgical's result: for `same` and `fixed`
//! the peer's expectation must hold; for `differs` it must not (else the case is `same`) and the
//! reason must be given. `SURGICAL_CONFORMANCE_RECORD=1` writes a missing `expected`/`error` from
//! surgical's current result (for porting new cases; review it before committing).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn suites_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/edit")
}

/// Whether surgical's outcome satisfies what the peer's test expects.
fn peer_holds(peer: &Value, outcome: &Result<Vec<u8>, String>) -> bool {
    match (peer["expects"].as_str().expect("peer.expects"), outcome) {
        ("bytes", Ok(after)) => after == peer["bytes"].as_str().expect("peer.bytes").as_bytes(),
        ("contains", Ok(after)) => String::from_utf8_lossy(after).contains(peer["text"].as_str().expect("peer.text")),
        ("success", Ok(_)) => true,
        ("error", Err(code)) => peer["code"].as_str().expect("peer.code") == code,
        _ => false,
    }
}

#[test]
fn peers_suites_agree_or_differ_for_a_stated_reason() {
    let record = std::env::var_os("SURGICAL_CONFORMANCE_RECORD").is_some();
    let mut counts: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut undecided = 0;
    let mut suites: Vec<PathBuf> = fs::read_dir(suites_dir())
        .expect("tests/conformance/edit")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    suites.sort();
    assert!(!suites.is_empty(), "no suites");
    for suite in suites {
        let peer_name = suite.file_name().unwrap().to_string_lossy().into_owned();
        assert!(suite.join("LICENSE").is_file(), "{peer_name}: LICENSE missing");
        assert!(suite.join("ORIGIN.md").is_file(), "{peer_name}: ORIGIN.md missing");
        let mut cases: Vec<PathBuf> = fs::read_dir(suite.join("cases"))
            .expect("cases")
            .map(|e| e.unwrap().path())
            .collect();
        cases.sort();
        for case_dir in cases {
            let name = format!("{peer_name}/{}", case_dir.file_name().unwrap().to_string_lossy());
            let input = fs::read(case_dir.join("input")).unwrap();
            let case: Value = serde_json::from_str(&fs::read_to_string(case_dir.join("case.json")).unwrap()).unwrap();
            let mut call = case["call"].clone();
            // A case may give its own path (one the peer sanitizes); the file is target.txt.
            if call.get("path").is_none() {
                call["path"] = Value::String("target.txt".into());
            }
            let dir = tempfile::tempdir().unwrap();
            fs::write(dir.path().join("target.txt"), &input).unwrap();
            let result = surgical_tool::call("edit", &call, dir.path()).to_json();
            let after = fs::read(dir.path().join("target.txt")).unwrap();
            let outcome = if result["ok"] == Value::Bool(true) {
                Ok(after.clone())
            } else {
                assert_eq!(after, input, "{name}: the file must be untouched on error");
                Err(result["error"]["code"].as_str().unwrap().to_string())
            };
            let (expected_file, error_file) = (case_dir.join("expected"), case_dir.join("error"));
            if record && !expected_file.exists() && !error_file.exists() {
                match &outcome {
                    Ok(bytes) => fs::write(&expected_file, bytes).unwrap(),
                    Err(code) => fs::write(&error_file, format!("{code}\n")).unwrap(),
                }
            }
            let recorded = match fs::read(&expected_file) {
                Ok(bytes) => Ok(bytes),
                Err(_) => Err(fs::read_to_string(&error_file)
                    .unwrap_or_else(|_| panic!("{name}: neither expected nor error"))
                    .trim()
                    .to_string()),
            };
            assert_eq!(
                outcome.as_ref().map(|b| String::from_utf8_lossy(b).into_owned()),
                recorded.as_ref().map(|b| String::from_utf8_lossy(b).into_owned()),
                "{name}: surgical's result changed ({result})"
            );
            assert_eq!(outcome, recorded, "{name}: bytes");
            let verdict = case["verdict"].as_str().expect("verdict").to_string();
            let holds = peer_holds(&case["peer"], &outcome);
            let why = case["why"].as_str().unwrap_or("");
            match verdict.as_str() {
                "same" => assert!(holds, "{name}: the peer's expectation does not hold: {}", case["peer"]),
                "fixed" => {
                    assert!(holds, "{name}: the peer's expectation does not hold: {}", case["peer"]);
                    assert!(!why.is_empty(), "{name}: say what was fixed");
                }
                "differs" => {
                    assert!(!holds, "{name}: the peer's expectation holds: the verdict is `same`");
                    assert!(!why.is_empty(), "{name}: say why surgical differs");
                }
                other => {
                    // While porting (record mode), every undecided case is listed before failing.
                    let message = format!(
                        "{name}: unknown verdict {other} (surgical: {:?}; the peer's expectation holds: {holds})",
                        outcome.as_ref().map(|b| String::from_utf8_lossy(b).into_owned())
                    );
                    assert!(record, "{message}");
                    eprintln!("{message}");
                    undecided += 1;
                    continue;
                }
            }
            *counts.entry(peer_name.clone()).or_default().entry(verdict).or_default() += 1;
        }
    }
    for (peer, by_verdict) in &counts {
        eprintln!("{peer}: {by_verdict:?}");
    }
    assert_eq!(undecided, 0, "cases without a verdict");
}
