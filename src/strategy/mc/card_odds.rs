//! [`CardOdds`]: a learned model of which unseen cards the opponent holds,
//! read from its public play (`weighting = learned`).
//!
//! The model is a logistic regression on one card at a time: the log-odds
//! that the opponent holds an unseen card `c` are a bias plus a weighted
//! sum of [`FEATURES`] features of `c`:
//!
//! - nine counts (each capped at [`MAX_COUNT`]): how often the opponent
//!   discarded, passed (the upcard, or the pile's top when it drew from the
//!   stock) or took (the upcard or from the pile) a card of `c`'s rank, a
//!   card of `c`'s suit one rank away, and one two ranks away;
//! - `c`'s deadwood value over 10, and that value times the opponent's draws
//!   this hand (capped at 8) over 8: players shed high cards as the hand
//!   goes on.
//!
//! So the odds of a card are a product of one fitted ratio per action on a
//! neighbour, the form of [`Knowledge`](crate::strategy::Knowledge)'s
//! hand-set ratios, plus the value terms. The weights are fitted by
//! `experiments/card-odds/train.py` (pure Python, Newton's method) on the
//! table [`training_table`] writes from self-play of greedy, tracker and a
//! small `mc` (never `simple`), and committed as `strategies/card-odds.txt`,
//! compiled in ([`CardOdds::learned`]). `experiments/card-odds/make.sh`
//! re-makes the file byte for byte.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::cards::{Card, CardSet};
use crate::engine::{Deck, Event, Hand, PlayerView, Seat, Strategy, play_hand_inspected};
use crate::rules::Rules;
use crate::strategy::{Greedy, Tracker};

use super::prior::opponent_draws;
use super::{McParams, MonteCarlo};

/// Features of a card (the bias is not one of them).
pub const FEATURES: usize = 11;
/// Action counts above this count as this many.
pub const MAX_COUNT: u8 = 3;
/// Opponent draws above this count as this many.
pub const MAX_DRAWS: u8 = 8;

/// The file the weights are read from, relative to the repository.
pub const WEIGHTS_FILE: &str = "strategies/card-odds.txt";

/// The raw features of one unseen card: the nine capped action counts
/// (discarded, passed, took × same rank, suit ±1, suit ±2), its deadwood
/// value (1 to 10) and the opponent's draws (capped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    /// Counts by action (discarded, passed, took) × relation.
    pub counts: [u8; 9],
    /// The card's deadwood value.
    pub value: u8,
    /// The opponent's draws this hand, capped at [`MAX_DRAWS`].
    pub draws: u8,
}

impl Key {
    /// The model's inputs: the counts, value / 10, value / 10 × draws / 8.
    #[must_use]
    pub fn features(&self) -> [f64; FEATURES] {
        let mut x = [0.0; FEATURES];
        for (xi, &n) in x.iter_mut().zip(&self.counts) {
            *xi = f64::from(n);
        }
        let value = f64::from(self.value) / 10.0;
        x[9] = value;
        x[10] = value * f64::from(self.draws) / f64::from(MAX_DRAWS);
        x
    }

    /// The key as the table's and the checks' columns print it.
    #[must_use]
    pub fn columns(&self) -> String {
        let mut s = String::new();
        for n in self.counts {
            write!(s, "{n},").expect("a string");
        }
        write!(s, "{},{}", self.value, self.draws).expect("a string");
        s
    }
}

/// The cards that meld with `e`, by relation (as in `Knowledge`).
fn neighbours(e: Card) -> [CardSet; 3] {
    let m = e.mask().bits();
    [
        CardSet::rank(e.rank()) - e.mask(),
        CardSet::from_bits_truncate(m << 1 | m >> 1),
        CardSet::from_bits_truncate(m << 2 | m >> 2),
    ]
}

/// The keys of every card by bit, from `view`'s events (the opponent's
/// actions on each card's neighbours); read only at the unseen cards.
#[must_use]
pub fn keys(view: &PlayerView<'_>) -> [Key; 64] {
    let draws = u8::try_from(opponent_draws(view))
        .unwrap_or(MAX_DRAWS)
        .min(MAX_DRAWS);
    let mut keys = [Key {
        counts: [0; 9],
        value: 0,
        draws,
    }; 64];
    let mut count = |e: Card, action: usize| {
        for (r, near) in neighbours(e).into_iter().enumerate() {
            for c in near.iter() {
                let n = &mut keys[c.bit() as usize].counts[action * 3 + r];
                *n = (*n + 1).min(MAX_COUNT);
            }
        }
    };
    let opponent = view.seat.other();
    let mut pile: Vec<Card> = view.upcard.into_iter().collect();
    let mut both_passed = false;
    for &event in view.events {
        match event {
            Event::UpcardPassed { seat, card } => {
                if seat == opponent {
                    count(card, 1);
                }
                both_passed = seat == view.dealer;
            }
            Event::UpcardTaken { seat, card } | Event::TookPile { seat, card } => {
                pile.pop();
                if seat == opponent {
                    count(card, 2);
                }
            }
            Event::DrewStock { seat } => {
                if seat == opponent
                    && !both_passed
                    && let Some(&top) = pile.last()
                {
                    count(top, 1);
                }
                both_passed = false;
            }
            Event::Discarded { seat, card } => {
                pile.push(card);
                if seat == opponent {
                    count(card, 0);
                }
            }
            Event::Knocked { .. } | Event::BigGin { .. } | Event::PassedLastDiscard { .. } => {}
        }
    }
    for c in CardSet::from_bits_truncate(u64::MAX).iter() {
        keys[c.bit() as usize].value = c.value();
    }
    keys
}

impl std::str::FromStr for Key {
    type Err = String;

    /// A key from its first 11 columns (as [`Key::columns`] prints them).
    fn from_str(s: &str) -> Result<Key, String> {
        let n: Vec<u8> = s
            .split(',')
            .take(11)
            .map(|c| c.trim().parse::<u8>().map_err(|_| format!("`{c}` is not a count")))
            .collect::<Result<_, _>>()?;
        let [d0, d1, d2, p0, p1, p2, t0, t1, t2, value, draws] = n[..] else {
            return Err(format!("`{s}`: expected 11 comma-separated counts"));
        };
        Ok(Key {
            counts: [d0, d1, d2, p0, p1, p2, t0, t1, t2],
            value,
            draws,
        })
    }
}

/// The fitted weights: the bias, then one per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct CardOdds {
    coef: [f64; FEATURES + 1],
}

/// Odds by card bit that the opponent holds each unseen card (0 elsewhere).
#[derive(Clone, Debug)]
pub struct Odds(pub [f32; 64]);

impl CardOdds {
    /// Reads weights from `text`, the contents of the file `name` (for the
    /// message): lines `name value` for `bias` and `x0` to `x10`, in that
    /// order; `#` starts a comment.
    ///
    /// # Errors
    /// A message naming `name`, the line and what is allowed.
    pub fn parse(text: &str, name: &str) -> Result<CardOdds, String> {
        let mut coef = Vec::with_capacity(FEATURES + 1);
        let want = |i: usize| {
            if i == 0 {
                "bias".to_string()
            } else {
                format!("x{}", i - 1)
            }
        };
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let i = coef.len();
            let err = |what: &str| {
                format!(
                    "{name}:{}: {what}; expected `{} <number>` (the bias, then x0 to x{}, one a line)",
                    n + 1,
                    want(i.min(FEATURES)),
                    FEATURES - 1
                )
            };
            if i > FEATURES {
                return Err(err("more weights than the model has"));
            }
            let mut parts = line.split_whitespace();
            let (Some(label), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(err(&format!("`{line}` is not a name and a number")));
            };
            if label != want(i) {
                return Err(err(&format!("`{label}` is out of place")));
            }
            match value.parse::<f64>() {
                Ok(v) if v.is_finite() => coef.push(v),
                _ => return Err(err(&format!("`{value}` is not a finite number"))),
            }
        }
        let coef: [f64; FEATURES + 1] = coef.try_into().map_err(|c: Vec<f64>| {
            format!(
                "{name}: {} weights; expected {} (the bias, then x0 to x{})",
                c.len(),
                FEATURES + 1,
                FEATURES - 1
            )
        })?;
        Ok(CardOdds { coef })
    }

    /// The committed weights ([`WEIGHTS_FILE`], compiled in).
    ///
    /// # Panics
    /// If the committed file does not parse (a test reads it).
    #[must_use]
    pub fn learned() -> &'static CardOdds {
        static LEARNED: OnceLock<CardOdds> = OnceLock::new();
        LEARNED.get_or_init(|| {
            CardOdds::parse(include_str!("../../../strategies/card-odds.txt"), WEIGHTS_FILE)
                .unwrap_or_else(|e| panic!("{e}"))
        })
    }

    /// The log-odds of a card with `key`.
    #[must_use]
    pub fn logit(&self, key: &Key) -> f64 {
        let x = key.features();
        let mut z = self.coef[0];
        for (w, xi) in self.coef[1..].iter().zip(x) {
            z += w * xi;
        }
        z
    }

    /// The odds of every unseen card of `view`, by bit.
    #[must_use]
    pub fn odds(&self, view: &PlayerView<'_>) -> Odds {
        let keys = keys(view);
        let mut odds = [0f32; 64];
        for c in view.unseen().iter() {
            let b = c.bit() as usize;
            odds[b] = self.logit(&keys[b]).exp() as f32;
        }
        Odds(odds)
    }
}

/// The training table: `hands` hands under eaai rules (seeded by `seed`) of
/// pairs of greedy, tracker and `mc` with 16 worlds; at every decision, for
/// the deciding player, every unseen card's [`Key`] and whether the
/// opponent holds it, counted by key. One line a key, in key order:
/// `d0,d1,d2,p0,p1,p2,t0,t1,t2,value,draws,cards,held`, after a header.
///
/// # Panics
/// If a built-in player breaks the rules (none does).
#[must_use]
pub fn training_table(hands: u32, seed: u64) -> String {
    let rules = Rules::eaai();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mc = |s: u64| -> Box<dyn Strategy> {
        let params = McParams {
            samples: 16,
            ..McParams::default()
        };
        Box::new(MonteCarlo::new(params.config().expect("valid"), s))
    };
    let mut pairs: Vec<[Box<dyn Strategy>; 2]> = vec![
        [Box::new(Greedy::default()), Box::new(Greedy::default())],
        [Box::new(Tracker::default()), Box::new(Tracker::default())],
        [Box::new(Greedy::default()), Box::new(Tracker::default())],
        [mc(seed ^ 1), Box::new(Tracker::default())],
        [mc(seed ^ 2), Box::new(Greedy::default())],
        [mc(seed ^ 3), mc(seed ^ 4)],
    ];
    let mut table: BTreeMap<Key, [u64; 2]> = BTreeMap::new();
    for i in 0..hands {
        let deck = Deck::shuffled(&mut rng);
        let n = pairs.len();
        let [a, b] = &mut pairs[i as usize % n];
        let mut hand =
            Hand::new(&rules, &deck, Seat::ALL[(i / 2 % 2) as usize], [0, 0]).expect("valid");
        let mut players: [&mut dyn Strategy; 2] = if i % 2 == 0 {
            [a.as_mut(), b.as_mut()]
        } else {
            [b.as_mut(), a.as_mut()]
        };
        play_hand_inspected(&mut hand, &mut players, |hand| {
            let Some(seat) = hand.phase().seat() else {
                return;
            };
            let view = hand.view(seat);
            let held = hand.cards(seat.other());
            let keys = keys(&view);
            for c in view.unseen().iter() {
                let cell = table.entry(keys[c.bit() as usize]).or_default();
                cell[0] += 1;
                cell[1] += u64::from(held.contains(c));
            }
        })
        .expect("built-in players play legal actions");
    }
    let mut out = String::from("d0,d1,d2,p0,p1,p2,t0,t1,t2,value,draws,cards,held\n");
    for (key, [cards, held]) in &table {
        writeln!(out, "{},{cards},{held}", key.columns()).expect("a string");
    }
    out
}

/// The checks file: for each key (one per line of `keys`, as the table
/// prints them), the committed model's log-odds to 12 decimals, which
/// `experiments/card-odds/test_train.py` recomputes from the same weights.
#[must_use]
pub fn logit_checks(keys: &[Key]) -> String {
    let model = CardOdds::learned();
    let mut out = String::new();
    for key in keys {
        writeln!(out, "{},{:.12}", key.columns(), model.logit(key)).expect("a string");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, DrawSource, TurnEnd};

    #[test]
    fn the_committed_weights_parse() {
        let m = CardOdds::learned();
        assert!(m.coef.iter().all(|w| w.is_finite()));
    }

    /// A bad weights file is an error naming the file and the line.
    #[test]
    fn bad_weights_name_the_file() {
        let good = include_str!("../../../strategies/card-odds.txt");
        assert!(CardOdds::parse(good, "w.txt").is_ok());
        let e = CardOdds::parse("bias 1\nx0 zero\n", "w.txt").unwrap_err();
        assert!(e.starts_with("w.txt:2:") && e.contains("`zero`"), "{e}");
        let e = CardOdds::parse("bias 1\nx1 2\n", "w.txt").unwrap_err();
        assert!(e.contains("`x1` is out of place") && e.contains("`x0 <number>`"), "{e}");
        let e = CardOdds::parse("bias 1\n", "w.txt").unwrap_err();
        assert!(e.starts_with("w.txt: 1 weights; expected 12"), "{e}");
        let e = CardOdds::parse("", "w.txt").unwrap_err();
        assert!(e.starts_with("w.txt: 0 weights"), "{e}");
        let e = CardOdds::parse("bias inf\n", "w.txt").unwrap_err();
        assert!(e.contains("not a finite number"), "{e}");
        let mut long = good.to_string();
        long.push_str("x11 1\n");
        let e = CardOdds::parse(&long, "w.txt").unwrap_err();
        assert!(e.contains("more weights than the model has"), "{e}");
    }

    /// The keys read the opponent's actions on a card's neighbours: A
    /// passes the upcard 5H, B takes it and throws KD, A draws from the
    /// stock (passing KD) and discards 9C.
    #[test]
    fn keys_count_the_opponents_actions_on_neighbours() {
        let rules = Rules::eaai();
        let d = crate::strategy::test_deck(
            "AS 2S 3S 7C 7D 7H 9H TH JH 9C",
            "2C 3C 4C 5D 6D 8S 9S TS JC KD",
            "5H",
            "QC",
        );
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let c = |s: &str| s.parse::<Card>().unwrap();
        for (seat, action) in [
            (Seat::A, Action::TakeUpcard(false)),
            (Seat::B, Action::TakeUpcard(true)),
            (Seat::B, Action::EndTurn(TurnEnd::Discard(c("KD")))),
            (Seat::A, Action::Draw(DrawSource::Stock)),
            (Seat::A, Action::EndTurn(TurnEnd::Discard(c("9C")))),
        ] {
            hand.apply(seat, action).unwrap();
        }
        let view = hand.view(Seat::B);
        let keys = keys(&view);
        let key = |s: &str| keys[c(s).bit() as usize];
        // 5S: same rank as the passed 5H. 7H: two above it.
        assert_eq!(key("5S").counts, [0, 0, 0, 1, 0, 0, 0, 0, 0]);
        assert_eq!(key("7H").counts, [0, 0, 0, 0, 0, 1, 0, 0, 0]);
        // KC shares KD's rank (KD passed by A's stock draw); TC is one
        // from the discarded 9C; JC would be two, but B holds it.
        assert_eq!(key("KC").counts, [0, 0, 0, 1, 0, 0, 0, 0, 0]);
        assert_eq!(key("TC").counts, [0, 1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(key("9D").counts, [1, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!((key("TC").value, key("TC").draws), (10, 1));
        // Seen from A, B took 5H: 6H is one away.
        let keys_a = super::keys(&hand.view(Seat::A));
        assert_eq!(keys_a[c("6H").bit() as usize].counts[7], 1);
        assert_eq!(keys_a[c("6H").bit() as usize].draws, 1);
    }
}
