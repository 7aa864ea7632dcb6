//! The one scoring of every suite: what happened to a case ([`Outcome`], as its oracle judged
//! it), and the counts of a row of cases ([`Tally`]).

use surgical_core::Tier;

/// What happened to one case, as the suite's oracle judged it from the case alone (never from how
/// surgical works).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The result is what the case expects: **byte-ideal** when it is exactly the expected bytes;
    /// not ideal when a suite accepts a second form (a change among or after trailing blanks the
    /// model cannot see). `tier`: the tier that placed it, where the suite knows it.
    Placed {
        /// Byte for byte what a careful human would write.
        ideal: bool,
        /// The tier that placed it (none for a merger that does not report one).
        tier: Option<Tier>,
    },
    /// Refused with an error: the right answer for a case that must be refused.
    Refused {
        /// The error code (`not_found`, `ambiguous`, ...).
        code: String,
        /// The error's message.
        message: String,
    },
    /// Any other result (for a case that must be refused: any result at all).
    Wrong {
        /// The tier that placed it, where the suite counts it.
        tier: Option<Tier>,
        /// Bytes outside what the case may change were changed too.
        damaged: bool,
        /// How many, where the suite's oracle counts them (0 where it only tells whether).
        outside_bytes: usize,
        /// What the oracle found wrong, for the listing of wrong cases.
        why: String,
    },
}

/// The counts of one row of a table: the cases of one kind (a perturbation, a kind of mistake, a
/// variant of the snippet corpus).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tally {
    /// Cases run (a case that could not be built is not counted).
    pub cases: usize,
    /// Cases placed as expected ([`Outcome::Placed`]).
    pub placed: usize,
    /// Placed cases that are byte-ideal.
    pub ideal: usize,
    /// Cases refused with an error.
    pub refused: usize,
    /// Cases with any other result: must be 0.
    pub wrong: usize,
    /// Wrong cases that also changed bytes outside what the case may change: must be 0.
    pub damaged: usize,
    /// Bytes changed outside what the cases may change, over all cases (where counted).
    pub outside_bytes: usize,
    /// Which tier placed the cases (placed, and wrong where the suite counts it), in the order first
    /// seen.
    pub tiers: Vec<(Tier, usize)>,
    /// The error codes of the refusals, in the order first seen.
    pub refusals: Vec<(String, usize)>,
    /// Round 2: `not_found` refusals of a case with one named mistake (the typo, extra-line and
    /// missing-line kinds), whose messages are checked for it.
    pub not_found_with_mistake: usize,
    /// Of those, the messages whose near miss ("Almost matched ...") names the mistake.
    pub near_miss_named: usize,
    /// Of those, the messages that name it anywhere (the near miss or the closest regions).
    pub message_named: usize,
}

impl Tally {
    /// Counts one case's outcome.
    pub fn add(&mut self, outcome: &Outcome) {
        self.cases += 1;
        match outcome {
            Outcome::Placed { ideal, tier } => {
                self.placed += 1;
                self.ideal += usize::from(*ideal);
                if let Some(tier) = tier {
                    count(&mut self.tiers, *tier);
                }
            }
            Outcome::Refused { code, .. } => {
                self.refused += 1;
                count(&mut self.refusals, code.clone());
            }
            Outcome::Wrong {
                tier,
                damaged,
                outside_bytes,
                ..
            } => {
                self.wrong += 1;
                self.damaged += usize::from(*damaged);
                self.outside_bytes += outside_bytes;
                if let Some(tier) = tier {
                    count(&mut self.tiers, *tier);
                }
            }
        }
    }

    /// The counts of several rows added up (the tiers, refusals and message checks left out).
    pub fn sum<'a>(tallies: impl IntoIterator<Item = &'a Tally>) -> Tally {
        let mut total = Tally::default();
        for t in tallies {
            total.cases += t.cases;
            total.placed += t.placed;
            total.ideal += t.ideal;
            total.refused += t.refused;
            total.wrong += t.wrong;
            total.damaged += t.damaged;
            total.outside_bytes += t.outside_bytes;
        }
        total
    }
}

/// Adds one to `key`'s count in `list`, appending it when first seen.
fn count<K: PartialEq>(list: &mut Vec<(K, usize)>, key: K) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => *n += 1,
        None => list.push((key, 1)),
    }
}
