//! The studies' tables: `sweep.csv` (+ `sweep.svg`) and `balance.csv`,
//! and the per-row charts every result folder holds.

use serde::Serialize;

use super::chart::{Point, RowSeries, Series, histogram, interval_rows, line_chart};
use super::{End, r6, unit_elo, unit_mean, unit_rate};
use crate::sim::Tallies;

/// One row's names and tallies: what the study tables are made from.
#[derive(Clone, Copy, Debug)]
pub struct RowTallies<'a> {
    /// The variant.
    pub variant: &'a str,
    /// Players A and B.
    pub players: &'a [String; 2],
    /// What was counted.
    pub tallies: &'a Tallies,
}

/// A study's table.
#[derive(Clone, Debug)]
pub enum StudyRows {
    /// `sweep.csv`.
    Sweep(Vec<SweepRow>),
    /// `balance.csv`.
    Balance(Vec<BalanceRow>),
}

/// What a sweep's chart and table show against the swept value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// A's share of games won (games mode only).
    Games,
    /// A's share of hands won.
    Hands,
    /// A's mean net points per hand: what a knock tuner maximises.
    Points,
    /// A's Elo from its score per game (per hand in hands mode).
    Elo,
}

impl Objective {
    /// The names, as `--objective` and the spec's `objective` take them.
    pub const NAMES: &'static str = "games, hands, points or elo";

    /// The default for a sweep of games (`games`) or of hands: the share
    /// of games won, or the points per hand (the share of hands won
    /// misleads a knock tuner: knocking early wins more hands for fewer
    /// points).
    #[must_use]
    pub fn default_for(games: bool) -> Objective {
        if games {
            Objective::Games
        } else {
            Objective::Points
        }
    }

    /// The chart's y label.
    fn label(self, strategy: &str, unit: &str) -> String {
        match self {
            Objective::Games => format!("share of games won by {strategy} (95 %)"),
            Objective::Hands => format!("share of hands won by {strategy} (95 %)"),
            Objective::Points => format!("{strategy}'s net points per hand (95 %)"),
            Objective::Elo => format!("{strategy}'s Elo per {} (95 %)", unit.trim_end_matches('s')),
        }
    }

    /// The figure and its interval in `row`.
    fn of(self, row: &SweepRow) -> (f64, f64, f64) {
        let (y, lo, hi) = match self {
            Objective::Games => (row.score, row.score_lo, row.score_hi),
            Objective::Hands => (row.hand_win_rate, row.hand_win_lo, row.hand_win_hi),
            Objective::Points => (
                row.a_points_per_hand,
                row.a_points_per_hand_lo,
                row.a_points_per_hand_hi,
            ),
            Objective::Elo => (row.elo, row.elo_lo, row.elo_hi),
        };
        // No interval (too few units): the point without a bar.
        (y, lo.unwrap_or(y), hi.unwrap_or(y))
    }

    /// Where an even match lies on the chart.
    fn even(self) -> f64 {
        match self {
            Objective::Games | Objective::Hands => 0.5,
            Objective::Points | Objective::Elo => 0.0,
        }
    }
}

impl std::str::FromStr for Objective {
    type Err = String;

    fn from_str(text: &str) -> Result<Objective, String> {
        match text {
            "games" => Ok(Objective::Games),
            "hands" => Ok(Objective::Hands),
            "points" => Ok(Objective::Points),
            "elo" => Ok(Objective::Elo),
            _ => Err(format!(
                "`{}`: the objective is one of {}",
                crate::echo::echo(text),
                Objective::NAMES
            )),
        }
    }
}

impl std::fmt::Display for Objective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Objective::Games => "games",
            Objective::Hands => "hands",
            Objective::Points => "points",
            Objective::Elo => "elo",
        })
    }
}

/// One row of `sweep.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct SweepRow {
    /// The variant.
    pub variant: String,
    /// The parameter swept.
    pub parameter: String,
    /// Its value in this row.
    pub value: String,
    /// The swept profile.
    pub player_a: String,
    /// The opponent.
    pub player_b: String,
    /// Games played (0 in hands mode).
    pub games: u64,
    /// Hands played.
    pub hands: u64,
    /// A's share of games (hands in hands mode) won.
    pub score: f64,
    /// Its 95 % interval, low end.
    pub score_lo: End,
    /// Its 95 % interval, high end.
    pub score_hi: End,
    /// A's mean net points per hand.
    pub a_points_per_hand: f64,
    /// Its 95 % interval, low end.
    pub a_points_per_hand_lo: End,
    /// Its 95 % interval, high end.
    pub a_points_per_hand_hi: End,
    /// A's Elo difference.
    pub elo: f64,
    /// Its 95 % interval, low end.
    pub elo_lo: End,
    /// Its 95 % interval, high end.
    pub elo_hi: End,
    /// A's share of hands won (terminal and chart only; `score` in hands
    /// mode).
    #[serde(skip)]
    pub hand_win_rate: f64,
    /// Its 95 % interval, low end.
    #[serde(skip)]
    pub hand_win_lo: End,
    /// Its 95 % interval, high end.
    #[serde(skip)]
    pub hand_win_hi: End,
}

/// The rows of `sweep.csv`: row `i` has the value `values[i % values.len()]`
/// (rows are variant-major, values within).
#[must_use]
pub fn sweep_rows(param: &str, values: &[String], rows: &[RowTallies<'_>]) -> Vec<SweepRow> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            let t = r.tallies;
            let u = &t.units;
            let wins = if t.games > 0 {
                &u.a_game_wins
            } else {
                &u.a_hand_wins
            };
            let (score, score_lo, score_hi) = unit_rate(wins);
            let (hand_win_rate, hand_win_lo, hand_win_hi) = unit_rate(&u.a_hand_wins);
            let (pph, pph_lo, pph_hi) = unit_mean(&u.a_net_points);
            let (elo, elo_lo, elo_hi) = unit_elo(&u.score);
            SweepRow {
                variant: r.variant.to_owned(),
                parameter: param.to_owned(),
                value: values[i % values.len()].clone(),
                player_a: r.players[0].clone(),
                player_b: r.players[1].clone(),
                games: t.games,
                hands: t.hands,
                score,
                score_lo,
                score_hi,
                a_points_per_hand: pph,
                a_points_per_hand_lo: pph_lo,
                a_points_per_hand_hi: pph_hi,
                elo,
                elo_lo,
                elo_hi,
                hand_win_rate,
                hand_win_lo,
                hand_win_hi,
            }
        })
        .collect()
}

/// `sweep.svg`: the `objective` against the value, one line per variant,
/// when every value is a number (`None` otherwise).
#[must_use]
pub fn sweep_chart(
    rows: &[SweepRow],
    (strategy, param, vs): (&str, &str, &str),
    unit: &str,
    objective: Objective,
) -> Option<String> {
    let mut series: Vec<Series> = Vec::new();
    for r in rows {
        let x = r.value.parse::<f64>().ok()?;
        if series.last().is_none_or(|s| s.label != r.variant) {
            series.push(Series {
                label: r.variant.clone(),
                points: Vec::new(),
            });
        }
        let (y, lo, hi) = objective.of(r);
        series.last_mut()?.points.push(Point { x, y, lo, hi });
    }
    let title = format!("{strategy} {param} vs {vs}");
    let y = objective.label(strategy, unit);
    Some(line_chart(
        &title,
        param,
        &y,
        &series,
        Some(objective.even()),
    ))
}

/// One row of `balance.csv`: how a rule variant plays with one strategy in
/// both seats.
#[derive(Clone, Debug, Serialize)]
pub struct BalanceRow {
    /// The variant.
    pub variant: String,
    /// The strategy in both seats.
    pub strategy: String,
    /// Hands played.
    pub hands: u64,
    /// Games played (0 in hands mode).
    pub games: u64,
    /// Share of decided hands won by the non-dealer.
    pub non_dealer_win_rate: f64,
    /// Its 95 % interval, low end.
    pub non_dealer_win_lo: End,
    /// Its 95 % interval, high end.
    pub non_dealer_win_hi: End,
    /// Gins (big gins included) / hands.
    pub gin_rate: f64,
    /// Its 95 % interval, low end.
    pub gin_lo: End,
    /// Its 95 % interval, high end.
    pub gin_hi: End,
    /// Undercuts / hands.
    pub undercut_rate: f64,
    /// Its 95 % interval, low end.
    pub undercut_lo: End,
    /// Its 95 % interval, high end.
    pub undercut_hi: End,
    /// Knocks won by the knocker / hands.
    pub knock_rate: f64,
    /// Its 95 % interval, low end.
    pub knock_lo: End,
    /// Its 95 % interval, high end.
    pub knock_hi: End,
    /// Void hands / hands.
    pub void_rate: f64,
    /// Its 95 % interval, low end.
    pub void_lo: End,
    /// Its 95 % interval, high end.
    pub void_hi: End,
    /// Mean turns per hand.
    pub mean_turns: f64,
    /// Its 95 % interval, low end.
    pub mean_turns_lo: End,
    /// Its 95 % interval, high end.
    pub mean_turns_hi: End,
    /// Standard deviation of the hand score (seat A's points won or lost).
    pub hand_score_sd: f64,
    /// Mean points changing hands per decided hand.
    pub mean_points_per_decided_hand: f64,
    /// Its 95 % interval, low end.
    pub mean_points_per_decided_hand_lo: End,
    /// Its 95 % interval, high end.
    pub mean_points_per_decided_hand_hi: End,
    /// The dealer's expected points per hand (what it scores; 0 in a hand
    /// it does not win).
    pub dealer_points_per_hand: f64,
    /// Its 95 % interval, low end.
    pub dealer_points_per_hand_lo: End,
    /// Its 95 % interval, high end.
    pub dealer_points_per_hand_hi: End,
    /// The non-dealer's expected points per hand.
    pub non_dealer_points_per_hand: f64,
    /// Its 95 % interval, low end.
    pub non_dealer_points_per_hand_lo: End,
    /// Its 95 % interval, high end.
    pub non_dealer_points_per_hand_hi: End,
    /// The dealer's points minus the non-dealer's per hand: the seat's edge.
    pub dealer_edge_per_hand: f64,
    /// Its 95 % interval, low end.
    pub dealer_edge_per_hand_lo: End,
    /// Its 95 % interval, high end.
    pub dealer_edge_per_hand_hi: End,
    /// Gins (big gins included) by the dealer / hands.
    pub dealer_gin_rate: f64,
    /// Its 95 % interval, low end.
    pub dealer_gin_lo: End,
    /// Its 95 % interval, high end.
    pub dealer_gin_hi: End,
    /// Gins (big gins included) by the non-dealer / hands.
    pub non_dealer_gin_rate: f64,
    /// Its 95 % interval, low end.
    pub non_dealer_gin_lo: End,
    /// Its 95 % interval, high end.
    pub non_dealer_gin_hi: End,
    /// Undercuts by the dealer (as the defender) / hands.
    pub dealer_undercut_rate: f64,
    /// Its 95 % interval, low end.
    pub dealer_undercut_lo: End,
    /// Its 95 % interval, high end.
    pub dealer_undercut_hi: End,
    /// Undercuts by the non-dealer / hands.
    pub non_dealer_undercut_rate: f64,
    /// Its 95 % interval, low end.
    pub non_dealer_undercut_lo: End,
    /// Its 95 % interval, high end.
    pub non_dealer_undercut_hi: End,
}

/// The rows of `balance.csv`, one per variant.
#[must_use]
pub fn balance_rows(strategy: &str, rows: &[RowTallies<'_>]) -> Vec<BalanceRow> {
    rows.iter()
        .map(|r| {
            let t = r.tallies;
            let u = &t.units;
            let (non_dealer_win_rate, non_dealer_win_lo, non_dealer_win_hi) =
                unit_rate(&u.non_dealer_wins);
            let (gin_rate, gin_lo, gin_hi) = unit_rate(&u.gins);
            let (undercut_rate, undercut_lo, undercut_hi) = unit_rate(&u.undercuts);
            let (knock_rate, knock_lo, knock_hi) = unit_rate(&u.knocks);
            let (void_rate, void_lo, void_hi) = unit_rate(&u.voids);
            let (turns, turns_lo, turns_hi) = unit_mean(&u.turns);
            let (points, points_lo, points_hi) = unit_mean(&u.decided_points);
            let dealer = unit_mean(&u.dealer_points);
            let non_dealer = unit_mean(&u.non_dealer_points);
            let edge = unit_mean(&u.dealer_edge);
            let dealer_gin = unit_rate(&u.dealer_gins);
            let non_dealer_gin = unit_rate(&u.non_dealer_gins);
            let dealer_uc = unit_rate(&u.dealer_undercuts);
            let non_dealer_uc = unit_rate(&u.non_dealer_undercuts);
            BalanceRow {
                variant: r.variant.to_owned(),
                strategy: strategy.to_owned(),
                hands: t.hands,
                games: t.games,
                non_dealer_win_rate,
                non_dealer_win_lo,
                non_dealer_win_hi,
                gin_rate,
                gin_lo,
                gin_hi,
                undercut_rate,
                undercut_lo,
                undercut_hi,
                knock_rate,
                knock_lo,
                knock_hi,
                void_rate,
                void_lo,
                void_hi,
                mean_turns: turns,
                mean_turns_lo: turns_lo,
                mean_turns_hi: turns_hi,
                hand_score_sd: r6(t.a_net_points.variance().sqrt()),
                mean_points_per_decided_hand: points,
                mean_points_per_decided_hand_lo: points_lo,
                mean_points_per_decided_hand_hi: points_hi,
                dealer_points_per_hand: dealer.0,
                dealer_points_per_hand_lo: dealer.1,
                dealer_points_per_hand_hi: dealer.2,
                non_dealer_points_per_hand: non_dealer.0,
                non_dealer_points_per_hand_lo: non_dealer.1,
                non_dealer_points_per_hand_hi: non_dealer.2,
                dealer_edge_per_hand: edge.0,
                dealer_edge_per_hand_lo: edge.1,
                dealer_edge_per_hand_hi: edge.2,
                dealer_gin_rate: dealer_gin.0,
                dealer_gin_lo: dealer_gin.1,
                dealer_gin_hi: dealer_gin.2,
                non_dealer_gin_rate: non_dealer_gin.0,
                non_dealer_gin_lo: non_dealer_gin.1,
                non_dealer_gin_hi: non_dealer_gin.2,
                dealer_undercut_rate: dealer_uc.0,
                dealer_undercut_lo: dealer_uc.1,
                dealer_undercut_hi: dealer_uc.2,
                non_dealer_undercut_rate: non_dealer_uc.0,
                non_dealer_undercut_lo: non_dealer_uc.1,
                non_dealer_undercut_hi: non_dealer_uc.2,
            }
        })
        .collect()
}

/// `balance.svg`: each variant's expected points per hand for the dealer
/// and for the non-dealer, with their intervals, side by side.
#[must_use]
pub fn balance_chart(rows: &[BalanceRow]) -> String {
    let labels: Vec<String> = rows.iter().map(|r| r.variant.clone()).collect();
    let seat = |label: &str, pick: fn(&BalanceRow) -> (f64, End, End)| RowSeries {
        label: label.to_owned(),
        points: rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let (y, lo, hi) = pick(r);
                Some(Point {
                    x: i as f64,
                    y,
                    lo: lo.unwrap_or(y),
                    hi: hi.unwrap_or(y),
                })
            })
            .collect(),
    };
    let series = [
        seat("dealer", |r| {
            (
                r.dealer_points_per_hand,
                r.dealer_points_per_hand_lo,
                r.dealer_points_per_hand_hi,
            )
        }),
        seat("non-dealer", |r| {
            (
                r.non_dealer_points_per_hand,
                r.non_dealer_points_per_hand_lo,
                r.non_dealer_points_per_hand_hi,
            )
        }),
    ];
    let strategy = rows.first().map_or("", |r| r.strategy.as_str());
    interval_rows(
        &format!("{strategy} in both seats: points per hand by seat"),
        "expected points scored per hand (95 %)",
        &labels,
        &series,
    )
}

/// The longest [`slug`] kept whole: a profile's name reads in full, while
/// an inline profile's parameter string or a bot's command is cut.
const SLUG_MAX: usize = 64;

/// A file-name-safe form of a row's names. A longer one (an external bot's
/// whole command line) is cut and ends in a digest of the full names, so
/// distinct rows keep distinct names.
fn slug(variant: &str, players: &[String; 2]) -> String {
    let full = format!("{variant}-{}-vs-{}", players[0], players[1]);
    let safe: String = full
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.len() <= SLUG_MAX {
        return safe;
    }
    let digest = blake3::hash(full.as_bytes()).to_hex();
    format!("{}-{}", &safe[..SLUG_MAX - 9], &digest[..8])
}

/// The file names of a row's charts: the hand-score histogram, and the
/// game-margin one when `games`.
#[must_use]
pub fn chart_names(variant: &str, players: &[String; 2], games: bool) -> Vec<String> {
    let slug = slug(variant, players);
    let mut names = vec![format!("hand_score-{slug}.svg")];
    if games {
        names.push(format!("game_margin-{slug}.svg"));
    }
    names
}

/// A row's histograms: file names and SVG text. With `dealer_side` (a
/// balance study, one strategy in both seats, where "A" means nothing) the
/// hand score is the dealer's.
#[must_use]
pub fn histograms(
    variant: &str,
    players: &[String; 2],
    t: &Tallies,
    dealer_side: bool,
) -> Vec<(String, String)> {
    let [a, b] = players;
    let mut charts = vec![if dealer_side {
        (
            format!("{variant}: {a} in both seats, hand score"),
            "hand score from the dealer's side (points won, or minus points lost)",
            &t.dealer_hand_score,
        )
    } else {
        (
            format!("{variant}: {a} vs {b}, hand score"),
            "hand score from A's side (points won, or minus points lost)",
            &t.hand_score,
        )
    }];
    if t.games > 0 {
        charts.push((
            format!("{variant}: {a} vs {b}, game margin"),
            "game margin from A's side",
            &t.game_margin,
        ));
    }
    chart_names(variant, players, t.games > 0)
        .into_iter()
        .zip(charts)
        .map(|(name, (title, x_label, map))| {
            let counts: Vec<(i64, u64)> = map.iter().collect();
            (name, histogram(&title, x_label, &counts))
        })
        .collect()
}
