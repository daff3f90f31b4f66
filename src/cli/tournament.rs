//! `ginlab tournament A B C...`: a round robin (every pair) or, with
//! `--gauntlet`, the first player against each of the others, straight from
//! the command line, with the rating list: the job a spec with `pairing =
//! "round_robin"` or `"gauntlet"` plays. (`match A B C` stays a
//! three-player table.)

use clap::Args;
use ginlab::experiment::Pairing;
use ginlab::job::Layout;
use ginlab::lab::Lab;

use super::Failure;
use super::strategies::strategy_help;
use super::study::StudyArgs;

#[derive(Debug, Args)]
pub struct TournamentArgs {
    #[arg(
        value_name = "PLAYER",
        required = true,
        help = strategy_help("The players, three or more")
    )]
    players: Vec<String>,
    /// The first player against each of the others, instead of every pair.
    #[arg(long)]
    gauntlet: bool,
    /// The player rated 0 in the rating list (default: simple when it
    /// plays, else the first player).
    #[arg(long, value_name = "PLAYER")]
    anchor: Option<String>,
    #[command(flatten)]
    study: StudyArgs,
}

pub fn run(args: TournamentArgs, lab: &Lab) -> Result<(), Failure> {
    if args.players.len() < 3 {
        return Err(Failure::input(format!(
            "tournament: {} player{} given; a tournament takes three or more (for two, `ginlab match A B`)",
            args.players.len(),
            if args.players.len() == 1 { "" } else { "s" }
        )));
    }
    let players = args
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), format!("player {}", i + 1)))
        .collect();
    let pairing = if args.gauntlet {
        Pairing::Gauntlet
    } else {
        Pairing::RoundRobin
    };
    args.study
        .play(lab, Layout::Pairs { players, pairing }, args.anchor.clone())
}
