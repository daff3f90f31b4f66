//! [`DiscardEvidence`]: the opponent's last discard as evidence about the
//! hand it holds now.
//!
//! When the opponent's latest action was a discard, its ten cards now and
//! that discard were its eleven cards a moment ago, and it chose to throw
//! that card. A player who minimises deadwood (greedy, the EAAI reference
//! player, and nearly always the tracker) throws a card that leaves the
//! least deadwood. A sampled hand against which the discard was a poor
//! choice is an unlikely hand: weighting each world by the chance that a
//! noisy deadwood-minimiser holding it would have thrown that card is a
//! step from a prior over the hidden cards to a posterior given the
//! opponent's play. The model: a discard that leaves `x` more points of
//! deadwood than the best one is chosen with weight `e^(−sharpness·x)`.
//! (A discard after a pile take could not be the card taken: the best
//! discard is the best of the others, as the rules demand.)
//!
//! Example: the opponent threw the 9S. A sampled hand holding a lone KD
//! would have thrown the king (one point less deadwood kept): at sharpness
//! 0.5 the world weighs e^(−0.5) ≈ 0.61 of one where the 9S was the best
//! throw.
//!
//! Only the last discard is read: the hand before an earlier discard
//! depends on which hidden cards the opponent drew since, which the world
//! does not say.

use crate::cards::{Card, CardSet};
use crate::engine::{Event, PlayerView};
use crate::meld;
use crate::strategy::best_discard_except;

/// The opponent's last discard and the card it had taken from the pile in
/// that turn, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiscardEvidence {
    discard: Card,
    taken: Option<Card>,
    sharpness: f64,
}

impl DiscardEvidence {
    /// The evidence `view` shows, or `None` when the opponent's latest
    /// action was not a discard (or `sharpness` is 0).
    #[must_use]
    pub fn from_view(view: &PlayerView<'_>, sharpness: f64) -> Option<DiscardEvidence> {
        if sharpness <= 0.0 {
            return None;
        }
        let opponent = view.seat.other();
        let mut turn = view.events.iter().rev().skip_while(|e| !acts(e, opponent));
        let Some(&Event::Discarded { card: discard, .. }) = turn.next() else {
            return None;
        };
        let taken = match turn.next() {
            Some(&Event::TookPile { card, .. } | &Event::UpcardTaken { card, .. }) => Some(card),
            _ => None,
        };
        Some(DiscardEvidence {
            discard,
            taken,
            sharpness,
        })
    }

    /// The weight of a world in which the opponent holds `opponent`.
    #[must_use]
    pub fn weight(&self, opponent: CardSet) -> f64 {
        let best = best_discard_except(opponent.with(self.discard), self.taken).deadwood;
        let kept = meld::deadwood(opponent);
        (-self.sharpness * f64::from(kept.saturating_sub(best))).exp()
    }
}

/// Whether `event` is an action of `seat` (not a pass of the upcard).
fn acts(event: &Event, seat: crate::engine::Seat) -> bool {
    match *event {
        Event::UpcardTaken { seat: s, .. }
        | Event::DrewStock { seat: s }
        | Event::TookPile { seat: s, .. }
        | Event::Discarded { seat: s, .. }
        | Event::Knocked { seat: s } => s == seat,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    use crate::engine::{Deck, Hand, Seat, Strategy, ask};
    use crate::rules::Rules;
    use crate::strategy::Greedy;

    fn set(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    #[test]
    fn a_hand_against_which_the_throw_was_poor_weighs_less() {
        let evidence = DiscardEvidence {
            discard: "9S".parse().unwrap(),
            taken: None,
            sharpness: 0.5,
        };
        // With the 9S, the best throw of these eleven is the 9S itself.
        let consistent = set("AC 2C 3C 4D 5D 6D 7H 7S 7C 2H");
        assert_eq!(evidence.weight(consistent), 1.0);
        // Here a lone KD was the better throw, by one point.
        let poor = set("AC 2C 3C 4D 5D 6D 7H 7S 7C KD");
        assert!((evidence.weight(poor) - (-0.5f64).exp()).abs() < 1e-12);
        // The 9S broke the run 8S 9S TS, keeping 25 points more than
        // throwing a seven would have.
        let broke = set("AC 2C 3C 4D 5D 6D 7H 7C 8S TS");
        assert!(evidence.weight(broke) < (-0.5f64 * 8.0).exp());
    }

    #[test]
    fn a_card_taken_from_the_pile_is_not_the_best_throw() {
        // The opponent took the 9S from the pile and threw the KD: with the
        // 9S banned, the KD is the best throw of the rest.
        let after_take = DiscardEvidence {
            discard: "KD".parse().unwrap(),
            taken: Some("9S".parse().unwrap()),
            sharpness: 1.0,
        };
        assert_eq!(after_take.weight(set("AC 2C 3C 4D 5D 6D 7H 7S 7C 9S")), 1.0);
    }

    /// Read from real views: the evidence is the opponent's latest discard
    /// when that is its latest action, and a greedy opponent's true hand
    /// always weighs 1.
    #[test]
    fn a_greedy_opponents_true_hand_weighs_one() {
        let rules = Rules::eaai();
        let mut decks = Pcg64Mcg::seed_from_u64(41);
        let mut seen = 0;
        for deal in 0..40 {
            let deck = Deck::shuffled(&mut decks);
            let mut hand = Hand::new(&rules, &deck, Seat::B, [0, 0]).unwrap();
            let mut players: [Box<dyn Strategy>; 2] =
                [Box::new(Greedy::default()), Box::new(Greedy::default())];
            while let Some(seat) = hand.phase().seat() {
                let view = hand.view(seat);
                if let Some(evidence) = DiscardEvidence::from_view(&view, 1.0) {
                    let truth = hand.cards(seat.other());
                    assert_eq!(evidence.weight(truth), 1.0, "deal {deal}");
                    seen += 1;
                }
                let action = ask(players[seat.index()].as_mut(), &view);
                hand.apply(seat, action).unwrap();
            }
        }
        assert!(seen > 200, "{seen}");
        let deck = Deck::shuffled(&mut decks);
        let hand = Hand::new(&rules, &deck, Seat::B, [0, 0]).unwrap();
        let view = hand.view(hand.phase().seat().unwrap());
        assert_eq!(DiscardEvidence::from_view(&view, 1.0), None, "no discard yet");
        assert_eq!(DiscardEvidence::from_view(&view, 0.0), None, "off");
    }
}
