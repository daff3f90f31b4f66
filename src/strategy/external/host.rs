//! [`BotHost`]: what the bots of one front end share, owned by that front
//! end (the `ginlab` command's `main`, a Python process) through its
//! [`Lab`](crate::lab::Lab), never by a static: the command line's bot
//! options, the sandbox launcher and its one notice, the default log
//! folder, the running process groups and the thread that starts bots.
//!
//! The parts are read and written by the modules that own each concept
//! (`sandbox.rs`, `logs.rs`, `process.rs`), each in its own `impl`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use super::sandbox::BotOptions;

/// What the bots of one front end share (see the module docs). Every
/// [`Bot`](super::Bot) holds its host; a bot made outside a front end's
/// lab has a host of its own.
#[derive(Default)]
pub struct BotHost {
    /// The command line's settings for every bot (`--sandbox`,
    /// `--handshake-ms`).
    pub(super) options: Mutex<BotOptions>,
    /// The command that runs [`super::launcher::run`] when given
    /// [`super::LAUNCHER_ARG`]; `None`: no sandbox.
    pub(super) launcher: Mutex<Option<Vec<OsString>>>,
    /// What the sandbox could not enforce, and whether that was said.
    pub(super) notice: Mutex<(Option<String>, bool)>,
    /// The default log folder, created on first use.
    pub(super) logs: Mutex<Option<tempfile::TempDir>>,
    /// Whether the default log folder outlives the host: a bot failed.
    pub(super) keep_logs: AtomicBool,
    /// The next `bot-N.log` number to try.
    pub(super) next_log: AtomicU64,
    /// Bytes of bots' stderr dropped over their logs' caps.
    pub(super) dropped: AtomicU64,
    /// Whether a bot was ever started (else there are no orphans to end).
    pub(super) spawned: AtomicBool,
    /// The thread that starts bots (Linux: see `process::die_with_parent`).
    pub(super) spawner: Mutex<Option<Sender<super::process::SpawnRequest>>>,
    /// The process groups (the bots' pids) of the bots started and not yet
    /// ended.
    pub(super) groups: Mutex<BTreeSet<u32>>,
}

impl BotHost {
    /// A host with no launcher (bots run without a sandbox until
    /// [`BotHost::set_launcher`]), default options and nothing started.
    #[must_use]
    pub fn new() -> Arc<BotHost> {
        Arc::new(BotHost::default())
    }
}

impl fmt::Debug for BotHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotHost").finish_non_exhaustive()
    }
}

/// The host's default log folder goes with it, unless a bot failed (its
/// log says why): then it stays.
impl Drop for BotHost {
    fn drop(&mut self) {
        self.finish_logs();
    }
}

/// A lock's guard, poisoned or not (a panicking bot thread leaves the data
/// whole: each holder writes one field at a time).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
