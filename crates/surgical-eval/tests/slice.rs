//! A small slice of the evaluation harness, in CI: no edit may ever be placed wrongly or change a
//! byte outside its intended lines, and the perturbations the tiers exist for must be placed (80%
//! of them; 70% of the paraphrases that the opt-in `similar` tier is for). Round 2 (content
//! mistakes, elisions, stale views, traps): never wrong, never damaged, every trap refused, and
//! each kind placed at least at its floor in `ROUND2_MIN_PLACED_PERCENT`; and the `not_found`
//! messages of the typo, extra-line and missing-line cases refused name the actual mistake in their
//! near miss (`ROUND2_MIN_NEAR_MISS_NAMED_PERCENT`).

use surgical_core::Tier;
use surgical_eval::round1::{self, Perturbation};
use surgical_eval::{default_tier, round2, Row};

#[test]
fn never_wrong_and_places_what_the_tiers_cover() {
    for (max, seed) in [(default_tier(), 11), (Tier::Similar, 12)] {
        for Row { kind: p, tally: t } in round1::evaluate(25, seed, max) {
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
/// correctly in the slice below — with the default tiers, and with `similar` enabled. A little
/// under what the engine reaches at 500 cases per kind (seed 1, default tiers: typo 93-94%, extra
/// line 93-98%, missing line 98%, elision 98.6%), since 60 cases per kind move by a few percent. The
/// traps are not here: every one of their cases must be refused.
const ROUND2_MIN_PLACED_PERCENT: [(round2::Kind, usize, usize); 13] = [
    (round2::Kind::TypoChangedLine, 85, 85),
    (round2::Kind::TypoOtherLine, 85, 85),
    (round2::Kind::ExtraLineDuplicate, 85, 85),
    (round2::Kind::ExtraLineComment, 90, 90),
    (round2::Kind::MissingLine, 90, 90),
    (round2::Kind::Elision, 90, 90),
    (round2::Kind::MidLine, 100, 100),
    (round2::Kind::MidLineDedented, 95, 95),
    (round2::Kind::IndentAndQuotes, 100, 100),
    (round2::Kind::CrlfTrailingTabs, 100, 100),
    (round2::Kind::CollapsedAlignment, 100, 100),
    (round2::Kind::StaleOtherLine, 15, 50),
    (round2::Kind::StaleSameLine, 0, 25),
];

/// Round 2: the least share, in percent, of the `not_found` refusals of the typo, extra-line and
/// missing-line kinds whose near miss names the actual mistake (the mistyped word, the extra line,
/// the line left out). At 300 cases per kind, seeds 1 and 2: 99-100%.
const ROUND2_MIN_NEAR_MISS_NAMED_PERCENT: usize = 90;

/// Round 2's slice: 20 cases per kind at three seeds, with the default tiers and with `similar`.
#[test]
fn round2_never_wrong_never_damaged_and_places_what_it_should() {
    const SEEDS: [u64; 3] = [21, 22, 23];
    const PER_KIND: usize = 20;
    for max in [default_tier(), Tier::Similar] {
        let mut placed = vec![0; round2::Kind::ALL.len()];
        let mut cases = vec![0; round2::Kind::ALL.len()];
        let (mut asked, mut named) = (0, 0);
        for seed in SEEDS {
            for (i, Row { kind, tally: t }) in round2::evaluate(PER_KIND, seed, max).into_iter().enumerate() {
                asked += t.not_found_with_mistake;
                named += t.near_miss_named;
                let name = kind.name();
                assert_eq!(t.cases, PER_KIND, "{max:?} seed {seed} {name}: cases built");
                assert_eq!(t.wrong, 0, "{max:?} seed {seed} {name}: wrong");
                assert_eq!(t.damaged, 0, "{max:?} seed {seed} {name}: damaged");
                if kind.must_refuse() {
                    assert_eq!(t.refused, t.cases, "{max:?} seed {seed} {name}: a trap placed");
                }
                placed[i] += t.placed;
                cases[i] += t.cases;
            }
        }
        assert!(
            asked > 0,
            "{max:?}: no not_found refusal of a typo, extra or missing line to check"
        );
        assert!(
            named * 100 >= ROUND2_MIN_NEAR_MISS_NAMED_PERCENT * asked,
            "{max:?}: the near miss names the mistake in {named} of {asked} not_found messages"
        );
        eprintln!("{max:?}: the near miss names the mistake in {named} of {asked} not_found messages");
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
