//! The block loop: plays a [`JobSpec`]'s rows (of any format) block by
//! block, writing a checkpoint after each block and stopping early when a
//! stopping rule decides.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::report::CHECKPOINT;
use crate::sim::{RecordTarget, RunError};
use crate::stats::{Sprt, SprtDecision, SprtState};

use super::contest::{Feature, Recording, Tally};
use super::folder::claim_dir;
use super::output::{Outcome, write_result};
use super::recorder::{Recorder, record_outside};
use super::state::{State, fingerprint, read_state, write_state};
use super::{JobError, JobSpec, Shard};

/// Deals per checkpoint block (the result does not depend on it).
const BLOCK: u64 = 1 << 14;

/// Most deals per block with a stopping rule. The test looks after every
/// unit of a block, in deal order, so its decision does not depend on the
/// blocks; a run plays (and reports) the rest of the block in which it
/// decided, so the first blocks are short (64 deals, doubling up to this).
pub const STOP_BLOCK: u64 = 1024;

/// Fewest deals per block with a stopping rule.
const FIRST_STOP_BLOCK: u64 = 64;

/// The deals of the block that starts at deal `next` with a stopping rule:
/// as many as were played before it, from [`FIRST_STOP_BLOCK`] up to
/// [`STOP_BLOCK`] (blocks of 64, 64, 128, 256, 512, then 1024 deals), so a
/// test that decides early plays at most about as many deals again, and a
/// long one runs in full blocks. A function of the position alone, so a
/// resumed run's blocks are the same.
fn stop_block(next: u64) -> u64 {
    next.clamp(FIRST_STOP_BLOCK, STOP_BLOCK)
}

/// The most worker threads a job starts (every front end's cap: a pool of
/// a million threads never starts).
pub const MAX_THREADS: usize = 1024;

/// Refuses a thread count above [`MAX_THREADS`], with the message every
/// front end prints.
///
/// # Errors
/// The reason, naming the range.
pub fn check_threads(threads: usize) -> Result<usize, String> {
    if threads <= MAX_THREADS {
        Ok(threads)
    } else {
        Err(format!(
            "threads are 0 (one per core) to {MAX_THREADS}, not {threads}"
        ))
    }
}

/// How a job is played.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The slice of every row's deals to play (`None`: all).
    pub shard: Option<Shard>,
    /// Continue from the checkpoint.
    pub resume: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Write every game's record to this file (put in place whole once all
    /// rows are played). With a folder, each checkpoint says what the file
    /// holds so far, and `resume` continues it; a shard writes its part,
    /// which [`merge`](super::merge) combines.
    pub record: Option<PathBuf>,
    /// Stop as soon as this test decides (one row only).
    pub stop: Option<Sprt>,
    /// Deals per block (default 16,384 with a folder, else the whole row;
    /// with `stop`, from 64 up to [`STOP_BLOCK`]): checkpoints and
    /// [`Progress::Block`] come after each. The result does not depend on it.
    pub block: Option<u64>,
    /// Set from another thread to stop the job (a front end's Ctrl-C, a
    /// host-language player that raised): the loop stops once the block
    /// it is in is played, without counting that block, and returns
    /// [`JobError::Run`]. The checkpoint then holds the blocks before it,
    /// so `resume` continues as after a killed run.
    pub abort: Option<Arc<AtomicBool>>,
}

/// What the loop tells a front end as it goes. Called from worker threads.
pub enum Progress<'a> {
    /// `total` deals to play in all, `done` of them already (resumed).
    Start {
        /// Deals this process covers.
        total: u64,
        /// Deals done before it started.
        done: u64,
    },
    /// Now playing this row.
    Row {
        /// Its variant.
        variant: &'a str,
        /// Its players (two, three or four).
        players: &'a [String],
    },
    /// Deals done so far, counting the resumed ones.
    Done(u64),
    /// A block of the row finished: its tallies so far (resumed deals
    /// included), and where the stopping rule stands if one was given.
    /// Called on the loop's own thread, between blocks.
    Block {
        /// The row's variant.
        variant: &'a str,
        /// Its players.
        players: &'a [String],
        /// Its tallies so far.
        tally: &'a Tally,
        /// The stopping rule's test, up to the unit it decided at (if it
        /// has).
        stop: Option<&'a SprtState>,
    },
}

/// Refuses what cannot work together, before anything is played: what
/// the rows' format cannot do ([`Contest::cannot`](super::Contest::cannot)),
/// and options that need a folder or a whole run.
fn check(spec: &JobSpec, options: &Options) -> Result<(), JobError> {
    check_threads(options.threads).map_err(JobError::Input)?;
    let wanted = [
        (options.stop.is_some(), Feature::Sprt),
        (options.record.is_some(), Feature::Record),
    ];
    for (feature, row) in wanted
        .iter()
        .filter(|(asked, _)| *asked)
        .flat_map(|(_, f)| spec.rows.iter().map(move |r| (*f, r)))
    {
        if let Some(why) = row.plan.cannot(feature) {
            return Err(JobError::Input(why));
        }
    }
    if options.stop.is_some() {
        if spec.rows.len() != 1 {
            return Err(JobError::Input(
                "a stopping rule (--sprt) needs exactly one row".into(),
            ));
        }
        if options.shard.is_some_and(|s| s != Shard::ALL) {
            return Err(JobError::Input(
                "--sprt with --shard: a stopping rule decides on the whole sequence of deals, which no shard has; run it unsharded (--resume works)".into(),
            ));
        }
    }
    let folder = spec.dir.is_some();
    if !folder && (options.resume || options.shard.is_some()) {
        return Err(JobError::Input(
            "--shard and --resume need a result folder (--out DIR)".into(),
        ));
    }
    if let (Some(record), Some(_)) = (&options.record, options.shard) {
        // `merge` reads each shard's part of the record from its file.
        if !matches!(RecordTarget::of(record), Ok(RecordTarget::File(_)) | Err(_)) {
            return Err(JobError::Input(format!(
                "--record {} with --shard: a shard's part of the record goes to a file, which `ginlab merge` reads; record to a file",
                record.display()
            )));
        }
    }
    if let Some(shard) = options.shard {
        // A shard with no deals of a row would write a 0-game result.
        for row in &spec.rows {
            let deals = row.plan.deals();
            if shard.slice(deals).is_empty() {
                return Err(JobError::Input(format!(
                    "--shard {}/{}: the shard holds none of the {deals} deal{} of row `{} {}` ({} game{} a deal); use at most {} shard{}",
                    shard.index,
                    shard.count,
                    if deals == 1 { "" } else { "s" },
                    row.variant,
                    row.players.join(" "),
                    row.plan.unit_size(),
                    if row.plan.unit_size() == 1 { "" } else { "s" },
                    deals,
                    if deals == 1 { "" } else { "s" },
                )));
            }
        }
    }
    Ok(())
}

/// The state to start from: the checkpoint in the folder with `resume`,
/// checked against the run (fingerprint, shard, rows, the names and the
/// deals of every row, the tallies' identities), else `fresh`.
fn start_state(
    spec: &JobSpec,
    checkpoint: &Path,
    resume: bool,
    fresh: State,
) -> Result<State, JobError> {
    let dir = checkpoint.parent().unwrap_or(Path::new("."));
    if !resume {
        if checkpoint.is_file() {
            return Err(JobError::Input(format!(
                "{} holds an unfinished run: add --resume to continue it, or remove {}",
                dir.display(),
                checkpoint.display()
            )));
        }
        return Ok(fresh);
    }
    if !checkpoint.is_file() {
        return Err(JobError::Input(format!(
            "--resume: no checkpoint in {} (nothing to resume; run without --resume)",
            dir.display()
        )));
    }
    let saved = read_state(checkpoint)?;
    saved.check_version(checkpoint)?;
    if saved.fingerprint != fresh.fingerprint || saved.shard != fresh.shard {
        return Err(JobError::Input(format!(
            "--resume: the checkpoint in {} is from a different run (other players, rules, amount, seed, stopping rule or shard)",
            dir.display()
        )));
    }
    if saved.study != spec.study {
        return Err(JobError::Input(format!(
            "{}: holds another study than the run's; the file was edited or damaged",
            checkpoint.display()
        )));
    }
    if saved.rows.len() != spec.rows.len() {
        return Err(JobError::Input(format!(
            "{}: holds {} rows, the run has {}; the file was edited or damaged",
            checkpoint.display(),
            saved.rows.len(),
            spec.rows.len()
        )));
    }
    for (row, r) in saved.rows.iter().zip(&spec.rows) {
        row.check_names(checkpoint, r)?;
        row.check(checkpoint, &fresh.shard.slice(r.plan.deals()), false)?;
    }
    // The anchor only presents the result: this run's applies.
    Ok(State {
        anchor: fresh.anchor,
        ..saved
    })
}

/// The record to write, if one was asked for: a new one, or with `resume`
/// the one the checkpoint `checkpoint` was writing, continued from where
/// `state` (the checkpoint) says it stands.
fn recorder(
    spec: &JobSpec,
    options: &Options,
    state: &State,
    checkpoint: Option<&Path>,
) -> Result<Option<Recorder>, JobError> {
    let rows = spec.rows.len();
    match (options.resume, checkpoint, &options.record, &state.record) {
        (true, Some(checkpoint), Some(path), Some(saved)) => {
            Recorder::resume(path, saved, checkpoint).map(Some)
        }
        (true, Some(checkpoint), Some(path), None) => Err(JobError::Input(format!(
            "--record {}: the deals {} holds were played without a record file, so their games cannot be recorded; run again without --resume",
            path.display(),
            checkpoint.display()
        ))),
        (true, Some(checkpoint), None, Some(saved)) => Err(JobError::Input(format!(
            "--resume: {} was recording to {}; give --record {} to continue the record",
            checkpoint.display(),
            saved.file.display(),
            saved.file.display()
        ))),
        (_, _, Some(path), _) => Recorder::create(path, rows).map(Some),
        (_, _, None, _) => Ok(None),
    }
}

/// Plays `spec` (the `options.shard` slice of it), resuming from its
/// checkpoint if asked, and puts the result files in place.
///
/// # Errors
/// [`JobError::Input`] for a folder, checkpoint or option that cannot be
/// used (found before playing); [`JobError::Run`] for a failure while
/// playing or writing.
pub fn run(
    spec: &JobSpec,
    options: &Options,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<Outcome, JobError> {
    check(spec, options)?;
    let shard = options.shard.unwrap_or(Shard::ALL);
    let fresh = State::new(
        &spec.rows,
        &spec.study,
        spec.anchor.clone(),
        fingerprint(&spec.rows, options.stop.as_ref()),
        shard,
    );
    let checkpoint = spec.dir.as_ref().map(|d| d.join(CHECKPOINT));
    let claim = spec.dir.as_deref().map(claim_dir).transpose()?;
    if let (Some(dir), Some(record)) = (&spec.dir, &options.record) {
        record_outside(record, dir)?;
    }
    let mut state = match &checkpoint {
        Some(checkpoint) => start_state(spec, checkpoint, options.resume, fresh)?,
        None => fresh,
    };
    let slices: Vec<Range<u64>> = spec
        .rows
        .iter()
        .map(|r| shard.slice(r.plan.deals()))
        .collect();
    let mut recorder = recorder(spec, options, &state, checkpoint.as_deref())?;
    // The deals of the block that starts at deal `next`.
    let block = |next: u64| match (options.stop, &checkpoint) {
        (Some(_), _) => stop_block(next),
        (None, Some(_)) => options.block.unwrap_or(BLOCK).max(1),
        (None, None) => options.block.unwrap_or(u64::MAX).max(1),
    };
    let total: u64 = slices.iter().map(|s| s.end - s.start).sum();
    let mut done = state.done();
    progress(Progress::Start { total, done });
    // The test (one row only, of a format with unit scores) goes on from
    // the units a checkpoint holds, none of them past a decision (a block
    // that decides gets none).
    let mut test = match options.stop {
        Some(sprt) => {
            let units = state.rows[0]
                .tally
                .unit_scores()
                .copied()
                .unwrap_or_default();
            Some(SprtState::at(sprt, units, spec.rows[0].plan.unit_size()))
        }
        None => None,
    };
    let open = |test: &Option<SprtState>| test.is_none_or(|t| t.decision == SprtDecision::Continue);
    let aborted = || {
        options
            .abort
            .as_ref()
            .is_some_and(|a| a.load(Ordering::Relaxed))
    };
    for (i, row) in spec.rows.iter().enumerate() {
        progress(Progress::Row {
            variant: &row.variant,
            players: &row.players,
        });
        let mut next = state.rows[i]
            .covered
            .last()
            .map_or(slices[i].start, |c| c.end);
        while next < slices[i].end && open(&test) {
            if aborted() {
                return Err(JobError::Run("the job was stopped".into()));
            }
            let deals = next..next.saturating_add(block(next)).min(slices[i].end);
            let offset = done;
            let report = |n: u64| progress(Progress::Done(offset + n));
            let recording = recorder.as_mut().map(|r| {
                r.set_row(i);
                Recording {
                    variant: &row.variant,
                    players: &row.players,
                    out: r as &mut dyn std::io::Write,
                }
            });
            let (tally, units) = row
                .plan
                .play(
                    deals.clone(),
                    options.threads,
                    &report,
                    test.is_some(),
                    recording,
                )
                .map_err(|e| match (e, &recorder) {
                    (RunError::Write(e), Some(r)) => {
                        JobError::run_from(format!("writing {}", r.path.display()), e)
                    }
                    (e, _) => e.into(),
                })?;
            if aborted() {
                return Err(JobError::Run("the job was stopped".into()));
            }
            // The test looks after every unit, in deal order, from the
            // running counts: it decides at the first unit that crosses a
            // bound, whatever the blocks, chunks and threads.
            if let Some(test) = &mut test {
                test.walk(units.into_scores());
            }
            let saved = &mut state.rows[i];
            saved.tally.merge(&tally);
            cover(&mut saved.covered, &deals);
            done += deals.end - deals.start;
            next = deals.end;
            // No checkpoint once the test has decided: its counts would be
            // past the deciding unit. The result follows at once; a run
            // killed before it resumes from the block before, which plays
            // this block again to the same decision.
            if let Some(checkpoint) = &checkpoint
                && open(&test)
            {
                state.record = recorder
                    .as_mut()
                    .map(Recorder::checkpoint)
                    .transpose()?
                    .flatten();
                write_state(checkpoint, &state)?;
            }
            progress(Progress::Block {
                variant: &row.variant,
                players: &row.players,
                tally: &state.rows[i].tally,
                stop: test.as_ref(),
            });
        }
    }
    // A shard's tallies name its part of the record, for `merge`; a
    // whole run's name none (they are the same bytes with or without it).
    state.record = match (&recorder, &spec.dir) {
        (Some(r), Some(dir)) if shard != Shard::ALL => r.part(dir),
        _ => None,
    };
    if let Some(recorder) = recorder {
        recorder.commit()?;
    }
    // The checkpoint goes in the same commit as the result files, so no
    // crash leaves a finished result beside a checkpoint that blocks the
    // next run.
    let written = write_result(
        &state,
        spec.dir.as_deref(),
        &spec.manifest.to_toml(),
        &[CHECKPOINT],
    )?;
    let notes = claim.map(|c| c.notes).unwrap_or_default();
    Ok(Outcome::of(state, written, test, notes))
}

/// Adds the deals `deals`, which start where `covered` ends (or anywhere
/// when it is empty), to `covered`.
pub(super) fn cover(covered: &mut Vec<Range<u64>>, deals: &Range<u64>) {
    match covered.last_mut() {
        Some(last) if last.end == deals.start => last.end = deals.end,
        _ => covered.push(deals.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_blocks_start_short_and_grow_to_full_blocks() {
        let mut next = 0;
        let mut blocks = Vec::new();
        while next < 4096 {
            blocks.push(stop_block(next));
            next += stop_block(next);
        }
        assert_eq!(blocks, [64, 64, 128, 256, 512, 1024, 1024, 1024]);
    }
}
