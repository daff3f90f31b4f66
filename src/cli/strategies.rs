//! Resolving `--strategy`-style arguments: a built-in kind or inline
//! `kind:key=value,...`, a profile name from `strategies/`, or a path to a
//! profile file.

use ginlab::lab::Lab;
use ginlab::strategy::{Profile, builtin_list};

use super::Failure;

/// A resolved strategy: the profile and the name reports use.
#[derive(Clone, Debug)]
pub struct Named {
    pub profile: Profile,
    pub name: String,
}

/// Resolves `spec` for the player called `who` (for messages), its players
/// sharing `lab`. An external bot is started and must shake hands now, so a
/// wrong command is bad input (exit code 2) rather than a run of forfeits.
pub fn resolve(lab: &Lab, spec: &str, who: &str) -> Result<Named, Failure> {
    let player = ginlab::job::player(lab, spec, who)?;
    if player.profile.bot().is_some() {
        note_sandbox(lab);
    }
    Ok(Named {
        profile: player.profile,
        name: player.name,
    })
}

/// Prints, once, what the bots' sandbox could not enforce on this system.
pub fn note_sandbox(lab: &Lab) {
    if let Some(line) = lab.bots().sandbox_notice() {
        let _ =
            std::io::Write::write_all(&mut std::io::stderr(), format!("note: {line}\n").as_bytes());
    }
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
