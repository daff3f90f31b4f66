//! `ginlab compare BASE ARM`: two records of the same deals, one player
//! changed, compared game by game (the library's `sim::Comparison`).

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use ginlab::sim::{Compared, ComparedRow, Comparison, Mode};

use super::Failure;
use super::input::{CapRead, RECORD_LINE};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The base player's record (`ginlab match BASE OPPONENT --record FILE`,
    /// or `ginlab run --record`).
    base: PathBuf,
    /// The other player's record: the same command and seed with only the
    /// first player changed.
    arm: PathBuf,
    /// Print the result as one line of JSON instead of the table.
    #[arg(long)]
    json: bool,
}

/// Reads both records in step and prints the paired comparison.
pub fn run(args: CompareArgs) -> Result<(), Failure> {
    let open = |path: &PathBuf| {
        File::open(path)
            .map(BufReader::new)
            .map_err(|e| Failure::input(format!("reading record file {}: {e}", path.display())))
    };
    let (mut base, mut arm) = (open(&args.base)?, open(&args.arm)?);
    let sources = [&args.base, &args.arm].map(|p| format!("record file {}", p.display()));
    let (mut base_line, mut arm_line) = (Vec::new(), Vec::new());
    let mut comparison = Comparison::new();
    let mut number = 0u64;
    loop {
        let more_base =
            RECORD_LINE.read_line(&mut base, &mut base_line, &sources[0], number + 1)?;
        let more_arm = RECORD_LINE.read_line(&mut arm, &mut arm_line, &sources[1], number + 1)?;
        match (more_base, more_arm) {
            (false, false) => break,
            (true, true) => {}
            (ended, _) => {
                let (short, long) = if ended {
                    (&args.arm, &args.base)
                } else {
                    (&args.base, &args.arm)
                };
                return Err(Failure::input(format!(
                    "{} ends after {number} lines but {} goes on: the records are not of the \
                     same games",
                    short.display(),
                    long.display()
                )));
            }
        }
        number += 1;
        let (b, a) = (
            utf8(&base_line, &args.base, number)?,
            utf8(&arm_line, &args.arm, number)?,
        );
        comparison.add(b, a, number).map_err(|e| {
            Failure::input(format!(
                "{} and {} line {number}: {e}",
                args.base.display(),
                args.arm.display()
            ))
        })?;
    }
    let compared = comparison.finish().map_err(|e| {
        Failure::input(format!(
            "{} and {}: {e}",
            args.base.display(),
            args.arm.display()
        ))
    })?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json(&compared))?;
    } else {
        write!(out, "{}", table(&compared))?;
    }
    out.flush()?;
    Ok(())
}

/// Line `number` of the record at `path` as text.
fn utf8<'l>(line: &'l [u8], path: &Path, number: u64) -> Result<&'l str, Failure> {
    std::str::from_utf8(line)
        .map_err(|_| Failure::input(format!("{} line {number}: not UTF-8 text", path.display())))
}

/// `games` or `hands`, what the score counts.
fn noun(mode: Mode) -> &'static str {
    match mode {
        Mode::Games => "games",
        Mode::Hands | Mode::Decks => "hands",
    }
}

/// The comparison as a table: a line per row (and the rows pooled).
fn table(c: &Compared) -> String {
    let mut s = format!(
        "base {}\narm  {}\n{} won on the same deals; arm - base paired by deal, \
         95 % interval, in percentage points\n",
        c.base_player,
        c.arm_player,
        noun(c.mode),
    );
    let rows: Vec<&ComparedRow> = c.rows.iter().chain(&c.all).collect();
    let width = rows
        .iter()
        .map(|r| label(r).chars().count())
        .max()
        .unwrap_or(0);
    for r in rows {
        let interval = match r.interval {
            Some((lo, hi)) => format!("[{:+.1}, {:+.1}]", 100.0 * lo, 100.0 * hi),
            None => "[no interval: too few deals]".to_owned(),
        };
        s += &format!(
            "{:width$}  {} deals ({} {})  base {:.1} %  arm {:.1} %  arm - base {:+.1} {interval}\n",
            label(r),
            r.units,
            r.games,
            noun(c.mode),
            100.0 * r.base,
            100.0 * r.arm,
            100.0 * r.difference,
        );
    }
    s
}

/// A row's name: its variant and opponent.
fn label(r: &ComparedRow) -> String {
    if r.variant == "all" && r.opponent == "all" {
        "all rows".to_owned()
    } else {
        format!("{} against {}", r.variant, r.opponent)
    }
}

/// The comparison as one JSON object (rates as fractions).
fn json(c: &Compared) -> serde_json::Value {
    let row = |r: &ComparedRow| {
        serde_json::json!({
            "variant": r.variant,
            "opponent": r.opponent,
            "deals": r.units,
            noun(c.mode): r.games,
            "base": r.base,
            "arm": r.arm,
            "difference": r.difference,
            "lo": r.interval.map(|i| i.0),
            "hi": r.interval.map(|i| i.1),
        })
    };
    serde_json::json!({
        "mode": c.mode.name(),
        "base_player": c.base_player,
        "arm_player": c.arm_player,
        "rows": c.rows.iter().map(row).collect::<Vec<_>>(),
        "all": c.all.as_ref().map(row),
    })
}
