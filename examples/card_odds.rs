//! The Rust half of the `weighting = learned` pipeline
//! (`experiments/card-odds/make.sh` runs it with the training script):
//!
//! ```sh
//! cargo run --release --example card_odds -- table HANDS SEED > table.csv
//! cargo run --release --example card_odds -- checks table.csv > checks.csv
//! ```
//!
//! `table` writes the training table of `HANDS` self-play hands
//! (`ginlab::strategy::card_odds::training_table`); `checks` writes, for
//! every 97th key of a table, the committed model's log-odds, which the
//! training script's test recomputes from the same weights file.

use std::process::ExitCode;

use ginlab::strategy::card_odds::{Key, logit_checks, training_table};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: card_odds table HANDS SEED | card_odds checks TABLE.csv";
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["table", hands, seed] => {
            let (Ok(hands), Ok(seed)) = (hands.parse::<u32>(), seed.parse::<u64>()) else {
                eprintln!("HANDS and SEED must be whole numbers; {usage}");
                return ExitCode::from(2);
            };
            print!("{}", training_table(hands, seed));
            ExitCode::SUCCESS
        }
        ["checks", path] => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("cannot read {path}: {e}");
                    return ExitCode::from(2);
                }
            };
            let mut keys = Vec::new();
            for (n, line) in text.lines().enumerate().skip(1).step_by(97) {
                match line.parse::<Key>() {
                    Ok(k) => keys.push(k),
                    Err(e) => {
                        eprintln!("{path}:{}: {e}", n + 1);
                        return ExitCode::from(2);
                    }
                }
            }
            print!("{}", logit_checks(&keys));
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{usage}");
            ExitCode::from(2)
        }
    }
}
