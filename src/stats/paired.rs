//! The paired comparison of two settings that played the same units
//! (duplicate deals): the difference of their ratios and its interval,
//! with the deal luck both share taken out. `ginlab tune` races and
//! confirms with it; `ginlab compare` reads it from two records.

use serde::{Deserialize, Serialize};

use super::{UnitSums, t_quantile};

/// The cross sums of two settings' units over the same units (deals):
/// `Σ x_i x_j`, `Σ x_i y_j`, `Σ y_i x_j`, `Σ y_i y_j` (exact integers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cross {
    /// Σ x_i·x_j.
    pub xx: i128,
    /// Σ x_i·y_j.
    pub xy: i128,
    /// Σ y_i·x_j.
    pub yx: i128,
    /// Σ y_i·y_j.
    pub yy: i128,
}

impl Cross {
    /// Adds one unit's (numerator, denominator) of each of the two
    /// settings, `i` and `j`.
    pub fn add(&mut self, i: (i64, u64), j: (i64, u64)) {
        let (xi, yi, xj, yj) = (
            i128::from(i.0),
            i128::from(i.1),
            i128::from(j.0),
            i128::from(j.1),
        );
        self.xx += xi * xj;
        self.xy += xi * yj;
        self.yx += yi * xj;
        self.yy += yi * yj;
    }

    /// Adds the sums of other deals.
    pub fn merge(&mut self, other: &Cross) {
        self.xx += other.xx;
        self.xy += other.xy;
        self.yx += other.yx;
        self.yy += other.yy;
    }
}

/// The difference `R_i − R_j` of two ratios over the same units and its
/// delta-method standard error from the paired units:
/// `e_u = (x_iu − R_i·y_iu)/Y_i − (x_ju − R_j·y_ju)/Y_j`,
/// `SE = √(m/(m−1)·Σe_u²)`. Pairing removes the deal luck both settings
/// share (common deals), which is what lets racing drop arms early.
/// `None` below two units.
#[must_use]
pub fn paired_difference(i: &UnitSums, j: &UnitSums, cross: &Cross) -> Option<(f64, f64)> {
    if i.units < 2 || i.units != j.units || i.y == 0 || j.y == 0 {
        return None;
    }
    let (ri, rj) = (i.value(), j.value());
    let (yi, yj) = (i.y as f64, j.y as f64);
    let own = |s: &UnitSums, r: f64| s.xx as f64 - 2.0 * r * s.xy as f64 + r * r * s.yy as f64;
    let c =
        cross.xx as f64 - rj * cross.xy as f64 - ri * cross.yx as f64 + ri * rj * cross.yy as f64;
    let sum = own(i, ri) / (yi * yi) + own(j, rj) / (yj * yj) - 2.0 * c / (yi * yj);
    let m = i.units as f64;
    Some((ri - rj, (m / (m - 1.0) * sum.max(0.0)).sqrt()))
}

/// The paired difference `R_i − R_j` ([`paired_difference`]) and its
/// two-sided interval at `confidence`, t quantile at the units less one:
/// `(difference, lo, hi)`. `None` below two units.
#[must_use]
pub fn paired_interval(
    i: &UnitSums,
    j: &UnitSums,
    cross: &Cross,
    confidence: f64,
) -> Option<(f64, f64, f64)> {
    let (d, se) = paired_difference(i, j, cross)?;
    let half = t_quantile(0.5 + confidence / 2.0, i.units - 1) * se;
    Some((d, d - half, d + half))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_difference_is_the_plain_one_on_equal_denominators() {
        // y = 1: the difference of means, SE of the per-unit differences.
        let a = [3i64, 1, 4, 1, 5, 9, 2, 6];
        let b = [2i64, 1, 3, 0, 5, 7, 2, 4];
        let (mut sa, mut sb, mut cross) =
            (UnitSums::default(), UnitSums::default(), Cross::default());
        for (&x, &z) in a.iter().zip(&b) {
            sa.add(x, 1);
            sb.add(z, 1);
            cross.add((x, 1), (z, 1));
        }
        let (d, se) = paired_difference(&sa, &sb, &cross).unwrap();
        let diffs: Vec<f64> = a.iter().zip(&b).map(|(x, z)| (x - z) as f64).collect();
        let mean = diffs.iter().sum::<f64>() / 8.0;
        let var = diffs.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 7.0;
        assert!((d - mean).abs() < 1e-12);
        assert!((se - (var / 8.0).sqrt()).abs() < 1e-12, "{se}");
    }
}
