//! The configuration of the `mc` player ([`McConfig`]), grouped by concern:
//! the budget, the world model, who plays the rollouts (this player's own
//! future play and the opponent model) and the choice among candidates. A
//! combination the player cannot play has no value here: the fast-path
//! options (frozen own play, knock shares, the adaptive opponent) exist
//! only inside [`RolloutPlay::Fast`], a per-game budget
//! has no per-decision count, and `frozen_turns` lives in
//! [`FastOwn::Frozen`]. The profile text (`mc:key=value` and the TOML
//! file's keys, [`McParams`](super::McParams)) is sugar that resolves to
//! this type and names the key when it cannot.

use super::params::{Rollout, Weighting};
use super::{Model, budget};

/// Everything that decides how [`MonteCarlo`](super::MonteCarlo) plays.
#[derive(Clone, Debug, PartialEq)]
pub struct McConfig {
    /// How many worlds a decision samples.
    pub budget: Budget,
    /// How the worlds are drawn and weighted.
    pub worlds: WorldModel,
    /// Who plays the rollouts, and how.
    pub rollouts: Rollouts,
    /// How a candidate is chosen.
    pub choice: Choice,
    /// Mixed into the harness's seed.
    pub seed: u64,
}

/// How many worlds a decision samples: a count per decision or an account
/// for the whole game, never both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `samples` worlds at every sampled decision (1 to 65536).
    Decision {
        /// Worlds per decision.
        samples: u32,
    },
    /// `worlds` for the whole game, shared out over its sampled decisions
    /// ([`budget::GameAccount`]).
    Game {
        /// Worlds per game.
        worlds: u64,
    },
}

/// How the opponent's hidden cards are drawn and weighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldModel {
    /// How hidden cards are drawn.
    pub weighting: Weighting,
    /// Weight worlds by how likely a real opponent's hand has their
    /// deadwood ([`HandPrior`](super::HandPrior)).
    pub calibrate: bool,
}

/// Who plays the rollouts, with the knock thresholds of both seats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rollouts {
    /// The policies of the two seats.
    pub play: RolloutPlay,
    /// The knock threshold of this player's own future play (0 to 10;
    /// `None`: its policy's default, or the frozen bar).
    pub own_knock_at: Option<u8>,
    /// The knock threshold of the modelled opponent (0 to 10; `None`: the
    /// policy's default), in rollouts and in the calibration.
    pub opp_knock_at: Option<u8>,
}

/// The two seats' policies in a rollout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RolloutPlay {
    /// Greedy's rules on a bare state ([`GreedyRollout`](super::GreedyRollout)),
    /// where this player's own play and the opponent's knocks have models
    /// of their own.
    Fast {
        /// This player's own future play.
        own: FastOwn,
        /// How the opponent knocks.
        opponent: OpponentModel,
    },
    /// Two engine players through `play_hand` (about four times the cost
    /// of a fast rollout with a tracker seat).
    Engine {
        /// This player's own future play.
        own: Rollout,
        /// The opponent.
        opponent: Rollout,
    },
}

/// This player's own future play on the fast rollouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastOwn {
    /// Greedy's rules.
    Greedy,
    /// The tracker's draws and discards with the knowledge of the decision
    /// frozen through the rollout ([`Frozen`](super::Frozen)), for the
    /// first `turns` of its turns (`None`: every turn; later ones as
    /// greedy, with the frozen knock threshold).
    Frozen {
        /// Turns played by the frozen rules (1 to 30).
        turns: Option<u8>,
    },
}

/// How the opponent knocks on the fast rollouts (it draws and discards as
/// greedy does, knocking at [`Rollouts::opp_knock_at`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OpponentModel {
    /// One policy for the whole game: it takes `knock_share` of its
    /// chances to knock short of gin (above 0, at most 1; 1: every one).
    /// Which chances is a hash of the world's opponent hand and the turn.
    Fixed {
        /// The share of knock chances taken.
        knock_share: f64,
    },
    /// Two kinds, mixed by what the opponent was seen to do this game
    /// ([`MonteCarlo::gin_chance`](super::MonteCarlo::gin_chance)): one
    /// knocks at every chance, the other declines knocks.
    Adaptive {
        /// The share of worlds modelling the declining kind before any
        /// knock was seen or declined (above 0, below 1).
        prior: f64,
        /// The share of its knock chances the declining kind takes (from
        /// 0, below 1; 0: it plays for gin only).
        share: f64,
    },
}

/// How the answer is chosen among the candidates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The policy whose answer is played unless sampling shows a better
    /// one with `confidence`.
    pub base: Rollout,
    /// Standard errors by which an answer must beat the base policy's to
    /// be played instead (0 to 10; 0: the best mean wins).
    pub confidence: f64,
    /// Discards considered at the end of a turn (1 to 11).
    pub discards: u8,
    /// Draw from the stock without sampling when the pile's top card
    /// cannot help the hand (`hopeless_pile_top` in `mc.rs`).
    pub prune: bool,
}

/// Every default is `mc`'s measured setting (docs/DESIGN.md).
impl Default for McConfig {
    fn default() -> McConfig {
        McConfig {
            budget: Budget::Decision { samples: 64 },
            worlds: WorldModel {
                weighting: Weighting::Tracker,
                calibrate: true,
            },
            rollouts: Rollouts {
                play: RolloutPlay::Fast {
                    own: FastOwn::Greedy,
                    opponent: OpponentModel::Fixed { knock_share: 1.0 },
                },
                own_knock_at: None,
                opp_knock_at: None,
            },
            choice: Choice {
                base: Rollout::Tracker,
                confidence: 2.0,
                discards: 4,
                prune: false,
            },
            seed: 0,
        }
    }
}

impl McConfig {
    /// The opponent model of the rollouts' policy and the calibration.
    #[must_use]
    pub fn opponent_model(&self) -> Model {
        Model {
            rollout: self.rollouts.opponent_policy(),
            knock_at: self.rollouts.opp_knock_at,
        }
    }

    /// A per-game account of worlds, with [`Budget::Game`].
    #[must_use]
    pub fn account(&self) -> Option<budget::GameAccount> {
        match self.budget {
            Budget::Game { worlds } => Some(budget::GameAccount::new(worlds)),
            Budget::Decision { .. } => None,
        }
    }
}

impl Rollouts {
    /// The policy the opponent plays by (greedy on the fast rollouts).
    #[must_use]
    pub fn opponent_policy(&self) -> Rollout {
        match self.play {
            RolloutPlay::Fast { .. } => Rollout::Greedy,
            RolloutPlay::Engine { opponent, .. } => opponent,
        }
    }

    /// The engine policy of this player's own seat: the tracker for
    /// frozen own play, whose rules are the tracker's.
    #[must_use]
    pub fn own_policy(&self) -> Rollout {
        match self.play {
            RolloutPlay::Fast {
                own: FastOwn::Greedy,
                ..
            } => Rollout::Greedy,
            RolloutPlay::Fast {
                own: FastOwn::Frozen { .. },
                ..
            } => Rollout::Tracker,
            RolloutPlay::Engine { own, .. } => own,
        }
    }
}
