//! The fast meld solver (`ginlab::meld`, the batched calls included) against the naive brute force in
//! `tests/it/oracle`, plus the test vectors in `tests/data/vectors`.
//!
//! # Case counts
//!
//! The property tests take their case counts from the environment:
//!
//! - `PROPTEST_CASES`: cases for each hand property (`random_hands`,
//!   `dense_hands`); default [`DEFAULT_HAND_CASES`].
//! - `GINLAB_SHOWDOWN_CASES`: cases for `showdowns`; if unset,
//!   `PROPTEST_CASES / SHOWDOWN_DIVISOR` (at least 1), else
//!   [`DEFAULT_SHOWDOWN_CASES`]. The showdown oracle tries every knocker
//!   arrangement and every lay-off subset, so it is slower per case.
//! - `oracle_layoff_searches_agree` (a self-check of the oracle, 1024
//!   lay-off searches a case) runs `showdown cases / ORACLE_CHECK_DIVISOR`.
//!
//! The other `PROPTEST_*` variables (seed, verbosity, ...) apply as usual.
//! The properties use an explicit `TestRunner`, not the `proptest!` macro,
//! because the macro would let `PROPTEST_CASES` set every count.
//!
//! For example
//! `PROPTEST_CASES=1000000 GINLAB_SHOWDOWN_CASES=250000 cargo test --release --test it solver::`.
//! Failures are saved to `proptest-regressions/solver.txt` and replayed first.

use crate::oracle;

use std::env;

use ginlab::meld::{self, MeldKind};
use ginlab::{Arrangement, Card, CardSet, Suit};
use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::{FileFailurePersistence, TestRunner};

/// Cases per hand property when `PROPTEST_CASES` is unset (CI, debug).
const DEFAULT_HAND_CASES: u32 = 2048;
/// Cases per showdown property when neither variable is set.
const DEFAULT_SHOWDOWN_CASES: u32 = 1024;
/// `PROPTEST_CASES / SHOWDOWN_DIVISOR` showdown cases when only
/// `PROPTEST_CASES` is set.
const SHOWDOWN_DIVISOR: u32 = 8;
/// The oracle self-check runs `showdown cases / ORACLE_CHECK_DIVISOR` cases
/// (it runs the slow per-subset lay-off search 1024 times a case).
const ORACLE_CHECK_DIVISOR: u32 = 16;

fn env_u32(name: &str) -> Option<u32> {
    let text = env::var(name).ok()?;
    Some(
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
    )
}

fn hand_cases() -> u32 {
    env_u32("PROPTEST_CASES").unwrap_or(DEFAULT_HAND_CASES)
}

fn showdown_cases() -> u32 {
    env_u32("GINLAB_SHOWDOWN_CASES")
        .or_else(|| env_u32("PROPTEST_CASES").map(|n| (n / SHOWDOWN_DIVISOR).max(1)))
        .unwrap_or(DEFAULT_SHOWDOWN_CASES)
}

fn oracle_check_cases() -> u32 {
    (showdown_cases() / ORACLE_CHECK_DIVISOR).max(1)
}

/// `ProptestConfig::default()` (which reads the other `PROPTEST_*`
/// variables) with an explicit case count. Filters only reject knocker hands
/// over the knock limit, a bounded fraction, so local rejects are unlimited.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_local_rejects: u32::MAX,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/solver.txt",
        ))),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn to_set(cards: &[Card]) -> CardSet {
    let set: CardSet = cards.iter().copied().collect();
    assert_eq!(set.len() as usize, cards.len(), "duplicate cards");
    set
}

fn to_vec(set: CardSet) -> Vec<Card> {
    set.iter().collect()
}

fn parse(text: &str) -> CardSet {
    text.parse()
        .unwrap_or_else(|e| panic!("bad cards {text:?}: {e}"))
}

/// The melds of an arrangement as plain card lists for the oracle.
fn melds_of(arrangement: &Arrangement) -> Vec<Vec<Card>> {
    arrangement.melds().map(|m| to_vec(m.cards())).collect()
}

/// The 4 × `width` cards of ranks `low .. low + width`.
fn window(low: u8, width: u8) -> Vec<Card> {
    Card::all()
        .filter(|&c| (low..low + width).contains(&oracle::rank(c)))
        .collect()
}

/// Checks that `arrangement` is a legal arrangement of exactly `hand` whose
/// deadwood is `expected_deadwood`: every meld a legal set or run of the
/// right kind, melds disjoint and inside the hand, deadwood = the rest.
fn check_arrangement(
    arrangement: &Arrangement,
    hand: CardSet,
    expected_deadwood: u32,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(arrangement.hand(), hand);
    let mut melded = CardSet::EMPTY;
    for meld in arrangement.melds() {
        let cards = to_vec(meld.cards());
        prop_assert!(oracle::is_meld(&cards), "illegal meld {:?}", cards);
        let expected_kind = if oracle::is_set(&cards) {
            MeldKind::Set
        } else {
            MeldKind::Run
        };
        prop_assert_eq!(meld.kind(), expected_kind, "kind of {:?}", cards);
        prop_assert!(melded.is_disjoint(meld.cards()), "melds overlap");
        melded |= meld.cards();
    }
    prop_assert!(hand.is_superset(melded));
    prop_assert_eq!(melded, arrangement.melded());
    prop_assert_eq!(arrangement.deadwood_cards(), hand - melded);
    let dead = oracle::total_value(&to_vec(hand - melded));
    prop_assert_eq!(u32::from(arrangement.deadwood()), dead);
    prop_assert_eq!(dead, expected_deadwood, "{} is not optimal", arrangement);
    Ok(())
}

/// Every single-hand property: deadwood, best arrangement, best discard and
/// big gin against the oracle.
fn check_hand(cards: &[Card]) -> Result<(), TestCaseError> {
    let hand = to_set(cards);
    let min = oracle::min_deadwood(cards);
    prop_assert_eq!(u32::from(meld::deadwood(hand)), min, "deadwood of {}", hand);
    check_arrangement(&meld::best_arrangement(hand), hand, min)?;
    prop_assert_eq!(
        meld::is_big_gin(hand),
        cards.len() == 11 && min == 0,
        "big gin of {}",
        hand
    );
    // A card outside `meldable` is deadwood in every arrangement; a card in
    // it has a meld within the hand.
    let meldable = meld::meldable(hand);
    for &card in cards {
        let rest = hand.without(card);
        if meldable.contains(card) {
            prop_assert!(
                ginlab::strategy::joins_meld(rest, card),
                "{} has no meld in {}",
                card,
                hand
            );
        } else {
            prop_assert_eq!(
                u32::from(meld::deadwood(rest)),
                min - u32::from(card.value()),
                "removing unmeldable {} from {}",
                card,
                hand
            );
        }
    }
    check_batched(cards, hand)?;
    let (card, dw) = oracle::best_discard(cards);
    let fast = meld::best_discard(hand).expect("a non-empty hand has a discard");
    prop_assert_eq!(
        (fast.card, u32::from(fast.deadwood)),
        (card, dw),
        "best discard of {}",
        hand
    );
    Ok(())
}

/// The batched solver against the oracle: every card of the hand removed,
/// and (for hands of 10 cards or fewer) every other card added; the least
/// discards of the hand.
fn check_batched(cards: &[Card], hand: CardSet) -> Result<(), TestCaseError> {
    let without = meld::deadwood_without_each(hand);
    let with = meld::deadwood_with_each(hand, !hand);
    for card in Card::all() {
        if hand.contains(card) {
            let rest = to_vec(hand.without(card));
            prop_assert_eq!(
                without.get(card).map(u32::from),
                Some(oracle::min_deadwood(&rest)),
                "{} without {}",
                hand,
                card
            );
            prop_assert_eq!(with.get(card), None);
        } else {
            prop_assert_eq!(without.get(card), None);
            if cards.len() <= 10 {
                let more = to_vec(hand.with(card));
                prop_assert_eq!(
                    with.get(card).map(u32::from),
                    Some(oracle::min_deadwood(&more)),
                    "{} with {}",
                    hand,
                    card
                );
            }
        }
    }
    // The turn end's least and ties (`least_discards`), all cards legal and
    // all but the lowest (the card just taken), from the oracle's deadwood.
    let lowest = hand.iter().next();
    for legal in [hand, lowest.map_or(hand, |c| hand.without(c))] {
        let left: Vec<(Card, u32)> = legal
            .iter()
            .map(|c| (c, oracle::min_deadwood(&to_vec(hand.without(c)))))
            .collect();
        let least = left.iter().map(|&(_, d)| d).min();
        let ties: CardSet = left
            .iter()
            .filter(|&&(_, d)| Some(d) == least)
            .map(|&(c, _)| c)
            .collect();
        let expected = (least.map_or(meld::PerCard::NONE, |d| d as u8), ties);
        prop_assert_eq!(
            meld::least_discards(hand, legal),
            expected,
            "{} legal {}",
            hand,
            legal
        );
    }
    Ok(())
}

/// Every showdown property for a knocker (min deadwood ≤ 10) and a defender.
fn check_showdown(knocker: &[Card], defender: &[Card]) -> Result<(), TestCaseError> {
    let (k, d) = (to_set(knocker), to_set(defender));
    prop_assert!(k.is_disjoint(d));

    // The optimal showdown.
    let s = meld::showdown(k, d, 10).expect("a legal knock");
    let expected = oracle::best_knock(knocker, defender, 10);
    prop_assert_eq!(
        (
            u32::from(s.knocker_deadwood()),
            u32::from(s.defender_deadwood())
        ),
        expected,
        "showdown of knocker {} defender {}: spread {}, kept {}, laid off {}",
        k,
        d,
        s.knocker,
        s.defender,
        s.layoffs
    );
    // The margin alone, from the hands and from both least deadwoods.
    let margin = expected.1 as i32 - expected.0 as i32;
    prop_assert_eq!(meld::showdown_margin(k, d, 10), Ok(margin));
    let (dead, own) = (meld::deadwood(k), meld::deadwood(d));
    prop_assert_eq!(meld::known_knock_margin(k, dead, d, own, 10), margin);
    let kdw = u32::from(s.knocker.deadwood());
    prop_assert!(kdw <= 10);
    check_arrangement(&s.knocker, k, kdw)?;
    prop_assert!(s.layoffs.is_disjoint(s.defender.hand()));
    prop_assert_eq!(s.defender.hand() | s.layoffs, d);
    let kept = oracle::min_deadwood(&to_vec(s.defender.hand()));
    check_arrangement(&s.defender, s.defender.hand(), kept)?;
    if s.is_gin() {
        prop_assert!(s.layoffs.is_empty(), "lay-offs on gin");
    } else {
        prop_assert!(
            oracle::can_lay_off(&melds_of(&s.knocker), &to_vec(s.layoffs)),
            "{} cannot be laid off on {}",
            s.layoffs,
            s.knocker
        );
    }

    // The defender's reply to the knocker's best (min-deadwood) arrangement.
    let best = meld::best_arrangement(k);
    let (layoffs, reply) = meld::defender_reply(&best, d);
    let gin = best.deadwood() == 0;
    let expected = oracle::defender_deadwood(&melds_of(&best), gin, defender);
    prop_assert_eq!(
        u32::from(reply),
        expected,
        "reply of {} to {}: laid off {}",
        d,
        best,
        layoffs
    );
    prop_assert!(d.is_superset(layoffs));
    prop_assert!(!gin || layoffs.is_empty());
    prop_assert!(oracle::can_lay_off(&melds_of(&best), &to_vec(layoffs)));
    prop_assert_eq!(oracle::min_deadwood(&to_vec(d - layoffs)), expected);
    let with = meld::showdown_with(best, d, 10).expect("best arrangement is within the limit");
    prop_assert_eq!(u32::from(with.defender_deadwood()), expected);
    prop_assert_eq!(with.layoffs, layoffs);
    Ok(())
}

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

/// 10 or 11 cards, uniformly from the deck.
fn random_hand() -> impl Strategy<Value = Vec<Card>> {
    let deck: Vec<Card> = Card::all().collect();
    prop_oneof![Just(10usize), Just(11usize)].prop_flat_map(move |n| subsequence(deck.clone(), n))
}

/// 10 or 11 cards from a window of 3 to 6 consecutive ranks (all suits), so
/// that sets and runs compete for the same cards.
fn dense_hand_of(sizes: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<Card>> {
    (sizes, 3u8..=6)
        .prop_flat_map(|(n, width)| (Just(n), Just(width), 0..=13 - width))
        .prop_flat_map(|(n, width, low)| subsequence(window(low, width), n))
}

fn dense_hand() -> impl Strategy<Value = Vec<Card>> {
    dense_hand_of(10..=11)
}

/// A meld-dense 10-card knocker (a window of 4 to 6 ranks) whose min deadwood
/// is ≤ 10 (oracle-filtered), and a disjoint 10-card defender with at least
/// half of what is available from ranks within 2 of the knocker's window (so
/// that lay-offs are common) and the rest from anywhere. About 60% of the
/// cases lay something off and about 9% are gin.
fn knock() -> impl Strategy<Value = (Vec<Card>, Vec<Card>)> {
    (4u8..=6)
        .prop_flat_map(|width| (Just(width), 0..=13 - width))
        .prop_flat_map(|(width, low)| (Just(low), Just(width), subsequence(window(low, width), 10)))
        .prop_filter("knocker over the knock limit", |(_, _, k)| {
            oracle::min_deadwood(k) <= 10
        })
        .prop_flat_map(|(low, width, knocker)| {
            let near_low = low.saturating_sub(2);
            let near_high = (low + width + 2).min(13);
            let near: Vec<Card> = window(near_low, near_high - near_low)
                .into_iter()
                .filter(|c| !knocker.contains(c))
                .collect();
            let most = near.len().min(10);
            (Just(knocker), Just(near), most / 2..=most)
        })
        .prop_flat_map(|(knocker, near, m)| (Just(knocker), subsequence(near, m), Just(10 - m)))
        .prop_flat_map(|(knocker, near_part, rest)| {
            let others: Vec<Card> = Card::all()
                .filter(|c| !knocker.contains(c) && !near_part.contains(c))
                .collect();
            (Just(knocker), Just(near_part), subsequence(others, rest))
        })
        .prop_map(|(knocker, mut defender, rest)| {
            defender.extend(rest);
            (knocker, defender)
        })
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// Runs `test` on `cases` values of `strategy` with [`config`]; panics with
/// the shrunk counterexample on failure.
///
/// An explicit `TestRunner` rather than the `proptest!` macro: the macro lets
/// `PROPTEST_CASES` override every property's count, and the showdown
/// properties need a count of their own.
fn check_property<S>(
    name: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    let mut runner = TestRunner::new(config(cases));
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{name} ({cases} cases): {e}");
    }
}

/// Uniform 10- and 11-card hands.
#[test]
fn random_hands() {
    check_property("random_hands", hand_cases(), random_hand(), |cards| {
        check_hand(&cards)
    });
}

/// 10- and 11-card hands from a narrow window of ranks.
#[test]
fn dense_hands() {
    check_property("dense_hands", hand_cases(), dense_hand(), |cards| {
        check_hand(&cards)
    });
}

/// The optimal showdown and the defender's reply against the oracle.
#[test]
fn showdowns() {
    check_property("showdowns", showdown_cases(), knock(), |(k, d)| {
        check_showdown(&k, &d)
    });
}

/// Oracle self-check: the two lay-off searches (reachable states versus the
/// per-subset depth-first search) agree on every defender subset.
#[test]
fn oracle_layoff_searches_agree() {
    let cases = oracle_check_cases();
    check_property(
        "oracle_layoff_searches_agree",
        cases,
        knock(),
        |(knocker, defender)| {
            let melds = melds_of(&meld::best_arrangement(to_set(&knocker)));
            let legal = oracle::legal_layoff_masks(&melds, &defender);
            for l in 0..1u32 << defender.len() {
                let cards = oracle::pick(&defender, l, true);
                prop_assert_eq!(
                    legal.contains(&l),
                    oracle::can_lay_off(&melds, &cards),
                    "lay-off {:?} on {:?}",
                    cards,
                    melds
                );
            }
            Ok(())
        },
    );
}

// ---------------------------------------------------------------------------
// Exhaustive single-suit hands
// ---------------------------------------------------------------------------

/// Every lane mask of `suit`: deadwood (any size) and, for 1..=11 cards, the
/// best discard.
fn exhaustive_suit(suit: Suit) {
    for mask in 0u16..1 << 13 {
        let hand = CardSet::from_lane(suit, mask);
        let cards = to_vec(hand);
        let min = oracle::min_deadwood(&cards);
        assert_eq!(u32::from(meld::deadwood(hand)), min, "deadwood of {hand}");
        let best = meld::best_arrangement(hand);
        assert_eq!(u32::from(best.deadwood()), min, "{best} of {hand}");
        if cards.is_empty() {
            assert!(meld::best_discard(hand).is_none());
        } else if cards.len() <= 11 {
            let fast = meld::best_discard(hand).unwrap();
            let (card, dw) = oracle::best_discard(&cards);
            assert_eq!(
                (fast.card, u32::from(fast.deadwood)),
                (card, dw),
                "best discard of {hand}"
            );
        }
    }
}

#[test]
fn exhaustive_clubs() {
    exhaustive_suit(Suit::Clubs);
}

#[test]
fn exhaustive_diamonds() {
    exhaustive_suit(Suit::Diamonds);
}

#[test]
fn exhaustive_hearts() {
    exhaustive_suit(Suit::Hearts);
}

#[test]
fn exhaustive_spades() {
    exhaustive_suit(Suit::Spades);
}

// ---------------------------------------------------------------------------
// Vectors
// ---------------------------------------------------------------------------

const DEADWOOD_CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/vectors/deadwood.csv"
);
const SHOWDOWN_CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/vectors/showdown.csv"
);

fn read_rows(path: &str, columns: usize) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_path(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| {
            let r = r.unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(r.len(), columns, "{path}: {r:?}");
            r.iter().map(str::to_owned).collect()
        })
        .collect();
    assert!(!rows.is_empty(), "{path} has no rows");
    rows
}

#[test]
fn deadwood_vectors() {
    let rows = read_rows(DEADWOOD_CSV, 3);
    let mut discards = 0;
    for row in &rows {
        let hand = parse(&row[0]);
        let cards = to_vec(hand);
        assert!(matches!(cards.len(), 10 | 11), "{hand}");
        let deadwood: u32 = row[1].parse().unwrap();
        assert_eq!(
            u32::from(meld::deadwood(hand)),
            deadwood,
            "solver on {hand}"
        );
        assert_eq!(oracle::min_deadwood(&cards), deadwood, "oracle on {hand}");
        if row[2].is_empty() {
            assert_eq!(cards.len(), 10, "{hand}: 11 cards need a discard_deadwood");
        } else {
            discards += 1;
            let expected: u32 = row[2].parse().unwrap();
            let fast = meld::best_discard(hand).unwrap();
            assert_eq!(
                u32::from(fast.deadwood),
                expected,
                "solver discard on {hand}"
            );
            assert_eq!(
                oracle::best_discard(&cards).1,
                expected,
                "oracle discard on {hand}"
            );
        }
    }
    assert_eq!(rows.len(), 600);
    assert!(discards > 0);
}

/// The defender's best reply to each vector's fixed knocker arrangement.
/// Two of the hand-made rows are not 10-card knocks (row 1 spreads 12 cards,
/// row 2 has 11); the reply to a given arrangement does not need one, so
/// they are checked like the rest (the CLI test, which plays a knock, skips
/// them).
#[test]
fn showdown_vectors() {
    let rows = read_rows(SHOWDOWN_CSV, 4);
    for row in &rows {
        let arrangement: Arrangement = row[0]
            .parse()
            .unwrap_or_else(|e| panic!("bad knocker {:?}: {e}", row[0]));
        let defender = parse(&row[1]);
        let knocker_deadwood: u32 = row[2].parse().unwrap();
        let defender_deadwood: u32 = row[3].parse().unwrap();
        assert!(arrangement.hand().is_disjoint(defender), "{row:?}");

        // The solver.
        assert_eq!(
            u32::from(arrangement.deadwood()),
            knocker_deadwood,
            "{row:?}"
        );
        let (layoffs, reply) = meld::defender_reply(&arrangement, defender);
        assert_eq!(
            u32::from(reply),
            defender_deadwood,
            "solver on {row:?}, laid off {layoffs}"
        );
        assert!(defender.is_superset(layoffs));

        // The oracle, from its own reading of the brackets.
        let (melds, loose) = oracle::parse_brackets(&row[0]);
        let all: Vec<Card> = melds.iter().flatten().chain(&loose).copied().collect();
        assert_eq!(to_set(&all), arrangement.hand(), "{row:?}");
        assert_eq!(oracle::total_value(&loose), knocker_deadwood, "{row:?}");
        let defender_cards = to_vec(defender);
        assert_eq!(
            oracle::defender_deadwood(&melds, knocker_deadwood == 0, &defender_cards),
            defender_deadwood,
            "oracle on {row:?}"
        );
        // The solver's lay-offs are legal and leave what it says.
        if knocker_deadwood == 0 {
            assert!(layoffs.is_empty(), "{row:?}");
        }
        assert!(oracle::can_lay_off(&melds, &to_vec(layoffs)), "{row:?}");
        assert_eq!(
            oracle::min_deadwood(&to_vec(defender - layoffs)),
            defender_deadwood,
            "{row:?}"
        );
    }
    assert_eq!(rows.len(), 204);
}

// ---------------------------------------------------------------------------
// The oracle on hand-checked examples (so that it is not only trusted
// because it agrees with the solver)
// ---------------------------------------------------------------------------

#[test]
fn oracle_values_match_rules() {
    let values: Vec<u32> = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
        .split(' ')
        .map(|t| oracle::value(t.parse().unwrap()))
        .collect();
    assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
}

#[test]
fn oracle_melds_by_hand() {
    let m = |s: &str| to_vec(parse(s));
    // 4 of a rank: four 3-sets and one 4-set.
    assert_eq!(oracle::all_melds(&m("7C 7D 7H 7S")).len(), 5);
    // A-2-3-4-5 of one suit: 3 + 2 + 1 runs; Q-K-A is not a run.
    assert_eq!(oracle::all_melds(&m("AS 2S 3S 4S 5S")).len(), 6);
    assert!(oracle::all_melds(&m("QS KS AS")).is_empty());
    assert!(!oracle::is_meld(&m("QS KS AS")));
    assert!(!oracle::is_meld(&m("7C 7D")));
    assert!(!oracle::is_meld(&m("2C 3C 5C")));
    assert!(!oracle::is_meld(&m("2C 3D 4C")));

    assert_eq!(oracle::min_deadwood(&m("7C 8C 9C TC 6D 9D TD 6H 6S TS")), 9);
    assert_eq!(
        oracle::min_deadwood(&m("AS 2S 3S 4S 7H 7D 7C KC QC 5H")),
        25
    );
    // 7H is wanted by the set and by the run; 4-set + 5-run beats the rest.
    assert_eq!(oracle::min_deadwood(&m("7C 7D 7S 5H 6H 7H 8H 9H")), 0);
    assert_eq!(oracle::min_deadwood(&m("7C 7D 5H 6H 7H 8H")), 14);
    assert_eq!(
        oracle::best_discard(&m("AS 2S 3S 4S 7H 7D 7C KC QC 5H 9D")),
        ("KC".parse().unwrap(), 24)
    );
    // Ties: KC and KS both leave 10; the higher suit goes.
    assert_eq!(
        oracle::best_discard(&m("AC 2C 3C KC KS")),
        ("KS".parse().unwrap(), 10)
    );
}

#[test]
fn oracle_layoffs_by_hand() {
    let m = |s: &str| to_vec(parse(s));
    let run = vec![m("5H 6H 7H")];
    // Chained: 9H only after 8H.
    assert!(oracle::can_lay_off(&run, &m("8H 9H")));
    assert!(!oracle::can_lay_off(&run, &m("9H")));
    assert!(oracle::can_lay_off(&run, &m("3H 4H 8H 9H TH")));
    assert!(!oracle::can_lay_off(&run, &m("8S")));
    // One 4th card per 3-card set, none on a 4-card set.
    let set = vec![m("KC KD KH")];
    assert!(oracle::can_lay_off(&set, &m("KS")));
    assert!(!oracle::can_lay_off(&[m("KC KD KH KS")], &m("KS")));
    // No wrap past the king or below the ace.
    assert!(!oracle::can_lay_off(&[m("JS QS KS")], &m("AS")));

    // The doc example of `meld::showdown`.
    let knocker = m("5S 6S 7S 2H 3H 4H KC KD KH AC");
    let defender = m("8S 9S TS QD QH 4C 4D 7H 9C JC");
    assert_eq!(oracle::best_knock(&knocker, &defender, 10), (1, 54));
    // Gin: nothing is laid off.
    let (melds, _) = oracle::parse_brackets("[5S 6S 7S] [2H 3H 4H] [KC KD KH] AC");
    assert_eq!(oracle::defender_deadwood(&melds, true, &defender), 54);
    assert_eq!(oracle::defender_deadwood(&melds, false, &defender), 54);
    let short = m("8S 9S KD");
    assert_eq!(oracle::defender_deadwood(&melds, true, &short), 27);
    assert_eq!(oracle::defender_deadwood(&melds, false, &short), 10);
}
