//! Elo ratings of many players by maximum likelihood over all their
//! pairings (the Bradley–Terry model on Elo's logistic scale), with
//! intervals that count the independent unit (a duplicate pair), not the
//! game.
//!
//! Model: player `i` scores `p(rᵢ − rⱼ) = 1 / (1 + 10^(−(rᵢ − rⱼ)/400))` per
//! game against `j` (a draw counts half). The log-likelihood of every
//! pairing's total score is maximised by Newton's method with the anchor
//! fixed at 0 (it is concave, so a step that does not raise it is halved).
//!
//! Intervals: the covariance is the sandwich `I⁻¹ J I⁻¹` — `I` the
//! likelihood's curvature (its Fisher information), `J` the observed spread
//! of the scores per unit about the fitted means — so the two games of a
//! duplicate pair, which are correlated, count as one observation, as in
//! the two-player Elo interval. `J` is scaled by `N / (N − q)` (N units, q
//! free ratings) and the quantile is Student's t with `N − q` degrees of
//! freedom; below one there is no interval. A pairing whose units all
//! scored alike shows no spread to measure: it contributes the curvature's
//! own variance (its games counted as independent) instead of zero.
//!
//! A rating is finite only if results connect the player to the anchor
//! both ways: a chain of players each of whom scored against the next
//! leads from the player to the anchor and back. A player who scored every
//! point against the anchor's group is [`Rating::Above`] it (its maximum
//! likelihood rating is +∞), one who scored none is [`Rating::Below`], and
//! a player whose results do not reach the anchor's group at all is
//! [`Rating::Unconnected`]. The anchor's group is fitted alone: its games
//! against the others are won or lost outright, which the limit of the
//! likelihood prices at 0.

use super::t_quantile;

/// `ln 10 / 400`: the slope of Elo's logistic scale.
const SLOPE: f64 = std::f64::consts::LN_10 / 400.0;

/// One pairing's results: `a`'s score against `b` per scoring unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    /// Player A's index.
    pub a: usize,
    /// Player B's index.
    pub b: usize,
    /// Scoring units (duplicate pairs, or single games or hands).
    pub units: u64,
    /// Games (or hands) per unit.
    pub unit_size: u64,
    /// A's half points (win 2, draw 1) summed over the units.
    pub half_points: i64,
    /// The sum over the units of the square of A's half points per unit.
    pub half_points_sq: u128,
}

impl Encounter {
    /// Games (or hands) played.
    fn games(&self) -> f64 {
        self.units as f64 * self.unit_size.max(1) as f64
    }

    /// A's score in games (a win counts 1).
    fn score(&self) -> f64 {
        self.half_points as f64 / 2.0
    }

    /// `Σ (sᵤ − m·p)²` over the units, sᵤ the unit's score in games, m
    /// the games per unit: the spread about the fitted mean `p` per game.
    fn spread(&self, p: f64) -> f64 {
        let m = self.unit_size.max(1) as f64;
        let n = self.units as f64;
        let sq = self.half_points_sq as f64 / 4.0;
        (sq - 2.0 * m * p * self.score() + n * m * m * p * p).max(0.0)
    }

    /// Whether every unit scored the same (or there are fewer than two).
    fn no_spread(&self) -> bool {
        self.units < 2
            || self.units as i128 * self.half_points_sq as i128
                == self.half_points as i128 * self.half_points as i128
    }
}

/// One player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rating {
    /// Elo relative to the anchor.
    Rated(f64),
    /// Scored every point against the anchor's group: unbounded above.
    Above,
    /// Scored no point against the anchor's group: unbounded below.
    Below,
    /// No chain of results leads to the anchor's group.
    Unconnected,
}

/// The fitted ratings.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Per player.
    pub ratings: Vec<Rating>,
    /// The ratings' covariance (players × players; rows of players not
    /// [`Rating::Rated`] and of the anchor are zero).
    pub covariance: Vec<Vec<f64>>,
    /// Degrees of freedom of the intervals: units fitted minus free
    /// ratings (0: no interval).
    pub df: u64,
    /// The anchor.
    pub anchor: usize,
}

impl Fit {
    /// The 95 % interval of player `i`'s rating (`None` unless rated with
    /// a degree of freedom, and for the anchor, which is 0 by definition).
    #[must_use]
    pub fn interval(&self, i: usize) -> Option<(f64, f64)> {
        let Rating::Rated(r) = self.ratings[i] else {
            return None;
        };
        if self.df == 0 || i == self.anchor {
            return None;
        }
        let half = t_quantile(0.975, self.df) * self.covariance[i][i].max(0.0).sqrt();
        Some((r - half, r + half))
    }

    /// The likelihood of superiority of `i` over `j`: the probability,
    /// under the fit's normal approximation, that `i` is the stronger.
    /// `None` unless both are rated and their difference has a spread.
    #[must_use]
    pub fn superiority(&self, i: usize, j: usize) -> Option<f64> {
        let (Rating::Rated(ri), Rating::Rated(rj)) = (self.ratings[i], self.ratings[j]) else {
            return None;
        };
        let c = &self.covariance;
        let var = c[i][i] + c[j][j] - 2.0 * c[i][j];
        if self.df == 0 || var <= 0.0 || !var.is_finite() {
            return None;
        }
        Some(normal_cdf((ri - rj) / var.sqrt()))
    }
}

/// The standard normal distribution function.
fn normal_cdf(x: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(-x / std::f64::consts::SQRT_2)
}

/// The expected score per game of a player `d` Elo above its opponent.
fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-SLOPE * d).exp())
}

/// Fits the ratings of `players` players from `encounters`, anchored at
/// `anchor` (rating 0).
///
/// # Panics
/// If `anchor` or an encounter's player is not below `players`.
#[must_use]
pub fn fit(players: usize, encounters: &[Encounter], anchor: usize) -> Fit {
    assert!(anchor < players, "the anchor is one of the players");
    let up = reachability(players, encounters);
    let ratings: Vec<Rating> = (0..players)
        .map(|i| match (up[i][anchor], up[anchor][i]) {
            (true, true) => Rating::Rated(0.0),
            (true, false) => Rating::Above,
            (false, true) => Rating::Below,
            (false, false) => Rating::Unconnected,
        })
        .collect();
    // Free parameters: the rated players other than the anchor.
    let free: Vec<usize> = (0..players)
        .filter(|&i| i != anchor && ratings[i] == Rating::Rated(0.0))
        .collect();
    let slot = |i: usize| free.iter().position(|&f| f == i);
    let used: Vec<&Encounter> = encounters
        .iter()
        .filter(|e| {
            e.units > 0
                && matches!(ratings[e.a], Rating::Rated(_))
                && matches!(ratings[e.b], Rating::Rated(_))
        })
        .collect();
    let q = free.len();
    let mut r = vec![0.0; players];
    let log_likelihood = |r: &[f64]| -> f64 {
        used.iter()
            .map(|e| {
                let p = expected(r[e.a] - r[e.b]);
                let s = e.score();
                let mut l = 0.0;
                if s > 0.0 {
                    l += s * p.ln();
                }
                if e.games() - s > 0.0 {
                    l += (e.games() - s) * (1.0 - p).ln();
                }
                l
            })
            .sum()
    };
    // Gradient and information (the negative Hessian) over the free slots.
    let derivatives = |r: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        let mut g = vec![0.0; q];
        let mut info = vec![vec![0.0; q]; q];
        for e in &used {
            let p = expected(r[e.a] - r[e.b]);
            let grad = SLOPE * (e.score() - e.games() * p);
            let w = SLOPE * SLOPE * e.games() * p * (1.0 - p);
            add_outer(&mut info, slot(e.a), slot(e.b), w);
            if let Some(i) = slot(e.a) {
                g[i] += grad;
            }
            if let Some(j) = slot(e.b) {
                g[j] -= grad;
            }
        }
        (g, info)
    };
    if q > 0 {
        let mut current = log_likelihood(&r);
        for _ in 0..200 {
            let (g, info) = derivatives(&r);
            let Some(step) = solve(info, g) else { break };
            let mut scale = 1.0;
            let mut moved = false;
            while scale > 1e-6 {
                let mut next = r.clone();
                for (k, &i) in free.iter().enumerate() {
                    next[i] += scale * step[k];
                }
                let value = log_likelihood(&next);
                if value >= current - 1e-12 * current.abs() {
                    r = next;
                    current = value;
                    moved = true;
                    break;
                }
                scale /= 2.0;
            }
            let size = step.iter().fold(0.0_f64, |m, s| m.max(s.abs())) * scale;
            if !moved || size < 1e-10 {
                break;
            }
        }
    }
    // The sandwich at the fit.
    let mut covariance = vec![vec![0.0; players]; players];
    let units: u64 = used.iter().map(|e| e.units).sum();
    let df = units.saturating_sub(q as u64);
    if q > 0 {
        let (_, info) = derivatives(&r);
        let mut meat = vec![vec![0.0; q]; q];
        for e in &used {
            let p = expected(r[e.a] - r[e.b]);
            let v = if e.no_spread() {
                SLOPE * SLOPE * e.games() * p * (1.0 - p)
            } else {
                SLOPE * SLOPE * e.spread(p)
            };
            add_outer(&mut meat, slot(e.a), slot(e.b), v);
        }
        if df > 0
            && let Some(bread) = inverse(&info)
        {
            let small = units as f64 / df as f64;
            let sandwich = product(&product(&bread, &meat), &bread);
            for (k, &i) in free.iter().enumerate() {
                for (l, &j) in free.iter().enumerate() {
                    covariance[i][j] = small * sandwich[k][l];
                }
            }
        }
    }
    let ratings = ratings
        .into_iter()
        .enumerate()
        .map(|(i, rating)| match rating {
            Rating::Rated(_) => Rating::Rated(r[i]),
            other => other,
        })
        .collect();
    Fit {
        ratings,
        covariance,
        df,
        anchor,
    }
}

/// Adds `w·x·xᵀ` to `m`, `x` being +1 at slot `a` and −1 at slot `b`
/// (a missing slot is the anchor, fixed).
fn add_outer(m: &mut [Vec<f64>], a: Option<usize>, b: Option<usize>, w: f64) {
    if let Some(i) = a {
        m[i][i] += w;
    }
    if let Some(j) = b {
        m[j][j] += w;
    }
    if let (Some(i), Some(j)) = (a, b) {
        m[i][j] -= w;
        m[j][i] -= w;
    }
}

/// Which player's results reach which: `up[i][j]` when a chain of players,
/// each of whom scored against the next, leads from `i` to `j` (every
/// player reaches itself).
fn reachability(players: usize, encounters: &[Encounter]) -> Vec<Vec<bool>> {
    let mut up = vec![vec![false; players]; players];
    for (i, row) in up.iter_mut().enumerate() {
        row[i] = true;
    }
    for e in encounters.iter().filter(|e| e.units > 0) {
        let games = e.units as i128 * e.unit_size.max(1) as i128 * 2;
        if e.half_points > 0 {
            up[e.a][e.b] = true;
        }
        if (e.half_points as i128) < games {
            up[e.b][e.a] = true;
        }
    }
    // Warshall's transitive closure.
    for k in 0..players {
        let via = up[k].clone();
        for row in up.iter_mut().filter(|row| row[k]) {
            for (cell, &through) in row.iter_mut().zip(&via) {
                *cell |= through;
            }
        }
    }
    up
}

/// Solves `m·x = b` by Gaussian elimination with partial pivoting (`None`
/// when `m` is singular).
fn solve(mut m: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (cell, &p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *cell -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / m[row][row];
    }
    Some(x)
}

/// The inverse of `m`, column by column.
fn inverse(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            solve(
                m.to_vec(),
                (0..n).map(|i| f64::from(u8::from(i == j))).collect(),
            )
        })
        .collect::<Option<_>>()?;
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

fn product(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = b.first().map_or(0, Vec::len);
    a.iter()
        .map(|row| {
            (0..n)
                .map(|j| row.iter().zip(b).map(|(x, col)| x * col[j]).sum())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo;
    use rand::{Rng as _, SeedableRng as _};
    use rand_pcg::Pcg64Mcg;

    /// An encounter from each unit's half points.
    fn encounter(a: usize, b: usize, unit_size: u64, units: &[i64]) -> Encounter {
        Encounter {
            a,
            b,
            units: units.len() as u64,
            unit_size,
            half_points: units.iter().sum(),
            half_points_sq: units.iter().map(|&h| (h * h) as u128).sum(),
        }
    }

    fn rated(fit: &Fit, i: usize) -> f64 {
        match fit.ratings[i] {
            Rating::Rated(r) => r,
            other => panic!("player {i} is {other:?}"),
        }
    }

    #[test]
    fn a_hand_computed_round_robin() {
        // A scores 75 % against B and against C, B and C split evenly, in
        // as many units each. By symmetry B and C are equal, and A's
        // likelihood equation, 2·G·0.75 = 2·G·p(r_A − r_B), gives
        // p = 0.75: r_A − r_B = 400·log10(3) = 190.849 Elo.
        let ab = encounter(0, 1, 2, &[4, 2, 4, 2]); // 12 of 16 half points
        let ac = encounter(0, 2, 2, &[2, 4, 4, 2]);
        let bc = encounter(1, 2, 2, &[4, 0, 2, 2]);
        let fit = fit(3, &[ab, ac, bc], 1);
        assert!((rated(&fit, 0) - 400.0 * 3f64.log10()).abs() < 1e-6);
        assert!(rated(&fit, 2).abs() < 1e-6);
        assert_eq!(rated(&fit, 1), 0.0);
        assert_eq!(fit.df, 12 - 2);
        // A is above both by the same margin, with the same spread.
        let (lo, hi) = fit.interval(0).unwrap();
        assert!(lo < 190.849 && 190.849 < hi);
        assert_eq!(fit.interval(1), None, "the anchor is 0 by definition");
        let los = fit.superiority(0, 2).unwrap();
        assert!(los > 0.5 && los < 1.0, "{los}");
        assert!((fit.superiority(2, 1).unwrap() - 0.5).abs() < 1e-6);
    }

    #[test]
    fn two_players_give_the_pair_elo_and_its_delta_method_spread() {
        // Four pairs scoring 2, 2, 1 and 0 games of 2: 5 of 8, p = 0.625.
        let e = encounter(0, 1, 2, &[4, 4, 2, 0]);
        let fit = fit(2, &[e], 1);
        assert!((rated(&fit, 0) - elo(0.625)).abs() < 1e-6);
        // By hand: the units' scores 2, 2, 1, 0 have mean 1.25 and sample
        // variance 2.75 / 3; the mean per game has standard error
        // sqrt(2.75 / 3 / 4) / 2 and dElo/dp = 400 / (ln 10 · p (1 − p)).
        let se = (2.75_f64 / 3.0 / 4.0).sqrt() / 2.0;
        let sd = se * 400.0 / (std::f64::consts::LN_10 * 0.625 * 0.375);
        assert!((fit.covariance[0][0].sqrt() - sd).abs() < 1e-6 * sd);
        let (lo, hi) = fit.interval(0).unwrap();
        let half = t_quantile(0.975, 3) * sd;
        assert!((hi - lo - 2.0 * half).abs() < 1e-6);
    }

    /// Correlated duplicate pairs: the second game repeats the first's
    /// result with probability `echo`, else is drawn afresh (so each game
    /// still scores `p`).
    fn simulate(truth: &[f64], units: u64, echo: f64, seed: u64) -> Vec<Encounter> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut uniform = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut out = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let p = expected(truth[a] - truth[b]);
                let results: Vec<i64> = (0..units)
                    .map(|_| {
                        let first = uniform() < p;
                        let second = if uniform() < echo {
                            first
                        } else {
                            uniform() < p
                        };
                        2 * (i64::from(first) + i64::from(second))
                    })
                    .collect();
                out.push(encounter(a, b, 2, &results));
            }
        }
        out
    }

    #[test]
    fn known_strengths_are_recovered_within_the_intervals() {
        let truth = [0.0, 120.0, 260.0, -180.0, 40.0];
        let (mut covered, mut total) = (0, 0);
        for seed in 0..200 {
            let fit = fit(5, &simulate(&truth, 300, 0.6, seed), 0);
            for (i, &t) in truth.iter().enumerate().skip(1) {
                let (lo, hi) = fit.interval(i).unwrap();
                covered += usize::from(lo <= t && t <= hi);
                total += 1;
            }
        }
        // 800 intervals at 95 %: the binomial's 99.9 % range is about
        // 92.6 % to 97.4 %. Intervals that took a game as the unit would
        // cover far less with these correlated pairs.
        let coverage = covered as f64 / total as f64;
        assert!((0.925..=0.975).contains(&coverage), "coverage {coverage}");
        // One large run lands close to the truth.
        let fit = fit(5, &simulate(&truth, 20_000, 0.6, 99), 0);
        for (i, &t) in truth.iter().enumerate() {
            assert!(
                (rated(&fit, i) - t).abs() < 10.0,
                "{i}: {:?}",
                fit.ratings[i]
            );
        }
    }

    #[test]
    fn a_player_who_wins_or_loses_everything_is_not_given_a_number() {
        // 0 wins every game, 3 loses every game, 1 and 2 split.
        let all = |a, b| encounter(a, b, 2, &[4, 4, 4]);
        let even = encounter(1, 2, 2, &[4, 0, 2]);
        let fit = fit(
            4,
            &[all(0, 1), all(0, 2), all(0, 3), even, all(1, 3), all(2, 3)],
            1,
        );
        assert_eq!(fit.ratings[0], Rating::Above);
        assert_eq!(fit.ratings[3], Rating::Below);
        assert_eq!(rated(&fit, 2), 0.0);
        assert!(fit.interval(0).is_none() && fit.superiority(0, 1).is_none());
        assert!(fit.interval(2).is_some());
        // Anchored at the winner, no one else can be rated.
        let fit2 = super::fit(4, &[all(0, 1), all(0, 2), all(0, 3), even], 0);
        assert!(fit2.ratings[1..].iter().all(|r| *r == Rating::Below));
        // Players whose results never meet the anchor's.
        let apart = super::fit(
            4,
            &[encounter(0, 1, 2, &[2, 4]), encounter(2, 3, 2, &[2, 0])],
            0,
        );
        assert_eq!(apart.ratings[2], Rating::Unconnected);
        assert_eq!(apart.ratings[3], Rating::Unconnected);
        assert!(matches!(apart.ratings[1], Rating::Rated(_)));
    }

    #[test]
    fn alike_units_still_get_an_interval() {
        // Every unit a 1–1 split: no spread to measure, yet the rating is
        // not known exactly.
        let e = encounter(0, 1, 2, &[2; 10]);
        let fit = fit(2, &[e], 1);
        let (lo, hi) = fit.interval(0).unwrap();
        assert!(lo < -10.0 && hi > 10.0, "[{lo}, {hi}]");
        // One unit: no degree of freedom, no interval.
        let fit = super::fit(2, &[encounter(0, 1, 2, &[2])], 1);
        assert_eq!(fit.interval(0), None);
    }
}
