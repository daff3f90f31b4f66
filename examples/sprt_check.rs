//! Checks `--sprt` (issue 16 item 6): simulates many sequential tests at
//! each hypothesis and counts the wrong decisions, which should be about
//! alpha (accepting H1 when A is elo0 stronger) and beta (accepting H0 when
//! A is elo1 stronger).
//!
//! ```sh
//! nice cargo run --release --example sprt_check -- --runs 10000 --base-games 20000
//! ```
//!
//! The pair outcomes are drawn from a pentanomial distribution: the shape of
//! a real duplicate match (greedy vs simple under standard, `--base-games`
//! games, or ten times as many hands, its `pair_score` counts; games have
//! no draw, so their pairs score 0, 2 or 4 half points), tilted to the hypothesis's expected
//! score by the empirical-likelihood tilt `p_k / (1 + λ(s_k − s))` (the
//! distribution closest to the observed one with mean `s`). Each simulated
//! test is checked every 1,024 units, as `match --sprt` does, and again
//! after every unit, with the library's own [`Sprt::llr`] and
//! [`Sprt::decide`], and stops at a decision or at `--cap` units.

use ginlab::rules::Rules;
use ginlab::seed::mix;
use ginlab::sim::{Plan, Work};
use ginlab::stats::{Moments, Sprt, SprtDecision};
use rand::{Rng as _, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// Units between two looks at the LLR: as `match --sprt` does (1,024, so
/// that where a run stops does not depend on threads), and after every
/// unit (Wald's test as analysed, with no overshoot beyond one unit).
const SCHEDULES: [u64; 2] = [1024, 1];

fn arg(args: &[String], name: &str, default: f64) -> f64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number, not {v}"))
        })
}

/// The expected score of an Elo difference.
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `p` tilted to mean score `mean` (scores `k / 4`, k = 0..=4): the
/// empirical-likelihood weights `p_k / (1 + λ(s_k − mean))`, λ found by
/// bisection.
fn tilt(p: &[f64; 5], mean: f64) -> [f64; 5] {
    let s = |k: usize| k as f64 / 4.0;
    let at = |lambda: f64| -> [f64; 5] {
        let mut q = [0.0; 5];
        for k in 0..5 {
            q[k] = p[k] / (1.0 + lambda * (s(k) - mean));
        }
        let total: f64 = q.iter().sum();
        q.map(|x| x / total)
    };
    let moment = |lambda: f64| -> f64 {
        (0..5)
            .map(|k| p[k] * (s(k) - mean) / (1.0 + lambda * (s(k) - mean)))
            .sum()
    };
    // The weights stay positive for λ in (−1/(1 − mean), 1/mean); the
    // moment falls with λ.
    let (mut lo, mut hi) = (-1.0 / (1.0 - mean) + 1e-12, 1.0 / mean - 1e-12);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if moment(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    at((lo + hi) / 2.0)
}

/// One simulated test: the decision and the units it took.
fn run_test(sprt: &Sprt, p: &[f64; 5], every: u64, seed: u64, cap: u64) -> (SprtDecision, u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let cumulative: Vec<f64> = p
        .iter()
        .scan(0.0, |acc, &x| {
            *acc += x;
            Some(*acc)
        })
        .collect();
    let mut units = Moments::default();
    while units.n < cap {
        for _ in 0..every {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let k = cumulative.iter().position(|&c| u < c).unwrap_or(4);
            units.add(k as i64);
        }
        let decision = sprt.decide(sprt.llr(&units, 2));
        if decision != SprtDecision::Continue {
            return (decision, units.n);
        }
    }
    (SprtDecision::Continue, units.n)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = arg(&args, "--runs", 10_000.0) as u64;
    let base_games = arg(&args, "--base-games", 20_000.0) as u64;
    let cap = arg(&args, "--cap", 10_000_000.0) as u64;
    let seed = arg(&args, "--seed", 16.0) as u64;
    println!("{runs} simulated tests per hypothesis, shape and schedule\n");
    println!(
        "| pairs of | checked every | elo0, elo1 | alpha, beta | true Elo | wrong decisions | expected | ± (MC) | undecided | mean units |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut shapes = Vec::new();
    for (unit, work) in [
        ("games", Work::Games(base_games)),
        ("hands", Work::Hands(10 * base_games)),
    ] {
        let base = Plan {
            rules: Rules::standard(),
            profiles: ["greedy".parse().unwrap(), "simple".parse().unwrap()],
            work,
            duplicate: true,
            seed,
        };
        let t = base.run(0..base.deals(), 0, &|_| {}).unwrap();
        let mut shape = [0.0; 5];
        for (&k, &n) in &t.pair_score {
            shape[k as usize] = n as f64 / t.unit_scores.n as f64;
        }
        for (every, hypothesis) in SCHEDULES.into_iter().flat_map(|every| {
            [
                (0.0, 10.0, 0.05),
                (0.0, 5.0, 0.05),
                (-10.0, 10.0, 0.05),
                (0.0, 10.0, 0.10),
            ]
            .map(|h| (every, h))
        }) {
            simulate(unit, &shape, every, hypothesis, runs, seed, cap);
        }
        shapes.push(format!(
            "{unit} (greedy vs simple, standard, {} pairs, seed {seed}): {}",
            t.unit_scores.n,
            shape.map(|x| format!("{x:.4}")).join(" ")
        ));
    }
    println!("\npair outcome shares, 0 to 4 half points:");
    for shape in shapes {
        println!("- {shape}");
    }
}

/// Simulates `runs` tests of `hypothesis` (elo0, elo1, alpha = beta) at
/// each of its Elos and prints a table row for each.
fn simulate(
    unit: &str,
    shape: &[f64; 5],
    every: u64,
    (elo0, elo1, error): (f64, f64, f64),
    runs: u64,
    seed: u64,
    cap: u64,
) {
    let sprt = Sprt {
        elo0,
        elo1,
        alpha: error,
        beta: error,
    };
    for (truth, wrong) in [
        (elo0, SprtDecision::AcceptH1),
        (elo1, SprtDecision::AcceptH0),
    ] {
        let p = tilt(shape, expected(truth));
        let results: Vec<(SprtDecision, u64)> = (0..runs)
            .into_par_iter()
            .map(|r| run_test(&sprt, &p, every, mix(seed ^ mix(r) ^ truth.to_bits()), cap))
            .collect();
        let wrongs = results.iter().filter(|(d, _)| *d == wrong).count();
        let undecided = results
            .iter()
            .filter(|(d, _)| *d == SprtDecision::Continue)
            .count();
        let mean_units = results.iter().map(|(_, n)| *n as f64).sum::<f64>() / results.len() as f64;
        let mc = (error * (1.0 - error) / runs as f64).sqrt();
        println!(
            "| {unit} | {every} | {elo0}, {elo1} | {error}, {error} | {truth} | {:.2} % | {:.1} % | {:.2} | {undecided} | {mean_units:.0} |",
            100.0 * wrongs as f64 / runs as f64,
            100.0 * error,
            100.0 * mc,
        );
    }
}
