//! `mc`: Monte Carlo determinization.
//!
//! At each decision with more than one sensible answer it samples `samples`
//! complete *worlds* consistent with what the player knows: the opponent's
//! hand (the cards it is known to hold plus hidden cards drawn from the
//! unseen ones) and the order of the stock (the rest, shuffled). Sampling
//! reads only the [`PlayerView`]; the true hidden cards are never consulted.
//! With `weighting = tracker` the hidden cards are drawn one at a time with
//! probability proportional to [`Knowledge::prob`], so a card the opponent
//! likely holds (next to what it took, far from what it threw) is drawn into
//! its hand more often; with `weighting = none` uniformly.
//!
//! Each world gets an importance weight (`calibrate`, default on,
//! [`HandPrior`]): how much likelier a real opponent's hand with that deadwood
//! is, after that many draws, than the sampler makes it. A greedy opponent
//! that has not knocked rarely holds 10 or less; ten random unseen cards
//! often do, and a random hand late in the hand is far worse than a real one.
//!
//! Every candidate answer is then applied in every world
//! ([`Hand::from_world`] rebuilds the hand there) and the hand is played to
//! its end by the rollout policy (`rollout`, `greedy` or `tracker`; this
//! player's own future play may be another policy, `own_rollout`, among
//! them the tracker's rules frozen at the decision ([`Frozen`]), and may
//! knock at `own_knock_at`; the opponent is modelled by the rollout policy
//! knocking at `opp_knock_at`). All candidates see the
//! same worlds (common random numbers), so the comparison is between
//! answers, not between samples.
//!
//! The answer of the `base` policy (`tracker` by default) is listed first
//! and is played unless another answer's weighted mean beats it by more than
//! `confidence` standard errors (default 2) of the paired per-world
//! differences. Without this gate a 64-world estimate picks among near-equal
//! answers by noise: measured under eaai against simple over 400 games, the
//! ungated player won 49.8 % of games, the gated one (1 standard error) with
//! a greedy base 57.8 %, and 66.0 % with calibrated worlds as well. The gate
//! is 2 standard errors, not 1, because the alternative tested is the best of
//! up to five: when all are equal, the largest of five independent noisy
//! differences passes one standard error with chance 1 − Φ(1)⁵ ≈ 0.58, and
//! two with 1 − Φ(2)⁵ ≈ 0.11. Measured under eaai with the tracker base,
//! 2,000 games against simple (seed 202): 68.9 % of games at 1, 74.1 % at 2,
//! 72.4 % at 3; with 16 worlds 57.6 % at 1 and 68.9 % at 2. Against tracker
//! (1,000 games, seed 303): 52.6 % at 1, 56.1 % at 2.
//!
//! The result of a rollout is the hand points from this player's side (+
//! won, − lost, 0 void; [`Points`]).
//!
//! Candidates:
//! - upcard offer: take or pass;
//! - draw: stock or pile (when the pile is allowed; at the stock end the last
//!   discard is considered only if a knock could follow);
//! - end of turn: big gin and gin are taken at once (nothing scores more);
//!   otherwise the base policy's answer, the `discards` legal discards
//!   leaving the least deadwood (ties to the higher card), and knocking with
//!   the best discard when legal.
//!
//! Time as a parameter ([`budget`]): `budget_ms` per decision sets
//! `samples` to the worlds that many milliseconds buy at a fixed rate
//! ([`budget::WORLDS_PER_MS`]); `game_budget_ms` gives the player an account
//! of worlds for the whole game (`game_worlds`), shared out over its
//! decisions. Both resolve to counts, which the profile's text prints, so
//! runs stay deterministic.
//!
//! Deterministic for a given seed: the seed of the harness and the profile's
//! `seed` are mixed into one generator, used only for sampling.
//!
//! The parts: the typed configuration (`config.rs`, [`McConfig`]), the
//! profile keys that resolve to it (`params.rs`), world sampling and the
//! world-weight seam (`worlds.rs`, [`WorldWeight`]), the gate (`gate.rs`),
//! rollouts (`rollout.rs`), the frozen own play in them (`frozen.rs`), the
//! opponent models of the fast rollouts (`opponent.rs`, [`OpponentPolicy`]),
//! what a rollout is worth (`value.rs`, [`Evaluator`]), the calibration
//! prior (`prior.rs`, a [`WorldWeight`]) and budgets ([`budget`]); this file is the player, which
//! asks them in turn.

use std::sync::Arc;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::cards::{Card, CardSet};
use crate::engine::{
    Action, DrawSource, Hand, Phase, PlayerView, Seat, Strategy, TurnEnd,
    big_gin_legal, legal_discards, pile_allowed, play_hand,
};
use crate::meld::{self, DiscardMemo};
use crate::rules::Rules;

use super::{Greedy, Knowledge, Tracker, best_discard_except};

pub mod budget;
mod config;
mod frozen;
mod gate;
mod caches;
mod opponent;
mod params;
mod prior;
mod rollout;
mod value;
mod worlds;

pub use gate::{Estimates, pick_candidate};
pub use caches::McCaches;
pub(in crate::strategy) use params::KIND;
pub use frozen::Frozen;
pub use config::{
    Budget, Choice, FastOwn, McConfig, OpponentModel, RolloutPlay, Rollouts, WorldModel,
};
pub use params::{McParams, OwnRollout, Rollout, Weighting};
pub use prior::HandPrior;
use rollout::DecisionSolves;
pub use rollout::{GreedyRollout, RolloutEnd};
pub use value::{Evaluator, Points};
use worlds::Unseen;
pub(crate) use worlds::{sample_into, sample_world};
pub use opponent::{Knocks, OpponentPolicy};
pub use worlds::{Decision, World, WorldWeight};

/// The Monte Carlo determinization player.
pub struct MonteCarlo {
    params: McConfig,
    rng: Pcg64Mcg,
    /// The base policy, asked first at every decision.
    base: Box<dyn Strategy>,
    /// Rollout policies: this player's own future play, the opponent's.
    players: [Box<dyn Strategy>; 2],
    /// Where the tables come from.
    caches: McCaches,
    /// The world weight of the rules it was built for (the calibration).
    weight: Option<(Rules, Arc<dyn WorldWeight>)>,
    /// A world weight given from outside, multiplied in
    /// ([`MonteCarlo::weighing_also`]).
    extra: Option<Arc<dyn WorldWeight>>,
    /// The opponent model of the fast rollouts.
    opponent: Box<dyn OpponentPolicy>,
    worlds: Vec<World>,
    values: Vec<f64>,
    /// The world weights of the last sampled decision.
    weights: Vec<f64>,
    /// The deciding seat's solves of the last decision (a buffer).
    solves: DecisionSolves,
    /// The candidates of the last decision and the one played
    /// ([`MonteCarlo::last_decision`]).
    last: (Vec<Action>, usize),
    /// Decisions asked for, and those answered by sampling.
    decisions: [u64; 2],
    /// What is left of the per-game budget, if there is one.
    account: Option<budget::GameAccount>,
    /// This player's own play in rollouts at the current decision, with
    /// `own_rollout = frozen`.
    frozen: Option<Frozen>,
    /// The fast rollouts' solves, kept across worlds and decisions.
    memo: DiscardMemo,
}

impl std::fmt::Debug for MonteCarlo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MonteCarlo")
            .field("params", &self.params)
            .field("decisions", &self.decisions)
            .finish_non_exhaustive()
    }
}

/// How the opponent is modelled in rollouts and in [`HandPrior`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    /// The policy.
    pub rollout: Rollout,
    /// Its knock threshold (`None`: the policy's default).
    pub knock_at: Option<u8>,
}

impl Model {
    /// A fresh player of this model.
    #[must_use]
    pub fn player(self) -> Box<dyn Strategy> {
        rollout_player(self.rollout, self.knock_at)
    }
}

/// The rollout policy, knocking at `knock_at` (`None`: its default).
fn rollout_player(rollout: Rollout, knock_at: Option<u8>) -> Box<dyn Strategy> {
    match rollout {
        Rollout::Greedy => Box::new(Greedy::new(knock_at, Vec::new())),
        Rollout::Tracker => {
            let mut tracker = Tracker::default();
            tracker.knock_at = knock_at;
            Box::new(tracker)
        }
    }
}

impl MonteCarlo {
    /// A player with `params`, its sampling seeded by `seed` and
    /// `params.seed`, with tables of its own.
    #[must_use]
    pub fn new(params: McConfig, seed: u64) -> MonteCarlo {
        MonteCarlo::with_caches(params, seed, McCaches::default())
    }

    /// [`MonteCarlo::new`], its tables shared through `caches`.
    #[must_use]
    pub fn with_caches(params: McConfig, seed: u64, caches: McCaches) -> MonteCarlo {
        let account = params.account();
        let opponent = opponent::build(match params.rollouts.play {
            RolloutPlay::Fast { opponent, .. } => opponent,
            // Engine rollouts play the opponent's policy as it is.
            RolloutPlay::Engine { .. } => OpponentModel::Fixed { knock_share: 1.0 },
        });
        MonteCarlo {
            rng: Pcg64Mcg::seed_from_u64(crate::seed::mix(seed ^ crate::seed::mix(params.seed))),
            base: rollout_player(params.choice.base, None),
            players: [
                rollout_player(
                    params.rollouts.own_policy(),
                    params.rollouts.own_knock_at,
                ),
                params.opponent_model().player(),
            ],
            params,
            weight: None,
            extra: None,
            caches,
            opponent,
            worlds: Vec::new(),
            values: Vec::new(),
            weights: Vec::new(),
            solves: DecisionSolves::default(),
            last: (Vec::new(), 0),
            decisions: [0; 2],
            account,
            frozen: None,
            memo: DiscardMemo::new(),
        }
    }

    /// The same player with every world's weight also multiplied by
    /// `weight`'s: a world model tried from outside the profile keys (an
    /// experiment such as `examples/seer.rs`), before it earns a key.
    #[must_use]
    pub fn weighing_also(mut self, weight: Arc<dyn WorldWeight>) -> MonteCarlo {
        self.extra = Some(weight);
        self
    }

    /// Decisions asked for so far, and how many of them were answered by
    /// sampling (the rest had one sensible answer: a stock-only draw, gin,
    /// big gin, a forced knock).
    #[must_use]
    pub fn decisions(&self) -> [u64; 2] {
        self.decisions
    }

    /// The share of worlds whose rollouts model the opponent as the kind
    /// that declines knocks ([`OpponentModel::Adaptive`]): it starts at
    /// the model's `prior` (even odds by default); each knock the opponent
    /// declined this game multiplies the odds for the declining kind by 10
    /// (1 / `ADAPT_ODDS`), and each knock short of gin it was seen to
    /// make multiplies them by the model's `share` (at least `ADAPT_ODDS`,
    /// a tenth). Those worlds (chosen by the opponent's
    /// sampled hand) model it as knocking short of gin at `share` of its
    /// chances (0: it plays for gin only); the rest model it knocking at
    /// `opp_knock_at`. 0 for a fixed model.
    #[must_use]
    pub fn gin_chance(&self) -> f64 {
        self.opponent.gin_chance()
    }

    /// Samples one world consistent with `view` (see the module docs).
    ///
    /// # Panics
    /// If the view has fewer unseen cards than hidden opponent cards (no
    /// view of a real hand does).
    pub fn sample_world(&mut self, view: &PlayerView<'_>, knowledge: Option<&Knowledge>) -> World {
        sample_world(&mut self.rng, view, knowledge)
    }

    /// The last decision's candidates (the base policy's answer first),
    /// the one played, and every candidate's estimate on its worlds (none
    /// when it had one sensible answer): what the gate saw. For
    /// diagnostics (`examples/knock_gate.rs`); it never changes a decision.
    #[must_use]
    pub fn last_decision(&self) -> Option<Estimates<'_>> {
        let (candidates, chosen) = &self.last;
        if candidates.is_empty() {
            return None;
        }
        Some(Estimates {
            candidates,
            chosen: *chosen,
            values: &self.values[..self.weights.len() * candidates.len()],
            weights: &self.weights,
        })
    }

    /// The index of the best of `candidates` (all legal in `view`).
    fn choose(&mut self, view: &PlayerView<'_>, candidates: &[Action]) -> usize {
        self.decisions[0] += 1;
        self.last.0.clear();
        self.last.0.extend_from_slice(candidates);
        self.last.1 = 0;
        if candidates.len() == 1 {
            self.weights.clear();
            return 0;
        }
        self.decisions[1] += 1;
        let knowledge = match self.params.worlds.weighting {
            Weighting::Tracker => Some(Knowledge::from_view(view)),
            Weighting::None => None,
        };
        let samples = match self.account.as_mut() {
            Some(account) => account.share(),
            None => match self.params.budget {
                Budget::Decision { samples } => u64::from(samples),
                Budget::Game { .. } => unreachable!("a per-game budget has an account"),
            },
        } as usize;
        self.prepare_tables(view);
        if let RolloutPlay::Fast {
            own: FastOwn::Frozen { .. },
            ..
        } = self.params.rollouts.play
        {
            let tracker = Tracker::default();
            self.frozen = Some(match &knowledge {
                Some(k) => Frozen::new(k, &tracker),
                None => Frozen::new(&Knowledge::from_view(view), &tracker),
            });
        }
        let n = candidates.len();
        // The buffers of earlier decisions are used again.
        let mut s = Sampled {
            draws: prior::opponent_draws(view),
            worlds: std::mem::take(&mut self.worlds),
            weights: std::mem::take(&mut self.weights),
            values: std::mem::take(&mut self.values),
            shared: Shared {
                hand: None,
                solves: std::mem::take(&mut self.solves),
            },
        };
        if let RolloutPlay::Fast { .. } = self.params.rollouts.play {
            s.shared.solves.solve(view, candidates);
        }
        s.values.clear();
        s.weights.clear();
        s.weights.reserve(samples);
        let all: Vec<usize> = (0..n).collect();
        self.sample_round(view, knowledge.as_ref(), candidates, &all, &mut s, samples);
        let best = pick_candidate(&s.values, &s.weights, n, self.params.choice.confidence);
        s.worlds.truncate(s.weights.len());
        self.worlds = s.worlds;
        self.values = s.values;
        self.weights = s.weights;
        self.solves = s.shared.solves;
        self.last.1 = best;
        best
    }

    /// Samples `count` more worlds into `s` and plays the `live` candidates
    /// out in each.
    fn sample_round<'v>(
        &mut self,
        view: &PlayerView<'v>,
        knowledge: Option<&Knowledge>,
        candidates: &[Action],
        live: &[usize],
        s: &mut Sampled<'v>,
        count: usize,
    ) {
        let from = s.weights.len();
        let decision = Decision {
            view,
            opponent_draws: s.draws,
        };
        // The unseen cards and their weights are those of every world.
        let unseen = Unseen::new(view, knowledge);
        for w in from..from + count {
            if w == s.worlds.len() {
                s.worlds.push(World {
                    opponent: CardSet::EMPTY,
                    stock: Vec::new(),
                });
            }
            unseen.draw(&mut self.rng, &mut s.worlds[w]);
            let world = &s.worlds[w];
            let mut weight = self
                .weight
                .as_ref()
                .map_or(1.0, |(_, w)| w.weight(&decision, world.opponent));
            if let Some(extra) = &self.extra {
                weight *= extra.weight(&decision, world.opponent);
            }
            s.weights.push(weight);
            self.play_out(view, world, candidates, live, &mut s.shared, &mut s.values);
        }
    }

    /// Builds (or finds) the tables the decision needs under `view`'s rules.
    fn prepare_tables(&mut self, view: &PlayerView<'_>) {
        if self.params.worlds.calibrate
            && self
                .weight
                .as_ref()
                .is_none_or(|(rules, _)| rules != view.rules)
        {
            let weighting = self.params.worlds.weighting;
            let model = self.params.opponent_model();
            let prior = self.caches.prior(view.rules, weighting, model);
            self.weight = Some((view.rules.clone(), prior as Arc<dyn WorldWeight>));
        }
    }

    /// Plays the `live` candidates out in `world` and appends the value of
    /// every candidate to `values` (NaN for those not live).
    fn play_out<'v>(
        &mut self,
        view: &PlayerView<'v>,
        world: &World,
        candidates: &[Action],
        live: &[usize],
        shared: &mut Shared<'v>,
        values: &mut Vec<f64>,
    ) {
        debug_assert!(
            Hand::from_world(view, world.opponent, &world.stock).is_ok(),
            "a sampled world fits the view it was sampled from"
        );
        let first = values.len();
        values.resize(first + candidates.len(), f64::NAN);
        let seat = view.seat;
        if let RolloutPlay::Fast { own, .. } = self.params.rollouts.play {
            // The opponent's hand is solved once for the world, not once a
            // candidate.
            let mut base =
                GreedyRollout::new(view, world.opponent, &world.stock, &self.memo)
                    .solved_for(seat.other());
            if let Some(rules) = &self.frozen {
                base = base.with_frozen(seat, rules);
                if let FastOwn::Frozen { turns: Some(turns) } = own {
                    base = base.frozen_for(u32::from(turns));
                }
            }
            let Knocks { knock_at, share } = self
                .opponent
                .knocks(world.opponent, self.params.rollouts.opp_knock_at);
            let mut knock_at = [knock_at; 2];
            knock_at[seat.index()] = self.params.rollouts.own_knock_at.or_else(|| {
                self.frozen
                    .as_ref()
                    .map(|frozen| frozen.knock_at(view.rules))
            });
            if share < 1.0 {
                base = base.knocking_at_share(
                    seat.other(),
                    share,
                    crate::seed::mix(world.opponent.bits() ^ SHARE_SALT),
                );
            }
            // This seat's solves are shared by every world of the decision.
            let solves = &shared.solves;
            if let Some(solved) = solves.before() {
                base.knowing(seat, solved);
            }
            for &c in live {
                let mut rollout = base.clone();
                let outcome = rollout.apply(candidates[c]).unwrap_or_else(|| {
                    if let Some(solved) = solves.after(c) {
                        rollout.knowing(seat, solved);
                    }
                    rollout.play(knock_at)
                });
                values[first + c] = self.value(view, outcome.winner());
            }
            return;
        }
        let base = Hand::from_world(view, world.opponent, &world.stock)
            .expect("a sampled world fits the view it was sampled from");
        for &c in live {
            let hand = match shared.hand.as_mut() {
                Some(hand) => {
                    hand.clone_from(&base);
                    hand
                }
                None => shared.hand.insert(base.clone()),
            };
            hand.apply(seat, candidates[c])
                .expect("candidates are legal in the view");
            let [own, other] = &mut self.players;
            let mut players: [&mut dyn Strategy; 2] = match seat {
                Seat::A => [own.as_mut(), other.as_mut()],
                Seat::B => [other.as_mut(), own.as_mut()],
            };
            let outcome = play_hand(hand, &mut players)
                .expect("rollout policies play legal actions under valid rules");
            values[first + c] = self.value(view, outcome.winner());
        }
    }

    /// What a hand won by `winner` (seat and points; `None`: void or a
    /// scoreless tie) is worth to the player of `view`.
    fn value(&self, view: &PlayerView<'_>, winner: Option<(Seat, u32)>) -> f64 {
        let won = winner.map(|(s, points)| (s == view.seat, points));
        Points.value(view.scores, won)
    }

    /// The end-of-turn candidates, greedy's choice first.
    fn turn_candidates(&self, view: &PlayerView<'_>) -> Vec<Action> {
        let best = best_discard_except(view.hand, view.taken_from_pile);
        let can_knock = best.deadwood <= view.knock_limit;
        if let Phase::EndTurn {
            must_knock: true, ..
        } = view.phase
        {
            return vec![Action::EndTurn(TurnEnd::Knock(best.card))];
        }
        let mut ranked: Vec<(u8, Card)> = legal_discards(view)
            .iter()
            .map(|c| (meld::deadwood(view.hand.without(c)), c))
            .collect();
        ranked.sort_by_key(|&(d, c)| (d, std::cmp::Reverse((c.rank(), c.suit()))));
        let discards = usize::from(self.params.choice.discards);
        let mut out = Vec::with_capacity(discards + 1);
        if can_knock {
            out.push(Action::EndTurn(TurnEnd::Knock(best.card)));
        }
        out.extend(
            ranked
                .iter()
                .take(discards)
                .map(|&(_, c)| Action::EndTurn(TurnEnd::Discard(c))),
        );
        out
    }
}

/// The worlds of one decision, their weights and the candidates' values
/// (`values[w * n + c]`), with what every world reuses.
struct Sampled<'v> {
    /// The opponent's draws so far (for the calibration's weights).
    draws: usize,
    worlds: Vec<World>,
    weights: Vec<f64>,
    values: Vec<f64>,
    shared: Shared<'v>,
}

/// What every world of a decision reuses: a scratch hand for engine
/// rollouts, the deciding seat's solves for fast ones.
#[derive(Default)]
struct Shared<'v> {
    hand: Option<Hand<'v>>,
    solves: DecisionSolves,
}

/// Mixed into the hash of a world's opponent hand that decides which of
/// its knock chances the opponent takes in rollouts (`opp_knock_share`).
const SHARE_SALT: u64 = 0x5151;

/// Whether taking `top` from the pile cannot help `hand` (`prune`): no card
/// of the hand has its rank or lies within two ranks of it in its suit, so
/// it joins no meld and no pair that a third card could make one, and
/// discarding the hand's best card after taking it leaves no less
/// deadwood than the hand has now. In 20 logged games of mc players,
/// sampling took none of the 378 such cards it was offered, about a third
/// of its sampled draws (docs/DESIGN.md).
#[must_use]
pub(crate) fn hopeless_pile_top(hand: CardSet, top: Card) -> bool {
    let near = |c: Card| {
        c.rank() == top.rank()
            || c.suit() == top.suit() && c.rank().index().abs_diff(top.rank().index()) <= 2
    };
    !hand.iter().any(near)
        && best_discard_except(hand.with(top), Some(top)).deadwood >= meld::deadwood(hand)
}

impl Strategy for MonteCarlo {
    fn name(&self) -> &str {
        "mc"
    }

    fn start_hand(&mut self, view: &PlayerView<'_>) {
        self.base.start_hand(view);
    }

    fn observe(&mut self, view: &PlayerView<'_>, event: &crate::engine::Event) {
        self.base.observe(view, event);
    }

    fn observes(&self) -> bool {
        self.base.observes()
    }

    fn end_hand(&mut self, view: &PlayerView<'_>, outcome: &crate::engine::HandOutcome) {
        self.base.end_hand(view, outcome);
        self.opponent.end_hand(view, outcome);
    }

    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        if view.upcard.is_none() {
            return false;
        }
        let first = self.base.take_upcard(view);
        let candidates = [Action::TakeUpcard(first), Action::TakeUpcard(!first)];
        candidates[self.choose(view, &candidates)] == Action::TakeUpcard(true)
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        let stock = Action::Draw(DrawSource::Stock);
        let Some(top) = view.pile_top().filter(|_| pile_allowed(view)) else {
            self.choose(view, &[stock]);
            return DrawSource::Stock;
        };
        if let Phase::LastChance { .. } = view.phase
            && best_discard_except(view.hand.with(top), Some(top)).deadwood > view.knock_limit
        {
            self.choose(view, &[stock]);
            return DrawSource::Stock;
        }
        if self.params.choice.prune
            && matches!(view.phase, Phase::Draw { .. })
            && hopeless_pile_top(view.hand, top)
        {
            self.choose(view, &[stock]);
            return DrawSource::Stock;
        }
        let pile = Action::Draw(DrawSource::Pile);
        let candidates = if matches!(view.phase, Phase::LastChance { .. })
            || self.base.draw(view) == DrawSource::Pile
        {
            [pile, stock]
        } else {
            [stock, pile]
        };
        match candidates[self.choose(view, &candidates)] {
            Action::Draw(source) => source,
            other => unreachable!("a draw candidate, not {other:?}"),
        }
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        if big_gin_legal(view) {
            self.choose(view, &[Action::EndTurn(TurnEnd::BigGin)]);
            return TurnEnd::BigGin;
        }
        let best = best_discard_except(view.hand, view.taken_from_pile);
        if best.deadwood == 0 {
            self.choose(view, &[Action::EndTurn(TurnEnd::Knock(best.card))]);
            return TurnEnd::Knock(best.card);
        }
        let mut candidates = self.turn_candidates(view);
        let first = Action::EndTurn(self.base.end_turn(view));
        candidates.retain(|&c| c != first);
        candidates.insert(0, first);
        match candidates[self.choose(view, &candidates)] {
            Action::EndTurn(end) => end,
            other => unreachable!("an end-of-turn candidate, not {other:?}"),
        }
    }
}

impl super::Profile {
    /// Gives the player `ms` milliseconds a decision if its kind searches
    /// under a time budget (`mc`: `budget_ms`, resolved to worlds at
    /// [`budget::WORLDS_PER_MS`], replacing `samples` and any per-game
    /// budget); returns whether it does. Other kinds are left as they are.
    ///
    /// # Errors
    /// As `mc:budget_ms`: unless `ms` is above 0 and at most 256.
    pub fn give_budget_ms(&mut self, ms: f64) -> Result<bool, super::ProfileError> {
        let Some(params) = self.params::<McParams>() else {
            return Ok(false);
        };
        let mut params = params.clone();
        params.game_budget_ms = None;
        params.game_worlds = None;
        *self = super::Profile::new(params).with_param("budget_ms", &ms.to_string())?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Seat;
    use crate::rules::Rules;
    use rand_pcg::Pcg64Mcg;
    use crate::strategy::test_deck as deck;

    /// With a per-game budget each sampled decision takes its share of the
    /// account, and a tiny account leaves the decisions to the base policy.
    #[test]
    fn a_game_budget_is_spent_across_decisions() {
        let rules = Rules::standard();
        let d = deck(NEAR_GIN, OTHER, "QH", "");
        let hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let params = McParams {
            game_worlds: Some(48 * 20),
            ..McParams::default()
        };
        let mut mc = MonteCarlo::new(params.config().unwrap(), 1);
        assert!(mc.take_upcard(&hand.view(Seat::A)));
        assert_eq!(mc.account.map(|a| a.left()), Some(47 * 20));
        assert_eq!(mc.worlds.len(), 20);
        let poor = McParams {
            game_worlds: Some(48 * 15),
            ..McParams::default()
        };
        let mut mc = MonteCarlo::new(poor.config().unwrap(), 1);
        mc.take_upcard(&hand.view(Seat::A));
        assert_eq!(mc.account.map(|a| a.left()), Some(48 * 15));
        assert!(mc.worlds.is_empty());
    }

    /// `own_rollout`: in a rollout this player's future play is its own
    /// policy's (the tracker's) and the opponent's the rollout policy's
    /// (greedy's): a candidate is worth what the engine gives with those two
    /// players in that world, which differs from greedy for both seats.
    #[test]
    fn own_rollout_plays_this_seat_with_its_own_policy() {
        let rules = Rules::eaai();
        let mut decks = Pcg64Mcg::seed_from_u64(9);
        let (mut compared, mut differ) = (0, 0);
        for deal in 0..30 {
            let deck = crate::engine::Deck::shuffled(&mut decks);
            let mut hand = Hand::new(&rules, &deck, Seat::ALL[deal % 2], [0, 0]).unwrap();
            let mut table: [Box<dyn Strategy>; 2] =
                [Box::new(Greedy::default()), Box::new(Greedy::default())];
            while let Some(seat) = hand.phase().seat() {
                let view = hand.view(seat);
                if let Phase::Draw { stock_only: false, .. } = view.phase {
                    let params = McParams {
                        own_rollout: Some(OwnRollout::Tracker),
                        ..McParams::default()
                    };
                    let mut mc = MonteCarlo::new(params.config().unwrap(), deal as u64);
                    let world = mc.sample_world(&view, None);
                    let stock = [Action::Draw(DrawSource::Stock)];
                    let mut values = Vec::new();
                    let mut shared = Shared::default();
                    mc.play_out(&view, &world, &stock, &[0], &mut shared, &mut values);
                    let engine = |own: Box<dyn Strategy>| {
                        let mut h = Hand::from_world(&view, world.opponent, &world.stock).unwrap();
                        h.apply(seat, stock[0]).unwrap();
                        let mut players = [own, Box::new(Greedy::default()) as Box<dyn Strategy>];
                        if seat == Seat::B {
                            players.swap(0, 1);
                        }
                        let mut refs: [&mut dyn Strategy; 2] = {
                            let [a, b] = &mut players;
                            [a.as_mut(), b.as_mut()]
                        };
                        let winner = play_hand(&mut h, &mut refs).unwrap().winner();
                        mc.value(&view, winner)
                    };
                    assert_eq!(values, [engine(Box::<Tracker>::default())], "deal {deal}");
                    differ += usize::from(values[0] != engine(Box::<Greedy>::default()));
                    compared += 1;
                }
                let action = crate::engine::ask(table[seat.index()].as_mut(), &view);
                hand.apply(seat, action).unwrap();
            }
        }
        assert!(compared > 100 && differ > 10, "{compared} compared, {differ} differ");
    }

    /// `prune`: a pile top is hopeless when no card of the hand has its
    /// rank or lies within two ranks of it in its suit, and taking it
    /// lowers no deadwood; a pruning player then draws from the stock
    /// without sampling, and samples every other pile top as before.
    #[test]
    fn prune_draws_from_the_stock_at_hopeless_pile_tops_only() {
        let rules = Rules::standard();
        let b_hand = "2C 3C 4C 7S 8S 9S TS 4D 6H KH";
        let hand: CardSet = b_hand.parse().unwrap();
        let c = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(meld::deadwood(hand), 20);
        for (top, hopeless) in [
            ("QD", true),  // replaces KH: 20 deadwood again
            ("JC", true),  // 2C-4C are seven ranks away
            ("2H", false), // pairs with 2C
            ("QH", false), // a rank from KH
            ("6D", false), // two ranks from 4D
            ("AD", false), // three from 4D, but replaces KH: 11 deadwood
        ] {
            assert_eq!(hopeless_pile_top(hand, c(top)), hopeless, "{top}");
        }
        // B's turn after A threw QD, then AD.
        for (top, pruned) in [("QD", true), ("AD", false)] {
            let other = if top == "QD" { "AD" } else { "QD" };
            let d = deck(
                &format!("{top} {other} JC 9D 5H 3S AS 8C TH 2D"),
                b_hand,
                "KS",
                "5S QC KC",
            );
            let mut game = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
            for action in [
                Action::TakeUpcard(false),
                Action::TakeUpcard(false),
                Action::Draw(DrawSource::Stock),
                Action::EndTurn(TurnEnd::Discard(c(top))),
            ] {
                let seat = game.phase().seat().unwrap();
                game.apply(seat, action).unwrap();
            }
            let view = game.view(Seat::B);
            assert_eq!(view.pile_top(), Some(c(top)));
            for prune in [false, true] {
                let params = McParams {
                    samples: 8,
                    calibrate: false,
                    prune,
                    ..McParams::default()
                };
                let mut mc = MonteCarlo::new(params.config().unwrap(), 1);
                let source = mc.draw(&view);
                let skipped = prune && pruned;
                assert_eq!(mc.decisions(), [1, u64::from(!skipped)], "{top} prune={prune}");
                if skipped {
                    assert_eq!(source, DrawSource::Stock);
                }
            }
        }
    }

    /// `adapt`: B keeps 2C-4C, 7S-TS and AD 4D 2H (7 deadwood) at its turn
    /// end instead of knocking; A then knocks and B's hand is shown: the
    /// odds that B plays for gin go from even to 10 to 1. Seen from B, A
    /// knocked short of gin: 1 to 10. A hand B never ended a turn in says
    /// nothing, and without `adapt` the chance is 0.
    #[test]
    fn adapt_reads_a_declined_knock_from_the_shown_hand() {
        let rules = Rules::standard();
        let b_hand = "2C 3C 4C AD 4D 7S 8S 9S TS 2H";
        let d = deck(NEAR_GIN, b_hand, "KH", "5S QD KC");
        let c = |s: &str| s.parse::<Card>().unwrap();
        let play = |actions: &[(Seat, Action)]| {
            let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
            for &(seat, action) in actions {
                hand.apply(seat, action).unwrap();
            }
            hand
        };
        let stock = Action::Draw(DrawSource::Stock);
        let discard = |s: &str| Action::EndTurn(TurnEnd::Discard(c(s)));
        let knock = |s: &str| Action::EndTurn(TurnEnd::Knock(c(s)));
        let opening = [
            (Seat::A, Action::TakeUpcard(false)),
            (Seat::B, Action::TakeUpcard(false)),
            (Seat::A, stock),
            (Seat::A, discard("5S")),
            (Seat::B, stock),
            (Seat::B, discard("QD")),
            (Seat::A, stock),
            (Seat::A, knock("KC")),
        ];
        let read = |params: McParams, seat: Seat, actions: &[(Seat, Action)]| {
            let hand = play(actions);
            let mut mc = MonteCarlo::new(params.config().unwrap(), 1);
            mc.end_hand(&hand.view(seat), hand.outcome().unwrap());
            mc.gin_chance()
        };
        let adapt = McParams {
            adapt: true,
            ..McParams::default()
        };
        let near = |got: f64, want: f64| assert!((got - want).abs() < 1e-12, "{got} {want}");
        near(read(adapt.clone(), Seat::A, &opening), 10.0 / 11.0);
        near(read(McParams::default(), Seat::A, &opening), 0.0);
        near(read(adapt.clone(), Seat::B, &opening), 1.0 / 11.0);
        // A knocks before B has ended a turn: B's dealt hand was never a
        // choice.
        let early = [
            (Seat::A, Action::TakeUpcard(false)),
            (Seat::B, Action::TakeUpcard(false)),
            (Seat::A, stock),
            (Seat::A, knock("5S")),
        ];
        near(read(adapt.clone(), Seat::A, &early), 0.5);
        // Another starting share moves by the same factors: odds of 1 to 3
        // become 10 to 3 after a decline and 1 to 30 after a knock.
        let quarter = McParams {
            adapt_prior: 0.25,
            ..adapt.clone()
        };
        near(read(quarter.clone(), Seat::A, &early), 0.25);
        near(read(quarter.clone(), Seat::A, &opening), 10.0 / 13.0);
        near(read(quarter, Seat::B, &opening), 1.0 / 31.0);
        // With a declining kind that knocks at 0.3 of its chances, a knock
        // seen moves the odds by 0.3 (even odds become 3 to 10), a decline
        // still by ten; a share under ADAPT_ODDS moves them by ADAPT_ODDS.
        let sparing = McParams {
            adapt_share: 0.3,
            ..adapt.clone()
        };
        near(read(sparing.clone(), Seat::B, &opening), 3.0 / 13.0);
        near(read(sparing, Seat::A, &opening), 10.0 / 11.0);
        let faint = McParams {
            adapt_share: 0.05,
            ..adapt.clone()
        };
        near(read(faint, Seat::B, &opening), 1.0 / 11.0);
        // The share of gin worlds follows the chance.
        let mut decks = Pcg64Mcg::seed_from_u64(3);
        for chance in [0.1, 0.5, 0.9] {
            let gin = (0..4000)
                .filter(|_| {
                    let deck = crate::engine::Deck::shuffled(&mut decks);
                    opponent::gin_world(deck.cards()[..10].iter().copied().collect(), chance)
                })
                .count();
            assert!((f64::from(gin as u32) / 4000.0 - chance).abs() < 0.03, "{chance}: {gin}");
        }
    }

    const NEAR_GIN: &str = "AS 2S 3S 7C 7D 7H 9H TH JH KD";
    const OTHER: &str = "2C 3C 4C 5D 6D 8S 9S TS JC QC";

    /// A holds two melds and a four-card run missing one card; the upcard is
    /// that card: taking it gives gin at once, which every world rewards.
    #[test]
    fn takes_the_upcard_that_makes_gin() {
        let rules = Rules::standard();
        let d = deck(NEAR_GIN, OTHER, "QH", "");
        let hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let mut mc = MonteCarlo::new(McConfig::default(), 1);
        assert!(mc.take_upcard(&hand.view(Seat::A)));
        assert_eq!(mc.decisions(), [1, 1]);
    }

    /// With gin in hand it knocks without sampling.
    #[test]
    fn goes_gin_at_once() {
        let rules = Rules::standard();
        let d = deck(NEAR_GIN, OTHER, "QH", "");
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(true)).unwrap();
        let mut mc = MonteCarlo::new(McConfig::default(), 1);
        let kd = "KD".parse().unwrap();
        assert_eq!(mc.end_turn(&hand.view(Seat::A)), TurnEnd::Knock(kd));
        assert_eq!(mc.decisions(), [1, 0]);
    }

    /// Candidates: knock first when legal, then the best discards.
    #[test]
    fn turn_candidates_put_the_knock_first() {
        let rules = Rules::standard();
        let d = deck("AS 2S 3S 7C 7D 7H 9H TH 2D KD", OTHER, "4H", "");
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(true)).unwrap();
        let params = McParams {
            discards: 2,
            ..McParams::default()
        };
        let mc = MonteCarlo::new(params.config().unwrap(), 1);
        let c = |s: &str| s.parse::<Card>().unwrap();
        // Best discard KD leaves 2D 4H 9H TH = 25: no knock.
        assert_eq!(
            mc.turn_candidates(&hand.view(Seat::A)),
            [
                Action::EndTurn(TurnEnd::Discard(c("KD"))),
                Action::EndTurn(TurnEnd::Discard(c("TH")))
            ]
        );
    }
}
