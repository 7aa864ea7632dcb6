//! A small slice of the evaluation harness, in CI: no edit may ever be placed wrongly or change a
//! byte outside its intended lines, and the perturbations the tiers exist for must be placed (80%
//! of them; 70% of the paraphrases that the opt-in `similar` tier is for).

use surgical_core::Tier;
use surgical_eval::{evaluate, Perturbation};

#[test]
fn never_wrong_and_places_what_the_tiers_cover() {
    for (max, seed) in [(Tier::DEFAULT_LOOSEST, 11), (Tier::Similar, 12)] {
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
