//! Where bots' stderr goes: one `bot-N.log` per process, in the profile's
//! `log_dir` or in one private temporary folder per [`BotHost`], kept
//! only when a bot failed.

use std::fs::{self, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use super::BotError;
use super::host::{BotHost, lock};

impl BotHost {
    /// The default log folder of this host: created on first use with an
    /// unpredictable name, readable by its owner only (mode 0700), by the
    /// `tempfile` crate (which never follows a link planted at the name),
    /// and shared by every bot of the host.
    ///
    /// # Errors
    /// The temporary directory cannot be written.
    pub fn default_log_dir(&self) -> Result<PathBuf, BotError> {
        let mut logs = lock(&self.logs);
        if logs.is_none() {
            let mut builder = tempfile::Builder::new();
            builder.prefix("ginlab-bots-");
            #[cfg(unix)]
            builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
            let dir = builder.tempdir().map_err(|e| BotError::Log {
                path: std::env::temp_dir().display().to_string(),
                reason: format!("cannot create a log folder there: {e}"),
            })?;
            *logs = Some(dir);
        }
        Ok(logs.as_ref().expect("just created").path().to_owned())
    }

    /// Keeps the default log folder when the host finishes (see
    /// [`BotHost::finish_logs`]): a bot failed and its log tells why.
    pub fn keep_logs(&self) {
        self.keep_logs.store(true, Ordering::Relaxed);
    }

    /// Whether the default log folder will be kept by [`BotHost::finish_logs`].
    #[must_use]
    pub fn logs_kept(&self) -> bool {
        self.keep_logs.load(Ordering::Relaxed)
    }

    /// At the end of a command: removes the default log folder unless
    /// [`BotHost::keep_logs`] was called; returns the folder if it is kept.
    /// (A folder given in a profile's `log_dir` is the user's and always
    /// stays.) Dropping the host does the same.
    pub fn finish_logs(&self) -> Option<PathBuf> {
        let dir = lock(&self.logs).take()?;
        if self.logs_kept() {
            Some(dir.keep())
        } else {
            // Removal failing (someone else's file in it) leaves the folder.
            let _ = dir.close();
            None
        }
    }

    /// Creates the next free `bot-N.log` in `dir` (creating `dir` if need
    /// be), with `create_new`, so that no two processes share a file, an
    /// earlier run's log is never appended to, and a link planted at the
    /// name is never followed. Returns the path, or the path and the error.
    pub(super) fn new_log_file(&self, dir: &Path) -> Result<PathBuf, (PathBuf, std::io::Error)> {
        fs::create_dir_all(dir).map_err(|e| (dir.to_owned(), e))?;
        loop {
            let n = self.next_log.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!("bot-{n}.log"));
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(_) => return Ok(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err((path, e)),
            }
        }
    }

    /// Bytes of stderr that bots of this host wrote over their
    /// `max_log_bytes` caps, dropped so far (each log says its own count).
    #[must_use]
    pub fn stderr_dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// Copies a bot's stderr to its log until it closes, keeping the first
/// `cap` bytes; the rest is dropped and counted, and the log says so when
/// the cap is reached and how much was dropped at the end.
/// Each dropped byte is also counted in `dropped_total` (the host's).
pub(super) fn capped_copy(
    mut stderr: impl std::io::Read,
    log: &Path,
    cap: u64,
    dropped_total: &std::sync::atomic::AtomicU64,
) {
    use std::io::Write;
    let Ok(mut file) = OpenOptions::new().append(true).open(log) else {
        // No log: still drain the pipe, so that the bot never blocks on it.
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
        return;
    };
    let mut kept = 0u64;
    let mut dropped = 0u64;
    let mut buf = [0u8; 8192];
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let keep = usize::try_from(cap.saturating_sub(kept)).map_or(n, |room| room.min(n));
        if keep > 0 && file.write_all(&buf[..keep]).is_err() {
            // A full disk: count the rest as dropped.
            kept = cap;
        } else {
            kept += keep as u64;
        }
        if keep < n {
            if dropped == 0 {
                let _ = writeln!(
                    file,
                    "\n== ginlab: the log reached its cap of {cap} bytes (max_log_bytes); \
                     the rest of the bot's stderr is dropped and counted"
                );
            }
            dropped += (n - keep) as u64;
            dropped_total.fetch_add((n - keep) as u64, Ordering::Relaxed);
        }
    }
    if dropped > 0 {
        let _ = writeln!(
            file,
            "== ginlab: {dropped} bytes of stderr dropped over the cap of {cap} bytes"
        );
    }
}
