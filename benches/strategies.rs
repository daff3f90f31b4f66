//! Strategy speed.
//!
//! - `hands/<A>_vs_<B>`: hands per second of a pairing, single-threaded,
//!   under `eaai`, on 256 pre-shuffled decks (the target: tracker within 3×
//!   of greedy). `tracker-bar0` is `tracker:hold=0,margin=0`, the tracker
//!   with a knock bar of 0: hands as short as greedy's, where the default
//!   plays for gin.
//! - `decisions/<A>_vs_<B>` and `replay/<A>_vs_<B>`: the same hands, one
//!   element per decision asked of either seat. `decisions` plays the
//!   strategies; `replay` plays the answers they gave, recorded once, so it
//!   times the engine alone (deal, views, moves, showdown, scoring). The
//!   difference is the strategies' own time per decision. The bench prints
//!   turns and decisions per hand, which separate hand length from cost.
//! - `mc/samples=<K>`: an `mc` player with K samples against greedy on 8
//!   decks; one element is one decision the mc player was asked for (all of
//!   them, including the forced ones; the bench prints how many were
//!   sampled). The target: at least 2,000 decisions per second with 64
//!   samples.
//!
//! - `rollouts/greedy`: rollouts per second, the work of a search player: a
//!   world sampled at one of seat A's decisions (tracker weighting, as `mc`
//!   samples them) is copied into a scratch hand and played to the end of
//!   the hand by two greedy players, full rules (showdown, lay-offs,
//!   scoring). 8 worlds at every decision of A in greedy-vs-greedy hands on
//!   64 decks under eaai; one element is one rollout. `rollouts/frozen`:
//!   the same worlds with seat A playing by the tracker's rules frozen at
//!   the decision (`own_rollout = frozen`).
//! - `mc/budget_ms=2`: the `mc` player given 2 ms a decision (its worlds
//!   resolved at the fixed rate), timed as `mc/samples=<K>`;
//!   `mc/budget_ms=2,own_rollout=frozen` with frozen own play, and
//!   `mc/budget_ms=2,own_rollout=frozen,frozen_turns=2` with only its
//!   first two rollout turns frozen (`...,adapt` also reading the
//!   opponent's kind; `...,frozen_turns=1,adapt` with one turn frozen).
//! - `games/<A>_vs_<B>`: the cost of a decision of A over whole eaai games
//!   against B (simple, and mc with 64 worlds: issue 17's two targets),
//!   where `mc/...` times the first hand of a game against greedy. A is
//!   built afresh for every game, as `ginlab run` builds it, so what A
//!   reads about B during a game (`adapt`) changes the cost as it would in
//!   a run. B's answers are recorded once and replayed, so only A's time is
//!   counted; one element is one decision asked of A. Six games a pairing
//!   by default; `GINLAB_BENCH_GAMES=N` plays N (a steadier level, since
//!   the mix of draws and turn ends varies from game to game).
//!
//! Results are checked against a first run, so a fast wrong player fails.
//!
//! Run: `cargo bench --bench strategies`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ginlab::engine::{
    Deck, DrawSource, Hand, PlayerView, Seat, Strategy, TurnEnd, ask, play_game, play_hand,
};
use ginlab::meld::DiscardMemo;
use ginlab::rules::Rules;
use ginlab::strategy::{
    Frozen, Greedy, GreedyRollout, Knowledge, McCaches, McConfig, McParams, MonteCarlo, Profile,
    Tracker,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn decks(n: usize) -> Vec<Deck> {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    (0..n).map(|_| Deck::shuffled(&mut rng)).collect()
}

/// Plays every deck, dealers alternating; the sum of points won by seat A.
fn play(rules: &Rules, decks: &[Deck], a: &mut dyn Strategy, b: &mut dyn Strategy) -> u64 {
    let mut players: [&mut dyn Strategy; 2] = [a, b];
    let mut points = 0;
    for (i, deck) in decks.iter().enumerate() {
        let mut hand = Hand::new(rules, black_box(deck), Seat::ALL[i % 2], [0, 0]).unwrap();
        let outcome = play_hand(&mut hand, &mut players).unwrap();
        if let Some((Seat::A, p)) = outcome.winner() {
            points += u64::from(p);
        }
    }
    points
}

/// The tracker knocking as soon as its estimate says the opponent is behind
/// (a knock bar of 0 instead of the default's 45 under eaai): the same
/// code playing hands as short as greedy's, so the cost of the tracker's
/// work per turn is seen apart from the length of the hands it plays.
const EARLY: &str = "tracker:hold=0,margin=0";

/// A bench id's name for a profile.
fn label(profile: &str) -> &str {
    if profile == EARLY {
        "tracker-bar0"
    } else {
        profile
    }
}

fn bench_hands(c: &mut Criterion) {
    let rules = Rules::eaai();
    let decks = decks(256);
    let mut group = c.benchmark_group("hands");
    group.throughput(Throughput::Elements(decks.len() as u64));
    for (a, b) in [
        ("greedy", "greedy"),
        ("tracker", "tracker"),
        ("tracker", "greedy"),
        (EARLY, EARLY),
    ] {
        let profiles: [Profile; 2] = [a.parse().unwrap(), b.parse().unwrap()];
        let run = || {
            let (mut x, mut y) = (profiles[0].build(1), profiles[1].build(2));
            play(&rules, &decks, x.as_mut(), y.as_mut())
        };
        let expected = run();
        group.bench_function(
            BenchmarkId::from_parameter(format!("{}_vs_{}", label(a), label(b))),
            |bench| bench.iter(|| assert_eq!(run(), expected)),
        );
    }
    group.finish();
}

/// Turns played (both seats counted) over the decks, as [`play`] plays them.
fn turns(rules: &Rules, decks: &[Deck], profiles: &[Profile; 2]) -> u64 {
    let (mut a, mut b) = (profiles[0].build(1), profiles[1].build(2));
    let mut players: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
    let mut turns = 0;
    for (i, deck) in decks.iter().enumerate() {
        let mut hand = Hand::new(rules, deck, Seat::ALL[i % 2], [0, 0]).unwrap();
        play_hand(&mut hand, &mut players).unwrap();
        turns += u64::from(hand.view(Seat::A).turn);
    }
    turns
}

/// One answer a strategy gave.
#[derive(Clone, Copy)]
enum Answer {
    Upcard(bool),
    Draw(DrawSource),
    End(TurnEnd),
}

/// Plays `inner` and records its answers (their count is the decisions asked).
struct Recorder {
    inner: Box<dyn Strategy>,
    answers: Vec<Answer>,
}

impl Strategy for Recorder {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn observes(&self) -> bool {
        self.inner.observes()
    }
    fn start_hand(&mut self, view: &PlayerView<'_>) {
        self.inner.start_hand(view);
    }
    fn observe(&mut self, view: &PlayerView<'_>, event: &ginlab::engine::Event) {
        self.inner.observe(view, event);
    }
    fn end_hand(&mut self, view: &PlayerView<'_>, outcome: &ginlab::engine::HandOutcome) {
        self.inner.end_hand(view, outcome);
    }
    fn end_game(&mut self, seat: Seat, result: &ginlab::engine::GameResult) {
        self.inner.end_game(seat, result);
    }
    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        let take = self.inner.take_upcard(view);
        self.answers.push(Answer::Upcard(take));
        take
    }
    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        let source = self.inner.draw(view);
        self.answers.push(Answer::Draw(source));
        source
    }
    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        let end = self.inner.end_turn(view);
        self.answers.push(Answer::End(end));
        end
    }
}

/// Gives recorded answers back in order, doing no work of its own.
struct Replay<'a> {
    answers: std::slice::Iter<'a, Answer>,
}

impl Replay<'_> {
    fn next(&mut self) -> Answer {
        *self.answers.next().expect("as many decisions as recorded")
    }
}

impl Strategy for Replay<'_> {
    fn name(&self) -> &str {
        "replay"
    }
    fn take_upcard(&mut self, _: &PlayerView<'_>) -> bool {
        let Answer::Upcard(take) = self.next() else {
            panic!("replayed out of step")
        };
        take
    }
    fn draw(&mut self, _: &PlayerView<'_>) -> DrawSource {
        let Answer::Draw(source) = self.next() else {
            panic!("replayed out of step")
        };
        source
    }
    fn end_turn(&mut self, _: &PlayerView<'_>) -> TurnEnd {
        let Answer::End(end) = self.next() else {
            panic!("replayed out of step")
        };
        end
    }
}

fn bench_decisions(c: &mut Criterion) {
    let rules = Rules::eaai();
    let decks = decks(256);
    let mut group = c.benchmark_group("decisions");
    let mut replays = Vec::new();
    for (a, b) in [
        ("greedy", "greedy"),
        ("tracker", "tracker"),
        ("tracker", "greedy"),
    ] {
        let profiles: [Profile; 2] = [a.parse().unwrap(), b.parse().unwrap()];
        let [mut x, mut y] = [(&profiles[0], 1), (&profiles[1], 2)].map(|(p, seed)| Recorder {
            inner: p.build(seed),
            answers: Vec::new(),
        });
        let expected = play(&rules, &decks, &mut x, &mut y);
        let turns = turns(&rules, &decks, &profiles);
        let recorders = [x, y];
        let answers = recorders.map(|r| r.answers);
        let asked = (answers[0].len() + answers[1].len()) as u64;
        let n = decks.len() as f64;
        eprintln!(
            "{a}_vs_{b} under eaai: {:.1} turns and {:.1} decisions per hand",
            turns as f64 / n,
            asked as f64 / n
        );
        let id = format!("{a}_vs_{b}");
        group.throughput(Throughput::Elements(asked));
        group.bench_function(BenchmarkId::from_parameter(&id), |bench| {
            bench.iter(|| {
                let (mut x, mut y) = (profiles[0].build(1), profiles[1].build(2));
                assert_eq!(play(&rules, &decks, x.as_mut(), y.as_mut()), expected);
            })
        });
        replays.push((id, answers, asked, expected));
    }
    group.finish();
    let mut group = c.benchmark_group("replay");
    for (id, answers, asked, expected) in &replays {
        group.throughput(Throughput::Elements(*asked));
        group.bench_function(BenchmarkId::from_parameter(id), |bench| {
            bench.iter(|| {
                let [mut x, mut y] = answers.each_ref().map(|a| Replay { answers: a.iter() });
                assert_eq!(play(&rules, &decks, &mut x, &mut y), *expected);
            })
        });
    }
    group.finish();
}

/// Copies of greedy-vs-greedy hands at every decision of seat A.
fn decision_states<'r>(rules: &'r Rules, decks: &[Deck]) -> Vec<Hand<'r>> {
    let mut states = Vec::new();
    for (i, deck) in decks.iter().enumerate() {
        let mut hand = Hand::new(rules, deck, Seat::ALL[i % 2], [0, 0]).unwrap();
        let mut players = [Greedy::default(), Greedy::default()];
        while let Some(seat) = hand.phase().seat() {
            if seat == Seat::A {
                states.push(hand.clone());
            }
            let action = ask(&mut players[seat.index()], &hand.view(seat));
            hand.apply(seat, action).unwrap();
        }
    }
    states
}

fn bench_rollouts(c: &mut Criterion) {
    let rules = Rules::eaai();
    let states = decision_states(&rules, &decks(64));
    let mut sampler = MonteCarlo::new(McConfig::default(), 5);
    let mut worlds = Vec::new();
    let mut frozen = Vec::new();
    for state in &states {
        let view = state.view(Seat::A);
        let knowledge = Knowledge::from_view(&view);
        frozen.push(Frozen::new(&knowledge, &Tracker::default()));
        for _ in 0..8 {
            worlds.push((
                view,
                frozen.len() - 1,
                sampler.sample_world(&view, Some(&knowledge)),
            ));
        }
    }
    // One memo of solves, as a player keeps one, emptied every iteration
    // (else the iterations after the first would find every hand in it).
    let memo = DiscardMemo::new();
    let mut group = c.benchmark_group("rollouts");
    for id in ["greedy", "frozen"] {
        let rollouts: Vec<GreedyRollout<'_>> = worlds
            .iter()
            .map(|(view, state, world)| {
                let rollout = GreedyRollout::new(view, world.opponent, &world.stock, &memo);
                match id {
                    "frozen" => rollout.with_frozen(Seat::A, &frozen[*state]),
                    _ => rollout,
                }
            })
            .collect();
        let run = || {
            memo.clear();
            let mut points = 0u64;
            for rollout in &rollouts {
                let outcome = black_box(rollout).clone().play([None, None]);
                if let Some((Seat::A, p)) = outcome.winner() {
                    points += u64::from(p);
                }
            }
            points
        };
        let expected = run();
        eprintln!(
            "rollouts/{id}: {} rollouts per iteration, {expected} points to A",
            rollouts.len()
        );
        group.throughput(Throughput::Elements(rollouts.len() as u64));
        group.bench_function(id, |bench| bench.iter(|| assert_eq!(run(), expected)));
    }
    group.finish();
}

fn bench_mc(c: &mut Criterion) {
    let rules = Rules::eaai();
    let decks = decks(8);
    let mut group = c.benchmark_group("mc");
    group.sample_size(10);
    let budget = "mc:budget_ms=2".parse::<Profile>().unwrap();
    let budget = budget.params::<McParams>().expect("an mc profile").clone();
    let mut players: Vec<(String, McParams)> = [16, 64, 128, 256]
        .map(|samples| {
            let params = McParams {
                samples,
                ..McParams::default()
            };
            (format!("samples={samples}"), params)
        })
        .into();
    players.push(("budget_ms=2".into(), budget.clone()));
    // This player's own rollout play by the tracker's frozen rules.
    let frozen = "mc:budget_ms=2,own_rollout=frozen"
        .parse::<Profile>()
        .unwrap();
    let frozen = frozen.params::<McParams>().expect("an mc profile").clone();
    players.push(("budget_ms=2,own_rollout=frozen".into(), frozen.clone()));
    // The same with only its first two turns of a rollout frozen.
    let two = McParams {
        frozen_turns: Some(2),
        ..frozen
    };
    players.push((
        "budget_ms=2,own_rollout=frozen,frozen_turns=2".into(),
        two.clone(),
    ));
    // And with the opponent read as a knocker or a gin player, with two
    // frozen turns or one.
    let adapt = McParams { adapt: true, ..two };
    players.push((
        "budget_ms=2,own_rollout=frozen,frozen_turns=2,adapt".into(),
        adapt.clone(),
    ));
    let one = McParams {
        frozen_turns: Some(1),
        ..adapt
    };
    players.push((
        "budget_ms=2,own_rollout=frozen,frozen_turns=1,adapt".into(),
        one,
    ));
    for (id, params) in players {
        // The measured tables (the hand prior, about 2.4 s to build) are
        // shared by every iteration, as by every game of a run: built once,
        // by the first run below, not timed in every iteration.
        let caches = McCaches::default();
        let run = || {
            let mut mc = MonteCarlo::with_caches(params.config().unwrap(), 1, caches.clone());
            let points = play(&rules, &decks, &mut mc, &mut Greedy::default());
            (points, mc.decisions())
        };
        let (expected, [asked, sampled]) = run();
        eprintln!("mc/{id}: {asked} decisions per iteration, {sampled} sampled ({params})");
        group.throughput(Throughput::Elements(asked));
        group.bench_function(BenchmarkId::from_parameter(id), |bench| {
            bench.iter(|| assert_eq!(run().0, expected))
        });
    }
    group.finish();
}

/// Plays `games` whole games from `seed`'s decks and first dealers, A built
/// afresh for each by `build`; A's decisions and the games A won.
fn play_games(
    rules: &Rules,
    seed: u64,
    games: usize,
    build: &dyn Fn() -> Box<dyn Strategy>,
    b: &mut dyn Strategy,
) -> (u64, u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let (mut asked, mut won) = (0, 0);
    for _ in 0..games {
        let mut a = Recorder {
            inner: build(),
            answers: Vec::new(),
        };
        let mut players: [&mut dyn Strategy; 2] = [&mut a, &mut *b];
        let result = play_game(rules, &mut players, &mut rng, |_, _| {}).unwrap();
        asked += a.answers.len() as u64;
        won += u64::from(result.winner == Seat::A);
    }
    (asked, won)
}

fn bench_games(c: &mut Criterion) {
    let rules = Rules::eaai();
    let games = match std::env::var("GINLAB_BENCH_GAMES") {
        Ok(n) => n
            .parse()
            .ok()
            .filter(|&g: &usize| g > 0)
            .unwrap_or_else(|| {
                panic!("GINLAB_BENCH_GAMES={n:?}: expected a count of games, 1 or more")
            }),
        Err(_) => 6,
    };
    let mut group = c.benchmark_group("games");
    group.sample_size(10);
    // Profiles of strategies/, one with a parameter added.
    for (file, extra) in [
        ("mc-2ms", None),
        ("mc-frozen-2ms", None),
        ("mc-frozen-2ms", Some(("prune", "true"))),
        ("mc-frozen-prune-2ms", None),
        ("mc-share-2ms", None),
    ] {
        let path = format!("{}/strategies/{file}.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut profile, _) = Profile::from_toml(&text).unwrap();
        let mut a = file.to_string();
        if let Some((key, value)) = extra {
            profile = profile.with_param(key, value).unwrap();
            a = format!("{file},{key}={value}");
        }
        let build = || profile.build(1);
        for b in ["simple", "mc"] {
            let opponent: Profile = b.parse().unwrap();
            let mut recorder = Recorder {
                inner: opponent.build(2),
                answers: Vec::new(),
            };
            let (asked, won) = play_games(&rules, 13, games, &build, &mut recorder);
            eprintln!("games/{a}_vs_{b}: {games} games, A won {won}, {asked} decisions of A");
            let answers = recorder.answers;
            group.throughput(Throughput::Elements(asked));
            group.bench_function(
                BenchmarkId::from_parameter(format!("{a}_vs_{b}")),
                |bench| {
                    bench.iter(|| {
                        let mut replay = Replay {
                            answers: answers.iter(),
                        };
                        assert_eq!(
                            play_games(&rules, 13, games, &build, &mut replay),
                            (asked, won)
                        );
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_hands,
    bench_decisions,
    bench_rollouts,
    bench_mc,
    bench_games
);
criterion_main!(benches);
