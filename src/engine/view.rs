//! What a player may know: [`PlayerView`], the public [`Event`]s, the
//! [`Phase`] of the hand, and the actions a strategy answers with.
//!
//! A `PlayerView` is built by copying the acting player's own cards and the
//! public state out of the hand. It holds no reference to the hand itself, so
//! the opponent's cards and the stock order are unreachable from it by type,
//! not by convention.

use std::fmt;

use crate::cards::{Card, CardSet};
use crate::rules::Rules;

/// A seat at a two-player table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// The first seat (player A of a match).
    A = 0,
    /// The second seat (player B of a match).
    B = 1,
}

impl Seat {
    /// Both seats.
    pub const ALL: [Seat; 2] = [Seat::A, Seat::B];

    /// The other seat.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::A => Seat::B,
            Seat::B => Seat::A,
        }
    }

    /// 0 for A, 1 for B.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::A => "A",
            Seat::B => "B",
        })
    }
}

/// Whose decision the hand waits for, and which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `seat` may take the upcard ([`Strategy::take_upcard`](super::Strategy::take_upcard)).
    UpcardOffer {
        /// Who is asked.
        seat: Seat,
    },
    /// `seat` draws ([`Strategy::draw`](super::Strategy::draw)).
    Draw {
        /// Who draws.
        seat: Seat,
        /// Only the stock is allowed (both players passed the upcard).
        stock_only: bool,
    },
    /// Stock end with `last_discard_action`: `seat` may take the last discard
    /// (answering [`DrawSource::Pile`]) but must then knock or go gin;
    /// answering [`DrawSource::Stock`] passes and the hand is void.
    LastChance {
        /// Who is asked.
        seat: Seat,
    },
    /// `seat` holds 11 cards and ends its turn
    /// ([`Strategy::end_turn`](super::Strategy::end_turn)).
    EndTurn {
        /// Who ends the turn.
        seat: Seat,
        /// Set after a [`Phase::LastChance`] pick-up: only a knock or big gin
        /// is legal.
        must_knock: bool,
    },
    /// The hand is over.
    Over,
}

impl Phase {
    /// The seat to act, if any.
    #[must_use]
    pub fn seat(self) -> Option<Seat> {
        match self {
            Phase::UpcardOffer { seat }
            | Phase::Draw { seat, .. }
            | Phase::LastChance { seat }
            | Phase::EndTurn { seat, .. } => Some(seat),
            Phase::Over => None,
        }
    }
}

/// Where a player draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawSource {
    /// The top of the stock (face down).
    Stock,
    /// The top of the discard pile (face up).
    Pile,
}

/// How a player ends its turn holding 11 cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnEnd {
    /// Discard this card face up.
    Discard(Card),
    /// Discard this card face down and knock (or go gin).
    Knock(Card),
    /// All 11 cards meld: knock without discarding (only where big gin is allowed).
    BigGin,
}

/// Something a player at the table sees happen. Stock draws do not show the
/// card; a knock's discard is face down.
///
/// Four bytes (three used), aligned so that logging one is one store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(4))]
pub enum Event {
    /// `seat` took the upcard.
    UpcardTaken {
        /// Who.
        seat: Seat,
        /// The upcard.
        card: Card,
    },
    /// `seat` passed the upcard.
    UpcardPassed {
        /// Who.
        seat: Seat,
        /// The upcard.
        card: Card,
    },
    /// `seat` drew the top of the stock.
    DrewStock {
        /// Who.
        seat: Seat,
    },
    /// `seat` took the top of the discard pile.
    TookPile {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// `seat` discarded face up.
    Discarded {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// `seat` knocked (gin included); the showdown follows.
    Knocked {
        /// Who.
        seat: Seat,
    },
    /// `seat` declared big gin.
    BigGin {
        /// Who.
        seat: Seat,
    },
    /// `seat` passed the last discard at the stock end (the hand is void).
    PassedLastDiscard {
        /// Who.
        seat: Seat,
    },
}

/// Everything one player may know at a decision, and nothing more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerView<'a> {
    /// This player's seat.
    pub seat: Seat,
    /// Who dealt this hand.
    pub dealer: Seat,
    /// The decision asked for ([`Phase::Over`] when only observing).
    pub phase: Phase,
    /// This player's cards.
    pub hand: CardSet,
    /// The card turned up at the deal (`None` for the eleven-card deal).
    pub upcard: Option<Card>,
    /// The discard pile, bottom first; the last card is the top.
    pub pile: &'a [Card],
    /// Cards the opponent took from the pile and still holds.
    pub opponent_known: CardSet,
    /// How many cards the opponent holds.
    pub opponent_cards: u32,
    /// Cards left in the stock.
    pub stock_size: u32,
    /// Turns completed in this hand (both players counted).
    pub turn: u32,
    /// The knock limit in force this hand.
    pub knock_limit: u8,
    /// The card this player took from the pile this turn (it may not be
    /// discarded this turn).
    pub taken_from_pile: Option<Card>,
    /// Game scores so far (hand points), this player's first.
    pub scores: [u32; 2],
    /// The rules.
    pub rules: &'a Rules,
    /// Everything that happened this hand, in order.
    pub events: &'a [Event],
}

impl PlayerView<'_> {
    /// The top of the discard pile, if any.
    #[must_use]
    pub fn pile_top(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    /// Every card this player has seen outside its hand: the pile, the cards
    /// the opponent is known to hold, and the passed upcard.
    pub fn seen(&self) -> CardSet {
        let pile: CardSet = self.pile.iter().copied().collect();
        pile | self.opponent_known
    }

    /// The cards that could be in the opponent's hand or the stock.
    pub fn unseen(&self) -> CardSet {
        !(self.hand | self.seen())
    }
}
