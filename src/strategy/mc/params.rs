//! The profile keys of `mc` ([`McParams`]): its row in the table of kinds,
//! how each key is read and printed, and the typed configuration
//! ([`McConfig`]) they resolve to, which builds the player.

use std::fmt;

use super::config::{
    Budget, Choice, FastOwn, McConfig, OpponentModel, RolloutPlay, Rollouts, WorldModel,
};
use super::{McCaches, MonteCarlo, budget};
use crate::strategy::profile::{Given, KeyError, Keys, Kind, ParamError, Params, keys, write_inline};
use crate::strategy::Strategy;

/// The table's row of `mc`.
pub(in crate::strategy) const KIND: Kind = Kind::of::<McParams>("mc", None);

/// The policy that plays both seats in a rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rollout {
    /// [`Greedy`](crate::strategy::Greedy) with its defaults.
    Greedy,
    /// [`Tracker`](crate::strategy::Tracker) with its defaults.
    Tracker,
}

/// The policy of this player's own future play in a rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OwnRollout {
    /// [`Greedy`](crate::strategy::Greedy) with its defaults.
    Greedy,
    /// [`Tracker`](crate::strategy::Tracker) with its defaults, through the
    /// engine.
    Tracker,
    /// The tracker's draws and discards with the knowledge of the decision
    /// frozen through the rollout, knocking by the tracker's bar with the
    /// decision's estimate ([`Frozen`](super::Frozen)); needs
    /// `rollout = greedy`.
    Frozen,
}

impl OwnRollout {
    /// The profile name of the policy.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            OwnRollout::Greedy => "greedy",
            OwnRollout::Tracker => "tracker",
            OwnRollout::Frozen => "frozen",
        }
    }
}

/// How the opponent's hidden cards are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weighting {
    /// Uniformly among the unseen cards.
    None,
    /// In proportion to [`Knowledge::prob`](crate::strategy::Knowledge::prob).
    Tracker,
}

keys! {
/// The profile keys of [`MonteCarlo`], one field a key (`mc:samples=640`,
/// `samples = 640` in a file): sugar for [`McConfig`], which
/// [`McParams::config`] resolves them to.
#[derive(Clone, Debug, PartialEq)]
pub struct McParams {
    /// Worlds sampled per decision (1 to 65536).
    pub samples: u32 => Integer "an integer from 1 to 65536",
    /// The time per decision `samples` was resolved from (`budget_ms`;
    /// recorded so the profile prints it).
    pub budget_ms: Option<f64> => Number "a number of milliseconds above 0, at most 256",
    /// The time per game `game_worlds` was resolved from (`game_budget_ms`).
    pub game_budget_ms: Option<f64> => Number "a number of milliseconds above 0, at most 3600000",
    /// Worlds for a whole game, shared out over its sampled decisions
    /// ([`budget::GameAccount`]); `samples` is then not used.
    pub game_worlds: Option<u64> => Integer "an integer from 1 to 10^12",
    /// The rollout policy.
    pub rollout: Rollout => Text "greedy or tracker",
    /// The policy of this player's own future play in rollouts, if not
    /// `rollout` (the opponent is always modelled by `rollout`).
    pub own_rollout: Option<OwnRollout> => Text "greedy, tracker or frozen",
    /// How hidden cards are sampled.
    pub weighting: Weighting => Text "none or tracker",
    /// Discards considered at the end of a turn (1 to 11).
    pub discards: u8 => Integer "an integer from 1 to 11",
    /// The policy whose answer is played unless sampling shows a better one
    /// with `confidence` (`greedy` or `tracker`).
    pub base: Rollout => Text "greedy or tracker",
    /// The knock threshold of this player's own future play in rollouts
    /// (0 to 10; `None`: the rollout policy's default). The opponent is
    /// always modelled by the policy's default.
    pub own_knock_at: Option<u8> => Integer "an integer from 0 to 10",
    /// The knock threshold the opponent is modelled with (0 to 10; `None`:
    /// the rollout policy's default), in rollouts and in the calibration.
    pub opp_knock_at: Option<u8> => Integer "an integer from 0 to 10",
    /// The share of its chances to knock short of gin that the opponent
    /// takes in rollouts (above 0, at most 1; 1: every chance, as the
    /// rollout policy does). Which chances it takes is a hash of the
    /// world's opponent hand and the turn, the same for every candidate.
    /// Needs greedy rollouts on both sides' fast path (`rollout = greedy`,
    /// `own_rollout` not `tracker`); the calibration's model knocks at
    /// every chance.
    pub opp_knock_share: f64 => Number "a number above 0, at most 1",
    /// Standard errors by which an answer must beat the base policy's
    /// choice to be played instead (0 to 10; 0: the best mean wins).
    pub confidence: f64 => Number "a number from 0 to 10",
    /// Weight worlds by how likely a real opponent's hand has their
    /// deadwood ([`HandPrior`](super::HandPrior)).
    pub calibrate: bool => Boolean "true or false",
    /// Model the opponent in a share of the rollouts as declining knocks
    /// (playing for gin, or knocking at `adapt_share` of its chances), the
    /// share read from the knocks it made and declined this game
    /// ([`MonteCarlo::gin_chance`]); needs `rollout = greedy`.
    pub adapt: bool => Boolean "true or false",
    /// With `adapt`: the share of worlds that model the opponent as
    /// declining knocks before it has knocked or declined a knock this game
    /// (above 0, below 1; default a half).
    pub adapt_prior: f64 => Number "a number above 0 and below 1",
    /// With `adapt`: the share of its knock chances short of gin that the
    /// kind of opponent that declines knocks takes (from 0, below 1; 0:
    /// it plays for gin only). A knock seen from the opponent then
    /// multiplies the odds for that kind by this share (at least
    /// `ADAPT_ODDS`, a tenth) instead of by `ADAPT_ODDS`.
    pub adapt_share: f64 => Number "a number from 0 to below 1",
    /// With `own_rollout = frozen`: how many of this player's turns in a
    /// rollout follow the frozen rules; later ones draw and discard as
    /// greedy (the knock threshold stays). `None`: every turn.
    pub frozen_turns: Option<u8> => Integer "an integer from 1 to 30",
    /// Draw from the stock without sampling when the pile's top card
    /// cannot help the hand (`hopeless_pile_top` in `mc.rs`).
    pub prune: bool => Boolean "true or false",
    /// Mixed into the harness's seed.
    pub seed: u64 => Integer "an integer from 0 to 2^64 - 1",
}
extra {
    /// Where its players' tables come from: its own, shared by its clones,
    /// until it is bound to a lab ([`Params::bind`]). Not a key: any two
    /// compare equal, and it never changes a decision.
    pub caches: McCaches,
}
}

impl Default for McParams {
    fn default() -> McParams {
        McParams {
            samples: 64,
            budget_ms: None,
            game_budget_ms: None,
            game_worlds: None,
            rollout: Rollout::Greedy,
            own_rollout: None,
            weighting: Weighting::Tracker,
            discards: 4,
            calibrate: true,
            adapt: false,
            adapt_prior: 0.5,
            adapt_share: 0.0,
            frozen_turns: None,
            prune: false,
            confidence: 2.0,
            base: Rollout::Tracker,
            own_knock_at: None,
            opp_knock_at: None,
            opp_knock_share: 1.0,
            seed: 0,
            caches: McCaches::default(),
        }
    }
}

impl McParams {
    /// The typed configuration these keys give. The keys can say what no
    /// player plays (a fast-path option with an engine rollout, a
    /// parameter without the one it qualifies); the message names the
    /// keys and what to give.
    ///
    /// # Errors
    /// That message.
    pub fn config(&self) -> Result<McConfig, &'static str> {
        let engine = |own, opponent| RolloutPlay::Engine { own, opponent };
        let own = match (self.rollout, self.own_rollout) {
            (Rollout::Greedy, None | Some(OwnRollout::Greedy)) => Ok(FastOwn::Greedy),
            (Rollout::Greedy, Some(OwnRollout::Frozen)) => Ok(FastOwn::Frozen {
                turns: self.frozen_turns,
            }),
            (Rollout::Greedy, Some(OwnRollout::Tracker)) => {
                Err(engine(Rollout::Tracker, Rollout::Greedy))
            }
            (Rollout::Tracker, None | Some(OwnRollout::Tracker)) => {
                Err(engine(Rollout::Tracker, Rollout::Tracker))
            }
            (Rollout::Tracker, Some(OwnRollout::Greedy)) => {
                Err(engine(Rollout::Greedy, Rollout::Tracker))
            }
            (Rollout::Tracker, Some(OwnRollout::Frozen)) => return Err(
                "own_rollout=frozen plays on greedy rollouts: give rollout=greedy (the default) with it",
            ),
        };
        let d = McParams::default();
        if !self.adapt && self.adapt_prior != d.adapt_prior {
            return Err("adapt_prior is adapt's starting share of gin worlds: give adapt=true with it");
        }
        if !self.adapt && self.adapt_share != d.adapt_share {
            return Err("adapt_share is the knock share of adapt's declining kind: give adapt=true with it");
        }
        let opponent = match (self.adapt, self.opp_knock_share < 1.0) {
            (true, true) => {
                return Err("adapt and opp_knock_share are two models of the opponent's knocks: give one of them");
            }
            (true, false) => OpponentModel::Adaptive {
                prior: self.adapt_prior,
                share: self.adapt_share,
            },
            (false, _) => OpponentModel::Fixed {
                knock_share: self.opp_knock_share,
            },
        };
        let play = match own {
            Ok(own) => RolloutPlay::Fast { own, opponent },
            Err(_) if self.adapt => {
                return Err("adapt models the opponent on the fast greedy rollouts: give rollout=greedy (the default) and own_rollout greedy or frozen with it");
            }
            Err(_) if self.opp_knock_share < 1.0 => {
                return Err("opp_knock_share plays on the fast greedy rollouts: give rollout=greedy (the default) and own_rollout greedy or frozen with it");
            }
            Err(play) => play,
        };
        if self.frozen_turns.is_some() && self.own_rollout != Some(OwnRollout::Frozen) {
            return Err("frozen_turns limits own_rollout=frozen: give own_rollout=frozen with it");
        }
        Ok(McConfig {
            budget: match self.game_worlds {
                Some(worlds) => Budget::Game { worlds },
                None => Budget::Decision {
                    samples: self.samples,
                },
            },
            worlds: WorldModel {
                weighting: self.weighting,
                calibrate: self.calibrate,
            },
            rollouts: Rollouts {
                play,
                own_knock_at: self.own_knock_at,
                opp_knock_at: self.opp_knock_at,
            },
            choice: Choice {
                base: self.base,
                confidence: self.confidence,
                discards: self.discards,
                prune: self.prune,
            },
            seed: self.seed,
        })
    }
}

/// A budget resolves to its count: `budget_ms` sets `samples` and
/// `game_budget_ms` sets `game_worlds` (at [`budget::WORLDS_PER_MS`]),
/// unless the count is given after its budget, which is how the printed
/// profile pins the count (inline, keys come in the order written; a
/// profile file's in sorted order, where the count also comes after its
/// budget). A budget per decision and one per game exclude each other;
/// the cross-rules of the keys are [`McParams::config`]'s.
impl Keys for McParams {
    const PARAMS: &'static [crate::strategy::Param] = McParams::KEY_LIST;
    const WIDE: &'static [&'static str] = &["seed"];
    type Params = McParams;

    fn resolve(mut self, given: &Given) -> Result<McParams, KeyError> {
        let invalid = |key| Err((key, ParamError::Invalid));
        let in_range = |x: f64, low: f64, high: f64| x > low && x <= high;
        if !(1..=budget::MAX_WORLDS as u32).contains(&self.samples) {
            return invalid("samples");
        }
        if self.budget_ms.is_some_and(|ms| !in_range(ms, 0.0, 256.0)) {
            return invalid("budget_ms");
        }
        if self.game_budget_ms.is_some_and(|ms| !in_range(ms, 0.0, 3_600_000.0)) {
            return invalid("game_budget_ms");
        }
        if self.game_worlds.is_some_and(|n| !(1..=1_000_000_000_000).contains(&n)) {
            return invalid("game_worlds");
        }
        if self.discards == 0 || self.discards > 11 {
            return invalid("discards");
        }
        if self.own_knock_at.is_some_and(|k| k > 10) {
            return invalid("own_knock_at");
        }
        if self.opp_knock_at.is_some_and(|k| k > 10) {
            return invalid("opp_knock_at");
        }
        if !in_range(self.opp_knock_share, 0.0, 1.0) {
            return invalid("opp_knock_share");
        }
        if !(0.0..=10.0).contains(&self.confidence) {
            return invalid("confidence");
        }
        if !(self.adapt_prior > 0.0 && self.adapt_prior < 1.0) {
            return invalid("adapt_prior");
        }
        if !(0.0..1.0).contains(&self.adapt_share) {
            return invalid("adapt_share");
        }
        if self.frozen_turns.is_some_and(|n| !(1..=30).contains(&n)) {
            return invalid("frozen_turns");
        }
        if self.budget_ms.is_some() && (self.game_budget_ms.is_some() || self.game_worlds.is_some()) {
            return Err((
                "",
                ParamError::Conflict(
                    "takes a budget per decision (budget_ms) or per game (game_budget_ms, game_worlds), not both",
                ),
            ));
        }
        if let Some(ms) = self.budget_ms
            && !given.after("samples", "budget_ms")
        {
            self.samples = budget::worlds(ms) as u32;
        }
        if let Some(ms) = self.game_budget_ms
            && !given.after("game_worlds", "game_budget_ms")
        {
            self.game_worlds = Some(budget::worlds(ms));
        }
        // Inline, a seed may be any u64, beyond TOML's integers.
        if let Some(seed) = given.wide("seed") {
            self.seed = seed;
        }
        self.config().map_err(|message| ("", ParamError::Conflict(message)))?;
        Ok(self)
    }
}

impl Params for McParams {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn build(&self, seed: u64) -> Box<dyn Strategy> {
        let config = self.config().expect("a profile's parameters are checked when set");
        Box::new(MonteCarlo::with_caches(config, seed, self.caches.clone()))
    }

    fn bind(&mut self, lab: &crate::lab::Lab) {
        self.caches = lab.mc().clone();
    }

    fn share(&mut self, from: &McParams) {
        self.caches = from.caches.clone();
    }
}

/// The inline profile text: `mc` and the parameters that differ from the
/// defaults, which parses back to the same parameters.
impl fmt::Display for McParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = McParams::default();
        let mut params = Vec::new();
        if let Some(ms) = self.budget_ms {
            params.push(format!("budget_ms={ms}"));
        }
        // With a budget the resolved count is always printed: the manifest
        // records it, and it pins the count when the text is read back.
        if self.samples != d.samples || self.budget_ms.is_some() {
            params.push(format!("samples={}", self.samples));
        }
        if let Some(ms) = self.game_budget_ms {
            params.push(format!("game_budget_ms={ms}"));
        }
        if let Some(n) = self.game_worlds {
            params.push(format!("game_worlds={n}"));
        }
        if self.rollout != d.rollout {
            params.push(format!("rollout={}", self.rollout.name()));
        }
        if let Some(own) = self.own_rollout {
            params.push(format!("own_rollout={}", own.name()));
        }
        if self.base != d.base {
            params.push(format!("base={}", self.base.name()));
        }
        if let Some(k) = self.own_knock_at {
            params.push(format!("own_knock_at={k}"));
        }
        if let Some(k) = self.opp_knock_at {
            params.push(format!("opp_knock_at={k}"));
        }
        if self.opp_knock_share != d.opp_knock_share {
            params.push(format!("opp_knock_share={}", self.opp_knock_share));
        }
        if self.weighting != d.weighting {
            let w = match self.weighting {
                Weighting::None => "none",
                Weighting::Tracker => "tracker",
            };
            params.push(format!("weighting={w}"));
        }
        if self.discards != d.discards {
            params.push(format!("discards={}", self.discards));
        }
        if self.confidence != d.confidence {
            params.push(format!("confidence={}", self.confidence));
        }
        if self.calibrate != d.calibrate {
            params.push(format!("calibrate={}", self.calibrate));
        }
        if self.adapt != d.adapt {
            params.push(format!("adapt={}", self.adapt));
        }
        if self.adapt_prior != d.adapt_prior {
            params.push(format!("adapt_prior={}", self.adapt_prior));
        }
        if self.adapt_share != d.adapt_share {
            params.push(format!("adapt_share={}", self.adapt_share));
        }
        if let Some(n) = self.frozen_turns {
            params.push(format!("frozen_turns={n}"));
        }
        if self.prune != d.prune {
            params.push(format!("prune={}", self.prune));
        }
        if self.seed != d.seed {
            params.push(format!("seed={}", self.seed));
        }
        write_inline(f, KIND.name, &params)
    }
}

impl Rollout {
    /// The profile name of the policy.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Greedy => "greedy",
            Rollout::Tracker => "tracker",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::Profile;

    #[test]
    fn profile_text_round_trips() {
        for text in [
            "mc",
            "mc:samples=256",
            "mc:own_rollout=frozen,own_knock_at=0",
            "mc:own_rollout=frozen,adapt=true,frozen_turns=2",
            "mc:samples=467,own_rollout=frozen,adapt=true,frozen_turns=2,prune=true",
            "mc:opp_knock_at=3,adapt=true",
            "mc:adapt=true,adapt_prior=0.25",
            "mc:samples=640,own_rollout=frozen,adapt=true,adapt_share=0.3,frozen_turns=2,prune=true",
            "mc:samples=640,own_rollout=frozen,opp_knock_share=0.3,frozen_turns=2,prune=true",
            "mc:samples=8,rollout=tracker,own_rollout=greedy,base=greedy,own_knock_at=0,opp_knock_at=3,weighting=none,discards=11,confidence=0.5,calibrate=false,seed=7",
        ] {
            let profile: Profile = text.parse().unwrap();
            assert_eq!(profile.to_string(), text);
        }
        let toml = "kind = \"mc\"\nsamples = 16\nrollout = \"tracker\"";
        let (profile, _) = Profile::from_toml(toml).unwrap();
        assert_eq!(profile.to_string(), "mc:samples=16,rollout=tracker");
    }

    /// The keys of an inline profile.
    fn keys(text: &str) -> McParams {
        let profile: Profile = text.parse().unwrap();
        profile.params::<McParams>().unwrap().clone()
    }

    /// The keys resolve to one typed configuration: the fast-path options
    /// inside the fast rollouts, an engine rollout for a tracker seat, a
    /// per-game budget instead of a count.
    #[test]
    fn keys_resolve_to_the_typed_configuration() {
        let config = |t: &str| keys(t).config().unwrap();
        assert_eq!(config("mc"), McConfig::default());
        let share = config("mc:samples=640,own_rollout=frozen,adapt=true,adapt_share=0.3,frozen_turns=2,prune=true");
        assert_eq!(share.budget, Budget::Decision { samples: 640 });
        assert_eq!(
            share.rollouts.play,
            RolloutPlay::Fast {
                own: FastOwn::Frozen { turns: Some(2) },
                opponent: OpponentModel::Adaptive { prior: 0.5, share: 0.3 },
            }
        );
        assert!(share.choice.prune);
        let fixed = config("mc:opp_knock_share=0.3,opp_knock_at=5");
        assert_eq!(
            fixed.rollouts.play,
            RolloutPlay::Fast {
                own: FastOwn::Greedy,
                opponent: OpponentModel::Fixed { knock_share: 0.3 },
            }
        );
        assert_eq!(fixed.opponent_model().knock_at, Some(5));
        for (text, own, opponent) in [
            ("mc:own_rollout=tracker", Rollout::Tracker, Rollout::Greedy),
            ("mc:rollout=tracker", Rollout::Tracker, Rollout::Tracker),
            ("mc:rollout=tracker,own_rollout=greedy", Rollout::Greedy, Rollout::Tracker),
        ] {
            assert_eq!(config(text).rollouts.play, RolloutPlay::Engine { own, opponent }, "{text}");
        }
        let game = config("mc:game_worlds=9000");
        assert_eq!(game.budget, Budget::Game { worlds: 9000 });
        assert!(game.account().is_some() && share.account().is_none());
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = |t: &str| t.parse::<Profile>().unwrap_err().to_string();
        assert!(
            e("mc:samples=0").contains("1 to 65536"),
            "{}",
            e("mc:samples=0")
        );
        assert!(e("mc:samples=x").contains("`mc:samples`"));
        assert!(e("mc:discards=12").contains("1 to 11"));
        assert!(e("mc:rollout=mc").contains("greedy or tracker"));
        assert!(e("mc:own_rollout=mc").contains("greedy, tracker or frozen"));
        let frozen = e("mc:own_rollout=frozen,rollout=tracker");
        assert!(frozen.contains("give rollout=greedy"), "{frozen}");
        let prior = e("mc:adapt_prior=0.25");
        assert!(prior.contains("give adapt=true"), "{prior}");
        for bad in ["0", "1", "1.5", "-0.2", "half"] {
            let text = format!("mc:adapt=true,adapt_prior={bad}");
            assert!(e(&text).contains("above 0 and below 1"), "{text}: {}", e(&text));
        }
        for bad in ["0", "1.5", "-0.2", "some"] {
            let text = format!("mc:opp_knock_share={bad}");
            assert!(e(&text).contains("above 0, at most 1"), "{text}: {}", e(&text));
        }
        for text in ["mc:rollout=tracker,opp_knock_share=0.3", "mc:own_rollout=tracker,opp_knock_share=0.3"] {
            assert!(e(text).contains("give rollout=greedy"), "{text}: {}", e(text));
        }
        let share = e("mc:adapt_share=0.3");
        assert!(share.contains("give adapt=true"), "{share}");
        for bad in ["1", "-0.1", "x"] {
            let text = format!("mc:adapt=true,adapt_share={bad}");
            assert!(e(&text).contains("from 0 to below 1"), "{text}: {}", e(&text));
        }
        let tracker = e("mc:adapt=true,adapt_share=0.3,own_rollout=tracker");
        assert!(tracker.contains("give rollout=greedy"), "{tracker}");
        for text in ["mc:adapt=true,rollout=tracker", "mc:adapt=true,own_rollout=tracker"] {
            assert!(e(text).contains("own_rollout greedy or frozen"), "{text}: {}", e(text));
        }
        let both = e("mc:adapt=true,opp_knock_share=0.3");
        assert!(both.contains("give one of them"), "{both}");
        let turns = e("mc:frozen_turns=2");
        assert!(turns.contains("give own_rollout=frozen"), "{turns}");
        assert!(e("mc:own_rollout=frozen,frozen_turns=0").contains("1 to 30"));
        assert!(e("mc:weighting=yes").contains("none or tracker"));
        // A retired key is refused like any unknown one.
        assert!(e("mc:objective=game").contains(&KIND.param_names()));
        assert!(e("mc:seed=-1").contains("2^64"));
        assert!(e("mc:seed=18446744073709551616").contains("2^64"));
        assert_eq!(keys("mc:seed=18446744073709551615").seed, u64::MAX);
        assert!(e("mc:discards=18446744073709551615").contains("1 to 11"));
        assert!(e("mc:depth=3").contains(&KIND.param_names()));
        assert!(e("mc:budget_ms=0").contains("above 0, at most 256"));
        assert!(e("mc:budget_ms=fast").contains("`mc:budget_ms`"));
        assert!(e("mc:game_budget_ms=-5").contains("at most 3600000"));
        assert!(e("mc:game_worlds=0").contains("1 to 10^12"));
        for both in [
            "mc:budget_ms=2,game_budget_ms=30000",
            "mc:game_worlds=9,budget_ms=2",
        ] {
            assert!(e(both).contains("not both"), "{both}: {}", e(both));
        }
    }

    /// A budget resolves to a count at the fixed rate; the printed profile
    /// carries the count, and a count given after the budget pins it (so a
    /// manifest's text replays the same worlds whatever the rate becomes).
    #[test]
    fn budgets_resolve_to_printed_counts() {
        let p = keys;
        let two = p("mc:budget_ms=2");
        assert_eq!((two.samples, two.budget_ms), (768, Some(2.0)));
        assert_eq!(two.to_string(), "mc:budget_ms=2,samples=768");
        assert_eq!(p(&two.to_string()), two);
        let pinned = p("mc:budget_ms=2,samples=300");
        assert_eq!(pinned.samples, 300);
        assert_eq!(p(&pinned.to_string()), pinned);
        // A budget after a count replaces it.
        assert_eq!(p("mc:samples=300,budget_ms=0.5").samples, 192);
        let game = p("mc:game_budget_ms=30000");
        assert_eq!(game.game_worlds, Some(11_520_000));
        assert_eq!(
            game.to_string(),
            "mc:game_budget_ms=30000,game_worlds=11520000"
        );
        assert_eq!(p(&game.to_string()), game);
        // A profile file: keys in sorted order, the count after its budget.
        let toml = "kind = \"mc\"\nsamples = 100\nbudget_ms = 1";
        let (profile, _) = Profile::from_toml(toml).unwrap();
        assert_eq!(profile.to_string(), "mc:budget_ms=1,samples=100");
    }
}
