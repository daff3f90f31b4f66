//! [`Contest`]: what one row of a job plays per deal and how it is tallied,
//! the only thing that differs between formats. The block loop, the
//! state and checkpoint, the merge and the writer are one path for every
//! format; each format implements this trait once (two players:
//! [`Plan`]; three players and partnerships: [`TablePlan`]), and says in
//! [`Contest::cannot`] what it cannot do, so every front end refuses the
//! same things with the same reason.

use std::io::Write;
use std::ops::Range;

use crate::sim::{Format, Labels, Plan, RunError, TablePlan, TableTallies, Tallies, UnitSequence};
use crate::stats::Moments;
use crate::strategy::Profile;

/// A front-end feature that a format may not support.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// A sequential test (`--sprt`): per-unit scores of one player against
    /// another.
    Sprt,
    /// Game records (`--record`) and `ginlab replay`.
    Record,
    /// Independent hands (`--hands`).
    Hands,
    /// Given deck orders (`--decks`).
    Decks,
    /// External bots (the protocol's seats).
    Bots,
}

/// What a format cannot do, and why: the one place that decides it.
/// `None` is two players, which can do everything.
#[must_use]
pub fn refusal(format: Option<Format>, feature: Feature) -> Option<String> {
    let format = format?;
    let what = match format {
        Format::Three => "a three-player game",
        Format::Partnership => "a partnership game",
    };
    Some(match feature {
        Feature::Record => return None,
        Feature::Sprt => "--sprt: a sequential test compares two players; three-player and partnership games are played to their --games count".into(),
        Feature::Hands => format!("--hands: {what} is played in whole games (its hands depend on who won the last); give --games"),
        Feature::Decks => format!("--decks: a decks file deals single hands, and {what} is played in whole games whose hands depend on who won the last (who deals, and for three players who sits out), so no file can give its decks in advance; give --games"),
        Feature::Bots => format!("external bots play two-player games only (the protocol of docs/PROTOCOL.md has two seats); {what} takes built-in strategies or profiles"),
    })
}

/// A row's tallies: integers only, so merging is exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tally {
    /// Two players, from A's side.
    Pair(Box<Tallies>),
    /// Three players or two partnerships, per side and per position.
    Table(Format, TableTallies),
}

impl Tally {
    /// Adds another tally of the same row (exact; order does not matter).
    pub fn merge(&mut self, other: &Tally) {
        match (self, other) {
            (Tally::Pair(a), Tally::Pair(b)) => a.merge(b),
            (Tally::Table(_, a), Tally::Table(_, b)) => a.merge(b),
            _ => unreachable!("a row's tallies are of its one format"),
        }
    }

    /// An empty tally of the same format.
    #[must_use]
    pub fn emptied(&self) -> Tally {
        match self {
            Tally::Pair(_) => Tally::Pair(Box::default()),
            Tally::Table(format, _) => Tally::Table(*format, TableTallies::new(*format)),
        }
    }

    /// The first identity an honest tally of `deals` deals breaks, or `None`.
    #[must_use]
    pub fn inconsistency(&self, deals: u64) -> Option<&'static str> {
        match self {
            Tally::Pair(t) => t.inconsistency(deals),
            Tally::Table(format, t) => t.inconsistency(deals, *format),
        }
    }

    /// The per-unit scores of the first player, for a sequential test
    /// (formats without them refuse [`Feature::Sprt`]).
    #[must_use]
    pub fn unit_scores(&self) -> Option<&Moments> {
        match self {
            Tally::Pair(t) => Some(&t.unit_scores),
            Tally::Table(..) => None,
        }
    }

    /// Games played, or hands when the row plays hands.
    #[must_use]
    pub fn played(&self) -> u64 {
        match self {
            Tally::Pair(t) if t.games > 0 => t.games,
            Tally::Pair(t) => t.hands,
            Tally::Table(_, t) => t.games,
        }
    }

    /// The status line of a row with these tallies so far (`stop`: the
    /// sequential test, for formats that have one).
    #[must_use]
    pub fn status_line(
        &self,
        variant: &str,
        players: &[String],
        stop: Option<&crate::stats::SprtState>,
    ) -> String {
        match self {
            Tally::Pair(t) => {
                let names = [players[0].clone(), players[1].clone()];
                crate::report::status_line(variant, &names, t, stop)
            }
            Tally::Table(format, t) => {
                crate::report::table_status_line(variant, *format, players, t)
            }
        }
    }

    /// The two-player tallies, if these are.
    #[must_use]
    pub fn pair(&self) -> Option<&Tallies> {
        match self {
            Tally::Pair(t) => Some(t),
            Tally::Table(..) => None,
        }
    }

    /// The multi-player tallies and their format, if these are.
    #[must_use]
    pub fn table(&self) -> Option<(Format, &TableTallies)> {
        match self {
            Tally::Table(format, t) => Some((*format, t)),
            Tally::Pair(_) => None,
        }
    }
}

/// Where a block's game records go: the row's names and the writer.
pub struct Recording<'a> {
    /// The row's variant.
    pub variant: &'a str,
    /// The row's players.
    pub players: &'a [String],
    /// The record file.
    pub out: &'a mut dyn Write,
}

/// One row's format: what is played per deal and how it is tallied.
///
/// A new format implements this (and adds its [`Tally`] and its result
/// rows); the block loop, checkpoints, `--resume`, shards, `merge` and the
/// writer take it as it is.
pub trait Contest: std::fmt::Debug + Send + Sync {
    /// The multi-player format, or `None` for two players.
    fn format(&self) -> Option<Format>;
    /// Deals in the whole row.
    fn deals(&self) -> u64;
    /// Games (or hands) per scoring unit: a deal's.
    fn unit_size(&self) -> u64;
    /// The master seed.
    fn seed(&self) -> u64;
    /// The players' profiles, in the row's order.
    fn profiles(&self) -> &[Profile];
    /// The empty tally of this row.
    fn empty(&self) -> Tally;
    /// Plays deals `deals` on `threads` threads (0: one per core), calling
    /// `progress` with the deals done so far. With `scored`, also each
    /// deal's unit score in deal order; with `record`, also writes each
    /// game's record in deal order (and keeps the scores).
    ///
    /// # Errors
    /// The engine error of the lowest failing deal, threads that cannot be
    /// started, a record that cannot be written.
    fn play(
        &self,
        deals: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        scored: bool,
        record: Option<Recording<'_>>,
    ) -> Result<(Tally, UnitSequence), RunError>;
    /// Everything that decides this row's results, for the job's
    /// fingerprint.
    fn fingerprint(&self, variant: &str) -> String;
    /// Why this format cannot do `feature`, or `None` when it can.
    fn cannot(&self, feature: Feature) -> Option<String> {
        refusal(self.format(), feature)
    }
}

impl Contest for Plan {
    fn format(&self) -> Option<Format> {
        None
    }

    fn deals(&self) -> u64 {
        Plan::deals(self)
    }

    fn unit_size(&self) -> u64 {
        Plan::unit_size(self)
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn profiles(&self) -> &[Profile] {
        &self.profiles
    }

    fn empty(&self) -> Tally {
        Tally::Pair(Box::default())
    }

    fn play(
        &self,
        deals: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        scored: bool,
        record: Option<Recording<'_>>,
    ) -> Result<(Tally, UnitSequence), RunError> {
        let (tallies, units) = match record {
            Some(Recording {
                variant,
                players,
                out,
            }) => {
                let labels = Labels {
                    variant: variant.to_owned(),
                    names: [players[0].clone(), players[1].clone()],
                };
                self.run_recorded(deals, threads, progress, &labels, out)?
            }
            None if scored => self.run_scored(deals, threads, progress)?,
            None => (self.run(deals, threads, progress)?, UnitSequence::default()),
        };
        Ok((Tally::Pair(Box::new(tallies)), units))
    }

    fn fingerprint(&self, variant: &str) -> String {
        let work = match &self.work {
            crate::sim::Work::Hands(n) => format!("hands={n}"),
            crate::sim::Work::Games(n) => format!("games={n}"),
            crate::sim::Work::Decks { decks, dealer } => {
                let all: String = decks.iter().map(|d| format!("{d}\n")).collect();
                format!("decks={} dealer={dealer} {all}", decks.len())
            }
        };
        format!(
            "{} | {} | {} | {:?} | duplicate={} | seed={}\n{}",
            variant,
            self.profiles[0],
            self.profiles[1],
            work,
            self.duplicate,
            self.seed,
            self.rules.to_toml()
        )
    }
}

impl Contest for TablePlan {
    fn format(&self) -> Option<Format> {
        Some(self.format)
    }

    fn deals(&self) -> u64 {
        TablePlan::deals(self)
    }

    fn unit_size(&self) -> u64 {
        TablePlan::unit_size(self)
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn profiles(&self) -> &[Profile] {
        &self.profiles
    }

    fn empty(&self) -> Tally {
        Tally::Table(self.format, TableTallies::new(self.format))
    }

    fn play(
        &self,
        deals: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        _scored: bool,
        record: Option<Recording<'_>>,
    ) -> Result<(Tally, UnitSequence), RunError> {
        let tallies = match record {
            Some(Recording {
                variant,
                players,
                out,
            }) => self.run_recorded(deals, threads, progress, (variant, players), out)?,
            None => self.run(deals, threads, progress)?,
        };
        Ok((Tally::Table(self.format, tallies), UnitSequence::default()))
    }

    fn fingerprint(&self, variant: &str) -> String {
        let profiles: Vec<String> = self.profiles.iter().map(ToString::to_string).collect();
        format!(
            "{} | {} | {} | games={} | rotate={} | seed={}\n{}",
            variant,
            self.format.name(),
            profiles.join(" | "),
            self.games,
            self.rotate,
            self.seed,
            self.rules.to_toml()
        )
    }
}
