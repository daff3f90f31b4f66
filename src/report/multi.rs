//! Three-player and partnership results: one [`SideRow`] per player (three)
//! or team (partnership) in `summary.csv`, and one per position relative to
//! the first dealer in `seats.csv`; and the terminal's table of them.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::{End, unit_mean, unit_rate};
use crate::sim::{Format, SideTally, TableTallies};

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
    /// Its 95 % interval over the deals (a deal's games, one per rotation,
    /// are one unit), low end; empty with fewer than two deals.
    pub win_lo: End,
    /// Its 95 % interval, high end.
    pub win_hi: End,
    /// Mean final score per game (three: hand points plus game and box
    /// bonuses; partnership: the team's points).
    pub score_per_game: f64,
    /// Its 95 % t interval over the deals, low end; empty with fewer than
    /// two deals or when every deal scored the same.
    pub score_lo: End,
    /// Its 95 % t interval over the deals, high end.
    pub score_hi: End,
    /// Hands played at a table (a team plays two per round).
    pub hands: u64,
    /// Hands won.
    pub hands_won: u64,
    /// Hands won / hands played.
    pub hand_win_rate: f64,
    /// Its 95 % interval over the deals, low end.
    pub hand_win_lo: End,
    /// Its 95 % interval over the deals, high end.
    pub hand_win_hi: End,
    /// Mean hand points won per hand played.
    pub points_per_hand: f64,
    /// Its 95 % interval over the deals, low end.
    pub points_per_hand_lo: End,
    /// Its 95 % interval over the deals, high end.
    pub points_per_hand_hi: End,
    /// Hands dealt (three players: the hands sat out).
    pub dealt: u64,
    /// Void or scoreless hands at every table of the row / hands dealt
    /// there (the same on every row of a variant).
    pub void_rate: f64,
    /// Its 95 % interval over the deals, low end.
    pub void_lo: End,
    /// Its 95 % interval over the deals, high end.
    pub void_hi: End,
}

impl SideRow {
    /// The row of `side`, one of `t`'s sides or positions: every rate and
    /// mean with its interval over the scoring units (the deals), as the
    /// two-player rows have theirs.
    #[must_use]
    pub fn new(
        variant: &str,
        format: Format,
        name: &str,
        side: &SideTally,
        t: &TableTallies,
    ) -> SideRow {
        let u = &side.units;
        let (win_rate, win_lo, win_hi) = unit_rate(&u.wins);
        let (score_per_game, score_lo, score_hi) = unit_mean(&u.score);
        let (hand_win_rate, hand_win_lo, hand_win_hi) = unit_rate(&u.hands_won);
        let (points_per_hand, points_per_hand_lo, points_per_hand_hi) = unit_mean(&u.hand_points);
        let (void_rate, void_lo, void_hi) = unit_rate(&t.unit_voids);
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
            points_per_hand,
            points_per_hand_lo,
            points_per_hand_hi,
            dealt: side.dealt,
            void_rate,
            void_lo,
            void_hi,
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
                &percent(r.win_rate, r.win_lo, r.win_hi),
                &mean(r.score_per_game, r.score_lo, r.score_hi, 1),
                &percent(r.hand_win_rate, r.hand_win_lo, r.hand_win_hi),
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
pub fn tables_report(
    sides: &[SideRow],
    seats: &[SideRow],
    seconds: f64,
    dir: Option<&Path>,
) -> String {
    let what = match sides.first().map(|r| r.format.as_str()) {
        Some("partnership") => "team",
        _ => "player",
    };
    let mut out = side_table(sides, what);
    out.push_str(&side_table(seats, "seat"));
    writeln!(
        out,
        "{} rows in {seconds:.1} s{}",
        sides.len() + seats.len(),
        super::table::written_to(dir)
    )
    .unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::r6;
    use crate::stats::{UnitSums, Z95, wilson};

    /// A three-player tally of one side over `deals`: per deal (games won
    /// of 3, hands won of 30, points won over them, voids of 40 dealt).
    fn tally(deals: &[(u64, u64, u64, u64)]) -> TableTallies {
        let mut t = TableTallies::new(Format::Three);
        t.unit_size = 3;
        let s = &mut t.sides[0];
        for &(wins, hands_won, points, voids) in deals {
            s.games += 3;
            s.wins += wins;
            s.score += 50 * wins;
            s.hands += 30;
            s.hands_won += hands_won;
            s.hand_points += points;
            s.units.wins.add(wins as i64, 3);
            s.units.score.add(50 * wins as i64, 3);
            s.units.hands_won.add(hands_won as i64, 30);
            s.units.hand_points.add(points as i64, 30);
            t.games += 3;
            t.hands += 40;
            t.voids += voids;
            t.unit_voids.add(voids as i64, 40);
        }
        t
    }

    fn row(t: &TableTallies) -> SideRow {
        SideRow::new("standard", Format::Three, "greedy", &t.sides[0], t)
    }

    fn width(lo: End, hi: End) -> f64 {
        hi.unwrap() - lo.unwrap()
    }

    #[test]
    fn intervals_are_over_the_deals_not_the_games() {
        // Ten deals whose games and hands agree completely: the side wins
        // all three games and every hand of five deals, nothing of the
        // other five. Ten independent units, not 30 games or 300 hands.
        let deals: Vec<_> = (0..10)
            .map(|d| {
                if d % 2 == 0 {
                    (3, 30, 300, d)
                } else {
                    (0, 0, 0, 0)
                }
            })
            .collect();
        let t = tally(&deals);
        let r = row(&t);
        let unit = |s: &UnitSums| {
            let (lo, hi) = s.rate_interval(0.95).unwrap();
            (Some(r6(lo)), Some(r6(hi)))
        };
        let u = &t.sides[0].units;
        assert_eq!((r.win_rate, r.hand_win_rate, r.void_rate), (0.5, 0.5, 0.05));
        assert_eq!((r.win_lo, r.win_hi), unit(&u.wins));
        assert_eq!((r.hand_win_lo, r.hand_win_hi), unit(&u.hands_won));
        assert_eq!((r.void_lo, r.void_hi), unit(&t.unit_voids));
        // Far wider than Wilson's on games or hands as if independent.
        let per_game = |k, n| {
            let (lo, hi) = wilson(k, n, Z95);
            hi - lo
        };
        assert!(width(r.win_lo, r.win_hi) > 1.6 * per_game(15, 30), "{r:?}");
        assert!(
            width(r.hand_win_lo, r.hand_win_hi) > 4.0 * per_game(150, 300),
            "{r:?}"
        );
        // Means: the t interval over the deals' per-game score and per-hand
        // points (5 points per hand: 10 in half the deals).
        let (lo, hi) = u.hand_points.mean_interval(0.95).unwrap();
        assert_eq!(r.points_per_hand, 5.0);
        assert_eq!(
            (r.points_per_hand_lo, r.points_per_hand_hi),
            (Some(r6(lo)), Some(r6(hi)))
        );
        let (lo, hi) = u.score.mean_interval(0.95).unwrap();
        assert_eq!((r.score_lo, r.score_hi), (Some(r6(lo)), Some(r6(hi))));
    }

    #[test]
    fn too_few_deals_give_empty_cells() {
        // One deal: no interval for anything.
        let r = row(&tally(&[(1, 12, 80, 2)]));
        for (lo, hi) in [
            (r.win_lo, r.win_hi),
            (r.score_lo, r.score_hi),
            (r.hand_win_lo, r.hand_win_hi),
            (r.points_per_hand_lo, r.points_per_hand_hi),
            (r.void_lo, r.void_hi),
        ] {
            assert_eq!((lo, hi), (None, None), "{r:?}");
        }
        let text = side_table(&[r], "player");
        assert_eq!(text.matches(crate::report::table::NO_INTERVAL).count(), 3);
        // Deals that all scored alike: rates keep a width (a deal is worth
        // one trial at least), means have none.
        let r = row(&tally(&[(1, 10, 70, 0); 8]));
        assert!(r.win_lo.unwrap() < 0.2 && r.win_hi.unwrap() > 0.5, "{r:?}");
        assert_eq!((r.score_lo, r.points_per_hand_lo), (None, None));
        assert_eq!(r.void_lo, Some(0.0));
    }
}
