//! Meld solver benchmarks: `meld/min_deadwood_10`, `meld/min_deadwood_11`,
//! `meld/best_discard_11`, `meld/showdown`,
//! `meld/showdown_margin` and `meld/known_knock_margin`, and the batched solver against
//! the one-hand-at-a-time solver on the same work: `batch/without_each_11`
//! (every discard of 11 cards) and `batch/with_each_10` (a 10-card hand
//! plus every other card), each as `batched` and `scalar`;
//! `batch/joins_meld_10`: whether each card outside a 10-card hand would
//! meld, by `strategy::joins_meld` (`one_card`) and by `meld::meldable` of
//! the hand with the card (`meldable`), the test greedy play and its
//! rollouts make before any solve.
//!
//! Inputs are generated from a fixed seed outside the timed loop, in two kinds:
//! `uniform` (random hands from a shuffled deck) and `played` (hands held at
//! real decisions in greedy-vs-greedy hands through the engine, so lower
//! deadwood and more melds; the showdown inputs are the knocks of those hands). Each iteration solves a batch of 1024 hands; the throughput is
//! in hands, so criterion's "time per element" is the time per hand. A
//! checksum over the batch is asserted so a fast wrong answer fails.
//!
//! Run: `cargo bench --bench meld`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ginlab::engine::{Deck, Hand, HandOutcome, Phase, Seat, ask};
use ginlab::rules::Rules;
use ginlab::strategy::Profile;
use ginlab::{Card, CardSet, meld};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;

const BATCH: usize = 1024;

fn shuffled_deck(rng: &mut Pcg64Mcg) -> Vec<Card> {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    deck
}

fn uniform_hands(size: usize, seed: u64) -> Vec<CardSet> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..BATCH)
        .map(|_| shuffled_deck(&mut rng)[..size].iter().copied().collect())
        .collect()
}

/// Hands from real play: greedy against greedy under the standard rules,
/// through the engine. `visit` sees every 11-card hand a player holds when it
/// ends a turn (with the opponent's 10 cards) and, when a hand ends in a
/// knock, the knocker's and defender's 10 cards; it returns false to stop.
fn played(seed: u64, mut visit: impl FnMut(Seen) -> bool) {
    let rules = Rules::standard();
    let greedy: Profile = "greedy".parse().unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for deal in 0.. {
        let deck = Deck::shuffled(&mut rng);
        let mut players = [greedy.build(1), greedy.build(2)];
        let mut hand = Hand::new(&rules, &deck, Seat::ALL[deal % 2], [0, 0]).unwrap();
        while let Some(seat) = hand.phase().seat() {
            let view = hand.view(seat);
            if let Phase::EndTurn { .. } = view.phase
                && !visit(Seen::Turn(view.hand))
            {
                return;
            }
            let action = ask(players[seat.index()].as_mut(), &view);
            hand.apply(seat, action).unwrap();
        }
        if let Some(HandOutcome::Showdown { showdown, .. }) = hand.outcome()
            && !showdown.is_big_gin()
            && !visit(Seen::Knock(
                showdown.knocker.hand(),
                showdown.defender.hand() | showdown.layoffs,
            ))
        {
            return;
        }
    }
}

/// What [`played`] shows.
enum Seen {
    /// 11 cards ending a turn.
    Turn(CardSet),
    /// A knock: the knocker's 10 cards and the defender's 10.
    Knock(CardSet, CardSet),
}

fn played_hands(size: usize, seed: u64) -> Vec<CardSet> {
    let mut hands = Vec::with_capacity(BATCH);
    played(seed, |seen| {
        if let Seen::Turn(eleven) = seen {
            let hand = if size == 11 {
                eleven
            } else {
                eleven.without(meld::best_discard(eleven).unwrap().card)
            };
            hands.push(hand);
        }
        hands.len() < BATCH
    });
    hands
}

fn knocks(seed: u64) -> Vec<(CardSet, CardSet)> {
    let mut knocks = Vec::with_capacity(BATCH);
    played(seed, |seen| {
        if let Seen::Knock(knocker, defender) = seen {
            knocks.push((knocker, defender));
        }
        knocks.len() < BATCH
    });
    knocks
}

fn sum_deadwood(hands: &[CardSet]) -> u64 {
    hands
        .iter()
        .map(|&h| meld::deadwood(black_box(h)) as u64)
        .sum()
}

fn bench_min_deadwood(c: &mut Criterion) {
    for size in [10, 11] {
        let mut group = c.benchmark_group("meld");
        group.throughput(Throughput::Elements(BATCH as u64));
        for (kind, hands) in [
            ("uniform", uniform_hands(size, 1)),
            ("played", played_hands(size, 2)),
        ] {
            // Checksum: the arrangement path (a different table) must agree.
            let expected: u64 = hands
                .iter()
                .map(|&h| meld::best_arrangement(h).deadwood() as u64)
                .sum();
            group.bench_with_input(
                BenchmarkId::new(format!("min_deadwood_{size}"), kind),
                &hands,
                |b, hands| b.iter(|| assert_eq!(sum_deadwood(hands), expected)),
            );
        }
        group.finish();
    }
}

fn bench_best_discard(c: &mut Criterion) {
    let mut group = c.benchmark_group("meld");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (kind, hands) in [
        ("uniform", uniform_hands(11, 3)),
        ("played", played_hands(11, 4)),
    ] {
        // Checksum: trying every discard one by one must agree.
        let expected: u64 = hands
            .iter()
            .map(|&h| {
                h.iter()
                    .map(|c| meld::deadwood(h.without(c)))
                    .min()
                    .unwrap() as u64
            })
            .sum();
        group.bench_with_input(
            BenchmarkId::new("best_discard_11", kind),
            &hands,
            |b, hands| {
                b.iter(|| {
                    let sum: u64 = hands
                        .iter()
                        .map(|&h| meld::best_discard(black_box(h)).unwrap().deadwood as u64)
                        .sum();
                    assert_eq!(sum, expected);
                })
            },
        );
    }
    group.finish();
}

fn bench_showdown(c: &mut Criterion) {
    let mut group = c.benchmark_group("meld");
    group.throughput(Throughput::Elements(BATCH as u64));
    let situations = knocks(5);
    let solve = |&(k, d): &(CardSet, CardSet)| {
        let s = meld::showdown(black_box(k), black_box(d), 10).unwrap();
        s.defender_deadwood() as u64 * 256 + s.knocker_deadwood() as u64
    };
    let expected: u64 = situations.iter().map(solve).sum();
    group.bench_with_input(
        BenchmarkId::new("showdown", "played"),
        &situations,
        |b, situations| b.iter(|| assert_eq!(situations.iter().map(solve).sum::<u64>(), expected)),
    );
    // The margin alone, from the hands (`showdown_margin`) and from both
    // least deadwoods, as a play-out knows them (`known_knock_margin`).
    let margin = |&(k, d): &(CardSet, CardSet)| {
        i64::from(meld::showdown_margin(black_box(k), black_box(d), 10).unwrap())
    };
    let expected: i64 = situations.iter().map(margin).sum();
    group.bench_with_input(
        BenchmarkId::new("showdown_margin", "played"),
        &situations,
        |b, situations| b.iter(|| assert_eq!(situations.iter().map(margin).sum::<i64>(), expected)),
    );
    let known: Vec<(CardSet, u8, CardSet, u8)> = situations
        .iter()
        .map(|&(k, d)| (k, meld::deadwood(k), d, meld::deadwood(d)))
        .collect();
    group.bench_with_input(
        BenchmarkId::new("known_knock_margin", "played"),
        &known,
        |b, known| {
            b.iter(|| {
                let sum: i64 = known
                    .iter()
                    .map(|&(k, dead, d, own)| {
                        i64::from(meld::known_knock_margin(black_box(k), dead, d, own, 10))
                    })
                    .sum();
                assert_eq!(sum, expected);
            })
        },
    );
    group.finish();
}

/// The sum of the deadwood bytes of every covered card: the checksum of a
/// batched call.
fn covered_sum(per_card: &meld::PerCard) -> u64 {
    let covered = per_card.covered();
    covered
        .iter()
        .map(|c| u64::from(per_card.get(c).unwrap()))
        .sum()
}

fn bench_batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch");
    group.throughput(Throughput::Elements(BATCH as u64));
    let elevens = played_hands(11, 6);
    let without_scalar = |h: CardSet| -> u64 {
        h.iter()
            .map(|c| u64::from(meld::deadwood(black_box(h).without(c))))
            .sum()
    };
    let expected: u64 = elevens.iter().map(|&h| without_scalar(h)).sum();
    group.bench_with_input(
        BenchmarkId::new("without_each_11", "batched"),
        &elevens,
        |b, hands| {
            b.iter(|| {
                let sum: u64 = hands
                    .iter()
                    .map(|&h| covered_sum(&meld::deadwood_without_each(black_box(h))))
                    .sum();
                assert_eq!(sum, expected);
            })
        },
    );
    group.bench_with_input(
        BenchmarkId::new("without_each_11", "scalar"),
        &elevens,
        |b, hands| {
            b.iter(|| {
                assert_eq!(
                    hands.iter().map(|&h| without_scalar(h)).sum::<u64>(),
                    expected
                )
            })
        },
    );
    // The least deadwood over an 11-card hand's discards and the cards
    // reaching it (simple's turn end), in one pass against two.
    let lefts: Vec<(CardSet, meld::PerCard)> = elevens
        .iter()
        .map(|&h| (h, meld::deadwood_without_each(h)))
        .collect();
    let two_passes = |(h, left): &(CardSet, meld::PerCard)| {
        let least = left.min_over(*h);
        (least, left.cards_at(*h, least))
    };
    let one_pass = |(h, left): &(CardSet, meld::PerCard)| left.least_and_ties(*h);
    for (variant, f) in [
        (
            "one_pass",
            &one_pass as &dyn Fn(&(CardSet, meld::PerCard)) -> (u8, CardSet),
        ),
        ("min_over_cards_at", &two_passes),
    ] {
        let fold = |(least, ties): (u8, CardSet)| u64::from(least) * 64 + ties.bits() % 61;
        let expected: u64 = lefts.iter().map(|x| fold(two_passes(x))).sum();
        group.bench_with_input(
            BenchmarkId::new("least_and_ties_11", variant),
            &lefts,
            |b, lefts| {
                b.iter(|| {
                    let sum: u64 = lefts.iter().map(|x| fold(f(black_box(x)))).sum();
                    assert_eq!(sum, expected);
                })
            },
        );
    }
    let tens = played_hands(10, 7);
    let with_scalar = |h: CardSet| -> u64 {
        (!h).iter()
            .map(|c| u64::from(meld::deadwood(black_box(h).with(c))))
            .sum()
    };
    let expected: u64 = tens.iter().map(|&h| with_scalar(h)).sum();
    group.bench_with_input(
        BenchmarkId::new("with_each_10", "batched"),
        &tens,
        |b, hands| {
            b.iter(|| {
                let sum: u64 = hands
                    .iter()
                    .map(|&h| covered_sum(&meld::deadwood_with_each(black_box(h), !h)))
                    .sum();
                assert_eq!(sum, expected);
            })
        },
    );
    group.bench_with_input(
        BenchmarkId::new("with_each_10", "scalar"),
        &tens,
        |b, hands| {
            b.iter(|| assert_eq!(hands.iter().map(|&h| with_scalar(h)).sum::<u64>(), expected))
        },
    );
    group.finish();
}

/// `batch/joins_meld_10`: one card's meld test on played 10-card hands.
fn bench_joins_meld(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch");
    group.throughput(Throughput::Elements(BATCH as u64));
    let tens = played_hands(10, 7);
    let by_meldable = |h: CardSet| -> u64 {
        (CardSet::ALL - h)
            .iter()
            .map(|c| u64::from(meld::meldable(black_box(h).with(c)).contains(c)))
            .sum()
    };
    let expected: u64 = tens.iter().map(|&h| by_meldable(h)).sum();
    group.bench_with_input(
        BenchmarkId::new("joins_meld_10", "one_card"),
        &tens,
        |b, hands| {
            b.iter(|| {
                let sum: u64 = hands
                    .iter()
                    .map(|&h| {
                        (CardSet::ALL - h)
                            .iter()
                            .map(|c| u64::from(ginlab::strategy::joins_meld(black_box(h), c)))
                            .sum::<u64>()
                    })
                    .sum();
                assert_eq!(sum, expected);
            })
        },
    );
    group.bench_with_input(
        BenchmarkId::new("joins_meld_10", "meldable"),
        &tens,
        |b, hands| {
            b.iter(|| assert_eq!(hands.iter().map(|&h| by_meldable(h)).sum::<u64>(), expected))
        },
    );
    group.finish();
}

criterion_group!(
    benches,
    bench_min_deadwood,
    bench_best_discard,
    bench_showdown,
    bench_batch,
    bench_joins_meld
);
criterion_main!(benches);
