//! Tuning: find the best setting of a strategy's profile parameters per
//! rule variant, with a stated confidence, in a fraction of a sweep's
//! games.
//!
//! - [`space`]: the parameters and their grids or ranges, checked against
//!   the strategy's parameter table;
//! - [`objective`]: what a unit measures (two settings over the same deals
//!   are compared by `stats`' paired interval);
//! - [`evaluate`]: the seam that plays settings on a block of deals;
//! - [`racing`]: racing on duplicate deals for a discrete grid;
//! - [`spsa`]: SPSA for several integer or continuous parameters;
//! - [`confirm`]: the confirmation on fresh deals, its rows paired.

pub mod confirm;
pub mod evaluate;
pub mod objective;
pub mod racing;
pub mod space;
pub mod spsa;

pub use evaluate::{Evaluate, Matches};
pub use objective::Unit;
pub use racing::Race;
pub use space::{Dim, Domain, Setting, Space};
pub use spsa::{Gains, Spsa};
pub mod output;
pub mod request;
pub mod run;
pub mod spec;

pub use output::{Answer, TuneOutcome};
pub use request::{Method, TuneRequest};

use crate::job::JobError;

/// Plays a tuning run: the search of every variant (resumed from the
/// folder's `tune.json` with `resume`), then the confirmation and the
/// result files. `status` gets a line after every block.
///
/// # Errors
/// [`JobError::Input`] for a bad request or folder (before anything is
/// played), [`JobError::Run`] for a failure while playing or writing.
pub fn tune(
    request: &TuneRequest,
    threads: usize,
    resume: bool,
    status: &dyn Fn(&str),
) -> Result<TuneOutcome, JobError> {
    let (plan, mut state, claim) = run::search(request, threads, resume, status)?;
    let outcome = output::finish(
        request,
        &plan,
        &mut state,
        threads,
        status,
        claim.notes.clone(),
    )?;
    drop(claim);
    Ok(outcome)
}
