//! `ginlab solve`: one hand in text, or a batch of hands as CSV.

use std::fmt::Write as _;

use clap::Args;
use ginlab::CardSet;
use ginlab::meld::{self, Arrangement};

use super::input::{BATCH, CapRead, at_line};
use super::{Failure, write_stdout};

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The hand: 1 to 11 cards such as `AS 7H TD KC` (also `10h`, `q♠`), in
    /// one argument or several.
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    cards: Vec<String>,
    /// Read one hand per line from standard input (blank lines and lines
    /// starting with `#` are skipped) and write CSV: `hand,deadwood,melds`,
    /// plus `discard,discard_deadwood` when any hand has 11 cards.
    #[arg(long)]
    batch: bool,
}

/// The most cards a hand may have: 10 plus the one drawn.
const MAX_CARDS: u32 = 11;

/// Parses one hand, checking its size.
fn parse_hand(text: &str) -> Result<CardSet, String> {
    let hand: CardSet = text.parse().map_err(|e| format!("{e}"))?;
    if hand.is_empty() || hand.len() > MAX_CARDS {
        return Err(format!(
            "a hand has 1 to {MAX_CARDS} cards, this one has {}",
            hand.len()
        ));
    }
    Ok(hand)
}

/// The melds of an arrangement in bracket notation, without the deadwood.
fn melds_text(arrangement: &Arrangement) -> String {
    let melds: Vec<String> = arrangement.melds().map(|m| m.to_string()).collect();
    melds.join(" ")
}

pub fn run(args: SolveArgs) -> Result<(), Failure> {
    if args.batch {
        return batch();
    }
    let hand = parse_hand(&args.cards.join(" ")).map_err(Failure::input)?;
    let best = meld::best_arrangement(hand);
    let mut out = String::new();
    let count = hand.len();
    let noun = if count == 1 { "card" } else { "cards" };
    writeln!(out, "hand      {hand} ({count} {noun})").unwrap();
    let melds = melds_text(&best);
    let melds = if melds.is_empty() { "none" } else { &melds };
    writeln!(out, "melds     {melds}").unwrap();
    let deadwood_cards = best.deadwood_cards();
    if deadwood_cards.is_empty() {
        writeln!(out, "deadwood  0").unwrap();
    } else {
        writeln!(out, "deadwood  {} ({deadwood_cards})", best.deadwood()).unwrap();
    }
    if hand.len() == MAX_CARDS {
        let discard = meld::best_discard(hand).expect("11 cards");
        let rest = meld::best_arrangement(hand.without(discard.card));
        writeln!(
            out,
            "discard   {} leaves deadwood {}: {rest}",
            discard.card, discard.deadwood
        )
        .unwrap();
        if meld::is_big_gin(hand) {
            writeln!(out, "big gin   all 11 cards meld").unwrap();
        }
    }
    write_stdout(out.as_bytes())
}

fn batch() -> Result<(), Failure> {
    let input = BATCH.read_stdin()?;
    let mut hands = Vec::new();
    for (number, line) in input.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let hand = parse_hand(line)
            .map_err(|e| Failure::input(format!("{}: {e}", at_line(number + 1, line))))?;
        hands.push(hand);
    }
    let with_discard = hands.iter().any(|h| h.len() == MAX_CARDS);
    let mut csv = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["hand", "deadwood", "melds"];
    if with_discard {
        header.extend(["discard", "discard_deadwood"]);
    }
    csv.write_record(&header)?;
    for hand in hands {
        let best = meld::best_arrangement(hand);
        let mut record = vec![
            hand.to_string(),
            best.deadwood().to_string(),
            melds_text(&best),
        ];
        if with_discard {
            match meld::best_discard(hand).filter(|_| hand.len() == MAX_CARDS) {
                Some(d) => record.extend([d.card.to_string(), d.deadwood.to_string()]),
                None => record.extend([String::new(), String::new()]),
            }
        }
        csv.write_record(&record)?;
    }
    let bytes = csv.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    write_stdout(&bytes)
}
