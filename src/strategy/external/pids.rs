//! A bot's process count when ginlab runs as root: a pids cgroup of its
//! own. Linux exempts root (the initial namespace's user 0) from
//! `RLIMIT_NPROC` whatever its capabilities, so the launcher's limit does
//! not bind a bot started by root; the kernel's pids controller does. The
//! host creates one group per bot process, `ginlab-PID-N`, beside this
//! process's own group in the pids hierarchy (cgroup v1's `pids`, or v2
//! where the controller is enabled for it), sets its `pids.max`, and the
//! launcher moves itself into it before it becomes the bot. The group is
//! removed when the bot has ended; groups left by a ginlab that was
//! killed are removed by the next one to probe (only empty ones can be).

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The prefix of the groups ginlab creates.
const PREFIX: &str = "ginlab-";

/// The folder this process's pids groups go in, if this process can make
/// a group there with a `pids.max` (probed once, by making and removing
/// one).
pub(super) fn base() -> Option<&'static Path> {
    static BASE: OnceLock<Option<PathBuf>> = OnceLock::new();
    BASE.get_or_init(|| {
        let base = candidates().into_iter().find(|dir| {
            let probe = dir.join(format!("{PREFIX}{}-probe", std::process::id()));
            let made = fs::create_dir(&probe).is_ok();
            let limits = made && probe.join("pids.max").is_file();
            if made {
                let _ = fs::remove_dir(&probe);
            }
            limits
        })?;
        remove_stale(&base);
        Some(base)
    })
    .as_deref()
}

/// This process's group in each hierarchy that may hold the pids
/// controller, from `/proc/self/cgroup` and `/proc/self/mountinfo`: v1's
/// `pids` first, then v2's unified one.
fn candidates() -> Vec<PathBuf> {
    let (Ok(groups), Ok(mounts)) = (
        fs::read_to_string("/proc/self/cgroup"),
        fs::read_to_string("/proc/self/mountinfo"),
    ) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for v1 in [true, false] {
        for line in groups.lines() {
            // "ID:CONTROLLERS:PATH"; v2's line has no controllers.
            let mut parts = line.splitn(3, ':');
            let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let wanted = if v1 {
                controllers.split(',').any(|c| c == "pids")
            } else {
                controllers.is_empty()
            };
            if !wanted {
                continue;
            }
            found.extend(mounts.lines().filter_map(|mount| mount_of(mount, v1, path)));
        }
    }
    found
}

/// Where the group `path` is if `mount` (a line of mountinfo: "ID PARENT
/// DEV ROOT POINT OPTIONS ... - TYPE SOURCE SUPER-OPTIONS") mounts the
/// pids hierarchy (`v1`) or the unified one.
fn mount_of(mount: &str, v1: bool, path: &str) -> Option<PathBuf> {
    let (fields, tail) = mount.split_once(" - ")?;
    let fields: Vec<&str> = fields.split(' ').collect();
    let tail: Vec<&str> = tail.split(' ').collect();
    let is_it = match (v1, tail.first()) {
        (true, Some(&"cgroup")) => tail.get(2)?.split(',').any(|o| o == "pids"),
        (false, Some(&"cgroup2")) => true,
        _ => false,
    };
    if !is_it {
        return None;
    }
    let (root, point) = (fields.get(3)?, fields.get(4)?);
    let inside = path
        .strip_prefix(root.trim_end_matches('/'))
        .filter(|inside| inside.is_empty() || inside.starts_with('/'))?;
    Some(Path::new(point).join(inside.trim_start_matches('/')))
}

/// Removes the groups in `base` that a ginlab process no longer running
/// made (it was killed before it could): only empty groups can go, so a
/// group in use stays.
fn remove_stale(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|n| n.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if owner != std::process::id() && !Path::new(&format!("/proc/{owner}")).exists() {
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// One bot process's pids group, removed when dropped (once the bot has
/// ended).
#[derive(Debug)]
pub(super) struct PidsGroup(PathBuf);

impl PidsGroup {
    /// A new group allowing `limit` processes and threads, if this system
    /// has a pids hierarchy this process can write.
    ///
    /// # Errors
    /// The group cannot be made or limited.
    pub(super) fn new(limit: u64) -> std::io::Result<Option<PidsGroup>> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let Some(base) = base() else {
            return Ok(None);
        };
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("{PREFIX}{}-{n}", std::process::id()));
        fs::create_dir(&dir)?;
        let group = PidsGroup(dir);
        fs::write(group.0.join("pids.max"), limit.to_string())?;
        Ok(Some(group))
    }

    /// The group's folder (the launcher writes its pid in `cgroup.procs`).
    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for PidsGroup {
    /// Removes the group; the bot was killed and reaped, but the processes
    /// it started may take a moment to go. One that outlives the bot's
    /// process group (a daemon that called `setsid`) keeps the group until
    /// ginlab ends it; the next ginlab removes the empty group.
    fn drop(&mut self) {
        for _ in 0..20 {
            match fs::remove_dir(&self.0) {
                Err(e) if e.kind() != ErrorKind::NotFound => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return,
            }
        }
    }
}

/// Moves this process (the launcher) into the group at `dir`.
///
/// # Errors
/// The group's `cgroup.procs` cannot be written.
pub(super) fn join(dir: &Path) -> Result<(), String> {
    fs::write(dir.join("cgroup.procs"), std::process::id().to_string())
        .map_err(|e| format!("cannot join the pids group {}: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mounts_are_read() {
        let v1 = "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids";
        assert_eq!(
            mount_of(v1, true, "/a/b"),
            Some(PathBuf::from("/sys/fs/cgroup/pids/a/b"))
        );
        assert_eq!(mount_of(v1, false, "/a/b"), None);
        let v2 = "41 31 0:38 /ns /sys/fs/cgroup rw - cgroup2 cgroup2 rw";
        assert_eq!(
            mount_of(v2, false, "/ns/x"),
            Some(PathBuf::from("/sys/fs/cgroup/x"))
        );
        let memory = "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory";
        assert_eq!(mount_of(memory, true, "/"), None);
    }
}
