//! Strategies: the built-ins and the profiles that name them.
//!
//! The [`Strategy`] trait itself is defined by the engine, which calls it.
//! Built-ins: [`Random`], [`Simple`] (the EAAI-21 reference player) and
//! [`Greedy`], [`Tracker`] (discard tracking) and [`MonteCarlo`]; and
//! [`External`], a bot in another process. A [`Profile`] is a kind plus
//! parameters, written inline as `kind` or `kind:key=value,...`
//! (`greedy:knock_at=7`); the kinds are the table [`KINDS`].

mod knowledge;
mod profile;

/// The table of kinds: one line per kind, naming its file in this folder,
/// which defines the kind's `KIND` row (see [`Kind`]). The line declares
/// the module and lists the row in [`KINDS`], so a new kind is its file
/// plus its line here.
macro_rules! kinds {
    ($($(#[$attr:meta])* $module:ident,)*) => {
        $($(#[$attr])* mod $module;)*

        /// The kinds of strategy, in the order messages, help texts and
        /// `strategies/README.md` list them.
        pub static KINDS: &[&Kind] = &[$($(#[$attr])* &$module::KIND,)*];
    };
}

kinds! {
    random,
    simple,
    greedy,
    tracker,
    mc,
    external,
    #[cfg(test)]
    first,
}

pub use crate::engine::Strategy;
pub use external::check as botcheck;
pub use external::{
    Bot, BotError, BotHost, BotOptions, BotProcess, BotSpec, DEFAULT_HANDSHAKE_MS,
    DEFAULT_TIMEOUT_MS, External, LAUNCHER_ARG, SANDBOX_MODES, SandboxMode, SandboxSpec,
    adopt_orphans, launcher, split_command,
};
pub use greedy::Greedy;
pub use knowledge::Knowledge;
pub use mc::{
    Budget, Choice, Decision, Estimates, Evaluator, FastOwn, Frozen, GreedyRollout, HandPrior,
    Knocks, McCaches, McConfig, McParams, Model, MonteCarlo, OpponentModel, OpponentPolicy,
    OwnRollout, Points, Rollout, RolloutEnd, RolloutPlay, Rollouts, Weighting, World, WorldModel,
    WorldWeight, budget,
};
pub use profile::{
    Given, KeyError, Keys, Kind, Param, ParamError, ParamType, Params, Profile, ProfileError,
    builtin_kinds, builtin_list, write_inline,
};
pub use random::{Random, RandomParams};
pub use simple::{Simple, SimpleParams};
pub use tracker::Tracker;

use crate::cards::{Card, CardSet};
use crate::engine::{DrawSource, Phase, PlayerView, pile_allowed};
use crate::meld;

/// Whether `card` would be part of some meld with the cards of `hand`
/// (a set with two more of its rank, or a run with suit neighbours): what
/// `meld::meldable(hand.with(card)).contains(card)` says, for one card.
///
/// Branch-free bit arithmetic (a decision of every greedy and simple turn
/// and of every rollout turn): the card's suit neighbours two either side
/// are one shift away, since bits 13–15 of every lane (and the two bits
/// shifted in below the clubs' ace) are empty; its rank's count is one
/// multiplication, the four lanes' bits summed into the top lane.
#[must_use]
#[inline]
pub fn joins_meld(hand: CardSet, card: Card) -> bool {
    let bit = card.bit();
    let with = hand.bits() | 1 << bit;
    // Bits 0..=4: ranks r − 2 ..= r + 2 of the card's suit.
    let near = (with << 2) >> bit;
    let run =
        (near & 0b00011 == 0b00011) | (near & 0b01010 == 0b01010) | (near & 0b11000 == 0b11000);
    let of_rank = (with >> (bit & 15)) & meld::RANK_STRIDE;
    let count = of_rank.wrapping_mul(meld::RANK_STRIDE) >> 48;
    run | (count >= 3)
}

/// The draw decision of a strategy that takes the pile top when `wants` it:
/// stock only when the pile is not allowed; at the stock end
/// ([`Phase::LastChance`]) the last discard
/// is taken only if some discard would then allow a knock.
pub fn draw_when(view: &PlayerView<'_>, wants: impl FnOnce(Card) -> bool) -> DrawSource {
    let Some(top) = view.pile_top().filter(|_| pile_allowed(view)) else {
        return DrawSource::Stock;
    };
    let take = match view.phase {
        Phase::LastChance { .. } => {
            best_discard_except(view.hand.with(top), Some(top)).deadwood <= view.knock_limit
        }
        _ => wants(top),
    };
    if take {
        DrawSource::Pile
    } else {
        DrawSource::Stock
    }
}

/// The best discard of `hand` other than `banned` (the card just taken from
/// the pile): least deadwood left, ties to the higher rank, then suit.
#[must_use]
pub fn best_discard_except(hand: CardSet, banned: Option<Card>) -> meld::Discard {
    let best = meld::best_discard(hand).expect("a hand ending its turn has cards");
    except(hand, best, banned)
}

/// [`best_discard_except`] given `best`, the hand's best discard.
#[inline]
pub(crate) fn except(hand: CardSet, best: meld::Discard, banned: Option<Card>) -> meld::Discard {
    match banned {
        Some(card) if card == best.card => {
            // The next best: one batched solve, ties to the higher card.
            let legal = hand.without(card);
            let left = meld::deadwood_without_each(hand);
            let (deadwood, ties) = left.least_and_ties(legal);
            let card = ties.highest().expect("11 cards");
            meld::Discard { card, deadwood }
        }
        _ => best,
    }
}

/// For tests: the deck dealing `a` to the non-dealer and `b` to the
/// dealer, `up` as the upcard, then `stock` on top of the stock.
#[cfg(test)]
pub(crate) fn test_deck(a: &str, b: &str, up: &str, stock: &str) -> crate::engine::Deck {
    let stock: Vec<Card> = stock
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    crate::engine::Deck::arranged(
        a.parse().unwrap(),
        b.parse().unwrap(),
        up.parse().unwrap(),
        &stock,
    )
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_meld_cases() {
        let hand: CardSet = "5H 6H 9C 9D KS".parse().unwrap();
        let card = |s: &str| s.parse::<Card>().unwrap();
        assert!(joins_meld(hand, card("4H")));
        assert!(joins_meld(hand, card("7H")));
        assert!(joins_meld(hand, card("9S")));
        assert!(!joins_meld(hand, card("8H")));
        assert!(!joins_meld(hand, card("QS")));
        assert!(!joins_meld(hand, card("KH")));
    }

    /// The same answer as the meld module's `meldable` for every card and
    /// hands of every size, edges included (aces, kings, clubs, spades).
    #[test]
    fn joins_meld_is_meldable_for_one_card() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut hands: Vec<CardSet> = ["", "AC 2C KS QS", "AC AD KH KS QS", "2C 3C JS KS"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        for size in [4, 7, 10, 11, 13, 20] {
            for _ in 0..300 {
                let deck = crate::engine::Deck::shuffled(&mut rng);
                hands.push(deck.cards()[..size].iter().copied().collect());
            }
        }
        for hand in hands {
            for card in Card::all() {
                let expect = meld::meldable(hand.with(card)).contains(card);
                assert_eq!(joins_meld(hand, card), expect, "{hand} + {card}");
            }
        }
    }

    #[test]
    fn discard_except_the_taken_card() {
        let hand: CardSet = "AS 2S 3S 4S 7H 7D 7C KC QC 5H 9D".parse().unwrap();
        let kc = "KC".parse().unwrap();
        assert_eq!(best_discard_except(hand, None).card, kc);
        let d = best_discard_except(hand, Some(kc));
        assert_eq!((d.card.to_string().as_str(), d.deadwood), ("QC", 24));
    }
}
