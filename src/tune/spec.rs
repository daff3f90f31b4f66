//! The `[tune]` spec kind: an experiment TOML whose `[tune]` table makes
//! `ginlab run` a tuning run. Read as every spec is, by the one derived
//! [`SpecFile`] with this layer's [`TuneTable`] as its `[tune]` table
//! (`deny_unknown_fields`), so a misspelt key is an error naming it.
//!
//! ```toml
//! seed = 7
//! games = 400000          # the search's budget per variant (or hands)
//! [[variant]]
//! name = "standard"       # a preset, or `preset = ...` plus knobs
//! [tune]
//! strategy = "greedy"
//! params = ["knock_at=0..=10"]
//! vs = ["simple"]         # one opponent or a pool
//! weights = [1]           # optional, one positive integer per opponent
//! objective = "games"     # games, hands, points or elo
//! method = "race"         # race or spsa (default: by the space)
//! confidence = 0.95
//! block = 256             # deals per block
//! confirm = 20000         # games per row of the confirmation
//! baseline = "greedy"     # default: the strategy as given
//! ```

use std::num::NonZeroU64;
use std::path::PathBuf;

use serde::Deserialize;

use crate::experiment::{ExperimentError, Kind, SpecFile};
use crate::job::{JobError, Resolve};
use crate::report::Objective;
use crate::rules::Rules;

use super::request::{Method, TuneRequest};

/// A tuning spec file.
#[derive(Clone, Debug)]
pub struct TuneSpec {
    /// The results folder's name (default: the file's stem).
    pub name: Option<String>,
    /// The master seed.
    pub seed: u64,
    /// The budget in games per variant.
    pub games: Option<u64>,
    /// The budget in hands per variant.
    pub hands: Option<u64>,
    /// The variants: `name` (a preset, or any name with `preset`) and
    /// knobs.
    pub variant: Vec<toml::Table>,
    /// The tuning table.
    pub tune: TuneTable,
}

/// The `[tune]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneTable {
    /// The strategy tuned.
    pub strategy: String,
    /// The parameters (`NAME=VALUES`).
    pub params: Vec<String>,
    /// The opponents.
    pub vs: Vec<String>,
    /// Their weights (default: 1 each).
    #[serde(default)]
    pub weights: Option<Vec<u32>>,
    /// The objective (default: games with games, points with hands).
    #[serde(default)]
    pub objective: Option<Objective>,
    /// The method (default: by the space).
    #[serde(default)]
    pub method: Option<Method>,
    /// Racing's confidence (default 0.95).
    #[serde(default = "default_confidence")]
    pub confidence: f64,
    /// Deals per block (default 256).
    #[serde(default = "default_block")]
    pub block: u64,
    /// Games (or hands) per row of the confirmation (default 20,000).
    #[serde(default = "default_confirm")]
    pub confirm: u64,
    /// The baseline (default: the strategy as given).
    #[serde(default)]
    pub baseline: Option<String>,
    /// SPSA's `a`.
    #[serde(default)]
    pub spsa_a: Option<f64>,
    /// SPSA's `c` (default 0.15).
    #[serde(default = "default_c")]
    pub spsa_c: f64,
}

fn default_confidence() -> f64 {
    0.95
}
fn default_block() -> u64 {
    256
}
fn default_confirm() -> u64 {
    20_000
}
fn default_c() -> f64 {
    0.15
}

/// Whether a spec's text is a tuning spec (it has a `[tune]` table).
#[must_use]
pub fn is_tune_spec(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.contains_key("tune"))
}

/// One `[[variant]]`: its name and rules (a preset named by `name` or by
/// `preset`, then the knobs given).
fn variant(table: &toml::Table) -> Result<(String, Rules), String> {
    let name = table
        .get("name")
        .and_then(toml::Value::as_str)
        .ok_or("[[variant]] tables need a name")?
        .to_owned();
    let mut knobs = table.clone();
    knobs.remove("name");
    if !knobs.contains_key("preset") {
        Rules::preset(&name)
            .map_err(|e| format!("variant `{name}`: names no preset and gives no `preset`: {e}"))?;
        knobs.insert("preset".into(), toml::Value::String(name.clone()));
    }
    let text = toml::to_string(&knobs).map_err(|e| e.to_string())?;
    let rules = Rules::from_toml(&text).map_err(|e| format!("variant `{name}`: {e}"))?;
    Ok((name, rules))
}

impl TuneSpec {
    /// Reads a tuning spec.
    ///
    /// # Errors
    /// Invalid TOML, an unknown or missing key, a bad value (naming it).
    pub fn from_toml(text: &str) -> Result<TuneSpec, String> {
        let (kind, file) = SpecFile::<TuneTable>::read(text).map_err(|e| e.to_string())?;
        let (Kind::Tune, Some(tune)) = (kind, file.tune) else {
            return Err("a tuning spec needs its [tune] table".into());
        };
        Ok(TuneSpec {
            name: file.name,
            seed: file
                .seed
                .ok_or(ExperimentError::Missing("seed").to_string())?,
            games: file.games.map(NonZeroU64::get),
            hands: file.hands.map(NonZeroU64::get),
            variant: file.variant.unwrap_or_default(),
            tune,
        })
    }

    /// The request of this spec (strategies resolved by `resolve`).
    ///
    /// # Errors
    /// [`JobError::Input`] naming what is wrong.
    pub fn request(
        self,
        resolve: &Resolve<'_>,
        out: PathBuf,
        command: Vec<String>,
        text: String,
    ) -> Result<TuneRequest, JobError> {
        let input = |e: String| JobError::Input(e);
        let (games, budget) = match (self.games, self.hands) {
            (Some(n), None) => (true, n),
            (None, Some(n)) => (false, n),
            _ => {
                return Err(input(
                    "give the budget as games or hands (one of them)".into(),
                ));
            }
        };
        if self.variant.is_empty() {
            return Err(input("give at least one [[variant]]".into()));
        }
        let variants = self
            .variant
            .iter()
            .map(variant)
            .collect::<Result<Vec<_>, _>>()
            .map_err(input)?;
        let mut names: Vec<&str> = variants.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) {
            return Err(input("variants need distinct names".into()));
        }
        let t = self.tune;
        let weights = t.weights.unwrap_or_else(|| vec![1; t.vs.len()]);
        if weights.len() != t.vs.len() {
            return Err(input(format!(
                "weights: {} given for {} opponents (vs); give one per opponent",
                weights.len(),
                t.vs.len()
            )));
        }
        let strategy = resolve(&t.strategy, "being tuned")?;
        let opponents =
            t.vs.iter()
                .zip(weights)
                .map(|(v, w)| Ok((resolve(v, "vs")?, w)))
                .collect::<Result<Vec<_>, JobError>>()?;
        let baseline = match &t.baseline {
            Some(b) => resolve(b, "baseline")?,
            None => strategy.clone(),
        };
        Ok(TuneRequest {
            strategy,
            params: t.params,
            opponents,
            variants,
            objective: t.objective.unwrap_or(Objective::default_for(games)),
            games,
            budget,
            method: t.method,
            seed: self.seed,
            confidence: t.confidence,
            block: t.block,
            spsa_a: t.spsa_a,
            spsa_c: t.spsa_c,
            baseline,
            confirm: t.confirm,
            out,
            command,
            spec: Some(text),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_named() {
        let e = TuneSpec::from_toml(
            "seed = 1\ngames = 10\n[[variant]]\nname = \"standard\"\n[tune]\nstrategy = \"greedy\"\nparams = []\nvs = [\"simple\"]\nbudgett = 3\n",
        )
        .unwrap_err();
        assert!(e.contains("budgett"), "{e}");
        let e = TuneSpec::from_toml("seed = 1\ngames = 10\nplayers = [\"a\"]\n[tune]\nstrategy = \"greedy\"\nparams = []\nvs = []\n")
            .unwrap_err();
        assert!(
            e.contains("unknown key `players`: a tuning spec takes"),
            "{e}"
        );
        let e = TuneSpec::from_toml("seed = 1\ngames = 10\n[tune]\nstrategy = \"greedy\"\nparams = []\nvs = []\nblock = \"x\"\n")
            .unwrap_err();
        assert!(e.starts_with("`tune.block`: invalid type"), "{e}");
        assert!(is_tune_spec("[tune]\nx = 1"));
        assert!(!is_tune_spec("seed = 1"));
    }
}
