//! Statistics. So far: the Wilson score interval for a proportion.

/// The Wilson score interval for `successes` out of `trials` at normal
/// quantile `z` (1.96 for 95 %). Returns `(0, 1)` for no trials.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // 50 of 100 at 95 %: 0.4038 .. 0.5962.
        let (lo, hi) = wilson(50, 100, 1.959964);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        // 0 of 10: lower bound 0, upper 0.2775.
        let (lo, hi) = wilson(0, 10, 1.959964);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
        assert_eq!(wilson(0, 0, 1.96), (0.0, 1.0));
    }
}
