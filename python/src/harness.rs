//! The harness from Python: `match`, `run`, `sweep` and `balance` fill a
//! [`JobRequest`] as the CLI's commands do and run it through the job layer
//! (`ginlab::job::run`), so they take every format, rules file, knob and
//! option the CLI takes, with its messages, and with `out` write its
//! folder byte for byte. Python objects play as profiles of their own kind
//! ([`PyObject`]), the job layer's one player seam. Also the meld solver.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use ginlab::cards::{Card, CardSet};
use ginlab::engine::Seat;
use ginlab::experiment::{Experiment, Pairing, Sweep};
use ginlab::job::{
    self, JobError, JobRequest, JobSpec, Layout, Options, Outcome, Player, SPEC_FILE, Shard,
};
use ginlab::meld;
use ginlab::report::{Objective, SprtJson, json_report};
use ginlab::rules::{PRESETS, Rules};
use ginlab::sim::{Format, Work};
use ginlab::stats::Sprt;
use numpy::ndarray::Axis;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::players::{BuiltinStrategy, PyObject, Stop};

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

/// The arguments every job function takes besides its players and amount.
struct Run<'a> {
    threads: usize,
    shard: Option<&'a str>,
    resume: bool,
    record: Option<PathBuf>,
    sprt: Option<&'a str>,
}

impl Run<'_> {
    /// The job layer's options.
    fn options(&self) -> PyResult<Options> {
        let shard = parsed::<Shard>("shard", self.shard)?;
        let stop = parsed::<Sprt>("sprt", self.sprt)?;
        ginlab::job::check_threads(self.threads).map_err(PyValueError::new_err)?;
        Ok(Options {
            shard,
            resume: self.resume,
            threads: self.threads,
            record: self.record.clone(),
            stop,
            block: None,
            abort: None,
        })
    }
}

/// The keyword `name`'s `text` read as the CLI reads its flag, if given.
fn parsed<T: FromStr>(name: &str, text: Option<&str>) -> PyResult<Option<T>>
where
    T::Err: std::fmt::Display,
{
    text.map(|text| {
        text.parse::<T>()
            .map_err(|e| PyValueError::new_err(format!("{name} {text:?}: {e}")))
    })
    .transpose()
}

/// The players given as Python objects, by the argument that names them,
/// what they share to stop the job, and the lab every player is bound to.
struct Objects {
    players: HashMap<String, Player>,
    stop: Arc<Stop>,
    /// The process's lab: its bots run through the package's sandbox
    /// launcher.
    lab: &'static ginlab::lab::Lab,
}

impl Objects {
    fn new(py: Python<'_>) -> PyResult<Objects> {
        Ok(Objects {
            players: HashMap::new(),
            stop: Arc::default(),
            lab: crate::sandbox::lab(py)?,
        })
    }

    /// The argument for `player`: a profile's text, or a key under which
    /// a Python object (with its name) is kept.
    fn argument(&mut self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        if let Ok(text) = player.extract::<String>() {
            return Ok(text);
        }
        if let Ok(strategy) = player.cast::<BuiltinStrategy>() {
            return strategy.getattr("name")?.extract::<String>();
        }
        let name = match player.getattr("name") {
            Ok(name) => name.str()?.to_string(),
            Err(_) => player.get_type().name()?.to_string(),
        };
        let key = format!("\u{1}python object {}", self.players.len());
        self.add(&key, player, name)?;
        Ok(key)
    }

    /// Keeps `object` as the player `key` names, called `name`.
    fn add(&mut self, key: &str, object: &Bound<'_, PyAny>, name: String) -> PyResult<()> {
        let profile = PyObject::profile(object, name.clone(), &self.stop)?;
        self.players
            .insert(key.to_owned(), Player { profile, name });
        Ok(())
    }

    /// Resolves a strategy argument: a Python object's key, else as the CLI
    /// does (built-ins, profiles, files, external bots).
    fn resolve(&self, spec: &str, who: &str) -> Result<Player, JobError> {
        match self.players.get(spec) {
            Some(player) => Ok(player.clone()),
            None => ginlab::job::player(self.lab, spec, who),
        }
    }
}

/// A job error as a Python exception: bad input is a `ValueError`, a
/// failure while running a `RuntimeError`.
fn job_error(error: JobError) -> PyErr {
    if error.is_input() {
        PyValueError::new_err(error.chain())
    } else {
        PyRuntimeError::new_err(error.chain())
    }
}

/// Builds `request` with `objects` as players and runs it; returns its
/// result rows (see [`rows`]).
fn play<'py>(
    py: Python<'py>,
    request: JobRequest,
    objects: &Objects,
    run: &Run<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut options = run.options()?;
    let spec = request
        .build(&|spec: &str, who: &str| objects.resolve(spec, who))
        .map_err(job_error)?;
    if !objects.players.is_empty() {
        // Python objects are asked deal after deal on one thread, so an
        // object that keeps state sees the same sequence every run; short
        // blocks let an error or Ctrl-C stop the job soon.
        options.threads = 1;
        options.block = Some(PYTHON_BLOCK);
    } else if spec.dir.is_none() {
        options.block = Some(BUILTIN_BLOCK);
    }
    options.abort = Some(objects.stop.abort.clone());
    let outcome = run_job(py, &spec, &options, &objects.stop)?;
    rows(py, &outcome)
}

/// Deals per block with a Python player: how soon it stops after an error.
const PYTHON_BLOCK: u64 = 16;

/// Deals per block of built-in players without a folder: how soon Ctrl-C
/// stops them (the result does not depend on it).
const BUILTIN_BLOCK: u64 = 4096;

/// Runs `spec` on a thread of its own with the GIL released, looking for
/// Ctrl-C meanwhile (which stops the job after its block); a Python
/// player's error is raised as itself.
fn run_job(py: Python<'_>, spec: &JobSpec, options: &Options, stop: &Stop) -> PyResult<Outcome> {
    let mut interrupted = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel();
            scope.spawn(move || {
                let _ = tx.send(job::run(spec, options, &|_| {}));
            });
            loop {
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(result) => break result,
                    Err(RecvTimeoutError::Timeout) => {
                        if interrupted.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            interrupted = Some(e);
                            stop.abort.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        break Err(JobError::Run("the job's thread ended".into()));
                    }
                }
            }
        })
    });
    if let Some(err) = stop.take().or(interrupted) {
        return Err(err);
    }
    result.map_err(job_error)
}

/// A finished job's rows as a dict, one key per file the CLI writes:
/// `summary` (and `seats` for three players or partnerships), `sweep`,
/// `balance`, `ratings` and `crosstable` when the job makes them, each a
/// list of row dicts in the file's column order; and `sprt` (a dict) when
/// a stopping rule was given. `crosstable` is `crosstable.csv`'s text
/// when the job made a rating list.
fn rows<'py>(py: Python<'py>, outcome: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let sprt = outcome.stopped.as_ref().map(SprtJson::new);
    let text = json_report(
        &outcome.summary,
        outcome.ratings.as_deref(),
        outcome.study.as_ref(),
        sprt,
    );
    // Through JSON text so that each dict keeps its file's column order.
    let rows = py
        .import("json")?
        .call_method1("loads", (text,))?
        .cast_into::<PyDict>()?;
    if let Some(text) = &outcome.crosstable {
        rows.set_item("crosstable", crosstable_rows(py, text.clone())?)?;
    }
    Ok(rows)
}

/// The rows of `crosstable.csv` (`text`): variant, player, and the
/// player's score against each player (`None` where they did not meet).
fn crosstable_rows(py: Python<'_>, text: String) -> PyResult<Bound<'_, PyList>> {
    let io = py.import("io")?.call_method1("StringIO", (text,))?;
    let mut lines = py
        .import("csv")?
        .call_method1("reader", (io,))?
        .try_iter()?;
    let header: Vec<String> = match lines.next() {
        Some(line) => line?.extract()?,
        None => Vec::new(),
    };
    let out = PyList::empty(py);
    for line in lines {
        let cells: Vec<String> = line?.extract()?;
        let row = PyDict::new(py);
        for (i, (key, cell)) in header.iter().zip(&cells).enumerate() {
            if i < 2 {
                row.set_item(key, cell)?;
            } else if cell.is_empty() {
                row.set_item(key, py.None())?;
            } else {
                let value: f64 = cell
                    .parse()
                    .map_err(|e| PyRuntimeError::new_err(format!("crosstable {cell}: {e}")))?;
                row.set_item(key, value)?;
            }
        }
        out.append(row)?;
    }
    Ok(out)
}

/// Merges the shard folders `shards` (each made with `shard="K/N"` and
/// `out`) into `out`, as `ginlab merge` does: the files one unsharded run
/// writes, byte for byte; with `record`, also the shards' parts of the
/// game record (each shard run with `record=`) into the record one
/// unsharded run writes. Returns their rows, as `run` does.
#[pyfunction]
#[pyo3(signature = (shards, *, out, record = None))]
pub fn merge(
    py: Python<'_>,
    shards: Vec<PathBuf>,
    out: PathBuf,
    record: Option<PathBuf>,
) -> PyResult<Bound<'_, PyDict>> {
    let given: Vec<String> = shards.iter().map(|p| p.display().to_string()).collect();
    let command = command("merge", &given);
    let outcome = py
        .detach(|| job::merge(&shards, &out, record.as_deref(), &command))
        .map_err(job_error)?;
    rows(py, &outcome)
}

/// One string or a sequence of them (`rules="hoyle"` or
/// `rules=["standard", "hoyle"]`), as a list; `None` is empty.
fn strings(value: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    if let Ok(text) = value.extract::<String>() {
        return Ok(vec![text]);
    }
    value.extract::<Vec<String>>()
}

/// `games=N` or `hands=N`, exactly one, as the CLI's `--games`/`--hands`.
fn work(games: Option<u64>, hands: Option<u64>) -> PyResult<Work> {
    match (games, hands) {
        (Some(n), None) if n > 0 => Ok(Work::Games(n)),
        (None, Some(n)) if n > 0 => Ok(Work::Hands(n)),
        _ => Err(PyValueError::new_err(
            "give exactly one of games=N or hands=N, with N > 0",
        )),
    }
}

/// The command a manifest records for a Python call.
fn command(function: &str, args: &[String]) -> Vec<String> {
    std::iter::once(format!("python: ginlab.{function}"))
        .chain(args.iter().cloned())
        .collect()
}

/// Plays a match, as `ginlab match` does: two players `a` and `b`, three
/// with `c`, or two partnerships `teams=[A, B]` against `vs=[C, D]`. A
/// player is a strategy argument as the CLI takes it (a built-in or
/// inline profile, a profile in strategies/ or a file, `exec:COMMAND`), a
/// `Strategy` object, or a Python object with an `act(observation)` method
/// (played in-process, deal after deal on one thread). Returns the rows of
/// the files the CLI writes (see [`rows`]); with `out`, writes them there
/// as `ginlab match --out` does, byte for byte.
#[pyfunction(name = "match")]
#[pyo3(signature = (a = None, b = None, c = None, *, teams = None, vs = None, games = None, hands = None, decks = None, dealer = None, rules = "standard", rule = None, seed = 1, duplicate = true, threads = 0, out = None, shard = None, resume = false, record = None, sprt = None, budget_ms = None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match<'py>(
    py: Python<'py>,
    a: Option<&Bound<'py, PyAny>>,
    b: Option<&Bound<'py, PyAny>>,
    c: Option<&Bound<'py, PyAny>>,
    teams: Option<Vec<Bound<'py, PyAny>>>,
    vs: Option<Vec<Bound<'py, PyAny>>>,
    games: Option<u64>,
    hands: Option<u64>,
    decks: Option<PathBuf>,
    dealer: Option<&str>,
    rules: &str,
    rule: Option<&Bound<'py, PyAny>>,
    seed: u64,
    duplicate: bool,
    threads: usize,
    out: Option<PathBuf>,
    shard: Option<&str>,
    resume: bool,
    record: Option<PathBuf>,
    sprt: Option<&str>,
    budget_ms: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut objects = Objects::new(py)?;
    let mut given = |players: &[&Bound<'py, PyAny>]| -> PyResult<Vec<(String, String)>> {
        players
            .iter()
            .enumerate()
            .map(|(i, p)| Ok((objects.argument(p)?, ["A", "B", "C", "D"][i].to_owned())))
            .collect()
    };
    let layout = match (a, b, c, &teams, &vs) {
        (None, None, None, Some(teams), Some(vs)) if teams.len() == 2 && vs.len() == 2 => {
            let players: Vec<&Bound<'py, PyAny>> = teams.iter().chain(vs).collect();
            Layout::Table {
                format: Format::Partnership,
                players: given(&players)?,
            }
        }
        (_, _, _, Some(_), _) | (_, _, _, _, Some(_)) => {
            return Err(PyValueError::new_err(
                "teams=[A, B] and vs=[C, D]: two partnerships of two players each, and no a, b or c",
            ));
        }
        (Some(a), Some(b), Some(c), None, None) => Layout::Table {
            format: Format::Three,
            players: given(&[a, b, c])?,
        },
        (Some(a), Some(b), None, None, None) => Layout::Pairs {
            players: given(&[a, b])?,
            pairing: Pairing::HeadToHead,
        },
        _ => {
            return Err(PyValueError::new_err(
                "give two players (a, b), three (a, b, c), or teams=[A, B] and vs=[C, D]",
            ));
        }
    };
    let work = match decks {
        Some(path) if games.is_none() && hands.is_none() => Work::Decks {
            decks: ginlab::job::decks(&path).map_err(job_error)?,
            dealer: match dealer {
                None | Some("b") => Seat::B,
                Some("a") => Seat::A,
                Some(other) => {
                    return Err(PyValueError::new_err(format!(
                        "dealer={other:?}: the dealer of every deck is \"a\" or \"b\""
                    )));
                }
            },
        },
        Some(_) => {
            return Err(PyValueError::new_err(
                "give exactly one of games=N, hands=N or decks=FILE",
            ));
        }
        None if dealer.is_some() => {
            return Err(PyValueError::new_err(
                "dealer= goes with decks= only: hands dealt from the seed alternate dealers by deal",
            ));
        }
        None => work(games, hands)?,
    };
    let variant = ginlab::job::match_variant(rules, &strings(rule)?).map_err(job_error)?;
    let request = request(
        "match",
        vec![variant],
        layout,
        work,
        seed,
        duplicate,
        out,
        budget_ms,
    );
    let run = Run {
        threads,
        shard,
        resume,
        record,
        sprt,
    };
    play(py, request, &objects, &run)
}

/// Runs an experiment spec (TOML text, or the path of a .toml file; see
/// experiments/README.md) as `ginlab run` does, every format included, and
/// returns the rows of the files it writes (see [`rows`]). Nothing is
/// written without `out`; with it, the folder is the CLI's, byte for byte.
/// `players` maps player names of the spec to Python objects with an
/// `act(observation)` method, which play in-process.
#[pyfunction]
#[pyo3(signature = (spec, *, players = None, out = None, threads = 0, shard = None, resume = false, record = None, anchor = None))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    spec: &str,
    players: Option<&Bound<'py, PyDict>>,
    out: Option<PathBuf>,
    threads: usize,
    shard: Option<&str>,
    resume: bool,
    record: Option<PathBuf>,
    anchor: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let path =
        (spec.trim_end().ends_with(".toml") && !spec.contains('\n')).then(|| Path::new(spec));
    let text = match path {
        Some(path) => SPEC_FILE.read_file(path).map_err(job_error)?,
        None => spec.to_owned(),
    };
    let experiment = Experiment::from_toml(&text).map_err(|e| match path {
        Some(path) => PyValueError::new_err(format!("experiment {}: {e}", path.display())),
        None => PyValueError::new_err(format!("experiment: {e}")),
    })?;
    let mut objects = Objects::new(py)?;
    for (name, object) in players.into_iter().flatten() {
        let name: String = name.extract()?;
        objects.add(&name, &object, name.clone())?;
    }
    let mut request = JobRequest::from_experiment(experiment, "", text, out, command("run", &[]));
    // No folder unless `out` is given.
    request.name = None;
    request.default_folder = false;
    if let Some(path) = path {
        request.command.push(path.display().to_string());
    }
    if anchor.is_some() {
        request.anchor = anchor;
    }
    let run = Run {
        threads,
        shard,
        resume,
        record,
        sprt: None,
    };
    play(py, request, &objects, &run)
}

/// The request of a Python call to `function` (`match`, `sweep`,
/// `balance`): `layout` under `variants`; a folder only with `out`.
#[allow(clippy::too_many_arguments)]
fn request(
    function: &str,
    variants: Vec<(String, Rules)>,
    layout: Layout,
    work: Work,
    seed: u64,
    duplicate: bool,
    out: Option<PathBuf>,
    budget_ms: Option<f64>,
) -> JobRequest {
    JobRequest {
        variants,
        layout,
        work,
        seed,
        duplicate,
        out,
        name: None,
        default_folder: false,
        command: command(function, &[]),
        experiment: None,
        anchor: None,
        budget_ms,
    }
}

/// A study's variants: `rules` (presets or rules files, default
/// `standard`) with the knob overrides `rule`.
fn study_variants(
    rules: Option<&Bound<'_, PyAny>>,
    rule: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(String, Rules)>> {
    ginlab::job::study_variants(&strings(rules)?, &strings(rule)?).map_err(job_error)
}

/// Sweeps `param` of `strategy` over `values` (a list, or "A..=B") against
/// `vs` under each of `rules`, as `ginlab sweep` does; returns the rows of
/// its files (`summary`, `sweep`; see [`rows`]).
#[pyfunction]
#[pyo3(signature = (strategy, param, values, vs, *, games = None, hands = None, rules = None, rule = None, seed = 1, duplicate = true, threads = 0, out = None, shard = None, resume = false, objective = None, budget_ms = None))]
#[allow(clippy::too_many_arguments)]
pub fn sweep<'py>(
    py: Python<'py>,
    strategy: &str,
    param: &str,
    values: &Bound<'py, PyAny>,
    vs: &str,
    games: Option<u64>,
    hands: Option<u64>,
    rules: Option<&Bound<'py, PyAny>>,
    rule: Option<&Bound<'py, PyAny>>,
    seed: u64,
    duplicate: bool,
    threads: usize,
    out: Option<PathBuf>,
    shard: Option<&str>,
    resume: bool,
    objective: Option<&str>,
    budget_ms: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let values = match values.extract::<String>() {
        Ok(text) => text,
        Err(_) => values
            .try_iter()?
            .map(|v| Ok(v?.str()?.to_string()))
            .collect::<PyResult<Vec<String>>>()?
            .join(","),
    };
    let objective = parsed::<Objective>("objective", objective)?;
    let layout = Layout::Sweep(Sweep {
        strategy: strategy.to_owned(),
        param: param.to_owned(),
        values,
        vs: vs.to_owned(),
        objective,
    });
    let request = request(
        "sweep",
        study_variants(rules, rule)?,
        layout,
        work(games, hands)?,
        seed,
        duplicate,
        out,
        budget_ms,
    );
    let run = Run {
        threads,
        shard,
        resume,
        record: None,
        sprt: None,
    };
    play(py, request, &Objects::new(py)?, &run)
}

/// Plays `strategy` against itself under each of `rules` (seats not
/// swapped, every deal once), as `ginlab balance` does; returns the rows
/// of its files (`summary`, `balance`; see [`rows`]).
#[pyfunction]
#[pyo3(signature = (strategy, *, games = None, hands = None, rules = None, rule = None, seed = 1, threads = 0, out = None, shard = None, resume = false, budget_ms = None))]
#[allow(clippy::too_many_arguments)]
pub fn balance<'py>(
    py: Python<'py>,
    strategy: &str,
    games: Option<u64>,
    hands: Option<u64>,
    rules: Option<&Bound<'py, PyAny>>,
    rule: Option<&Bound<'py, PyAny>>,
    seed: u64,
    threads: usize,
    out: Option<PathBuf>,
    shard: Option<&str>,
    resume: bool,
    budget_ms: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let layout = Layout::Balance {
        strategy: strategy.to_owned(),
    };
    let request = request(
        "balance",
        study_variants(rules, rule)?,
        layout,
        work(games, hands)?,
        seed,
        true,
        out,
        budget_ms,
    );
    let run = Run {
        threads,
        shard,
        resume,
        record: None,
        sprt: None,
    };
    play(py, request, &Objects::new(py)?, &run)
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
