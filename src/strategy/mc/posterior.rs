//! Evidence about the opponent's hand from its play, as weights of the
//! sampled worlds: [`DiscardEvidence`] (its last discard) and
//! [`Rejections`] (the cards it threw or passed).
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
//! Only the last discard is read this way: the hand before an earlier
//! discard depends on which hidden cards the opponent drew since, which the
//! world does not say.
//!
//! [`Rejections`] takes every card the opponent threw or passed (the upcard,
//! or the pile top when it drew from the stock), as [`Knowledge::rejected`]
//! reads them from the events: a player that keeps cards
//! which meld does not throw or pass a card two of its cards meld with. A
//! world whose opponent holds such a pair (two more of the card's rank, or
//! two suit neighbours making a run with it) for `k` rejected cards weighs
//! `e^(−rejections·k)`. The pair may have come after the card was rejected,
//! so the weight is soft, not zero. Unlike [`Knowledge`]'s per-card
//! odds this reads pairs: a hand holding the 7H or the 7D alone is not
//! penalised for a thrown 7S, one holding both is.

use crate::cards::{Card, CardSet};
use crate::engine::{Event, PlayerView};
use crate::meld;
use crate::strategy::{Knowledge, best_discard_except};

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

/// The cards the opponent threw or passed, each as the pairs of cards that
/// would have melded with it, and how sharply a held pair counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejections {
    /// Per rejected card: the other cards of its rank, and its suit pairs
    /// (−2 −1, −1 +1, +1 +2) that exist.
    cards: Vec<(u64, [u64; 3])>,
    sharpness: f64,
}

impl Rejections {
    /// The opponent's rejected cards as `knowledge` read them
    /// ([`Knowledge::rejected`]), or `None` if there are none or
    /// `sharpness` is 0.
    #[must_use]
    pub fn from_knowledge(knowledge: &Knowledge, sharpness: f64) -> Option<Rejections> {
        let rejected = knowledge.rejected();
        (sharpness > 0.0 && !rejected.is_empty()).then(|| Rejections {
            cards: rejected.iter().map(pairs).collect(),
            sharpness,
        })
    }

    /// The weight of a world in which the opponent holds `opponent`.
    #[must_use]
    pub fn weight(&self, opponent: CardSet) -> f64 {
        let held = opponent.bits();
        let melding = self
            .cards
            .iter()
            .filter(|(rank, runs)| {
                (held & rank).count_ones() >= 2 || runs.iter().any(|&r| r != 0 && held & r == r)
            })
            .count();
        (-self.sharpness * melding as f64).exp()
    }
}

/// The other cards of `card`'s rank, and its suit pairs that exist (0 for
/// one off the end of the suit), as bits of a [`CardSet`].
fn pairs(card: Card) -> (u64, [u64; 3]) {
    let rank = CardSet::rank(card.rank()).without(card).bits();
    let bit = card.bit();
    let r = u32::from(card.rank().index());
    let pair = |lo: i32, hi: i32| {
        let (a, b) = (r as i32 + lo, r as i32 + hi);
        if a >= 0 && b <= 12 {
            (1u64 << (bit as i32 + lo)) | (1u64 << (bit as i32 + hi))
        } else {
            0
        }
    };
    (rank, [pair(-2, -1), pair(-1, 1), pair(1, 2)])
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

    /// A thrown 7S: a hand with two more sevens, or the 5S 6S, 6S 8S or
    /// 8S 9S, would have melded with it; one seven or the 9S TS would not.
    #[test]
    fn rejections_count_the_pairs_that_meld_with_a_rejected_card() {
        let r = Rejections {
            cards: vec![pairs("7S".parse().unwrap())],
            sharpness: 1.0,
        };
        let base = "AC 2D 4H JC QD KH";
        let w = |extra: &str| r.weight(set(&format!("{base} {extra}")));
        for melding in ["7H 7D", "5S 6S", "6S 8S", "8S 9S", "7C 7D 7H"] {
            assert!((w(melding) - (-1f64).exp()).abs() < 1e-12, "{melding}");
        }
        for not in ["7H 6S", "9S TS", "5S 8S", "6H 8H"] {
            assert_eq!(w(not), 1.0, "{not}");
        }
        // Ends of the suit: the AS pairs only upwards, the KS downwards.
        assert_eq!(pairs("AS".parse().unwrap()).1[..2], [0, 0]);
        assert_eq!(pairs("KS".parse().unwrap()).1[1..], [0, 0]);
        let ace = Rejections {
            cards: vec![pairs("AS".parse().unwrap()), pairs("KS".parse().unwrap())],
            sharpness: 0.5,
        };
        assert!((ace.weight(set("2S 3S JS QS")) - (-1f64).exp()).abs() < 1e-12);
        assert_eq!(ace.weight(set("KC QH 2H 3D")), 1.0);
    }

    /// Read from a view: the opponent's discards, its passes of the upcard
    /// and the pile tops it left when drawing from the stock; not this
    /// player's, and not a card the opponent took.
    #[test]
    fn rejections_are_the_opponents_throws_and_passes() {
        use crate::engine::{Action, DrawSource, TurnEnd};
        use crate::strategy::test_deck;
        let rules = Rules::standard();
        // A (non-dealer) holds the first hand, B the second; the upcard is
        // 9D; the stock starts 2H 3H 4H.
        let deck = test_deck(
            "AS 2S 3S 7C 7D 7H 9H TH JH KD",
            "2C 3C 4C 5D 6D 8S 9S TS JC QC",
            "9D",
            "2H 3H 4H",
        );
        let mut hand = Hand::new(&rules, &deck, Seat::B, [0, 0]).unwrap();
        let c = |s: &str| s.parse::<Card>().unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::A, Action::Draw(DrawSource::Stock)).unwrap();
        hand.apply(Seat::A, Action::EndTurn(TurnEnd::Discard(c("KD")))).unwrap();
        // B leaves the KD and draws; then throws the QC.
        hand.apply(Seat::B, Action::Draw(DrawSource::Stock)).unwrap();
        hand.apply(Seat::B, Action::EndTurn(TurnEnd::Discard(c("QC")))).unwrap();
        let seen = |seat: Seat| {
            Rejections::from_knowledge(&Knowledge::from_view(&hand.view(seat)), 1.0).map(|r| r.cards)
        };
        // In the set's order: clubs first.
        let expected: Vec<_> = ["QC", "9D", "KD"].iter().map(|s| pairs(c(s))).collect();
        assert_eq!(seen(Seat::A), Some(expected));
        // B reads A's pass of the 9D and throw of the KD; A's first draw
        // was from the stock by rule (both passed), not a rejection.
        let expected_b: Vec<_> = ["9D", "KD"].iter().map(|s| pairs(c(s))).collect();
        assert_eq!(seen(Seat::B), Some(expected_b));
        let knowledge = Knowledge::from_view(&hand.view(Seat::A));
        assert_eq!(Rejections::from_knowledge(&knowledge, 0.0), None);
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
