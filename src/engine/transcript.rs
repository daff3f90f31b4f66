//! A readable, omniscient transcript of a hand: the deal, every action with
//! the cards involved (stock draws included), the showdown and the score.
//! It replays the hand from its deck and actions, so it also checks that the
//! record is consistent.

use std::fmt::Write as _;

use crate::meld::Arrangement;

use super::hand::{Action, Hand, HandOutcome, VoidReason};
use super::sheet::GameResult;
use super::view::{DrawSource, Seat, TurnEnd};

fn sorted(arrangement: &Arrangement) -> String {
    arrangement.to_string()
}

/// The transcript of a finished (or unfinished) hand, one line per action.
///
/// # Panics
/// If replaying the recorded actions fails, which would mean the hand's
/// record is corrupt.
#[must_use]
pub fn hand_transcript(hand: &Hand<'_>) -> String {
    let deck = hand.deck();
    let mut replay = Hand::new(hand.rules(), &deck, hand.dealer(), hand.scores())
        .expect("a dealt hand's rules are valid");
    let mut out = String::new();
    let upcard = replay
        .upcard()
        .map_or("none (eleven-card deal)".to_owned(), |c| c.to_string());
    writeln!(
        out,
        "dealer {} · upcard {upcard} · knock limit {}",
        hand.dealer(),
        replay.knock_limit()
    )
    .unwrap();
    for seat in Seat::ALL {
        writeln!(out, "  {seat} holds {}", replay.cards(seat)).unwrap();
    }
    for &(seat, action) in hand.actions() {
        let line = match action {
            Action::TakeUpcard(true) => {
                format!("{seat} takes the upcard {}", replay.upcard().unwrap())
            }
            Action::TakeUpcard(false) => format!("{seat} passes the upcard"),
            Action::Draw(DrawSource::Stock) => match replay.phase() {
                super::view::Phase::LastChance { .. } => format!("{seat} passes the last discard"),
                _ => format!("{seat} draws {} from the stock", replay.stock()[0]),
            },
            Action::Draw(DrawSource::Pile) => {
                format!(
                    "{seat} takes {} from the pile",
                    replay.pile().last().unwrap()
                )
            }
            Action::EndTurn(TurnEnd::Discard(card)) => format!("{seat} discards {card}"),
            Action::EndTurn(TurnEnd::Knock(card)) => format!("{seat} knocks, {card} face down"),
            Action::EndTurn(TurnEnd::BigGin) => format!("{seat} declares big gin"),
        };
        writeln!(out, "  {line}").unwrap();
        replay.apply(seat, action).expect("recorded actions replay");
    }
    match replay.outcome() {
        None => writeln!(out, "  (hand not finished)").unwrap(),
        Some(HandOutcome::Void(reason)) => {
            let why = match reason {
                VoidReason::StockEnd => "the stock is down to two cards",
                VoidReason::TurnCap => "the turn cap was reached",
            };
            writeln!(out, "  void: {why}").unwrap();
        }
        Some(
            outcome @ HandOutcome::Showdown {
                knocker,
                showdown,
                score,
            },
        ) => {
            writeln!(
                out,
                "  {knocker} spreads {}  deadwood {}",
                sorted(&showdown.knocker),
                showdown.knocker_deadwood()
            )
            .unwrap();
            let layoffs = if showdown.layoffs.is_empty() {
                String::new()
            } else {
                format!("  lays off {}", showdown.layoffs)
            };
            writeln!(
                out,
                "  {} spreads {}  deadwood {}{layoffs}",
                knocker.other(),
                sorted(&showdown.defender),
                showdown.defender_deadwood()
            )
            .unwrap();
            match outcome.winner() {
                Some((seat, points)) => {
                    writeln!(out, "  {}: {seat} scores {points}", score.end.name()).unwrap()
                }
                None => writeln!(out, "  tie: no score").unwrap(),
            }
        }
    }
    assert_eq!(
        replay.outcome(),
        hand.outcome(),
        "the replay ends as the hand did"
    );
    out
}

/// The line that introduces hand `number` (from 1) of a game: the scores
/// before it, by seat.
#[must_use]
pub fn hand_heading(number: u32, scores: [u32; 2]) -> String {
    format!("hand {number} · scores A {} B {}", scores[0], scores[1])
}

/// The closing line of a game: the winner, the score sheet (hand points,
/// hands won, Oklahoma's extra boxes), the shutout, the final scores with
/// every bonus, and the margin.
#[must_use]
pub fn game_summary(game: &GameResult) -> String {
    let t = &game.tally;
    format!(
        "game over: {} wins · hand points {}–{} · hands won {}–{} · extra boxes {}–{} · shutout {} · final {}–{} · margin {}",
        game.winner,
        t.points[0],
        t.points[1],
        t.hands_won[0],
        t.hands_won[1],
        t.extra_boxes[0],
        t.extra_boxes[1],
        game.shutout,
        game.final_scores[0],
        game.final_scores[1],
        game.margin
    )
}
