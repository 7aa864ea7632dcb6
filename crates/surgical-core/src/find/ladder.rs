//! Finding a needle: the tiers, strictest first, each for the needles still unplaced.
//!
//! What a model cannot see never decides which occurrence it meant: before any tier, a needle that
//! occurs twice once line endings, trailing blanks and special spaces are ignored is ambiguous. Then
//! each text tier searches its normalized view of the haystack (one Aho–Corasick pass for all the
//! needles still unplaced), then the line-based tiers, escapes and the opt-in `similar`.

use std::borrow::Cow;
use std::ops::Range;

use crate::find::closest::closest_regions_in;
use crate::find::forgiven::Forgiven;
use crate::find::haystack::Haystack;
use crate::find::line_tiers::{self, needle_lines, Candidate, FileLines};
use crate::find::misremembered::{self, Found};
use crate::find::near_miss::NearMiss;
use crate::find::needle::{Match, Miss, Missed, Needle, MAX_LISTED};
use crate::find::scope::Scope;
use crate::find::search::{find_all_probing, invisible_occurrences, pattern, KnownRuns, Pattern};
use crate::find::tier::Tier;
use crate::text::line_numbers::strip_line_numbers;
use crate::text::lines::is_line_start;
use crate::text::lines::model_newlines;
use crate::text::normalize::Fold;

/// Words of a needle looked up before the line-based tiers index the text (see `word_missing`).
const MAX_WORDS_CHECKED: usize = 8;

impl Haystack<'_> {
    /// Where `needle` occurs exactly once in `scope`, with the strictest tier that finds it, trying no
    /// tier looser than `loosest`.
    ///
    /// A tier applies only when it finds exactly one occurrence; several are [`Miss::Ambiguous`]
    /// (looser tiers are not tried then). Differences a model cannot see never decide between
    /// occurrences.
    pub fn find(&self, needle: &str, scope: &Scope, loosest: Tier) -> Result<Match, Miss> {
        self.find_all(&[Needle::new(needle)], scope, loosest)
            .map(|mut found| found.pop().expect("one needle, one match"))
            .map_err(|missed| missed.miss)
    }

    /// Every needle at once (one pass per tier for all of them): each one's match, in request order,
    /// or the first needle that failed. An empty needle is [`Miss::NotFound`].
    ///
    /// For a needle with [`Needle::every`], a tier that finds fewer occurrences than a model could
    /// tell apart is not enough: the next tier is tried, and the first such tier's match is the
    /// answer when none finds them all.
    pub fn find_all(&self, needles: &[Needle<'_>], scope: &Scope, loosest: Tier) -> Result<Vec<Match>, Missed> {
        let olds: Vec<Cow<'_, str>> = needles.iter().map(|n| model_newlines(n.text)).collect();
        let every: Vec<bool> = needles.iter().map(|n| n.every).collect();
        self.locate(&olds, &every, scope, loosest)
    }

    pub(crate) fn locate(
        &self,
        olds: &[Cow<'_, str>],
        every: &[bool],
        scope: &Scope,
        loosest: Tier,
    ) -> Result<Vec<Match>, Missed> {
        let text = self.text();
        let refs: Vec<&str> = olds.iter().map(|o| o.as_ref()).collect();
        let (invisible, known) = invisible_occurrences(text, &refs, scope);
        for (index, (total, starts)) in invisible.iter().enumerate() {
            if !every[index] && *total >= 2 {
                let miss = Miss::Ambiguous {
                    tier: None,
                    starts: starts.clone(),
                    total: *total,
                };
                return Err(Missed::one(index, miss));
            }
        }
        let mut found: Vec<Option<Match>> = olds.iter().map(|_| None).collect();
        let mut fallback: Vec<Option<Match>> = olds.iter().map(|_| None).collect();
        // The words `word_missing` asks about, looked up while the unicode tier searches its view, so
        // that a miss does not normalize the whole text a second time for them (issue 12).
        let words: Vec<Vec<String>> = if loosest >= Tier::Indentation {
            olds.iter().map(|o| checked_words(o)).collect()
        } else {
            vec![Vec::new(); olds.len()]
        };
        let mut words_missing: Vec<Option<bool>> = vec![None; olds.len()];
        for tier in Tier::TEXT.into_iter().filter(|t| *t <= loosest) {
            let pending: Vec<usize> = (0..olds.len()).filter(|&i| found[i].is_none()).collect();
            if pending.is_empty() {
                break;
            }
            let probes: Vec<Vec<&str>> = match tier {
                Tier::Unicode => pending
                    .iter()
                    .map(|&i| words[i].iter().map(String::as_str).collect())
                    .collect(),
                _ => Vec::new(),
            };
            let (hits, seen) = self.text_tier(tier, olds, every, &pending, scope, &probes, &known);
            if let Some(seen) = seen {
                let mut seen = seen.into_iter();
                for &i in &pending {
                    let of_needle: Vec<bool> = seen.by_ref().take(words[i].len()).collect();
                    words_missing[i] = Some(!of_needle.is_empty() && of_needle.contains(&false));
                }
            }
            for ((index, (spans, count)), open_end) in pending.iter().copied().zip(hits.0).zip(hits.1) {
                if count == 0 {
                    continue;
                }
                if !every[index] && count >= 2 {
                    let starts = spans.iter().map(|s| s.start).collect();
                    let miss = Miss::Ambiguous {
                        tier: Some(tier),
                        starts,
                        total: count,
                    };
                    return Err(Missed::one(index, miss));
                }
                let mut spans = disjoint(spans);
                for k in 0..spans.len() {
                    let wider = over_trailing_blanks(text, spans[k].clone(), olds[index].as_ref(), scope);
                    // Never into the next occurrence (a needle that starts with a blank).
                    if spans.get(k + 1).is_none_or(|next| wider.end <= next.start) {
                        spans[k] = wider;
                    }
                }
                let mut m = Match::text(tier, spans, olds[index].as_ref(), open_end);
                if scope.indented_first_line && !is_line_start(text, m.spans[0].start) {
                    m.indented_first_line = true;
                    m.forgiven = Some(Forgiven::IndentedFirstLine);
                }
                // Every occurrence: a tier that misses some a model cannot tell apart is not enough.
                if every[index] && count < invisible[index].0 {
                    fallback[index].get_or_insert(m);
                    continue;
                }
                found[index] = Some(m);
            }
        }
        for (f, fb) in found.iter_mut().zip(fallback) {
            if f.is_none() {
                *f = fb;
            }
        }
        let mut near: Vec<Option<Box<NearMiss>>> = olds.iter().map(|_| None).collect();
        self.locate_loose(olds, every, scope, loosest, &words_missing, &mut found, &mut near)?;
        for index in 0..olds.len() {
            if found[index].is_none() && !scope.numbers_as_written {
                found[index] = self
                    .unnumbered(&olds[index], every[index], scope, loosest)
                    .map_err(|m| Missed::one(index, m))?;
            }
        }
        let missing: Vec<usize> = (0..olds.len()).filter(|&i| found[i].is_none()).collect();
        if let Some((&index, rest)) = missing.split_first() {
            return Err(Missed {
                index,
                miss: Miss::NotFound {
                    closest: closest_regions_in(text, &olds[index], self.built_file_lines()),
                    near_miss: near[index].take(),
                },
                also_not_found: rest.to_vec(),
            });
        }
        Ok(found.into_iter().map(|m| m.expect("all found")).collect())
    }

    /// One text tier for the `pending` needles: each one's spans in scope (all of them for `every`,
    /// else the first [`MAX_LISTED`]) and count, and whether its last span is an open end.
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn text_tier(
        &self,
        tier: Tier,
        olds: &[Cow<'_, str>],
        every: &[bool],
        pending: &[usize],
        scope: &Scope,
        probes: &[Vec<&str>],
        known: &KnownRuns,
    ) -> ((Vec<(Vec<Range<usize>>, usize)>, Vec<bool>), Option<Vec<bool>>) {
        let text = self.text();
        let fold = tier.fold();
        let mut patterns: Vec<Pattern> = pending.iter().map(|&i| pattern(&olds[i], fold)).collect();
        if fold == Fold::TRAILING && patterns.iter().all(|p| absent_under_trailing(text, &p.text, known)) {
            // Nothing to find: the view is not built.
            return ((vec![(Vec::new(), 0); pending.len()], vec![false; pending.len()]), None);
        }
        let mut caps: Vec<usize> = pending
            .iter()
            .map(|&i| if every[i] { usize::MAX } else { MAX_LISTED })
            .collect();
        // A needle's last line break may stand for the end of a text without one (whole lines only).
        let mut owners: Vec<usize> = (0..pending.len()).collect();
        for k in 0..pending.len() {
            if let Some(open) = patterns[k].at_end_variant(scope, text) {
                patterns.push(open);
                caps.push(caps[k]);
                owners.push(k);
            }
        }
        let refs: Vec<&Pattern> = patterns.iter().collect();
        let (spans, counts, seen) = find_all_probing(
            text,
            fold,
            || self.view(tier),
            || self.has_cr(),
            &refs,
            &caps,
            scope,
            probes,
            known,
        );
        let mut hits: Vec<(Vec<Range<usize>>, usize)> = vec![(Vec::new(), 0); pending.len()];
        let mut open_end = vec![false; pending.len()];
        for (p, (spans, count)) in spans.into_iter().zip(counts).enumerate() {
            let k = owners[p];
            open_end[k] |= p >= pending.len() && count > 0;
            // The open-end variant's one match starts after all of the needle's own: order holds.
            hits[k].0.extend(spans);
            hits[k].0.truncate(caps[k]);
            hits[k].1 += count;
        }
        ((hits, open_end), seen)
    }

    /// The tiers past `unicode`, for the needles still unplaced: the line-based ones, then escapes
    /// (which unescapes the needle and tries every tier before it again), the misremembered ones
    /// (`typo`, `extra_line`, `missing_line`), then the opt-in `similar`. `words_missing`: per
    /// needle, whether the unicode tier's pass saw a word of it missing (`None`: not looked up).
    #[allow(clippy::too_many_arguments)]
    fn locate_loose(
        &self,
        olds: &[Cow<'_, str>],
        every: &[bool],
        scope: &Scope,
        loosest: Tier,
        words_missing: &[Option<bool>],
        found: &mut [Option<Match>],
        near: &mut [Option<Box<NearMiss>>],
    ) -> Result<(), Missed> {
        // Decided for every needle at once, while the unicode view is in memory: building the line
        // index drops the view (see `Haystack::file_lines`), which must not be built again after.
        let words_missing: Vec<bool> = if loosest >= Tier::Indentation {
            (0..olds.len())
                .map(|index| {
                    found[index].is_none() && words_missing[index].unwrap_or_else(|| self.word_missing(&olds[index]))
                })
                .collect()
        } else {
            vec![false; olds.len()]
        };
        // `elision` finds pieces by the tiers before it; `typo` stands for the three misremembered tiers, searched at once (their rivals are each
        // other's): a region found is the loosest of its mistakes' tier, placed if that is allowed.
        for tier in [
            Tier::Indentation,
            Tier::WhitespaceRuns,
            Tier::Escapes,
            Tier::Elision,
            Tier::Typo,
            Tier::Similar,
        ] {
            if tier > loosest {
                break;
            }
            for index in 0..olds.len() {
                if found[index].is_some() {
                    continue;
                }
                if matches!(tier, Tier::Indentation | Tier::WhitespaceRuns) && words_missing[index] {
                    continue;
                }
                if tier == Tier::Elision {
                    if !every[index] {
                        found[index] = self
                            .elided(&olds[index], scope, loosest)
                            .map_err(|m| Missed::one(index, m))?;
                    }
                    continue;
                }
                if tier == Tier::Escapes {
                    found[index] = self
                        .unescaped(&olds[index], every[index], scope)
                        .map_err(|m| Missed::one(index, m))?;
                    continue;
                }
                let file = self.file_lines();
                match line_tier(tier, file, &olds[index], scope) {
                    Found::None => {}
                    Found::Refused(n) => near[index] = Some(n),
                    Found::One(c) => {
                        let tier = c.forgiven.misremembered_tier().unwrap_or(tier);
                        if tier <= loosest {
                            found[index] = Some(Match::lines(tier, file, &olds[index], *c));
                        }
                    }
                    Found::Many(firsts) => {
                        let starts = firsts.iter().take(MAX_LISTED).map(|&i| file.line_start(i)).collect();
                        let miss = Miss::Ambiguous {
                            tier: Some(tier),
                            starts,
                            total: firsts.len(),
                        };
                        return Err(Missed::one(index, miss));
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether `old` holds a word that the text does not: one of its longest runs of letters, digits
    /// and `_` (at least 3 bytes, [`MAX_WORDS_CHECKED`] of them), normalized as the unicode tier
    /// does, found nowhere in the text's unicode view. The line-based tiers `indentation` and
    /// `whitespace_runs` match only where every non-blank line of `old` equals a text line up to
    /// indentation and blanks, so such a word rules them out, and a miss is told without indexing
    /// every line of the text (issue 12: the index costs several times an exact edit on a large
    /// file). At most that many substring searches of the view.
    fn word_missing(&self, old: &str) -> bool {
        let words = checked_words(old);
        if words.is_empty() {
            return false;
        }
        let view = self.view(Tier::Unicode);
        let text = view.text.as_bytes();
        words.iter().any(|w| memchr::memmem::find(text, w.as_bytes()).is_none())
    }

    /// The escapes tier: `old` unescaped, searched with every tier up to `whitespace_runs`. `None` when
    /// unescaping changes nothing or the unescaped needle is not found either.
    fn unescaped(&self, old: &str, every: bool, scope: &Scope) -> Result<Option<Match>, Miss> {
        let plain = unescape(old);
        if plain == old {
            return Ok(None);
        }
        match self.locate(&[Cow::Owned(plain)], &[every], scope, Tier::WhitespaceRuns) {
            Ok(mut found) => {
                let inner = found.pop().expect("one needle, one match");
                let forgiven = Forgiven::Escapes {
                    tier: inner.tier,
                    also: inner.forgiven.clone().map(Box::new),
                };
                // The unescaped needle may have matched without line-number prefixes: newText,
                // unescaped the same way, loses them too (`inner.unnumber_new`).
                Ok(Some(Match {
                    tier: Tier::Escapes,
                    forgiven: Some(forgiven),
                    unescape_new: true,
                    ..inner
                }))
            }
            Err(Missed {
                miss: Miss::NotFound { .. },
                ..
            }) => Ok(None),
            Err(missed) => Err(missed.miss),
        }
    }
}

impl Haystack<'_> {
    /// A needle every line of which carries a line-number prefix copied from a read view (`12 | `,
    /// `12→`, `12<TAB>`, numbered in order), searched without them. Only tried once the needle as
    /// written is found nowhere, so a text that holds such lines itself is matched as it is. `None`
    /// when the needle has no such prefixes or is not found without them either.
    fn unnumbered(&self, old: &str, every: bool, scope: &Scope, loosest: Tier) -> Result<Option<Match>, Miss> {
        let lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
        let Some(view) = strip_line_numbers(&lines) else {
            return Ok(None);
        };
        let mut plain = view.lines.join("\n");
        if old.ends_with('\n') {
            plain.push('\n');
        }
        if plain.trim().is_empty() {
            return Ok(None);
        }
        match self.locate(&[Cow::Owned(plain)], &[every], scope, loosest) {
            Ok(mut found) => {
                let inner = found.pop().expect("one needle, one match");
                Ok(Some(Match {
                    forgiven: Some(Forgiven::LineNumbers {
                        also: inner.forgiven.clone().map(Box::new),
                    }),
                    unnumber_new: Some(view.style),
                    ..inner
                }))
            }
            Err(Missed {
                miss: Miss::NotFound { .. },
                ..
            }) => Ok(None),
            Err(missed) => Err(missed.miss),
        }
    }
}

impl Match {
    fn text(tier: Tier, spans: Vec<Range<usize>>, old: &str, open_end: bool) -> Match {
        Match {
            tier,
            indented_first_line: false,
            spans,
            forgiven: None,
            old: old.to_string(),
            fold: tier.fold(),
            unescape_new: false,
            unnumber_new: None,
            lines: None,
            open_end,
            pieces: Vec::new(),
            unpinned: Vec::new(),
        }
    }

    fn lines(tier: Tier, file: &FileLines<'_>, old: &str, c: Candidate) -> Match {
        Match {
            tier,
            indented_first_line: false,
            spans: vec![c.span(file, old.ends_with('\n'))],
            forgiven: Some(c.forgiven.clone()),
            old: old.to_string(),
            fold: Fold::EXACT,
            unescape_new: false,
            unnumber_new: None,
            lines: Some(c),
            open_end: false,
            pieces: Vec::new(),
            unpinned: Vec::new(),
        }
    }
}

/// One line-based tier for one needle (`typo` standing for the three misremembered tiers, searched
/// at once), as the ladder counts what it found: nothing for a blank needle, the misremembered
/// search's own verdict, else none, one or several regions.
fn line_tier(tier: Tier, file: &FileLines<'_>, old: &str, scope: &Scope) -> Found {
    let needle = needle_lines(old);
    if needle.iter().all(|l| l.is_blank()) {
        return Found::None;
    }
    if matches!(tier, Tier::Typo | Tier::ExtraLine | Tier::MissingLine) {
        return misremembered::find(file, &needle, scope);
    }
    let found = line_tiers::search(tier, file, &needle, old, scope);
    match found.len() {
        0 => Found::None,
        1 => Found::One(Box::new(found.into_iter().next().expect("one candidate"))),
        _ => Found::Many(found.iter().map(|c| c.first).collect()),
    }
}

/// A span whose last line stops where only blanks are left on the file's line (`foo` in `foo  `)
/// takes those blanks in, so the replacement decides about them as it does for a whole line: kept
/// when the model kept the line, its own when it wrote blanks there, gone when it rewrote the line.
/// Left out, they would follow whatever `newText` ends with (doubling blanks it wrote itself, or
/// moving onto an unrelated new line). Not past the scope's range.
fn over_trailing_blanks(text: &[u8], span: Range<usize>, old: &str, scope: &Scope) -> Range<usize> {
    if old.ends_with(['\n', ' ', '\t']) || span.is_empty() {
        return span;
    }
    let blanks = text[span.end..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let end = span.end + blanks;
    let at_line_end = matches!(text.get(end), None | Some(b'\n' | b'\r'));
    let in_scope = scope.within.as_ref().is_none_or(|r| end <= r.end);
    if blanks > 0 && at_line_end && in_scope {
        span.start..end
    } else {
        span
    }
}

/// Occurrences that overlap an earlier one are dropped (every occurrence of `aa` in `aaa`: one).
fn disjoint(spans: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut kept: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    let mut last_end = 0;
    for span in spans {
        if span.start >= last_end {
            last_end = span.end;
            kept.push(span);
        }
    }
    kept
}

/// The needle as a model meant it when it escaped what it should not have: `\n`, `\t`, `\"`, `\'`,
/// `\\`, and `\$` and `` \` `` (escaped for a template literal or a shell) become the characters
/// they stand for; `\r` becomes a line break, `\n` (a needle's line breaks never decide which
/// terminator a line has: the file's own are kept).
pub(crate) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            let replacement = match chars.peek() {
                Some('n') => Some('\n'),
                Some('t') => Some('\t'),
                Some('r') => Some('\n'),
                Some('"') => Some('"'),
                Some('\'') => Some('\''),
                Some('\\') => Some('\\'),
                Some('$') => Some('$'),
                Some('`') => Some('`'),
                _ => None,
            };
            if let Some(r) = replacement {
                chars.next();
                out.push(r);
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// The words [`Haystack::word_missing`] looks up for `old`: its longest runs of letters, digits and
/// `_` of at least 3 bytes, `unicode` folded, longest first, at most [`MAX_WORDS_CHECKED`].
fn checked_words(old: &str) -> Vec<String> {
    let folded = crate::text::normalize::normalize(old.as_bytes(), Fold::UNICODE);
    let mut words: Vec<&str> = folded
        .text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 3)
        .collect();
    words.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    words.dedup();
    words.into_iter().take(MAX_WORDS_CHECKED).map(str::to_string).collect()
}

/// Whether `needle`, normalized under the `trailing_whitespace` fold, certainly matches nowhere in
/// `text` under that fold. That fold changes only line terminators, the blanks that end a line and
/// invalid bytes (into U+FFFD), so every non-empty line of a match, short of a U+FFFD, is in the
/// text as it is: one pass looking for the needle's longest such line decides it (a text tier that
/// cannot match saves building its view of the whole text). When that line holds a run whose
/// every place in the text is `known`, only those places are looked at.
fn absent_under_trailing(text: &[u8], needle: &str, known: &KnownRuns) -> bool {
    let Some(line) = needle
        .split('\n')
        .filter(|line| !line.is_empty() && !line.contains('\u{FFFD}'))
        .max_by_key(|line| line.len())
    else {
        return false;
    };
    // A known run is a needle's longest run without blanks: if it is on this line, it is one of
    // the line's runs between blanks.
    let runs = line.split(crate::text::fold::is_line_blank).filter(|r| !r.is_empty());
    for (run, places) in runs.filter_map(|r| known.get_key_value(r)) {
        if let Some(at) = line.find(run.as_str()) {
            // Wherever the line is, the run is `at` bytes into it.
            return !places.iter().any(|&p| {
                p.checked_sub(at)
                    .and_then(|start| text.get(start..start + line.len()))
                    .is_some_and(|t| t == line.as_bytes())
            });
        }
    }
    memchr::memmem::find(text, line.as_bytes()).is_none()
}
