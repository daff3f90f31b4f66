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
    let unseen = view.unseen();
    let hidden = view.opponent_cards - view.opponent_known.len();
    let mut pool: Vec<Card> = unseen.iter().collect();
    assert!(
        pool.len() >= hidden as usize,
        "fewer unseen cards than hidden ones"
    );
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
    // What is left is the stock; shuffle it (Fisher-Yates).
    for i in (1..pool.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        pool.swap(i, j);
    }
    World {
        opponent,
        stock: pool,
    }
}

/// The index whose cumulative weight first passes `x`.
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
