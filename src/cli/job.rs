//! What the job commands (`match`, `run`, `merge`, `sweep`, `balance`)
//! share on the command line: the library's job errors as exit codes, the
//! strategy resolver, and the progress bar fed by the job's callback. The
//! jobs themselves are `ginlab::job`.

use ginlab::job::{JobError, JobSpec, Outcome, Player, Progress};
use indicatif::ProgressBar;

use super::Failure;
use super::strategies::resolve;

impl From<JobError> for Failure {
    fn from(error: JobError) -> Failure {
        match error {
            JobError::Input(message) => Failure::input(message),
            JobError::Run(message) => Failure::Run(anyhow::anyhow!(message)),
        }
    }
}

/// Resolves a strategy argument for a job (built-ins, `strategies/`,
/// files, external bots).
pub fn resolver(spec: &str, who: &str) -> Result<Player, JobError> {
    match resolve(spec, who) {
        Ok(named) => Ok(Player {
            profile: named.profile,
            name: named.name,
        }),
        Err(Failure::Input(e)) => Err(JobError::Input(format!("{e:#}"))),
        Err(Failure::Run(e)) => Err(JobError::Run(format!("{e:#}"))),
    }
}

/// The job's progress, drawn on `bar`.
pub fn on_progress(bar: &ProgressBar) -> impl Fn(Progress<'_>) + Sync + '_ {
    move |event| match event {
        Progress::Start { total, done } => {
            bar.set_length(total);
            bar.set_position(done);
        }
        Progress::Row { variant, players } => {
            bar.set_prefix(format!("{variant} {}", players.join(" v ")));
        }
        Progress::Done(done) => bar.set_position(done),
    }
}

/// Warns once when a job whose seed is fixed (`origin`: by its spec, or
/// by a study's `--seed` and its default) has an external bot, which could
/// guess the seed.
pub fn warn_fixed_seed(spec: &JobSpec, origin: &str) {
    let profiles: Vec<_> = spec
        .rows
        .iter()
        .flat_map(|r| r.plan.profiles.iter().cloned())
        .collect();
    super::warn_guessable_seed(
        &format!("{origin} {}", spec.manifest.seed),
        "for play against bots you do not trust, use a large random seed and keep it private",
        &profiles,
    );
}

/// Prints on standard error what the job found and repaired in its folder.
pub fn print_notes(outcome: &Outcome) {
    for note in &outcome.notes {
        let _ =
            std::io::Write::write_all(&mut std::io::stderr(), format!("note: {note}\n").as_bytes());
    }
}

/// The command line, for manifests.
pub fn command() -> Vec<String> {
    std::env::args().collect()
}
