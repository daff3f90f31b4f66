//! Hardening: every text reader of the library takes any input without
//! panicking and answers bad input with a clear error.
//!
//! The readers: card text ([`Card`], [`CardSet`], [`Deck`], bracket
//! notation), rules ([`Rules::from_toml`], [`Rules::set_from_text`],
//! [`Rules::preset`]), strategy profiles ([`Profile`] inline and TOML),
//! experiment specs ([`Experiment::from_toml`]), the bot protocol reader
//! ([`read_move`], [`read_hello`], [`Move`], [`rules_from_table`]) and the
//! `solve --batch` / `showdown --batch` readers of the command line.
//!
//! Each gets (a) arbitrary text: any Unicode, control characters, pieces of
//! its grammar, very long input; and (b) near-valid input: valid text with
//! one part swapped for a wrong type, an out-of-range or huge number, a
//! duplicate, a stray separator. A panic fails the property (proptest
//! catches it and shrinks the input). Errors must be non-empty and, where
//! the reader promises it, name the input and what is allowed; a round trip
//! (print, then read back) must give the value back where one exists.
//!
//! Case counts are small so that the file runs in a few seconds; set
//! `PROPTEST_CASES` for a longer run (it overrides every count here), e.g.
//! `PROPTEST_CASES=20000 cargo test --release --test it fuzz::`.

use std::fmt::Display;

use crate::cmd::ginlab;
use ginlab::engine::{Deck, DeckError};
use ginlab::experiment::{Experiment, ExperimentError, Pairing, Study, Sweep};
use ginlab::meld::{self, HandSpec};
use ginlab::protocol::{Move, ReplyError, read_hello, read_move, rules_from_table, rules_table};
use ginlab::rules::{Deal, KNOBS, KnockLimit, NextDealer, PRESETS, RulesError, Shutout};
use ginlab::sim::Work;
use ginlab::strategy::{
    Bot, BotHost, BotSpec, Greedy, McCaches, McParams, OwnRollout, Profile, ProfileError,
    RandomParams, Rollout, SimpleParams, Tracker, Weighting,
};
use ginlab::{Arrangement, Card, CardSet, Rules, Suit};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::json;
use std::sync::Arc;

// ---------------------------------------------------------------------------
// Shared strategies and checks

/// Pieces of every grammar here, and characters that trip parsers: quotes,
/// separators, huge and odd numbers, control and invisible characters,
/// look-alike digits and letters.
#[rustfmt::skip]
const PIECES: &[&str] = &[
    "A", "a", "2", "7", "9", "10", "T", "t", "J", "Q", "K", "k", "1", "0", "11", "C", "D", "H",
    "S", "s", "X", "♣", "♦", "♥", "♠", "♧", "♤", "\u{fe0f}", "[", "]", ",", " ", "  ", "\t", "\n",
    "\r\n", "\r", "=", ":", "/", ".", "..=", "\"", "'", "#", "{", "}", "-", "+", "_", "\\",
    "\\u0000", "18446744073709551616", "18446744073709551615", "9223372036854775808",
    "-9223372036854775809", "4294967296", "256", "1e309", "1e-400", "nan", "NaN", "inf", "-inf",
    "-0", "0.5", "1.0", "5.", ".5", "0x10", "1_0", "true", "false", "null", "exec:", "greedy",
    "mc", "tracker", "random", "simple", "knock_at", "gin_bonus", "preset", "upcard", "off",
    "move", "hello", "type", "id", "discard", "knock", "\u{0}", "\u{7}", "\u{1b}[31m", "\u{7f}",
    "\u{85}", "\u{a0}", "\u{200b}", "\u{2028}", "\u{3000}", "\u{feff}", "\u{301}", "\u{10ffff}",
    "𝟕", "٧", "Ⅹ", "Ｔ", "ß", "İ", "ı", "🂡",
];

/// Arbitrary text: any characters, raw bytes read lossily, grammar pieces
/// strung together, and long repetitions.
fn junk() -> impl Strategy<Value = String> {
    prop_oneof![
        vec(any::<char>(), 0..48).prop_map(|c| c.into_iter().collect()),
        vec(any::<u8>(), 0..64).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        vec(select(PIECES), 0..32).prop_map(|p| p.concat()),
        (vec(select(PIECES), 1..4), 1usize..4000).prop_map(|(p, n)| p.concat().repeat(n)),
    ]
}

/// `text` as a TOML string.
fn toml_str(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// Whether a profile file's `value` has the TOML type parameter `key` takes
/// (strategies/README.md; an integer is also a number). Unknown keys are
/// refused anyway.
fn file_type_fits(key: &str, value: &toml::Value) -> bool {
    use toml::Value::{Boolean, Float, Integer, String};
    match key {
        "schedule" | "rollout" | "own_rollout" | "base" | "weighting" => {
            matches!(value, String(_))
        }
        "calibrate" | "adapt" | "prune" => matches!(value, Boolean(_)),
        "knock_prob" | "safety" | "outs" | "draw_outs" | "hold" | "margin" | "confidence"
        | "adapt_prior" => {
            matches!(value, Integer(_) | Float(_))
        }
        _ => matches!(value, Integer(_)),
    }
}

/// An error's message is not blank.
fn clear(error: &impl Display) -> Result<String, TestCaseError> {
    let message = error.to_string();
    prop_assert!(!message.trim().is_empty(), "blank error message");
    Ok(message)
}

// ---------------------------------------------------------------------------
// Card text

/// Input as an error shows it: characters that would not show, or would
/// act on the terminal, escaped (quotes and backslashes as they are), and
/// after 80 characters `… (N more characters)`.
fn shown(token: &str) -> String {
    let count = token.chars().count();
    let mut out: String = token
        .chars()
        .take(80)
        .map(|c| match c {
            '\'' | '"' | '\\' => c.to_string(),
            _ => c.escape_debug().to_string(),
        })
        .collect();
    if count > 80 {
        let more = count - 80;
        let s = if more == 1 { "" } else { "s" };
        out.push_str(&format!("… ({more} more character{s})"));
    }
    out
}

/// Rank spellings the card parser takes, with the rank index (A = 0).
const RANK_WORDS: &[(&str, u8)] = &[
    ("A", 0),
    ("a", 0),
    ("2", 1),
    ("3", 2),
    ("4", 3),
    ("5", 4),
    ("6", 5),
    ("7", 6),
    ("8", 7),
    ("9", 8),
    ("T", 9),
    ("t", 9),
    ("10", 9),
    ("J", 10),
    ("j", 10),
    ("Q", 11),
    ("q", 11),
    ("K", 12),
    ("k", 12),
];

/// Rank spellings it must refuse.
#[rustfmt::skip]
const BAD_RANKS: &[&str] = &[
    "", "1", "0", "11", "010", "AA", "B", "Z", "١", "٧", "𝟕", "Ⅹ", "Ｔ", "A\u{301}", "+1", "1O",
    "\u{0}", "ı", "İ", "-1", " ", "A ", "\u{200b}A",
];

/// Suit spellings the card parser takes.
const SUIT_WORDS: &[(&str, Suit)] = &[
    ("C", Suit::Clubs),
    ("c", Suit::Clubs),
    ("♣", Suit::Clubs),
    ("♧", Suit::Clubs),
    ("D", Suit::Diamonds),
    ("d", Suit::Diamonds),
    ("♦", Suit::Diamonds),
    ("♢", Suit::Diamonds),
    ("H", Suit::Hearts),
    ("h", Suit::Hearts),
    ("♥", Suit::Hearts),
    ("♡", Suit::Hearts),
    ("S", Suit::Spades),
    ("s", Suit::Spades),
    ("♠", Suit::Spades),
    ("♤", Suit::Spades),
];

/// Suit spellings it must refuse (the last one is emoji-style `♠️`).
#[rustfmt::skip]
const BAD_SUITS: &[&str] = &[
    "", "X", "x", "E", "0", "\u{0}", "\u{7}", "\u{200b}", "ß", "♚", "🂡", "\u{301}", "♠\u{fe0f}",
    "SS",
];

/// A card token: its text and the card when the text is valid.
fn card_token() -> impl Strategy<Value = (String, Option<Card>)> {
    let rank = prop_oneof![
        3 => select(RANK_WORDS).prop_map(|(t, r)| (t.to_owned(), Some(r))),
        1 => select(BAD_RANKS).prop_map(|t| (t.to_owned(), None)),
    ];
    let suit = prop_oneof![
        3 => select(SUIT_WORDS).prop_map(|(t, s)| (t.to_owned(), Some(s))),
        1 => select(BAD_SUITS).prop_map(|t| (t.to_owned(), None)),
    ];
    (rank, suit).prop_map(|((rt, r), (st, s))| {
        let card = r.zip(s).map(|(r, s)| Card::new(ginlab::Rank::new(r), s));
        (format!("{rt}{st}"), card)
    })
}

/// White space the parsers skip around a token.
const PADDING: &[&str] = &["", " ", "  ", "\t", "\n", "\u{3000}", "\u{a0}", "\r\n"];

/// Separators between cards in a list.
#[rustfmt::skip]
const SEPARATORS: &[&str] = &[
    " ", ",", ", ", " ,", "\t", "\n", "  ", ",,", "\u{3000}", "\u{2028}",
];

/// A whole deck in a random order.
fn deck() -> impl Strategy<Value = Vec<Card>> {
    Just(Card::all().collect::<Vec<_>>()).prop_shuffle()
}

/// A random subset of `n` cards (in a random order).
fn cards(n: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<Card>> {
    (deck(), n).prop_map(|(deck, n)| deck[..n].to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Any text: a card or a clear error; a card prints back as itself.
    #[test]
    fn card_any_text(text in junk()) {
        match text.parse::<Card>() {
            Ok(card) => prop_assert_eq!(card.to_string().parse::<Card>(), Ok(card)),
            Err(e) => {
                let message = clear(&e)?;
                prop_assert!(!message.contains(char::is_control), "{message:?}");
                if !text.trim().is_empty() {
                    let named = message.contains(&shown(text.trim()));
                    prop_assert!(named, "{message} does not name {text:?}");
                }
            }
        }
    }

    /// A rank and a suit, each valid or not, with padding: parsed exactly
    /// when both are valid; an error names the token and what is allowed.
    #[test]
    fn card_near_valid(
        (token, card) in card_token(),
        pad in (select(PADDING), select(PADDING)),
    ) {
        let text = format!("{}{token}{}", pad.0, pad.1);
        match (text.parse::<Card>(), card) {
            (Ok(got), Some(card)) => prop_assert_eq!(got, card),
            (Ok(got), None) => prop_assert!(false, "{text:?} parsed as {got}"),
            (Err(e), Some(_)) => prop_assert!(false, "{text:?} refused: {e}"),
            (Err(e), None) => {
                let message = clear(&e)?;
                if token.trim().is_empty() {
                    return Ok(());
                }
                prop_assert!(message.contains(&format!("`{}`", shown(token.trim()))), "{message}");
                prop_assert!(
                    message.contains("suits are C D H S") || message.contains("ranks are A 2"),
                    "{message} lists nothing allowed"
                );
            }
        }
    }

    /// Lists of tokens, valid or not, with any separators: a set exactly
    /// when every token is a card and none repeats.
    #[test]
    fn card_set_near_valid(
        tokens in vec((card_token(), select(SEPARATORS)), 0..14),
        lead in select(PADDING),
    ) {
        let mut text = lead.to_owned();
        let mut expected: Result<CardSet, ()> = Ok(CardSet::EMPTY);
        for ((token, card), sep) in &tokens {
            text.push_str(token);
            text.push_str(sep);
            // A token of white space vanishes between separators.
            if token.chars().all(char::is_whitespace) {
                continue;
            }
            expected = match (expected, card) {
                (Ok(set), Some(card)) if !set.contains(*card) => Ok(set.with(*card)),
                _ => Err(()),
            };
        }
        match (text.parse::<CardSet>(), expected) {
            (Ok(set), Ok(want)) => {
                prop_assert_eq!(set, want);
                prop_assert_eq!(set.to_string().parse::<CardSet>(), Ok(set));
            }
            (Err(e), Err(())) => {
                clear(&e)?;
            }
            (got, want) => prop_assert!(false, "{text:?}: got {got:?}, want {want:?}"),
        }
    }

    /// Any text as a card list, a deck or a hand in bracket notation.
    #[test]
    fn card_lists_any_text(text in junk()) {
        if let Err(e) = text.parse::<CardSet>() {
            clear(&e)?;
        }
        match text.parse::<Deck>() {
            Ok(deck) => prop_assert_eq!(deck.to_string().parse::<Deck>(), Ok(deck)),
            Err(e) => {
                clear(&e)?;
            }
        }
        match text.parse::<HandSpec>() {
            Ok(HandSpec::Arranged(a)) => {
                prop_assert_eq!(a.to_string().parse::<Arrangement>(), Ok(a));
            }
            Ok(HandSpec::Cards(_)) => {}
            Err(e) => {
                clear(&e)?;
            }
        }
    }

    /// A shuffled deck, printed with any separators, reads back; with a card
    /// dropped, doubled or replaced the error says what is wrong.
    #[test]
    fn deck_near_valid(
        order in deck(),
        sep in select(SEPARATORS),
        change in 0usize..4,
        at in 0usize..52,
        (junk_token, _) in card_token(),
    ) {
        let mut words: Vec<String> = order.iter().map(ToString::to_string).collect();
        match change {
            0 => {}
            1 => {
                words.remove(at);
            }
            2 => words.insert(at, words[(at + 1) % 52].clone()),
            _ => words[at] = junk_token.clone(),
        }
        let text = words.join(sep);
        let got = text.parse::<Deck>();
        match change {
            0 => {
                let deck = got.unwrap();
                prop_assert_eq!(deck.cards(), &order[..]);
                prop_assert_eq!(deck.to_string().parse::<Deck>(), Ok(deck));
            }
            1 => {
                let e = got.unwrap_err();
                prop_assert_eq!(&e, &DeckError::Count(51));
                prop_assert!(clear(&e)?.contains("51 cards"));
            }
            2 => {
                let e = got.unwrap_err();
                prop_assert!(matches!(e, DeckError::Duplicate(_)), "{e}");
                prop_assert!(clear(&e)?.contains(&words[at]));
            }
            _ => match got {
                // The replacement may be a card (then one is doubled or
                // the right one is back), or an empty token (then 51).
                Ok(deck) => prop_assert_eq!(deck.cards(), &order[..]),
                Err(e) => {
                    clear(&e)?;
                }
            },
        }
    }

    /// A solved hand printed in bracket notation reads back to the same
    /// arrangement, however it is spaced; with a bracket moved, added or
    /// dropped it reads back or fails with a clear error.
    #[test]
    fn arrangement_near_valid(
        hand in cards(1..=11),
        cut in any::<proptest::sample::Index>(),
        stray in select(&["[", "]", "[[", "][", "", " ", ",", "X"][..]),
    ) {
        let hand: CardSet = hand.into_iter().collect();
        let best = meld::best_arrangement(hand);
        let text = best.to_string();
        prop_assert_eq!(text.parse::<Arrangement>(), Ok(best));
        let squeezed = text.replace("] ", "]").replace(" [", "[");
        prop_assert_eq!(squeezed.parse::<Arrangement>(), Ok(best));
        let at = cut.index(text.len() + 1);
        if text.is_char_boundary(at) {
            let mutated = format!("{}{stray}{}", &text[..at], &text[at..]);
            match mutated.parse::<HandSpec>() {
                Ok(spec) => prop_assert!(hand.is_superset(spec.cards()) || stray == "X"),
                Err(e) => {
                    clear(&e)?;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Rules

/// Any valid setting of every knob.
fn rules() -> impl Strategy<Value = Rules> {
    let limit = prop_oneof![
        (0u8..=10).prop_map(KnockLimit::Fixed),
        Just(KnockLimit::Upcard)
    ];
    let shutout = select(vec![
        Shutout::DoubleGameBonus,
        Shutout::DoubleTotal,
        Shutout::DoubleHands,
        Shutout::None,
    ]);
    let dealer = select(vec![
        NextDealer::Loser,
        NextDealer::Winner,
        NextDealer::Alternate,
    ]);
    let deal = select(vec![Deal::UpcardOffer, Deal::ElevenCards]);
    (
        (limit, any::<[bool; 6]>(), 0u32..=1000, 0u32..=1000),
        (
            prop::option::of(0u32..=1000),
            0u32..=1000,
            1u32..=10_000,
            0u32..=1000,
        ),
        (shutout, dealer, deal, 1u32..=10_000),
    )
        .prop_map(
            |(
                (limit, b, gin, undercut),
                (big, boxes, target, game),
                (shutout, next, deal, turns),
            )| {
                Rules {
                    knock_limit: limit,
                    ace_upcard_gin_only: b[0],
                    spade_upcard_doubles: b[1],
                    gin_bonus: gin,
                    undercut_bonus: undercut,
                    undercut_on_tie: b[2],
                    big_gin_bonus: big,
                    box_bonus: boxes,
                    game_target: target,
                    game_bonus: game,
                    shutout,
                    next_dealer: next,
                    last_discard_action: b[3],
                    deal,
                    max_turns: turns,
                    oklahoma_boxes: b[4],
                }
            },
        )
}

/// TOML value texts: in and out of every knob's range, of every TOML type,
/// and malformed.
#[rustfmt::skip]
const TOML_VALUES: &[&str] = &[
    "0", "1", "7", "10", "11", "-1", "1000", "1001", "10000", "10001", "4294967296",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "0x0a", "0o7", "0b1",
    "1_000", "+5", "007", "1.0", "10.0", "-0.0", "0.5", "nan", "+inf", "-inf", "1e3", "1e309",
    "true", "false", "True", "\"upcard\"", "\"off\"", "\"loser\"", "\"winner\"", "\"alternate\"",
    "\"none\"", "\"double_total\"", "\"double_game_bonus\"", "\"double_hands\"",
    "\"upcard_offer\"", "\"eleven_cards\"", "\"UPCARD\"", "\"\"", "\"10\"", "'upcard'",
    "\"\"\"upcard\"\"\"", "\"\\u0000\"", "\"standard\"", "\"hoyle\"", "\"oklahoma\"", "\"eaai\"",
    "\"vegas\"", "[]", "[1]", "[\"upcard\"]", "[[1], [\"a\"]]", "{}", "{ a = 1 }",
    "{ preset = \"hoyle\" }", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z", "", "upcard",
    "\"unclosed", "[1,", "{a=", "1 2",
];

/// Keys for a rules table: every knob, `preset`, and near misses.
fn rules_key() -> impl Strategy<Value = String> {
    let knob = select(KNOBS).prop_map(|k| k.name.to_owned());
    let odd = select(
        &[
            "preset",
            "gin-bonus",
            "GIN_BONUS",
            "gin_bonus ",
            "\"gin_bonus\"",
            "gin_bonus.x",
            "x",
            "\"\"",
            "\"\\u0007\"",
            "'knock_limit'",
        ][..],
    )
    .prop_map(str::to_owned);
    prop_oneof![4 => knob, 1 => odd]
}

/// Whether knob `name` takes `value`, read from the table in RULES.md
/// (independently of the library's own table).
fn knob_takes(name: &str, value: &toml::Value) -> bool {
    let int = |lo: i64, hi: i64| value.as_integer().is_some_and(|i| (lo..=hi).contains(&i));
    let word = |words: &[&str]| value.as_str().is_some_and(|s| words.contains(&s));
    match name {
        "knock_limit" => int(0, 10) || word(&["upcard"]),
        "ace_upcard_gin_only"
        | "spade_upcard_doubles"
        | "undercut_on_tie"
        | "last_discard_action"
        | "oklahoma_boxes" => value.is_bool(),
        "gin_bonus" | "undercut_bonus" | "box_bonus" | "game_bonus" => int(0, 1000),
        "big_gin_bonus" => int(0, 1000) || word(&["off"]),
        "game_target" | "max_turns" => int(1, 10_000),
        "shutout" => word(&["double_game_bonus", "double_total", "double_hands", "none"]),
        "next_dealer" => word(&["loser", "winner", "alternate"]),
        "deal" => word(&["upcard_offer", "eleven_cards"]),
        _ => panic!("no knob {name}"),
    }
}

fn knob_allowed(name: &str) -> &'static str {
    KNOBS.iter().find(|k| k.name == name).unwrap().allowed
}

/// The `preset = ...` line of a rules file, or none.
fn preset_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        select(&PRESETS[..]).prop_map(|p| format!("preset = \"{p}\"\n")),
        select(TOML_VALUES).prop_map(|v| format!("preset = {v}\n")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any rules print as TOML and read back the same; so do the
    /// protocol's knob table and each knob as `knob=value` text.
    #[test]
    fn rules_round_trip(rules in rules()) {
        let valid = rules.validate();
        match Rules::from_toml(&rules.to_toml()) {
            Ok(back) => {
                prop_assert!(valid.is_ok());
                prop_assert_eq!(&back, &rules);
            }
            Err(e) => prop_assert_eq!(Err(e), valid),
        }
        match rules_from_table(&rules_table(&rules)) {
            Ok(back) => prop_assert_eq!(&back, &rules),
            Err(e) => prop_assert_eq!(Err(e), rules.validate()),
        }
        let mut copy = Rules::standard();
        for knob in KNOBS {
            let value = rules.get(knob.name).unwrap();
            copy.set_from_text(&format!("{} = {value}", knob.name)).unwrap();
            if let toml::Value::String(word) = &value {
                copy.set_from_text(&format!("{}={word}", knob.name)).unwrap();
            }
        }
        prop_assert_eq!(copy, rules);
    }

    /// Any name: a preset exactly for the four names; else the error names
    /// it and lists them.
    #[test]
    fn rules_preset_any_name(
        name in prop_oneof![junk(), select(&PRESETS[..]).prop_map(str::to_owned)],
    ) {
        match Rules::preset(&name) {
            Ok(_) => prop_assert!(PRESETS.contains(&name.as_str())),
            Err(e) => {
                let message = clear(&e)?;
                let listed = message.contains("standard, hoyle, oklahoma, eaai");
                prop_assert!(message.contains(&shown(&name)) && listed, "{message}");
            }
        }
    }

    /// Any text as a rules file or a `--rule` assignment.
    #[test]
    fn rules_any_text(text in junk()) {
        match Rules::from_toml(&text) {
            Ok(rules) => prop_assert_eq!(rules.validate(), Ok(())),
            Err(e) => {
                clear(&e)?;
            }
        }
        let mut rules = Rules::standard();
        match rules.set_from_text(&text) {
            Ok(()) => prop_assert!(text.contains('=')),
            Err(e) => {
                clear(&e)?;
            }
        }
    }

    /// One knob set to any TOML value, after any preset line: accepted
    /// exactly when RULES.md allows the value (and the knobs fit together);
    /// a refused value is named with the knob and what it takes.
    #[test]
    fn rules_file_one_knob(
        preset in preset_line(),
        key in rules_key(),
        value in select(TOML_VALUES),
    ) {
        let text = format!("{preset}{key} = {value}\n");
        let result = Rules::from_toml(&text);
        let Ok(table) = toml::from_str::<toml::Table>(&text) else {
            let e = result.unwrap_err();
            prop_assert!(matches!(e, RulesError::Toml(_)), "{e:?}");
            prop_assert!(clear(&e)?.starts_with("invalid TOML"));
            return Ok(());
        };
        let base = match table.get("preset") {
            None => Ok(Rules::standard()),
            Some(toml::Value::String(p)) => Rules::preset(p),
            Some(_) => Err(RulesError::Toml(String::new())),
        };
        let Ok(mut want) = base else {
            let message = clear(&result.unwrap_err())?;
            let named = message.contains("preset") || message.contains("unknown rules");
            prop_assert!(named, "{message}");
            return Ok(());
        };
        for (name, v) in table.iter().filter(|(k, _)| *k != "preset") {
            if !KNOBS.iter().any(|k| k.name == name) {
                let message = clear(&result.unwrap_err())?;
                prop_assert!(message.contains(&format!("unknown knob `{}`", shown(name))), "{message}");
                prop_assert!(message.contains("knock_limit, ace_upcard_gin_only"), "{message}");
                return Ok(());
            }
            if !knob_takes(name, v) {
                let e = result.unwrap_err();
                let message = clear(&e)?;
                prop_assert!(matches!(e, RulesError::BadValue { .. }), "{e:?}");
                prop_assert!(message.contains(&format!("`{name}`")), "{message}");
                prop_assert!(message.contains(knob_allowed(name)), "{message}");
                prop_assert!(message.contains(&v.to_string()), "{message}");
                return Ok(());
            }
            want.set(name, v).unwrap();
        }
        match want.validate() {
            Ok(()) => prop_assert_eq!(result, Ok(want)),
            Err(e) => prop_assert_eq!(result, Err(e)),
        }
    }

    /// Several knobs at once, any values: never a panic; accepted rules
    /// are valid and hold every value given.
    #[test]
    fn rules_file_many_knobs(
        preset in preset_line(),
        lines in vec((rules_key(), select(TOML_VALUES)), 0..6),
        header in select(&["", "[x]\n", "[[variant]]\n", "[gin_bonus]\n"][..]),
    ) {
        let body: String = lines.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
        let text = format!("{preset}{body}{header}");
        match Rules::from_toml(&text) {
            Ok(rules) => {
                prop_assert_eq!(rules.validate(), Ok(()));
                let table: toml::Table = toml::from_str(&text).unwrap();
                for (name, value) in table.iter().filter(|(k, _)| *k != "preset") {
                    prop_assert_eq!(&rules.get(name).unwrap(), value);
                }
            }
            Err(e) => {
                clear(&e)?;
            }
        }
    }

    /// `knob=value` text: the value is one TOML value (or else a bare word),
    /// so it means what `knob = value` means in a rules file; text that is
    /// more than one value (a second line, a second key) is refused.
    #[test]
    fn rules_assignment_near_valid(
        key in rules_key(),
        gap in (select(PADDING), select(PADDING)),
        value in prop_oneof![
            3 => select(TOML_VALUES).prop_map(str::to_owned),
            1 => select(&["upcard", "winner", "off", "none", "double total", "5 # five",
                          "5\nx = 1", "5\n[t]", "\"a\"\nb = 2", "5\r\nv = 6", "true\n"][..])
                .prop_map(str::to_owned),
        ],
    ) {
        let text = format!("{key}{}={}{value}", gap.0, gap.1);
        let mut rules = Rules::standard();
        let result = rules.set_from_text(&text);
        let name = key.trim();
        let trimmed = value.trim();
        if !KNOBS.iter().any(|k| k.name == name) {
            let e = result.unwrap_err();
            prop_assert!(clear(&e)?.contains(&format!("unknown knob `{}`", shown(name))), "{e}");
            return Ok(());
        }
        if trimmed.contains(['\n', '\r']) {
            let e = result.expect_err(&format!("{text:?} is more than one value"));
            prop_assert!(clear(&e)?.contains(&format!("`{name}`")), "{e}");
            return Ok(());
        }
        let as_file = Rules::from_toml(&format!("{name} = {trimmed}"));
        match (result, as_file) {
            (Ok(()), Ok(file)) => prop_assert_eq!(rules.get(name), file.get(name)),
            (Ok(()), Err(_)) => {
                // A bare word: the same as the quoted word in a file.
                let quoted = Rules::from_toml(&format!("{name} = \"{trimmed}\"")).unwrap();
                prop_assert_eq!(rules.get(name), quoted.get(name));
            }
            (Err(e), _) => {
                let message = clear(&e)?;
                prop_assert!(message.contains(&format!("`{name}`")), "{message}");
                prop_assert!(message.contains(knob_allowed(name)), "{message}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Strategy profiles

fn tracker() -> impl Strategy<Value = Tracker> {
    (
        prop::option::of(0u8..=10),
        (0.0f32..=20.0, 0u8..=20, 0.0f32..=20.0, 0.0f32..=20.0),
        (0.0f32..=5.0, -50.0f32..=50.0, 0u32..=31),
    )
        .prop_map(
            |(knock_at, (safety, slack, outs, draw_outs), (hold, margin, late))| {
                let mut t = Tracker::default();
                t.knock_at = knock_at;
                t.safety = safety;
                t.slack = slack;
                t.outs = outs;
                t.draw_outs = draw_outs;
                t.hold = hold;
                t.margin = margin;
                t.late_stock = late;
                t
            },
        )
}

fn mc_params() -> impl Strategy<Value = McParams> {
    let rollout = select(vec![Rollout::Greedy, Rollout::Tracker]);
    (
        (
            1u32..=4096,
            rollout.clone(),
            rollout,
            1u8..=11,
            prop::option::of(1u8..=30),
        ),
        (
            prop::option::of(0u8..=10),
            prop::option::of(0u8..=10),
            prop::option::of(select(vec![
                OwnRollout::Greedy,
                OwnRollout::Tracker,
                OwnRollout::Frozen,
            ])),
        ),
        (
            any::<bool>(),
            0.0f64..=10.0,
            any::<bool>(),
            any::<u64>(),
            any::<bool>(),
            any::<bool>(),
            prop::option::of(0.01f64..0.99),
            prop::option::of(0.0f64..0.99),
            prop::option::of(0.01f64..=1.0),
        ),
    )
        .prop_map(
            |(
                (samples, rollout, base, discards, frozen_turns),
                (own, opp, own_rollout),
                (w, confidence, calibrate, seed, adapt, prune, prior, share, opp_share),
            )| {
                // Frozen plays on greedy rollouts only.
                let own_rollout =
                    own_rollout.filter(|&o| o != OwnRollout::Frozen || rollout == Rollout::Greedy);
                // Adapt and knock shares play on the fast greedy path only.
                let fast = rollout == Rollout::Greedy && own_rollout != Some(OwnRollout::Tracker);
                let adapt = adapt && fast;
                McParams {
                    samples,
                    budget_ms: None,
                    game_budget_ms: None,
                    game_worlds: None,
                    rollout,
                    own_rollout,
                    base,
                    discards,
                    own_knock_at: own,
                    opp_knock_at: opp,
                    weighting: if w {
                        Weighting::Tracker
                    } else {
                        Weighting::None
                    },
                    confidence,
                    calibrate,
                    adapt,
                    adapt_prior: prior.filter(|_| adapt).unwrap_or(0.5),
                    adapt_share: share.filter(|_| adapt && fast).unwrap_or(0.0),
                    opp_knock_share: opp_share.filter(|_| !adapt && fast).unwrap_or(1.0),
                    frozen_turns: frozen_turns.filter(|_| own_rollout == Some(OwnRollout::Frozen)),
                    prune,
                    seed,
                    caches: McCaches::default(),
                }
            },
        )
}

/// A word of a bot's command line: plain, or with spaces and quotes.
fn command_word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z./_-]{1,12}",
        vec(
            select(&["a", "b", " ", "'", "\"", "\t", "é", "=", ",", ":", "\\"][..]),
            0..8
        )
        .prop_map(|p| p.concat()),
    ]
}

/// Any profile, of every kind.
fn profile() -> impl Strategy<Value = Profile> {
    let schedule = vec((0u32..60, 0u8..=10), 0..4).prop_map(|mut steps| {
        steps.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        steps.dedup_by_key(|&mut (s, _)| s);
        steps
    });
    prop_oneof![
        (0.0f64..=1.0).prop_map(|knock_prob| Profile::new(RandomParams { knock_prob })),
        Just(Profile::new(SimpleParams)),
        (prop::option::of(0u8..=10), schedule)
            .prop_map(|(knock_at, schedule)| Profile::new(Greedy::new(knock_at, schedule))),
        tracker().prop_map(Profile::new),
        mc_params().prop_map(Profile::new),
        ("[a-z0-9./_-]{1,12}", vec(command_word(), 0..4)).prop_map(|(program, args)| {
            let command = std::iter::once(program).chain(args).collect();
            Profile::new(Arc::new(Bot::new(BotSpec::new(command), &BotHost::new())))
        }),
    ]
}

/// The parameter names of each kind, and near misses.
#[rustfmt::skip]
const PROFILE_KEYS: &[&str] = &[
    "knock_prob", "knock_at", "schedule", "safety", "slack", "outs", "draw_outs", "hold", "margin",
    "late_stock", "samples", "rollout", "base", "own_knock_at", "opp_knock_at", "weighting",
    "objective", "discards", "confidence", "calibrate", "seed", "own_rollout", "adapt",
    "frozen_turns", "prune", "adapt_prior", "knock", "", "KNOCK_AT",
    "knock_at ", "x",
];

/// Parameter value texts: in and out of range, odd numbers, words.
#[rustfmt::skip]
const PROFILE_VALUES: &[&str] = &[
    "0", "1", "5", "10", "11", "20", "31", "32", "-1", "-0", "0.5", "1.5", "5.0", "1e1", "-50",
    "-51", "50.5", "4096", "4097", "256", "18446744073709551615", "18446744073709551616", "nan",
    "NaN", "inf", "-inf", "+5", "0x5", "1_0", "", " ", "٥", "𝟓", "greedy", "tracker", "frozen", "none",
    "points", "game", "true", "false", "TRUE", "20:5/10:2", "10:2/20:5", "20:5/20:2", "20:11",
    "20:5/", ":", "20", "4294967296:5", "20:-1",
];

#[rustfmt::skip]
const PROFILE_KINDS: &[&str] = &[
    "random", "simple", "greedy", "tracker", "mc", "Random", " greedy ", "gredy", "", "exec",
    "external",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any profile prints in its inline form and reads back the same.
    #[test]
    fn profile_round_trip(profile in profile()) {
        let text = profile.to_string();
        prop_assert_eq!(text.parse::<Profile>(), Ok(profile), "{}", text);
    }

    /// Any text as an inline profile or a profile file (an `exec:` profile
    /// is only read, never started).
    #[test]
    fn profile_any_text(text in junk(), exec in any::<bool>()) {
        let text = if exec { format!("exec:{text}") } else { text };
        match text.parse::<Profile>() {
            Ok(p) => {
                if let Some(bot) = p.bot() {
                    prop_assert!(bot.spec().command.first().is_some_and(|w| !w.is_empty()));
                }
                prop_assert_eq!(p.to_string().parse::<Profile>(), Ok(p));
            }
            Err(e) => {
                clear(&e)?;
            }
        }
        if let Err(e) = Profile::from_toml(&text) {
            clear(&e)?;
        }
    }

    /// `kind:key=value,...` with any kinds, keys and values: never a panic;
    /// a refused parameter is named with what it takes; an accepted
    /// profile prints in a form that reads back the same.
    #[test]
    fn profile_inline_near_valid(
        kind in select(PROFILE_KINDS),
        params in vec((select(PROFILE_KEYS), select(PROFILE_VALUES)), 0..4),
        sep in select(&[",", ", ", " , ", ",,"][..]),
    ) {
        let params: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let text = if params.is_empty() {
            kind.to_owned()
        } else {
            format!("{kind}:{}", params.join(sep))
        };
        match text.parse::<Profile>() {
            Ok(p) => prop_assert_eq!(p.to_string().parse::<Profile>(), Ok(p)),
            Err(e) => {
                let message = clear(&e)?;
                match &e {
                    ProfileError::UnknownKind(k) => {
                        prop_assert_eq!(k.as_str(), kind.trim());
                        prop_assert!(message.contains("random, simple, greedy, tracker, mc"));
                    }
                    ProfileError::UnknownKey { key, allowed, .. } => {
                        let named = message.contains(&format!("`{}`", key));
                        prop_assert!(named && message.contains(allowed), "{}", message);
                    }
                    ProfileError::BadValue { key, value, expected, .. } => {
                        prop_assert!(message.contains(&format!("`{value}`")), "{message}");
                        let named = message.contains(key) && message.contains(expected);
                        prop_assert!(named, "{message}");
                    }
                    ProfileError::Malformed(p) => prop_assert!(message.contains(p.as_str())),
                    ProfileError::DuplicateKey { key, text: given } => {
                        let twice = params
                            .iter()
                            .filter(|p| p.split('=').next().map(str::trim) == Some(key.as_str()))
                            .count();
                        prop_assert!(twice >= 2 && given == &text, "{message}");
                        prop_assert!(message.contains(&format!("`{key}` twice")), "{message}");
                    }
                    ProfileError::Conflict { kind: k, .. } => {
                        // Either two parameters that exclude each other, or
                        // one that needs another: the message says which.
                        let says = message.contains("not both") || message.contains(": give ");
                        prop_assert!(message.contains(k) && says, "{message}");
                    }
                    ProfileError::File(_) => prop_assert!(false, "{message}"),
                }
            }
        }
    }

    /// A profile file means what its parameters mean one by one: it is
    /// accepted exactly when its `kind` is a plain kind name and each
    /// parameter has its TOML type ([`file_type_fits`]) and is accepted on
    /// its own inline, and then it is the profile those parameters make.
    /// (A value can't smuggle in another parameter.)
    #[test]
    fn profile_file_near_valid(
        kind in prop_oneof![
            select(PROFILE_KINDS).prop_map(toml_str),
            Just("\"greedy:knock_at=3\"".to_owned()),
            Just("\"exec:bot\"".to_owned()),
            Just("3".to_owned()),
        ],
        params in vec((select(PROFILE_KEYS), prop_oneof![
            select(PROFILE_VALUES).prop_map(toml_str),
            select(TOML_VALUES).prop_map(str::to_owned),
            Just("\"20:5,knock_at=3\"".to_owned()),
            Just("\"1,samples=2\"".to_owned()),
            Just("[1, 2]".to_owned()),
        ]), 0..3),
        name in select(&["", "name = \"mine\"\n", "name = 3\n"][..]),
    ) {
        let body: String = params
            .iter()
            .filter(|(k, _)| !k.is_empty() && !k.ends_with(' '))
            .map(|(k, v)| format!("{k} = {v}\n"))
            .collect();
        let text = format!("kind = {kind}\n{name}{body}");
        let result = Profile::from_toml(&text);
        let Ok(table) = toml::from_str::<toml::Table>(&text) else {
            prop_assert!(clear(&result.unwrap_err())?.contains("invalid TOML"));
            return Ok(());
        };
        let kind = table["kind"].as_str().unwrap_or("");
        if kind == "external" {
            if let Err(e) = result {
                clear(&e)?;
            }
            return Ok(());
        }
        let mut refused = table.get("name").is_some_and(|v| !v.is_str())
            || !matches!(kind, "random" | "simple" | "greedy" | "tracker" | "mc");
        let mut inline = kind.to_owned();
        for (key, value) in table.iter().filter(|(k, _)| !matches!(k.as_str(), "kind" | "name")) {
            let text = match value {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            refused |= text.contains([',', '\n']) || !file_type_fits(key, value);
            let sep = if inline.contains(':') { ',' } else { ':' };
            inline = format!("{inline}{sep}{key}={text}");
        }
        let want = if refused { Err(()) } else { inline.parse::<Profile>().map_err(|_| ()) };
        match (result, want) {
            (Ok((p, name)), Ok(w)) => {
                prop_assert_eq!(p, w);
                prop_assert_eq!(name.as_deref(), table.get("name").and_then(|v| v.as_str()));
            }
            (Err(e), Err(())) => {
                clear(&e)?;
            }
            (got, want) => prop_assert!(false, "{text:?}: got {got:?}, want {want:?}"),
        }
    }

    /// External profile files: any command, timeout, options and log
    /// folder of any TOML type.
    #[test]
    fn profile_external_near_valid(
        command in prop_oneof![
            vec(command_word(), 0..3).prop_map(|w| {
                format!("[{}]", w.iter().map(|w| toml_str(w)).collect::<Vec<_>>().join(", "))
            }),
            command_word().prop_map(|w| toml_str(&w)),
            select(TOML_VALUES).prop_map(str::to_owned),
            Just("[\"bot\", 1]".to_owned()),
        ],
        timeout in prop_oneof![Just(None), select(TOML_VALUES).prop_map(Some),
                               select(&["1", "3600000", "3600001", "0"][..]).prop_map(Some)],
        options in prop_oneof![Just(None), select(TOML_VALUES).prop_map(Some),
                               Just(Some("{ depth = 2, nested = { x = nan, d = 1979-05-27 } }"))],
        extra in select(&["", "log_dir = \"logs\"\n", "log_dir = 3\n", "timeout = 5\n"][..]),
    ) {
        let mut text = format!("kind = \"external\"\ncommand = {command}\n{extra}");
        if let Some(t) = timeout {
            text.push_str(&format!("timeout_ms = {t}\n"));
        }
        if let Some(o) = options {
            text.push_str(&format!("options = {o}\n"));
        }
        match Profile::from_toml(&text) {
            Ok((p, _)) if p.bot().is_some() => {
                let bot = p.bot().unwrap();
                let spec = bot.spec();
                prop_assert!(!spec.command.is_empty() && !spec.command[0].is_empty());
                prop_assert!((1..=3_600_000).contains(&spec.timeout_ms));
            }
            Ok((other, _)) => prop_assert!(false, "{other:?}"),
            Err(e) => {
                let message = clear(&e)?;
                if let ProfileError::BadValue { key, expected, .. } = &e {
                    prop_assert!(message.contains(key) && message.contains(expected));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Experiment specs

/// The parts of a valid spec, to print as TOML and to compare with.
#[derive(Clone, Debug)]
struct Spec {
    name: Option<String>,
    seed: i64,
    amount: Work,
    duplicate: Option<bool>,
    study: Study,
    players: Vec<String>,
    pairing: Option<Pairing>,
    variants: Vec<VariantSpec>,
}

/// A `[[variant]]` table: name, preset, knob lines.
type VariantSpec = (String, Option<&'static str>, Vec<(String, String)>);

impl Spec {
    fn lines(&self) -> Vec<(String, String)> {
        let q = toml_str;
        let mut lines = Vec::new();
        if let Some(name) = &self.name {
            lines.push(("name".into(), q(name)));
        }
        lines.push(("seed".into(), self.seed.to_string()));
        match &self.amount {
            Work::Games(n) => lines.push(("games".into(), n.to_string())),
            Work::Hands(n) => lines.push(("hands".into(), n.to_string())),
            Work::Decks { .. } => unreachable!("a spec plays hands or games"),
        }
        if let Some(d) = self.duplicate {
            lines.push(("duplicate".into(), d.to_string()));
        }
        match &self.study {
            Study::Match => {
                let players: Vec<String> = self.players.iter().map(|p| q(p)).collect();
                lines.push(("players".into(), format!("[{}]", players.join(", "))));
            }
            Study::Sweep(Sweep {
                strategy,
                param,
                values,
                vs,
                ..
            }) => {
                lines.push(("study".into(), q("sweep")));
                lines.push(("strategy".into(), q(strategy)));
                lines.push(("param".into(), q(param)));
                lines.push(("values".into(), q(values)));
                lines.push(("vs".into(), q(vs)));
            }
            Study::Balance { strategy } => {
                lines.push(("study".into(), q("balance")));
                lines.push(("strategy".into(), q(strategy)));
            }
        }
        if let (Some(p), Study::Match) = (self.pairing, &self.study) {
            let word = match p {
                Pairing::HeadToHead => "head_to_head",
                Pairing::RoundRobin => "round_robin",
                Pairing::Gauntlet => "gauntlet",
            };
            lines.push(("pairing".into(), q(word)));
        }
        lines
    }

    fn variant_text(&self) -> String {
        let mut text = String::new();
        for (name, preset, knobs) in &self.variants {
            text.push_str(&format!("[[variant]]\nname = {name:?}\n"));
            if let Some(p) = preset {
                text.push_str(&format!("preset = {p:?}\n"));
            }
            for (k, v) in knobs {
                text.push_str(&format!("{k} = {v}\n"));
            }
        }
        text
    }

    fn text(&self, lines: &[(String, String)]) -> String {
        let mut text: String = lines.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
        text.push_str(&self.variant_text());
        text
    }
}

fn spec() -> impl Strategy<Value = Spec> {
    let word = "[a-z][a-z0-9_:=.-]{0,10}";
    let study = prop_oneof![
        Just(Study::Match),
        (word, word, "[0-9]{1,2}(\\.\\.=[0-9]{1,2})?", word).prop_map(
            |(strategy, param, values, vs)| {
                Study::Sweep(Sweep {
                    strategy,
                    param,
                    values,
                    vs,
                    objective: None,
                })
            }
        ),
        word.prop_map(|strategy| Study::Balance { strategy }),
    ];
    let amount = prop_oneof![
        (1i64..=i64::MAX).prop_map(|n| Work::Games(n as u64)),
        (1i64..=i64::MAX).prop_map(|n| Work::Hands(n as u64)),
    ];
    let knob = (select(KNOBS), 0usize..4).prop_map(|(k, i)| {
        let value = match knob_allowed(k.name) {
            "true or false" => ["true", "false"][i % 2].to_owned(),
            a if a.starts_with("an integer 1") => ["1", "10", "200", "10000"][i].to_owned(),
            a if a.starts_with("an integer 0 to 10,") => {
                ["0", "10", "\"upcard\"", "7"][i].to_owned()
            }
            a if a.starts_with("an integer") => ["0", "1000", "25", "10"][i].to_owned(),
            a => {
                let words: Vec<&str> = a.split('"').skip(1).step_by(2).collect();
                format!("{:?}", words[i % words.len()])
            }
        };
        (k.name.to_owned(), value)
    });
    let variant = (
        prop_oneof![
            select(&PRESETS[..]).prop_map(str::to_owned),
            "[a-z][a-z0-9-]{0,8}"
        ],
        prop::option::of(select(&PRESETS[..])),
        vec(knob, 0..3),
    );
    (
        (
            prop::option::of("[A-Za-z0-9_-]{1,12}"),
            0i64..=i64::MAX,
            amount,
            prop::option::of(any::<bool>()),
        ),
        (
            study,
            vec(word, 2..5),
            prop::option::of(select(vec![
                Pairing::HeadToHead,
                Pairing::RoundRobin,
                Pairing::Gauntlet,
            ])),
        ),
        vec(variant, 0..3),
    )
        .prop_map(
            |((name, seed, amount, duplicate), (study, mut players, pairing), mut variants)| {
                // Only a match spec takes a pairing, and head_to_head (the
                // default) exactly two players.
                let pairing = pairing.filter(|_| study == Study::Match);
                // A balance study plays every deal once and takes no
                // `duplicate`.
                let duplicate = duplicate.filter(|_| !matches!(study, Study::Balance { .. }));
                if pairing.unwrap_or(Pairing::HeadToHead) == Pairing::HeadToHead {
                    players.truncate(2);
                }
                variants.sort_by(|a, b| a.0.cmp(&b.0));
                variants.dedup_by(|a, b| a.0 == b.0);
                // A variant not named after a preset names its preset.
                for (name, preset, _) in &mut variants {
                    if preset.is_none() && !PRESETS.contains(&name.as_str()) {
                        *preset = Some("standard");
                    }
                }
                // Knobs set twice in one table are a TOML error; keep the first.
                for (_, _, knobs) in &mut variants {
                    let mut seen = Vec::new();
                    knobs.retain(|(k, _)| {
                        !seen.contains(k) && {
                            seen.push(k.clone());
                            true
                        }
                    });
                }
                Spec {
                    name,
                    seed,
                    amount,
                    duplicate,
                    study,
                    players,
                    pairing,
                    variants,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A valid spec reads back as written, each variant's rules being its
    /// preset plus its knobs, and accepted rules valid.
    #[test]
    fn experiment_valid(spec in spec()) {
        let text = spec.text(&spec.lines());
        let e = match Experiment::from_toml(&text) {
            Ok(e) => e,
            Err(ExperimentError::Variant {
                source: RulesError::Inconsistent(_),
                ..
            }) => return Ok(()),
            Err(other) => return Err(TestCaseError::fail(format!("{text}\n{other}"))),
        };
        prop_assert_eq!(&e.name, &spec.name);
        prop_assert_eq!(e.seed, spec.seed as u64);
        prop_assert_eq!(e.amount, spec.amount);
        prop_assert_eq!(e.duplicate, spec.duplicate.unwrap_or(true));
        prop_assert_eq!(&e.study, &spec.study);
        if spec.study == Study::Match {
            prop_assert_eq!(&e.players, &spec.players);
        }
        prop_assert_eq!(e.pairing, spec.pairing.unwrap_or(Pairing::HeadToHead));
        if spec.variants.is_empty() {
            prop_assert_eq!(&e.variants, &vec![("standard".to_owned(), Rules::standard())]);
        }
        for ((name, rules), (want, preset, knobs)) in e.variants.iter().zip(&spec.variants) {
            prop_assert_eq!(name, want);
            let preset = preset.or(PRESETS.iter().copied().find(|p| p == name));
            let mut file = preset.map(|p| format!("preset = {p:?}\n")).unwrap_or_default();
            for (k, v) in knobs {
                file.push_str(&format!("{k} = {v}\n"));
            }
            prop_assert_eq!(rules, &Rules::from_toml(&file).unwrap());
        }
    }

    /// A valid spec with one key given a wrong value, dropped, doubled or
    /// joined by an unknown key, and any variant tables: never a panic; an
    /// error names the key; an accepted spec keeps its invariants.
    #[test]
    fn experiment_near_valid(
        spec in spec(),
        change in 0usize..5,
        at in any::<proptest::sample::Index>(),
        value in prop_oneof![
            select(TOML_VALUES).prop_map(str::to_owned),
            junk().prop_map(|j| toml_str(&j)),
        ],
        key in select(&["seed", "games", "hands", "players", "study", "name", "pairing",
                        "gmaes", "Seed", "variant", "x.y", "\"\""][..]),
        variant in vec((rules_key(), select(TOML_VALUES)), 0..3),
        tail in select(&[
            "",
            "[[variant.sub]]\nx = 1\n[[variant.sub]]\n",
            "[variant.t]\na = [{ b = nan }]\n",
            "[[variant]]\n",
            "[[variant]]\nname = \"extra\"\n",
            "[variant]\n",
        ][..]),
    ) {
        let mut lines = spec.lines();
        let i = at.index(lines.len());
        match change {
            0 => lines[i].1 = value.clone(),
            1 => {
                lines.remove(i);
            }
            2 => lines.push(lines[i].clone()),
            3 => lines.push((key.to_owned(), value.clone())),
            _ => {}
        }
        let mut text = spec.text(&lines);
        if change == 4 {
            text.push_str("[[variant]]\nname = \"extra\"\n");
            for (k, v) in &variant {
                text.push_str(&format!("{k} = {v}\n"));
            }
            text.push_str(tail);
        }
        match Experiment::from_toml(&text) {
            Ok(e) => {
                if e.study == Study::Match {
                    prop_assert!(e.players.len() >= 2);
                }
                prop_assert!(!e.variants.is_empty());
                for (_, rules) in &e.variants {
                    prop_assert_eq!(rules.validate(), Ok(()));
                }
                let mut names: Vec<_> = e.variants.iter().map(|(n, _)| n).collect();
                names.sort();
                names.dedup();
                prop_assert_eq!(names.len(), e.variants.len());
            }
            Err(e) => {
                let message = clear(&e)?;
                match &e {
                    ExperimentError::Bad { key, expected } => {
                        prop_assert!(message.contains(key) && message.contains(expected));
                    }
                    ExperimentError::UnknownKey { key, allowed, .. } => {
                        prop_assert!(message.contains(key.as_str()) && message.contains(allowed));
                    }
                    ExperimentError::Variant { name, source } => {
                        prop_assert!(message.contains(name.as_str()));
                        clear(source)?;
                    }
                    _ => {}
                }
            }
        }
    }

    /// Any text as a spec.
    #[test]
    fn experiment_any_text(text in junk()) {
        if let Err(e) = Experiment::from_toml(&text) {
            clear(&e)?;
        }
    }
}

// ---------------------------------------------------------------------------
// The bot protocol

/// Every move (all cards for discard and knock).
fn any_move() -> impl Strategy<Value = Move> {
    let card = (0u8..52).prop_map(|i| Card::from_index(i).unwrap());
    prop_oneof![
        select(vec![
            Move::Take,
            Move::Pass,
            Move::Stock,
            Move::Pile,
            Move::BigGin
        ]),
        card.clone().prop_map(Move::Discard),
        card.prop_map(Move::Knock),
    ]
}

/// Verbs, right and wrong.
#[rustfmt::skip]
const VERBS: &[&str] = &[
    "take", "pass", "stock", "pile", "big_gin", "discard", "knock", "Take", "DISCARD", "draw", "",
    "big-gin", "knock:", "ｔａｋｅ",
];

/// JSON value texts for a field: right types, wrong types, odd numbers.
#[rustfmt::skip]
const JSON_VALUES: &[&str] = &[
    "0", "1", "3", "-3", "3.0", "3.5", "1e0", "3e0", "-0", "18446744073709551615",
    "18446744073709551616", "1e400", "-1e400", "9007199254740993", "\"3\"", "null", "true", "[]",
    "[3]", "{}", "\"\"", "\"pile\"", "\"take\"", "\"discard 7H\"", "\"discard  7h \"",
    "\"discard 7♥\"", "\"knock 7H\"", "\"hello\"", "\"move\"", "\"Move\"", "\"bot\"", "\" \"",
    "\"\\u0000\"", "\"\\ud800\"", "1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Every move prints and reads back, with any extra white space.
    #[test]
    fn move_round_trip(
        mv in any_move(),
        pad in (select(PADDING), select(&[" ", "  ", "\t", "\u{3000}"][..]), select(PADDING)),
    ) {
        prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        let spaced = format!("{}{}{}", pad.0, mv.to_string().replace(' ', pad.1), pad.2);
        prop_assert_eq!(spaced.parse::<Move>(), Ok(mv));
    }

    /// A verb and a card token, each right or wrong: a move exactly when
    /// the verb takes that card (or none); the error quotes the text and
    /// lists the moves.
    #[test]
    fn move_near_valid(
        verb in select(VERBS),
        card in prop::option::of(card_token()),
        extra in prop::option::of(select(&["7H", "x", "\u{0}"][..])),
    ) {
        let mut text = verb.to_owned();
        for word in [card.map(|c| c.0), extra.map(str::to_owned)].into_iter().flatten() {
            text = format!("{text} {word}");
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let card = words.get(1).map(|w| w.parse::<Card>());
        let want = match (words.first().copied(), card) {
            _ if words.len() > 2 => None,
            (Some("take"), None) => Some(Move::Take),
            (Some("pass"), None) => Some(Move::Pass),
            (Some("stock"), None) => Some(Move::Stock),
            (Some("pile"), None) => Some(Move::Pile),
            (Some("big_gin"), None) => Some(Move::BigGin),
            (Some("discard"), Some(Ok(c))) => Some(Move::Discard(c)),
            (Some("knock"), Some(Ok(c))) => Some(Move::Knock(c)),
            _ => None,
        };
        match (text.parse::<Move>(), want) {
            (Ok(got), Some(want)) => prop_assert_eq!(got, want),
            (Err(e), None) => {
                let message = clear(&e)?;
                prop_assert!(message.contains(&format!("`{text}`")), "{message}");
                let moves = "take, pass, stock, pile, discard CARD, knock CARD, big_gin";
                prop_assert!(message.contains(moves), "{message}");
            }
            (got, want) => prop_assert!(false, "{text:?}: got {got:?}, want {want:?}"),
        }
    }

    /// Any text as a bot's hello or move line.
    #[test]
    fn protocol_any_line(line in junk(), id in any::<u64>(), legal in vec(any_move(), 0..4)) {
        if let Err(e) = line.parse::<Move>() {
            clear(&e)?;
        }
        match read_move(&line, id, &legal) {
            Ok(mv) => prop_assert!(legal.contains(&mv)),
            Err(e) => {
                clear(&e)?;
            }
        }
        if let Err(e) = read_hello(&line) {
            clear(&e)?;
        }
    }

    /// A move line with each field right, wrong, of the wrong JSON type or
    /// missing, in any order: accepted exactly when type is "move", id is
    /// the request's (as a JSON integer) and the move is legal.
    #[test]
    fn read_move_near_valid(
        ty in prop::option::of(select(JSON_VALUES)),
        id in prop::option::of(select(JSON_VALUES)),
        mv in prop::option::of(select(JSON_VALUES)),
        extra in select(&["", "\"x\": 1", "\"id\": 4", "\"type\": \"move\""][..]),
        legal in vec(any_move(), 0..4),
        flip in any::<bool>(),
    ) {
        let mut fields: Vec<String> = Vec::new();
        for (key, value) in [("type", ty), ("id", id), ("move", mv)] {
            if let Some(v) = value {
                fields.push(format!("{key:?}: {v}"));
            }
        }
        if !extra.is_empty() {
            fields.push(extra.to_owned());
        }
        if flip {
            fields.reverse();
        }
        let line = format!("{{{}}}", fields.join(", "));
        let parsed: Option<serde_json::Value> = serde_json::from_str(&line).ok();
        let want = parsed.as_ref().and_then(|v| {
            (v["type"] == "move").then_some(())?;
            (v["id"].as_u64()? == 3).then_some(())?;
            let mv: Move = v["move"].as_str()?.parse().ok()?;
            legal.contains(&mv).then_some(mv)
        });
        match (read_move(&line, 3, &legal), want) {
            (Ok(got), Some(want)) => prop_assert_eq!(got, want),
            (Err(e), None) => {
                let message = clear(&e)?;
                match &e {
                    ReplyError::Field { field, .. } => {
                        prop_assert!(message.contains(&format!("`{}`", field)), "{}", message);
                    }
                    ReplyError::WrongId { got, .. } => {
                        prop_assert!(message.contains(&got.to_string()), "{message}");
                    }
                    ReplyError::Illegal { .. } => prop_assert!(message.contains("legal:")),
                    _ => {}
                }
            }
            (got, want) => prop_assert!(false, "{line}: got {got:?}, want {want:?}"),
        }
    }

    /// A hello line with each field right, wrong or missing.
    #[test]
    fn read_hello_near_valid(
        protocol in prop::option::of(select(JSON_VALUES)),
        name in prop::option::of(select(JSON_VALUES)),
        author in prop::option::of(select(JSON_VALUES)),
        ty in select(&["\"hello\"", "\"move\"", "1", "null"][..]),
    ) {
        let mut fields = vec![format!("\"type\": {ty}")];
        for (key, value) in [("protocol", protocol), ("name", name), ("author", author)] {
            if let Some(v) = value {
                fields.push(format!("{key:?}: {v}"));
            }
        }
        let line = format!("{{{}}}", fields.join(", "));
        match read_hello(&line) {
            Ok(hello) => {
                let v: serde_json::Value = serde_json::from_str(&line).unwrap();
                prop_assert_eq!(v["protocol"].as_u64(), Some(1));
                prop_assert!(!hello.name.is_empty());
            }
            Err(e) => {
                clear(&e)?;
            }
        }
    }

    /// The protocol's knob table with one knob given any JSON value (or an
    /// unknown knob): the same answer as that knob in a rules file, and a
    /// refused value named with its knob and what the knob takes.
    #[test]
    fn rules_table_near_valid(
        rules in rules(),
        knob in rules_key(),
        value in prop_oneof![
            select(JSON_VALUES).prop_map(|v| serde_json::from_str::<serde_json::Value>(v).ok()),
            select(&["[null]", "{\"a\": null}", "[1, \"a\"]", "-9223372036854775809",
                     "1.5e300", "[[[]]]"][..])
                .prop_map(|v| serde_json::from_str::<serde_json::Value>(v).ok()),
        ],
    ) {
        let Some(value) = value else { return Ok(()) };
        let mut table = rules_table(&rules);
        table[knob.as_str()] = value.clone();
        let result = rules_from_table(&table);
        if !KNOBS.iter().any(|k| k.name == knob) {
            let message = clear(&result.unwrap_err())?;
            prop_assert!(message.contains(&format!("`{}`", knob)), "{}", message);
            return Ok(());
        }
        match result {
            Ok(got) => {
                prop_assert_eq!(got.validate(), Ok(()));
                let want = toml::Value::try_from(&value).unwrap();
                prop_assert!(knob_takes(&knob, &want), "{knob} took {value}");
                prop_assert_eq!(got.get(&knob).unwrap(), want);
            }
            Err(e) => {
                let message = clear(&e)?;
                if !matches!(e, RulesError::Inconsistent(_)) {
                    prop_assert!(matches!(e, RulesError::BadValue { .. }), "{e:?}");
                    prop_assert!(message.contains(&format!("`{knob}`")), "{message}");
                    prop_assert!(message.contains(knob_allowed(&knob)), "{message}");
                }
            }
        }
    }

    /// Any JSON value as a knob table.
    #[test]
    fn rules_table_any_json(value in json_value()) {
        match rules_from_table(&value) {
            Ok(rules) => prop_assert_eq!(rules.validate(), Ok(())),
            Err(e) => {
                clear(&e)?;
            }
        }
    }
}

/// Any JSON value, knob names as keys more often than not.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        junk().prop_map(serde_json::Value::from),
        select(TOML_VALUES).prop_map(serde_json::Value::from),
    ];
    let key = prop_oneof![rules_key(), junk()];
    leaf.prop_recursive(3, 24, 6, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            vec((key.clone(), inner), 0..6)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

// ---------------------------------------------------------------------------
// The command line's batch readers

/// Runs `ginlab ARGS` on `input`: it exits 0, or 2 with nothing on stdout
/// and a message on stderr; never a panic. Returns the exit code and stdout.
fn run_batch(args: &[&str], input: &str) -> Result<(i32, String), TestCaseError> {
    let out = ginlab().args(args).write_stdin(input).output().unwrap();
    let code = out.status.code();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    prop_assert!(
        !stderr.contains("panicked"),
        "{args:?} on {input:?}: {stderr}"
    );
    match code {
        Some(0) => {}
        Some(2) => {
            prop_assert!(
                stdout.is_empty(),
                "{args:?} on {input:?} failed but wrote {stdout}"
            );
            prop_assert!(
                !stderr.trim().is_empty(),
                "{args:?} on {input:?}: no message"
            );
        }
        other => prop_assert!(false, "{args:?} on {input:?}: exit {other:?}: {stderr}"),
    }
    Ok((code.unwrap(), stdout))
}

/// A hand line: mostly real cards (some too many, some repeated), or junk.
fn hand_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (cards(0..=12), select(SEPARATORS)).prop_map(|(c, sep)| {
            c.iter().map(ToString::to_string).collect::<Vec<_>>().join(sep)
        }),
        1 => vec(card_token(), 1..11).prop_map(|t| {
            t.into_iter().map(|(t, _)| t).collect::<Vec<_>>().join(" ")
        }),
        1 => junk(),
        1 => select(&["", "# comment", "  ", "AS AS", "AS,,2S"][..]).prop_map(str::to_owned),
    ]
}

/// A `knocker,defender` row: two hands from one deck (in plain or bracket
/// notation), sometimes overlapping, over the limit, or malformed.
fn showdown_row() -> impl Strategy<Value = String> {
    let hands = (deck(), 9usize..=11, 9usize..=11, any::<bool>(), 0usize..3).prop_map(
        |(deck, k, d, bracket, overlap)| {
            let knocker: CardSet = deck[..k].iter().copied().collect();
            let defender: CardSet = deck[k - overlap.min(1)..k - overlap.min(1) + d]
                .iter()
                .copied()
                .collect();
            let knocker = if bracket {
                meld::best_arrangement(knocker).to_string()
            } else {
                knocker.to_string()
            };
            format!("{knocker},{defender}")
        },
    );
    prop_oneof![
        6 => hands,
        1 => junk(),
        1 => select(&["knocker,defender", "a,b,c", "\"AS\",2S", "\"unclosed", ","][..])
            .prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// `solve --batch` on a few lines: a CSV row per hand, or a clean
    /// input error.
    #[test]
    fn solve_batch_input(lines in vec(hand_line(), 0..5), crlf in any::<bool>()) {
        let input = lines.join(if crlf { "\r\n" } else { "\n" });
        let (code, stdout) = run_batch(&["solve", "--batch"], &input)?;
        if code == 0 {
            let hands = input
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
                .count();
            prop_assert_eq!(stdout.lines().count(), hands + 1);
        }
    }

    /// `showdown --batch` on a few rows, with any rule override: a CSV row
    /// per knock, or a clean input error.
    #[test]
    fn showdown_batch_input(
        rows in vec(showdown_row(), 0..4),
        rule in prop::option::of((rules_key(), select(TOML_VALUES))),
        upcard in prop::option::of(prop_oneof![
            Just("7H".to_owned()),
            card_token().prop_map(|t| t.0),
        ]),
    ) {
        let input = rows.join("\n");
        let mut args = vec!["showdown".to_owned(), "--batch".to_owned()];
        if let Some((k, v)) = rule {
            args.extend(["--rule".to_owned(), format!("{k}={v}")]);
        }
        if let Some(u) = upcard {
            // A command-line argument cannot hold a NUL.
            args.push(format!("--upcard={}", u.replace('\0', "?")));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_batch(&args, &input)?;
    }
}
