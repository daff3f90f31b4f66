//! Self-play throughput: `selfplay/<A>_vs_<B>` plays one hand (deal,
//! play, showdown, scoring) per element, single-threaded, under `standard`.
//! Decks are pre-shuffled from a fixed seed outside the timed loop; the sum
//! of hand points is asserted so a fast wrong engine fails.
//!
//! Run: `cargo bench --bench selfplay`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ginlab::engine::{Deck, Hand, Seat, Strategy, play_hand};
use ginlab::rules::Rules;
use ginlab::strategy::Profile;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

const HANDS: usize = 256;

fn play_all(rules: &Rules, decks: &[Deck], profiles: [&Profile; 2]) -> u64 {
    let (mut a, mut b) = (profiles[0].build(1), profiles[1].build(2));
    let mut players: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
    let mut points = 0;
    for (i, deck) in decks.iter().enumerate() {
        let mut hand = Hand::new(rules, black_box(deck), Seat::ALL[i % 2], [0, 0]).unwrap();
        let outcome = play_hand(&mut hand, &mut players).unwrap();
        points += outcome.winner().map_or(0, |(_, p)| p as u64);
    }
    points
}

fn bench_selfplay(c: &mut Criterion) {
    let rules = Rules::standard();
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let decks: Vec<Deck> = (0..HANDS).map(|_| Deck::shuffled(&mut rng)).collect();
    let mut group = c.benchmark_group("selfplay");
    group.throughput(Throughput::Elements(HANDS as u64));
    for (a, b) in [
        ("greedy", "greedy"),
        ("simple", "simple"),
        ("random", "random"),
    ] {
        let profiles: [Profile; 2] = [a.parse().unwrap(), b.parse().unwrap()];
        let expected = play_all(&rules, &decks, [&profiles[0], &profiles[1]]);
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{a}_vs_{b}")),
            &decks,
            |bench, decks| {
                bench.iter(|| {
                    assert_eq!(
                        play_all(&rules, decks, [&profiles[0], &profiles[1]]),
                        expected
                    )
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_selfplay);
criterion_main!(benches);
