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
//!
//! Measuring takes about 2.5 s of one core, so the tables every committed
//! profile uses (the presets, tracker-weighted worlds, the greedy opponent
//! at its own threshold) are committed in `prior_table.rs` and read by
//! [`HandPrior::of`]; any other key is measured. A test measures each
//! committed table again and compares the file's text, so a change to the
//! measurement or to greedy cannot leave a stale table behind.

use std::sync::Arc;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::cards::CardSet;
use crate::engine::{Deck, Event, Hand, PlayerView, Seat, Strategy, play_hand_inspected};
use crate::meld;
use crate::rules::Rules;
use crate::strategy::Knowledge;

use super::{Knocks, Model, Rollout, Weighting, World, sample_into};

#[path = "prior_table.rs"]
#[rustfmt::skip]
mod table;

/// A committed table: the prior of `preset` with `weighting` and `model`.
struct Committed {
    preset: &'static str,
    weighting: Weighting,
    model: Model,
    weight: [f64; CELLS],
}

/// Hands of greedy self-play measured.
pub const HANDS: u32 = 10_000;
/// Worlds sampled per decision while measuring.
pub const SAMPLES: u32 = 16;
/// Opponent draws beyond this count as this many.
pub const MAX_DRAWS: usize = 8;
/// The largest weight of one world.
pub const MAX_WEIGHT: f64 = 25.0;
const BUCKETS: usize = 21;
const CELLS: usize = (MAX_DRAWS + 1) * BUCKETS;

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
    /// The prior for `rules`, `weighting` and `model`: the committed table
    /// when there is one (see the module docs), measured otherwise. Either
    /// way it equals [`HandPrior::measure`]'s.
    #[must_use]
    pub fn of(rules: &Rules, weighting: Weighting, model: Model) -> HandPrior {
        committed(rules, weighting, model).map_or_else(
            || HandPrior::measure(rules, weighting, model),
            |c| HandPrior {
                weight: c.weight.to_vec(),
            },
        )
    }

    /// Measures the weights for `rules` and a sampler `weighting` (fixed seed).
    ///
    /// # Panics
    /// If greedy breaks the rules (it cannot) or the rules do not validate.
    #[must_use]
    pub fn measure(rules: &Rules, weighting: Weighting, model: Model) -> HandPrior {
        let mut rng = Pcg64Mcg::seed_from_u64(0x7072_696f);
        let mut sampler = Pcg64Mcg::seed_from_u64(0x7361_6d70);
        let (mut real, mut sampled) = (vec![0f64; CELLS], vec![0f64; CELLS]);
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
                let knowledge =
                    (weighting == Weighting::Tracker).then(|| Knowledge::from_view(&view));
                for _ in 0..SAMPLES {
                    sample_into(&mut sampler, &view, knowledge.as_ref(), &mut world);
                    sampled[row + bucket(meld::deadwood(world.opponent))] +=
                        1.0 / f64::from(SAMPLES);
                }
            })
            .expect("greedy plays legal actions");
        }
        let mut weight = vec![1.0; CELLS];
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

/// The committed table for `rules`, `weighting` and `model`, if any.
fn committed(rules: &Rules, weighting: Weighting, model: Model) -> Option<&'static Committed> {
    table::COMMITTED.iter().find(|c| {
        c.weighting == weighting
            && c.model == model
            && Rules::preset(c.preset).is_ok_and(|preset| preset == *rules)
    })
}

impl super::WorldWeight for HandPrior {
    fn weight(&self, decision: &super::Decision<'_, '_>, opponent: CardSet, _: Knocks) -> f64 {
        HandPrior::weight(self, decision.opponent_draws, opponent)
    }
}

/// The model of a gin-only opponent whose prior weights the gin kind's
/// worlds in [`KindPriors`]: greedy knocking only at gin.
pub const GIN_MODEL: Model = Model {
    rollout: Rollout::Greedy,
    knock_at: Some(0),
};

/// One prior per kind of opponent an adaptive model mixes
/// (`adapt_calibrate = kind`): a world whose rollouts model the kind that
/// declines knocks ([`Knocks::gin`]) is weighted by the prior of a
/// gin-only greedy ([`GIN_MODEL`]), the others by the knocker's, the
/// calibration's model. One prior for both kinds would weight the gin
/// kind's worlds by a knocker's play, which rarely holds a knockable hand
/// without knocking.
#[derive(Clone, Debug, PartialEq)]
pub struct KindPriors {
    /// The prior of the knocking kind (the calibration's model).
    pub knocker: Arc<HandPrior>,
    /// The prior of the kind that declines knocks.
    pub gin: Arc<HandPrior>,
}

impl super::WorldWeight for KindPriors {
    fn weight(&self, decision: &super::Decision<'_, '_>, opponent: CardSet, knocks: Knocks) -> f64 {
        let prior = if knocks.gin { &self.gin } else { &self.knocker };
        prior.weight(decision.opponent_draws, opponent)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::rules::KnockLimit;

    /// The keys whose tables are committed: every preset, tracker-weighted
    /// worlds, the greedy opponent at its own threshold (the default `mc`
    /// and every committed profile) and the gin-only greedy
    /// ([`GIN_MODEL`], the gin kind's prior of `adapt_calibrate = kind`).
    const COMMITTED_KEYS: [(&str, Weighting, Model); 8] = {
        const GREEDY: Model = Model {
            rollout: Rollout::Greedy,
            knock_at: None,
        };
        [
            ("standard", Weighting::Tracker, GREEDY),
            ("hoyle", Weighting::Tracker, GREEDY),
            ("oklahoma", Weighting::Tracker, GREEDY),
            ("eaai", Weighting::Tracker, GREEDY),
            ("standard", Weighting::Tracker, GIN_MODEL),
            ("hoyle", Weighting::Tracker, GIN_MODEL),
            ("oklahoma", Weighting::Tracker, GIN_MODEL),
            ("eaai", Weighting::Tracker, GIN_MODEL),
        ]
    };

    /// The text of `prior_table.rs` for `priors`, measured for
    /// [`COMMITTED_KEYS`].
    fn table_text(priors: &[HandPrior]) -> String {
        let mut out = String::from(
            "// The committed hand priors (see prior.rs). Generated: do not edit.\n\
             // Re-make with `GINLAB_WRITE_PRIORS=1 cargo test --lib committed_priors`.\n\n\
             use super::{Committed, Model, Rollout, Weighting};\n\n\
             pub(super) const COMMITTED: &[Committed] = &[\n",
        );
        for ((preset, weighting, model), prior) in COMMITTED_KEYS.iter().zip(priors) {
            let _ = write!(
                out,
                "    Committed {{\n        preset: {preset:?},\n        weighting: Weighting::{weighting:?},\n        \
                 model: Model {{\n            rollout: Rollout::{:?},\n            knock_at: {:?},\n        }},\n        \
                 weight: [\n",
                model.rollout, model.knock_at
            );
            for row in prior.weight.chunks(BUCKETS) {
                let cells: Vec<String> = row.iter().map(|w| format!("{w:?}")).collect();
                let _ = writeln!(out, "            {},", cells.join(", "));
            }
            out.push_str("        ],\n    },\n");
        }
        out.push_str("];\n");
        out
    }

    /// The committed tables are what measuring gives today, to the byte
    /// (so to the bit), and [`HandPrior::of`] reads them;
    /// `GINLAB_WRITE_PRIORS=1` re-makes the file instead.
    #[test]
    fn committed_priors_are_measured() {
        let measured: Vec<HandPrior> = COMMITTED_KEYS
            .iter()
            .map(|&(preset, weighting, model)| {
                HandPrior::measure(&Rules::preset(preset).unwrap(), weighting, model)
            })
            .collect();
        let text = table_text(&measured);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/strategy/mc/prior_table.rs");
        if std::env::var_os("GINLAB_WRITE_PRIORS").is_some() {
            std::fs::write(path, &text).expect("prior_table.rs is writable");
        }
        assert!(
            include_str!("prior_table.rs") == text,
            "{path} is not what measuring gives: re-make it with \
             `GINLAB_WRITE_PRIORS=1 cargo test --lib committed_priors`"
        );
        for ((preset, weighting, model), prior) in COMMITTED_KEYS.into_iter().zip(&measured) {
            let rules = Rules::preset(preset).unwrap();
            assert!(committed(&rules, weighting, model).is_some(), "{preset}");
            assert_eq!(HandPrior::of(&rules, weighting, model), *prior, "{preset}");
        }
    }

    /// Only the committed keys are read from the table: other rules,
    /// weightings and models are measured.
    #[test]
    fn other_keys_are_not_committed() {
        let (preset, weighting, model) = COMMITTED_KEYS[3];
        let mut rules = Rules::preset(preset).unwrap();
        assert!(committed(&rules, weighting, model).is_some());
        assert!(committed(&rules, Weighting::None, model).is_none());
        let knocking = Model {
            knock_at: Some(8),
            ..model
        };
        assert!(committed(&rules, weighting, knocking).is_none());
        rules.knock_limit = KnockLimit::Fixed(9);
        assert!(committed(&rules, weighting, model).is_none());
    }

    /// The gin-only greedy's prior (the gin kind's) weighs a knockable
    /// hand the opponent has not knocked with far more than the knocker's
    /// does, once it has drawn a few times: a knocker would have knocked.
    /// [`KindPriors`] reads the one of the world's kind.
    #[test]
    fn the_gin_kind_holds_knockable_hands() {
        let rules = Rules::eaai();
        let knocker = Arc::new(HandPrior::of(&rules, Weighting::Tracker, COMMITTED_KEYS[3].2));
        let gin = Arc::new(HandPrior::of(&rules, Weighting::Tracker, GIN_MODEL));
        let hand = "AS 2S 3S 7C 7D 7H 9H TH JH 5D".parse::<CardSet>().unwrap();
        assert_eq!(meld::deadwood(hand), 5);
        for draws in 3..=MAX_DRAWS {
            let [k, g] = [&knocker, &gin].map(|p| p.weight(draws, hand));
            assert!(g > 2.0 * k, "draws {draws}: gin {g}, knocker {k}");
        }
        let kinds = KindPriors {
            knocker: Arc::clone(&knocker),
            gin: Arc::clone(&gin),
        };
        let mut deck = Pcg64Mcg::seed_from_u64(1);
        let view_hand = Hand::new(&rules, &Deck::shuffled(&mut deck), Seat::A, [0, 0]).unwrap();
        let view = view_hand.view(Seat::A);
        for draws in [0, 4, MAX_DRAWS] {
            let decision = super::super::Decision {
                view: &view,
                opponent_draws: draws,
            };
            for gin_kind in [false, true] {
                let knocks = Knocks {
                    knock_at: None,
                    share: 1.0,
                    gin: gin_kind,
                };
                let prior = if gin_kind { &gin } else { &knocker };
                assert_eq!(
                    super::super::WorldWeight::weight(&kinds, &decision, hand, knocks),
                    prior.weight(draws, hand)
                );
            }
        }
    }

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
