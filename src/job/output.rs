//! A finished state into its result files (the one writer, for every
//! format): `summary.csv`, `distribution.csv`, the study's table and its one
//! headline chart, `tallies.json` and the manifest, put in place together;
//! and the views made on demand from a folder's tallies (every row's
//! histograms).

use std::path::Path;

use crate::report::{
    self, MANIFEST, RatingRow, ResultFiles, RowTallies, StudyRows, Summary, SummaryRow, csv_bytes,
    distribution_rows,
};
use crate::sim::Tallies;
use crate::stats::SprtState;

use super::contest::Tally;
use super::state::{
    MANIFEST_CAP, RowState, State, digest, read_any_state, read_capped, recorded_digest,
    with_digest,
};
use super::{JobError, StudyKind};

/// A finished job, its files in place.
#[derive(Debug)]
pub struct Outcome {
    /// Each row's tallies.
    pub tallies: Vec<Tally>,
    /// The rows of `summary.csv` (and `seats.csv`): what the terminal
    /// shows, too.
    pub summary: Summary,
    /// The study's table, if the job is a study.
    pub study: Option<StudyRows>,
    /// The rating list (`ratings.csv`), for a match of three or more players
    /// or a three-player or partnership match.
    pub ratings: Option<Vec<RatingRow>>,
    /// `crosstable.csv`'s text, with the rating list.
    pub crosstable: Option<String>,
    /// The stopping rule's result, if one was given: its decision, and the
    /// LLR and units at the unit it decided at (at the end when the deals
    /// ran out first). The tallies may hold more units: the rest of the
    /// block it decided in.
    pub stopped: Option<SprtState>,
    /// What the job found and repaired in its folder, for the user.
    pub notes: Vec<String>,
}

impl Outcome {
    /// The outcome of a finished `state` whose presentation rows are
    /// `rows`, with the notes of its folder's claim.
    pub(super) fn of(
        state: State,
        rows: Rows,
        stopped: Option<SprtState>,
        notes: Vec<String>,
    ) -> Outcome {
        Outcome {
            tallies: state.rows.into_iter().map(|r| r.tally).collect(),
            summary: rows.summary,
            study: rows.study,
            ratings: rows.ratings,
            crosstable: rows.crosstable,
            stopped,
            notes,
        }
    }
}

/// The presentation rows of a finished state.
pub(super) struct Rows {
    /// `summary.csv` (and `seats.csv`).
    pub summary: Summary,
    /// The study's table, if any.
    pub study: Option<StudyRows>,
    /// The rating list of a match of three or more players.
    pub ratings: Option<Vec<RatingRow>>,
    /// `crosstable.csv`, with the rating list.
    pub crosstable: Option<String>,
}

/// The presentation rows of `state`: the summary, the study's table and
/// the rating list.
pub(super) fn rows(state: &State) -> Rows {
    let summary = if state.pairs() {
        Summary::Pairs(
            pair_rows(state)
                .map(|(r, p, t)| SummaryRow::new(&r.variant, &p[0], &p[1], t, r.seed))
                .collect(),
        )
    } else {
        let (mut sides, mut seats) = (Vec::new(), Vec::new());
        for r in &state.rows {
            if let Some((format, t)) = r.tally.table() {
                let (s, p) = report::side_rows(&r.variant, format, &r.players, t);
                sides.extend(s);
                seats.extend(p);
            }
        }
        Summary::Sides { sides, seats }
    };
    let tallies = row_tallies(state);
    let ratings = if state.pairs() {
        (state.study == StudyKind::Match && report::rated(&tallies))
            .then(|| report::rating_rows(&tallies, state.anchor.as_deref()))
    } else {
        (state.study == StudyKind::Match)
            .then(|| report::table_rating_rows(&table_rows(state), state.anchor.as_deref()))
            .filter(|rows| !rows.is_empty())
    };
    let study = match &state.study {
        StudyKind::Match => None,
        StudyKind::Sweep { param, values, .. } => Some(StudyRows::Sweep(report::sweep_rows(
            param, values, &tallies,
        ))),
        StudyKind::Balance { strategy } => {
            Some(StudyRows::Balance(report::balance_rows(strategy, &tallies)))
        }
    };
    Rows {
        summary,
        study,
        ratings,
        crosstable: None,
    }
}

/// The two-player rows of `state` with their players and tallies.
fn pair_rows(state: &State) -> impl Iterator<Item = (&RowState, &[String; 2], &Tallies)> {
    state.rows.iter().filter_map(|r| {
        let players = <&[String; 2]>::try_from(r.players.as_slice()).ok()?;
        Some((r, players, r.tally.pair()?))
    })
}

/// Every two-player row's names and tallies.
fn row_tallies(state: &State) -> Vec<RowTallies<'_>> {
    pair_rows(state)
        .map(|(r, players, tallies)| RowTallies {
            variant: &r.variant,
            players,
            tallies,
        })
        .collect()
}

/// Every three-player or partnership row's variant, sides and tallies.
fn table_rows(state: &State) -> Vec<report::TableRowTallies<'_>> {
    state
        .rows
        .iter()
        .filter_map(|r| {
            let (format, tallies) = r.tally.table()?;
            Some(report::TableRowTallies {
                variant: &r.variant,
                sides: report::side_names(format, &r.players),
                tallies,
            })
        })
        .collect()
}

/// `crosstable.csv` of a rated match: of the pairings, or of the tables.
fn crosstable(state: &State) -> Result<Vec<u8>, csv::Error> {
    if state.pairs() {
        report::crosstable_bytes(&row_tallies(state))
    } else {
        report::table_crosstable_bytes(&table_rows(state))
    }
}

/// Computes the rows of `state` and, with a folder, puts every result file
/// in place (the manifest, `manifest_toml`, last) and removes, in the same
/// journalled commit, the earlier run's files this one does not write and
/// the files named in `done_with` (the run's checkpoint).
pub(super) fn write_result(
    state: &State,
    dir: Option<&Path>,
    manifest_toml: &str,
    done_with: &[&str],
) -> Result<Rows, JobError> {
    let run = |e: std::io::Error| JobError::Run(e.to_string());
    let csv = |e: csv::Error| JobError::Run(e.to_string());
    let mut rows = rows(state);
    if rows.ratings.is_some() {
        let bytes = crosstable(state).map_err(csv)?;
        rows.crosstable = Some(String::from_utf8(bytes).map_err(|e| JobError::Run(e.to_string()))?);
    }
    let Some(dir) = dir else {
        return Ok(rows);
    };
    let Rows {
        summary,
        study,
        ratings,
        crosstable,
    } = &rows;
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    let json = serde_json::to_vec(state).map_err(|e| JobError::Run(e.to_string()))?;
    let manifest_toml = with_digest(manifest_toml, &digest(&json));
    entries.push(("tallies.json".into(), json));
    match summary {
        Summary::Pairs(summary) => {
            entries.push(("summary.csv".into(), csv_bytes(summary).map_err(csv)?));
            entries.push(("distribution.csv".into(), distribution_csv(state)?));
        }
        Summary::Sides { sides, seats } => {
            entries.push(("summary.csv".into(), csv_bytes(sides).map_err(csv)?));
            entries.push(("seats.csv".into(), csv_bytes(seats).map_err(csv)?));
        }
    }
    match study {
        Some(StudyRows::Sweep(table)) => {
            entries.push(("sweep.csv".into(), csv_bytes(table).map_err(csv)?));
        }
        Some(StudyRows::Balance(table)) => {
            entries.push(("balance.csv".into(), csv_bytes(table).map_err(csv)?));
        }
        None => {}
    }
    if let (Some(table), Some(crosstable)) = (ratings, crosstable) {
        entries.push(("ratings.csv".into(), csv_bytes(table).map_err(csv)?));
        entries.push(("crosstable.csv".into(), crosstable.clone().into_bytes()));
    }
    entries.extend(headline_chart(state, &rows));
    // A run that reproduces the folder's files keeps its manifest, which
    // names a command and commit that made exactly these bytes: re-making a
    // committed result leaves the tree clean.
    let mut earlier = earlier_files(dir);
    let manifest = reproduced_manifest(dir, &entries, &earlier, &manifest_toml)
        .unwrap_or_else(|| manifest_toml.into_bytes());
    earlier.extend(done_with.iter().map(|name| (*name).to_owned()));
    entries.push((MANIFEST.into(), manifest));
    let mut files = ResultFiles::new(dir).map_err(run)?;
    for (name, bytes) in &entries {
        files.add(name, bytes).map_err(run)?;
    }
    files.commit(&earlier).map_err(run)?;
    Ok(rows)
}

/// Writes the result folder of `spec` from tallies played outside the
/// block loop, one per row and covering all of its deals (a tuner's
/// confirmation plays its rows side by side, deal by deal, to pair them):
/// the files [`run`](super::run) writes for the same tallies, and any
/// checkpoint of an earlier run removed.
///
/// # Errors
/// A folder that cannot be claimed, a failure while writing.
///
/// # Panics
/// When `tallies` does not hold one tally per row.
pub fn write_played(spec: &super::JobSpec, tallies: Vec<Tally>) -> Result<Outcome, JobError> {
    assert_eq!(tallies.len(), spec.rows.len(), "one tally per row");
    let mut state = State::new(
        &spec.rows,
        &spec.study,
        spec.anchor.clone(),
        super::state::fingerprint(&spec.rows, None),
        super::Shard::ALL,
    );
    for ((saved, row), tally) in state.rows.iter_mut().zip(&spec.rows).zip(tallies) {
        let deals = row.plan.deals();
        if deals > 0 {
            super::run::cover(&mut saved.covered, &(0..deals));
        }
        saved.tally = tally;
    }
    let claim = spec.dir.as_deref().map(super::claim_dir).transpose()?;
    let rows = write_result(
        &state,
        spec.dir.as_deref(),
        &spec.manifest.to_toml(),
        &[crate::report::CHECKPOINT],
    )?;
    let notes = claim.map(|c| c.notes).unwrap_or_default();
    Ok(Outcome::of(state, rows, None, notes))
}

/// The files the run that last wrote `dir` wrote there, by its own
/// `tallies.json` (its rows and study); none when there is no such record.
/// Only these are ever removed as stale.
fn earlier_files(dir: &Path) -> Vec<String> {
    let Ok(earlier) = read_any_state(&dir.join("tallies.json")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = ["summary.csv", "distribution.csv", "tallies.json", MANIFEST]
        .map(String::from)
        .to_vec();
    for (r, players, tallies) in pair_rows(&earlier) {
        names.extend(report::chart_names(&r.variant, players, tallies.games > 0));
    }
    match earlier.study {
        StudyKind::Match if !earlier.pairs() || report::rated(&row_tallies(&earlier)) => {
            names.extend(["ratings.csv", "crosstable.csv", "ratings.svg"].map(String::from));
        }
        StudyKind::Match => {}
        StudyKind::Sweep { .. } => names.extend(["sweep.csv".into(), "sweep.svg".into()]),
        StudyKind::Balance { .. } => names.extend(["balance.csv".into(), "balance.svg".into()]),
    }
    if !earlier.pairs() {
        names.push("seats.csv".into());
    }
    names
}

/// The manifest in `dir` if the folder already holds exactly `entries` (the
/// same bytes, and no file of the earlier run that the commit would remove)
/// and it records the same digest of them as the new one, `manifest_toml`.
fn reproduced_manifest(
    dir: &Path,
    entries: &[(String, Vec<u8>)],
    earlier: &[String],
    manifest_toml: &str,
) -> Option<Vec<u8>> {
    let manifest = read_capped(&dir.join(MANIFEST), MANIFEST_CAP).ok()?;
    let old_digest = recorded_digest(std::str::from_utf8(&manifest).ok()?)?;
    if Some(old_digest) != recorded_digest(manifest_toml) {
        return None;
    }
    // One byte more than the new file is enough to tell them apart. A
    // view of the tallies that is absent (`distribution.csv`, which results/
    // does not track) is made from the same tallies as the one recorded.
    let same = entries.iter().all(|(name, bytes)| {
        let path = dir.join(name);
        (is_view(name) && !path.exists())
            || read_capped(&path, bytes.len() as u64).is_ok_and(|old| old == *bytes)
    });
    // The row charts `ginlab chart` made are views too: the commit removes
    // them as the earlier run's, and they change nothing the manifest says.
    let no_other = earlier.iter().all(|name| {
        name == MANIFEST
            || is_view(name)
            || entries.iter().any(|(n, _)| n == name)
            || !dir.join(name).exists()
    });
    (same && no_other).then_some(manifest)
}

/// `distribution.csv`: every two-player row's distributions.
fn distribution_csv(state: &State) -> Result<Vec<u8>, JobError> {
    let distribution: Vec<_> = pair_rows(state)
        .flat_map(|(r, p, t)| distribution_rows(&r.variant, &p[0], &p[1], t))
        .collect();
    csv_bytes(&distribution).map_err(|e| JobError::Run(e.to_string()))
}

/// The one chart a run writes: the study's (`sweep.svg`, `balance.svg`) or
/// the rating list's (`ratings.svg`); none for other jobs. Every row's
/// histograms are made on demand ([`remake_views`]).
fn headline_chart(state: &State, rows: &Rows) -> Option<(String, Vec<u8>)> {
    match (&rows.study, &state.study) {
        (
            Some(StudyRows::Sweep(table)),
            StudyKind::Sweep {
                strategy,
                param,
                vs,
                unit,
                ..
            },
        ) => {
            let objective = state.study.objective().expect("a sweep");
            report::sweep_chart(table, (strategy, param, vs), unit, objective)
                .map(|svg| ("sweep.svg".into(), svg.into_bytes()))
        }
        (Some(StudyRows::Balance(table)), _) => Some((
            "balance.svg".into(),
            report::balance_chart(table).into_bytes(),
        )),
        _ => rows.ratings.as_ref().map(|table| {
            let unit = if !state.pairs() || pair_rows(state).any(|(_, _, t)| t.games > 0) {
                "game"
            } else {
                "hand"
            };
            (
                "ratings.svg".into(),
                report::ratings_chart(table, unit).into_bytes(),
            )
        }),
    }
}

/// Whether `name` is a view of the tallies that results/ does not keep:
/// `distribution.csv` and the rows' histograms, made again from
/// `tallies.json` by a run or by [`remake_views`].
fn is_view(name: &str) -> bool {
    name == "distribution.csv"
        || (name.ends_with(".svg")
            && (name.starts_with("hand_score-") || name.starts_with("game_margin-")))
}

/// `ginlab chart DIR`: re-makes the finished result folder `dir`'s views
/// from its own `tallies.json` — every row's histograms
/// (`hand_score-*.svg`, `game_margin-*.svg` for games), the headline chart
/// and `distribution.csv` — into `out` (default `dir`). Nothing else in the
/// folder changes. Returns the names written, in order.
///
/// # Errors
/// [`JobError::Input`]: `dir` is not a finished result folder (or its
/// tallies do not match the manifest's digest), `out` cannot be used or is
/// in use by a run. [`JobError::Run`]: writing the files.
pub fn remake_views(dir: &Path, out: Option<&Path>) -> Result<Vec<String>, JobError> {
    let (state, _) = super::state::read_finished(dir, MANIFEST)?;
    let out = out.unwrap_or(dir);
    let _claim = super::folder::claim_dir(out)?;
    let rows = rows(&state);
    let dealer_side = matches!(state.study, StudyKind::Balance { .. });
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    for (r, players, tallies) in pair_rows(&state) {
        for (name, svg) in report::histograms(&r.variant, players, tallies, dealer_side) {
            entries.push((name, svg.into_bytes()));
        }
    }
    entries.extend(headline_chart(&state, &rows));
    if state.pairs() {
        entries.push(("distribution.csv".into(), distribution_csv(&state)?));
    }
    let run = |e: std::io::Error| JobError::Run(e.to_string());
    let mut files = ResultFiles::new(out).map_err(run)?;
    for (name, bytes) in &entries {
        files.add(name, bytes).map_err(run)?;
    }
    files.commit(&[]).map_err(run)?;
    Ok(entries.into_iter().map(|(name, _)| name).collect())
}
