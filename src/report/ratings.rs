//! The rating list of a run with three or more players: `ratings.csv`
//! (Elo by maximum likelihood over all pairings, [`crate::stats::fit_ratings`]),
//! `crosstable.csv`, `ratings.svg` and the terminal's table.

use std::fmt::Write as _;

use serde::Serialize;

use super::chart::{Point, RowSeries, interval_rows};
use super::r6;
use super::study::RowTallies;
use super::table::{fixed, signed};
use crate::sim::TableTallies;
use crate::stats::{Encounter, Fit, Rating, fit_ratings, fit_table};

/// The player a rating list is anchored at when none is named.
pub const DEFAULT_ANCHOR: &str = "simple";

/// One row of `ratings.csv`: a player's rating under one variant.
#[derive(Clone, Debug, Serialize)]
pub struct RatingRow {
    /// The variant.
    pub variant: String,
    /// 1 for the strongest.
    pub rank: usize,
    /// The player.
    pub player: String,
    /// Elo relative to the anchor, by maximum likelihood over every
    /// pairing (empty when unbounded: see `note`).
    pub elo: Option<f64>,
    /// Its 95 % interval, low end (empty when there is none).
    pub elo_lo: Option<f64>,
    /// Its 95 % interval, high end.
    pub elo_hi: Option<f64>,
    /// Hands the player played.
    pub hands: u64,
    /// Games the player played (0 in hands mode).
    pub games: u64,
    /// The player's share of the points (a win 1, a void or tie ½) per game,
    /// per hand in hands mode, over all its pairings.
    pub score: f64,
    /// Likelihood of superiority over the next player in the list: the
    /// probability that this one is the stronger (empty for the last, or
    /// when either is unrated).
    pub los_next: Option<f64>,
    /// `anchor`, or why the player has no rating.
    pub note: String,
}

/// The players of `rows` in order of first appearance.
#[must_use]
pub fn players(rows: &[RowTallies<'_>]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in rows {
        for p in r.players {
            if !names.contains(p) {
                names.push(p.clone());
            }
        }
    }
    names
}

/// Whether `rows` make a rating list: three or more players.
#[must_use]
pub fn rated(rows: &[RowTallies<'_>]) -> bool {
    players(rows).len() >= 3
}

/// The anchor's index among `players`: `anchor` if given and present,
/// else [`DEFAULT_ANCHOR`] when it plays, else the first player.
#[must_use]
pub fn anchor_index(players: &[String], anchor: Option<&str>) -> usize {
    anchor
        .and_then(|a| players.iter().position(|p| p == a))
        .or_else(|| players.iter().position(|p| p == DEFAULT_ANCHOR))
        .unwrap_or(0)
}

/// The variants of `rows`, in order of first appearance.
fn variants<'a>(rows: &[RowTallies<'a>]) -> Vec<&'a str> {
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.variant) {
            names.push(r.variant);
        }
    }
    names
}

/// Per player of one variant: half points, hands, games, units' games.
#[derive(Clone, Copy, Default)]
struct Totals {
    half_points: i128,
    hands: u64,
    games: u64,
    scored_games: u64,
}

/// The encounters and per-player totals of `variant`'s rows.
fn encounters(
    rows: &[RowTallies<'_>],
    variant: &str,
    names: &[String],
) -> (Vec<Encounter>, Vec<Totals>) {
    let index = |name: &String| names.iter().position(|n| n == name).expect("a player");
    let mut totals = vec![Totals::default(); names.len()];
    let mut list = Vec::new();
    for r in rows.iter().filter(|r| r.variant == variant) {
        let t = r.tallies;
        let (a, b) = (index(&r.players[0]), index(&r.players[1]));
        let size = t.unit_size.max(1);
        let scored = t.unit_scores.n * size;
        let half = i128::from(t.unit_scores.sum);
        for (i, own) in [(a, half), (b, 2 * i128::from(scored) - half)] {
            totals[i].half_points += own;
            totals[i].hands += t.hands;
            totals[i].games += t.games;
            totals[i].scored_games += scored;
        }
        list.push(Encounter {
            a,
            b,
            units: t.unit_scores.n,
            unit_size: size,
            half_points: t.unit_scores.sum,
            half_points_sq: t.unit_scores.sum_sq,
        });
    }
    (list, totals)
}

/// The rows of `ratings.csv`: per variant, the players from the strongest
/// down (unbounded above first, then by rating, then unbounded below, then
/// unconnected), anchored as [`anchor_index`] says.
#[must_use]
pub fn rating_rows(rows: &[RowTallies<'_>], anchor: Option<&str>) -> Vec<RatingRow> {
    let names = players(rows);
    let anchor = anchor_index(&names, anchor);
    let mut out = Vec::new();
    for variant in variants(rows) {
        let (list, totals) = encounters(rows, variant, &names);
        let fit = fit_ratings(names.len(), &list, anchor);
        let figures: Vec<Figures> = totals
            .iter()
            .map(|t| Figures {
                hands: t.hands,
                games: t.games,
                score: share(t.half_points, 2 * i128::from(t.scored_games)),
            })
            .collect();
        out.extend(ranked(variant, &names, &fit, &figures, |i| {
            note(&fit, i, &names[anchor])
        }));
    }
    out
}

/// What a rating row shows of a player besides its rating.
struct Figures {
    hands: u64,
    games: u64,
    score: f64,
}

/// `x / y` rounded for CSV, 0 when `y` is.
fn share(x: i128, y: i128) -> f64 {
    if y == 0 { 0.0 } else { r6(x as f64 / y as f64) }
}

/// The rows of one variant's fit: the players from the strongest down
/// (unbounded above first, then by rating, then unbounded below, then
/// unconnected), each with its figures and `note`.
fn ranked(
    variant: &str,
    names: &[String],
    fit: &Fit,
    figures: &[Figures],
    note: impl Fn(usize) -> String,
) -> Vec<RatingRow> {
    let class = |i: usize| match fit.ratings[i] {
        Rating::Above => (0, 0.0),
        Rating::Rated(r) => (1, -r),
        Rating::Below => (2, 0.0),
        Rating::Unconnected => (3, 0.0),
    };
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&i, &j| {
        let (ci, ri) = class(i);
        let (cj, rj) = class(j);
        ci.cmp(&cj).then(ri.total_cmp(&rj))
    });
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let interval = fit.interval(i);
            RatingRow {
                variant: variant.to_owned(),
                rank: rank + 1,
                player: names[i].clone(),
                elo: match fit.ratings[i] {
                    Rating::Rated(r) => Some(r6(r)),
                    _ => None,
                },
                elo_lo: interval.map(|(lo, _)| r6(lo)),
                elo_hi: interval.map(|(_, hi)| r6(hi)),
                hands: figures[i].hands,
                games: figures[i].games,
                score: figures[i].score,
                los_next: order
                    .get(rank + 1)
                    .and_then(|&j| fit.superiority(i, j))
                    .map(r6),
                note: note(i),
            }
        })
        .collect()
}

/// Why player `i` has no rating, or `anchor`.
fn note(fit: &Fit, i: usize, anchor: &str) -> String {
    match fit.ratings[i] {
        Rating::Rated(_) if i == fit.anchor => "anchor".into(),
        Rating::Rated(_) => String::new(),
        Rating::Above => format!(
            "unbounded above: scored every point against {anchor} and the players rated with it"
        ),
        Rating::Below => format!(
            "unbounded below: scored no point against {anchor} and the players rated with it"
        ),
        Rating::Unconnected => format!("no results connect it to {anchor}"),
    }
}

/// `crosstable.csv`: per variant, one line per player with its share of
/// the points against each player (a column per player, in the run's
/// order; empty where they did not meet).
///
/// # Errors
/// A serialisation error (none in practice).
pub fn crosstable_bytes(rows: &[RowTallies<'_>]) -> Result<Vec<u8>, csv::Error> {
    let names = players(rows);
    let tables = variants(rows).into_iter().map(|variant| {
        let (list, _) = encounters(rows, variant, &names);
        let cells = (0..names.len())
            .map(|i| {
                let mut half = vec![0i128; names.len()];
                let mut games = vec![0u64; names.len()];
                for e in &list {
                    let scored = e.units * e.unit_size;
                    if e.a == i {
                        half[e.b] += i128::from(e.half_points);
                        games[e.b] += scored;
                    } else if e.b == i {
                        half[e.a] += 2 * i128::from(scored) - i128::from(e.half_points);
                        games[e.a] += scored;
                    }
                }
                half.iter()
                    .zip(&games)
                    .map(|(&h, &g)| (g > 0).then(|| r6(h as f64 / (2.0 * g as f64))))
                    .collect()
            })
            .collect();
        (variant, cells)
    });
    crosstable_csv(&names, tables)
}

/// A crosstable's CSV: a header of the players, then per variant one line
/// per player with its cells.
fn crosstable_csv<'a>(
    names: &[String],
    tables: impl Iterator<Item = (&'a str, Vec<Vec<Option<f64>>>)>,
) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    let mut header = vec!["variant".to_owned(), "player".to_owned()];
    header.extend(names.iter().cloned());
    writer.write_record(&header)?;
    for (variant, cells) in tables {
        for (name, row) in names.iter().zip(cells) {
            writer.serialize((variant, name, row))?;
        }
    }
    writer.into_inner().map_err(|e| e.into_error().into())
}

/// One three-player or partnership row: its variant, its sides' names
/// (players, or teams `A+B`) and its tallies.
pub struct TableRowTallies<'a> {
    /// The variant.
    pub variant: &'a str,
    /// The sides, in the tallies' order.
    pub sides: Vec<String>,
    /// What was counted.
    pub tallies: &'a TableTallies,
}

/// The rows of `ratings.csv` for three-player or partnership rows: per
/// row (a variant's table), its sides rated by Luce's choice model over
/// the games won ([`fit_table`]; each interval over the deals, the
/// independent units), anchored as [`anchor_index`] says among the sides.
/// `score` is the side's share of the games won. Empty for a format whose
/// tallies cannot give the fit ([`TableTallies::wins`]).
#[must_use]
pub fn table_rating_rows(rows: &[TableRowTallies<'_>], anchor: Option<&str>) -> Vec<RatingRow> {
    let mut out = Vec::new();
    for r in rows {
        let Some(wins) = r.tallies.wins() else {
            continue;
        };
        let anchor = anchor_index(&r.sides, anchor);
        let fit = fit_table(&wins, anchor);
        let figures: Vec<Figures> = r
            .tallies
            .sides
            .iter()
            .map(|s| Figures {
                hands: s.hands,
                games: s.games,
                score: share(i128::from(s.wins), i128::from(s.games)),
            })
            .collect();
        let anchor_name = &r.sides[anchor];
        out.extend(ranked(r.variant, &r.sides, &fit, &figures, |i| {
            match fit.ratings[i] {
                Rating::Rated(_) if i == anchor => "anchor".into(),
                Rating::Rated(_) => String::new(),
                Rating::Above => format!("unbounded above: won games where {anchor_name} won none"),
                Rating::Below => format!("unbounded below: won no game (and {anchor_name} won)"),
                Rating::Unconnected => {
                    format!("no rating: neither it nor {anchor_name} won a game")
                }
            }
        }));
    }
    out
}

/// `crosstable.csv` of three-player or partnership rows: per variant, for
/// each side against each other, its share of the games either of the two
/// won (`W_i / (W_i + W_j)`, what Luce's model predicts for the two alone).
///
/// # Errors
/// A serialisation error (none in practice).
pub fn table_crosstable_bytes(rows: &[TableRowTallies<'_>]) -> Result<Vec<u8>, csv::Error> {
    let names = rows.first().map(|r| r.sides.clone()).unwrap_or_default();
    let tables = rows.iter().map(|r| {
        let w: Vec<u64> = r.tallies.sides.iter().map(|s| s.wins).collect();
        let cells = (0..w.len())
            .map(|i| {
                (0..w.len())
                    .map(|j| {
                        (i != j && w[i] + w[j] > 0).then(|| r6(w[i] as f64 / (w[i] + w[j]) as f64))
                    })
                    .collect()
            })
            .collect();
        (r.variant, cells)
    });
    crosstable_csv(&names, tables)
}

/// `ratings.svg`: each player's rating with its interval, one series per
/// variant (offset so that equal ratings stay apart).
#[must_use]
pub fn ratings_chart(rows: &[RatingRow], unit: &str) -> String {
    let mut labels: Vec<String> = Vec::new();
    for r in rows {
        if !labels.contains(&r.player) {
            labels.push(r.player.clone());
        }
    }
    let mut series: Vec<RowSeries> = Vec::new();
    let mut anchor = String::new();
    for r in rows {
        if series.last().is_none_or(|s| s.label != r.variant) {
            series.push(RowSeries {
                label: r.variant.clone(),
                points: vec![None; labels.len()],
            });
        }
        if r.note == "anchor" {
            anchor.clone_from(&r.player);
        }
        let slot = labels
            .iter()
            .position(|l| *l == r.player)
            .expect("a player");
        if let (Some(y), Some(s)) = (r.elo, series.last_mut()) {
            s.points[slot] = Some(Point {
                x: slot as f64,
                y,
                lo: r.elo_lo.unwrap_or(y),
                hi: r.elo_hi.unwrap_or(y),
            });
        }
    }
    let unrated: Vec<String> = labels
        .iter()
        .filter(|l| rows.iter().any(|r| r.player == **l && r.elo.is_none()))
        .cloned()
        .collect();
    let mut title = format!("Elo by maximum likelihood, {anchor} = 0");
    if !unrated.is_empty() {
        let _ = write!(title, " (unbounded: {})", unrated.join(", "));
    }
    interval_rows(
        &title,
        &format!("Elo (95 % interval, per {unit})"),
        &labels,
        &series,
    )
}

/// The terminal's rating list of pairings.
#[must_use]
pub fn ratings_table(rows: &[RatingRow]) -> String {
    ratings_text(rows, "over all pairings", "the scoring units")
}

/// The terminal's rating list of three-player or partnership tables.
#[must_use]
pub fn table_ratings_table(rows: &[RatingRow]) -> String {
    ratings_text(
        rows,
        "of Luce's model over the games won at the table",
        "the deals",
    )
}

/// A rating list under its heading: the model and the units.
fn ratings_text(rows: &[RatingRow], model: &str, units: &str) -> String {
    let mut out = String::new();
    let anchor = rows
        .iter()
        .find(|r| r.note == "anchor")
        .map_or("", |r| r.player.as_str());
    writeln!(
        out,
        "ratings (Elo by maximum likelihood {model}, {anchor} = 0, 95 % intervals over {units}):"
    )
    .unwrap();
    let played = if rows.iter().any(|r| r.games > 0) {
        "games"
    } else {
        "hands"
    };
    writeln!(
        out,
        "{:<14} {:>4} {:<16} {:>24} {:>8} {:>7} {:>8}",
        "variant", "rank", "player", "Elo", played, "score", "LOS next"
    )
    .unwrap();
    for r in rows {
        let elo = match (r.elo, r.elo_lo, r.elo_hi) {
            _ if r.note == "anchor" => "0 (anchor)".into(),
            (Some(e), Some(lo), Some(hi)) => {
                format!("{} [{}, {}]", signed(e, 0), signed(lo, 0), signed(hi, 0))
            }
            (Some(e), _, _) => signed(e, 0),
            (None, _, _) => "-".into(),
        };
        let played = if r.games > 0 { r.games } else { r.hands };
        let los = r
            .los_next
            .map_or_else(|| "-".to_owned(), |l| format!("{}%", fixed(100.0 * l, 1)));
        let mut line = format!(
            "{:<14} {:>4} {:<16} {:>24} {:>8} {:>6}% {:>8}",
            r.variant,
            r.rank,
            r.player,
            elo,
            played,
            fixed(100.0 * r.score, 1),
            los
        );
        if !r.note.is_empty() && r.note != "anchor" {
            let _ = write!(line, "  ({})", r.note);
        }
        writeln!(out, "{}", line.trim_end()).unwrap();
    }
    out
}
