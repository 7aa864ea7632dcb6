//! Uniqueness, per tier, as a property (issue 28): an edit lands at the one place its `oldText`
//! stands for, or nowhere.
//!
//! A file holds one to three *copies* of a region (three or four code-like lines) among lines without
//! letters, each copy rendered with look-alike differences from the `oldText` a model sends for
//! the region: what a model cannot see (CRLF, trailing blanks, a no-break space for a space), and at
//! most one thing it can (typographic quotes and a dash for ASCII ones, the whole copy indented
//! further, runs of spaces widened, one word renamed on the first or last line). The model changes
//! one word of a middle line. An oracle written here from the documented rules, not from the
//! engine, says what must happen, from the bytes of each copy alone:
//!
//! - each copy's *class* is the strictest tier that matches it (`exact`, `trailing_whitespace`,
//!   `unicode`, `indentation`, `whitespace_runs`, or the misremembered tiers for a renamed edge
//!   word), by comparisons written out below;
//! - two copies equal to `oldText` once what a model cannot see is ignored: `ambiguous`, whatever a
//!   tier finds (what it cannot see never decides);
//! - else among the copies the allowed tiers reach, the strictest class decides: one copy there is
//!   the place (the file is that copy with the word changed, every other byte as it was), two or
//!   more are `ambiguous`, none is `not_found`; where the misremembered tiers decide, a refusal is
//!   allowed too (their anchor and margin rules), but never another copy.
//!
//! Every loosest tier a call may set is tried, so each tier's own count is checked (a mutant that
//! lets a tier take the first of two occurrences fails here). On any refusal nothing is written.
//! Set PROPTEST_CASES for longer runs.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use surgical_core::{apply, Edit, Options, Tier};

/// The one thing a model can see in which a copy differs from `oldText`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Visible {
    None,
    /// Straight quotes and ` - ` written typographically.
    Typographic,
    /// Every line indented further (four spaces or a tab).
    Indented {
        tab: bool,
    },
    /// Single spaces between tokens widened to runs.
    Runs,
    /// One word renamed on the first (or last) line.
    Renamed {
        last: bool,
    },
}

/// How one copy is rendered.
#[derive(Clone, Debug)]
struct Copy {
    visible: Visible,
    crlf: bool,
    /// Trailing blanks per line (cycled).
    trailing: Vec<&'static str>,
    /// A no-break space for the space after each line's first token (per line, cycled).
    nbsp: Vec<bool>,
}

#[derive(Clone, Debug)]
struct Case {
    /// The region's lines as the model writes them (indentation included).
    region: Vec<String>,
    copies: Vec<Copy>,
    /// Lines without letters before, between and after the copies.
    filler: Vec<Vec<&'static str>>,
    /// The line whose first word the model changes (a middle one).
    changed: usize,
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z]{3,7}",
        1 => "[a-z]{3,5}".prop_map(|w| format!("\"{w}\"")),
        1 => "[a-z]{2,4}".prop_map(|w| format!("'{w}'")),
        1 => Just("a - b".to_string()),
        1 => Just("= 1;".to_string()),
        1 => Just("(x, y)".to_string()),
    ]
}

/// A region line: an indentation, a word, then more tokens.
fn line() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["", "    ", "\t"]),
        "[a-z]{4,8}",
        prop::collection::vec(token(), 1..4),
    )
        .prop_map(|(indent, first, rest)| format!("{indent}{first} {}", rest.join(" ")))
}

fn copy() -> impl Strategy<Value = Copy> {
    let visible = prop_oneof![
        2 => Just(Visible::None),
        2 => Just(Visible::Typographic),
        1 => Just(Visible::Indented { tab: false }),
        1 => Just(Visible::Indented { tab: true }),
        2 => Just(Visible::Runs),
        2 => Just(Visible::Renamed { last: false }),
        2 => Just(Visible::Renamed { last: true }),
    ];
    (
        visible,
        any::<bool>(),
        prop::collection::vec(prop::sample::select(vec!["", "", " ", "\t", "  "]), 1..4),
        prop::collection::vec(prop::bool::weighted(0.2), 1..4),
    )
        .prop_map(|(visible, crlf, trailing, nbsp)| Copy {
            visible,
            crlf,
            trailing,
            nbsp,
        })
}

fn case() -> impl Strategy<Value = Case> {
    let filler = prop::collection::vec(prop::sample::select(vec!["", "%%", "123 = {};", "--", "}"]), 0..3);
    (
        prop::collection::vec(line(), 3..5).prop_filter("distinct lines", |r| {
            (0..r.len()).all(|i| (0..i).all(|j| first_word(&r[i]) != first_word(&r[j])))
        }),
        // The middle line holds a quoted word, so that a typographic copy differs visibly.
        "[a-z]{3,5}",
        prop::collection::vec(copy(), 1..4),
        prop::collection::vec(filler, 4),
    )
        .prop_map(|(mut region, quoted, copies, filler)| {
            region[1].push_str(&format!(" \"{quoted}\""));
            Case {
                changed: 1,
                region,
                copies,
                filler,
            }
        })
}

/// The first word of a line (after its indentation).
fn first_word(line: &str) -> &str {
    let body = line.trim_start();
    &body[..body.find(' ').unwrap_or(body.len())]
}

/// A copy's lines, without terminators (trailing blanks included).
fn render(region: &[String], c: &Copy) -> Vec<String> {
    let n = region.len();
    region
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let mut l = line.clone();
            match c.visible {
                Visible::Typographic => {
                    let mut open = true;
                    l = l
                        .chars()
                        .map(|ch| match ch {
                            '"' => {
                                open = !open;
                                if open {
                                    '\u{201d}'
                                } else {
                                    '\u{201c}'
                                }
                            }
                            '\'' => '\u{2019}',
                            c => c,
                        })
                        .collect::<String>()
                        .replace(" - ", " \u{2013} ");
                }
                Visible::Indented { tab } => l = format!("{}{l}", if tab { "\t" } else { "    " }),
                Visible::Runs => {
                    let body = l.trim_start();
                    let indent = &l[..l.len() - body.len()];
                    l = format!("{indent}{}", body.replace(' ', "   "));
                }
                // Another word, not a typo of it (three letters added).
                Visible::Renamed { last } if k == if last { n - 1 } else { 0 } => {
                    let w = first_word(&l).to_string();
                    l = l.replacen(&w, &format!("{w}qqq"), 1);
                }
                _ => {}
            }
            if c.nbsp[k % c.nbsp.len()] {
                // The space after the first token (not in the indentation).
                let at = l.len() - l.trim_start().len();
                if let Some(sp) = l[at..].find(' ') {
                    l.replace_range(at + sp..at + sp + 1, "\u{a0}");
                }
            }
            l.push_str(c.trailing[k % c.trailing.len()]);
            l
        })
        .collect()
}

/// The strictest tier a copy matches at, from its bytes alone (`None`: no tier of the ladder).
fn class(region: &[String], lines: &[String]) -> Option<Tier> {
    let trim = |l: &str| l.trim_end_matches([' ', '\t', '\u{a0}']).to_string();
    let spaces = |l: &str| l.replace('\u{a0}', " ");
    let ascii = |l: &str| {
        spaces(l)
            .replace(['\u{201c}', '\u{201d}'], "\"")
            .replace('\u{2019}', "'")
            .replace('\u{2013}', "-")
    };
    let squeezed = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let all = |f: &dyn Fn(&str, &str) -> bool| region.iter().zip(lines).all(|(r, l)| f(r, l));
    if all(&|r, l| r == l) {
        return Some(Tier::Exact);
    }
    if all(&|r, l| *r == trim(l)) {
        return Some(Tier::TrailingWhitespace);
    }
    if all(&|r, l| *r == ascii(&trim(l))) {
        return Some(Tier::Unicode);
    }
    // One prefix of blanks added to every line, the rest as under `unicode`.
    let prefix = ascii(&trim(&lines[0]))
        .strip_suffix(region[0].as_str())
        .map(str::to_string);
    let shifted = prefix.is_some_and(|p| {
        !p.is_empty() && p.chars().all(|c| c == ' ' || c == '\t') && all(&|r, l| ascii(&trim(l)) == format!("{p}{r}"))
    });
    if shifted {
        return Some(Tier::Indentation);
    }
    if all(&|r, l| squeezed(r) == squeezed(&ascii(l))) {
        return Some(Tier::WhitespaceRuns);
    }
    // One word renamed on the first or last line, every other line equal as `whitespace_runs`
    // compares them.
    let differing: Vec<usize> = (0..region.len())
        .filter(|&k| squeezed(&region[k]) != squeezed(&ascii(&lines[k])))
        .collect();
    if let [k] = differing[..] {
        if k == 0 || k + 1 == region.len() {
            return Some(Tier::Typo);
        }
    }
    None
}

/// What the oracle expects.
#[derive(Debug, PartialEq, Eq)]
enum Expected {
    /// Placed at this copy (and only there).
    At(usize),
    /// Placed at this copy, or refused (the misremembered tiers' evidence rules).
    AtOrRefused(usize),
    Ambiguous,
    /// Refused (`ambiguous` or `not_found`).
    Refused,
    NotFound,
}

fn expected(case: &Case, copies: &[Vec<String>], loosest: Tier) -> Expected {
    let invisible = |lines: &[String]| {
        case.region
            .iter()
            .zip(lines)
            .all(|(r, l)| *r == l.replace('\u{a0}', " ").trim_end_matches([' ', '\t']))
    };
    if copies.iter().filter(|c| invisible(c)).count() >= 2 {
        return Expected::Ambiguous;
    }
    let classes: Vec<Option<Tier>> = copies.iter().map(|c| class(&case.region, c)).collect();
    let Some(best) = classes.iter().flatten().copied().filter(|&t| t <= loosest).min() else {
        return Expected::NotFound;
    };
    let at: Vec<usize> = (0..copies.len()).filter(|&k| classes[k] == Some(best)).collect();
    match (best, at.as_slice()) {
        (Tier::Typo, [one]) => Expected::AtOrRefused(*one),
        (Tier::Typo, _) => Expected::Refused,
        (_, [one]) => Expected::At(*one),
        _ => Expected::Ambiguous,
    }
}

/// The file (and where each copy's changed line is), with the copies rendered.
fn file_of(case: &Case, copies: &[Vec<String>]) -> (String, Vec<String>) {
    let mut parts: Vec<String> = Vec::new();
    let push_filler = |parts: &mut Vec<String>, k: usize| {
        for l in &case.filler[k] {
            parts.push(format!("{l}\n"));
        }
    };
    push_filler(&mut parts, 0);
    for (k, (lines, c)) in copies.iter().zip(&case.copies).enumerate() {
        let eol = if c.crlf { "\r\n" } else { "\n" };
        parts.push(lines.iter().map(|l| format!("{l}{eol}")).collect());
        push_filler(&mut parts, (k + 1).min(3));
    }
    let file: String = parts.concat();
    // The file with copy `k`'s changed line edited, for each k.
    let edited = (0..copies.len())
        .map(|k| {
            let mut lines = copies.to_vec();
            let l = &mut lines[k][case.changed];
            let w = first_word(&case.region[case.changed]).to_string();
            *l = l.replacen(&w, &format!("{w}Z"), 1);
            file_of_plain(case, &lines)
        })
        .collect();
    (file, edited)
}

fn file_of_plain(case: &Case, copies: &[Vec<String>]) -> String {
    let mut out = String::new();
    for l in &case.filler[0] {
        out.push_str(&format!("{l}\n"));
    }
    for (k, (lines, c)) in copies.iter().zip(&case.copies).enumerate() {
        let eol = if c.crlf { "\r\n" } else { "\n" };
        for l in lines {
            out.push_str(&format!("{l}{eol}"));
        }
        for l in &case.filler[(k + 1).min(3)] {
            out.push_str(&format!("{l}\n"));
        }
    }
    out
}

const TIERS: [Tier; 6] = [
    Tier::Exact,
    Tier::TrailingWhitespace,
    Tier::Unicode,
    Tier::Indentation,
    Tier::WhitespaceRuns,
    Tier::MissingLine,
];

/// One case under every loosest tier: (the class that decided, the expectation) per tier.
fn check(case: &Case) -> Result<Vec<(Tier, Expected)>, TestCaseError> {
    let copies: Vec<Vec<String>> = case.copies.iter().map(|c| render(&case.region, c)).collect();
    let (file, edited) = file_of(case, &copies);
    let old = case.region.join("\n") + "\n";
    let w = first_word(&case.region[case.changed]).to_string();
    let mut new_lines = case.region.clone();
    new_lines[case.changed] = new_lines[case.changed].replacen(&w, &format!("{w}Z"), 1);
    let new = new_lines.join("\n") + "\n";
    let mut seen = Vec::new();
    for loosest in TIERS {
        let want = expected(case, &copies, loosest);
        let got = apply(
            file.as_bytes(),
            &[Edit::new(&old, &new)],
            &Options::new().loosest_tier(loosest),
        );
        let show =
            || format!("loosest {loosest:?}, expected {want:?}\nfile:\n{file:?}\noldText:\n{old:?}\nnewText:\n{new:?}");
        match (&want, got) {
            (Expected::At(k) | Expected::AtOrRefused(k), Ok(a)) => {
                let text = String::from_utf8(a.text).unwrap();
                prop_assert!(text == edited[*k], "placed wrongly: {}\ngot:\n{text:?}", show());
            }
            (Expected::AtOrRefused(_) | Expected::Refused, Err(e)) => {
                prop_assert!(
                    matches!(e.code(), "ambiguous" | "not_found" | "conflict"),
                    "{e:?}: {}",
                    show()
                );
            }
            (Expected::Ambiguous, Err(e)) => prop_assert_eq!(e.code(), "ambiguous", "{}", show()),
            (Expected::NotFound, Err(e)) => prop_assert_eq!(e.code(), "not_found", "{}", show()),
            (_, Ok(a)) => {
                let text = String::from_utf8(a.text).unwrap();
                let at = edited.iter().position(|e| *e == text);
                prop_assert!(false, "placed (copy {at:?}, tier {:?}): {}", a.edits[0].tier, show());
            }
            (_, Err(e)) => prop_assert!(false, "refused ({e:?}): {}", show()),
        }
        seen.push((loosest, want));
    }
    Ok(seen)
}

fn runner() -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// The property, and a tally proving it exercised every tier both ways: each class decided a
/// single place and an ambiguity several times (a property met by refusing everything, or by
/// never planting a look-alike, would prove nothing).
///
/// Cases come from a random seed, and some classes are rare (an exact ambiguity is a handful of
/// the 512 cases): one run in about fifteen planted none. So the property runs again, with new
/// cases, until every class has its count, at most four times the cases: a generator that never
/// plants a class still fails, a seed that happened to skip it does not.
#[test]
fn look_alike_copies_are_one_place_or_ambiguous_at_every_tier() {
    use std::collections::BTreeMap;
    const TIERS: [&str; 6] = [
        "Exact",
        "TrailingWhitespace",
        "Unicode",
        "Indentation",
        "WhitespaceRuns",
        "Typo",
    ];
    let tally: std::cell::RefCell<BTreeMap<(String, &'static str), usize>> = Default::default();
    let count = |tally: &BTreeMap<(String, &'static str), usize>, tier: &str, kind| {
        tally.get(&(tier.to_string(), kind)).copied().unwrap_or(0)
    };
    let covered = |tally: &BTreeMap<(String, &'static str), usize>| {
        TIERS.iter().all(|tier| {
            ["one place", "ambiguous"]
                .iter()
                .all(|kind| count(tally, tier, kind) >= 3)
        })
    };
    for _round in 0..4 {
        let outcome = runner().run(&case(), |c| {
            let copies: Vec<Vec<String>> = c.copies.iter().map(|k| render(&c.region, k)).collect();
            for (loosest, want) in check(&c)? {
                // Attributed to the class that decided (for an ambiguity of invisible twins: `invisible`).
                let classes: Vec<Option<Tier>> = copies.iter().map(|k| class(&c.region, k)).collect();
                let best = classes.iter().flatten().copied().filter(|&t| t <= loosest).min();
                let kind = match want {
                    Expected::At(_) | Expected::AtOrRefused(_) => "one place",
                    Expected::Ambiguous | Expected::Refused => "ambiguous",
                    Expected::NotFound => "not found",
                };
                let name = best.map_or("none".to_string(), |t| format!("{t:?}"));
                *tally.borrow_mut().entry((name, kind)).or_default() += 1;
            }
            Ok(())
        });
        if let Err(e) = outcome {
            panic!("{e}");
        }
        if covered(&tally.borrow()) {
            break;
        }
    }
    let tally = tally.into_inner();
    eprintln!("{tally:?}");
    for tier in TIERS {
        for kind in ["one place", "ambiguous"] {
            let n = count(&tally, tier, kind);
            assert!(n >= 3, "{tier} decided `{kind}` only {n} times: {tally:?}");
        }
    }
}
