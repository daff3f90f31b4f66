//! The runner: plays hands or games between two strategy profiles in
//! parallel, deterministically.
//!
//! - A run is a list of *deals* `0..n`. Deal `i`'s decks and every strategy's
//!   random choices derive from (master seed, `i`, stream) alone ([`seed_for`]).
//! - With duplicate deals each deal is played twice, the second time with the
//!   players' seats swapped (the same cards go to the other player), and the
//!   pair is one scoring unit. In games, hand `k` of the swapped game is
//!   dealt from hand `k`'s deck of the first game, with the two hands of the
//!   deal exchanged when the same player deals it in both games (as happens
//!   under `next_dealer = loser` or `winner`), so every hand mirrors the
//!   first game's for as long as both games last.
//! - Deals are split into chunks that rayon plays on any number of threads;
//!   the chunks a worker plays fill one [`Tallies`] of integers, and merging
//!   them is exact, so the result is the same bytes for any thread count or
//!   shard split.
//! - [`Plan::run_recorded`] also writes every game as a [`GameRecord`] line,
//!   in deal order whatever the thread count; [`replay`] re-simulates a
//!   record through the engine and checks it.
//! - [`Plan::run_scored`] (and `run_recorded`) also keep each deal's unit
//!   score in deal order ([`UnitSequence`]), for a sequential test that
//!   looks after every unit.

mod compare;
mod histogram;
mod record;
mod sequence;
mod table;
mod table_record;
mod tally;

use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::engine::{
    Deck, EngineError, Hand, HandRecord, Seat, Strategy, draw_first_dealer, play_game_dealt,
    play_hand,
};
use crate::rules::Rules;
use crate::strategy::Profile;

pub use compare::{Compared, ComparedRow, Comparison};
pub use histogram::Histogram;
use record::Header;
pub use record::{
    Forfeit, GameRecord, Labels, Mode, Player, RecordCheck, RecordTarget, RecordedHand, Replay,
    ReplayError, Seats, VERSION as RECORD_VERSION, replay,
};
pub use sequence::UnitSequence;
pub use table::{Format, SideTally, SideUnits, TablePlan, TableTallies};
pub use table_record::{TableRecord, TableRecordedHand};
pub use tally::{OpenUnit, Tallies, UnitFigures};

// The seeds live on the ground floor (`crate::seed`); re-exported here,
// where the runner's users have always found them.
pub use crate::seed::{Stream, mix, seed_for};

/// The generator of deal `index`'s decks (and, in games, of the first
/// dealer, drawn first): records are checked against it.
pub(crate) fn deal_rng(master: u64, index: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(seed_for(master, index, Stream::Deal))
}

/// Hands dealt from the seed alternate dealers by deal: A deals the even deals.
pub(crate) fn hand_dealer(index: u64) -> Seat {
    Seat::ALL[(index % 2) as usize]
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
        match &self.work {
            Work::Hands(n) | Work::Games(n) => n.div_ceil(self.unit_size()),
            Work::Decks { decks, .. } => decks.len() as u64,
        }
    }

    /// Plays deal `index` (one game or hand, or two with duplicate deals) into `tallies`.
    ///
    /// # Errors
    /// An illegal action or inconsistent rules.
    pub fn play_deal(&self, index: u64, tallies: &mut Tallies) -> Result<(), EngineError> {
        self.play_deal_scored(index, tallies).map(|_| ())
    }

    /// [`Plan::play_deal`], returning A's half points over the deal's
    /// scoring unit.
    fn play_deal_scored(&self, index: u64, tallies: &mut Tallies) -> Result<i64, EngineError> {
        self.play_deal_in(index, tallies, &mut Scratch::default())
    }

    /// [`Plan::play_deal`] with the players and the hand kept in `scratch`
    /// from earlier deals of this plan, reset rather than built again
    /// ([`Strategy::reset`]): a worker that plays deal after deal this way
    /// deals and plays its hands without allocating. The result is the
    /// same as [`Plan::play_deal`]'s. Returns A's half points over the
    /// deal's scoring unit.
    ///
    /// # Errors
    /// As [`Plan::play_deal`].
    pub fn play_deal_in<'p>(
        &'p self,
        index: u64,
        tallies: &mut Tallies,
        scratch: &mut Scratch<'p>,
    ) -> Result<i64, EngineError> {
        let played = self.play_deal_batched(index, tallies, scratch);
        tallies.flush();
        played
    }

    /// [`Plan::play_deal_in`] with the deal's unit left in `tallies`'
    /// 64-bit sums ([`Tallies::add_unit_batched`]): the runner flushes
    /// once at the end of a run.
    fn play_deal_batched<'p>(
        &'p self,
        index: u64,
        tallies: &mut Tallies,
        scratch: &mut Scratch<'p>,
    ) -> Result<i64, EngineError> {
        self.play_deal_recorded(index, tallies, None, scratch, &|i, seed| {
            self.profiles[i].build(seed)
        })
    }

    /// Games (or hands) per scoring unit: 2 with duplicate deals (the
    /// pair), else 1.
    #[must_use]
    pub fn unit_size(&self) -> u64 {
        if self.duplicate { 2 } else { 1 }
    }

    /// [`Plan::play_deal`] with the players made by `build(player, seed)`
    /// (player 0 is A, 1 is B; the seed is the one [`Profile::build`] would
    /// get) instead of from [`Plan::profiles`]: for players no profile names,
    /// such as objects of a host language. Deals, seats and tallies are
    /// those of [`Plan::play_deal`].
    ///
    /// # Errors
    /// As [`Plan::play_deal`].
    pub fn play_deal_with(
        &self,
        index: u64,
        tallies: &mut Tallies,
        build: &dyn Fn(usize, u64) -> Box<dyn Strategy>,
    ) -> Result<(), EngineError> {
        let played = self.play_deal_recorded(index, tallies, None, &mut Scratch::default(), build);
        tallies.flush();
        played.map(|_| ())
    }

    /// [`Plan::play_deal`], appending each game's record line to `record`'s
    /// buffer if given (the unswapped game first), with the players and
    /// the hand of `scratch` (players missing or that cannot
    /// [reset](Strategy::reset) are made by `build`); returns A's half
    /// points over the deal's scoring unit.
    fn play_deal_recorded<'p>(
        &'p self,
        index: u64,
        tallies: &mut Tallies,
        mut record: Option<(&Header, &mut Vec<u8>)>,
        scratch: &mut Scratch<'p>,
        build: &dyn Fn(usize, u64) -> Box<dyn Strategy>,
    ) -> Result<i64, EngineError> {
        let swaps: &[bool] = if self.duplicate {
            &[false, true]
        } else {
            &[false]
        };
        let mut unit = 0;
        scratch.first_game.clear();
        for &swapped in swaps {
            let mut game = record
                .as_ref()
                .map(|(header, _)| GameRecord::start(header, index, swapped));
            let deal = Dealing { index, swapped };
            unit += self.play_game_of_deal(deal, tallies, game.as_mut(), scratch, build)?;
            if let (Some(game), Some((_, lines))) = (game, record.as_mut()) {
                game.write_line(lines);
            }
        }
        tallies.add_unit_batched(unit, swaps.len() as u64);
        Ok(unit)
    }

    /// Plays the game (or hand) of `deal` into `tallies`, and into `record`
    /// if given; returns A's half points.
    fn play_game_of_deal<'p>(
        &'p self,
        deal: Dealing,
        tallies: &mut Tallies,
        mut record: Option<&mut GameRecord>,
        scratch: &mut Scratch<'p>,
        build: &dyn Fn(usize, u64) -> Box<dyn Strategy>,
    ) -> Result<i64, EngineError> {
        let Dealing { index, swapped } = deal;
        let Scratch {
            players: [a, b],
            hand: slot,
            first_game,
        } = scratch;
        let a = seated(a, seed_for(self.seed, index, Stream::SeatA), |s| {
            build(0, s)
        });
        let b = seated(b, seed_for(self.seed, index, Stream::SeatB), |s| {
            build(1, s)
        });
        let (a_seat, mut players): (Seat, [&mut dyn Strategy; 2]) = if swapped {
            (Seat::B, [b, a])
        } else {
            (Seat::A, [a, b])
        };
        let mut rng = deal_rng(self.seed, index);
        let recording = record.is_some();
        let mut stopped = None;
        let played = match &self.work {
            Work::Games(_) => play_game_dealt(
                slot,
                &self.rules,
                &mut players,
                draw_first_dealer(&mut rng),
                |k, dealer| {
                    let deck = Deck::shuffled(&mut rng);
                    let a_deals = dealer == a_seat;
                    let hand = k as usize - 1;
                    if !swapped {
                        first_game.push(a_deals);
                        deck
                    } else if first_game.get(hand) == Some(&a_deals) {
                        deck.exchanged()
                    } else {
                        deck
                    }
                },
                |hand_record, hand| {
                    if let Some(record) = record.as_deref_mut() {
                        record.hands.push(RecordedHand::of(hand));
                    }
                    tallies.add_hand(hand_record, a_seat);
                },
                |hand| {
                    if recording {
                        stopped = Some(RecordedHand::of(hand));
                    }
                },
            )
            .map(|game| {
                if let Some(record) = record.as_deref_mut() {
                    record.end = crate::protocol::game_end_value(&game);
                }
                tallies.add_game(&game, a_seat)
            }),
            Work::Hands(_) | Work::Decks { .. } => {
                let (deck, dealer) = match &self.work {
                    Work::Decks { decks, dealer } => (decks[index as usize].clone(), *dealer),
                    _ => (Deck::shuffled(&mut rng), hand_dealer(index)),
                };
                let hand = Hand::deal_in(slot, &self.rules, &deck, dealer, [0, 0])?;
                let played = play_hand(hand, &mut players);
                if let Some(record) = record.as_deref_mut() {
                    record.hands.push(RecordedHand::of(hand));
                }
                played.map(|outcome| {
                    let hand_record = HandRecord {
                        dealer,
                        upcard: hand.upcard(),
                        turns: hand.turns(),
                        outcome,
                    };
                    tallies.add_hand(&hand_record, a_seat)
                })
            }
        };
        match played {
            Ok(half_points) => Ok(half_points),
            Err(EngineError::Forfeit { seat, name, reason }) => {
                if let Some(record) = record {
                    record.hands.extend(stopped);
                    record.forfeit = Some(Forfeit {
                        seat: seat.to_string(),
                        name,
                        reason,
                    });
                }
                let game = matches!(self.work, Work::Games(_));
                Ok(tallies.add_forfeit(seat, a_seat, game))
            }
            Err(e) => Err(e),
        }
    }

    /// Plays deals `range` on `threads` threads (0: one per core), calling
    /// `progress` with the number of deals done so far as chunks finish.
    ///
    /// # Errors
    /// The illegal action or rules error of the lowest-numbered failing chunk
    /// ([`RunError::Engine`]), or threads that cannot be started.
    pub fn run(
        &self,
        range: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Tallies, RunError> {
        run_chunks(
            range,
            threads,
            progress,
            Scratch::default,
            |index, tallies: &mut Tallies, scratch, _| {
                self.play_deal_batched(index, tallies, scratch).map(|_| ())
            },
            Tallies::merge,
            None,
        )
        .map(flushed)
    }

    /// [`Plan::run`], also keeping each deal's unit score in deal order.
    ///
    /// # Errors
    /// As [`Plan::run`].
    pub fn run_scored(
        &self,
        range: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(Tallies, UnitSequence), RunError> {
        fn merge(x: &mut (Tallies, UnitSequence), y: &(Tallies, UnitSequence)) {
            x.0.merge(&y.0);
            x.1.merge(&y.1);
        }
        run_chunks(
            range,
            threads,
            progress,
            Scratch::default,
            |index, (tallies, units): &mut (Tallies, UnitSequence), scratch, _| {
                units.push(index, self.play_deal_batched(index, tallies, scratch)?);
                Ok(())
            },
            merge,
            None,
        )
        .map(|(tallies, units)| (flushed(tallies), units))
    }

    /// [`Plan::run`], also writing one [record](GameRecord) line per game
    /// (per hand when playing hands) to `out`, in deal order (the
    /// unswapped game of a deal first), so the bytes do not depend on
    /// `threads`. Chunks are played a window at a time (four per thread)
    /// and their lines written in order, so memory holds at most one
    /// window's records. Keeps each deal's unit score, as
    /// [`Plan::run_scored`] does.
    ///
    /// # Errors
    /// As [`Plan::run`], or a failure to write `out` (lines of the chunks
    /// before the failing one are written by then).
    pub fn run_recorded(
        &self,
        range: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        labels: &Labels,
        out: &mut dyn Write,
    ) -> Result<(Tallies, UnitSequence), RunError> {
        let header = Header::new(self, labels);
        run_chunks(
            range,
            threads,
            progress,
            Scratch::default,
            |index, (tallies, units): &mut (Tallies, UnitSequence), scratch, lines| {
                let record = Some((&header, lines));
                let unit =
                    self.play_deal_recorded(index, tallies, record, scratch, &|i, seed| {
                        self.profiles[i].build(seed)
                    })?;
                units.push(index, unit);
                Ok(())
            },
            |x, y| {
                x.0.merge(&y.0);
                x.1.merge(&y.1);
            },
            Some(out),
        )
        .map(|(tallies, units)| (flushed(tallies), units))
    }
}

/// `tallies` with the units the runner batched added
/// ([`Tallies::flush`]).
fn flushed(mut tallies: Tallies) -> Tallies {
    tallies.flush();
    tallies
}

/// Plays deals `range` on `threads` threads (0: one per core) in chunks
/// by `play(deal, tallies, worker, lines)` (generic, so the runner's deal
/// loop inlines). `tallies` is a `T` a worker fills over the run of
/// chunks it takes at once (not one per chunk: a fresh `T`, its
/// histograms allocated and zeroed, and its merge cost about as much as
/// tallying the chunk); `worker` is state a worker keeps across its
/// chunks, made by `init` (the players and hand a plan reuses); `lines` is
/// the chunk's record buffer, which a deal appends its record lines to
/// when there is a `sink`. The workers' `T`s are combined with `merge`,
/// and `progress` is called with the deals done so far as chunks finish.
/// Merging must be exact (integer tallies), so the result does not depend
/// on which deals a worker played; of two errors the lower deal index
/// wins, so the error is deterministic too.
///
/// With a `sink`, the lines are written to it in deal order, so its bytes
/// do not depend on `threads` either: chunks are played a window at a time
/// (four per thread), combined in chunk order, and the window's lines
/// written before the next one starts, so memory holds at most one
/// window's records. Without one the whole range is one window.
///
/// # Errors
/// The illegal action or rules error of the lowest-numbered failing deal
/// ([`RunError::Engine`]; the lines of the windows before it are written
/// by then), threads that cannot be started, or a failure to write `sink`.
pub(crate) fn run_chunks<T, W, F>(
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    init: impl Fn() -> W + Sync + Send,
    play: F,
    merge: fn(&mut T, &T),
    mut sink: Option<&mut dyn Write>,
) -> Result<T, RunError>
where
    T: Default + Send,
    W: Send,
    F: Fn(u64, &mut T, &mut W, &mut Vec<u8>) -> Result<(), EngineError> + Sync,
{
    let pool = pool(threads)?;
    let done = AtomicU64::new(0);
    let deals = range.end.saturating_sub(range.start);
    let chunk_len = chunk_size(deals, pool.current_num_threads());
    let chunks = deals.div_ceil(chunk_len);
    let window = match sink {
        Some(_) => 4 * pool.current_num_threads() as u64,
        None => chunks.max(1),
    };
    let mut total: Option<T> = None;
    let mut first = 0;
    while first < chunks {
        let last = (first + window).min(chunks);
        let part: Part<T> = pool.install(|| {
            (first..last)
                .into_par_iter()
                // One accumulator per piece of the window a worker takes
                // (a few per thread), not one per chunk.
                .fold(
                    || {
                        Ok(Piece {
                            worker: init(),
                            tallies: T::default(),
                            lines: Vec::new(),
                        })
                    },
                    |piece: Result<Piece<T, W>, (u64, EngineError)>, chunk| {
                        // A piece's chunks are consecutive and in order, so
                        // after its first error the rest cannot give a lower
                        // deal's.
                        let mut piece = piece?;
                        let start = range.start + chunk * chunk_len;
                        let end = (start + chunk_len).min(range.end);
                        let mut lines = Vec::new();
                        for index in start..end {
                            play(index, &mut piece.tallies, &mut piece.worker, &mut lines)
                                .map_err(|e| (index, e))?;
                        }
                        progress(done.fetch_add(end - start, Ordering::Relaxed) + end - start);
                        // No allocation for a chunk without lines.
                        if !lines.is_empty() {
                            piece.lines.push(lines);
                        }
                        Ok(piece)
                    },
                )
                .map(|piece| piece.map(|p| (p.tallies, p.lines)))
                // An indexed reduction combines neighbours only, so the
                // lines stay in chunk order.
                .reduce(
                    || Ok((T::default(), Vec::new())),
                    |x: Part<T>, y: Part<T>| match (x, y) {
                        (Ok(mut x), Ok(y)) => {
                            merge(&mut x.0, &y.0);
                            x.1.extend(y.1);
                            Ok(x)
                        }
                        (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
                        (Err(e), Err(f)) => Err(if e.0 <= f.0 { e } else { f }),
                    },
                )
        });
        let (part, lines) = part.map_err(|(_, e)| RunError::Engine(e))?;
        match total.as_mut() {
            Some(total) => merge(total, &part),
            None => total = Some(part),
        }
        if let Some(sink) = sink.as_deref_mut() {
            for chunk in &lines {
                sink.write_all(chunk)?;
            }
        }
        first = last;
    }
    Ok(total.unwrap_or_default())
}

/// What one piece of a window has played so far: the worker's state, the
/// piece's tallies and its chunks' record lines, in chunk order.
struct Piece<T, W> {
    worker: W,
    tallies: T,
    lines: Vec<Vec<u8>>,
}

/// What a window of [`run_chunks`] has given so far: its tallies and its
/// chunks' record lines, in chunk order; or the lowest failing deal and
/// its error.
type Part<T> = Result<(T, Vec<Vec<u8>>), (u64, EngineError)>;

/// Which game of a deal is played: the deal and whether the seats are
/// swapped.
#[derive(Clone, Copy)]
struct Dealing {
    index: u64,
    swapped: bool,
}

/// What a worker keeps from deal to deal of one [`Plan`]: the two players
/// (A and B, [reset](Strategy::reset) for every game), the last hand (its
/// vectors dealt into again) and, per hand of a deal's first game, whether
/// A dealt it (filled by the first game, read by the swapped one to mirror
/// its decks). Keep one per worker and plan: the players are the plan's.
#[derive(Default)]
pub struct Scratch<'p> {
    players: [Option<Box<dyn Strategy>>; 2],
    hand: Option<Hand<'p>>,
    first_game: Vec<bool>,
}

/// The player in `slot`, reset for a new game, or a new one from `build`
/// when the slot is empty or its player cannot reset.
fn seated(
    slot: &mut Option<Box<dyn Strategy>>,
    seed: u64,
    build: impl FnOnce(u64) -> Box<dyn Strategy>,
) -> &mut dyn Strategy {
    if !slot.as_mut().is_some_and(|player| player.reset(seed)) {
        // The old player goes first: an external bot's process returns to
        // its pool, so the new player takes it rather than starting another.
        *slot = None;
        *slot = Some(build(seed));
    }
    slot.as_deref_mut().expect("a player is seated")
}

/// A pool of `threads` threads (0: one per core).
fn pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?)
}

/// Why a recorded run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Playing failed (see [`Plan::run`]).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The records could not be written.
    #[error("writing the game records")]
    Write(#[from] std::io::Error),
    /// The worker threads could not be started.
    #[error("starting the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}
