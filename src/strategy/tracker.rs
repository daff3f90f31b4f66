//! `tracker`: greedy deadwood play plus what [`Knowledge`] says about the
//! opponent.
//!
//! - **Discard safety.** Among the legal discards that leave at most `slack`
//!   more deadwood than the best one, it minimises
//!   `deadwood left + safety × interest(card)`, where the interest is the
//!   evidence that the opponent holds cards that meld with it
//!   ([`Knowledge::interest`]: their probabilities above the prior). Ties go
//!   to the higher card, as in greedy.
//! - **Draw by live cards.** It takes the upcard or pile top when that lowers
//!   its deadwood after the best discard (as greedy does), and also when the
//!   deadwood stays the same but the hand then has more *outs*: unseen cards
//!   that would lower its deadwood if drawn.
//! - **Knock policy.** With deadwood at most `knock_at` (default: the knock
//!   limit) it knocks when its deadwood is below the estimated deadwood of the
//!   opponent minus `margin`, or when the stock is down to `late_stock` cards;
//!   otherwise it holds for a lower count. The opponent's deadwood is
//!   estimated as the sum over cards it may hold of P(held) × value ×
//!   P(unmelded), with P(unmelded) = 1 − min(1, danger / 2): a card with two
//!   likely partners is probably melded.
//!
//! Example: with `[AS 2S 3S] [7C 7D 7H] KC QC 5H` and a choice between the
//! king and the queen, it throws the one whose neighbours the opponent has
//! shown no interest in.

use crate::cards::{Card, CardSet};
use crate::engine::{
    DrawSource, Phase, PlayerView, Strategy, TurnEnd, big_gin_legal, legal_discards, turn_end,
};
use crate::meld;

use super::{Knowledge, best_discard_except, draw_when};

/// The discard-tracking strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Tracker {
    /// Knock at or below this deadwood (capped by the knock limit); `None`: the limit.
    pub knock_at: Option<u8>,
    /// Deadwood points charged per expected opponent card that melds with a discard.
    pub safety: f32,
    /// How much more deadwood than the best discard a safer discard may leave.
    pub slack: u8,
    /// Knock only when this much below the opponent's estimated deadwood...
    pub margin: f32,
    /// ...unless the stock holds at most this many cards.
    pub late_stock: u32,
}

impl Default for Tracker {
    fn default() -> Tracker {
        Tracker {
            knock_at: None,
            safety: 2.0,
            slack: 3,
            margin: 0.0,
            late_stock: 10,
        }
    }
}

/// Unseen cards that would lower the deadwood of `hand` (10 cards) if drawn.
fn outs(hand: CardSet, unknown: CardSet) -> u32 {
    let now = meld::deadwood(hand);
    unknown
        .iter()
        .filter(|&u| meld::best_discard(hand.with(u)).is_some_and(|d| d.deadwood < now))
        .count() as u32
}

/// The estimated deadwood of the opponent (see the module docs).
fn opponent_deadwood(k: &Knowledge) -> f32 {
    (k.held() | k.unknown())
        .iter()
        .map(|c| k.prob(c) * c.value() as f32 * (1.0 - (k.danger(c) / 2.0).min(1.0)))
        .sum()
}

impl Tracker {
    /// Whether taking `card` helps: lower deadwood, or the same deadwood and
    /// more outs.
    fn wants(view: &PlayerView<'_>, card: Card) -> bool {
        let now = meld::deadwood(view.hand);
        let after = best_discard_except(view.hand.with(card), Some(card));
        if after.deadwood != now {
            return after.deadwood < now;
        }
        let k = Knowledge::from_view(view);
        let kept = view.hand.with(card).without(after.card);
        outs(kept, k.unknown() - card.mask()) > outs(view.hand, k.unknown())
    }

    /// The discard: least deadwood plus the safety charge.
    fn discard(&self, view: &PlayerView<'_>, k: &Knowledge) -> Card {
        let best = best_discard_except(view.hand, view.taken_from_pile);
        let mut choice = best.card;
        let mut score = best.deadwood as f32 + self.safety * k.interest(best.card);
        for card in legal_discards(view).iter().rev() {
            let left = meld::deadwood(view.hand.without(card));
            if left > best.deadwood.saturating_add(self.slack) {
                continue;
            }
            let s = left as f32 + self.safety * k.interest(card);
            if s < score - 1e-6 {
                (choice, score) = (card, s);
            }
        }
        choice
    }
}

impl Strategy for Tracker {
    fn name(&self) -> &str {
        "tracker"
    }

    fn observes(&self) -> bool {
        false
    }

    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        view.upcard.is_some_and(|card| Tracker::wants(view, card))
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        draw_when(view, |top| Tracker::wants(view, top))
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        if big_gin_legal(view) {
            return TurnEnd::BigGin;
        }
        // Knocking uses the best discard for the count, not the safest one.
        let best = best_discard_except(view.hand, view.taken_from_pile);
        if let Phase::EndTurn {
            must_knock: true, ..
        } = view.phase
        {
            return TurnEnd::Knock(best.card);
        }
        let k = Knowledge::from_view(view);
        let limit = self
            .knock_at
            .unwrap_or(view.knock_limit)
            .min(view.knock_limit);
        if best.deadwood <= limit {
            let safe = (best.deadwood as f32) < opponent_deadwood(&k) - self.margin;
            if best.deadwood == 0 || safe || view.stock_size <= self.late_stock {
                return turn_end(best.card, true);
            }
        }
        turn_end(self.discard(view, &k), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Deck, Hand, Seat};
    use crate::rules::Rules;

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

    /// The same public history with different hidden cards gives the same
    /// decisions: the tracker reads only its view.
    #[test]
    fn decisions_ignore_hidden_cards() {
        let rules = Rules::standard();
        let a = "AS 2S 3S 2H 3H 4H KC KD 9H 5D";
        let one = deck(a, "7C 8C 9C TD JD QD QC QH QS 5C", "2C", "JS 4S 5S 6S");
        let two = deck(a, "4S 5S 6S TD JD QD QC QH QS 5C", "2C", "JS 7C 8C 9C");
        let mut decisions = Vec::new();
        for d in [&one, &two] {
            let mut hand = Hand::new(&rules, d, Seat::B, [0, 0]).unwrap();
            let mut tracker = Tracker::default();
            let mut seen = Vec::new();
            seen.push(format!("{:?}", tracker.take_upcard(&hand.view(Seat::A))));
            hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
                .unwrap();
            let end = tracker.end_turn(&hand.view(Seat::A));
            seen.push(format!("{end:?}"));
            decisions.push(seen);
        }
        assert_eq!(decisions[0], decisions[1]);
    }
}
