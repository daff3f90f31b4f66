//! Card text: `AS 7H TD KC`.
//!
//! Output is always rank letter then suit letter, upper case, `T` for ten.
//! Input also accepts `10` for the ten, lower case, and the suit symbols
//! `♣ ♦ ♥ ♠` (and their white forms `♧ ♢ ♡ ♤`). A list of cards is separated
//! by white space or commas.

use std::fmt;
use std::str::FromStr;

use super::{Card, CardSet, Rank, Suit};
use crate::echo::echo;

/// What is wrong with one card token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseCardError {
    /// The token was empty.
    #[error(
        "empty card: a card is a rank (A 2-9 T/10 J Q K) then a suit (C D H S or ♣ ♦ ♥ ♠), e.g. AS or 10h"
    )]
    Empty,
    /// The rank part is not a rank.
    #[error(
        "invalid card `{}`: unknown rank `{}`; ranks are A 2 3 4 5 6 7 8 9 T (or 10) J Q K",
        echo(token),
        echo(rank)
    )]
    UnknownRank {
        /// The whole token.
        token: String,
        /// Its rank part.
        rank: String,
    },
    /// The last character is not a suit.
    #[error(
        "invalid card `{}`: unknown suit `{}`; suits are C D H S (or ♣ ♦ ♥ ♠)",
        echo(token),
        echo(&suit.to_string())
    )]
    UnknownSuit {
        /// The whole token.
        token: String,
        /// Its last character.
        suit: char,
    },
}

/// What is wrong with a list of cards.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseCardsError {
    /// One token is not a card.
    #[error(transparent)]
    Card(#[from] ParseCardError),
    /// A card appears twice.
    #[error("duplicate card {0}: each card may appear only once")]
    Duplicate(Card),
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Cards in bit order separated by single spaces; the empty set prints as
/// nothing.
impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

fn parse_suit(c: char) -> Option<Suit> {
    Some(match c {
        'C' | 'c' | '♣' | '♧' => Suit::Clubs,
        'D' | 'd' | '♦' | '♢' => Suit::Diamonds,
        'H' | 'h' | '♥' | '♡' => Suit::Hearts,
        'S' | 's' | '♠' | '♤' => Suit::Spades,
        _ => return None,
    })
}

fn parse_rank(s: &str) -> Option<Rank> {
    if s == "10" {
        return Some(Rank::Ten);
    }
    let mut chars = s.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    Some(match c.to_ascii_uppercase() {
        'A' => Rank::Ace,
        d @ '2'..='9' => Rank::new(d as u8 - b'1'),
        'T' => Rank::Ten,
        'J' => Rank::Jack,
        'Q' => Rank::Queen,
        'K' => Rank::King,
        _ => return None,
    })
}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(token: &str) -> Result<Card, ParseCardError> {
        let token = token.trim();
        let Some(suit_char) = token.chars().next_back() else {
            return Err(ParseCardError::Empty);
        };
        let rank_part = &token[..token.len() - suit_char.len_utf8()];
        let Some(suit) = parse_suit(suit_char) else {
            return Err(ParseCardError::UnknownSuit {
                token: token.to_owned(),
                suit: suit_char,
            });
        };
        let Some(rank) = parse_rank(rank_part) else {
            return Err(ParseCardError::UnknownRank {
                token: token.to_owned(),
                rank: rank_part.to_owned(),
            });
        };
        Ok(Card::new(rank, suit))
    }
}

/// Parses cards separated by white space or commas; rejects duplicates.
impl FromStr for CardSet {
    type Err = ParseCardsError;

    fn from_str(s: &str) -> Result<CardSet, ParseCardsError> {
        let mut set = CardSet::EMPTY;
        for token in card_tokens(s) {
            let card: Card = token.parse()?;
            if !set.insert(card) {
                return Err(ParseCardsError::Duplicate(card));
            }
        }
        Ok(set)
    }
}

/// Splits card text into tokens at white space and commas.
pub(crate) fn card_tokens(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_parse_round_trip() {
        for card in Card::all() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>(), Ok(card));
            assert_eq!(text.to_lowercase().parse::<Card>(), Ok(card));
        }
        let set: CardSet = "AS 7H TD KC".parse().unwrap();
        assert_eq!(set.to_string(), "KC TD 7H AS");
        assert_eq!(set.to_string().parse::<CardSet>(), Ok(set));
    }

    #[test]
    fn alternative_forms() {
        assert_eq!("10h".parse::<Card>().unwrap().to_string(), "TH");
        assert_eq!("q♠".parse::<Card>().unwrap().to_string(), "QS");
        assert_eq!("A♦".parse::<Card>().unwrap().to_string(), "AD");
        assert_eq!("10♣".parse::<Card>().unwrap().to_string(), "TC");
        let set: CardSet = "as,2s, 3S".parse().unwrap();
        assert_eq!(set.to_string(), "AS 2S 3S");
    }

    #[test]
    fn errors_name_the_token() {
        let err = "1X".parse::<Card>().unwrap_err();
        assert!(err.to_string().contains("`1X`"), "{err}");
        assert!(err.to_string().contains("unknown suit"), "{err}");
        let err = "1S".parse::<Card>().unwrap_err();
        assert!(err.to_string().contains("unknown rank `1`"), "{err}");
        assert!("11S".parse::<Card>().is_err());
        assert!("S".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
        assert!("ASS".parse::<Card>().is_err());
        // Found by tests/it/fuzz.rs: an invisible or control character was
        // printed as is, so the message named an empty-looking suit.
        let err = "A♠\u{fe0f}".parse::<Card>().unwrap_err().to_string();
        assert!(err.contains("unknown suit `\\u{fe0f}`"), "{err}");
        let err = "\u{1b}[2JAS".parse::<Card>().unwrap_err().to_string();
        assert!(err.contains("`\\u{1b}[2JAS`"), "{err}");
        let err = "A\u{200b}".parse::<Card>().unwrap_err().to_string();
        assert!(err.contains("unknown suit `\\u{200b}`"), "{err}");
        // A huge token is cut in the message, with a marker.
        let err = format!("A{}", "S".repeat(1 << 20))
            .parse::<Card>()
            .unwrap_err()
            .to_string();
        assert!(err.len() < 400 && err.contains("more characters)"), "{err}");
        let err = "AS 2S as".parse::<CardSet>().unwrap_err();
        assert_eq!(err, ParseCardsError::Duplicate("AS".parse().unwrap()));
        assert!(err.to_string().contains("AS"));
    }
}
