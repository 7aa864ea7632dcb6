//! `surgical demo`: the seed bug report's scenario, replayed on a sample file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;
use surgical_tool::{call, ToolResult};

use crate::term::escape_controls;

/// The file of the report: line 1 has an em dash in a string, line 2 three trailing spaces.
const SAMPLE: &str = "const label = \"a \u{2014} b\";\nlet x = 1;   \n\nfunction bar() {\n  return 2;\n}\n";
/// What the report's tool wrote to disk for the same edit.
const PEER_RESULT: &str = "const label = \"a - b\";\nlet x = 1;\n\nfunction bar() {\n  return 3;\n}\n";

/// A second file: UTF-8 BOM, CRLF and LF mixed, a lone CR, a smart quote, no final newline.
const MIXED: &[u8] = b"\xef\xbb\xbfheader\r\nname = \xe2\x80\x9cdemo\xe2\x80\x9d\nvalue = 1\r\rlast line";

fn show(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let trail = l.len() - l.trim_end().len();
            format!("  {:>2} | {}{}\n", i + 1, l.trim_end(), "\u{b7}".repeat(trail))
        })
        .collect()
}

pub(crate) fn run(dir: Option<PathBuf>, color: crate::term::ColorChoice) -> ExitCode {
    let tmp;
    let dir = match dir {
        Some(d) => d,
        None => match tempfile::tempdir() {
            Ok(t) => {
                tmp = t;
                tmp.path().to_path_buf()
            }
            Err(e) => {
                eprintln!("error: cannot create a temporary directory: {e}");
                return ExitCode::from(1);
            }
        },
    };
    let painter = crate::term::Painter::stdout(color);
    let mut out = std::io::stdout().lock();
    let path = dir.join("bar.ts");
    if let Err(e) = std::fs::write(&path, SAMPLE) {
        eprintln!("error: cannot write {}: {e}", escape_controls(&path.to_string_lossy()));
        return ExitCode::from(1);
    }
    let _ = writeln!(out, "surgical demo: the seed bug report, replayed\n");
    let _ = writeln!(
        out,
        "Sample file {} (\u{b7} = trailing space):\n{}",
        escape_controls(&path.to_string_lossy()),
        show(SAMPLE)
    );
    let _ = writeln!(
        out,
        "Edit: oldText \"\\u00a0\\u00a0return 2;\" (indented with two no-break spaces, as a model copies it\n\
         from rendered output), newText \"\\u00a0\\u00a0return 3;\". No exact match exists; the unicode tier finds one.\n"
    );
    let request = json!({
        "path": "bar.ts",
        "edits": [{"oldText": "\u{a0}\u{a0}return 2;", "newText": "\u{a0}\u{a0}return 3;"}]
    });
    let result = call("edit", &request, &dir);
    let ToolResult::Edit(success) = &result else {
        let _ = writeln!(out, "{}", painter.paint(&result.text(), ""));
        return ExitCode::from(1);
    };
    let (summary, _) = success.text.split_once("\n\n").unwrap_or((&success.text, ""));
    let _ = writeln!(out, "What surgical tells the model:\n{}\n", escape_controls(summary));
    let _ = write!(out, "{}", painter.diff(&success.diff));
    let on_disk = std::fs::read(&path).unwrap_or_default();
    let expected = SAMPLE.replace("return 2;", "return 3;");
    let untouched = on_disk.len() == SAMPLE.len() && {
        let changed: Vec<usize> = (0..on_disk.len())
            .filter(|&i| on_disk[i] != SAMPLE.as_bytes()[i])
            .collect();
        changed == vec![SAMPLE.find("2;").unwrap_or(0)]
    };
    let _ = writeln!(out, "\nOn disk now:\n{}", show(&String::from_utf8_lossy(&on_disk)));
    let _ = writeln!(out, "Checks:");
    let check = |ok: bool| if ok { "yes" } else { "NO" };
    let _ = writeln!(
        out,
        "  em dash on line 1 kept:                 {}",
        check(on_disk.windows(3).any(|w| w == "\u{2014}".as_bytes()))
    );
    let _ = writeln!(
        out,
        "  trailing spaces on line 2 kept:         {}",
        check(on_disk.windows(13).any(|w| w == b"let x = 1;   "))
    );
    let _ = writeln!(
        out,
        "  no-break spaces not written to line 5:  {}",
        check(!on_disk.windows(2).any(|w| w == "\u{a0}".as_bytes()))
    );
    let _ = writeln!(out, "  only the byte '2' -> '3' changed:       {}", check(untouched));
    let _ = writeln!(
        out,
        "  file equals the expected bytes:         {}",
        check(on_disk == expected.as_bytes())
    );
    let _ = writeln!(
        out,
        "\nThe report's tool wrote instead (em dash -> '-', trailing spaces stripped, diff hiding both):\n{}",
        show(PEER_RESULT)
    );

    // Second scenario: BOM, mixed line endings, a lone CR, a smart quote, no final newline.
    let mixed_path = dir.join("mixed.txt");
    if std::fs::write(&mixed_path, MIXED).is_err() {
        return ExitCode::from(1);
    }
    let request = json!({"path": "mixed.txt", "edits": [
        {"oldText": "name = \"demo\"\nvalue = 1", "newText": "name = \"demo\"\nvalue = 2\nextra = true"}
    ]});
    let result = call("edit", &request, &dir);
    let after = std::fs::read(&mixed_path).unwrap_or_default();
    let want: &[u8] =
        b"\xef\xbb\xbfheader\r\nname = \xe2\x80\x9cdemo\xe2\x80\x9d\nvalue = 2\rextra = true\r\rlast line";
    let _ = writeln!(
        out,
        "Second file, {}: UTF-8 BOM, CRLF and LF mixed, a lone CR, smart quotes, no final newline.\n\
         Edit: \"value = 1\" -> \"value = 2\" plus a new line, with oldText written in plain ASCII quotes.\n  \
         before: {:?}\n  after:  {:?}\n  {}",
        escape_controls(&mixed_path.to_string_lossy()),
        String::from_utf8_lossy(MIXED),
        String::from_utf8_lossy(&after),
        if result.is_ok() && after == want {
            "BOM, smart quotes, each line's own ending and the missing final newline: all kept; the new line break took the lone CR that ends the line it landed on."
        } else {
            "UNEXPECTED RESULT"
        }
    );
    if on_disk == expected.as_bytes() && after == want {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
