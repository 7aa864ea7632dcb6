//! Round 1 of the evaluation: does surgical put edits where the model meant, and nowhere else?
//!
//! The corpus is real source files in several languages (`eval/corpus/`, with copies of three of
//! surgical's own Rust sources), each also rendered as file variants models meet in practice (CRLF endings,
//! trailing whitespace, mixed endings). A case picks a region of one to four lines that occurs once,
//! and an intended change: a marker appended to one of its lines. The model's `oldText`/`newText`
//! are then written the way models get them wrong — one [`Perturbation`] per case — and the edit is
//! run through `surgical_core::apply`.
//!
//! Every outcome is one of:
//! * **placed**: the file changed only on the intended line, which is the file's line with the
//!   marker inserted and nothing else changed: **ideal** with the marker before the line's trailing
//!   blanks (byte for byte what a careful human would write), or among or after them (the model,
//!   which cannot see them, cannot say which side it meant). A line that holds anything of the
//!   model's own version of it (its spacing, indentation or characters, the file's trailing blanks
//!   dropped) is not placed correctly: it is wrong;
//! * **refused**: an error (for `WrongText` and `Ambiguous` cases, refusing is the right answer);
//! * **wrong**: anything else that changed the file. This must be 0.
//!
//! and bytes changed outside the intended lines are counted (must be 0).

use std::sync::LazyLock;

use surgical_core::{apply, Edit, Options, Tier};

use crate::harness::run::{generate, run};
use crate::harness::table::{self, render, Column};
use crate::harness::text::{content, split, variant};
use crate::harness::{Outcome, Rng, Round, Row, Suite, Tally};

/// One file of the corpus.
struct Source {
    name: &'static str,
    text: &'static str,
}

/// The corpus: files written for the harness (several languages, with tabs, typographic quotes,
/// dashes, no-break spaces where real files have them), then copies of three of surgical's own
/// sources ([`OWN_SOURCES`]).
static CORPUS: LazyLock<Vec<Source>> = LazyLock::new(|| {
    let mut corpus = vec![
        Source {
            name: "inventory.py",
            text: include_str!("../../../../eval/corpus/inventory.py"),
        },
        Source {
            name: "server.go",
            text: include_str!("../../../../eval/corpus/server.go"),
        },
        Source {
            name: "cart.ts",
            text: include_str!("../../../../eval/corpus/cart.ts"),
        },
        Source {
            name: "ringbuf.c",
            text: include_str!("../../../../eval/corpus/ringbuf.c"),
        },
        Source {
            name: "guide.md",
            text: include_str!("../../../../eval/corpus/guide.md"),
        },
    ];
    corpus.extend(own_sources(OWN_SOURCES));
    corpus
});

/// Copies of `lines.rs`, `fold.rs` and `request.rs` as of commit b54210e, each after its
/// `==> NAME <==` line: copies, so that the corpus, and the figures measured on it, do not move
/// when the code does; one file, so that git never takes a copy for its source when that moves.
const OWN_SOURCES: &str = include_str!("../../../../eval/corpus/surgical-sources.txt");

/// The files of [`OWN_SOURCES`]: the text after each `==> NAME <==` line, up to the next one.
fn own_sources(all: &'static str) -> Vec<Source> {
    // Per marker line: the file's name, where the line starts and where the file's text starts.
    let mut marks: Vec<(&'static str, usize, usize)> = Vec::new();
    let mut at = 0;
    for line in all.split_inclusive('\n') {
        let name = line
            .strip_prefix("==> ")
            .and_then(|l| l.trim_end().strip_suffix(" <=="));
        if let Some(name) = name {
            marks.push((name, at, at + line.len()));
        }
        at += line.len();
    }
    marks
        .iter()
        .enumerate()
        .map(|(i, &(name, _, start))| {
            let end = marks.get(i + 1).map_or(all.len(), |m| m.1);
            Source {
                name,
                text: &all[start..end],
            }
        })
        .collect()
}

/// How the model got `oldText` (and `newText`, written the same way) wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Perturbation {
    /// Copied exactly (line endings aside).
    Exact,
    /// Trailing whitespace dropped.
    TrailingStripped,
    /// Typographic quotes, dashes and no-break spaces typed as ASCII.
    Typographic,
    /// The block's common indentation removed (copied out of its nesting).
    Dedented,
    /// Tabs typed as four spaces.
    TabsToSpaces,
    /// Runs of spaces collapsed to one.
    WhitespaceRuns,
    /// A blank line inside the block left out.
    BlankLineDropped,
    /// Newlines, tabs and quotes escaped (`\n`, `\t`, `\"`).
    OverEscaped,
    /// One line the model did not mean to change is slightly misremembered (needs `similar`).
    Paraphrased,
    /// A line that is not in the file: must be refused.
    WrongText,
    /// A line that occurs several times, with no context: must be refused.
    Ambiguous,
}

impl Perturbation {
    /// Every perturbation, in the order of the report's rows.
    pub const ALL: [Perturbation; 11] = [
        Perturbation::Exact,
        Perturbation::TrailingStripped,
        Perturbation::Typographic,
        Perturbation::Dedented,
        Perturbation::TabsToSpaces,
        Perturbation::WhitespaceRuns,
        Perturbation::BlankLineDropped,
        Perturbation::OverEscaped,
        Perturbation::Paraphrased,
        Perturbation::WrongText,
        Perturbation::Ambiguous,
    ];

    /// The row's name in the report (`exact copy`, `trailing whitespace dropped`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Perturbation::Exact => "exact copy",
            Perturbation::TrailingStripped => "trailing whitespace dropped",
            Perturbation::Typographic => "quotes/dashes/NBSP typed as ASCII",
            Perturbation::Dedented => "indentation removed",
            Perturbation::TabsToSpaces => "tabs typed as spaces",
            Perturbation::WhitespaceRuns => "spaces collapsed",
            Perturbation::BlankLineDropped => "blank line dropped",
            Perturbation::OverEscaped => "over-escaped",
            Perturbation::Paraphrased => "one line paraphrased",
            Perturbation::WrongText => "text not in the file",
            Perturbation::Ambiguous => "ambiguous (no context)",
        }
    }

    /// Whether refusing is the right answer.
    pub fn must_refuse(self) -> bool {
        matches!(self, Perturbation::WrongText | Perturbation::Ambiguous)
    }
}

/// A case: a file, the intended lines, the intended change, and what the model sent.
pub struct Case {
    file: String,
    /// Zero-based first line and count of the intended region.
    first: usize,
    count: usize,
    /// The line that gets the marker.
    target: usize,
    old: String,
    new: String,
    perturbation: Perturbation,
    source: &'static str,
}

const MARKER: &str = " /*EDIT*/";

fn perturb(p: Perturbation, text: &str, rng: &mut Rng) -> String {
    match p {
        Perturbation::Exact | Perturbation::WrongText | Perturbation::Ambiguous | Perturbation::Paraphrased => {
            text.to_string()
        }
        Perturbation::TrailingStripped => text
            .split('\n')
            .map(|l| l.trim_end_matches([' ', '\t']))
            .collect::<Vec<_>>()
            .join("\n"),
        Perturbation::Typographic => text
            .chars()
            .map(|c| match c {
                '\u{201C}' | '\u{201D}' => '"',
                '\u{2018}' | '\u{2019}' => '\'',
                '\u{2013}' | '\u{2014}' => '-',
                '\u{a0}' => ' ',
                c => c,
            })
            .collect(),
        Perturbation::Dedented => {
            let common = text
                .split('\n')
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
                .min()
                .unwrap_or(0);
            text.split('\n')
                .map(|l| l.get(common..).unwrap_or("").to_string())
                .collect::<Vec<_>>()
                .join("\n")
        }
        Perturbation::TabsToSpaces => text.replace('\t', "    "),
        Perturbation::WhitespaceRuns => {
            let mut out = String::new();
            let mut prev_space = false;
            for c in text.chars() {
                if c == ' ' && prev_space {
                    continue;
                }
                prev_space = c == ' ';
                out.push(c);
            }
            out
        }
        Perturbation::BlankLineDropped => {
            text.split('\n')
                .filter(|l| !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n")
                + if text.ends_with('\n') { "\n" } else { "" }
        }
        Perturbation::OverEscaped => {
            let _ = rng;
            text.replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\t', "\\t")
                .replace('\n', "\\n")
        }
    }
}

/// Builds a case, or `None` if this file and region do not suit the perturbation.
fn make_case(p: Perturbation, rng: &mut Rng) -> Option<Case> {
    let source = &CORPUS[rng.below(CORPUS.len())];
    let variant_index = match p {
        Perturbation::TrailingStripped => 2,
        _ => rng.below(4),
    };
    let file = variant(source.text, variant_index);
    let lines = split(&file);
    let n = lines.len();
    if n < 6 {
        return None;
    }
    let count = if p == Perturbation::Ambiguous {
        1
    } else {
        1 + rng.below(4).max(usize::from(p == Perturbation::Paraphrased) * 2)
    };
    let first = rng.below(n - count);
    let region: Vec<&str> = lines[first..first + count].to_vec();
    let non_blank: Vec<usize> = (0..count).filter(|&k| !content(region[k]).trim().is_empty()).collect();
    if non_blank.is_empty() || content(region[non_blank[0]]).trim().len() < 3 {
        return None;
    }
    let model_lines: Vec<String> = region.iter().map(|l| content(l).to_string()).collect();
    let final_newline = if rng.below(2) == 0 { "\n" } else { "" };
    let old_exact = model_lines.join("\n") + final_newline;
    let occurrences = file.replace("\r\n", "\n").matches(old_exact.as_str()).count();
    match p {
        Perturbation::Ambiguous if occurrences < 2 => return None,
        Perturbation::Ambiguous => {}
        _ if occurrences != 1 => return None,
        _ => {}
    }
    let target = non_blank[rng.below(non_blank.len())];
    let mut changed = model_lines.clone();
    let trimmed = changed[target].trim_end_matches([' ', '\t']).len();
    changed[target].insert_str(trimmed, MARKER);
    let new_exact = changed.join("\n") + final_newline;
    let (mut old, mut new) = (perturb(p, &old_exact, rng), perturb(p, &new_exact, rng));
    match p {
        Perturbation::Exact | Perturbation::Ambiguous => {}
        Perturbation::WrongText => {
            // A line of oldText that is not in the file.
            let wrong = format!("{}let not_in_file = {};", " ".repeat(4), rng.below(1000));
            let mut o: Vec<String> = old.split('\n').map(String::from).collect();
            let mut w: Vec<String> = new.split('\n').map(String::from).collect();
            o[target] = wrong.clone();
            w[target] = wrong + MARKER;
            (old, new) = (o.join("\n"), w.join("\n"));
        }
        Perturbation::Paraphrased => {
            // Misremember a line other than the target, in both oldText and newText.
            let others: Vec<usize> = non_blank
                .iter()
                .copied()
                .filter(|&k| k != target && model_lines[k].trim().len() >= 8)
                .collect();
            if others.is_empty() || non_blank.len() < 3 {
                return None;
            }
            let k = others[rng.below(others.len())];
            let line = &model_lines[k];
            let at = line.len() - 2;
            if !line.is_char_boundary(at) {
                return None;
            }
            let para = format!("{}x{}", &line[..at], &line[at..]);
            let mut o: Vec<String> = old.split('\n').map(String::from).collect();
            let mut w: Vec<String> = new.split('\n').map(String::from).collect();
            o[k] = para.clone();
            w[k] = para;
            (old, new) = (o.join("\n"), w.join("\n"));
        }
        _ if old == old_exact => return None, // the perturbation does not apply to this region
        _ => {}
    }
    Some(Case {
        file,
        first,
        count,
        target,
        old,
        new,
        perturbation: p,
        source: source.name,
    })
}

/// Runs one case through `surgical_core::apply` and judges the result: the file changed only on
/// the intended line, into the file's line with the marker inserted (see the module docs).
fn run_case(case: &Case, options: &Options) -> Outcome {
    let file = case.file.as_bytes();
    let result = apply(file, &[Edit::new(case.old.clone(), case.new.clone())], options);
    let applied = match result {
        Err(e) => {
            if std::env::var_os("SURGICAL_EVAL_SHOW_REFUSALS").is_some() && !case.perturbation.must_refuse() {
                eprintln!("REFUSED ({}): {e}", case.perturbation.name());
            }
            return Outcome::Refused {
                code: e.code().to_string(),
                message: e.to_string(),
            };
        }
        Ok(a) => a,
    };
    let out = &applied.text;
    let lines = split(&case.file);
    let region_start: usize = lines[..case.first].iter().map(|l| l.len()).sum();
    let region_end: usize = region_start
        + lines[case.first..case.first + case.count]
            .iter()
            .map(|l| l.len())
            .sum::<usize>();
    let pre = file.iter().zip(out.iter()).take_while(|(a, b)| a == b).count();
    let post = file[pre..]
        .iter()
        .rev()
        .zip(out[pre..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (change_start, change_end) = (pre, file.len() - post);
    let outside = region_start.saturating_sub(change_start) + change_end.saturating_sub(region_end);
    if outside > 0 || case.perturbation.must_refuse() {
        let why = if outside > 0 {
            "changed bytes outside the intended lines".into()
        } else {
            "should have been refused".into()
        };
        return Outcome::Wrong {
            tier: None,
            damaged: outside > 0,
            outside_bytes: outside,
            why,
        };
    }
    // The marker must be on the intended line, and the region's other lines unchanged.
    let out_text = String::from_utf8_lossy(out);
    let out_lines = split(&out_text);
    let target_line = case.first + case.target;
    let ok = out_lines.len() == lines.len()
        && out_lines.get(target_line).is_some_and(|l| l.contains(MARKER.trim()))
        && (0..lines.len())
            .filter(|&i| i != target_line)
            .all(|i| out_lines[i] == lines[i]);
    if !ok {
        let shown: Vec<String> = (case.first..(case.first + case.count + 1).min(out_lines.len()))
            .map(|i| format!("{:?} => {:?}", lines.get(i), out_lines.get(i)))
            .collect();
        return Outcome::Wrong {
            tier: None,
            damaged: false,
            outside_bytes: 0,
            why: format!(
                "marker not on the intended line, or other lines changed:\n{}",
                shown.join("\n")
            ),
        };
    }
    let t = content(lines[target_line]);
    let trimmed = t.trim_end_matches([' ', '\t']).len();
    let ideal_line = format!(
        "{}{MARKER}{}{}",
        &t[..trimmed],
        &t[trimmed..],
        &lines[target_line][t.len()..]
    );
    let ideal = out_lines[target_line] == ideal_line;
    if !ideal && std::env::var_os("SURGICAL_EVAL_SHOW_NOT_IDEAL").is_some() {
        eprintln!(
            "NOT IDEAL ({}): expected {ideal_line:?}, got {:?}",
            case.perturbation.name(),
            out_lines[target_line]
        );
    }
    // Not byte-ideal is acceptable only when every byte of the file's line is kept and the change
    // sits among or after its trailing blanks, which the model cannot see. Anything else on the
    // edited line (the model's own spacing, indentation or characters written over the file's, or
    // the file's trailing blanks dropped) is not what the model changed: a wrong result.
    let out_line = out_lines[target_line];
    let kept_all =
        out_line.replacen(MARKER, "", 1) == lines[target_line] && out_line.find(MARKER).is_some_and(|at| at >= trimmed);
    if !ideal && !kept_all {
        return Outcome::Wrong {
            tier: None,
            damaged: false,
            outside_bytes: 0,
            why: format!(
                "the edited line is not the file's line with the change: expected {ideal_line:?}, got {out_line:?}"
            ),
        };
    }
    Outcome::Placed {
        ideal,
        tier: Some(applied.edits[0].tier),
    }
}

/// Round 1 as a suite of the harness: its perturbations, run with the tiers up to a loosest one.
pub struct Round1 {
    options: Options,
}

impl Round1 {
    /// Round 1 with the tiers up to `max`.
    pub fn new(max: Tier) -> Round1 {
        Round1 {
            options: Options::new().loosest_tier(max),
        }
    }
}

impl Suite for Round1 {
    type Kind = Perturbation;
    type Case = Case;

    fn run(&self, case: &Case) -> Outcome {
        run_case(case, &self.options)
    }

    /// Lists every wrong case on stderr.
    fn observe(&mut self, p: &Perturbation, case: &Case, outcome: &Outcome, _tally: &mut Tally) {
        if let Outcome::Wrong { why, .. } = outcome {
            eprintln!(
                "WRONG ({}): {why} in {} lines {}-{}\n--- oldText ---\n{:?}\n--- newText ---\n{:?}",
                p.name(),
                case.source,
                case.first + 1,
                case.first + case.count,
                case.old,
                case.new
            );
        }
    }
}

impl Round for Round1 {
    const ATTEMPTS_PER_CASE: usize = 200;

    /// One generator for the whole round, seeded once.
    fn own_seed(_seed: u64, _kind: Perturbation) -> Option<u64> {
        None
    }

    fn make_case(p: Perturbation, rng: &mut Rng) -> Option<Case> {
        make_case(p, rng)
    }
}

/// Runs `per` cases of every perturbation, with the tiers up to `max`.
pub fn evaluate(per: usize, seed: u64, max: Tier) -> Vec<Row<Perturbation>> {
    let kinds = Perturbation::ALL;
    run(&mut Round1::new(max), &kinds, generate::<Round1>(&kinds, per, seed))
}

/// Round 1's columns: the perturbation, the cases, what became of them, the bytes changed outside
/// the intended lines, the tiers that placed them.
const COLUMNS: [Column<Perturbation>; 8] = [
    Column {
        header: "model's oldText",
        cell: |r| r.kind.name().to_string(),
        total: None,
    },
    Column {
        header: "cases",
        cell: |r| r.tally.cases.to_string(),
        total: Some(|t| t.cases.to_string()),
    },
    Column {
        header: "placed correctly",
        cell: |r| table::placed(r.tally.placed, r.kind.must_refuse()),
        total: Some(|t| t.placed.to_string()),
    },
    Column {
        header: "of which byte-ideal",
        cell: |r| r.tally.ideal.to_string(),
        total: Some(|t| t.ideal.to_string()),
    },
    Column {
        header: "refused",
        cell: |r| r.tally.refused.to_string(),
        total: Some(|t| t.refused.to_string()),
    },
    Column {
        header: "placed wrongly",
        cell: |r| r.tally.wrong.to_string(),
        total: Some(|t| format!("**{}**", t.wrong)),
    },
    Column {
        header: "bytes changed outside",
        cell: |r| r.tally.outside_bytes.to_string(),
        total: Some(|t| format!("**{}**", t.outside_bytes)),
    },
    Column {
        header: "tiers used",
        cell: |r| table::tiers(&r.tally),
        total: None,
    },
];

/// The report as a Markdown table.
pub fn table(rows: &[Row<Perturbation>]) -> String {
    render(&COLUMNS, rows, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The copies are the three files, whole: each as long as the file it was copied from.
    #[test]
    fn own_sources_are_the_three_files() {
        let files = own_sources(OWN_SOURCES);
        let names: Vec<&str> = files.iter().map(|f| f.name).collect();
        assert_eq!(names, ["lines.rs", "fold.rs", "request.rs"]);
        let lengths: Vec<usize> = files.iter().map(|f| f.text.len()).collect();
        assert_eq!(lengths, [31195, 5286, 6721]);
        assert!(files
            .iter()
            .all(|f| f.text.ends_with("}\n") && !f.text.contains("==> ")));
        assert_eq!(CORPUS.len(), 8);
    }
}
