//! Strategy speed.
//!
//! - `hands/<A>_vs_<B>`: hands per second of a pairing, single-threaded,
//!   under `eaai`, on 256 pre-shuffled decks (the target: tracker within 3×
//!   of greedy).
//! - `mc/samples=<K>`: an `mc` player with K samples against greedy on 8
//!   decks; one element is one decision the mc player was asked for (all of
//!   them, including the forced ones; the bench prints how many were
//!   sampled). The target: at least 2,000 decisions per second with 64
//!   samples.
//!
//! Results are checked against a first run, so a fast wrong player fails.
//!
//! Run: `cargo bench --bench strategies`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ginlab::engine::{Deck, Hand, Seat, Strategy, play_hand};
use ginlab::rules::Rules;
use ginlab::strategy::{Greedy, McParams, MonteCarlo, Profile};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn decks(n: usize) -> Vec<Deck> {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    (0..n).map(|_| Deck::shuffled(&mut rng)).collect()
}

/// Plays every deck, dealers alternating; the sum of points won by seat A.
fn play(rules: &Rules, decks: &[Deck], a: &mut dyn Strategy, b: &mut dyn Strategy) -> u64 {
    let mut players: [&mut dyn Strategy; 2] = [a, b];
    let mut points = 0;
    for (i, deck) in decks.iter().enumerate() {
        let mut hand = Hand::new(rules, black_box(deck), Seat::ALL[i % 2], [0, 0]).unwrap();
        let outcome = play_hand(&mut hand, &mut players).unwrap();
        if let Some((Seat::A, p)) = outcome.winner() {
            points += u64::from(p);
        }
    }
    points
}

fn bench_hands(c: &mut Criterion) {
    let rules = Rules::eaai();
    let decks = decks(256);
    let mut group = c.benchmark_group("hands");
    group.throughput(Throughput::Elements(decks.len() as u64));
    for (a, b) in [
        ("greedy", "greedy"),
        ("tracker", "tracker"),
        ("tracker", "greedy"),
    ] {
        let profiles: [Profile; 2] = [a.parse().unwrap(), b.parse().unwrap()];
        let run = || {
            let (mut x, mut y) = (profiles[0].build(1), profiles[1].build(2));
            play(&rules, &decks, x.as_mut(), y.as_mut())
        };
        let expected = run();
        group.bench_function(
            BenchmarkId::from_parameter(format!("{a}_vs_{b}")),
            |bench| bench.iter(|| assert_eq!(run(), expected)),
        );
    }
    group.finish();
}

fn bench_mc(c: &mut Criterion) {
    let rules = Rules::eaai();
    let decks = decks(8);
    let mut group = c.benchmark_group("mc");
    group.sample_size(10);
    for samples in [16, 64, 256] {
        let params = McParams {
            samples,
            ..McParams::default()
        };
        let run = || {
            let mut mc = MonteCarlo::new(params.clone(), 1);
            let points = play(&rules, &decks, &mut mc, &mut Greedy::default());
            (points, mc.decisions())
        };
        let (expected, [asked, sampled]) = run();
        eprintln!("mc/samples={samples}: {asked} decisions per iteration, {sampled} sampled");
        group.throughput(Throughput::Elements(asked));
        group.bench_function(
            BenchmarkId::from_parameter(format!("samples={samples}")),
            |bench| bench.iter(|| assert_eq!(run().0, expected)),
        );
    }
    group.finish();
}

criterion_group!(benches, bench_hands, bench_mc);
criterion_main!(benches);
