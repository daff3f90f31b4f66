//! The harness from Python: matches (built-in strategies in parallel with
//! the GIL released, Python objects in-process), experiment specs, sweeps
//! and balance studies, and the meld solver.
//!
//! Experiments are expanded into rows of (variant, players, plan) here and
//! each plan is run by the library's runner; summaries are the library's
//! [`SummaryRow`]s, as dicts.

use std::sync::{Arc, Mutex};

use ginlab::cards::{Card, CardSet};
use ginlab::experiment::{Experiment, Study, Sweep, sweep_values};
use ginlab::meld;
use ginlab::report::SummaryRow;
use ginlab::rules::{PRESETS, Rules};
use ginlab::sim::{Plan, Tallies, Work};
use ginlab::strategy::{Profile, Strategy};
use numpy::ndarray::Axis;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::players::{BuiltinStrategy, PyPlayer, profile};

/// Rules from a preset name or TOML text (knobs, optionally with `preset`).
pub fn rules_from(text: &str) -> PyResult<Rules> {
    if PRESETS.contains(&text) {
        return Rules::preset(text).map_err(|e| PyValueError::new_err(e.to_string()));
    }
    if text.contains('=') {
        return Rules::from_toml(text).map_err(|e| PyValueError::new_err(format!("rules: {e}")));
    }
    Err(PyValueError::new_err(format!(
        "rules {text:?}: give a preset ({}) or TOML text of rule knobs",
        PRESETS.join(", ")
    )))
}

/// One side of a match: a built-in profile or a Python object.
enum Side {
    Builtin(Profile),
    Object(Py<PyAny>, String),
}

impl Side {
    fn of(player: &Bound<'_, PyAny>) -> PyResult<Side> {
        if let Ok(text) = player.extract::<String>() {
            return Ok(Side::Builtin(profile(&text)?));
        }
        if let Ok(strategy) = player.cast::<BuiltinStrategy>() {
            return Ok(Side::Builtin(profile(
                &strategy.getattr("name")?.extract::<String>()?,
            )?));
        }
        let name = match player.getattr("name") {
            Ok(name) => name.str()?.to_string(),
            Err(_) => player.get_type().name()?.to_string(),
        };
        Side::object(player, name)
    }

    /// A Python object with an `act` method, called `name`.
    fn object(player: &Bound<'_, PyAny>, name: String) -> PyResult<Side> {
        if !player.hasattr("act")? {
            return Err(PyValueError::new_err(format!(
                "player {}: give a strategy profile (\"greedy\", \"mc:samples=64\") or an object with an act(observation) method",
                player.repr()?
            )));
        }
        Ok(Side::Object(player.clone().unbind(), name))
    }

    fn name(&self) -> String {
        match self {
            Side::Builtin(p) => p.to_string(),
            Side::Object(_, name) => name.clone(),
        }
    }

    fn profile(&self) -> Profile {
        match self {
            Side::Builtin(p) => p.clone(),
            // A stand-in that is never built: play_deal_with builds the
            // Python side itself.
            Side::Object(..) => "random".parse().expect("random is a built-in"),
        }
    }
}

fn work(games: Option<u64>, hands: Option<u64>) -> PyResult<Work> {
    match (games, hands) {
        (Some(n), None) if n > 0 => Ok(Work::Games(n)),
        (None, Some(n)) if n > 0 => Ok(Work::Hands(n)),
        _ => Err(PyValueError::new_err(
            "give exactly one of games=N or hands=N, with N > 0",
        )),
    }
}

fn summary<'py>(
    py: Python<'py>,
    variant: &str,
    names: [&str; 2],
    tallies: &Tallies,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let row = SummaryRow::new(variant, names[0], names[1], tallies, seed);
    // Through JSON text so that the dict keeps the row's column order.
    let text = serde_json::to_string(&row).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Runs `plan` of built-in players on `threads` threads, the GIL released.
fn run_plan(py: Python<'_>, plan: &Plan, threads: usize) -> PyResult<Tallies> {
    py.detach(|| plan.run(0..plan.deals(), threads, &|_| {}))
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Plays `plan` with `sides`: built-in players on `threads` threads with
/// the GIL released; with a Python player, deal after deal in this thread
/// (a Python error stops the play and is raised).
fn play(py: Python<'_>, plan: &Plan, sides: &[Side; 2], threads: usize) -> PyResult<Tallies> {
    // A pool of a million threads never starts: the CLI's cap, refused
    // before anything is played.
    ginlab::job::check_threads(threads).map_err(PyValueError::new_err)?;
    if sides.iter().all(|s| matches!(s, Side::Builtin(_))) {
        return run_plan(py, plan, threads);
    }
    let rules = crate::intern(plan.rules.clone());
    let error = Arc::new(Mutex::new(None));
    let build = |i: usize, seed: u64| -> Box<dyn Strategy> {
        match &sides[i] {
            Side::Builtin(p) => p.build(seed),
            Side::Object(object, name) => Box::new(PyPlayer::new(
                object.clone_ref(py),
                name.clone(),
                rules,
                error.clone(),
            )),
        }
    };
    let mut tallies = Tallies::default();
    for index in 0..plan.deals() {
        let played = plan.play_deal_with(index, &mut tallies, &build);
        if let Some(err) = error.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(err);
        }
        played.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        py.check_signals()?;
    }
    Ok(tallies)
}

/// Plays a match between `a` and `b` (profiles such as "greedy" or
/// "mc:samples=64", `Strategy` objects, or Python objects with an
/// `act(observation)` method) and returns its summary row as a dict.
/// Deals and seeds are the runner's, and deals are duplicated (seats
/// swapped) unless `duplicate=False`, as in `ginlab match`: the same seed
/// gives the same numbers as `ginlab match --seed`. Built-in players run on `threads`
/// threads (0: one per core) with the GIL released; a Python player plays
/// in this thread, deal after deal.
#[pyfunction(name = "match")]
#[pyo3(signature = (a, b, *, games = None, hands = None, rules = "standard", seed = 1, duplicate = true, threads = 0))]
#[allow(clippy::too_many_arguments)]
pub fn play_match<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    games: Option<u64>,
    hands: Option<u64>,
    rules: &str,
    seed: u64,
    duplicate: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let sides = [Side::of(a)?, Side::of(b)?];
    let names = [sides[0].name(), sides[1].name()];
    let variant = if PRESETS.contains(&rules) {
        rules
    } else {
        "custom"
    };
    let rules = rules_from(rules)?;
    let plan = Plan {
        rules: rules.clone(),
        profiles: [sides[0].profile(), sides[1].profile()],
        work: work(games, hands)?,
        duplicate,
        seed,
    };
    let tallies = play(py, &plan, &sides, threads)?;
    summary(py, variant, [&names[0], &names[1]], &tallies, seed)
}

/// One row of an experiment: its variant, players and plan.
type Row = (String, [Side; 2], Plan);

/// The rows of an experiment; a player named in `objects` is that Python
/// object.
fn rows(experiment: &Experiment, objects: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<Row>> {
    let work = experiment.amount.clone();
    let plan = |rules: &Rules, a: &Profile, b: &Profile, duplicate: bool| Plan {
        rules: rules.clone(),
        profiles: [a.clone(), b.clone()],
        work: work.clone(),
        duplicate,
        seed: experiment.seed,
    };
    if let Some(format) = experiment.format {
        return Err(PyValueError::new_err(format!(
            "format = \"{}\": the Python harness plays two-player rows; run three-player and partnership specs with `ginlab run`",
            format.name()
        )));
    }
    let mut rows = Vec::new();
    match &experiment.study {
        Study::Match => {
            let side = |name: &String| -> PyResult<Side> {
                match objects.map(|o| o.get_item(name)).transpose()?.flatten() {
                    Some(object) => Side::object(&object, name.clone()),
                    None => Ok(Side::Builtin(profile(name)?)),
                }
            };
            for (variant, rules) in &experiment.variants {
                for (i, j) in experiment.pairings() {
                    let sides = [side(&experiment.players[i])?, side(&experiment.players[j])?];
                    let (a, b) = (sides[0].profile(), sides[1].profile());
                    let plan = plan(rules, &a, &b, experiment.duplicate);
                    rows.push((variant.clone(), sides, plan));
                }
            }
        }
        Study::Sweep(Sweep {
            strategy,
            param,
            values,
            vs,
            ..
        }) => {
            let base = profile(strategy)?;
            let opponent = profile(vs)?;
            let values = sweep_values(values)
                .map_err(|e| PyValueError::new_err(format!("sweep values {e}")))?;
            for (variant, rules) in &experiment.variants {
                for value in &values {
                    let swept = base.with_param(param, value).map_err(|e| {
                        PyValueError::new_err(format!("sweep {param}={value}: {e}"))
                    })?;
                    let plan = plan(rules, &swept, &opponent, experiment.duplicate);
                    let sides = [Side::Builtin(swept), Side::Builtin(opponent.clone())];
                    rows.push((variant.clone(), sides, plan));
                }
            }
        }
        Study::Balance { strategy } => {
            let player = profile(strategy)?;
            for (variant, rules) in &experiment.variants {
                let sides = [Side::Builtin(player.clone()), Side::Builtin(player.clone())];
                // Balance measures the seats, so deals are not duplicated.
                rows.push((variant.clone(), sides, plan(rules, &player, &player, false)));
            }
        }
    }
    Ok(rows)
}

fn run_rows<'py>(py: Python<'py>, rows: &[Row], threads: usize) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for (variant, sides, plan) in rows {
        let tallies = play(py, plan, sides, threads)?;
        let names = [sides[0].name(), sides[1].name()];
        out.append(summary(
            py,
            variant,
            [&names[0], &names[1]],
            &tallies,
            plan.seed,
        )?)?;
        py.check_signals()?;
    }
    Ok(out)
}

/// Runs an experiment spec (TOML text, or the path of a .toml file; see
/// experiments/README.md) and returns one summary dict per row (variant and
/// pairing), in spec order: `pandas.DataFrame(ginlab.run(spec))`. Nothing
/// is written to disk. `players` maps player names of the spec to Python
/// objects with an `act(observation)` method, which play in-process.
#[pyfunction]
#[pyo3(signature = (spec, *, players = None, threads = 0))]
pub fn run<'py>(
    py: Python<'py>,
    spec: &str,
    players: Option<&Bound<'py, PyDict>>,
    threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let text = if spec.trim_end().ends_with(".toml") && !spec.contains('\n') {
        std::fs::read_to_string(spec)
            .map_err(|e| PyValueError::new_err(format!("reading experiment {spec}: {e}")))?
    } else {
        spec.to_owned()
    };
    let experiment = Experiment::from_toml(&text)
        .map_err(|e| PyValueError::new_err(format!("experiment: {e}")))?;
    run_rows(py, &rows(&experiment, players)?, threads)
}

fn variants(rules: Vec<String>) -> PyResult<Vec<(String, Rules)>> {
    rules
        .into_iter()
        .map(|r| {
            let name = if PRESETS.contains(&r.as_str()) {
                r.clone()
            } else {
                "custom".into()
            };
            Ok((name, rules_from(&r)?))
        })
        .collect()
}

fn study<'py>(
    py: Python<'py>,
    study: Study,
    rules: Vec<String>,
    amount: Work,
    seed: u64,
    duplicate: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let experiment = Experiment {
        name: None,
        seed,
        amount,
        duplicate,
        players: Vec::new(),
        pairing: ginlab::experiment::Pairing::HeadToHead,
        format: None,
        variants: variants(rules)?,
        study,
        anchor: None,
    };
    run_rows(py, &rows(&experiment, None)?, threads)
}

fn amount(games: Option<u64>, hands: Option<u64>) -> PyResult<Work> {
    work(games, hands)
}

/// Sweeps `param` of `strategy` over `values` (a list, or "A..=B") against
/// `vs` under each of `rules`; one summary dict per (rules, value), as
/// `ginlab sweep` plays them.
#[pyfunction]
#[pyo3(signature = (strategy, param, values, vs, *, games = None, hands = None, rules = vec!["standard".to_owned()], seed = 1, duplicate = true, threads = 0))]
#[allow(clippy::too_many_arguments)]
pub fn sweep<'py>(
    py: Python<'py>,
    strategy: &str,
    param: &str,
    values: &Bound<'py, PyAny>,
    vs: &str,
    games: Option<u64>,
    hands: Option<u64>,
    rules: Vec<String>,
    seed: u64,
    duplicate: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let values = match values.extract::<String>() {
        Ok(text) => text,
        Err(_) => values
            .try_iter()?
            .map(|v| Ok(v?.str()?.to_string()))
            .collect::<PyResult<Vec<String>>>()?
            .join(","),
    };
    let swept = Study::Sweep(Sweep {
        strategy: strategy.to_owned(),
        param: param.to_owned(),
        values,
        vs: vs.to_owned(),
        objective: None,
    });
    study(
        py,
        swept,
        rules,
        amount(games, hands)?,
        seed,
        duplicate,
        threads,
    )
}

/// Plays `strategy` against itself under each of `rules` (seats not
/// swapped) and returns one summary dict per variant: the seat and dealer
/// balance of each rule set, as `ginlab balance` measures it.
#[pyfunction]
#[pyo3(signature = (strategy, *, games = None, hands = None, rules = vec!["standard".to_owned()], seed = 1, threads = 0))]
pub fn balance<'py>(
    py: Python<'py>,
    strategy: &str,
    games: Option<u64>,
    hands: Option<u64>,
    rules: Vec<String>,
    seed: u64,
    threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let balanced = Study::Balance {
        strategy: strategy.to_owned(),
    };
    study(
        py,
        balanced,
        rules,
        amount(games, hands)?,
        seed,
        false,
        threads,
    )
}

fn parse_cards(cards: &Bound<'_, PyAny>) -> PyResult<CardSet> {
    let text = match cards.extract::<String>() {
        Ok(text) => text,
        Err(_) => cards
            .try_iter()?
            .map(|c| Ok(c?.str()?.to_string()))
            .collect::<PyResult<Vec<String>>>()?
            .join(" "),
    };
    text.parse::<CardSet>()
        .map_err(|e| PyValueError::new_err(format!("cards {text:?}: {e}")))
}

fn names(cards: CardSet) -> Vec<String> {
    cards.iter().map(|c: Card| c.to_string()).collect()
}

/// The best arrangement of `cards` ("AS 2S 3S ..." or a list of card
/// names): `deadwood`, `melds` (lists of card names), `deadwood_cards`.
#[pyfunction]
pub fn solve<'py>(py: Python<'py>, cards: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let hand = parse_cards(cards)?;
    if hand.len() > MAX_HAND {
        return Err(PyValueError::new_err(format!(
            "cards: a hand has at most {MAX_HAND} cards (10, and one drawn), this one has {}",
            hand.len()
        )));
    }
    let arrangement = meld::best_arrangement(hand);
    let d = PyDict::new(py);
    d.set_item("deadwood", arrangement.deadwood())?;
    let melds: Vec<Vec<String>> = arrangement.melds().map(|m| names(m.cards())).collect();
    d.set_item("melds", melds)?;
    d.set_item("deadwood_cards", names(arrangement.deadwood_cards()))?;
    Ok(d)
}

/// The most cards [`solve`] and [`solve_batch`] take, as `ginlab solve`:
/// the solver's work grows steeply with the hand, and 52 cards would not
/// finish.
const MAX_HAND: u32 = 11;

/// Hands [`solve_batch`] solves between two looks for Ctrl-C.
const SOLVE_CHUNK: usize = 1 << 14;

/// What [`solve_batch`] returns: deadwood per hand, melded cards per hand.
type Solved<'py> = (Bound<'py, PyArray1<u16>>, Bound<'py, PyArray2<bool>>);

/// The meld solver on a batch: `hands` is an (N, 52) array of 0/1 (card id
/// `13 * suit + rank`); returns `(deadwood (N,) uint16, melded (N, 52)
/// bool)`; a row of more than 11 cards is a `ValueError`. The GIL is
/// released while it solves, and Ctrl-C interrupts it between chunks of
/// hands.
#[pyfunction]
pub fn solve_batch<'py>(
    py: Python<'py>,
    hands: PyReadonlyArray2<'py, u8>,
) -> PyResult<Solved<'py>> {
    let shape = hands.shape();
    if shape[1] != 52 {
        return Err(PyValueError::new_err(format!(
            "hands has shape {shape:?}: it must be (N, 52), one 0/1 column per card id"
        )));
    }
    let n = shape[0];
    let cells = hands.as_array();
    let mut deadwood = Vec::with_capacity(n);
    let mut melded = vec![false; n * 52];
    // Chunk by chunk with the GIL released (reading the rows too), looking
    // for Ctrl-C between chunks.
    let chunks = cells.axis_chunks_iter(Axis(0), SOLVE_CHUNK);
    for (start, (rows, out)) in (0..)
        .step_by(SOLVE_CHUNK)
        .zip(chunks.zip(melded.chunks_mut(SOLVE_CHUNK * 52)))
    {
        let solved = &mut deadwood;
        let too_big = py.detach(|| {
            for (i, row) in rows.rows().into_iter().enumerate() {
                let hand: CardSet = row
                    .iter()
                    .enumerate()
                    .filter(|&(_, &x)| x != 0)
                    .map(|(i, _)| Card::from_index(i as u8).expect("52 columns"))
                    .collect();
                if hand.len() > MAX_HAND {
                    return Some((start + i, hand.len()));
                }
                let arrangement = meld::best_arrangement(hand);
                solved.push(arrangement.deadwood());
                for card in arrangement.melded() {
                    out[i * 52 + usize::from(card.index())] = true;
                }
            }
            None
        });
        if let Some((row, count)) = too_big {
            return Err(PyValueError::new_err(format!(
                "hands row {row} has {count} cards: a hand has at most {MAX_HAND} (10, and one drawn)"
            )));
        }
        py.check_signals()?;
    }
    let melded = PyArray1::from_vec(py, melded).reshape([n, 52])?;
    Ok((PyArray1::from_vec(py, deadwood), melded))
}
