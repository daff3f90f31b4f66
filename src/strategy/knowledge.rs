//! What one player knows about the cards it cannot see: [`Knowledge`].
//!
//! Computed from a [`PlayerView`] alone (its own cards, the pile, the cards
//! the opponent is known to hold, and the public event history), so it cannot
//! see anything the player may not: the opponent's hand and the stock are not
//! in the view.
//!
//! # The model
//!
//! Every card is in one of three states:
//!
//! - **held**: the opponent took it from the pile and has not discarded it
//!   (probability 1);
//! - **excluded**: in this player's hand or in the pile (probability 0);
//! - **unknown**: in the opponent's hand or in the stock.
//!
//! The opponent holds `opponent_cards − |held|` unknown cards. Without other
//! evidence each unknown card is equally likely to be one of them. The
//! opponent's actions are evidence about the cards near the card it acted on
//! (the same rank, or the same suit one or two ranks away): a player keeps
//! cards that meld with what it takes, and throws or passes cards that meld
//! with nothing it holds. Each action multiplies the odds of every unknown
//! neighbour by a likelihood ratio:
//!
//! | action on card `e` | same rank | suit ±1 | suit ±2 |
//! |---|---|---|---|
//! | discarded `e` | 0.5 | 0.5 | 0.75 |
//! | passed `e` (the upcard, or the pile top when drawing from the stock) | 0.7 | 0.7 | 0.85 |
//! | took `e` from the pile | 2.5 | 2.5 | 1.5 |
//!
//! The weights are then scaled so that the probabilities of the unknown
//! cards sum to the number of unknown opponent cards, none above 1 (cards
//! whose scaled weight would pass 1 are set to 1 and the rest rescaled). The
//! ratios are a documented heuristic, not fitted; strategies that use the
//! estimate expose their own weights.

use crate::cards::{Card, CardSet};
use crate::engine::{Event, PlayerView};

/// Likelihood ratios for (same rank, suit ±1, suit ±2) neighbours.
const DISCARDED: [f32; 3] = [0.5, 0.5, 0.75];
const PASSED: [f32; 3] = [0.7, 0.7, 0.85];
const TOOK: [f32; 3] = [2.5, 2.5, 1.5];

/// What a player knows of the cards outside its hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Knowledge {
    held: CardSet,
    unknown: CardSet,
    hidden: u32,
    prob: [f32; 52],
}

/// The cards that meld with `e`, by relation: the other cards of its rank,
/// its suit neighbours one rank away, and two ranks away. Shifts of one or two
/// bits cannot cross suits: the top three bits of every lane are empty and
/// [`CardSet::from_bits_truncate`] drops them.
fn neighbours(e: Card) -> [CardSet; 3] {
    let m = e.mask().bits();
    [
        CardSet::rank(e.rank()) - e.mask(),
        CardSet::from_bits_truncate(m << 1 | m >> 1),
        CardSet::from_bits_truncate(m << 2 | m >> 2),
    ]
}

/// The opponent's actions as (card, likelihood ratios), replaying the public
/// history to know what the pile top was when it drew from the stock.
fn evidence(view: &PlayerView<'_>) -> Vec<(Card, [f32; 3])> {
    let opponent = view.seat.other();
    let mut pile: Vec<Card> = view.upcard.into_iter().collect();
    let mut found = Vec::new();
    let mut both_passed = false;
    for event in view.events {
        match *event {
            Event::UpcardPassed { seat, card } => {
                if seat == opponent {
                    found.push((card, PASSED));
                }
                both_passed = seat == view.dealer;
            }
            Event::UpcardTaken { seat, card } | Event::TookPile { seat, card } => {
                pile.pop();
                if seat == opponent {
                    found.push((card, TOOK));
                }
            }
            Event::DrewStock { seat } => {
                // Passing the pile top, unless the pile was not allowed (the
                // first draw after both passed the upcard).
                if seat == opponent
                    && !both_passed
                    && let Some(&top) = pile.last()
                {
                    found.push((top, PASSED));
                }
                both_passed = false;
            }
            Event::Discarded { seat, card } => {
                pile.push(card);
                if seat == opponent {
                    found.push((card, DISCARDED));
                }
            }
            Event::Knocked { .. } | Event::BigGin { .. } | Event::PassedLastDiscard { .. } => {}
        }
    }
    found
}

impl Knowledge {
    /// The knowledge of the player whose view this is.
    #[must_use]
    pub fn from_view(view: &PlayerView<'_>) -> Knowledge {
        let held = view.opponent_known;
        let pile: CardSet = view.pile.iter().copied().collect();
        let unknown = !(view.hand | pile | held);
        let hidden = view.opponent_cards.saturating_sub(held.len());
        let mut weight = [0f32; 52];
        for card in unknown {
            weight[card.index() as usize] = 1.0;
        }
        for (e, ratios) in evidence(view) {
            for (near, ratio) in neighbours(e).into_iter().zip(ratios) {
                for card in near & unknown {
                    weight[card.index() as usize] *= ratio;
                }
            }
        }
        let mut prob = [0f32; 52];
        for card in held {
            prob[card.index() as usize] = 1.0;
        }
        // Scale so the unknown cards' probabilities sum to `hidden`, capping
        // at 1 and rescaling the rest (at most 52 rounds; usually one).
        let mut free = unknown;
        let mut slots = hidden as f32;
        while !free.is_empty() && slots > 0.0 {
            let total: f32 = free.iter().map(|c| weight[c.index() as usize]).sum();
            let scale = slots / total.max(f32::MIN_POSITIVE);
            let capped: CardSet = free
                .iter()
                .filter(|c| weight[c.index() as usize] * scale >= 1.0)
                .collect();
            if capped.is_empty() {
                for c in free {
                    prob[c.index() as usize] = weight[c.index() as usize] * scale;
                }
                break;
            }
            for c in capped {
                prob[c.index() as usize] = 1.0;
            }
            slots -= capped.len() as f32;
            free -= capped;
        }
        Knowledge {
            held,
            unknown,
            hidden,
            prob,
        }
    }

    /// P(`card` is in the opponent's hand): 1 if known held, 0 if seen
    /// elsewhere, the model's estimate otherwise.
    #[must_use]
    pub fn prob(&self, card: Card) -> f32 {
        self.prob[card.index() as usize]
    }

    /// Cards the opponent holds for sure.
    pub fn held(&self) -> CardSet {
        self.held
    }

    /// Cards that may be in the opponent's hand or the stock.
    pub fn unknown(&self) -> CardSet {
        self.unknown
    }

    /// How many of the opponent's cards are unknown.
    #[must_use]
    pub fn hidden(&self) -> u32 {
        self.hidden
    }

    /// The cards that could still be drawn or held by the opponent and would
    /// meld with `card`: same rank, or suit neighbours one or two away, that
    /// are not seen anywhere ("live" cards).
    pub fn live_neighbours(&self, card: Card) -> CardSet {
        let [rank, one, two] = neighbours(card);
        (rank | one | two) & self.unknown
    }

    /// Σ over the cards melding with `card` the opponent may hold of
    /// `f(probability)`, weighting neighbours two ranks away by half.
    fn over_neighbours(&self, card: Card, f: impl Fn(f32) -> f32) -> f32 {
        let possible = self.held | self.unknown;
        neighbours(card)
            .into_iter()
            .zip([1.0, 1.0, 0.5])
            .map(|(near, w)| {
                (near & possible)
                    .iter()
                    .map(|c| w * f(self.prob(c)))
                    .sum::<f32>()
            })
            .sum()
    }

    /// The probability an unknown card is the opponent's before any evidence:
    /// unknown opponent cards / unknown cards.
    #[must_use]
    pub fn prior(&self) -> f32 {
        self.hidden as f32 / self.unknown.len().max(1) as f32
    }

    /// The evidence that the opponent wants `card`: over the cards that meld
    /// with it (same rank, suit neighbours; ±2 at half weight) that the
    /// opponent may hold, the sum of P(held) − [`Knowledge::prior`]. Zero when
    /// nothing is known; unlike [`Knowledge::danger`] it does not make a card
    /// look safe just because its neighbours are in the player's own hand.
    #[must_use]
    pub fn interest(&self, card: Card) -> f32 {
        let prior = self.prior();
        self.over_neighbours(card, |p| p - prior)
    }

    /// The chance-weighted count of opponent cards that meld with `card`: a
    /// measure of how much discarding `card` would help the opponent.
    #[must_use]
    pub fn danger(&self, card: Card) -> f32 {
        self.over_neighbours(card, |p| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Deck, DrawSource, Hand, Seat, TurnEnd};
    use crate::rules::Rules;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// A deck: A gets `a`, B gets `b`, upcard, then `stock` on top.
    fn deck(a: &str, b: &str, up: &str, stock: &str) -> Deck {
        let stock: Vec<Card> = stock
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        Deck::arranged(
            a.parse().unwrap(),
            b.parse().unwrap(),
            up.parse().unwrap(),
            &stock,
        )
        .unwrap()
    }

    const A: &str = "AS 2S 3S 2H 3H 4H KC KD KH 5D";
    const B: &str = "7C 8C 9C TD JD QD QC QH QS 5C";

    #[test]
    fn neighbours_stay_in_their_suit() {
        let [rank, one, two] = neighbours(card("AS"));
        assert_eq!(rank, "AC AD AH".parse().unwrap());
        assert_eq!(one, "2S".parse().unwrap());
        assert_eq!(two, "3S".parse().unwrap());
        let [_, one, two] = neighbours(card("KC"));
        assert_eq!((one, two), ("QC".parse().unwrap(), "JC".parse().unwrap()));
        let [_, one, two] = neighbours(card("2D"));
        assert_eq!(
            (one, two),
            ("AD 3D".parse().unwrap(), "4D".parse().unwrap())
        );
    }

    #[test]
    fn prior_is_uniform_and_sums_to_the_hidden_cards() {
        let rules = Rules::standard();
        let d = deck(A, B, "2C", "JS");
        let hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let k = Knowledge::from_view(&hand.view(Seat::A));
        assert_eq!(k.hidden(), 10);
        assert_eq!(k.unknown().len(), 52 - 10 - 1);
        let total: f32 = Card::all().map(|c| k.prob(c)).sum();
        assert!((total - 10.0).abs() < 1e-4, "{total}");
        assert_eq!(k.prob(card("AS")), 0.0, "own card");
        assert_eq!(k.prob(card("2C")), 0.0, "the upcard on the pile");
        assert!((k.prob(card("7C")) - 10.0 / 41.0).abs() < 1e-5);
    }

    #[test]
    fn evidence_moves_the_neighbours() {
        let rules = Rules::standard();
        // B (dealer) passes the 2C upcard after A passes; A draws JS and
        // throws it; B takes the JS: B likely holds spades near J and jacks.
        let d = deck(A, B, "2C", "JS 4S");
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
            .unwrap();
        hand.apply(Seat::A, Action::EndTurn(TurnEnd::Discard(card("JS"))))
            .unwrap();
        let before = Knowledge::from_view(&hand.view(Seat::A));
        // B passed the 2C: 2D (same rank) is less likely than 8D (unrelated).
        assert!(before.prob(card("2D")) < before.prob(card("8D")));
        hand.apply(Seat::B, Action::Draw(DrawSource::Pile)).unwrap();
        hand.apply(Seat::B, Action::EndTurn(TurnEnd::Discard(card("5C"))))
            .unwrap();
        let after = Knowledge::from_view(&hand.view(Seat::A));
        assert_eq!(after.prob(card("JS")), 1.0, "taken and kept");
        assert!(after.held().contains(card("JS")));
        // Took the JS: the jacks and TS/QS are likelier than before.
        assert!(after.prob(card("JC")) > before.prob(card("JC")));
        assert!(after.prob(card("TS")) > before.prob(card("TS")));
        // Discarded the 5C: 6C, 4C and the other fives are less likely.
        assert!(after.prob(card("6C")) < after.prob(card("8D")));
        let total: f32 = Card::all().map(|c| after.prob(c)).sum();
        assert!((total - 10.0).abs() < 1e-3, "{total}");
        assert!(after.danger(card("QS")) > after.danger(card("4D")));
        assert!(after.interest(card("QS")) > 0.0, "next to the JS it took");
        assert!(after.interest(card("5H")) < 0.0, "the rank it threw");
        assert_eq!(
            Knowledge::from_view(
                &Hand::new(&rules, &d, Seat::B, [0, 0])
                    .unwrap()
                    .view(Seat::A)
            )
            .interest(card("QS")),
            0.0
        );
        assert!(after.live_neighbours(card("JS")).contains(card("JC")));
        assert!(
            !after.live_neighbours(card("JS")).contains(card("5C")),
            "on the pile"
        );
    }

    #[test]
    fn hidden_cards_do_not_change_the_knowledge() {
        let rules = Rules::standard();
        // Same public history, different cards for B and in the stock.
        let one = deck(A, B, "2C", "JS 4S 5S 6S");
        let two = deck(A, "4S 5S 6S TD JD QD QC QH QS 5C", "2C", "JS 7C 8C 9C");
        let mut knowledge = Vec::new();
        for d in [&one, &two] {
            let mut hand = Hand::new(&rules, d, Seat::B, [0, 0]).unwrap();
            hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
                .unwrap();
            hand.apply(Seat::A, Action::EndTurn(TurnEnd::Discard(card("JS"))))
                .unwrap();
            hand.apply(Seat::B, Action::Draw(DrawSource::Pile)).unwrap();
            hand.apply(Seat::B, Action::EndTurn(TurnEnd::Discard(card("QS"))))
                .unwrap();
            knowledge.push(Knowledge::from_view(&hand.view(Seat::A)));
        }
        assert_eq!(knowledge[0], knowledge[1]);
    }
}
