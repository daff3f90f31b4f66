//! The match runner: plays hands or games between two strategy profiles.
//!
//! Every game's (or hand's) deck and every strategy's random choices come from
//! (master seed, index, stream) alone, mixed with SplitMix64, so results do
//! not depend on the order games are played in. Single-threaded for now; the
//! parallel harness builds on [`play_one`].

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::engine::{
    Deck, EngineError, Hand, HandEnd, HandOutcome, HandRecord, Seat, Strategy, play_game, play_hand,
};
use crate::rules::Rules;
use crate::strategy::Profile;

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
    /// Seat A's strategy.
    SeatA = 1,
    /// Seat B's strategy.
    SeatB = 2,
}

/// The seed of `stream` for game (or hand) `index` of a run with `master` seed.
#[must_use]
pub fn seed_for(master: u64, index: u64, stream: Stream) -> u64 {
    mix(mix(mix(master) ^ index) ^ stream as u64)
}

/// How much to play.
#[derive(Clone, Debug, PartialEq)]
pub enum Work {
    /// Independent hands with alternating dealers (A deals the even ones), scores 0–0.
    Hands(u64),
    /// Whole games to the target.
    Games(u64),
    /// One hand per given deck, dealt by `dealer`.
    Decks {
        /// The deck orders, top first.
        decks: Vec<Deck>,
        /// Who deals every one of them.
        dealer: Seat,
    },
}

/// Counts over a run, seat A's perspective where it matters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Hands played (void ones included).
    pub hands: u64,
    /// Hands won, by seat.
    pub hand_wins: [u64; 2],
    /// Hand points, by seat.
    pub hand_points: [u64; 2],
    /// Void hands.
    pub voids: u64,
    /// Hands that ended in a knock won by the knocker.
    pub knocks: u64,
    /// Gins.
    pub gins: u64,
    /// Big gins.
    pub big_gins: u64,
    /// Undercuts.
    pub undercuts: u64,
    /// Scoreless ties.
    pub ties: u64,
    /// Hands won by the non-dealer.
    pub non_dealer_wins: u64,
    /// Turns summed over all hands.
    pub turns: u64,
    /// Games played.
    pub games: u64,
    /// Games won, by seat.
    pub game_wins: [u64; 2],
    /// Sum of seat A's game margins (negative when B won).
    pub a_margin: i64,
}

impl Summary {
    /// Adds one hand.
    pub fn add_hand(&mut self, record: &HandRecord) {
        self.hands += 1;
        self.turns += record.turns as u64;
        match record.outcome {
            HandOutcome::Void(_) => self.voids += 1,
            HandOutcome::Showdown { score, .. } => {
                match score.end {
                    HandEnd::Knock => self.knocks += 1,
                    HandEnd::Gin => self.gins += 1,
                    HandEnd::BigGin => self.big_gins += 1,
                    HandEnd::Undercut => self.undercuts += 1,
                    HandEnd::Tie => self.ties += 1,
                }
                if let Some((seat, points)) = record.outcome.winner() {
                    self.hand_wins[seat.index()] += 1;
                    self.hand_points[seat.index()] += points as u64;
                    if seat != record.dealer {
                        self.non_dealer_wins += 1;
                    }
                }
            }
        }
    }
}

/// Plays unit `index` of `work` (a hand or a game) into `summary`.
///
/// # Errors
/// An illegal action or inconsistent rules.
pub fn play_one(
    rules: &Rules,
    profiles: [&Profile; 2],
    work: &Work,
    master: u64,
    index: u64,
    summary: &mut Summary,
) -> Result<(), EngineError> {
    let mut a = profiles[0].build(seed_for(master, index, Stream::SeatA));
    let mut b = profiles[1].build(seed_for(master, index, Stream::SeatB));
    let mut players: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
    let mut rng = Pcg64Mcg::seed_from_u64(seed_for(master, index, Stream::Deal));
    let (deck, dealer) = match work {
        Work::Games(_) => {
            let game = play_game(rules, &mut players, &mut rng, |record, _| {
                summary.add_hand(record)
            })?;
            summary.games += 1;
            summary.game_wins[game.winner.index()] += 1;
            summary.a_margin += if game.winner == Seat::A {
                game.margin
            } else {
                -game.margin
            };
            return Ok(());
        }
        Work::Hands(_) => (Deck::shuffled(&mut rng), Seat::ALL[(index % 2) as usize]),
        Work::Decks { decks, dealer } => (decks[index as usize].clone(), *dealer),
    };
    let mut hand = Hand::new(rules, &deck, dealer, [0, 0])?;
    let outcome = play_hand(&mut hand, &mut players)?;
    summary.add_hand(&HandRecord {
        dealer,
        upcard: hand.upcard(),
        turns: hand.turns(),
        outcome,
    });
    Ok(())
}

/// Plays all of `work` in index order.
///
/// # Errors
/// The first illegal action (naming its seat and strategy) or rules error.
pub fn run_match(
    rules: &Rules,
    profiles: [&Profile; 2],
    work: &Work,
    master: u64,
) -> Result<Summary, EngineError> {
    let count = match work {
        Work::Hands(n) | Work::Games(n) => *n,
        Work::Decks { decks, .. } => decks.len() as u64,
    };
    let mut summary = Summary::default();
    for index in 0..count {
        play_one(rules, profiles, work, master, index, &mut summary)?;
    }
    Ok(summary)
}
