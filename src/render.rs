//! One player's view as the text a person reads at the table: the state
//! block and question `ginlab play` prints before each decision, and the
//! legal answers in words. Pure functions of a [`PlayerView`], so the CLI's
//! table and Python's `render_mode="ansi"` show the same text and neither
//! can show more than the view.

use crate::engine::{Phase, PlayerView, big_gin_legal, legal_discards, pile_allowed};
use crate::{Arrangement, Card, CardSet, meld};

/// The knocks `view` allows at the end of its turn: each legal discard that
/// leaves deadwood within the knock limit, with that deadwood.
#[must_use]
pub fn knocks(view: &PlayerView<'_>) -> Vec<(Card, u8)> {
    legal_discards(view)
        .iter()
        .map(|card| (card, meld::deadwood(view.hand.without(card))))
        .filter(|&(_, deadwood)| deadwood <= view.knock_limit)
        .collect()
}

/// The pile top's name, or `-` for an empty pile.
#[must_use]
pub fn pile_top(view: &PlayerView<'_>) -> String {
    view.pile_top()
        .map_or_else(|| "-".into(), |c| c.to_string())
}

/// Whether taking the last discard ([`Phase::LastChance`]) leaves a knock
/// or big gin: it may only be taken for that.
#[must_use]
pub fn last_discard_knocks(view: &PlayerView<'_>) -> bool {
    let Some(card) = view.pile_top() else {
        return false;
    };
    let hand = view.hand.with(card);
    let big_gin = view.rules.big_gin_bonus.is_some() && meld::is_big_gin(hand);
    big_gin
        || view
            .hand
            .iter()
            .any(|c| meld::deadwood(hand.without(c)) <= view.knock_limit)
}

/// The legal answers at `view`'s decision, as one line.
#[must_use]
pub fn legal_answers(view: &PlayerView<'_>) -> String {
    match view.phase {
        Phase::UpcardOffer { .. } => format!("y (take {}) or n (pass)", pile_top(view)),
        Phase::Draw { .. } if pile_allowed(view) => {
            format!("s (the stock) or p (take {} from the pile)", pile_top(view))
        }
        Phase::Draw { .. } => "s (the stock; the pile is not open now)".into(),
        Phase::LastChance { .. } if last_discard_knocks(view) => format!(
            "y (take {}, then knock or go gin) or n (pass: the hand is void)",
            pile_top(view)
        ),
        Phase::LastChance { .. } => format!(
            "n (pass: the hand is void; taking {} would leave no knock)",
            pile_top(view)
        ),
        Phase::EndTurn { must_knock, .. } => end_turn_answers(view, must_knock),
        Phase::Over => "none (the hand is over)".into(),
    }
}

fn end_turn_answers(view: &PlayerView<'_>, must_knock: bool) -> String {
    let mut parts = Vec::new();
    if !must_knock {
        parts.push(match view.taken_from_pile {
            Some(card) => format!("a card to discard (any but {card}, just taken)"),
            None => "a card to discard (any of yours)".into(),
        });
    }
    let knocks = knocks(view);
    if !knocks.is_empty() {
        let list: Vec<String> = knocks
            .iter()
            .map(|&(card, deadwood)| match deadwood {
                0 => format!("k {card} (gin)"),
                d => format!("k {card} (deadwood {d})"),
            })
            .collect();
        parts.push(format!("knock: {}", list.join(", ")));
    } else if let Some(least) = legal_discards(view)
        .iter()
        .map(|card| meld::deadwood(view.hand.without(card)))
        .min()
    {
        parts.push(format!(
            "no knock yet (the least deadwood after a discard is {least}, the limit {})",
            view.knock_limit
        ));
    }
    if big_gin_legal(view) {
        parts.push("gin (big gin: all 11 cards meld)".into());
    }
    parts.join("; ")
}

/// A hand's cards sorted with melds marked, and its deadwood.
#[must_use]
pub fn arranged(arrangement: &Arrangement) -> String {
    format!("{arrangement}   deadwood {}", arrangement.deadwood())
}

/// `hand` in its best arrangement (the solver's), and its deadwood.
#[must_use]
pub fn best(hand: CardSet) -> String {
    arranged(&meld::best_arrangement(hand))
}

/// What a person sees before a decision, one line each: the stock and pile
/// and what is known of the opponent's (`them`) hand; their own hand
/// arranged; at the end of a turn, the legal answers.
#[must_use]
pub fn table(view: &PlayerView<'_>, them: &str) -> String {
    let top = view
        .pile_top()
        .map_or_else(|| "empty".to_owned(), |c| format!("top {c}"));
    let known = if view.opponent_known.is_empty() {
        "none known".to_owned()
    } else {
        format!("known: {}", view.opponent_known)
    };
    let mut text = format!(
        "Stock {} · pile {} ({top}) · {them} holds {} cards, {known}\nYour hand  {}\n",
        view.stock_size,
        view.pile.len(),
        view.opponent_cards,
        best(view.hand)
    );
    if let Phase::EndTurn { .. } = view.phase {
        text.push_str(&format!("Legal: {}\n", legal_answers(view)));
    }
    text
}

/// The question a decision asks (empty when the view has none).
#[must_use]
pub fn question(view: &PlayerView<'_>) -> String {
    let top = view.pile_top().map_or_else(String::new, |c| c.to_string());
    match view.phase {
        Phase::UpcardOffer { .. } => format!("Take the upcard {top}? [y/n]"),
        Phase::Draw { .. } => format!("Draw from the stock or take {top} from the pile? [s/p]"),
        Phase::LastChance { .. } => {
            format!("The stock is down to 2: take the last discard {top} to knock? [y/n]")
        }
        Phase::EndTurn { .. } => "Discard a card, or k CARD to knock".to_owned(),
        Phase::Over => String::new(),
    }
}
