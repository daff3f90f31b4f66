//! [`Observation`]: one player's [`PlayerView`] copied out of the hand, so
//! that Python can keep it; and its fixed-size array encoding.
//!
//! The copy is made from a `PlayerView` field by field and holds nothing
//! else, so an observation can never show more than the engine's view.

use ginlab::cards::{Card, CardSet};
use ginlab::engine::{Event, Phase, PlayerView, Seat};
use ginlab::rules::Rules;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

use crate::actions::{self, ACTIONS};

/// Planes of the card encoding: own hand, cards the opponent is known to
/// hold, cards in the pile, the pile top, the card just taken from the pile
/// (not discardable), the upcard.
pub const PLANES: usize = 6;
/// Scalars: phase id, stock size, pile size, own score, opponent's score,
/// turn, knock limit, whether this player deals, opponent's card count,
/// seat.
pub const SCALARS: usize = 10;

/// The phase names, by phase id.
pub const PHASES: [&str; 5] = ["upcard", "draw", "last_chance", "end_turn", "over"];

/// A phase's id (an index into [`PHASES`]).
#[must_use]
pub fn phase_id(phase: Phase) -> u8 {
    match phase {
        Phase::UpcardOffer { .. } => 0,
        Phase::Draw { .. } => 1,
        Phase::LastChance { .. } => 2,
        Phase::EndTurn { .. } => 3,
        Phase::Over => 4,
    }
}

/// One player's view, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedView {
    seat: Seat,
    dealer: Seat,
    phase: Phase,
    hand: CardSet,
    upcard: Option<Card>,
    pile: Vec<Card>,
    opponent_known: CardSet,
    opponent_cards: u32,
    stock_size: u32,
    turn: u32,
    knock_limit: u8,
    taken_from_pile: Option<Card>,
    scores: [u32; 2],
    rules: Arc<Rules>,
    events: Vec<Event>,
}

impl OwnedView {
    /// Copies `view`.
    #[must_use]
    pub fn of(view: &PlayerView<'_>, rules: &Arc<Rules>) -> OwnedView {
        OwnedView {
            seat: view.seat,
            dealer: view.dealer,
            phase: view.phase,
            hand: view.hand,
            upcard: view.upcard,
            pile: view.pile.to_vec(),
            opponent_known: view.opponent_known,
            opponent_cards: view.opponent_cards,
            stock_size: view.stock_size,
            turn: view.turn,
            knock_limit: view.knock_limit,
            taken_from_pile: view.taken_from_pile,
            scores: view.scores,
            rules: Arc::clone(rules),
            events: view.events.to_vec(),
        }
    }

    /// The view again, borrowing from this copy.
    #[must_use]
    pub fn view(&self) -> PlayerView<'_> {
        PlayerView {
            seat: self.seat,
            dealer: self.dealer,
            phase: self.phase,
            hand: self.hand,
            upcard: self.upcard,
            pile: &self.pile,
            opponent_known: self.opponent_known,
            opponent_cards: self.opponent_cards,
            stock_size: self.stock_size,
            turn: self.turn,
            knock_limit: self.knock_limit,
            taken_from_pile: self.taken_from_pile,
            scores: self.scores,
            rules: &self.rules,
            events: &self.events,
        }
    }
}

/// The slices one observation is encoded into.
pub struct Encoded<'a> {
    /// `PLANES * 52` 0/1 cells, plane-major.
    pub cards: &'a mut [u8],
    /// 52 card ids of the pile, bottom first, then -1.
    pub pile: &'a mut [i8],
    /// `SCALARS` numbers.
    pub scalars: &'a mut [i32],
    /// `ACTIONS` legal-action flags.
    pub mask: &'a mut [bool],
}

/// Writes `view` into `out` (every cell is written).
pub fn encode(view: &PlayerView<'_>, out: Encoded<'_>) {
    out.cards.fill(0);
    let mut plane = |p: usize, cards: CardSet| {
        for card in cards {
            out.cards[p * 52 + usize::from(card.index())] = 1;
        }
    };
    plane(0, view.hand);
    plane(1, view.opponent_known);
    plane(2, view.pile.iter().copied().collect());
    plane(3, view.pile_top().map_or(CardSet::EMPTY, Card::mask));
    plane(4, view.taken_from_pile.map_or(CardSet::EMPTY, Card::mask));
    plane(5, view.upcard.map_or(CardSet::EMPTY, Card::mask));
    out.pile.fill(-1);
    for (slot, card) in out.pile.iter_mut().zip(view.pile) {
        *slot = card.index() as i8;
    }
    let numbers = [
        i32::from(phase_id(view.phase)),
        view.stock_size as i32,
        view.pile.len() as i32,
        view.scores[0] as i32,
        view.scores[1] as i32,
        view.turn as i32,
        i32::from(view.knock_limit),
        i32::from(view.dealer == view.seat),
        view.opponent_cards as i32,
        view.seat.index() as i32,
    ];
    out.scalars.copy_from_slice(&numbers);
    actions::write_mask(view, out.mask);
}

fn card_names(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

fn event_dict<'py>(py: Python<'py>, event: &Event) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (kind, seat, card) = ginlab::protocol::event_fields(event);
    d.set_item("event", kind)?;
    d.set_item("seat", seat.index())?;
    d.set_item("card", card.map(|c| c.to_string()))?;
    Ok(d)
}

/// What one player may know at one moment: the engine's `PlayerView`,
/// copied. `to_dict()` gives it as plain Python values, `arrays()` as
/// fixed-size numpy arrays; `legal_actions` and `mask` list the action ids
/// this player may answer (empty when it is not its decision).
#[pyclass(module = "ginlab", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct Observation {
    pub(crate) inner: OwnedView,
}

#[pymethods]
impl Observation {
    /// This player's seat (0 or 1).
    #[getter]
    fn seat(&self) -> usize {
        self.inner.seat.index()
    }

    /// The phase name: upcard, draw, last_chance, end_turn or over (over
    /// also when this player is only watching).
    #[getter]
    fn phase(&self) -> &'static str {
        PHASES[usize::from(phase_id(self.inner.phase))]
    }

    /// This player's cards, as card names.
    #[getter]
    fn hand(&self) -> Vec<String> {
        card_names(self.inner.hand)
    }

    /// The legal action ids, increasing.
    #[getter]
    fn legal_actions(&self) -> Vec<u16> {
        actions::legal_ids(&self.inner.view())
    }

    /// The legal actions as a boolean mask of length 109.
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; ACTIONS];
        actions::write_mask(&self.inner.view(), &mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// The observation as a dict of plain values (card names as strings).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let v = &self.inner;
        let d = PyDict::new(py);
        d.set_item("seat", v.seat.index())?;
        d.set_item("dealer", v.dealer.index())?;
        d.set_item("phase", self.phase())?;
        d.set_item("hand", card_names(v.hand))?;
        d.set_item("upcard", v.upcard.map(|c| c.to_string()))?;
        d.set_item("pile", card_names(v.pile.iter().copied()))?;
        d.set_item("opponent_known", card_names(v.opponent_known))?;
        d.set_item("opponent_cards", v.opponent_cards)?;
        d.set_item("stock_size", v.stock_size)?;
        d.set_item("turn", v.turn)?;
        d.set_item("knock_limit", v.knock_limit)?;
        d.set_item("taken_from_pile", v.taken_from_pile.map(|c| c.to_string()))?;
        d.set_item("scores", v.scores.to_vec())?;
        let events = PyList::empty(py);
        for event in &v.events {
            events.append(event_dict(py, event)?)?;
        }
        d.set_item("events", events)?;
        d.set_item("legal_actions", self.legal_actions())?;
        Ok(d)
    }

    /// The observation as fixed-size numpy arrays: `cards` (6, 52) uint8
    /// planes (own hand, opponent known, pile, pile top, taken from pile,
    /// upcard), `pile` (52,) int8 card ids bottom first padded with -1,
    /// `scalars` (10,) int32 (phase id, stock size, pile size, own score,
    /// opponent score, turn, knock limit, dealing, opponent's card count,
    /// seat), `mask` (109,) bool.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut cards = vec![0u8; PLANES * 52];
        let mut pile = vec![0i8; 52];
        let mut scalars = vec![0i32; SCALARS];
        let mut mask = vec![false; ACTIONS];
        encode(
            &self.inner.view(),
            Encoded {
                cards: &mut cards,
                pile: &mut pile,
                scalars: &mut scalars,
                mask: &mut mask,
            },
        );
        let d = PyDict::new(py);
        d.set_item(
            "cards",
            PyArray1::from_vec(py, cards).reshape([PLANES, 52])?,
        )?;
        d.set_item("pile", PyArray1::from_vec(py, pile))?;
        d.set_item("scalars", PyArray1::from_vec(py, scalars))?;
        d.set_item("mask", PyArray1::from_vec(py, mask))?;
        Ok(d)
    }

    /// The view as the text `ginlab play` shows before a decision (the
    /// table line, the hand arranged, the legal answers, the question),
    /// calling the other player `opponent`.
    #[pyo3(signature = (opponent = "the opponent"))]
    fn render(&self, opponent: &str) -> String {
        let view = self.inner.view();
        let mut text = ginlab::render::table(&view, opponent);
        let question = ginlab::render::question(&view);
        if !question.is_empty() {
            text.push_str(&question);
            text.push('\n');
        }
        text
    }

    fn __repr__(&self) -> String {
        let v = &self.inner;
        format!(
            "Observation(seat={}, phase={}, hand={}, pile_top={}, stock={})",
            v.seat.index(),
            self.phase(),
            v.hand,
            v.pile.last().map_or("-".into(), |c| c.to_string()),
            v.stock_size
        )
    }
}
