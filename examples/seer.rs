//! What not knowing the opponent's hand costs an mc player (issue 33): the
//! same mc profile plays the same games twice against the same opponent,
//! once as itself and once as a *seer* told the opponent's cards at every
//! decision (its view's `opponent_known` is the opponent's whole hand, so
//! every world it samples holds those cards; the stock stays unknown).
//! The seer's win rate bounds what any better model of the hidden hand
//! could give this player with its rollouts, objective and budget: if the
//! seer is not far above the plain player, the gap to a target lies in the
//! rollouts' play or the choice, not in the worlds.
//!
//! ```sh
//! nice cargo run --release --example seer -- \
//!     strategies/mc-share-2ms.toml simple --games 1000 --seed 1 [--told K]
//! ```
//!
//! `--told K` tells the seer only K of the opponent's cards beyond those
//! it knows (cards taken from the pile): in each hand the cards carry a
//! random order fixed for the hand, and the seer is told the first K the
//! opponent holds, so a told card stays told while it is held. Without it
//! the seer is told the whole hand.
//!
//! `--at draw` tells the seer only at its draw decisions (the upcard offer
//! and the draw), `--at end` only at its turn ends (discard or knock),
//! `--at knock` only at turn ends where it may knock, `--at discard` only
//! at those where it may not; the default, `--at any`, at every decision.
//! Where the told hand pays most is where a better model of the hidden
//! hand would.
//!
//! Under eaai rules, whole games to 100. Game `g` deals the same decks, and
//! seats the players the same way, in both runs (its deck stream and the
//! players' seeds come from `--seed` and `g` alone), so the two runs are
//! paired by game; the interval of the difference is over the games, which
//! are independent. Games run in parallel (rayon); the output does not
//! depend on the thread count.

#[path = "common/args.rs"]
mod args;
use args::{arg, profile};

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use ginlab::cards::CardSet;
use ginlab::engine::{
    DrawSource, Event, HandOutcome, PlayerView, Seat, Strategy, TurnEnd, play_game,
};
use ginlab::rules::Rules;
use ginlab::strategy::{McConfig, McParams, MonteCarlo, Profile, best_discard_except};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// What a seat of the experiment does besides playing its strategy.
enum Role {
    /// The opponent: writes its hand where the seer reads it, after each
    /// of its own decisions (the seer decides only between them).
    Shows(Arc<AtomicU64>),
    /// The mc player: told `told` of the opponent's unknown cards, those
    /// first in the hand's order (the lowest `keys`).
    Told {
        hand: Arc<AtomicU64>,
        told: u32,
        at: At,
        keys: Box<[u64; 64]>,
        rng: Pcg64Mcg,
    },
    /// The mc player as itself.
    Plain,
}

/// At which of its decisions the seer is told.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Any,
    Draw,
    End,
    /// A turn end where a knock is legal.
    Knock,
    /// A turn end where it is not.
    Discard,
}

/// A strategy in its role.
struct Player {
    inner: Box<dyn Strategy>,
    role: Role,
}

impl Player {
    fn show(&self, hand: CardSet) {
        if let Role::Shows(shown) = &self.role {
            shown.store(hand.bits(), Ordering::Relaxed);
        }
    }

    /// `view` as this seat decides on it at a decision of kind `now`: for
    /// a seer told at such decisions, with the told cards of the
    /// opponent's hand known.
    fn told<'v>(&self, view: &PlayerView<'v>, now: At) -> PlayerView<'v> {
        let mut view = *view;
        if let Role::Told {
            hand,
            told,
            at,
            keys,
            ..
        } = &self.role
            && (*at == At::Any
                || *at == now
                || *at == At::End && matches!(now, At::Knock | At::Discard))
        {
            let cards = CardSet::from_bits(hand.load(Ordering::Relaxed)).expect("a hand's bits");
            assert_eq!(cards.len(), view.opponent_cards, "the opponent's hand");
            assert!(cards.is_superset(view.opponent_known));
            assert!(cards.is_disjoint(view.hand));
            let unknown = cards.bits() & !view.opponent_known.bits();
            let mut rest: Vec<u32> = (0..64).filter(|b| unknown >> b & 1 == 1).collect();
            rest.sort_by_key(|&bit| keys[bit as usize]);
            let mut known = view.opponent_known.bits();
            for &bit in rest.iter().take(*told as usize) {
                known |= 1 << bit;
            }
            view.opponent_known = CardSet::from_bits(known).expect("cards of the hand");
        }
        view
    }
}

impl Strategy for Player {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start_hand(&mut self, view: &PlayerView<'_>) {
        self.show(view.hand);
        if let Role::Told { keys, rng, .. } = &mut self.role {
            for key in keys.iter_mut() {
                *key = rng.random();
            }
        }
        self.inner.start_hand(view);
    }
    fn observe(&mut self, view: &PlayerView<'_>, event: &Event) {
        self.inner.observe(view, event);
    }
    fn observes(&self) -> bool {
        self.inner.observes()
    }
    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        let view = self.told(view, At::Draw);
        self.inner.take_upcard(&view)
    }
    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        let view = self.told(view, At::Draw);
        self.inner.draw(&view)
    }
    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        // Whether a legal discard (not the card just taken from the pile)
        // leaves deadwood within the knock limit: mc's own test.
        let may_knock =
            best_discard_except(view.hand, view.taken_from_pile).deadwood <= view.knock_limit;
        let now = if may_knock { At::Knock } else { At::Discard };
        let end = self.inner.end_turn(&self.told(view, now));
        match end {
            TurnEnd::Discard(card) | TurnEnd::Knock(card) => self.show(view.hand.without(card)),
            TurnEnd::BigGin => self.show(view.hand),
        }
        end
    }
    fn end_hand(&mut self, view: &PlayerView<'_>, outcome: &HandOutcome) {
        self.inner.end_hand(view, outcome);
    }
    fn end_game(&mut self, seat: Seat, result: &ginlab::engine::GameResult) {
        self.inner.end_game(seat, result);
    }
}

/// Whether the mc player (a seer when `seer`) wins game `g`.
fn game(config: &McConfig, opponent: &Profile, seed: u64, g: u64, seer: Option<(u32, At)>) -> bool {
    let rules = Rules::eaai();
    let hand = Arc::new(AtomicU64::new(0));
    let mut mc = Player {
        inner: Box::new(MonteCarlo::new(
            config.clone(),
            seed ^ (g + 1).wrapping_mul(0x2545_f491),
        )),
        role: seer.map_or(Role::Plain, |(told, at)| Role::Told {
            hand: hand.clone(),
            told,
            at,
            keys: Box::new([0; 64]),
            rng: Pcg64Mcg::seed_from_u64(seed ^ (g + 1).wrapping_mul(0x6a09_e667)),
        }),
    };
    let mut other = Player {
        inner: opponent.build(seed ^ (g + 1).wrapping_mul(0x9e37_79b9)),
        role: Role::Shows(hand),
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed.wrapping_mul(1_000_003) + g);
    let seat = Seat::ALL[(g % 2) as usize];
    let mut players: [&mut dyn Strategy; 2] = if seat == Seat::A {
        [&mut mc, &mut other]
    } else {
        [&mut other, &mut mc]
    };
    let result = play_game(&rules, &mut players, &mut rng, |_, _| {}).expect("a legal game");
    result.winner == seat
}

/// The mean of `xs` and its 95 % half-width (normal, over the items).
fn mean_half(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, 1.96 * (v / n).sqrt())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 2,
        "usage: seer MC_PROFILE OPPONENT [--games N] [--seed S] [--told K] [--at any|draw|end|knock|discard]"
    );
    let games: u64 = arg(&args, "--games", 200);
    let seed: u64 = arg(&args, "--seed", 1);
    let told: u32 = arg(&args, "--told", 10);
    let at = match args
        .iter()
        .position(|a| a == "--at")
        .map(|i| args.get(i + 1))
    {
        None => At::Any,
        Some(Some(v)) if v == "any" => At::Any,
        Some(Some(v)) if v == "draw" => At::Draw,
        Some(Some(v)) if v == "end" => At::End,
        Some(Some(v)) if v == "knock" => At::Knock,
        Some(Some(v)) if v == "discard" => At::Discard,
        Some(v) => panic!("--at takes any, draw, end, knock or discard, not {v:?}"),
    };
    let config = profile(&args[0])
        .params::<McParams>()
        .expect("the first profile is an mc profile")
        .config()
        .expect("a checked profile");
    let opponent = profile(&args[1]);
    let wins: Vec<(bool, bool)> = (0..games)
        .into_par_iter()
        .map(|g| {
            (
                game(&config, &opponent, seed, g, None),
                game(&config, &opponent, seed, g, Some((told, at))),
            )
        })
        .collect();
    let of = |f: &dyn Fn(&(bool, bool)) -> f64| wins.iter().map(f).collect::<Vec<f64>>();
    let (plain, plain_h) = mean_half(&of(&|w| f64::from(u8::from(w.0))));
    let (seer, seer_h) = mean_half(&of(&|w| f64::from(u8::from(w.1))));
    let (diff, diff_h) = mean_half(&of(&|w| {
        f64::from(u8::from(w.1)) - f64::from(u8::from(w.0))
    }));
    println!(
        "{games} eaai games of {} against {}, seed {seed}",
        args[0], args[1]
    );
    println!(
        "  plain: {:.1} % [{:.1}, {:.1}]",
        100.0 * plain,
        100.0 * (plain - plain_h),
        100.0 * (plain + plain_h)
    );
    println!(
        "  seer (told {} of the opponent's unknown cards{}): {:.1} % [{:.1}, {:.1}]",
        if told >= 10 {
            "all".to_owned()
        } else {
            told.to_string()
        },
        match at {
            At::Any => "",
            At::Draw => ", at its draws only",
            At::End => ", at its turn ends only",
            At::Knock => ", at its turn ends with a legal knock only",
            At::Discard => ", at its turn ends without a legal knock only",
        },
        100.0 * seer,
        100.0 * (seer - seer_h),
        100.0 * (seer + seer_h)
    );
    println!(
        "  seer - plain, paired by game: {:+.1} points [{:+.1}, {:+.1}]",
        100.0 * diff,
        100.0 * (diff - diff_h),
        100.0 * (diff + diff_h)
    );
}
