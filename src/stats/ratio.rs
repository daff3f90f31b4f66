//! A figure over independent units: exact per-unit sums of a numerator and
//! a denominator, the ratio of their totals, and its 95 % intervals.
//!
//! Every rate and mean a run reports is a ratio `Σx / Σy` over its scoring
//! units (a duplicate pair, or one game or hand): A's hands won over the
//! hands played, points over hands, non-dealer wins over decided hands.
//! Within a unit the games and hands are not independent (a pair shares its
//! cards; a game's hands share a score), so the intervals are built from
//! the units alone: the delta method for the ratio (which is the plain
//! mean's standard error when every unit has the same denominator), Student
//! t quantiles with one degree of freedom fewer than units, and for rates a
//! Wilson interval on the units' effective number of trials.

use super::{t_quantile, wilson_interval};

/// Exact sums over units `u` of a numerator `x_u` and a denominator `y_u`:
/// what the figure `Σx / Σy` and its interval need. Merging adds the sums,
/// so it is exact and order-free.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnitSums {
    /// Units.
    pub units: u64,
    /// Σ x.
    pub x: i64,
    /// Σ x².
    pub xx: u128,
    /// Σ y.
    pub y: u64,
    /// Σ y².
    pub yy: u128,
    /// Σ x·y.
    pub xy: i128,
}

/// What is known about an interval: the two ends, or why there are none.
pub type Interval = Option<(f64, f64)>;

impl UnitSums {
    /// Adds one unit with numerator `x` over denominator `y`.
    pub fn add(&mut self, x: i64, y: u64) {
        self.units += 1;
        self.x += x;
        self.xx += (i128::from(x) * i128::from(x)) as u128;
        self.y += y;
        self.yy += u128::from(y) * u128::from(y);
        self.xy += i128::from(x) * i128::from(y);
    }

    /// Adds another sample of units (exact).
    pub fn merge(&mut self, other: &UnitSums) {
        self.units += other.units;
        self.x += other.x;
        self.xx += other.xx;
        self.y += other.y;
        self.yy += other.yy;
        self.xy += other.xy;
    }

    /// `Σx / Σy` (0 when the denominator is 0).
    #[must_use]
    pub fn value(&self) -> f64 {
        if self.y == 0 {
            0.0
        } else {
            self.x as f64 / self.y as f64
        }
    }

    /// Σ over units of `(x_u − R·y_u)²` times `(Σy)²`, where `R = Σx/Σy`:
    /// `(Σy)²·Σx² − 2·Σx·Σy·Σxy + (Σx)²·Σy²`, in integers when they fit
    /// (it is then exact, and exactly 0 when every unit has the same
    /// ratio), in floating point otherwise.
    fn residual_sum_scaled(&self) -> f64 {
        let exact = || -> Option<i128> {
            let (x, y) = (i128::from(self.x), i128::from(self.y));
            let xx = i128::try_from(self.xx).ok()?;
            let yy = i128::try_from(self.yy).ok()?;
            let a = y.checked_mul(y)?.checked_mul(xx)?;
            let b = x.checked_mul(y)?.checked_mul(2)?.checked_mul(self.xy)?;
            let c = x.checked_mul(x)?.checked_mul(yy)?;
            a.checked_sub(b)?.checked_add(c)
        };
        match exact() {
            Some(n) => n.max(0) as f64,
            None => {
                let (x, y) = (self.x as f64, self.y as f64);
                (y * y * self.xx as f64 - 2.0 * x * y * self.xy as f64 + x * x * self.yy as f64)
                    .max(0.0)
            }
        }
    }

    /// The delta-method standard error of `Σx / Σy` from the units:
    /// `√(m/(m−1) · Σ(x_u − R·y_u)²) / Σy` for `m` units. `None` below two
    /// units or with no denominator.
    #[must_use]
    pub fn standard_error(&self) -> Option<f64> {
        if self.units < 2 || self.y == 0 {
            return None;
        }
        let m = self.units as f64;
        let y = self.y as f64;
        Some((m / (m - 1.0) * self.residual_sum_scaled()).sqrt() / (y * y))
    }

    /// The t quantile for a two-sided interval at `confidence` over these
    /// units (`m − 1` degrees of freedom).
    fn t(&self, confidence: f64) -> f64 {
        t_quantile(0.5 + confidence / 2.0, self.units - 1)
    }

    /// The interval of a mean (points per hand, margin per game): the ratio
    /// ± t·(standard error). `None` when no interval is valid: fewer than
    /// two units, no denominator, or every unit at the same ratio (a zero
    /// standard error says nothing about an unbounded figure).
    #[must_use]
    pub fn mean_interval(&self, confidence: f64) -> Interval {
        let se = self.standard_error().filter(|&se| se > 0.0)?;
        let half = self.t(confidence) * se;
        let r = self.value();
        Some((r - half, r + half))
    }

    /// The interval of a rate (each unit's `x` between 0 and its `y`): the
    /// Wilson score interval at the t quantile, over the units' effective
    /// number of trials `R(1 − R) / SE²` (the trials the observed spread
    /// is worth; it is larger than the trials played when duplicate pairs
    /// cancel deal luck, smaller when a unit's trials agree). When every
    /// unit scored the same rate (all lost, all won, or a sample of units
    /// that do not vary) the spread says nothing and each unit counts as
    /// one trial, which any unit is worth at least. `None` below two units
    /// or with no denominator.
    #[must_use]
    pub fn rate_interval(&self, confidence: f64) -> Interval {
        let se = self.standard_error()?;
        let r = self.value().clamp(0.0, 1.0);
        let spread = r * (1.0 - r);
        let trials = if se > 0.0 && spread > 0.0 {
            spread / (se * se)
        } else {
            self.units as f64
        };
        Some(wilson_interval(r, trials, self.t(confidence)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Moments, Z95, wilson};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    fn sums(units: &[(i64, u64)]) -> UnitSums {
        let mut s = UnitSums::default();
        for &(x, y) in units {
            s.add(x, y);
        }
        s
    }

    #[test]
    fn equal_denominators_give_the_mean_and_its_t_interval() {
        // Units of one trial each: the ratio is the mean, its standard
        // error the sample's, the interval the t interval of Moments.
        let xs = [3, -1, 4, 1, -5, 9, 2, -6];
        let s = sums(&xs.map(|x| (x, 1)));
        let mut m = Moments::default();
        xs.iter().for_each(|&x| m.add(x));
        let (mean, lo, hi) = m.t_interval(0.95);
        let (l, h) = s.mean_interval(0.95).unwrap();
        assert!(close(s.value(), mean, 1e-12));
        assert!(close(l, lo, 1e-12) && close(h, hi, 1e-12), "{l} {h}");
        // Units of two trials: the mean per trial, and half the unit's error.
        let s2 = sums(&xs.map(|x| (2 * x, 2)));
        assert!(close(
            s2.standard_error().unwrap(),
            s.standard_error().unwrap(),
            1e-12
        ));
    }

    #[test]
    fn ratio_standard_error_by_the_delta_method() {
        // x = (1, 2, 6), y = (1, 3, 4): R = 9/8; residuals x − R·y =
        // (−1/8, −11/8, 12/8); Σ² = 266/64; SE² = 3/2 · 266/64 / 64.
        let s = sums(&[(1, 1), (2, 3), (6, 4)]);
        assert_eq!(s.value(), 9.0 / 8.0);
        let want = (1.5_f64 * 266.0 / 64.0).sqrt() / 8.0;
        assert!(close(s.standard_error().unwrap(), want, 1e-12));
        // Merging halves gives the same sums.
        let mut a = sums(&[(1, 1)]);
        a.merge(&sums(&[(2, 3), (6, 4)]));
        assert_eq!(a, s);
    }

    #[test]
    fn rates_of_independent_trials_are_wilson_at_the_t_quantile() {
        // 400 single trials, 120 successes: the effective trials are the
        // trials less one (the sample variance's n − 1), and the interval
        // is Wilson's with t(399) for z.
        let s = sums(&[vec![(1, 1); 120], vec![(0, 1); 280]].concat());
        let (lo, hi) = s.rate_interval(0.95).unwrap();
        let t = t_quantile(0.975, 399);
        let (wlo, whi) = crate::stats::wilson_interval(0.3, 399.0, t);
        assert!(close(lo, wlo, 1e-9) && close(hi, whi, 1e-9), "{lo} {hi}");
        let (zlo, _) = wilson(120, 400, Z95);
        assert!(lo < zlo);
    }

    #[test]
    fn degenerate_samples_get_valid_intervals_or_none() {
        // One unit: no interval at all.
        assert_eq!(sums(&[(2, 2)]).rate_interval(0.95), None);
        assert_eq!(sums(&[(2, 2)]).mean_interval(0.95), None);
        assert_eq!(UnitSums::default().rate_interval(0.95), None);
        // Two pairs, both lost: a Wilson bound on 2 units at t(1), not [0, 0].
        let (lo, hi) = sums(&[(0, 2), (0, 2)]).rate_interval(0.95).unwrap();
        let t1 = t_quantile(0.975, 1);
        assert_eq!(lo, 0.0);
        assert!(close(hi, t1 * t1 / (2.0 + t1 * t1), 1e-12), "{hi}");
        // All won: the mirror image.
        let (lo, hi) = sums(&[(2, 2); 10]).rate_interval(0.95).unwrap();
        assert!(hi == 1.0 && lo > 0.5 && lo < 1.0, "{lo}");
        // Every pair split: rate 1/2 with a zero spread still has width.
        let (lo, hi) = sums(&[(1, 2); 5]).rate_interval(0.95).unwrap();
        assert!(lo < 0.4 && hi > 0.6, "{lo} {hi}");
        // A mean with no spread has no valid interval.
        assert_eq!(sums(&[(3, 1); 5]).mean_interval(0.95), None);
        // No denominator.
        assert_eq!(sums(&[(0, 0), (0, 0)]).rate_interval(0.95), None);
    }

    #[test]
    fn huge_sums_fall_back_to_floating_point() {
        let s = UnitSums {
            units: 1 << 40,
            x: 1 << 60,
            xx: 1 << 100,
            y: 1 << 61,
            yy: 1 << 102,
            xy: 1 << 101,
        };
        // Every unit at the ratio 1/2 in the limit: no residual.
        assert!(s.standard_error().unwrap() < 1e-9);
    }
}
