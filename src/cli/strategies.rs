//! Resolving `--strategy`-style arguments: a built-in kind or inline
//! `kind:key=value,...`, a profile name from `strategies/`, or a path to a
//! profile file.

use std::path::{Path, PathBuf};

use ginlab::strategy::{Profile, ProfileError};

use super::Failure;

/// The folder of named profiles, relative to the working directory.
const PROFILE_DIR: &str = "strategies";

/// A resolved strategy: the profile and the name reports use.
#[derive(Clone, Debug)]
pub struct Named {
    pub profile: Profile,
    pub name: String,
}

fn load(path: &Path) -> Result<Named, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("reading profile {}: {e}", path.display())))?;
    let (profile, name) = Profile::from_toml(&text)
        .map_err(|e| Failure::input(format!("profile {}: {e}", path.display())))?;
    let stem = path
        .file_stem()
        .map_or("profile".into(), |s| s.to_string_lossy().into_owned());
    Ok(Named {
        profile,
        name: name.unwrap_or(stem),
    })
}

/// The profiles in `strategies/`, by name, for error messages.
fn available() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(PROFILE_DIR)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

/// Resolves `spec` for the player called `who` (for messages). An external
/// bot is started and must shake hands now, so a wrong command is bad input
/// (exit code 2) rather than a run of forfeits.
pub fn resolve(spec: &str, who: &str) -> Result<Named, Failure> {
    let named = resolve_profile(spec, who)?;
    if let Profile::External(bot) = &named.profile {
        bot.warm_up()
            .map_err(|e| Failure::input(format!("strategy {who}: {e}")))?;
    }
    Ok(named)
}

fn resolve_profile(spec: &str, who: &str) -> Result<Named, Failure> {
    match spec.parse::<Profile>() {
        Ok(profile) => {
            return Ok(Named {
                name: profile.to_string(),
                profile,
            });
        }
        // `kind:...` or a known kind with bad parameters: that error it is.
        Err(e) if !matches!(e, ProfileError::UnknownKind(_)) || spec.contains(':') => {
            return Err(Failure::input(format!("strategy {who}: {e}")));
        }
        Err(_) => {}
    }
    let named = PathBuf::from(PROFILE_DIR).join(format!("{spec}.toml"));
    if named.is_file() {
        return load(&named);
    }
    let path = Path::new(spec);
    if path.is_file() {
        return load(path);
    }
    let list = available();
    let profiles = if list.is_empty() {
        "none found in ./strategies".to_owned()
    } else {
        list.join(", ")
    };
    Err(Failure::input(format!(
        "strategy {who}: `{spec}` is not a built-in kind (random, simple, greedy, tracker, mc), an inline profile \
         (kind:key=value,...), an external bot (exec:COMMAND), a profile in strategies/ ({profiles}), or a profile file"
    )))
}
