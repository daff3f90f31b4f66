//! [`HandPrior`]: how much more (or less) likely a sampled opponent hand
//! is than the sampler makes it, by its deadwood.
//!
//! Sampling the hidden cards uniformly (or by [`Knowledge`]) ignores that the
//! opponent has been improving its hand every turn: after a few draws a
//! real opponent holds far less deadwood than ten random unseen cards, so
//! rollouts in such worlds let the opponent knock too late and make holding
//! on look safe. The correction is importance weighting: for a world whose
//! opponent has drawn `t` times and holds deadwood `d`, the weight is
//! `P_real(d | t) / P_sampler(d | t)`, both measured once per rule set and
//! sampler by playing [`HANDS`] hands of the opponent model (the rollout
//! policy with the opponent's knock threshold) against itself: at every
//! decision the true opponent's deadwood is counted in `P_real`, and the
//! deadwood of [`SAMPLES`] worlds drawn from the decider's view by the same
//! sampler in `P_sampler`. Deadwood is bucketed by 5 points, `t` capped at
//! [`MAX_DRAWS`]; counts get add-one smoothing and weights are capped at
//! [`MAX_WEIGHT`] so that no single world dominates.
//!
//! Against an opponent that plays differently from the model the weights
//! are an approximation: a greedy model says an opponent that has not
//! knocked rarely holds 10 or less, which is false of a gin hunter.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::cards::CardSet;
use crate::engine::{Deck, Event, Hand, PlayerView, Seat, Strategy, play_hand_inspected};
use crate::meld;
use crate::rules::Rules;

use super::{Model, Weighting, World, sample_into};

/// Hands of greedy self-play measured.
pub const HANDS: u32 = 10_000;
/// Worlds sampled per decision while measuring.
pub const SAMPLES: u32 = 16;
/// Opponent draws beyond this count as this many.
pub const MAX_DRAWS: usize = 8;
/// The largest weight of one world.
pub const MAX_WEIGHT: f64 = 25.0;
const BUCKETS: usize = 21;

/// Importance weights by (opponent draws, deadwood bucket).
#[derive(Clone, Debug, PartialEq)]
pub struct HandPrior {
    weight: Vec<f64>,
}

fn bucket(deadwood: u8) -> usize {
    (usize::from(deadwood) / 5).min(BUCKETS - 1)
}

/// How many times the opponent of `view`'s player has drawn this hand.
#[must_use]
pub fn opponent_draws(view: &PlayerView<'_>) -> usize {
    let opponent = view.seat.other();
    view.events
        .iter()
        .filter(|e| {
            matches!(**e,
                Event::DrewStock { seat } | Event::TookPile { seat, .. } | Event::UpcardTaken { seat, .. }
                if seat == opponent)
        })
        .count()
        .min(MAX_DRAWS)
}

impl HandPrior {
    /// Measures the weights for `rules` and a sampler `weighting` (fixed seed).
    ///
    /// # Panics
    /// If greedy breaks the rules (it cannot) or the rules do not validate.
    #[must_use]
    pub fn measure(rules: &Rules, weighting: Weighting, model: Model) -> HandPrior {
        let mut rng = Pcg64Mcg::seed_from_u64(0x7072_696f);
        let mut sampler = Pcg64Mcg::seed_from_u64(0x7361_6d70);
        let cells = (MAX_DRAWS + 1) * BUCKETS;
        let (mut real, mut sampled) = (vec![0f64; cells], vec![0f64; cells]);
        let [mut a, mut b] = [model.player(), model.player()];
        let mut world = World {
            opponent: CardSet::EMPTY,
            stock: Vec::new(),
        };
        for i in 0..HANDS {
            let deck = Deck::shuffled(&mut rng);
            let mut hand =
                Hand::new(rules, &deck, Seat::ALL[(i % 2) as usize], [0, 0]).expect("valid rules");
            let mut players: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
            play_hand_inspected(&mut hand, &mut players, |hand| {
                let Some(seat) = hand.phase().seat() else {
                    return;
                };
                let view = hand.view(seat);
                let row = opponent_draws(&view) * BUCKETS;
                real[row + bucket(meld::deadwood(hand.cards(seat.other())))] += 1.0;
                let belief = super::worlds::Belief::of(weighting, &view);
                for _ in 0..SAMPLES {
                    sample_into(&mut sampler, &view, belief.as_ref(), &mut world);
                    sampled[row + bucket(meld::deadwood(world.opponent))] +=
                        1.0 / f64::from(SAMPLES);
                }
            })
            .expect("greedy plays legal actions");
        }
        let mut weight = vec![1.0; cells];
        for row in 0..=MAX_DRAWS {
            let cells = row * BUCKETS..(row + 1) * BUCKETS;
            let r: f64 = real[cells.clone()].iter().sum::<f64>() + BUCKETS as f64;
            let s: f64 = sampled[cells.clone()].iter().sum::<f64>() + BUCKETS as f64;
            for c in cells {
                let ratio = ((real[c] + 1.0) / r) / ((sampled[c] + 1.0) / s);
                weight[c] = ratio.min(MAX_WEIGHT);
            }
        }
        HandPrior { weight }
    }

    /// The weight of a world where the opponent has drawn `draws` times and
    /// holds `opponent`.
    #[must_use]
    pub fn weight(&self, draws: usize, opponent: CardSet) -> f64 {
        self.weight[draws.min(MAX_DRAWS) * BUCKETS + bucket(meld::deadwood(opponent))]
    }
}

impl super::WorldWeight for HandPrior {
    fn weight(&self, decision: &super::Decision<'_, '_>, opponent: CardSet) -> f64 {
        HandPrior::weight(self, decision.opponent_draws, opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Once the opponent has drawn a few times, middling deadwood weighs
    /// more than high deadwood (real opponents improve their hands), and a
    /// knockable hand weighs less than a middling one (greedy would have
    /// knocked with it).
    #[test]
    fn weights_follow_real_play() {
        let prior = HandPrior::measure(
            &Rules::standard(),
            Weighting::None,
            Model {
                rollout: crate::strategy::Rollout::Greedy,
                knock_at: None,
            },
        );
        let hand = |s: &str| s.parse::<CardSet>().unwrap();
        let low = hand("AS 2S 3S 7C 7D 7H 9H TH JH 2D");
        let mid = hand("AS 2S 3S 7C 7D 7H 9H KH 4D 5C");
        let high = hand("KS QH JD 9C 8S 6H 4D TC KD QS");
        let dw = [low, mid, high].map(meld::deadwood);
        assert!(
            dw[0] == 2 && (25..30).contains(&dw[1]) && dw[2] > 70,
            "{dw:?}"
        );
        for draws in 4..=MAX_DRAWS {
            let [l, m, h] = [low, mid, high].map(|c| prior.weight(draws, c));
            assert!(m > h && m > l, "draws {draws}: {l} {m} {h}");
            // Late rows see few far-off hands, so smoothing pulls them to 1.
            if draws <= 7 {
                assert!(m > 2.0 * h, "draws {draws}: {m} {h}");
            }
        }
    }
}
