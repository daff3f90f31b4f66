//! `--json`: a finished job's figures as one JSON object on one line, for
//! scripts. Each table is the rows its CSV file is written from, so the keys
//! are the CSV columns and the numbers are the same (an empty CSV cell is
//! `null`).

use serde::Serialize;

use super::{RatingRow, SideRow, StudyRows, SummaryRow};
use crate::stats::{SprtDecision, SprtState};

/// Where a stopping rule left a run, as `--json` reports it.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SprtJson {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The log-likelihood ratio at the end.
    pub llr: f64,
    /// The lower bound (H0 below it).
    pub lower: f64,
    /// The upper bound (H1 above it).
    pub upper: f64,
    /// `h0`, `h1`, or `undecided` (the game or hand limit came first).
    pub decision: &'static str,
    /// The scoring units the LLR is over: the unit the test decided at,
    /// or every unit played when undecided (the summary may cover more:
    /// the rest of the block it decided in).
    pub units: u64,
}

impl SprtJson {
    /// The report of a test that ended at `test`.
    #[must_use]
    pub fn new(test: &SprtState) -> SprtJson {
        let sprt = &test.sprt;
        let (lower, upper) = sprt.bounds();
        SprtJson {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            llr: super::r6(test.llr),
            lower: super::r6(lower),
            upper: super::r6(upper),
            decision: match test.decision {
                SprtDecision::AcceptH0 => "h0",
                SprtDecision::AcceptH1 => "h1",
                SprtDecision::Continue => "undecided",
            },
            units: test.units.n,
        }
    }
}

/// A finished job's `summary.csv` rows: per pairing (two players), or per
/// player or team with `seats.csv`'s rows per position (three players,
/// partnerships).
#[derive(Clone, Debug)]
pub enum Summary {
    /// One row per variant and pairing.
    Pairs(Vec<SummaryRow>),
    /// One row per variant and side, and per variant and position.
    Sides {
        /// `summary.csv`: per player or team.
        sides: Vec<SideRow>,
        /// `seats.csv`: per position relative to the first dealer.
        seats: Vec<SideRow>,
    },
}

impl Summary {
    /// The two-player rows (none for a table job).
    #[must_use]
    pub fn pairs(&self) -> &[SummaryRow] {
        match self {
            Summary::Pairs(rows) => rows,
            Summary::Sides { .. } => &[],
        }
    }
}

/// The rows of `summary.csv`, whichever their kind.
#[derive(Serialize)]
#[serde(untagged)]
enum SummaryJson<'a> {
    Pairs(&'a [SummaryRow]),
    Sides(&'a [SideRow]),
}

/// The object `--json` prints.
#[derive(Serialize)]
struct Report<'a> {
    summary: SummaryJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<&'a [SideRow]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ratings: Option<&'a [RatingRow]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep: Option<&'a [super::SweepRow]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    balance: Option<&'a [super::BalanceRow]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<SprtJson>,
}

/// One line of JSON: `summary` (the rows of `summary.csv`), and when the
/// job has them `seats`, `ratings`, `sweep` or `balance` (the rows of those
/// CSV files) and `sprt`.
#[must_use]
pub fn json_report(
    summary: &Summary,
    ratings: Option<&[RatingRow]>,
    study: Option<&StudyRows>,
    sprt: Option<SprtJson>,
) -> String {
    let (summary, seats) = match summary {
        Summary::Pairs(rows) => (SummaryJson::Pairs(rows), None),
        Summary::Sides { sides, seats } => (SummaryJson::Sides(sides), Some(seats.as_slice())),
    };
    let report = Report {
        summary,
        seats,
        ratings,
        sweep: match study {
            Some(StudyRows::Sweep(rows)) => Some(rows),
            _ => None,
        },
        balance: match study {
            Some(StudyRows::Balance(rows)) => Some(rows),
            _ => None,
        },
        sprt,
    };
    let mut text = serde_json::to_string(&report).expect("rows serialise");
    text.push('\n');
    text
}
