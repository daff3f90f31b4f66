//! [`Move`]s: the answers a bot may give, the legal ones at a decision,
//! and their engine actions.

use std::fmt;
use std::str::FromStr;

use crate::cards::Card;
use crate::engine::{
    Action, DrawSource, Phase, PlayerView, TurnEnd, big_gin_legal, legal_discards, pile_allowed,
};
use crate::meld;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Deck, Hand, Seat};
    use crate::rules::Rules;

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
}
