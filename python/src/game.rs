//! `ginlab.Game`: one game stepped a decision at a time.

use ginlab::engine::{Deck, HandOutcome, Seat};
use ginlab::rules::Rules;
use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

use crate::actions::{self, ACTIONS};
use crate::harness::rules_from;
use crate::obs::{Observation, OwnedView};
use crate::players::profile;
use crate::table::{Episode, Step, Table};

/// Parses an episode name.
pub fn episode(name: &str) -> PyResult<Episode> {
    match name {
        "hand" => Ok(Episode::Hand),
        "game" => Ok(Episode::Game),
        _ => Err(PyValueError::new_err(format!(
            "episode {name:?}: give \"hand\" (one hand) or \"game\" (to the target)"
        ))),
    }
}

/// A seat number from Python.
pub fn seat(n: usize) -> PyResult<Seat> {
    match n {
        0 => Ok(Seat::A),
        1 => Ok(Seat::B),
        _ => Err(PyValueError::new_err(format!("seat {n}: give 0 or 1"))),
    }
}

/// The rules from a preset name or TOML knobs, to be shared by the tables
/// and observations of one game or env (and freed with the last of them).
pub fn shared_rules(rules: &str) -> PyResult<Arc<Rules>> {
    Ok(Arc::new(rules_from(rules)?))
}

/// A game of Gin Rummy stepped one decision at a time.
///
/// `Game(rules="standard", seed=0, episode="game", opponent=None, seat=0,
/// deck=None, dealer=None)`: under `rules` (a preset or TOML knobs), hands
/// dealt from a generator seeded by `seed` (or the first from `deck`, 52
/// card names top first, dealt by `dealer`). An episode is one `hand` or a
/// `game` to the target. With `opponent` (a strategy profile) that strategy
/// plays the other seat than `seat`, inside `step`.
#[pyclass(module = "ginlab")]
pub struct Game {
    table: Table,
    opponent: Option<(String, Seat, u64)>,
    last: Step,
}

impl Game {
    fn observation_of(&self, seat: Seat) -> Observation {
        Observation {
            inner: OwnedView::of(&self.table.hand().view(seat), self.table.rules()),
        }
    }
}

fn outcome_dict<'py>(py: Python<'py>, outcome: &HandOutcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match *outcome {
        HandOutcome::Void(reason) => {
            d.set_item("end", "void")?;
            d.set_item("reason", format!("{reason:?}"))?;
            d.set_item("winner", py.None())?;
            d.set_item("points", 0)?;
        }
        HandOutcome::Showdown {
            knocker,
            showdown,
            score,
        } => {
            d.set_item("end", score.end.name())?;
            d.set_item("knocker", knocker.index())?;
            let winner = outcome.winner();
            d.set_item("winner", winner.map(|(s, _)| s.index()))?;
            d.set_item("points", winner.map_or(0, |(_, p)| p))?;
            d.set_item("knocker_deadwood", showdown.knocker_deadwood())?;
            d.set_item("defender_deadwood", showdown.defender_deadwood())?;
        }
    }
    Ok(d)
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "standard", seed = 0, episode = "game", opponent = None, seat = 0, deck = None, dealer = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: &str,
        seed: u64,
        episode: &str,
        opponent: Option<&str>,
        seat: usize,
        deck: Option<&str>,
        dealer: Option<usize>,
    ) -> PyResult<Game> {
        let rules = shared_rules(rules)?;
        let episode = self::episode(episode)?;
        let seat = self::seat(seat)?;
        let deck = deck
            .map(|text| {
                text.parse::<Deck>()
                    .map_err(|e| PyValueError::new_err(format!("deck: {e}")))
            })
            .transpose()?;
        let dealer = dealer.map(self::seat).transpose()?;
        let mut table = Table::new(rules, episode, seed, deck, dealer)
            .map_err(|e| PyValueError::new_err(format!("rules: {e}")))?;
        let mut players = [None, None];
        let opponent = match opponent {
            Some(text) => {
                let strategy_seed = ginlab::sim::mix(seed ^ 0x6f70_706f);
                players[seat.other().index()] = Some(profile(text)?.build(strategy_seed));
                Some((text.to_owned(), seat, strategy_seed))
            }
            None => None,
        };
        let last = table.seat_players(players);
        Ok(Game {
            table,
            opponent,
            last,
        })
    }

    /// The seat to act (0 or 1), or None once the episode is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.table.to_act().map(Seat::index)
    }

    /// Whether the episode is over (call `reset()` for the next).
    #[getter]
    fn done(&self) -> bool {
        self.table.done()
    }

    /// The observation of `seat` (default: the seat to act).
    #[pyo3(signature = (seat = None))]
    fn observation(&self, seat: Option<usize>) -> PyResult<Observation> {
        let seat = match seat {
            Some(n) => self::seat(n)?,
            None => self
                .table
                .to_act()
                .ok_or_else(|| PyRuntimeError::new_err("the episode is over: nobody acts"))?,
        };
        Ok(self.observation_of(seat))
    }

    /// The legal action ids of the seat to act (empty when over).
    #[getter]
    fn legal_actions(&self) -> Vec<u16> {
        match self.table.to_act() {
            Some(seat) => actions::legal_ids(&self.table.hand().view(seat)),
            None => Vec::new(),
        }
    }

    /// The legal actions as a boolean mask of length 109.
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; ACTIONS];
        if let Some(seat) = self.table.to_act() {
            actions::write_mask(&self.table.hand().view(seat), &mut mask);
        }
        PyArray1::from_vec(py, mask)
    }

    /// Applies action `action` (an id) for the seat to act, then the
    /// opponent's moves if one is seated. Returns `(rewards, done)`:
    /// rewards are the hand points won (+) or lost (-) by seats 0 and 1 in
    /// hands that ended during the step. Raises ValueError for an illegal
    /// action (the game is then unchanged).
    fn step(&mut self, action: i64) -> PyResult<((i64, i64), bool)> {
        let decoded = actions::decode(action).ok_or_else(|| {
            PyValueError::new_err(format!("action {}", actions::describe(action)))
        })?;
        let step = self.table.step(decoded).map_err(|e| {
            PyValueError::new_err(format!("{} ({}): {e}", action, actions::describe(action)))
        })?;
        self.last = step;
        Ok(((step.rewards[0], step.rewards[1]), step.done))
    }

    /// Starts the next episode (a new hand or game from the same
    /// generator); returns the rewards of any hand the opponent ended at
    /// once (rarely non-zero).
    fn reset(&mut self) -> (i64, i64) {
        let step = self.table.reset();
        self.last = step;
        (step.rewards[0], step.rewards[1])
    }

    /// Whether the last step ended a hand.
    #[getter]
    fn hand_over(&self) -> bool {
        self.last.hand_over
    }

    /// The hand points so far in this game, by seat.
    #[getter]
    fn scores(&self) -> (u32, u32) {
        let p = self.table.tally().points;
        (p[0], p[1])
    }

    /// How the last finished hand ended: a dict (end, winner, points, ...),
    /// or None before any hand ended.
    #[getter]
    fn last_hand<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.table
            .last_outcome()
            .map(|o| outcome_dict(py, o))
            .transpose()
    }

    /// The game's result once a game episode is over: winner, final scores
    /// with every bonus, margin, shutout, hands; None before.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(result) = self.table.result() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("winner", result.winner.index())?;
        d.set_item("final_scores", result.final_scores.to_vec())?;
        d.set_item("margin", result.margin)?;
        d.set_item("shutout", result.shutout)?;
        d.set_item("hands", result.hands)?;
        Ok(Some(d))
    }

    /// The game reward of `seat`: its final margin (+ for the winner, - for
    /// the loser) once the game is over, else 0.
    fn game_reward(&self, seat: usize) -> PyResult<i64> {
        let seat = self::seat(seat)?;
        Ok(self.table.result().map_or(0, |r| {
            if r.winner == seat {
                r.margin
            } else {
                -r.margin
            }
        }))
    }

    /// An independent copy of the game, hidden cards included (for search).
    /// A seated opponent is rebuilt from its profile with a fresh seed:
    /// its own random choices in the copy differ from the original's.
    fn clone(&self) -> PyResult<Game> {
        let mut table = self.table.clone();
        let mut players = [None, None];
        if let Some((text, seat, seed)) = &self.opponent {
            let seed = ginlab::sim::mix(seed ^ u64::from(self.table.hand().turns()));
            players[seat.other().index()] = Some(profile(text)?.build(seed));
            table.reseat_players(players);
        }
        Ok(Game {
            table,
            opponent: self.opponent.clone(),
            last: self.last,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(to_act={:?}, hands={}, scores={:?}, done={})",
            self.table.to_act().map(Seat::index),
            self.table.hands(),
            self.table.tally().points,
            self.table.done()
        )
    }
}

/// One seat's side of a game against a built-in strategy: what a fair agent
/// may be handed. It answers for its own seat only (its observation, legal
/// actions, steps, scores, hand outcomes as shown at the table) and has no
/// way to the other seat's cards: no other seat's observation, no
/// `clone()`, and its game is not reachable from Python.
///
/// `AgentGame(rules="standard", seed=0, episode="hand", opponent="simple",
/// seat=0, deck=None, dealer=None)`, arguments as for `Game`.
#[pyclass(module = "ginlab")]
pub struct AgentGame {
    game: Game,
    seat: Seat,
}

#[pymethods]
impl AgentGame {
    #[new]
    #[pyo3(signature = (rules = "standard", seed = 0, episode = "hand", opponent = "simple", seat = 0, deck = None, dealer = None))]
    fn new(
        rules: &str,
        seed: u64,
        episode: &str,
        opponent: &str,
        seat: usize,
        deck: Option<&str>,
        dealer: Option<usize>,
    ) -> PyResult<AgentGame> {
        let game = Game::new(rules, seed, episode, Some(opponent), seat, deck, dealer)?;
        Ok(AgentGame {
            game,
            seat: self::seat(seat)?,
        })
    }

    /// The agent's seat (0 or 1).
    #[getter]
    fn seat(&self) -> usize {
        self.seat.index()
    }

    /// Whether the episode is over (call `reset()` for the next).
    #[getter]
    fn done(&self) -> bool {
        self.game.done()
    }

    /// The agent's observation.
    fn observation(&self) -> Observation {
        self.game.observation_of(self.seat)
    }

    /// The agent's legal action ids (empty when the episode is over).
    #[getter]
    fn legal_actions(&self) -> Vec<u16> {
        self.game.legal_actions()
    }

    /// The legal actions as a boolean mask of length 109.
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.game.mask(py)
    }

    /// As `Game.step`: returns `(rewards, done)`, rewards by seat.
    fn step(&mut self, action: i64) -> PyResult<((i64, i64), bool)> {
        self.game.step(action)
    }

    /// As `Game.reset`.
    fn reset(&mut self) -> (i64, i64) {
        self.game.reset()
    }

    /// Whether the last step ended a hand.
    #[getter]
    fn hand_over(&self) -> bool {
        self.game.hand_over()
    }

    /// The hand points so far in this game, by seat.
    #[getter]
    fn scores(&self) -> (u32, u32) {
        self.game.scores()
    }

    /// How the last finished hand ended (as announced at the table).
    #[getter]
    fn last_hand<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.game.last_hand(py)
    }

    /// The game's result once a game episode is over.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.game.result(py)
    }

    /// The agent's game reward: its final margin once the game is over.
    fn game_reward(&self) -> PyResult<i64> {
        self.game.game_reward(self.seat.index())
    }

    fn __repr__(&self) -> String {
        format!(
            "AgentGame(seat={}, scores={:?}, done={})",
            self.seat.index(),
            self.game.table.tally().points,
            self.game.done()
        )
    }
}
