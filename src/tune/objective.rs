//! What a tuning run maximises, per scoring unit (two settings on the same
//! deals are compared by [`crate::stats::paired_interval`]).
//!
//! Every objective is a ratio `Σx / Σy` over units (a duplicate pair of
//! games or hands, the unit of every ginlab interval): half points over
//! twice the games or hands for `games`, `hands` and `elo` (Elo is a
//! monotone map of the score, so it ranks settings alike and is reported
//! through the Elo curve), net points over hands for `points`. Against a
//! pool of opponents a unit's `x` and `y` are the weighted sums over the
//! opponents of that deal, so the ratio is the pool's weighted figure.

use crate::report::Objective;
use crate::sim::Tallies;
use crate::stats::{Interval, UnitSums, elo};

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

    /// The unit's (numerator, denominator), as [`Cross::add`](crate::stats::Cross::add) reads it.
    #[must_use]
    pub fn ratio(self) -> (i64, u64) {
        (self.x, self.y)
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
