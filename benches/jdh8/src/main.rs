//! `ginlab-vs-jdh8 BOT HANDS SEED`: plays HANDS rounds of BOT against
//! itself with jdh8's published crates (`gin-rummy` 0.1.3,
//! `gin-rummy-engine` 0.3.1), dealers alternating, one thread, and prints
//! how they ended. `compare.sh` times it against `ginlab match`.
//!
//! BOT is `simple` (`EaaiSimpleBot`, the EAAI reference player, under
//! `eaai_rules()`, the counterpart of `ginlab match simple simple --rules
//! eaai`) or `heuristic` (`HeuristicBot` under the default rules, the
//! nearest of jdh8's bots to ginlab's `greedy`; not the same policy).

use std::process::ExitCode;

use gin_rummy::{Player, Round, RoundResult, Rules};
use gin_rummy_engine::{EaaiSimpleBot, HeuristicBot, Strategy, eaai_rules, play_round};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (bot, hands, seed) = match args.as_slice() {
        [bot, hands, seed] => match (hands.parse::<u64>(), seed.parse::<u64>()) {
            (Ok(h), Ok(s)) if bot == "simple" || bot == "heuristic" => (bot.as_str(), h, s),
            _ => return usage(),
        },
        _ => return usage(),
    };
    let mut deals = StdRng::seed_from_u64(seed);
    let (rules, mut one, mut two): (Rules, Box<dyn Strategy>, Box<dyn Strategy>) = match bot {
        "simple" => (
            eaai_rules(),
            Box::new(EaaiSimpleBot::new(StdRng::seed_from_u64(seed ^ 1))),
            Box::new(EaaiSimpleBot::new(StdRng::seed_from_u64(seed ^ 2))),
        ),
        _ => (
            Rules::default(),
            Box::new(HeuristicBot::new()),
            Box::new(HeuristicBot::new()),
        ),
    };
    // Dead, knock, undercut, gin or big gin.
    let mut ends = [0u64; 3];
    for i in 0..hands {
        let dealer = if i % 2 == 0 { Player::One } else { Player::Two };
        let round = Round::deal(rules.clone(), dealer, &mut deals);
        match play_round(round, [one.as_mut(), two.as_mut()]) {
            Ok(RoundResult::Dead) => ends[0] += 1,
            Ok(RoundResult::Knock { .. }) => ends[1] += 1,
            Ok(_) => ends[2] += 1,
            Err(e) => {
                eprintln!("ginlab-vs-jdh8: round {i}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "{bot}: {hands} hands, {} dead, {} knocks, {} other ends",
        ends[0], ends[1], ends[2]
    );
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: ginlab-vs-jdh8 simple|heuristic HANDS SEED (HANDS and SEED whole numbers)");
    ExitCode::from(2)
}
