//! Where `oldText` most nearly is, for a `not_found` error: the region, and line by line what differs.
//!
//! Lines are compared after the loosest normalization (Unicode folds, blanks trimmed at both ends),
//! so that indentation, quotes and spacing do not hide a region that is otherwise right. Candidate
//! regions come from needle lines found verbatim; when no line is, the needle's longest line is
//! compared with every file line by shared character bigrams. Both passes are linear in the file.

use std::collections::{HashMap, HashSet};

use crate::fold::describe_char;
use crate::lines::split_lines;
use crate::normalize::{normalize, Fold};

/// At most this many lines of the region are shown.
const MAX_SHOWN: usize = 12;

fn key(line: &[u8]) -> String {
    normalize(line, Fold::UNICODE).text.trim().to_string()
}

/// At most this many regions are shown.
const MAX_REGIONS: usize = 3;

/// A compact description of the one to three file regions closest to `old`, and line by line how
/// each differs.
pub(crate) fn closest_region(text: &[u8], old: &str) -> String {
    let file_lines = split_lines(text);
    let old_lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    let old_keys: Vec<String> = old_lines.iter().map(|l| key(l.as_bytes())).collect();
    if file_lines.is_empty() {
        return "The file is empty. Use the write tool to give it content.".to_string();
    }
    let file_keys: Vec<String> = file_lines.iter().map(|l| key(l.content)).collect();

    // Vote for region starts: file line i equal to needle line k suggests a start at i - k.
    let mut wanted: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, key) in old_keys.iter().enumerate() {
        if key.chars().count() >= 3 {
            wanted.entry(key.as_str()).or_default().push(k);
        }
    }
    let mut votes: HashMap<usize, usize> = HashMap::new();
    for (i, k) in file_keys.iter().enumerate() {
        if let Some(ks) = wanted.get(k.as_str()) {
            for &kk in ks {
                *votes.entry(i.saturating_sub(kk)).or_default() += k.len();
            }
        }
    }
    let mut ranked: Vec<(usize, usize)> = votes.into_iter().map(|(start, v)| (v, start)).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let best = ranked.first().map_or(0, |r| r.0);
    let mut starts: Vec<usize> = Vec::new();
    for &(v, start) in &ranked {
        if starts.len() == MAX_REGIONS || v * 2 < best {
            break;
        }
        if starts.iter().all(|&s| s.abs_diff(start) >= old_lines.len().max(1)) {
            starts.push(start);
        }
    }
    if starts.is_empty() {
        match best_by_bigrams(&file_lines, &old_keys) {
            Some((i, k)) => starts.push(i.saturating_sub(k)),
            None => {
                return "No line of the file resembles oldText. Read the file again and copy oldText from it \
                        exactly."
                    .to_string()
            }
        }
    }
    let mut out = String::from(if starts.len() == 1 {
        "Closest region"
    } else {
        "Closest regions"
    });
    out.push_str(" (file lines, with what differs from oldText):\n");
    for start in starts {
        out.push_str(&render_region(&file_lines, &file_keys, start, &old_lines, &old_keys));
    }
    out.push_str("Copy oldText exactly from these lines (re-read them if unsure) and retry.");
    out
}

/// One region, diffed line by line against `oldText` so that a missing or extra line shows as one.
fn render_region(
    file_lines: &[crate::lines::Line<'_>],
    file_keys: &[String],
    start: usize,
    old_lines: &[&str],
    old_keys: &[String],
) -> String {
    let end = (start + old_lines.len() + 2).min(file_lines.len());
    let fk: Vec<&str> = file_keys[start..end].iter().map(String::as_str).collect();
    let ok: Vec<&str> = old_keys.iter().map(String::as_str).collect();
    let mut rows: Vec<String> = Vec::new();
    let mut identical = 0;
    let mut last_file = start;
    let file_text = |i: usize| String::from_utf8_lossy(file_lines[i].content).into_owned();
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &ok, &fk) {
        let (o, f) = (op.old_range(), op.new_range());
        let pairs = o.len().min(f.len());
        for j in 0..pairs {
            let (k, i) = (o.start + j, start + f.start + j);
            let file = file_text(i);
            if similar::TextDiff::from_chars(file.as_str(), old_lines[k]).ratio() < 0.5 {
                // Too unlike to be the same line: one is missing, the other extra.
                rows.push(format!(
                    "       - oldText line {} is not in the file here: {:?}\n",
                    k + 1,
                    shorten(old_lines[k])
                ));
                rows.push(format!(
                    "{:>6} | {}   <- this file line is not in your oldText\n",
                    i + 1,
                    shorten(&file)
                ));
                continue;
            }
            let mark = if file == old_lines[k] {
                identical += 1;
                String::new()
            } else {
                format!("   <- {}", describe_difference(&file, old_lines[k]))
            };
            rows.push(format!("{:>6} | {}{mark}\n", i + 1, shorten(&file)));
            last_file = i;
        }
        for (k, line) in old_lines.iter().enumerate().take(o.end).skip(o.start + pairs) {
            rows.push(format!(
                "       - oldText line {} is not in the file here: {:?}\n",
                k + 1,
                shorten(line)
            ));
        }
        for i in start + f.start + pairs..start + f.end {
            rows.push(format!(
                "{:>6} | {}   <- this file line is not in your oldText\n",
                i + 1,
                shorten(&file_text(i))
            ));
        }
    }
    // Trailing file lines that only the extra context brought in are not part of the region.
    while rows.last().is_some_and(|r| r.ends_with("not in your oldText\n")) {
        rows.pop();
    }
    let shown = rows.len().min(MAX_SHOWN);
    let mut body: String = rows[..shown].concat();
    if rows.len() > shown {
        body.push_str(&format!("       ... ({} more lines)\n", rows.len() - shown));
    }
    format!(
        "lines {}-{} ({identical} of {} oldText lines identical):\n{body}",
        start + 1,
        last_file.max(start) + 1,
        old_lines.len()
    )
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 120 {
        s.chars().take(120).collect::<String>() + "..."
    } else {
        s.to_string()
    }
}

/// Why a file line and a needle line differ, in a few words.
fn describe_difference(file: &str, mine: &str) -> String {
    let (f_lead, m_lead) = (leading(file), leading(mine));
    if file.trim_end() == mine.trim_end() {
        return format!(
            "trailing whitespace differs: the file has {:?}, you wrote {:?}",
            &file[file.trim_end().len()..],
            &mine[mine.trim_end().len()..]
        );
    }
    if file[f_lead.len()..] == mine[m_lead.len()..] {
        return format!(
            "indentation differs: the file has {}, you wrote {}",
            describe_ws(f_lead),
            describe_ws(m_lead)
        );
    }
    let f: Vec<char> = file.chars().collect();
    let m: Vec<char> = mine.chars().collect();
    let col = f.iter().zip(&m).take_while(|(a, b)| a == b).count();
    match (f.get(col), m.get(col)) {
        (Some(a), Some(b)) => format!(
            "you wrote {:?}; first difference at column {}: the file has {}, you wrote {}",
            shorten(mine),
            col + 1,
            describe_char(*a),
            describe_char(*b)
        ),
        (Some(_), None) => format!(
            "you wrote {:?}; the file line continues after column {col}",
            shorten(mine)
        ),
        (None, Some(_)) => format!("you wrote {:?}; the file line ends at column {col}", shorten(mine)),
        (None, None) => String::new(),
    }
}

fn leading(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

fn describe_ws(ws: &str) -> String {
    let tabs = ws.chars().filter(|&c| c == '\t').count();
    let spaces = ws.chars().filter(|&c| c == ' ').count();
    let other = ws.chars().count() - tabs - spaces;
    let mut parts = Vec::new();
    if tabs > 0 {
        parts.push(format!("{tabs} tab{}", if tabs == 1 { "" } else { "s" }));
    }
    if spaces > 0 {
        parts.push(format!("{spaces} space{}", if spaces == 1 { "" } else { "s" }));
    }
    if other > 0 {
        parts.push(format!("{other} special space{}", if other == 1 { "" } else { "s" }));
    }
    if parts.is_empty() {
        "no indentation".to_string()
    } else {
        parts.join(" + ")
    }
}

fn bigrams(s: &str) -> HashSet<(char, char)> {
    let cs: Vec<char> = s.chars().collect();
    cs.windows(2).map(|w| (w[0], w[1])).collect()
}

/// The file line most like the needle's longest line, and that line's index in the needle.
fn best_by_bigrams(file_lines: &[crate::lines::Line<'_>], old_keys: &[String]) -> Option<(usize, usize)> {
    let (k, longest) = old_keys.iter().enumerate().max_by_key(|(_, l)| l.len())?;
    let want = bigrams(longest);
    if want.is_empty() {
        return None;
    }
    let mut best: Option<(f32, usize)> = None;
    for (i, line) in file_lines.iter().enumerate() {
        let text = String::from_utf8_lossy(line.content);
        let cs: Vec<char> = text.trim().chars().collect();
        if cs.len() < 2 {
            continue;
        }
        let mut seen = HashSet::new();
        let common = cs
            .windows(2)
            .filter(|w| want.contains(&(w[0], w[1])) && seen.insert((w[0], w[1])))
            .count();
        let score = 2.0 * common as f32 / (want.len() + seen.len().max(cs.len() - 1)) as f32;
        if score > 0.3 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| (i, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_the_differing_line() {
        let text = b"fn a() {\n    let x = 1;\n    call(x);\n}\n";
        let hint = closest_region(text, "fn a() {\n    let x = 2;\n    call(x);\n");
        assert!(hint.contains("lines 1-3"), "{hint}");
        assert!(!hint.contains("Closest regions"), "{hint}");
        assert!(hint.contains("column 13"), "{hint}");
        assert!(hint.contains("2 of 3"), "{hint}");
    }

    #[test]
    fn missing_lines_and_several_regions() {
        let text = b"fn a() {\n    one();\n    two();\n}\nfn b() {\n    one();\n    two();\n}\n";
        let hint = closest_region(text, "fn a() {\n    one();\n    three();\n    two();\n}\n");
        assert!(hint.contains("oldText line 3 is not in the file here"), "{hint}");
        let hint = closest_region(text, "    one();\n    two();\n    zzz();\n");
        assert!(hint.contains("Closest regions"), "{hint}");
        assert!(hint.contains("lines 2-3") && hint.contains("lines 6-7"), "{hint}");
    }

    #[test]
    fn indentation_is_named() {
        let hint = closest_region(b"\tif x:\n\t\treturn 1\n", "    if x:\n        return 1");
        assert!(hint.contains("indentation differs"), "{hint}");
    }

    #[test]
    fn falls_back_to_bigrams() {
        let hint = closest_region(
            b"alpha\nconst total = compute(a, b);\nomega\n",
            "const totl = compute(a,b)",
        );
        assert!(hint.contains("lines 2-2"), "{hint}");
    }
}
