//! Statistics: intervals for rates, means and Elo, from exact integer sums.
//!
//! Every accumulator in the harness keeps integer counts and sums (and sums of
//! squares), so merging shards or threads is exact and order-free; the
//! floating-point work happens once, here, on the merged totals.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// The 97.5 % normal quantile: 95 % two-sided intervals.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `successes` out of `trials` at normal
/// quantile `z` (use [`Z95`] for 95 %). Returns `(0, 1)` for no trials.
#[must_use]
pub fn wilson(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z2 / n;
    (
        ((centre - spread) / denom).max(0.0),
        ((centre + spread) / denom).min(1.0),
    )
}

/// `successes / trials`, 0 for no trials.
#[must_use]
pub fn rate(successes: u64, trials: u64) -> f64 {
    if trials == 0 {
        0.0
    } else {
        successes as f64 / trials as f64
    }
}

/// Exact running sums of an integer sample: count, sum, sum of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Moments {
    /// Observations.
    pub n: u64,
    /// Their sum.
    pub sum: i64,
    /// The sum of their squares.
    pub sum_sq: u128,
}

impl Moments {
    /// Adds one observation.
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += (x as i128 * x as i128) as u128;
    }

    /// Adds another sample (exact).
    pub fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// The mean (0 for no data).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// The sample variance (n − 1 in the denominator; 0 below two observations).
    #[must_use]
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        // Exact integer numerator: n·Σx² − (Σx)², then one division.
        let numerator = self.n as i128 * self.sum_sq as i128 - self.sum as i128 * self.sum as i128;
        numerator as f64 / (n * (n - 1.0))
    }

    /// The mean with its two-sided Student-t interval at `confidence`
    /// (e.g. 0.95). With fewer than two observations the interval is the
    /// mean itself.
    #[must_use]
    pub fn t_interval(&self, confidence: f64) -> (f64, f64, f64) {
        let mean = self.mean();
        if self.n < 2 {
            return (mean, mean, mean);
        }
        let t = StudentsT::new(0.0, 1.0, (self.n - 1) as f64)
            .expect("n − 1 ≥ 1 degrees of freedom")
            .inverse_cdf(0.5 + confidence / 2.0);
        let half = t * (self.variance() / self.n as f64).sqrt();
        (mean, mean - half, mean + half)
    }
}

/// The Elo difference for an expected score `p` (0 < p < 1); ±∞ at the ends.
#[must_use]
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The Elo difference and its 95 % interval from a mean score per game and
/// the standard error of that mean: the score and the bounds of its interval
/// are clamped into [1e-9, 1 − 1e-9] and mapped through [`elo`], so a player
/// that never (or always) scores gets ∓3600, finite and inside its interval.
#[must_use]
pub fn elo_interval(score: f64, standard_error: f64) -> (f64, f64, f64) {
    let clamp = |x: f64| x.clamp(1e-9, 1.0 - 1e-9);
    (
        elo(clamp(score)),
        elo(clamp(score - Z95 * standard_error)),
        elo(clamp(score + Z95 * standard_error)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn wilson_textbook_values() {
        // 50 of 100 at 95 %: 0.4038 .. 0.5962 (Newcombe 1998 table method 3).
        let (lo, hi) = wilson(50, 100, Z95);
        assert!(
            close(lo, 0.4038, 1e-4) && close(hi, 0.5962, 1e-4),
            "{lo} {hi}"
        );
        // 0 of 10: 0 .. 0.2775.
        let (lo, hi) = wilson(0, 10, Z95);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.2775, 1e-4), "{hi}");
        // 81 of 263: 0.2553 .. 0.3662 (Newcombe's example).
        let (lo, hi) = wilson(81, 263, Z95);
        assert!(
            close(lo, 0.2553, 1e-4) && close(hi, 0.3662, 1e-4),
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn t_interval_textbook_values() {
        // 1..=10: mean 5.5, s² = 9.1667, t(9, .975) = 2.2622 → half 2.1658.
        let mut m = Moments::default();
        for x in 1..=10 {
            m.add(x);
        }
        assert!(close(m.variance(), 9.166_667, 1e-5));
        let (mean, lo, hi) = m.t_interval(0.95);
        assert_eq!(mean, 5.5);
        assert!(
            close(hi - mean, 2.1658, 1e-3) && close(mean - lo, 2.1658, 1e-3),
            "{lo} {hi}"
        );
        // Merging halves gives the same sums.
        let (mut a, mut b) = (Moments::default(), Moments::default());
        (1..=4).for_each(|x| a.add(x));
        (5..=10).for_each(|x| b.add(x));
        a.merge(&b);
        assert_eq!(a, m);
    }

    #[test]
    fn elo_values() {
        assert_eq!(elo(0.5), 0.0);
        assert!(close(elo(0.64), 100.0, 0.1), "{}", elo(0.64));
        assert!(close(elo(0.76), 200.0, 0.3), "{}", elo(0.76));
        assert!(close(elo(0.36), -100.0, 0.1));
        // No score at all: finite, and inside its interval.
        let (e, lo, hi) = elo_interval(0.0, 0.0);
        assert!(close(e, -3600.0, 1e-6) && lo <= e && e <= hi);
        let (e, lo, hi) = elo_interval(0.5, 0.01);
        assert!(e == 0.0 && lo < 0.0 && hi > 0.0 && close(-lo, hi, 1e-9));
    }
}
