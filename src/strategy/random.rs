//! `random`: uniform over legal actions.
//!
//! Takes the upcard with probability 1/2; draws from the stock or the pile
//! with probability 1/2 each (when the pile is allowed); discards a uniformly
//! chosen legal card, and if knocking with it is legal, knocks with
//! probability `knock_prob`. At the stock end it takes the last discard only
//! when some discard would then allow a knock.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::engine::{
    DrawSource, Phase, PlayerView, Strategy, TurnEnd, below, big_gin_legal, legal_discards,
    turn_end,
};
use crate::meld;

use super::profile::{Given, KeyError, Keys, Kind, ParamError, Params, keys, write_inline};
use super::{best_discard_except, draw_when};

/// The table's row of `random`.
pub(super) const KIND: Kind = Kind::of::<RandomParams>("random", None);

keys! {
    /// The parameters of [`Random`] (`random:knock_prob=0.25`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct RandomParams {
        /// Probability of knocking when a knock is legal (0 to 1, default 0.5).
        pub knock_prob: f64 => Number "a number from 0 to 1",
    }
}

impl Default for RandomParams {
    fn default() -> RandomParams {
        RandomParams { knock_prob: 0.5 }
    }
}

impl Params for RandomParams {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn build(&self, seed: u64) -> Box<dyn Strategy> {
        Box::new(Random::new(seed, self.knock_prob))
    }
}

impl Keys for RandomParams {
    const PARAMS: &'static [crate::strategy::Param] = RandomParams::KEY_LIST;
    type Params = RandomParams;

    fn resolve(self, _given: &Given) -> Result<RandomParams, KeyError> {
        if !(0.0..=1.0).contains(&self.knock_prob) {
            return Err(("knock_prob", ParamError::Invalid));
        }
        Ok(self)
    }
}

impl std::fmt::Display for RandomParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut items = Vec::new();
        if self.knock_prob != RandomParams::default().knock_prob {
            items.push(format!("knock_prob={}", self.knock_prob));
        }
        write_inline(f, KIND.name, &items)
    }
}

/// The uniformly random player.
#[derive(Clone, Debug)]
pub struct Random {
    rng: Pcg64Mcg,
    knock_prob: f64,
}

impl Random {
    /// A random player with its own seed, knocking with probability
    /// `knock_prob` whenever a knock is legal.
    #[must_use]
    pub fn new(seed: u64, knock_prob: f64) -> Random {
        Random {
            rng: Pcg64Mcg::seed_from_u64(seed),
            knock_prob,
        }
    }

    fn chance(&mut self, p: f64) -> bool {
        // 53 random bits as a uniform float in [0, 1).
        let x = below(&mut self.rng, 1 << 53) as f64 / (1u64 << 53) as f64;
        x < p
    }
}

impl Strategy for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn reset(&mut self, seed: u64) -> bool {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
        true
    }

    fn take_upcard(&mut self, _view: &PlayerView<'_>) -> bool {
        self.chance(0.5)
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        draw_when(view, |_| self.chance(0.5))
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        let big_gin = big_gin_legal(view);
        if let Phase::EndTurn {
            must_knock: true, ..
        } = view.phase
        {
            if big_gin {
                return TurnEnd::BigGin;
            }
            return TurnEnd::Knock(best_discard_except(view.hand, view.taken_from_pile).card);
        }
        if big_gin && self.chance(self.knock_prob) {
            return TurnEnd::BigGin;
        }
        let legal = legal_discards(view);
        let card = legal
            .iter()
            .nth(below(&mut self.rng, legal.len() as u64) as usize)
            .expect("a legal discard");
        let can_knock = meld::deadwood(view.hand.without(card)) <= view.knock_limit;
        turn_end(card, can_knock && self.chance(self.knock_prob))
    }
}
