//! `ginlab showdown`: resolve a knock, one or a batch of them.

use std::fmt::Write as _;

use anyhow::Context as _;
use clap::Args;
use ginlab::engine::{HandScore, Side, score_showdown};
use ginlab::meld::{self, HandSpec, Showdown};
use ginlab::{Card, CardSet, Rules};

use super::input::{BATCH, CapRead};
use super::rules::RulesArgs;
use super::{Failure, write_stdout};

#[derive(Debug, Args)]
pub struct ShowdownArgs {
    /// The knocker's 10 cards (11 for big gin). Plain cards: the knocker
    /// arranges them as is best for it. Bracket notation such as
    /// `[3C 3H 3S] [4S 5S 6S] AC 6C AS 2S`: spread exactly as given.
    #[arg(long, required_unless_present = "batch", conflicts_with = "batch")]
    knocker: Option<String>,
    /// The defender's 10 cards.
    #[arg(long, required_unless_present = "batch", conflicts_with = "batch")]
    defender: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
    /// The hand's upcard, for Oklahoma (knock limit, ace = gin only, spade doubling).
    #[arg(long)]
    upcard: Option<String>,
    /// Read `knocker,defender` CSV rows from standard input (a header row
    /// `knocker,defender` is optional) and write `knocker,defender,
    /// knocker_deadwood,defender_deadwood,layoffs,winner,points`.
    #[arg(long)]
    batch: bool,
}

/// The rules and upcard of a run, resolved once.
struct Table {
    rules: Rules,
    upcard: Option<Card>,
    knock_limit: u8,
}

impl Table {
    fn new(args: &ShowdownArgs) -> Result<Table, Failure> {
        let rules = args.rules.resolve()?;
        let upcard = match &args.upcard {
            Some(text) => Some(
                text.parse::<Card>()
                    .map_err(|e| Failure::input(format!("--upcard: {e}")))?,
            ),
            None => None,
        };
        let knock_limit = rules.knock_limit_for(upcard).map_err(|e| {
            Failure::input(format!(
                "--rules {}: {e}: give it with --upcard, e.g. --upcard 7H",
                args.rules.rules
            ))
        })?;
        Ok(Table {
            rules,
            upcard,
            knock_limit,
        })
    }

    /// Parses both hands and resolves the showdown; errors name the hand.
    fn resolve(&self, knocker: &str, defender: &str) -> Result<(Showdown, HandScore), String> {
        let spec: HandSpec = knocker.parse().map_err(|e| format!("knocker: {e}"))?;
        let defender: CardSet = defender.parse().map_err(|e| format!("defender: {e}"))?;
        if let Some(upcard) = self
            .upcard
            .filter(|&c| spec.cards().contains(c) || defender.contains(c))
        {
            return Err(format!("the upcard {upcard} cannot also be in a hand"));
        }
        if spec.cards().len() == 11 && self.rules.big_gin_bonus.is_none() {
            return Err("the knocker has 11 cards, but these rules do not allow big gin".into());
        }
        let showdown = match spec {
            HandSpec::Cards(cards) => meld::showdown(cards, defender, self.knock_limit),
            HandSpec::Arranged(arrangement) => {
                meld::showdown_with(arrangement, defender, self.knock_limit)
            }
        }
        .map_err(|e| e.to_string())?;
        let score = score_showdown(&showdown, &self.rules, self.upcard);
        Ok((showdown, score))
    }
}

fn winner_name(score: &HandScore) -> &'static str {
    match score.winner {
        Some(Side::Knocker) => "knocker",
        Some(Side::Defender) => "defender",
        None => "none",
    }
}

pub fn run(args: ShowdownArgs) -> Result<(), Failure> {
    let table = Table::new(&args)?;
    if args.batch {
        return batch(&table);
    }
    let (knocker, defender) = (
        args.knocker.unwrap_or_default(),
        args.defender.unwrap_or_default(),
    );
    let (showdown, score) = table.resolve(&knocker, &defender).map_err(Failure::input)?;
    let mut out = String::new();
    let k = showdown.knocker.to_string();
    let d = showdown.defender.to_string();
    let width = k.len().max(d.len());
    writeln!(
        out,
        "knocker   {k:width$}  deadwood {}",
        showdown.knocker_deadwood()
    )
    .unwrap();
    writeln!(
        out,
        "defender  {d:width$}  deadwood {}",
        showdown.defender_deadwood()
    )
    .unwrap();
    let layoffs = if showdown.is_gin() {
        "none (no lay-offs on gin)".to_owned()
    } else if showdown.layoffs.is_empty() {
        "none".to_owned()
    } else {
        showdown.layoffs.to_string()
    };
    writeln!(out, "lay-offs  {layoffs}").unwrap();
    let result = match score.winner {
        Some(_) => format!(
            "{}: {} scores {}",
            score.end.name(),
            winner_name(&score),
            score.points
        ),
        None => "tie: equal deadwood, no score (undercut_on_tie is off)".to_owned(),
    };
    writeln!(out, "result    {result}").unwrap();
    write_stdout(out.as_bytes())
}

fn batch(table: &Table) -> Result<(), Failure> {
    let input = BATCH.read_stdin()?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(input.as_bytes());
    let mut csv = csv::Writer::from_writer(Vec::new());
    csv.write_record([
        "knocker",
        "defender",
        "knocker_deadwood",
        "defender_deadwood",
        "layoffs",
        "winner",
        "points",
    ])?;
    for (index, record) in reader.records().enumerate() {
        let record = record
            .with_context(|| format!("reading CSV row {}", index + 1))
            .map_err(Failure::Input)?;
        let line = record.position().map_or(index as u64 + 1, |p| p.line());
        if index == 0 && record.iter().eq(["knocker", "defender"]) {
            continue;
        }
        if record.len() != 2 {
            return Err(Failure::input(format!(
                "line {line}: expected 2 fields `knocker,defender`, found {}",
                record.len()
            )));
        }
        let (showdown, score) = table
            .resolve(&record[0], &record[1])
            .map_err(|e| Failure::input(format!("line {line}: {e}")))?;
        csv.write_record([
            showdown.knocker.to_string(),
            showdown.defender.to_string(),
            showdown.knocker_deadwood().to_string(),
            showdown.defender_deadwood().to_string(),
            showdown.layoffs.to_string(),
            winner_name(&score).to_owned(),
            score.points.to_string(),
        ])?;
    }
    let bytes = csv.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    write_stdout(&bytes)
}
