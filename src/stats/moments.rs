//! Exact integer moments of a sample, and the mean's t interval.

use super::t_quantile;

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
        let t = t_quantile(0.5 + confidence / 2.0, self.n - 1);
        let half = t * (self.variance() / self.n as f64).sqrt();
        (mean, mean - half, mean + half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Z95;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
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
    fn t_interval_at_tens_of_millions_and_beyond() {
        // Runs of 15 M units and more used to hang in the quantile, and
        // from about 3 M their intervals were several per cent too narrow.
        // Points ±1 with mean about 0.2.
        for n in [
            3_000_000_u64,
            10_679_971,
            16_000_000,
            21_400_000,
            100_000_000,
            1_000_000_000_000,
        ] {
            let wins = n / 10 * 6;
            let m = Moments {
                n,
                sum: (2 * wins) as i64 - n as i64,
                sum_sq: u128::from(n),
            };
            let (mean, lo, hi) = m.t_interval(0.95);
            let nf = n as f64;
            let want = m.sum as f64 / nf;
            let se = ((1.0 - want * want) * nf / (nf - 1.0) / nf).sqrt();
            let half = t_quantile(0.975, n - 1) * se;
            assert!(
                (mean - want).abs() < 1e-15 && (mean - 0.2).abs() < 1e-6,
                "{n}: {mean}"
            );
            assert!(((hi - mean) / half - 1.0).abs() < 1e-9, "{n}: {lo} {hi}");
            assert!(((mean - lo) / half - 1.0).abs() < 1e-9, "{n}: {lo} {hi}");
            // Within a millionth of the normal interval.
            assert!(((hi - mean) / (Z95 * se) - 1.0).abs() < 1e-6, "{n}");
        }
    }
}
