//! Three-player and partnership results: one [`SideRow`] per player (three)
//! or team (partnership) in `summary.csv`, and one per position relative to
//! the first dealer in `seats.csv`; and the terminal's table of them.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::{r6, wilson_rate};
use crate::sim::{Format, SideTally, TableTallies};
use crate::stats::Moments;

use super::table::{mean, percent};

/// One row of a multi-player `summary.csv` (a player or a team) or
/// `seats.csv` (a position).
#[derive(Clone, Debug, Serialize)]
pub struct SideRow {
    /// The rule variant's name.
    pub variant: String,
    /// `three` or `partnership`.
    pub format: String,
    /// The player (three), the team `A+B` (partnership), or in `seats.csv`
    /// the position: `first_dealer` (sits out the first hand),
    /// `first_upcard` (offered the first upcard first), `second_upcard`;
    /// for partnerships `first_dealing_team`, `first_upcard_team`.
    pub side: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games won / games.
    pub win_rate: f64,
    /// Its 95 % interval, low end: Wilson over games, widened with rotation
    /// to cover the t interval over deals (the games of a deal are one
    /// unit).
    pub win_lo: f64,
    /// Its 95 % interval, high end.
    pub win_hi: f64,
    /// Mean final score per game (three: hand points plus game and box
    /// bonuses; partnership: the team's points).
    pub score_per_game: f64,
    /// Its 95 % t interval over the deals, low end.
    pub score_lo: f64,
    /// Its 95 % t interval over the deals, high end.
    pub score_hi: f64,
    /// Hands played at a table (a team plays two per round).
    pub hands: u64,
    /// Hands won.
    pub hands_won: u64,
    /// Hands won / hands played.
    pub hand_win_rate: f64,
    /// Its 95 % Wilson interval, low end.
    pub hand_win_lo: f64,
    /// Its 95 % Wilson interval, high end.
    pub hand_win_hi: f64,
    /// Mean hand points won per hand played.
    pub points_per_hand: f64,
    /// Hands dealt (three players: the hands sat out).
    pub dealt: u64,
    /// Void or scoreless hands at every table of the row / hands dealt
    /// there (the same on every row of a variant).
    pub void_rate: f64,
}

impl SideRow {
    /// The row of `side`, one of `t`'s sides or positions.
    #[must_use]
    pub fn new(
        variant: &str,
        format: Format,
        name: &str,
        side: &SideTally,
        t: &TableTallies,
    ) -> SideRow {
        let unit = t.unit_size.max(1) as f64;
        let per_game = |m: &Moments| {
            let (x, lo, hi) = m.t_interval(0.95);
            (r6(x / unit), r6(lo / unit), r6(hi / unit))
        };
        // Wilson on games treats the games of a deal as independent; the t
        // interval over deals does not, but collapses when every deal
        // scored alike (a handful of deals, or one player far ahead): the
        // wider of the two.
        let (win_rate, mut win_lo, mut win_hi) = wilson_rate(side.wins, side.games);
        if t.unit_size > 1 {
            let (_, lo, hi) = per_game(&side.unit_wins);
            win_lo = win_lo.min(lo.max(0.0));
            win_hi = win_hi.max(hi.min(1.0));
        }
        let (score_per_game, score_lo, score_hi) = per_game(&side.unit_score);
        let (hand_win_rate, hand_win_lo, hand_win_hi) = wilson_rate(side.hands_won, side.hands);
        SideRow {
            variant: variant.to_owned(),
            format: format.name().to_owned(),
            side: name.to_owned(),
            games: side.games,
            wins: side.wins,
            win_rate,
            win_lo,
            win_hi,
            score_per_game,
            score_lo,
            score_hi,
            hands: side.hands,
            hands_won: side.hands_won,
            hand_win_rate,
            hand_win_lo,
            hand_win_hi,
            points_per_hand: r6(crate::stats::rate(side.hand_points, side.hands)),
            dealt: side.dealt,
            void_rate: r6(crate::stats::rate(t.voids, t.hands)),
        }
    }
}

/// The names of a format's sides: the players, or the teams `A+B`, `C+D`.
#[must_use]
pub fn side_names(format: Format, players: &[String]) -> Vec<String> {
    match format {
        Format::Three => players.to_vec(),
        Format::Partnership => players.chunks(2).map(|team| team.join("+")).collect(),
    }
}

/// The `summary.csv` rows (per side) and `seats.csv` rows (per position)
/// of one variant's tallies.
#[must_use]
pub fn side_rows(
    variant: &str,
    format: Format,
    players: &[String],
    t: &TableTallies,
) -> (Vec<SideRow>, Vec<SideRow>) {
    let sides = side_names(format, players)
        .iter()
        .zip(&t.sides)
        .map(|(name, s)| SideRow::new(variant, format, name, s, t))
        .collect();
    let positions = format
        .positions()
        .iter()
        .zip(&t.positions)
        .map(|(name, s)| SideRow::new(variant, format, name, s, t))
        .collect();
    (sides, positions)
}

/// The terminal's table of side rows (`what` heads the name column:
/// `player`, `team` or `seat`).
#[must_use]
pub fn side_table(rows: &[SideRow], what: &str) -> String {
    let mut out = String::new();
    let line = |out: &mut String, cells: [&str; 7]| {
        writeln!(
            out,
            "{:<14} {:<22} {:>7} {:>20} {:>22} {:>20} {:>8}",
            cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6]
        )
        .unwrap();
    };
    line(
        &mut out,
        [
            "variant",
            what,
            "games",
            "games won %",
            "score/game",
            "hands won %",
            "dealt",
        ],
    );
    for r in rows {
        line(
            &mut out,
            [
                &r.variant,
                &r.side,
                &r.games.to_string(),
                &percent(r.win_rate, Some(r.win_lo), Some(r.win_hi)),
                &mean(r.score_per_game, Some(r.score_lo), Some(r.score_hi), 1),
                &percent(r.hand_win_rate, Some(r.hand_win_lo), Some(r.hand_win_hi)),
                &r.dealt.to_string(),
            ],
        );
    }
    out
}

/// The first line of a three-player or partnership match's report.
#[must_use]
pub fn table_header(
    players: &[String],
    format: Format,
    variant: &str,
    seed: u64,
    rotate: bool,
) -> String {
    let seats = if rotate {
        format!(
            "each deal played {} times, every player in every seat once",
            format.rotations()
        )
    } else {
        "single deals".to_owned()
    };
    let who = match format {
        Format::Three => format!("three players {}", players.join(", ")),
        Format::Partnership => format!(
            "partnerships {} against {}",
            players[..2].join("+"),
            players[2..].join("+")
        ),
    };
    format!("{who}, rules {variant}, seed {seed}, {seats}\n")
}

/// `run`'s and `merge`'s report of a three-player or partnership job: the
/// per-player (or per-team) table and the per-seat table.
#[must_use]
pub fn tables_report(sides: &[SideRow], seats: &[SideRow], seconds: f64, dir: &Path) -> String {
    let what = match sides.first().map(|r| r.format.as_str()) {
        Some("partnership") => "team",
        _ => "player",
    };
    let mut out = side_table(sides, what);
    out.push_str(&side_table(seats, "seat"));
    writeln!(
        out,
        "{} rows in {seconds:.1} s; written to {}",
        sides.len() + seats.len(),
        dir.display()
    )
    .unwrap();
    out
}
