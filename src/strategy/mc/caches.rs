//! [`McCaches`]: the tables `mc` players build once per key (the hand
//! prior of a calibration) and share. A front
//! end's [`Lab`](crate::lab::Lab) holds one for all its players; an `mc`
//! profile not bound to a lab shares one among its clones. They are
//! caches: a table is the same whoever built it, so which players share
//! one never changes a decision.

use std::fmt;
use std::sync::{Arc, Mutex};

use super::{HandPrior, Model, Weighting};
use crate::rules::Rules;

/// Tables by key, each built once.
type Shared<K, V> = Mutex<Vec<(K, Arc<V>)>>;

/// The shared tables of `mc` players (see the module docs). Clones share
/// the tables.
#[derive(Clone, Default)]
pub struct McCaches(Arc<Tables>);

#[derive(Default)]
struct Tables {
    priors: Shared<(Rules, Weighting, Model), HandPrior>,
}

impl McCaches {
    /// The hand prior for `rules`, `weighting` and `model`, built on first
    /// use ([`HandPrior::of`]: the committed table, or measured).
    #[must_use]
    pub fn prior(&self, rules: &Rules, weighting: Weighting, model: Model) -> Arc<HandPrior> {
        shared(&self.0.priors, (rules.clone(), weighting, model), || {
            HandPrior::of(rules, weighting, model)
        })
    }
}

/// Caches are not part of what the parameters holding them are: any two
/// are equal.
impl PartialEq for McCaches {
    fn eq(&self, _: &McCaches) -> bool {
        true
    }
}

impl fmt::Debug for McCaches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("McCaches")
    }
}

/// The value for `key` in `cache`, built by `build` on first use (outside
/// the lock: a race builds the same value twice, harmlessly).
fn shared<K: PartialEq, V>(cache: &Shared<K, V>, key: K, build: impl FnOnce() -> V) -> Arc<V> {
    if let Some((_, v)) = cache
        .lock()
        .expect("a shared table")
        .iter()
        .find(|(k, _)| *k == key)
    {
        return Arc::clone(v);
    }
    let v = Arc::new(build());
    cache
        .lock()
        .expect("a shared table")
        .push((key, Arc::clone(&v)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_tables_are_shared_by_clones_only() {
        let rules = Rules::standard();
        let model = Model {
            rollout: super::super::Rollout::Greedy,
            knock_at: None,
        };
        let caches = McCaches::default();
        let one = caches.prior(&rules, Weighting::Tracker, model);
        let two = caches.clone().prior(&rules, Weighting::Tracker, model);
        assert!(Arc::ptr_eq(&one, &two));
        let other = McCaches::default().prior(&rules, Weighting::Tracker, model);
        assert!(!Arc::ptr_eq(&one, &other));
        // The same table, whoever built it.
        assert_eq!(*one, *other);
    }
}
