//! The search space: which profile parameters a run tunes and over what
//! values, checked against the strategy's own parameter table.
//!
//! A parameter is written `NAME=VALUES`, as on the command line and in a
//! spec's `params` list:
//! - `knock_at=0..=10`: the integers 0 to 10 (a grid for racing, a range
//!   for SPSA);
//! - `hold=0.5..2.5`: the numbers from 0.5 to 2.5 (SPSA only);
//! - `knock_at=0,5,10`, `rollout=greedy,tracker`: a grid of the values
//!   listed (racing only);
//! - `schedule@20=0..=10`: one step of a knock schedule by stock size
//!   (greedy's `schedule`): the knock bar once the stock holds at most 20
//!   cards. Several steps make one schedule, stock sizes decreasing.

use std::fmt;

use crate::echo::echo;
use crate::strategy::{ParamType, Profile};

/// The values one parameter takes.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// The listed values (their inline text).
    Values(Vec<String>),
    /// The integers `lo..=hi`.
    Integers {
        /// The least.
        lo: i64,
        /// The greatest.
        hi: i64,
    },
    /// The numbers from `lo` to `hi`.
    Numbers {
        /// The least.
        lo: f64,
        /// The greatest.
        hi: f64,
    },
}

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Dim {
    /// The profile parameter (`knock_at`), or a schedule step
    /// (`schedule@20`).
    pub name: String,
    /// Its values.
    pub domain: Domain,
}

impl Dim {
    /// The discrete values, as inline text (`None` for a continuous range).
    #[must_use]
    pub fn grid(&self) -> Option<Vec<String>> {
        match &self.domain {
            Domain::Values(v) => Some(v.clone()),
            Domain::Integers { lo, hi } => Some((*lo..=*hi).map(|v| v.to_string()).collect()),
            Domain::Numbers { .. } => None,
        }
    }

    /// The range `(lo, hi, integer)` for SPSA (`None` for a list).
    #[must_use]
    pub fn range(&self) -> Option<(f64, f64, bool)> {
        match self.domain {
            Domain::Values(_) => None,
            Domain::Integers { lo, hi } => Some((lo as f64, hi as f64, true)),
            Domain::Numbers { lo, hi } => Some((lo, hi, false)),
        }
    }

    /// The stock size of a schedule step (`schedule@20`).
    fn schedule_step(&self) -> Option<u32> {
        self.name
            .strip_prefix("schedule@")
            .and_then(|s| s.parse().ok())
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.domain {
            Domain::Values(v) => write!(f, "{}={}", self.name, v.join(",")),
            Domain::Integers { lo, hi } => write!(f, "{}={lo}..={hi}", self.name),
            Domain::Numbers { lo, hi } => write!(f, "{}={lo}..{hi}", self.name),
        }
    }
}

/// The tuned parameters of one strategy, with its profile as the base.
#[derive(Clone, Debug)]
pub struct Space {
    /// The strategy every setting starts from.
    pub base: Profile,
    /// The parameters, in the order given.
    pub dims: Vec<Dim>,
}

impl fmt::Display for Space {
    /// The parameters as given, `NAME=VALUES` each, space-separated (the
    /// state file's `params` line and the tuned profiles' comment).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, dim) in self.dims.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{dim}")?;
        }
        Ok(())
    }
}

/// A setting: one value (inline text) per dimension.
pub type Setting = Vec<String>;

impl Space {
    /// Reads `params` (`NAME=VALUES` each) for the strategy `base`,
    /// refusing a parameter it does not have (naming the ones it has), a
    /// bad or empty range, a parameter given twice, and values the
    /// strategy refuses at a range's ends.
    ///
    /// # Errors
    /// A sentence naming the parameter given and what is allowed.
    pub fn new(base: Profile, params: &[String]) -> Result<Space, String> {
        if params.is_empty() {
            return Err("give at least one parameter to tune (NAME=LO..=HI or NAME=A,B,C)".into());
        }
        let kind = base.kind();
        let mut dims: Vec<Dim> = Vec::new();
        for text in params {
            let (name, values) = text.split_once('=').ok_or_else(|| {
                format!(
                    "parameter `{}`: write NAME=LO..=HI, NAME=LO..HI or NAME=A,B,C",
                    echo(text)
                )
            })?;
            let name = name.trim();
            let (param_name, step) = match name.split_once('@') {
                Some((p, s)) => (p, Some(s)),
                None => (name, None),
            };
            let Some(param) = kind.params.iter().find(|p| p.name == param_name) else {
                return Err(format!(
                    "parameter `{}`: strategy `{}` has no parameter `{}`; it takes: {}",
                    echo(text),
                    kind.name,
                    echo(param_name),
                    kind.param_names()
                ));
            };
            if step.is_some_and(|s| param.name != "schedule" || s.parse::<u32>().is_err()) {
                return Err(format!(
                    "parameter `{}`: NAME@STOCK names a step of a knock schedule, `schedule@STOCK` with STOCK a card count (strategy `{}`)",
                    echo(text),
                    kind.name
                ));
            }
            if dims.iter().any(|d| d.name == name) {
                return Err(format!(
                    "parameter `{}` is given twice: give each once",
                    echo(name)
                ));
            }
            let numeric =
                step.is_some() || matches!(param.ty, ParamType::Integer | ParamType::Number);
            let domain = read_domain(values.trim(), numeric, param.ty == ParamType::Number)
                .map_err(|why| format!("parameter `{}`: {why}", echo(text)))?;
            dims.push(Dim {
                name: name.to_owned(),
                domain,
            });
        }
        let space = Space { base, dims };
        space.check_values()?;
        Ok(space)
    }

    /// Every value of a grid, and the ends of every range, must be one the
    /// strategy takes: checked once, before anything is played.
    fn check_values(&self) -> Result<(), String> {
        for (d, dim) in self.dims.iter().enumerate() {
            let values = match (&dim.domain, dim.grid()) {
                (_, Some(grid)) => grid,
                (Domain::Numbers { lo, hi }, None) => vec![lo.to_string(), hi.to_string()],
                _ => unreachable!("a dimension is a grid or a range"),
            };
            for value in values {
                let mut setting: Setting = self.dims.iter().map(first_value).collect();
                setting[d] = value.clone();
                self.profile(&setting)
                    .map_err(|e| format!("parameter `{dim}`: value {}: {e}", echo(&value)))?;
            }
        }
        Ok(())
    }

    /// The profile of a setting: the base with each parameter set (schedule
    /// steps joined into one schedule, stock sizes decreasing).
    ///
    /// # Errors
    /// A value the strategy refuses.
    pub fn profile(&self, setting: &[String]) -> Result<Profile, String> {
        let mut profile = self.base.clone();
        let mut steps: Vec<(u32, &str)> = Vec::new();
        for (dim, value) in self.dims.iter().zip(setting) {
            match dim.schedule_step() {
                Some(stock) => steps.push((stock, value)),
                None => {
                    profile = profile
                        .with_param(&dim.name, value)
                        .map_err(|e| e.to_string())?
                }
            }
        }
        if !steps.is_empty() {
            steps.sort_by_key(|s| std::cmp::Reverse(s.0));
            let text: Vec<String> = steps.iter().map(|(s, k)| format!("{s}:{k}")).collect();
            profile = profile
                .with_param("schedule", &text.join("/"))
                .map_err(|e| e.to_string())?;
        }
        Ok(profile)
    }

    /// The grid's settings (the product of the dimensions' values, the
    /// last dimension fastest), or `None` when a dimension is continuous.
    #[must_use]
    pub fn grid(&self) -> Option<Vec<Setting>> {
        let mut settings: Vec<Setting> = vec![Vec::new()];
        for dim in &self.dims {
            let values = dim.grid()?;
            settings = settings
                .into_iter()
                .flat_map(|s| {
                    values.iter().map(move |v| {
                        let mut next = s.clone();
                        next.push(v.clone());
                        next
                    })
                })
                .collect();
        }
        Some(settings)
    }

    /// Every dimension's range, or the first one that is a list.
    ///
    /// # Errors
    /// The name of a dimension with listed values.
    pub fn ranges(&self) -> Result<Vec<(f64, f64, bool)>, String> {
        self.dims
            .iter()
            .map(|d| {
                d.range().ok_or_else(|| {
                    format!(
                        "parameter `{d}`: SPSA tunes ranges (NAME=LO..=HI or NAME=LO..HI), not a list of values"
                    )
                })
            })
            .collect()
    }
}

fn first_value(dim: &Dim) -> String {
    match &dim.domain {
        Domain::Values(v) => v[0].clone(),
        Domain::Integers { lo, .. } => lo.to_string(),
        Domain::Numbers { lo, .. } => lo.to_string(),
    }
}

/// `LO..=HI` (integers), `LO..HI` (numbers, for a number parameter) or
/// `A,B,C`.
fn read_domain(text: &str, numeric: bool, number: bool) -> Result<Domain, String> {
    if let Some((lo, hi)) = text.split_once("..") {
        if !numeric {
            return Err("a range needs a numeric parameter; list the values (A,B,C)".into());
        }
        let (inclusive, hi) = match hi.strip_prefix('=') {
            Some(hi) => (true, hi),
            None => (false, hi),
        };
        if inclusive {
            let parse = |s: &str| {
                s.trim().parse::<i64>().map_err(|_| {
                    format!(
                        "`{}` is not an integer (LO..=HI takes integers)",
                        echo(s.trim())
                    )
                })
            };
            let (lo, hi) = (parse(lo)?, parse(hi)?);
            if lo >= hi {
                return Err(format!(
                    "the range {lo}..={hi} is empty or one value: LO must be below HI"
                ));
            }
            return Ok(Domain::Integers { lo, hi });
        }
        if !number {
            return Err("an integer parameter takes LO..=HI (both ends included)".into());
        }
        let parse = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("`{}` is not a number", echo(s.trim())))
        };
        let (lo, hi) = (parse(lo)?, parse(hi)?);
        if lo >= hi {
            return Err(format!(
                "the range {lo}..{hi} is empty: LO must be below HI"
            ));
        }
        return Ok(Domain::Numbers { lo, hi });
    }
    let values: Vec<String> = text.split(',').map(|v| v.trim().to_owned()).collect();
    if values.iter().any(String::is_empty) {
        return Err("an empty value in the list".into());
    }
    let mut seen = values.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != values.len() {
        return Err("a value is listed twice".into());
    }
    if values.len() < 2 {
        return Err("one value is nothing to tune: give two or more".into());
    }
    Ok(Domain::Values(values))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn greedy() -> Profile {
        "greedy".parse::<Profile>().unwrap()
    }

    #[test]
    fn parameters_are_checked_against_the_strategy() {
        let e = Space::new(greedy(), &["hold=0..=3".into()]).unwrap_err();
        assert!(
            e.contains("has no parameter `hold`") && e.contains("knock_at, schedule"),
            "{e}"
        );
        let e = Space::new(greedy(), &["knock_at=0..=11".into()]).unwrap_err();
        assert!(
            e.contains("knock_at=0..=11") && e.contains("0 to 10"),
            "{e}"
        );
        let e = Space::new(greedy(), &["knock_at=5..=5".into()]).unwrap_err();
        assert!(e.contains("LO must be below HI"), "{e}");
        let e = Space::new(greedy(), &["knock_at=1..4".into()]).unwrap_err();
        assert!(e.contains("LO..=HI"), "{e}");
    }

    #[test]
    fn grids_and_schedules_make_profiles() {
        let s = Space::new(
            greedy(),
            &["knock_at=0..=2".into(), "schedule@10=3,4".into()],
        )
        .unwrap();
        let grid = s.grid().unwrap();
        assert_eq!(grid.len(), 6);
        let p = s.profile(&grid[5]).unwrap();
        assert_eq!(p.to_string(), "greedy:knock_at=2,schedule=10:4");
        let s = Space::new(
            greedy(),
            &["schedule@5=0..=10".into(), "schedule@20=0..=10".into()],
        )
        .unwrap();
        let p = s.profile(&["1".into(), "7".into()]).unwrap();
        assert_eq!(p.to_string(), "greedy:schedule=20:7/5:1");
        assert_eq!(
            s.ranges().unwrap(),
            vec![(0.0, 10.0, true), (0.0, 10.0, true)]
        );
    }
}
