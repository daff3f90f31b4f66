//! Elo differences from scores, with intervals.

use super::Z95;

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
