//! Hand scoring: the facts of a [`Showdown`] priced under [`Rules`].
//!
//! - Gin: the knocker scores the gin bonus plus the defender's deadwood (the
//!   defender laid nothing off). Gin is never undercut.
//! - Big gin: the big-gin bonus plus the defender's deadwood.
//! - Knock: knocker's deadwood below the defender's (after lay-offs): the
//!   knocker scores the difference.
//! - Undercut: otherwise the defender scores the difference plus the undercut
//!   bonus; an equal count is an undercut only under `undercut_on_tie`, and
//!   without it scores nothing (a [`HandEnd::Tie`] with no winner).
//! - A spade upcard under `spade_upcard_doubles` doubles the whole score.

use crate::cards::Card;
use crate::meld::Showdown;
use crate::rules::Rules;

/// One of the two players of a showdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player who knocked.
    Knocker,
    /// The other player.
    Defender,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandEnd {
    /// A knock the knocker won.
    Knock,
    /// Gin (10 cards melded).
    Gin,
    /// Big gin (11 cards melded).
    BigGin,
    /// The defender's deadwood was not higher: the defender won.
    Undercut,
    /// Equal counts with `undercut_on_tie` off: no score.
    Tie,
}

impl HandEnd {
    /// The lower-case name used in CSV and text (`knock`, `gin`, `big_gin`,
    /// `undercut`, `tie`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            HandEnd::Knock => "knock",
            HandEnd::Gin => "gin",
            HandEnd::BigGin => "big_gin",
            HandEnd::Undercut => "undercut",
            HandEnd::Tie => "tie",
        }
    }
}

/// The priced result of a showdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandScore {
    /// How the hand ended.
    pub end: HandEnd,
    /// Who scored; `None` for a tie.
    pub winner: Option<Side>,
    /// The points the winner scores (0 for a tie).
    pub points: u32,
}

/// Prices `showdown` under `rules`; `upcard` is the hand's upcard (`None` for
/// the eleven-card deal), used for Oklahoma's spade doubling.
#[must_use]
pub fn score_showdown(showdown: &Showdown, rules: &Rules, upcard: Option<Card>) -> HandScore {
    let knocker = showdown.knocker_deadwood() as u32;
    let defender = showdown.defender_deadwood() as u32;
    // Gin and big gin read from the deadwood counted once
    // (`Showdown::is_gin` and `is_big_gin` would count it again).
    let gin = knocker == 0;
    let (end, winner, points) = if gin && showdown.knocker.hand().len() == 11 {
        let bonus = rules.big_gin_bonus.unwrap_or(rules.gin_bonus);
        (HandEnd::BigGin, Some(Side::Knocker), bonus + defender)
    } else if gin {
        (
            HandEnd::Gin,
            Some(Side::Knocker),
            rules.gin_bonus + defender,
        )
    } else if knocker < defender {
        (HandEnd::Knock, Some(Side::Knocker), defender - knocker)
    } else if knocker == defender && !rules.undercut_on_tie {
        (HandEnd::Tie, None, 0)
    } else {
        let points = knocker - defender + rules.undercut_bonus;
        (HandEnd::Undercut, Some(Side::Defender), points)
    };
    HandScore {
        end,
        winner,
        points: points * rules.hand_multiplier(upcard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::showdown_with;

    fn score(knocker: &str, defender: &str, rules: &Rules, upcard: Option<&str>) -> HandScore {
        let s = showdown_with(knocker.parse().unwrap(), defender.parse().unwrap(), 10).unwrap();
        score_showdown(&s, rules, upcard.map(|c| c.parse().unwrap()))
    }

    const KNOCKER_5: &str = "[AS 2S 3S] [2H 3H 4H] [KC KD KH] 5D";

    #[test]
    fn knock_wins_the_difference() {
        let s = score(
            KNOCKER_5,
            "6C 7C 9D TD QS JH 8H 6S 9H 2C",
            &Rules::standard(),
            None,
        );
        // Nothing to lay off: AS-3S wants 4S, 2H-4H wants AH or 5H, the kings KS.
        let dead = 6 + 7 + 9 + 10 + 10 + 10 + 8 + 6 + 9 + 2;
        assert_eq!(
            s,
            HandScore {
                end: HandEnd::Knock,
                winner: Some(Side::Knocker),
                points: dead - 5
            }
        );
    }

    #[test]
    fn undercut_and_the_tie_knob() {
        // Defender: [7C 8C 9C] [TD JD QD] [QC QH QS] 5C  -> deadwood 5 = tie.
        let defender = "7C 8C 9C TD JD QD QC QH QS 5C";
        let s = score(KNOCKER_5, defender, &Rules::standard(), None);
        assert_eq!(
            s,
            HandScore {
                end: HandEnd::Undercut,
                winner: Some(Side::Defender),
                points: 10
            }
        );
        let off = Rules {
            undercut_on_tie: false,
            ..Rules::standard()
        };
        assert_eq!(
            score(KNOCKER_5, defender, &off, None),
            HandScore {
                end: HandEnd::Tie,
                winner: None,
                points: 0
            }
        );
        // Defender deadwood 4 < 5: undercut by 1, plus the bonus.
        let s = score(
            KNOCKER_5,
            "7C 8C 9C TD JD QD QC QH QS 4C",
            &Rules::hoyle(),
            None,
        );
        assert_eq!(
            s,
            HandScore {
                end: HandEnd::Undercut,
                winner: Some(Side::Defender),
                points: 1 + 25
            }
        );
    }

    #[test]
    fn gin_is_never_undercut() {
        let gin = "[AS 2S 3S] [2H 3H 4H] [KC KD KH KS]";
        let s = score(
            gin,
            "7C 8C 9C TD JD QD QC QH 5C 6C",
            &Rules::standard(),
            None,
        );
        // Defender: [5C .. 9C] [TD JD QD] QC QH = 20, and no lay-offs on gin.
        assert_eq!(
            s,
            HandScore {
                end: HandEnd::Gin,
                winner: Some(Side::Knocker),
                points: 20 + 20
            }
        );
    }

    #[test]
    fn big_gin_and_spade_doubling() {
        let big = "[AS 2S 3S 4S] [2H 3H 4H] [KC KD KH KS]";
        let defender = "7C 8C 9C TD JD QD QC QH 5C 6D";
        let s = score(big, defender, &Rules::hoyle(), None);
        assert_eq!(
            s,
            HandScore {
                end: HandEnd::BigGin,
                winner: Some(Side::Knocker),
                points: 31 + 31
            }
        );
        let s = score(
            KNOCKER_5,
            "6C 7C 9D TD QS JH 8H 6S 9H 2C",
            &Rules::oklahoma(),
            Some("9S"),
        );
        assert_eq!(s.points, 2 * (77 - 5));
    }
}
