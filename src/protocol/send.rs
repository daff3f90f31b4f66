//! The lines ginlab sends: built from a [`PlayerView`], an [`Event`], a
//! [`HandOutcome`] or a [`GameResult`], so they can carry nothing a player
//! may not know; and a profile's `options` as `hello` sends them.

use serde_json::{Map, Value, json};

use super::{Move, SEED_MASK, VERSION, decision_name};
use crate::cards::{Card, CardSet};
use crate::engine::{Event, GameResult, HandOutcome, PlayerView, Seat, VoidReason};
use crate::meld::Arrangement;
use crate::rules::rules_table;

fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "A",
        Seat::B => "B",
    }
}

fn cards(set: CardSet) -> Value {
    Value::Array(set.iter().map(|c| Value::String(c.to_string())).collect())
}

fn card_list(list: &[Card]) -> Value {
    Value::Array(list.iter().map(|c| Value::String(c.to_string())).collect())
}

fn card(card: Option<Card>) -> Value {
    card.map_or(Value::Null, |c| Value::String(c.to_string()))
}

/// Scores as `{"A": .., "B": ..}` from a view's `[mine, other]` pair.
fn scores_by_seat(seat: Seat, mine_first: [u32; 2]) -> Value {
    let mut by_seat = [0; 2];
    by_seat[seat.index()] = mine_first[0];
    by_seat[seat.other().index()] = mine_first[1];
    json!({ "A": by_seat[0], "B": by_seat[1] })
}

/// A profile's `options` table as the JSON object `hello` sends. Every TOML
/// value has a JSON form except non-finite floats (`nan`, `inf`) and dates
/// and times: those are refused, naming the key, rather than sent as
/// `null` or an object the bot never asked for.
///
/// # Errors
/// The key path (`options.a.b`) and why its value cannot be sent.
pub fn options_from_toml(table: &toml::Table) -> Result<Map<String, Value>, String> {
    fn convert(value: &toml::Value, path: &str) -> Result<Value, String> {
        Ok(match value {
            toml::Value::String(s) => Value::String(s.clone()),
            toml::Value::Integer(i) => Value::from(*i),
            toml::Value::Boolean(b) => Value::Bool(*b),
            toml::Value::Float(f) => Value::from(serde_json::Number::from_f64(*f).ok_or_else(
                || format!("{path} = {value}: JSON has no nan or infinity; send a finite number or a string"),
            )?),
            toml::Value::Datetime(d) => {
                return Err(format!(
                    "{path} = {d}: a TOML date or time has no JSON form; write it as a string (\"{d}\")"
                ));
            }
            toml::Value::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| convert(item, &format!("{path}[{i}]")))
                    .collect::<Result<_, _>>()?,
            ),
            toml::Value::Table(table) => Value::Object(
                table
                    .iter()
                    .map(|(key, item)| Ok((key.clone(), convert(item, &format!("{path}.{key}"))?)))
                    .collect::<Result<_, String>>()?,
            ),
        })
    }
    table
        .iter()
        .map(|(key, item)| Ok((key.clone(), convert(item, &format!("options.{key}"))?)))
        .collect()
}

/// `options` given as JSON text (`check-bot --options`): a JSON object.
///
/// # Errors
/// Why the text is not one: the JSON parser's reason (a number out of
/// range, a syntax error and where), or the kind of value it is instead.
pub fn options_from_json(text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "expected a JSON object, got {}",
            match other {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                Value::Array(_) => "an array",
                Value::Object(_) => unreachable!("matched above"),
            }
        )),
        Err(e) => Err(format!("not valid JSON: {e}")),
    }
}

/// `hello`: the first line ginlab sends, with the profile's `options`.
#[must_use]
pub fn hello(options: &Map<String, Value>) -> String {
    json!({
        "type": "hello",
        "protocol": VERSION,
        "program": "ginlab",
        "version": env!("CARGO_PKG_VERSION"),
        "options": options,
    })
    .to_string()
}

/// `game_start`: a new game (or, when ginlab plays single hands, a game of
/// one hand) in which the bot sits in `view.seat`.
#[must_use]
pub fn game_start(view: &PlayerView<'_>, game_seed: u64) -> String {
    json!({
        "type": "game_start",
        "seat": seat_name(view.seat),
        "seed": game_seed & SEED_MASK,
        "rules": rules_table(view.rules),
        "scores": scores_by_seat(view.seat, view.scores),
    })
    .to_string()
}

/// `hand_start`: the bot's cards, the upcard and who deals.
#[must_use]
pub fn hand_start(view: &PlayerView<'_>, hand_number: u32) -> String {
    json!({
        "type": "hand_start",
        "hand": hand_number,
        "dealer": seat_name(view.dealer),
        "cards": cards(view.hand),
        "upcard": card(view.upcard),
        "knock_limit": view.knock_limit,
        "stock_size": view.stock_size,
        "scores": scores_by_seat(view.seat, view.scores),
    })
    .to_string()
}

/// The name and the fields of an [`Event`] (the protocol's event names).
#[must_use]
pub fn event_fields(event: &Event) -> (&'static str, Seat, Option<Card>) {
    match *event {
        Event::UpcardTaken { seat, card } => ("upcard_taken", seat, Some(card)),
        Event::UpcardPassed { seat, card } => ("upcard_passed", seat, Some(card)),
        Event::DrewStock { seat } => ("drew_stock", seat, None),
        Event::TookPile { seat, card } => ("took_pile", seat, Some(card)),
        Event::Discarded { seat, card } => ("discarded", seat, Some(card)),
        Event::Knocked { seat } => ("knocked", seat, None),
        Event::BigGin { seat } => ("big_gin", seat, None),
        Event::PassedLastDiscard { seat } => ("passed_last_discard", seat, None),
    }
}

/// `event`: something both players saw happen.
#[must_use]
pub fn event(event: &Event) -> String {
    let (name, seat, card) = event_fields(event);
    let mut message = json!({ "type": "event", "event": name, "seat": seat_name(seat) });
    if card.is_some() {
        message["card"] = self::card(card);
    }
    message.to_string()
}

/// The state part of a decision request: everything in the view.
fn view_state(view: &PlayerView<'_>) -> Value {
    json!({
        "seat": seat_name(view.seat),
        "dealer": seat_name(view.dealer),
        "hand": cards(view.hand),
        "upcard": card(view.upcard),
        "pile": card_list(view.pile),
        "opponent_known": cards(view.opponent_known),
        "opponent_cards": view.opponent_cards,
        "stock_size": view.stock_size,
        "turn": view.turn,
        "knock_limit": view.knock_limit,
        "taken_from_pile": card(view.taken_from_pile),
        "scores": scores_by_seat(view.seat, view.scores),
    })
}

/// `decide`: a decision request numbered `id`, with the legal answers.
#[must_use]
pub fn decide(id: u64, view: &PlayerView<'_>, legal: &[Move]) -> String {
    json!({
        "type": "decide",
        "id": id,
        "decision": decision_name(view.phase),
        "legal": legal.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "state": view_state(view),
    })
    .to_string()
}

fn arrangement(arr: &Arrangement) -> Value {
    let melds: Vec<Value> = arr.melds().map(|m| cards(m.cards())).collect();
    json!({
        "melds": melds,
        "deadwood": cards(arr.deadwood_cards()),
        "deadwood_count": arr.deadwood(),
    })
}

/// `hand_end`: how the hand ended, as both players see it. `view` is the
/// bot's view at the end (its scores are those before the hand).
#[must_use]
pub fn hand_end(view: &PlayerView<'_>, outcome: &HandOutcome) -> String {
    hand_end_value(view, outcome).to_string()
}

/// [`hand_end`] as a JSON value (game records embed it).
#[must_use]
pub fn hand_end_value(view: &PlayerView<'_>, outcome: &HandOutcome) -> Value {
    let mut scores = [view.scores[0], view.scores[1]];
    let mut message = json!({ "type": "hand_end" });
    match outcome {
        HandOutcome::Void(reason) => {
            message["result"] = json!("void");
            message["void_reason"] = json!(match reason {
                VoidReason::StockEnd => "stock_end",
                VoidReason::TurnCap => "turn_cap",
            });
            message["winner"] = Value::Null;
            message["points"] = json!(0);
        }
        HandOutcome::Showdown {
            knocker,
            showdown,
            score,
        } => {
            message["result"] = json!(score.end.name());
            message["knocker"] = json!(seat_name(*knocker));
            message["knocker_spread"] = arrangement(&showdown.knocker);
            message["defender_spread"] = arrangement(&showdown.defender);
            message["layoffs"] = cards(showdown.layoffs);
            let winner = outcome.winner();
            message["winner"] = winner.map_or(Value::Null, |(s, _)| json!(seat_name(s)));
            message["points"] = json!(winner.map_or(0, |(_, p)| p));
            if let Some((seat, points)) = winner {
                scores[usize::from(seat != view.seat)] += points;
            }
        }
    }
    message["scores"] = scores_by_seat(view.seat, scores);
    message
}

/// `game_end` after a game played to the target.
#[must_use]
pub fn game_end(result: &GameResult) -> String {
    game_end_value(result).to_string()
}

/// [`game_end`] as a JSON value (game records embed it).
#[must_use]
pub fn game_end_value(result: &GameResult) -> Value {
    json!({
        "type": "game_end",
        "complete": true,
        "winner": seat_name(result.winner),
        "final_scores": { "A": result.final_scores[0], "B": result.final_scores[1] },
        "shutout": result.shutout,
        "hands": result.hands,
    })
}

/// `game_end` for a game that stopped before its target: ginlab played a
/// single hand, or a player forfeited.
#[must_use]
pub fn game_stopped() -> String {
    game_stopped_value().to_string()
}

/// [`game_stopped`] as a JSON value (game records embed it).
#[must_use]
pub fn game_stopped_value() -> Value {
    json!({ "type": "game_end", "complete": false })
}

/// `quit`: the bot should exit.
#[must_use]
pub fn quit() -> String {
    json!({ "type": "quit" }).to_string()
}
