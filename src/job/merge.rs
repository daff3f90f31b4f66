//! `merge`: shards of one run into the result one run would have written.

use std::path::{Path, PathBuf};

use crate::report::MANIFEST;

use super::folder::claim_dir;
use super::output::{Outcome, write_result};
use super::recorder::{Recorder, record_outside};
use super::state::{RecordState, State, read_finished};
use super::{JobError, Shard};

/// Merges the shard folders `inputs` into `out`, writing the same files as
/// one unsharded run (the manifest is the first shard's, with a note naming
/// `command` and the shards); with `record`, also the shards' parts of the
/// game record (each shard run with `--record`) into the record the
/// unsharded run writes, byte for byte.
///
/// # Errors
/// [`JobError::Input`]: a folder that is not a shard, shards of different
/// runs, a shard given twice or missing, `out` being a shard; with
/// `record`, a shard run without one, a shard's record missing or not the
/// one its tallies describe.
/// [`JobError::Run`]: writing the result.
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    record: Option<&Path>,
    command: &[String],
) -> Result<Outcome, JobError> {
    if let Ok(target) = out.canonicalize()
        && let Some(input) = inputs
            .iter()
            .find(|d| d.canonicalize().is_ok_and(|d| d == target))
    {
        return Err(JobError::Input(format!(
            "--out {}: is the shard {}; write the merged result to another folder",
            out.display(),
            input.display()
        )));
    }
    let Some(first_dir) = inputs.first() else {
        return Err(JobError::Input("merge: no shard folders given".into()));
    };
    let mut states = Vec::new();
    let mut manifests = Vec::new();
    for dir in inputs {
        let path = dir.join("tallies.json");
        let (state, manifest) = read_finished(dir, MANIFEST)?;
        manifests.push(manifest);
        let Shard { index, count } = state.shard;
        if index == 0 || index > count {
            return Err(JobError::Input(format!(
                "{}: shard {index}/{count} is not a shard (1 ≤ K ≤ N)",
                path.display()
            )));
        }
        states.push(state);
    }
    let manifest_text = manifests.swap_remove(0);
    let first = &states[0];
    let count = first.shard.count;
    let mut seen = std::collections::BTreeSet::new();
    for (state, dir) in states.iter().zip(inputs) {
        if state.fingerprint != first.fingerprint
            || state.shard.count != count
            || state.study != first.study
            || state.anchor != first.anchor
        {
            return Err(JobError::Input(format!(
                "{}: not a shard of the same run as {} (players, rules, amount, seed, rating anchor or shard count differ)",
                dir.display(),
                first_dir.display()
            )));
        }
        if !seen.insert(state.shard.index) {
            return Err(JobError::Input(format!(
                "shard {}/{count} given twice ({})",
                state.shard.index,
                dir.display()
            )));
        }
    }
    if let Some(missing) = (1..=count).find(|k| !seen.contains(k)) {
        return Err(JobError::Input(format!(
            "shard {missing}/{count} is missing"
        )));
    }
    // Each row's deals are 0..D, D where the last shard ends; every shard
    // must hold exactly its slice of them, with tallies that add up, and
    // name what the first shard's row plays.
    for (i, row) in first.rows.iter().enumerate() {
        let deals = end_of(
            states
                .iter()
                .filter_map(|s| s.rows.get(i))
                .map(|r| &r.covered),
        );
        for (state, dir) in states.iter().zip(inputs) {
            let path = dir.join("tallies.json");
            let mine = state.rows.get(i).ok_or_else(|| {
                JobError::Input(format!("{}: has no row `{}`", path.display(), row.name()))
            })?;
            if (&mine.variant, &mine.players, mine.seed) != (&row.variant, &row.players, row.seed) {
                return Err(JobError::Input(format!(
                    "{}: row `{}` is not the first shard's `{}`: not a shard of the same run as {}",
                    path.display(),
                    mine.name(),
                    row.name(),
                    first_dir.display()
                )));
            }
            mine.check(&path, &state.shard.slice(deals), true)?;
        }
    }
    if let Some((state, dir)) = states
        .iter()
        .zip(inputs)
        .find(|(s, _)| s.rows.len() != first.rows.len())
    {
        return Err(JobError::Input(format!(
            "{}: holds {} rows, {} holds {}: not a shard of the same run",
            dir.join("tallies.json").display(),
            state.rows.len(),
            first_dir.display(),
            first.rows.len()
        )));
    }
    if let Some(record) = record {
        record_outside(record, out)?;
    }
    let parts = match record {
        Some(_) => Some(record_parts(&states, inputs)?),
        None => None,
    };
    let claim = claim_dir(out)?;
    let recorder = match (record, parts) {
        (Some(record), Some(parts)) => Some(merge_records(record, &parts, first.rows.len())?),
        _ => None,
    };
    let mut merged = State {
        shard: Shard::ALL,
        version: super::state::STATE_VERSION,
        record: None,
        ..first.clone()
    };
    for (i, row) in merged.rows.iter_mut().enumerate() {
        row.covered = Vec::new();
        row.tally = row.tally.emptied();
        for state in &states {
            row.tally.merge(&state.rows[i].tally);
            row.covered.extend(state.rows[i].covered.iter().cloned());
        }
        row.covered.sort_by_key(|r| r.start);
        row.covered.dedup_by(|b, a| {
            let touch = a.end == b.start;
            if touch {
                a.end = b.end;
            }
            touch
        });
    }
    let note = format!(
        "# Merged by `{}` from {count} shards:\n{}",
        command.join(" "),
        inputs
            .iter()
            .map(|d| format!("#   {}\n", d.display()))
            .collect::<String>()
    );
    if let Some(recorder) = recorder {
        recorder.commit()?;
    }
    let rows = write_result(&merged, Some(out), &format!("{note}{manifest_text}"), &[])?;
    Ok(Outcome::of(merged, rows, None, claim.notes))
}

/// Where the run's deals end: the furthest end the shards cover.
fn end_of<'a>(covered: impl Iterator<Item = &'a Vec<std::ops::Range<u64>>>) -> u64 {
    covered.flatten().map(|c| c.end).max().unwrap_or(0)
}

/// A shard's part of the game record: its file and what its tallies say
/// the file holds.
struct Part<'a> {
    file: PathBuf,
    record: &'a RecordState,
}

/// Each shard's part of the record, in shard order, each checked against
/// what its `tallies.json` records (its length and digest), so a part that
/// is missing, edited, damaged or of another run is refused before anything
/// is written.
fn record_parts<'a>(states: &'a [State], inputs: &[PathBuf]) -> Result<Vec<Part<'a>>, JobError> {
    let mut order: Vec<(&State, &PathBuf)> = states.iter().zip(inputs).collect();
    order.sort_by_key(|(s, _)| s.shard.index);
    let mut parts = Vec::new();
    for (state, dir) in order {
        let Shard { index, count } = state.shard;
        let tallies = dir.join("tallies.json");
        let Some(record) = &state.record else {
            return Err(JobError::Input(format!(
                "{}: shard {index}/{count} was run without --record, so it has no part of the record to merge; run it again with --record, or merge without --record",
                tallies.display()
            )));
        };
        if record.rows.len() != state.rows.len() {
            return Err(JobError::Input(format!(
                "{}: its record names {} rows, the shard has {}; the file was edited or damaged",
                tallies.display(),
                record.rows.len(),
                state.rows.len()
            )));
        }
        let file = dir.join(&record.file);
        let mut reader = std::fs::File::open(&file).map_err(|e| {
            JobError::input_from(
                format!(
                    "shard {index}/{count}'s record {} (named by {})",
                    file.display(),
                    tallies.display()
                ),
                e,
            )
        })?;
        let mut hasher = blake3::Hasher::new();
        let read = std::io::copy(&mut reader, &mut hasher)
            .map_err(|e| JobError::input_from(format!("reading {}", file.display()), e))?;
        if read != record.bytes() || hasher.finalize().to_hex().as_str() != record.blake3 {
            return Err(JobError::Input(format!(
                "{}: is not the record of shard {index}/{count} that {} describes ({read} bytes where it records {}, or other lines): the file was edited, damaged or is another run's",
                file.display(),
                tallies.display(),
                record.bytes()
            )));
        }
        parts.push(Part { file, record });
    }
    Ok(parts)
}

/// Writes `parts` (in shard order) to `path` as one run writes its record:
/// row after row, each row's lines from every shard in turn. Returns the
/// record, to be committed with the result.
fn merge_records(path: &Path, parts: &[Part<'_>], rows: usize) -> Result<Recorder, JobError> {
    let mut recorder = Recorder::create(path, rows)?;
    let mut readers = parts
        .iter()
        .map(|p| {
            std::fs::File::open(&p.file)
                .map(std::io::BufReader::new)
                .map_err(|e| JobError::input_from(format!("reading {}", p.file.display()), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for row in 0..rows {
        recorder.set_row(row);
        for (part, reader) in parts.iter().zip(&mut readers) {
            use std::io::Read as _;
            let want = part.record.rows[row];
            let copied = std::io::copy(&mut reader.take(want), &mut recorder)
                .map_err(|e| JobError::run_from(format!("writing {}", path.display()), e))?;
            if copied != want {
                return Err(JobError::Input(format!(
                    "{}: changed while it was merged",
                    part.file.display()
                )));
            }
        }
    }
    Ok(recorder)
}
