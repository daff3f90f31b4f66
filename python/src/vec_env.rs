//! `ginlab.VecEnv`: N games stepped by one call, numpy in and out.

use std::sync::Arc;

use ginlab::engine::Seat;
use ginlab::sim::{Stream, seed_for};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{Rng as _, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::actions::{self, ACTIONS};
use crate::game::{episode, seat, shared_rules};
use crate::obs::{Encoded, PLANES, SCALARS, encode};
use crate::players::profile;
use crate::table::Table;

/// The most games one `VecEnv` holds (each game and its arrays take about
/// 2 kB, so this is about 32 GB).
const MAX_GAMES: usize = 1 << 24;

/// The action ids of `actions`: a 1-d numpy array of any integer dtype
/// (int64, int32 as JAX gives, ...) or a sequence of Python ints.
fn action_ids(actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(array) = actions.cast::<PyArray1<i64>>() {
        return Ok(array.readonly().as_array().to_vec());
    }
    if let Ok(array) = actions.cast::<PyUntypedArray>() {
        let kind = array.dtype().kind();
        if array.ndim() != 1 || !matches!(kind, b'i' | b'u') {
            return Err(PyValueError::new_err(format!(
                "actions: a {}-d array of dtype {}: give a 1-d integer array (or a list of ints)",
                array.ndim(),
                array.dtype()
            )));
        }
        let converted = actions.call_method1("astype", ("int64",))?;
        let array = converted.cast::<PyArray1<i64>>()?;
        return Ok(array.readonly().as_array().to_vec());
    }
    actions.extract::<Vec<i64>>().map_err(|_| {
        PyValueError::new_err(
            "actions: give one action id per game as a 1-d integer numpy array or a list of ints",
        )
    })
}

/// N games of Gin Rummy stepped together in Rust.
///
/// `VecEnv(n, rules="standard", seed=0, episode="hand", opponent=None,
/// seat=0)`. Game `i` deals from a generator seeded by (`seed`, `i`), so a
/// run is reproducible and game `i` does not depend on `n`. Without
/// `opponent` both seats are yours (the `to_act` array says whose decision
/// each observation is); with it, that strategy plays the other seat than
/// `seat` inside `step`. A finished episode is reset at once (its last
/// reward and `done` are returned with the new episode's first
/// observation). The GIL is released while Rust steps.
#[pyclass(module = "ginlab")]
pub struct VecEnv {
    tables: Vec<Table>,
    masks: Vec<bool>,
    rng: Pcg64Mcg,
}

/// The arrays one step writes.
struct Out<'a> {
    cards: &'a mut [u8],
    pile: &'a mut [i8],
    scalars: &'a mut [i32],
    mask: &'a mut [bool],
    to_act: &'a mut [i8],
}

impl VecEnv {
    /// Encodes every game's acting view into `out` and keeps the masks.
    fn encode_all(tables: &[Table], masks: &mut [bool], out: Out<'_>) {
        let chunks = out
            .cards
            .chunks_exact_mut(PLANES * 52)
            .zip(out.pile.chunks_exact_mut(52))
            .zip(out.scalars.chunks_exact_mut(SCALARS))
            .zip(out.mask.chunks_exact_mut(ACTIONS))
            .zip(out.to_act.iter_mut());
        for (table, ((((cards, pile), scalars), mask), to_act)) in tables.iter().zip(chunks) {
            let seat = table
                .to_act()
                .expect("a vectorised game is reset when done");
            *to_act = seat.index() as i8;
            let view = table.hand().view(seat);
            encode(
                &view,
                Encoded {
                    cards,
                    pile,
                    scalars,
                    mask,
                },
            );
        }
        masks.copy_from_slice(out.mask);
    }

    fn output<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let n = self.tables.len();
        let cards = PyArray3::<u8>::zeros(py, [n, PLANES, 52], false);
        let pile = PyArray2::<i8>::zeros(py, [n, 52], false);
        let scalars = PyArray2::<i32>::zeros(py, [n, SCALARS], false);
        let mask = PyArray2::<bool>::zeros(py, [n, ACTIONS], false);
        let to_act = PyArray1::<i8>::zeros(py, n, false);
        {
            let (mut c, mut p, mut s, mut m, mut t) = (
                cards.readwrite(),
                pile.readwrite(),
                scalars.readwrite(),
                mask.readwrite(),
                to_act.readwrite(),
            );
            let out = Out {
                cards: c.as_slice_mut()?,
                pile: p.as_slice_mut()?,
                scalars: s.as_slice_mut()?,
                mask: m.as_slice_mut()?,
                to_act: t.as_slice_mut()?,
            };
            let (tables, masks) = (&self.tables, &mut self.masks);
            py.detach(|| Self::encode_all(tables, masks, out));
        }
        let d = PyDict::new(py);
        d.set_item("cards", cards)?;
        d.set_item("pile", pile)?;
        d.set_item("scalars", scalars)?;
        d.set_item("mask", mask)?;
        d.set_item("to_act", to_act)?;
        Ok(d)
    }
}

/// What [`VecEnv::step`] returns: observations, rewards, dones.
type Stepped<'py> = (
    Bound<'py, PyDict>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray1<bool>>,
);

/// Resets `table` until an episode needs a decision of the caller (an
/// episode the built-in player ends before that is dealt again).
fn reset(table: &mut Table) {
    table.reset();
    while table.done() {
        table.reset();
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (n, rules = "standard", seed = 0, episode = "hand", opponent = None, seat = 0))]
    fn new(
        n: usize,
        rules: &str,
        seed: u64,
        episode: &str,
        opponent: Option<&str>,
        seat: usize,
    ) -> PyResult<VecEnv> {
        if !(1..=MAX_GAMES).contains(&n) {
            return Err(PyValueError::new_err(format!(
                "n = {n}: give 1..={MAX_GAMES} games"
            )));
        }
        let rules = shared_rules(rules)?;
        let episode = self::episode(episode)?;
        let seat = self::seat(seat)?;
        let opponent = opponent.map(profile).transpose()?;
        let mut tables = Vec::new();
        let mut masks = Vec::new();
        tables
            .try_reserve_exact(n)
            .and_then(|()| masks.try_reserve_exact(n * ACTIONS))
            .map_err(|_| {
                PyMemoryError::new_err(format!("n = {n}: not enough memory for {n} games"))
            })?;
        for i in 0..n as u64 {
            let mut table = Table::new(
                Arc::clone(&rules),
                episode,
                seed_for(seed, i, Stream::Deal),
                None,
                None,
            )
            .map_err(|e| PyValueError::new_err(format!("rules: {e}")))?;
            let mut players = [None, None];
            if let Some(p) = &opponent {
                players[seat.other().index()] = Some(p.build(seed_for(seed, i, Stream::SeatB)));
            }
            table.seat_players(players);
            if table.done() {
                reset(&mut table);
            }
            tables.push(table);
        }
        masks.resize(n * ACTIONS, false);
        for (table, mask) in tables.iter().zip(masks.chunks_exact_mut(ACTIONS)) {
            let seat = table
                .to_act()
                .expect("a vectorised game is reset when done");
            actions::write_mask(&table.hand().view(seat), mask);
        }
        Ok(VecEnv {
            tables,
            masks,
            rng: Pcg64Mcg::seed_from_u64(seed_for(seed, u64::MAX, Stream::SeatA)),
        })
    }

    /// How many games.
    fn __len__(&self) -> usize {
        self.tables.len()
    }

    /// The current observations: a dict of arrays with a leading axis of
    /// N: `cards` (N, 6, 52) uint8, `pile` (N, 52) int8, `scalars` (N, 10)
    /// int32, `mask` (N, 109) bool, `to_act` (N,) int8 (see
    /// `Observation.arrays`).
    fn observe<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.output(py)
    }

    /// Starts a new episode in every game; returns the observations.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tables = &mut self.tables;
        py.detach(|| tables.iter_mut().for_each(reset));
        self.output(py)
    }

    /// Applies one action id per game (an (N,) integer array of any integer
    /// dtype, or a list of ints) and returns
    /// `(observations, rewards, dones)`: rewards (N, 2) int32 are the hand
    /// points won (+) or lost (-) by seats 0 and 1 in hands that ended
    /// during the step, plus, when a game episode ends, the game's final
    /// margin (+ for the winner, - for the loser); dones (N,) bool mark episodes that ended (and were
    /// reset). Every action is checked against the mask first; an illegal
    /// one raises ValueError naming the game, and no game is stepped.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Stepped<'py>> {
        let n = self.tables.len();
        let ids = action_ids(actions)?;
        if ids.len() != n {
            return Err(PyValueError::new_err(format!(
                "actions has {} entries: give one action id per game ({n})",
                ids.len()
            )));
        }
        let ids = ids.as_slice();
        for (i, &id) in ids.iter().enumerate() {
            let legal = usize::try_from(id)
                .ok()
                .filter(|&a| a < ACTIONS)
                .is_some_and(|a| self.masks[i * ACTIONS + a]);
            if !legal {
                return Err(PyValueError::new_err(format!(
                    "game {i}: action {id} ({}) is not legal now; see mask[{i}]",
                    actions::describe(id)
                )));
            }
        }
        let rewards = PyArray2::<i32>::zeros(py, [n, 2], false);
        let dones = PyArray1::<bool>::zeros(py, n, false);
        {
            let (mut r, mut d) = (rewards.readwrite(), dones.readwrite());
            let (r, d) = (r.as_slice_mut()?, d.as_slice_mut()?);
            let tables = &mut self.tables;
            py.detach(|| {
                for (((table, &id), reward), done) in tables
                    .iter_mut()
                    .zip(ids)
                    .zip(r.chunks_exact_mut(2))
                    .zip(d.iter_mut())
                {
                    let action = actions::decode(id).expect("checked against the mask");
                    let step = table.step(action).expect("checked against the mask");
                    let mut rewards = step.rewards;
                    if step.done {
                        // A game episode's last reward adds the final margin,
                        // as GinEnv's does (a hand episode has no result).
                        if let Some(result) = table.result() {
                            rewards[result.winner.index()] += result.margin;
                            rewards[result.winner.other().index()] -= result.margin;
                        }
                    }
                    reward[0] = rewards[0] as i32;
                    reward[1] = rewards[1] as i32;
                    *done = step.done;
                    if step.done {
                        reset(table);
                    }
                }
            });
        }
        Ok((self.output(py)?, rewards, dones))
    }

    /// A uniformly random legal action id per game, from the env's own
    /// generator (seeded by the env's seed): an (N,) int64 array.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let (masks, rng) = (&self.masks, &mut self.rng);
        let ids: Vec<i64> = py.detach(|| {
            masks
                .chunks_exact(ACTIONS)
                .map(|mask| {
                    let count = mask.iter().filter(|&&m| m).count() as u64;
                    let mut k = ((u128::from(rng.next_u64()) * u128::from(count)) >> 64) as usize;
                    mask.iter()
                        .position(|&m| {
                            if m {
                                if k == 0 {
                                    return true;
                                }
                                k -= 1;
                            }
                            false
                        })
                        .expect("a game waiting for a decision has a legal action")
                        as i64
                })
                .collect()
        });
        PyArray1::from_vec(py, ids)
    }

    /// The seats to act, (N,) int8.
    #[getter]
    fn to_act<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let seats: Vec<i8> = self
            .tables
            .iter()
            .map(|t| t.to_act().map_or(-1, |s: Seat| s.index() as i8))
            .collect();
        PyArray1::from_vec(py, seats)
    }
}
