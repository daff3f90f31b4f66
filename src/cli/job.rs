//! A job: the rows (variant × pairing) of a `match` or `run`, played into a
//! result directory, with shards, merging and resuming.
//!
//! Besides the CSV files and the manifest, a result directory keeps
//! `tallies.json`: every row's raw integer tallies, the deal ranges they
//! cover, and a fingerprint of everything that decides the results (seed,
//! profiles, rules, amount, duplicate). Because tallies merge exactly:
//!
//! - `--shard K/N` plays the K-th of N contiguous slices of every row's deals;
//!   `ginlab merge` sums shards with one fingerprint that cover every slice
//!   once, and writes what a single run writes, byte for byte;
//! - while running, the tallies of finished blocks of deals are written to
//!   `checkpoint.json` after every block; `--resume` continues from it and
//!   ends with the same files as an uninterrupted run.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use ginlab::report::chart::histogram;
use ginlab::report::{
    AtomicFile, DistributionRow, MANIFEST, Manifest, ResultFiles, SummaryRow, csv_bytes,
    distribution_rows, write_atomic,
};
use ginlab::sim::{Labels, Plan, RecordTarget, RunError, Tallies};
use serde::{Deserialize, Serialize};

use super::{Failure, progress};

/// One row: a variant and a pairing, and the plan that plays it.
pub struct Row {
    pub variant: String,
    pub players: [String; 2],
    pub plan: Plan,
}

/// `K/N`: which slice of the deals this process plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}`: a shard is K/N with 1 ≤ K ≤ N, e.g. 2/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// This shard's slice of `0..deals`.
    fn slice(self, deals: u64) -> Range<u64> {
        let at = |k: u64| (deals as u128 * k as u128 / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }
}

/// What `tallies.json` and `checkpoint.json` hold.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    /// Everything that decides the results; shards and checkpoints must match it.
    fingerprint: String,
    /// The shard this state belongs to.
    shard: Shard,
    /// Per row: the deals covered (sorted, disjoint ranges) and their tallies.
    rows: Vec<RowState>,
}

#[derive(Debug, Serialize, Deserialize)]
struct RowState {
    variant: String,
    players: [String; 2],
    seed: u64,
    covered: Vec<Range<u64>>,
    tallies: Tallies,
}

/// The fingerprint of a job: seed, profiles, rules, amount and duplicate of
/// every row, in order.
fn fingerprint(rows: &[Row]) -> String {
    rows.iter()
        .map(|r| {
            format!(
                "{} | {} | {} | {:?} | duplicate={} | seed={}\n{}",
                r.variant,
                r.plan.profiles[0],
                r.plan.profiles[1],
                work_text(&r.plan),
                r.plan.duplicate,
                r.plan.seed,
                r.plan.rules.to_toml()
            )
        })
        .collect()
}

fn work_text(plan: &Plan) -> String {
    match &plan.work {
        ginlab::sim::Work::Hands(n) => format!("hands={n}"),
        ginlab::sim::Work::Games(n) => format!("games={n}"),
        ginlab::sim::Work::Decks { decks, dealer } => {
            let all: String = decks.iter().map(|d| format!("{d}\n")).collect();
            format!("decks={} dealer={dealer} {all}", decks.len())
        }
    }
}

fn read_state(path: &Path) -> Result<State, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("reading {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| Failure::input(format!("{}: not a ginlab state file: {e}", path.display())))
}

fn write_state(path: &Path, state: &State) -> Result<(), Failure> {
    let json = serde_json::to_vec(state).map_err(|e| Failure::Run(e.into()))?;
    write_atomic(path, &json)
        .map_err(|e| Failure::Run(anyhow::anyhow!("writing {}: {e}", path.display())))
}

/// Deals per checkpoint block (the result does not depend on it).
const BLOCK: u64 = 1 << 14;

/// How a job plays its rows.
#[derive(Clone, Debug)]
pub struct Options {
    /// The slice of every row's deals to play.
    pub shard: Shard,
    /// Continue from the checkpoint.
    pub resume: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// No progress bar.
    pub quiet: bool,
    /// Write every game's record to this file (whole, once all rows are
    /// played; not with `resume`, whose earlier games are not replayed).
    pub record: Option<PathBuf>,
}

/// A game-record file being written: the lines go to a temporary file that
/// [`Recorder::commit`] puts in place whole.
pub struct Recorder {
    path: PathBuf,
    file: RecordFile,
}

/// Where a [`Recorder`]'s lines go ([`RecordTarget`]).
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
    /// Starts the record file `path` (a path that cannot be written is bad
    /// input, found before anything is played). See [`RecordTarget`]: a
    /// FIFO, a device or `-` is streamed to, a link's target is replaced,
    /// anything else that is not a regular file is refused.
    pub fn create(path: &Path) -> Result<Recorder, Failure> {
        let bad =
            |e: &dyn std::fmt::Display| Failure::input(format!("--record {}: {e}", path.display()));
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
    pub fn commit(self) -> Result<(), Failure> {
        let path = self.path;
        let done = match self.file {
            RecordFile::Whole(file) => file.commit(),
            RecordFile::Stream(mut out) => out.flush(),
        };
        done.map_err(|e| Failure::Run(anyhow::anyhow!("writing {}: {e}", path.display())))
    }
}

/// Plays `range` of `plan`'s deals; with `record`, also writes their game
/// records (labelled with the row's variant and player names) in deal order.
pub fn play_deals(
    plan: &Plan,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    record: Option<(&mut Recorder, &Labels)>,
) -> Result<Tallies, Failure> {
    match record {
        None => plan
            .run(range, threads, progress)
            .map_err(|e| Failure::Run(e.into())),
        Some((recorder, labels)) => plan
            .run_recorded(range, threads, progress, labels, &mut recorder.file)
            .map_err(|e| match e {
                RunError::Write(e) => {
                    Failure::Run(anyhow::anyhow!("writing {}: {e}", recorder.path.display()))
                }
                e => Failure::Run(e.into()),
            }),
    }
}

/// Makes sure `dir` can hold a result: an existing folder, or one that can
/// be created, that files can be written to. Checked before anything is
/// played, so a bad `--out` is bad input (exit 2), not a failure after the
/// work.
pub fn prepare_dir(dir: &Path) -> Result<(), Failure> {
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::input(format!(
            "{}: exists and is not a directory",
            dir.display()
        )));
    }
    let cannot = |e: std::io::Error| {
        Failure::input(format!(
            "{}: cannot write a result folder there: {e}",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(cannot)?;
    let probe = dir.join(format!(".ginlab-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(cannot)?;
    std::fs::remove_file(&probe).map_err(cannot)
}

/// A played job whose result files are written beside their targets but not
/// yet in place: a study adds its own table with [`Finished::add`], then
/// [`Finished::commit`] puts them all in place together (see
/// [`ResultFiles`]) and removes the checkpoint.
pub struct Finished {
    /// Each row's tallies.
    pub tallies: Vec<Tallies>,
    files: ResultFiles,
    checkpoint: Option<PathBuf>,
}

impl Finished {
    /// Adds the result file `name`.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), Failure> {
        self.files
            .add(name, bytes)
            .map_err(|e| Failure::Run(e.into()))
    }

    /// Puts the result files in place; returns the tallies.
    pub fn commit(self) -> Result<Vec<Tallies>, Failure> {
        self.files.commit().map_err(|e| Failure::Run(e.into()))?;
        if let Some(checkpoint) = self.checkpoint.filter(|c| c.exists()) {
            std::fs::remove_file(&checkpoint).map_err(|e| {
                Failure::Run(anyhow::anyhow!("removing {}: {e}", checkpoint.display()))
            })?;
        }
        Ok(self.tallies)
    }
}

impl Row {
    /// What this row's game records are labelled with.
    pub fn labels(&self) -> Labels {
        Labels {
            variant: self.variant.clone(),
            names: self.players.clone(),
        }
    }
}

/// Plays `rows` (the `options.shard` slice of them) into `dir`, resuming
/// from its checkpoint if asked; returns the result, ready to be put in place.
pub fn play(
    rows: &[Row],
    dir: &Path,
    manifest: &Manifest,
    options: &Options,
) -> Result<Finished, Failure> {
    let Options {
        shard,
        resume,
        threads,
        quiet,
        ..
    } = *options;
    prepare_dir(dir)?;
    let checkpoint = dir.join("checkpoint.json");
    let print = fingerprint(rows);
    let mut state = State {
        fingerprint: print.clone(),
        shard,
        rows: rows
            .iter()
            .map(|r| RowState {
                variant: r.variant.clone(),
                players: r.players.clone(),
                seed: r.plan.seed,
                covered: Vec::new(),
                tallies: Tallies::default(),
            })
            .collect(),
    };
    if resume {
        if !checkpoint.is_file() {
            return Err(Failure::input(format!(
                "--resume: no checkpoint in {} (nothing to resume; run without --resume)",
                dir.display()
            )));
        }
        let saved = read_state(&checkpoint)?;
        if saved.fingerprint != print || saved.shard != shard {
            return Err(Failure::input(format!(
                "--resume: the checkpoint in {} is from a different run (other players, rules, amount, seed or shard)",
                dir.display()
            )));
        }
        state = saved;
    } else if checkpoint.is_file() {
        return Err(Failure::input(format!(
            "{} holds an unfinished run: add --resume to continue it, or remove {}",
            dir.display(),
            checkpoint.display()
        )));
    }
    let slices: Vec<Range<u64>> = rows.iter().map(|r| shard.slice(r.plan.deals())).collect();
    let total: u64 = slices.iter().map(|s| s.end - s.start).sum();
    let done_before: u64 = state
        .rows
        .iter()
        .flat_map(|r| &r.covered)
        .map(|c| c.end - c.start)
        .sum();
    let mut recorder = options
        .record
        .as_deref()
        .map(Recorder::create)
        .transpose()?;
    let bar = progress::bar(total, quiet);
    bar.set_position(done_before);
    for (i, row) in rows.iter().enumerate() {
        let labels = row.labels();
        bar.set_prefix(format!(
            "{} {} v {}",
            row.variant, row.players[0], row.players[1]
        ));
        let mut next = state.rows[i]
            .covered
            .last()
            .map_or(slices[i].start, |c| c.end);
        while next < slices[i].end {
            let block = next..(next + BLOCK).min(slices[i].end);
            let offset = bar.position();
            let tallies = play_deals(
                &row.plan,
                block.clone(),
                threads,
                &|done| bar.set_position(offset + done),
                recorder.as_mut().map(|r| (r, &labels)),
            )?;
            let saved = &mut state.rows[i];
            saved.tallies.merge(&tallies);
            match saved.covered.last_mut() {
                Some(last) if last.end == block.start => last.end = block.end,
                _ => saved.covered.push(block.clone()),
            }
            next = block.end;
            write_state(&checkpoint, &state)?;
        }
    }
    bar.finish_and_clear();
    if let Some(recorder) = recorder {
        recorder.commit()?;
    }
    let (_, files) = finish(&state, dir, &manifest.to_toml())?;
    Ok(Finished {
        tallies: state.rows.into_iter().map(|r| r.tallies).collect(),
        files,
        checkpoint: Some(checkpoint),
    })
}

/// Writes the result files for a finished state (the CSVs, the charts,
/// `tallies.json` and the manifest) beside their targets.
fn finish(
    state: &State,
    dir: &Path,
    manifest_toml: &str,
) -> Result<(Vec<SummaryRow>, ResultFiles), Failure> {
    let summary: Vec<SummaryRow> = state
        .rows
        .iter()
        .map(|r| SummaryRow::new(&r.variant, &r.players[0], &r.players[1], &r.tallies, r.seed))
        .collect();
    let distribution: Vec<DistributionRow> = state
        .rows
        .iter()
        .flat_map(|r| distribution_rows(&r.variant, &r.players[0], &r.players[1], &r.tallies))
        .collect();
    let run = |e: std::io::Error| Failure::Run(e.into());
    let mut files = ResultFiles::new(dir).map_err(run)?;
    for r in &state.rows {
        for (name, svg) in histograms(r) {
            files.add(&name, svg.as_bytes()).map_err(run)?;
        }
    }
    let csv = |e: csv::Error| Failure::Run(e.into());
    let json = serde_json::to_vec(state).map_err(|e| Failure::Run(e.into()))?;
    files.add("tallies.json", &json).map_err(run)?;
    files
        .add("summary.csv", &csv_bytes(&summary).map_err(csv)?)
        .map_err(run)?;
    files
        .add("distribution.csv", &csv_bytes(&distribution).map_err(csv)?)
        .map_err(run)?;
    files.add(MANIFEST, manifest_toml.as_bytes()).map_err(run)?;
    Ok((summary, files))
}

/// Writes a result folder for one row whose deals `0..played` were played
/// outside the job runner (an SPRT that stopped early): the same files as a
/// full run, with `tallies.json` recording the deals covered.
pub fn write_partial(
    row: &Row,
    tallies: Tallies,
    played: u64,
    dir: &Path,
    manifest: &Manifest,
) -> Result<(), Failure> {
    prepare_dir(dir)?;
    let state = State {
        fingerprint: fingerprint(std::slice::from_ref(row)),
        shard: Shard::ALL,
        rows: vec![RowState {
            variant: row.variant.clone(),
            players: row.players.clone(),
            seed: row.plan.seed,
            covered: std::iter::once(0..played).collect(),
            tallies,
        }],
    };
    let (_, files) = finish(&state, dir, &manifest.to_toml())?;
    files.commit().map_err(|e| Failure::Run(e.into()))
}

/// A file-name-safe form of a row's names.
fn slug(r: &RowState) -> String {
    format!("{}-{}-vs-{}", r.variant, r.players[0], r.players[1])
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The hand-score histogram of a row, and the game-margin one for games:
/// file names and SVG text.
fn histograms(r: &RowState) -> Vec<(String, String)> {
    let mut charts = vec![(
        "hand_score",
        format!(
            "{}: {} vs {}, hand score",
            r.variant, r.players[0], r.players[1]
        ),
        "hand score from A's side (points won, or minus points lost)",
        &r.tallies.hand_score,
    )];
    if r.tallies.games > 0 {
        charts.push((
            "game_margin",
            format!(
                "{}: {} vs {}, game margin",
                r.variant, r.players[0], r.players[1]
            ),
            "game margin from A's side",
            &r.tallies.game_margin,
        ));
    }
    charts
        .into_iter()
        .map(|(metric, title, x_label, map)| {
            let counts: Vec<(i64, u64)> = map.iter().map(|(&v, &n)| (v, n)).collect();
            (
                format!("{metric}-{}.svg", slug(r)),
                histogram(&title, x_label, &counts),
            )
        })
        .collect()
}

/// `ginlab merge DIR... --out DIR`: shards of one run into its result.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<Vec<SummaryRow>, Failure> {
    if let Ok(target) = out.canonicalize()
        && let Some(input) = inputs
            .iter()
            .find(|d| d.canonicalize().is_ok_and(|d| d == target))
    {
        return Err(Failure::input(format!(
            "--out {}: is the shard {}; write the merged result to another folder",
            out.display(),
            input.display()
        )));
    }
    let mut states = Vec::new();
    let mut manifest_text = None;
    for dir in inputs {
        let path = dir.join("tallies.json");
        let state = read_state(&path)?;
        let Shard { index, count } = state.shard;
        if index == 0 || index > count {
            return Err(Failure::input(format!(
                "{}: shard {index}/{count} is not a shard (1 ≤ K ≤ N)",
                path.display()
            )));
        }
        states.push(state);
        if manifest_text.is_none() {
            manifest_text = Some(std::fs::read_to_string(dir.join(MANIFEST)).map_err(|e| {
                Failure::input(format!("reading {}/{MANIFEST}: {e}", dir.display()))
            })?);
        }
    }
    let first = &states[0];
    let count = first.shard.count;
    let mut seen = std::collections::BTreeSet::new();
    for (state, dir) in states.iter().zip(inputs) {
        if state.fingerprint != first.fingerprint || state.shard.count != count {
            return Err(Failure::input(format!(
                "{}: not a shard of the same run as {} (players, rules, amount, seed or shard count differ)",
                dir.display(),
                inputs[0].display()
            )));
        }
        if !seen.insert(state.shard.index) {
            return Err(Failure::input(format!(
                "shard {}/{count} given twice ({})",
                state.shard.index,
                dir.display()
            )));
        }
    }
    // Every index is in 1..=count and none repeats, so fewer than `count`
    // of them leave a gap among the first `seen.len() + 1`.
    if let Some(missing) = (1..=count).find(|k| !seen.contains(k)) {
        return Err(Failure::input(format!(
            "shard {missing}/{count} is missing"
        )));
    }
    prepare_dir(out)?;
    let mut merged = State {
        fingerprint: first.fingerprint.clone(),
        shard: Shard::ALL,
        rows: first
            .rows
            .iter()
            .map(|r| RowState {
                variant: r.variant.clone(),
                players: r.players.clone(),
                seed: r.seed,
                covered: Vec::new(),
                tallies: Tallies::default(),
            })
            .collect(),
    };
    for state in &states {
        for (into, from) in merged.rows.iter_mut().zip(&state.rows) {
            into.tallies.merge(&from.tallies);
            into.covered.extend(from.covered.iter().cloned());
        }
    }
    for row in &mut merged.rows {
        row.covered.sort_by_key(|r| r.start);
        row.covered.dedup_by(|b, a| {
            let touch = a.end == b.start;
            if touch {
                a.end = b.end;
            }
            touch
        });
    }
    // The first shard's manifest, with a note saying how it was merged.
    let note = format!(
        "# Merged by `{}` from {count} shards:\n{}",
        std::env::args().collect::<Vec<_>>().join(" "),
        inputs
            .iter()
            .map(|d| format!("#   {}\n", d.display()))
            .collect::<String>()
    );
    let (summary, files) = finish(
        &merged,
        out,
        &format!("{note}{}", manifest_text.expect("at least one input")),
    )?;
    files.commit().map_err(|e| Failure::Run(e.into()))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_deals() {
        for deals in [0u64, 1, 7, 100, 1001] {
            for count in 1..=9 {
                let mut next = 0;
                for index in 1..=count {
                    let s = Shard { index, count }.slice(deals);
                    assert_eq!(s.start, next);
                    next = s.end;
                }
                assert_eq!(next, deals);
            }
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().is_err());
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
    }
}
