//! The terminal's tables, each figure read from the row a CSV file is
//! written from, so the terminal and the files cannot disagree.
//!
//! One style throughout: a rate is `50.0% [49.9, 50.1]`, a signed figure
//! `+12.3 [-1.0, +25.6]`, and no figure prints as a negative zero.

use std::fmt::Write as _;
use std::path::Path;

use super::{BalanceRow, End, Objective, SummaryRow, SweepRow};
use crate::stats::{SprtDecision, SprtState};

/// `x` with `places` decimals, never `-0.0`.
#[must_use]
pub fn fixed(x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
        _ => text,
    }
}

/// `x` with a sign and `places` decimals; zero is `+0.0`, never `-0.0`.
#[must_use]
pub fn signed(x: f64, places: usize) -> String {
    let text = fixed(x, places);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// What an interval prints as when the sample is too small for one (its
/// CSV cells are empty).
pub const NO_INTERVAL: &str = "[no interval: too few units]";

/// What a mean over two or more units prints as when it has no interval:
/// every unit had the same value (a zero spread says nothing about the
/// figure's error; its CSV cells are empty too).
pub const ALIKE_UNITS: &str = "[no interval: every unit scored the same]";

/// A mean and its interval over `units` units, as [`signed_interval`]
/// prints it, saying [`ALIKE_UNITS`] rather than [`NO_INTERVAL`] when
/// there were units enough and they all agreed.
fn signed_mean(x: f64, lo: End, hi: End, places: usize, units: u64) -> String {
    match (lo, hi) {
        (None, _) | (_, None) if units >= 2 => format!("{} {ALIKE_UNITS}", signed(x, places)),
        _ => signed_interval(x, lo, hi, places),
    }
}

/// `figure [lo, hi]` with both ends written by `text`, or the figure and
/// [`NO_INTERVAL`].
fn with_interval(figure: String, lo: End, hi: End, text: impl Fn(f64) -> String) -> String {
    match (lo, hi) {
        (Some(lo), Some(hi)) => format!("{figure} [{}, {}]", text(lo), text(hi)),
        _ => format!("{figure} {NO_INTERVAL}"),
    }
}

/// A rate and its interval in percent: `50.0% [49.9, 50.1]`.
#[must_use]
pub fn percent(rate: f64, lo: End, hi: End) -> String {
    let pct = |x: f64| fixed(100.0 * x, 1);
    with_interval(format!("{}%", pct(rate)), lo, hi, pct)
}

/// A mean and its interval: `7.82 [7.70, 7.94]`.
#[must_use]
pub fn mean(x: f64, lo: End, hi: End, places: usize) -> String {
    with_interval(fixed(x, places), lo, hi, |y| fixed(y, places))
}

/// A signed figure and its interval: `+12.3 [-1.0, +25.6]`.
#[must_use]
pub fn signed_interval(x: f64, lo: End, hi: End, places: usize) -> String {
    with_interval(signed(x, places), lo, hi, |y| signed(y, places))
}

/// An Elo and its interval, or `-` when nothing was played (an empty
/// shard), which has no Elo (its clamped score would print as -3600).
fn elo_text(hands: u64, elo: f64, lo: End, hi: End, places: usize) -> String {
    if hands == 0 {
        "-".to_owned()
    } else {
        signed_interval(elo, lo, hi, places)
    }
}

/// The first line of a match's report, printed before any hand is played:
/// with the seed, or (`None`, when an external bot plays, which could read
/// a file the report goes to) saying it comes at the end.
#[must_use]
pub fn match_header(
    names: &[String; 2],
    variant: &str,
    seed: Option<u64>,
    duplicate: bool,
) -> String {
    let deals = if duplicate {
        "duplicate deals"
    } else {
        "single deals"
    };
    let seed = seed.map_or("seed shown at the end".to_owned(), |s| format!("seed {s}"));
    format!(
        "A = {}, B = {}, rules {variant}, {seed}, {deals}\n",
        names[0], names[1]
    )
}

/// The line that gives a match's seed after its report, when the header
/// could not (an external bot played: [`match_header`] with no seed).
#[must_use]
pub fn seed_line(seed: u64) -> String {
    format!("seed          {seed}\n")
}

/// The rest of a match's report, from its summary row.
#[must_use]
pub fn match_report(r: &SummaryRow, seconds: f64, threads: usize) -> String {
    let mut out = String::new();
    let n = r.hands;
    let speed = fixed(n as f64 / seconds.max(1e-9), 0);
    let threads = if threads == 1 {
        "1 thread".to_owned()
    } else {
        format!("{threads} threads")
    };
    writeln!(
        out,
        "{n} hands in {seconds:.2} s ({speed} hands/s, {threads})"
    )
    .unwrap();
    let mut line = |label: &str, text: String| writeln!(out, "{label:<13} {text}").unwrap();
    line(
        "hands won",
        format!(
            "A {}   B {}",
            percent(r.a_hand_win_rate, r.a_hand_win_lo, r.a_hand_win_hi),
            percent(r.b_hand_win_rate, r.b_hand_win_lo, r.b_hand_win_hi)
        ),
    );
    line(
        "non-dealer",
        format!(
            "won {} of {} decided hands: {}",
            r.non_dealer_wins,
            r.a_hand_wins + r.b_hand_wins,
            percent(
                r.non_dealer_win_rate,
                r.non_dealer_win_lo,
                r.non_dealer_win_hi
            )
        ),
    );
    line("knock won", percent(r.knock_rate, r.knock_lo, r.knock_hi));
    line("gin", percent(r.gin_rate, r.gin_lo, r.gin_hi));
    if r.big_gins > 0 {
        line("big gin", format!("{} hands (counted in gin)", r.big_gins));
    }
    line(
        "undercut",
        percent(r.undercut_rate, r.undercut_lo, r.undercut_hi),
    );
    if r.ties > 0 {
        line("tie", format!("{} hands", r.ties));
    }
    line("void", percent(r.void_rate, r.void_lo, r.void_hi));
    line(
        "A net points",
        format!(
            "{} per hand",
            signed_mean(
                r.a_points_per_hand,
                r.a_points_per_hand_lo,
                r.a_points_per_hand_hi,
                2,
                r.units
            )
        ),
    );
    line("turns/hand", fixed(r.mean_turns, 1));
    if r.games > 0 {
        line(
            "games won",
            format!(
                "A {}   B {}",
                percent(r.a_game_win_rate, r.a_game_win_lo, r.a_game_win_hi),
                percent(
                    1.0 - r.a_game_win_rate,
                    r.a_game_win_hi.map(|hi| 1.0 - hi),
                    r.a_game_win_lo.map(|lo| 1.0 - lo)
                )
            ),
        );
        line(
            "A margin",
            format!(
                "{} per game",
                signed_mean(
                    r.a_margin_per_game,
                    r.a_margin_per_game_lo,
                    r.a_margin_per_game_hi,
                    1,
                    r.units
                )
            ),
        );
    }
    let unit = if r.games > 0 { "games" } else { "hands" };
    if r.a_forfeits + r.b_forfeits > 0 {
        line(
            "forfeits",
            format!(
                "A {}   B {} ({unit} lost by forfeit)",
                r.a_forfeits, r.b_forfeits
            ),
        );
    }
    if r.hands == 0 {
        line("A Elo", format!("none: no {unit} played"));
    } else {
        line(
            "A Elo",
            format!(
                "{} (score {}% over {unit})",
                signed_interval(r.elo, r.elo_lo, r.elo_hi, 1),
                fixed(100.0 * r.score, 1)
            ),
        );
    }
    out
}

/// The line an SPRT ends with, for a test that ended at `test`, and a
/// second line when the table covers more units (`played`) than the test
/// looked at: the rest of the block it decided in.
#[must_use]
pub fn sprt_line(test: &SprtState, played: u64) -> String {
    let sprt = &test.sprt;
    let (lower, upper) = sprt.bounds();
    let verdict = match test.decision {
        SprtDecision::AcceptH1 => format!("H1 accepted: A is at least {} Elo stronger", sprt.elo1),
        SprtDecision::AcceptH0 => format!("H0 accepted: A is not {} Elo stronger", sprt.elo1),
        SprtDecision::Continue => "undecided: the game or hand limit came first".to_owned(),
    };
    let units = test.units.n;
    let mut line = format!(
        "SPRT          elo0 {} elo1 {} alpha {} beta {}: LLR {} after {units} units (stops below {} or above {}): {verdict}\n",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        fixed(test.llr, 2),
        fixed(lower, 2),
        fixed(upper, 2)
    );
    if played > units {
        line.push_str(&format!(
            "              the figures above are over all {played} units played: the block of deals the test decided in was played to its end\n"
        ));
    }
    line
}

/// `run`'s and `merge`'s table of summary rows.
#[must_use]
pub fn summary_table(rows: &[SummaryRow], seconds: f64, dir: Option<&Path>) -> String {
    let mut out = String::new();
    let pct = |x: f64| fixed(100.0 * x, 1);
    writeln!(
        out,
        "{:<14} {:<16} {:<16} {:>8} {:>20} {:>20} {:>22} {:>6} {:>6} {:>6}",
        "variant",
        "A",
        "B",
        "hands",
        "A hands won %",
        "A games won %",
        "A Elo",
        "gin%",
        "uc%",
        "void%"
    )
    .unwrap();
    for r in rows {
        let games = if r.games == 0 {
            "-".to_owned()
        } else {
            with_interval(
                pct(r.a_game_win_rate),
                r.a_game_win_lo,
                r.a_game_win_hi,
                pct,
            )
        };
        writeln!(
            out,
            "{:<14} {:<16} {:<16} {:>8} {:>20} {:>20} {:>22} {:>6} {:>6} {:>6}",
            r.variant,
            r.player_a,
            r.player_b,
            r.hands,
            with_interval(
                pct(r.a_hand_win_rate),
                r.a_hand_win_lo,
                r.a_hand_win_hi,
                pct
            ),
            games,
            elo_text(r.hands, r.elo, r.elo_lo, r.elo_hi, 0),
            pct(r.gin_rate),
            pct(r.undercut_rate),
            pct(r.void_rate),
        )
        .unwrap();
    }
    writeln!(
        out,
        "{} rows in {seconds:.1} s{}",
        rows.len(),
        written_to(dir)
    )
    .unwrap();
    out
}

/// `; written to DIR` after a table's count line, or nothing when the job
/// wrote no folder.
pub(super) fn written_to(dir: Option<&Path>) -> String {
    dir.map_or(String::new(), |d| format!("; written to {}", d.display()))
}

/// `sweep`'s table: the value, the `objective` (the share won when the
/// objective is Elo), and A's Elo.
#[must_use]
pub fn sweep_table(
    rows: &[SweepRow],
    param: &str,
    unit: &str,
    objective: Objective,
    dir: &Path,
) -> String {
    let mut out = String::new();
    let (header, figure): (String, fn(&SweepRow) -> String) = match objective {
        Objective::Points => ("A points/hand".into(), |r| {
            signed_interval(
                r.a_points_per_hand,
                r.a_points_per_hand_lo,
                r.a_points_per_hand_hi,
                2,
            )
        }),
        Objective::Hands => ("hands won %".into(), |r| {
            in_percent(r.hand_win_rate, r.hand_win_lo, r.hand_win_hi)
        }),
        Objective::Games | Objective::Elo => (format!("{unit} won %"), |r| {
            in_percent(r.score, r.score_lo, r.score_hi)
        }),
    };
    writeln!(
        out,
        "{:<14} {:>8} {:>24} {:>26}",
        "variant", param, header, "A Elo"
    )
    .unwrap();
    for r in rows {
        writeln!(
            out,
            "{:<14} {:>8} {:>24} {:>26}",
            r.variant,
            r.value,
            figure(r),
            elo_text(r.hands, r.elo, r.elo_lo, r.elo_hi, 1)
        )
        .unwrap();
    }
    writeln!(out, "written to {}", dir.display()).unwrap();
    out
}

/// A share and its interval in percent, without the `%` sign.
fn in_percent(x: f64, lo: End, hi: End) -> String {
    mean(100.0 * x, lo.map(|y| 100.0 * y), hi.map(|y| 100.0 * y), 1)
}

/// `balance`'s table.
#[must_use]
pub fn balance_table(rows: &[BalanceRow], dir: &Path) -> String {
    let pct = |x: f64| fixed(100.0 * x, 1);
    let mut out = String::new();
    writeln!(
        out,
        "{:<12} {:>22} {:>24} {:>11} {:>11} {:>6} {:>6} {:>7} {:>8}",
        "variant",
        "non-dealer wins %",
        "dealer edge pts/hand",
        "gin% D/ND",
        "uc% D/ND",
        "knock%",
        "void%",
        "turns",
        "score sd"
    )
    .unwrap();
    for r in rows {
        writeln!(
            out,
            "{:<12} {:>22} {:>24} {:>11} {:>11} {:>6} {:>6} {:>7} {:>8}",
            r.variant,
            with_interval(
                pct(r.non_dealer_win_rate),
                r.non_dealer_win_lo,
                r.non_dealer_win_hi,
                pct
            ),
            signed_interval(
                r.dealer_edge_per_hand,
                r.dealer_edge_per_hand_lo,
                r.dealer_edge_per_hand_hi,
                2
            ),
            format!("{}/{}", pct(r.dealer_gin_rate), pct(r.non_dealer_gin_rate)),
            format!(
                "{}/{}",
                pct(r.dealer_undercut_rate),
                pct(r.non_dealer_undercut_rate)
            ),
            pct(r.knock_rate),
            pct(r.void_rate),
            fixed(r.mean_turns, 1),
            fixed(r.hand_score_sd, 1)
        )
        .unwrap();
    }
    writeln!(out, "written to {}", dir.display()).unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gin_line_is_the_csv_gin_rate() {
        // 10 hands: 1 gin, 1 big gin, 8 knocks. gin_rate counts both
        // (20 %); the terminal once printed 10 % beside it.
        let mut t = crate::sim::Tallies {
            hands: 10,
            a_hand_wins: 10,
            gins: 1,
            big_gins: 1,
            knocks: 8,
            ..Default::default()
        };
        for i in 0..10 {
            t.a_net_points.add(20);
            t.turns.add(10);
            t.units.gins.add(i64::from(i < 2), 1);
        }
        let row = SummaryRow::new("standard", "a", "b", &t, 1);
        assert_eq!(row.gin_rate, 0.2);
        let text = match_report(&row, 1.0, 1);
        let gin = text.lines().find(|l| l.starts_with("gin ")).unwrap();
        assert_eq!(
            gin,
            format!(
                "gin           {}",
                percent(row.gin_rate, row.gin_lo, row.gin_hi)
            )
        );
        assert!(gin.starts_with("gin           20.0% ["), "{gin}");
        assert!(
            text.contains("big gin       1 hands (counted in gin)"),
            "{text}"
        );
    }

    #[test]
    fn no_negative_zero() {
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.05001, 1), "-0.1");
        assert_eq!(signed(-0.0, 0), "+0");
        assert_eq!(signed(-0.4, 0), "+0");
        assert_eq!(signed(-0.6, 0), "-1");
        assert_eq!(signed(5.0, 0), "+5");
    }
}
