//! [`TuneRequest`]: everything a front end says about a tuning run, with
//! its strategies resolved. `ginlab tune` and a spec's `[tune]` table fill
//! one in; [`run`](super::run) plays it.

use std::path::PathBuf;

use crate::job::Player;
use crate::report::Objective;
use crate::rules::Rules;

/// How the space is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Racing on duplicate deals over a discrete grid.
    Race,
    /// SPSA over ranges.
    Spsa,
}

impl Method {
    /// The names, as `--method` and the spec's `method` take them.
    pub const NAMES: &'static str = "race or spsa";

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Method::Race => "race",
            Method::Spsa => "spsa",
        }
    }
}

/// A tuning run, its strategies resolved.
#[derive(Clone, Debug)]
pub struct TuneRequest {
    /// The strategy tuned (its profile is every setting's base).
    pub strategy: Player,
    /// The parameters (`NAME=VALUES`, see [`Space`](super::Space)).
    pub params: Vec<String>,
    /// The opponents with their integer weights.
    pub opponents: Vec<(Player, u32)>,
    /// The rule variants: each is tuned on its own.
    pub variants: Vec<(String, Rules)>,
    /// What is maximised.
    pub objective: Objective,
    /// Whole games (`true`) or independent hands.
    pub games: bool,
    /// The budget per variant: games (or hands) the search may play,
    /// counting every arm and opponent.
    pub budget: u64,
    /// The search (`None`: racing for a grid of at most 64 settings, else
    /// SPSA).
    pub method: Option<Method>,
    /// The master seed.
    pub seed: u64,
    /// Racing's confidence that no arm as good as the leader is dropped.
    pub confidence: f64,
    /// Deals per block (every deal played twice, seats swapped).
    pub block: u64,
    /// SPSA's `a` (`None`: by objective).
    pub spsa_a: Option<f64>,
    /// SPSA's `c`, a fraction of each range.
    pub spsa_c: f64,
    /// The baseline the answer is compared with (default: the strategy
    /// as given, whose tuned parameters keep its defaults).
    pub baseline: Player,
    /// Games (or hands) per row of the confirmation run (0: none).
    pub confirm: u64,
    /// The output folder.
    pub out: PathBuf,
    /// The command line, for the manifest.
    pub command: Vec<String>,
    /// The spec's text, for the manifest.
    pub spec: Option<String>,
}
