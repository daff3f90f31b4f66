//! Ratings of the sides of one multi-player table: Luce's choice model,
//! the multi-player Bradley–Terry. Each game has one winner, side `i`
//! winning with probability `γ_i / Σ_j γ_j`; on Elo's scale
//! (`r_i = 400·log10 γ_i`) two sides alone are Bradley–Terry's logistic
//! curve, so these ratings read like the pairings' rating list.
//!
//! When every side plays every game of the table (one table of a
//! three-player or partnership row), the maximum-likelihood rating is
//! closed: `r_i − r_a = 400·log10(W_i / W_a)` over the games won `W`. Its
//! covariance is the delta method over the independent units (deals), from
//! the per-unit sums of wins and their cross products, scaled by
//! `m/(m−1)`, with t quantiles at `m − 1` degrees of freedom: a unit's
//! games, which share its decks and players, count once.

use super::bradley_terry::{Fit, Rating};

/// Elo per natural log of a strength ratio.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// One table's games won by each side, per unit and summed over the
/// units: all a fit needs, as exact integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableWins {
    /// Units (deals).
    pub units: u64,
    /// Games played at the table.
    pub games: u64,
    /// Per side, `Σ_u w_ui`: games won.
    pub wins: Vec<u64>,
    /// Per pair of sides, `Σ_u w_ui·w_uj` (the diagonal: `Σ_u w_ui²`).
    pub cross: Vec<Vec<u128>>,
}

/// Fits the sides of `table` by Luce's model, anchored at side `anchor`
/// (rated 0). A side that won no game while the anchor did is unbounded
/// below; one that won while the anchor won none is unbounded above; one
/// that won none beside an anchor that won none has no rating.
#[must_use]
pub fn fit_table(table: &TableWins, anchor: usize) -> Fit {
    let n = table.wins.len();
    let wa = table.wins[anchor];
    let ratings: Vec<Rating> = (0..n)
        .map(|i| {
            let wi = table.wins[i];
            match (wi, wa) {
                _ if i == anchor => Rating::Rated(0.0),
                (0, 0) => Rating::Unconnected,
                (0, _) => Rating::Below,
                (_, 0) => Rating::Above,
                _ => Rating::Rated(SCALE * (wi as f64 / wa as f64).ln()),
            }
        })
        .collect();
    let m = table.units;
    let rated: Vec<usize> = (0..n)
        .filter(|&i| i != anchor && matches!(ratings[i], Rating::Rated(_)))
        .collect();
    let mut covariance = vec![vec![0.0; n]; n];
    let spread = |i: usize, j: usize| unit_spread(table, anchor, i, j);
    // All units alike (every unit's wins in proportion to the totals):
    // the spread is zero, and the units are worth what the model says a
    // single game is, once each, the least a unit is worth.
    let alike = rated.iter().all(|&i| spread(i, i) == 0.0);
    if m >= 2 {
        for &i in &rated {
            for &j in &rated {
                let c = if alike {
                    let share = |k: usize| table.wins[k] as f64 / table.games as f64;
                    let diagonal = if i == j { 1.0 / share(i) } else { 0.0 };
                    (diagonal + 1.0 / share(anchor)) / m as f64
                } else {
                    m as f64 / (m - 1) as f64 * spread(i, j)
                };
                covariance[i][j] = SCALE * SCALE * c;
            }
        }
    }
    Fit {
        ratings,
        covariance,
        df: m.saturating_sub(1),
        anchor,
    }
}

/// `Σ_u e_ui·e_uj` with `e_ui = w_ui/W_i − w_ua/W_a` (the influence of
/// unit `u` on `ln(W_i/W_a)`), from an exact integer numerator:
/// `(C_ij·W_a² − C_ia·W_j·W_a − C_aj·W_i·W_a + C_aa·W_i·W_j) / (W_i·W_j·W_a²)`.
fn unit_spread(table: &TableWins, a: usize, i: usize, j: usize) -> f64 {
    let w = |k: usize| i128::from(table.wins[k]);
    let c = |k: usize, l: usize| table.cross[k][l] as i128;
    let numerator = c(i, j) * w(a) * w(a) - c(i, a) * w(j) * w(a) - c(a, j) * w(i) * w(a)
        + c(a, a) * w(i) * w(j);
    numerator as f64 / (w(i) as f64 * w(j) as f64 * (w(a) as f64).powi(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sums of `units`, each a vector of wins per side.
    fn table(units: &[&[u64]]) -> TableWins {
        let n = units[0].len();
        let mut t = TableWins {
            units: units.len() as u64,
            games: 0,
            wins: vec![0; n],
            cross: vec![vec![0; n]; n],
        };
        for u in units {
            t.games += u.iter().sum::<u64>();
            for i in 0..n {
                t.wins[i] += u[i];
                for j in 0..n {
                    t.cross[i][j] += u128::from(u[i] * u[j]);
                }
            }
        }
        t
    }

    #[test]
    fn ratings_are_log_ratios_of_wins_with_the_delta_method_over_units() {
        let units: [&[u64]; 4] = [&[2, 1, 0], &[1, 1, 1], &[3, 0, 0], &[0, 2, 1]];
        let fit = fit_table(&table(&units), 1);
        let Rating::Rated(r0) = fit.ratings[0] else {
            panic!()
        };
        assert!((r0 - SCALE * (6.0f64 / 4.0).ln()).abs() < 1e-9);
        // The covariance from the influences directly.
        let (w0, w1, w2) = (6.0, 4.0, 2.0);
        let e = |u: &[u64], i: usize, wi: f64| u[i] as f64 / wi - u[1] as f64 / w1;
        let mut s = [[0.0; 2]; 2];
        for u in units {
            let v = [e(u, 0, w0), e(u, 2, w2)];
            for a in 0..2 {
                for b in 0..2 {
                    s[a][b] += v[a] * v[b];
                }
            }
        }
        let k = SCALE * SCALE * 4.0 / 3.0;
        assert!((fit.covariance[0][0] - k * s[0][0]).abs() < 1e-6);
        assert!((fit.covariance[0][2] - k * s[0][1]).abs() < 1e-6);
        assert!((fit.covariance[2][2] - k * s[1][1]).abs() < 1e-6);
        assert_eq!(fit.covariance[1], [0.0; 3]);
        assert_eq!(fit.df, 3);
        assert!(fit.interval(0).is_some() && fit.interval(1).is_none());
    }

    #[test]
    fn sides_without_wins_are_unbounded_and_alike_units_keep_a_width() {
        let fit = fit_table(&table(&[&[2, 1, 0], &[2, 1, 0]]), 0);
        assert_eq!(fit.ratings[2], Rating::Below);
        let (lo, hi) = fit.interval(1).unwrap();
        assert!(lo < hi, "{lo} {hi}");
        let fit = fit_table(&table(&[&[0, 1, 0], &[0, 1, 0]]), 0);
        assert_eq!(fit.ratings[1], Rating::Above);
        assert_eq!(fit.ratings[2], Rating::Unconnected);
    }

    #[test]
    fn two_sides_are_bradley_terry() {
        // 3 wins to 1: a score of 75 %, 400·log10(3) ≈ 190.8 Elo.
        let fit = fit_table(&table(&[&[2, 0], &[1, 1]]), 1);
        let Rating::Rated(r) = fit.ratings[0] else {
            panic!()
        };
        assert!((r - 400.0 * 3f64.log10()).abs() < 1e-9);
    }
}
