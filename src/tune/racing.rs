//! Racing on duplicate deals: every live arm of a discrete grid plays the
//! same deals, block by block; an arm is dropped once it is shown worse
//! than the leader, and the race ends when one arm is left or the budget
//! would be overspent by another block.
//!
//! **The decision.** After each block, the leader is the live arm with the
//! highest estimate. Another live arm `i` is dropped when the upper bound
//! of the one-sided interval of `R_i − R_leader` is below zero: the
//! paired difference over the units both played (duplicate deal pairs,
//! the same deals for every arm), its delta-method standard error
//! ([`paired_difference`]), and the Student t quantile at `m − 1`
//! degrees of freedom for the level `α / ((K − 1) · L)`, where
//! `α = 1 − confidence`, `K` the arms and `L` the most looks the budget
//! allows. The Bonferroni split covers every comparison of every look, so
//! the chance that the race ever drops an arm that is in truth at least as
//! good as the leader is at most `α` (up to the normal approximation of
//! the t interval), whatever the stopping time. No arm is dropped before
//! [`MIN_UNITS`] units.

use serde::{Deserialize, Serialize};

use crate::stats::{UnitSums, t_quantile};

use super::objective::Unit;
use crate::stats::{Cross, paired_difference};

/// Fewest units before an arm can be dropped (the t interval's normal
/// approximation needs a sample).
pub const MIN_UNITS: u64 = 100;

/// A race in progress: what is kept in the state file after every block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    /// Each arm's units so far (all arms alive together played the same
    /// deals).
    pub sums: Vec<UnitSums>,
    /// Hands each arm played.
    pub hands: Vec<u64>,
    /// Cross sums of arms `i < j`, row-major over the upper triangle.
    pub cross: Vec<Cross>,
    /// The block each arm was dropped after (`None`: alive).
    pub dropped: Vec<Option<u64>>,
    /// Blocks played.
    pub blocks: u64,
    /// Each block's sums of every arm alive in it (for the chart).
    pub trace: Vec<Vec<Option<UnitSums>>>,
}

impl Race {
    /// A race of `arms` arms, none played.
    #[must_use]
    pub fn new(arms: usize) -> Race {
        Race {
            sums: vec![UnitSums::default(); arms],
            hands: vec![0; arms],
            cross: vec![Cross::default(); arms * (arms - 1) / 2],
            dropped: vec![None; arms],
            blocks: 0,
            trace: Vec::new(),
        }
    }

    /// The live arms, in order.
    #[must_use]
    pub fn alive(&self) -> Vec<usize> {
        (0..self.sums.len())
            .filter(|&a| self.dropped[a].is_none())
            .collect()
    }

    fn pair(&self, i: usize, j: usize) -> usize {
        let (i, j) = if i < j { (i, j) } else { (j, i) };
        let k = self.sums.len();
        i * (2 * k - i - 1) / 2 + (j - i - 1)
    }

    /// The cross sums of arms `i` and `j`, `i` first.
    fn cross(&self, i: usize, j: usize) -> Cross {
        let c = self.cross[self.pair(i, j)];
        if i < j {
            c
        } else {
            Cross {
                xx: c.xx,
                xy: c.yx,
                yx: c.xy,
                yy: c.yy,
            }
        }
    }

    /// Adds a block: `units[n]` are the units of the `n`-th live arm, all
    /// over the same deals.
    ///
    /// # Panics
    /// If the block is not one unit list per live arm of equal length.
    pub fn add_block(&mut self, units: &[Vec<Unit>]) {
        let alive = self.alive();
        assert_eq!(units.len(), alive.len(), "one unit list per live arm");
        for (n, &a) in alive.iter().enumerate() {
            assert_eq!(
                units[n].len(),
                units[0].len(),
                "the same deals for every arm"
            );
            for u in &units[n] {
                self.sums[a].add(u.x, u.y);
                self.hands[a] += u.hands;
            }
            for (m, &b) in alive.iter().enumerate().skip(n + 1) {
                let p = self.pair(a, b);
                for (u, v) in units[n].iter().zip(&units[m]) {
                    self.cross[p].add(u.ratio(), v.ratio());
                }
            }
        }
        self.blocks += 1;
        self.trace.push(
            (0..self.sums.len())
                .map(|a| self.dropped[a].is_none().then_some(self.sums[a]))
                .collect(),
        );
    }

    /// The live arm with the highest estimate (the first on a tie).
    #[must_use]
    pub fn leader(&self) -> usize {
        let alive = self.alive();
        let mut best = alive[0];
        for &a in &alive[1..] {
            if self.sums[a].value() > self.sums[best].value() {
                best = a;
            }
        }
        best
    }

    /// The arm other than `best` with the highest estimate.
    #[must_use]
    pub fn runner_up(&self, best: usize) -> Option<usize> {
        (0..self.sums.len())
            .filter(|&a| a != best && self.sums[a].units > 0)
            .fold(None, |acc: Option<usize>, a| match acc {
                Some(b) if self.sums[b].value() >= self.sums[a].value() => Some(b),
                _ => Some(a),
            })
    }

    /// `R_i − R_leader` and its paired standard error.
    #[must_use]
    pub fn against(&self, i: usize, leader: usize) -> Option<(f64, f64)> {
        paired_difference(&self.sums[i], &self.sums[leader], &self.cross(i, leader))
    }

    /// Drops every live arm shown worse than the leader at `confidence`
    /// with `looks` looks at most; returns the arms dropped.
    pub fn decide(&mut self, confidence: f64, looks: u64) -> Vec<usize> {
        let leader = self.leader();
        let k = self.sums.len() as f64;
        let level = (1.0 - confidence) / ((k - 1.0).max(1.0) * looks.max(1) as f64);
        let mut dropped = Vec::new();
        for a in self.alive() {
            if a == leader || self.sums[a].units < MIN_UNITS {
                continue;
            }
            let Some((d, se)) = self.against(a, leader) else {
                continue;
            };
            let t = t_quantile(1.0 - level, self.sums[a].units - 1);
            if se > 0.0 && d + t * se < 0.0 {
                self.dropped[a] = Some(self.blocks);
                dropped.push(a);
            }
        }
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arm `a` wins a unit's 4 half points with probability `p[a]` given
    /// the deal's shared luck: a synthetic problem whose best arm is known.
    fn units(p: &[f64], alive: &[usize], block: u64, deals: u64) -> Vec<Vec<Unit>> {
        alive
            .iter()
            .map(|&a| {
                (0..deals)
                    .map(|d| {
                        let luck = crate::seed::mix(block * 1_000_003 + d) as f64 / u64::MAX as f64;
                        let own = crate::seed::mix((block * 1_000_003 + d) ^ (a as u64 + 1) << 40)
                            as f64
                            / u64::MAX as f64;
                        let u = 0.5 * luck + 0.5 * own;
                        let x = i64::from(u < p[a]) * 2 + i64::from(u < p[a] * 0.9) * 2;
                        Unit { x, y: 4, hands: 2 }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_race_keeps_the_best_arm_and_drops_clearly_worse_ones() {
        let p = [0.40, 0.45, 0.55, 0.50, 0.30];
        let mut race = Race::new(p.len());
        let looks = 200;
        for block in 0..looks {
            let alive = race.alive();
            if alive.len() == 1 {
                break;
            }
            race.add_block(&units(&p, &alive, block, 128));
            race.decide(0.95, looks);
        }
        assert_eq!(race.alive(), vec![2], "{:?}", race.dropped);
        // The clearly worst arm went first.
        assert!(race.dropped[4].unwrap() <= race.dropped[3].unwrap());
        assert!(race.blocks < looks);
    }

    #[test]
    fn equal_arms_are_not_dropped_quickly() {
        let p = [0.5, 0.5];
        let mut race = Race::new(2);
        for block in 0..20 {
            race.add_block(&units(&p, &race.alive(), block, 128));
            race.decide(0.95, 20);
        }
        assert_eq!(race.alive().len(), 2);
    }
}
