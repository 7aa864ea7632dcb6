//! A small slice of the evaluation harness, in CI: no edit may ever be placed wrongly or change a
//! byte outside its intended lines, and the perturbations the tiers exist for must be placed (80%
//! of them; 70% of the paraphrases that the opt-in `similar` tier is for). Round 2 (content
//! mistakes, elisions, stale views, traps): never wrong, never damaged, every trap refused, and
//! each kind placed at least at its floor in `ROUND2_MIN_PLACED_PERCENT`.

use surgical_core::Tier;
use surgical_eval::{default_tier, evaluate, round2, Perturbation};

#[test]
fn never_wrong_and_places_what_the_tiers_cover() {
    for (max, seed) in [(default_tier(), 11), (Tier::Similar, 12)] {
        for (p, t) in evaluate(25, seed, max) {
            assert_eq!(t.wrong, 0, "{max:?} {}: placed wrongly", p.name());
            assert_eq!(t.outside_bytes, 0, "{max:?} {}: bytes outside", p.name());
            assert!(t.cases > 0, "{}: no case could be built", p.name());
            if p.must_refuse() {
                assert_eq!(t.refused, t.cases, "{}", p.name());
            } else if p == Perturbation::Paraphrased {
                // `similar` refuses a paraphrase that is not clearly anchored (about 15% of these
                // cases at 500 per row); it must still place most of them.
                if max == Tier::Similar {
                    assert!(
                        t.placed * 10 >= t.cases * 7,
                        "{}: placed {} of {}",
                        p.name(),
                        t.placed,
                        t.cases
                    );
                }
            } else {
                // Every other covered perturbation is placed, bar rare corner cases (text that also
                // occurs elsewhere once invisible differences are ignored, which must be refused).
                assert!(
                    t.placed * 10 >= t.cases * 8,
                    "{max:?} {}: placed {} of {}",
                    p.name(),
                    t.placed,
                    t.cases
                );
            }
        }
    }
}

/// Round 2 (issue 11): the least share of each kind's cases, in percent, that must be placed
/// correctly in the slice below — with the default tiers, and with `similar` enabled. Set to what
/// the engine on main reaches at the slice's seeds; raised as the tiers for each kind land (the
/// goal is at least 90 on the typo, extra-line, missing-line and elision kinds). The traps are not
/// here: every one of their cases must be refused.
const ROUND2_MIN_PLACED_PERCENT: [(round2::Kind, usize, usize); 13] = [
    (round2::Kind::TypoChangedLine, 0, 95),
    (round2::Kind::TypoOtherLine, 0, 96),
    (round2::Kind::ExtraLineDuplicate, 0, 0),
    (round2::Kind::ExtraLineComment, 0, 0),
    (round2::Kind::MissingLine, 0, 0),
    (round2::Kind::Elision, 0, 0),
    (round2::Kind::MidLine, 100, 100),
    (round2::Kind::MidLineDedented, 0, 31),
    (round2::Kind::IndentAndQuotes, 100, 100),
    (round2::Kind::CrlfTrailingTabs, 100, 100),
    (round2::Kind::CollapsedAlignment, 100, 100),
    (round2::Kind::StaleOtherLine, 0, 41),
    (round2::Kind::StaleSameLine, 0, 68),
];

/// Wrong placements the engine on main still makes in this slice: each a known bug, reported by
/// the test but not failed on; remove the entry when its fix merges. Nothing else is exempt.
/// - `similar` reads an `oldText` whose last line stops mid-line as that whole line, and writes a
///   change at the cut at the line's end, past the window (seed 22: `&map->entries /*EDIT*/[i];`
///   expected, `&map->entries[i]; /*EDIT*/` written). Issue 11's mid-line work fixes it.
const ROUND2_KNOWN_WRONG_ON_MAIN: [(round2::Kind, Tier); 1] = [(round2::Kind::MidLineDedented, Tier::Similar)];

/// Round 2's slice: 20 cases per kind at three seeds, with the default tiers and with `similar`.
#[test]
fn round2_never_wrong_never_damaged_and_places_what_it_should() {
    const SEEDS: [u64; 3] = [21, 22, 23];
    const PER_KIND: usize = 20;
    for max in [default_tier(), Tier::Similar] {
        let mut placed = vec![0; round2::Kind::ALL.len()];
        let mut cases = vec![0; round2::Kind::ALL.len()];
        for seed in SEEDS {
            for (i, (kind, t)) in round2::evaluate(PER_KIND, seed, max).into_iter().enumerate() {
                let name = kind.name();
                assert_eq!(t.cases, PER_KIND, "{max:?} seed {seed} {name}: cases built");
                if ROUND2_KNOWN_WRONG_ON_MAIN.contains(&(kind, max)) {
                    if t.wrong > 0 {
                        eprintln!(
                            "KNOWN BUG ({max:?} seed {seed} {name}): {} wrong, {} damaged",
                            t.wrong, t.damaged
                        );
                    }
                } else {
                    assert_eq!(t.wrong, 0, "{max:?} seed {seed} {name}: wrong");
                    assert_eq!(t.damaged, 0, "{max:?} seed {seed} {name}: damaged");
                }
                if kind.must_refuse() {
                    assert_eq!(t.refused, t.cases, "{max:?} seed {seed} {name}: a trap placed");
                }
                placed[i] += t.placed;
                cases[i] += t.cases;
            }
        }
        for (i, kind) in round2::Kind::ALL.into_iter().enumerate() {
            if kind.must_refuse() {
                continue;
            }
            let (_, default_floor, similar_floor) = ROUND2_MIN_PLACED_PERCENT
                .into_iter()
                .find(|(k, _, _)| *k == kind)
                .unwrap_or_else(|| panic!("{}: no threshold", kind.name()));
            let floor = if max == Tier::Similar {
                similar_floor
            } else {
                default_floor
            };
            assert!(
                placed[i] * 100 >= floor * cases[i],
                "{max:?} {}: placed {} of {}, below {floor}%",
                kind.name(),
                placed[i],
                cases[i]
            );
        }
    }
}
