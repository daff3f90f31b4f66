//! What a tuning run maximises, per scoring unit, and the paired
//! comparison of two settings that played the same deals.
//!
//! Every objective is a ratio `Σx / Σy` over units (a duplicate pair of
//! games or hands, the unit of every ginlab interval): half points over
//! twice the games or hands for `games`, `hands` and `elo` (Elo is a
//! monotone map of the score, so it ranks settings alike and is reported
//! through the Elo curve), net points over hands for `points`. Against a
//! pool of opponents a unit's `x` and `y` are the weighted sums over the
//! opponents of that deal, so the ratio is the pool's weighted figure.

use serde::{Deserialize, Serialize};

use crate::report::Objective;
use crate::sim::Tallies;
use crate::stats::{Interval, UnitSums, elo, t_quantile};

/// One unit's numerator and denominator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    /// Σx of the unit.
    pub x: i64,
    /// Σy of the unit.
    pub y: u64,
    /// Hands played in the unit (what budgets are compared in).
    pub hands: u64,
}

impl Unit {
    /// The unit that one deal's tallies (one unit) make under `objective`.
    #[must_use]
    pub fn of(objective: Objective, tallies: &Tallies) -> Unit {
        let sums = match objective {
            Objective::Points => &tallies.units.a_net_points,
            Objective::Games | Objective::Hands | Objective::Elo => &tallies.units.score,
        };
        Unit {
            x: sums.x,
            y: sums.y,
            hands: tallies.hands,
        }
    }

    /// Adds `weight` times `other` (a pool's opponent).
    pub fn add_weighted(&mut self, other: Unit, weight: u32) {
        self.x += other.x * i64::from(weight);
        self.y += other.y * u64::from(weight);
        self.hands += other.hands;
    }
}

/// How an objective's figure is shown and its interval made.
#[must_use]
pub fn interval(objective: Objective, sums: &UnitSums, confidence: f64) -> Interval {
    match objective {
        Objective::Points => sums.mean_interval(confidence),
        _ => sums.rate_interval(confidence),
    }
}

/// The figure as reported: Elo through the Elo curve, else the ratio.
#[must_use]
pub fn shown(objective: Objective, value: f64) -> f64 {
    match objective {
        Objective::Elo => elo(value.clamp(1e-9, 1.0 - 1e-9)),
        _ => value,
    }
}

/// The cross sums of two settings' units over the same deals:
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
    /// Adds one deal's units of the two settings.
    pub fn add(&mut self, i: Unit, j: Unit) {
        let (xi, yi, xj, yj) = (
            i128::from(i.x),
            i128::from(i.y),
            i128::from(j.x),
            i128::from(j.y),
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
            cross.add(
                Unit { x, y: 1, hands: 1 },
                Unit {
                    x: z,
                    y: 1,
                    hands: 1,
                },
            );
        }
        let (d, se) = paired_difference(&sa, &sb, &cross).unwrap();
        let diffs: Vec<f64> = a.iter().zip(&b).map(|(x, z)| (x - z) as f64).collect();
        let mean = diffs.iter().sum::<f64>() / 8.0;
        let var = diffs.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 7.0;
        assert!((d - mean).abs() < 1e-12);
        assert!((se - (var / 8.0).sqrt()).abs() < 1e-12, "{se}");
    }
}
