//! The answer of a tuning run: the confirmation match on fresh deals
//! (an ordinary job in `confirm/`, so its intervals are the ones ginlab
//! prints everywhere), the edges, and the result files: `answer.csv`,
//! `search.csv`, one chart `search.svg`, a `tuned-VARIANT.toml` profile
//! per variant and `manifest.toml`, put in place together with the final
//! `tune.json`.

use std::fmt::Write as _;
use std::sync::Arc;

use serde::Serialize;

use crate::job::{self, JobError, JobSpec, Row, StudyKind, Tally};
use crate::report::chart::{Point, Series, line_chart};
use crate::report::{Manifest, Objective, ResultFiles, VariantRules, write_atomic};
use crate::sim::{Plan as MatchPlan, Work};
use crate::stats::UnitSums;
use crate::strategy::{ParamType, Profile};

use super::confirm;
use super::evaluate::{CONFIRM_STREAM, block_seed};
use super::objective::{interval, shown};
use super::request::TuneRequest;
use super::run::{CHECKPOINT_DIR, Plan, STATE, Search, TuneState, answer};
use crate::stats::{Cross, paired_interval};

/// One confirmed figure: a candidate against one opponent.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    /// The candidate's profile.
    pub player: String,
    /// The objective as shown (Elo for `elo`).
    pub value: f64,
    /// Its interval (empty when none is valid).
    pub lo: Option<f64>,
    /// See `lo`.
    pub hi: Option<f64>,
    /// Units (duplicate pairs).
    pub units: u64,
    #[serde(skip)]
    sums: UnitSums,
}

/// An edge `best − other` with its interval.
#[derive(Clone, Debug, Serialize)]
pub struct Edge {
    /// The other candidate.
    pub over: String,
    /// The difference of the objective's ratio (score or points per hand).
    pub edge: f64,
    /// Its interval.
    pub lo: Option<f64>,
    /// See `lo`.
    pub hi: Option<f64>,
}

/// One variant's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The variant.
    pub variant: String,
    /// `race` or `spsa`.
    pub method: &'static str,
    /// The best setting, as a profile.
    pub best: String,
    /// The runner-up (racing).
    pub runner_up: Option<String>,
    /// The settings still in the race when it ended (racing; more than
    /// one when the budget ended it: they could not be told apart).
    pub arms_left: Option<usize>,
    /// The baseline.
    pub baseline: String,
    /// Games (or hands) the search played, every arm counted.
    pub search_played: u64,
    /// Hands the search played.
    pub search_hands: u64,
    /// The opponent the confirmation rows are against.
    pub opponent: Option<String>,
    /// The confirmation's figures: best, runner-up, baseline.
    pub confirmed: Vec<Figure>,
    /// The edges over the runner-up and the baseline.
    pub edges: Vec<Edge>,
}

/// The whole result.
#[derive(Clone, Debug, Serialize)]
pub struct TuneOutcome {
    /// The objective.
    pub objective: Objective,
    /// Per variant (and opponent), the answers.
    pub answers: Vec<Answer>,
    /// Notes about the folder for the user.
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// The edge of `a` over `b` from two confirmation rows on the same deals:
/// the difference of their ratios with the paired 95 % interval over the
/// deals ([`paired_interval`], `cross` their cross sums).
fn edge(a: &Figure, b: &Figure, cross: &Cross) -> Edge {
    let (edge, lo, hi) = match paired_interval(&a.sums, &b.sums, cross, 0.95) {
        Some((d, lo, hi)) => (d, Some(lo), Some(hi)),
        None => (a.sums.value() - b.sums.value(), None, None),
    };
    Edge {
        over: b.player.clone(),
        edge,
        lo,
        hi,
    }
}

/// A profile as a profile file (`kind` and each parameter given, typed).
#[must_use]
pub fn profile_toml(profile: &Profile, comment: &str) -> String {
    let inline = profile.to_string();
    let kind = profile.kind();
    let mut text = String::new();
    for line in comment.lines() {
        let _ = writeln!(text, "# {line}");
    }
    let _ = writeln!(text, "kind = \"{}\"", kind.name);
    if let Some((_, items)) = inline.split_once(':') {
        for item in items.split(',') {
            let Some((key, value)) = item.split_once('=') else {
                continue;
            };
            let typed = kind.params.iter().find(|p| p.name == key).map(|p| p.ty);
            match typed {
                Some(ParamType::Text) | None => {
                    let _ = writeln!(
                        text,
                        "{key} = \"{}\"",
                        value.replace('\\', "\\\\").replace('"', "\\\"")
                    );
                }
                Some(_) => {
                    let _ = writeln!(text, "{key} = {value}");
                }
            }
        }
    }
    text
}

/// Plays the confirmation (when asked) and writes every result file.
///
/// # Errors
/// A failure of the confirmation job or while writing.
pub fn finish(
    request: &TuneRequest,
    plan: &Plan,
    state: &mut TuneState,
    threads: usize,
    status: &dyn Fn(&str),
    notes: Vec<String>,
) -> Result<TuneOutcome, JobError> {
    let mut answers = Vec::new();
    let mut rows = Vec::new();
    let mut plans = Vec::new();
    // Per answer: the row indices of (best, runner-up, baseline) per opponent.
    let mut layout: Vec<(usize, Vec<usize>)> = Vec::new();
    let count = request.confirm;
    let work = if request.games {
        Work::Games(count)
    } else {
        Work::Hands(count)
    };
    let confirm_seed = block_seed(request.seed, CONFIRM_STREAM, 0);
    for (v, (variant, rules)) in request.variants.iter().enumerate() {
        let current = &state.variants[v];
        let (best, runner) = answer(current, plan);
        let best = plan.space.profile(&best).map_err(JobError::Input)?;
        let runner = runner
            .map(|r| plan.space.profile(&r).map_err(JobError::Input))
            .transpose()?;
        let mut candidates = vec![best.clone()];
        candidates.extend(runner.clone());
        if !candidates.contains(&request.baseline.profile) {
            candidates.push(request.baseline.profile.clone());
        }
        for (opponent, _) in &request.opponents {
            let mut indices = Vec::new();
            if count > 0 {
                for c in &candidates {
                    indices.push(rows.len());
                    let match_plan = Arc::new(MatchPlan {
                        rules: rules.clone(),
                        profiles: [c.clone(), opponent.profile.clone()],
                        work: work.clone(),
                        duplicate: true,
                        seed: confirm_seed,
                    });
                    plans.push(Arc::clone(&match_plan));
                    rows.push(Row {
                        variant: variant.clone(),
                        players: vec![c.to_string(), opponent.name.clone()],
                        plan: match_plan,
                    });
                }
            }
            layout.push((answers.len(), indices));
            answers.push(Answer {
                variant: variant.clone(),
                method: plan.method.name(),
                best: best.to_string(),
                runner_up: runner.as_ref().map(ToString::to_string),
                arms_left: match &current.search {
                    Search::Race(race) => Some(race.alive().len()),
                    Search::Spsa(_) => None,
                },
                baseline: request.baseline.profile.to_string(),
                search_played: current.played,
                search_hands: current.hands,
                opponent: Some(opponent.name.clone()),
                confirmed: Vec::new(),
                edges: Vec::new(),
            });
        }
    }
    if !rows.is_empty() {
        let mut names: Vec<String> = Vec::new();
        for row in &rows {
            for p in &row.players {
                if !names.contains(p) {
                    names.push(p.clone());
                }
            }
        }
        let spec = JobSpec {
            rows,
            study: StudyKind::Match,
            manifest: Manifest {
                ginlab_version: Manifest::VERSION,
                git_commit: Manifest::COMMIT,
                command: request.command.clone(),
                seed: confirm_seed,
                players: names.clone(),
                profiles: names,
                work: if request.games { "games" } else { "hands" }.to_owned(),
                count,
                duplicate: true,
                variants: VariantRules::list(&request.variants),
                experiment: None,
            },
            dir: Some(request.out.join(CHECKPOINT_DIR)),
            work: work.clone(),
            anchor: None,
        };
        let groups: Vec<Vec<usize>> = layout.iter().map(|(_, rows)| rows.clone()).collect();
        let state_path = request.out.join(STATE);
        let searched = TuneState {
            confirm: None,
            ..state.clone()
        };
        let confirmation = confirm::play(
            &confirm::Rows {
                plans: &plans,
                groups: &groups,
                objective: request.objective,
            },
            state.confirm.take(),
            threads,
            &|c| {
                let saved = TuneState {
                    confirm: Some(c.clone()),
                    ..searched.clone()
                };
                let json = serde_json::to_vec(&saved).map_err(|e| JobError::Run(e.to_string()))?;
                write_atomic(&state_path, &json)
                    .map_err(|e| JobError::run_from(format!("writing {}", state_path.display()), e))
            },
            status,
        )?;
        let tallies = confirmation
            .rows
            .into_iter()
            .map(|t| Tally::Pair(Box::new(t)))
            .collect();
        let outcome = job::write_played(&spec, tallies)?;
        for ((a, indices), cross) in layout.iter().zip(&confirmation.cross) {
            let figures: Vec<Figure> = indices
                .iter()
                .map(|&i| {
                    let tallies = outcome.tallies[i].pair().expect("two-player rows");
                    let sums = match request.objective {
                        Objective::Points => tallies.units.a_net_points,
                        _ => tallies.units.score,
                    };
                    let ends = interval(request.objective, &sums, 0.95);
                    Figure {
                        player: spec.rows[i].players[0].clone(),
                        value: shown(request.objective, sums.value()),
                        lo: ends.map(|(lo, _)| shown(request.objective, lo)),
                        hi: ends.map(|(_, hi)| shown(request.objective, hi)),
                        units: sums.units,
                        sums,
                    }
                })
                .collect();
            let answer = &mut answers[*a];
            answer.edges = figures[1..]
                .iter()
                .zip(cross)
                .map(|(f, c)| edge(&figures[0], f, c))
                .collect();
            answer.confirmed = figures;
        }
    }
    write_files(request, plan, state, &answers)?;
    Ok(TuneOutcome {
        objective: request.objective,
        answers,
        notes,
    })
}

fn cell(x: Option<f64>) -> String {
    x.map_or_else(String::new, |v| format!("{}", (v * 1e6).round() / 1e6))
}

/// `answer.csv`: a line per variant and opponent.
#[must_use]
pub fn answer_csv(outcome_answers: &[Answer]) -> String {
    let mut out = String::from(
        "variant,method,opponent,best,runner_up,arms_left,baseline,search_played,search_hands,best_value,best_lo,best_hi,runner_up_value,runner_up_lo,runner_up_hi,baseline_value,baseline_lo,baseline_hi,edge_runner_up,edge_runner_up_lo,edge_runner_up_hi,edge_baseline,edge_baseline_lo,edge_baseline_hi,confirm_units\n",
    );
    for a in outcome_answers {
        let find =
            |name: Option<&String>| name.and_then(|n| a.confirmed.iter().find(|f| &f.player == n));
        let fig = |f: Option<&Figure>| {
            [
                cell(f.map(|f| f.value)),
                cell(f.and_then(|f| f.lo)),
                cell(f.and_then(|f| f.hi)),
            ]
            .join(",")
        };
        let edge_of = |name: Option<&String>| {
            let e = name.and_then(|n| a.edges.iter().find(|e| &e.over == n));
            [
                cell(e.map(|e| e.edge)),
                cell(e.and_then(|e| e.lo)),
                cell(e.and_then(|e| e.hi)),
            ]
            .join(",")
        };
        let baseline_edge = if a.baseline == a.best {
            ",,".to_owned()
        } else {
            edge_of(Some(&a.baseline))
        };
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            a.variant,
            a.method,
            a.opponent.as_deref().unwrap_or(""),
            a.best,
            a.runner_up.as_deref().unwrap_or(""),
            a.arms_left.map_or_else(String::new, |n| n.to_string()),
            a.baseline,
            a.search_played,
            a.search_hands,
            fig(find(Some(&a.best))),
            fig(find(a.runner_up.as_ref())),
            fig(find(Some(&a.baseline))),
            edge_of(a.runner_up.as_ref()),
            baseline_edge,
            a.confirmed.first().map_or(0, |f| f.units),
        );
    }
    out
}

/// `search.csv`: racing's arms per block, or SPSA's iterations.
fn search_csv(request: &TuneRequest, plan: &Plan, state: &TuneState) -> String {
    let objective = request.objective;
    let mut out = String::new();
    match plan.method {
        super::request::Method::Race => {
            out.push_str("variant,block,setting,units,value,lo,hi,alive\n");
            for v in &state.variants {
                let Search::Race(race) = &v.search else {
                    continue;
                };
                for (b, block) in race.trace.iter().enumerate() {
                    for (a, sums) in block.iter().enumerate() {
                        let Some(sums) = sums else { continue };
                        let ends = interval(objective, sums, 0.95);
                        let alive = race.dropped[a].is_none_or(|d| d > b as u64 + 1);
                        let _ = writeln!(
                            out,
                            "{},{},{},{},{},{},{},{}",
                            v.variant,
                            b + 1,
                            plan.settings[a].join("/"),
                            sums.units,
                            cell(Some(shown(objective, sums.value()))),
                            cell(ends.map(|e| shown(objective, e.0))),
                            cell(ends.map(|e| shown(objective, e.1))),
                            alive
                        );
                    }
                }
            }
        }
        super::request::Method::Spsa => {
            let names: Vec<String> = plan.space.dims.iter().map(|d| d.name.clone()).collect();
            let _ = writeln!(
                out,
                "variant,iteration,{},{},y_plus,y_minus,{}",
                names
                    .iter()
                    .map(|n| format!("{n}_plus"))
                    .collect::<Vec<_>>()
                    .join(","),
                names
                    .iter()
                    .map(|n| format!("{n}_minus"))
                    .collect::<Vec<_>>()
                    .join(","),
                names
                    .iter()
                    .map(|n| format!("{n}_theta"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            for v in &state.variants {
                let Search::Spsa(spsa) = &v.search else {
                    continue;
                };
                for (k, s) in spsa.steps.iter().enumerate() {
                    let list = |xs: &[f64]| {
                        xs.iter()
                            .map(|x| cell(Some(*x)))
                            .collect::<Vec<_>>()
                            .join(",")
                    };
                    let _ = writeln!(
                        out,
                        "{},{},{},{},{},{},{}",
                        v.variant,
                        k + 1,
                        list(&s.plus),
                        list(&s.minus),
                        cell(Some(s.y_plus)),
                        cell(Some(s.y_minus)),
                        list(&s.theta)
                    );
                }
            }
        }
    }
    out
}

/// The chart: racing's best and runner-up per variant over blocks with
/// their intervals, or SPSA's θ per parameter and variant over iterations.
fn search_svg(request: &TuneRequest, plan: &Plan, state: &TuneState) -> String {
    let objective = request.objective;
    let mut series = Vec::new();
    let label = match objective {
        Objective::Points => "points per hand",
        Objective::Elo => "Elo",
        _ => "score",
    };
    match plan.method {
        super::request::Method::Race => {
            for v in &state.variants {
                let Search::Race(race) = &v.search else {
                    continue;
                };
                let best = race.leader();
                let shown_arms = [Some(best), race.runner_up(best)];
                for a in shown_arms.into_iter().flatten() {
                    let points = race
                        .trace
                        .iter()
                        .filter_map(|block| block[a])
                        .map(|sums| {
                            let value = shown(objective, sums.value());
                            let (lo, hi) = interval(objective, &sums, 0.95)
                                .map_or((value, value), |e| {
                                    (shown(objective, e.0), shown(objective, e.1))
                                });
                            Point {
                                x: sums.units as f64,
                                y: value,
                                lo,
                                hi,
                            }
                        })
                        .collect();
                    series.push(Series {
                        label: format!("{} {}", v.variant, plan.settings[a].join("/")),
                        points,
                    });
                }
            }
            line_chart(
                &format!(
                    "Racing: the best and runner-up settings per variant ({})",
                    label
                ),
                "duplicate pairs played per arm",
                label,
                &series,
                None,
            )
        }
        super::request::Method::Spsa => {
            for v in &state.variants {
                let Search::Spsa(spsa) = &v.search else {
                    continue;
                };
                for (i, dim) in plan.space.dims.iter().enumerate() {
                    let points = spsa
                        .steps
                        .iter()
                        .enumerate()
                        .map(|(k, s)| Point {
                            x: (k + 1) as f64,
                            y: s.theta[i],
                            lo: s.theta[i],
                            hi: s.theta[i],
                        })
                        .collect();
                    series.push(Series {
                        label: format!("{} {}", v.variant, dim.name),
                        points,
                    });
                }
            }
            line_chart(
                "SPSA trace: each parameter per variant",
                "iteration",
                "value",
                &series,
                None,
            )
        }
    }
}

/// Writes the result files together.
fn write_files(
    request: &TuneRequest,
    plan: &Plan,
    state: &TuneState,
    answers: &[Answer],
) -> Result<(), JobError> {
    let failed = |e: std::io::Error| JobError::Run(e.to_string());
    let mut files = ResultFiles::new(&request.out).map_err(failed)?;
    files
        .add("answer.csv", answer_csv(answers).as_bytes())
        .map_err(failed)?;
    files
        .add("search.csv", search_csv(request, plan, state).as_bytes())
        .map_err(failed)?;
    files
        .add("search.svg", search_svg(request, plan, state).as_bytes())
        .map_err(failed)?;
    for (v, (variant, _)) in request.variants.iter().enumerate() {
        let (best, _) = answer(&state.variants[v], plan);
        let profile = plan.space.profile(&best).map_err(JobError::Input)?;
        let comment = format!(
            "{} tuned by `ginlab tune` ({}) under {variant}: {}\nagainst {}, seed {}; see answer.csv for the confirmation.",
            request.strategy.name,
            plan.method.name(),
            plan.space,
            request
                .opponents
                .iter()
                .map(|(p, w)| format!("{} (weight {w})", p.name))
                .collect::<Vec<_>>()
                .join(", "),
            request.seed
        );
        files
            .add(
                &format!("tuned-{variant}.toml"),
                profile_toml(&profile, &comment).as_bytes(),
            )
            .map_err(failed)?;
    }
    let json = serde_json::to_vec(state).map_err(|e| JobError::Run(e.to_string()))?;
    files.add(STATE, &json).map_err(failed)?;
    let mut manifest = format!(
        "# What made this folder (ginlab tune).\nginlab_version = \"{}\"\nseed = {}\nstrategy = \"{}\"\nmethod = \"{}\"\n",
        Manifest::VERSION,
        request.seed,
        request.strategy.profile,
        plan.method.name()
    );
    if let Some(spec) = &request.spec {
        let _ = writeln!(manifest, "spec = '''\n{spec}'''");
    }
    files
        .add(crate::report::MANIFEST, manifest.as_bytes())
        .map_err(failed)?;
    files.commit(&[]).map_err(failed)
}
