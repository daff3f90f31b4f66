//! The integer action ids of the Python API, and which are legal in a view.
//!
//! | id        | action                                                  |
//! |-----------|---------------------------------------------------------|
//! | 0..52     | discard card `id` face up                               |
//! | 52..104   | knock (or go gin), discarding card `id - 52` face down |
//! | 104       | draw from the stock (at the stock end: pass, void hand)  |
//! | 105       | take the pile top (at the stock end: take it to knock)   |
//! | 106, 107  | take / pass the upcard                                  |
//! | 108       | big gin (knock with all 11 cards)                       |
//!
//! A card's id is `13 * suit + rank` (suits C, D, H, S; ranks A..K), the
//! engine's [`Card::index`].

use ginlab::cards::Card;
use ginlab::engine::{
    Action, DrawSource, Phase, PlayerView, TurnEnd, big_gin_legal, legal_discards, pile_allowed,
};
use ginlab::meld;

/// How many action ids there are.
pub const ACTIONS: usize = 109;
/// Knock ids start here.
pub const KNOCK: u16 = 52;
/// Draw from the stock, or pass the last discard.
pub const DRAW_STOCK: u16 = 104;
/// Take the pile top.
pub const DRAW_PILE: u16 = 105;
/// Take the upcard.
pub const TAKE_UPCARD: u16 = 106;
/// Pass the upcard.
pub const PASS_UPCARD: u16 = 107;
/// Big gin.
pub const BIG_GIN: u16 = 108;

/// The id of `action`.
#[must_use]
pub fn encode(action: Action) -> u16 {
    match action {
        Action::TakeUpcard(true) => TAKE_UPCARD,
        Action::TakeUpcard(false) => PASS_UPCARD,
        Action::Draw(DrawSource::Stock) => DRAW_STOCK,
        Action::Draw(DrawSource::Pile) => DRAW_PILE,
        Action::EndTurn(TurnEnd::Discard(card)) => u16::from(card.index()),
        Action::EndTurn(TurnEnd::Knock(card)) => KNOCK + u16::from(card.index()),
        Action::EndTurn(TurnEnd::BigGin) => BIG_GIN,
    }
}

/// The action of `id`, if it is one.
#[must_use]
pub fn decode(id: i64) -> Option<Action> {
    let card = |i: i64| Card::from_index(u8::try_from(i).ok()?);
    Some(match id {
        0..52 => Action::EndTurn(TurnEnd::Discard(card(id)?)),
        52..104 => Action::EndTurn(TurnEnd::Knock(card(id - 52)?)),
        104 => Action::Draw(DrawSource::Stock),
        105 => Action::Draw(DrawSource::Pile),
        106 => Action::TakeUpcard(true),
        107 => Action::TakeUpcard(false),
        108 => Action::EndTurn(TurnEnd::BigGin),
        _ => return None,
    })
}

/// Calls `legal` with every legal action id of `view`, in increasing order
/// (nothing when the view is not at its own decision).
pub fn for_each_legal(view: &PlayerView<'_>, mut legal: impl FnMut(u16)) {
    match view.phase {
        Phase::UpcardOffer { .. } => {
            legal(TAKE_UPCARD);
            legal(PASS_UPCARD);
        }
        Phase::Draw { .. } | Phase::LastChance { .. } => {
            legal(DRAW_STOCK);
            if pile_allowed(view) {
                legal(DRAW_PILE);
            }
        }
        Phase::EndTurn { must_knock, .. } => {
            let discards = legal_discards(view);
            if !must_knock {
                discards.iter().for_each(|c| legal(u16::from(c.index())));
            }
            for card in knocks(view.hand, discards, view.knock_limit) {
                legal(KNOCK + u16::from(card.index()));
            }
            if big_gin_legal(view) {
                legal(BIG_GIN);
            }
        }
        Phase::Over => {}
    }
}

/// The cards of `discards` that `hand` may knock with: the deadwood left
/// is at most `limit`. One solve rules most hands out; a card in no meld
/// lowers the deadwood by its own value, so only meldable cards need a
/// solve of their own.
fn knocks(
    hand: ginlab::CardSet,
    discards: ginlab::CardSet,
    limit: u8,
) -> impl Iterator<Item = Card> {
    let reachable = meld::best_discard(hand).is_some_and(|best| best.deadwood <= limit);
    let (full, meldable) = if reachable {
        (meld::deadwood(hand), meld::meldable(hand))
    } else {
        (0, ginlab::CardSet::EMPTY)
    };
    discards.iter().filter(move |&card| {
        reachable
            && if meldable.contains(card) {
                meld::deadwood(hand.without(card)) <= limit
            } else {
                full.saturating_sub(card.value()) <= limit
            }
    })
}

/// The legal action ids of `view`.
#[must_use]
pub fn legal_ids(view: &PlayerView<'_>) -> Vec<u16> {
    let mut ids = Vec::with_capacity(16);
    for_each_legal(view, |id| ids.push(id));
    ids
}

/// Writes the legal-action mask of `view` into `mask` (length [`ACTIONS`]).
pub fn write_mask(view: &PlayerView<'_>, mask: &mut [bool]) {
    mask.fill(false);
    for_each_legal(view, |id| mask[usize::from(id)] = true);
}

/// A short name of action `id` for messages ("discard 7H", "draw stock").
#[must_use]
pub fn describe(id: i64) -> String {
    match decode(id) {
        Some(Action::EndTurn(TurnEnd::Discard(c))) => format!("discard {c}"),
        Some(Action::EndTurn(TurnEnd::Knock(c))) => format!("knock discarding {c}"),
        Some(Action::EndTurn(TurnEnd::BigGin)) => "big gin".into(),
        Some(Action::Draw(DrawSource::Stock)) => "draw stock".into(),
        Some(Action::Draw(DrawSource::Pile)) => "take the pile top".into(),
        Some(Action::TakeUpcard(true)) => "take the upcard".into(),
        Some(Action::TakeUpcard(false)) => "pass the upcard".into(),
        None => format!("{id} (not an action id: 0..{ACTIONS})"),
    }
}
