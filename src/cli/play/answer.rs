//! A person's answers at the table: the short forms each decision takes,
//! checked against the rules before anything reaches the engine, and the
//! message for a bad one (what was typed, why it is wrong, what is legal).
//!
//! | decision | answers |
//! |---|---|
//! | upcard offer | `y` / `yes` / `take`, `n` / `no` / `pass` |
//! | draw | `s` / `stock`, `p` / `pile` |
//! | last discard (stock end) | `y` / `take` (then knock), `n` / `pass` |
//! | end of turn | `7h` / `d 7h` / `discard 7h`; `k 7h` / `knock 7h`; `gin` (big gin) |
//! | any | `help` / `h` / `?`, `quit` / `q` |
//!
//! Words are case-insensitive; cards are written as everywhere else
//! (`7h`, `TD`, `10d`, `A♠`).

use ginlab::engine::{Action, DrawSource, Phase, PlayerView, TurnEnd, big_gin_legal, pile_allowed};
pub use ginlab::render::legal_answers;
use ginlab::render::{knocks, last_discard_knocks, pile_top as top};
use ginlab::{Card, meld};

/// What an answer asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Play this action; it is legal in the view it was parsed against.
    Act(Action),
    /// Show the help for this decision.
    Help,
    /// Stop the game now.
    Quit,
}

/// Reads one answer to `view`'s decision.
///
/// # Errors
/// A message naming what was typed, why it is not legal here, and the legal
/// answers.
pub fn parse(text: &str, view: &PlayerView<'_>) -> Result<Reply, String> {
    let lower = text.trim().to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let reply = match words.as_slice() {
        ["help" | "h" | "?"] => Ok(Reply::Help),
        ["quit" | "q" | "exit"] => Ok(Reply::Quit),
        [] => Err("an empty answer".to_owned()),
        _ => match view.phase {
            Phase::UpcardOffer { .. } => yes_no(&words).map(Action::TakeUpcard),
            Phase::Draw { .. } => draw(&words, view),
            Phase::LastChance { .. } => match yes_no(&words) {
                Ok(true) if !last_discard_knocks(view) => {
                    Err(format!("taking {} would leave no knock", top(view)))
                }
                Ok(true) => Ok(Action::Draw(DrawSource::Pile)),
                Ok(false) => Ok(Action::Draw(DrawSource::Stock)),
                Err(e) => Err(e),
            },
            Phase::EndTurn { must_knock, .. } => end_turn(&words, view, must_knock),
            Phase::Over => Err("the hand is over".to_owned()),
        }
        .map(Reply::Act),
    };
    reply.map_err(|why| {
        let shown = text.trim();
        let what = if shown.is_empty() {
            why
        } else {
            format!("`{}`: {why}", ginlab::echo::echo(shown))
        };
        format!("{what}. Answer {}; or help, quit.", legal_answers(view))
    })
}

const UNKNOWN: &str = "not an answer to this question";

fn yes_no(words: &[&str]) -> Result<bool, String> {
    match words {
        ["y" | "yes" | "take"] => Ok(true),
        ["n" | "no" | "pass"] => Ok(false),
        _ => Err(UNKNOWN.to_owned()),
    }
}

fn draw(words: &[&str], view: &PlayerView<'_>) -> Result<Action, String> {
    match words {
        ["s" | "stock"] => Ok(Action::Draw(DrawSource::Stock)),
        ["p" | "pile"] if pile_allowed(view) => Ok(Action::Draw(DrawSource::Pile)),
        ["p" | "pile"] if view.pile.is_empty() => Err("the pile is empty".to_owned()),
        ["p" | "pile"] => {
            Err("both players passed the upcard, so this draw is from the stock".to_owned())
        }
        _ => Err(UNKNOWN.to_owned()),
    }
}

fn end_turn(words: &[&str], view: &PlayerView<'_>, must_knock: bool) -> Result<Action, String> {
    let (knock, card) = match words {
        ["gin"] => return big_gin(view).map(|()| Action::EndTurn(TurnEnd::BigGin)),
        ["k" | "knock"] => return Err("name the card to discard face down, e.g. `k 7h`".into()),
        ["k" | "knock", card] => (true, card.parse::<Card>()),
        ["d" | "discard", card] => (false, card.parse::<Card>()),
        [card] => match card.parse::<Card>() {
            Ok(card) => (false, Ok(card)),
            Err(_) => return Err(format!("{UNKNOWN} (a discard is a card, e.g. `7h`)")),
        },
        _ => return Err(UNKNOWN.to_owned()),
    };
    let card = card.map_err(|e| e.to_string())?;
    if !view.hand.contains(card) {
        return Err(format!("you do not hold {card}"));
    }
    if view.taken_from_pile == Some(card) {
        return Err(format!(
            "{card} was just taken from the pile and cannot be discarded this turn"
        ));
    }
    if knock {
        let deadwood = meld::deadwood(view.hand.without(card));
        if deadwood > view.knock_limit {
            return Err(format!(
                "discarding {card} leaves deadwood {deadwood}, over the knock limit {}",
                view.knock_limit
            ));
        }
        return Ok(Action::EndTurn(TurnEnd::Knock(card)));
    }
    if must_knock {
        return Err("you took the last discard, so you must knock now".to_owned());
    }
    Ok(Action::EndTurn(TurnEnd::Discard(card)))
}

fn big_gin(view: &PlayerView<'_>) -> Result<(), String> {
    if big_gin_legal(view) {
        return Ok(());
    }
    let why = if view.rules.big_gin_bonus.is_none() {
        "big gin is not played under these rules".to_owned()
    } else if !ginlab::engine::big_gin_turn(view.rules, view.turn) {
        "big gin comes only after a draw: this first turn is a discard or a knock".to_owned()
    } else {
        format!(
            "big gin needs all 11 cards melded; yours leave deadwood {}",
            meld::deadwood(view.hand)
        )
    };
    match knocks(view).iter().find(|&&(_, deadwood)| deadwood == 0) {
        Some((card, _)) => Err(format!("{why} (to go gin, knock: `k {card}`)")),
        None => Err(why),
    }
}

#[cfg(test)]
mod tests {
    use ginlab::Rules;
    use ginlab::engine::{Deck, Hand, Seat};

    use super::*;

    /// A hand dealt by B from `top` (top first), the rest of the deck
    /// following in index order. A gets the even cards, B the odd ones, the
    /// 21st is the upcard.
    fn dealt<'r>(rules: &'r Rules, top: &str) -> Hand<'r> {
        let top: Vec<Card> = top.split_whitespace().map(card).collect();
        let rest = Card::all().filter(|c| !top.contains(c));
        let text: Vec<String> = top
            .iter()
            .copied()
            .chain(rest)
            .map(|c| c.to_string())
            .collect();
        let deck: Deck = text.join(" ").parse().unwrap();
        Hand::new(rules, &deck, Seat::B, [0, 0]).unwrap()
    }

    /// The hand dealt from `top` after A took the upcard.
    fn upcard_taken<'r>(rules: &'r Rules, top: &str) -> Hand<'r> {
        let mut hand = dealt(rules, top);
        hand.apply(Seat::A, Action::TakeUpcard(true)).unwrap();
        hand
    }

    /// A: AC..9C and TH; B: AD..9D and KH; upcard 4H; the stock starts TC.
    const DEAL: &str = "AC AD 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D 8C 8D 9C 9D TH KH 4H";

    /// A: AC..9C and 9D; upcard 9S (taking it makes all 11 meld); the stock
    /// starts KS.
    const NINES: &str = "AC AD 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D 8C 8D 9C TD 9D JD 9S KS";

    fn act(text: &str, view: &PlayerView<'_>) -> Result<Action, String> {
        match parse(text, view)? {
            Reply::Act(action) => Ok(action),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    fn discard(text: &str) -> Result<Action, String> {
        Ok(Action::EndTurn(TurnEnd::Discard(card(text))))
    }

    fn knock(text: &str) -> Result<Action, String> {
        Ok(Action::EndTurn(TurnEnd::Knock(card(text))))
    }

    #[test]
    fn upcard_answers() {
        let rules = Rules::standard();
        let hand = dealt(&rules, DEAL);
        let view = hand.view(Seat::A);
        for yes in ["y", "Y", "yes", " take "] {
            assert_eq!(act(yes, &view), Ok(Action::TakeUpcard(true)), "{yes}");
        }
        for no in ["n", "NO", "pass"] {
            assert_eq!(act(no, &view), Ok(Action::TakeUpcard(false)), "{no}");
        }
        let error = parse("maybe", &view).unwrap_err();
        assert!(error.starts_with("`maybe`: not an answer"), "{error}");
        assert!(
            error.ends_with("Answer y (take 4H) or n (pass); or help, quit."),
            "{error}"
        );
        let error = parse("s", &view).unwrap_err();
        assert!(error.starts_with("`s`: not an answer"), "{error}");
        let error = parse("   ", &view).unwrap_err();
        assert!(error.starts_with("an empty answer. Answer y"), "{error}");
    }

    #[test]
    fn help_and_quit_anywhere() {
        let rules = Rules::standard();
        let mut hand = dealt(&rules, DEAL);
        let check = |view: &PlayerView<'_>| {
            for text in ["help", "h", "?", "HELP"] {
                assert_eq!(parse(text, view), Ok(Reply::Help));
            }
            for text in ["quit", "q", "Exit"] {
                assert_eq!(parse(text, view), Ok(Reply::Quit));
            }
        };
        check(&hand.view(Seat::A));
        hand.apply(Seat::A, Action::TakeUpcard(true)).unwrap();
        check(&hand.view(Seat::A));
    }

    #[test]
    fn draw_answers() {
        let rules = Rules::standard();
        let mut hand = dealt(&rules, DEAL);
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        // Both passed: A must draw from the stock.
        let view = hand.view(Seat::A);
        assert_eq!(act("s", &view), Ok(Action::Draw(DrawSource::Stock)));
        let error = parse("p", &view).unwrap_err();
        assert!(
            error.starts_with("`p`: both players passed the upcard"),
            "{error}"
        );
        assert!(
            error.contains("Answer s (the stock; the pile is not open now)"),
            "{error}"
        );
        hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
            .unwrap();
        hand.apply(Seat::A, discard("TH").unwrap()).unwrap();
        hand.apply(Seat::B, Action::Draw(DrawSource::Stock))
            .unwrap();
        hand.apply(Seat::B, discard("KH").unwrap()).unwrap();
        let view = hand.view(Seat::A);
        assert_eq!(act("P", &view), Ok(Action::Draw(DrawSource::Pile)));
        assert_eq!(act("pile", &view), Ok(Action::Draw(DrawSource::Pile)));
        assert_eq!(act("stock", &view), Ok(Action::Draw(DrawSource::Stock)));
        let error = parse("y", &view).unwrap_err();
        assert!(
            error.contains("Answer s (the stock) or p (take KH from the pile)"),
            "{error}"
        );
    }

    #[test]
    fn end_turn_answers() {
        let rules = Rules::standard();
        let hand = upcard_taken(&rules, DEAL);
        // A holds AC..9C, TH and 4H (just taken): only discarding TH leaves
        // deadwood within 10 (4H, which may not go this turn).
        let view = hand.view(Seat::A);
        assert_eq!(act("th", &view), discard("TH"));
        assert_eq!(act("d 10h", &view), discard("TH"));
        assert_eq!(act("Discard 9♣", &view), discard("9C"));
        assert_eq!(act("k TH", &view), knock("TH"));
        assert_eq!(act("knock th", &view), knock("TH"));
        assert_eq!(knocks(&view), vec![(card("TH"), 4)]);
        let bad = |text: &str, needle: &str| {
            let error = parse(text, &view).unwrap_err();
            assert!(error.starts_with(&format!("`{text}`: {needle}")), "{error}");
            assert!(
                error.ends_with(
                    "Answer a card to discard (any but 4H, just taken); \
                     knock: k TH (deadwood 4); or help, quit."
                ),
                "{error}"
            );
        };
        bad("4h", "4H was just taken from the pile");
        bad("k 4h", "4H was just taken from the pile");
        bad("KS", "you do not hold KS");
        bad(
            "7x",
            "not an answer to this question (a discard is a card, e.g. `7h`)",
        );
        bad("k 7x", "invalid card `7x`: unknown suit");
        bad("d 1h", "invalid card `1h`: unknown rank");
        bad(
            "k 9c",
            "discarding 9C leaves deadwood 14, over the knock limit 10",
        );
        bad("k", "name the card to discard face down");
        bad("gin", "big gin is not played under these rules");
        bad("discard 3c 4c", "not an answer to this question");
        bad("s", "not an answer to this question (a discard");
    }

    #[test]
    fn gin_and_big_gin() {
        // Standard: no big gin, but `gin` points at the knock that is gin.
        let rules = Rules::standard();
        let hand = upcard_taken(&rules, NINES);
        let view = hand.view(Seat::A);
        let error = parse("gin", &view).unwrap_err();
        assert!(
            error.starts_with(
                "`gin`: big gin is not played under these rules (to go gin, knock: `k AC`)"
            ),
            "{error}"
        );
        assert!(error.contains("k AC (gin)"), "{error}");
        // Hoyle: big gin.
        let rules = Rules::hoyle();
        let hand = upcard_taken(&rules, NINES);
        let view = hand.view(Seat::A);
        assert_eq!(act("GIN", &view), Ok(Action::EndTurn(TurnEnd::BigGin)));
        assert!(legal_answers(&view).ends_with("; gin (big gin: all 11 cards meld)"));
        // Drawing KS instead: no big gin.
        let mut hand = dealt(&rules, NINES);
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
            .unwrap();
        let view = hand.view(Seat::A);
        let error = parse("gin", &view).unwrap_err();
        assert!(
            error.starts_with("`gin`: big gin needs all 11 cards melded; yours leave deadwood 19."),
            "{error}"
        );
    }

    /// `rules` played from [`DEAL`] to the stock end: both pass the upcard,
    /// then each draws from the stock and discards what it drew.
    fn at_stock_end(rules: &Rules) -> Hand<'_> {
        let mut hand = dealt(rules, DEAL);
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        while let Phase::Draw { seat, .. } = hand.phase() {
            let held = hand.cards(seat);
            hand.apply(seat, Action::Draw(DrawSource::Stock)).unwrap();
            let drawn = (hand.cards(seat) - held).first().unwrap();
            hand.apply(seat, discard(&drawn.to_string()).unwrap())
                .unwrap();
        }
        hand
    }

    #[test]
    fn last_discard_answers() {
        let rules = Rules {
            last_discard_action: true,
            ..Rules::standard()
        };
        let mut hand = at_stock_end(&rules);
        let Phase::LastChance { seat } = hand.phase() else {
            panic!("not at the last discard: {:?}", hand.phase());
        };
        // The seat still holds its deal (a 9-card run and one card), so
        // taking any card leaves a knock.
        let view = hand.view(seat);
        assert_eq!(act("y", &view), Ok(Action::Draw(DrawSource::Pile)));
        assert_eq!(act("pass", &view), Ok(Action::Draw(DrawSource::Stock)));
        let error = parse("s", &view).unwrap_err();
        assert!(
            error
                .contains("Answer y (take JS, then knock or go gin) or n (pass: the hand is void)"),
            "{error}"
        );
        hand.apply(seat, Action::Draw(DrawSource::Pile)).unwrap();
        let view = hand.view(seat);
        let error = parse("KH", &view).unwrap_err();
        assert!(
            error.starts_with("`KH`: you took the last discard, so you must knock now."),
            "{error}"
        );
        assert_eq!(act("k kh", &view), knock("KH"));
        assert!(legal_answers(&view).starts_with("knock: k KH (deadwood 10)"));
        // Under straight gin, taking JS gives B no gin: only passing is legal.
        let rules = Rules {
            knock_limit: ginlab::rules::KnockLimit::Fixed(0),
            ..rules
        };
        let hand = at_stock_end(&rules);
        let view = hand.view(seat);
        let error = parse("y", &view).unwrap_err();
        assert_eq!(
            error,
            "`y`: taking JS would leave no knock. \
             Answer n (pass: the hand is void; taking JS would leave no knock); or help, quit."
        );
    }
}
