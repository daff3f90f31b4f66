//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992)
//! for several integer or continuous parameters.
//!
//! **Schedule.** Each parameter is scaled to `[0, 1]` over its range.
//! Iteration `k` (from 0) draws a sign `Δ_i = ±1` per parameter (from the
//! block's seed), plays `θ + c_k·Δ` and `θ − c_k·Δ` on the same deals (one
//! block, so the deal luck cancels in their difference), and moves
//! `θ_i ← clamp(θ_i + a_k·(y₊ − y₋)/(s₊ᵢ − s₋ᵢ))`, where `s±` are the
//! scaled values actually played (after rounding and clamping; a
//! parameter whose two values coincide is not moved). The gains are
//! Spall's: `a_k = a / (k + 1 + A)^0.602`, `c_k = c / (k + 1)^0.101`,
//! with `A` a tenth of the iterations the budget allows. `a` and `c`
//! are the spec's (defaults: `c = 0.15` of the range; `a = 1` for score
//! objectives and `0.03` for points per hand, whose differences are about
//! thirty times larger).
//!
//! **Integers.** A parameter's value is `lo + θ·(hi − lo)`, rounded to the
//! nearest integer (halves away from zero) for an integer parameter;
//! its perturbation is at least one step (`c_k·(hi − lo) ≥ 1`), so the two
//! settings of an iteration always differ in every parameter. The answer
//! is the last iterate, rounded.

use serde::{Deserialize, Serialize};

use crate::seed::mix;

/// Spall's exponent of `a_k`.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of `c_k`.
pub const GAMMA: f64 = 0.101;

/// The gains of a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// `a`.
    pub a: f64,
    /// `c`, a fraction of each range.
    pub c: f64,
    /// The stability constant `A`.
    pub big_a: f64,
}

impl Gains {
    /// `a_k`.
    #[must_use]
    pub fn a_k(&self, k: u64) -> f64 {
        self.a / (k as f64 + 1.0 + self.big_a).powf(ALPHA)
    }

    /// `c_k`.
    #[must_use]
    pub fn c_k(&self, k: u64) -> f64 {
        self.c / (k as f64 + 1.0).powf(GAMMA)
    }
}

/// One iteration, for the trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The values played with `+Δ` (rounded).
    pub plus: Vec<f64>,
    /// The values played with `−Δ`.
    pub minus: Vec<f64>,
    /// The objective of each over the block.
    pub y_plus: f64,
    /// See `y_plus`.
    pub y_minus: f64,
    /// `θ` after the update, in the parameters' units (not rounded).
    pub theta: Vec<f64>,
}

/// An SPSA run in progress: what is kept in the state file after every
/// iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    /// Each parameter's `(lo, hi, integer)`.
    pub ranges: Vec<(f64, f64, bool)>,
    /// `θ`, scaled to `[0, 1]`.
    pub theta: Vec<f64>,
    /// The gains.
    pub gains: Gains,
    /// The iterations so far.
    pub steps: Vec<Step>,
}

impl Spsa {
    /// A run from `start` (in the parameters' units).
    #[must_use]
    pub fn new(ranges: Vec<(f64, f64, bool)>, start: &[f64], gains: Gains) -> Spsa {
        let theta = ranges
            .iter()
            .zip(start)
            .map(|(&(lo, hi, _), &v)| ((v - lo) / (hi - lo)).clamp(0.0, 1.0))
            .collect();
        Spsa {
            ranges,
            theta,
            gains,
            steps: Vec::new(),
        }
    }

    /// Parameter `i`'s value at scaled `s` (rounded if an integer).
    fn value(&self, i: usize, s: f64) -> f64 {
        let (lo, hi, integer) = self.ranges[i];
        let v = lo + s.clamp(0.0, 1.0) * (hi - lo);
        if integer { v.round() } else { v }
    }

    /// The current values (rounded where integer): the answer so far.
    #[must_use]
    pub fn current(&self) -> Vec<f64> {
        (0..self.theta.len())
            .map(|i| self.value(i, self.theta[i]))
            .collect()
    }

    /// The two settings of the next iteration (`+Δ`, `−Δ`), in the
    /// parameters' units, for the block with seed `seed`.
    #[must_use]
    pub fn perturbed(&self, seed: u64) -> (Vec<f64>, Vec<f64>) {
        let k = self.steps.len() as u64;
        let c = self.gains.c_k(k);
        let mut plus = Vec::new();
        let mut minus = Vec::new();
        for (i, &(lo, hi, integer)) in self.ranges.iter().enumerate() {
            let sign = if mix(seed ^ mix(i as u64 + 1)) & 1 == 0 {
                1.0
            } else {
                -1.0
            };
            let step = if integer { c.max(1.0 / (hi - lo)) } else { c };
            plus.push(self.value(i, self.theta[i] + sign * step));
            minus.push(self.value(i, self.theta[i] - sign * step));
        }
        (plus, minus)
    }

    /// Takes the iteration: `y_plus` and `y_minus` are the objective of
    /// the two settings [`Spsa::perturbed`] gave.
    pub fn update(&mut self, plus: Vec<f64>, minus: Vec<f64>, y_plus: f64, y_minus: f64) {
        let k = self.steps.len() as u64;
        let a = self.gains.a_k(k);
        for i in 0..self.theta.len() {
            let (lo, hi, _) = self.ranges[i];
            let ds = (plus[i] - minus[i]) / (hi - lo);
            if ds != 0.0 {
                self.theta[i] = (self.theta[i] + a * (y_plus - y_minus) / ds).clamp(0.0, 1.0);
            }
        }
        let theta = (0..self.theta.len())
            .map(|i| {
                let (lo, hi, _) = self.ranges[i];
                lo + self.theta[i] * (hi - lo)
            })
            .collect();
        self.steps.push(Step {
            plus,
            minus,
            y_plus,
            y_minus,
            theta,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A noisy concave objective with its maximum at (7, 2.5) over
    /// integers 0..=10 and numbers 0..5.
    fn objective(v: &[f64], noise: u64) -> f64 {
        let e = (mix(noise) as f64 / u64::MAX as f64 - 0.5) * 0.02;
        0.5 - 0.004 * (v[0] - 7.0).powi(2) - 0.01 * (v[1] - 2.5).powi(2) + e
    }

    #[test]
    fn spsa_finds_the_maximum_of_a_noisy_synthetic_problem() {
        let ranges = vec![(0.0, 10.0, true), (0.0, 5.0, false)];
        let iterations = 400;
        let gains = Gains {
            a: 1.0,
            c: 0.15,
            big_a: iterations as f64 / 10.0,
        };
        let mut spsa = Spsa::new(ranges, &[1.0, 0.5], gains);
        for k in 0..iterations {
            let (p, m) = spsa.perturbed(mix(k + 11));
            // Common noise (the shared deals) plus a little of each's own.
            let (yp, ym) = (objective(&p, 2 * k), objective(&m, 2 * k + 1));
            spsa.update(p, m, yp, ym);
        }
        let v = spsa.current();
        assert!((v[0] - 7.0).abs() <= 1.0, "{v:?}");
        assert!((v[1] - 2.5).abs() <= 0.75, "{v:?}");
        assert_eq!(v[0].fract(), 0.0, "an integer parameter is played rounded");
    }

    #[test]
    fn integer_perturbations_always_differ() {
        let spsa = Spsa::new(
            vec![(0.0, 100.0, true)],
            &[50.0],
            Gains {
                a: 1.0,
                c: 0.001,
                big_a: 0.0,
            },
        );
        let (p, m) = spsa.perturbed(3);
        assert_ne!(p, m);
    }
}
