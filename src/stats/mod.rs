//! Statistics: intervals for rates, means and Elo, from exact integer sums.
//!
//! Every accumulator in the harness keeps integer counts and sums (and sums of
//! squares), so merging shards or threads is exact and order-free; the
//! floating-point work happens once, here, on the merged totals.

mod bradley_terry;
mod elo;
mod intervals;
mod luce;
mod moments;
mod paired;
mod quantile;
mod ratio;
mod sprt;

pub use bradley_terry::{Encounter, Fit, Rating, fit as fit_ratings};
pub use elo::elo;
pub use intervals::{rate, wilson, wilson_interval};
pub use luce::{TableWins, fit_table};
pub use moments::Moments;
pub use paired::{Cross, paired_difference, paired_interval};
pub use quantile::{normal_quantile, t_quantile};
pub use ratio::{Interval, UnitSums};
pub use sprt::{SPRT_ELO_LIMIT, Sprt, SprtDecision, SprtError, SprtState};

/// The 97.5 % normal quantile: 95 % two-sided intervals.
pub const Z95: f64 = 1.959_963_984_540_054;
