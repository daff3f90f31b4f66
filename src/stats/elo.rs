//! Elo differences from scores (their intervals: `report::unit_elo`).

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
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        assert_eq!(elo(1.0), f64::INFINITY);
    }
}
