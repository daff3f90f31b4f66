//! The confirmation on fresh deals: every row of an answer (the best
//! setting, the runner-up and the baseline, each against one opponent)
//! plays the same deals side by side, deal by deal, so an edge's interval
//! is paired over the deals, the independent units, instead of combining
//! two rows' errors as if their shared deals were unrelated. What it has
//! played goes into `tune.json` after every block, so a killed run resumes
//! to the same files.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::job::JobError;
use crate::report::Objective;
use crate::sim::{Plan as MatchPlan, Scratch, Tallies, run_chunks};

use super::objective::Unit;
use crate::stats::Cross;

/// Deals per block of the confirmation (a checkpoint after each).
const BLOCK: u64 = 2048;

/// The confirmation so far (kept in `tune.json` while it runs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confirmation {
    /// What the rows play: a resumed run must play the same.
    pub fingerprint: String,
    /// Deals played so far, by every row.
    pub done: u64,
    /// Each row's tallies.
    pub rows: Vec<Tallies>,
    /// Per group, the cross sums of its first row's units with each other
    /// row's over the same deals.
    pub cross: Vec<Vec<Cross>>,
}

/// The rows of a confirmation and how they are compared.
pub struct Rows<'a> {
    /// Every row, one plan each; all play the same deals.
    pub plans: &'a [Arc<MatchPlan>],
    /// Groups of row indices: the first is compared with each other.
    pub groups: &'a [Vec<usize>],
    /// What a unit measures.
    pub objective: Objective,
}

impl Rows<'_> {
    /// Everything that decides the confirmation's result.
    fn fingerprint(&self) -> String {
        let rows: Vec<String> = self
            .plans
            .iter()
            .map(|p| crate::job::Contest::fingerprint(p.as_ref(), ""))
            .collect();
        format!(
            "objective {:?}\ngroups {:?}\n{}",
            self.objective,
            self.groups,
            rows.join("\n")
        )
    }

    /// The deals every row plays.
    fn deals(&self) -> u64 {
        self.plans.first().map_or(0, |p| p.deals())
    }
}

/// One worker's sums over some deals: each row's tallies and the groups'
/// cross sums (empty until the first deal).
#[derive(Default)]
struct Sums {
    rows: Vec<Tallies>,
    cross: Vec<Vec<Cross>>,
}

impl Sums {
    fn merge(&mut self, other: &Sums) {
        if other.rows.is_empty() {
            return;
        }
        if self.rows.is_empty() {
            self.rows.clone_from(&other.rows);
            self.cross.clone_from(&other.cross);
            return;
        }
        for (a, b) in self.rows.iter_mut().zip(&other.rows) {
            a.merge(b);
        }
        for (a, b) in self
            .cross
            .iter_mut()
            .flatten()
            .zip(other.cross.iter().flatten())
        {
            a.merge(b);
        }
    }
}

/// Plays the confirmation of `rows` from `saved` (a run's resumed state,
/// checked against the rows) to its end on `threads` threads, handing the
/// state to `save` after every block and a line to `status`.
///
/// # Errors
/// [`JobError::Input`] for a saved state of other rows; a failure while
/// playing or from `save`.
pub fn play(
    rows: &Rows<'_>,
    saved: Option<Confirmation>,
    threads: usize,
    save: &dyn Fn(&Confirmation) -> Result<(), JobError>,
    status: &dyn Fn(&str),
) -> Result<Confirmation, JobError> {
    let fingerprint = rows.fingerprint();
    let mut state = match saved {
        Some(saved) if saved.fingerprint != fingerprint => {
            return Err(JobError::Input(
                "--resume: the confirmation in tune.json plays other rows (another confirmation count or baseline); run without --resume".into(),
            ));
        }
        Some(saved) => saved,
        None => Confirmation {
            fingerprint,
            done: 0,
            rows: rows.plans.iter().map(|_| Tallies::default()).collect(),
            cross: rows
                .groups
                .iter()
                .map(|g| vec![Cross::default(); g.len().saturating_sub(1)])
                .collect(),
        },
    };
    let deals = rows.deals();
    while state.done < deals {
        let block = state.done..(state.done + BLOCK).min(deals);
        let sums = run_chunks(
            block.clone(),
            threads,
            &|_| {},
            || {
                rows.plans
                    .iter()
                    .map(|_| Scratch::default())
                    .collect::<Vec<_>>()
            },
            |deal, sums: &mut Sums, scratch: &mut Vec<Scratch<'_>>, _| {
                if sums.rows.is_empty() {
                    sums.rows = rows.plans.iter().map(|_| Tallies::default()).collect();
                    sums.cross = rows
                        .groups
                        .iter()
                        .map(|g| vec![Cross::default(); g.len().saturating_sub(1)])
                        .collect();
                }
                let mut units = Vec::with_capacity(rows.plans.len());
                for ((plan, tallies), scratch) in rows
                    .plans
                    .iter()
                    .zip(&mut sums.rows)
                    .zip(scratch.iter_mut())
                {
                    let before = Unit::of(rows.objective, tallies);
                    plan.play_deal_in(deal, tallies, scratch)?;
                    let after = Unit::of(rows.objective, tallies);
                    units.push(Unit {
                        x: after.x - before.x,
                        y: after.y - before.y,
                        hands: after.hands - before.hands,
                    });
                }
                for (group, cross) in rows.groups.iter().zip(&mut sums.cross) {
                    for (other, c) in group[1..].iter().zip(cross) {
                        c.add(units[group[0]].ratio(), units[*other].ratio());
                    }
                }
                Ok(())
            },
            Sums::merge,
            None,
        )?;
        let mut total = Sums {
            rows: std::mem::take(&mut state.rows),
            cross: std::mem::take(&mut state.cross),
        };
        total.merge(&sums);
        state.rows = total.rows;
        state.cross = total.cross;
        state.done = block.end;
        save(&state)?;
        status(&format!(
            "confirmation: {} of {deals} deals on every row",
            state.done
        ));
    }
    Ok(state)
}
