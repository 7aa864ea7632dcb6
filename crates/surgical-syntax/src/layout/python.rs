//! Python's indentation, checked as Python's tokenizer checks it: the grammar's tree does not tell
//! an unexpected indent from a continued block, nor name a dedent that matches no outer level.
//!
//! The text is cut into logical lines (brackets, strings — triple-quoted ones across lines —,
//! comments and backslash continuations followed); each logical line's indentation is checked
//! against the stack of open blocks: deeper only after a line ending with `:`, shallower only to a
//! level on the stack, and deeper after every line ending with `:`.

use crate::problem::{Finding, Problem};

/// The indentation problems of `text` (Python source), positions shifted by `offset`.
pub(crate) fn check(text: &[u8], offset: usize) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut stack: Vec<usize> = vec![0];
    // The last logical line ended with `:` (its start, to name it).
    let mut opened: Option<usize> = None;
    for line in logical_lines(text) {
        let indent = line.indent;
        let at = offset + line.start..offset + line.start + line.indent_bytes;
        let top = *stack.last().expect("the stack keeps its base");
        if let Some(colon_line) = opened.take() {
            if indent > top {
                stack.push(indent);
            } else {
                findings.push(Finding {
                    at: at.clone(),
                    problem: Problem::ExpectedIndentedBlock { after_line: 0 },
                    hint: Some(offset + colon_line),
                });
                // Read on as if the block were there and empty.
                dedent(&mut stack, indent);
            }
        } else if indent > top {
            findings.push(Finding {
                at: at.clone(),
                problem: Problem::UnexpectedIndent,
                hint: None,
            });
            // Python stops here; reading on as if the line were at the block's level finds the
            // problems after it that are the edit's own.
        } else if indent < top && !dedent(&mut stack, indent) {
            findings.push(Finding {
                at: at.clone(),
                problem: Problem::UnindentMatchesNothing,
                hint: None,
            });
        }
        if line.ends_with_colon {
            opened = Some(line.start);
        }
    }
    findings
}

/// Pops the blocks deeper than `indent`; whether `indent` is then the level of one.
fn dedent(stack: &mut Vec<usize>, indent: usize) -> bool {
    while stack.len() > 1 && *stack.last().expect("not empty") > indent {
        stack.pop();
    }
    if *stack.last().expect("not empty") == indent {
        true
    } else {
        // A level between two: take it as a block of its own so the lines after it are read
        // against it.
        stack.push(indent);
        false
    }
}

/// One logical line: where it starts, its indentation (tabs to the next multiple of 8, as
/// Python counts them), and whether its last token is a `:`.
struct LogicalLine {
    start: usize,
    indent: usize,
    indent_bytes: usize,
    ends_with_colon: bool,
}

/// The logical lines of `text` that hold a token (blank and comment-only lines are not).
fn logical_lines(text: &[u8]) -> Vec<LogicalLine> {
    let mut lines = Vec::new();
    let mut i = 0;
    let n = text.len();
    // State across physical lines.
    let mut depth = 0usize;
    let mut in_string: Option<(u8, bool)> = None; // quote, triple
    let mut continued = false;
    let mut current: Option<LogicalLine> = None;
    let mut last_token_colon = false;
    while i < n {
        // At a physical line's start.
        let line_start = i;
        let starts_logical = depth == 0 && in_string.is_none() && !continued;
        continued = false;
        if starts_logical {
            let mut col = 0;
            let mut j = i;
            while j < n && (text[j] == b' ' || text[j] == b'\t' || text[j] == b'\x0c') {
                col = match text[j] {
                    b'\t' => (col / 8 + 1) * 8,
                    b'\x0c' => 0,
                    _ => col + 1,
                };
                j += 1;
            }
            let blank = j >= n || matches!(text[j], b'\n' | b'\r' | b'#');
            if !blank {
                if let Some(done) = current.take() {
                    lines.push(LogicalLine {
                        ends_with_colon: last_token_colon,
                        ..done
                    });
                }
                current = Some(LogicalLine {
                    start: line_start,
                    indent: col,
                    indent_bytes: j - line_start,
                    ends_with_colon: false,
                });
                last_token_colon = false;
            }
            i = j;
        }
        // The rest of the physical line.
        while i < n && text[i] != b'\n' {
            let b = text[i];
            if let Some((quote, triple)) = in_string {
                if b == b'\\' {
                    i += 2;
                    continue;
                }
                if b == quote {
                    if !triple {
                        in_string = None;
                    } else if text[i..].starts_with(&[quote; 3]) {
                        in_string = None;
                        i += 3;
                        continue;
                    }
                } else if b == b'\r' && !triple {
                    // A lone CR ends the line too (and an unterminated one-line string with it).
                    in_string = None;
                }
                i += 1;
                continue;
            }
            match b {
                b'#' => {
                    while i < n && text[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'"' | b'\'' => {
                    let triple = text[i..].starts_with(&[b; 3]);
                    in_string = Some((b, triple));
                    i += if triple { 3 } else { 1 };
                    last_token_colon = false;
                    continue;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'\\' if matches!(text.get(i + 1), Some(b'\n') | Some(b'\r')) => {
                    continued = true;
                    i += 1;
                    continue;
                }
                b' ' | b'\t' | b'\r' | b'\x0c' => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            last_token_colon = b == b':' && depth == 0;
            i += 1;
        }
        // The end of a physical line: a one-line string left open ends here (Python's error,
        // which the grammar reports).
        if let Some((_, false)) = in_string {
            in_string = None;
        }
        i += 1;
    }
    if let Some(done) = current.take() {
        lines.push(LogicalLine {
            ends_with_colon: last_token_colon,
            ..done
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(usize, Problem)> {
        check(text.as_bytes(), 0)
            .into_iter()
            .map(|f| (1 + text[..f.at.start].matches('\n').count(), f.problem))
            .collect()
    }

    #[test]
    fn clean_code_has_no_problem() {
        let text = "import os\n\n\nclass A:\n    \"\"\"Doc\n\nnot indented inside the string\n    \"\"\"\n\n    def f(self, a,\n  b):\n        x = [1,\n2]\n        if x: return 1\n        y = 'a:' \\\n            + 'b'\n        return (x  # a comment:\n)\n    # a comment at any indent:\n          # another\n\n\ndef g():\n\tpass\n";
        assert_eq!(kinds(text), vec![]);
    }

    #[test]
    fn unexpected_indent() {
        assert_eq!(
            kinds("def f():\n    x = 1\n        y = 2\n"),
            vec![(3, Problem::UnexpectedIndent)]
        );
    }

    #[test]
    fn unindent_matching_nothing() {
        assert_eq!(
            kinds("def f():\n    if x:\n        y = 1\n      z = 2\n"),
            vec![(4, Problem::UnindentMatchesNothing)]
        );
    }

    #[test]
    fn expected_indented_block() {
        let found = check(b"def f():\nreturn 1\n", 0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].problem, Problem::ExpectedIndentedBlock { after_line: 0 });
        assert_eq!(found[0].hint, Some(0));
        assert_eq!(found[0].at.start, 9);
    }

    #[test]
    fn a_block_at_the_end_of_the_text_is_not_read_as_missing() {
        // A window may end right after a `:` line's block is cut: nothing follows, nothing said.
        assert_eq!(kinds("if x:\n"), vec![]);
    }
}
