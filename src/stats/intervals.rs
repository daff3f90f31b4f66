//! Rates and their Wilson score intervals.

/// The Wilson score interval for `successes` out of `trials` at normal
/// quantile `z` (use [`Z95`](crate::stats::Z95) for 95 %). Returns `(0, 1)` for no trials.
#[must_use]
pub fn wilson(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    wilson_interval(successes as f64 / trials as f64, trials as f64, z)
}

/// The Wilson score interval for a share `p` of `n` trials (`n` may be an
/// effective, fractional number of trials) at quantile `z`, clipped to
/// [0, 1].
#[must_use]
pub fn wilson_interval(p: f64, n: f64, z: f64) -> (f64, f64) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Z95;

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
}
