//! What a [`PlayerView`] allows: the legality questions strategies, the
//! bot protocol and `play` ask of a view, answered with the same predicates
//! [`Hand::apply`](super::Hand::apply) enforces.

use super::hand::{big_gin_turn, last_discard_knocks};
use super::view::{Phase, PlayerView};

/// The legal discards of a view in [`Phase::EndTurn`]: every card but the one
/// just taken from the pile.
pub fn legal_discards(view: &PlayerView<'_>) -> crate::cards::CardSet {
    match view.taken_from_pile {
        Some(card) => view.hand.without(card),
        None => view.hand,
    }
}

/// Whether declaring big gin ([`TurnEnd::BigGin`](super::TurnEnd::BigGin)) is legal in this view:
/// the rules allow big gin, the player has drawn (not the eleven-card
/// deal's first turn) and all 11 cards meld (the checks [`Hand::apply`](super::Hand::apply)
/// makes).
#[must_use]
pub fn big_gin_legal(view: &PlayerView<'_>) -> bool {
    view.rules.big_gin_bonus.is_some()
        && big_gin_turn(view.rules, view.turn)
        && crate::meld::is_big_gin(view.hand)
}

/// Whether the pile may be drawn from in this view. At the stock end
/// ([`Phase::LastChance`]) only when the last discard makes a knock possible.
#[must_use]
pub fn pile_allowed(view: &PlayerView<'_>) -> bool {
    match (view.phase, view.pile_top()) {
        (Phase::Draw { stock_only, .. }, Some(_)) => !stock_only,
        (Phase::LastChance { .. }, Some(top)) => {
            last_discard_knocks(view.hand, top, view.knock_limit, view.rules)
        }
        _ => false,
    }
}
