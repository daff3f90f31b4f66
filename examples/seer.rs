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
//! `--tell deadwood` tells the seer, at the same decisions, only the
//! opponent's least deadwood: its worlds are those sampled as usual whose
//! opponent hand's deadwood is within [`DEADWOOD_TOLERANCE`] of the true
//! one (weight 1; the others weigh 0). What that alone is worth says
//! whether a model of how far the opponent is from knocking would pay, or
//! only one of which cards it holds. (`--told` does not apply.)
//!
//! `--tell near` tells it only the opponent's cards near its own (of a
//! rank it holds, or in a suit it holds within two ranks of one of its
//! cards: its outs and the cards its discards would meld with), `--tell
//! far` only the others, `--tell outs` only its outs (the cards that
//! would join a meld of its hand); `--told K` then counts within that
//! class.
//!
//! Under eaai rules, whole games to 100. Game `g` deals the same decks, and
//! seats the players the same way, in both runs (its deck stream and the
//! players' seeds come from `--seed` and `g` alone), so the two runs are
//! paired by game; the interval of the difference (Student t) is over the
//! games, which are independent, and the win rates' are Wilson intervals. Games run in parallel (rayon); the output does not
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
use ginlab::meld;
use ginlab::rules::Rules;
use ginlab::stats::{Moments, Z95, rate, wilson};
use ginlab::strategy::{
    Decision, McConfig, McParams, MonteCarlo, Profile, WorldWeight, best_discard_except, joins_meld,
};
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
        class: Class,
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

/// What the seer is told.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tell {
    /// Cards of the opponent's hand (`--told` of them), of a class.
    Cards(Class),
    /// Only the hand's least deadwood.
    Deadwood,
}

/// Which of the opponent's cards a seer may be told.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    /// Any.
    Hand,
    /// Only the cards near the seer's own: of a rank it holds, or of a
    /// suit it holds within two ranks of one of its cards (the cards
    /// that meld with its hand: its outs, and what its discards would
    /// give the opponent).
    Near,
    /// Only the others.
    Far,
    /// Only its outs: the cards that would join a meld of its hand
    /// (`strategy::joins_meld`), a part of the near ones.
    Outs,
}

impl Class {
    /// The cards of this class for a seer holding `hand`.
    fn cards(self, hand: CardSet) -> CardSet {
        match self {
            Class::Hand => CardSet::ALL,
            Class::Near => near(hand),
            Class::Far => CardSet::ALL - near(hand),
            Class::Outs => CardSet::ALL
                .iter()
                .filter(|&c| joins_meld(hand, c))
                .collect(),
        }
    }
}

/// The cards of a rank in `hand`, or within two ranks of one of its cards
/// in that card's suit ([`Tell::Near`]). Shifts within a suit cannot
/// reach another suit's cards: bits 13 to 15 of every suit's 16 are
/// empty, and dropped.
fn near(hand: CardSet) -> CardSet {
    let h = hand.bits();
    let runs = h << 1 | h << 2 | h >> 1 | h >> 2;
    let ranks = h | h.rotate_left(16) | h.rotate_left(32) | h.rotate_left(48);
    CardSet::from_bits_truncate(runs | ranks)
}

/// How far a world's opponent deadwood may be from the true one for the
/// world to count, with `--tell deadwood`.
const DEADWOOD_TOLERANCE: u8 = 2;

/// The kind of decision `view` asks for.
fn kind(view: &PlayerView<'_>) -> At {
    match view.phase {
        ginlab::engine::Phase::EndTurn { .. } => {
            // Whether a legal discard (not the card just taken from the
            // pile) leaves deadwood within the knock limit: mc's own test.
            let may_knock =
                best_discard_except(view.hand, view.taken_from_pile).deadwood <= view.knock_limit;
            if may_knock { At::Knock } else { At::Discard }
        }
        _ => At::Draw,
    }
}

impl At {
    /// Whether a seer told at `self` is told at a decision of kind `now`.
    fn covers(self, now: At) -> bool {
        self == At::Any || self == now || self == At::End && matches!(now, At::Knock | At::Discard)
    }
}

/// The world weight of `--tell deadwood`: 1 for a world whose opponent
/// deadwood is within [`DEADWOOD_TOLERANCE`] of the shown hand's, 0 for
/// the others, at the decisions `at` covers (1 elsewhere).
struct TrueDeadwood {
    hand: Arc<AtomicU64>,
    at: At,
}

impl WorldWeight for TrueDeadwood {
    fn weight(&self, decision: &Decision<'_, '_>, opponent: CardSet) -> f64 {
        if !self.at.covers(kind(decision.view)) {
            return 1.0;
        }
        let shown = CardSet::from_bits(self.hand.load(Ordering::Relaxed)).expect("a hand's bits");
        let (truth, world) = (meld::deadwood(shown), meld::deadwood(opponent));
        f64::from(u8::from(truth.abs_diff(world) <= DEADWOOD_TOLERANCE))
    }
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
            class,
            keys,
            ..
        } = &self.role
            && at.covers(now)
        {
            let cards = CardSet::from_bits(hand.load(Ordering::Relaxed)).expect("a hand's bits");
            assert_eq!(cards.len(), view.opponent_cards, "the opponent's hand");
            assert!(cards.is_superset(view.opponent_known));
            assert!(cards.is_disjoint(view.hand));
            let unknown =
                cards.bits() & !view.opponent_known.bits() & class.cards(view.hand).bits();
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
        let view = self.told(view, kind(view));
        self.inner.take_upcard(&view)
    }
    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        let view = self.told(view, kind(view));
        self.inner.draw(&view)
    }
    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        let end = self.inner.end_turn(&self.told(view, kind(view)));
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
fn game(
    config: &McConfig,
    opponent: &Profile,
    seed: u64,
    g: u64,
    seer: Option<(u32, At, Tell)>,
) -> bool {
    let rules = Rules::eaai();
    let hand = Arc::new(AtomicU64::new(0));
    let mut inner = MonteCarlo::new(config.clone(), seed ^ (g + 1).wrapping_mul(0x2545_f491));
    if let Some((_, at, Tell::Deadwood)) = seer {
        inner = inner.weighing_also(Arc::new(TrueDeadwood {
            hand: hand.clone(),
            at,
        }));
    }
    let mut mc = Player {
        inner: Box::new(inner),
        role: match seer {
            Some((told, at, Tell::Cards(class))) => Role::Told {
                hand: hand.clone(),
                told,
                at,
                class,
                keys: Box::new([0; 64]),
                rng: Pcg64Mcg::seed_from_u64(seed ^ (g + 1).wrapping_mul(0x6a09_e667)),
            },
            Some((_, _, Tell::Deadwood)) | None => Role::Plain,
        },
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

/// A win rate of `wins` games in `games` and its 95 % Wilson interval,
/// in percent, for printing.
fn rate_line(wins: u64, games: u64) -> String {
    let (lo, hi) = wilson(wins, games, Z95);
    format!(
        "{:.1} % [{:.1}, {:.1}]",
        100.0 * rate(wins, games),
        100.0 * lo,
        100.0 * hi
    )
}

/// The value of `flag` in `args` among `options` (name, value), the first
/// when it is not given.
///
/// # Panics
/// On a value not among the options, naming them.
fn one_of<T: Copy>(args: &[String], flag: &str, options: &[(&str, T)]) -> T {
    let Some(i) = args.iter().position(|a| a == flag) else {
        return options[0].1;
    };
    let given = args.get(i + 1).map(String::as_str);
    options
        .iter()
        .find(|(name, _)| Some(*name) == given)
        .map(|&(_, value)| value)
        .unwrap_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(name, _)| *name).collect();
            panic!("{flag} takes {}, not {given:?}", names.join(", "))
        })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 2,
        "usage: seer MC_PROFILE OPPONENT [--games N] [--seed S] [--told K] [--at any|draw|end|knock|discard] [--tell hand|deadwood|near|far|outs]"
    );
    let tell = one_of(
        &args,
        "--tell",
        &[
            ("hand", Tell::Cards(Class::Hand)),
            ("deadwood", Tell::Deadwood),
            ("near", Tell::Cards(Class::Near)),
            ("far", Tell::Cards(Class::Far)),
            ("outs", Tell::Cards(Class::Outs)),
        ],
    );
    let games: u64 = arg(&args, "--games", 200);
    let seed: u64 = arg(&args, "--seed", 1);
    let told: u32 = arg(&args, "--told", 10);
    let at = one_of(
        &args,
        "--at",
        &[
            ("any", At::Any),
            ("draw", At::Draw),
            ("end", At::End),
            ("knock", At::Knock),
            ("discard", At::Discard),
        ],
    );
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
                game(&config, &opponent, seed, g, Some((told, at, tell))),
            )
        })
        .collect();
    let plain = wins.iter().filter(|w| w.0).count() as u64;
    let seer = wins.iter().filter(|w| w.1).count() as u64;
    // The paired difference, game by game (each -1, 0 or 1): the games
    // are the independent units, so its t interval is over them.
    let mut diff = Moments::default();
    for &(p, s) in &wins {
        diff.add(i64::from(s) - i64::from(p));
    }
    let (d, d_lo, d_hi) = diff.t_interval(0.95);
    println!(
        "{games} eaai games of {} against {}, seed {seed}",
        args[0], args[1]
    );
    println!("  plain: {}", rate_line(plain, games));
    println!(
        "  seer (told {}{}): {}",
        match (tell, told) {
            (Tell::Deadwood, _) => format!("the opponent's deadwood, within {DEADWOOD_TOLERANCE}"),
            (Tell::Cards(Class::Hand), 10..) => "all of the opponent's unknown cards".to_owned(),
            (Tell::Cards(Class::Hand), k) => format!("{k} of the opponent's unknown cards"),
            (Tell::Cards(Class::Near), _) => "the opponent's unknown cards near its own".to_owned(),
            (Tell::Cards(Class::Far), _) =>
                "the opponent's unknown cards far from its own".to_owned(),
            (Tell::Cards(Class::Outs), _) =>
                "the opponent's unknown cards that are its outs".to_owned(),
        },
        match at {
            At::Any => "",
            At::Draw => ", at its draws only",
            At::End => ", at its turn ends only",
            At::Knock => ", at its turn ends with a legal knock only",
            At::Discard => ", at its turn ends without a legal knock only",
        },
        rate_line(seer, games)
    );
    println!(
        "  seer - plain, paired by game: {:+.1} points [{:+.1}, {:+.1}]",
        100.0 * d,
        100.0 * d_lo,
        100.0 * d_hi
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use ginlab::cards::Card;

    /// Near by its definition, card by card.
    fn near_by_definition(hand: CardSet) -> CardSet {
        Card::ALL
            .into_iter()
            .filter(|c| {
                hand.iter().any(|h| {
                    h.rank() == c.rank()
                        || h.suit() == c.suit() && h.rank().index().abs_diff(c.rank().index()) <= 2
                })
            })
            .collect()
    }

    /// 2,000 hands of about ten cards (each card with chance 1/5).
    fn random_hands(seed: u64) -> impl Iterator<Item = CardSet> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        (0..2_000).map(move |_| {
            Card::ALL
                .into_iter()
                .filter(|_| rng.random_range(0..5) == 0)
                .collect()
        })
    }

    fn cards(text: &str) -> CardSet {
        text.parse().expect("cards")
    }

    #[test]
    fn near_is_a_rank_held_or_two_ranks_in_a_suit_held() {
        // The ends of a suit stop at the ace and the king.
        assert_eq!(
            near(cards("7h ks ad")),
            cards("7c 7d 7h 7s 5h 6h 8h 9h kc kd kh ks js qs ac ad ah as 2d 3d")
        );
        for hand in random_hands(7) {
            assert_eq!(near(hand), near_by_definition(hand), "{hand}");
        }
    }

    #[test]
    fn classes_split_the_cards() {
        for hand in random_hands(8) {
            let (near, far) = (Class::Near.cards(hand), Class::Far.cards(hand));
            assert!(near.is_disjoint(far));
            assert_eq!(near | far, Class::Hand.cards(hand));
            // An out (a card completing a meld of the hand) is near it.
            let outs = Class::Outs.cards(hand);
            assert!(near.is_superset(outs), "{hand}");
            for c in Card::ALL {
                assert_eq!(
                    outs.contains(c),
                    meld::meldable(hand.with(c)).contains(c),
                    "{c} with {hand}"
                );
            }
        }
    }
}
