//! A finished state into its result files: `summary.csv`,
//! `distribution.csv`, the charts, the study's table, `tallies.json` and the
//! manifest, put in place together.

use std::path::Path;

use crate::report::{
    self, MANIFEST, RatingRow, ResultFiles, RowTallies, SideRow, StudyRows, SummaryRow, csv_bytes,
    distribution_rows,
};

use super::state::{
    MANIFEST_CAP, State, digest, read_any_state, read_capped, recorded_digest, with_digest,
};
use super::{JobError, StudyKind};

/// The presentation rows of a finished state.
pub(crate) struct Rows {
    /// `summary.csv` of a two-player job.
    pub summary: Vec<SummaryRow>,
    /// The study's table, if any.
    pub study: Option<StudyRows>,
    /// The rating list of a match of three or more players.
    pub ratings: Option<Vec<RatingRow>>,
    /// `summary.csv` of a three-player or partnership job: per side.
    pub sides: Vec<SideRow>,
    /// `seats.csv`: per position.
    pub seats: Vec<SideRow>,
}

/// The presentation rows of `state`: the summary, the study's table and
/// the rating list, or a table job's side and seat rows.
pub(super) fn rows(state: &State) -> Rows {
    let summary = state
        .rows
        .iter()
        .map(|r| SummaryRow::new(&r.variant, &r.players[0], &r.players[1], &r.tallies, r.seed))
        .collect();
    let tallies = row_tallies(state);
    let ratings = (state.study == StudyKind::Match && report::rated(&tallies))
        .then(|| report::rating_rows(&tallies, state.anchor.as_deref()));
    let (mut sides, mut seats) = (Vec::new(), Vec::new());
    for r in &state.tables {
        let (s, p) = report::side_rows(&r.variant, r.format, &r.players, &r.tallies);
        sides.extend(s);
        seats.extend(p);
    }
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
        sides,
        seats,
    }
}

/// Every row's names and tallies.
fn row_tallies(state: &State) -> Vec<RowTallies<'_>> {
    state
        .rows
        .iter()
        .map(|r| RowTallies {
            variant: &r.variant,
            players: &r.players,
            tallies: &r.tallies,
        })
        .collect()
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
    let rows = rows(state);
    let Some(dir) = dir else {
        return Ok(rows);
    };
    let Rows {
        summary,
        study,
        ratings,
        sides,
        seats,
    } = &rows;
    let run = |e: std::io::Error| JobError::Run(e.to_string());
    let csv = |e: csv::Error| JobError::Run(e.to_string());
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    for r in &state.rows {
        let dealer_side = matches!(state.study, StudyKind::Balance { .. });
        for (name, svg) in report::histograms(&r.variant, &r.players, &r.tallies, dealer_side) {
            entries.push((name, svg.into_bytes()));
        }
    }
    let distribution: Vec<_> = state
        .rows
        .iter()
        .flat_map(|r| distribution_rows(&r.variant, &r.players[0], &r.players[1], &r.tallies))
        .collect();
    let json = serde_json::to_vec(state).map_err(|e| JobError::Run(e.to_string()))?;
    let manifest_toml = with_digest(manifest_toml, &digest(&json));
    entries.push(("tallies.json".into(), json));
    if state.tables.is_empty() {
        entries.push(("summary.csv".into(), csv_bytes(summary).map_err(csv)?));
        entries.push((
            "distribution.csv".into(),
            csv_bytes(&distribution).map_err(csv)?,
        ));
    } else {
        entries.push(("summary.csv".into(), csv_bytes(sides).map_err(csv)?));
        entries.push(("seats.csv".into(), csv_bytes(seats).map_err(csv)?));
    }
    match (study, &state.study) {
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
            entries.push(("sweep.csv".into(), csv_bytes(table).map_err(csv)?));
            let objective = state.study.objective().expect("a sweep");
            if let Some(svg) = report::sweep_chart(table, (strategy, param, vs), unit, objective) {
                entries.push(("sweep.svg".into(), svg.into_bytes()));
            }
        }
        (Some(StudyRows::Balance(table)), _) => {
            entries.push(("balance.csv".into(), csv_bytes(table).map_err(csv)?));
            entries.push((
                "balance.svg".into(),
                report::balance_chart(table).into_bytes(),
            ));
        }
        _ => {}
    }
    if let Some(table) = ratings {
        let tallies = row_tallies(state);
        let unit = if state.rows.iter().any(|r| r.tallies.games > 0) {
            "game"
        } else {
            "hand"
        };
        entries.push(("ratings.csv".into(), csv_bytes(table).map_err(csv)?));
        entries.push((
            "crosstable.csv".into(),
            report::crosstable_bytes(&tallies).map_err(csv)?,
        ));
        entries.push((
            "ratings.svg".into(),
            report::ratings_chart(table, unit).into_bytes(),
        ));
    }
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
    for r in &earlier.rows {
        names.extend(report::chart_names(
            &r.variant,
            &r.players,
            r.tallies.games > 0,
        ));
    }
    match earlier.study {
        StudyKind::Match if report::rated(&row_tallies(&earlier)) => {
            names.extend(["ratings.csv", "crosstable.csv", "ratings.svg"].map(String::from));
        }
        StudyKind::Match => {}
        StudyKind::Sweep { .. } => names.extend(["sweep.csv".into(), "sweep.svg".into()]),
        StudyKind::Balance { .. } => names.extend(["balance.csv".into(), "balance.svg".into()]),
    }
    if !earlier.tables.is_empty() {
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
    // One byte more than the new file is enough to tell them apart.
    let same = entries.iter().all(|(name, bytes)| {
        read_capped(&dir.join(name), bytes.len() as u64).is_ok_and(|old| old == *bytes)
    });
    let no_other = earlier.iter().all(|name| {
        name == MANIFEST || entries.iter().any(|(n, _)| n == name) || !dir.join(name).exists()
    });
    (same && no_other).then_some(manifest)
}
