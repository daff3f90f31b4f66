//! Strategies across the language boundary: a built-in strategy that
//! answers observations from Python ([`BuiltinStrategy`]), and a Python
//! object that plays in the engine as a [`Strategy`] ([`PyPlayer`]).

use std::sync::{Arc, Mutex};

use ginlab::engine::{Action, DrawSource, Event, HandOutcome, PlayerView, TurnEnd, ask};
use ginlab::rules::Rules;
use ginlab::strategy::{Profile, Strategy};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::actions;
use crate::obs::{Observation, OwnedView};

/// Parses a strategy profile (`greedy`, `mc:samples=64`), rejecting
/// external bots: from Python, a bot is an object with an `act` method.
pub fn profile(text: &str) -> PyResult<Profile> {
    let profile: Profile = text
        .parse()
        .map_err(|e| PyValueError::new_err(format!("strategy {text:?}: {e}")))?;
    if text.trim_start().starts_with("exec:") {
        return Err(PyValueError::new_err(format!(
            "strategy {text:?}: external bots are not played from Python; \
             pass an object with an act(observation) method instead"
        )));
    }
    Ok(profile)
}

/// A built-in strategy (or profile), answering observations:
/// `ginlab.strategy("mc").act(obs)` returns the action id it plays.
#[pyclass(module = "ginlab", name = "Strategy")]
pub struct BuiltinStrategy {
    profile: Profile,
    player: Mutex<Box<dyn Strategy>>,
}

#[pymethods]
impl BuiltinStrategy {
    /// The strategy of `profile` (as `ginlab strategies` lists them), its
    /// random choices seeded by `seed`.
    #[new]
    #[pyo3(signature = (profile, seed = 0))]
    fn new(profile: &str, seed: u64) -> PyResult<BuiltinStrategy> {
        let profile = self::profile(profile)?;
        let player = Mutex::new(profile.build(seed));
        Ok(BuiltinStrategy { profile, player })
    }

    /// The profile, as text.
    #[getter]
    fn name(&self) -> String {
        self.profile.to_string()
    }

    /// The action id this strategy plays in `observation`, which must be at
    /// the observing player's decision. The GIL is released while it thinks.
    fn act(&self, py: Python<'_>, observation: &Observation) -> PyResult<u16> {
        let view = observation.inner.view();
        if view.phase.seat() != Some(view.seat) {
            return Err(PyValueError::new_err(
                "the observation is not at a decision of its player (phase over)",
            ));
        }
        let player = &self.player;
        let action = py.detach(|| {
            let mut player = player.lock().unwrap_or_else(|e| e.into_inner());
            ask(player.as_mut(), &view)
        });
        Ok(actions::encode(action))
    }

    fn __repr__(&self) -> String {
        format!("ginlab.strategy({:?})", self.profile.to_string())
    }
}

/// A Python object playing in the engine: `act(observation) -> int` is
/// asked for every decision; optional `start_hand(observation)` and
/// `end_hand(observation)` hear of deals and ends. A Python exception, or
/// an answer that is not a legal action id, stops the play: the player
/// forfeits and the error is kept in `error` for the caller to raise.
pub struct PyPlayer {
    object: Py<PyAny>,
    name: String,
    rules: &'static Rules,
    error: Arc<Mutex<Option<PyErr>>>,
    failed: Option<String>,
}

impl PyPlayer {
    /// `object` as a player under `rules`; errors go to `error`.
    pub fn new(
        object: Py<PyAny>,
        name: String,
        rules: &'static Rules,
        error: Arc<Mutex<Option<PyErr>>>,
    ) -> PyPlayer {
        PyPlayer {
            object,
            name,
            rules,
            error,
            failed: None,
        }
    }

    fn observation(&self, view: &PlayerView<'_>) -> Observation {
        Observation {
            inner: OwnedView::of(view, self.rules),
        }
    }

    fn fail(&mut self, err: PyErr) {
        self.failed = Some(err.to_string());
        let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(err);
    }

    /// Asks `act`; on failure records it and returns some legal action (the
    /// driver asks [`Strategy::forfeit`] next and does not play it).
    fn act(&mut self, view: &PlayerView<'_>) -> Action {
        let observation = self.observation(view);
        let answer = Python::attach(|py| -> PyResult<Action> {
            let id: i64 = self
                .object
                .bind(py)
                .call_method1("act", (observation,))?
                .extract()
                .map_err(|e| {
                    PyValueError::new_err(format!(
                        "{}: act() must return an action id: {e}",
                        self.name
                    ))
                })?;
            let legal = actions::legal_ids(view);
            match actions::decode(id) {
                Some(action) if legal.contains(&actions::encode(action)) => Ok(action),
                _ => Err(PyValueError::new_err(format!(
                    "{}: act() returned {}, which is not legal now; legal: {:?}",
                    self.name,
                    actions::describe(id),
                    legal
                ))),
            }
        });
        answer.unwrap_or_else(|err| {
            self.fail(err);
            let first = actions::legal_ids(view)[0];
            actions::decode(i64::from(first)).expect("a legal id decodes")
        })
    }

    fn hook(&mut self, method: &str, view: &PlayerView<'_>) {
        if self.failed.is_some() {
            return;
        }
        let observation = self.observation(view);
        let result = Python::attach(|py| -> PyResult<()> {
            let object = self.object.bind(py);
            if object.hasattr(method)? {
                object.call_method1(method, (observation,))?;
            }
            Ok(())
        });
        if let Err(err) = result {
            self.fail(err);
        }
    }
}

impl Strategy for PyPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_hand(&mut self, view: &PlayerView<'_>) {
        self.hook("start_hand", view);
    }

    fn observe(&mut self, _view: &PlayerView<'_>, _event: &Event) {}

    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        matches!(self.act(view), Action::TakeUpcard(true))
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        match self.act(view) {
            Action::Draw(source) => source,
            _ => DrawSource::Stock,
        }
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        match self.act(view) {
            Action::EndTurn(end) => end,
            _ => unreachable!("a legal answer at the end of a turn ends it"),
        }
    }

    fn end_hand(&mut self, view: &PlayerView<'_>, _outcome: &HandOutcome) {
        self.hook("end_hand", view);
    }

    fn forfeit(&mut self) -> Option<String> {
        self.failed.clone()
    }
}
