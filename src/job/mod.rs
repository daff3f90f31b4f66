//! Jobs: the rows (variant × pairing) of a `match`, `run`, `sweep` or
//! `balance`, or the tables (variant × three players or two partnerships)
//! of a `match A B C`, `match --teams` or a spec with `format`, played
//! block by block into a result folder, with shards, checkpoints,
//! `--resume`, early stopping and `merge`.
//!
//! Every front end fills in a [`JobRequest`]; [`JobRequest::build`]
//! resolves it into a [`JobSpec`] (the rows, the manifest, the folder), and
//! [`run`] plays it through one block loop:
//!
//! - `Shard` K/N plays the K-th of N contiguous slices of every row's deals;
//!   [`merge`] sums shards with one fingerprint that cover every slice once
//!   and writes what a single run writes, byte for byte;
//! - after every block of deals the tallies so far go to `checkpoint.json`;
//!   `resume` continues from it and ends with the same files as an
//!   uninterrupted run;
//! - a stopping rule (an [`Sprt`](crate::stats::Sprt)) looks after every
//!   unit, in deal order, while blocks of up to [`STOP_BLOCK`] deals are
//!   played in parallel, so where it decides depends on the deals alone, not on
//!   threads or on where a run was resumed; the run ends with the block it
//!   decided in.
//!
//! Besides the CSV files and the manifest, a result folder keeps
//! `tallies.json`: every row's raw integer tallies, the deal ranges they
//! cover, and a fingerprint of everything that decides the results (seed,
//! profiles, rules, amount, duplicate, stopping rule).
//!
//! Progress is a callback ([`Progress`]); errors are a [`JobError`] that
//! says whether the input was bad or the run failed.

mod contest;
mod folder;
mod inputs;
mod merge;
mod output;
mod recorder;
mod run;
mod spec;
mod state;

pub use contest::{Contest, Feature, Recording, Tally, refusal};
pub use folder::{Claim, claim_dir, prepare_dir};
pub use inputs::{
    Cap, DECKS_FILE, PROFILE_FILE, RULES_FILE, SPEC_FILE, decks, match_variant, not_utf8, player,
    rules, study_variants,
};
pub use merge::merge;
pub use output::{Outcome, remake_views, write_played};
pub use run::{MAX_THREADS, Options, Progress, STOP_BLOCK, check_threads, run};
pub use spec::{JobRequest, JobSpec, Layout, Player, Resolve, Row, given_once};
pub(crate) use state::read_capped;
pub use state::{Shard, StudyKind};

/// An error that explains a [`JobError`], kept whole with its own causes.
pub type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why a job did not finish: bad input or a failure while running, said
/// by ginlab, with the error that caused it where there is one. A
/// variant's own text never repeats its cause: print the whole chain once
/// ([`JobError::chain`], or `anyhow`'s `{:#}` as the CLI does).
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Bad input: flags, a spec, a folder or state file that cannot be
    /// used. Found before anything is played where it can be.
    #[error("{0}")]
    Input(String),
    /// A failure while running (writing files, a strategy's illegal move).
    #[error("{0}")]
    Run(String),
    /// Bad input that another error explains (a file that cannot be read):
    /// what ginlab was doing, and that error.
    #[error("{context}")]
    InputFrom {
        /// What ginlab was doing (`reading FILE`).
        context: String,
        /// Why it failed.
        #[source]
        cause: Cause,
    },
    /// A failure while running that another error explains.
    #[error("{context}")]
    RunFrom {
        /// What ginlab was doing (`writing FILE`).
        context: String,
        /// Why it failed.
        #[source]
        cause: Cause,
    },
    /// Playing failed.
    #[error(transparent)]
    Play(#[from] crate::sim::RunError),
}

impl JobError {
    /// Bad input: `context` failed because of `cause`.
    pub fn input_from(context: impl Into<String>, cause: impl Into<Cause>) -> JobError {
        JobError::InputFrom {
            context: context.into(),
            cause: cause.into(),
        }
    }

    /// A failure while running: `context` failed because of `cause`.
    pub fn run_from(context: impl Into<String>, cause: impl Into<Cause>) -> JobError {
        JobError::RunFrom {
            context: context.into(),
            cause: cause.into(),
        }
    }

    /// Whether the input was bad (exit code 2), not the run.
    #[must_use]
    pub fn is_input(&self) -> bool {
        matches!(self, JobError::Input(_) | JobError::InputFrom { .. })
    }

    /// The message and each cause, joined by `: `, as the CLI prints it.
    #[must_use]
    pub fn chain(&self) -> String {
        let mut text = self.to_string();
        let mut next = std::error::Error::source(self);
        while let Some(cause) = next {
            text.push_str(": ");
            text.push_str(&cause.to_string());
            next = cause.source();
        }
        text
    }
}
