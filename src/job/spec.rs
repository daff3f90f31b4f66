//! [`JobRequest`] → [`JobSpec`]: the one builder every front end goes
//! through. `match`, `run`, `sweep` and `balance` (and a spec file) only
//! fill in a request; the rows, the manifest and the output folder are
//! decided here, once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::experiment::{Experiment, Pairing, Study, Sweep};
use crate::report::{Manifest, Objective, VariantRules};
use crate::rules::Rules;
use crate::sim::{Format, Plan, TablePlan, Work};
use crate::strategy::Profile;

use super::contest::{Contest, Feature, refusal};
use super::{JobError, StudyKind};

/// A resolved strategy: its profile and the name reports use.
#[derive(Clone, Debug)]
pub struct Player {
    /// The profile.
    pub profile: Profile,
    /// The name in rows, charts and the manifest.
    pub name: String,
}

/// Turns a strategy argument (`spec`) into a player; `who` names the
/// argument in messages. Front ends supply it (profile folders and bot
/// start-up are theirs).
pub type Resolve<'a> = dyn Fn(&str, &str) -> Result<Player, JobError> + 'a;

/// Who plays whom, as given (strategies not yet resolved).
#[derive(Clone, Debug)]
pub enum Layout {
    /// Players paired by `pairing`; each as (argument, who for messages).
    Pairs {
        /// The players.
        players: Vec<(String, String)>,
        /// The schedule.
        pairing: Pairing,
    },
    /// One parameter of a strategy over a grid against a fixed opponent.
    Sweep(Sweep),
    /// `strategy` against itself under every variant; every deal once.
    Balance {
        /// The strategy.
        strategy: String,
    },
    /// Three players, or two partnerships (A, B against C, D), at one
    /// table per variant; each as (argument, who for messages).
    Table {
        /// The format.
        format: Format,
        /// The players, partnerships team by team.
        players: Vec<(String, String)>,
    },
}

/// Everything a front end says about a job. [`JobRequest::build`] resolves
/// it into a [`JobSpec`].
#[derive(Clone, Debug)]
pub struct JobRequest {
    /// The rule variants: name and rules.
    pub variants: Vec<(String, Rules)>,
    /// Who plays whom.
    pub layout: Layout,
    /// How much per row.
    pub work: Work,
    /// The master seed (every row uses it).
    pub seed: u64,
    /// Duplicate deals (a balance study plays every deal once regardless).
    pub duplicate: bool,
    /// The output folder given (`--out`), if any.
    pub out: Option<PathBuf>,
    /// The results folder name of a spec (its `name`, or the file's stem):
    /// with no `out`, the job writes to `results/NAME`.
    pub name: Option<String>,
    /// Whether the job writes a result folder even without `out` (`run`,
    /// `sweep`, `balance`; a `match` writes one only with `--out`).
    pub default_folder: bool,
    /// The command line, for the manifest.
    pub command: Vec<String>,
    /// The experiment spec's text, for the manifest.
    pub experiment: Option<String>,
    /// The player the rating list is anchored at (a match of three or
    /// more players; by its argument or its name). `None`: `simple` when
    /// it plays, else the first player.
    pub anchor: Option<String>,
    /// Milliseconds a decision for every search player (`--budget-ms`),
    /// replacing its own samples or budget (players that do not search
    /// keep theirs; a job none of whose players searches is refused).
    pub budget_ms: Option<f64>,
}

/// One row: a variant, its players, and the contest that plays it (two
/// players, three, or two partnerships).
#[derive(Clone, Debug)]
pub struct Row {
    /// The variant's name.
    pub variant: String,
    /// The players by name (A and B; three; partnerships team by team).
    pub players: Vec<String>,
    /// How the row is played.
    pub plan: Arc<dyn Contest>,
}

/// A resolved job: what every front end runs.
#[derive(Clone, Debug)]
pub struct JobSpec {
    /// The rows, in output order (every row of a job is of one format).
    pub rows: Vec<Row>,
    /// What the rows make (the study table written beside the summary).
    pub study: StudyKind,
    /// What made it, written as `manifest.toml`.
    pub manifest: Manifest,
    /// The result folder, if the job writes one.
    pub dir: Option<PathBuf>,
    /// How much per row.
    pub work: Work,
    /// The rating list's anchor, by the player's name, when one was named.
    pub anchor: Option<String>,
}

impl JobSpec {
    /// `hands` or `games`: what scores and rates are per.
    #[must_use]
    pub fn unit(&self) -> &'static str {
        if matches!(self.work, Work::Games(_)) {
            "games"
        } else {
            "hands"
        }
    }
}

impl JobRequest {
    /// A request for `experiment` (read from a file holding `text`), with
    /// `out` if given, else written to `results/NAME`, `NAME` its validated
    /// folder name ([`Experiment::folder_name`]).
    #[must_use]
    pub fn from_experiment(
        experiment: Experiment,
        name: &str,
        text: String,
        out: Option<PathBuf>,
        command: Vec<String>,
    ) -> JobRequest {
        let layout = match experiment.study {
            Study::Match if experiment.format.is_some() => Layout::Table {
                format: experiment.format.unwrap_or(Format::Three),
                players: experiment
                    .players
                    .iter()
                    .map(|p| (p.clone(), p.clone()))
                    .collect(),
            },
            Study::Match => Layout::Pairs {
                players: experiment
                    .players
                    .iter()
                    .map(|p| (p.clone(), p.clone()))
                    .collect(),
                pairing: experiment.pairing,
            },
            Study::Sweep(sweep) => Layout::Sweep(sweep),
            Study::Balance { strategy } => Layout::Balance { strategy },
        };
        JobRequest {
            variants: experiment.variants,
            layout,
            work: experiment.amount,
            seed: experiment.seed,
            duplicate: experiment.duplicate,
            out,
            name: Some(name.to_owned()),
            default_folder: true,
            command,
            experiment: Some(text),
            anchor: experiment.anchor,
            budget_ms: None,
        }
    }

    /// Resolves the players, builds the rows, the manifest and the folder.
    ///
    /// # Errors
    /// [`JobError::Input`]: a strategy that does not resolve, a bad sweep
    /// grid or parameter, a value or variant given twice.
    pub fn build(self, resolve: &Resolve<'_>) -> Result<JobSpec, JobError> {
        let budgeted = |spec: &str, who: &str| budgeted(resolve(spec, who)?, self.budget_ms, who);
        let resolve: &Resolve<'_> = &budgeted;
        let duplicate = self.duplicate && !matches!(self.layout, Layout::Balance { .. });
        let plan = |rules: &Rules, a: &Profile, b: &Profile| -> Arc<dyn Contest> {
            Arc::new(Plan {
                rules: rules.clone(),
                profiles: [a.clone(), b.clone()],
                work: self.work.clone(),
                duplicate,
                seed: self.seed,
            })
        };
        let mut rows = Vec::new();
        let mut anchor = None;
        let (players, profiles, study, default_name) = match &self.layout {
            Layout::Table { format, players } => {
                let players = table_players(*format, players, &self.work, resolve)?;
                let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
                if let Some(wanted) = &self.anchor {
                    anchor = Some(table_anchor(wanted, *format, &names)?);
                }
                let Work::Games(games) = self.work else {
                    unreachable!("table_players refuses hands and decks")
                };
                for (variant, rules) in &self.variants {
                    rows.push(Row {
                        variant: variant.clone(),
                        players: names.clone(),
                        plan: Arc::new(TablePlan {
                            format: *format,
                            rules: rules.clone(),
                            profiles: players.iter().map(|p| p.profile.clone()).collect(),
                            games,
                            rotate: duplicate,
                            seed: self.seed,
                        }),
                    });
                }
                (
                    names,
                    players.iter().map(|p| p.profile.to_string()).collect(),
                    StudyKind::Match,
                    None,
                )
            }
            Layout::Pairs { players, pairing } => {
                let mut players: Vec<Player> = players
                    .iter()
                    .map(|(spec, who)| resolve(spec, who))
                    .collect::<Result<_, _>>()?;
                tell_apart(&mut players);
                if let Some(wanted) = &self.anchor {
                    anchor = Some(anchor_name(wanted, players_given(&self.layout), &players)?);
                }
                for (variant, rules) in &self.variants {
                    for (a, b) in pairing.pairs(players.len()) {
                        rows.push(Row {
                            variant: variant.clone(),
                            players: vec![players[a].name.clone(), players[b].name.clone()],
                            plan: plan(rules, &players[a].profile, &players[b].profile),
                        });
                    }
                }
                (
                    players.iter().map(|p| p.name.clone()).collect(),
                    players.iter().map(|p| p.profile.to_string()).collect(),
                    StudyKind::Match,
                    None,
                )
            }
            Layout::Sweep(Sweep {
                strategy,
                param,
                values,
                vs,
                objective,
            }) => {
                if *objective == Some(Objective::Games) && !matches!(self.work, Work::Games(_)) {
                    return Err(JobError::Input(format!(
                        "objective games: this sweep plays hands, not games; choose one of {}",
                        "hands, points or elo"
                    )));
                }
                let base = resolve(strategy, "being swept")?;
                let opponent = resolve(vs, "--vs")?;
                let values = parse_values(values)?;
                let swept: Vec<Profile> = values
                    .iter()
                    .map(|v| {
                        base.profile.with_param(param, v).map_err(|e| {
                            JobError::Input(format!("--param {param} --values {v}: {e}"))
                        })
                    })
                    .collect::<Result<_, _>>()?;
                // One row per value: a value given twice (or two spellings of
                // one, such as 1 and 01) would give duplicate rows and points.
                let names: Vec<String> = swept.iter().map(ToString::to_string).collect();
                given_once("--values", &values, &names, "player")?;
                for (variant, rules) in &self.variants {
                    for (profile, name) in swept.iter().zip(&names) {
                        rows.push(Row {
                            variant: variant.clone(),
                            players: vec![name.clone(), opponent.name.clone()],
                            plan: plan(rules, profile, &opponent.profile),
                        });
                    }
                }
                let unit = if matches!(self.work, Work::Games(_)) {
                    "games"
                } else {
                    "hands"
                };
                (
                    names
                        .iter()
                        .cloned()
                        .chain([opponent.name.clone()])
                        .collect(),
                    names
                        .iter()
                        .cloned()
                        .chain([opponent.profile.to_string()])
                        .collect(),
                    StudyKind::Sweep {
                        strategy: base.name.clone(),
                        param: param.clone(),
                        values,
                        vs: opponent.name.clone(),
                        unit: unit.to_owned(),
                        objective: *objective,
                    },
                    Some(format!("sweep-{}-{param}", safe_name(&base.name))),
                )
            }
            Layout::Balance { strategy } => {
                let player = resolve(strategy, "for balance")?;
                for (variant, rules) in &self.variants {
                    rows.push(Row {
                        variant: variant.clone(),
                        players: vec![player.name.clone(), player.name.clone()],
                        plan: plan(rules, &player.profile, &player.profile),
                    });
                }
                (
                    vec![player.name.clone()],
                    vec![player.profile.to_string()],
                    StudyKind::Balance {
                        strategy: player.name.clone(),
                    },
                    Some(format!("balance-{}", safe_name(&player.name))),
                )
            }
        };
        if self.anchor.is_some() {
            match &self.layout {
                Layout::Pairs { .. } | Layout::Table { .. } => {}
                _ => {
                    return Err(JobError::Input(
                        "anchor: a rating list is made for a match of three or more players in pairings, not a sweep or balance study".into(),
                    ));
                }
            }
        }
        distinct_files(&rows)?;
        if self.budget_ms.is_some() {
            no_search(&rows)?;
        }
        let dir = match (self.out, self.name.or(default_name)) {
            (Some(out), _) => Some(out),
            (None, Some(name)) if self.default_folder => Some(Path::new("results").join(name)),
            _ => None,
        };
        let (work, count) = match &self.work {
            Work::Hands(n) => ("hands", *n),
            Work::Games(n) => ("games", *n),
            Work::Decks { decks, .. } => ("decks", decks.len() as u64),
        };
        let manifest = Manifest {
            ginlab_version: Manifest::VERSION,
            git_commit: Manifest::COMMIT,
            command: self.command,
            seed: self.seed,
            players,
            profiles,
            work: work.to_owned(),
            count,
            duplicate,
            variants: VariantRules::list(&self.variants),
            experiment: self.experiment,
        };
        Ok(JobSpec {
            rows,
            study,
            manifest,
            dir,
            work: self.work,
            anchor,
        })
    }
}

/// `player` given `budget_ms` a decision if it searches, then named by
/// its resolved profile, so the header and the rows show the worlds each
/// side was given.
fn budgeted(mut player: Player, budget_ms: Option<f64>, who: &str) -> Result<Player, JobError> {
    if let Some(ms) = budget_ms
        && player
            .profile
            .give_budget_ms(ms)
            .map_err(|e| JobError::Input(format!("{who}: {e}")))?
    {
        player.name = player.profile.to_string();
    }
    Ok(player)
}

/// Refuses a time budget that no player of `rows` searches under.
fn no_search(rows: &[Row]) -> Result<(), JobError> {
    let searches = rows.iter().any(|r| {
        r.plan
            .profiles()
            .iter()
            .any(|p| p.params::<crate::strategy::McParams>().is_some())
    });
    if searches {
        return Ok(());
    }
    let mut names: Vec<String> = Vec::new();
    for name in rows.iter().flat_map(|r| &r.players) {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    Err(JobError::Input(format!(
        "--budget-ms: none of {} searches under a time budget; it applies to mc players",
        names
            .iter()
            .map(|p| format!("`{p}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

/// The players of a `Pairs` layout as given.
fn players_given(layout: &Layout) -> &[(String, String)] {
    match layout {
        Layout::Pairs { players, .. } => players,
        _ => &[],
    }
}

/// The name of the player `wanted` names (as given, or by its name),
/// refused unless three or more players make a rating list.
fn anchor_name(
    wanted: &str,
    given: &[(String, String)],
    players: &[Player],
) -> Result<String, JobError> {
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    let mut distinct = names.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 3 {
        return Err(JobError::Input(format!(
            "anchor `{}`: a rating list is made for three or more players, and this match has {}",
            crate::echo::echo(wanted),
            distinct.len()
        )));
    }
    given
        .iter()
        .zip(players)
        .find(|((spec, _), p)| spec == wanted || p.name == wanted)
        .map(|(_, p)| p.name.clone())
        .ok_or_else(|| {
            JobError::Input(format!(
                "anchor `{}` is not one of the players: {}",
                crate::echo::echo(wanted),
                names.join(", ")
            ))
        })
}

/// The side of a table `wanted` names: a player of a three-player table,
/// a team `A+B` of a partnership (the names its rating list shows).
fn table_anchor(wanted: &str, format: Format, players: &[String]) -> Result<String, JobError> {
    let sides = crate::report::side_names(format, players);
    if sides.iter().any(|s| s == wanted) {
        return Ok(wanted.to_owned());
    }
    let what = match format {
        Format::Three => "one of the players",
        Format::Partnership => "one of the teams (a partnership's list rates teams)",
    };
    Err(JobError::Input(format!(
        "anchor `{}` is not {what}: {}",
        crate::echo::echo(wanted),
        sides.join(", ")
    )))
}

/// Resolves the players of a three-player or partnership table: three, or
/// four for two partnerships; built-in strategies only; whole games. Names
/// given more than once (`greedy` three times) get `#2`, `#3` so their rows
/// differ.
fn table_players(
    format: Format,
    given: &[(String, String)],
    work: &Work,
    resolve: &Resolve<'_>,
) -> Result<Vec<Player>, JobError> {
    let what = match format {
        Format::Three => "a three-player game",
        Format::Partnership => "a partnership game",
    };
    if given.len() != format.players() {
        return Err(JobError::Input(format!(
            "{what} takes {} players, {} given",
            format.players(),
            given.len()
        )));
    }
    let refuse = |feature| JobError::Input(refusal(Some(format), feature).unwrap_or_default());
    match work {
        Work::Games(_) => {}
        Work::Hands(_) => return Err(refuse(Feature::Hands)),
        Work::Decks { .. } => return Err(refuse(Feature::Decks)),
    }
    let mut players: Vec<Player> = given
        .iter()
        .map(|(spec, who)| resolve(spec, who))
        .collect::<Result<_, _>>()?;
    if let Some((p, (spec, _))) = players
        .iter()
        .zip(given)
        .find(|(p, _)| p.profile.bot().is_some())
    {
        return Err(JobError::Input(format!(
            "{}: {}",
            if p.name.is_empty() { spec } else { &p.name },
            refusal(Some(format), Feature::Bots).unwrap_or_default()
        )));
    }
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    for (i, player) in players.iter_mut().enumerate() {
        let earlier = names[..i].iter().filter(|n| **n == names[i]).count();
        if earlier > 0 {
            player.name = format!("{}#{}", names[i], earlier + 1);
        }
    }
    Ok(players)
}

/// Refuses rows whose result files would have one name (two rows of one
/// variant and pairing, or names such as `a/b` and `a_b` that make the same
/// chart file name), before anything is played.
fn distinct_files(rows: &[Row]) -> Result<(), JobError> {
    let mut seen = std::collections::HashMap::new();
    // Two-player rows write charts named by their players.
    for row in rows {
        let Ok(players) = <&[String; 2]>::try_from(row.players.as_slice()) else {
            continue;
        };
        for name in crate::report::chart_names(&row.variant, players, true) {
            if let Some(earlier) = seen.insert(name.clone(), row) {
                let describe = |r: &Row| format!("{} {}", r.variant, r.players.join(" vs "));
                return Err(JobError::Input(format!(
                    "the rows `{}` and `{}` would both write {name}: give the players (or variants) names that differ in letters or digits, and each pairing once",
                    describe(earlier),
                    describe(row)
                )));
            }
        }
    }
    Ok(())
}

/// Players whose names are equal but who play differently: two bots of
/// one `name` in their hellos, or two profiles of one `name` (two files,
/// or a file named after a built-in kind). Each such name gets what the
/// player is, its command or its profile (unless the name is that already),
/// so the terminal and every file tell them apart.
fn tell_apart(players: &mut [Player]) {
    let what = |p: &Player| match p.profile.bot() {
        Some(bot) => bot.spec().command_line(),
        None => p.profile.to_string(),
    };
    for i in 0..players.len() {
        for j in i + 1..players.len() {
            let (head, tail) = players.split_at_mut(j);
            let (a, b) = (&mut head[i], &mut tail[0]);
            let (x, y) = (what(a), what(b));
            if a.name == b.name && x != y {
                for (player, what) in [(a, x), (b, y)] {
                    if player.name != what {
                        player.name = format!("{} ({what})", player.name);
                    }
                }
            }
        }
    }
}

/// A strategy name made safe for a folder name.
fn safe_name(name: &str) -> String {
    name.replace([':', '=', ',', '/'], "_")
}

/// The first item equal to an earlier one, as (earlier, later) indices.
fn first_repeat<T: PartialEq>(items: &[T]) -> Option<(usize, usize)> {
    items
        .iter()
        .enumerate()
        .find_map(|(j, b)| items[..j].iter().position(|a| a == b).map(|i| (i, j)))
}

/// Refuses an input given twice: `given` as written, `keys` what names
/// each one's rows (a player, a variant).
///
/// # Errors
/// [`JobError::Input`] naming the two.
pub fn given_once(
    flag: &str,
    given: &[String],
    keys: &[String],
    what: &str,
) -> Result<(), JobError> {
    match first_repeat(keys) {
        None => Ok(()),
        Some((i, j)) if given[i] == given[j] => Err(JobError::Input(format!(
            "{flag} {} is given twice: give each once",
            given[i]
        ))),
        Some((i, j)) => Err(JobError::Input(format!(
            "{flag} {} and {} make the same {what} `{}`: give each once",
            given[i], given[j], keys[i]
        ))),
    }
}

/// A sweep's grid: `A..=B` (integers) or a comma list.
fn parse_values(text: &str) -> Result<Vec<String>, JobError> {
    crate::experiment::sweep_values(text).map_err(|e| JobError::Input(format!("--values {e}")))
}
