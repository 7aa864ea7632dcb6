//! The lazy-snippet corpus (`eval/snippets/`, see its README) and an oracle that judges a merger's
//! results independently of how the merger works.
//!
//! A case is one snippet derived from a real commit: the parent's file (`before`), the commit's
//! file (`after`) and the snippet (changed hunks with one to three lines of context, the rest
//! elided by marker comments). Each case is judged as:
//! * **placed**: the result is the commit's file byte for byte (for the `mixed` variant, lines the
//!   commit adds may end in LF or CRLF, see [`Case::free_endings`]);
//! * **refused**: the merger returned an error (the right answer for the `ambiguous-*` variants);
//! * **wrong**: anything else, i.e. any result for an ambiguous snippet or a result that is not the
//!   commit's file; a wrong result is also **damaged** when bytes outside the commit's hunks
//!   changed (a stretch of the file the commit keeps is not found intact, in order, in the result).

use std::fs;
use std::io;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use crate::harness::run::run;
use crate::harness::table::{render, Column};
use crate::harness::{Outcome, Row, Suite, Tally};

/// What the corpus expects of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The commit's file, exactly.
    Placed,
    /// A refusal: the snippet fits more than one place.
    Refused,
}

/// One snippet of the corpus.
#[derive(Clone, Debug)]
pub struct Case {
    /// The corpus directory it comes from (one per source repository).
    pub repo: String,
    /// `<commit12>`: the commit the case is derived from.
    pub id: String,
    /// The variant (`plain`, `header`, `crlf`, `ambiguous-copy`, ...).
    pub variant: String,
    /// The file's path in its repository (its extension tells the language).
    pub path: String,
    /// The file the snippet is applied to.
    pub before: Vec<u8>,
    /// The file a correct merge gives (unused for [`Expect::Refused`]).
    pub after: Vec<u8>,
    /// The snippet, as a model writes it (LF endings, no BOM).
    pub snippet: String,
    /// What is expected.
    pub expect: Expect,
    /// One-based lines of `after` that the commit adds to a file with mixed endings: their text
    /// must be exact, their ending may be LF or CRLF (which one a new line takes in a mixed file is
    /// the merger's choice).
    pub free_endings: Vec<usize>,
}

impl Case {
    /// `repo/commit12/variant`, how failures are named.
    pub fn name(&self) -> String {
        format!("{}/{}/{}", self.repo, self.id, self.variant)
    }
}

/// What a merger did with a case.
#[derive(Clone, Debug)]
pub enum Merged {
    /// The merged file.
    Applied(Vec<u8>),
    /// An error, with its code (`ambiguous`, `not_found`, ...) and message.
    Refused {
        /// The error code.
        code: String,
        /// The message, for the failure list.
        message: String,
    },
}

/// The corpus directory: `SURGICAL_SNIPPETS_DIR`, or `eval/snippets` of this repository.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("SURGICAL_SNIPPETS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/snippets"),
    }
}

fn sorted_dirs(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            dirs.push(entry.path());
        }
    }
    dirs.sort();
    Ok(dirs)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Reads every case under `dir` (`<repo>/cases/<commit12>/<variant>/snippet`), in a stable order.
/// A variant's own `before`/`after` replace the case's; `expect` holding `refuse` marks a negative.
pub fn load(dir: &Path) -> io::Result<Vec<Case>> {
    let mut cases = Vec::new();
    for repo in sorted_dirs(dir)? {
        let cases_dir = repo.join("cases");
        if !cases_dir.is_dir() {
            continue;
        }
        for case in sorted_dirs(&cases_dir)? {
            let path = fs::read_to_string(case.join("path"))?.trim_end().to_owned();
            let before = fs::read(case.join("before"))?;
            let after = fs::read(case.join("after"))?;
            for v in sorted_dirs(&case)? {
                let own = |name: &str, base: &Vec<u8>| -> io::Result<Vec<u8>> {
                    let p = v.join(name);
                    if p.exists() {
                        fs::read(p)
                    } else {
                        Ok(base.clone())
                    }
                };
                let expect = match fs::read_to_string(v.join("expect")) {
                    Ok(s) if s.trim() == "refuse" => Expect::Refused,
                    Ok(s) => {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!("{}: unknown expectation {s:?}", v.display()),
                        ))
                    }
                    Err(_) => Expect::Placed,
                };
                let free_endings = match fs::read_to_string(v.join("free-endings")) {
                    Ok(s) => s.lines().filter_map(|l| l.trim().parse().ok()).collect(),
                    Err(_) => Vec::new(),
                };
                cases.push(Case {
                    repo: file_name(&repo),
                    id: file_name(&case),
                    variant: file_name(&v),
                    path: path.clone(),
                    before: own("before", &before)?,
                    after: own("after", &after)?,
                    snippet: fs::read_to_string(v.join("snippet"))?,
                    expect,
                    free_endings,
                });
            }
        }
    }
    Ok(cases)
}

/// Lines with their endings (the last one may have none).
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

fn without_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The result is the expected file: bytes equal, except that the lines in `free` (one-based) may
/// end in LF or CRLF.
fn matches(result: &[u8], expected: &[u8], free: &[usize]) -> bool {
    if free.is_empty() {
        return result == expected;
    }
    let (r, e) = (lines(result), lines(expected));
    r.len() == e.len()
        && r.iter().zip(&e).enumerate().all(|(i, (r, e))| {
            if free.contains(&(i + 1)) {
                without_ending(r) == without_ending(e) && r.ends_with(b"\n") == e.ends_with(b"\n")
            } else {
                r == e
            }
        })
}

/// Bytes outside the commit's hunks changed: some stretch of lines that the commit keeps (the
/// equal runs of a line diff between `before` and `after`) is not found intact in `result`, in
/// order, with the file's first and last stretches at the result's start and end.
pub fn damaged(before: &[u8], after: &[u8], result: &[u8]) -> bool {
    let (b, a, r) = (lines(before), lines(after), lines(result));
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &b, &a);
    let mut pos = 0;
    for op in ops {
        let similar::DiffOp::Equal { old_index, len, .. } = op else {
            continue;
        };
        let kept = &b[old_index..old_index + len];
        let found = if old_index == 0 {
            r.starts_with(kept).then_some(0)
        } else if old_index + len == b.len() {
            (r.len() >= pos + len && r.ends_with(kept)).then(|| r.len() - len)
        } else {
            r[pos..].windows(len).position(|w| w == kept).map(|i| pos + i)
        };
        match found {
            Some(at) if at >= pos => pos = at + len,
            _ => return true,
        }
    }
    false
}

/// How a wrong result differs from the commit's file when nothing visible differs (issue 31's
/// whitespace rule: the file's invisible bytes are kept on lines that pair with unchanged context,
/// and the model's indentation is re-keyed to the file's where its context shows other
/// characters). Reported in their own column, never hidden: still wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invisible {
    /// Something visible differs (a line's text, or the number of lines).
    No,
    /// Only blanks at the lines' ends (indentation, trailing blanks) and line endings differ, and
    /// every such line holds, visibly, a line of the file before the commit: the file's bytes kept
    /// on context lines, by rule.
    Context,
    /// Only invisible bytes differ, on a line the file did not hold (a new line written with the
    /// file's indentation: re-keyed).
    NewLine,
}

/// [`Invisible`] for a result: `before` the file, `after` the commit's.
pub fn invisible(before: &[u8], after: &[u8], result: &[u8]) -> Invisible {
    let trim = |l: &[u8]| -> Vec<u8> { l.trim_ascii().to_vec() };
    let (r, a) = (lines(result), lines(after));
    if r.len() != a.len() || r.iter().zip(&a).any(|(r, a)| trim(r) != trim(a)) {
        return Invisible::No;
    }
    let held: std::collections::HashSet<Vec<u8>> = lines(before).iter().map(|l| trim(l)).collect();
    let differing = r.iter().zip(&a).filter(|(r, a)| r != a);
    if differing.clone().all(|(r, _)| held.contains(&trim(r))) {
        Invisible::Context
    } else {
        Invisible::NewLine
    }
}

/// Judges what a merger did with a case: placed (the commit's bytes, byte-ideal), refused, or
/// wrong (damaged when bytes outside the commit's hunks changed; for a negative, the commit's file
/// still tells which bytes it may change).
pub fn judge(case: &Case, merged: &Merged) -> Outcome {
    match merged {
        Merged::Refused { code, message } => Outcome::Refused {
            code: code.clone(),
            message: message.clone(),
        },
        Merged::Applied(result) => {
            if case.expect == Expect::Placed && matches(result, &case.after, &case.free_endings) {
                Outcome::Placed {
                    ideal: true,
                    tier: None,
                }
            } else {
                Outcome::Wrong {
                    tier: None,
                    damaged: damaged(&case.before, &case.after, result),
                    outside_bytes: 0,
                    why: match invisible(&case.before, &case.after, result) {
                        Invisible::No => String::new(),
                        Invisible::Context => "differs only in invisible bytes on context lines, kept by rule".into(),
                        Invisible::NewLine => {
                            "differs only in invisible bytes (new lines re-keyed to the file's indentation)".into()
                        }
                    },
                }
            }
        }
    }
}

/// An outcome as the list of failures names it: `Placed`, `Refused("ambiguous")`,
/// `Wrong { damaged: true }`.
pub fn verdict(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Placed { .. } => "Placed".to_string(),
        Outcome::Refused { code, .. } => format!("Refused({code:?})"),
        Outcome::Wrong { damaged, why, .. } if why.is_empty() => format!("Wrong {{ damaged: {damaged} }}"),
        Outcome::Wrong { damaged, why, .. } => format!("Wrong {{ damaged: {damaged} }} ({why})"),
    }
}

/// A row of the corpus's table: a variant, and whether its cases expect a refusal.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The variant's name.
    pub name: String,
    /// Whether its cases expect a refusal (any of them).
    pub expect_refusal: bool,
}

/// Rows are the variants' names.
impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        self.name == other.name
    }
}

/// A case that was not placed as expected: wrong, or refused where a placement was expected.
#[derive(Clone, Debug)]
pub struct Failure {
    /// `repo/commit12/variant`.
    pub case: String,
    /// The oracle's judgement.
    pub verdict: Outcome,
    /// The refusal's message (first line and the readings listed), if any.
    pub message: String,
}

/// A refusal's message in one line: its first line and the readings it lists.
fn summary(message: &str) -> String {
    let mut lines = message.lines();
    let mut s = lines.next().unwrap_or("").to_owned();
    for l in lines.filter(|l| l.trim_start().starts_with("reading ")) {
        s.push_str("; ");
        s.push_str(l.trim());
    }
    s
}

/// The variants in the order the table shows them.
pub const VARIANTS: [&str; 11] = [
    "plain",
    "deletion",
    "deletion-revert",
    "header",
    "header-narrowed",
    "no-first-marker",
    "no-last-marker",
    "crlf",
    "mixed",
    "ambiguous-copy",
    "ambiguous-natural",
];

/// The corpus as a suite of the harness: a merger's results judged by the oracle, the cases not
/// placed as expected listed.
struct Snippets<'a, M> {
    merge: M,
    failures: Vec<Failure>,
    cases: PhantomData<&'a Case>,
}

impl<'a, M: Fn(&Case) -> Merged> Suite for Snippets<'a, M> {
    type Kind = Variant;
    type Case = &'a Case;

    fn run(&self, case: &&'a Case) -> Outcome {
        judge(case, &(self.merge)(case))
    }

    /// A case not placed as expected (wrong, or refused where a placement was expected) is listed.
    fn observe(&mut self, _variant: &Variant, case: &&'a Case, outcome: &Outcome, _tally: &mut Tally) {
        let failed = match outcome {
            Outcome::Placed { .. } => false,
            Outcome::Refused { .. } => case.expect == Expect::Placed,
            Outcome::Wrong { .. } => true,
        };
        if failed {
            let message = match outcome {
                Outcome::Refused { message, .. } => summary(message),
                _ => String::new(),
            };
            self.failures.push(Failure {
                case: case.name(),
                verdict: outcome.clone(),
                message,
            });
        }
    }
}

/// Runs `merge` on every case and counts the outcomes per variant (in the order of [`VARIANTS`],
/// other variants after them by name), listing the cases not placed as expected in corpus order.
pub fn evaluate(cases: &[Case], merge: impl Fn(&Case) -> Merged) -> (Vec<Row<Variant>>, Vec<Failure>) {
    let mut suite = Snippets {
        merge,
        failures: Vec::new(),
        cases: PhantomData,
    };
    let variant = |c: &Case| Variant {
        name: c.variant.clone(),
        expect_refusal: c.expect == Expect::Refused,
    };
    let mut rows = run(&mut suite, &[], cases.iter().map(|c| (variant(c), c)));
    for row in &mut rows {
        row.kind.expect_refusal = cases
            .iter()
            .any(|c| c.variant == row.kind.name && c.expect == Expect::Refused);
    }
    rows.sort_by_key(|r| {
        let order = VARIANTS
            .iter()
            .position(|v| *v == r.kind.name)
            .unwrap_or(VARIANTS.len());
        (order, r.kind.name.clone())
    });
    (rows, suite.failures)
}

/// What the corpus must show; the CI test and the eval command check this one table.
#[derive(Clone, Copy, Debug)]
pub struct Thresholds {
    /// Wrong results allowed (any variant).
    pub max_wrong: usize,
    /// Damaged files allowed (any variant).
    pub max_damaged: usize,
    /// Of the snippets that are not ambiguous, the share placed exactly, in per mille.
    pub min_placed_per_mille: usize,
}

/// Issue 17: 0 wrong, 0 damaged, at least 95% of the non-ambiguous snippets placed exactly.
pub const THRESHOLDS: Thresholds = Thresholds {
    max_wrong: 0,
    max_damaged: 0,
    min_placed_per_mille: 950,
};

/// Totals over the rows: (non-ambiguous placed, non-ambiguous cases, wrong, damaged).
pub fn totals(rows: &[Row<Variant>]) -> (usize, usize, usize, usize) {
    let positive = rows.iter().filter(|r| !r.kind.expect_refusal);
    let placed = positive.clone().map(|r| r.tally.placed).sum();
    let cases = positive.map(|r| r.tally.cases).sum();
    let wrong = rows.iter().map(|r| r.tally.wrong).sum();
    let damaged = rows.iter().map(|r| r.tally.damaged).sum();
    (placed, cases, wrong, damaged)
}

/// What falls short of [`THRESHOLDS`], one sentence each (empty when everything holds).
pub fn violations(rows: &[Row<Variant>]) -> Vec<String> {
    let (placed, cases, wrong, damaged) = totals(rows);
    let t = THRESHOLDS;
    let mut v = Vec::new();
    if wrong > t.max_wrong {
        v.push(format!("{wrong} wrong results (at most {} allowed)", t.max_wrong));
    }
    if damaged > t.max_damaged {
        v.push(format!("{damaged} damaged files (at most {} allowed)", t.max_damaged));
    }
    if placed * 1000 < cases * t.min_placed_per_mille {
        v.push(format!(
            "{placed} of {cases} non-ambiguous snippets placed exactly (at least {}.{}% required)",
            t.min_placed_per_mille / 10,
            t.min_placed_per_mille % 10
        ));
    }
    v
}

/// The corpus's columns: the variant, what it expects, the cases, what became of them, the codes
/// of the refusals.
const COLUMNS: [Column<Variant>; 8] = [
    Column {
        header: "variant",
        cell: |r| r.kind.name.clone(),
        total: None,
    },
    Column {
        header: "expected",
        cell: |r| {
            if r.kind.expect_refusal {
                "refusal".to_string()
            } else {
                "commit's file".to_string()
            }
        },
        total: None,
    },
    Column {
        header: "cases",
        cell: |r| r.tally.cases.to_string(),
        total: None,
    },
    Column {
        header: "placed",
        cell: |r| r.tally.placed.to_string(),
        total: None,
    },
    Column {
        header: "refused",
        cell: |r| r.tally.refused.to_string(),
        total: None,
    },
    Column {
        header: "wrong",
        cell: |r| r.tally.wrong.to_string(),
        total: None,
    },
    Column {
        header: "damaged",
        cell: |r| r.tally.damaged.to_string(),
        total: None,
    },
    Column {
        header: "refusals by code",
        cell: |r| {
            let mut codes = r.tally.refusals.clone();
            codes.sort();
            let codes: Vec<String> = codes.iter().map(|(c, n)| format!("{c} {n}")).collect();
            codes.join(", ")
        },
        total: None,
    },
];

/// The per-variant table (Markdown), then the totals in a sentence.
pub fn table(rows: &[Row<Variant>]) -> String {
    let mut s = render(&COLUMNS, rows, false);
    let (placed, cases, wrong, damaged) = totals(rows);
    let negatives: usize = rows
        .iter()
        .filter(|r| r.kind.expect_refusal)
        .map(|r| r.tally.cases)
        .sum();
    let refused: usize = rows
        .iter()
        .filter(|r| r.kind.expect_refusal)
        .map(|r| r.tally.refused)
        .sum();
    s.push_str(&format!(
        "\nNon-ambiguous: {placed} of {cases} placed exactly ({:.1}%). Ambiguous: {refused} of {negatives} refused. Wrong: {wrong}. Damaged: {damaged}.\n",
        if cases == 0 { 0.0 } else { placed as f64 * 100.0 / cases as f64 }
    ));
    s
}

/// surgical's merger: `surgical_tool::apply_snippet` on the content in memory (what `surgical call apply_snippet`
/// runs, without the file system), the path naming the language.
pub fn surgical(case: &Case) -> Merged {
    let call = serde_json::json!({ "path": case.path, "snippet": case.snippet });
    match surgical_tool::apply_snippet(case.before.clone(), &call) {
        Ok(merged) => Merged::Applied(merged.edit.content),
        Err(e) => Merged::Refused {
            code: e.code.as_str().to_owned(),
            message: e.message,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_is_a_change_to_a_kept_stretch() {
        let before = b"a\nb\nc\nd\ne\n";
        let after = b"a\nb\nX\nd\ne\n";
        // Wrong text inside the hunk: not damaged.
        assert!(!damaged(before, after, b"a\nb\nY\nd\ne\n"));
        // Lines added at the hunk: not damaged.
        assert!(!damaged(before, after, b"a\nb\nX\nX\nd\ne\n"));
        // A kept line changed, dropped, or its ending changed: damaged.
        assert!(damaged(before, after, b"a\nB\nX\nd\ne\n"));
        assert!(damaged(before, after, b"a\nX\nd\ne\n"));
        assert!(damaged(before, after, b"a\nb\nX\nd\r\ne\n"));
        // Something inserted inside a kept stretch, or the final newline dropped: damaged.
        assert!(damaged(before, after, b"a\nZ\nb\nX\nd\ne\n"));
        assert!(damaged(before, after, b"a\nb\nX\nd\ne"));
        // The change made at the wrong place: damaged.
        assert!(damaged(before, after, b"a\nb\nc\nd\nX\n"));
    }

    #[test]
    fn free_endings_allow_either_ending_on_new_lines_only() {
        let expected = b"a\r\nnew\nb\n";
        assert!(matches(b"a\r\nnew\r\nb\n", expected, &[2]));
        assert!(matches(b"a\r\nnew\nb\n", expected, &[2]));
        assert!(!matches(b"a\nnew\nb\n", expected, &[2]));
        assert!(!matches(b"a\r\nnew \nb\n", expected, &[2]));
        assert!(!matches(b"a\r\nnew\r\nb\n", expected, &[]));
    }
}
