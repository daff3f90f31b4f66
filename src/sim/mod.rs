//! The runner: plays hands or games between two strategy profiles in
//! parallel, deterministically.
//!
//! - A run is a list of *deals* `0..n`. Deal `i`'s decks and every strategy's
//!   random choices derive from (master seed, `i`, stream) alone ([`seed_for`]).
//! - With duplicate deals each deal is played twice, the second time with the
//!   players' seats swapped (the same cards go to the other player), and the
//!   pair is one scoring unit.
//! - Deals are split into chunks that rayon plays on any number of threads;
//!   each chunk fills a [`Tallies`] of integers, and merging them is exact, so
//!   the result is the same bytes for any thread count or shard split.

mod tally;

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::engine::{Deck, EngineError, Hand, HandRecord, Seat, Strategy, play_game, play_hand};
use crate::rules::Rules;
use crate::strategy::Profile;

pub use tally::Tallies;

/// SplitMix64's finaliser: a bijective mix of 64 bits.
#[must_use]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a seed drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Decks and the first dealer.
    Deal = 0,
    /// Player A's strategy.
    SeatA = 1,
    /// Player B's strategy.
    SeatB = 2,
}

/// The seed of `stream` for deal `index` of a run with `master` seed.
#[must_use]
pub fn seed_for(master: u64, index: u64, stream: Stream) -> u64 {
    mix(mix(mix(master) ^ index) ^ stream as u64)
}

/// How much to play.
#[derive(Clone, Debug, PartialEq)]
pub enum Work {
    /// This many hands, dealers alternating by deal (A deals the even deals), scores 0–0.
    Hands(u64),
    /// This many whole games to the target.
    Games(u64),
    /// One hand per given deck order, dealt by `dealer`.
    Decks {
        /// The deck orders, top first.
        decks: Vec<Deck>,
        /// Who deals every one of them (in the unswapped game).
        dealer: Seat,
    },
}

/// A run: who plays, under which rules, how much, from which seed.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The rules.
    pub rules: Rules,
    /// Players A and B.
    pub profiles: [Profile; 2],
    /// Hands, games or decks.
    pub work: Work,
    /// Play every deal twice with the seats swapped.
    pub duplicate: bool,
    /// The master seed.
    pub seed: u64,
}

/// Most deals per parallel chunk (any value gives the same result).
const CHUNK: u64 = 128;

/// Deals per chunk for `deals` deals on `threads` threads: [`CHUNK`], or
/// fewer so that a short run of a slow player (a bot, `mc`) still gives
/// every thread several chunks.
fn chunk_size(deals: u64, threads: usize) -> u64 {
    (deals / (8 * threads.max(1) as u64)).clamp(1, CHUNK)
}

impl Plan {
    /// The number of deals: with duplicate deals, half the hands or games
    /// asked for, rounded up (every deal is played twice).
    #[must_use]
    pub fn deals(&self) -> u64 {
        let per_deal = if self.duplicate { 2 } else { 1 };
        match &self.work {
            Work::Hands(n) | Work::Games(n) => n.div_ceil(per_deal),
            Work::Decks { decks, .. } => decks.len() as u64,
        }
    }

    /// Plays deal `index` (one game or hand, or two with duplicate deals) into `tallies`.
    ///
    /// # Errors
    /// An illegal action or inconsistent rules.
    pub fn play_deal(&self, index: u64, tallies: &mut Tallies) -> Result<(), EngineError> {
        let swaps: &[bool] = if self.duplicate {
            &[false, true]
        } else {
            &[false]
        };
        let mut unit = 0;
        for &swapped in swaps {
            let a = self.profiles[0].build(seed_for(self.seed, index, Stream::SeatA));
            let b = self.profiles[1].build(seed_for(self.seed, index, Stream::SeatB));
            let (a_seat, mut seats) = if swapped {
                (Seat::B, [b, a])
            } else {
                (Seat::A, [a, b])
            };
            let [first, second] = &mut seats;
            let mut players: [&mut dyn Strategy; 2] = [first.as_mut(), second.as_mut()];
            let mut rng = Pcg64Mcg::seed_from_u64(seed_for(self.seed, index, Stream::Deal));
            let played = match &self.work {
                Work::Games(_) => play_game(&self.rules, &mut players, &mut rng, |record, _| {
                    tallies.add_hand(record, a_seat);
                })
                .map(|game| tallies.add_game(&game, a_seat)),
                Work::Hands(_) | Work::Decks { .. } => {
                    let (deck, dealer) = match &self.work {
                        Work::Decks { decks, dealer } => (decks[index as usize].clone(), *dealer),
                        _ => (Deck::shuffled(&mut rng), Seat::ALL[(index % 2) as usize]),
                    };
                    let mut hand = Hand::new(&self.rules, &deck, dealer, [0, 0])?;
                    play_hand(&mut hand, &mut players).map(|outcome| {
                        let record = HandRecord {
                            dealer,
                            upcard: hand.upcard(),
                            turns: hand.turns(),
                            outcome,
                        };
                        tallies.add_hand(&record, a_seat)
                    })
                }
            };
            unit += match played {
                Ok(half_points) => half_points,
                Err(EngineError::Forfeit { seat, .. }) => {
                    let game = matches!(self.work, Work::Games(_));
                    tallies.add_forfeit(seat, a_seat, game)
                }
                Err(e) => return Err(e),
            };
        }
        tallies.add_unit(unit, swaps.len() as u64);
        Ok(())
    }

    /// Plays deals `range` on `threads` threads (0: one per core), calling
    /// `progress` with the number of deals done so far as chunks finish.
    ///
    /// # Errors
    /// The illegal action or rules error of the lowest-numbered failing chunk.
    pub fn run(
        &self,
        range: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Tallies, EngineError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let done = AtomicU64::new(0);
        let deals = range.end.saturating_sub(range.start);
        let chunk_len = chunk_size(deals, pool.current_num_threads());
        let chunks = deals.div_ceil(chunk_len);
        let play_chunk = |chunk: u64| -> Result<Tallies, (u64, EngineError)> {
            let start = range.start + chunk * chunk_len;
            let end = (start + chunk_len).min(range.end);
            let mut tallies = Tallies::default();
            for index in start..end {
                self.play_deal(index, &mut tallies)
                    .map_err(|e| (index, e))?;
            }
            progress(done.fetch_add(end - start, Ordering::Relaxed) + end - start);
            Ok(tallies)
        };
        // Merging is exact, so the reduction order does not matter; of two
        // errors the lower deal index wins, so the error is deterministic too.
        pool.install(|| {
            (0..chunks).into_par_iter().map(play_chunk).reduce(
                || Ok(Tallies::default()),
                |x, y| match (x, y) {
                    (Ok(mut x), Ok(y)) => {
                        x.merge(&y);
                        Ok(x)
                    }
                    (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
                    (Err(e), Err(f)) => Err(if e.0 <= f.0 { e } else { f }),
                },
            )
        })
        .map_err(|(_, e)| e)
    }
}
