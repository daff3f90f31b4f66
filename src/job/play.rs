//! The block loop: plays a [`JobSpec`]'s rows block by block, writing a
//! checkpoint after each block and stopping early when a stopping rule
//! decides.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::report::{
    AtomicFile, CHECKPOINT, RatingRow, SideRow, StudyRows, SummaryRow, check_result_names,
    check_writable, create_private_dir, finish_interrupted_commit, is_folder_file,
};
use crate::sim::{Plan, RecordTarget, RunError, TableTallies, Tallies, UnitSequence};
use crate::stats::{Sprt, SprtDecision, SprtState};

use super::output::{Rows, write_result};
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

/// How a job is played.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The slice of every row's deals to play (`None`: all).
    pub shard: Option<Shard>,
    /// Continue from the checkpoint.
    pub resume: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Write every game's record to this file (whole, once all rows are
    /// played; not with `resume`, whose earlier games are not replayed).
    pub record: Option<PathBuf>,
    /// Stop as soon as this test decides (one row only).
    pub stop: Option<Sprt>,
    /// Deals per block (default 16,384 with a folder, else the whole row;
    /// with `stop`, from 64 up to [`STOP_BLOCK`]): checkpoints and
    /// [`Progress::Block`] come after each. The result does not depend on it.
    pub block: Option<u64>,
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
        players: &'a [String; 2],
        /// Its tallies so far.
        tallies: &'a Tallies,
        /// The stopping rule's test, up to the unit it decided at (if it
        /// has).
        stop: Option<&'a SprtState>,
    },
}

/// A finished job, its files in place.
#[derive(Debug)]
pub struct Outcome {
    /// Each row's tallies.
    pub tallies: Vec<Tallies>,
    /// The rows of `summary.csv` (what the terminal shows, too).
    pub summary: Vec<SummaryRow>,
    /// The study's table, if the job is a study.
    pub study: Option<StudyRows>,
    /// The rating list (`ratings.csv`), for a match of three or more players.
    pub ratings: Option<Vec<RatingRow>>,
    /// The stopping rule's result, if one was given: its decision, and the
    /// LLR and units at the unit it decided at (at the end when the deals
    /// ran out first). The tallies may hold more units: the rest of the
    /// block it decided in.
    pub stopped: Option<SprtState>,
    /// What the job found and repaired in its folder, for the user.
    pub notes: Vec<String>,
    /// Each three-player or partnership row's tallies.
    pub table_tallies: Vec<TableTallies>,
    /// The rows of a three-player or partnership `summary.csv`: per player
    /// or team.
    pub sides: Vec<SideRow>,
    /// The rows of `seats.csv`: per position relative to the first dealer.
    pub seats: Vec<SideRow>,
}

/// Makes sure `dir` can hold a result: an existing folder, or one that can
/// be created, that files can be written to. Checked before anything is
/// played, so a bad folder is bad input, not a failure after the work.
///
/// # Errors
/// [`JobError::Input`] naming the folder.
pub fn prepare_dir(dir: &Path) -> Result<(), JobError> {
    if dir.exists() && !dir.is_dir() {
        return Err(JobError::Input(format!(
            "{}: exists and is not a directory",
            dir.display()
        )));
    }
    let cannot = |e: std::io::Error| {
        JobError::Input(format!(
            "{}: cannot write a result folder there: {e}",
            dir.display()
        ))
    };
    create_private_dir(dir).map_err(cannot)?;
    check_writable(dir).map_err(cannot)
}

/// A result folder held by this process ([`claim_dir`]).
#[derive(Debug)]
pub struct Claim {
    /// The open folder, locked until dropped (or the process ends however
    /// it ends).
    _lock: std::fs::File,
    /// Notes for the user: a commit an interrupted run left, finished.
    pub notes: Vec<String>,
}

/// Prepares `dir` ([`prepare_dir`]), locks it for this process, finishes a
/// commit of result files that a killed run left half done, and removes the
/// temporary files a killed run left there.
///
/// # Errors
/// [`JobError::Input`]: the folder cannot be used, or another run holds
/// it, or it holds a commit journal ginlab did not write.
pub fn claim_dir(dir: &Path) -> Result<Claim, JobError> {
    prepare_dir(dir)?;
    let handle = std::fs::File::open(dir)
        .map_err(|e| JobError::Input(format!("{}: cannot open the folder: {e}", dir.display())))?;
    match handle.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(JobError::Input(format!(
                "{} is in use by another ginlab run; wait for it to end, or write to another folder",
                dir.display()
            )));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(JobError::Input(format!(
                "{}: cannot lock the folder: {e}",
                dir.display()
            )));
        }
    }
    // Holding the lock, no other run is writing here. A run killed while
    // putting its files in place left its journal: finish its commit, so
    // the folder holds its result whole. Then a `.NAME.tmp-N` of a file
    // ginlab writes is left from a run that was killed.
    check_result_names(dir).map_err(JobError::Input)?;
    let mut notes = Vec::new();
    if finish_interrupted_commit(dir).map_err(|e| JobError::Input(e.to_string()))? {
        notes.push(format!(
            "{}: completed the result files of an earlier run that was interrupted while writing them",
            dir.display()
        ));
    }
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = name
            .strip_prefix('.')
            .and_then(|rest| rest.rsplit_once(".tmp-"))
            .is_some_and(|(target, pid)| {
                !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) && is_folder_file(target)
            });
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(Claim {
        _lock: handle,
        notes,
    })
}

/// A game-record file being written: a regular file is written to a
/// temporary file put in place whole at the end; standard output, a FIFO or
/// a device is streamed to ([`RecordTarget`]).
struct Recorder {
    path: PathBuf,
    file: RecordFile,
}

/// Where a [`Recorder`]'s lines go.
enum RecordFile {
    /// A regular file, written whole and renamed into place.
    Whole(AtomicFile),
    /// Standard output, a FIFO or a device, written as it goes.
    Stream(Box<dyn Write>),
}

impl Write for RecordFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self {
            RecordFile::Whole(file) => file.write(bytes),
            RecordFile::Stream(out) => out.write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            RecordFile::Whole(file) => file.flush(),
            RecordFile::Stream(out) => out.flush(),
        }
    }
}

impl Recorder {
    /// Starts the record `path` (what cannot be written safely is bad
    /// input, found before anything is played). See [`RecordTarget`]: a
    /// FIFO, a device or `-` is streamed to, a link's target is replaced,
    /// anything else that is not a regular file is refused.
    fn create(path: &Path) -> Result<Recorder, JobError> {
        let bad = |e: &dyn std::fmt::Display| {
            JobError::Input(format!("--record {}: {e}", path.display()))
        };
        let file = match RecordTarget::of(path).map_err(|e| bad(&e))? {
            RecordTarget::Stdout => RecordFile::Stream(Box::new(std::io::stdout())),
            RecordTarget::Stream(target) => RecordFile::Stream(Box::new(std::io::BufWriter::new(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(target)
                    .map_err(|e| bad(&format_args!("cannot write it: {e}")))?,
            ))),
            RecordTarget::File(target) => RecordFile::Whole(
                AtomicFile::create(&target)
                    .map_err(|e| bad(&format_args!("cannot write it: {e}")))?,
            ),
        };
        Ok(Recorder {
            path: path.to_owned(),
            file,
        })
    }

    /// Puts the finished file in place (a stream is flushed).
    fn commit(self) -> Result<(), JobError> {
        let path = self.path;
        let done = match self.file {
            RecordFile::Whole(file) => file.commit(),
            RecordFile::Stream(mut out) => out.flush(),
        };
        done.map_err(|e| JobError::Run(format!("writing {}: {e}", path.display())))
    }
}

/// Refuses what cannot work together, before anything is played.
fn check(spec: &JobSpec, options: &Options) -> Result<(), JobError> {
    if !spec.tables.is_empty() {
        if options.stop.is_some() {
            return Err(JobError::Input(
                "--sprt: a sequential test compares two players; three-player and partnership games are played to their --games count".into(),
            ));
        }
        if options.record.is_some() {
            return Err(JobError::Input(
                "--record: game records and `ginlab replay` hold two-player games only; three-player and partnership games cannot be recorded yet (run without --record)".into(),
            ));
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
    if options.record.is_some() && (options.resume || options.shard.is_some()) {
        return Err(JobError::Input(
            "--record plays every game of the run: not with --shard or --resume".into(),
        ));
    }
    Ok(())
}

/// Refuses a `--record` file that is one of the files the job keeps in
/// `dir` (a result file, the checkpoint, the journal), or a link to one:
/// it would be overwritten, or block the folder.
fn record_outside(record: &Path, dir: &Path) -> Result<(), JobError> {
    let link = std::fs::symlink_metadata(record).is_ok_and(|m| m.file_type().is_symlink());
    let target = link.then(|| std::fs::canonicalize(record).ok()).flatten();
    let dir_path = dir.canonicalize().ok();
    for path in std::iter::once(record).chain(target.as_deref()) {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let same_folder = dir_path.is_some() && parent.canonicalize().ok() == dir_path;
        if same_folder && is_folder_file(&name) {
            let how = if path == record {
                "is".to_owned()
            } else {
                format!("is a link to {}, which is", path.display())
            };
            return Err(JobError::Input(format!(
                "--record {}: {how} one of the files the run writes into {}; record to another file",
                record.display(),
                dir.display()
            )));
        }
    }
    Ok(())
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
    let print = fingerprint(&spec.rows, &spec.tables, options.stop.as_ref());
    let mut state = State::new(
        &spec.rows,
        &spec.tables,
        &spec.study,
        spec.anchor.clone(),
        print.clone(),
        shard,
    );
    let checkpoint = spec.dir.as_ref().map(|d| d.join(CHECKPOINT));
    let claim = spec.dir.as_deref().map(claim_dir).transpose()?;
    if let (Some(dir), Some(record)) = (&spec.dir, &options.record) {
        record_outside(record, dir)?;
    }
    if let Some(checkpoint) = &checkpoint {
        let dir = checkpoint.parent().unwrap_or(Path::new("."));
        if options.resume {
            if !checkpoint.is_file() {
                return Err(JobError::Input(format!(
                    "--resume: no checkpoint in {} (nothing to resume; run without --resume)",
                    dir.display()
                )));
            }
            let saved = read_state(checkpoint)?;
            saved.check_version(checkpoint)?;
            if saved.fingerprint != print || saved.shard != shard {
                return Err(JobError::Input(format!(
                    "--resume: the checkpoint in {} is from a different run (other players, rules, amount, seed, stopping rule or shard)",
                    dir.display()
                )));
            }
            if saved.rows.len() != spec.rows.len() || saved.tables.len() != spec.tables.len() {
                return Err(JobError::Input(format!(
                    "{}: holds {} rows, the run has {}; the file was edited or damaged",
                    checkpoint.display(),
                    saved.rows.len() + saved.tables.len(),
                    spec.rows.len() + spec.tables.len()
                )));
            }
            for (row, r) in saved.rows.iter().zip(&spec.rows) {
                row.check(checkpoint, &shard.slice(r.plan.deals()), false)?;
            }
            for (row, r) in saved.tables.iter().zip(&spec.tables) {
                row.check(checkpoint, &shard.slice(r.plan.deals()), false)?;
            }
            // The anchor only presents the result: this run's applies.
            state = State {
                anchor: spec.anchor.clone(),
                ..saved
            };
        } else if checkpoint.is_file() {
            return Err(JobError::Input(format!(
                "{} holds an unfinished run: add --resume to continue it, or remove {}",
                dir.display(),
                checkpoint.display()
            )));
        }
    }
    let slices: Vec<Range<u64>> = spec
        .rows
        .iter()
        .map(|r| shard.slice(r.plan.deals()))
        .collect();
    let mut recorder = options
        .record
        .as_deref()
        .map(Recorder::create)
        .transpose()?;
    // The deals of the block that starts at deal `next`.
    let block = |next: u64| match (options.stop, &checkpoint) {
        (Some(_), _) => stop_block(next),
        (None, Some(_)) => options.block.unwrap_or(BLOCK).max(1),
        (None, None) => options.block.unwrap_or(u64::MAX).max(1),
    };
    let table_slices: Vec<Range<u64>> = spec
        .tables
        .iter()
        .map(|r| shard.slice(r.plan.deals()))
        .collect();
    let total: u64 = slices
        .iter()
        .chain(&table_slices)
        .map(|s| s.end - s.start)
        .sum();
    let mut done = state.done();
    progress(Progress::Start { total, done });
    // The test (one row only) goes on from the units a checkpoint holds,
    // none of them past a decision (a block that decides gets none).
    let mut test = options.stop.map(|sprt| {
        let plan = &spec.rows[0].plan;
        SprtState::at(sprt, state.rows[0].tallies.unit_scores, plan.unit_size())
    });
    let open = |test: &Option<SprtState>| test.is_none_or(|t| t.decision == SprtDecision::Continue);
    for (i, row) in spec.rows.iter().enumerate() {
        let labels = row.labels();
        progress(Progress::Row {
            variant: &row.variant,
            players: &row.players,
        });
        let mut next = state.rows[i]
            .covered
            .last()
            .map_or(slices[i].start, |c| c.end);
        while next < slices[i].end && open(&test) {
            let deals = next..next.saturating_add(block(next)).min(slices[i].end);
            let offset = done;
            let report = |n: u64| progress(Progress::Done(offset + n));
            let (tallies, units) = play_block(
                &row.plan,
                deals.clone(),
                options.threads,
                &report,
                recorder.as_mut().map(|r| (r, &labels)),
                test.is_some(),
            )?;
            // The test looks after every unit, in deal order, from the
            // running counts: it decides at the first unit that crosses a
            // bound, whatever the blocks, chunks and threads.
            if let Some(test) = &mut test {
                test.walk(units.into_scores());
            }
            let saved = &mut state.rows[i];
            saved.tallies.merge(&tallies);
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
                write_state(checkpoint, &state)?;
            }
            progress(Progress::Block {
                variant: &row.variant,
                players: &row.players,
                tallies: &state.rows[i].tallies,
                stop: test.as_ref(),
            });
        }
    }
    for (i, row) in spec.tables.iter().enumerate() {
        progress(Progress::Row {
            variant: &row.variant,
            players: &row.players,
        });
        let mut next = state.tables[i]
            .covered
            .last()
            .map_or(table_slices[i].start, |c| c.end);
        while next < table_slices[i].end {
            let deals = next..next.saturating_add(block(next)).min(table_slices[i].end);
            let offset = done;
            let report = |n: u64| progress(Progress::Done(offset + n));
            let tallies = row.plan.run(deals.clone(), options.threads, &report)?;
            let saved = &mut state.tables[i];
            saved.tallies.merge(&tallies);
            cover(&mut saved.covered, &deals);
            done += deals.end - deals.start;
            next = deals.end;
            if let Some(checkpoint) = &checkpoint {
                write_state(checkpoint, &state)?;
            }
        }
    }
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
            tallies: state.rows.into_iter().map(|r| r.tallies).collect(),
            summary: rows.summary,
            study: rows.study,
            ratings: rows.ratings,
            stopped,
            notes,
            table_tallies: state.tables.into_iter().map(|r| r.tallies).collect(),
            sides: rows.sides,
            seats: rows.seats,
        }
    }
}

/// Plays `range` of `plan`'s deals; with `record`, also writes their game
/// records (labelled with the row's names) in deal order. With `scored` (or
/// `record`) the units' scores in deal order come too, else none.
fn play_block(
    plan: &Plan,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    record: Option<(&mut Recorder, &crate::sim::Labels)>,
    scored: bool,
) -> Result<(Tallies, UnitSequence), JobError> {
    match record {
        None if scored => Ok(plan.run_scored(range, threads, progress)?),
        None => Ok((plan.run(range, threads, progress)?, UnitSequence::default())),
        Some((recorder, labels)) => plan
            .run_recorded(range, threads, progress, labels, &mut recorder.file)
            .map_err(|e| match e {
                RunError::Write(e) => {
                    JobError::Run(format!("writing {}: {e}", recorder.path.display()))
                }
                e => e.into(),
            }),
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
