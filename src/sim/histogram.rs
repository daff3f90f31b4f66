//! [`Histogram`]: counts by integer key, a plain array bump per hand.
//!
//! The keys a run counts (hand scores, turns, deadwood, margins) fall in a
//! short range, so the counts are kept dense over the range seen so far,
//! with some slack either side: once a run has seen its usual range,
//! counting a hand touches one slot and allocates nothing. A key that
//! would stretch the range past [`SPAN`] slots (an edited state file's
//! outlier) is kept apart in a map. Either way the histogram is the
//! function key → count: it compares, iterates and serialises as the map
//! of its nonzero counts in key order (the JSON of a `BTreeMap<i64, u64>`).

use std::collections::BTreeMap;

/// Most slots kept dense.
const SPAN: i128 = 4096;
/// Slots added beyond a new key when the dense range grows (at least;
/// half the range's length when that is more).
const SLACK: i64 = 256;

/// Counts by integer key (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Histogram {
    /// The key of `counts[0]`.
    low: i64,
    counts: Vec<u64>,
    /// Keys outside `low..low + counts.len()`.
    far: BTreeMap<i64, u64>,
}

impl Histogram {
    /// Counts one more `key`.
    #[inline]
    pub fn bump(&mut self, key: i64) {
        self.add(key, 1);
    }

    /// Counts `n` more `key`.
    #[inline]
    pub fn add(&mut self, key: i64, n: u64) {
        match self.slot(key) {
            Some(slot) => *slot += n,
            None => self.add_outside(key, n),
        }
    }

    fn slot(&mut self, key: i64) -> Option<&mut u64> {
        let i = usize::try_from(key.checked_sub(self.low)?).ok()?;
        self.counts.get_mut(i)
    }

    /// The end of the dense range (exclusive).
    fn high(&self) -> i64 {
        self.low + self.counts.len() as i64
    }

    /// [`Histogram::add`] for a key outside the dense range: the range
    /// grows to take it (with [`SLACK`] beyond) unless that would make it
    /// longer than [`SPAN`].
    #[cold]
    fn add_outside(&mut self, key: i64, n: u64) {
        if n == 0 {
            return;
        }
        // The slack grows with the range, so a run that keeps finding new
        // extremes grows it a logarithmic number of times.
        let slack = SLACK.max(self.counts.len() as i64 / 2);
        let around = key.checked_sub(slack).zip(key.checked_add(slack + 1));
        let range = match around {
            Some((low, high)) if self.counts.is_empty() => Some((low, high)),
            Some((low, high)) => Some((self.low.min(low), self.high().max(high))),
            None => None,
        };
        let Some((low, high)) = range.filter(|&(l, h)| i128::from(h) - i128::from(l) <= SPAN)
        else {
            *self.far.entry(key).or_insert(0) += n;
            return;
        };
        let mut counts = vec![0; (high - low) as usize];
        let at = (self.low - low) as usize;
        if !self.counts.is_empty() {
            counts[at..at + self.counts.len()].copy_from_slice(&self.counts);
        }
        for k in self
            .far
            .range(low..high)
            .map(|(&k, _)| k)
            .collect::<Vec<_>>()
        {
            counts[(k - low) as usize] += self.far.remove(&k).unwrap_or(0);
        }
        self.low = low;
        self.counts = counts;
        self.add(key, n);
    }

    /// The count of `key`.
    #[must_use]
    pub fn get(&self, key: i64) -> u64 {
        match key
            .checked_sub(self.low)
            .and_then(|i| usize::try_from(i).ok())
        {
            Some(i) if i < self.counts.len() => self.counts[i],
            _ => self.far.get(&key).copied().unwrap_or(0),
        }
    }

    /// The nonzero counts, `(key, count)` in key order.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        let below = self.far.range(..self.low);
        let above = self.far.range(self.high()..);
        let dense = (self.low..).zip(self.counts.iter().copied());
        below
            .map(|(&k, &n)| (k, n))
            .chain(dense)
            .chain(above.map(|(&k, &n)| (k, n)))
            .filter(|&(_, n)| n > 0)
    }

    /// The keys with a nonzero count, in order.
    pub fn keys(&self) -> impl Iterator<Item = i64> + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// The nonzero counts, in key order.
    pub fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter().map(|(_, n)| n)
    }

    /// How many keys have a nonzero count.
    #[must_use]
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether nothing was counted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &Histogram) {
        for (k, n) in other.iter() {
            self.add(k, n);
        }
    }
}

impl PartialEq for Histogram {
    fn eq(&self, other: &Histogram) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Histogram {}

impl FromIterator<(i64, u64)> for Histogram {
    fn from_iter<I: IntoIterator<Item = (i64, u64)>>(items: I) -> Histogram {
        let mut h = Histogram::default();
        for (k, n) in items {
            h.add(k, n);
        }
        h
    }
}

impl serde::Serialize for Histogram {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for Histogram {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Histogram, D::Error> {
        let map = BTreeMap::<i64, u64>::deserialize(deserializer)?;
        Ok(map.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same counts as a map, the model.
    fn model(keys: &[i64]) -> BTreeMap<i64, u64> {
        let mut m = BTreeMap::new();
        for &k in keys {
            *m.entry(k).or_insert(0) += 1;
        }
        m
    }

    #[test]
    fn counts_as_a_map_does() {
        let keys = [5, -3, 5, 40, -100, 7, i64::MAX, i64::MIN, 3000, -2000, 0, 5];
        let mut h = Histogram::default();
        for (i, &k) in keys.iter().enumerate() {
            h.bump(k);
            let m = model(&keys[..=i]);
            let pairs: Vec<(i64, u64)> = m.iter().map(|(&k, &n)| (k, n)).collect();
            assert_eq!(h.iter().collect::<Vec<_>>(), pairs, "after {k}");
            assert_eq!(h.len(), m.len());
            for (&k, &n) in &m {
                assert_eq!(h.get(k), n);
            }
        }
        assert_eq!(h.get(6), 0);
        assert_eq!(
            serde_json::to_string(&h).unwrap(),
            serde_json::to_string(&model(&keys)).unwrap()
        );
        let back: Histogram = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
        assert_eq!(back, h);
    }

    #[test]
    fn merge_and_equality_ignore_the_layout() {
        let a: Histogram = [(1, 2), (10, 1)].into_iter().collect();
        let b: Histogram = [(10, 1), (-50, 0), (1, 2)].into_iter().collect();
        assert_eq!(a, b);
        let mut c = Histogram::default();
        c.merge(&a);
        c.merge(&b);
        assert_eq!(c.iter().collect::<Vec<_>>(), [(1, 4), (10, 2)]);
        assert!(Histogram::default().is_empty());
    }

    #[test]
    fn a_known_range_is_counted_in_place() {
        let mut h = Histogram::default();
        h.bump(0);
        let slots = h.counts.as_ptr();
        for k in -SLACK..=SLACK {
            h.bump(k);
        }
        assert_eq!(h.counts.as_ptr(), slots, "no new slots within the slack");
        assert!(h.far.is_empty());
    }
}
