//! [`Bot`]: the shared side of an external profile, its spec and a pool
//! of idle processes handed to games.

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::{BotError, BotHost, BotProcess, BotSpec, External};
use crate::protocol::BotHello;

/// The shared side of an external profile: its spec and the idle processes.
pub struct Bot {
    pub(super) spec: BotSpec,
    /// Where its processes start, log and are ended.
    pub(super) host: Arc<BotHost>,
    pub(super) idle: Mutex<Vec<BotProcess>>,
    started: AtomicU64,
    pub(super) failures: AtomicU64,
}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bot")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Bot {
    fn eq(&self, other: &Bot) -> bool {
        self.spec == other.spec
    }
}

impl Bot {
    /// A bot for `spec` whose processes `host` starts; no process starts
    /// (and no log folder is made) until one is needed.
    #[must_use]
    pub fn new(spec: BotSpec, host: &Arc<BotHost>) -> Bot {
        Bot {
            spec,
            host: Arc::clone(host),
            idle: Mutex::new(Vec::new()),
            started: AtomicU64::new(0),
            failures: AtomicU64::new(0),
        }
    }

    /// The spec.
    #[must_use]
    pub fn spec(&self) -> &BotSpec {
        &self.spec
    }

    /// The host its processes start from.
    #[must_use]
    pub fn host(&self) -> &Arc<BotHost> {
        &self.host
    }

    /// Where the processes' logs are written: one file per process,
    /// `bot-N.log` (N unique in the folder, whichever bot or seat the
    /// process plays), holding the bot's stderr and ginlab's notes. The
    /// profile's `log_dir`, else its host's [`BotHost::default_log_dir`].
    ///
    /// # Errors
    /// The default folder cannot be created.
    pub fn log_dir(&self) -> Result<PathBuf, BotError> {
        match &self.spec.log_dir {
            Some(dir) => Ok(dir.clone()),
            None => self.host.default_log_dir(),
        }
    }

    /// Processes started so far (restarts included).
    #[must_use]
    pub fn processes_started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }

    /// Games the bot failed so far (each killed its process).
    #[must_use]
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    fn start(&self) -> Result<BotProcess, BotError> {
        let slot = self.started.fetch_add(1, Ordering::Relaxed);
        let log = self.host.new_log_file(&self.log_dir()?).map_err(|(path, e)| {
            self.host.keep_logs();
            BotError::Log {
                path: path.display().to_string(),
                reason: e.to_string(),
            }
        })?;
        BotProcess::start(&self.host, &self.spec, &log, slot)
            .inspect_err(|_| self.host.keep_logs())
    }

    /// Starts one process and keeps it idle: a check that the bot runs and
    /// shakes hands, before a run relies on it.
    ///
    /// # Errors
    /// As [`BotProcess::start`].
    pub fn warm_up(&self) -> Result<BotHello, BotError> {
        let process = self.start()?;
        let hello = process.hello().clone();
        self.idle.lock().expect("the pool lock").push(process);
        Ok(hello)
    }

    /// Tells every idle process to quit: `Some(true)` if all exited by
    /// themselves in time ([`BotProcess::quit_grace`]), `None` if none was
    /// idle.
    pub fn quit_idle(&self) -> Option<bool> {
        let idle: Vec<BotProcess> = std::mem::take(&mut *self.idle.lock().expect("the pool lock"));
        if idle.is_empty() {
            return None;
        }
        let mut clean = true;
        for mut process in idle {
            let grace = process.quit_grace().as_millis();
            if !process.quit() {
                process.note(&format!("did not exit within {grace} ms of quit; killed"));
                clean = false;
            }
        }
        Some(clean)
    }

    fn take_idle(&self) -> Option<BotProcess> {
        let mut idle = self.idle.lock().expect("the pool lock");
        while let Some(mut process) = idle.pop() {
            if process.alive() {
                return Some(process);
            }
            process.note("found dead while idle; starting another");
        }
        None
    }

    /// A player for one game: an idle process, or a new one. If none can be
    /// started the player forfeits at its first decision.
    #[must_use]
    pub fn checkout(self: &Arc<Bot>, seed: u64) -> External {
        let (process, failure) = match self.take_idle().map_or_else(|| self.start(), Ok) {
            Ok(process) => (Some(process), None),
            Err(e) => {
                self.failures.fetch_add(1, Ordering::Relaxed);
                self.host.keep_logs();
                (None, Some(e.to_string()))
            }
        };
        let name = process
            .as_ref()
            .map_or_else(|| self.spec.command_line(), |p| p.hello().name.clone());
        External {
            bot: Arc::clone(self),
            process,
            name,
            seed,
            failure,
            in_game: false,
            hands: 0,
            next_id: 1,
        }
    }
}

