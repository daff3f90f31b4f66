//! What several test modules share: a strategy resolver without
//! profile folders or bots, and scratch folders.

use std::path::PathBuf;

use ginlab::job::{JobError, Player};

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

/// A scratch folder path for test module `group`, case `name`, with
/// nothing at it (the tests of one run share a process id, so the module's
/// name keeps their folders apart).
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ginlab-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// [`scratch`], made: an empty folder.
pub fn fresh(group: &str, name: &str) -> PathBuf {
    let dir = scratch(group, name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
