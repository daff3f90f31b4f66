//! The seam between a search and the games: [`Evaluate`] plays settings
//! on a block of deals. [`Matches`] is the real one (two-player duplicate
//! games or hands against an opponent or a weighted pool); tests put a
//! synthetic problem with a known answer behind the same trait.

use rayon::prelude::*;

use crate::report::Objective;
use crate::rules::Rules;
use crate::seed::mix;
use crate::sim::{Plan, Tallies, Work};
use crate::strategy::Profile;

use super::objective::Unit;
use crate::job::JobError;

/// Plays settings on the same deals.
pub trait Evaluate: Sync {
    /// Plays every profile of `arms` on the deals of block `block` (every
    /// arm the same deals) and returns each arm's units, in deal order.
    ///
    /// # Errors
    /// A failure while playing (an illegal move, threads).
    fn block(&self, arms: &[Profile], block: u64) -> Result<Vec<Vec<Unit>>, JobError>;

    /// Games (or hands) one arm plays per block, counting every opponent.
    fn played_per_block(&self) -> u64;
}

/// The seed of block `block` of a run with master seed `master`, on
/// `stream` (the search's blocks, or the confirmation): a SplitMix64 mix,
/// so blocks and the confirmation play unrelated deals.
#[must_use]
pub fn block_seed(master: u64, stream: u64, block: u64) -> u64 {
    mix(mix(master ^ mix(stream)).wrapping_add(block))
}

/// The stream of the search's blocks.
pub const SEARCH_STREAM: u64 = 0x7475_6e65_2d62_6c6b;
/// The stream of the confirmation run's seed.
pub const CONFIRM_STREAM: u64 = 0x7475_6e65_2d63_6f6e;

/// Duplicate two-player deals against a weighted pool of opponents.
#[derive(Debug)]
pub struct Matches {
    /// The rules.
    pub rules: Rules,
    /// The opponents and their integer weights.
    pub opponents: Vec<(Profile, u32)>,
    /// Whole games (`true`) or independent hands.
    pub games: bool,
    /// What a unit measures.
    pub objective: Objective,
    /// Deals per block (each played twice, seats swapped).
    pub deals: u64,
    /// The master seed.
    pub seed: u64,
    /// The worker threads (rayon inside a block only).
    pub pool: rayon::ThreadPool,
}

impl Evaluate for Matches {
    fn block(&self, arms: &[Profile], block: u64) -> Result<Vec<Vec<Unit>>, JobError> {
        let seed = block_seed(self.seed, SEARCH_STREAM, block);
        let count = 2 * self.deals;
        let work = if self.games {
            Work::Games(count)
        } else {
            Work::Hands(count)
        };
        let plans: Vec<Vec<(Plan, u32)>> = arms
            .iter()
            .map(|arm| {
                self.opponents
                    .iter()
                    .map(|(opponent, weight)| {
                        let plan = Plan {
                            rules: self.rules.clone(),
                            profiles: [arm.clone(), opponent.clone()],
                            work: work.clone(),
                            duplicate: true,
                            seed,
                        };
                        (plan, *weight)
                    })
                    .collect()
            })
            .collect();
        let deals: Vec<Vec<Unit>> = self.pool.install(|| {
            (0..self.deals)
                .into_par_iter()
                .map(|deal| {
                    plans
                        .iter()
                        .map(|arm| {
                            let mut unit = Unit::default();
                            for (plan, weight) in arm {
                                let mut tallies = Tallies::default();
                                plan.play_deal(deal, &mut tallies)?;
                                unit.add_weighted(Unit::of(self.objective, &tallies), *weight);
                            }
                            Ok(unit)
                        })
                        .collect::<Result<Vec<Unit>, crate::engine::EngineError>>()
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| JobError::Run(e.to_string()))
        })?;
        Ok((0..arms.len())
            .map(|a| deals.iter().map(|d| d[a]).collect())
            .collect())
    }

    fn played_per_block(&self) -> u64 {
        2 * self.deals * self.opponents.len() as u64
    }
}
