//! A result folder: made ready to be written, and held by one process
//! at a time, with what a killed run left there cleaned up.

use std::path::Path;

use crate::report::{
    check_result_names, check_writable, create_private_dir, finish_interrupted_commit,
    is_folder_file,
};

use super::JobError;

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
    let handle = std::fs::File::open(dir).map_err(|e| {
        JobError::input_from(format!("{}: cannot open the folder", dir.display()), e)
    })?;
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
