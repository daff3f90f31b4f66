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

/// An empty scratch folder path for test `group`, case `name`.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ginlab-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
