//! The rule knobs of `RULES.md` and the named presets.
//!
//! Every difference between the rule pages is a knob of [`Rules`]; a preset
//! ([`Rules::standard`], [`Rules::hoyle`], [`Rules::oklahoma`], [`Rules::eaai`])
//! pins them. A knob a preset does not mention keeps the `standard` value.
//! Field names are spelled exactly as in `RULES.md`.

mod knobs;

use crate::cards::{Card, Rank, Suit};
use crate::echo::echo;
use crate::suggest::did_you_mean;

pub use knobs::{KNOBS, Knob, rules_from_table, rules_table};

/// How high a knocker's deadwood may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KnockLimit {
    /// A fixed limit; 0 is Straight Gin (only gin ends a hand).
    Fixed(u8),
    /// Oklahoma: the value of the upcard (J/Q/K = 10, ace = 1).
    Upcard,
}

/// What a shutout (the loser scored nothing) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shutout {
    /// The game bonus is doubled.
    DoubleGameBonus,
    /// The winner's whole score is doubled.
    DoubleTotal,
    /// The winner's hand points are doubled before box bonuses.
    DoubleHands,
    /// No effect.
    None,
}

/// Who deals the next hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextDealer {
    /// The loser of the previous hand.
    Loser,
    /// The winner of the previous hand.
    Winner,
    /// The players take turns.
    Alternate,
}

/// How a hand is dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Deal {
    /// 10 cards each and an upcard offered to the non-dealer, then the dealer.
    UpcardOffer,
    /// 11 cards to the non-dealer, 10 to the dealer, no upcard.
    ElevenCards,
}

/// Every rule knob of `RULES.md`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Highest deadwood a player may knock with.
    pub knock_limit: KnockLimit,
    /// Oklahoma: with an ace upcard only gin may end the hand.
    pub ace_upcard_gin_only: bool,
    /// Oklahoma: a spade upcard doubles the whole hand score, bonuses included.
    pub spade_upcard_doubles: bool,
    /// Bonus for going gin.
    pub gin_bonus: u32,
    /// Bonus for an undercut.
    pub undercut_bonus: u32,
    /// Whether an equal count is an undercut (off: it scores nothing).
    pub undercut_on_tie: bool,
    /// Bonus for big gin; `None` when big gin is not allowed.
    pub big_gin_bonus: Option<u32>,
    /// Box (line) bonus per hand won, at the end of the game.
    pub box_bonus: u32,
    /// Cumulative hand score that ends the game.
    pub game_target: u32,
    /// Bonus for winning the game.
    pub game_bonus: u32,
    /// What a shutout does.
    pub shutout: Shutout,
    /// Who deals next.
    pub next_dealer: NextDealer,
    /// After the stock is down to 2 cards, the other player may take the last
    /// discard, but only to knock or go gin.
    pub last_discard_action: bool,
    /// How hands are dealt.
    pub deal: Deal,
    /// Turns (both players counted) after which a hand is void.
    pub max_turns: u32,
    /// Oklahoma's extra boxes: an undercut +1 box, a gin +2 boxes, doubled on
    /// a spade upcard.
    pub oklahoma_boxes: bool,
}

/// The preset names, in the order of `RULES.md`.
pub const PRESETS: [&str; 4] = ["standard", "hoyle", "oklahoma", "eaai"];

/// What is wrong with a rules name, file, knob or value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// No preset has this name.
    #[error(
        "unknown rules `{}`: the presets are standard, hoyle, oklahoma, eaai{}",
        echo(.0),
        did_you_mean(.0, PRESETS)
    )]
    UnknownPreset(String),
    /// No knob has this name.
    #[error(
        "unknown knob `{}`: the knobs are {list}{}",
        echo(.0),
        did_you_mean(.0, KNOBS.iter().map(|k| k.name)),
        list = knob_list()
    )]
    UnknownKnob(String),
    /// A knob got a value it does not take.
    #[error("bad value {} for `{knob}`: it takes {allowed}", echo(value))]
    BadValue {
        /// The knob.
        knob: &'static str,
        /// The value given, as TOML.
        value: String,
        /// What it takes.
        allowed: &'static str,
    },
    /// Command-line text that is not `knob=value`.
    #[error(
        "`{}` is not a knob assignment: write knob=value, e.g. gin_bonus=25",
        echo(.0)
    )]
    Assignment(String),
    /// A knob assigned twice on the command line.
    #[error("`{}` is given twice: give each knob once", echo(.0))]
    GivenTwice(String),
    /// The rules file is not valid TOML.
    #[error("invalid TOML: {0}")]
    Toml(String),
    /// Knobs that contradict each other.
    #[error("{0}")]
    Inconsistent(&'static str),
    /// The knock limit is the upcard's value but there is no upcard.
    #[error("knock_limit = upcard needs the hand's upcard")]
    NeedsUpcard,
}

fn knob_list() -> String {
    KNOBS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
}

impl Rules {
    /// The Pagat rules (seeds 000/001/004).
    pub fn standard() -> Rules {
        Rules {
            knock_limit: KnockLimit::Fixed(10),
            ace_upcard_gin_only: false,
            spade_upcard_doubles: false,
            gin_bonus: 20,
            undercut_bonus: 10,
            undercut_on_tie: true,
            big_gin_bonus: None,
            box_bonus: 20,
            game_target: 100,
            game_bonus: 100,
            shutout: Shutout::DoubleGameBonus,
            next_dealer: NextDealer::Loser,
            last_discard_action: false,
            deal: Deal::UpcardOffer,
            max_turns: 200,
            oklahoma_boxes: false,
        }
    }

    /// The 25-point scoring of seeds 001 (second part), 002 and 003.
    pub fn hoyle() -> Rules {
        Rules {
            gin_bonus: 25,
            undercut_bonus: 25,
            big_gin_bonus: Some(31),
            box_bonus: 25,
            shutout: Shutout::DoubleTotal,
            next_dealer: NextDealer::Alternate,
            ..Rules::standard()
        }
    }

    /// Oklahoma Gin (seed 000).
    pub fn oklahoma() -> Rules {
        Rules {
            knock_limit: KnockLimit::Upcard,
            ace_upcard_gin_only: true,
            spade_upcard_doubles: true,
            gin_bonus: 25,
            undercut_bonus: 25,
            box_bonus: 25,
            game_target: 150,
            ..Rules::standard()
        }
    }

    /// The EAAI-21 Gin Rummy challenge rules.
    pub fn eaai() -> Rules {
        Rules {
            gin_bonus: 25,
            undercut_bonus: 25,
            box_bonus: 0,
            game_bonus: 0,
            shutout: Shutout::None,
            next_dealer: NextDealer::Alternate,
            ..Rules::standard()
        }
    }

    /// The preset called `name` (see [`PRESETS`]).
    ///
    /// # Errors
    /// [`RulesError::UnknownPreset`], listing the presets.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        match name {
            "standard" => Ok(Rules::standard()),
            "hoyle" => Ok(Rules::hoyle()),
            "oklahoma" => Ok(Rules::oklahoma()),
            "eaai" => Ok(Rules::eaai()),
            _ => Err(RulesError::UnknownPreset(name.to_owned())),
        }
    }

    /// Checks that the knobs fit together.
    ///
    /// # Errors
    /// [`RulesError::Inconsistent`] naming the knobs.
    pub fn validate(&self) -> Result<(), RulesError> {
        // The eleven-card deal has no upcard, so a knob about the upcard
        // would silently do nothing: refused like the knock limit, which
        // cannot work at all (see docs/RULES.md).
        if self.deal == Deal::ElevenCards {
            if self.knock_limit == KnockLimit::Upcard {
                return Err(RulesError::Inconsistent(
                    "knock_limit = \"upcard\" needs an upcard, but deal = \"eleven_cards\" deals none",
                ));
            }
            if self.ace_upcard_gin_only {
                return Err(RulesError::Inconsistent(
                    "ace_upcard_gin_only = true is about the upcard, but deal = \"eleven_cards\" deals none: set it to false",
                ));
            }
            if self.spade_upcard_doubles {
                return Err(RulesError::Inconsistent(
                    "spade_upcard_doubles = true is about the upcard, but deal = \"eleven_cards\" deals none: set it to false",
                ));
            }
        }
        Ok(())
    }

    /// The knock limit in force for a hand with this upcard (`None` for the
    /// eleven-card deal). An ace upcard under `ace_upcard_gin_only` allows
    /// only gin (limit 0).
    ///
    /// # Errors
    /// [`RulesError::NeedsUpcard`] if the limit is the upcard's value and
    /// there is none.
    pub fn knock_limit_for(&self, upcard: Option<Card>) -> Result<u8, RulesError> {
        if self.ace_upcard_gin_only && upcard.is_some_and(|c| c.rank() == Rank::Ace) {
            return Ok(0);
        }
        match self.knock_limit {
            KnockLimit::Fixed(limit) => Ok(limit),
            KnockLimit::Upcard => upcard.map(Card::value).ok_or(RulesError::NeedsUpcard),
        }
    }

    /// The factor a hand's score is multiplied by: 2 on a spade upcard under
    /// `spade_upcard_doubles`, else 1.
    #[must_use]
    pub fn hand_multiplier(&self, upcard: Option<Card>) -> u32 {
        if self.spade_upcard_doubles && upcard.is_some_and(|c| c.suit() == Suit::Spades) {
            2
        } else {
            1
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md's preset table, row by row (columns standard, hoyle,
    /// oklahoma, eaai, as `ginlab rules` prints the values), plus the knobs
    /// it does not mention, which keep the `standard` value in every preset.
    const TABLE: &[(&str, [&str; 4])] = &[
        ("knock_limit", ["10", "10", "\"upcard\"", "10"]),
        ("ace_upcard_gin_only", ["false", "false", "true", "false"]),
        ("spade_upcard_doubles", ["false", "false", "true", "false"]),
        ("gin_bonus", ["20", "25", "25", "25"]),
        ("undercut_bonus", ["10", "25", "25", "25"]),
        ("undercut_on_tie", ["true", "true", "true", "true"]),
        ("big_gin_bonus", ["\"off\"", "31", "\"off\"", "\"off\""]),
        ("box_bonus", ["20", "25", "25", "0"]),
        ("game_target", ["100", "100", "150", "100"]),
        ("game_bonus", ["100", "100", "100", "0"]),
        (
            "shutout",
            [
                "\"double_game_bonus\"",
                "\"double_total\"",
                "\"double_game_bonus\"",
                "\"none\"",
            ],
        ),
        (
            "next_dealer",
            ["\"loser\"", "\"alternate\"", "\"loser\"", "\"alternate\""],
        ),
        ("last_discard_action", ["false", "false", "false", "false"]),
        (
            "deal",
            [
                "\"upcard_offer\"",
                "\"upcard_offer\"",
                "\"upcard_offer\"",
                "\"upcard_offer\"",
            ],
        ),
        // Not in the table: the standard value everywhere.
        ("max_turns", ["200", "200", "200", "200"]),
        ("oklahoma_boxes", ["false", "false", "false", "false"]),
    ];

    #[test]
    fn presets_match_the_table() {
        let knobs: Vec<&str> = TABLE.iter().map(|(knob, _)| *knob).collect();
        let all: Vec<&str> = KNOBS.iter().map(|k| k.name).collect();
        assert_eq!(knobs, all, "the table lists every knob once, in order");
        for (column, name) in PRESETS.into_iter().enumerate() {
            let rules = Rules::preset(name).unwrap();
            for (knob, values) in TABLE {
                assert_eq!(
                    rules.get(knob).unwrap().to_string(),
                    values[column],
                    "{name}: {knob}"
                );
            }
        }
        assert!(
            Rules::preset("vegas")
                .unwrap_err()
                .to_string()
                .contains("standard, hoyle, oklahoma, eaai")
        );
    }

    #[test]
    fn upcard_knobs_need_an_upcard() {
        let eleven = Rules {
            deal: Deal::ElevenCards,
            ..Rules::standard()
        };
        assert_eq!(eleven.validate(), Ok(()));
        for (rules, knob) in [
            (
                Rules {
                    ace_upcard_gin_only: true,
                    ..eleven.clone()
                },
                "ace_upcard_gin_only",
            ),
            (
                Rules {
                    spade_upcard_doubles: true,
                    ..eleven.clone()
                },
                "spade_upcard_doubles",
            ),
            (
                Rules {
                    knock_limit: KnockLimit::Upcard,
                    ..eleven.clone()
                },
                "knock_limit",
            ),
        ] {
            let e = rules.validate().unwrap_err().to_string();
            assert!(e.starts_with(knob) && e.contains("eleven_cards"), "{e}");
        }
        // Oklahoma's boxes need no upcard (only their doubling does).
        let boxes = Rules {
            oklahoma_boxes: true,
            ..eleven
        };
        assert_eq!(boxes.validate(), Ok(()));
    }

    #[test]
    fn oklahoma_knock_limit() {
        let o = Rules::oklahoma();
        let card = |s: &str| s.parse::<Card>().ok();
        assert_eq!(o.knock_limit_for(card("7H")), Ok(7));
        assert_eq!(o.knock_limit_for(card("KD")), Ok(10));
        assert_eq!(o.knock_limit_for(card("AC")), Ok(0));
        assert_eq!(o.knock_limit_for(None), Err(RulesError::NeedsUpcard));
        assert_eq!(o.hand_multiplier(card("2S")), 2);
        assert_eq!(o.hand_multiplier(card("2C")), 1);
        assert_eq!(Rules::standard().hand_multiplier(card("2S")), 1);
        assert_eq!(Rules::standard().knock_limit_for(card("AC")), Ok(10));
    }
}
