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
    /// The name, spelled as in RULES.md.
    pub name: &'static str,
    /// The allowed values, for error messages and `ginlab rules`.
    pub allowed: &'static str,
}

/// Every knob, in the order of RULES.md's table.
pub const KNOBS: &[Knob] = &[
    Knob {
        name: "knock_limit",
        allowed: "an integer 0 to 10, or \"upcard\"",
    },
    Knob {
        name: "ace_upcard_gin_only",
        allowed: "true or false",
    },
    Knob {
        name: "spade_upcard_doubles",
        allowed: "true or false",
    },
    Knob {
        name: "gin_bonus",
        allowed: "an integer 0 to 1000",
    },
    Knob {
        name: "undercut_bonus",
        allowed: "an integer 0 to 1000",
    },
    Knob {
        name: "undercut_on_tie",
        allowed: "true or false",
    },
    Knob {
        name: "big_gin_bonus",
        allowed: "an integer 0 to 1000, or \"off\"",
    },
    Knob {
        name: "box_bonus",
        allowed: "an integer 0 to 1000",
    },
    Knob {
        name: "game_target",
        allowed: "an integer 1 to 10000",
    },
    Knob {
        name: "game_bonus",
        allowed: "an integer 0 to 1000",
    },
    Knob {
        name: "shutout",
        allowed: "\"double_game_bonus\", \"double_total\", \"double_hands\" or \"none\"",
    },
    Knob {
        name: "next_dealer",
        allowed: "\"loser\", \"winner\" or \"alternate\"",
    },
    Knob {
        name: "last_discard_action",
        allowed: "true or false",
    },
    Knob {
        name: "deal",
        allowed: "\"upcard_offer\" or \"eleven_cards\"",
    },
    Knob {
        name: "max_turns",
        allowed: "an integer 1 to 10000",
    },
    Knob {
        name: "oklahoma_boxes",
        allowed: "true or false",
    },
];

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

fn int(knob: &Knob, value: &Value, min: i64, max: i64) -> Result<u32, RulesError> {
    match value {
        Value::Integer(i) if (min..=max).contains(i) => Ok(*i as u32),
        _ => Err(bad(knob, value)),
    }
}

fn boolean(knob: &Knob, value: &Value) -> Result<bool, RulesError> {
    value.as_bool().ok_or_else(|| bad(knob, value))
}

fn word<T: Copy>(knob: &Knob, value: &Value, words: &[(&str, T)]) -> Result<T, RulesError> {
    let text = value.as_str().ok_or_else(|| bad(knob, value))?;
    words
        .iter()
        .find(|(w, _)| *w == text)
        .map(|&(_, t)| t)
        .ok_or_else(|| bad(knob, value))
}

const SHUTOUTS: [(&str, Shutout); 4] = [
    ("double_game_bonus", Shutout::DoubleGameBonus),
    ("double_total", Shutout::DoubleTotal),
    ("double_hands", Shutout::DoubleHands),
    ("none", Shutout::None),
];
const DEALERS: [(&str, NextDealer); 3] = [
    ("loser", NextDealer::Loser),
    ("winner", NextDealer::Winner),
    ("alternate", NextDealer::Alternate),
];
const DEALS: [(&str, Deal); 2] = [
    ("upcard_offer", Deal::UpcardOffer),
    ("eleven_cards", Deal::ElevenCards),
];

fn name_of<T: PartialEq>(words: &[(&'static str, T)], value: T) -> &'static str {
    words
        .iter()
        .find(|(_, t)| *t == value)
        .map(|(w, _)| *w)
        .unwrap()
}

impl Rules {
    /// Sets knob `name` to `value`.
    ///
    /// # Errors
    /// [`RulesError::UnknownKnob`] (listing the knobs) or
    /// [`RulesError::BadValue`] (listing the allowed values).
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), RulesError> {
        let k = knob(name)?;
        match name {
            "knock_limit" => {
                self.knock_limit = match value {
                    Value::String(s) if s == "upcard" => KnockLimit::Upcard,
                    _ => KnockLimit::Fixed(int(k, value, 0, 10)? as u8),
                }
            }
            "ace_upcard_gin_only" => self.ace_upcard_gin_only = boolean(k, value)?,
            "spade_upcard_doubles" => self.spade_upcard_doubles = boolean(k, value)?,
            "gin_bonus" => self.gin_bonus = int(k, value, 0, 1000)?,
            "undercut_bonus" => self.undercut_bonus = int(k, value, 0, 1000)?,
            "undercut_on_tie" => self.undercut_on_tie = boolean(k, value)?,
            "big_gin_bonus" => {
                self.big_gin_bonus = match value {
                    Value::String(s) if s == "off" => None,
                    _ => Some(int(k, value, 0, 1000)?),
                }
            }
            "box_bonus" => self.box_bonus = int(k, value, 0, 1000)?,
            "game_target" => self.game_target = int(k, value, 1, 10_000)?,
            "game_bonus" => self.game_bonus = int(k, value, 0, 1000)?,
            "shutout" => self.shutout = word(k, value, &SHUTOUTS)?,
            "next_dealer" => self.next_dealer = word(k, value, &DEALERS)?,
            "last_discard_action" => self.last_discard_action = boolean(k, value)?,
            "deal" => self.deal = word(k, value, &DEALS)?,
            "max_turns" => self.max_turns = int(k, value, 1, 10_000)?,
            "oklahoma_boxes" => self.oklahoma_boxes = boolean(k, value)?,
            _ => unreachable!("every knob of KNOBS is handled"),
        }
        Ok(())
    }

    /// Knob `name` as a TOML value.
    ///
    /// # Errors
    /// [`RulesError::UnknownKnob`].
    pub fn get(&self, name: &str) -> Result<Value, RulesError> {
        knob(name)?;
        let int = |n: u32| Value::Integer(n.into());
        Ok(match name {
            "knock_limit" => match self.knock_limit {
                KnockLimit::Fixed(n) => int(n.into()),
                KnockLimit::Upcard => Value::String("upcard".into()),
            },
            "ace_upcard_gin_only" => Value::Boolean(self.ace_upcard_gin_only),
            "spade_upcard_doubles" => Value::Boolean(self.spade_upcard_doubles),
            "gin_bonus" => int(self.gin_bonus),
            "undercut_bonus" => int(self.undercut_bonus),
            "undercut_on_tie" => Value::Boolean(self.undercut_on_tie),
            "big_gin_bonus" => self.big_gin_bonus.map_or(Value::String("off".into()), int),
            "box_bonus" => int(self.box_bonus),
            "game_target" => int(self.game_target),
            "game_bonus" => int(self.game_bonus),
            "shutout" => Value::String(name_of(&SHUTOUTS, self.shutout).into()),
            "next_dealer" => Value::String(name_of(&DEALERS, self.next_dealer).into()),
            "last_discard_action" => Value::Boolean(self.last_discard_action),
            "deal" => Value::String(name_of(&DEALS, self.deal).into()),
            "max_turns" => int(self.max_turns),
            "oklahoma_boxes" => Value::Boolean(self.oklahoma_boxes),
            _ => unreachable!("every knob of KNOBS is handled"),
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;

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
        // Found by tests/fuzz.rs: text after the value was read as more
        // TOML and dropped, so these set gin_bonus to 5.
        for text in ["gin_bonus=5\nx = 1", "gin_bonus=5\n[t]"] {
            let e = r.set_from_text(text).unwrap_err().to_string();
            let value = &text["gin_bonus=".len()..];
            assert!(
                e.contains(value) && e.contains("it takes an integer 0 to 1000"),
                "{e}"
            );
        }
        assert_eq!(r.gin_bonus, 20);
        let e = Rules::from_toml("preset = \"oklahoma\"\ndeal = \"eleven_cards\"").unwrap_err();
        assert!(e.to_string().contains("eleven_cards"), "{e}");
    }
}
