//! `ginlab chart DIR`: a result folder's charts, re-made from its own
//! `tallies.json`.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::{Failure, write_stdout};

#[derive(Debug, Args)]
pub struct ChartArgs {
    /// A finished result folder (with tallies.json and manifest.toml).
    dir: PathBuf,
    /// Where to write the charts (default: DIR itself).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(args: ChartArgs) -> Result<(), Failure> {
    let written = ginlab::job::remake_views(&args.dir, args.out.as_deref())?;
    let out = args.out.as_ref().unwrap_or(&args.dir);
    let mut text = String::new();
    for name in &written {
        let _ = writeln!(text, "{}", out.join(name).display());
    }
    write_stdout(text.as_bytes())
}
