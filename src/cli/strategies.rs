//! Resolving `--strategy`-style arguments: a built-in kind or inline
//! `kind:key=value,...`, a profile name from `strategies/`, or a path to a
//! profile file.

use std::path::{Path, PathBuf};

use ginlab::echo::echo;
use ginlab::lab::Lab;
use ginlab::strategy::{Profile, ProfileError, builtin_kinds, builtin_list};
use ginlab::suggest::did_you_mean;

use super::Failure;
use super::input::PROFILE_FILE;

/// The folder of named profiles, relative to the working directory.
const PROFILE_DIR: &str = "strategies";

/// A resolved strategy: the profile and the name reports use.
#[derive(Clone, Debug)]
pub struct Named {
    pub profile: Profile,
    pub name: String,
}

fn load(path: &Path) -> Result<Named, Failure> {
    let text = PROFILE_FILE.read_file(path)?;
    let (profile, name) = Profile::from_toml(&text)
        .map_err(|e| Failure::input(format!("profile {}: {e}", path.display())))?;
    let stem = path
        .file_stem()
        .map_or("profile".into(), |s| s.to_string_lossy().into_owned());
    // Reports print the name: control characters in it (an ESC that would
    // drive the terminal) are escaped, as every input ginlab echoes is.
    Ok(Named {
        profile,
        name: echo(&name.unwrap_or(stem)),
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

/// Resolves `spec` for the player called `who` (for messages), its players
/// sharing `lab`. An external bot is started and must shake hands now, so a
/// wrong command is bad input (exit code 2) rather than a run of forfeits.
pub fn resolve(lab: &Lab, spec: &str, who: &str) -> Result<Named, Failure> {
    let mut named = resolve_profile(spec, who)?;
    named.profile = named.profile.in_lab(lab);
    if let Some(bot) = named.profile.bot() {
        let hello = bot
            .warm_up()
            .map_err(|e| Failure::input(format!("strategy {who}: {e}")))?;
        note_sandbox(lab);
        // An inline bot is called by the name it gave (a profile file's
        // `name`, or its file name, was chosen by the user).
        if named.name == named.profile.to_string() {
            named.name = hello.name;
        }
    }
    Ok(named)
}

/// Prints, once, what the bots' sandbox could not enforce on this system.
pub fn note_sandbox(lab: &Lab) {
    if let Some(line) = lab.bots().sandbox_notice() {
        let _ =
            std::io::Write::write_all(&mut std::io::stderr(), format!("note: {line}\n").as_bytes());
    }
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
    let shown = echo(spec);
    // Written as a path: a profile file, which is missing.
    if spec.contains(['/', '\\']) || spec.ends_with(".toml") {
        let what = if path.exists() {
            "is not a file"
        } else {
            "is missing (no such file)"
        };
        return Err(Failure::input(format!(
            "strategy {who}: the profile file `{shown}` {what}"
        )));
    }
    let list = available();
    let profiles = if list.is_empty() {
        "none found in ./strategies".to_owned()
    } else {
        list.join(", ")
    };
    let mut names: Vec<&str> = builtin_kinds().collect();
    names.extend(list.iter().map(String::as_str));
    Err(Failure::input(format!(
        "strategy {who}: `{shown}` is not a built-in kind ({kinds}), an inline profile \
         (kind:key=value,...), an external bot (exec:COMMAND), a profile in strategies/ ({profiles}), \
         or a profile file{hint}",
        kinds = builtin_list(),
        hint = did_you_mean(spec, names),
    )))
}

/// The help text of a strategy argument (`role`: what it is for), listing
/// the kinds from the table of kinds so that it cannot fall behind them.
pub fn strategy_help(role: &str) -> String {
    format!(
        "{role}: a built-in kind ({}), inline `kind:key=value,...` such as `greedy:knock_at=7`, \
         a profile name from strategies/ (`greedy-k7`), a profile file, or an external \
         bot `exec:COMMAND` (docs/PROTOCOL.md)",
        builtin_list()
    )
}
