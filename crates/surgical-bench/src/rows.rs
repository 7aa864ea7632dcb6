//! The rows of the benchmark table (issue 30): each a file of a given size and one tool call on it,
//! chosen so that no row can be flattered by content that avoids a slow path. Every line of the
//! source files holds a quote (`"` or `'`), the character the `unicode` tier folds and real code
//! writes on nearly every line.
//!
//! | row | file | call |
//! |---|---|---|
//! | `exact-quotes` | Rust-like source, a quote on every line | `edit`: two lines holding quotes, exact; their longest run without blanks (`println!("{}`) is on every eighth line of the file |
//! | `fuzzy-quotes` | the same | `edit`: the same lines with typographic quotes where the file has ASCII ones (`unicode` tier) |
//! | `crlf-bom-csharp` | C# with a UTF-8 BOM and CRLF line breaks, quotes on most lines | `edit`: three lines written with LF |
//! | `minified-js` | minified JavaScript, lines of 8 MiB | `edit`: a stretch in the middle of the middle line |
//! | `edits-100` | the Rust-like source | `edit`: 100 one-line edits, spread over the file |
//! | `unified-50` | the same | `apply_patch`: a unified diff of 50 hunks (3 lines of context each side) |
//! | `codex-50` | the same | `apply_patch`: a Codex patch of 50 hunks (bare `@@`) |
//! | `snippet-10` | the same | `apply_snippet`: 10 segments between `// ... existing code ...` markers |
//!
//! The content is deterministic: the same size gives the same bytes, so runs and binaries compare.

use serde_json::{json, Value};

const MIB: usize = 1 << 20;

/// One row's set-up: the file (its name and bytes) and the call.
pub struct Case {
    /// The file's name in the row's directory.
    pub file_name: &'static str,
    pub file: std::sync::Arc<Vec<u8>>,
    /// The tool called: `edit`, `apply_patch` or `apply_snippet`.
    pub tool: &'static str,
    /// The call's JSON input.
    pub input: Value,
}

/// A row of the table.
pub struct Row {
    pub name: &'static str,
    /// What the row measures, for the table's legend.
    pub about: &'static str,
    /// Its matching class, for the targets: `exact`, `fuzzy`, `patch` or `snippet`.
    pub class: &'static str,
    build: fn(&Files) -> Case,
}

impl Row {
    pub fn case(&self, files: &Files) -> Case {
        (self.build)(files)
    }
}

/// Every row, in table order.
pub const ROWS: &[Row] = &[
    Row {
        name: "exact-quotes",
        about: "edit, exact: two lines holding quotes (a `println!` and a comment), in the middle of Rust-like source \
                with a quote on every line",
        class: "exact",
        build: exact_quotes,
    },
    Row {
        name: "fuzzy-quotes",
        about: "edit, fuzzy: the same two lines written with typographic quotes (the file has ASCII ones)",
        class: "fuzzy",
        build: fuzzy_quotes,
    },
    Row {
        name: "crlf-bom-csharp",
        about: "edit: three lines (sent with LF) of a C# file with a UTF-8 BOM and CRLF line breaks",
        class: "exact",
        build: crlf_bom_csharp,
    },
    Row {
        name: "minified-js",
        about: "edit: 40 bytes in the middle of an 8 MiB line of minified JavaScript",
        class: "exact",
        build: minified_js,
    },
    Row {
        name: "edits-100",
        about: "edit: 100 one-line edits in one call, spread over the Rust-like source",
        class: "exact",
        build: edits_100,
    },
    Row {
        name: "unified-50",
        about: "apply_patch: a unified diff of 50 hunks (3 context lines each side) on the Rust-like source",
        class: "patch",
        build: unified_50,
    },
    Row {
        name: "codex-50",
        about: "apply_patch: a Codex patch of 50 hunks (bare @@) on the Rust-like source",
        class: "patch",
        build: codex_50,
    },
    Row {
        name: "snippet-10",
        about: "apply_snippet: a lazy snippet of 10 segments between `// ... existing code ...` markers",
        class: "snippet",
        build: snippet_10,
    },
];

/// The files of one size, built once and shared by the rows that use them.
pub struct Files {
    pub size: usize,
    quotes: std::sync::OnceLock<Source>,
    csharp: std::sync::OnceLock<Source>,
    minified: std::sync::OnceLock<(std::sync::Arc<Vec<u8>>, usize)>,
}

/// A generated file whose lines are numbered by the generator (line `i` is `line(i)`).
struct Source {
    bytes: std::sync::Arc<Vec<u8>>,
    /// How many generated lines the file has (after any header).
    lines: usize,
}

impl Files {
    pub fn new(size: usize) -> Files {
        Files {
            size,
            quotes: std::sync::OnceLock::new(),
            csharp: std::sync::OnceLock::new(),
            minified: std::sync::OnceLock::new(),
        }
    }

    fn quotes(&self) -> &Source {
        self.quotes.get_or_init(|| generate(self.size, b"", quotes_line))
    }

    fn csharp(&self) -> &Source {
        self.csharp
            .get_or_init(|| generate(self.size, CSHARP_HEADER.as_bytes(), csharp_line))
    }

    /// The minified file and the index of the chunk in the middle of its middle line.
    fn minified(&self) -> &(std::sync::Arc<Vec<u8>>, usize) {
        self.minified.get_or_init(|| minified_file(self.size))
    }
}

fn generate(size: usize, header: &[u8], line: fn(usize) -> String) -> Source {
    let mut out = Vec::with_capacity(size + 256);
    out.extend_from_slice(header);
    let mut i = 0;
    while out.len() < size {
        out.extend_from_slice(line(i).as_bytes());
        i += 1;
    }
    Source {
        bytes: std::sync::Arc::new(out),
        lines: i,
    }
}

/// Line `i` of the Rust-like source (with its `\n`): eight kinds of line in turn, each holding a
/// quote and its number, so every line but the closing braces' is unique. Every 97th comment says
/// `café`, so the file is not pure ASCII.
pub fn quotes_line(i: usize) -> String {
    match i % 8 {
        0 => format!("fn handler_{i}(req: &Request) -> Result<String, Error> {{ // \"route {i}\"\n"),
        1 => format!("    let name_{i} = lookup(\"key-{i}\", 'q', \"default\");\n"),
        2 => format!(
            "    map.insert(\"item-{i}\".to_string(), Value::from('{}'));\n",
            (b'a' + (i % 26) as u8) as char
        ),
        3 => format!("    println!(\"{{}} => {{:?}}\", \"row {i}\", 'x');\n"),
        4 if i % 97 == 4 => format!("    // \"caf\u{e9} {i}\": it's the line after the print\n"),
        4 => format!("    // \"quoted {i}\": it's the line after the print\n"),
        5 => format!("    if req.path == \"/v1/{i}\" {{ return Err(Error::new(\"bad input: '{i}'\")); }}\n"),
        6 => format!("    Ok(format!(\"{{}}-{{}}\", name_{}, \"done\")) // '{i}'\n", i - 5),
        _ => format!("}} // end of \"handler_{}\"\n", i - 7),
    }
}

const CSHARP_HEADER: &str =
    "\u{feff}// <auto-generated by surgical-bench/>\r\nusing System;\r\n\r\nnamespace Bench\r\n{\r\n";

/// Line `i` of the C# file (after its header), with its CRLF.
fn csharp_line(i: usize) -> String {
    match i % 6 {
        0 => format!("    public static class Helper{i}\r\n"),
        1 => "    {\r\n".to_string(),
        2 => format!("        public static string Name{i}(string s) => $\"item-{i}: {{s}}\";\r\n"),
        3 => format!("        public const string Key{i} = \"key-{i}\";\r\n"),
        4 => format!("        // \"note {i}\": it's generated\r\n"),
        _ => "    }\r\n".to_string(),
    }
}

/// One piece of the minified JavaScript.
fn js_chunk(i: usize) -> String {
    format!("function f{i}(a,b){{return a+\"-{i}-\"+b}}var v{i}='s{i}';")
}

/// Minified JavaScript of at least `size` bytes in lines of 8 MiB; the index of the chunk in the
/// middle of the middle line.
fn minified_file(size: usize) -> (std::sync::Arc<Vec<u8>>, usize) {
    const LINE: usize = 8 * MIB;
    let mut out = Vec::with_capacity(size + LINE);
    let mut starts = vec![0];
    let mut i = 0;
    let mut line_start = 0;
    while out.len() < size {
        out.extend_from_slice(js_chunk(i).as_bytes());
        i += 1;
        if out.len() - line_start >= LINE.min(size) {
            out.push(b'\n');
            line_start = out.len();
            starts.push(i);
        }
    }
    let lines = starts.len() - 1;
    let middle = lines / 2;
    let target = (starts[middle] + starts[middle + 1]) / 2;
    (std::sync::Arc::new(out), target)
}

/// `s` with its ASCII quotes written as typographic ones: `"` as “ and ” in turn, `'` as ‘ and ’
/// in turn.
fn typographic(s: &str) -> String {
    let (mut double, mut single) = (false, false);
    s.chars()
        .map(|c| match c {
            '"' => {
                double = !double;
                if double {
                    '\u{201C}'
                } else {
                    '\u{201D}'
                }
            }
            '\'' => {
                single = !single;
                if single {
                    '\u{2018}'
                } else {
                    '\u{2019}'
                }
            }
            c => c,
        })
        .collect()
}

/// The first line at or after `at` of kind `kind` (its index modulo 8).
fn of_kind(at: usize, kind: usize) -> usize {
    at - at % 8 + kind + if at % 8 > kind { 8 } else { 0 }
}

/// Lines `from..to` of the Rust-like source, joined, without the last line break.
fn quotes_lines(from: usize, to: usize) -> String {
    let s: String = (from..to).map(quotes_line).collect();
    s.strip_suffix('\n').unwrap_or(&s).to_string()
}

/// `count` places of lines of kind `kind`, spread evenly over `lines` lines, away from both ends.
fn spread(lines: usize, count: usize, kind: usize) -> Vec<usize> {
    (0..count)
        .map(|k| of_kind((k * 2 + 1) * lines / (2 * count), kind))
        .filter(|&i| i >= 8 && i + 8 < lines)
        .collect()
}

/// The two lines the `exact-quotes` and `fuzzy-quotes` rows edit, before and after: a `println!`
/// (whose longest run without blanks, `println!("{}`, is on every eighth line: the needle's rare
/// part is its number) and the comment after it.
fn quotes_target(src: &Source) -> (String, String) {
    let m = of_kind(src.lines / 2, 3);
    let old = quotes_lines(m, m + 2);
    let new = old.replace("\"row ", "\"line ");
    assert_ne!(old, new);
    (old, new)
}

fn exact_quotes(files: &Files) -> Case {
    let src = files.quotes();
    let (old, new) = quotes_target(src);
    Case {
        file_name: "bench.rs",
        file: src.bytes.clone(),
        tool: "edit",
        input: json!({"path": "bench.rs", "edits": [{"oldText": old, "newText": new}]}),
    }
}

fn fuzzy_quotes(files: &Files) -> Case {
    let src = files.quotes();
    let (old, new) = quotes_target(src);
    Case {
        file_name: "bench.rs",
        file: src.bytes.clone(),
        tool: "edit",
        input: json!({"path": "bench.rs", "edits": [{"oldText": typographic(&old), "newText": typographic(&new)}]}),
    }
}

fn crlf_bom_csharp(files: &Files) -> Case {
    let src = files.csharp();
    let middle = src.lines / 2;
    let m = middle - middle % 6 + 2;
    let old: String = (m..m + 3).map(|i| csharp_line(i).replace("\r\n", "\n")).collect();
    let old = old.trim_end_matches('\n').to_string();
    let new = old.replace(&format!("\"key-{}\"", m + 1), &format!("\"key-{}-v2\"", m + 1));
    assert_ne!(old, new);
    Case {
        file_name: "Bench.cs",
        file: src.bytes.clone(),
        tool: "edit",
        input: json!({"path": "Bench.cs", "edits": [{"oldText": old, "newText": new}]}),
    }
}

fn minified_js(files: &Files) -> Case {
    let (bytes, k) = files.minified();
    let old = format!("function f{k}(a,b){{return a+\"-{k}-\"+b}}");
    let new = format!("function f{k}(a,b){{return b+\"-{k}-\"+a}}");
    Case {
        file_name: "bench.min.js",
        file: bytes.clone(),
        tool: "edit",
        input: json!({"path": "bench.min.js", "edits": [{"oldText": old, "newText": new}]}),
    }
}

fn edits_100(files: &Files) -> Case {
    let src = files.quotes();
    let edits: Vec<Value> = spread(src.lines, 100, 2)
        .into_iter()
        .map(|i| {
            let old = quotes_lines(i, i + 1);
            json!({"oldText": old, "newText": old.replace("to_string()", "to_owned()")})
        })
        .collect();
    assert_eq!(edits.len(), 100, "the file is too small for 100 edits");
    Case {
        file_name: "bench.rs",
        file: src.bytes.clone(),
        tool: "edit",
        input: json!({"path": "bench.rs", "edits": edits}),
    }
}

/// The 50 hunks of the patch rows: each changes a `let name_…` line, with three lines of context on
/// each side. Returns (first context line, the hunk's lines with their ` `/`-`/`+` tags).
fn hunks_50(lines: usize) -> Vec<(usize, String)> {
    let places = spread(lines, 50, 1);
    assert_eq!(places.len(), 50, "the file is too small for 50 hunks");
    places
        .into_iter()
        .map(|i| {
            let mut body = String::new();
            for c in i - 3..i {
                body.push(' ');
                body.push_str(&quotes_line(c));
            }
            let old = quotes_line(i);
            body.push('-');
            body.push_str(&old);
            body.push('+');
            body.push_str(&old.replace("\"default\"", "\"fallback\""));
            for c in i + 1..i + 4 {
                body.push(' ');
                body.push_str(&quotes_line(c));
            }
            (i - 3, body)
        })
        .collect()
}

fn unified_50(files: &Files) -> Case {
    let src = files.quotes();
    let mut patch = String::from("--- a/bench.rs\n+++ b/bench.rs\n");
    for (first, body) in hunks_50(src.lines) {
        patch.push_str(&format!("@@ -{0},7 +{0},7 @@\n", first + 1));
        patch.push_str(&body);
    }
    Case {
        file_name: "bench.rs",
        file: src.bytes.clone(),
        tool: "apply_patch",
        input: json!({"patch": patch}),
    }
}

fn codex_50(files: &Files) -> Case {
    let src = files.quotes();
    let mut patch = String::from("*** Begin Patch\n*** Update File: bench.rs\n");
    for (_, body) in hunks_50(src.lines) {
        patch.push_str("@@\n");
        patch.push_str(&body);
    }
    patch.push_str("*** End Patch\n");
    Case {
        file_name: "bench.rs",
        file: src.bytes.clone(),
        tool: "apply_patch",
        input: json!({"patch": patch}),
    }
}

fn snippet_10(files: &Files) -> Case {
    let src = files.quotes();
    const MARKER: &str = "    // ... existing code ...\n";
    let mut snippet = String::from(MARKER);
    for i in spread(src.lines, 10, 1) {
        for c in i - 2..i {
            snippet.push_str(&quotes_line(c));
        }
        snippet.push_str(&quotes_line(i).replace("\"default\"", "\"fallback\""));
        for c in i + 1..i + 3 {
            snippet.push_str(&quotes_line(c));
        }
        snippet.push_str(MARKER);
    }
    Case {
        file_name: "bench.rs",
        file: src.bytes.clone(),
        tool: "apply_snippet",
        input: json!({"path": "bench.rs", "snippet": snippet}),
    }
}

/// The rows named by `filter` (comma-separated names or parts of names; `all` or empty for every
/// row), in table order.
pub fn select(filter: Option<&str>) -> Vec<&'static Row> {
    let words: Vec<&str> = filter
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty() && *w != "all")
        .collect();
    ROWS.iter()
        .filter(|r| words.is_empty() || words.iter().any(|w| r.name.contains(w)))
        .collect()
}

/// A few lines of `bytes` around `at` (line breaks shown as `⏎`, CRs as `␍`, a BOM as `<BOM>`),
/// at most `max` bytes, for showing what a row's file holds.
pub fn sample(bytes: &[u8], at: usize, max: usize) -> String {
    let start = bytes[..at.min(bytes.len())]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = (start + max).min(bytes.len());
    let text = String::from_utf8_lossy(&bytes[start..end]);
    text.replace('\u{feff}', "<BOM>")
        .replace('\r', "␍")
        .replace('\n', "⏎\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_sources_holds_a_quote() {
        for i in 0..2000 {
            let line = quotes_line(i);
            assert!(line.contains('"') || line.contains('\''), "{line}");
            assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        }
        for i in 0..600 {
            let line = csharp_line(i);
            assert!(line.ends_with("\r\n"));
        }
    }

    #[test]
    fn the_needles_are_where_the_rows_say() {
        let files = Files::new(2 * MIB);
        for row in ROWS {
            let case = row.case(&files);
            let text = String::from_utf8_lossy(&case.file);
            match case.tool {
                "edit" => {
                    let text = text.replace("\r\n", "\n");
                    for e in case.input["edits"].as_array().unwrap() {
                        let old = e["oldText"].as_str().unwrap();
                        if row.name == "fuzzy-quotes" {
                            assert!(old.contains('\u{201C}'));
                            continue;
                        }
                        assert_eq!(text.matches(old).count(), 1, "{}: {old}", row.name);
                    }
                }
                _ => assert!(case.input.to_string().len() > 100),
            }
        }
        assert_eq!(typographic("a \"b\" 'c'"), "a \u{201C}b\u{201D} \u{2018}c\u{2019}");
    }
}
