//! `simple`: the EAAI-21 Gin Rummy challenge's reference player
//! (`SimpleGinRummyPlayer`).
//!
//! - Takes the upcard or the pile top only if it would be part of a meld with
//!   its cards; otherwise draws from the stock.
//! - Discards, among the cards (not the one just taken from the pile) whose
//!   removal leaves the least deadwood, one at random.
//! - Knocks as soon as it legally can.

use rand::{Rng as _, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::engine::{
    DrawSource, PlayerView, Strategy, TurnEnd, below, big_gin_legal, legal_discards, turn_end,
};
use crate::cards::Card;
use crate::meld;

use super::profile::{Given, KeyError, Keys, Kind, Params, keys, write_inline};
use super::{draw_when, joins_meld};

/// The table's row of `simple`.
pub(super) const KIND: Kind = Kind::of::<SimpleKeys>("simple", None);

keys! {
    /// The keys of `simple`: none.
    #[derive(Default)]
    struct SimpleKeys {}
}

impl Keys for SimpleKeys {
    const PARAMS: &'static [crate::strategy::Param] = SimpleKeys::KEY_LIST;
    type Params = SimpleParams;

    fn resolve(self, _given: &Given) -> Result<SimpleParams, KeyError> {
        Ok(SimpleParams)
    }
}

/// The parameters of [`Simple`]: none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimpleParams;

impl Params for SimpleParams {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn build(&self, seed: u64) -> Box<dyn Strategy> {
        Box::new(Simple::new(seed))
    }
}

impl std::fmt::Display for SimpleParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_inline(f, KIND.name, &[])
    }
}

/// The EAAI reference player.
#[derive(Clone, Debug)]
pub struct Simple {
    rng: Pcg64Mcg,
}

impl Simple {
    /// A player whose random choices come from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Simple {
        Simple {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

impl Strategy for Simple {
    fn name(&self) -> &str {
        "simple"
    }

    fn reset(&mut self, seed: u64) -> bool {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
        true
    }

    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        view.upcard.is_some_and(|card| joins_meld(view.hand, card))
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        draw_when(view, |top| joins_meld(view.hand, top))
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        // The least deadwood the legal discards leave and the cards leaving
        // it, in one pass (a lane lookup a card, or one batched solve for a
        // hand holding a rank three times). Big gin is 11 melded cards,
        // which hold a meld of 4 or more: at least two of its cards leave
        // 0, so one that is not the card just taken, and `best` is 0
        // whenever big gin is legal.
        let (best, ties) = meld::least_discards(view.hand, legal_discards(view));
        if best == 0 && big_gin_legal(view) {
            return TurnEnd::BigGin;
        }
        let mut bits = ties.bits();
        if bits & bits.wrapping_sub(1) == 0 {
            // One card leaves the least (most turn ends): `below(rng, 1)`
            // would draw once and answer 0; the draw keeps the stream.
            self.rng.next_u64();
        } else {
            let mut pick = below(&mut self.rng, u64::from(ties.len()));
            while pick > 0 {
                bits &= bits - 1;
                pick -= 1;
            }
        }
        let card = Card::from_bit(bits.trailing_zeros()).expect("the least is reached");
        turn_end(card, best <= view.knock_limit)
    }
}
