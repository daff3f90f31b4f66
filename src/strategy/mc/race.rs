//! Racing (`racing = true`): worlds are sampled in rounds, and after each
//! round a candidate answer that the leader beats by more than [`DROP_Z`]
//! standard errors of their paired differences is dropped; the decision
//! stops once one candidate is left or its rollouts are spent. An easy
//! decision (one answer clearly best, or the base's answer clearly not
//! beaten) costs a round or two; a close call between two answers gets the
//! rollouts the dropped ones did not use, up to [`STRETCH`] times the
//! worlds of the fixed allocation. What a decision leaves unspent is saved
//! for later decisions of the same player ([`Savings`]), or goes back to
//! the per-game account. Everything is counted in rollouts (one candidate
//! played out in one world), never timed, so runs replay.

use super::gate::{paired_error, weighted_mean};

/// Rounds the decision's worlds are split into (each round samples a
/// `1/ROUNDS` share of `samples`, at least [`MIN_ROUND`]).
pub const ROUNDS: usize = 4;

/// The fewest worlds a round samples (unless the decision has fewer).
pub const MIN_ROUND: usize = 16;

/// Standard errors by which the leader must beat a candidate to drop it.
/// Above the gate's default of 2: the test is repeated after every round.
pub const DROP_Z: f64 = 3.0;

/// A close call may sample up to this many times the decision's `samples`.
pub const STRETCH: usize = 4;

/// Unspent rollouts carried over to later decisions are capped at this many
/// times `samples` (a decision's own allowance is `samples` × candidates).
pub const SAVINGS_CAP: usize = 8;

/// The round plan of one decision: `samples` worlds a candidate (its
/// allowance is `samples × candidates` rollouts, plus `extra`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Rollouts the decision may spend.
    pub rollouts: usize,
    /// Worlds one round samples.
    pub round: usize,
    /// The most worlds the decision samples.
    pub max_worlds: usize,
}

impl Plan {
    /// The plan for `samples` worlds a candidate, `candidates` answers and
    /// `extra` saved rollouts; at most `cap` worlds.
    #[must_use]
    pub fn new(samples: usize, candidates: usize, extra: usize, cap: usize) -> Plan {
        Plan {
            rollouts: samples * candidates + extra,
            round: (samples / ROUNDS).max(MIN_ROUND.min(samples)),
            max_worlds: (samples * STRETCH).min(cap),
        }
    }

    /// Worlds the next round samples for `live` candidates, after `worlds`
    /// worlds and `spent` rollouts (0: the decision is over).
    #[must_use]
    pub fn next_round(&self, worlds: usize, spent: usize, live: usize) -> usize {
        if live < 2 {
            return 0;
        }
        let affordable = (self.rollouts - spent) / live;
        self.round
            .min(self.max_worlds.saturating_sub(worlds))
            .min(affordable)
    }
}

/// Drops from `live` every candidate that the leader (the live candidate of
/// the best weighted mean) beats by more than `z` standard errors of their
/// paired differences, from `values[w * n + c]` over the worlds of
/// `weights`. Every live candidate has a value in every world.
pub fn drop_beaten(values: &[f64], weights: &[f64], n: usize, live: &mut Vec<usize>, z: f64) {
    let total: f64 = weights.iter().sum();
    if live.len() < 2 || total <= 0.0 {
        return;
    }
    let means: Vec<f64> = live
        .iter()
        .map(|&c| weighted_mean(values, weights, n, c, total))
        .collect();
    let lead = (1..live.len()).fold(0, |b, i| if means[i] > means[b] { i } else { b });
    let leader = live[lead];
    let keep: Vec<bool> = (0..live.len())
        .map(|i| {
            let gain = means[lead] - means[i];
            i == lead || gain <= z * paired_error(values, weights, n, leader, live[i], gain)
        })
        .collect();
    let mut i = 0;
    live.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// Rollouts a player saved on easy decisions, for its close calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Savings {
    rollouts: usize,
}

impl Savings {
    /// Takes all that is saved.
    pub fn take(&mut self) -> usize {
        std::mem::take(&mut self.rollouts)
    }

    /// Saves `rollouts`, keeping at most `cap`.
    pub fn put(&mut self, rollouts: usize, cap: usize) {
        self.rollouts = (self.rollouts + rollouts).min(cap);
    }

    /// What is saved.
    #[cfg(test)]
    #[must_use]
    pub fn left(&self) -> usize {
        self.rollouts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three candidates over 8 worlds: 0 and 1 close (1 ahead by 0.1 with
    /// noise), 2 behind by 5 everywhere: only 2 is dropped.
    #[test]
    fn the_clearly_worse_are_dropped_and_close_calls_stay() {
        let mut values = Vec::new();
        for w in 0..8 {
            let base = f64::from(w) * 3.0 - 10.0;
            let noise = if w % 2 == 0 { 1.0 } else { -0.8 };
            values.extend([base, base + noise, base - 5.0]);
        }
        let weights = [1.0; 8];
        let mut live = vec![0, 1, 2];
        drop_beaten(&values, &weights, 3, &mut live, DROP_Z);
        assert_eq!(live, [0, 1]);
        // Once dropped, a candidate's values are not read.
        for w in 0..8 {
            values[w * 3 + 2] = f64::NAN;
        }
        drop_beaten(&values, &weights, 3, &mut live, DROP_Z);
        assert_eq!(live, [0, 1]);
        // A z that even the 5-point gap does not pass keeps everything.
        let mut all = vec![0, 1];
        drop_beaten(&values, &[1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], 3, &mut all, 10.0);
        assert_eq!(all, [0, 1]);
    }

    /// The base (candidate 0) is dropped like any other once clearly beaten.
    #[test]
    fn a_beaten_base_is_dropped() {
        let values: Vec<f64> = (0..6).flat_map(|w| [f64::from(w), f64::from(w) + 2.0]).collect();
        let mut live = vec![0, 1];
        drop_beaten(&values, &[1.0; 6], 2, &mut live, DROP_Z);
        assert_eq!(live, [1]);
    }

    /// Rounds are a quarter of the samples (at least 16, at most the
    /// samples), stop at the stretch cap and at what the rollouts buy.
    #[test]
    fn rounds_follow_the_plan() {
        let plan = Plan::new(512, 5, 0, 65_536);
        assert_eq!((plan.rollouts, plan.round, plan.max_worlds), (2560, 128, 2048));
        assert_eq!(plan.next_round(0, 0, 5), 128);
        // Two candidates left after 128 worlds of five: 1920 rollouts left.
        assert_eq!(plan.next_round(128, 640, 2), 128);
        assert_eq!(plan.next_round(2000, 0, 2), 48, "the stretch cap");
        assert_eq!(plan.next_round(128, 2560 - 100, 2), 50, "what is left");
        assert_eq!(plan.next_round(128, 640, 1), 0, "one candidate left");
        assert_eq!(Plan::new(32, 2, 0, 65_536).round, 16);
        assert_eq!(Plan::new(8, 2, 0, 65_536).round, 8);
        assert_eq!(Plan::new(0, 2, 0, 65_536).next_round(0, 0, 2), 0);
        assert_eq!(Plan::new(40_000, 2, 0, 65_536).max_worlds, 65_536);
    }

    #[test]
    fn savings_are_capped() {
        let mut s = Savings::default();
        s.put(300, 1000);
        s.put(900, 1000);
        assert_eq!(s.left(), 1000);
        assert_eq!(s.take(), 1000);
        assert_eq!(s.left(), 0);
    }
}
