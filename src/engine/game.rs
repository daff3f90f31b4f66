//! A game to the target: [`play_game`] deals and plays hands into a
//! [`Tally`](super::Tally) (the score sheet, `sheet.rs`) until a seat reaches
//! the target.

use rand_pcg::Pcg64Mcg;

use crate::cards::Card;
use crate::rules::Rules;

use super::deck::{Deck, below};
use super::hand::{Hand, HandOutcome};
use super::player::{EngineError, Strategy, play_hand};
use super::sheet::{GameResult, Tally, next_dealer};
use super::view::Seat;

/// A game longer than this many hands is stopped with
/// [`EngineError::Endless`], which ends the run (strategies that never
/// knock, or rules under which hands seldom end). docs/RULES.md states it.
pub const MAX_HANDS: u32 = 10_000;

/// One hand of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandRecord {
    /// Who dealt.
    pub dealer: Seat,
    /// The upcard, if any.
    pub upcard: Option<Card>,
    /// Turns played.
    pub turns: u32,
    /// How it ended.
    pub outcome: HandOutcome,
}

/// The first dealer of a game, drawn from the game's `rng` before its
/// first deck (game records are checked against this order).
pub fn draw_first_dealer(rng: &mut Pcg64Mcg) -> Seat {
    Seat::ALL[below(rng, 2) as usize]
}

/// Plays a game to the target. Decks and the first dealer come from `rng`;
/// `on_hand` sees every hand as it ends (its record, and the finished hand
/// with its deck and actions).
///
/// # Errors
/// An illegal action, inconsistent rules, or a game of more than
/// [`MAX_HANDS`] hands.
pub fn play_game(
    rules: &Rules,
    players: &mut [&mut dyn Strategy; 2],
    rng: &mut Pcg64Mcg,
    on_hand: impl FnMut(&HandRecord, &Hand<'_>),
) -> Result<GameResult, EngineError> {
    play_game_traced(rules, players, rng, on_hand, |_| {})
}

/// [`play_game`], and when a hand stops with an error (a forfeit or an
/// illegal action) `on_stop` sees that unfinished hand first, with its deck
/// and the actions applied before the error. Game records use it to keep
/// the hand a player forfeited.
///
/// # Errors
/// As [`play_game`].
pub fn play_game_traced(
    rules: &Rules,
    players: &mut [&mut dyn Strategy; 2],
    rng: &mut Pcg64Mcg,
    on_hand: impl FnMut(&HandRecord, &Hand<'_>),
    on_stop: impl FnOnce(&Hand<'_>),
) -> Result<GameResult, EngineError> {
    let first_dealer = draw_first_dealer(rng);
    let deal = |_: u32, _: Seat| Deck::shuffled(rng);
    let mut slot = None;
    play_game_dealt(
        &mut slot,
        rules,
        players,
        first_dealer,
        deal,
        on_hand,
        on_stop,
    )
}

/// [`play_game_traced`] with the first dealer given and hand `k`'s deck
/// (from 1) made by `deal(k, dealer)`: for games whose decks depend on
/// another game's, such as the seat-swapped game of a duplicate pair.
/// Every hand is dealt into `slot` ([`Hand::deal_in`]), which keeps the
/// last hand, so a runner that passes the same slot game after game deals
/// without allocating.
///
/// # Errors
/// As [`play_game`].
pub fn play_game_dealt<'r>(
    slot: &mut Option<Hand<'r>>,
    rules: &'r Rules,
    players: &mut [&mut dyn Strategy; 2],
    first_dealer: Seat,
    mut deal: impl FnMut(u32, Seat) -> Deck,
    mut on_hand: impl FnMut(&HandRecord, &Hand<'_>),
    on_stop: impl FnOnce(&Hand<'_>),
) -> Result<GameResult, EngineError> {
    let mut dealer = first_dealer;
    let mut tally = Tally::default();
    for hands in 1..=MAX_HANDS {
        let deck = deal(hands, dealer);
        let hand = Hand::deal_in(slot, rules, &deck, dealer, tally.points)?;
        let outcome = match play_hand(hand, players) {
            Ok(outcome) => outcome,
            Err(e) => {
                on_stop(hand);
                return Err(e);
            }
        };
        let record = HandRecord {
            dealer,
            upcard: hand.upcard(),
            turns: hand.turns(),
            outcome,
        };
        on_hand(&record, hand);
        tally.record(rules, &outcome, hand.upcard());
        if let Some(winner) = tally.leader(rules) {
            let result = tally.result(rules, winner, hands, first_dealer);
            for seat in Seat::ALL {
                players[seat.index()].end_game(seat, &result);
            }
            return Ok(result);
        }
        dealer = next_dealer(rules, dealer, &outcome);
    }
    Err(EngineError::Endless(MAX_HANDS))
}
