//! Presentation: the rows of every CSV file a job writes (`summary.csv`,
//! `distribution.csv`, the studies' `sweep.csv` and `balance.csv`), the
//! manifest, the charts, and the terminal's tables, which read their
//! figures from those rows.
//!
//! Rows are flat serde structs; field order is column order and each field's
//! doc is docs/CLI.md's column doc. Floating-point columns are rounded to six
//! decimals so that the files are stable to the byte. Files are written whole
//! ([`ResultFiles`]): a result folder's files are all written beside their targets
//! and only then renamed into place, the manifest last, so a folder with a
//! manifest holds one complete result.

pub mod chart;
mod files;
mod json;
mod multi;
mod ratings;
mod status;
mod study;
mod table;

pub use files::{
    AtomicFile, CHECKPOINT, JOURNAL, MANIFEST, ResultFiles, check_result_names, check_writable,
    create_private_dir, finish_interrupted_commit, is_folder_file, is_result_file,
    remove_temporary_files, write_atomic,
};
pub use json::{SprtJson, Summary, json_report};
pub use multi::{SideRow, side_names, side_rows, side_table, table_header, tables_report};
pub use ratings::{
    DEFAULT_ANCHOR, RatingRow, TableRowTallies, anchor_index, crosstable_bytes, rated, rating_rows,
    ratings_chart, ratings_table, table_crosstable_bytes, table_rating_rows, table_ratings_table,
};
pub use status::{status_line, table_status_line};
pub use study::{
    BalanceRow, Objective, RowTallies, StudyRows, SweepRow, balance_chart, balance_rows,
    chart_names, histograms, sweep_chart, sweep_rows,
};
pub use table::{
    balance_table, fixed, match_header, match_report, mean, percent, seed_line, signed,
    signed_interval, sprt_line, summary_table, sweep_table,
};

use serde::Serialize;

use crate::sim::Tallies;
use crate::stats::{Interval, UnitSums, elo};

/// Rounds to six decimals (and turns −0 into 0): how every float in a CSV
/// file is written, so files are stable to the byte.
#[must_use]
pub fn r6(x: f64) -> f64 {
    let y = (x * 1e6).round() / 1e6;
    if y == 0.0 { 0.0 } else { y }
}

/// One end of an interval as a CSV cell: rounded, or empty (`None`) when
/// the sample is too small for any valid interval.
pub type End = Option<f64>;

fn ends(interval: Interval, round: fn(f64) -> f64) -> (End, End) {
    match interval {
        Some((lo, hi)) => (Some(round(lo)), Some(round(hi))),
        None => (None, None),
    }
}

/// A rate over a run's scoring units and its 95 % interval (see
/// [`UnitSums::rate_interval`]), rounded as in a CSV file.
#[must_use]
pub fn unit_rate(s: &UnitSums) -> (f64, End, End) {
    let (lo, hi) = ends(s.rate_interval(0.95), r6);
    (r6(s.value()), lo, hi)
}

/// A mean over a run's scoring units and its 95 % interval (see
/// [`UnitSums::mean_interval`]), rounded as in a CSV file.
#[must_use]
pub fn unit_mean(s: &UnitSums) -> (f64, End, End) {
    let (lo, hi) = ends(s.mean_interval(0.95), r6);
    (r6(s.value()), lo, hi)
}

/// A's Elo difference from its score over the units, and its 95 %
/// interval: the score's rate interval mapped through [`elo`]. A score of
/// 0 or 1 (and an end of its interval there) is clamped to 1e-9 from the
/// edge, giving ∓3600, so the figure stays finite and inside its interval.
#[must_use]
pub fn unit_elo(score: &UnitSums) -> (f64, End, End) {
    let to_elo = |p: f64| finite(elo(p.clamp(1e-9, 1.0 - 1e-9)));
    let (lo, hi) = ends(score.rate_interval(0.95), to_elo);
    (to_elo(score.value()), lo, hi)
}

/// [`r6`] for a figure that may be infinite (an Elo at the edge): ±9999.
#[must_use]
pub fn finite(x: f64) -> f64 {
    if x.is_finite() {
        r6(x)
    } else {
        x.signum() * 9999.0
    }
}

/// One row of `summary.csv`: one (variant, player A, player B).
#[derive(Clone, Debug, Serialize)]
pub struct SummaryRow {
    /// The rule variant's name.
    pub variant: String,
    /// Player A's profile.
    pub player_a: String,
    /// Player B's profile.
    pub player_b: String,
    /// Hands played, void ones included.
    pub hands: u64,
    /// Whole games played (0 in hands mode).
    pub games: u64,
    /// Hands won by A.
    pub a_hand_wins: u64,
    /// Hands won by B.
    pub b_hand_wins: u64,
    /// Void hands.
    pub voids: u64,
    /// A's hands won / hands.
    pub a_hand_win_rate: f64,
    /// Its 95 % interval, low end.
    pub a_hand_win_lo: End,
    /// Its 95 % interval, high end.
    pub a_hand_win_hi: End,
    /// Mean of A's points minus B's points per hand (void hands count 0).
    pub a_points_per_hand: f64,
    /// Its 95 % interval, low end.
    pub a_points_per_hand_lo: End,
    /// Its 95 % interval, high end.
    pub a_points_per_hand_hi: End,
    /// Games won by A.
    pub a_game_wins: u64,
    /// A's games won / games (0 in hands mode).
    pub a_game_win_rate: f64,
    /// Its 95 % interval, low end.
    pub a_game_win_lo: End,
    /// Its 95 % interval, high end.
    pub a_game_win_hi: End,
    /// Mean of A's game margin (winner's total minus loser's, negative when B won).
    pub a_margin_per_game: f64,
    /// Its 95 % interval, low end.
    pub a_margin_per_game_lo: End,
    /// Its 95 % interval, high end.
    pub a_margin_per_game_hi: End,
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
    /// Knocks won by the knocker (not gin) / hands.
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
    /// Mean turns per hand (both players counted).
    pub mean_turns: f64,
    /// A's Elo difference from its score (per game in games mode, per hand in hands mode).
    pub elo: f64,
    /// Its 95 % interval, low end.
    pub elo_lo: End,
    /// Its 95 % interval, high end.
    pub elo_hi: End,
    /// The master seed.
    pub seed: u64,
    /// Games (hands in hands mode) A lost by forfeit: an external bot that
    /// crashed, timed out or answered wrongly.
    pub a_forfeits: u64,
    /// Games (or hands) B lost by forfeit.
    pub b_forfeits: u64,
    /// Hands won by the non-dealer (terminal only).
    #[serde(skip)]
    pub non_dealer_wins: u64,
    /// Big gins, counted in `gin_rate` too (terminal only).
    #[serde(skip)]
    pub big_gins: u64,
    /// Scoreless ties (terminal only).
    #[serde(skip)]
    pub ties: u64,
    /// A's mean score per game or hand, the input of `elo` (terminal only).
    #[serde(skip)]
    pub score: f64,
    /// B's hands won / hands (terminal only).
    #[serde(skip)]
    pub b_hand_win_rate: f64,
    /// Its 95 % interval, low end (terminal only).
    #[serde(skip)]
    pub b_hand_win_lo: End,
    /// Its 95 % interval, high end (terminal only).
    #[serde(skip)]
    pub b_hand_win_hi: End,
    /// The scoring units the intervals are over (terminal only): with two
    /// or more, a mean without an interval is one every unit agreed on.
    #[serde(skip)]
    pub units: u64,
}

impl SummaryRow {
    /// The row for one variant and pairing.
    #[must_use]
    pub fn new(
        variant: &str,
        player_a: &str,
        player_b: &str,
        t: &Tallies,
        seed: u64,
    ) -> SummaryRow {
        let u = &t.units;
        let (a_hand_win_rate, a_hand_win_lo, a_hand_win_hi) = unit_rate(&u.a_hand_wins);
        let (a_game_win_rate, a_game_win_lo, a_game_win_hi) = unit_rate(&u.a_game_wins);
        let (non_dealer_win_rate, non_dealer_win_lo, non_dealer_win_hi) =
            unit_rate(&u.non_dealer_wins);
        let (gin_rate, gin_lo, gin_hi) = unit_rate(&u.gins);
        let (undercut_rate, undercut_lo, undercut_hi) = unit_rate(&u.undercuts);
        let (knock_rate, knock_lo, knock_hi) = unit_rate(&u.knocks);
        let (void_rate, void_lo, void_hi) = unit_rate(&u.voids);
        let (pph, pph_lo, pph_hi) = unit_mean(&u.a_net_points);
        let (mpg, mpg_lo, mpg_hi) = unit_mean(&u.a_margin);
        let (elo, elo_lo, elo_hi) = unit_elo(&u.score);
        let (b_hand_win_rate, b_hand_win_lo, b_hand_win_hi) = unit_rate(&u.b_hand_wins);
        SummaryRow {
            variant: variant.to_owned(),
            player_a: player_a.to_owned(),
            player_b: player_b.to_owned(),
            hands: t.hands,
            games: t.games,
            a_hand_wins: t.a_hand_wins,
            b_hand_wins: t.b_hand_wins,
            voids: t.voids,
            a_hand_win_rate,
            a_hand_win_lo,
            a_hand_win_hi,
            a_points_per_hand: pph,
            a_points_per_hand_lo: pph_lo,
            a_points_per_hand_hi: pph_hi,
            a_game_wins: t.a_game_wins,
            a_game_win_rate,
            a_game_win_lo,
            a_game_win_hi,
            a_margin_per_game: mpg,
            a_margin_per_game_lo: mpg_lo,
            a_margin_per_game_hi: mpg_hi,
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
            mean_turns: r6(t.turns.mean()),
            elo,
            elo_lo,
            elo_hi,
            seed,
            a_forfeits: t.a_forfeits,
            b_forfeits: t.b_forfeits,
            non_dealer_wins: t.non_dealer_wins,
            big_gins: t.big_gins,
            ties: t.ties,
            score: u.score.value(),
            b_hand_win_rate,
            b_hand_win_lo,
            b_hand_win_hi,
            units: u.score.units,
        }
    }
}

/// One row of `distribution.csv`: how often `metric` took `value`.
#[derive(Clone, Debug, Serialize)]
pub struct DistributionRow {
    /// The rule variant's name.
    pub variant: String,
    /// Player A's profile.
    pub player_a: String,
    /// Player B's profile.
    pub player_b: String,
    /// `hand_score` (A's points, or minus B's; void 0), `game_margin` (A's
    /// side), `hand_turns`, `knocker_deadwood`, `pair_score` (A's half points
    /// per duplicate pair or single game/hand), or `hand_end`.
    pub metric: &'static str,
    /// The value (a number, or for `hand_end` one of knock, gin, big_gin,
    /// undercut, tie, void).
    pub value: String,
    /// How many hands or games had it.
    pub count: u64,
}

/// The distribution rows of one variant and pairing.
#[must_use]
pub fn distribution_rows(
    variant: &str,
    player_a: &str,
    player_b: &str,
    t: &Tallies,
) -> Vec<DistributionRow> {
    let row = |metric: &'static str, value: String, count: u64| DistributionRow {
        variant: variant.to_owned(),
        player_a: player_a.to_owned(),
        player_b: player_b.to_owned(),
        metric,
        value,
        count,
    };
    let mut rows = Vec::new();
    for (metric, map) in [
        ("hand_score", &t.hand_score),
        ("game_margin", &t.game_margin),
        ("hand_turns", &t.hand_turns),
        ("knocker_deadwood", &t.knocker_deadwood),
        ("pair_score", &t.pair_score),
    ] {
        rows.extend(map.iter().map(|(k, v)| row(metric, k.to_string(), v)));
    }
    for (name, count) in [
        ("knock", t.knocks),
        ("gin", t.gins),
        ("big_gin", t.big_gins),
        ("undercut", t.undercuts),
        ("tie", t.ties),
        ("void", t.voids),
    ] {
        rows.push(row("hand_end", name.to_owned(), count));
    }
    rows
}

/// Serialises `rows` as CSV, the header taken from the row type's field
/// names (so the columns cannot drift from the struct). Every table written
/// here has at least one row.
///
/// # Errors
/// A serialisation error (none for the row types here).
pub fn csv_bytes<R: Serialize>(rows: &[R]) -> Result<Vec<u8>, csv::Error> {
    debug_assert!(
        !rows.is_empty(),
        "a CSV table needs a row to name its columns"
    );
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    writer.into_inner().map_err(|e| e.into_error().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_comes_from_the_row_type() {
        let row = SummaryRow::new("standard", "greedy", "simple", &Tallies::default(), 1);
        let text = String::from_utf8(csv_bytes(&[row]).unwrap()).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        assert!(
            header.starts_with("variant,player_a,player_b,hands,games,"),
            "{header}"
        );
        assert!(
            header.ends_with(",elo,elo_lo,elo_hi,seed,a_forfeits,b_forfeits"),
            "{header}"
        );
        assert_eq!(
            header.split(',').count(),
            lines.next().unwrap().split(',').count()
        );
    }

    #[test]
    fn rounding_is_stable() {
        assert_eq!(r6(0.123_456_789), 0.123_457);
        assert_eq!(r6(-0.000_000_1).to_string(), "0");
    }
}

/// What made a result directory, so it can be remade bit for bit.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// ginlab's version.
    pub ginlab_version: &'static str,
    /// The git commit the binary was built from (`-dirty` if uncommitted
    /// changes were present), or `unknown`.
    pub git_commit: &'static str,
    /// The command line, one argument per element.
    pub command: Vec<String>,
    /// The master seed.
    pub seed: u64,
    /// The players as named on the command line, in the spec or in their profiles.
    pub players: Vec<String>,
    /// Their profiles in inline form (enough to remake the run without the files).
    pub profiles: Vec<String>,
    /// `hands`, `games` or `decks`.
    pub work: String,
    /// How many hands or games were asked for.
    pub count: u64,
    /// Every deal played twice with the seats swapped.
    pub duplicate: bool,
    /// The rules of each variant, every knob.
    pub variants: Vec<VariantRules>,
    /// The experiment spec as given, for `ginlab run`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experiment: Option<String>,
}

/// One variant's name and its rules as TOML.
#[derive(Clone, Debug, Serialize)]
pub struct VariantRules {
    /// The variant's name.
    pub name: String,
    /// Every knob, as `ginlab rules` prints them.
    pub rules: String,
}

impl VariantRules {
    /// The manifest's `[[variant]]` entries of `variants`.
    #[must_use]
    pub fn list(variants: &[(String, crate::rules::Rules)]) -> Vec<VariantRules> {
        variants
            .iter()
            .map(|(name, rules)| VariantRules {
                name: name.clone(),
                rules: rules.to_toml(),
            })
            .collect()
    }
}

impl Manifest {
    /// The build's version and commit.
    pub const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    /// The build's git commit.
    pub const COMMIT: &'static str = env!("GINLAB_GIT_COMMIT");

    /// The manifest as TOML, after [`MANIFEST_NOTE`].
    #[must_use]
    pub fn to_toml(&self) -> String {
        format!(
            "{MANIFEST_NOTE}{}",
            toml::to_string(self).expect("a manifest serialises")
        )
    }
}

/// The comment at the top of every manifest: why a re-made folder's
/// manifest may name an older commit than the one that re-made it.
pub const MANIFEST_NOTE: &str = "\
# What made this folder. A later run that re-makes every file here byte for
# byte keeps this manifest, so `git_commit` names the commit that first made
# these bytes, not necessarily the one that last re-made them.
";
