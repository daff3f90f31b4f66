//! Experiment specs (`experiments/NAME.toml`): who plays whom, under which
//! rule variants, how much, from which seed.
//!
//! ```toml
//! name = "quick"                 # optional: the results folder (default: the file's stem)
//! seed = 1
//! games = 2000                   # or: hands = 100000
//! duplicate = true               # optional, default true
//! players = ["greedy", "simple"] # profile names, files or inline profiles
//! pairing = "head_to_head"       # the default, exactly two players; or "round_robin", "gauntlet"
//! anchor = "simple"              # optional, 3+ players: who is rated 0 (default simple, else the first)
//! # format = "three"             # or "partnership": one table of 3 (or 4, team by team) players
//!
//! [[variant]]                    # one table per rule variant; none means standard
//! name = "standard"              # a preset name, or any name with `preset = ...`
//!
//! [[variant]]
//! name = "oklahoma-flat"
//! preset = "oklahoma"
//! spade_upcard_doubles = false   # any knob of RULES.md
//! ```
//!
//! A spec may instead describe a study of one strategy:
//!
//! ```toml
//! study = "sweep"        # one parameter over a grid against a fixed opponent
//! strategy = "greedy"
//! param = "knock_at"
//! values = "0..=10"      # A..=B or a comma list
//! vs = "simple"
//! objective = "points"   # optional: games, hands, points or elo (default: games
//!                        # when playing games, points when playing hands)
//! ```
//!
//! or `study = "balance"` with `strategy = "greedy"` (the strategy against
//! itself under every variant). Each kind takes only its own keys: `players`
//! and `pairing` in a study, or `strategy` in a match spec, are errors, as
//! is any key no spec has. `head_to_head` (the default pairing) takes
//! exactly two players, and a variant not named after a preset must give
//! its `preset`, so that a misspelt name is not silently standard.
//!
//! Every (variant, pairing) is played from the same master seed, so all of
//! them see the same deals (common random numbers): differences between rows
//! are not deal luck. The spec is validated whole before anything runs.

use std::num::NonZeroU64;
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::echo::echo;
use crate::rules::{PRESETS, Rules, RulesError};
use crate::sim::{Format, Work};

/// How the players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pairing {
    /// The first two players.
    HeadToHead,
    /// Every pair once (earlier player as A).
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
}

/// What an experiment plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Study {
    /// `players` paired by `pairing`.
    Match,
    /// One parameter of a strategy over a grid against a fixed opponent.
    Sweep(Sweep),
    /// `strategy` against itself under every variant.
    Balance {
        /// The strategy.
        strategy: String,
    },
}

/// A sweep as given (strategies not yet resolved): one parameter of
/// `strategy` over `values` against `vs`. Specs and the `sweep` command
/// both say it this way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The strategy varied.
    pub strategy: String,
    /// Its parameter.
    pub param: String,
    /// The grid: `A..=B` or a comma list.
    pub values: String,
    /// The fixed opponent.
    pub vs: String,
    /// What the chart and table show (`None`: the share of games won when
    /// playing games, the points per hand when playing hands).
    pub objective: Option<crate::report::Objective>,
}

/// The values of a sweep: `A..=B` (integers, at most 1001 of them) or a
/// comma list. The error says what to write, after `text`.
///
/// # Errors
/// A range that is not `A..=B` with `A ≤ B ≤ A + 1000`, or no values.
pub fn sweep_values(text: &str) -> Result<Vec<String>, String> {
    if let Some((a, b)) = text.split_once("..=") {
        let (a, b) = (a.trim().parse::<i64>(), b.trim().parse::<i64>());
        return match (a, b) {
            (Ok(a), Ok(b))
                if b.checked_sub(a)
                    .is_some_and(|span| (0..=1000).contains(&span)) =>
            {
                Ok((a..=b).map(|v| v.to_string()).collect())
            }
            _ => Err(format!(
                "{text}: write A..=B with integers A ≤ B ≤ A + 1000, or a comma list"
            )),
        };
    }
    let values: Vec<String> = text
        .split(',')
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect();
    if values.is_empty() {
        return Err(format!("{text}: no values"));
    }
    Ok(values)
}

/// A validated experiment.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// The results folder name.
    pub name: Option<String>,
    /// The master seed.
    pub seed: u64,
    /// How much per (variant, pairing): hands or games.
    pub amount: Work,
    /// Duplicate deals.
    pub duplicate: bool,
    /// The players as written (resolved by the caller).
    pub players: Vec<String>,
    /// The pairing schedule.
    pub pairing: Pairing,
    /// Three players or two partnerships (`format`); `None` for two-player
    /// pairings.
    pub format: Option<Format>,
    /// The rule variants: name and rules.
    pub variants: Vec<(String, Rules)>,
    /// What is played.
    pub study: Study,
    /// The player the rating list is anchored at (`anchor`; a match of
    /// three or more players), as written.
    pub anchor: Option<String>,
}

/// What is wrong with an experiment spec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExperimentError {
    /// Not valid TOML.
    #[error("invalid TOML: {0}")]
    Toml(String),
    /// A key this kind of spec does not take.
    #[error("unknown key `{key}`: {kind} takes {allowed}{hint}")]
    UnknownKey {
        /// The key.
        key: String,
        /// The kind of spec, e.g. "a balance study".
        kind: &'static str,
        /// The keys it takes.
        allowed: &'static str,
        /// Where the key belongs instead, if anywhere (with its separator).
        hint: &'static str,
    },
    /// A key with a value of the wrong kind or range.
    #[error("`{key}` must be {expected}")]
    Bad {
        /// The key.
        key: &'static str,
        /// What it takes.
        expected: &'static str,
    },
    /// A text key given as an empty string.
    #[error("`{0}` is empty: it needs a value (see experiments/README.md)")]
    Empty(&'static str),
    /// A required key is missing.
    #[error("missing `{0}`")]
    Missing(&'static str),
    /// `head_to_head` pairing with more than two players: it would play
    /// only the first two.
    #[error(
        "pairing = \"head_to_head\"{default} plays exactly 2 players, but `players` lists {given}: list two, or set pairing = \"round_robin\" (every pair) or \"gauntlet\" (the first player against each other)"
    )]
    HeadToHeadPlayers {
        /// How many players the spec lists.
        given: usize,
        /// Whether `pairing` was left out, as text for the message.
        default: &'static str,
    },
    /// `format = "three"` or `"partnership"` with the wrong number of players.
    #[error(
        "format = \"{format}\" seats {needed} players, but `players` lists {given}{teams}",
        teams = if *needed == 4 { " (list them team by team: the first two against the last two)" } else { "" }
    )]
    FormatPlayers {
        /// The format's name.
        format: &'static str,
        /// Players it seats.
        needed: usize,
        /// Players listed.
        given: usize,
    },
    /// A variant named other than a preset, with no `preset`: it would
    /// silently be standard (a misspelt preset name, say).
    #[error(
        "variant `{0}`: `{0}` is not a preset ({list}), so the variant needs `preset = \"NAME\"` to say which rules it starts from (then any knob overrides), or a preset's name",
        list = PRESETS.join(", ")
    )]
    NoPreset(String),
    /// No `name`, and the spec's file name gives no folder name.
    #[error(
        "the spec has no `name`, and its file name `{}` gives no results folder: the part before .toml must be {FOLDER_NAME}; set `name` or rename the file",
        echo(.0)
    )]
    FileName(String),
    /// A value inside a table this layer does not read itself (the
    /// `[tune]` table's), as serde words it.
    #[error("`{path}`: {message}")]
    Value {
        /// Where: `tune.block`.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A tuning spec where an experiment was wanted.
    #[error(
        "the [tune] table makes this a tuning spec: run it with `ginlab run` (or give its [tune] keys to `ginlab tune`)"
    )]
    TuneSpec,
    /// A variant's rules are wrong.
    #[error("variant `{name}`: {source}")]
    Variant {
        /// The variant's name.
        name: String,
        /// What is wrong.
        #[source]
        source: RulesError,
    },
}

/// The kinds of spec, each with its own keys. A spec's kind is its
/// `study` (a match without one), or a tuning run when it has a `[tune]`
/// table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `players` paired by `pairing`.
    Match,
    /// One parameter over a grid.
    Sweep,
    /// One strategy against itself under every variant.
    Balance,
    /// A tuning run (`[tune]`, read by the tuning layer).
    Tune,
}

/// A spec file as written, read by derive: every key of every kind of
/// spec, typed. `T` is the `[tune]` table, whose type the tuning layer
/// (above this one) gives; an experiment never has one. Which kind takes
/// which keys is [`Kind`]'s, checked before the derive reads the values,
/// so that a key of another kind is named with where it belongs; a value
/// of the wrong type is named by its key (`expected`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile<T> {
    /// The results folder.
    pub name: Option<String>,
    /// The master seed.
    pub seed: Option<u64>,
    /// Games per (variant, pairing).
    pub games: Option<NonZeroU64>,
    /// Hands per (variant, pairing).
    pub hands: Option<NonZeroU64>,
    /// Duplicate deals.
    pub duplicate: Option<bool>,
    /// The kind of study.
    pub study: Option<Kind>,
    /// A match's players.
    pub players: Option<Vec<String>>,
    /// A match's pairing.
    pub pairing: Option<Pairing>,
    /// A match's format.
    pub format: Option<FormatKey>,
    /// A match's rating anchor.
    pub anchor: Option<String>,
    /// A study's strategy.
    pub strategy: Option<Text>,
    /// A sweep's parameter.
    pub param: Option<Text>,
    /// A sweep's values.
    pub values: Option<Text>,
    /// A sweep's opponent.
    pub vs: Option<Text>,
    /// A sweep's objective.
    pub objective: Option<crate::report::Objective>,
    /// The `[[variant]]` tables (knobs, read by the rules layer).
    pub variant: Option<Vec<toml::Table>>,
    /// The `[tune]` table.
    pub tune: Option<T>,
}

/// The `format` key: two players (the default), or a multi-player table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatKey {
    /// Two players.
    Two,
    /// Three players, the dealer sits out.
    Three,
    /// Four players, two teams.
    Partnership,
}

/// A text key that also takes an integer as its text (`values = 3`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Text {
    /// A string.
    Text(String),
    /// An integer, read as its text.
    Integer(i64),
}

impl Text {
    fn into_string(self) -> String {
        match self {
            Text::Text(s) => s,
            Text::Integer(n) => n.to_string(),
        }
    }
}

/// What each top-level key takes, as messages say: the one place serde's
/// errors become ginlab's (a key missing here is the `[tune]` table's or
/// another layer's, and keeps serde's words).
const EXPECTED: [(&str, &str); 16] = [
    ("name", FOLDER_NAME),
    ("seed", "a non-negative integer"),
    ("games", "a positive integer"),
    ("hands", "a positive integer"),
    ("duplicate", "true or false"),
    ("study", "\"match\", \"sweep\" or \"balance\""),
    ("players", "a list of strategy names"),
    (
        "pairing",
        "\"head_to_head\", \"round_robin\" or \"gauntlet\"",
    ),
    (
        "format",
        "\"two\" (the default), \"three\" (three players, the dealer sits out) or \"partnership\" (four players, two teams)",
    ),
    ("anchor", "a string: one of the players"),
    ("strategy", "a string"),
    ("param", "a string"),
    ("values", "a string"),
    ("vs", "a string"),
    ("objective", "\"games\", \"hands\", \"points\" or \"elo\""),
    ("variant", "[[variant]] tables with a name"),
];

/// [`ExperimentError::Bad`] for `key`, saying what [`EXPECTED`] says it takes.
fn expected(key: &str) -> Option<ExperimentError> {
    EXPECTED
        .iter()
        .find(|(k, _)| *k == key)
        .map(|&(key, expected)| ExperimentError::Bad { key, expected })
}

/// [`expected`] for a key of [`EXPECTED`].
fn bad_key(key: &str) -> ExperimentError {
    expected(key).expect("a key of EXPECTED")
}

impl Kind {
    /// The keys of this kind beyond [`COMMON_KEYS`].
    fn own_keys(self) -> &'static [&'static str] {
        match self {
            Kind::Match => &["duplicate", "players", "pairing", "format", "anchor"],
            Kind::Sweep => &[
                "duplicate",
                "strategy",
                "param",
                "values",
                "vs",
                "objective",
            ],
            // Every deal once: one strategy in both seats makes a
            // seat-swapped replay repeat the hand (see `run_balance`).
            Kind::Balance => &["strategy"],
            Kind::Tune => &["tune"],
        }
    }

    fn takes(self, key: &str) -> bool {
        // A tuning spec is a kind of its own, not a `study`.
        let common = COMMON_KEYS.contains(&key) && !(self == Kind::Tune && key == "study");
        common || self.own_keys().contains(&key)
    }

    /// The kind of the spec `table`.
    fn of(table: &toml::Table) -> Result<Kind, ExperimentError> {
        if table.contains_key("tune") {
            return Ok(Kind::Tune);
        }
        match table.get("study") {
            None => Ok(Kind::Match),
            Some(value) => match Kind::deserialize(value.clone()) {
                Ok(Kind::Tune) | Err(_) => Err(bad_key("study")),
                Ok(kind) => Ok(kind),
            },
        }
    }

    /// The error for `key`, which this kind does not take: what the kind
    /// takes, and which kind the key belongs to if any.
    fn unknown(self, key: &str) -> ExperimentError {
        let (kind, allowed) = match self {
            Kind::Match => (
                "a match spec",
                "name, seed, games or hands, duplicate, study, players, pairing, format, anchor and [[variant]] tables",
            ),
            Kind::Sweep => (
                "a sweep study",
                "name, seed, games or hands, duplicate, study, strategy, param, values, vs, objective and [[variant]] tables",
            ),
            Kind::Balance => (
                "a balance study",
                "name, seed, games or hands, study, strategy and [[variant]] tables",
            ),
            Kind::Tune => (
                "a tuning spec",
                "name, seed, games or hands, [[variant]] tables and the [tune] table (which holds the strategy, its params and the opponents)",
            ),
        };
        let hint = if self == Kind::Balance && key == "duplicate" {
            "; a balance study plays every deal once, since with one strategy in both seats a seat-swapped replay repeats the hand"
        } else if self == Kind::Tune {
            ""
        } else if Kind::Match.takes(key) {
            "; it belongs to a match spec (a study plays `strategy`)"
        } else if Kind::Balance.takes(key) {
            "; it belongs to a sweep or balance study (study = \"sweep\" or \"balance\"; a match spec plays `players`)"
        } else if Kind::Sweep.takes(key) {
            "; it belongs to a sweep study (study = \"sweep\")"
        } else {
            ""
        };
        ExperimentError::UnknownKey {
            key: key.to_owned(),
            kind,
            allowed,
            hint,
        }
    }
}

/// Keys every kind of spec takes (but a tuning spec's kind is its
/// `[tune]`, not a `study`).
const COMMON_KEYS: [&str; 6] = ["name", "seed", "games", "hands", "study", "variant"];

/// What a results folder name may be (the `name` key, or the spec file's stem).
const FOLDER_NAME: &str = "a folder name of letters, digits, - and _";

/// Whether `text` is a results folder name: no path separators, no `..`.
fn is_folder_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
}

fn bad(key: &'static str, expected: &'static str) -> ExperimentError {
    ExperimentError::Bad { key, expected }
}

impl<T: DeserializeOwned> SpecFile<T> {
    /// Reads a spec of any kind: valid TOML, only the keys its kind takes,
    /// each of its type. The values are checked further by the kind's
    /// reader ([`Experiment::from_toml`], the tuning layer's).
    ///
    /// # Errors
    /// [`ExperimentError`] naming the key and what it takes.
    pub fn read(text: &str) -> Result<(Kind, SpecFile<T>), ExperimentError> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| ExperimentError::Toml(e.to_string()))?;
        let kind = Kind::of(&table)?;
        if let Some(key) = table.keys().find(|k| !kind.takes(k)) {
            return Err(kind.unknown(key));
        }
        let file = serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
            let path = e.path().to_string();
            let key = path.split(['.', '[']).next().unwrap_or_default();
            expected(key).unwrap_or_else(|| ExperimentError::Value {
                path,
                message: e.into_inner().message().to_owned(),
            })
        })?;
        Ok((kind, file))
    }
}

impl Experiment {
    /// Parses and validates a spec.
    ///
    /// # Errors
    /// [`ExperimentError`] naming the key and what it takes.
    pub fn from_toml(text: &str) -> Result<Experiment, ExperimentError> {
        let (kind, file) = SpecFile::<toml::Table>::read(text)?;
        let name = match file.name {
            Some(name) if !is_folder_name(&name) => return Err(bad_key("name")),
            name => name,
        };
        let seed = file.seed.ok_or(ExperimentError::Missing("seed"))?;
        let amount = match (file.games, file.hands) {
            (Some(g), None) => Work::Games(g.get()),
            (None, Some(h)) => Work::Hands(h.get()),
            (Some(_), Some(_)) => {
                return Err(bad("games", "given alone: games or hands, not both"));
            }
            (None, None) => return Err(ExperimentError::Missing("games or hands")),
        };
        let duplicate = file.duplicate.unwrap_or(true);
        let text_key = |key: &'static str, value: Option<Text>| match value {
            None => Err(ExperimentError::Missing(key)),
            Some(value) => {
                let text = value.into_string();
                if text.trim().is_empty() {
                    Err(ExperimentError::Empty(key))
                } else {
                    Ok(text)
                }
            }
        };
        let study = match kind {
            Kind::Match => Study::Match,
            Kind::Sweep => Study::Sweep(Sweep {
                strategy: text_key("strategy", file.strategy)?,
                param: text_key("param", file.param)?,
                values: text_key("values", file.values)?,
                vs: text_key("vs", file.vs)?,
                objective: file.objective,
            }),
            Kind::Balance => Study::Balance {
                strategy: text_key("strategy", file.strategy)?,
            },
            Kind::Tune => return Err(ExperimentError::TuneSpec),
        };
        // The key check leaves `players` to match specs.
        let players = match (file.players, &study) {
            (Some(players), _) => players,
            (None, Study::Match) => return Err(ExperimentError::Missing("players")),
            (None, _) => Vec::new(),
        };
        let pairing_given = file.pairing.is_some();
        let pairing = file.pairing.unwrap_or(Pairing::HeadToHead);
        let format = match file.format {
            None | Some(FormatKey::Two) => None,
            Some(FormatKey::Three) => Some(Format::Three),
            Some(FormatKey::Partnership) => Some(Format::Partnership),
        };
        if let Some(format) = format {
            if pairing_given {
                return Err(bad(
                    "pairing",
                    "left out with format = \"three\" or \"partnership\": all the players sit at one table",
                ));
            }
            if players.len() != format.players() {
                return Err(ExperimentError::FormatPlayers {
                    format: format.name(),
                    needed: format.players(),
                    given: players.len(),
                });
            }
            if matches!(amount, Work::Hands(_)) {
                return Err(bad(
                    "hands",
                    "left out with format = \"three\" or \"partnership\": they are played in whole games (`games`)",
                ));
            }
        }
        if study == Study::Match && players.len() < 2 {
            return Err(bad("players", "at least two strategies"));
        }
        if study == Study::Match
            && format.is_none()
            && pairing == Pairing::HeadToHead
            && players.len() > 2
        {
            return Err(ExperimentError::HeadToHeadPlayers {
                given: players.len(),
                default: if pairing_given {
                    ""
                } else {
                    " (the default without `pairing`)"
                },
            });
        }
        // Which player is rated 0 (checked against the players when they
        // are resolved, and that there are three or more).
        let anchor = match file.anchor {
            Some(anchor) if anchor.trim().is_empty() => {
                return Err(ExperimentError::Empty("anchor"));
            }
            anchor => anchor,
        };
        let variants = match file.variant {
            None => vec![("standard".to_owned(), Rules::standard())],
            Some(items) if !items.is_empty() => {
                items.iter().map(variant).collect::<Result<Vec<_>, _>>()?
            }
            Some(_) => return Err(bad_key("variant")),
        };
        let mut names: Vec<&String> = variants.iter().map(|(n, _)| n).collect();
        names.sort();
        names.dedup();
        if names.len() != variants.len() {
            return Err(bad("variant", "tables with distinct names"));
        }
        Ok(Experiment {
            name,
            seed,
            amount,
            duplicate,
            players,
            pairing,
            format,
            variants,
            study,
            anchor,
        })
    }

    /// The results folder's name: `name`, or else the stem of the spec's
    /// file name, held to the same rule as `name` (a spec called
    /// `...toml` would otherwise write to `results/..`).
    ///
    /// # Errors
    /// [`ExperimentError::FileName`] when there is no `name` and the file
    /// name gives no valid folder name.
    pub fn folder_name(&self, spec: &Path) -> Result<String, ExperimentError> {
        if let Some(name) = &self.name {
            return Ok(name.clone());
        }
        let stem = spec.file_stem().map(|s| s.to_string_lossy().into_owned());
        match stem {
            Some(stem) if is_folder_name(&stem) => Ok(stem),
            _ => Err(ExperimentError::FileName(spec.file_name().map_or_else(
                || spec.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            ))),
        }
    }

    /// The pairings as (A, B) indices into `players`.
    #[must_use]
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        self.pairing.pairs(self.players.len())
    }
}

impl Pairing {
    /// The pairings of `n` players as (A, B) indices.
    #[must_use]
    pub fn pairs(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Pairing::HeadToHead => vec![(0, 1)],
            Pairing::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Pairing::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }
}

fn variant(table: &toml::Table) -> Result<(String, Rules), ExperimentError> {
    let name = table
        .get("name")
        .and_then(|v| v.as_str())
        .ok_or_else(|| bad_key("variant"))?
        .to_owned();
    let mut knobs = table.clone();
    knobs.remove("name");
    let named_preset = PRESETS.contains(&name.as_str());
    let given_preset = knobs.contains_key("preset");
    if !given_preset && named_preset {
        knobs.insert("preset".into(), toml::Value::String(name.clone()));
    }
    let rules = Rules::from_toml(&toml::to_string(&knobs).expect("a TOML table serialises"))
        .map_err(|source| ExperimentError::Variant {
            name: name.clone(),
            source,
        })?;
    if !given_preset && !named_preset {
        return Err(ExperimentError::NoPreset(name));
    }
    Ok((name, rules))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_spec() {
        let e = Experiment::from_toml(
            "seed = 3\ngames = 10\nplayers = [\"greedy\", \"simple\", \"random\"]\npairing = \"round_robin\"\n\
             [[variant]]\nname = \"hoyle\"\n[[variant]]\nname = \"flat\"\npreset = \"oklahoma\"\nspade_upcard_doubles = false\n",
        )
        .unwrap();
        assert_eq!(e.amount, Work::Games(10));
        assert!(e.duplicate);
        assert_eq!(e.pairings(), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(e.variants[0], ("hoyle".into(), Rules::hoyle()));
        assert!(!e.variants[1].1.spade_upcard_doubles && e.variants[1].1.game_target == 150);
    }

    #[test]
    fn errors_name_the_key() {
        let e = |t: &str| Experiment::from_toml(t).unwrap_err().to_string();
        let base = "seed = 1\ngames = 5\nplayers = [\"greedy\", \"simple\"]\n";
        assert!(e(&format!("{base}gmaes = 3")).contains("unknown key `gmaes`"));
        assert!(e("games = 5\nplayers = [\"a\", \"b\"]").contains("missing `seed`"));
        assert!(e("seed = 1\nplayers = [\"a\", \"b\"]").contains("games or hands"));
        assert!(e("seed = 1\ngames = 0\nplayers = [\"a\", \"b\"]").contains("positive integer"));
        assert!(e("seed = 1\ngames = 5\nplayers = [\"a\"]").contains("at least two"));
        assert!(e(&format!("{base}pairing = \"swiss\"")).contains("round_robin"));
        assert!(
            e(&format!("{base}[[variant]]\nname = \"x\"\ngin_bonsu = 3"))
                .contains("variant `x`: unknown knob `gin_bonsu`")
        );
        assert!(
            e(&format!(
                "{base}[[variant]]\nname = \"hoyle\"\n[[variant]]\nname = \"hoyle\""
            ))
            .contains("distinct")
        );
        assert!(e(&format!("{base}name = \"../x\"")).contains("folder name"));
        assert!(e("seed = ").contains("invalid TOML"));
        assert!(
            e("seed = 1\ngames = 5\nstudy = \"sweep\"\nstrategy = \"greedy\"")
                .contains("missing `param`")
        );
        assert!(e("seed = 1\ngames = 5\nstudy = \"tour\"").contains("balance"));
        let sweep = Experiment::from_toml(
            "seed = 1\ngames = 5\nstudy = \"sweep\"\nstrategy = \"greedy\"\nparam = \"knock_at\"\nvalues = \"0..=3\"\nvs = \"simple\"",
        )
        .unwrap();
        assert!(matches!(sweep.study, Study::Sweep(_)));
    }

    #[test]
    fn objective_and_anchor_keys() {
        let sweep = "seed = 1\nhands = 5\nstudy = \"sweep\"\nstrategy = \"greedy\"\nparam = \"knock_at\"\nvalues = \"1,2\"\nvs = \"simple\"\n";
        let parsed = Experiment::from_toml(&format!("{sweep}objective = \"elo\"")).unwrap();
        let Study::Sweep(s) = parsed.study else {
            panic!("a sweep")
        };
        assert_eq!(s.objective, Some(crate::report::Objective::Elo));
        for bad in ["\"point\"", "3"] {
            let e = Experiment::from_toml(&format!("{sweep}objective = {bad}"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("`objective` must be \"games\", \"hands\""),
                "{e}"
            );
        }
        let rr =
            "seed = 1\ngames = 5\nplayers = [\"a\", \"b\", \"c\"]\npairing = \"round_robin\"\n";
        let parsed = Experiment::from_toml(&format!("{rr}anchor = \"b\"")).unwrap();
        assert_eq!(parsed.anchor.as_deref(), Some("b"));
        let e = Experiment::from_toml(&format!("{rr}anchor = 1"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`anchor` must be a string"), "{e}");
        // Each belongs to its kind of spec.
        let e = Experiment::from_toml(&format!("{sweep}anchor = \"b\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown key `anchor`"), "{e}");
        let e = Experiment::from_toml(&format!("{rr}objective = \"elo\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown key `objective`"), "{e}");
    }

    #[test]
    fn the_file_name_is_held_to_the_rule_of_name() {
        let base = "seed = 1\ngames = 5\nplayers = [\"greedy\", \"simple\"]\n";
        let unnamed = Experiment::from_toml(base).unwrap();
        let folder = |path: &str| unnamed.folder_name(Path::new(path));
        assert_eq!(folder("experiments/quick.toml").unwrap(), "quick");
        assert_eq!(folder("my-run_2").unwrap(), "my-run_2");
        for path in ["...toml", "x/...toml", "..", "a b.toml", "x/.toml", "/"] {
            let e = folder(path).unwrap_err().to_string();
            assert!(e.contains("set `name` or rename the file"), "{path}: {e}");
        }
        let named = Experiment::from_toml(&format!("{base}name = \"kept\"")).unwrap();
        assert_eq!(named.folder_name(Path::new("...toml")).unwrap(), "kept");
    }

    #[test]
    fn an_empty_value_is_called_empty() {
        let sweep = "seed = 1\ngames = 5\nstudy = \"sweep\"\nstrategy = \"greedy\"\nparam = \"knock_at\"\nvs = \"simple\"\n";
        let e = Experiment::from_toml(&format!("{sweep}values = \"\""))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "`values` is empty: it needs a value (see experiments/README.md)"
        );
        let e = Experiment::from_toml(&format!("{sweep}values = true"))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "`values` must be a string");
    }

    #[test]
    fn each_kind_of_spec_takes_only_its_keys() {
        let e = |t: &str| Experiment::from_toml(t).unwrap_err().to_string();
        let game = "seed = 1\ngames = 5\n";
        let matches = format!("{game}players = [\"greedy\", \"simple\"]\n");
        let balance = format!("{game}study = \"balance\"\nstrategy = \"greedy\"\n");
        let sweep = format!(
            "{game}study = \"sweep\"\nstrategy = \"greedy\"\nparam = \"knock_at\"\nvalues = \"1,2\"\nvs = \"simple\"\n"
        );
        let cases: [(String, &[&str]); 5] = [
            (
                format!("{matches}strategy = \"mc\""),
                &[
                    "unknown key `strategy`: a match spec takes",
                    "players, pairing, format, anchor and [[variant]]",
                    "belongs to a sweep or balance study",
                ],
            ),
            (
                format!("{balance}param = \"knock_at\""),
                &[
                    "unknown key `param`: a balance study takes",
                    "study, strategy and [[variant]]",
                    "belongs to a sweep study",
                ],
            ),
            (
                format!("{balance}players = [\"greedy\"]"),
                &[
                    "unknown key `players`: a balance study",
                    "belongs to a match spec",
                ],
            ),
            (
                format!("{sweep}pairing = \"gauntlet\""),
                &[
                    "unknown key `pairing`: a sweep study takes",
                    "belongs to a match spec",
                ],
            ),
            (
                format!("{sweep}vss = \"simple\""),
                &[
                    "unknown key `vss`: a sweep study takes",
                    "param, values, vs, objective and",
                ],
            ),
        ];
        for (text, needles) in cases {
            let message = e(&text);
            assert!(needles.iter().all(|n| message.contains(n)), "{message}");
        }
        assert!(!e(&format!("{sweep}vss = 1")).contains("belongs"));
        for good in [&matches, &balance, &sweep] {
            Experiment::from_toml(good).unwrap();
        }
    }

    #[test]
    fn head_to_head_takes_two_players() {
        let e = |t: &str| Experiment::from_toml(t).unwrap_err().to_string();
        let three = "seed = 1\ngames = 5\nplayers = [\"greedy\", \"simple\", \"random\"]\n";
        for (pairing, default) in [("pairing = \"head_to_head\"", false), ("", true)] {
            let message = e(&format!("{three}{pairing}"));
            assert!(
                message.contains("pairing = \"head_to_head\"")
                    && message.contains("exactly 2 players, but `players` lists 3")
                    && message.contains("round_robin")
                    && message.contains("gauntlet")
                    && message.contains("the default") == default,
                "{message}"
            );
        }
        let gauntlet = Experiment::from_toml(&format!("{three}pairing = \"gauntlet\"")).unwrap();
        assert_eq!(gauntlet.pairings(), vec![(0, 1), (0, 2)]);
    }

    #[test]
    fn a_variant_not_named_after_a_preset_names_its_preset() {
        let e = |t: &str| Experiment::from_toml(t).unwrap_err().to_string();
        let base = "seed = 1\ngames = 5\nplayers = [\"greedy\", \"simple\"]\n[[variant]]\n";
        for variant in ["name = \"oklahom\"", "name = \"oklahom\"\ngin_bonus = 30"] {
            let message = e(&format!("{base}{variant}"));
            assert!(
                message.contains("variant `oklahom`: `oklahom` is not a preset")
                    && message.contains("standard, hoyle, oklahoma, eaai")
                    && message.contains("preset = \"NAME\""),
                "{message}"
            );
        }
        let flat = Experiment::from_toml(&format!(
            "{base}name = \"flat\"\npreset = \"standard\"\ngin_bonus = 30"
        ))
        .unwrap();
        assert_eq!(flat.variants[0].0, "flat");
        assert_eq!(flat.variants[0].1.gin_bonus, 30);
        let named = Experiment::from_toml(&format!("{base}name = \"oklahoma\"")).unwrap();
        assert_eq!(named.variants[0].1, Rules::oklahoma());
    }

    /// The shipped specs stay valid.
    #[test]
    fn every_shipped_spec_loads() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments");
        let mut specs = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                // A `[tune]` spec is `ginlab run`'s other kind.
                let read = if crate::tune::spec::is_tune_spec(&text) {
                    crate::tune::spec::TuneSpec::from_toml(&text).map(drop)
                } else {
                    Experiment::from_toml(&text)
                        .map(drop)
                        .map_err(|e| e.to_string())
                };
                if let Err(e) = read {
                    panic!("{}: {e}", path.display());
                }
                specs += 1;
            }
        }
        assert!(specs >= 11, "{specs} specs in {dir}");
    }
}
