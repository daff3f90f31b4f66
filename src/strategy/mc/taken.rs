//! [`TakenMelds`]: what the opponent's pile takes say about the cards
//! beside them, learned over the game.
//!
//! A card the opponent took from the pile (or the upcard) and still holds
//! is in every world; the sampler draws the rest of its hand card by card,
//! and about half of the worlds it draws leave some taken card in no meld
//! (no two cards of its rank, no run through it). Whether that is likely
//! depends on the player: the EAAI simple player takes only cards that
//! meld, greedy also takes a low card for a high one. So the model counts,
//! at every showdown of the game, how many of the taken cards the opponent
//! still held meld in the hand it showed, and weighs a world whose taken
//! card melds in nothing by the odds that count gives, against the odds
//! of the sampler (a likelihood ratio per taken card, cards taken as
//! independent).
//!
//! The counts start at one each (a uniform prior), so before the first
//! showdown a world without a meld weighs about what one with one does.
//! A showdown's hand is one about to knock or be knocked on, mostly
//! melded, so the counts understate how often a player like greedy holds
//! a taken card apart earlier in a hand (0.15 at showdowns against 0.63
//! at decisions; the tests).

use crate::cards::CardSet;
use crate::engine::{HandOutcome, PlayerView};
use crate::strategy::joins_meld;

use super::opponent::Shown;
use super::{Decision, WorldWeight};

/// The share of the sampler's worlds in which a taken card melds in
/// nothing: 0.52 to 0.61 over tracker-weighted worlds at the decisions of
/// 3,000 eaai hands each against simple, greedy and the tracker.
pub const SAMPLER_APART: f64 = 0.55;

/// The per-game model: taken cards seen melded and apart at showdowns.
#[derive(Clone, Debug, PartialEq)]
pub struct TakenMelds {
    /// Held taken cards shown melded, and in no meld.
    seen: [u32; 2],
}

impl Default for TakenMelds {
    fn default() -> TakenMelds {
        TakenMelds::new()
    }
}

impl TakenMelds {
    /// A model for a new game: nothing seen.
    #[must_use]
    pub fn new() -> TakenMelds {
        TakenMelds { seen: [0; 2] }
    }

    /// The chance that a taken card the opponent holds melds in nothing,
    /// with one of each counted before the game.
    #[must_use]
    pub fn apart_chance(&self) -> f64 {
        let [melded, apart] = self.seen.map(f64::from);
        (apart + 1.0) / (melded + apart + 2.0)
    }

    /// How much likelier than the sampler makes it a world is for each
    /// taken card melding in nothing, relative to one where it melds.
    #[must_use]
    pub fn apart_odds(&self) -> f64 {
        let q = self.apart_chance();
        (q / SAMPLER_APART) / ((1.0 - q) / (1.0 - SAMPLER_APART))
    }

    /// Reads a hand's end: at a showdown, the taken cards the opponent
    /// still held and whether each melds in the hand it showed (the
    /// knocker's ten, or the defender's cards with its lay-offs).
    pub fn end_hand(&mut self, view: &PlayerView<'_>, outcome: &HandOutcome) {
        let Some(Shown { hand: shown, .. }) = Shown::of(view, outcome) else {
            return;
        };
        for card in (view.opponent_known & shown).iter() {
            self.seen[usize::from(!joins_meld(shown - card.mask(), card))] += 1;
        }
    }
}

/// The weight of a world: the apart odds once for every taken card that
/// melds in nothing in the world's opponent hand.
impl WorldWeight for TakenMelds {
    fn weight(&self, decision: &Decision<'_, '_>, opponent: CardSet) -> f64 {
        let apart = decision
            .view
            .opponent_known
            .iter()
            .filter(|&card| !joins_meld(opponent - card.mask(), card))
            .count();
        if apart == 0 {
            1.0
        } else {
            self.apart_odds().powi(apart as i32)
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::cards::Card;
    use crate::engine::{Deck, Hand, Seat, Strategy, ask};
    use crate::rules::Rules;
    use crate::strategy::{Greedy, Knowledge, Simple, Tracker};

    use super::super::World;
    use super::super::worlds::Unseen;

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    /// Whether some card of `known` melds in nothing in `hand`: two
    /// other cards of its rank, or two suit neighbours in a run with it.
    fn apart(known: CardSet, hand: CardSet) -> bool {
        known.iter().any(|card| {
            let rank = hand.iter().filter(|c| c.rank() == card.rank()).count();
            let r = card.rank().index() as i32;
            let has = |d: i32| {
                hand.iter()
                    .any(|c| c.suit() == card.suit() && c.rank().index() as i32 == r + d)
            };
            let run = (has(-2) && has(-1)) || (has(-1) && has(1)) || (has(1) && has(2));
            rank < 3 && !run
        })
    }

    /// Plays `hands` eaai hands of a tracker in seat A against `opponent`
    /// and calls `at` at every decision of A where the opponent holds a
    /// taken card, and `end` at every hand's end with A's view.
    fn play(
        hands: usize,
        opponent: &dyn Fn(usize) -> Box<dyn Strategy>,
        mut at: impl FnMut(&crate::engine::PlayerView<'_>, CardSet),
        mut end: impl FnMut(&crate::engine::PlayerView<'_>, &HandOutcome),
    ) {
        let rules = Rules::eaai();
        let mut decks = Pcg64Mcg::seed_from_u64(31);
        for d in 0..hands {
            let deck = Deck::shuffled(&mut decks);
            let mut hand = Hand::new(&rules, &deck, Seat::ALL[d % 2], [0, 0]).unwrap();
            let mut players: [Box<dyn Strategy>; 2] = [Box::new(Tracker::default()), opponent(d)];
            while let Some(seat) = hand.phase().seat() {
                let view = hand.view(seat);
                if seat == Seat::A && !view.opponent_known.is_empty() {
                    at(&view, hand.view(Seat::B).hand);
                }
                let action = ask(players[seat.index()].as_mut(), &view);
                hand.apply(seat, action).unwrap();
            }
            end(&hand.view(Seat::A), hand.outcome().unwrap());
        }
    }

    /// A world's weight is the apart odds once for each taken card that
    /// melds in nothing there, by an independent count.
    #[test]
    fn a_world_weighs_the_odds_once_a_card_apart() {
        let mut model = TakenMelds::new();
        model.seen = [9, 1];
        let odds = model.apart_odds();
        assert!(odds < 0.3, "{odds}");
        let mut checked = [0; 3];
        play(
            200,
            &|d| Box::new(Greedy::new(Some(u8::try_from(d % 11).unwrap()), Vec::new())),
            |view, truth| {
                let decision = Decision {
                    view,
                    opponent_draws: 0,
                };
                let count = view
                    .opponent_known
                    .iter()
                    .filter(|&c| apart(c.mask(), truth))
                    .count();
                assert_eq!(
                    model.weight(&decision, truth),
                    odds.powi(count as i32),
                    "{} in {truth}",
                    view.opponent_known
                );
                checked[count.min(2)] += 1;
            },
            |_, _| {},
        );
        assert!(checked.iter().all(|&n| n > 20), "{checked:?}");
    }

    /// The counts at showdowns tell the EAAI simple player (which takes
    /// only cards that meld) from greedy (which also takes a low card for
    /// a high one). They understate greedy's share at its decisions: at
    /// A's decisions 0.63 of greedy's hands hold a taken card in no meld,
    /// at showdowns (hands about to knock or be knocked on, mostly
    /// melded) 0.15 of its held taken cards are.
    #[test]
    fn showdowns_tell_a_meld_taker_from_greedy() {
        let mut seen = Vec::new();
        for simple in [true, false] {
            let mut model = TakenMelds::new();
            play(
                400,
                &|d| -> Box<dyn Strategy> {
                    if simple {
                        Box::new(Simple::new(d as u64))
                    } else {
                        Box::new(Greedy::default())
                    }
                },
                |_, _| {},
                |view, outcome| model.end_hand(view, outcome),
            );
            let [melded, apart] = model.seen;
            assert!(melded + apart > 100, "{:?}", model.seen);
            seen.push((model.apart_chance(), model.apart_odds()));
        }
        let [(simple_q, simple_odds), (greedy_q, greedy_odds)] = seen[..] else {
            unreachable!()
        };
        assert!(simple_q < 0.03 && simple_odds < 0.03, "{seen:?}");
        assert!(greedy_q > 0.1 && greedy_odds > 0.1, "{seen:?}");
    }

    /// Before any showdown the model barely moves a world: one of each
    /// counted, against the sampler's share.
    #[test]
    fn a_new_model_is_near_neutral() {
        let model = TakenMelds::new();
        assert_eq!(model.apart_chance(), 0.5);
        assert!((model.apart_odds() - 0.45 / 0.55).abs() < 1e-12);
        let lone = cards("7H");
        assert!(apart(lone, cards("7H 2C 9D")));
        assert!(!apart(lone, cards("7H 7S 7D")));
        assert!(!apart(lone, cards("5H 6H 7H")));
        assert!(apart(lone, cards("5H 7H 9H")));
        let _ = Card::ALL;
    }

    /// [`SAMPLER_APART`] is what the tracker-weighted sampler gives: the
    /// share of worlds with a taken card in no meld at the decisions of
    /// hands against simple, greedy and the tracker (0.52 to 0.61 when
    /// measured over 3,000 hands each; slow, so ignored:
    /// `cargo test --release --lib sampler_apart -- --ignored --nocapture`).
    #[test]
    #[ignore = "measures the sampler over 9,000 hands"]
    fn sampler_apart_share_is_near_the_constant() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut world = World {
            opponent: CardSet::EMPTY,
            stock: Vec::new(),
        };
        let opponents: [&dyn Fn(usize) -> Box<dyn Strategy>; 3] = [
            &|d| Box::new(Simple::new(d as u64)),
            &|_| Box::new(Greedy::default()),
            &|_| Box::new(Tracker::default()),
        ];
        for opponent in opponents {
            let (mut sampled, mut broken) = (0u64, 0u64);
            play(
                3_000,
                opponent,
                |view, _| {
                    let knowledge = Knowledge::from_view(view);
                    let unseen = Unseen::new(view, Some(&knowledge));
                    for _ in 0..16 {
                        unseen.draw(&mut rng, &mut world);
                        sampled += 1;
                        broken += u64::from(apart(view.opponent_known, world.opponent));
                    }
                },
                |_, _| {},
            );
            let share = broken as f64 / sampled as f64;
            println!("sampler apart share {share:.3} over {sampled} worlds");
            assert!((SAMPLER_APART - share).abs() < 0.08, "{share}");
        }
    }
}
