//! The bot protocol (`docs/PROTOCOL.md`): JSON lines between ginlab and a
//! bot process, one object per line.
//!
//! This module is the wire format only: the messages ginlab writes (built
//! from a [`PlayerView`], an [`Event`], a [`HandOutcome`] or a
//! [`GameResult`], so they can carry nothing a player may not know), the
//! [`Move`]s a bot answers with and the legal ones at a decision, and the
//! reader that checks a bot's line ([`read_hello`], [`read_move`]). Running
//! the process is [`crate::strategy::External`]'s job.

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value, json};

use crate::cards::{Card, CardSet};
use crate::engine::{
    Action, DrawSource, Event, GameResult, HandOutcome, Phase, PlayerView, Seat, TurnEnd,
    VoidReason, big_gin_legal, legal_discards, pile_allowed,
};
use crate::meld::{self, Arrangement};
use crate::rules::{KNOBS, Rules};

/// The protocol version this build speaks.
pub const VERSION: u64 = 1;

/// `game_start`'s seed is cut to 53 bits, which every JSON parser reads exactly.
pub const SEED_MASK: u64 = (1 << 53) - 1;

/// The longest line a bot may send, in bytes.
pub const MAX_LINE: usize = 64 * 1024;

/// A bot's answer to a decision request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Take the upcard.
    Take,
    /// Pass the upcard, or (at the stock end) the last discard.
    Pass,
    /// Draw from the stock.
    Stock,
    /// Draw the top of the pile (at the stock end: take the last discard to knock).
    Pile,
    /// Discard this card face up.
    Discard(Card),
    /// Knock (or go gin) discarding this card face down.
    Knock(Card),
    /// Knock with all 11 cards melded.
    BigGin,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Take => f.write_str("take"),
            Move::Pass => f.write_str("pass"),
            Move::Stock => f.write_str("stock"),
            Move::Pile => f.write_str("pile"),
            Move::Discard(card) => write!(f, "discard {card}"),
            Move::Knock(card) => write!(f, "knock {card}"),
            Move::BigGin => f.write_str("big_gin"),
        }
    }
}

/// Why a move text does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a move: the moves are take, pass, stock, pile, discard CARD, knock CARD, big_gin"
)]
pub struct ParseMoveError(String);

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let bad = || ParseMoveError(text.to_owned());
        let mut words = text.split_whitespace();
        let verb = words.next().ok_or_else(bad)?;
        let card = words.next().map(str::parse::<Card>);
        if words.next().is_some() {
            return Err(bad());
        }
        match (verb, card) {
            ("take", None) => Ok(Move::Take),
            ("pass", None) => Ok(Move::Pass),
            ("stock", None) => Ok(Move::Stock),
            ("pile", None) => Ok(Move::Pile),
            ("big_gin", None) => Ok(Move::BigGin),
            ("discard", Some(Ok(card))) => Ok(Move::Discard(card)),
            ("knock", Some(Ok(card))) => Ok(Move::Knock(card)),
            _ => Err(bad()),
        }
    }
}

/// The kind of decision a request asks for (the `decision` field).
#[must_use]
pub fn decision_name(phase: Phase) -> &'static str {
    match phase {
        Phase::UpcardOffer { .. } => "upcard",
        Phase::Draw { .. } => "draw",
        Phase::LastChance { .. } => "last_chance",
        Phase::EndTurn { .. } => "end_turn",
        Phase::Over => "none",
    }
}

/// Every legal answer in `view`'s decision, in a fixed order: upcard
/// `take, pass`; draw `stock, pile`; last chance `pile` (only if it makes a
/// knock possible), `pass`; end of turn
/// the discards, then the knocks, then `big_gin`, cards in ascending order.
#[must_use]
pub fn legal_moves(view: &PlayerView<'_>) -> Vec<Move> {
    match view.phase {
        Phase::UpcardOffer { .. } => vec![Move::Take, Move::Pass],
        Phase::Draw { .. } => {
            let mut moves = vec![Move::Stock];
            if pile_allowed(view) {
                moves.push(Move::Pile);
            }
            moves
        }
        Phase::LastChance { .. } => {
            if pile_allowed(view) {
                vec![Move::Pile, Move::Pass]
            } else {
                vec![Move::Pass]
            }
        }
        Phase::EndTurn { must_knock, .. } => {
            let discards = legal_discards(view);
            let mut moves = Vec::with_capacity(23);
            if !must_knock {
                moves.extend(discards.iter().map(Move::Discard));
            }
            moves.extend(
                discards
                    .iter()
                    .filter(|&c| meld::deadwood(view.hand.without(c)) <= view.knock_limit)
                    .map(Move::Knock),
            );
            if big_gin_legal(view) {
                moves.push(Move::BigGin);
            }
            moves
        }
        Phase::Over => Vec::new(),
    }
}

/// The engine action a legal move stands for in `phase`.
#[must_use]
pub fn action_of(phase: Phase, mv: Move) -> Option<Action> {
    Some(match (phase, mv) {
        (Phase::UpcardOffer { .. }, Move::Take) => Action::TakeUpcard(true),
        (Phase::UpcardOffer { .. }, Move::Pass) => Action::TakeUpcard(false),
        (Phase::Draw { .. }, Move::Stock) => Action::Draw(DrawSource::Stock),
        (Phase::Draw { .. } | Phase::LastChance { .. }, Move::Pile) => {
            Action::Draw(DrawSource::Pile)
        }
        (Phase::LastChance { .. }, Move::Pass) => Action::Draw(DrawSource::Stock),
        (Phase::EndTurn { .. }, Move::Discard(c)) => Action::EndTurn(TurnEnd::Discard(c)),
        (Phase::EndTurn { .. }, Move::Knock(c)) => Action::EndTurn(TurnEnd::Knock(c)),
        (Phase::EndTurn { .. }, Move::BigGin) => Action::EndTurn(TurnEnd::BigGin),
        _ => return None,
    })
}

/// The move an engine action is, in `phase` (the inverse of [`action_of`]).
#[must_use]
pub fn move_of(phase: Phase, action: Action) -> Move {
    match (phase, action) {
        (_, Action::TakeUpcard(true)) => Move::Take,
        (_, Action::TakeUpcard(false))
        | (Phase::LastChance { .. }, Action::Draw(DrawSource::Stock)) => Move::Pass,
        (_, Action::Draw(DrawSource::Stock)) => Move::Stock,
        (_, Action::Draw(DrawSource::Pile)) => Move::Pile,
        (_, Action::EndTurn(TurnEnd::Discard(c))) => Move::Discard(c),
        (_, Action::EndTurn(TurnEnd::Knock(c))) => Move::Knock(c),
        (_, Action::EndTurn(TurnEnd::BigGin)) => Move::BigGin,
    }
}

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

/// The rules as the knob table of `RULES.md` (`ginlab rules` prints the
/// same table as TOML).
#[must_use]
pub fn rules_table(rules: &Rules) -> Value {
    let mut table = Map::new();
    for knob in KNOBS {
        let value = rules.get(knob.name).expect("every listed knob has a value");
        table.insert(
            knob.name.to_owned(),
            serde_json::to_value(value).expect("a knob value is plain JSON"),
        );
    }
    Value::Object(table)
}

/// Rules from a knob table (as [`rules_table`] writes it): knobs not given
/// keep the `standard` value.
///
/// # Errors
/// A table that is not an object, an unknown knob or a bad value.
pub fn rules_from_table(table: &Value) -> Result<Rules, crate::rules::RulesError> {
    let mut rules = Rules::standard();
    let Value::Object(map) = table else {
        return Err(crate::rules::RulesError::Toml(
            "the rules must be a table of knobs".into(),
        ));
    };
    for (name, value) in map {
        // JSON null (also inside a list) and integers beyond 64-bit signed
        // have no TOML form; no knob takes them.
        let Ok(toml_value) = toml::Value::try_from(value) else {
            let knob = KNOBS
                .iter()
                .find(|k| k.name == name)
                .ok_or_else(|| crate::rules::RulesError::UnknownKnob(name.clone()))?;
            return Err(crate::rules::RulesError::BadValue {
                knob: knob.name,
                value: value.to_string(),
                allowed: knob.allowed,
            });
        };
        rules.set(name, &toml_value)?;
    }
    rules.validate()?;
    Ok(rules)
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

/// What is wrong with a line a bot sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// Not one JSON object.
    #[error("not a JSON object ({0})")]
    NotJson(String),
    /// A field missing or of the wrong JSON type.
    #[error("field `{field}` must be {expected}")]
    Field {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// Another message type than the one expected.
    #[error("expected a `{expected}` message, got type `{got}`")]
    WrongType {
        /// The type expected.
        expected: &'static str,
        /// The type sent.
        got: String,
    },
    /// A protocol version ginlab does not speak.
    #[error("protocol version {0} is not supported: this ginlab speaks version {VERSION}")]
    Version(u64),
    /// The answer names another request.
    #[error("answered request {got}, but request {expected} was asked")]
    WrongId {
        /// The id of the request.
        expected: u64,
        /// The id in the answer.
        got: u64,
    },
    /// The move does not parse.
    #[error(transparent)]
    Move(#[from] ParseMoveError),
    /// The move names a legal move but is not written exactly as its
    /// `legal` string (other spacing, case or card spelling).
    #[error("`move` must be one of the `legal` strings exactly: got {got:?}, legal is {exact:?}")]
    NotExact {
        /// The string sent.
        got: String,
        /// The legal string it names.
        exact: String,
    },
    /// The move is not among the legal ones.
    #[error("`{mv}` is not legal here; legal: {legal}")]
    Illegal {
        /// The move.
        mv: Move,
        /// The legal moves, comma separated.
        legal: String,
    },
}

fn object(line: &str) -> Result<Map<String, Value>, ReplyError> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ReplyError::NotJson("a JSON value but not an object".into())),
        Err(e) => Err(ReplyError::NotJson(e.to_string())),
    }
}

fn expect_type(map: &Map<String, Value>, expected: &'static str) -> Result<(), ReplyError> {
    match map.get("type") {
        Some(Value::String(t)) if t == expected => Ok(()),
        Some(Value::String(t)) => Err(ReplyError::WrongType {
            expected,
            got: t.clone(),
        }),
        _ => Err(ReplyError::Field {
            field: "type",
            expected: "a string",
        }),
    }
}

/// The longest `name` a bot's `hello` may give (reports print it).
pub const MAX_NAME: usize = 64;

/// A bot's `hello` reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotHello {
    /// The bot's name.
    pub name: String,
    /// Its author, if given.
    pub author: Option<String>,
}

/// Reads the bot's `hello` line: `{"type":"hello","protocol":1,"name":"..."}`.
///
/// # Errors
/// Anything but a `hello` of version [`VERSION`] with a non-empty name.
pub fn read_hello(line: &str) -> Result<BotHello, ReplyError> {
    let map = object(line)?;
    expect_type(&map, "hello")?;
    let version = map
        .get("protocol")
        .and_then(Value::as_u64)
        .ok_or(ReplyError::Field {
            field: "protocol",
            expected: "a positive integer",
        })?;
    if version != VERSION {
        return Err(ReplyError::Version(version));
    }
    let name = match map.get("name") {
        Some(Value::String(name))
            if !name.trim().is_empty()
                && name.chars().count() <= MAX_NAME
                && !name.chars().any(char::is_control) =>
        {
            name.trim().to_owned()
        }
        _ => {
            return Err(ReplyError::Field {
                field: "name",
                expected: "a non-empty string of at most 64 characters, none a control character",
            });
        }
    };
    let author = map.get("author").and_then(Value::as_str).map(str::to_owned);
    Ok(BotHello { name, author })
}

/// Reads a bot's answer to request `id`: `{"type":"move","id":ID,"move":"..."}`,
/// and checks that the move is one of `legal`.
///
/// # Errors
/// Anything else, each with what was expected.
pub fn read_move(line: &str, id: u64, legal: &[Move]) -> Result<Move, ReplyError> {
    let map = object(line)?;
    expect_type(&map, "move")?;
    let got = map
        .get("id")
        .and_then(Value::as_u64)
        .ok_or(ReplyError::Field {
            field: "id",
            expected: "the request's id (an integer)",
        })?;
    if got != id {
        return Err(ReplyError::WrongId { expected: id, got });
    }
    let text = map
        .get("move")
        .and_then(Value::as_str)
        .ok_or(ReplyError::Field {
            field: "move",
            expected: "a string, one of the request's `legal` answers",
        })?;
    let mv: Move = text.parse()?;
    if legal.contains(&mv) {
        // Exact, as PROTOCOL.md says: a bot that sends "  knock  ks" would
        // break under any other reader of the protocol (or a record).
        if text == mv.to_string() {
            Ok(mv)
        } else {
            Err(ReplyError::NotExact {
                got: text.to_owned(),
                exact: mv.to_string(),
            })
        }
    } else {
        Err(ReplyError::Illegal {
            mv,
            legal: legal
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Deck, Hand};

    #[test]
    fn moves_print_and_parse() {
        let c: Card = "7H".parse().unwrap();
        for mv in [
            Move::Take,
            Move::Pass,
            Move::Stock,
            Move::Pile,
            Move::Discard(c),
            Move::Knock(c),
            Move::BigGin,
        ] {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
        assert_eq!("discard 7h".parse::<Move>(), Ok(Move::Discard(c)));
        for bad in [
            "",
            "discard",
            "knock 7H 8H",
            "draw",
            "discard 1H",
            "take 7H",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reader_names_each_fault() {
        let legal = [Move::Stock, Move::Pile];
        let ok = r#"{"type":"move","id":3,"move":"pile"}"#;
        assert_eq!(read_move(ok, 3, &legal), Ok(Move::Pile));
        let e = |line: &str| read_move(line, 3, &legal).unwrap_err().to_string();
        assert!(e("pile").contains("not a JSON object"));
        assert!(e("[1]").contains("not an object"));
        assert!(e(r#"{"id":3,"move":"pile"}"#).contains("`type`"));
        assert!(e(r#"{"type":"hello","id":3}"#).contains("expected a `move`"));
        assert!(e(r#"{"type":"move","id":4,"move":"pile"}"#).contains("request 3"));
        assert!(e(r#"{"type":"move","id":3}"#).contains("`move`"));
        assert!(e(r#"{"type":"move","id":3,"move":"take"}"#).contains("legal: stock, pile"));
        assert!(e(r#"{"type":"move","id":3,"move":"jump"}"#).contains("not a move"));
        // Issue 15: the move is one of the `legal` strings exactly.
        for loose in ["  pile", "pile\t", "pile "] {
            let line = format!(r#"{{"type":"move","id":3,"move":{loose:?}}}"#);
            assert!(
                e(&line).contains(r#"must be one of the `legal` strings exactly"#),
                "{line}"
            );
        }
        let knocks = [Move::Knock("KS".parse().unwrap())];
        let loose = r#"{"type":"move","id":3,"move":"  knock   KS\t"}"#;
        assert_eq!(
            read_move(loose, 3, &knocks).unwrap_err().to_string(),
            r#"`move` must be one of the `legal` strings exactly: got "  knock   KS\t", legal is "knock KS""#
        );
        let hello = r#"{"type":"hello","protocol":1,"name":" bot "}"#;
        assert_eq!(read_hello(hello).unwrap().name, "bot");
        assert!(
            read_hello(r#"{"type":"hello","protocol":2,"name":"b"}"#)
                .unwrap_err()
                .to_string()
                .contains("version 2")
        );
        assert!(read_hello(r#"{"type":"hello","protocol":1,"name":""}"#).is_err());
    }

    /// Every legal move of every decision of played hands is accepted by the
    /// engine, and every card not listed as a knock is over the limit.
    #[test]
    fn legal_moves_are_exactly_the_engine_s() {
        let stock_end = Rules {
            last_discard_action: true,
            knock_limit: crate::rules::KnockLimit::Fixed(0),
            ..Rules::standard()
        };
        let mut last_chances = 0;
        for rules in [Rules::oklahoma(), Rules::hoyle(), stock_end] {
            for seed in 0..40 {
                let deck = Deck::shuffled(
                    &mut <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(seed),
                );
                let mut hand = Hand::new(&rules, &deck, Seat::A, [0, 0]).unwrap();
                let mut step = 0;
                while let Some(seat) = hand.phase().seat() {
                    let view = hand.view(seat);
                    let legal = legal_moves(&view);
                    if let Phase::LastChance { .. } = view.phase {
                        last_chances += 1;
                    }
                    for mv in [
                        Move::Take,
                        Move::Pass,
                        Move::Stock,
                        Move::Pile,
                        Move::BigGin,
                    ]
                    .into_iter()
                    .chain(Card::all().flat_map(|c| [Move::Discard(c), Move::Knock(c)]))
                    {
                        let mut after = hand.clone();
                        let accepted =
                            action_of(view.phase, mv).is_some_and(|a| after.apply(seat, a).is_ok());
                        // A move is legal only if the hand can go on after it.
                        let stuck = accepted
                            && after.phase().seat() == Some(seat)
                            && legal_moves(&after.view(seat)).is_empty();
                        assert!(!stuck, "{mv} leaves no legal move");
                        assert_eq!(accepted, legal.contains(&mv), "{mv} in {:?}", view.phase);
                    }
                    // Walk on with a varied legal move, mostly discards.
                    let mv = legal[(seed as usize + step) % legal.len()];
                    step += 1;
                    let phase = view.phase;
                    let action = action_of(phase, mv).unwrap();
                    assert_eq!(move_of(phase, action), mv);
                    hand.apply(seat, action).unwrap();
                }
            }
        }
        assert!(last_chances > 0, "the walk reached the stock end");
    }

    #[test]
    fn rules_round_trip_through_the_table() {
        for name in crate::rules::PRESETS {
            let rules = Rules::preset(name).unwrap();
            assert_eq!(rules_from_table(&rules_table(&rules)).unwrap(), rules);
        }
        assert!(rules_from_table(&json!({"gin_bonus": "x"})).is_err());
        assert!(rules_from_table(&json!({"no_such": 1})).is_err());
        assert!(rules_from_table(&json!([1])).is_err());
    }

    /// Values with no TOML form (found by tests/fuzz.rs): the error names the
    /// knob and what it takes, not "null" for a huge number.
    #[test]
    fn knob_table_values_without_toml_form() {
        for value in [json!(null), json!(u64::MAX), json!([1, null])] {
            let e = rules_from_table(&json!({ "gin_bonus": value.clone() })).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("bad value {value} for `gin_bonus`: it takes an integer 0 to 1000")
            );
        }
        let e = rules_from_table(&json!({ "gin_bonsu": null })).unwrap_err();
        assert!(e.to_string().contains("unknown knob `gin_bonsu`"), "{e}");
    }
}
