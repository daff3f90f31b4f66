//! Checks `--sprt` (issue 16 item 6): simulates many sequential tests at
//! each hypothesis and counts the wrong decisions, which should be about
//! alpha (accepting H1 when A is elo0 stronger) and beta (accepting H0 when
//! A is elo1 stronger), and the units they take.
//!
//! ```sh
//! nice cargo run --release --example sprt_check -- --runs 10000 --base-games 40000
//! ```
//!
//! The pair outcomes are drawn from a pentanomial distribution: the shape of
//! a real duplicate match (greedy vs simple under standard, `--base-games`
//! games, or ten times as many hands, its `pair_score` counts; games have
//! no draw, so their pairs score 0, 2 or 4 half points), tilted to the
//! hypothesis's expected score by the empirical-likelihood tilt
//! `p_k / (1 + λ(s_k − s))` (the distribution closest to the observed one
//! with mean `s`). Each simulated test is what `match --sprt` runs: the
//! library's [`SprtState`] fed one unit at a time from the running counts
//! ([`Sprt::llr`] and [`Sprt::decide`] after every unit), stopping at its
//! first decision or at `--cap` units.

#[path = "common/args.rs"]
mod args;
use args::arg;

use ginlab::rules::Rules;
use ginlab::seed::mix;
use ginlab::sim::{Plan, Work};
use ginlab::stats::{Moments, Sprt, SprtDecision, SprtState};
use rand::{Rng as _, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// The tests checked: (elo0, elo1, alpha = beta).
const TESTS: [(f64, f64, f64); 4] = [
    (0.0, 10.0, 0.05),
    (0.0, 5.0, 0.05),
    (-10.0, 10.0, 0.05),
    (0.0, 10.0, 0.10),
];

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

/// One simulated test, as `match --sprt` runs it: the decision and the
/// unit it was made at.
fn run_test(sprt: &Sprt, p: &[f64; 5], seed: u64, cap: u64) -> (SprtDecision, u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let cumulative: Vec<f64> = p
        .iter()
        .scan(0.0, |acc, &x| {
            *acc += x;
            Some(*acc)
        })
        .collect();
    let mut test = SprtState::at(*sprt, Moments::default(), 2);
    while test.units.n < cap {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let k = cumulative.iter().position(|&c| u < c).unwrap_or(4);
        if test.add(k as i64) != SprtDecision::Continue {
            break;
        }
    }
    (test.decision, test.units.n)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = arg(&args, "--runs", 10_000.0) as u64;
    let base_games = arg(&args, "--base-games", 20_000.0) as u64;
    let cap = arg(&args, "--cap", 10_000_000.0) as u64;
    let seed = arg(&args, "--seed", 16.0) as u64;
    println!("{runs} simulated tests per hypothesis and shape, looking after every unit\n");
    println!(
        "| elo0, elo1 | α = β | pairs of | at elo0: wrong | (mean units) | at elo1: wrong | (mean units) | undecided |"
    );
    println!("|---|---|---|---|---|---|---|---|");
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
        for (k, n) in t.pair_score.iter() {
            shape[k as usize] = n as f64 / t.unit_scores.n as f64;
        }
        for hypothesis in TESTS {
            simulate(unit, &shape, hypothesis, runs, seed, cap);
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
/// each of its Elos and prints a table row: the share of wrong decisions
/// with its Monte Carlo standard error (binomial, from the observed share),
/// and the mean units, at elo0 and at elo1.
fn simulate(
    unit: &str,
    shape: &[f64; 5],
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
    let mut cells = Vec::new();
    let mut undecided = 0;
    for (truth, wrong) in [
        (elo0, SprtDecision::AcceptH1),
        (elo1, SprtDecision::AcceptH0),
    ] {
        let p = tilt(shape, expected(truth));
        let results: Vec<(SprtDecision, u64)> = (0..runs)
            .into_par_iter()
            .map(|r| run_test(&sprt, &p, mix(seed ^ mix(r) ^ truth.to_bits()), cap))
            .collect();
        let share = results.iter().filter(|(d, _)| *d == wrong).count() as f64 / runs as f64;
        undecided += results
            .iter()
            .filter(|(d, _)| *d == SprtDecision::Continue)
            .count();
        let mean_units = results.iter().map(|(_, n)| *n as f64).sum::<f64>() / runs as f64;
        let mc = (share * (1.0 - share) / runs as f64).sqrt();
        cells.push(format!(
            "{:.2} ± {:.2} % | ({:.0})",
            100.0 * share,
            100.0 * mc,
            mean_units
        ));
    }
    println!(
        "| {elo0}, {elo1} | {error} | {unit} | {} | {undecided} |",
        cells.join(" | ")
    );
}
