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
    Cap, PROFILE_FILE, RULES_FILE, SPEC_FILE, match_variant, not_utf8, player, rules,
    study_variants,
};
pub use merge::merge;
pub use output::{Outcome, remake_views};
pub use run::{MAX_THREADS, Options, Progress, STOP_BLOCK, check_threads, run};
pub use spec::{JobRequest, JobSpec, Layout, Player, Resolve, Row, given_once};
pub use state::{Shard, StudyKind};

/// Why a job did not finish.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Bad input: flags, a spec, a folder or state file that cannot be
    /// used. Found before anything is played where it can be.
    #[error("{0}")]
    Input(String),
    /// A failure while running (writing files, a strategy's illegal move).
    #[error("{0}")]
    Run(String),
}

impl From<crate::sim::RunError> for JobError {
    fn from(error: crate::sim::RunError) -> JobError {
        JobError::Run(error.to_string())
    }
}
