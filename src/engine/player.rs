//! The [`Strategy`] trait the engine calls, and the driver that plays a hand
//! with two strategies.
//!
//! The trait lives in the engine (the layer that calls it) so that layers
//! only point down; `crate::strategy` implements it.

use super::hand::{Action, Hand, HandOutcome, IllegalAction};
use super::sheet::GameResult;
use super::view::{DrawSource, Event, Phase, PlayerView, Seat, TurnEnd};

/// A player: one method per decision, each given only what that player may
/// know. Implementations must be deterministic given their own seed.
pub trait Strategy: Send {
    /// A short name for reports.
    fn name(&self) -> &str;

    /// Makes this player exactly what its profile builds with `seed`,
    /// reusing its memory: a runner keeps one player per seat and worker
    /// and resets it for every game instead of building a new one. `false`
    /// (the default) if it cannot; the runner then builds a new player.
    fn reset(&mut self, _seed: u64) -> bool {
        false
    }

    /// A new hand was dealt (the view shows this player's cards).
    fn start_hand(&mut self, _view: &PlayerView<'_>) {}

    /// Something happened at the table (either player's action).
    fn observe(&mut self, _view: &PlayerView<'_>, _event: &Event) {}

    /// Whether [`Strategy::observe`] does anything: a player that overrides
    /// `observe` says `true` here. The default `false` lets the driver skip
    /// building a view per event for the player.
    fn observes(&self) -> bool {
        false
    }

    /// Take the upcard? ([`Phase::UpcardOffer`])
    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool;

    /// Draw from the stock or the pile? ([`Phase::Draw`]; in
    /// [`Phase::LastChance`] `Pile` takes the last discard to knock and `Stock`
    /// passes.)
    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource;

    /// Discard, knock or declare big gin, holding 11 cards ([`Phase::EndTurn`]).
    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd;

    /// The hand is over: `outcome` is what both players see (on a showdown
    /// both spreads and the lay-offs; a void hand shows nothing).
    fn end_hand(&mut self, _view: &PlayerView<'_>, _outcome: &HandOutcome) {}

    /// The game is over; this player sat in `seat`.
    fn end_game(&mut self, _seat: Seat, _result: &GameResult) {}

    /// Whether this player has failed and forfeits: a reason once it could
    /// not give a valid answer (an external bot that crashed, timed out or
    /// answered wrongly). The driver asks after every decision; the answer
    /// given with a failure is not played, and only a player that says
    /// [`Strategy::can_forfeit`] is asked. Built-in strategies never fail.
    fn forfeit(&mut self) -> Option<String> {
        None
    }

    /// Whether [`Strategy::forfeit`] can ever answer: a player that
    /// overrides `forfeit` says `true` here (the external bots, the Python
    /// players). The default `false` lets the driver skip a call after
    /// every decision; debug builds still ask such a player and panic if
    /// it fails, so a player that forgot to say so is caught by its tests.
    fn can_forfeit(&self) -> bool {
        false
    }
}

/// A failure while playing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A strategy answered with an illegal action.
    #[error("illegal action by seat {seat} ({name}): {source}")]
    IllegalAction {
        /// The seat.
        seat: Seat,
        /// The strategy's name.
        name: String,
        /// What was wrong.
        #[source]
        source: IllegalAction,
    },
    /// The rules do not fit together.
    #[error(transparent)]
    Rules(#[from] crate::rules::RulesError),
    /// A player failed (see [`Strategy::forfeit`]) and loses the game.
    #[error("seat {seat} ({name}) forfeits: {reason}")]
    Forfeit {
        /// The seat.
        seat: Seat,
        /// The strategy's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A game went on without end (strategies that never score, or rules
    /// under which hands seldom end: see [`MAX_HANDS`](super::MAX_HANDS)).
    #[error(
        "a game reached ginlab's cap of {0} hands without a winner (a game is stopped there, see docs/RULES.md): do the strategies ever knock, and can the rules end a game (a small max_turns voids most hands, a large game_target needs many)?"
    )]
    Endless(u32),
}

/// Plays `hand` to its end, asking `players` (indexed by seat) for every
/// decision and telling both of every event.
///
/// # Errors
/// [`EngineError::IllegalAction`] naming the seat, the strategy and why.
#[inline]
pub fn play_hand(
    hand: &mut Hand<'_>,
    players: &mut [&mut dyn Strategy; 2],
) -> Result<HandOutcome, EngineError> {
    play_hand_inspected(hand, players, |_| {})
}

/// The action `player` answers in `view`: the method its phase asks for.
///
/// # Panics
/// If the hand is over (nobody decides then).
#[inline]
pub fn ask(player: &mut dyn Strategy, view: &PlayerView<'_>) -> Action {
    match view.phase {
        Phase::UpcardOffer { .. } => Action::TakeUpcard(player.take_upcard(view)),
        Phase::Draw { .. } | Phase::LastChance { .. } => Action::Draw(player.draw(view)),
        Phase::EndTurn { .. } => Action::EndTurn(player.end_turn(view)),
        Phase::Over => unreachable!("nobody decides once the hand is over"),
    }
}

/// [`play_hand`], calling `inspect` with the hand after every applied
/// action (for invariant checks and tracing).
///
/// # Errors
/// As [`play_hand`].
#[inline]
pub fn play_hand_inspected(
    hand: &mut Hand<'_>,
    players: &mut [&mut dyn Strategy; 2],
    mut inspect: impl FnMut(&Hand<'_>),
) -> Result<HandOutcome, EngineError> {
    for seat in Seat::ALL {
        players[seat.index()].start_hand(&hand.view(seat));
    }
    let mut delivered = hand.events().len();
    let observers = [players[0].observes(), players[1].observes()];
    let fallible = [players[0].can_forfeit(), players[1].can_forfeit()];
    // Whether to ask anyone after a decision: one test a decision when
    // neither player can fail (release builds).
    let ask_forfeit = fallible != [false; 2] || cfg!(debug_assertions);
    while let Some(seat) = hand.phase().seat() {
        let player = &mut players[seat.index()];
        let action = ask(*player, &hand.deciding_view(seat));
        if ask_forfeit
            && (fallible[seat.index()] || cfg!(debug_assertions))
            && let Some(reason) = player.forfeit()
        {
            assert!(
                fallible[seat.index()],
                "{} forfeited ({reason}) but says it cannot (Strategy::can_forfeit)",
                player.name()
            );
            return Err(EngineError::Forfeit {
                seat,
                name: player.name().to_owned(),
                reason,
            });
        }
        hand.apply(seat, action)
            .map_err(|source| EngineError::IllegalAction {
                seat,
                name: player.name().to_owned(),
                source,
            })?;
        inspect(hand);
        if observers == [false; 2] {
            continue;
        }
        while delivered < hand.events().len() {
            let event = hand.events()[delivered];
            for s in Seat::ALL.into_iter().filter(|s| observers[s.index()]) {
                players[s.index()].observe(&hand.view(s), &event);
            }
            delivered += 1;
        }
    }
    let outcome = *hand.outcome().expect("a hand over has an outcome");
    for seat in Seat::ALL {
        players[seat.index()].end_hand(&hand.view(seat), &outcome);
    }
    Ok(outcome)
}

/// Default answer helpers shared by strategies: the turn end that knocks with
/// `discard` when `knock` is set.
#[must_use]
pub fn turn_end(discard: crate::cards::Card, knock: bool) -> TurnEnd {
    if knock {
        TurnEnd::Knock(discard)
    } else {
        TurnEnd::Discard(discard)
    }
}
