//! The tier ladder: the one place that decides which tier runs.
//!
//! A needle is tried with the tiers strictest first ([`RUNGS`]), and the first tier that decides
//! ends its climb: one occurrence places it, several are ambiguous (looser tiers are not tried
//! then). Before any tier, what a model cannot see is ruled out as a way to tell occurrences apart:
//! a needle that occurs twice once line endings, trailing blanks and special spaces are ignored is
//! ambiguous. The text tiers search for all the needles still unplaced at once (one Aho–Corasick
//! pass per tier, see `text_tiers`); the others, one needle at a time. The tiers themselves only
//! search (`text_tiers`, `line_tiers`, `misremembered`) or rewrite the needle and climb again
//! (`rewrites`, `elision`): none of them decides whether another tier runs. A needle found nowhere
//! is tried once more without line-number prefixes copied from a read view, and else reported with
//! the regions most like it.
//!
//! The steps of [`Haystack::locate`], in order: [`Climb::start`], [`Climb::refuse_invisible_twins`],
//! [`Climb::rung`] for each rung allowed (a text tier: [`Climb::text_rung`]; any other:
//! [`Climb::settle_missing_words`] once, then [`Climb::needle_rung`] per needle),
//! [`Climb::retry_without_line_numbers`], [`Climb::outcome`].

use std::borrow::Cow;

use crate::find::closest::closest_regions_in;
use crate::find::haystack::Haystack;
use crate::find::line_tiers::{self, needle_lines, FileLines};
use crate::find::misremembered::{self, Found};
use crate::find::near_miss::NearMiss;
use crate::find::needle::{Match, Miss, Missed, Needle, MAX_LISTED};
use crate::find::rewrites::{unescaped, unnumbered};
use crate::find::scope::Scope;
use crate::find::search::{invisible_occurrences, KnownRuns};
use crate::find::text_tiers;
use crate::find::tier::Tier;
use crate::text::lines::model_newlines;
use crate::text::normalize::Fold;

/// The rungs, strictest first: every tier but `extra_line` and `missing_line`, for which `typo`
/// stands (the three misremembered tiers are searched at once, their rivals being each other's: a
/// region found is the loosest of its mistakes' tier, placed if that is allowed).
const RUNGS: [Tier; 9] = [
    Tier::Exact,
    Tier::TrailingWhitespace,
    Tier::Unicode,
    Tier::Indentation,
    Tier::WhitespaceRuns,
    Tier::Escapes,
    Tier::Elision,
    Tier::Typo,
    Tier::Similar,
];

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

    /// The needles `olds` (`\n`-only) climbing the ladder up to `loosest`: each one's match, or the
    /// first needle that failed. Also how the tiers that rewrite a needle search it again.
    pub(crate) fn locate(
        &self,
        olds: &[Cow<'_, str>],
        every: &[bool],
        scope: &Scope,
        loosest: Tier,
    ) -> Result<Vec<Match>, Missed> {
        let mut climb = Climb::start(self, olds, every, scope, loosest);
        climb.refuse_invisible_twins()?;
        for tier in RUNGS.into_iter().take_while(|&tier| tier <= loosest) {
            climb.rung(tier)?;
        }
        climb.retry_without_line_numbers()?;
        climb.outcome()
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
}

/// One climb of the ladder: the needles, and what the rungs climbed so far decided for each.
struct Climb<'c, 'a> {
    hay: &'c Haystack<'a>,
    olds: &'c [Cow<'c, str>],
    every: &'c [bool],
    scope: &'c Scope,
    loosest: Tier,
    /// Per needle, its occurrences once what a model cannot see is ignored: how many, and where the
    /// first ones start.
    invisible: Vec<(usize, Vec<usize>)>,
    /// Where the needles' longest runs without blanks occur (what that pass learned).
    known: KnownRuns,
    /// Per needle, its match.
    found: Vec<Option<Match>>,
    /// Per needle asking for every occurrence: the first text tier's match that found fewer than a
    /// model could tell apart. Later text tiers may still find them all; past the text tiers, it is
    /// the needle's match.
    partial: Vec<Option<Match>>,
    /// Per needle, the words `word_missing` asks about, looked up while the unicode tier searches
    /// its view, so that a miss does not normalize the whole text a second time for them (issue 12).
    words: Vec<Vec<String>>,
    /// Per needle, whether the unicode tier's pass saw one of its words missing (`None`: not looked
    /// up there).
    words_seen_missing: Vec<Option<bool>>,
    /// Per needle, whether a word of it is missing from the text, decided for every needle at once
    /// before the first line-based rung (which rules `indentation` and `whitespace_runs` out).
    missing_words: Option<Vec<bool>>,
    /// Per needle, the region the misremembered tiers refused, when one almost matched.
    near: Vec<Option<Box<NearMiss>>>,
}

impl<'c, 'a> Climb<'c, 'a> {
    /// Step 1: the climb of `olds`, with the occurrences each has once what a model cannot see is
    /// ignored (one pass over the text for all of them).
    fn start(
        hay: &'c Haystack<'a>,
        olds: &'c [Cow<'c, str>],
        every: &'c [bool],
        scope: &'c Scope,
        loosest: Tier,
    ) -> Climb<'c, 'a> {
        let refs: Vec<&str> = olds.iter().map(|o| o.as_ref()).collect();
        let (invisible, known) = invisible_occurrences(hay.text(), &refs, scope, hay.rarity());
        let words: Vec<Vec<String>> = if loosest >= Tier::Indentation {
            olds.iter().map(|o| checked_words(o)).collect()
        } else {
            vec![Vec::new(); olds.len()]
        };
        Climb {
            hay,
            olds,
            every,
            scope,
            loosest,
            invisible,
            known,
            found: olds.iter().map(|_| None).collect(),
            partial: olds.iter().map(|_| None).collect(),
            words,
            words_seen_missing: vec![None; olds.len()],
            missing_words: None,
            near: olds.iter().map(|_| None).collect(),
        }
    }

    /// Step 2: a needle (asking for one occurrence) that occurs twice once line endings, trailing
    /// blanks and special spaces are ignored is ambiguous, whatever a tier would find.
    fn refuse_invisible_twins(&self) -> Result<(), Missed> {
        for (index, (total, starts)) in self.invisible.iter().enumerate() {
            if !self.every[index] && *total >= 2 {
                let miss = Miss::Ambiguous {
                    tier: None,
                    starts: starts.clone(),
                    total: *total,
                };
                return Err(Missed::one(index, miss));
            }
        }
        Ok(())
    }

    /// The needles rung `tier` runs for: those it has no match for yet (past the text tiers, a
    /// partial one counts as a match).
    fn pending(&self, tier: Tier) -> Vec<usize> {
        let text_tier = Tier::TEXT.contains(&tier);
        (0..self.olds.len())
            .filter(|&i| self.found[i].is_none() && (text_tier || self.partial[i].is_none()))
            .collect()
    }

    /// Step 3, once per rung allowed: rung `tier` for the needles still unplaced.
    fn rung(&mut self, tier: Tier) -> Result<(), Missed> {
        let pending = self.pending(tier);
        if pending.is_empty() {
            return Ok(());
        }
        if Tier::TEXT.contains(&tier) {
            return self.text_rung(tier, &pending);
        }
        self.settle_missing_words(&pending);
        for index in pending {
            self.needle_rung(tier, index)?;
        }
        Ok(())
    }

    /// A text tier for every `pending` needle at once: none found goes on to the next rung; several
    /// (one asked for) are ambiguous; one is the match, or for a needle asking for every occurrence,
    /// all of them unless they are fewer than a model could tell apart (then a partial match).
    fn text_rung(&mut self, tier: Tier, pending: &[usize]) -> Result<(), Missed> {
        let probes: Vec<Vec<&str>> = match tier {
            Tier::Unicode => pending
                .iter()
                .map(|&i| self.words[i].iter().map(String::as_str).collect())
                .collect(),
            _ => Vec::new(),
        };
        let (hits, seen) = text_tiers::search(
            self.hay,
            tier,
            self.olds,
            self.every,
            pending,
            self.scope,
            &probes,
            &self.known,
        );
        if let Some(seen) = seen {
            let mut seen = seen.into_iter();
            for &i in pending {
                let of_needle: Vec<bool> = seen.by_ref().take(self.words[i].len()).collect();
                self.words_seen_missing[i] = Some(!of_needle.is_empty() && of_needle.contains(&false));
            }
        }
        for ((index, (spans, count)), open_end) in pending.iter().copied().zip(hits.0).zip(hits.1) {
            if count == 0 {
                continue;
            }
            if !self.every[index] && count >= 2 {
                let starts = spans.iter().map(|s| s.start).collect();
                let miss = Miss::Ambiguous {
                    tier: Some(tier),
                    starts,
                    total: count,
                };
                return Err(Missed::one(index, miss));
            }
            let old = self.olds[index].as_ref();
            let m = text_tiers::matched(self.hay.text(), tier, spans, old, open_end, self.scope);
            // Every occurrence: a tier that misses some a model cannot tell apart is not enough.
            if self.every[index] && count < self.invisible[index].0 {
                self.partial[index].get_or_insert(m);
                continue;
            }
            self.found[index] = Some(m);
        }
        Ok(())
    }

    /// Before the first rung past the text tiers: for every `pending` needle at once, whether a word
    /// of it is missing from the text. Decided while the unicode view is in memory: building the
    /// line index drops the view (see `Haystack::file_lines`), which must not be built again after.
    fn settle_missing_words(&mut self, pending: &[usize]) {
        if self.missing_words.is_some() {
            return;
        }
        let mut missing = vec![false; self.olds.len()];
        for &index in pending {
            missing[index] = self.words_seen_missing[index].unwrap_or_else(|| self.hay.word_missing(&self.olds[index]));
        }
        self.missing_words = Some(missing);
    }

    /// A rung past the text tiers for one needle. `indentation` and `whitespace_runs` are skipped for
    /// a needle with a word the text lacks, `elision` for one asking for every occurrence; `escapes`
    /// and `elision` climb again for the needle they rewrote; the line-based and misremembered
    /// tiers' regions are counted: none goes on, one places the needle (if its tier is allowed),
    /// several are ambiguous, a refused near miss is kept for the report.
    fn needle_rung(&mut self, tier: Tier, index: usize) -> Result<(), Missed> {
        let (hay, old, every, scope, loosest) =
            (self.hay, &self.olds[index], self.every[index], self.scope, self.loosest);
        let again = |old: &str, every: bool, scope: &Scope, loosest: Tier| {
            hay.locate(&[Cow::Borrowed(old)], &[every], scope, loosest)
                .map(|mut found| found.pop().expect("one needle, one match"))
        };
        let missing_words = self.missing_words.as_ref().is_some_and(|m| m[index]);
        match tier {
            Tier::Indentation | Tier::WhitespaceRuns if missing_words => {}
            Tier::Elision if every => {}
            Tier::Elision => {
                self.found[index] = hay
                    .elided(old, scope, loosest, &again)
                    .map_err(|m| Missed::one(index, m))?;
            }
            Tier::Escapes => {
                self.found[index] = unescaped(old, every, scope, &again).map_err(|m| Missed::one(index, m))?;
            }
            _ => {
                let file = hay.file_lines();
                match line_tier(tier, file, old, scope) {
                    Found::None => {}
                    Found::Refused(n) => self.near[index] = Some(n),
                    Found::One(c) => {
                        let tier = c.forgiven.misremembered_tier().unwrap_or(tier);
                        if tier <= loosest {
                            self.found[index] = Some(Match::lines(tier, file, old, *c));
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

    /// Step 4: a needle no rung placed, tried once more without line-number prefixes copied from a
    /// read view (the whole ladder again), unless the scope takes numbers as written.
    fn retry_without_line_numbers(&mut self) -> Result<(), Missed> {
        let hay = self.hay;
        let again = |old: &str, every: bool, scope: &Scope, loosest: Tier| {
            hay.locate(&[Cow::Borrowed(old)], &[every], scope, loosest)
                .map(|mut found| found.pop().expect("one needle, one match"))
        };
        for index in 0..self.olds.len() {
            let placed = self.found[index].is_some() || self.partial[index].is_some();
            if !placed && !self.scope.numbers_as_written {
                self.found[index] = unnumbered(&self.olds[index], self.every[index], self.scope, self.loosest, &again)
                    .map_err(|m| Missed::one(index, m))?;
            }
        }
        Ok(())
    }

    /// Step 5: every needle's match, or the first needle found nowhere (with the regions of the text
    /// most like it, the near miss the misremembered tiers refused, and the other needles not found).
    fn outcome(self) -> Result<Vec<Match>, Missed> {
        let found: Vec<Option<Match>> = self.found.into_iter().zip(self.partial).map(|(f, p)| f.or(p)).collect();
        let missing: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_none()).collect();
        if let Some((&index, rest)) = missing.split_first() {
            let mut near = self.near;
            return Err(Missed {
                index,
                miss: Miss::NotFound {
                    closest: closest_regions_in(self.hay.text(), &self.olds[index], self.hay.built_file_lines()),
                    near_miss: near[index].take(),
                },
                also_not_found: rest.to_vec(),
            });
        }
        Ok(found.into_iter().map(|m| m.expect("all found")).collect())
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
