//! The opponent models of the fast rollouts ([`OpponentPolicy`]): how the
//! opponent knocks in each world, and what its play this game says. A new
//! model is one implementation here and one variant of
//! [`OpponentModel`], which builds it.

use crate::cards::CardSet;
use crate::engine::{Event, HandOutcome, PlayerView};
use crate::meld;

use super::config::OpponentModel;

/// How the opponent knocks in one world's rollouts (it draws and discards
/// as greedy does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knocks {
    /// Its knock threshold (`None`: the policy's default, the limit).
    pub knock_at: Option<u8>,
    /// The share of its chances to knock short of gin it takes (above 0,
    /// at most 1); which chances is a hash of the world's opponent hand
    /// and the turn, the same for every candidate.
    pub share: f64,
}

/// A model of the opponent on the fast rollouts.
pub trait OpponentPolicy: Send + std::fmt::Debug {
    /// How the opponent knocks in the world where it holds `hand`, when
    /// the profile models it knocking at `knock_at`. A function of the
    /// hand, not a draw: every candidate of a world meets the same model
    /// and the sampled worlds stay those of the same seed.
    fn knocks(&self, hand: CardSet, knock_at: Option<u8>) -> Knocks;

    /// Reads the end of a hand of the game, seen from this player.
    fn end_hand(&mut self, _view: &PlayerView<'_>, _outcome: &HandOutcome) {}

    /// The share of worlds in which the model has the opponent decline
    /// knocks (0 for a model of one kind).
    fn gin_chance(&self) -> f64 {
        0.0
    }
}

/// A fresh model for one game.
#[must_use]
pub fn build(model: OpponentModel) -> Box<dyn OpponentPolicy> {
    match model {
        OpponentModel::Fixed { knock_share } => Box::new(Fixed { knock_share }),
        OpponentModel::Adaptive { prior, share } => Box::new(Adaptive {
            prior,
            share,
            seen: [0; 2],
        }),
    }
}

/// One kind for the whole game ([`OpponentModel::Fixed`]).
#[derive(Debug)]
struct Fixed {
    knock_share: f64,
}

impl OpponentPolicy for Fixed {
    fn knocks(&self, _hand: CardSet, knock_at: Option<u8>) -> Knocks {
        Knocks {
            knock_at,
            share: self.knock_share,
        }
    }
}

/// How much one knock short of gin (or one declined knock) seen from the
/// opponent shifts the odds that it plays for gin ([`Adaptive`]): a tenth,
/// not zero, because a player holding for gin may still knock when the
/// stock runs low, and a knocker may hold a hand it expects to undercut.
pub const ADAPT_ODDS: f64 = 0.1;

/// Two kinds mixed by what the opponent was seen to do this game
/// ([`OpponentModel::Adaptive`]).
#[derive(Debug)]
struct Adaptive {
    prior: f64,
    share: f64,
    /// The opponent's knocks short of gin and its declined knocks seen
    /// this game.
    seen: [u32; 2],
}

impl OpponentPolicy for Adaptive {
    fn knocks(&self, hand: CardSet, knock_at: Option<u8>) -> Knocks {
        let knocker = Knocks {
            knock_at,
            share: 1.0,
        };
        if !gin_world(hand, self.gin_chance()) {
            return knocker;
        }
        if self.share > 0.0 {
            Knocks {
                share: self.share,
                ..knocker
            }
        } else {
            Knocks {
                knock_at: Some(0),
                ..knocker
            }
        }
    }

    /// A decline is seen when this player knocks: the opponent's shown
    /// hand is the ten cards it kept at its last turn end, when it could
    /// have knocked with them if their deadwood was within the limit. A
    /// player that knocks as soon as it may (simple, greedy) never
    /// declines and soon shows a knock short of gin; one that plays for
    /// gin declines.
    fn end_hand(&mut self, view: &PlayerView<'_>, outcome: &HandOutcome) {
        let HandOutcome::Showdown {
            knocker, showdown, ..
        } = outcome
        else {
            return;
        };
        let opponent = view.seat.other();
        if *knocker == opponent {
            self.seen[0] += u32::from(!showdown.is_gin());
            return;
        }
        let ended_a_turn = view
            .events
            .iter()
            .any(|e| matches!(e, Event::Discarded { seat, .. } if *seat == opponent));
        let deadwood = meld::deadwood(showdown.defender.hand() | showdown.layoffs);
        if ended_a_turn && (1..=view.knock_limit).contains(&deadwood) {
            self.seen[1] += 1;
        }
    }

    /// The share starts at `prior`; each knock the opponent declined this
    /// game multiplies the odds for the declining kind by 10 (1 /
    /// [`ADAPT_ODDS`]), and each knock short of gin it was seen to make
    /// multiplies them by `share` (at least [`ADAPT_ODDS`]).
    fn gin_chance(&self) -> f64 {
        let [knocks, declines] = self.seen.map(f64::from);
        let prior = self.prior;
        // A knock is weaker evidence against a kind that knocks at a share
        // of its chances than against one that plays for gin only.
        let knock_odds = self.share.max(ADAPT_ODDS);
        1.0 / (1.0 + (1.0 - prior) / prior * ADAPT_ODDS.powf(declines) / knock_odds.powf(knocks))
    }
}

/// Whether the world whose opponent holds `opponent` models it as playing
/// for gin, for a share `chance` of worlds: a hash of the hand against
/// `chance`, so the choice needs no draw from the sampling generator and
/// the worlds stay those of the same seed without `adapt`.
pub(super) fn gin_world(opponent: CardSet, chance: f64) -> bool {
    let u = (crate::seed::mix(opponent.bits()) >> 11) as f64 / (1u64 << 53) as f64;
    u < chance
}
