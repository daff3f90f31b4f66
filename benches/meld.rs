//! Meld solver benchmarks: `meld/min_deadwood_10`, `meld/min_deadwood_11`,
//! `meld/best_discard_11`, `meld/showdown`.
//!
//! Inputs are generated from a fixed seed outside the timed loop, in two kinds:
//! `uniform` (random hands from a shuffled deck) and `played` (hands from a
//! greedy draw-and-discard playout, so lower deadwood and more melds, as in
//! real play). Each iteration solves a batch of 1024 hands; the throughput is
//! in hands, so criterion's "time per element" is the time per hand. A
//! checksum over the batch is asserted so a fast wrong answer fails.
//!
//! Run: `cargo bench --bench meld`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
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

/// What a playout visitor wants next.
enum Step {
    /// Play on.
    Next,
    /// Deal a new hand.
    NewDeal,
    /// Stop playing.
    Done,
}

/// Two greedy players draw from the stock and shed their best discard. Each
/// call to `visit` sees (the player's 11 cards after drawing, the opponent's
/// 10) from the fifth turn on.
fn playouts(seed: u64, mut visit: impl FnMut(CardSet, CardSet) -> Step) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    loop {
        let deck = shuffled_deck(&mut rng);
        let mut hands = [
            deck[..10].iter().copied().collect::<CardSet>(),
            deck[10..20].iter().copied().collect::<CardSet>(),
        ];
        for (turn, &card) in deck[20..50].iter().enumerate() {
            let seat = turn % 2;
            let drawn = hands[seat].with(card);
            if turn >= 4 {
                match visit(drawn, hands[1 - seat]) {
                    Step::Next => {}
                    Step::NewDeal => break,
                    Step::Done => return,
                }
            }
            hands[seat] = drawn.without(meld::best_discard(drawn).unwrap().card);
        }
    }
}

fn full_or(batch: usize, otherwise: Step) -> Step {
    if batch < BATCH { otherwise } else { Step::Done }
}

fn played_hands(size: usize, seed: u64) -> Vec<CardSet> {
    let mut hands = Vec::with_capacity(BATCH);
    playouts(seed, |drawn, _| {
        let hand = if size == 11 {
            drawn
        } else {
            drawn.without(meld::best_discard(drawn).unwrap().card)
        };
        hands.push(hand);
        full_or(hands.len(), Step::Next)
    });
    hands
}

/// Knock situations: the first time in a deal that a player's 10 cards after
/// the best discard reach deadwood ≤ 10, with the opponent's 10 cards.
fn knocks(seed: u64) -> Vec<(CardSet, CardSet)> {
    let mut knocks = Vec::with_capacity(BATCH);
    playouts(seed, |drawn, other| {
        let discard = meld::best_discard(drawn).unwrap();
        if discard.deadwood > 10 {
            return Step::Next;
        }
        knocks.push((drawn.without(discard.card), other));
        full_or(knocks.len(), Step::NewDeal)
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
    group.finish();
}

criterion_group!(
    benches,
    bench_min_deadwood,
    bench_best_discard,
    bench_showdown
);
criterion_main!(benches);
