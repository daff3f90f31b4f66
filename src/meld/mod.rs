//! Melds, arrangements and the solver.
//!
//! - [`deadwood`]: the minimum deadwood of a hand (any size; built for ≤ 11 cards).
//! - [`best_arrangement`]: an optimal [`Arrangement`], with a documented tie-break.
//! - [`best_discard`]: the discard that leaves the least deadwood, ties to the higher card.
//! - [`DiscardMemo`]: [`best_discard`] remembered, for a caller that solves the same
//!   hands again (a search player's rollouts).
//! - [`deadwood_without_each`] / [`deadwood_with_each`]: the batched solver, the
//!   deadwood of every hand one card away in one call, as a [`PerCard`].
//! - [`is_big_gin`]: all 11 cards meld.
//! - [`showdown`] / [`showdown_with`]: the optimal showdown of RULES.md with lay-offs;
//!   [`showdown_margin`]: only its margin, for play-outs that score and move on
//!   ([`known_knock_margin`] when they know both hands' least deadwood).
//!
//! # How the solver works
//!
//! A meld is a set (3 or 4 cards of one rank) or a run (3+ adjacent ranks of
//! one suit). Once the hand's sets are chosen, the rest can only form runs,
//! which never cross suits, so each suit lane is solved by one lookup in an
//! 8192-entry table ([`table`]). Only ranks with three or more cards offer set
//! choices (an 11-card hand has at most three), and a rank none of whose cards
//! could sit in a run is always taken as a set, so most hands cost four
//! lookups. The deadwood of an optimal arrangement never contains a meld, so it
//! is at most 2 × 85 = 170 and fits a `u8`.
//!
//! For the best discard the solver uses the identity "deadwood after the best
//! discard = min over arrangements of the 11 cards of (deadwood − its most
//! valuable deadwood card)", computed per lane by a second table, so the 11
//! candidate discards are never solved one by one.
//!
//! # Tie-breaks
//!
//! - [`best_arrangement`]: set choices are tried rank by rank from the ace up;
//!   for each rank, "no set" first, then the set of all its cards, then the
//!   3-card sets leaving out the club, diamond, heart, spade card in that
//!   order. The first choice reaching the minimum wins, so runs are preferred
//!   to sets when both leave the same deadwood. Within a suit the table
//!   prefers the longest run through the lowest card ([`table`]).
//! - [`best_discard`]: among the cards whose removal leaves the least
//!   deadwood, the highest rank (so the highest value), then the highest suit
//!   (S > H > D > C).
//!
//! # Showdown
//!
//! The defender may lay off deadwood onto the knocker's melds: the fourth card
//! of a 3-card set, and cards extending a run at either end, chained (8♥ on
//! 5-6-7♥ lets 9♥ follow). Nothing goes on deadwood, nothing on gin, and the
//! knocker never lays off. Laying off is optional per card, and the defender
//! may break its own melds to lay off, so the defender's reply is the minimum
//! over every legal lay-off set `L` of `deadwood(defender − L)`. Each run end
//! offers a chain (a prefix of any length may go) and each 3-card set one
//! card; the legal sets `L` are the unions of one prefix per chain. Among
//! lay-offs reaching the minimum the defender shows the most cards laid off (a
//! chain of three or more is also a run of its own; a player lays it off).
//!
//! When the knocker's arrangement is not fixed, the knocker picks among its
//! arrangements with deadwood ≤ the knock limit the one that maximises
//! `defender deadwood − knocker deadwood` against the defender's best reply.
//! Every scoring rule of RULES.md is non-decreasing in that difference, so
//! this is best for the knocker under any bonuses. Ties go to the lower
//! knocker deadwood, then to the first arrangement found (sets in the solver's
//! order, then each lane's cards from low to high, deadwood before runs,
//! shorter runs first).

mod batch;
mod layoff;
mod memo;
mod solve;
pub mod table;
mod text;

use std::fmt;

use crate::cards::CardSet;

pub use batch::{PerCard, deadwood_with_each, deadwood_without_each, least_discards};
pub(crate) use layoff::known_showdown;
pub use layoff::{
    Showdown, ShowdownError, defender_reply, known_knock_margin, showdown, showdown_margin,
    showdown_with,
};
pub use memo::DiscardMemo;
pub(crate) use solve::least_arrangement;
pub use solve::{Discard, best_arrangement, best_discard, deadwood, is_big_gin, meldable};
pub use text::{HandSpec, ParseArrangementError};

/// Every card of one rank: bit `r` of each lane.
pub(crate) const RANK_STRIDE: u64 = 0x0001_0001_0001_0001;

/// Whether a meld is a set or a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// 3 or 4 cards of one rank.
    Set,
    /// 3 or more cards of adjacent ranks in one suit (ace low; no wrap).
    Run,
}

/// A legal meld: a set or a run.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Meld(CardSet);

/// Why some cards are not a meld.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "[{0}] is not a meld: a meld is 3 or 4 cards of one rank, or 3 or more cards in sequence of one suit (ace low, Q-K-A is not a run)"
)]
pub struct MeldError(pub CardSet);

impl Meld {
    /// The meld made of `cards`, if they form a set or a run.
    ///
    /// # Errors
    /// [`MeldError`] if the cards are neither.
    pub fn try_new(cards: CardSet) -> Result<Meld, MeldError> {
        if meld_kind(cards).is_some() {
            Ok(Meld(cards))
        } else {
            Err(MeldError(cards))
        }
    }

    /// The cards.
    pub fn cards(self) -> CardSet {
        self.0
    }

    /// Set or run.
    #[must_use]
    pub fn kind(self) -> MeldKind {
        meld_kind(self.0).expect("a Meld is always a set or a run")
    }
}

fn meld_kind(cards: CardSet) -> Option<MeldKind> {
    if cards.len() < 3 {
        return None;
    }
    let first = cards.first()?;
    if cards.len() <= 4 && CardSet::rank(first.rank()).is_superset(cards) {
        return Some(MeldKind::Set);
    }
    let lane = cards.lane(first.suit());
    let contiguous = (lane >> lane.trailing_zeros()).trailing_ones() == lane.count_ones();
    (CardSet::from_lane(first.suit(), lane) == cards && contiguous).then_some(MeldKind::Run)
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.0)
    }
}

impl fmt::Debug for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A hand split into melds and deadwood.
///
/// Stored as three sets: the hand, the cards in sets and the cards in runs.
/// Runs of one suit that touch (`4S 5S 6S` and `7S 8S 9S`) are kept as one
/// longer run; that changes nothing in play, since a lay-off can only go on
/// the outer ends either way. The sets of a rank are at most one meld (two
/// sets of one rank would need six cards).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrangement {
    hand: CardSet,
    sets: CardSet,
    runs: CardSet,
}

/// Why melds do not make an arrangement of a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrangementError {
    /// A meld holds a card the hand lacks.
    #[error("meld {meld} uses {missing}, which is not in the hand")]
    NotInHand {
        /// The meld.
        meld: Meld,
        /// Its cards not in the hand.
        missing: CardSet,
    },
    /// Two melds share a card.
    #[error("melds share {0}: a card belongs to at most one meld")]
    Overlap(CardSet),
}

impl Arrangement {
    /// The arrangement of `hand` with exactly these melds; every other card is
    /// deadwood.
    ///
    /// # Errors
    /// If a meld uses a card outside the hand or two melds overlap.
    pub fn new(
        hand: CardSet,
        melds: impl IntoIterator<Item = Meld>,
    ) -> Result<Arrangement, ArrangementError> {
        let mut arrangement = Arrangement::unmelded(hand);
        for meld in melds {
            let cards = meld.cards();
            if !hand.is_superset(cards) {
                return Err(ArrangementError::NotInHand {
                    meld,
                    missing: cards - hand,
                });
            }
            let shared = cards & (arrangement.sets | arrangement.runs);
            if !shared.is_empty() {
                return Err(ArrangementError::Overlap(shared));
            }
            match meld.kind() {
                MeldKind::Set => arrangement.sets |= cards,
                MeldKind::Run => arrangement.runs |= cards,
            }
        }
        Ok(arrangement)
    }

    /// `hand` with no melds.
    pub fn unmelded(hand: CardSet) -> Arrangement {
        Arrangement {
            hand,
            sets: CardSet::EMPTY,
            runs: CardSet::EMPTY,
        }
    }

    /// Built by the solver, which guarantees the meld invariants.
    pub(crate) fn from_parts(hand: CardSet, sets: CardSet, runs: CardSet) -> Arrangement {
        debug_assert!(hand.is_superset(sets | runs) && sets.is_disjoint(runs));
        Arrangement { hand, sets, runs }
    }

    /// All cards of the hand.
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// The cards in sets.
    pub fn set_cards(&self) -> CardSet {
        self.sets
    }

    /// The cards in runs.
    pub fn run_cards(&self) -> CardSet {
        self.runs
    }

    /// The cards in melds.
    pub fn melded(&self) -> CardSet {
        self.sets | self.runs
    }

    /// The cards in no meld.
    pub fn deadwood_cards(&self) -> CardSet {
        self.hand - self.sets - self.runs
    }

    /// The deadwood count of this arrangement (not necessarily the minimum).
    #[must_use]
    pub fn deadwood(&self) -> u16 {
        self.deadwood_cards().value()
    }

    /// The melds, ordered by their lowest card (suit, then rank).
    pub fn melds(&self) -> Melds {
        Melds {
            sets: self.sets,
            runs: self.runs,
        }
    }
}

/// Iterator over the melds of an [`Arrangement`].
#[derive(Clone, Debug)]
pub struct Melds {
    sets: CardSet,
    runs: CardSet,
}

impl Iterator for Melds {
    type Item = Meld;

    fn next(&mut self) -> Option<Meld> {
        let low = (self.sets | self.runs).first()?;
        let cards = if self.sets.contains(low) {
            self.sets & CardSet::rank(low.rank())
        } else {
            let lane = self.runs.lane(low.suit()) >> low.rank().index();
            let len = lane.trailing_ones();
            CardSet::from_lane(low.suit(), ((1u16 << len) - 1) << low.rank().index())
        };
        self.sets -= cards;
        self.runs -= cards;
        Some(Meld(cards))
    }
}

/// Melds in brackets, then the deadwood cards:
/// `[3C 3H 3S] [4S 5S 6S] AC 6C AS 2S`.
impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for meld in self.melds() {
            write!(f, "{sep}{meld}")?;
            sep = " ";
        }
        for card in self.deadwood_cards() {
            write!(f, "{sep}{card}")?;
            sep = " ";
        }
        Ok(())
    }
}

impl fmt::Debug for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Arrangement({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    #[test]
    fn meld_kinds() {
        assert_eq!(
            Meld::try_new(set("3C 3H 3S")).unwrap().kind(),
            MeldKind::Set
        );
        assert_eq!(
            Meld::try_new(set("3C 3D 3H 3S")).unwrap().kind(),
            MeldKind::Set
        );
        assert_eq!(
            Meld::try_new(set("AS 2S 3S")).unwrap().kind(),
            MeldKind::Run
        );
        assert_eq!(
            Meld::try_new(set("9H TH JH QH KH")).unwrap().kind(),
            MeldKind::Run
        );
        assert!(Meld::try_new(set("QS KS AS")).is_err());
        assert!(Meld::try_new(set("AS 2S 4S")).is_err());
        assert!(Meld::try_new(set("AS 2S 3H")).is_err());
        assert!(Meld::try_new(set("3C 3H")).is_err());
        assert!(Meld::try_new(set("AS 2S")).is_err());
    }

    #[test]
    fn arrangement_display_orders_melds_by_lowest_card() {
        let hand = set("3C 3H 3S 4S 5S 6S AC 6C AS 2S");
        let melds = [set("4S 5S 6S"), set("3C 3H 3S")].map(|m| Meld::try_new(m).unwrap());
        let arrangement = Arrangement::new(hand, melds).unwrap();
        assert_eq!(arrangement.to_string(), "[3C 3H 3S] [4S 5S 6S] AC 6C AS 2S");
        assert_eq!(arrangement.deadwood(), 1 + 6 + 1 + 2);
    }

    #[test]
    fn arrangement_errors() {
        let hand = set("3C 3H 3S 4S 5S");
        let outside = Meld::try_new(set("3S 4S 5S")).unwrap();
        let three = Meld::try_new(set("3C 3H 3S")).unwrap();
        assert!(matches!(
            Arrangement::new(hand, [three, outside]),
            Err(ArrangementError::Overlap(_))
        ));
        let missing = Meld::try_new(set("4S 5S 6S")).unwrap();
        assert!(matches!(
            Arrangement::new(hand, [missing]),
            Err(ArrangementError::NotInHand { .. })
        ));
    }
}
