//! The tuning loop: per variant, a search (racing or SPSA) block by block
//! through an [`Evaluate`], its state written to the output folder after
//! every block (`tune.json`, written whole through the folder's handle),
//! so a run killed at any point resumes to the same files; then the
//! confirmation match through the job layer and the result files.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::job::{JobError, claim_dir};
use crate::report::{CHECKPOINT, Objective, write_atomic};
use crate::strategy::Profile;

use super::evaluate::{Evaluate, Matches};
use super::objective::Unit;
use super::racing::Race;
use super::request::{Method, TuneRequest};
use super::space::{Setting, Space};
use super::spsa::{Gains, Spsa};

/// The state file of a tuning run (also kept when it is finished).
pub const STATE: &str = "tune.json";

/// The state file's format.
const VERSION: u32 = 1;

/// Most settings a race takes.
pub const MAX_ARMS: usize = 1024;

/// Most bytes of a state file read.
const STATE_CAP: u64 = 64 << 20;

/// One variant's search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Search {
    /// A race over the grid's settings.
    Race(Race),
    /// SPSA.
    Spsa(Spsa),
}

/// One variant's progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantState {
    /// The variant.
    pub variant: String,
    /// The search.
    pub search: Search,
    /// Games (or hands) played so far, every arm and opponent counted.
    pub played: u64,
    /// Hands played so far.
    pub hands: u64,
    /// The search has ended (one arm left, or the budget).
    pub done: bool,
}

/// What `tune.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// The format.
    pub version: u32,
    /// Everything that decides the result.
    pub fingerprint: String,
    /// The settings of the grid (racing), as inline values per dimension.
    pub settings: Vec<Setting>,
    /// Each variant's search.
    pub variants: Vec<VariantState>,
    /// The confirmation while it is played (absent before it starts and
    /// once its folder is written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<super::confirm::Confirmation>,
}

/// The searched space of a request: the space, the method, the grid.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The space.
    pub space: Space,
    /// The method.
    pub method: Method,
    /// The grid (racing).
    pub settings: Vec<Setting>,
}

impl Plan {
    /// Checks a request and decides its method.
    ///
    /// # Errors
    /// [`JobError::Input`] naming the parameter, number or option at fault.
    pub fn of(request: &TuneRequest) -> Result<Plan, JobError> {
        let input = JobError::Input;
        let space = Space::new(request.strategy.profile.clone(), &request.params).map_err(input)?;
        if request.objective == Objective::Games && !request.games {
            return Err(JobError::Input(
                "objective games: this run plays hands, not games; choose one of hands, points or elo".into(),
            ));
        }
        if !(request.confidence > 0.0 && request.confidence < 1.0) {
            return Err(JobError::Input(format!(
                "confidence {}: a number above 0 and below 1 (0.95 for 95 %)",
                request.confidence
            )));
        }
        if request.block == 0 || request.budget == 0 {
            return Err(JobError::Input(
                "the budget and the deals per block must be positive".into(),
            ));
        }
        if !(request.spsa_c > 0.0 && request.spsa_c <= 0.5)
            || request.spsa_a.is_some_and(|a| !(a > 0.0 && a.is_finite()))
        {
            return Err(JobError::Input(
                "SPSA's c is a fraction of each range above 0 and at most 0.5, and a is a positive number".into(),
            ));
        }
        if request.opponents.is_empty() || request.opponents.iter().any(|(_, w)| *w == 0) {
            return Err(JobError::Input(
                "give at least one opponent, each with a positive weight".into(),
            ));
        }
        let grid = space.grid();
        let method = match (request.method, &grid) {
            (Some(m), _) => m,
            (None, Some(g)) if g.len() <= 64 => Method::Race,
            (None, _) => Method::Spsa,
        };
        let settings = match method {
            Method::Race => {
                let grid = grid.ok_or_else(|| {
                    let dim = space.dims.iter().find(|d| d.grid().is_none()).expect("a range");
                    JobError::Input(format!(
                        "parameter `{dim}`: racing needs a grid (integers LO..=HI or a list of values), not a range of numbers; use method spsa"
                    ))
                })?;
                if grid.len() > MAX_ARMS {
                    return Err(JobError::Input(format!(
                        "the grid has {} settings; racing takes at most {MAX_ARMS}: use method spsa or fewer values",
                        grid.len()
                    )));
                }
                grid
            }
            Method::Spsa => {
                space.ranges().map_err(JobError::Input)?;
                Vec::new()
            }
        };
        Ok(Plan {
            space,
            method,
            settings,
        })
    }

    /// The profiles of settings.
    fn profiles(&self, settings: &[Setting]) -> Result<Vec<Profile>, JobError> {
        settings
            .iter()
            .map(|s| self.space.profile(s).map_err(JobError::Input))
            .collect()
    }

    /// An SPSA value vector as a setting.
    fn spsa_setting(values: &[f64], ranges: &[(f64, f64, bool)]) -> Setting {
        values
            .iter()
            .zip(ranges)
            .map(|(v, (_, _, integer))| {
                if *integer {
                    format!("{}", *v as i64)
                } else {
                    format!("{}", (v * 1e6).round() / 1e6)
                }
            })
            .collect()
    }
}

/// Everything that decides a tuning run's result (not the threads).
fn fingerprint(request: &TuneRequest, plan: &Plan) -> String {
    let opponents: Vec<String> = request
        .opponents
        .iter()
        .map(|(p, w)| format!("{}*{w}", p.profile))
        .collect();
    let variants: Vec<String> = request
        .variants
        .iter()
        .map(|(name, rules)| format!("[{name}]\n{}", rules.to_toml()))
        .collect();
    format!(
        "tune {VERSION}\nstrategy {}\nparams {}\nmethod {}\nopponents {}\nobjective {:?}\ngames {}\nbudget {}\nseed {}\nconfidence {}\nblock {}\nspsa a {:?} c {}\n{}",
        request.strategy.profile,
        plan.space,
        plan.method.name(),
        opponents.join(" "),
        request.objective,
        request.games,
        request.budget,
        request.seed,
        request.confidence,
        request.block,
        request.spsa_a,
        request.spsa_c,
        variants.join("\n")
    )
}

/// The state to start from: the one in the folder with `resume` (checked),
/// else a fresh one. A folder holding an unfinished run needs `resume`.
fn start(
    request: &TuneRequest,
    plan: &Plan,
    resume: bool,
    fresh: TuneState,
) -> Result<TuneState, JobError> {
    let path = request.out.join(STATE);
    let dir = request.out.display();
    let saved = if path.is_file() {
        let bytes = crate::job::read_capped(&path, STATE_CAP)?;
        Some(serde_json::from_slice::<TuneState>(&bytes).map_err(|e| {
            JobError::Input(format!(
                "{}: not a ginlab tuning state: {e}",
                path.display()
            ))
        })?)
    } else {
        None
    };
    let unfinished = saved
        .as_ref()
        .is_some_and(|s| s.variants.iter().any(|v| !v.done) || s.confirm.is_some())
        || request.out.join(CHECKPOINT_DIR).join(CHECKPOINT).is_file();
    match (resume, saved) {
        (false, _) if unfinished => Err(JobError::Input(format!(
            "{dir} holds an unfinished tuning run: add --resume to continue it, or remove {}",
            path.display()
        ))),
        (false, _) => Ok(fresh),
        (true, None) => Err(JobError::Input(format!(
            "--resume: no tuning state in {dir} (nothing to resume; run without --resume)"
        ))),
        (true, Some(saved)) => {
            if saved.version != VERSION
                || saved.fingerprint != fresh.fingerprint
                || saved.settings != fresh.settings
                || saved.variants.len() != request.variants.len()
            {
                return Err(JobError::Input(format!(
                    "--resume: the tuning state in {dir} is from a different run (other strategy, parameters, opponents, rules, budget or seed)"
                )));
            }
            let _ = plan;
            Ok(saved)
        }
    }
}

/// The confirmation's folder inside the output folder.
pub const CHECKPOINT_DIR: &str = "confirm";

/// Plays the searches of every variant of `request` (resuming from the
/// folder's state with `resume`), writing the state after every block;
/// `status` gets a line after each block.
///
/// # Errors
/// [`JobError::Input`] for a bad request or folder, [`JobError::Run`] for
/// a failure while playing or writing.
pub fn search(
    request: &TuneRequest,
    threads: usize,
    resume: bool,
    status: &dyn Fn(&str),
) -> Result<(Plan, TuneState, crate::job::Claim), JobError> {
    let plan = Plan::of(request)?;
    crate::job::check_threads(threads).map_err(JobError::Input)?;
    let claim = claim_dir(&request.out)?;
    let variants = request
        .variants
        .iter()
        .map(|(name, _)| {
            Ok(VariantState {
                variant: name.clone(),
                search: match plan.method {
                    Method::Race => Search::Race(Race::new(plan.settings.len())),
                    Method::Spsa => {
                        let ranges = plan.space.ranges().map_err(JobError::Input)?;
                        let start = start_values(&plan, &ranges);
                        let per_block = 2 * request.block * request.opponents.len() as u64;
                        let iterations = request.budget / (2 * per_block);
                        let a = request.spsa_a.unwrap_or(match request.objective {
                            Objective::Points => 0.03,
                            _ => 1.0,
                        });
                        let gains = Gains {
                            a,
                            c: request.spsa_c,
                            big_a: (iterations as f64 / 10.0).floor(),
                        };
                        Search::Spsa(Spsa::new(ranges, &start, gains))
                    }
                },
                played: 0,
                hands: 0,
                done: false,
            })
        })
        .collect::<Result<Vec<_>, JobError>>()?;
    let fresh = TuneState {
        version: VERSION,
        fingerprint: fingerprint(request, &plan),
        settings: plan.settings.clone(),
        variants,
        confirm: None,
    };
    let mut state = start(request, &plan, resume, fresh)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| JobError::Run(format!("starting the worker threads: {e}")))?;
    let mut pool = Some(pool);
    let state_path = request.out.join(STATE);
    for (v, (name, rules)) in request.variants.iter().enumerate() {
        let evaluator = Matches {
            rules: rules.clone(),
            opponents: request
                .opponents
                .iter()
                .map(|(p, w)| (p.profile.clone(), *w))
                .collect(),
            games: request.games,
            objective: request.objective,
            deals: request.block,
            seed: request.seed ^ crate::seed::mix(v as u64 + 1),
            pool: pool.take().expect("the pool"),
        };
        let result = search_variant(
            request,
            &plan,
            &evaluator,
            &mut state,
            v,
            &|s| {
                write_atomic(
                    &state_path,
                    &serde_json::to_vec(s).expect("a state serialises"),
                )
                .map_err(|e| JobError::Run(format!("writing {}: {e}", state_path.display())))
            },
            &|line| status(&format!("{name}: {line}")),
        );
        pool = Some(evaluator.pool);
        result?;
    }
    Ok((plan, state, claim))
}

/// The start of an SPSA run: each parameter's value in the base profile
/// when it has one in the range, else the range's middle.
fn start_values(plan: &Plan, ranges: &[(f64, f64, bool)]) -> Vec<f64> {
    let base = plan.space.base.to_string();
    plan.space
        .dims
        .iter()
        .zip(ranges)
        .map(|(dim, &(lo, hi, integer))| {
            let given = base
                .split_once(':')
                .map(|(_, items)| items)
                .into_iter()
                .flat_map(|items| items.split(','))
                .find_map(|item| item.strip_prefix(&format!("{}=", dim.name)))
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| (lo..=hi).contains(v));
            given.unwrap_or_else(|| {
                let mid = (lo + hi) / 2.0;
                if integer { mid.round() } else { mid }
            })
        })
        .collect()
}

/// The objective's ratio over a block's units.
fn ratio(units: &[Unit]) -> f64 {
    let (x, y) = units
        .iter()
        .fold((0i64, 0u64), |(x, y), u| (x + u.x, y + u.y));
    if y == 0 { 0.0 } else { x as f64 / y as f64 }
}

/// One variant's search from where its state stands.
fn search_variant(
    request: &TuneRequest,
    plan: &Plan,
    evaluator: &dyn Evaluate,
    state: &mut TuneState,
    v: usize,
    save: &dyn Fn(&TuneState) -> Result<(), JobError>,
    status: &dyn Fn(&str),
) -> Result<(), JobError> {
    let per_block = evaluator.played_per_block();
    loop {
        let current = &state.variants[v];
        if current.done {
            return Ok(());
        }
        let played = current.played;
        match &current.search {
            Search::Race(race) => {
                let alive = race.alive();
                let cost = alive.len() as u64 * per_block;
                if alive.len() == 1 || played + cost > request.budget {
                    if race.blocks == 0 {
                        return Err(JobError::Input(format!(
                            "the budget ({}) is less than one block of every arm ({cost}: {} arms × {per_block}); raise it or lower the deals per block",
                            request.budget,
                            alive.len()
                        )));
                    }
                    state.variants[v].done = true;
                } else {
                    let arms: Vec<Setting> =
                        alive.iter().map(|&a| plan.settings[a].clone()).collect();
                    let units = evaluator.block(&plan.profiles(&arms)?, race.blocks)?;
                    let looks = (request.budget / (2 * per_block)).max(1);
                    let current = &mut state.variants[v];
                    let Search::Race(race) = &mut current.search else {
                        unreachable!()
                    };
                    race.add_block(&units);
                    let dropped = race.decide(request.confidence, looks);
                    current.played += cost;
                    current.hands += units.iter().flatten().map(|u| u.hands).sum::<u64>();
                    let leader = race.leader();
                    status(&format!(
                        "block {}, {} arms left, leader {} at {:.4}, dropped {}; {} played",
                        race.blocks,
                        race.alive().len(),
                        plan.settings[leader].join(","),
                        race.sums[leader].value(),
                        if dropped.is_empty() {
                            "none".to_owned()
                        } else {
                            dropped
                                .iter()
                                .map(|&a| plan.settings[a].join(","))
                                .collect::<Vec<_>>()
                                .join(" ")
                        },
                        current.played
                    ));
                }
            }
            Search::Spsa(spsa) => {
                let cost = 2 * per_block;
                if played + cost > request.budget {
                    if spsa.steps.is_empty() {
                        return Err(JobError::Input(format!(
                            "the budget ({}) is less than one SPSA iteration ({cost}); raise it or lower the deals per block",
                            request.budget
                        )));
                    }
                    state.variants[v].done = true;
                } else {
                    let k = spsa.steps.len() as u64;
                    let seed = super::evaluate::block_seed(request.seed, v as u64, k);
                    let (plus, minus) = spsa.perturbed(seed);
                    let settings = [
                        Plan::spsa_setting(&plus, &spsa.ranges),
                        Plan::spsa_setting(&minus, &spsa.ranges),
                    ];
                    let units = evaluator.block(&plan.profiles(&settings)?, k)?;
                    let (yp, ym) = (ratio(&units[0]), ratio(&units[1]));
                    let current = &mut state.variants[v];
                    let Search::Spsa(spsa) = &mut current.search else {
                        unreachable!()
                    };
                    spsa.update(plus, minus, yp, ym);
                    current.played += cost;
                    current.hands += units.iter().flatten().map(|u| u.hands).sum::<u64>();
                    let now = Plan::spsa_setting(&spsa.current(), &spsa.ranges);
                    status(&format!(
                        "iteration {}, {} {:.4} vs {} {:.4}, now {}; {} played",
                        spsa.steps.len(),
                        settings[0].join(","),
                        yp,
                        settings[1].join(","),
                        ym,
                        now.join(","),
                        current.played
                    ));
                }
            }
        }
        save(state)?;
    }
}

/// The answer of one variant's search: the best setting and the
/// runner-up (racing only), as settings.
#[must_use]
pub fn answer(state: &VariantState, plan: &Plan) -> (Setting, Option<Setting>) {
    match &state.search {
        Search::Race(race) => {
            let best = race.leader();
            (
                plan.settings[best].clone(),
                race.runner_up(best).map(|r| plan.settings[r].clone()),
            )
        }
        Search::Spsa(spsa) => (Plan::spsa_setting(&spsa.current(), &spsa.ranges), None),
    }
}

/// Reads a state file of a run in `dir`, if there is one (for tests and
/// front ends that report a folder).
///
/// # Errors
/// An unreadable or malformed state file.
pub fn read_state(dir: &Path) -> Result<Option<TuneState>, JobError> {
    let path = dir.join(STATE);
    if !path.is_file() {
        return Ok(None);
    }
    let bytes = crate::job::read_capped(&path, STATE_CAP)?;
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        JobError::Input(format!(
            "{}: not a ginlab tuning state: {e}",
            path.display()
        ))
    })
}
