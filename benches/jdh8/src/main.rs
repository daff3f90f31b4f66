//! `ginlab-vs-jdh8 BOT HANDS SEED`: plays HANDS rounds of BOT against
//! itself with jdh8's published crates (`gin-rummy` 0.1.3,
//! `gin-rummy-engine` 0.3.1), dealers alternating, one thread, and prints
//! how they ended. `compare.sh` times it against `ginlab match`.
//!
//! BOT is `simple` (`EaaiSimpleBot`, the EAAI reference player, under
//! `eaai_rules()`, the counterpart of `ginlab match simple simple --rules
//! eaai`), `heuristic` (`HeuristicBot` under the default rules, the
//! nearest of jdh8's bots to ginlab's `greedy`; not the same policy) or
//! `mc128` (`MonteCarloBot` at 128 worlds a decision against
//! `HeuristicBot` under the default rules, the counterpart of `ginlab
//! match mc:samples=128 greedy`; configured as close to ginlab's `mc` as
//! `McConfig` allows, see [`mc128`]). For `mc128` it also prints the
//! decisions the Monte Carlo seat was asked (upcard offers, draws, turn
//! ends; lay-offs, which ginlab never asks a player, are not counted).

use std::process::ExitCode;

use gin_rummy::{Player, Round, RoundResult, Rules};
use gin_rummy_engine::{
    DrawAction, EaaiSimpleBot, GameValue, HeuristicBot, Layoff, McConfig, MonteCarloBot,
    OpponentModel, Strategy, TurnAction, UpcardAction, View, eaai_rules, play_round,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (bot, hands, seed) = match args.as_slice() {
        [bot, hands, seed] => match (hands.parse::<u64>(), seed.parse::<u64>()) {
            (Ok(h), Ok(s)) if ["simple", "heuristic", "mc128"].contains(&bot.as_str()) => {
                (bot.as_str(), h, s)
            }
            _ => return usage(),
        },
        _ => return usage(),
    };
    let mut deals = StdRng::seed_from_u64(seed);
    let decisions = std::rc::Rc::new(std::cell::Cell::new(0u64));
    let (rules, mut one, mut two): (Rules, Box<dyn Strategy>, Box<dyn Strategy>) = match bot {
        "mc128" => (
            Rules::default(),
            Box::new(Counted {
                inner: MonteCarloBot::with_config(StdRng::seed_from_u64(seed ^ 1), mc128()),
                decisions: decisions.clone(),
            }),
            Box::new(HeuristicBot::new()),
        ),
        "simple" => (
            eaai_rules(),
            Box::new(EaaiSimpleBot::new(StdRng::seed_from_u64(seed ^ 1))),
            Box::new(EaaiSimpleBot::new(StdRng::seed_from_u64(seed ^ 2))),
        ),
        _ => (
            Rules::default(),
            Box::new(HeuristicBot::new()),
            Box::new(HeuristicBot::new()),
        ),
    };
    // Dead, knock, undercut, gin or big gin.
    let mut ends = [0u64; 3];
    for i in 0..hands {
        let dealer = if i % 2 == 0 { Player::One } else { Player::Two };
        let round = Round::deal(rules, dealer, &mut deals);
        match play_round(round, [one.as_mut(), two.as_mut()]) {
            Ok(RoundResult::Dead) => ends[0] += 1,
            Ok(RoundResult::Knock { .. }) => ends[1] += 1,
            Ok(_) => ends[2] += 1,
            Err(e) => {
                eprintln!("ginlab-vs-jdh8: round {i}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "{bot}: {hands} hands, {} dead, {} knocks, {} other ends",
        ends[0], ends[1], ends[2]
    );
    if bot == "mc128" {
        println!("decisions {}", decisions.get());
    }
    ExitCode::SUCCESS
}

/// `MonteCarloBot`'s configuration nearest ginlab's `mc:samples=128`:
/// 128 worlds a decision; both seats' rollouts knock at the first legal
/// chance (ginlab's fast rollouts knock at the knock limit on both sides);
/// the rollout opponent takes the pile when it lowers its deadwood after
/// its best discard (greedy's rule, ginlab's rollout opponent); a gate of 2
/// standard errors against the baseline (ginlab's `confidence = 2`) and 4
/// discards weighed (ginlab's `discards = 4`); a rollout valued by its
/// round points (`GameValue::Affine`; ginlab's fast rollouts score the
/// hand's points). What differs: ginlab's worlds are weighted by the
/// tracker's knowledge and calibrated by a hand prior, jdh8's opponent
/// hands are the best of several uniform draws (its default 200 %); jdh8
/// stops a decision early when its gate settles (batches of 32, 64, 128),
/// ginlab plays every world; the baseline players differ (ginlab's tracker,
/// jdh8's heuristic).
fn mc128() -> McConfig {
    let mut config = McConfig::new();
    config.samples = 128;
    config.rollout_knock_self = u8::MAX;
    config.rollout_knock_opponent = u8::MAX;
    config.opponent_model = OpponentModel::Eager;
    config.gate_z = 2.0;
    config.max_candidates = 4;
    config.game_value = GameValue::Affine;
    config
}

/// A strategy that counts the decisions it is asked (not lay-offs).
struct Counted<S> {
    inner: S,
    decisions: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<S: Strategy> Counted<S> {
    fn count(&self) {
        self.decisions.set(self.decisions.get() + 1);
    }
}

impl<S: Strategy> Strategy for Counted<S> {
    fn offer_upcard(&mut self, view: &View<'_>) -> UpcardAction {
        self.count();
        self.inner.offer_upcard(view)
    }

    fn choose_draw(&mut self, view: &View<'_>) -> DrawAction {
        self.count();
        self.inner.choose_draw(view)
    }

    fn play_turn(&mut self, view: &View<'_>) -> TurnAction {
        self.count();
        self.inner.play_turn(view)
    }

    fn choose_layoff(&mut self, view: &View<'_>) -> Option<Layoff> {
        self.inner.choose_layoff(view)
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: ginlab-vs-jdh8 simple|heuristic|mc128 HANDS SEED (HANDS and SEED whole numbers)"
    );
    ExitCode::from(2)
}
