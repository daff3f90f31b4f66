//! How mc judges its legal knocks (issue 33 item 4): plays whole games of an
//! mc profile against another player and, at every end of turn where the
//! mc player could knock short of gin and sampled, reads what the gate saw
//! ([`MonteCarlo::last_decision`]): whether the base policy's answer
//! (candidate 0) was the knock, the knock's mean gain over the base answer
//! and over the answer played, with their paired standard errors, and
//! whether the knock had the best mean but failed the gate. For the hands
//! the mc player then lost to the opponent's knock or gin it reports what
//! the knock it declined at its last turn was estimated to be worth.
//!
//! ```sh
//! nice cargo run --release --example knock_gate -- \
//!     strategies/mc-share-2ms.toml simple --games 100 --seed 1
//! ```
//!
//! The opponent is a profile file or inline text (`simple`, `mc:samples=64`,
//! or the mc profile's file again for self-play). Under eaai rules.
//!
//! The calibration lines (the estimate of the answer played against the
//! hand's points) are how the rollouts' optimism about declining a knock
//! was measured (results/INDEX.md, search-knock-wait and
//! search-opp-frozen), and the check to run on a new model before its
//! ablation: self-play, 30 games, seed 3.

#[path = "common/args.rs"]
mod args;
use args::{arg, profile};

use ginlab::engine::{
    Action, DrawSource, Event, HandOutcome, PlayerView, Seat, Strategy, TurnEnd, play_game,
};
use ginlab::rules::Rules;
use ginlab::strategy::{McParams, MonteCarlo};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// One end of turn with a legal knock short of gin.
#[derive(Clone, Copy, Debug)]
struct KnockTurn {
    /// The base policy's answer was the knock.
    base_knocks: bool,
    /// The knock was played.
    knocked: bool,
    /// The knock's mean gain over the base answer, its standard error.
    over_base: (f64, f64),
    /// The knock's mean gain over the answer played, its standard error.
    over_played: (f64, f64),
    /// The knock had the best mean of all candidates.
    best: bool,
    /// The knock's mean, and the played answer's.
    means: (f64, f64),
    /// The hand's points from this player's side, when it ended.
    result: f64,
}

/// An mc player that keeps the knock turns of the current hand.
struct Probe {
    mc: MonteCarlo,
    /// The last end of turn of this hand: `Some` if it had a legal knock.
    last: Option<Option<KnockTurn>>,
    turns: Vec<KnockTurn>,
    /// Hands lost to the opponent's knock or gin after declining a legal
    /// knock at the last turn: that turn, and the points lost.
    lost: Vec<(KnockTurn, u32, bool)>,
    hands: u64,
}

impl Probe {
    fn new(mc: MonteCarlo) -> Probe {
        Probe {
            mc,
            last: None,
            turns: Vec::new(),
            lost: Vec::new(),
            hands: 0,
        }
    }

    /// Reads the gate's view of the end of turn just played.
    fn read(&mut self) {
        let Some(est) = self.mc.last_decision() else {
            self.last = Some(None);
            return;
        };
        let knock = est
            .candidates
            .iter()
            .position(|a| matches!(a, Action::EndTurn(TurnEnd::Knock(_))));
        let Some(k) = knock.filter(|_| est.worlds() > 0) else {
            self.last = Some(None);
            return;
        };
        let turn = KnockTurn {
            base_knocks: k == 0,
            knocked: est.chosen == k,
            over_base: est.gain(k, 0),
            over_played: est.gain(k, est.chosen),
            best: est.best() == k,
            means: (est.mean(k), est.mean(est.chosen)),
            result: f64::NAN,
        };
        self.turns.push(turn);
        self.last = Some(Some(turn));
    }
}

impl Strategy for Probe {
    fn name(&self) -> &str {
        "probe"
    }
    fn start_hand(&mut self, view: &PlayerView<'_>) {
        self.last = None;
        self.mc.start_hand(view);
    }
    fn observe(&mut self, view: &PlayerView<'_>, event: &Event) {
        self.mc.observe(view, event);
    }
    fn observes(&self) -> bool {
        self.mc.observes()
    }
    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        self.mc.take_upcard(view)
    }
    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        self.mc.draw(view)
    }
    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        let end = self.mc.end_turn(view);
        self.read();
        end
    }
    fn end_hand(&mut self, view: &PlayerView<'_>, outcome: &HandOutcome) {
        self.hands += 1;
        let result = outcome.winner().map_or(0.0, |(s, p)| {
            if s == view.seat {
                f64::from(p)
            } else {
                -f64::from(p)
            }
        });
        for turn in self
            .turns
            .iter_mut()
            .rev()
            .take_while(|t| t.result.is_nan())
        {
            turn.result = result;
        }
        if let (Some(Some(turn)), HandOutcome::Showdown { knocker, score, .. }) =
            (self.last, outcome)
            && *knocker != view.seat
            && !turn.knocked
            && outcome.winner().is_some_and(|(s, _)| s != view.seat)
        {
            let gin = matches!(
                score.end,
                ginlab::engine::HandEnd::Gin | ginlab::engine::HandEnd::BigGin
            );
            self.lost.push((turn, score.points, gin));
        }
        self.mc.end_hand(view, outcome);
    }
}

fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, (v / n).sqrt())
}

/// Over `turns`: the mean estimate of the answer played, the hands'
/// mean points and its standard error, the knock's mean estimate.
fn calibration(turns: &[&KnockTurn]) -> (f64, f64, f64, f64) {
    let of = |f: fn(&KnockTurn) -> f64| turns.iter().map(|&x| f(x)).collect::<Vec<f64>>();
    let (got, se) = mean_se(&of(|x| x.result));
    (
        mean_se(&of(|x| x.means.1)).0,
        got,
        se,
        mean_se(&of(|x| x.means.0)).0,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 2,
        "usage: knock_gate MC_PROFILE OPPONENT [--games N] [--seed S]"
    );
    let games: u64 = arg(&args, "--games", 100);
    let seed: u64 = arg(&args, "--seed", 1);
    let mc_profile = profile(&args[0]);
    let config = mc_profile
        .params::<McParams>()
        .expect("the first profile is an mc profile")
        .config()
        .expect("a checked profile");
    let opponent = profile(&args[1]);
    let rules = Rules::eaai();
    let mut probe = Probe::new(MonteCarlo::new(config.clone(), seed));
    let mut wins = 0;
    for g in 0..games {
        let mut other = opponent.build(seed ^ (g + 1).wrapping_mul(0x9e37_79b9));
        let mut rng = Pcg64Mcg::seed_from_u64(seed.wrapping_mul(1_000_003) + g);
        let seat = Seat::ALL[(g % 2) as usize];
        let mut players: [&mut dyn Strategy; 2] = if seat == Seat::A {
            [&mut probe, other.as_mut()]
        } else {
            [other.as_mut(), &mut probe]
        };
        let result = play_game(&rules, &mut players, &mut rng, |_, _| {}).expect("a legal game");
        wins += u64::from(result.winner == seat);
    }
    let t = &probe.turns;
    let count = |f: &dyn Fn(&KnockTurn) -> bool| t.iter().filter(|x| f(x)).count();
    println!(
        "{} games ({} hands) of {} against {}: the mc player won {wins}",
        games, probe.hands, args[0], args[1]
    );
    println!(
        "sampled ends of turn with a legal knock short of gin: {}",
        t.len()
    );
    println!("  base answer knocks: {}", count(&|x| x.base_knocks));
    println!("  knock played: {}", count(&|x| x.knocked));
    let declined: Vec<&KnockTurn> = t.iter().filter(|x| !x.base_knocks).collect();
    println!("  base declined: {}", declined.len());
    let gains: Vec<f64> = declined.iter().map(|x| x.over_base.0).collect();
    let ses: Vec<f64> = declined.iter().map(|x| x.over_base.1).collect();
    let zs: Vec<f64> = declined
        .iter()
        .map(|x| x.over_base.0 / x.over_base.1.max(1e-9))
        .collect();
    if !declined.is_empty() {
        let (g, gse) = mean_se(&gains);
        println!(
            "    knock's gain over the base answer: mean {g:.3} points (± {gse:.3} over decisions), mean paired SE {:.3}",
            ses.iter().sum::<f64>() / ses.len() as f64
        );
        for z in [0.0, 1.0, 2.0] {
            println!(
                "    gain above {z} SE: {}",
                zs.iter().filter(|&&x| x > z).count()
            );
        }
        println!(
            "    knock played: {}",
            declined.iter().filter(|x| x.knocked).count()
        );
        println!(
            "    knock had the best mean: {}, of them not played (failed the gate): {}",
            declined.iter().filter(|x| x.best).count(),
            declined.iter().filter(|x| x.best && !x.knocked).count()
        );
        println!(
            "    knock above 2 SE over the base but another candidate had the best mean (base played): {}",
            declined
                .iter()
                .filter(|x| !x.best && !x.knocked && x.over_base.0 > 2.0 * x.over_base.1)
                .count()
        );
        let played_over: Vec<f64> = declined
            .iter()
            .filter(|x| !x.knocked)
            .map(|x| x.over_played.0)
            .collect();
        if !played_over.is_empty() {
            let (m, s) = mean_se(&played_over);
            println!(
                "    when not knocking: knock's gain over the answer played {m:.3} (± {s:.3})"
            );
        }
    }
    // Calibration: the estimate of the answer played against the hand's
    // points, for waits and knocks (several turns of a hand share one
    // result).
    for (name, knocked) in [("waited", false), ("knocked", true)] {
        let sel: Vec<&KnockTurn> = t.iter().filter(|x| x.knocked == knocked).collect();
        if sel.is_empty() {
            continue;
        }
        let (est, got, se, knock) = calibration(&sel);
        println!(
            "  {name} ({}): estimate of the answer played {est:.2}, hand points {got:.2} (± {se:.2}); knock's estimate {knock:.2}",
            sel.len(),
        );
    }
    // Waits by the knock's estimated gain over waiting.
    for (lo, hi) in [
        (-100.0, -10.0),
        (-10.0, -5.0),
        (-5.0, -2.0),
        (-2.0, 0.0),
        (0.0, 100.0),
    ] {
        let sel: Vec<&KnockTurn> = t
            .iter()
            .filter(|x| !x.knocked && x.over_played.0 >= lo && x.over_played.0 < hi)
            .collect();
        if sel.is_empty() {
            continue;
        }
        let (est, got, se, knock) = calibration(&sel);
        println!(
            "  waited, knock's gain in [{lo}, {hi}) ({}): wait estimated {est:.2}, got {got:.2} (± {se:.2}); knock estimated {knock:.2}",
            sel.len(),
        );
    }
    let lost = &probe.lost;
    println!(
        "hands lost to the opponent's knock or gin after declining a legal knock at the last turn: {} ({} to gin), {} points",
        lost.len(),
        lost.iter().filter(|x| x.2).count(),
        lost.iter().map(|x| x.1).sum::<u32>()
    );
    if !lost.is_empty() {
        let gains: Vec<f64> = lost.iter().map(|x| x.0.over_played.0).collect();
        let (m, s) = mean_se(&gains);
        let knock_means: Vec<f64> = lost.iter().map(|x| x.0.means.0).collect();
        let played_means: Vec<f64> = lost.iter().map(|x| x.0.means.1).collect();
        println!(
            "  the knock's estimate {:.2}, the answer played {:.2}; gain {m:.3} (± {s:.3}); knock had the best mean in {}, gain above 1 SE in {}, above 2 SE in {}; the base knocked in {}",
            mean_se(&knock_means).0,
            mean_se(&played_means).0,
            lost.iter().filter(|x| x.0.best).count(),
            lost.iter()
                .filter(|x| x.0.over_played.0 > x.0.over_played.1)
                .count(),
            lost.iter()
                .filter(|x| x.0.over_played.0 > 2.0 * x.0.over_played.1)
                .count(),
            lost.iter().filter(|x| x.0.base_knocks).count(),
        );
    }
}
