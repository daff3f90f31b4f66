//! The runner is deterministic: the same seed gives the same tallies for any
//! thread count and any split of the deals into ranges.

use ginlab::report::SummaryRow;
use ginlab::rules::Rules;
use ginlab::sim::{Plan, Tallies, Work};
use ginlab::stats::{Moments, t_quantile};

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

/// Workers fold their chunks into one tally each: the result is the plain
/// deal-by-deal sum, with every unit kept, for any thread count.
#[test]
fn the_runner_sums_what_deal_by_deal_play_sums() {
    let p = plan(Work::Hands(2500), true);
    let mut direct = Tallies::default();
    for index in 0..p.deals() {
        p.play_deal(index, &mut direct).unwrap();
    }
    for threads in [1, 3] {
        let (tallies, units) = p.run_scored(0..p.deals(), threads, &|_| {}).unwrap();
        assert_eq!(tallies, direct, "{threads} threads");
        assert_eq!(units.len(), p.deals());
        assert_eq!(units.into_scores().count() as u64, p.deals());
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
    assert_eq!(t.pair_score.get(2), t.unit_scores.n);
}

#[test]
fn pair_outcomes_count_every_unit() {
    let p = plan(Work::Games(200), true);
    let t = p.run(0..p.deals(), 2, &|_| {}).unwrap();
    assert_eq!(t.pair_score.values().sum::<u64>(), 100);
    assert!(
        t.pair_score.keys().all(|k| [0, 2, 4].contains(&k)),
        "{:?}",
        t.pair_score
    );
    let wins: i64 = t.pair_score.iter().map(|(k, v)| k / 2 * v as i64).sum();
    assert_eq!(wins as u64, t.a_game_wins);
}

/// Plays `plan`'s deals one at a time: the run's tallies, and every unit's
/// own tallies.
fn unit_by_unit(plan: &Plan) -> (Tallies, Vec<Tallies>) {
    let units: Vec<Tallies> = (0..plan.deals())
        .map(|i| {
            let mut t = Tallies::default();
            plan.play_deal(i, &mut t).unwrap();
            t
        })
        .collect();
    let mut all = Tallies::default();
    units.iter().for_each(|u| all.merge(u));
    (all, units)
}

/// The mean of `values` and its 95 % t interval.
fn t_interval(values: impl Iterator<Item = i64>) -> (f64, f64, f64) {
    let mut m = Moments::default();
    values.for_each(|v| m.add(v));
    m.t_interval(0.95)
}

fn close(a: f64, b: Option<f64>) -> bool {
    b.is_some_and(|b| (a - b).abs() < 2e-6)
}

#[test]
fn intervals_are_over_the_duplicate_pairs() {
    // Hands in pairs: every unit is two hands, so points per hand is a
    // pair's points over 2, and its interval is the t interval of the
    // pairs' means (the hands of a pair share their cards: the interval
    // of 4000 separate hands would be another one).
    let p = plan(Work::Hands(4000), true);
    let (t, units) = unit_by_unit(&p);
    assert_eq!(t, p.run(0..p.deals(), 2, &|_| {}).unwrap());
    assert_eq!(t.inconsistency(p.deals()), None);
    let row = SummaryRow::new("standard", "a", "b", &t, 99);
    let (_, lo, hi) = t_interval(units.iter().map(|u| u.a_net_points.sum));
    assert!(
        close(lo / 2.0, row.a_points_per_hand_lo) && close(hi / 2.0, row.a_points_per_hand_hi),
        "{lo} {hi} {row:?}"
    );
    let (_, hand_lo, hand_hi) = t.a_net_points.t_interval(0.95);
    assert!(!close(hand_lo, row.a_points_per_hand_lo), "{hand_lo}");
    assert!(!close(hand_hi, row.a_points_per_hand_hi), "{hand_hi}");

    // Games in pairs: the game-win rate's standard error is the pairs'.
    let p = Plan {
        profiles: ["greedy".parse().unwrap(), "simple".parse().unwrap()],
        ..plan(Work::Games(300), true)
    };
    let (t, units) = unit_by_unit(&p);
    let (mean, lo, hi) = t_interval(units.iter().map(|u| u.a_game_wins as i64));
    let se = (hi - lo) / 2.0 / t_quantile(0.975, 149) / 2.0;
    let rate = mean / 2.0;
    let effective = rate * (1.0 - rate) / (se * se);
    let (wlo, whi) = ginlab::stats::wilson_interval(rate, effective, t_quantile(0.975, 149));
    let row = SummaryRow::new("standard", "a", "b", &t, 99);
    assert!(
        close(wlo, row.a_game_win_lo) && close(whi, row.a_game_win_hi),
        "{wlo} {whi} {row:?}"
    );
    // The non-dealer's share of decided hands: a ratio of two counts that
    // both vary by unit, by the delta method.
    let (x, y): (Vec<f64>, Vec<f64>) = units
        .iter()
        .map(|u| (u.non_dealer_wins as f64, u.decided() as f64))
        .unzip();
    let r = x.iter().sum::<f64>() / y.iter().sum::<f64>();
    let m = units.len() as f64;
    let residuals: f64 = x.iter().zip(&y).map(|(x, y)| (x - r * y).powi(2)).sum();
    let se = (residuals / (m - 1.0) / m).sqrt() / (y.iter().sum::<f64>() / m);
    let effective = r * (1.0 - r) / (se * se);
    let (wlo, whi) = ginlab::stats::wilson_interval(r, effective, t_quantile(0.975, 149));
    assert!(
        close(wlo, row.non_dealer_win_lo) && close(whi, row.non_dealer_win_hi),
        "{wlo} {whi} {row:?}"
    );
}

#[test]
fn one_unit_has_no_interval_and_a_lost_run_a_wide_one() {
    let p = plan(Work::Games(2), true);
    let t = p.run(0..1, 1, &|_| {}).unwrap();
    let row = SummaryRow::new("standard", "a", "b", &t, 99);
    assert_eq!(
        (row.a_game_win_lo, row.elo_lo, row.a_margin_per_game_lo),
        (None, None, None)
    );
    // random never wins a game against greedy: every unit lost, and the
    // game-win rate's interval still has width (a Wilson bound on the
    // units, at the t quantile), as has the Elo's.
    let p = Plan {
        profiles: ["random".parse().unwrap(), "greedy".parse().unwrap()],
        ..plan(Work::Games(20), true)
    };
    let t = p.run(0..p.deals(), 1, &|_| {}).unwrap();
    assert_eq!(t.a_game_wins, 0);
    let row = SummaryRow::new("standard", "a", "b", &t, 99);
    let t9 = t_quantile(0.975, 9);
    assert_eq!(row.a_game_win_lo, Some(0.0));
    assert!(close(
        (t9 * t9 / (10.0 + t9 * t9) * 1e6).round() / 1e6,
        row.a_game_win_hi
    ));
    assert!(row.elo_hi.unwrap() > -400.0 && row.elo_lo.unwrap() < row.elo_hi.unwrap());
}
