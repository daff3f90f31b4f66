//! Strategy profiles: a built-in kind plus parameters, written inline as
//! `kind` or `kind:key=value,key=value` (e.g. `greedy:knock_at=7`).

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::external::{Bot, BotSpec, split_command};
use super::{Greedy, McParams, MonteCarlo, Random, Simple, Strategy, Tracker};
use crate::echo::echo;
use crate::seed::bot_seed;
use crate::suggest::did_you_mean;

/// A built-in strategy and its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Profile {
    /// [`Random`]: `knock_prob` (0 to 1, default 0.5).
    Random {
        /// Probability of knocking when a knock is legal.
        knock_prob: f64,
    },
    /// [`Simple`], the EAAI reference player (no parameters).
    Simple,
    /// [`Greedy`]: `knock_at` (0 to 10, default the knock limit) and an
    /// optional `schedule` by stock size, written `20:5/10:2` (with at most
    /// 20 cards in the stock knock at 5, with at most 10 at 2).
    Greedy {
        /// Knock at or below this deadwood.
        knock_at: Option<u8>,
        /// `(stock size, knock_at)` pairs, larger stock sizes first.
        schedule: Vec<(u32, u8)>,
    },
    /// [`Tracker`]: `knock_at` (0 to 10), `safety` (0 to 20), `slack` (0 to
    /// 20), `outs` (0 to 20), `draw_outs` (0 to 20), `hold` (0 to 5),
    /// `margin` (−50 to 50), `late_stock` (0 to 31).
    Tracker(Tracker),
    /// [`MonteCarlo`]: `samples`, `rollout`, `weighting`, `objective`,
    /// `discards`, `seed` (see [`McParams`]).
    Mc(McParams),
    /// [`External`](super::External): a bot process speaking the protocol of
    /// `docs/PROTOCOL.md`; inline `exec:COMMAND`, or a TOML profile with
    /// `kind = "external"`, `command`, `timeout_ms`, `options`, `log_dir`.
    External(Arc<Bot>),
}

/// The built-in kinds, in the order help texts and messages list them.
pub const KINDS: [&str; 5] = ["random", "simple", "greedy", "tracker", "mc"];

/// What is wrong with a profile text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// No built-in kind has this name.
    #[error(
        "unknown strategy `{}`: the built-in kinds are {}, and exec:COMMAND runs an external bot{}",
        echo(.0),
        KINDS.join(", "),
        did_you_mean(.0, KINDS)
    )]
    UnknownKind(String),
    /// A parameter the kind does not have.
    #[error("strategy `{kind}` has no parameter `{key}`; it takes: {allowed}")]
    UnknownKey {
        /// The kind.
        kind: &'static str,
        /// The parameter given.
        key: String,
        /// The parameters it takes.
        allowed: &'static str,
    },
    /// A parameter value out of range or malformed.
    #[error("bad value `{value}` for `{kind}:{key}`: expected {expected}")]
    BadValue {
        /// The kind.
        kind: &'static str,
        /// The parameter.
        key: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// A parameter not written `key=value`.
    #[error("`{0}` is not a parameter: write kind:key=value,key=value")]
    Malformed(String),
    /// A parameter given twice in the inline form.
    #[error("`{text}` gives `{key}` twice: give each parameter once")]
    DuplicateKey {
        /// The parameter.
        key: String,
        /// The inline profile.
        text: String,
    },
    /// Two parameters that exclude each other.
    #[error("strategy `{kind}` {message}")]
    Conflict {
        /// The kind.
        kind: &'static str,
        /// Which parameters, and what to give instead.
        message: &'static str,
    },
    /// A profile file that is not valid TOML or has no `kind`.
    #[error("{0}")]
    File(String),
}

/// The type of value a parameter takes, as a profile file must write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// A TOML integer (`knock_at = 7`).
    Integer,
    /// A TOML integer or float (`knock_prob = 0.5`, `safety = 4`).
    Number,
    /// A TOML boolean (`calibrate = false`).
    Boolean,
    /// A TOML string: a word or a schedule (`rollout = "tracker"`).
    Text,
}

/// One parameter's value as given: inline text, or a profile file's TOML
/// value.
///
/// Inline, every value is text (`greedy:knock_at=7`), and each parameter
/// reads the text as it needs. A file's value already has a TOML type,
/// and it must be the parameter's [`ParamType`], as a rules file's knobs
/// must: `knock_at = "7"` and `calibrate = "true"` are refused, not read
/// through their text. A value of the right type is then read through its
/// TOML text, so a file and the inline form accept the same numbers.
#[derive(Clone, Copy, Debug)]
pub enum ParamValue<'a> {
    /// Inline text, any type.
    Text(&'a str),
    /// A profile file's value.
    Toml(&'a toml::Value),
}

impl<'a> ParamValue<'a> {
    /// The value's text for a parameter of type `wanted` (trimmed): inline
    /// text as it is; a TOML value only if it has that type (an integer is
    /// also a number), else `None`.
    #[must_use]
    pub fn text(self, wanted: ParamType) -> Option<Cow<'a, str>> {
        use toml::Value;
        match self {
            ParamValue::Text(text) => Some(Cow::Borrowed(text.trim())),
            ParamValue::Toml(value) => match (wanted, value) {
                (ParamType::Text, Value::String(text)) => Some(Cow::Borrowed(text.trim())),
                (ParamType::Integer | ParamType::Number, Value::Integer(_))
                | (ParamType::Number, Value::Float(_))
                | (ParamType::Boolean, Value::Boolean(_)) => Some(Cow::Owned(value.to_string())),
                _ => None,
            },
        }
    }

    /// [`ParamValue::text`] read as a `T`.
    #[must_use]
    pub fn parse<T: FromStr>(self, wanted: ParamType) -> Option<T> {
        self.text(wanted)?.parse().ok()
    }

    /// The value as messages show it: the text as given, or the TOML value
    /// as written (a string in quotes, so `"7"` is not taken for 7).
    #[must_use]
    pub fn shown(self) -> String {
        match self {
            ParamValue::Text(text) => text.trim().to_owned(),
            ParamValue::Toml(value) => value.to_string(),
        }
    }
}

impl Profile {
    /// A fresh strategy for one game or seat; its random choices come from `seed`.
    #[must_use]
    pub fn build(&self, seed: u64) -> Box<dyn Strategy> {
        match *self {
            Profile::Random { knock_prob } => Box::new(Random::new(seed, knock_prob)),
            Profile::Simple => Box::new(Simple::new(seed)),
            Profile::Greedy {
                knock_at,
                ref schedule,
            } => Box::new(Greedy::new(knock_at, schedule.clone())),
            Profile::Tracker(ref tracker) => Box::new(tracker.clone()),
            Profile::Mc(ref params) => Box::new(MonteCarlo::new(params.clone(), seed)),
            // A bot is told a one-way function of the seed: the seed
            // itself would give the deck away (see `crate::seed`).
            Profile::External(ref bot) => Box::new(bot.checkout(bot_seed(seed))),
        }
    }
}

impl Profile {
    /// A profile from TOML: `kind = "greedy"` plus the kind's parameters
    /// (`knock_at = 7`, `schedule = "20:5/10:2"`), and an optional `name`
    /// (returned beside the profile). Unknown keys are errors, and so are
    /// values of another TOML type than the parameter's ([`ParamValue`]).
    ///
    /// # Errors
    /// Invalid TOML, a missing or unknown `kind`, or a bad parameter.
    pub fn from_toml(text: &str) -> Result<(Profile, Option<String>), ProfileError> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| ProfileError::File(format!("invalid TOML: {e}")))?;
        let kind = match table.get("kind") {
            Some(toml::Value::String(kind)) => kind.clone(),
            _ => {
                return Err(ProfileError::File(
                    "a profile needs kind = \"random\", \"simple\", \"greedy\", \"tracker\", \"mc\" or \"external\"".into(),
                ));
            }
        };
        let name = match table.get("name") {
            None => None,
            Some(toml::Value::String(name)) => Some(name.clone()),
            Some(other) => {
                return Err(ProfileError::File(format!(
                    "the profile's name must be a string, not {other}"
                )));
            }
        };
        if kind == "external" {
            return Ok((external_from_toml(&table)?, name));
        }
        // Each value is one parameter's, typed: it is not pasted into the
        // inline form, where a comma in it would start another parameter.
        let mut profile = Profile::of_kind(&kind)?;
        for (key, value) in table.iter().filter(|(k, _)| *k != "kind" && *k != "name") {
            profile.set(key, ParamValue::Toml(value))?;
        }
        Ok((profile, name))
    }

    /// The built-in kind `name` with its default parameters.
    fn of_kind(name: &str) -> Result<Profile, ProfileError> {
        Ok(match name {
            "random" => Profile::Random { knock_prob: 0.5 },
            "simple" => Profile::Simple,
            "greedy" => Profile::Greedy {
                knock_at: None,
                schedule: Vec::new(),
            },
            "tracker" => Profile::Tracker(Tracker::default()),
            "mc" => Profile::Mc(McParams::default()),
            other => return Err(ProfileError::UnknownKind(other.to_owned())),
        })
    }
}

impl FromStr for Profile {
    type Err = ProfileError;

    fn from_str(text: &str) -> Result<Profile, ProfileError> {
        if let Some(command) = text.trim_start().strip_prefix("exec:") {
            let words = split_command(command)
                .filter(|w| w.first().is_some_and(|program| !program.is_empty()))
                .ok_or_else(|| ProfileError::BadValue {
                    kind: "exec",
                    key: "command",
                    value: command.to_owned(),
                    expected: "a command line naming a program, e.g. exec:python3 bot.py (quotes must close)",
                })?;
            return Ok(Profile::External(Arc::new(Bot::new(BotSpec::new(words)))));
        }
        let (kind, params) = text.split_once(':').unwrap_or((text, ""));
        let mut profile = Profile::of_kind(kind.trim())?;
        let mut given = Vec::new();
        for param in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = param
                .split_once('=')
                .ok_or_else(|| ProfileError::Malformed(param.to_owned()))?;
            // The last of two values would win silently: say so instead.
            let key = key.trim();
            if given.contains(&key) {
                return Err(ProfileError::DuplicateKey {
                    key: key.to_owned(),
                    text: text.to_owned(),
                });
            }
            given.push(key);
            profile.set(key, ParamValue::Text(value))?;
        }
        Ok(profile)
    }
}

impl Profile {
    /// This profile with parameter `key` set from its inline text `value`,
    /// whatever it was: a point of a sweep over `key`.
    ///
    /// # Errors
    /// A parameter the kind does not have (an external bot has none here)
    /// or a bad value.
    pub fn with_param(&self, key: &str, value: &str) -> Result<Profile, ProfileError> {
        let mut profile = self.clone();
        profile.set(key, ParamValue::Text(value))?;
        Ok(profile)
    }

    /// Sets parameter `key` (of a built-in kind) from its value.
    fn set(&mut self, key: &str, value: ParamValue<'_>) -> Result<(), ProfileError> {
        use ParamType::{Integer, Number, Text};
        let key = key.trim();
        match (self, key) {
            (Profile::Random { knock_prob }, "knock_prob") => {
                *knock_prob = value
                    .parse::<f64>(Number)
                    .filter(|p| (0.0..=1.0).contains(p))
                    .ok_or_else(|| ProfileError::BadValue {
                        kind: "random",
                        key: "knock_prob",
                        value: value.shown(),
                        expected: "a number from 0 to 1",
                    })?;
            }
            (Profile::Greedy { schedule, .. }, "schedule") => {
                *schedule = value
                    .text(Text)
                    .and_then(|text| parse_schedule(&text))
                    .ok_or_else(|| ProfileError::BadValue {
                        kind: "greedy",
                        key: "schedule",
                        value: value.shown(),
                        expected: "STOCK:KNOCK pairs joined by /, stock sizes decreasing, knock 0 to 10 (e.g. 20:5/10:2)",
                    })?;
            }
            (Profile::Greedy { knock_at, .. }, "knock_at") => {
                *knock_at = Some(value.parse::<u8>(Integer).filter(|k| *k <= 10).ok_or_else(
                    || ProfileError::BadValue {
                        kind: "greedy",
                        key: "knock_at",
                        value: value.shown(),
                        expected: "an integer from 0 to 10",
                    },
                )?);
            }
            (
                Profile::Tracker(t),
                key @ ("knock_at" | "safety" | "slack" | "outs" | "draw_outs" | "hold" | "margin"
                | "late_stock"),
            ) => {
                let (key, expected, range): (&'static str, &'static str, (f32, f32)) = match key {
                    "knock_at" => ("knock_at", "an integer from 0 to 10", (0.0, 10.0)),
                    "safety" => ("safety", "a number from 0 to 20", (0.0, 20.0)),
                    "slack" => ("slack", "an integer from 0 to 20", (0.0, 20.0)),
                    "outs" => ("outs", "a number from 0 to 20", (0.0, 20.0)),
                    "draw_outs" => ("draw_outs", "a number from 0 to 20", (0.0, 20.0)),
                    "hold" => ("hold", "a number from 0 to 5", (0.0, 5.0)),
                    "margin" => ("margin", "a number from -50 to 50", (-50.0, 50.0)),
                    _ => ("late_stock", "an integer from 0 to 31", (0.0, 31.0)),
                };
                let integer = matches!(key, "knock_at" | "slack" | "late_stock");
                let x = value
                    .parse::<f32>(if integer { Integer } else { Number })
                    .filter(|x| (range.0..=range.1).contains(x) && (!integer || x.fract() == 0.0))
                    .ok_or_else(|| ProfileError::BadValue {
                        kind: "tracker",
                        key,
                        value: value.shown(),
                        expected,
                    })?;
                match key {
                    "knock_at" => t.knock_at = Some(x as u8),
                    "safety" => t.safety = x,
                    "slack" => t.slack = x as u8,
                    "outs" => t.outs = x,
                    "draw_outs" => t.draw_outs = x,
                    "hold" => t.hold = x,
                    "margin" => t.margin = x,
                    _ => t.late_stock = x as u32,
                }
            }
            (Profile::Mc(params), key) => params.set(key, value)?,
            (profile, key) => {
                let (kind, allowed) = match profile {
                    Profile::Random { .. } => ("random", "knock_prob"),
                    Profile::Simple => ("simple", "(none)"),
                    Profile::Greedy { .. } => ("greedy", "knock_at, schedule"),
                    Profile::Mc(_) => ("mc", McParams::KEYS),
                    Profile::External(_) => (
                        "exec",
                        "(none inline; a profile file has command, timeout_ms, options, log_dir)",
                    ),
                    Profile::Tracker(_) => (
                        "tracker",
                        "knock_at, safety, slack, outs, draw_outs, hold, margin, late_stock",
                    ),
                };
                return Err(ProfileError::UnknownKey {
                    kind,
                    key: key.to_owned(),
                    allowed,
                });
            }
        }
        Ok(())
    }
}

/// An external profile from its TOML table (`kind = "external"`).
fn external_from_toml(table: &toml::Table) -> Result<Profile, ProfileError> {
    const KEYS: &str = "command, timeout_ms, options, log_dir (and name)";
    let bad =
        |key: &'static str, value: &toml::Value, expected: &'static str| ProfileError::BadValue {
            kind: "external",
            key,
            value: value.to_string(),
            expected,
        };
    let mut spec = BotSpec::new(Vec::new());
    for (key, value) in table {
        match key.as_str() {
            "kind" | "name" => {}
            "command" => {
                let expected = "a non-empty array of strings, e.g. [\"python3\", \"bot.py\"]";
                spec.command = match value {
                    toml::Value::Array(words) => words
                        .iter()
                        .map(|w| w.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| bad("command", value, expected))?,
                    toml::Value::String(line) => {
                        split_command(line).ok_or_else(|| bad("command", value, expected))?
                    }
                    _ => return Err(bad("command", value, expected)),
                };
            }
            "timeout_ms" => {
                spec.timeout_ms = value
                    .as_integer()
                    .filter(|t| (1..=3_600_000).contains(t))
                    .ok_or_else(|| bad("timeout_ms", value, "an integer from 1 to 3600000"))?
                    as u64;
            }
            "options" => {
                let table = value
                    .as_table()
                    .ok_or_else(|| bad("options", value, "a table, sent to the bot in hello"))?;
                spec.options = crate::protocol::options_from_toml(table)
                    .map_err(|e| ProfileError::File(format!("external profile: {e}")))?;
            }
            "log_dir" => {
                spec.log_dir = Some(
                    value
                        .as_str()
                        .ok_or_else(|| bad("log_dir", value, "a folder path"))?
                        .into(),
                );
            }
            other => {
                return Err(ProfileError::UnknownKey {
                    kind: "external",
                    key: other.to_owned(),
                    allowed: KEYS,
                });
            }
        }
    }
    if spec.command.is_empty() || spec.command[0].is_empty() {
        return Err(ProfileError::File(
            "an external profile needs command = [\"PROGRAM\", \"ARG\", ...]".into(),
        ));
    }
    Ok(Profile::External(Arc::new(Bot::new(spec))))
}

/// `20:5/10:2` → `[(20, 5), (10, 2)]`; stock sizes must decrease.
fn parse_schedule(text: &str) -> Option<Vec<(u32, u8)>> {
    let mut steps = Vec::new();
    for step in text.split('/') {
        let (stock, knock) = step.trim().split_once(':')?;
        let (stock, knock) = (
            stock.trim().parse::<u32>().ok()?,
            knock.trim().parse::<u8>().ok()?,
        );
        if knock > 10 || steps.last().is_some_and(|&(s, _)| s <= stock) {
            return None;
        }
        steps.push((stock, knock));
    }
    Some(steps)
}

/// The inline form, which parses back to the same profile.
impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Profile::Random { knock_prob } if *knock_prob == 0.5 => f.write_str("random"),
            Profile::Random { knock_prob } => write!(f, "random:knock_prob={knock_prob}"),
            Profile::Simple => f.write_str("simple"),
            Profile::Mc(params) => params.fmt(f),
            Profile::External(bot) => write!(f, "exec:{}", bot.spec().command_line()),
            Profile::Tracker(t) => {
                let d = Tracker::default();
                let mut params = Vec::new();
                if let Some(k) = t.knock_at {
                    params.push(format!("knock_at={k}"));
                }
                if t.safety != d.safety {
                    params.push(format!("safety={}", t.safety));
                }
                if t.slack != d.slack {
                    params.push(format!("slack={}", t.slack));
                }
                if t.outs != d.outs {
                    params.push(format!("outs={}", t.outs));
                }
                if t.draw_outs != d.draw_outs {
                    params.push(format!("draw_outs={}", t.draw_outs));
                }
                if t.hold != d.hold {
                    params.push(format!("hold={}", t.hold));
                }
                if t.margin != d.margin {
                    params.push(format!("margin={}", t.margin));
                }
                if t.late_stock != d.late_stock {
                    params.push(format!("late_stock={}", t.late_stock));
                }
                if params.is_empty() {
                    f.write_str("tracker")
                } else {
                    write!(f, "tracker:{}", params.join(","))
                }
            }
            Profile::Greedy { knock_at, schedule } => {
                f.write_str("greedy")?;
                let mut sep = ':';
                if let Some(k) = knock_at {
                    write!(f, "{sep}knock_at={k}")?;
                    sep = ',';
                }
                if !schedule.is_empty() {
                    let steps: Vec<String> =
                        schedule.iter().map(|(s, k)| format!("{s}:{k}")).collect();
                    write!(f, "{sep}schedule={}", steps.join("/"))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_the_built_ins() {
        for kind in KINDS {
            assert_eq!(Profile::of_kind(kind).unwrap().to_string(), kind);
        }
        let e = "gredy".parse::<Profile>().unwrap_err().to_string();
        assert!(
            e.contains("random, simple, greedy, tracker, mc")
                && e.ends_with("did you mean `greedy`?"),
            "{e}"
        );
    }

    #[test]
    fn parse_and_print() {
        for text in [
            "random",
            "random:knock_prob=0.25",
            "simple",
            "greedy",
            "greedy:knock_at=7",
        ] {
            let profile: Profile = text.parse().unwrap();
            assert_eq!(profile.to_string(), text);
        }
        assert_eq!(
            "greedy: knock_at = 0".parse::<Profile>(),
            Ok(Profile::Greedy {
                knock_at: Some(0),
                schedule: Vec::new()
            })
        );
    }

    #[test]
    fn from_toml() {
        let (p, name) =
            Profile::from_toml("kind = \"greedy\"\nknock_at = 7\nname = \"g7\"\n").unwrap();
        assert_eq!(
            (p.to_string().as_str(), name.as_deref()),
            ("greedy:knock_at=7", Some("g7"))
        );
        let (p, _) = Profile::from_toml("kind = \"greedy\"\nschedule = \"20:5/10:2\"").unwrap();
        assert_eq!(p.to_string(), "greedy:schedule=20:5/10:2");
        let e = |t: &str| Profile::from_toml(t).unwrap_err().to_string();
        assert!(e("knock_at = 3").contains("needs kind"));
        assert!(e("kind = \"greedy\"\nknock = 3").contains("no parameter `knock`"));
        assert!(e("kind = \"greedy\"\nknock_at = 30").contains("0 to 10"));
        assert!(e("kind = ").contains("invalid TOML"));
    }

    /// Found by tests/fuzz.rs: a profile file was pasted into the inline
    /// form, so a comma in a value started another parameter and a `kind`
    /// could carry parameters or a command; a non-string name was taken as
    /// text; an inline `exec:` could name an empty program.
    #[test]
    fn file_values_stay_whole() {
        let e = |t: &str| Profile::from_toml(t).unwrap_err().to_string();
        let message = e("kind = \"greedy\"\nschedule = \"20:5,knock_at=3\"");
        assert!(
            message.contains("bad value `\"20:5,knock_at=3\"` for `greedy:schedule`"),
            "{message}"
        );
        let message = e("kind = \"greedy\"\nknock_at = [1, 2]");
        assert!(message.contains("bad value `[1, 2]`"), "{message}");
        assert!(e("kind = \"greedy:knock_at=3\"").contains("unknown strategy `greedy:knock_at=3`"));
        assert!(e("kind = \"exec:python3 bot.py\"").contains("unknown strategy"));
        assert!(e("kind = \"greedy\"\nname = 3").contains("name must be a string"));
        assert!(e("knock_at = 3").contains("\"mc\" or \"external\""));
        let e = |t: &str| t.parse::<Profile>().unwrap_err().to_string();
        assert!(e("exec:''").contains("naming a program"));
        assert!(e("exec:'' bot.py").contains("naming a program"));
    }

    #[test]
    fn file_values_must_have_the_parameters_types() {
        let e = |t: &str| Profile::from_toml(t).unwrap_err().to_string();
        assert_eq!(
            e("kind = \"greedy\"\nknock_at = \"7\""),
            "bad value `\"7\"` for `greedy:knock_at`: expected an integer from 0 to 10"
        );
        for (kind, param) in [
            ("random", "knock_prob = \"0.5\""),
            ("greedy", "knock_at = 7.0"),
            ("greedy", "schedule = 20"),
            ("tracker", "knock_at = \"7\""),
            ("tracker", "slack = 3.0"),
            ("tracker", "safety = \"4\""),
            ("tracker", "margin = true"),
            ("mc", "samples = \"16\""),
            ("mc", "calibrate = \"false\""),
            ("mc", "seed = \"7\""),
            ("mc", "confidence = \"2\""),
            ("mc", "rollout = 1"),
            ("mc", "objective = [\"game\"]"),
        ] {
            let message = e(&format!("kind = \"{kind}\"\n{param}"));
            let (key, value) = param.split_once(" = ").unwrap();
            assert!(
                message.contains(&format!("bad value `{value}` for `{kind}:{key}`")),
                "{message}"
            );
        }
        // With their types, values load as their text does inline (an
        // integer is also a number).
        for (kind, params, inline) in [
            ("random", "knock_prob = 1", "random:knock_prob=1"),
            (
                "greedy",
                "knock_at = 7\nschedule = \" 20:5/10:2\"",
                "greedy:knock_at=7,schedule=20:5/10:2",
            ),
            (
                "tracker",
                "knock_at = 9\nsafety = 4\nslack = 2\nouts = 1.5\nmargin = -30.5",
                "tracker:knock_at=9,safety=4,slack=2,outs=1.5,margin=-30.5",
            ),
            (
                "mc",
                "samples = 16\nrollout = \"tracker\"\nconfidence = 1\ncalibrate = false\nseed = 7",
                "mc:samples=16,rollout=tracker,confidence=1,calibrate=false,seed=7",
            ),
        ] {
            let (profile, _) = Profile::from_toml(&format!("kind = \"{kind}\"\n{params}")).unwrap();
            assert_eq!(profile, inline.parse().unwrap(), "{params}");
        }
    }

    #[test]
    fn errors() {
        let e = |t: &str| t.parse::<Profile>().unwrap_err().to_string();
        assert!(e("gredy").contains("random, simple, greedy, tracker, mc"));
        assert!(e("tracker:safety=-1").contains("0 to 20"));
        assert!(e("tracker:slack=1.5").contains("integer"));
        assert!(
            e("tracker:speed=1")
                .contains("knock_at, safety, slack, outs, draw_outs, hold, margin, late_stock")
        );
        assert!(e("greedy:knock=3").contains("takes: knock_at, schedule"));
        assert!(e("greedy:schedule=10:2/20:5").contains("decreasing"));
        assert!(e("greedy:schedule=10").contains("STOCK:KNOCK"));
        assert!(e("greedy:knock_at=11").contains("0 to 10"));
        assert!(e("random:knock_prob=2").contains("0 to 1"));
        assert!(e("simple:x=1").contains("no parameter `x`"));
        assert!(e("greedy:knock_at").contains("key=value"));
    }

    #[test]
    fn a_parameter_given_twice_is_an_error() {
        let e = |t: &str| t.parse::<Profile>().unwrap_err().to_string();
        assert_eq!(
            e("greedy:knock_at=1,knock_at=2"),
            "`greedy:knock_at=1,knock_at=2` gives `knock_at` twice: give each parameter once"
        );
        assert!(e("tracker:safety=1, slack=2 ,safety =1").contains("gives `safety` twice"));
        assert!(e("mc:samples=8,seed=1,samples=8").contains("gives `samples` twice"));
        // A sweep sets a parameter the base profile already has.
        let base: Profile = "greedy:knock_at=7,schedule=20:5".parse().unwrap();
        let point = base.with_param("knock_at", "3").unwrap();
        assert_eq!(point.to_string(), "greedy:knock_at=3,schedule=20:5");
        assert!(
            base.with_param("knock_at", "11")
                .unwrap_err()
                .to_string()
                .contains("0 to 10")
        );
        let bot: Profile = "exec:python3 bot.py".parse().unwrap();
        let message = bot.with_param("samples", "4").unwrap_err().to_string();
        assert!(
            message.contains("`exec` has no parameter `samples`"),
            "{message}"
        );
    }
}
