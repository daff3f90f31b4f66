//! The runner is deterministic: the same seed gives the same tallies for any
//! thread count and any split of the deals into ranges.

use ginlab::rules::Rules;
use ginlab::sim::{Plan, Tallies, Work};

fn plan(work: Work, duplicate: bool) -> Plan {
    Plan {
        rules: Rules::standard(),
        profiles: [
            "greedy:knock_at=6".parse().unwrap(),
            "random:knock_prob=0.9".parse().unwrap(),
        ],
        work,
        duplicate,
        seed: 99,
    }
}

#[test]
fn any_thread_count_gives_identical_tallies() {
    for (work, duplicate) in [
        (Work::Hands(3000), true),
        (Work::Hands(1001), false),
        (Work::Games(60), true),
    ] {
        let p = plan(work, duplicate);
        let one = p.run(0..p.deals(), 1, &|_| {}).unwrap();
        let two = p.run(0..p.deals(), 2, &|_| {}).unwrap();
        let four = p.run(0..p.deals(), 4, &|_| {}).unwrap();
        assert_eq!(one, two);
        assert_eq!(one, four);
        assert!(one.hands > 0);
    }
}

#[test]
fn ranges_merge_to_the_whole_run() {
    let p = plan(Work::Games(80), true);
    let whole = p.run(0..p.deals(), 2, &|_| {}).unwrap();
    let mut parts = Tallies::default();
    for range in [0..7, 7..30, 30..40] {
        parts.merge(&p.run(range, 1, &|_| {}).unwrap());
    }
    assert_eq!(parts, whole);
    assert_eq!(whole.games, 80);
    assert_eq!(whole.unit_scores.n, 40);
}

#[test]
fn duplicate_deals_swap_the_cards() {
    // Greedy against itself with duplicate deals: every pair is one win each
    // on the same cards, so A's score is exactly one half.
    let p = Plan {
        profiles: ["greedy".parse().unwrap(), "greedy".parse().unwrap()],
        ..plan(Work::Hands(2000), true)
    };
    let t = p.run(0..p.deals(), 2, &|_| {}).unwrap();
    assert_eq!(t.a_hand_wins, t.b_hand_wins);
    assert_eq!(t.a_net_points.sum, 0);
    assert_eq!(t.score(), (0.5, 0.0));
    // The pair outcomes: every pair is one game each (2 half points of 4).
    assert_eq!(t.pair_score.len(), 1);
    assert_eq!(t.pair_score.get(&2), Some(&t.unit_scores.n));
}

#[test]
fn pair_outcomes_count_every_unit() {
    let p = plan(Work::Games(200), true);
    let t = p.run(0..p.deals(), 2, &|_| {}).unwrap();
    assert_eq!(t.pair_score.values().sum::<u64>(), 100);
    assert!(
        t.pair_score.keys().all(|k| [0, 2, 4].contains(k)),
        "{:?}",
        t.pair_score
    );
    let wins: i64 = t.pair_score.iter().map(|(k, v)| k / 2 * *v as i64).sum();
    assert_eq!(wins as u64, t.a_game_wins);
}
