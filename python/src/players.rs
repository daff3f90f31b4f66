//! Strategies across the language boundary: a built-in strategy that
//! answers observations from Python ([`BuiltinStrategy`]), and a Python
//! object that plays in the engine as a [`Strategy`] ([`PyPlayer`]).

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use ginlab::engine::{Action, DrawSource, Event, HandOutcome, PlayerView, TurnEnd, ask};
use ginlab::rules::Rules;
use ginlab::strategy::{Kind, Params, Profile, Strategy};
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

/// What the players of one job share to stop it: the first Python error
/// (raised by the caller once the job has stopped) and the job's abort
/// flag, set with it.
#[derive(Debug, Default)]
pub struct Stop {
    /// The first error a Python player raised.
    pub error: Mutex<Option<PyErr>>,
    /// The job layer's abort flag.
    pub abort: Arc<AtomicBool>,
}

impl Stop {
    /// Keeps `err` (the first one wins) and stops the job.
    fn fail(&self, err: PyErr) {
        self.error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(err);
        self.abort.store(true, Ordering::Relaxed);
    }

    /// Whether a player has failed.
    fn stopped(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// The error a player raised, if one did.
    pub fn take(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A Python object as a player factory: a strategy profile whose kind is
/// `python`, so the job layer builds and plays it like every other player
/// (the one seam, [`Params::build`]); it prints as the object's name.
#[derive(Clone, Debug, Default)]
pub struct PyObject {
    object: Option<Arc<Py<PyAny>>>,
    name: String,
    stop: Arc<Stop>,
}

/// The kind of a Python object's profile (never parsed: it is made from
/// the object, not from text).
static PYTHON: Kind = Kind::unread("python", Some("python"));

impl PyObject {
    /// `object` (which must have an `act` method) as a profile called
    /// `name`, stopping the job through `stop` when it fails.
    pub fn profile(object: &Bound<'_, PyAny>, name: String, stop: &Arc<Stop>) -> PyResult<Profile> {
        if !object.hasattr("act")? {
            return Err(PyValueError::new_err(format!(
                "player {}: give a strategy profile (\"greedy\", \"mc:samples=64\") or an object with an act(observation) method",
                object.repr()?
            )));
        }
        Ok(Profile::new(PyObject {
            object: Some(Arc::new(object.clone().unbind())),
            name,
            stop: stop.clone(),
        }))
    }
}

impl PartialEq for PyObject {
    fn eq(&self, other: &PyObject) -> bool {
        let same = match (&self.object, &other.object) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same && self.name == other.name
    }
}

impl fmt::Display for PyObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl Params for PyObject {
    fn kind(&self) -> &'static Kind {
        &PYTHON
    }

    fn build(&self, _seed: u64) -> Box<dyn Strategy> {
        let object = self
            .object
            .as_ref()
            .map(|o| Python::attach(|py| o.clone_ref(py)));
        Box::new(PyPlayer {
            object,
            name: self.name.clone(),
            rules: None,
            stop: self.stop.clone(),
            failed: None,
        })
    }
}

/// A Python object playing in the engine: `act(observation) -> int` is
/// asked for every decision; optional `start_hand(observation)` and
/// `end_hand(observation)` hear of deals and ends. A Python exception, or
/// an answer that is not a legal action id, stops the play: the player
/// forfeits, the error is kept in its [`Stop`] for the caller to raise,
/// and every Python player of the job forfeits from then on.
pub struct PyPlayer {
    object: Option<Py<PyAny>>,
    name: String,
    rules: Option<Arc<Rules>>,
    stop: Arc<Stop>,
    failed: Option<String>,
}

impl PyPlayer {
    fn observation(&mut self, view: &PlayerView<'_>) -> Observation {
        // One copy of the rules per player, shared by its observations
        // (made again only if the player is moved to other rules).
        if self.rules.as_deref() != Some(view.rules) {
            self.rules = Some(Arc::new(view.rules.clone()));
        }
        let rules = self.rules.as_ref().expect("set above");
        Observation {
            inner: OwnedView::of(view, rules),
        }
    }

    fn fail(&mut self, err: PyErr) {
        self.failed = Some(err.to_string());
        self.stop.fail(err);
    }

    /// Asks `act`; on failure (or once another player has failed) records
    /// it and returns some legal action (the driver asks
    /// [`Strategy::forfeit`] next and does not play it).
    fn act(&mut self, view: &PlayerView<'_>) -> Action {
        let first = actions::legal_ids(view)[0];
        let fallback = actions::decode(i64::from(first)).expect("a legal id decodes");
        if self.stop.stopped() || self.object.is_none() {
            self.failed
                .get_or_insert_with(|| "the job was stopped".to_owned());
            return fallback;
        }
        let observation = self.observation(view);
        let answer = Python::attach(|py| -> PyResult<Action> {
            let object = self.object.as_ref().expect("checked").bind(py);
            let id: i64 = object
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
            fallback
        })
    }

    fn hook(&mut self, method: &str, view: &PlayerView<'_>) {
        if self.failed.is_some() || self.stop.stopped() || self.object.is_none() {
            return;
        }
        let observation = self.observation(view);
        let result = Python::attach(|py| -> PyResult<()> {
            let object = self.object.as_ref().expect("checked").bind(py);
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

    /// The Python object can raise or answer wrongly.
    fn can_forfeit(&self) -> bool {
        true
    }
}
