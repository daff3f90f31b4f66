//! `merge`: shards of one run into the result one run would have written.

use std::path::{Path, PathBuf};

use crate::report::MANIFEST;

use super::folder::claim_dir;
use super::output::{Outcome, write_result};
use super::state::{State, read_finished};
use super::{JobError, Shard};

/// Merges the shard folders `inputs` into `out`, writing the same files as
/// one unsharded run (the manifest is the first shard's, with a note naming
/// `command` and the shards).
///
/// # Errors
/// [`JobError::Input`]: a folder that is not a shard, shards of different
/// runs, a shard given twice or missing, `out` being a shard.
/// [`JobError::Run`]: writing the result.
pub fn merge(inputs: &[PathBuf], out: &Path, command: &[String]) -> Result<Outcome, JobError> {
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
    let claim = claim_dir(out)?;
    let mut merged = State {
        shard: Shard::ALL,
        version: super::state::STATE_VERSION,
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
    let rows = write_result(&merged, Some(out), &format!("{note}{manifest_text}"), &[])?;
    Ok(Outcome::of(merged, rows, None, claim.notes))
}

/// Where the run's deals end: the furthest end the shards cover.
fn end_of<'a>(covered: impl Iterator<Item = &'a Vec<std::ops::Range<u64>>>) -> u64 {
    covered.flatten().map(|c| c.end).max().unwrap_or(0)
}
