//! A `--record` file: game records written whole at the end (a regular
//! file) or streamed (standard output, a FIFO, a device), never one of the
//! files the run writes into its folder.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::report::{AtomicFile, is_folder_file};
use crate::sim::RecordTarget;

use super::JobError;

/// A game-record file being written: a regular file is written to a
/// temporary file put in place whole at the end; standard output, a FIFO or
/// a device is streamed to ([`RecordTarget`]).
pub(super) struct Recorder {
    pub(super) path: PathBuf,
    pub(super) file: RecordFile,
}

/// Where a [`Recorder`]'s lines go.
pub(super) enum RecordFile {
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
    pub(super) fn create(path: &Path) -> Result<Recorder, JobError> {
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
