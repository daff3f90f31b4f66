//! Strategy profiles: a kind plus parameters, written inline as `kind` or
//! `kind:key=value,key=value` (e.g. `greedy:knock_at=7`), or as a TOML
//! profile file.
//!
//! This module is the grammar. What a kind's parameters are (names, types,
//! defaults, how each is read and printed) and how it builds its player is
//! the kind's own, in its file, behind [`Params`]; the kinds themselves are
//! the one table [`KINDS`](super::KINDS), which feeds the messages here, the
//! CLI's help texts and the check of `strategies/README.md`.

use std::any::Any;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::Strategy;
use super::external::Bot;
use crate::echo::echo;
use crate::lab::Lab;
use crate::suggest::did_you_mean;

/// One row of the table of kinds ([`KINDS`](super::KINDS)).
pub struct Kind {
    /// The name profiles give (`kind = "greedy"`, `greedy:knock_at=7`).
    pub name: &'static str,
    /// Its parameters, in the order messages list them: the kind's
    /// [`Keys::PARAMS`], declared with its derived type.
    pub params: &'static [Param],
    /// `Some(prefix)`: the inline form is `prefix:TEXT`, TEXT being the
    /// first parameter whole (`exec:python3 bot.py`), and the kind is not
    /// listed among the built-ins. `None`: `name:key=value,...`.
    pub prefix: Option<&'static str>,
    /// [`Keys::WIDE`].
    wide: &'static [&'static str],
    /// Reads the kind's parameters from a profile's table.
    read: ReadKeys,
}

/// A kind's reader of a profile's table ([`read_keys`]).
type ReadKeys = fn(toml::Table, &Given) -> Result<Box<dyn AnyParams>, KeyError>;

impl Kind {
    /// The row of the kind whose parameters are read as `K` (by derive,
    /// then [`Keys::resolve`]).
    #[must_use]
    pub const fn of<K: Keys>(name: &'static str, prefix: Option<&'static str>) -> Kind {
        Kind {
            name,
            params: K::PARAMS,
            prefix,
            wide: K::WIDE,
            read: read_keys::<K>,
        }
    }

    /// The row of a kind whose profiles are made in code, never read from
    /// text (a Python object): a profile naming it is refused.
    #[must_use]
    pub const fn unread(name: &'static str, prefix: Option<&'static str>) -> Kind {
        Kind {
            name,
            params: &[],
            prefix,
            wide: &[],
            read: |_, _| Err(("", ParamError::Expected("profiles made in code"))),
        }
    }

    /// The parameter names, for messages (`(none)` if it has none).
    #[must_use]
    pub fn param_names(&self) -> String {
        if self.params.is_empty() {
            return "(none)".to_owned();
        }
        let names: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        names.join(", ")
    }
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kind").field("name", &self.name).finish()
    }
}

/// A kind's parameters as a profile writes them: one type read by derive
/// (`#[serde(default, deny_unknown_fields)]`, declared with `keys!`,
/// which also gives [`Keys::PARAMS`]), then resolved into the kind's
/// [`Params`] (ranges, parameters that exclude each other).
pub trait Keys: DeserializeOwned + 'static {
    /// The keys: names, TOML types and what each takes, in declaration
    /// order. The one list messages, did-you-mean and help texts use.
    const PARAMS: &'static [Param];
    /// Integer keys that take values beyond TOML's (up to 2^64 − 1), which
    /// the inline form hands over as [`Given::wide`].
    const WIDE: &'static [&'static str] = &[];
    /// The parameters the keys resolve to.
    type Params: Params + Clone + PartialEq;

    /// The parameters these keys give, read as `given` gave them.
    ///
    /// # Errors
    /// The key whose value is refused and why (a conflict names no key).
    fn resolve(self, given: &Given) -> Result<Self::Params, KeyError>;
}

/// A refused key and why ([`Keys::resolve`]).
pub type KeyError = (&'static str, ParamError);

/// How a profile's keys were given: in which order (a profile file's in
/// sorted order, the inline form's as written, a sweep's point last), and
/// whether inline.
#[derive(Clone, Debug, Default)]
pub struct Given {
    order: Vec<String>,
    /// Each key's value as messages show it, if not its TOML text (the
    /// inline text as written).
    texts: Vec<String>,
    /// Inline integers above TOML's (2^63 − 1, up to 2^64 − 1), which the
    /// table holds as 0.
    wide: Vec<(String, u64)>,
    /// The inline form (`kind:key=value`, `exec:COMMAND`).
    pub inline: bool,
}

impl Given {
    /// Whether `key` was given.
    #[must_use]
    pub fn has(&self, key: &str) -> bool {
        self.order.iter().any(|k| k == key)
    }

    /// The value of inline integer `key` if it is above TOML's integers
    /// (2^63 − 1): the table holds 0 for it, and a key that takes such
    /// values (mc's `seed`) takes this instead.
    #[must_use]
    pub fn wide(&self, key: &str) -> Option<u64> {
        self.wide.iter().find(|(k, _)| k == key).map(|&(_, n)| n)
    }

    /// Whether `key` was given after `other` (or `other` not at all).
    #[must_use]
    pub fn after(&self, key: &str, other: &str) -> bool {
        let at = |k: &str| self.order.iter().position(|g| g == k);
        at(key) > at(other)
    }
}

/// Declares a kind's derived keys type and its [`Keys::PARAMS`] from one
/// list: each key's field with its [`ParamType`] and what it takes
/// (`knock_at: Option<u8> => Integer "an integer from 0 to 10",`); then,
/// in `extra { ... }`, fields that are not keys (skipped by the derive).
macro_rules! keys {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $fvis:vis $field:ident: $fty:ty => $pty:ident $expected:literal,
            )*
        }
        $(extra {
            $(
                $(#[$xmeta:meta])*
                $xvis:vis $xfield:ident: $xty:ty,
            )*
        })?
    ) => {
        $(#[$meta])*
        #[derive(serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: $fty,)*
            $($($(#[$xmeta])* #[serde(skip)] $xvis $xfield: $xty,)*)?
        }

        impl $name {
            /// The keys, as [`Keys::PARAMS`](crate::strategy::Keys::PARAMS) lists them.
            pub const KEY_LIST: &'static [$crate::strategy::Param] = &[$(
                $crate::strategy::Param::new(
                    stringify!($field),
                    $crate::strategy::ParamType::$pty,
                    $expected,
                ),
            )*];
        }
    };
}
pub(crate) use keys;

/// Reads `K` from `table` by derive and resolves it; a derive error names
/// its key.
fn read_keys<K: Keys>(table: toml::Table, given: &Given) -> Result<Box<dyn AnyParams>, KeyError> {
    // Read from its TOML text: deserialized from a `toml::Value`, a TOML
    // date (in a bot's `options`) would arrive as a string. Only a
    // refusal is read again, through serde_path_to_error, to find its key.
    let text = toml::to_string(&table).expect("a TOML table prints");
    let value = toml::Value::Table(table);
    let keys: K = toml::from_str(&text).map_err(|error| {
        let path = match serde_path_to_error::deserialize::<_, K>(value) {
            Err(e) => e.path().to_string(),
            Ok(_) => String::new(),
        };
        let key = path.split(['.', '[']).next().unwrap_or_default();
        // Unknown keys are refused before the derive runs, so a refusal
        // names a key; serde's words only if it does not.
        match K::PARAMS.iter().find(|p| p.name == key) {
            Some(param) => (param.name, ParamError::Invalid),
            None => ("", ParamError::Message(error.to_string())),
        }
    })?;
    Ok(Box::new(keys.resolve(given)?))
}

/// The kinds of the inline `kind:key=value` form, in table order: the
/// built-ins that messages and help texts list.
pub fn builtin_kinds() -> impl Iterator<Item = &'static str> + Clone {
    super::KINDS
        .iter()
        .filter(|k| k.prefix.is_none())
        .map(|k| k.name)
}

/// [`builtin_kinds`] joined with commas, as messages and help texts show them.
#[must_use]
pub fn builtin_list() -> String {
    builtin_kinds().collect::<Vec<_>>().join(", ")
}

/// One parameter of a kind.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its key.
    pub name: &'static str,
    /// The TOML type a profile file must give it.
    pub ty: ParamType,
    /// What it takes, as messages say (`an integer from 0 to 10`).
    pub expected: &'static str,
}

impl Param {
    /// A parameter: its key, TOML type and what it takes.
    #[must_use]
    pub const fn new(name: &'static str, ty: ParamType, expected: &'static str) -> Param {
        Param { name, ty, expected }
    }
}

/// What is wrong with one parameter's value, as a kind's
/// [`Keys::resolve`] reports it; the reader names the kind, the key and the
/// value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// Not a value the parameter takes ([`Param::expected`]).
    Invalid,
    /// Not a value the parameter takes, said another way than
    /// [`Param::expected`] (for this form of the profile).
    Expected(&'static str),
    /// Parameters that exclude each other, or one given without the one it
    /// needs: which, and what to do.
    Conflict(&'static str),
    /// Something within the value, said in full (a bot's `options`).
    Message(String),
}

/// The parameters of one kind: printed in the inline form and built into
/// a player. Each kind implements it in its own file, reads it as its
/// [`Keys`], and has one row in [`KINDS`](super::KINDS).
pub trait Params: fmt::Display + fmt::Debug + Send + Sync + 'static {
    /// The kind's row in the table.
    fn kind(&self) -> &'static Kind;

    /// A fresh strategy for one game or seat; its random choices come from
    /// `seed`.
    fn build(&self, seed: u64) -> Box<dyn Strategy>;

    /// Makes the players it builds use `lab`'s shared state (an external
    /// bot's processes and logs, `mc`'s tables) instead of their own. A kind
    /// with no shared state has nothing to do. Binding never changes what
    /// the profile is: it prints and compares the same.
    fn bind(&mut self, lab: &Lab) {
        let _ = lab;
    }

    /// Takes over the shared state `from` was bound to ([`Params::bind`]):
    /// a sweep's point read from its base profile shares the base's.
    fn share(&mut self, from: &Self)
    where
        Self: Sized,
    {
        let _ = from;
    }
}

/// [`Params`] as a profile holds them: cloned, compared and downcast
/// without knowing the kind.
pub(crate) trait AnyParams: Params {
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn AnyParams>;
    /// Equal to `other` (same kind, same values).
    fn eq_any(&self, other: &dyn AnyParams) -> bool;
    /// For [`Profile::params`].
    fn as_any(&self) -> &dyn Any;
    /// [`Params::share`] with `from`, if of the same kind.
    fn share_any(&mut self, from: &dyn AnyParams);
}

impl<P: Params + Clone + PartialEq> AnyParams for P {
    fn clone_box(&self) -> Box<dyn AnyParams> {
        Box::new(self.clone())
    }

    fn eq_any(&self, other: &dyn AnyParams) -> bool {
        other.as_any().downcast_ref::<P>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn share_any(&mut self, from: &dyn AnyParams) {
        if let Some(from) = from.as_any().downcast_ref::<P>() {
            self.share(from);
        }
    }
}

/// Writes the inline form `kind` or `kind:a=1,b=2` of a kind whose
/// parameters print as `key=value` items (those that differ from the
/// defaults, in the kind's order).
///
/// # Errors
/// Those of the formatter.
pub fn write_inline(f: &mut fmt::Formatter<'_>, kind: &str, items: &[String]) -> fmt::Result {
    f.write_str(kind)?;
    if !items.is_empty() {
        write!(f, ":{}", items.join(","))?;
    }
    Ok(())
}

/// A strategy profile: a kind and its parameters.
///
/// It prints in the inline form, which parses back to an equal profile.
pub struct Profile(Box<dyn AnyParams>);

impl Profile {
    /// A profile from a kind's parameters
    /// (`Profile::new(Greedy::new(Some(7), Vec::new()))`).
    #[must_use]
    pub fn new(params: impl Params + Clone + PartialEq) -> Profile {
        Profile(Box::new(params))
    }

    /// The kind's row in the table.
    #[must_use]
    pub fn kind(&self) -> &'static Kind {
        self.0.kind()
    }

    /// The parameters, if the kind's are a `P` (`profile.params::<Tracker>()`).
    #[must_use]
    pub fn params<P: Params>(&self) -> Option<&P> {
        self.0.as_any().downcast_ref()
    }

    /// The bot of an external profile.
    #[must_use]
    pub fn bot(&self) -> Option<&Arc<Bot>> {
        self.params()
    }

    /// A fresh strategy for one game or seat; its random choices come from `seed`.
    #[must_use]
    pub fn build(&self, seed: u64) -> Box<dyn Strategy> {
        self.0.build(seed)
    }

    /// The profile with its players using `lab`'s shared state (see
    /// [`Params::bind`]): what a front end does with every profile it
    /// resolves. An unbound profile's players share state of its own,
    /// among the profile's clones.
    #[must_use]
    pub fn in_lab(mut self, lab: &Lab) -> Profile {
        self.0.bind(lab);
        self
    }
}

impl Clone for Profile {
    fn clone(&self) -> Profile {
        Profile(self.0.clone_box())
    }
}

impl PartialEq for Profile {
    fn eq(&self, other: &Profile) -> bool {
        self.0.eq_any(&*other.0)
    }
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// The inline form, which parses back to the same profile.
impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// What is wrong with a profile text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// No built-in kind has this name.
    #[error(
        "unknown strategy `{}`: the built-in kinds are {}, and exec:COMMAND runs an external bot{}",
        echo(.0),
        builtin_list(),
        did_you_mean(.0, builtin_kinds())
    )]
    UnknownKind(String),
    /// A parameter the kind does not have.
    #[error("strategy `{kind}` has no parameter `{key}`; it takes: {allowed}{hint}")]
    UnknownKey {
        /// The kind.
        kind: &'static str,
        /// The parameter given.
        key: String,
        /// The parameters it takes.
        allowed: String,
        /// `; did you mean ...?`, or nothing.
        hint: String,
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
    /// Two parameters that exclude each other, or one given without the
    /// parameter it needs.
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
    /// Any TOML value, which the kind reads itself (an external bot's
    /// `command` array, its `options` table).
    Toml,
}

/// The row of the kind `name` (a built-in, or one with a prefix when
/// `prefixed`: a profile file's `kind = "external"`).
fn find_kind(name: &str, prefixed: bool) -> Result<&'static Kind, ProfileError> {
    super::KINDS
        .iter()
        .copied()
        .find(|k| k.name == name && (prefixed || k.prefix.is_none()))
        .ok_or_else(|| ProfileError::UnknownKind(name.to_owned()))
}

impl Profile {
    /// The kind `kind` with its default parameters.
    #[cfg(test)]
    fn of_kind(kind: &'static Kind) -> Profile {
        Profile::read(kind, toml::Table::new(), &Given::default()).expect("the defaults read")
    }

    /// A profile of `kind` from its `table`, given as `given` says: the
    /// one reader of both forms. Unknown keys are named with what the kind
    /// takes; a value the derive refuses (another TOML type, out of the
    /// field's range) or the kind's resolver refuses is named with what its
    /// key takes.
    fn read(
        kind: &'static Kind,
        mut table: toml::Table,
        given: &Given,
    ) -> Result<Profile, ProfileError> {
        // Messages name a kind as the form given names it (`exec:`).
        let shown_kind = match (given.inline, kind.prefix) {
            (true, Some(prefix)) => prefix,
            _ => kind.name,
        };
        if let Some(key) = table
            .keys()
            .find(|k| !kind.params.iter().any(|p| p.name == *k))
        {
            return Err(ProfileError::UnknownKey {
                kind: shown_kind,
                key: key.clone(),
                allowed: kind.param_names(),
                hint: did_you_mean(key, kind.params.iter().map(|p| p.name)),
            });
        }
        // A built-in's words are read trimmed, as inline; a bot's paths
        // are taken as written.
        if kind.prefix.is_none() {
            for param in kind.params.iter().filter(|p| p.ty == ParamType::Text) {
                if let Some(toml::Value::String(text)) = table.get_mut(param.name) {
                    *text = text.trim().to_owned();
                }
            }
        }
        let shown: Vec<(String, String)> = if given.inline {
            given
                .order
                .iter()
                .cloned()
                .zip(given.texts.iter().cloned())
                .collect()
        } else {
            table
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .collect()
        };
        (kind.read)(table, given).map(Profile).map_err(|(key, e)| {
            let param = kind.params.iter().find(|p| p.name == key);
            let bad =
                |param: &'static Param, expected: Option<&'static str>| ProfileError::BadValue {
                    kind: shown_kind,
                    key: param.name,
                    value: shown
                        .iter()
                        .find(|(k, _)| k == key)
                        .map_or_else(String::new, |(_, v)| v.clone()),
                    expected: expected.unwrap_or(param.expected),
                };
            match (e, param) {
                (ParamError::Invalid, Some(param)) => bad(param, None),
                (ParamError::Expected(expected), Some(param)) => bad(param, Some(expected)),
                (ParamError::Invalid, None) => ProfileError::Conflict {
                    kind: kind.name,
                    message: "has a value it does not take",
                },
                (ParamError::Expected(message) | ParamError::Conflict(message), _) => {
                    ProfileError::Conflict {
                        kind: kind.name,
                        message,
                    }
                }
                (ParamError::Message(message), _) => {
                    ProfileError::File(format!("{} profile: {message}", kind.name))
                }
            }
        })
    }

    /// A profile from TOML: `kind = "greedy"` plus the kind's parameters
    /// (`knock_at = 7`, `schedule = "20:5/10:2"`), and an optional `name`
    /// (returned beside the profile). Unknown keys are errors, and so are
    /// values of another TOML type than the parameter's ([`ParamType`]:
    /// `knock_at = "7"` and `calibrate = "true"` are refused, not read
    /// through their text).
    ///
    /// # Errors
    /// Invalid TOML, a missing or unknown `kind`, or a bad parameter.
    pub fn from_toml(text: &str) -> Result<(Profile, Option<String>), ProfileError> {
        let mut table: toml::Table =
            toml::from_str(text).map_err(|e| ProfileError::File(format!("invalid TOML: {e}")))?;
        let kind = match table.remove("kind") {
            Some(toml::Value::String(kind)) => kind,
            _ => {
                let names: Vec<String> = super::KINDS
                    .iter()
                    .map(|k| format!("\"{}\"", k.name))
                    .collect();
                let (last, rest) = names.split_last().expect("kinds");
                return Err(ProfileError::File(format!(
                    "a profile needs kind = {} or {last}",
                    rest.join(", ")
                )));
            }
        };
        let name = match table.remove("name") {
            None => None,
            Some(toml::Value::String(name)) => Some(name),
            Some(other) => {
                return Err(ProfileError::File(format!(
                    "the profile's name must be a string, not {other}"
                )));
            }
        };
        // Each value is one parameter's, typed: it is not pasted into the
        // inline form, where a comma in it would start another parameter.
        let kind = find_kind(&kind, true)?;
        let given = Given {
            order: table.keys().cloned().collect(),
            texts: Vec::new(),
            wide: Vec::new(),
            inline: false,
        };
        Ok((Profile::read(kind, table, &given)?, name))
    }

    /// This profile with parameter `key` set from its inline text `value`,
    /// whatever it was: a point of a sweep over `key`. It is the printed
    /// profile read again with `key` given last, sharing this profile's
    /// state ([`Params::share`]).
    ///
    /// # Errors
    /// A parameter the kind does not have (an external bot has none here)
    /// or a bad value.
    pub fn with_param(&self, key: &str, value: &str) -> Result<Profile, ProfileError> {
        let kind = self.kind();
        if let Some(prefix) = kind.prefix {
            // A bot is started and checked once, when its profile is
            // resolved; one made here would meet its first game unchecked.
            return Err(ProfileError::UnknownKey {
                kind: prefix,
                key: key.trim().to_owned(),
                allowed: format!("(none inline; a profile file has {})", kind.param_names()),
                hint: String::new(),
            });
        }
        let printed = self.to_string();
        let (_, params) = printed.split_once(':').unwrap_or((&printed, ""));
        let key = key.trim();
        let mut items = inline_items(&printed, params)?;
        items.retain(|(k, _)| *k != key);
        items.push((key, value));
        let mut profile = Profile::inline(kind, &items)?;
        profile.0.share_any(&*self.0);
        Ok(profile)
    }

    /// The inline form's `key=value` items of `kind` as the same TOML table
    /// a profile file gives: each value typed by its key's [`ParamType`]
    /// (an integer, a number, `true`/`false`, or the text).
    fn inline(kind: &'static Kind, items: &[(&str, &str)]) -> Result<Profile, ProfileError> {
        let shown_kind = kind.prefix.unwrap_or(kind.name);
        let mut table = toml::Table::new();
        let mut wide = Vec::new();
        for &(key, text) in items {
            let text = text.trim();
            let value = match kind.params.iter().find(|p| p.name == key) {
                // Unknown: the reader names it.
                None => Some(toml::Value::String(text.to_owned())),
                Some(param) => {
                    let value = match param.ty {
                        ParamType::Integer => text
                            .parse()
                            .ok()
                            .or_else(|| {
                                let n = text
                                    .parse::<u64>()
                                    .ok()
                                    .filter(|_| kind.wide.contains(&key))?;
                                wide.push((key.to_owned(), n));
                                Some(0)
                            })
                            .map(toml::Value::Integer),
                        ParamType::Number => text.parse().ok().map(toml::Value::Float),
                        ParamType::Boolean => text.parse().ok().map(toml::Value::Boolean),
                        ParamType::Text | ParamType::Toml => {
                            Some(toml::Value::String(text.to_owned()))
                        }
                    };
                    if value.is_none() {
                        return Err(ProfileError::BadValue {
                            kind: shown_kind,
                            key: param.name,
                            value: text.to_owned(),
                            expected: param.expected,
                        });
                    }
                    value
                }
            };
            table.insert(key.to_owned(), value.expect("typed above"));
        }
        let given = Given {
            order: items.iter().map(|(k, _)| (*k).to_owned()).collect(),
            texts: items.iter().map(|(_, v)| v.trim().to_owned()).collect(),
            wide,
            inline: true,
        };
        Profile::read(kind, table, &given)
    }
}

/// The `key=value` items of the inline profile `text` (its part after the
/// kind, `params`), keys trimmed.
fn inline_items<'t>(text: &str, params: &'t str) -> Result<Vec<(&'t str, &'t str)>, ProfileError> {
    let mut items: Vec<(&str, &str)> = Vec::new();
    for param in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = param
            .split_once('=')
            .ok_or_else(|| ProfileError::Malformed(param.to_owned()))?;
        // The last of two values would win silently: say so instead.
        let key = key.trim();
        if items.iter().any(|(k, _)| *k == key) {
            return Err(ProfileError::DuplicateKey {
                key: key.to_owned(),
                text: text.to_owned(),
            });
        }
        items.push((key, value));
    }
    Ok(items)
}

impl FromStr for Profile {
    type Err = ProfileError;

    fn from_str(text: &str) -> Result<Profile, ProfileError> {
        let prefixed = super::KINDS.iter().find_map(|k| {
            let prefix = k.prefix?;
            let rest = text.trim_start().strip_prefix(prefix)?.strip_prefix(':')?;
            Some((*k, rest))
        });
        if let Some((kind, rest)) = prefixed {
            // `exec:COMMAND`: the text is the first parameter, whole.
            return Profile::inline(kind, &[(kind.params[0].name, rest)]);
        }
        let (kind, params) = text.split_once(':').unwrap_or((text, ""));
        let kind = find_kind(kind.trim(), false)?;
        Profile::inline(kind, &inline_items(text, params)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_the_built_ins() {
        for kind in builtin_kinds() {
            let row = find_kind(kind, false).unwrap();
            assert_eq!(Profile::of_kind(row).to_string(), kind);
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
            Ok(Profile::new(crate::strategy::Greedy::new(
                Some(0),
                Vec::new()
            )))
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

    /// Found by tests/it/fuzz.rs: a profile file was pasted into the inline
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
        let message = e("knock_at = 3");
        assert!(
            message.starts_with("a profile needs kind = \"random\", \"simple\", \"greedy\"")
                && message.contains("\"mc\"")
                && message.contains("\"external\""),
            "{message}"
        );
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
        let message = bot.with_param("timeout_ms", "4").unwrap_err().to_string();
        assert_eq!(
            message,
            "strategy `exec` has no parameter `timeout_ms`; it takes: (none inline; a \
             profile file has command, timeout_ms, options, log_dir, cwd, handshake_ms, \
             first_move_ms, max_log_bytes, sandbox, read, scratch, network, max_memory_mb, \
             max_processes, max_open_files)"
        );
    }
}
