//! Quantiles of the standard normal and of Student's t, right and fast for
//! every number of degrees of freedom a run can have (1 to beyond 10¹²).
//!
//! Student's t with `df` degrees of freedom is solved in one of three ways:
//! - `df` = 1 and 2 have closed forms (Cauchy; `(1 − 2q)/√(2q(1 − q))`);
//! - `df` below [`SERIES_LIMIT`]: Newton's method, safeguarded by a bracket,
//!   on the exact finite-series distribution function for whole `df`
//!   (Abramowitz & Stegun 26.7.3–26.7.4), started from the expansion below;
//! - from [`SERIES_LIMIT`] up: the Cornish–Fisher expansion of the t
//!   quantile in powers of 1/`df` about the normal quantile (A&S 26.7.5), whose
//!   first neglected term is below 10⁻¹² for every tail down to 10⁻⁹ there.
//!
//! Each path does a bounded amount of work, so no input can make it spin.
//! (statrs' `StudentsT::inverse_cdf` goes through an inverse incomplete beta
//! that never returns from about 15 million degrees of freedom and is several
//! per cent off from about 3 million.)

use std::f64::consts::{FRAC_2_PI, PI};

use statrs::distribution::{ContinuousCDF, Normal};

/// From this many degrees of freedom up the quantile is the Cornish–Fisher
/// expansion; below it, Newton's method on the exact distribution function
/// (whose series has `df / 2` terms).
pub const SERIES_LIMIT: u64 = 2_000;

/// The `p` quantile of the standard normal (`p` in (0, 1); ∓∞ at 0 and 1).
///
/// # Panics
/// If `p` is not in [0, 1].
#[must_use]
pub fn normal_quantile(p: f64) -> f64 {
    assert!((0.0..=1.0).contains(&p), "a probability, not {p}");
    Normal::standard().inverse_cdf(p)
}

/// The `p` quantile of Student's t with `df` degrees of freedom (`p` in
/// (0, 1); ∓∞ at 0 and 1).
///
/// # Panics
/// If `df` is 0 or `p` is not in [0, 1].
#[must_use]
pub fn t_quantile(p: f64, df: u64) -> f64 {
    assert!(df >= 1, "Student's t needs at least one degree of freedom");
    assert!((0.0..=1.0).contains(&p), "a probability, not {p}");
    if p == 0.5 {
        return 0.0;
    }
    // Solve for the upper tail q = min(p, 1 − p) and restore the sign.
    let (q, sign) = if p > 0.5 { (1.0 - p, 1.0) } else { (p, -1.0) };
    if q == 0.0 {
        return sign * f64::INFINITY;
    }
    let t = match df {
        1 => 1.0 / (PI * q).tan(),
        2 => (1.0 - 2.0 * q) / (2.0 * q * (1.0 - q)).sqrt(),
        _ if df >= SERIES_LIMIT => cornish_fisher(normal_quantile(1.0 - q), df as f64),
        _ => newton(q, df),
    };
    sign * t
}

/// A&S 26.7.5: the t quantile from the normal quantile `x`, to 1/ν⁴.
fn cornish_fisher(x: f64, nu: f64) -> f64 {
    let x2 = x * x;
    let g1 = x * (x2 + 1.0) / 4.0;
    let g2 = x * ((5.0 * x2 + 16.0) * x2 + 3.0) / 96.0;
    let g3 = x * (((3.0 * x2 + 19.0) * x2 + 17.0) * x2 - 15.0) / 384.0;
    let g4 = x * ((((79.0 * x2 + 776.0) * x2 + 1482.0) * x2 - 1920.0) * x2 - 945.0) / 92_160.0;
    x + (g1 + (g2 + (g3 + g4 / nu) / nu) / nu) / nu
}

/// The upper tail P(T > t) for t ≥ 0 and whole `df`, from A&S 26.7.3–4:
/// with θ = atan(t/√ν), P(|T| < t) is a finite sum in cos²θ.
fn upper_tail(t: f64, df: u64) -> f64 {
    let theta = (t / (df as f64).sqrt()).atan();
    let (s, c) = theta.sin_cos();
    let c2 = c * c;
    // Σ of the products (k/(k+1) for the even case, (k−1)/k for the odd
    // one) times cos^k θ; every term is positive.
    let central = if df.is_multiple_of(2) {
        let (mut term, mut sum) = (1.0, 1.0);
        let mut k = 2;
        while k < df {
            term *= c2 * (k - 1) as f64 / k as f64;
            sum += term;
            k += 2;
        }
        s * sum
    } else {
        let mut sum = 0.0;
        if df > 1 {
            let mut term = c;
            sum = c;
            let mut k = 3;
            while k < df {
                term *= c2 * (k - 1) as f64 / k as f64;
                sum += term;
                k += 2;
            }
        }
        FRAC_2_PI * (theta + s * sum)
    };
    (1.0 - central) / 2.0
}

/// The density of Student's t at `t`.
fn density(t: f64, df: u64) -> f64 {
    let nu = df as f64;
    let log_norm = ln_gamma((nu + 1.0) / 2.0) - ln_gamma(nu / 2.0) - 0.5 * (nu * PI).ln();
    (log_norm - (nu + 1.0) / 2.0 * (t * t / nu).ln_1p()).exp()
}

fn ln_gamma(x: f64) -> f64 {
    statrs::function::gamma::ln_gamma(x)
}

/// Newton's method on `upper_tail(t) = q` for 3 ≤ df < [`SERIES_LIMIT`],
/// kept inside a bracket that shrinks every step (bisection when a Newton
/// step would leave it), with a fixed cap on the steps.
fn newton(q: f64, df: u64) -> f64 {
    // The tail falls as t grows: find hi with upper_tail(hi) ≤ q.
    let mut lo = 0.0_f64;
    let mut hi = 2.0_f64;
    while upper_tail(hi, df) > q {
        lo = hi;
        hi *= 2.0;
        if !hi.is_finite() {
            return f64::INFINITY;
        }
    }
    let mut t = cornish_fisher(normal_quantile(1.0 - q), df as f64).clamp(lo, hi);
    for _ in 0..200 {
        let excess = upper_tail(t, df) - q;
        if excess > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let step = excess / density(t, df);
        let next = t + step;
        let next = if next > lo && next < hi {
            next
        } else {
            (lo + hi) / 2.0
        };
        if (next - t).abs() <= 4.0 * f64::EPSILON * t || hi - lo <= 4.0 * f64::EPSILON * hi {
            return next;
        }
        t = next;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (df, p, quantile): 423 points from df 1 to 10¹², computed at 40
    /// digits with mpmath and agreeing with SciPy's (Boost's) quantile to
    /// 10⁻¹²; `tests/data/t-quantiles.py` makes the file.
    const REFERENCE: &[(u64, f64, f64)] = include!("../../tests/data/t-quantiles.rs.in");

    #[test]
    fn t_quantiles_match_the_reference_everywhere() {
        assert!(REFERENCE.len() > 400, "{}", REFERENCE.len());
        for &(df, p, want) in REFERENCE {
            let got = t_quantile(p, df);
            let err = ((got - want) / want).abs();
            assert!(
                err < 1e-10,
                "t({df}) quantile at {p}: {got} against {want} (relative error {err:e})"
            );
        }
    }

    #[test]
    fn textbook_table_values() {
        // The t table every statistics book prints (two-sided 95 %).
        for (df, want) in [
            (1, 12.706),
            (2, 4.303),
            (3, 3.182),
            (4, 2.776),
            (5, 2.571),
            (10, 2.228),
            (20, 2.086),
            (30, 2.042),
            (60, 2.000),
            (120, 1.980),
        ] {
            let got = t_quantile(0.975, df);
            assert!((got - want).abs() < 5e-4, "t({df}): {got}");
        }
    }

    #[test]
    fn huge_degrees_of_freedom_give_the_normal_quantile_promptly() {
        // 15 million and up used to hang; from 3 million they were far off.
        let z = normal_quantile(0.975);
        assert!((z - 1.959_963_984_540_054).abs() < 1e-15, "{z}");
        for df in [
            3_000_000,
            8_000_000,
            10_679_970,
            15_000_000,
            16_000_000,
            100_000_000,
            1_000_000_000_000,
            u64::MAX,
        ] {
            let t = t_quantile(0.975, df);
            assert!(t >= z && t - z < 1e-5, "t({df}) = {t}");
        }
    }

    #[test]
    fn symmetric_monotone_and_exact_at_the_ends() {
        for df in [1, 2, 3, 4, 7, 50, 1_999, 2_000, 2_001, 1 << 40] {
            assert_eq!(t_quantile(0.5, df), 0.0);
            assert_eq!(t_quantile(1.0, df), f64::INFINITY);
            assert_eq!(t_quantile(0.0, df), f64::NEG_INFINITY);
            let mut last = f64::NEG_INFINITY;
            for i in 1..200 {
                let p = f64::from(i) / 200.0;
                let t = t_quantile(p, df);
                assert!(t > last, "t({df}) not increasing at {p}");
                assert!((t + t_quantile(1.0 - p, df)).abs() <= 1e-12 * t.abs().max(1.0));
                last = t;
            }
        }
    }

    #[test]
    fn series_and_expansion_agree_where_they_meet() {
        for p in [0.9, 0.975, 0.995, 0.9995] {
            let series = newton(1.0 - p, SERIES_LIMIT - 1);
            let expansion = cornish_fisher(normal_quantile(p), (SERIES_LIMIT - 1) as f64);
            assert!(
                ((series - expansion) / series).abs() < 1e-12,
                "{p}: {series} {expansion}"
            );
        }
    }
}
