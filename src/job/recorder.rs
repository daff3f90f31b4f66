//! A `--record` file: game records written whole at the end (a regular
//! file) or streamed (standard output, a FIFO, a device), never one of the
//! files the run writes into its folder.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::report::{AtomicFile, is_folder_file};
use crate::sim::RecordTarget;

use super::JobError;
use super::state::RecordState;

/// A game-record file being written: a regular file is written to a
/// temporary file put in place whole at the end; standard output, a FIFO or
/// a device is streamed to ([`RecordTarget`]). It counts each row's bytes
/// and digests them all, so a checkpoint can say what the file holds so far
/// ([`Recorder::checkpoint`]) and a shard what its part is
/// ([`Recorder::part`]).
pub(super) struct Recorder {
    pub(super) path: PathBuf,
    file: RecordFile,
    /// A regular file's resolved path (its folder made absolute); `None`
    /// for a stream.
    resolved: Option<PathBuf>,
    hasher: blake3::Hasher,
    rows: Vec<u64>,
    row: usize,
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

impl Write for Recorder {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(bytes)?;
        self.hasher.update(&bytes[..n]);
        self.rows[self.row] += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// `path` with its folder made absolute, as checkpoints name a record.
fn resolved(path: &Path) -> Option<PathBuf> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(parent.canonicalize().ok()?.join(path.file_name()?))
}

impl Recorder {
    /// Starts the record `path` of a job of `rows` rows (what cannot be
    /// written safely is bad input, found before anything is played). See
    /// [`RecordTarget`]: a FIFO, a device or `-` is streamed to, a link's
    /// target is replaced, anything else that is not a regular file is
    /// refused.
    pub(super) fn create(path: &Path, rows: usize) -> Result<Recorder, JobError> {
        let bad = |e: &dyn std::fmt::Display| {
            JobError::Input(format!("--record {}: {e}", path.display()))
        };
        let (file, resolved) = match RecordTarget::of(path).map_err(|e| bad(&e))? {
            RecordTarget::Stdout => (RecordFile::Stream(Box::new(std::io::stdout())), None),
            RecordTarget::Stream(target) => (
                RecordFile::Stream(Box::new(std::io::BufWriter::new(
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(target)
                        .map_err(|e| bad(&format_args!("cannot write it: {e}")))?,
                ))),
                None,
            ),
            RecordTarget::File(target) => (
                RecordFile::Whole(
                    AtomicFile::create(&target)
                        .map_err(|e| bad(&format_args!("cannot write it: {e}")))?,
                ),
                resolved(&target),
            ),
        };
        Ok(Recorder {
            path: path.to_owned(),
            file,
            resolved,
            hasher: blake3::Hasher::new(),
            rows: vec![0; rows],
            row: 0,
        })
    }

    /// Continues the record `path` that the checkpoint `checkpoint` names
    /// as `saved`: its temporary file is checked against the checkpoint
    /// (its first bytes, their digest), cut to them (a block played after
    /// the checkpoint is played again) and written on.
    pub(super) fn resume(
        path: &Path,
        saved: &RecordState,
        checkpoint: &Path,
    ) -> Result<Recorder, JobError> {
        let bad = |e: &dyn std::fmt::Display| {
            JobError::Input(format!("--record {}: {e}", path.display()))
        };
        let RecordTarget::File(target) = RecordTarget::of(path).map_err(|e| bad(&e))? else {
            return Err(bad(
                &"--resume continues a record file, and this is a stream",
            ));
        };
        let here = resolved(&target);
        if here.as_deref() != Some(saved.file.as_path()) {
            return Err(bad(&format_args!(
                "{} continues the record {}, not this file; give --record {}",
                checkpoint.display(),
                saved.file.display(),
                saved.file.display()
            )));
        }
        let Some(partial) = &saved.partial else {
            return Err(bad(&format_args!(
                "{} names no partial record; the file was edited or damaged",
                checkpoint.display()
            )));
        };
        let mut hasher = blake3::Hasher::new();
        let len = saved.bytes();
        let file = AtomicFile::resume(&target, partial, len, |file| {
            use std::io::Read as _;
            let read = std::io::copy(&mut file.take(len), &mut hasher)?;
            if read < len {
                return Err(std::io::Error::other(format!(
                    "it holds {read} bytes, the checkpoint {len}"
                )));
            }
            if hasher.finalize().to_hex().as_str() != saved.blake3 {
                return Err(std::io::Error::other(
                    "its lines differ from those the checkpoint records",
                ));
            }
            Ok(())
        })
        .map_err(|e| {
            let folder = target.parent().map(|p| p.join(partial)).unwrap_or_default();
            bad(&format_args!(
                "the partial record {} does not match {} ({e}); remove both to run again without --resume",
                folder.display(),
                checkpoint.display()
            ))
        })?;
        Ok(Recorder {
            path: path.to_owned(),
            file: RecordFile::Whole(file),
            resolved: here,
            hasher,
            rows: saved.rows.clone(),
            row: 0,
        })
    }

    /// Lines written from now on belong to row `row`.
    pub(super) fn set_row(&mut self, row: usize) {
        self.row = row;
    }

    fn written(&self, file: PathBuf, partial: Option<String>) -> RecordState {
        RecordState {
            file,
            partial,
            rows: self.rows.clone(),
            blake3: self.hasher.finalize().to_hex().to_string(),
        }
    }

    /// What the record holds so far, for a checkpoint, with its lines
    /// flushed and its temporary file kept should the run stop before the
    /// end; `None` for a stream, which cannot be continued.
    pub(super) fn checkpoint(&mut self) -> Result<Option<RecordState>, JobError> {
        self.flush()
            .map_err(|e| JobError::run_from(format!("writing {}", self.path.display()), e))?;
        let (RecordFile::Whole(file), Some(resolved)) = (&mut self.file, &self.resolved) else {
            return Ok(None);
        };
        file.keep();
        let partial = file.temp_name().to_owned();
        Ok(Some(self.written(resolved.clone(), Some(partial))))
    }

    /// The shard's part of the record, for its `tallies.json`: the file
    /// relative to the shard's folder `dir` when it is inside it, else
    /// absolute.
    pub(super) fn part(&self, dir: &Path) -> Option<RecordState> {
        let resolved = self.resolved.as_ref()?;
        let file = dir
            .canonicalize()
            .ok()
            .and_then(|d| resolved.strip_prefix(d).ok().map(Path::to_owned))
            .unwrap_or_else(|| resolved.clone());
        Some(self.written(file, None))
    }

    /// Puts the finished file in place (a stream is flushed).
    pub(super) fn commit(self) -> Result<(), JobError> {
        let path = self.path;
        let done = match self.file {
            RecordFile::Whole(file) => file.commit(),
            RecordFile::Stream(mut out) => out.flush(),
        };
        done.map_err(|e| JobError::run_from(format!("writing {}", path.display()), e))
    }
}

/// Refuses a `--record` file that is one of the files the job keeps in
/// `dir` (a result file, the checkpoint, the journal), or a link to one:
/// it would be overwritten, or block the folder.
pub(super) fn record_outside(record: &Path, dir: &Path) -> Result<(), JobError> {
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
