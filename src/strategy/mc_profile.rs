//! `mc` in the table of kinds: [`McParams`] read, printed and built through
//! [`Params`] (the parameters' own reading is `McParams::set`).

use super::profile::{Kind, Param, ParamError, ParamType, ParamValue, Params};
use super::{McParams, MonteCarlo, ProfileError, Strategy};

/// The table's row of `mc`.
pub(super) const KIND: Kind = Kind::of::<McParams>(
    "mc",
    &[
        Param::new("samples", ParamType::Integer, "an integer from 1 to 65536"),
        Param::new(
            "budget_ms",
            ParamType::Number,
            "a number of milliseconds above 0, at most 256",
        ),
        Param::new(
            "game_budget_ms",
            ParamType::Number,
            "a number of milliseconds above 0, at most 3600000",
        ),
        Param::new("game_worlds", ParamType::Integer, "an integer from 1 to 10^12"),
        Param::new("rollout", ParamType::Text, "greedy or tracker"),
        Param::new("base", ParamType::Text, "greedy or tracker"),
        Param::new("own_knock_at", ParamType::Integer, "an integer from 0 to 10"),
        Param::new("opp_knock_at", ParamType::Integer, "an integer from 0 to 10"),
        Param::new("weighting", ParamType::Text, "none or tracker"),
        Param::new("objective", ParamType::Text, "points or game"),
        Param::new("discards", ParamType::Integer, "an integer from 1 to 11"),
        Param::new("confidence", ParamType::Number, "a number from 0 to 10"),
        Param::new("calibrate", ParamType::Boolean, "true or false"),
        Param::new("seed", ParamType::Integer, "an integer from 0 to 2^64 - 1"),
    ],
    None,
);

impl Params for McParams {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn set(&mut self, key: &str, value: ParamValue<'_>) -> Result<(), ParamError> {
        McParams::set(self, key, value).map_err(|e| match e {
            ProfileError::Conflict { message, .. } => ParamError::Conflict(message),
            ProfileError::BadValue { expected, .. } => ParamError::Expected(expected),
            _ => ParamError::Invalid,
        })
    }

    fn build(&self, seed: u64) -> Box<dyn Strategy> {
        Box::new(MonteCarlo::new(self.clone(), seed))
    }
}
