//! `ginlab match A B`: a quick single-threaded match with a short summary.
//! (`match` is a Rust keyword, hence the module name.)

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use ginlab::engine::Seat;
use ginlab::experiment::Pairing;
use ginlab::job::{self, JobRequest, Layout, Progress, Shard, Tally};
use ginlab::lab::Lab;
use ginlab::report::{
    SprtJson, Summary, json_report, match_header, match_report, seed_line, side_table, sprt_line,
    table_header, table_ratings_table,
};
use ginlab::sim::{Format, Work};
use ginlab::stats::Sprt;

use super::job::{command, on_progress, resolver, status_block};
use super::rules::RulesArgs;
use super::strategies::strategy_help;
use super::{Failure, progress, write_stdout};

#[derive(Debug, Args)]
#[command(group(super::amount_group()))]
pub struct MatchArgs {
    #[arg(help = strategy_help("Strategy of player A"), required_unless_present = "teams")]
    a: Option<String>,
    #[arg(help = strategy_help("Strategy of player B"), required_unless_present = "teams")]
    b: Option<String>,
    /// A third player: a three-player game (RULES.md: the dealer deals to the
    /// other two and sits out; the loser deals next). Whole games only; with
    /// duplicate deals each deal is played three times, every player in
    /// every seat once.
    #[arg(value_name = "C")]
    c: Option<String>,
    /// Two partnerships: this team (two strategies, `A,B` or `A B`) against
    /// the team of --vs; each player plays a two-hand game against an
    /// opponent of the other team, opponents alternating (RULES.md). Whole
    /// games only; with duplicate deals each deal is played four times,
    /// every player in every seat once.
    #[arg(long, value_name = "A,B", num_args = 1..=2, requires = "vs", conflicts_with_all = ["a", "b", "c"])]
    teams: Vec<String>,
    /// With --teams: the other team (`C,D` or `C D`).
    #[arg(long, value_name = "C,D", num_args = 1..=2, requires = "teams")]
    vs: Vec<String>,
    /// Play this many independent hands (dealers alternate, scores 0–0). With
    /// duplicate deals an odd count is rounded up: every deal is played twice.
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    hands: Option<u64>,
    /// Play this many whole games to the target (rounded up to even with
    /// duplicate deals, as for --hands).
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    games: Option<u64>,
    /// Play one hand per deck order in FILE: one line each, 52 cards top first
    /// (blank lines and `#` lines skipped).
    #[arg(long, value_name = "FILE", group = "amount")]
    decks: Option<PathBuf>,
    /// With --decks: who deals every hand (a or b; default b).
    #[arg(long, value_parser = ["a", "b"])]
    dealer: Option<String>,
    /// Master seed; every deck and random choice derives from it (default:
    /// random, from the operating system, printed so the run can be repeated).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_parser = super::threads)]
    threads: usize,
    /// Play every deal once instead of twice with the seats swapped.
    #[arg(long)]
    no_duplicate: bool,
    /// Write summary.csv, distribution.csv (seats.csv with three players or
    /// teams), manifest.toml and tallies.json into DIR (created if needed;
    /// existing files are replaced whole).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only the K-th of N slices of the deals (needs --out); combine the
    /// N outputs with `ginlab merge`.
    #[arg(long, value_name = "K/N", requires = "out")]
    shard: Option<Shard>,
    /// Continue an interrupted run from the checkpoint in --out.
    #[arg(long, requires = "out")]
    resume: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Stop as soon as a sequential test decides between A being `elo0` and
    /// `elo1` stronger than B: `elo0=0,elo1=10,alpha=0.05,beta=0.05`, with
    /// -800 <= elo0 < elo1 <= 800 and 0 < alpha, beta < 0.5 (each 0.05 if
    /// left out). The --games or --hands count is then the most that will be
    /// played. The generalised SPRT on the scoring units (duplicate pairs:
    /// the pentanomial model), looking after every unit in deal order, so
    /// it decides at the first unit past a bound whatever --threads. Deals
    /// are played in blocks (64, 64, 128, 256, 512, then 1024); the block it
    /// decided in is played to its end, and the figures cover every game
    /// played. With --out, the files cover the
    /// deals played and --resume continues an interrupted test; not with
    /// --shard.
    #[arg(long, value_name = "SPEC")]
    sprt: Option<Sprt>,
    /// Also write every game (every hand with --hands or --decks) as one
    /// JSON line to FILE: seed, rules, players, each hand's deck, actions
    /// and result, and the game result. Lines are in deal order, the same
    /// bytes for any --threads; the file appears whole at the end of the
    /// run. Check and read it with `ginlab replay FILE`. A shard writes its
    /// part (`ginlab merge --record` combines them); --resume continues the
    /// record the checkpoint names.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Print the result as one line of JSON (the CSV files' rows; see
    /// README) instead of the table.
    #[arg(long)]
    json: bool,
    /// Print a status line to standard error every N games (hands when
    /// playing hands): wins-losses, Elo with its interval, the SPRT's LLR
    /// against its bounds, the pair counts. Checkpoints then come as often;
    /// with --sprt, lines come at the ends of its blocks at most.
    #[arg(long, value_name = "N", value_parser = super::count, allow_negative_numbers = true)]
    status: Option<u64>,
    /// Give every search player (mc) MS milliseconds a decision, replacing
    /// its own samples or budget, so both sides get the same time. The time
    /// is turned into worlds at a fixed rate (not a clock), which the
    /// manifest records, so the run replays byte for byte.
    #[arg(long, value_name = "MS", value_parser = budget_ms)]
    budget_ms: Option<f64>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// `--budget-ms`: milliseconds a decision, as `mc:budget_ms` takes them.
fn budget_ms(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(ms) if ms > 0.0 && ms <= 256.0 => Ok(ms),
        _ => Err("must be a number of milliseconds above 0, at most 256, e.g. 2".to_owned()),
    }
}

pub fn run(args: MatchArgs, lab: &Lab) -> Result<(), Failure> {
    // Checked here: clap's `requires` does not fire for a member of the
    // `amount` group.
    if args.dealer.is_some() && args.decks.is_none() {
        return Err(Failure::input(
            "--dealer goes with --decks only: hands dealt from the seed alternate dealers by deal",
        ));
    }
    let (variant, rules) = job::match_variant(&args.rules.rules, &args.rules.overrides)?;
    let work = match (args.hands, args.games, &args.decks) {
        (Some(n), _, _) => Work::Hands(n),
        (_, Some(n), _) => Work::Games(n),
        (_, _, Some(path)) => Work::Decks {
            decks: job::decks(path)?,
            dealer: if args.dealer.as_deref() == Some("a") {
                Seat::A
            } else {
                Seat::B
            },
        },
        _ => unreachable!("clap requires one of --hands, --games, --decks"),
    };
    let seed = super::master_seed(args.seed)?;
    let layout = match table_players(&args)? {
        Some((_, layout)) => layout,
        None => {
            let (Some(a), Some(b)) = (&args.a, &args.b) else {
                unreachable!("clap requires A and B without --teams")
            };
            Layout::Pairs {
                players: vec![(a.clone(), "A".into()), (b.clone(), "B".into())],
                pairing: Pairing::HeadToHead,
            }
        }
    };
    let spec =
        request(&args, layout, (variant.clone(), rules), work, seed).build(&resolver(lab))?;
    let row = &spec.rows[0];
    super::warn_chosen_seed(args.seed, row.plan.profiles());
    // A bot could read the file standard output goes to while it plays:
    // the seed then comes after the report (the manifest has it too).
    let bots = row.plan.profiles().iter().any(|p| p.bot().is_some());
    let header = match row.plan.format() {
        None => match_header(
            &[row.players[0].clone(), row.players[1].clone()],
            &variant,
            (!bots).then_some(seed),
            row.plan.unit_size() > 1,
        ),
        Some(format) => table_header(
            &row.players,
            format,
            &variant,
            seed,
            row.plan.unit_size() > 1,
        ),
    };
    let options = options(&args, status_block(args.status, &spec));
    let start = Instant::now();
    let bar = progress::bar(args.quiet);
    let draw = on_progress(&bar, args.status);
    // With `--record -` the records take standard output; the report goes
    // to standard error.
    let to_stderr = args.record.as_deref() == Some(std::path::Path::new("-"));
    if to_stderr && args.json {
        return Err(Failure::input(
            "--json with --record -: both would go to standard output; record to a file",
        ));
    }
    let outcome = job::run(&spec, &options, &|event| {
        // The header as play starts (every input checked by then), so the
        // seed is on screen however long the run takes.
        if let Progress::Start { .. } = event
            && !args.json
        {
            if to_stderr {
                let _ = std::io::Write::write_all(&mut std::io::stderr(), header.as_bytes());
            } else {
                let _ = write_stdout(header.as_bytes());
            }
        }
        draw(event);
    });
    bar.finish_and_clear();
    let outcome = outcome?;
    super::job::print_notes(&outcome);
    let seconds = start.elapsed().as_secs_f64();
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    if args.json {
        let sprt = outcome.stopped.as_ref().map(SprtJson::new);
        let json = json_report(&outcome.summary, outcome.ratings.as_deref(), None, sprt);
        return write_stdout(json.as_bytes());
    }
    let mut text = match (&outcome.summary, &outcome.tallies[0]) {
        (Summary::Sides { sides, seats }, Tally::Table(format, t)) => {
            let mut text = format!("{} games, {} hands in {seconds:.2} s\n", t.games, t.hands);
            let what = match format {
                Format::Three => "player",
                Format::Partnership => "team",
            };
            text.push_str(&side_table(sides, what));
            text.push_str(&side_table(seats, "seat"));
            if let Some(ratings) = &outcome.ratings {
                text.push_str(&table_ratings_table(ratings));
            }
            text
        }
        (summary, tally) => {
            let mut text = match_report(&summary.pairs()[0], seconds, threads);
            if let (Some(test), Some(units)) = (&outcome.stopped, tally.unit_scores()) {
                text.push_str(&sprt_line(test, units.n));
            }
            text
        }
    };
    text.push_str(&bot_lines(row.plan.profiles()));
    if bots {
        text.push_str(&seed_line(seed));
    }
    if to_stderr {
        let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
        return Ok(());
    }
    write_stdout(text.as_bytes())
}

/// The job a `match` asks for: one variant, `layout`, no default folder.
fn request(
    args: &MatchArgs,
    layout: Layout,
    variant: (String, ginlab::rules::Rules),
    work: Work,
    seed: u64,
) -> JobRequest {
    JobRequest {
        variants: vec![variant],
        layout,
        work,
        seed,
        duplicate: !args.no_duplicate,
        out: args.out.clone(),
        name: None,
        default_folder: false,
        command: command(),
        experiment: None,
        anchor: None,
        budget_ms: args.budget_ms,
    }
}

/// How a `match` is played: `block` deals between checkpoints (and status
/// lines), when not the default.
fn options(args: &MatchArgs, block: Option<u64>) -> job::Options {
    job::Options {
        shard: args.shard,
        resume: args.resume,
        threads: args.threads,
        record: args.record.clone(),
        stop: args.sprt,
        block,
        abort: None,
    }
}

/// The format and players of a three-player (`A B C`) or partnership
/// (`--teams A,B --vs C,D`) match, or `None` for two players.
fn table_players(args: &MatchArgs) -> Result<Option<(Format, Layout)>, Failure> {
    let who = |n: usize| ["A", "B", "C", "D"][n].to_owned();
    let (format, players) = if !args.teams.is_empty() {
        let mut players = team(&args.teams, "--teams")?;
        players.extend(team(&args.vs, "--vs")?);
        (Format::Partnership, players)
    } else if let (Some(a), Some(b), Some(c)) = (&args.a, &args.b, &args.c) {
        (Format::Three, vec![a.clone(), b.clone(), c.clone()])
    } else {
        return Ok(None);
    };
    let players = players
        .into_iter()
        .enumerate()
        .map(|(i, p)| (p, who(i)))
        .collect();
    Ok(Some((format, Layout::Table { format, players })))
}

/// A team of two as given to `flag`: two values, or one with a comma
/// between the two strategies. An inline profile's own commas
/// (`greedy:knock_at=7,schedule=...`) stay with it: a part that is only
/// `key=value` continues the strategy before it.
fn team(values: &[String], flag: &str) -> Result<Vec<String>, Failure> {
    let parts: Vec<String> = match values {
        [one] => {
            let mut parts: Vec<String> = Vec::new();
            for part in one.split(',') {
                let continues = part
                    .split_once('=')
                    .is_some_and(|(key, _)| !key.contains(':'));
                match parts.last_mut() {
                    Some(last) if continues && last.contains(':') => {
                        last.push(',');
                        last.push_str(part);
                    }
                    _ => parts.push(part.to_owned()),
                }
            }
            parts
        }
        many => many.to_vec(),
    };
    if parts.len() != 2 || parts.iter().any(|p| p.trim().is_empty()) {
        return Err(Failure::input(format!(
            "{flag} {}: a team is two strategies, `A,B` or `A B` (e.g. {flag} greedy,simple)",
            ginlab::echo::echo(&values.join(" "))
        )));
    }
    Ok(parts)
}

/// For each external bot: processes started, failures, where its logs are.
fn bot_lines(profiles: &[ginlab::strategy::Profile]) -> String {
    let mut out = String::new();
    for (seat, profile) in ["A", "B"].iter().zip(profiles) {
        if let Some(bot) = profile.bot() {
            writeln!(
                out,
                "bot {seat}         {} processes started, {} failed games; {}",
                bot.processes_started(),
                bot.failures(),
                super::check_bot::where_logs_are(bot)
            )
            .unwrap();
        }
    }
    out
}
