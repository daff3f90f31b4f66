//! Named access to the knobs: reading and writing them as TOML values, loading
//! a rules file (`preset = "oklahoma"` plus overrides) and printing one.
//!
//! One table ([`KNOBS`]) lists every knob with its allowed values, so the
//! TOML loader, `--rule knob=value` and `ginlab rules` cannot drift apart.

use std::fmt::Write as _;

use toml::Value;

use super::{Deal, KnockLimit, NextDealer, Rules, RulesError, Shutout};

/// A knob: its name in RULES.md and what values it takes.
#[derive(Clone, Copy, Debug)]
pub struct Knob {
    /// The name, spelled as in docs/RULES.md.
    pub name: &'static str,
    /// What the knob does, for `ginlab rules --explain` (docs/RULES.md says
    /// the same in more words; a test holds the two to the same knobs).
    pub about: &'static str,
    /// The allowed values, for error messages and `ginlab rules`.
    pub allowed: &'static str,
}

/// How a knob's value reads from TOML and prints back: one codec per kind
/// of value, shared by the knobs of that kind.
trait Codec {
    /// The field's type in [`Rules`].
    type Value;
    /// The value `value` gives, if the knob takes it.
    fn read(&self, value: &Value) -> Option<Self::Value>;
    /// The TOML form of `value`.
    fn write(&self, value: &Self::Value) -> Value;
}

/// An integer from `min` to `max`.
struct Int(i64, i64);

impl Codec for Int {
    type Value = u32;
    fn read(&self, value: &Value) -> Option<u32> {
        match value {
            Value::Integer(i) if (self.0..=self.1).contains(i) => u32::try_from(*i).ok(),
            _ => None,
        }
    }
    fn write(&self, value: &u32) -> Value {
        Value::Integer((*value).into())
    }
}

/// `true` or `false`.
struct Flag;

impl Codec for Flag {
    type Value = bool;
    fn read(&self, value: &Value) -> Option<bool> {
        value.as_bool()
    }
    fn write(&self, value: &bool) -> Value {
        Value::Boolean(*value)
    }
}

/// An integer from 0 to 1000, or the word `off` (`None`).
struct Bonus;

impl Codec for Bonus {
    type Value = Option<u32>;
    fn read(&self, value: &Value) -> Option<Option<u32>> {
        match value {
            Value::String(s) if s == "off" => Some(None),
            _ => Int(0, 1000).read(value).map(Some),
        }
    }
    fn write(&self, value: &Option<u32>) -> Value {
        value.map_or(Value::String("off".into()), |n| Int(0, 1000).write(&n))
    }
}

/// An integer from 0 to 10, or the word `upcard`.
struct Limit;

impl Codec for Limit {
    type Value = KnockLimit;
    fn read(&self, value: &Value) -> Option<KnockLimit> {
        match value {
            Value::String(s) if s == "upcard" => Some(KnockLimit::Upcard),
            _ => Int(0, 10)
                .read(value)
                .map(|n| KnockLimit::Fixed(u8::try_from(n).expect("at most 10"))),
        }
    }
    fn write(&self, value: &KnockLimit) -> Value {
        match *value {
            KnockLimit::Fixed(n) => Int(0, 10).write(&n.into()),
            KnockLimit::Upcard => Value::String("upcard".into()),
        }
    }
}

/// One of a list of words, each naming a value.
struct Words<T: 'static>(&'static [(&'static str, T)]);

impl<T: Copy + PartialEq> Codec for Words<T> {
    type Value = T;
    fn read(&self, value: &Value) -> Option<T> {
        let text = value.as_str()?;
        self.0.iter().find(|(w, _)| *w == text).map(|&(_, t)| t)
    }
    fn write(&self, value: &T) -> Value {
        let word = self.0.iter().find(|(_, t)| t == value).map(|(w, _)| *w);
        Value::String(word.expect("every value has a word").into())
    }
}

const SHUTOUTS: Words<Shutout> = Words(&[
    ("double_game_bonus", Shutout::DoubleGameBonus),
    ("double_total", Shutout::DoubleTotal),
    ("double_hands", Shutout::DoubleHands),
    ("none", Shutout::None),
]);
const DEALERS: Words<NextDealer> = Words(&[
    ("loser", NextDealer::Loser),
    ("winner", NextDealer::Winner),
    ("alternate", NextDealer::Alternate),
]);
const DEALS: Words<Deal> = Words(&[
    ("upcard_offer", Deal::UpcardOffer),
    ("eleven_cards", Deal::ElevenCards),
]);

/// The one table of knobs: each line is a knob (a field of [`Rules`] of
/// the same name), its codec, what it takes (for messages and `ginlab
/// rules`) and what it does (`ginlab rules --explain`). It makes
/// [`KNOBS`], [`Rules::set`] and [`Rules::get`], so a new knob is its field
/// and its line.
macro_rules! knobs {
    ($($name:ident: $codec:expr, $allowed:expr, $about:expr;)*) => {
        /// Every knob, in the order of RULES.md's table.
        pub const KNOBS: &[Knob] = &[$(
            Knob { name: stringify!($name), about: $about, allowed: $allowed },
        )*];

        impl Rules {
            /// Sets `knob` (one of [`KNOBS`]) to `value`, if it takes it.
            fn set_knob(&mut self, knob: &Knob, value: &Value) -> Option<()> {
                match knob.name {
                    $(stringify!($name) => self.$name = $codec.read(value)?,)*
                    _ => unreachable!("every knob of KNOBS has its line"),
                }
                Some(())
            }

            /// `knob` (one of [`KNOBS`]) as a TOML value.
            fn get_knob(&self, knob: &Knob) -> Value {
                match knob.name {
                    $(stringify!($name) => $codec.write(&self.$name),)*
                    _ => unreachable!("every knob of KNOBS has its line"),
                }
            }
        }

        /// Each knob's allowed text, with its codec (for the test that
        /// holds the two together).
        #[cfg(test)]
        fn codec_reads(name: &str, value: &Value) -> bool {
            match name {
                $(stringify!($name) => $codec.read(value).is_some(),)*
                _ => false,
            }
        }
    };
}

knobs! {
    knock_limit: Limit, "an integer 0 to 10, or \"upcard\"",
        "The most deadwood a player may knock with; 0 means only gin ends a hand (Straight Gin), \"upcard\" means the value of the hand's upcard (Oklahoma; an ace is 1, a face card 10).";
    ace_upcard_gin_only: Flag, "true or false",
        "When the upcard is an ace, only gin may end the hand (Oklahoma).";
    spade_upcard_doubles: Flag, "true or false",
        "When the upcard is a spade, the whole hand score is doubled, bonuses included (Oklahoma).";
    gin_bonus: Int(0, 1000), "an integer 0 to 1000",
        "Points a player earns for going gin, on top of the opponent's deadwood.";
    undercut_bonus: Int(0, 1000), "an integer 0 to 1000",
        "Points the defender earns for an undercut (deadwood lower than the knocker's, or equal when undercut_on_tie is on), on top of the difference.";
    undercut_on_tie: Flag, "true or false",
        "Whether equal deadwood after lay-offs is an undercut; when off, a tie scores nothing for either player.";
    big_gin_bonus: Bonus, "an integer 0 to 1000, or \"off\"",
        "Points for big gin (all 11 cards melded after drawing, which ends the hand at once), or \"off\" when big gin is not played.";
    box_bonus: Int(0, 1000), "an integer 0 to 1000",
        "Points each player receives at the end of the game for every hand it won (a box, or line); they do not count toward the target.";
    game_target: Int(1, 10_000), "an integer 1 to 10000",
        "The cumulative hand score that ends the game.";
    game_bonus: Int(0, 1000), "an integer 0 to 1000",
        "Points the winner of the game receives.";
    shutout: SHUTOUTS, "\"double_game_bonus\", \"double_total\", \"double_hands\" or \"none\"",
        "What happens when the loser of the game scored no hand points: the game bonus is doubled, the winner's whole score is doubled, the winner's hand points are doubled before box bonuses, or nothing.";
    next_dealer: DEALERS, "\"loser\", \"winner\" or \"alternate\"",
        "Who deals the next hand: the loser of the previous hand, its winner, or the players in turn. A void hand is dealt again by the same dealer.";
    last_discard_action: Flag, "true or false",
        "When the stock is down to its last two cards, the player who did not discard may still take that discard, but only to knock or go gin with it.";
    deal: DEALS, "\"upcard_offer\" or \"eleven_cards\"",
        "How a hand starts: ten cards each and an upcard offered first to the non-dealer, then to the dealer; or eleven cards to the non-dealer, ten to the dealer and no upcard (the non-dealer's first turn is a discard or a knock).";
    max_turns: Int(1, 10_000), "an integer 1 to 10000",
        "Turns (both players counted) after which the hand is void and dealt again; the stock running down to two cards voids it too.";
    oklahoma_boxes: Flag, "true or false",
        "Oklahoma's extra boxes: one more box for an undercut, two more for gin, doubled when spade_upcard_doubles doubles the hand.";
}

fn knob(name: &str) -> Result<&'static Knob, RulesError> {
    KNOBS
        .iter()
        .find(|k| k.name == name)
        .ok_or_else(|| RulesError::UnknownKnob(name.to_owned()))
}

fn bad(knob: &Knob, value: &Value) -> RulesError {
    RulesError::BadValue {
        knob: knob.name,
        value: value.to_string(),
        allowed: knob.allowed,
    }
}

impl Rules {
    /// Sets knob `name` to `value`.
    ///
    /// # Errors
    /// [`RulesError::UnknownKnob`] (listing the knobs) or
    /// [`RulesError::BadValue`] (listing the allowed values).
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), RulesError> {
        let k = knob(name)?;
        self.set_knob(k, value).ok_or_else(|| bad(k, value))
    }

    /// Knob `name` as a TOML value.
    ///
    /// # Errors
    /// [`RulesError::UnknownKnob`].
    pub fn get(&self, name: &str) -> Result<Value, RulesError> {
        Ok(self.get_knob(knob(name)?))
    }

    /// Sets a knob from command-line text `knob=value`. The value is read as
    /// one TOML value (`10`, `true`, `"upcard"`); any other text is taken as
    /// a string, so `knock_limit=upcard` works (and `gin_bonus=5\nx=1` is a
    /// bad value, not 5).
    ///
    /// # Errors
    /// A malformed assignment, an unknown knob or a bad value.
    pub fn set_from_text(&mut self, assignment: &str) -> Result<(), RulesError> {
        let (name, text) = assignment
            .split_once('=')
            .ok_or_else(|| RulesError::Assignment(assignment.to_owned()))?;
        let (name, text) = (name.trim(), text.trim());
        let value = text
            .parse::<Value>()
            .unwrap_or_else(|_| Value::String(text.to_owned()));
        self.set(name, &value)
    }

    /// Applies command-line assignments `knob=value` in order (see
    /// [`Rules::set_from_text`]), refusing a knob given twice: the second
    /// value would silently win, as nowhere else in ginlab.
    ///
    /// # Errors
    /// The assignment that fails, and why.
    pub fn set_all_from_text<'a>(
        &mut self,
        assignments: &'a [String],
    ) -> Result<(), (&'a str, RulesError)> {
        let mut given: Vec<&str> = Vec::new();
        for assignment in assignments {
            self.set_from_text(assignment)
                .map_err(|e| (assignment.as_str(), e))?;
            let name = assignment.split_once('=').map_or("", |(n, _)| n.trim());
            if given.contains(&name) {
                return Err((assignment, RulesError::GivenTwice(name.to_owned())));
            }
            given.push(name);
        }
        Ok(())
    }

    /// Rules from TOML text: an optional `preset = "NAME"` (default
    /// `standard`) and any knobs to override, then validated.
    ///
    /// # Errors
    /// A TOML syntax error, an unknown preset or knob, a bad value, or rules
    /// that fail [`Rules::validate`].
    pub fn from_toml(text: &str) -> Result<Rules, RulesError> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| RulesError::Toml(e.to_string()))?;
        let mut rules = match table.get("preset") {
            None => Rules::standard(),
            Some(Value::String(name)) => Rules::preset(name)?,
            Some(other) => {
                return Err(RulesError::BadValue {
                    knob: "preset",
                    value: other.to_string(),
                    allowed: "\"standard\", \"hoyle\", \"oklahoma\" or \"eaai\"",
                });
            }
        };
        for (name, value) in &table {
            if name != "preset" {
                rules.set(name, value)?;
            }
        }
        rules.validate()?;
        Ok(rules)
    }

    /// Every knob as TOML, one `knob = value` line each in RULES.md order,
    /// each with a comment giving the allowed values. Loading it with
    /// [`Rules::from_toml`] gives these rules back.
    #[must_use]
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        for k in KNOBS {
            let value = self.get(k.name).expect("every knob has a value");
            writeln!(out, "{} = {value}  # {}", k.name, k.allowed).unwrap();
        }
        out
    }
}

/// `text` wrapped at `width` columns, each line after `indent`.
fn wrapped(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty()
            && indent.len() + line.chars().count() + 1 + word.chars().count() > width
        {
            writeln!(out, "{indent}{line}").unwrap();
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        writeln!(out, "{indent}{line}").unwrap();
    }
    out
}

impl Rules {
    /// Every knob with its value in these rules, what it does, what it
    /// takes and its `standard` value, from [`KNOBS`] (`ginlab rules
    /// --explain`).
    #[must_use]
    pub fn explain(&self) -> String {
        let standard = Rules::standard();
        let mut out = String::new();
        for (i, k) in KNOBS.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let value = self.get(k.name).expect("every knob has a value");
            let default = standard.get(k.name).expect("every knob has a value");
            writeln!(out, "{} = {value}", k.name).unwrap();
            out.push_str(&wrapped(k.about, "    ", 78));
            out.push_str(&wrapped(
                &format!("Takes {}; standard: {default}.", k.allowed),
                "    ",
                78,
            ));
        }
        out
    }
}

/// The rules as the knob table of `RULES.md`, as JSON: what the bot
/// protocol's `game_start` and game records carry (`ginlab rules` prints
/// the same table as TOML).
#[must_use]
pub fn rules_table(rules: &Rules) -> serde_json::Value {
    let mut table = serde_json::Map::new();
    for knob in KNOBS {
        let value = rules.get(knob.name).expect("every listed knob has a value");
        table.insert(
            knob.name.to_owned(),
            serde_json::to_value(value).expect("a knob value is plain JSON"),
        );
    }
    serde_json::Value::Object(table)
}

/// Rules from a knob table (as [`rules_table`] writes it): knobs not given
/// keep the `standard` value.
///
/// # Errors
/// A table that is not an object, an unknown knob or a bad value.
pub fn rules_from_table(table: &serde_json::Value) -> Result<Rules, RulesError> {
    let mut rules = Rules::standard();
    let serde_json::Value::Object(map) = table else {
        return Err(RulesError::Toml(
            "the rules must be a table of knobs".into(),
        ));
    };
    for (name, value) in map {
        // JSON null (also inside a list) and integers beyond 64-bit signed
        // have no TOML form; no knob takes them.
        let Ok(toml_value) = toml::Value::try_from(value) else {
            let knob = KNOBS
                .iter()
                .find(|k| k.name == name)
                .ok_or_else(|| RulesError::UnknownKnob(name.clone()))?;
            return Err(RulesError::BadValue {
                knob: knob.name,
                value: value.to_string(),
                allowed: knob.allowed,
            });
        };
        rules.set(name, &toml_value)?;
    }
    rules.validate()?;
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;

    /// Each knob's allowed text says what its codec reads: the integer
    /// range's ends and no further, the words quoted, `true or false`, and
    /// nothing else.
    #[test]
    fn allowed_texts_match_the_codecs() {
        for k in KNOBS {
            let reads = |v: Value| codec_reads(k.name, &v);
            let range = k.allowed.strip_prefix("an integer ").map(|rest| {
                let mut ends = rest
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|w| !w.is_empty())
                    .map(|w| w.parse::<i64>().unwrap());
                (ends.next().unwrap(), ends.next().unwrap())
            });
            if let Some((min, max)) = range {
                assert!(
                    reads(Value::Integer(min)) && reads(Value::Integer(max)),
                    "{}",
                    k.name
                );
                assert!(!reads(Value::Integer(min - 1)), "{}", k.name);
                assert!(!reads(Value::Integer(max + 1)), "{}", k.name);
            } else {
                assert!(!reads(Value::Integer(0)), "{}", k.name);
            }
            let flag = k.allowed == "true or false";
            assert_eq!(reads(Value::Boolean(true)), flag, "{}", k.name);
            assert_eq!(reads(Value::Boolean(false)), flag, "{}", k.name);
            for word in k.allowed.split('"').skip(1).step_by(2) {
                assert!(reads(Value::String(word.into())), "{}: {word}", k.name);
            }
            assert!(!reads(Value::String("nonsense".into())), "{}", k.name);
        }
    }

    #[test]
    fn every_preset_round_trips_through_toml() {
        for name in PRESETS {
            let rules = Rules::preset(name).unwrap();
            assert_eq!(Rules::from_toml(&rules.to_toml()).unwrap(), rules, "{name}");
        }
    }

    #[test]
    fn preset_plus_overrides() {
        let rules = Rules::from_toml("preset = \"oklahoma\"\ngin_bonus = 30\nbig_gin_bonus = 50\n")
            .unwrap();
        assert_eq!(rules.knock_limit, KnockLimit::Upcard);
        assert_eq!((rules.gin_bonus, rules.big_gin_bonus), (30, Some(50)));
        assert_eq!(Rules::from_toml("").unwrap(), Rules::standard());
    }

    #[test]
    fn explain_gives_every_knob_its_meaning() {
        let text = Rules::oklahoma().explain();
        for k in KNOBS {
            assert!(text.contains(&format!("\n{} = ", k.name)) || text.starts_with(k.name));
            let first_word = k.about.split_whitespace().next().unwrap();
            assert!(text.contains(first_word), "{}", k.name);
        }
        assert!(
            text.starts_with("knock_limit = \"upcard\"\n    The most deadwood"),
            "{text}"
        );
        assert!(
            text.contains("Takes an integer 0 to 10, or \"upcard\"; standard: 10."),
            "{text}"
        );
        assert!(text.lines().all(|l| l.chars().count() <= 78), "{text}");
    }

    /// The rows of the table under `heading` in docs/RULES.md: cells
    /// without backquotes, one row per knob.
    fn doc_table(heading: &str) -> Vec<Vec<String>> {
        let doc = include_str!("../../docs/RULES.md");
        let section = doc
            .split("\n## ")
            .find(|s| s.starts_with(heading))
            .unwrap_or_else(|| panic!("docs/RULES.md has no section {heading}"));
        section
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| {
                l.trim_matches('|')
                    .split(" | ")
                    .map(|c| c.trim().trim_matches('`').to_owned())
                    .collect()
            })
            .collect()
    }

    /// docs/RULES.md describes exactly the knobs of [`KNOBS`], in order,
    /// with the standard value, and its preset table is the presets.
    #[test]
    fn the_rules_doc_matches_the_knob_table() {
        let knobs: Vec<&str> = KNOBS.iter().map(|k| k.name).collect();
        let rows = doc_table("Every knob");
        let documented: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(documented, knobs, "docs/RULES.md \"Every knob\"");
        let standard = Rules::standard();
        for row in &rows {
            assert_eq!(
                row[3],
                standard.get(&row[0]).unwrap().to_string(),
                "{}",
                row[0]
            );
        }
        let presets = doc_table("The presets");
        for row in &presets {
            for (column, name) in PRESETS.into_iter().enumerate() {
                let value = Rules::preset(name).unwrap().get(&row[0]).unwrap();
                assert_eq!(row[column + 1], value.to_string(), "{name}: {}", row[0]);
            }
        }
        // The table leaves out only the knobs no preset changes.
        for k in KNOBS {
            let listed = presets.iter().any(|r| r[0] == k.name);
            let varies = PRESETS
                .iter()
                .any(|p| Rules::preset(p).unwrap().get(k.name) != standard.get(k.name));
            assert!(
                listed || !varies,
                "{} varies but is not in the preset table",
                k.name
            );
        }
    }

    #[test]
    fn text_assignments() {
        let mut rules = Rules::standard();
        rules.set_from_text("knock_limit=upcard").unwrap();
        rules.set_from_text("next_dealer = winner").unwrap();
        rules.set_from_text("undercut_on_tie=false").unwrap();
        rules.set_from_text("knock_limit=0").unwrap();
        assert_eq!(rules.knock_limit, KnockLimit::Fixed(0));
        assert_eq!(rules.next_dealer, NextDealer::Winner);
        assert!(!rules.undercut_on_tie);
    }

    #[test]
    fn errors_list_what_is_allowed() {
        let e = Rules::from_toml("gin_bonsu = 3").unwrap_err().to_string();
        assert!(
            e.contains("unknown knob `gin_bonsu`") && e.contains("knock_limit"),
            "{e}"
        );
        let e = Rules::from_toml("shutout = \"triple\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("\"triple\"") && e.contains("double_total"),
            "{e}"
        );
        let e = Rules::from_toml("knock_limit = 11")
            .unwrap_err()
            .to_string();
        assert!(e.contains("0 to 10"), "{e}");
        let e = Rules::from_toml("preset = \"vegas\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("vegas") && e.contains("eaai"), "{e}");
        let e = Rules::from_toml("gin_bonus = ").unwrap_err().to_string();
        assert!(e.contains("TOML"), "{e}");
        assert!(Rules::from_toml("max_turns = 0").is_err());
        assert!(Rules::from_toml("game_target = 0").is_err());
        let mut r = Rules::standard();
        assert!(matches!(
            r.set_from_text("gin_bonus"),
            Err(RulesError::Assignment(_))
        ));
        // Found by tests/it/fuzz.rs: text after the value was read as more
        // TOML and dropped, so these set gin_bonus to 5. (The message
        // shows the line break escaped.)
        for text in ["gin_bonus=5\nx = 1", "gin_bonus=5\n[t]"] {
            let e = r.set_from_text(text).unwrap_err().to_string();
            let value = &crate::echo::echo(&text["gin_bonus=".len()..]);
            assert!(
                e.contains(value) && e.contains("it takes an integer 0 to 1000"),
                "{e}"
            );
        }
        assert_eq!(r.gin_bonus, 20);
        let twice = ["gin_bonus=5".to_owned(), " gin_bonus = 6".to_owned()];
        let (at, e) = r.set_all_from_text(&twice).unwrap_err();
        assert_eq!(at, " gin_bonus = 6");
        assert_eq!(e, RulesError::GivenTwice("gin_bonus".into()));
        assert!(e.to_string().contains("`gin_bonus` is given twice"), "{e}");
        let typo = ["gin_bonus=5".to_owned(), "gin_bonsu=6".to_owned()];
        let (at, e) = r.set_all_from_text(&typo).unwrap_err();
        assert_eq!(at, "gin_bonsu=6");
        assert!(e.to_string().ends_with("did you mean `gin_bonus`?"), "{e}");
        let e = Rules::from_toml("preset = \"oklahoma\"\ndeal = \"eleven_cards\"").unwrap_err();
        assert!(e.to_string().contains("eleven_cards"), "{e}");
    }

    #[test]
    fn rules_round_trip_through_the_table() {
        use serde_json::json;
        for name in super::super::PRESETS {
            let rules = Rules::preset(name).unwrap();
            assert_eq!(rules_from_table(&rules_table(&rules)).unwrap(), rules);
        }
        assert!(rules_from_table(&json!({"gin_bonus": "x"})).is_err());
        assert!(rules_from_table(&json!({"no_such": 1})).is_err());
        assert!(rules_from_table(&json!([1])).is_err());
    }

    /// Values with no TOML form (found by tests/it/fuzz.rs): the error names the
    /// knob and what it takes, not "null" for a huge number.
    #[test]
    fn knob_table_values_without_toml_form() {
        use serde_json::json;
        for value in [json!(null), json!(u64::MAX), json!([1, null])] {
            let e = rules_from_table(&json!({ "gin_bonus": value.clone() })).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("bad value {value} for `gin_bonus`: it takes an integer 0 to 1000")
            );
        }
        let e = rules_from_table(&json!({ "gin_bonsu": null })).unwrap_err();
        assert!(e.to_string().contains("unknown knob `gin_bonsu`"), "{e}");
    }
}
