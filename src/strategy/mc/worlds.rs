//! Sampling worlds: the opponent's hidden cards and the stock order, drawn
//! from the cards the player has not seen (see the module docs of `mc`).

use rand_pcg::Pcg64Mcg;

use crate::cards::{Card, CardSet};
use crate::engine::{PlayerView, below};
use crate::strategy::Knowledge;

/// A sampled world: the opponent's cards and the stock, top first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    /// The opponent's cards.
    pub opponent: CardSet,
    /// The stock, top first.
    pub stock: Vec<Card>,
}

/// What a world's weight may read of the decision, gathered once per
/// decision.
#[derive(Clone, Copy, Debug)]
pub struct Decision<'a, 'v> {
    /// The deciding player's view.
    pub view: &'a PlayerView<'v>,
    /// How many times the opponent has drawn this hand.
    pub opponent_draws: usize,
}

/// A model of how much likelier a sampled world is than the sampler makes
/// it: the importance weight of the world where the opponent holds
/// `opponent`. The sampler draws the hidden cards; a weight corrects what
/// it cannot know (the calibration, [`HandPrior`](super::HandPrior)). A
/// new model is one implementation and one field of
/// [`WorldModel`](super::WorldModel), which selects it.
pub trait WorldWeight: Send + Sync {
    /// The weight (at least 0) of the world where the opponent holds
    /// `opponent`, at `decision`.
    fn weight(&self, decision: &Decision<'_, '_>, opponent: CardSet) -> f64;
}

/// One world consistent with `view`, drawn with `rng` (see the module docs).
///
/// # Panics
/// If the view has fewer unseen cards than hidden opponent cards (no
/// view of a real hand does).
pub(crate) fn sample_world(
    rng: &mut Pcg64Mcg,
    view: &PlayerView<'_>,
    knowledge: Option<&Knowledge>,
) -> World {
    let mut world = World {
        opponent: CardSet::EMPTY,
        stock: Vec::new(),
    };
    sample_into(rng, view, knowledge, &mut world);
    world
}

/// [`sample_world`] into `world`, whose stock's allocation is reused
/// ([`Unseen::draw`] from the view's [`Unseen`]).
///
/// # Panics
/// As [`sample_world`].
pub(crate) fn sample_into(
    rng: &mut Pcg64Mcg,
    view: &PlayerView<'_>,
    knowledge: Option<&Knowledge>,
    world: &mut World,
) {
    Unseen::new(view, knowledge).draw(rng, world);
}

/// What every world of a decision is drawn from: the unseen cards (their
/// bit positions, in the set's order), their weights and the total of the
/// weights, the opponent's known cards and how many are hidden. Built once
/// a decision instead of once a world.
#[derive(Clone, Debug)]
pub(crate) struct Unseen {
    /// The unseen cards, in the set's order.
    pool: [Card; 52],
    len: usize,
    /// The tracker's weights of the pool's cards.
    weights: Option<Weights>,
    known: u64,
    hidden: u32,
}

/// The weights of a pool's cards, their running sums in the pool's order
/// (each the sum before it plus the card's weight: the additions of a scan
/// from the first card, [`pick_summed`]'s) and their total.
#[derive(Clone, Copy, Debug)]
struct Weights {
    each: [f64; 52],
    sums: [f64; 52],
    total: f64,
}

impl Unseen {
    /// The unseen cards of `view`, weighted by `knowledge` if given.
    ///
    /// # Panics
    /// As [`sample_world`].
    pub(crate) fn new(view: &PlayerView<'_>, knowledge: Option<&Knowledge>) -> Unseen {
        let mut pool = [Card::ALL[0]; 52];
        let mut len = 0;
        let unseen = view.unseen();
        for card in unseen.iter() {
            pool[len] = card;
            len += 1;
        }
        let hidden = view.opponent_cards - view.opponent_known.len();
        assert!(
            len >= hidden as usize,
            "fewer unseen cards than hidden ones"
        );
        let weights = knowledge.map(|k| {
            let mut each = [0f64; 52];
            for (w, card) in each.iter_mut().zip(unseen.iter()) {
                *w = f64::from(k.prob(card));
            }
            let total: f64 = each[..len].iter().sum();
            let mut sums = [0f64; 52];
            let mut acc = 0.0;
            for (sum, w) in sums.iter_mut().zip(&each[..len]) {
                acc += w;
                *sum = acc;
            }
            Weights { each, sums, total }
        });
        Unseen {
            pool,
            len,
            weights,
            known: view.opponent_known.bits(),
            hidden,
        }
    }

    /// One world into `world`, whose stock's allocation is reused. The
    /// unseen cards and their weights are copied to the stack; the draws
    /// and the arithmetic are those of a pool that removes a drawn card by
    /// moving the last one into its place, so the worlds are the same for
    /// the same `rng`.
    pub(crate) fn draw(&self, rng: &mut Pcg64Mcg, world: &mut World) {
        let mut pool = self.pool;
        let mut len = self.len;
        let mut opponent = self.known;
        match self.weights {
            Some(Weights {
                each: mut weights,
                mut sums,
                mut total,
            }) => {
                // `sums[..summed]` are the running sums of the pool as it
                // stands: a removal changes them from its place on.
                let mut summed = len;
                for _ in 0..self.hidden {
                    let i = if total > 1e-9 {
                        let x = below(rng, 1 << 53) as f64 / (1u64 << 53) as f64;
                        pick_summed(&weights[..len], &mut sums, &mut summed, x * total)
                    } else {
                        below(rng, len as u64) as usize
                    };
                    opponent |= 1 << pool[i].bit();
                    total -= weights[i];
                    len -= 1;
                    pool[i] = pool[len];
                    weights[i] = weights[len];
                    summed = summed.min(i);
                }
            }
            None => {
                for _ in 0..self.hidden {
                    let i = below(rng, len as u64) as usize;
                    opponent |= 1 << pool[i].bit();
                    len -= 1;
                    pool[i] = pool[len];
                }
            }
        }
        // What is left is the stock; shuffle it (Fisher-Yates).
        let stock = &mut pool[..len];
        for i in (1..stock.len()).rev() {
            let j = below(rng, i as u64 + 1) as usize;
            stock.swap(i, j);
        }
        world.opponent = CardSet::from_bits_truncate(opponent);
        world.stock.clear();
        world.stock.extend_from_slice(stock);
    }
}

/// The index whose cumulative weight (in the slice's order) first passes
/// `x`, or the last index if none does, reading the running sums already made
/// (`sums[..*summed]`, kept by the caller across removals) and making the
/// rest as far as the scan goes: the same additions in the same order, so
/// the same index. The sums never fall (the weights are at least 0), so the
/// first one past `x` among those made is found by bisection.
fn pick_summed(weights: &[f64], sums: &mut [f64; 52], summed: &mut usize, x: f64) -> usize {
    let made = *summed;
    if made > 0 && x < sums[made - 1] {
        return sums[..made].partition_point(|&sum| sum <= x);
    }
    let mut acc = if made > 0 { sums[made - 1] } else { 0.0 };
    for (i, w) in weights.iter().enumerate().skip(made) {
        acc += w;
        sums[i] = acc;
        *summed = i + 1;
        if x < acc {
            return i;
        }
    }
    weights.len() - 1
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::engine::{Hand, Seat, Strategy};
    use crate::rules::Rules;
    use crate::strategy::{Greedy, Tracker};

    /// The index whose cumulative weight first passes `x`, by one scan
    /// from the start (what [`pick_summed`] must agree with).
    fn pick(weights: &[f64], x: f64) -> usize {
        let mut acc = 0.0;
        for (i, w) in weights.iter().enumerate() {
            acc += w;
            if x < acc {
                return i;
            }
        }
        weights.len() - 1
    }

    /// The sampler as first written (a pool of cards, removal by
    /// `swap_remove`), kept to check the stack-based one against.
    fn reference_world(
        rng: &mut Pcg64Mcg,
        view: &PlayerView<'_>,
        knowledge: Option<&Knowledge>,
    ) -> World {
        let mut pool: Vec<Card> = view.unseen().iter().collect();
        let hidden = view.opponent_cards - view.opponent_known.len();
        let mut opponent = view.opponent_known;
        match knowledge {
            Some(k) => {
                let mut weights: Vec<f64> = pool.iter().map(|&c| f64::from(k.prob(c))).collect();
                let mut total: f64 = weights.iter().sum();
                for _ in 0..hidden {
                    let i = if total > 1e-9 {
                        let x = below(rng, 1 << 53) as f64 / (1u64 << 53) as f64;
                        pick(&weights, x * total)
                    } else {
                        below(rng, pool.len() as u64) as usize
                    };
                    opponent.insert(pool.swap_remove(i));
                    total -= weights.swap_remove(i);
                }
            }
            None => {
                for _ in 0..hidden {
                    let i = below(rng, pool.len() as u64) as usize;
                    opponent.insert(pool.swap_remove(i));
                }
            }
        }
        for i in (1..pool.len()).rev() {
            let j = below(rng, i as u64 + 1) as usize;
            pool.swap(i, j);
        }
        World {
            opponent,
            stock: pool,
        }
    }

    /// [`pick_summed`], with its sums kept across removals as
    /// [`Unseen::draw`] keeps them, picks what a fresh scan picks: weights
    /// with zeros and repeats, targets on the sums themselves, at 0 and past
    /// the total.
    #[test]
    fn kept_sums_pick_what_a_scan_picks() {
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let mut checked = 0;
        for _ in 0..2_000 {
            let len = 1 + below(&mut rng, 52) as usize;
            let mut weights: Vec<f64> = (0..len)
                .map(|_| match below(&mut rng, 4) {
                    0 => 0.0,
                    1 => 0.25,
                    _ => below(&mut rng, 1000) as f64 / 997.0,
                })
                .collect();
            let mut sums = [0f64; 52];
            let mut acc = 0.0;
            for (sum, w) in sums.iter_mut().zip(&weights) {
                acc += w;
                *sum = acc;
            }
            let mut summed = len;
            while !weights.is_empty() {
                let total: f64 = weights.iter().sum();
                let x = match below(&mut rng, 4) {
                    0 => 0.0,
                    1 => total * 1.5,
                    // Exactly a running sum of the pool as it stands.
                    2 => weights[..=below(&mut rng, weights.len() as u64) as usize]
                        .iter()
                        .fold(0.0, |a, w| a + w),
                    _ => below(&mut rng, 1 << 53) as f64 / (1u64 << 53) as f64 * total,
                };
                let i = pick_summed(&weights, &mut sums, &mut summed, x);
                assert_eq!(i, pick(&weights, x), "{weights:?} at {x}");
                weights.swap_remove(i);
                summed = summed.min(i);
                checked += 1;
            }
        }
        assert!(checked > 40_000, "{checked}");
    }

    /// The sampler draws the same worlds as the reference, with and without
    /// the tracker's weights, into a reused world, at every decision of
    /// greedy-vs-tracker hands under several presets; and so does one
    /// decision's [`Unseen`] drawn from several times.
    #[test]
    fn worlds_are_those_of_the_reference_sampler() {
        use crate::engine::{Deck, ask};
        let mut decks = Pcg64Mcg::seed_from_u64(31);
        let (mut fast, mut slow) = (Pcg64Mcg::seed_from_u64(5), Pcg64Mcg::seed_from_u64(5));
        let mut world = World {
            opponent: CardSet::EMPTY,
            stock: Vec::new(),
        };
        let mut compared = 0;
        for rules in [Rules::standard(), Rules::eaai(), Rules::oklahoma()] {
            for d in 0..20 {
                let deck = Deck::shuffled(&mut decks);
                let mut hand = Hand::new(&rules, &deck, Seat::ALL[d % 2], [0, 0]).unwrap();
                let mut players: [Box<dyn Strategy>; 2] =
                    [Box::new(Greedy::default()), Box::new(Tracker::default())];
                while let Some(seat) = hand.phase().seat() {
                    let view = hand.view(seat);
                    let knowledge = Knowledge::from_view(&view);
                    for k in [None, Some(&knowledge)] {
                        sample_into(&mut fast, &view, k, &mut world);
                        assert_eq!(world, reference_world(&mut slow, &view, k));
                        // One decision's unseen cards, drawn from again.
                        let unseen = Unseen::new(&view, k);
                        for _ in 0..3 {
                            unseen.draw(&mut fast, &mut world);
                            assert_eq!(world, reference_world(&mut slow, &view, k));
                        }
                        compared += 1;
                    }
                    let action = ask(players[seat.index()].as_mut(), &view);
                    hand.apply(seat, action).unwrap();
                }
            }
        }
        assert!(compared > 1_000, "{compared}");
    }
}
