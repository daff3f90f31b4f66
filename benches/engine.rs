//! The engine outside the players' decisions: `engine/replay` deals 256
//! hands into one slot ([`Hand::deal_in`]) and applies their recorded
//! greedy-vs-greedy actions ([`Hand::apply`], the showdown and scoring
//! included), with no strategy called; `engine/tally` adds 256 recorded
//! hands to the tallies, each its own scoring unit (`Tallies::add_hand`
//! and `add_unit`, as `match --hands --no-duplicate` does);
//! `engine/tally_batched` the same with each unit's sums kept in 64 bits
//! and flushed once (`Tallies::add_unit_batched`, what the runner does);
//! `engine/tally_per_chunk` the same into a fresh `Tallies` per 128 hands
//! merged into one, as the runner did per chunk before it kept one a
//! worker; `engine/drive` plays the 256 hands through `play_hand` with two
//! players that answer the recorded actions (the driver: views, dispatch,
//! the forfeit question, `Hand::apply`, no decision made). Decks and
//! actions are made from a fixed seed outside the timed loop; a checksum
//! is asserted so a fast wrong engine fails.
//!
//! Run: `cargo bench --bench engine`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ginlab::engine::{
    Action, Deck, DrawSource, Hand, HandRecord, PlayerView, Seat, Strategy, TurnEnd, play_hand,
};
use ginlab::rules::Rules;
use ginlab::sim::Tallies;
use ginlab::strategy::Profile;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

const HANDS: usize = 256;

/// One played hand: its deck, dealer, actions and record.
struct Played {
    deck: Deck,
    dealer: Seat,
    actions: Vec<(Seat, Action)>,
    record: HandRecord,
}

fn played(rules: &Rules) -> Vec<Played> {
    let mut rng = Pcg64Mcg::seed_from_u64(12);
    let profile: Profile = "greedy".parse().unwrap();
    let (mut a, mut b) = (profile.build(1), profile.build(2));
    let mut players: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
    (0..HANDS)
        .map(|i| {
            let deck = Deck::shuffled(&mut rng);
            let dealer = Seat::ALL[i % 2];
            let mut hand = Hand::new(rules, &deck, dealer, [0, 0]).unwrap();
            let outcome = play_hand(&mut hand, &mut players).unwrap();
            let record = HandRecord {
                dealer,
                upcard: hand.upcard(),
                turns: hand.turns(),
                outcome,
            };
            Played {
                deck,
                dealer,
                actions: hand.actions().to_vec(),
                record,
            }
        })
        .collect()
}

/// Replays every hand into one slot; the sum of turns and winning points.
fn replay<'r>(rules: &'r Rules, hands: &[Played], slot: &mut Option<Hand<'r>>) -> u64 {
    let mut sum = 0;
    for p in hands {
        let hand = Hand::deal_in(slot, rules, black_box(&p.deck), p.dealer, [0, 0]).unwrap();
        for &(seat, action) in black_box(&p.actions) {
            hand.apply(seat, action).unwrap();
        }
        let outcome = hand.outcome().expect("a replayed hand ends");
        sum += u64::from(hand.turns()) + outcome.winner().map_or(0, |(_, p)| u64::from(p));
    }
    sum
}

/// Answers one seat's recorded actions in order.
struct Scripted<'a> {
    actions: &'a [(Seat, Action)],
    seat: Seat,
    next: usize,
}

impl Scripted<'_> {
    fn answer(&mut self) -> Action {
        while self.actions[self.next].0 != self.seat {
            self.next += 1;
        }
        self.next += 1;
        self.actions[self.next - 1].1
    }
}

impl Strategy for Scripted<'_> {
    fn name(&self) -> &str {
        "scripted"
    }
    fn take_upcard(&mut self, _view: &PlayerView<'_>) -> bool {
        matches!(self.answer(), Action::TakeUpcard(true))
    }
    fn draw(&mut self, _view: &PlayerView<'_>) -> DrawSource {
        match self.answer() {
            Action::Draw(source) => source,
            other => panic!("recorded {other:?}, asked to draw"),
        }
    }
    fn end_turn(&mut self, _view: &PlayerView<'_>) -> TurnEnd {
        match self.answer() {
            Action::EndTurn(end) => end,
            other => panic!("recorded {other:?}, asked to end the turn"),
        }
    }
}

/// Plays every hand through the driver with scripted players; the sum of
/// turns and winning points.
fn drive<'r>(rules: &'r Rules, hands: &[Played], slot: &mut Option<Hand<'r>>) -> u64 {
    let mut sum = 0;
    for p in hands {
        let hand = Hand::deal_in(slot, rules, black_box(&p.deck), p.dealer, [0, 0]).unwrap();
        let script = |seat| Scripted {
            actions: &p.actions,
            seat,
            next: 0,
        };
        let (mut a, mut b) = (script(Seat::A), script(Seat::B));
        let outcome = play_hand(hand, &mut [&mut a, &mut b]).unwrap();
        sum += u64::from(hand.turns()) + outcome.winner().map_or(0, |(_, p)| u64::from(p));
    }
    sum
}

fn bench_engine(c: &mut Criterion) {
    let rules = Rules::standard();
    let hands = played(&rules);
    let expected: u64 = hands
        .iter()
        .map(|p| {
            u64::from(p.record.turns) + p.record.outcome.winner().map_or(0, |(_, n)| u64::from(n))
        })
        .sum();
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(HANDS as u64));
    let mut slot = None;
    group.bench_function("replay", |bench| {
        bench.iter(|| assert_eq!(replay(&rules, &hands, &mut slot), expected))
    });
    group.bench_function("drive", |bench| {
        bench.iter(|| assert_eq!(drive(&rules, &hands, &mut slot), expected))
    });
    group.bench_function("tally", |bench| {
        bench.iter(|| {
            let mut tallies = Tallies::default();
            for (i, p) in black_box(&hands).iter().enumerate() {
                let half_points = tallies.add_hand(&p.record, Seat::ALL[i % 2]);
                tallies.add_unit(half_points, 1);
            }
            assert_eq!(tallies.hands, HANDS as u64);
            tallies
        })
    });
    group.bench_function("tally_batched", |bench| {
        bench.iter(|| {
            let mut tallies = Tallies::default();
            for (i, p) in black_box(&hands).iter().enumerate() {
                let half_points = tallies.add_hand(&p.record, Seat::ALL[i % 2]);
                tallies.add_unit_batched(half_points, 1);
            }
            tallies.flush();
            assert_eq!(tallies.units.score.units, HANDS as u64);
            tallies
        })
    });
    group.bench_function("tally_per_chunk", |bench| {
        bench.iter(|| {
            let mut total = Tallies::default();
            for (c, chunk) in black_box(&hands).chunks(128).enumerate() {
                let mut tallies = Tallies::default();
                for (i, p) in chunk.iter().enumerate() {
                    let half_points = tallies.add_hand(&p.record, Seat::ALL[(c * 128 + i) % 2]);
                    tallies.add_unit(half_points, 1);
                }
                total.merge(&tallies);
            }
            assert_eq!(total.hands, HANDS as u64);
            total
        })
    });
    group.finish();
}

criterion_group!(benches, bench_engine);
criterion_main!(benches);
