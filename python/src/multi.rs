//! `ginlab.MultiGame`: a three-player or partnership game stepped one
//! decision at a time. The library's own game loop
//! ([`play_three`], [`play_partnership`]) runs in a worker thread with a
//! channel player at every seat: a player's decision is sent to the caller
//! and waits for its answer, so the rules, deals and scoring are the
//! library's, not a copy.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use ginlab::engine::{
    Action, DrawSource, Event, HandOutcome, PlayerView, Strategy, TableHand, TurnEnd,
    play_partnership, play_three, round_score, team_of,
};
use ginlab::rules::Rules;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::actions;
use crate::game::shared_rules;
use crate::obs::{Observation, OwnedView};

/// What the worker tells the caller.
enum Msg {
    /// `player` decides in `view`.
    Decide(usize),
    /// Hand points won (+) and lost (-) by player, from a hand or a round.
    Points(Vec<i64>),
    /// The game is over: its score sheet, or why it stopped.
    Over(Result<Sheet, String>),
}

/// A finished game's score sheet, by side: player (three) or team
/// (partnership).
struct Sheet {
    /// The side that reached the target.
    winner: usize,
    /// Final scores: three players with the game and box bonuses; team
    /// scores for partnerships (RULES.md gives them no bonuses).
    final_scores: Vec<u32>,
    /// Three players: hand points and hands won by player (the bonuses'
    /// inputs); None for partnerships.
    hand_tallies: Option<(Vec<u32>, Vec<u32>)>,
    /// Hands dealt (three) or rounds played (partnership).
    hands: u32,
}

impl Sheet {
    /// What side `side` gets at the end of the game, as two-player games
    /// give the final margin: each loser pays the winner the difference of
    /// their final scores, so the winner gets the sum.
    fn game_reward(&self, side: usize) -> i64 {
        let lead = |loser: usize| {
            i64::from(self.final_scores[self.winner]) - i64::from(self.final_scores[loser])
        };
        if side == self.winner {
            (0..self.final_scores.len()).map(lead).sum()
        } else {
            -lead(side)
        }
    }
}

/// The latest view of each player (shared with the worker).
type Views = Arc<Mutex<Vec<Option<OwnedView>>>>;

/// A seat whose decisions are answered by the caller.
struct Channel {
    player: usize,
    rules: Arc<Rules>,
    views: Views,
    to_caller: Sender<Msg>,
    answers: Receiver<Action>,
    closed: bool,
}

impl Channel {
    fn keep(&self, view: &PlayerView<'_>) {
        let mut views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        views[self.player] = Some(OwnedView::of(view, &self.rules));
    }

    /// Asks the caller; a closed caller gets a legal stand-in and forfeits.
    fn ask(&mut self, view: &PlayerView<'_>) -> Action {
        self.keep(view);
        if !self.closed
            && self.to_caller.send(Msg::Decide(self.player)).is_ok()
            && let Ok(action) = self.answers.recv()
        {
            return action;
        }
        self.closed = true;
        let id = actions::legal_ids(view)[0];
        actions::decode(i64::from(id)).expect("a legal id decodes")
    }
}

impl Strategy for Channel {
    fn name(&self) -> &str {
        "python"
    }
    fn start_hand(&mut self, view: &PlayerView<'_>) {
        self.keep(view);
    }
    fn observe(&mut self, view: &PlayerView<'_>, _event: &Event) {
        self.keep(view);
    }
    fn observes(&self) -> bool {
        true
    }
    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        matches!(self.ask(view), Action::TakeUpcard(true))
    }
    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        match self.ask(view) {
            Action::Draw(source) => source,
            _ => DrawSource::Stock,
        }
    }
    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        match self.ask(view) {
            Action::EndTurn(end) => end,
            _ => unreachable!("the caller's answer was checked against the view"),
        }
    }
    fn end_hand(&mut self, view: &PlayerView<'_>, _outcome: &HandOutcome) {
        self.keep(view);
    }
    fn forfeit(&mut self) -> Option<String> {
        self.closed.then(|| "the game was closed".to_owned())
    }
    fn can_forfeit(&self) -> bool {
        true
    }
}

/// The points each player gains from one two-player hand.
fn hand_points(hand: &TableHand, players: usize) -> Vec<i64> {
    let mut points = vec![0; players];
    if let Some((winner, p)) = hand.winner {
        let loser = if hand.players[0] == winner {
            hand.players[1]
        } else {
            hand.players[0]
        };
        points[winner] += i64::from(p);
        points[loser] -= i64::from(p);
    }
    points
}

/// A three-player or partnership game of Gin Rummy stepped one decision at
/// a time, every seat answered by the caller.
///
/// `MultiGame(format="three", rules="standard", seed=0)`: `format` is
/// `"three"` (three players, the dealer sits out) or `"partnership"` (four
/// players, teams 0+2 and 1+3), as `ginlab run` plays them. `step(action)`
/// returns the points each player won (+) or lost (-) in hands (three) or
/// rounds (partnership, the team's score to both partners) that ended, and
/// whether the game is over.
#[pyclass(module = "ginlab")]
pub struct MultiGame {
    players: usize,
    views: Views,
    answers: Vec<Sender<Action>>,
    /// In a mutex only because Python objects must be `Sync`.
    from_worker: Mutex<Receiver<Msg>>,
    to_act: Option<usize>,
    sheet: Option<Sheet>,
    worker: Option<JoinHandle<()>>,
}

impl MultiGame {
    fn check_player(&self, player: usize) -> PyResult<()> {
        if player >= self.players {
            return Err(PyValueError::new_err(format!(
                "player {player}: give 0..{}",
                self.players
            )));
        }
        Ok(())
    }

    /// Reads the worker's messages until a decision or the end.
    fn advance(&mut self) -> PyResult<(Vec<i64>, bool)> {
        let mut points = vec![0; self.players];
        let from_worker = self.from_worker.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match from_worker.recv() {
                Ok(Msg::Decide(player)) => {
                    drop(from_worker);
                    self.to_act = Some(player);
                    return Ok((points, false));
                }
                Ok(Msg::Points(p)) => points.iter_mut().zip(p).for_each(|(a, b)| *a += b),
                Ok(Msg::Over(Ok(sheet))) => {
                    drop(from_worker);
                    self.to_act = None;
                    self.sheet = Some(sheet);
                    return Ok((points, true));
                }
                Ok(Msg::Over(Err(e))) => return Err(PyRuntimeError::new_err(e)),
                Err(_) => return Err(PyRuntimeError::new_err("the game's worker stopped")),
            }
        }
    }
}

#[pymethods]
impl MultiGame {
    #[new]
    #[pyo3(signature = (format = "three", rules = "standard", seed = 0))]
    fn new(format: &str, rules: &str, seed: u64) -> PyResult<MultiGame> {
        let players = match format {
            "three" => 3,
            "partnership" => 4,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "format {format:?}: give \"three\" or \"partnership\""
                )));
            }
        };
        let rules = shared_rules(rules)?;
        rules
            .validate()
            .map_err(|e| PyValueError::new_err(format!("rules: {e}")))?;
        let views: Views = Arc::new(Mutex::new(vec![None; players]));
        let (to_caller, from_worker) = channel();
        let mut answers = Vec::new();
        let mut seats = Vec::new();
        for player in 0..players {
            let (tx, rx) = channel();
            answers.push(tx);
            seats.push(Channel {
                player,
                rules: Arc::clone(&rules),
                views: Arc::clone(&views),
                to_caller: to_caller.clone(),
                answers: rx,
                closed: false,
            });
        }
        let worker = std::thread::spawn(move || {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let refs: Vec<&mut dyn Strategy> =
                seats.iter_mut().map(|s| s as &mut dyn Strategy).collect();
            let tell = to_caller.clone();
            let result = if players == 3 {
                let Ok(mut three) = <[&mut dyn Strategy; 3]>::try_from(refs) else {
                    unreachable!("three seats were made")
                };
                play_three(&rules, &mut three, &mut rng, |hand| {
                    let _ = tell.send(Msg::Points(hand_points(hand, 3)));
                })
                .map(|r| Sheet {
                    winner: r.winner,
                    final_scores: r.final_scores.to_vec(),
                    hand_tallies: Some((r.points.to_vec(), r.hands_won.to_vec())),
                    hands: r.hands,
                })
            } else {
                let Ok(mut four) = <[&mut dyn Strategy; 4]>::try_from(refs) else {
                    unreachable!("four seats were made")
                };
                play_partnership(&rules, &mut four, &mut rng, |_, tables| {
                    let mut points = vec![0; 4];
                    if let Some((team, p)) = round_score([tables[0].winner, tables[1].winner]) {
                        for (player, slot) in points.iter_mut().enumerate() {
                            let sign = if team_of(player) == team { 1 } else { -1 };
                            *slot = sign * i64::from(p);
                        }
                    }
                    let _ = tell.send(Msg::Points(points));
                })
                .map(|r| Sheet {
                    winner: r.winner,
                    final_scores: r.team_points.to_vec(),
                    hand_tallies: None,
                    hands: r.rounds,
                })
            };
            let _ = to_caller.send(Msg::Over(result.map_err(|e| e.to_string())));
        });
        let mut game = MultiGame {
            players,
            views,
            answers,
            from_worker: Mutex::new(from_worker),
            to_act: None,
            sheet: None,
            worker: Some(worker),
        };
        game.advance()?;
        Ok(game)
    }

    /// How many players (3 or 4).
    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    /// The player to act, or None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.to_act
    }

    /// Whether the game is over.
    #[getter]
    fn done(&self) -> bool {
        self.to_act.is_none()
    }

    /// The winner once over: a player (three) or a team (partnership).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.sheet.as_ref().map(|s| s.winner)
    }

    /// The score sheet once over, None before: a dict of `winner`,
    /// `final_scores` (three: with the game and box bonuses; partnership:
    /// the team scores) and `hands` (three) or `rounds` (partnership);
    /// three players also `points` (hand points) and `hands_won`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(sheet) = &self.sheet else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("winner", sheet.winner)?;
        d.set_item("final_scores", sheet.final_scores.clone())?;
        if let Some((points, hands_won)) = &sheet.hand_tallies {
            d.set_item("points", points.clone())?;
            d.set_item("hands_won", hands_won.clone())?;
            d.set_item("hands", sheet.hands)?;
        } else {
            d.set_item("rounds", sheet.hands)?;
        }
        Ok(Some(d))
    }

    /// The game reward of `player` once over, else 0: as the two-player
    /// final margin, each losing side pays the winning side the difference
    /// of their final scores (three players: the winner gets the sum; a
    /// partnership's margin goes to both partners).
    fn game_reward(&self, player: usize) -> PyResult<i64> {
        self.check_player(player)?;
        let side = if self.players == 4 {
            team_of(player)
        } else {
            player
        };
        Ok(self.sheet.as_ref().map_or(0, |s| s.game_reward(side)))
    }

    /// The latest view of `player`: its hand in play, or the last hand it
    /// played (phase over) while it sits out; None before its first deal.
    fn observation(&self, player: usize) -> PyResult<Option<Observation>> {
        self.check_player(player)?;
        let views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        Ok(views[player].clone().map(|inner| Observation { inner }))
    }

    /// The legal action ids of the player to act.
    #[getter]
    fn legal_actions(&self) -> PyResult<Vec<u16>> {
        let Some(player) = self.to_act else {
            return Ok(Vec::new());
        };
        let views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        Ok(views[player]
            .as_ref()
            .map(|v| actions::legal_ids(&v.view()))
            .unwrap_or_default())
    }

    /// Plays `action` for the player to act; returns (points by player,
    /// done). Raises ValueError for an illegal action (nothing changes).
    fn step(&mut self, py: Python<'_>, action: i64) -> PyResult<(Vec<i64>, bool)> {
        let player = self
            .to_act
            .ok_or_else(|| PyRuntimeError::new_err("the game is over"))?;
        if !self
            .legal_actions()?
            .contains(&u16::try_from(action).unwrap_or(u16::MAX))
        {
            return Err(PyValueError::new_err(format!(
                "action {action} ({}) is not legal now for player {player}",
                actions::describe(action)
            )));
        }
        let decoded = actions::decode(action).expect("a legal id decodes");
        self.answers[player]
            .send(decoded)
            .map_err(|_| PyRuntimeError::new_err("the game's worker stopped"))?;
        py.detach(|| self.advance())
    }
}

impl Drop for MultiGame {
    /// Closing the channels makes every seat forfeit, so the worker ends.
    fn drop(&mut self) {
        self.answers.clear();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}
