//! `ginlab replay FILE [--game N] [--check]`: re-simulates the game records
//! that `--record` wrote, checks every recorded result, and prints each
//! game's omniscient transcript.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;

use clap::Args;
use ginlab::sim;

use super::Failure;
use super::input::{CapRead, RECORD_LINE};

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A record file written by `ginlab match --record` or `ginlab run
    /// --record`: one JSON line per game (per hand when playing hands).
    file: PathBuf,
    /// Only game N: the record on line N of the file, counting from 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    game: Option<u64>,
    /// Check the records but print only the closing summary line, no
    /// transcripts.
    #[arg(long)]
    check: bool,
}

/// Replays the records in order, writing each transcript once its game has
/// been checked; stops at the first record that does not replay (exit 2),
/// so nothing of that game is printed.
pub fn run(args: ReplayArgs) -> Result<(), Failure> {
    let path = args.file.display();
    let file = File::open(&args.file)
        .map_err(|e| Failure::input(format!("reading record file {path}: {e}")))?;
    let mut out = io::stdout().lock();
    let (mut lines, mut games, mut hands) = (0u64, 0u64, 0u64);
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    let source = format!("record file {path}");
    let mut sequence = sim::RecordCheck::new();
    while RECORD_LINE.read_line(&mut reader, &mut line, &source, lines + 1)? {
        lines += 1;
        if args.game.is_some_and(|n| n != lines) {
            continue;
        }
        let at = |what: String| Failure::input(format!("{path} line {lines}: {what}"));
        let text = std::str::from_utf8(&line).map_err(|_| at("not UTF-8 text".into()))?;
        if text.trim().is_empty() {
            return Err(at(
                "an empty line; every line of a record file is one game".into()
            ));
        }
        // One game alone is checked by itself; the whole file also line
        // against line (order, labels, rules).
        let replay = match args.game {
            Some(_) => sim::replay(text, lines),
            None => sequence.replay(text, lines),
        }
        .map_err(|e| at(e.to_string()))?;
        games += 1;
        hands += replay.hands as u64;
        if !args.check {
            writeln!(out, "{}", replay.transcript)?;
        }
        if args.game.is_some() {
            break;
        }
    }
    if args.game.is_none() {
        sequence
            .finish()
            .map_err(|e| Failure::input(format!("{path}: {e}")))?;
    }
    match args.game {
        _ if lines == 0 => {
            return Err(Failure::input(format!(
                "{path}: no game records (the file is empty)"
            )));
        }
        Some(n) if games == 0 => {
            return Err(Failure::input(format!(
                "--game {n}: {path} holds {} (lines 1 to {lines})",
                count(lines, "game")
            )));
        }
        Some(n) => writeln!(
            out,
            "replayed game {n} ({}) of {path}: every result matches the record",
            count(hands, "hand")
        )?,
        None => writeln!(
            out,
            "replayed {} ({}) of {path}: every result matches the record",
            count(games, "game"),
            count(hands, "hand")
        )?,
    }
    out.flush()?;
    Ok(())
}

/// `1 hand`, `2 hands`.
fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
