//! What the job commands (`match`, `run`, `merge`, `sweep`, `balance`)
//! share on the command line: the library's job errors as exit codes, the
//! strategy resolver, and the progress bar fed by the job's callback. The
//! jobs themselves are `ginlab::job`.

use std::sync::atomic::{AtomicU64, Ordering};

use ginlab::job::{JobError, JobSpec, Outcome, Player, Progress};
use ginlab::lab::Lab;
use indicatif::ProgressBar;

use super::Failure;
use super::strategies::resolve;

impl From<JobError> for Failure {
    fn from(error: JobError) -> Failure {
        // Kept whole: `report` prints the message and its causes once.
        if error.is_input() {
            Failure::Input(error.into())
        } else {
            Failure::Run(error.into())
        }
    }
}

/// The resolver of strategy arguments for a job (built-ins, `strategies/`,
/// files, external bots), its players sharing `lab`.
pub fn resolver(lab: &Lab) -> impl Fn(&str, &str) -> Result<Player, JobError> + '_ {
    move |spec, who| match resolve(lab, spec, who) {
        Ok(named) => Ok(Player {
            profile: named.profile,
            name: named.name,
        }),
        Err(Failure::Input(e)) => Err(JobError::Input(format!("{e:#}"))),
        Err(Failure::Run(e)) => Err(JobError::Run(format!("{e:#}"))),
    }
}

/// The job's progress, drawn on `bar`; with `status`, a status line on
/// standard error whenever a row's games (hands when playing hands) pass a
/// multiple of it.
pub fn on_progress(bar: &ProgressBar, status: Option<u64>) -> impl Fn(Progress<'_>) + Sync + '_ {
    let printed = AtomicU64::new(0);
    move |event| match event {
        Progress::Start { total, done } => {
            bar.set_length(total);
            bar.set_position(done);
            super::progress::line_start(total, done);
        }
        Progress::Row { variant, players } => {
            printed.store(0, Ordering::Relaxed);
            bar.set_prefix(format!("{variant} {}", players.join(" v ")));
            super::progress::line_row(bar.prefix());
        }
        Progress::Block {
            variant,
            players,
            tally,
            stop,
        } => {
            let Some(every) = status else { return };
            let played = tally.played();
            if played / every > printed.load(Ordering::Relaxed) / every {
                printed.store(played, Ordering::Relaxed);
                let line = tally.status_line(variant, players, stop);
                bar.suspend(|| eprintln!("{line}"));
            }
        }
        Progress::Done(done) => {
            bar.set_position(done);
            super::progress::line_done(done);
        }
    }
}

/// Warns once when a job whose seed is fixed (`origin`: by its spec, or
/// by a study's `--seed` and its default) has an external bot, which could
/// guess the seed.
pub fn warn_fixed_seed(spec: &JobSpec, origin: &str) {
    let profiles: Vec<_> = spec
        .rows
        .iter()
        .flat_map(|r| r.plan.profiles().iter().cloned())
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

/// Deals per block for a status line every `status` games (or hands):
/// a deal is `unit_size` of them (two with duplicate deals, one per
/// rotation at a table).
pub fn status_block(status: Option<u64>, spec: &JobSpec) -> Option<u64> {
    let unit = spec
        .rows
        .iter()
        .map(|r| r.plan.unit_size())
        .max()
        .unwrap_or(1);
    status.map(|n| n.div_ceil(unit.max(1)))
}

/// The command line, for manifests.
pub fn command() -> Vec<String> {
    std::env::args().collect()
}
