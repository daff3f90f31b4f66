//! A job's inputs by name, read the same way by every front end (the CLI,
//! Python): rules (a preset or a rules file, plus `knob=value` overrides)
//! and the variants they name, strategy arguments (built-in kinds, inline
//! profiles, names in `strategies/`, profile files, external bots), and the
//! capped text files they come from. The messages name the CLI's flags,
//! which every front end's arguments mirror.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::echo::echo;
use crate::engine::Deck;
use crate::lab::Lab;
use crate::rules::{PRESETS, Rules};
use crate::strategy::{Profile, ProfileError, builtin_kinds, builtin_list};
use crate::suggest::did_you_mean;

use super::{JobError, Player, given_once};

/// A kind of input and the most bytes ginlab reads of it.
#[derive(Clone, Copy, Debug)]
pub struct Cap {
    /// What the input is, for messages: "rules file".
    pub what: &'static str,
    /// The most bytes allowed.
    pub bytes: u64,
}

const MIB: u64 = 1 << 20;

/// A rules file (`--rules FILE`, `ginlab rules FILE`).
pub const RULES_FILE: Cap = Cap {
    what: "rules file",
    bytes: MIB,
};
/// An experiment spec (`ginlab run FILE`).
pub const SPEC_FILE: Cap = Cap {
    what: "experiment spec",
    bytes: MIB,
};
/// A strategy profile file.
pub const PROFILE_FILE: Cap = Cap {
    what: "profile",
    bytes: MIB,
};

/// A `--decks` file (a deck line is about 160 bytes: some 400,000 decks).
pub const DECKS_FILE: Cap = Cap {
    what: "decks file",
    bytes: 64 * MIB,
};

/// The deck orders of a `--decks` file (`decks=` in Python): one deck a
/// line, 52 cards top first; blank lines and `#` comments skipped.
///
/// # Errors
/// [`JobError::Input`]: the file cannot be read, is over its cap, has a
/// line that is not a deck (naming the line), or holds no deck.
pub fn decks(path: &Path) -> Result<Vec<Deck>, JobError> {
    let text = DECKS_FILE.read_file(path)?;
    let mut decks = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let deck: Deck = line
            .parse()
            .map_err(|e| JobError::Input(format!("{} line {}: {e}", path.display(), number + 1)))?;
        decks.push(deck);
    }
    if decks.is_empty() {
        return Err(JobError::Input(format!(
            "{}: no deck orders in the file",
            path.display()
        )));
    }
    Ok(decks)
}

impl Cap {
    /// The cap for people: `1 MiB`, `4 KiB`.
    #[must_use]
    pub fn size(&self) -> String {
        if self.bytes >= MIB {
            format!("{} MiB", self.bytes / MIB)
        } else if self.bytes >= 1024 {
            format!("{} KiB", self.bytes / 1024)
        } else {
            format!("{} bytes", self.bytes)
        }
    }

    /// The message for `source` (a file name or "standard input") being
    /// over the cap.
    #[must_use]
    pub fn too_big(&self, source: &str) -> String {
        format!(
            "{source}: more than {}, the {} limit (docs/CLI.md lists the input limits)",
            self.size(),
            self.what
        )
    }

    /// All of `reader` as UTF-8 text, at most the cap; `source` names it.
    ///
    /// # Errors
    /// [`JobError::Input`]: a read error, too many bytes, or bad UTF-8
    /// (naming the line).
    pub fn read_text(&self, reader: impl Read, source: &str) -> Result<String, JobError> {
        let mut bytes = Vec::new();
        reader
            .take(self.bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| JobError::Input(format!("reading {} {source}: {e}", self.what)))?;
        if bytes.len() as u64 > self.bytes {
            return Err(JobError::Input(self.too_big(source)));
        }
        String::from_utf8(bytes).map_err(|e| {
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            JobError::Input(not_utf8(source, line))
        })
    }

    /// The file at `path` as UTF-8 text, at most the cap.
    ///
    /// # Errors
    /// As [`Cap::read_text`], or a file that cannot be opened.
    pub fn read_file(&self, path: &Path) -> Result<String, JobError> {
        let source = path.display().to_string();
        let file = File::open(path)
            .map_err(|e| JobError::Input(format!("reading {} {source}: {e}", self.what)))?;
        self.read_text(file, &source)
    }
}

/// The message for line `line` of `source` not being UTF-8.
#[must_use]
pub fn not_utf8(source: &str, line: u64) -> String {
    format!("{source} line {line}: not UTF-8 text (ginlab reads UTF-8 only)")
}

/// The rules `name` names (a preset, or a rules file by path) with the
/// `knob=value` `overrides` applied, validated.
///
/// # Errors
/// [`JobError::Input`] naming the flag (`--rules`, `--rule`) and what is
/// allowed.
pub fn rules(name: &str, overrides: &[String]) -> Result<Rules, JobError> {
    let mut rules = load_rules(name)?;
    rules
        .set_all_from_text(overrides)
        .map_err(|(assignment, e)| JobError::Input(format!("--rule {}: {e}", echo(assignment))))?;
    rules
        .validate()
        .map_err(|e| JobError::Input(format!("rules: {e}")))?;
    Ok(rules)
}

/// A preset by name, or a rules file by path.
fn load_rules(name: &str) -> Result<Rules, JobError> {
    if PRESETS.contains(&name) {
        return Rules::preset(name).map_err(|e| JobError::Input(e.to_string()));
    }
    let path = Path::new(name);
    if !path.exists() {
        return Err(JobError::Input(format!(
            "--rules {}: not a preset (standard, hoyle, oklahoma, eaai) and no such file{}",
            echo(name),
            did_you_mean(name, PRESETS)
        )));
    }
    let text = RULES_FILE.read_file(path)?;
    Rules::from_toml(&text)
        .map_err(|e| JobError::Input(format!("rules file {}: {e}", path.display())))
}

/// The variant a `match` plays: the rules `name` (a preset, or a file's
/// stem) with `overrides` joined by `+`, and its rules.
///
/// # Errors
/// As [`rules`].
pub fn match_variant(name: &str, overrides: &[String]) -> Result<(String, Rules), JobError> {
    let rules = rules(name, overrides)?;
    let base = Path::new(name)
        .file_stem()
        .map_or(name.to_owned(), |s| s.to_string_lossy().into_owned());
    let variant = std::iter::once(base)
        .chain(overrides.iter().cloned())
        .collect::<Vec<_>>()
        .join("+");
    Ok((variant, rules))
}

/// The variants of a study: each of `names` (default `standard`) a preset
/// or a rules file, named by its stem, with every override applied.
///
/// # Errors
/// As [`rules`], or two variants of one name (their rows' files would
/// overwrite each other).
pub fn study_variants(
    names: &[String],
    overrides: &[String],
) -> Result<Vec<(String, Rules)>, JobError> {
    let names = if names.is_empty() {
        vec!["standard".to_owned()]
    } else {
        names.to_vec()
    };
    let variants: Vec<(String, Rules)> = names
        .iter()
        .map(|name| {
            let rules = rules(name, overrides)?;
            let stem = Path::new(name)
                .file_stem()
                .map_or(name.clone(), |s| s.to_string_lossy().into_owned());
            Ok((stem, rules))
        })
        .collect::<Result<_, JobError>>()?;
    let stems: Vec<String> = variants.iter().map(|(stem, _)| stem.clone()).collect();
    given_once("--rules", &names, &stems, "variant")?;
    Ok(variants)
}

/// The folder of named profiles, relative to the working directory.
const PROFILE_DIR: &str = "strategies";

/// Resolves the strategy argument `spec` for the player called `who` (for
/// messages), its players sharing `lab`: a built-in kind or inline
/// `kind:key=value,...`, a profile name from `strategies/`, a profile file,
/// or an external bot, which is started and must shake hands now, so a wrong command is bad input
/// rather than a run of forfeits.
///
/// # Errors
/// [`JobError::Input`] naming the argument and what is allowed.
pub fn player(lab: &Lab, spec: &str, who: &str) -> Result<Player, JobError> {
    let mut player = profile_player(spec, who)?;
    player.profile = player.profile.in_lab(lab);
    if let Some(bot) = player.profile.bot() {
        let hello = bot
            .warm_up()
            .map_err(|e| JobError::Input(format!("strategy {who}: {e}")))?;
        // An inline bot is called by the name it gave (a profile file's
        // `name`, or its file name, was chosen by the user).
        if player.name == player.profile.to_string() {
            player.name = hello.name;
        }
    }
    Ok(player)
}

fn load_profile(path: &Path) -> Result<Player, JobError> {
    let text = PROFILE_FILE.read_file(path)?;
    let (profile, name) = Profile::from_toml(&text)
        .map_err(|e| JobError::Input(format!("profile {}: {e}", path.display())))?;
    let stem = path
        .file_stem()
        .map_or("profile".into(), |s| s.to_string_lossy().into_owned());
    // Reports print the name: control characters in it (an ESC that would
    // drive the terminal) are escaped, as every input ginlab echoes is.
    Ok(Player {
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

fn profile_player(spec: &str, who: &str) -> Result<Player, JobError> {
    match spec.parse::<Profile>() {
        Ok(profile) => {
            return Ok(Player {
                name: profile.to_string(),
                profile,
            });
        }
        // `kind:...` or a known kind with bad parameters: that error it is.
        Err(e) if !matches!(e, ProfileError::UnknownKind(_)) || spec.contains(':') => {
            return Err(JobError::Input(format!("strategy {who}: {e}")));
        }
        Err(_) => {}
    }
    let named = PathBuf::from(PROFILE_DIR).join(format!("{spec}.toml"));
    if named.is_file() {
        return load_profile(&named);
    }
    let path = Path::new(spec);
    if path.is_file() {
        return load_profile(path);
    }
    let shown = echo(spec);
    // Written as a path: a profile file, which is missing.
    if spec.contains(['/', '\\']) || spec.ends_with(".toml") {
        let what = if path.exists() {
            "is not a file"
        } else {
            "is missing (no such file)"
        };
        return Err(JobError::Input(format!(
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
    Err(JobError::Input(format!(
        "strategy {who}: `{shown}` is not a built-in kind ({kinds}), an inline profile \
         (kind:key=value,...), an external bot (exec:COMMAND), a profile in strategies/ ({profiles}), \
         or a profile file{hint}",
        kinds = builtin_list(),
        hint = did_you_mean(spec, names),
    )))
}
