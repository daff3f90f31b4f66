//! Rules on the command line: `--rules NAME|FILE` plus `--rule knob=value`,
//! shared by every command that plays or scores; and `ginlab rules`.

use clap::Args;
use ginlab::rules::Rules;

use super::{Failure, write_stdout};

/// The rules flags every playing or scoring command takes.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Rule preset (standard, hoyle, oklahoma, eaai) or a TOML rules file
    /// (`preset = "NAME"` plus knob overrides).
    #[arg(long, value_name = "NAME|FILE", default_value = "standard")]
    pub rules: String,
    /// Override one knob, e.g. `--rule gin_bonus=25 --rule knock_limit=upcard`
    /// (repeatable; see `ginlab rules` for the knobs).
    #[arg(long = "rule", value_name = "KNOB=VALUE")]
    pub overrides: Vec<String>,
}

impl RulesArgs {
    /// The rules these flags name, validated.
    pub fn resolve(&self) -> Result<Rules, Failure> {
        Ok(ginlab::job::rules(&self.rules, &self.overrides)?)
    }
}

/// `ginlab rules [NAME|FILE] [--rule knob=value]...`
#[derive(Debug, Args)]
pub struct PrintRulesArgs {
    /// Preset name or TOML rules file to print.
    #[arg(value_name = "NAME|FILE", default_value = "standard")]
    rules: String,
    /// Override one knob before printing (repeatable).
    #[arg(long = "rule", value_name = "KNOB=VALUE")]
    overrides: Vec<String>,
    /// Explain every knob: its value here, what it does, what it takes and
    /// its standard value (docs/RULES.md has the rules in full).
    #[arg(long)]
    explain: bool,
}

pub fn run(args: PrintRulesArgs) -> Result<(), Failure> {
    let rules = RulesArgs {
        rules: args.rules,
        overrides: args.overrides,
    }
    .resolve()?;
    let text = if args.explain {
        rules.explain()
    } else {
        rules.to_toml()
    };
    write_stdout(text.as_bytes())
}
