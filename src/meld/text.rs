//! Arrangement notation: melds in square brackets, deadwood as loose cards,
//! `[3C 3H 3S] [4S 5S 6S] AC 6C AS 2S`.

use std::str::FromStr;

use crate::cards::{Card, CardSet, ParseCardsError};

use super::{Arrangement, ArrangementError, Meld, MeldError};

/// A hand given as text: either plain cards (the solver chooses the melds) or
/// an arrangement in bracket notation (used as given).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandSpec {
    /// Plain cards, no brackets.
    Cards(CardSet),
    /// Bracket notation: every bracket checked to be a legal meld.
    Arranged(Arrangement),
}

impl HandSpec {
    /// All the cards.
    pub fn cards(&self) -> CardSet {
        match self {
            HandSpec::Cards(cards) => *cards,
            HandSpec::Arranged(arrangement) => arrangement.hand(),
        }
    }
}

/// What is wrong with a hand in card or bracket notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseArrangementError {
    /// A card token is bad or repeated.
    #[error(transparent)]
    Cards(#[from] ParseCardsError),
    /// A `[` inside brackets, or a `]` with no `[`, or a `[` never closed.
    #[error("unbalanced brackets: write each meld as [C C C ...] with no nesting")]
    Brackets,
    /// A bracket holds cards that are not a set or a run.
    #[error(transparent)]
    Meld(#[from] MeldError),
    /// The melds do not fit the hand.
    #[error(transparent)]
    Arrangement(#[from] ArrangementError),
}

impl FromStr for HandSpec {
    type Err = ParseArrangementError;

    fn from_str(s: &str) -> Result<HandSpec, ParseArrangementError> {
        if !s.contains(['[', ']']) {
            return Ok(HandSpec::Cards(s.parse()?));
        }
        s.parse().map(HandSpec::Arranged)
    }
}

/// Parses bracket notation; text without brackets is a hand with no melds.
impl FromStr for Arrangement {
    type Err = ParseArrangementError;

    fn from_str(s: &str) -> Result<Arrangement, ParseArrangementError> {
        let mut hand = CardSet::EMPTY;
        let mut melds: Vec<Meld> = Vec::new();
        let mut open: Option<CardSet> = None;
        let add = |token: &str, hand: &mut CardSet| -> Result<Card, ParseArrangementError> {
            let card: Card = token.parse().map_err(ParseCardsError::from)?;
            if !hand.insert(card) {
                return Err(ParseCardsError::Duplicate(card).into());
            }
            Ok(card)
        };
        // Split so that brackets are tokens of their own.
        let spaced = s.replace('[', " [ ").replace(']', " ] ");
        for token in crate::cards::card_tokens(&spaced) {
            match (token, &mut open) {
                ("[", None) => open = Some(CardSet::EMPTY),
                ("]", Some(cards)) => {
                    melds.push(Meld::try_new(*cards)?);
                    open = None;
                }
                ("[" | "]", _) => return Err(ParseArrangementError::Brackets),
                (token, Some(cards)) => {
                    let card = add(token, &mut hand)?;
                    cards.insert(card);
                }
                (token, None) => {
                    add(token, &mut hand)?;
                }
            }
        }
        if open.is_some() {
            return Err(ParseArrangementError::Brackets);
        }
        Ok(Arrangement::new(hand, melds)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text = "[3C 3H 3S] [4S 5S 6S] AC 6C AS 2S";
        let arrangement: Arrangement = text.parse().unwrap();
        assert_eq!(arrangement.to_string(), text);
        assert_eq!(arrangement.hand().len(), 10);
        let messy: Arrangement = "AC [4s,5s,6s] 6C [3c 3h 3s]as 2s".parse().unwrap();
        assert_eq!(messy, arrangement);
    }

    #[test]
    fn spec_kinds() {
        assert!(matches!(
            "AS 2S".parse::<HandSpec>(),
            Ok(HandSpec::Cards(_))
        ));
        assert!(matches!(
            "[AS 2S 3S]".parse::<HandSpec>(),
            Ok(HandSpec::Arranged(_))
        ));
    }

    #[test]
    fn errors() {
        let e = |s: &str| s.parse::<Arrangement>().unwrap_err();
        assert_eq!(e("[AS 2S 3S"), ParseArrangementError::Brackets);
        assert_eq!(e("AS] 2S"), ParseArrangementError::Brackets);
        assert_eq!(e("[AS [2S] 3S]"), ParseArrangementError::Brackets);
        assert!(matches!(e("[AS 2S 4S]"), ParseArrangementError::Meld(_)));
        assert!(
            e("[AS 2S 4S]")
                .to_string()
                .contains("[AS 2S 4S] is not a meld")
        );
        assert!(matches!(
            e("[AS 2S 3S] AS"),
            ParseArrangementError::Cards(_)
        ));
        assert!(matches!(e("[AS 2S XS]"), ParseArrangementError::Cards(_)));
    }
}
