//! The scoring units of a block of deals in deal order, kept while the
//! deals are played in parallel chunks, so that a sequential test can look
//! after every unit ([`crate::stats::SprtState`]).

/// Each deal's unit score (A's half points over the unit: 0 to 4 for a
/// duplicate pair, 0 to 2 for a single game or hand), in deal order.
///
/// Chunks fill their own and are merged in whatever order the threads
/// finish: each run of consecutive deals is kept with its first deal, and
/// [`UnitSequence::into_scores`] reads them back sorted, so the order does
/// not depend on the thread count or the chunk split. A byte per deal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitSequence {
    /// Runs of consecutive deals: the first deal and each deal's score.
    runs: Vec<(u64, Vec<u8>)>,
}

impl UnitSequence {
    /// Adds deal `deal`'s unit, in which A scored `half_points`.
    ///
    /// # Panics
    /// If `half_points` is not 0 to 4 (no unit scores that).
    pub fn push(&mut self, deal: u64, half_points: i64) {
        let score = u8::try_from(half_points)
            .ok()
            .filter(|&s| s <= 4)
            .expect("a unit scores 0 to 4 half points");
        match self.runs.last_mut() {
            Some((first, scores)) if *first + scores.len() as u64 == deal => scores.push(score),
            _ => self.runs.push((deal, vec![score])),
        }
    }

    /// Adds another chunk's units (any order).
    pub fn merge(&mut self, other: &UnitSequence) {
        self.runs.extend(other.runs.iter().cloned());
    }

    /// The number of units.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|(_, s)| s.len() as u64).sum()
    }

    /// Whether there are no units.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.runs.iter().all(|(_, s)| s.is_empty())
    }

    /// The scores in deal order.
    ///
    /// # Panics
    /// If the deals are not consecutive (chunks of one block always are).
    pub fn into_scores(mut self) -> impl Iterator<Item = i64> {
        self.runs.sort_unstable_by_key(|&(first, _)| first);
        for pair in self.runs.windows(2) {
            let ((first, scores), (next, _)) = (&pair[0], &pair[1]);
            assert_eq!(
                first + scores.len() as u64,
                *next,
                "the units of a block are consecutive deals"
            );
        }
        self.runs
            .into_iter()
            .flat_map(|(_, scores)| scores.into_iter().map(i64::from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_merged_in_any_order_read_back_in_deal_order() {
        let scores = [4, 0, 2, 2, 3, 1, 4, 4, 0, 2];
        let chunk = |deals: std::ops::Range<u64>| {
            let mut s = UnitSequence::default();
            for d in deals {
                s.push(d, scores[d as usize - 100]);
            }
            s
        };
        let mut merged = chunk(107..110);
        merged.merge(&chunk(100..103));
        merged.merge(&UnitSequence::default());
        merged.merge(&chunk(103..107));
        assert_eq!(merged.len(), 10);
        assert_eq!(merged.into_scores().collect::<Vec<_>>(), scores);
        assert!(UnitSequence::default().is_empty());
    }

    #[test]
    #[should_panic(expected = "consecutive")]
    fn a_gap_is_a_bug() {
        let mut s = UnitSequence::default();
        s.push(0, 1);
        s.push(2, 1);
        let _ = s.into_scores().count();
    }
}
