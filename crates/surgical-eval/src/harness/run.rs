//! The one case runner: every case of a suite run through surgical, judged by the suite's oracle
//! ([`Suite::run`]), scored ([`Tally::add`]) into its row. A round's cases are generated per kind
//! ([`Round`], [`generate`]); a corpus's are read from disk and handed over as they are.

use super::outcome::{Outcome, Tally};
use super::rng::Rng;

/// One row of a table: a kind of case and its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<K> {
    /// The kind (a perturbation, a kind of mistake, a variant).
    pub kind: K,
    /// Its counts.
    pub tally: Tally,
}

/// A suite of the evaluation: its cases, each run through surgical and judged by the suite's
/// oracle.
pub trait Suite {
    /// A row of the suite's table.
    type Kind: Clone + PartialEq;
    /// One case.
    type Case;

    /// Runs `case` through surgical and judges the result.
    fn run(&self, case: &Self::Case) -> Outcome;

    /// What the suite records about a case beyond the tally, or reports (a listing of the wrong
    /// cases). Nothing by default.
    fn observe(&mut self, _kind: &Self::Kind, _case: &Self::Case, _outcome: &Outcome, _tally: &mut Tally) {}
}

/// A suite whose cases are generated: per kind, drawn from a seeded generator until enough could
/// be built.
pub trait Round: Suite<Kind: Copy> {
    /// How many attempts per case wanted a kind may make before it stops short.
    const ATTEMPTS_PER_CASE: usize;

    /// The seed of `kind`'s own generator, so that a kind's cases do not depend on which other
    /// kinds run; `None` when every kind draws from one generator seeded with `seed`, in turn.
    fn own_seed(seed: u64, kind: Self::Kind) -> Option<u64>;

    /// A case of `kind`, or `None` when the file and place drawn do not suit it.
    fn make_case(kind: Self::Kind, rng: &mut Rng) -> Option<Self::Case>;
}

/// Runs every case of `cases` (each with its row's kind) through `suite`: one row per kind of
/// `kinds`, in that order (empty rows included), then one per other kind, in the order first seen.
pub fn run<S: Suite>(
    suite: &mut S,
    kinds: &[S::Kind],
    cases: impl IntoIterator<Item = (S::Kind, S::Case)>,
) -> Vec<Row<S::Kind>> {
    let mut rows: Vec<Row<S::Kind>> = kinds
        .iter()
        .map(|k| Row {
            kind: k.clone(),
            tally: Tally::default(),
        })
        .collect();
    for (kind, case) in cases {
        let at = match rows.iter().position(|r| r.kind == kind) {
            Some(at) => at,
            None => {
                rows.push(Row {
                    kind: kind.clone(),
                    tally: Tally::default(),
                });
                rows.len() - 1
            }
        };
        let outcome = suite.run(&case);
        let tally = &mut rows[at].tally;
        tally.add(&outcome);
        suite.observe(&kind, &case, &outcome, tally);
    }
    rows
}

/// `per` cases of each of `kinds` for round `R`, kind after kind, built as they are run (a kind
/// stops short after `per` × [`Round::ATTEMPTS_PER_CASE`] attempts).
pub fn generate<'a, R: Round>(
    kinds: &'a [R::Kind],
    per: usize,
    seed: u64,
) -> impl Iterator<Item = (R::Kind, R::Case)> + 'a
where
    R::Case: 'a,
{
    let mut shared = Rng::new(seed);
    kinds.iter().flat_map(move |&kind| {
        // Each kind's cases are built before the next kind's, from its own generator or from the
        // shared one where the previous kind left it.
        let mut rng = match R::own_seed(seed, kind) {
            Some(own) => Rng::new(own),
            None => std::mem::replace(&mut shared, Rng::new(0)),
        };
        let mut cases = Vec::new();
        let mut attempts = 0;
        while cases.len() < per && attempts < per * R::ATTEMPTS_PER_CASE {
            attempts += 1;
            if let Some(case) = R::make_case(kind, &mut rng) {
                cases.push((kind, case));
            }
        }
        if R::own_seed(seed, kind).is_none() {
            shared = rng;
        }
        cases
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round whose cases are the generator's numbers, placed when even.
    struct Numbers;

    impl Suite for Numbers {
        type Kind = u8;
        type Case = u64;

        fn run(&self, case: &u64) -> Outcome {
            if case.is_multiple_of(2) {
                Outcome::Placed {
                    ideal: true,
                    tier: None,
                }
            } else {
                Outcome::Refused {
                    code: "odd".into(),
                    message: String::new(),
                }
            }
        }
    }

    impl Round for Numbers {
        const ATTEMPTS_PER_CASE: usize = 1;

        fn own_seed(seed: u64, kind: u8) -> Option<u64> {
            (kind >= 10).then(|| seed + u64::from(kind))
        }

        fn make_case(_kind: u8, rng: &mut Rng) -> Option<u64> {
            Some(rng.next_u64())
        }
    }

    #[test]
    fn kinds_without_their_own_seed_continue_one_generator() {
        let cases: Vec<(u8, u64)> = generate::<Numbers>(&[1, 2], 3, 7).collect();
        let mut rng = Rng::new(7);
        let expected: Vec<(u8, u64)> = [1, 1, 1, 2, 2, 2].into_iter().map(|k| (k, rng.next_u64())).collect();
        assert_eq!(cases, expected);
        // A kind with its own seed draws the same cases whatever runs before it.
        let alone: Vec<u64> = generate::<Numbers>(&[10], 3, 7).map(|c| c.1).collect();
        let after: Vec<u64> = generate::<Numbers>(&[1, 10], 3, 7).skip(3).map(|c| c.1).collect();
        assert_eq!(alone, after);
        assert_ne!(alone[..], expected[3..].iter().map(|c| c.1).collect::<Vec<u64>>()[..]);
    }

    #[test]
    fn rows_keep_the_kinds_order_and_add_the_others_as_seen() {
        let rows = run(&mut Numbers, &[3, 1], vec![(1, 2), (5, 3), (1, 4), (1, 5)]);
        let kinds: Vec<u8> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, vec![3, 1, 5]);
        assert_eq!(rows[0].tally, Tally::default());
        assert_eq!(
            (rows[1].tally.cases, rows[1].tally.placed, rows[1].tally.refused),
            (3, 2, 1)
        );
        assert_eq!(rows[1].tally.refusals, vec![("odd".to_string(), 1)]);
        assert_eq!((rows[2].tally.cases, rows[2].tally.refused), (1, 1));
    }
}
