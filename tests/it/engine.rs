//! Scenario tests, one rule each, on dealt decks: the hand is driven action by
//! action through `Hand::apply`, so every rule of RULES.md "One hand" and
//! "Hand score" is exercised on a known deal.

use ginlab::engine::{
    Action, Deck, DrawSource, HandEnd, HandOutcome, IllegalAction, Phase, Seat, TurnEnd, VoidReason,
};
use ginlab::engine::{Hand, Side};
use ginlab::rules::{Deal, NextDealer, Rules};
use ginlab::{Card, CardSet, meld};

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn cards(s: &str) -> CardSet {
    s.parse().unwrap()
}

/// A deck dealing `non_dealer` and `dealer` (10 cards each), then `upcard`
/// (for the eleven-card deal: the non-dealer's 11th card), then `stock` on
/// top of the stock, then every other card in index order.
fn deck(non_dealer: &str, dealer: &str, upcard: &str, stock: &str) -> Deck {
    let stock: Vec<Card> = stock.split_whitespace().map(card).collect();
    Deck::arranged(cards(non_dealer), cards(dealer), card(upcard), &stock).unwrap()
}

const A: Seat = Seat::A;
const B: Seat = Seat::B;

fn take(hand: &mut Hand<'_>, seat: Seat, yes: bool) {
    hand.apply(seat, Action::TakeUpcard(yes)).unwrap();
}

fn draw(hand: &mut Hand<'_>, seat: Seat, source: DrawSource) {
    hand.apply(seat, Action::Draw(source)).unwrap();
}

fn end(hand: &mut Hand<'_>, seat: Seat, end: TurnEnd) -> Result<(), IllegalAction> {
    hand.apply(seat, Action::EndTurn(end))
}

/// The usual opening: A (non-dealer) and B pass, A draws from the stock.
fn pass_and_draw(hand: &mut Hand<'_>) {
    take(hand, A, false);
    take(hand, B, false);
    draw(hand, A, DrawSource::Stock);
}

fn showdown_of(hand: &Hand<'_>) -> (Seat, ginlab::Showdown, ginlab::HandScore) {
    match hand.outcome() {
        Some(HandOutcome::Showdown {
            knocker,
            showdown,
            score,
        }) => (*knocker, *showdown, *score),
        other => panic!("expected a showdown, got {other:?}"),
    }
}

const A_HAND: &str = "AS 2S 3S 2H 3H 4H KC KD KH 5D"; // deadwood 5
const B_TIE: &str = "7C 8C 9C TD JD QD QC QH QS 5C"; // deadwood 5

#[test]
fn deal_order_and_upcard() {
    let rules = Rules::standard();
    let d = deck(A_HAND, B_TIE, "2C", "JS");
    let hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    assert_eq!(hand.cards(A), cards(A_HAND));
    assert_eq!(hand.cards(B), cards(B_TIE));
    assert_eq!(hand.upcard(), Some(card("2C")));
    assert_eq!(hand.pile(), [card("2C")]);
    assert_eq!(hand.stock().len(), 31);
    assert_eq!(hand.stock()[0], card("JS"));
    assert_eq!(hand.phase(), Phase::UpcardOffer { seat: A });
}

#[test]
fn upcard_taken_by_non_dealer_cannot_be_discarded() {
    let rules = Rules::standard();
    let d = deck(A_HAND, B_TIE, "KS", "JS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    take(&mut hand, A, true);
    assert_eq!(
        hand.phase(),
        Phase::EndTurn {
            seat: A,
            must_knock: false
        }
    );
    assert_eq!(
        end(&mut hand, A, TurnEnd::Discard(card("KS"))),
        Err(IllegalAction::JustTaken(card("KS")))
    );
    assert_eq!(
        end(&mut hand, A, TurnEnd::Discard(card("9H"))),
        Err(IllegalAction::NotHeld(card("9H")))
    );
    end(&mut hand, A, TurnEnd::Discard(card("5D"))).unwrap();
    // The dealer now has a normal turn and sees the king it cannot get.
    assert_eq!(
        hand.phase(),
        Phase::Draw {
            seat: B,
            stock_only: false
        }
    );
    assert_eq!(hand.view(B).opponent_known, cards("KS"));
    assert_eq!(hand.view(B).pile_top(), Some(card("5D")));
}

#[test]
fn upcard_passed_then_taken_by_dealer() {
    let rules = Rules::standard();
    let d = deck(A_HAND, B_TIE, "KS", "JS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    // The dealer cannot answer first.
    assert!(matches!(
        hand.apply(B, Action::TakeUpcard(true)),
        Err(IllegalAction::WrongPhase(_))
    ));
    take(&mut hand, A, false);
    assert_eq!(hand.phase(), Phase::UpcardOffer { seat: B });
    take(&mut hand, B, true);
    end(&mut hand, B, TurnEnd::Discard(card("5C"))).unwrap();
    assert_eq!(
        hand.phase(),
        Phase::Draw {
            seat: A,
            stock_only: false
        }
    );
}

#[test]
fn both_pass_non_dealer_draws_from_stock() {
    let rules = Rules::standard();
    let d = deck(A_HAND, B_TIE, "2C", "JS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    take(&mut hand, A, false);
    take(&mut hand, B, false);
    assert_eq!(
        hand.phase(),
        Phase::Draw {
            seat: A,
            stock_only: true
        }
    );
    assert!(matches!(
        hand.apply(A, Action::Draw(DrawSource::Pile)),
        Err(IllegalAction::Pile(_))
    ));
    draw(&mut hand, A, DrawSource::Stock);
    assert!(hand.cards(A).contains(card("JS")));
}

#[test]
fn card_taken_from_pile_cannot_be_discarded_that_turn() {
    let rules = Rules::standard();
    let d = deck(A_HAND, B_TIE, "2C", "JS 9S");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Discard(card("JS"))).unwrap();
    draw(&mut hand, B, DrawSource::Pile);
    assert_eq!(hand.view(B).taken_from_pile, Some(card("JS")));
    assert_eq!(
        end(&mut hand, B, TurnEnd::Discard(card("JS"))),
        Err(IllegalAction::JustTaken(card("JS")))
    );
    assert_eq!(
        end(&mut hand, B, TurnEnd::Knock(card("JS"))),
        Err(IllegalAction::JustTaken(card("JS")))
    );
    end(&mut hand, B, TurnEnd::Discard(card("5C"))).unwrap();
    // It may be discarded on a later turn.
    draw(&mut hand, A, DrawSource::Stock);
    end(&mut hand, A, TurnEnd::Discard(card("9S"))).unwrap();
    draw(&mut hand, B, DrawSource::Stock);
    end(&mut hand, B, TurnEnd::Discard(card("JS"))).unwrap();
}

#[test]
fn knock_over_the_limit_is_illegal() {
    let rules = Rules::standard();
    let d = deck("AS 2S 3S 2H 3H 4H KC KD 9D 5D", B_TIE, "2C", "JS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    assert_eq!(
        end(&mut hand, A, TurnEnd::Knock(card("5D"))),
        Err(IllegalAction::OverLimit {
            deadwood: 39,
            limit: 10
        })
    );
    // Nothing changed: A still holds 11 cards and may discard instead.
    assert_eq!(hand.cards(A).len(), 11);
    end(&mut hand, A, TurnEnd::Discard(card("JS"))).unwrap();
}

/// A knocks with 5, B holds 5: an undercut, or a scoreless tie without the knob.
fn tie_hand(rules: &Rules) -> (Seat, ginlab::Showdown, ginlab::HandScore) {
    let d = deck(A_HAND, B_TIE, "2C", "JS");
    let mut hand = Hand::new(rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Knock(card("JS"))).unwrap();
    assert_eq!(hand.phase(), Phase::Over);
    assert_eq!(hand.face_down(), Some(card("JS")));
    showdown_of(&hand)
}

#[test]
fn undercut_on_tie_and_the_knob() {
    let (knocker, s, score) = tie_hand(&Rules::standard());
    assert_eq!(knocker, A);
    assert_eq!((s.knocker_deadwood(), s.defender_deadwood()), (5, 5));
    assert_eq!(
        (score.end, score.winner, score.points),
        (HandEnd::Undercut, Some(Side::Defender), 10)
    );
    let off = Rules {
        undercut_on_tie: false,
        ..Rules::standard()
    };
    let (_, _, score) = tie_hand(&off);
    assert_eq!(
        (score.end, score.winner, score.points),
        (HandEnd::Tie, None, 0)
    );
    let (_, _, score) = tie_hand(&Rules::hoyle());
    assert_eq!(score.points, 25);
}

#[test]
fn undercut_by_lower_deadwood() {
    let rules = Rules::standard();
    let d = deck(A_HAND, "7C 8C 9C TD JD QD QC QH QS 3C", "2C", "JS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Knock(card("JS"))).unwrap();
    let (_, _, score) = showdown_of(&hand);
    assert_eq!(
        (score.end, score.winner, score.points),
        (HandEnd::Undercut, Some(Side::Defender), 2 + 10)
    );
}

#[test]
fn gin_is_never_undercut() {
    let rules = Rules::standard();
    // B: [6C 7C 8C 9C] [TD JD QD] [QC QH QS] = 0 deadwood.
    let d = deck(
        "AS 2S 3S 2H 3H 4H KC KD KH KS",
        "6C 7C 8C 9C TD JD QD QC QH QS",
        "2C",
        "JS",
    );
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Knock(card("JS"))).unwrap();
    let (_, s, score) = showdown_of(&hand);
    assert!(s.is_gin() && s.layoffs.is_empty());
    assert_eq!(
        (score.end, score.winner, score.points),
        (HandEnd::Gin, Some(Side::Knocker), 20)
    );
}

#[test]
fn chained_lay_offs_in_play() {
    let rules = Rules::standard();
    let d = deck(
        "5S 6S 7S 2H 3H 4H KC KD KH 3D",
        "8S 9S JS QD QH 4C 4D 7H 9C JC",
        "2C",
        "TC",
    );
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Knock(card("TC"))).unwrap();
    let (_, s, score) = showdown_of(&hand);
    assert_eq!(s.layoffs, cards("8S 9S"));
    assert_eq!(s.defender_deadwood(), 64);
    assert_eq!((score.end, score.points), (HandEnd::Knock, 61));
}

/// Both draw from the stock and discard what they drew. `stock` goes on top.
fn play_to_stock_end<'r>(rules: &'r Rules, b_hand: &str, stock: &str) -> Hand<'r> {
    let d = deck(A_HAND_HIGH, b_hand, "2C", stock);
    let mut hand = Hand::new(rules, &d, B, [0, 0]).unwrap();
    take(&mut hand, A, false);
    take(&mut hand, B, false);
    let mut seat = A;
    while let Phase::Draw { .. } = hand.phase() {
        let drawn = hand.stock()[0];
        draw(&mut hand, seat, DrawSource::Stock);
        end(&mut hand, seat, TurnEnd::Discard(drawn)).unwrap();
        seat = seat.other();
    }
    hand
}

/// Far from knocking: A never knocks in the stock-end scenarios.
const A_HAND_HIGH: &str = "AS 3S 5S 7S 9S JC QC KD 2H 6H";
const B_NEAR: &str = "5C 6C 7C 2D 3D 4D KC KH 9C 9D"; // KS or a third king completes

#[test]
fn void_when_the_stock_is_down_to_two() {
    let rules = Rules::standard();
    let hand = play_to_stock_end(&rules, B_NEAR, "");
    assert_eq!(
        hand.outcome(),
        Some(&HandOutcome::Void(VoidReason::StockEnd))
    );
    // 31 stock cards: the hand ends after the 29th draw and its discard.
    assert_eq!(hand.turns(), 29);
    assert_eq!(hand.stock().len(), 2);
}

/// A stock whose 29th card (drawn and thrown by A) is the KS that B wants.
fn stock_with_ks_last() -> String {
    let used = cards(A_HAND_HIGH) | cards(B_NEAR) | cards("2C KS");
    let mut rest: Vec<String> = (!used).iter().map(|c| c.to_string()).collect();
    rest.insert(28, "KS".into());
    rest.join(" ")
}

#[test]
fn last_discard_action_only_to_knock() {
    let rules = Rules {
        last_discard_action: true,
        ..Rules::standard()
    };
    let mut hand = play_to_stock_end(&rules, B_NEAR, &stock_with_ks_last());
    assert_eq!(hand.phase(), Phase::LastChance { seat: B });
    assert_eq!(hand.view(B).pile_top(), Some(card("KS")));
    draw(&mut hand, B, DrawSource::Pile);
    assert_eq!(
        end(&mut hand, B, TurnEnd::Discard(card("9D"))),
        Err(IllegalAction::MustKnock)
    );
    end(&mut hand, B, TurnEnd::Knock(card("9D"))).unwrap();
    let (knocker, s, _) = showdown_of(&hand);
    assert_eq!((knocker, s.knocker_deadwood()), (B, 9));
    // Passing it voids the hand.
    let mut hand = play_to_stock_end(&rules, B_NEAR, &stock_with_ks_last());
    draw(&mut hand, B, DrawSource::Stock);
    assert_eq!(
        hand.outcome(),
        Some(&HandOutcome::Void(VoidReason::StockEnd))
    );
    // Without the knob the same deal is void at once.
    let rules = Rules::standard();
    let hand = play_to_stock_end(&rules, B_NEAR, &stock_with_ks_last());
    assert_eq!(
        hand.outcome(),
        Some(&HandOutcome::Void(VoidReason::StockEnd))
    );
}

#[test]
fn last_discard_cannot_be_taken_without_a_knock() {
    let rules = Rules {
        last_discard_action: true,
        ..Rules::standard()
    };
    // The default stock's 29th card does not bring B within the limit.
    let mut hand = play_to_stock_end(&rules, B_NEAR, "");
    assert_eq!(hand.phase(), Phase::LastChance { seat: B });
    let top = hand.view(B).pile_top().unwrap();
    assert!(
        meld::deadwood(cards(B_NEAR).with(top)) > 20,
        "{top} is useless to B"
    );
    assert!(!ginlab::engine::pile_allowed(&hand.view(B)));
    let before = hand.clone();
    assert!(matches!(
        hand.apply(B, Action::Draw(DrawSource::Pile)),
        Err(IllegalAction::Pile(_))
    ));
    assert_eq!(hand.phase(), before.phase());
    assert_eq!(hand.cards(B), before.cards(B));
    draw(&mut hand, B, DrawSource::Stock);
    assert_eq!(
        hand.outcome(),
        Some(&HandOutcome::Void(VoidReason::StockEnd))
    );
    // With the KS the same seat may take it.
    let hand = play_to_stock_end(&rules, B_NEAR, &stock_with_ks_last());
    assert!(ginlab::engine::pile_allowed(&hand.view(B)));
}

#[test]
fn turn_cap_voids_the_hand() {
    let rules = Rules {
        max_turns: 5,
        ..Rules::standard()
    };
    let hand = play_to_stock_end(&rules, B_NEAR, "");
    assert_eq!(
        hand.outcome(),
        Some(&HandOutcome::Void(VoidReason::TurnCap))
    );
    assert_eq!(hand.turns(), 5);
}

#[test]
fn oklahoma_knock_limit_is_the_upcard() {
    let rules = Rules::oklahoma();
    // A holds deadwood 8 after discarding the drawn JS: legal under a 9, not a 7.
    let a = "AS 2S 3S 2H 3H 4H KC KD KH 8D";
    for (upcard, legal) in [("7D", false), ("9H", true), ("JH", true)] {
        let d = deck(a, B_TIE, upcard, "JS");
        let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
        pass_and_draw(&mut hand);
        let result = end(&mut hand, A, TurnEnd::Knock(card("JS")));
        assert_eq!(result.is_ok(), legal, "upcard {upcard}: {result:?}");
    }
}

#[test]
fn oklahoma_ace_upcard_allows_only_gin() {
    let rules = Rules::oklahoma();
    let d = deck(A_HAND, B_TIE, "AC", "JS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    assert_eq!(hand.knock_limit(), 0);
    pass_and_draw(&mut hand);
    assert_eq!(
        end(&mut hand, A, TurnEnd::Knock(card("JS"))),
        Err(IllegalAction::OverLimit {
            deadwood: 5,
            limit: 0
        })
    );
    // Gin is still allowed.
    let d = deck("AS 2S 3S 2H 3H 4H KC KD KH 5D", B_TIE, "AC", "KS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Knock(card("5D"))).unwrap();
    assert_eq!(showdown_of(&hand).2.end, HandEnd::Gin);
}

#[test]
fn oklahoma_spade_upcard_doubles_the_hand() {
    let rules = Rules::oklahoma();
    for (upcard, factor) in [("9S", 2), ("9C", 1)] {
        // B: deadwood 8 + 9 + 10 + ... (no melds)
        let d = deck(A_HAND, "7C 9D TD JC QD 6H 8H TH QS 4C", upcard, "JS");
        let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
        pass_and_draw(&mut hand);
        end(&mut hand, A, TurnEnd::Knock(card("JS"))).unwrap();
        let dead = 7 + 9 + 10 + 10 + 10 + 6 + 8 + 10 + 10 + 4;
        assert_eq!(
            showdown_of(&hand).2.points,
            factor * (dead - 5),
            "upcard {upcard}"
        );
    }
}

#[test]
fn big_gin_only_where_allowed() {
    let a = "AS 2S 3S 4S 2H 3H 4H KC KD KH";
    let b = "7C 9D TD JC QD 6H 8H TH QS 4C";
    let rules = Rules::hoyle();
    let d = deck(a, b, "2C", "KS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::BigGin).unwrap();
    let (_, s, score) = showdown_of(&hand);
    assert!(s.is_big_gin());
    assert_eq!((score.end, score.points), (HandEnd::BigGin, 31 + 84));
    let rules = Rules::standard();
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    assert!(matches!(
        end(&mut hand, A, TurnEnd::BigGin),
        Err(IllegalAction::BigGin(_))
    ));
    // Not all 11 meld: refused even under hoyle.
    let rules = Rules::hoyle();
    let d = deck(a, b, "2C", "9C");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    assert!(matches!(
        end(&mut hand, A, TurnEnd::BigGin),
        Err(IllegalAction::BigGin(_))
    ));
}

#[test]
fn eleven_card_deal() {
    let rules = Rules {
        deal: Deal::ElevenCards,
        ..Rules::standard()
    };
    let d = deck(A_HAND, B_TIE, "JS", "9S");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    assert_eq!(hand.upcard(), None);
    assert_eq!(hand.cards(A).len(), 11);
    assert!(hand.pile().is_empty());
    assert_eq!(
        hand.phase(),
        Phase::EndTurn {
            seat: A,
            must_knock: false
        }
    );
    end(&mut hand, A, TurnEnd::Discard(card("JS"))).unwrap();
    assert_eq!(
        hand.phase(),
        Phase::Draw {
            seat: B,
            stock_only: false
        }
    );
    draw(&mut hand, B, DrawSource::Stock);
    assert!(hand.cards(B).contains(card("9S")));
    // The non-dealer may also knock on that first turn.
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    end(&mut hand, A, TurnEnd::Knock(card("JS"))).unwrap();
    assert_eq!(showdown_of(&hand).0, A);
}

#[test]
fn no_big_gin_on_the_eleven_card_deals_first_turn() {
    // RULES.md: big gin is "after drawing"; the non-dealer's first turn in
    // the eleven-card deal is only a discard or a knock. Its 11 dealt cards
    // all meld here (AS-5S, 2H-4H, KC KD KH).
    let rules = Rules {
        deal: Deal::ElevenCards,
        big_gin_bonus: Some(31),
        ..Rules::standard()
    };
    let d = deck("AS 2S 3S 4S 2H 3H 4H KC KD KH", B_TIE, "5S", "9S 5H");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    assert!(meld::is_big_gin(hand.cards(A)));
    assert!(!ginlab::engine::big_gin_legal(&hand.view(A)));
    assert!(matches!(
        end(&mut hand, A, TurnEnd::BigGin),
        Err(IllegalAction::BigGin(_))
    ));
    // Gin with a discard is a knock, and legal.
    end(&mut hand, A, TurnEnd::Knock(card("5S"))).unwrap();
    assert_eq!(showdown_of(&hand).2.end, HandEnd::Gin);
    // After a draw, big gin is legal: A discards 5S, B draws 9S and throws
    // it, A draws 5H and all 11 cards meld (AS-4S, 2H-5H, the kings).
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    end(&mut hand, A, TurnEnd::Discard(card("5S"))).unwrap();
    draw(&mut hand, B, DrawSource::Stock);
    end(&mut hand, B, TurnEnd::Discard(card("9S"))).unwrap();
    draw(&mut hand, A, DrawSource::Stock);
    assert!(ginlab::engine::big_gin_legal(&hand.view(A)));
    end(&mut hand, A, TurnEnd::BigGin).unwrap();
    assert_eq!(showdown_of(&hand).2.end, HandEnd::BigGin);
}

#[test]
fn dealer_rules() {
    use ginlab::engine::next_dealer;
    // A knocked and was undercut by B: B won, A lost.
    let d = deck(A_HAND, B_TIE, "2C", "JS");
    let rules = Rules::standard();
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Knock(card("JS"))).unwrap();
    let outcome = *hand.outcome().unwrap();
    assert_eq!(outcome.winner(), Some((B, 10)));
    let with = |next| Rules {
        next_dealer: next,
        ..Rules::standard()
    };
    assert_eq!(next_dealer(&with(NextDealer::Loser), B, &outcome), A);
    assert_eq!(next_dealer(&with(NextDealer::Winner), B, &outcome), B);
    assert_eq!(next_dealer(&with(NextDealer::Alternate), B, &outcome), A);
    let void = HandOutcome::Void(VoidReason::StockEnd);
    // The same knock with `undercut_on_tie` off: a scoreless tie, no winner.
    let off = Rules {
        undercut_on_tie: false,
        ..Rules::standard()
    };
    let mut hand = Hand::new(&off, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    end(&mut hand, A, TurnEnd::Knock(card("JS"))).unwrap();
    let tie = *hand.outcome().unwrap();
    assert_eq!(tie.winner(), None);
    for next in [NextDealer::Loser, NextDealer::Winner, NextDealer::Alternate] {
        assert_eq!(
            next_dealer(&with(next), B, &void),
            B,
            "{next:?}: a void hand keeps the dealer"
        );
        assert_eq!(
            next_dealer(&with(next), B, &tie),
            B,
            "{next:?}: a scoreless tie keeps the dealer (docs/DESIGN.md)"
        );
    }
}

#[test]
fn opponent_hand_and_stock_do_not_reach_the_view() {
    let rules = Rules::standard();
    // Same cards for A and the same first stock card; B's hand and the rest of
    // the stock differ.
    let one = deck(A_HAND, B_TIE, "2C", "JS 4S 5S 6S");
    let two = deck(A_HAND, "4S 5S 6S TD JD QD QC QH QS 5C", "2C", "JS 7C 8C 9C");
    let mut h1 = Hand::new(&rules, &one, B, [0, 0]).unwrap();
    let mut h2 = Hand::new(&rules, &two, B, [0, 0]).unwrap();
    assert_ne!(h1.cards(B), h2.cards(B));
    for hand in [&mut h1, &mut h2] {
        take(hand, A, false);
        take(hand, B, false);
    }
    assert_eq!(h1.view(A), h2.view(A));
    for hand in [&mut h1, &mut h2] {
        draw(hand, A, DrawSource::Stock);
    }
    assert_eq!(h1.view(A), h2.view(A));
}

fn greedy_players<const N: usize>() -> [Box<dyn ginlab::engine::Strategy>; N] {
    std::array::from_fn(|_| {
        "greedy"
            .parse::<ginlab::strategy::Profile>()
            .unwrap()
            .build(0)
    })
}

#[test]
fn three_player_rotation() {
    use ginlab::engine::{TableHand, play_three};
    use rand::SeedableRng;
    let rules = Rules::standard();
    for seed in 0..5 {
        let mut boxes = greedy_players::<3>();
        let [a, b, c] = &mut boxes;
        let mut players: [&mut dyn ginlab::engine::Strategy; 3] =
            [a.as_mut(), b.as_mut(), c.as_mut()];
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut log: Vec<TableHand> = Vec::new();
        let result = play_three(&rules, &mut players, &mut rng, |h| log.push(*h)).unwrap();
        let mut points = [0u32; 3];
        for (i, h) in log.iter().enumerate() {
            // The dealer sits out; the player after the dealer acts first.
            assert_eq!(h.players, [(h.dealer + 1) % 3, (h.dealer + 2) % 3]);
            if let Some((w, p)) = h.winner {
                points[w] += p;
            }
            if let Some(next) = log.get(i + 1) {
                match h.winner {
                    None => assert_eq!(next.dealer, h.dealer, "void: same dealer"),
                    Some((w, _)) => {
                        let loser = h.players[0] + h.players[1] - w;
                        assert_eq!(next.dealer, loser, "the loser deals");
                        let mut pair = next.players;
                        pair.sort_unstable();
                        let mut expect = [w, h.dealer];
                        expect.sort_unstable();
                        assert_eq!(pair, expect, "winner against the previous dealer");
                    }
                }
            }
        }
        assert_eq!(points, result.points);
        assert!(result.points[result.winner] >= rules.game_target);
        assert_eq!(result.hands as usize, log.len());
        let w = result.winner;
        assert_eq!(
            result.final_scores[w],
            result.points[w] + result.hands_won[w] * 20 + 100
        );
    }
}

#[test]
fn four_player_partnerships() {
    use ginlab::engine::{PARTNERSHIP_TARGET, play_partnership, round_score, team_of};
    use rand::SeedableRng;
    let rules = Rules::standard();
    let mut boxes = greedy_players::<4>();
    let [a, b, c, d] = &mut boxes;
    let mut players: [&mut dyn ginlab::engine::Strategy; 4] =
        [a.as_mut(), b.as_mut(), c.as_mut(), d.as_mut()];
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    let mut teams = [0u32; 2];
    let mut rounds = 0;
    let result = play_partnership(&rules, &mut players, &mut rng, |round, tables| {
        rounds = round;
        let mut pairs: Vec<[usize; 2]> = tables
            .iter()
            .map(|t| {
                let mut p = t.players;
                p.sort_unstable();
                p
            })
            .collect();
        pairs.sort_unstable();
        // Opponents alternate; partners never meet.
        let expect = if round % 2 == 1 {
            vec![[0, 1], [2, 3]]
        } else {
            vec![[0, 3], [1, 2]]
        };
        assert_eq!(pairs, expect, "round {round}");
        for t in tables {
            assert_ne!(team_of(t.players[0]), team_of(t.players[1]));
        }
        if let Some((team, p)) = round_score([tables[0].winner, tables[1].winner]) {
            teams[team] += p;
        }
    })
    .unwrap();
    assert_eq!(result.team_points, teams);
    assert_eq!(result.rounds, rounds);
    assert!(teams[result.winner] >= PARTNERSHIP_TARGET);
    assert!(teams[1 - result.winner] < PARTNERSHIP_TARGET);
}

#[test]
fn straight_gin_knock_limit_zero() {
    let mut rules = Rules::standard();
    rules.set_from_text("knock_limit=0").unwrap();
    let d = deck(A_HAND, B_TIE, "2C", "KS");
    let mut hand = Hand::new(&rules, &d, B, [0, 0]).unwrap();
    pass_and_draw(&mut hand);
    assert_eq!(
        end(&mut hand, A, TurnEnd::Knock(card("KS"))),
        Err(IllegalAction::OverLimit {
            deadwood: 5,
            limit: 0
        })
    );
    end(&mut hand, A, TurnEnd::Knock(card("5D"))).unwrap();
    assert_eq!(showdown_of(&hand).2.end, HandEnd::Gin);
}

/// Wraps a player and notes its number in `log` whenever it is dealt a hand.
struct Dealt {
    inner: Box<dyn ginlab::engine::Strategy>,
    me: usize,
    log: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
}

impl ginlab::engine::Strategy for Dealt {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start_hand(&mut self, view: &ginlab::engine::PlayerView<'_>) {
        self.log.lock().unwrap().push(self.me);
        self.inner.start_hand(view);
    }
    fn take_upcard(&mut self, view: &ginlab::engine::PlayerView<'_>) -> bool {
        self.inner.take_upcard(view)
    }
    fn draw(&mut self, view: &ginlab::engine::PlayerView<'_>) -> DrawSource {
        self.inner.draw(view)
    }
    fn end_turn(&mut self, view: &ginlab::engine::PlayerView<'_>) -> TurnEnd {
        self.inner.end_turn(view)
    }
}

/// Never knocks: draws from the stock and throws the lowest legal card, so
/// every hand runs to the stock end and is void.
struct NeverKnocks;

impl ginlab::engine::Strategy for NeverKnocks {
    fn name(&self) -> &str {
        "never-knocks"
    }
    fn take_upcard(&mut self, _view: &ginlab::engine::PlayerView<'_>) -> bool {
        false
    }
    fn draw(&mut self, _view: &ginlab::engine::PlayerView<'_>) -> DrawSource {
        DrawSource::Stock
    }
    fn end_turn(&mut self, view: &ginlab::engine::PlayerView<'_>) -> TurnEnd {
        let card = ginlab::engine::legal_discards(view).iter().next().unwrap();
        TurnEnd::Discard(card)
    }
}

#[test]
fn three_players_the_dealer_sits_out_and_is_never_asked() {
    use ginlab::engine::{TableHand, play_three};
    use rand::SeedableRng;
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut boxes: Vec<Dealt> = greedy_players::<3>()
        .into_iter()
        .enumerate()
        .map(|(me, inner)| Dealt {
            inner,
            me,
            log: log.clone(),
        })
        .collect();
    let [a, b, c] = &mut boxes[..] else {
        unreachable!()
    };
    let mut players: [&mut dyn ginlab::engine::Strategy; 3] = [a, b, c];
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(9);
    let mut hands: Vec<TableHand> = Vec::new();
    play_three(&Rules::standard(), &mut players, &mut rng, |h| {
        hands.push(*h)
    })
    .unwrap();
    let dealt = log.lock().unwrap().clone();
    assert_eq!(dealt.len(), 2 * hands.len());
    for (h, got) in hands.iter().zip(dealt.chunks(2)) {
        let mut got = got.to_vec();
        got.sort_unstable();
        let mut expect = h.players.to_vec();
        expect.sort_unstable();
        assert_eq!(got, expect, "only the two non-dealers get cards");
        assert!(!got.contains(&h.dealer));
    }
}

#[test]
fn three_players_a_void_hand_is_dealt_again_by_the_same_dealer() {
    use ginlab::engine::{EngineError, play_three};
    use rand::SeedableRng;
    let mut boxes = [NeverKnocks, NeverKnocks, NeverKnocks];
    let [a, b, c] = &mut boxes;
    let mut players: [&mut dyn ginlab::engine::Strategy; 3] = [a, b, c];
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    let mut dealers = Vec::new();
    let result = play_three(&Rules::standard(), &mut players, &mut rng, |h| {
        assert_eq!(h.winner, None);
        dealers.push(h.dealer);
    });
    assert!(matches!(result, Err(EngineError::Endless(_))), "{result:?}");
    assert!(dealers.len() > 100);
    assert!(dealers.iter().all(|&d| d == dealers[0]), "same dealer");
}

#[test]
fn three_players_final_scores_add_bonuses_for_everyone() {
    use ginlab::engine::play_three;
    use rand::SeedableRng;
    for preset in ginlab::rules::PRESETS {
        let rules = Rules::preset(preset).unwrap();
        let mut boxes = greedy_players::<3>();
        let [a, b, c] = &mut boxes;
        let mut players: [&mut dyn ginlab::engine::Strategy; 3] =
            [a.as_mut(), b.as_mut(), c.as_mut()];
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(4);
        let r = play_three(&rules, &mut players, &mut rng, |_| {}).unwrap();
        for p in 0..3 {
            let game = if p == r.winner { rules.game_bonus } else { 0 };
            assert_eq!(
                r.final_scores[p],
                r.points[p] + r.hands_won[p] * rules.box_bonus + game,
                "{preset} player {p}"
            );
            if p != r.winner {
                assert!(
                    r.points[p] < rules.game_target,
                    "{preset}: one reaches the target"
                );
            }
        }
        assert!(r.points[r.winner] >= rules.game_target, "{preset}");
    }
}

#[test]
fn partnerships_play_to_125_and_alternate_the_deal_at_each_table() {
    use ginlab::engine::{PARTNERSHIP_TARGET, play_partnership, team_of};
    use rand::SeedableRng;
    // The team target is 125 whatever game_target says.
    let mut rules = Rules::standard();
    rules.set_from_text("game_target=10").unwrap();
    let mut boxes = greedy_players::<4>();
    let [a, b, c, d] = &mut boxes;
    let mut players: [&mut dyn ginlab::engine::Strategy; 4] =
        [a.as_mut(), b.as_mut(), c.as_mut(), d.as_mut()];
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(12);
    let mut dealing = Vec::new();
    let result = play_partnership(&rules, &mut players, &mut rng, |_, tables| {
        let teams: Vec<usize> = tables.iter().map(|t| team_of(t.dealer)).collect();
        assert_eq!(teams[0], teams[1], "one team deals at both tables");
        for t in tables {
            assert_eq!(t.players[1], t.dealer, "the dealer takes the dealer role");
        }
        dealing.push(teams[0]);
    })
    .unwrap();
    assert!(result.team_points[result.winner] >= PARTNERSHIP_TARGET);
    assert!(result.rounds > 1);
    for pair in dealing.windows(2) {
        assert_ne!(pair[0], pair[1], "the deal alternates");
    }
}

/// Plays greedy but fails on its `after`-th decision, saying so or not
/// through [`ginlab::engine::Strategy::can_forfeit`].
struct FailsAfter {
    inner: Box<dyn ginlab::engine::Strategy>,
    after: usize,
    decisions: usize,
    says_so: bool,
}

impl FailsAfter {
    fn decided(&mut self) {
        self.decisions += 1;
    }
}

impl ginlab::engine::Strategy for FailsAfter {
    fn name(&self) -> &str {
        "fails-after"
    }
    fn take_upcard(&mut self, view: &ginlab::engine::PlayerView<'_>) -> bool {
        self.decided();
        self.inner.take_upcard(view)
    }
    fn draw(&mut self, view: &ginlab::engine::PlayerView<'_>) -> DrawSource {
        self.decided();
        self.inner.draw(view)
    }
    fn end_turn(&mut self, view: &ginlab::engine::PlayerView<'_>) -> TurnEnd {
        self.decided();
        self.inner.end_turn(view)
    }
    fn forfeit(&mut self) -> Option<String> {
        (self.decisions >= self.after).then(|| format!("failed at decision {}", self.decisions))
    }
    fn can_forfeit(&self) -> bool {
        self.says_so
    }
}

fn play_failing(says_so: bool) -> Result<HandOutcome, ginlab::engine::EngineError> {
    let rules = Rules::standard();
    let deck = Deck::shuffled(&mut <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(3));
    let mut hand = Hand::new(&rules, &deck, Seat::A, [0, 0]).unwrap();
    let [inner, mut other] = greedy_players::<2>();
    let mut failing = FailsAfter {
        inner,
        after: 3,
        decisions: 0,
        says_so,
    };
    ginlab::engine::play_hand(&mut hand, &mut [&mut failing, other.as_mut()])
}

#[test]
fn a_player_that_can_forfeit_is_asked_after_every_decision() {
    match play_failing(true) {
        Err(ginlab::engine::EngineError::Forfeit { seat, reason, .. }) => {
            assert_eq!(seat, Seat::A);
            assert_eq!(reason, "failed at decision 3");
        }
        other => panic!("expected a forfeit, got {other:?}"),
    }
}

/// A player that fails but says it cannot is a bug the debug build catches
/// (a release build skips the question for such players).
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "says it cannot")]
fn a_player_that_fails_without_saying_it_can_is_caught_in_debug_builds() {
    let _ = play_failing(false);
}

/// Everything a hand shows, to compare two hands.
fn state(hand: &Hand<'_>) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {:?}",
        hand.phase(),
        hand.cards(A),
        hand.cards(B),
        hand.pile(),
        hand.stock(),
        hand.events(),
        hand.actions(),
        hand.outcome(),
        hand.turns(),
        hand.face_down(),
    )
}

/// `Hand::apply` plays the common moves on a fast path when the hand's logs
/// have room ahead, and every other move (refusals included) on the checked
/// path a copy of the hand takes (a copy's logs have no room ahead until
/// it grows them): both must agree on every action, legal or not, under
/// every deal and rule set.
#[test]
fn a_copy_applies_every_action_as_the_hand_does() {
    use rand::SeedableRng;
    let mut rules_list = vec![Rules::standard(), Rules::eaai(), Rules::oklahoma()];
    let mut last_chance = Rules::standard();
    last_chance.last_discard_action = true;
    last_chance.big_gin_bonus = Some(31);
    rules_list.push(last_chance);
    let mut eleven = Rules::standard();
    eleven.deal = Deal::ElevenCards;
    eleven.max_turns = 9;
    rules_list.push(eleven);
    let mut state_bits = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: u64| {
        state_bits ^= state_bits << 13;
        state_bits ^= state_bits >> 7;
        state_bits ^= state_bits << 17;
        state_bits % n
    };
    let (mut refused, mut played) = (0, 0);
    for (r, rules) in rules_list.iter().enumerate() {
        for seed in 0..30 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed + 100 * r as u64);
            let deck = Deck::shuffled(&mut rng);
            let mut hand = Hand::new(rules, &deck, Seat::ALL[seed as usize % 2], [0, 0]).unwrap();
            while let Some(seat) = hand.phase().seat() {
                let held: Vec<Card> = hand.cards(seat).iter().collect();
                let any = Card::from_index(next(52) as u8).unwrap();
                let mine = held[next(held.len() as u64) as usize];
                let action = match next(9) {
                    0 => Action::TakeUpcard(next(2) == 0),
                    1 => Action::Draw(DrawSource::Pile),
                    2 | 3 => Action::Draw(DrawSource::Stock),
                    4 => Action::EndTurn(TurnEnd::Knock(mine)),
                    5 => Action::EndTurn(TurnEnd::BigGin),
                    6 => Action::EndTurn(TurnEnd::Discard(any)),
                    _ => Action::EndTurn(TurnEnd::Discard(mine)),
                };
                let seat = if next(10) == 0 { seat.other() } else { seat };
                let mut copy = hand.clone();
                let by_copy = copy.apply(seat, action);
                let by_hand = hand.apply(seat, action);
                assert_eq!(by_copy, by_hand, "{action:?} by {seat}");
                assert_eq!(state(&copy), state(&hand), "{action:?} by {seat}");
                if by_hand.is_ok() {
                    played += 1;
                } else {
                    refused += 1;
                }
            }
        }
    }
    assert!(
        played > 1000 && refused > 1000,
        "{played} played, {refused} refused"
    );
}
