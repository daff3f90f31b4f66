//! `ginlab play --vs STRATEGY`: a person plays a game to the target against
//! a strategy in the terminal.
//!
//! The session steps [`Hand`] itself rather than running `play_game` with a
//! person behind the `Strategy` trait: a person may quit or run out of input
//! mid-hand, which a strategy's answer cannot express, and stepping lets each
//! event be told as it happens. Every answer is checked ([`answer::parse`])
//! before it reaches [`Hand::apply`], which checks it again; the game loop
//! keeps score with the engine's [`Tally`] and [`next_dealer`], so the rules
//! are the engine's, not a copy. The person sees only their own
//! [`PlayerView`]; the opponent's cards appear at the showdown.

mod answer;
mod explain;

use std::io::{self, BufRead, IsTerminal, Write};

use clap::Args;
use ginlab::engine::{
    Action, Deck, DrawSource, GameResult, Hand, HandOutcome, Phase, PlayerView, Seat, Strategy,
    Tally, ask, next_dealer,
};
use ginlab::rules::Rules;
use ginlab::sim::{Stream, seed_for};
use rand::{Rng as _, SeedableRng as _};
use rand_pcg::Pcg64Mcg;

use self::answer::Reply;
use self::explain::Names;
use super::Failure;
use super::input::{ANSWER_LINE, CapRead};
use super::rules::RulesArgs;
use super::strategies::{resolve, strategy_help};

/// The answers, for `--help` and the `help` answer.
pub const ANSWERS: &str = "\
Answers (case does not matter):
  upcard offer        y / yes / take, n / no / pass
  draw                s / stock, p / pile
  end of turn         a card to discard: 7h, TD, 10d (or d 7h, discard 7h);
                      k 7h / knock 7h: discard 7h face down and knock;
                      gin: big gin (all 11 cards meld; where the rules have it)
  last discard        y / take (only to knock), n / pass (stock end, with last_discard_action)
  any time            help (h, ?), quit (q)
Knocking: after the discard your deadwood must be at most the knock limit; 0 is gin.";

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[arg(long, value_name = "STRATEGY", help = strategy_help("The opponent"))]
    vs: String,
    /// Seed of the deal and of the opponent's random choices: the same seed
    /// and answers replay the same game (default: random, from the
    /// operating system, printed).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The person's seat; the opponent sits in the other.
const YOU: Seat = Seat::A;

/// Why a game stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// The person answered `quit`.
    Quit,
    /// The input ended.
    InputEnded,
}

/// A table: the rules, the opponent, and the person's input and output.
struct Table<'r, R, W> {
    rules: &'r Rules,
    opponent: Box<dyn Strategy>,
    names: Names,
    input: R,
    out: W,
    /// Repeat each answer after its prompt (the input is not a terminal, so
    /// nothing else shows it).
    echo: bool,
    /// Lines of input read so far, for messages.
    lines_read: u64,
}

pub fn run(args: PlayArgs, lab: &ginlab::lab::Lab) -> Result<(), Failure> {
    let rules = args.rules.resolve()?;
    let opponent = resolve(lab, &args.vs, "--vs")?;
    let seed = super::master_seed(args.seed)?;
    super::warn_chosen_seed(args.seed, std::slice::from_ref(&opponent.profile));
    let stdin = io::stdin();
    let mut table = Table {
        rules: &rules,
        opponent: opponent.profile.build(seed_for(seed, 0, Stream::SeatB)),
        names: Names {
            you: YOU,
            them: opponent.name,
        },
        echo: !stdin.is_terminal(),
        input: stdin.lock(),
        lines_read: 0,
        out: io::stdout().lock(),
    };
    let overrides: String = args
        .rules
        .overrides
        .iter()
        .map(|o| format!(" --rule {o}"))
        .collect();
    writeln!(
        table.out,
        "You against {} · rules {}{overrides} · seed {seed}\n\
         (replay: {})\n{}\n\
         Type help at any prompt for the answers, quit to stop.",
        table.names.them,
        args.rules.rules,
        replay_command(&args, seed),
        explain::rules_line(&rules),
    )?;
    match table.play(seed)? {
        None | Some(Stop::Quit) => Ok(()),
        Some(Stop::InputEnded) => Err(Failure::input(
            "input ended before the game finished (answer quit to stop early)",
        )),
    }
}

/// The command that replays this game, each argument quoted for a POSIX
/// shell where it needs it (an external bot's command, a rules file's
/// path with spaces), so it can be pasted back as printed.
fn replay_command(args: &PlayArgs, seed: u64) -> String {
    let seed = seed.to_string();
    let mut words = vec![
        "ginlab",
        "play",
        "--vs",
        &args.vs,
        "--rules",
        &args.rules.rules,
    ];
    for knob in &args.rules.overrides {
        words.extend(["--rule", knob]);
    }
    words.extend(["--seed", &seed]);
    // A NUL byte cannot reach here through the command line; were one
    // there, each word is shown as Rust would quote it.
    shlex::try_join(words.iter().copied()).unwrap_or_else(|_| format!("{words:?}"))
}

impl<R: BufRead, W: Write> Table<'_, R, W> {
    /// Plays hands until a player reaches the target (`None`) or the person
    /// stops.
    fn play(&mut self, seed: u64) -> Result<Option<Stop>, Failure> {
        let rules = self.rules;
        let mut rng = Pcg64Mcg::seed_from_u64(seed_for(seed, 0, Stream::Deal));
        let mut dealer = Seat::ALL[(rng.next_u64() & 1) as usize];
        let first_dealer = dealer;
        let mut tally = Tally::default();
        for number in 1.. {
            let deck = Deck::shuffled(&mut rng);
            let mut hand = Hand::new(rules, &deck, dealer, tally.points)
                .map_err(|e| Failure::input(format!("rules: {e}")))?;
            if let Some(stop) = self.play_hand(&mut hand, number)? {
                let scores = explain::scores_line(rules, &tally, &self.names);
                let why = match stop {
                    Stop::Quit => "You quit",
                    Stop::InputEnded => "The input ended",
                };
                writeln!(self.out, "{why} in hand {number}, before its end. {scores}")?;
                return Ok(Some(stop));
            }
            let outcome = *hand.outcome().expect("a hand over has an outcome");
            self.opponent.end_hand(&hand.view(YOU.other()), &outcome);
            for line in explain::hand_result(&outcome, rules, hand.upcard(), dealer, &self.names) {
                writeln!(self.out, "{line}")?;
            }
            let boxes = tally.extra_boxes;
            tally.record(rules, &outcome, hand.upcard());
            if let HandOutcome::Showdown { score, .. } = outcome {
                for seat in Seat::ALL {
                    let extra = tally.extra_boxes[seat.index()] - boxes[seat.index()];
                    if extra > 0 {
                        writeln!(
                            self.out,
                            "Oklahoma: {} {} for the {}.",
                            self.names.does(seat, "get"),
                            explain::count(extra, "extra box", "extra boxes"),
                            score.end.name().replace('_', " ")
                        )?;
                    }
                }
            }
            writeln!(
                self.out,
                "{}",
                explain::scores_line(rules, &tally, &self.names)
            )?;
            if let Some(winner) = tally.leader(rules) {
                let (final_scores, shutout, margin) = tally.finish(rules, winner);
                let result = GameResult {
                    tally,
                    winner,
                    shutout,
                    final_scores,
                    margin,
                    hands: number,
                    first_dealer,
                };
                self.opponent.end_game(YOU.other(), &result);
                writeln!(self.out)?;
                for line in explain::game_over(rules, &tally, winner, number, &self.names) {
                    writeln!(self.out, "{line}")?;
                }
                return Ok(None);
            }
            dealer = next_dealer(rules, dealer, &outcome);
        }
        unreachable!("the hands go on until the target or a stop")
    }

    /// Plays one hand to its end (`None`) or until the person stops.
    fn play_hand(&mut self, hand: &mut Hand<'_>, number: u32) -> Result<Option<Stop>, Failure> {
        let them = YOU.other();
        writeln!(
            self.out,
            "\n── Hand {number} · {} · knock limit {} ──",
            self.names.does(hand.dealer(), "deal"),
            hand.knock_limit(),
        )?;
        for note in explain::upcard_notes(self.rules, hand.upcard(), hand.knock_limit()) {
            writeln!(self.out, "{note}")?;
        }
        self.opponent.start_hand(&hand.view(them));
        let mut told = hand.events().len();
        while let Some(seat) = hand.phase().seat() {
            let held = hand.cards(YOU);
            let action = if seat == YOU {
                match self.ask(&hand.view(YOU))? {
                    Ok(action) => action,
                    Err(stop) => return Ok(Some(stop)),
                }
            } else {
                let action = ask(self.opponent.as_mut(), &hand.view(them));
                if let Some(reason) = self.opponent.forfeit() {
                    return Err(Failure::Run(anyhow::anyhow!(
                        "the opponent failed and forfeits: {reason}"
                    )));
                }
                action
            };
            hand.apply(seat, action).map_err(|e| {
                let who = if seat == YOU {
                    "your answer"
                } else {
                    "the opponent"
                };
                Failure::Run(anyhow::anyhow!("{who}: {e}"))
            })?;
            let drawn = (hand.cards(YOU) - held).first();
            for &event in &hand.events()[told..] {
                writeln!(self.out, "{}", explain::narrate(&event, &self.names, drawn))?;
                if self.opponent.observes() {
                    self.opponent.observe(&hand.view(them), &event);
                }
            }
            told = hand.events().len();
        }
        Ok(None)
    }

    /// Shows the person's side of the table and reads answers until one is
    /// legal (`Ok`), or the person stops (`Err`). A forced draw from the
    /// stock is made without asking.
    fn ask(&mut self, view: &PlayerView<'_>) -> Result<Result<Action, Stop>, Failure> {
        if let Phase::Draw {
            stock_only: true, ..
        } = view.phase
        {
            writeln!(
                self.out,
                "Both passed the upcard, so you draw from the stock."
            )?;
            return Ok(Ok(Action::Draw(DrawSource::Stock)));
        }
        self.show(view)?;
        loop {
            write!(self.out, "{} > ", ginlab::render::question(view))?;
            self.out.flush()?;
            let mut line = Vec::new();
            self.lines_read += 1;
            let source = "standard input";
            if !ANSWER_LINE.read_line(&mut self.input, &mut line, source, self.lines_read)? {
                writeln!(self.out)?;
                return Ok(Err(Stop::InputEnded));
            }
            let line = String::from_utf8_lossy(&line);
            if self.echo {
                writeln!(self.out, "{}", ginlab::echo::echo(line.trim_end()))?;
            }
            match answer::parse(&line, view) {
                Ok(Reply::Act(action)) => return Ok(Ok(action)),
                Ok(Reply::Quit) => return Ok(Err(Stop::Quit)),
                Ok(Reply::Help) => writeln!(
                    self.out,
                    "{ANSWERS}\nThis hand's knock limit: {}. Right now: {}.",
                    view.knock_limit,
                    answer::legal_answers(view)
                )?,
                Err(message) => writeln!(self.out, "! {message}")?,
            }
        }
    }

    /// What the person sees before a decision ([`ginlab::render::table`]).
    fn show(&mut self, view: &PlayerView<'_>) -> io::Result<()> {
        write!(
            self.out,
            "\n{}",
            ginlab::render::table(view, &self.names.them)
        )
    }
}
