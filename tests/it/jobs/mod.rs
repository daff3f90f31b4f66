//! What several test modules share: a strategy resolver without
//! profile folders or bots, and scratch folders.

use std::path::{Path, PathBuf};

use ginlab::job::{JobError, Outcome, Player};

/// Resolves built-in kinds and inline profiles, named as they print.
pub fn resolve(spec: &str, _who: &str) -> Result<Player, JobError> {
    let profile: ginlab::strategy::Profile = spec
        .parse()
        .map_err(|e| JobError::Input(format!("{spec}: {e}")))?;
    Ok(Player {
        name: profile.to_string(),
        profile,
    })
}

/// A scratch folder for test module `group`, case `name`: its path, with
/// nothing at it when made (the tests of one run share a process id, so
/// the module's name keeps their folders apart). The folder and all in it
/// go when the value is dropped, unless the test is failing (it stays
/// for a look), so a test run leaves nothing behind.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `job::merge` of the shards in `shards` into `out` (no record),
/// `command` the command line the manifest records.
pub fn merge(shards: &[Scratch], out: &Path, command: &[&str]) -> Result<Outcome, JobError> {
    let inputs: Vec<PathBuf> = shards.iter().map(|s| s.to_path_buf()).collect();
    let command: Vec<String> = command.iter().map(|&a| a.to_owned()).collect();
    ginlab::job::merge(&inputs, out, None, &command)
}

/// [`Scratch`] for `group` and `name`, nothing at its path yet.
pub fn scratch(group: &str, name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("ginlab-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Scratch(dir)
}

/// [`scratch`], made: an empty folder.
pub fn fresh(group: &str, name: &str) -> Scratch {
    let dir = scratch(group, name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `run` (a job in the folder of a run this process interrupted),
/// tried again for a while on "in use by another ginlab run" alone: the
/// interrupted run's lock on the folder went with its file, but a `ginlab`
/// child that another test of this binary spawned at that moment holds a
/// copy of it until it execs (seen on loaded machines). Any other result
/// is returned as it is.
pub fn after_interrupt<T>(mut run: impl FnMut() -> Result<T, JobError>) -> Result<T, JobError> {
    for _ in 0..50 {
        match run() {
            Err(JobError::Input(m)) if m.contains("in use by another ginlab run") => {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            other => return other,
        }
    }
    run()
}
