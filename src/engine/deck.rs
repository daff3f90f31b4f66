//! A deck order: 52 cards, top of the deck first.
//!
//! Shuffles use our own Fisher–Yates over [`rand_pcg::Pcg64Mcg`] with an
//! unbiased bounded draw written here, so a seed gives the same deck on every
//! machine and with every version of `rand` (whose own shuffle does not
//! promise value stability).

use std::fmt;
use std::str::FromStr;

use rand_pcg::Pcg64Mcg;

use crate::cards::{Card, CardSet, ParseCardError};

/// 52 distinct cards, index 0 on top.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Deck([Card; 52]);

/// Why text is not a deck order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// A token is not a card.
    #[error(transparent)]
    Card(#[from] ParseCardError),
    /// A card appears twice.
    #[error("deck has {0} twice: a deck order lists each of the 52 cards once")]
    Duplicate(Card),
    /// Not 52 cards.
    #[error("deck has {0} cards: a deck order lists each of the 52 cards once, top first")]
    Count(usize),
    /// A hand given to [`Deck::arranged`] does not have 10 cards.
    #[error("the {who}'s hand has {count} cards, not 10")]
    HandSize {
        /// `non-dealer` or `dealer`.
        who: &'static str,
        /// How many it has.
        count: u32,
    },
}

/// A uniform integer in `0..n` (Lemire's multiply-and-reject).
pub(crate) fn below(rng: &mut Pcg64Mcg, n: u64) -> u64 {
    use rand::Rng as _;
    debug_assert!(n > 0);
    loop {
        let x = rng.next_u64();
        let m = (x as u128) * (n as u128);
        let low = m as u64;
        if low >= n || low >= n.wrapping_neg() % n {
            return (m >> 64) as u64;
        }
    }
}

impl Deck {
    /// The deck in index order (clubs A..K, diamonds, hearts, spades).
    pub fn ordered() -> Deck {
        Deck(Card::ALL)
    }

    /// A uniformly shuffled deck. Always inlined: with a second caller (the
    /// multi-player tables) the compiler stopped inlining it into the
    /// two-player game loop, which cost 1 % of greedy self-play's
    /// instructions (callgrind, `match greedy greedy --games 20000`).
    #[inline(always)]
    pub fn shuffled(rng: &mut Pcg64Mcg) -> Deck {
        let mut deck = Deck::ordered();
        for i in (1..52).rev() {
            let j = below(rng, i as u64 + 1) as usize;
            deck.0.swap(i, j);
        }
        deck
    }

    /// The deck of these cards, top first; they must be the 52 distinct cards
    /// (the engine's own copies are).
    pub(crate) fn from_cards(cards: [Card; 52]) -> Deck {
        debug_assert_eq!(cards.iter().copied().collect::<CardSet>(), CardSet::ALL);
        Deck(cards)
    }

    /// The deck that deals `non_dealer` and `dealer` these 10 cards each (one
    /// at a time, non-dealer first, in card order), then `twenty_first` (the
    /// upcard, or the non-dealer's 11th card in the eleven-card deal), then
    /// `stock_top` on top of the stock, then every other card in index order.
    /// For setting up fixed situations.
    ///
    /// # Errors
    /// A hand without 10 cards, or a card given twice.
    pub fn arranged(
        non_dealer: CardSet,
        dealer: CardSet,
        twenty_first: Card,
        stock_top: &[Card],
    ) -> Result<Deck, DeckError> {
        for (who, hand) in [("non-dealer", non_dealer), ("dealer", dealer)] {
            if hand.len() != 10 {
                return Err(DeckError::HandSize {
                    who,
                    count: hand.len(),
                });
            }
        }
        let mut order: Vec<Card> = non_dealer
            .iter()
            .zip(dealer.iter())
            .flat_map(|(x, y)| [x, y])
            .collect();
        order.push(twenty_first);
        order.extend_from_slice(stock_top);
        let mut seen = CardSet::EMPTY;
        for &card in &order {
            if !seen.insert(card) {
                return Err(DeckError::Duplicate(card));
            }
        }
        order.extend((!seen).iter());
        let cards: [Card; 52] = order.try_into().expect("52 distinct cards");
        Ok(Deck(cards))
    }

    /// The cards, top first.
    pub fn cards(&self) -> &[Card; 52] {
        &self.0
    }

    /// The deck with the two dealt hands exchanged: the dealer gets the 10
    /// cards the non-dealer got from this deck and the other way round;
    /// the 21st card (the upcard, or the non-dealer's 11th) and the stock
    /// stay. A duplicate game deals it when the same player deals a hand
    /// in both games of a pair, so that the cards still change hands.
    #[must_use]
    pub fn exchanged(&self) -> Deck {
        let mut cards = self.0;
        for pair in cards[..20].chunks_exact_mut(2) {
            pair.swap(0, 1);
        }
        Deck(cards)
    }
}

impl FromStr for Deck {
    type Err = DeckError;

    fn from_str(s: &str) -> Result<Deck, DeckError> {
        let mut seen = CardSet::EMPTY;
        let mut cards = Vec::with_capacity(52);
        for token in crate::cards::card_tokens(s) {
            let card: Card = token.parse()?;
            if !seen.insert(card) {
                return Err(DeckError::Duplicate(card));
            }
            cards.push(card);
        }
        let cards: [Card; 52] = cards
            .try_into()
            .map_err(|v: Vec<Card>| DeckError::Count(v.len()))?;
        Ok(Deck(cards))
    }
}

/// The cards top first, separated by spaces (the form [`FromStr`] reads).
impl fmt::Display for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Deck({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn shuffle_is_a_permutation_and_seeded() {
        let mut a = Pcg64Mcg::seed_from_u64(7);
        let mut b = Pcg64Mcg::seed_from_u64(7);
        let (x, y) = (Deck::shuffled(&mut a), Deck::shuffled(&mut b));
        assert_eq!(x, y);
        assert_eq!(x.cards().iter().copied().collect::<CardSet>(), CardSet::ALL);
        assert_ne!(x, Deck::ordered());
        assert_eq!(x.to_string().parse::<Deck>(), Ok(x));
    }

    #[test]
    fn bounded_draws_are_roughly_uniform() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[below(&mut rng, 3) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn arranged_deals_as_the_engine_does() {
        let (a, b): (CardSet, CardSet) = (
            "AS 2S 3S 2H 3H 4H KC KD KH 5D".parse().unwrap(),
            "7C 8C 9C TD JD QD QC QH QS 5C".parse().unwrap(),
        );
        let up = "2C".parse().unwrap();
        let top = ["JS".parse().unwrap()];
        let deck = Deck::arranged(a, b, up, &top).unwrap();
        let rules = crate::rules::Rules::standard();
        let hand = crate::engine::Hand::new(&rules, &deck, crate::engine::Seat::B, [0, 0]).unwrap();
        assert_eq!(hand.cards(crate::engine::Seat::A), a);
        assert_eq!(hand.cards(crate::engine::Seat::B), b);
        assert_eq!(hand.upcard(), Some(up));
        assert_eq!(hand.stock()[0], top[0]);
        assert_eq!(
            Deck::arranged(a, b, "AS".parse().unwrap(), &[]),
            Err(DeckError::Duplicate("AS".parse().unwrap()))
        );
        assert!(matches!(
            Deck::arranged(a - "AS".parse().unwrap(), b, up, &[]),
            Err(DeckError::HandSize {
                who: "non-dealer",
                count: 9
            })
        ));
    }

    #[test]
    fn errors() {
        assert_eq!(
            "AS AS".parse::<Deck>(),
            Err(DeckError::Duplicate("AS".parse().unwrap()))
        );
        assert_eq!("AS 2S".parse::<Deck>(), Err(DeckError::Count(2)));
        assert!("AS XX".parse::<Deck>().is_err());
    }
}
