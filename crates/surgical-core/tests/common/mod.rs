//! Test helpers shared by the core's integration tests.
#![allow(dead_code)]

use surgical_core::{apply, diff, Applied, Edit, EditError, Options};

/// Applies a unified patch (as `surgical_core::diff::unified_patch` writes it) to `old`, strictly:
/// every context and removed line must match. Lines split at `\n` only, as `git apply` does.
pub fn apply_patch(old: &[u8], patch: &str) -> Result<Vec<u8>, String> {
    if patch.is_empty() {
        return Ok(old.to_vec());
    }
    let mut lines: Vec<&[u8]> = Vec::new();
    let mut p = 0;
    while p < old.len() {
        let e = memchr_nl(old, p);
        lines.push(&old[p..e]);
        p = e;
    }
    let mut out: Vec<u8> = Vec::new();
    let mut cursor = 0usize; // next old line index to copy
    let plines: Vec<&str> = patch.split_inclusive('\n').collect();
    let mut i = 2; // skip ---/+++
    while i < plines.len() {
        let h = plines[i];
        let rest = h.strip_prefix("@@ -").ok_or(format!("bad hunk header {h:?}"))?;
        let old_start: usize = rest.split([',', ' ']).next().unwrap().parse().unwrap();
        let old_count: usize = if rest.split(' ').next().unwrap().contains(',') {
            rest.split(' ')
                .next()
                .unwrap()
                .split(',')
                .nth(1)
                .unwrap()
                .parse()
                .unwrap()
        } else {
            1
        };
        let start_idx = if old_count == 0 { old_start } else { old_start - 1 };
        for l in &lines[cursor..start_idx] {
            out.extend_from_slice(l);
        }
        cursor = start_idx;
        i += 1;
        let mut last_plus: Option<usize> = None;
        let mut last_minus_or_ctx = false;
        while i < plines.len() && !plines[i].starts_with("@@") {
            let l = plines[i];
            if l.starts_with('\\') {
                // The previous line had no newline.
                if let Some(at) = last_plus.take() {
                    if out.last() == Some(&b'\n') && at == out.len() {
                        out.pop();
                    }
                } else if last_minus_or_ctx {
                    // Context/removed line without newline: nothing to do on output side
                    // for removed lines; for context we copied the original line already.
                }
                i += 1;
                continue;
            }
            let (tag, body) = l.split_at(1);
            last_plus = None;
            last_minus_or_ctx = false;
            match tag {
                " " | "-" => {
                    let want = lines.get(cursor).ok_or("patch goes past the end")?;
                    let body_b = body.as_bytes();
                    let same = *want == body_b
                        || (want.last() != Some(&b'\n')
                            && &body_b[..body_b.len().saturating_sub(1)] == *want
                            && body_b.ends_with(b"\n"));
                    if !same {
                        return Err(format!(
                            "context mismatch at old line {}: {:?} vs {:?}",
                            cursor + 1,
                            String::from_utf8_lossy(want),
                            body
                        ));
                    }
                    if tag == " " {
                        out.extend_from_slice(want);
                    }
                    cursor += 1;
                    last_minus_or_ctx = true;
                }
                "+" => {
                    out.extend_from_slice(body.as_bytes());
                    last_plus = Some(out.len());
                }
                _ => return Err(format!("bad patch line {l:?}")),
            }
            i += 1;
        }
    }
    for l in &lines[cursor..] {
        out.extend_from_slice(l);
    }
    Ok(out)
}

fn memchr_nl(t: &[u8], p: usize) -> usize {
    t[p..].iter().position(|&b| b == b'\n').map_or(t.len(), |i| p + i + 1)
}

/// Applies edits and checks the invariants every successful result must satisfy: bytes between the
/// occurrences are the original's, and the patch reproduces the new text (valid UTF-8 inputs).
pub fn apply_checked(text: &[u8], edits: &[Edit], options: &Options) -> Result<Applied, EditError> {
    let applied = apply(text, edits, options)?;
    let changes = applied.changes();
    let (mut o, mut n) = (0, 0);
    for surgical_core::Change { old, new } in &changes {
        assert_eq!(
            &text[o..old.start],
            &applied.text[n..new.start],
            "bytes between edits changed"
        );
        o = old.end;
        n = new.end;
    }
    assert_eq!(&text[o..], &applied.text[n..], "bytes after the last edit changed");
    if std::str::from_utf8(text).is_ok() && std::str::from_utf8(&applied.text).is_ok() {
        let patch = diff::unified_patch(text, &applied.text, &changes, "f");
        let rebuilt = apply_patch(text, &patch).unwrap_or_else(|e| panic!("{e}\n{patch}"));
        assert_eq!(
            String::from_utf8_lossy(&rebuilt),
            String::from_utf8_lossy(&applied.text),
            "patch does not reproduce:\n{patch}"
        );
    }
    let _ = diff::numbered_diff(text, &applied.text, &changes);
    Ok(applied)
}

/// One edit, all tiers, checked; returns the new text as a string.
pub fn edit1(text: &str, old: &str, new: &str) -> Result<String, EditError> {
    edit1_bytes(text.as_bytes(), old, new).map(|b| String::from_utf8(b).unwrap())
}

pub fn edit1_bytes(text: &[u8], old: &str, new: &str) -> Result<Vec<u8>, EditError> {
    apply_checked(text, &[Edit::new(old, new)], &Options::new()).map(|a| a.text)
}
