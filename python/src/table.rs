//! [`Table`]: one game stepped a decision at a time, with built-in
//! strategies optionally sitting at some seats. The per-step `Game` and
//! every game of the vectorised env are tables.
//!
//! A table plays an *episode*: one hand, or a game to the target. Hands are
//! dealt from the table's own random generator (seeded), the dealer
//! alternating between hand episodes and following the rules within a
//! game. Built-in players are told of deals, events and ends exactly as
//! [`ginlab::engine::play_hand`] tells them.

use ginlab::engine::{
    Action, Deck, GameResult, Hand, HandOutcome, MAX_HANDS, Seat, Strategy, Tally, next_dealer,
};
use ginlab::rules::Rules;
use rand::{Rng as _, SeedableRng};
use rand_pcg::Pcg64Mcg;
use self_cell::self_cell;
use std::sync::{Arc, Mutex};

self_cell!(
    /// The rules a table plays under and its hand in play, which borrows
    /// them. Python objects cannot carry a lifetime; this keeps the rules
    /// alive exactly as long as the table (shared with its observations
    /// through the `Arc`) instead of leaking a copy per distinct rule set.
    struct RulesHand {
        owner: Arc<Rules>,
        #[covariant]
        dependent: Hand,
    }
);

/// What one episode is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Episode {
    /// One hand.
    Hand,
    /// A game to the target.
    Game,
}

/// What a step (with the built-in players' moves after it) did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Hand points won (positive) or lost (negative) by each seat in hands
    /// that ended.
    pub rewards: [i64; 2],
    /// A hand ended.
    pub hand_over: bool,
    /// The episode ended.
    pub done: bool,
}

impl Step {
    fn add(&mut self, other: Step) {
        self.rewards[0] += other.rewards[0];
        self.rewards[1] += other.rewards[1];
        self.hand_over |= other.hand_over;
        self.done |= other.done;
    }
}

/// A game at a table.
pub struct Table {
    episode: Episode,
    rng: Pcg64Mcg,
    hand: RulesHand,
    dealer: Seat,
    tally: Tally,
    hands: u32,
    first_dealer: Seat,
    last_outcome: Option<HandOutcome>,
    result: Option<GameResult>,
    done: bool,
    players: [Option<Seated>; 2],
    delivered: usize,
}

/// A built-in player at a table. The mutex is never contended (a table is
/// stepped through `&mut`, and [`Mutex::get_mut`] does not lock); it makes
/// the table `Sync`, which Python objects must be, for strategies that are
/// only `Send`.
struct Seated(Mutex<Box<dyn Strategy>>);

impl Seated {
    fn get(&mut self) -> &mut dyn Strategy {
        self.0.get_mut().unwrap_or_else(|e| e.into_inner()).as_mut()
    }
}

fn seated(players: [Option<Box<dyn Strategy>>; 2]) -> [Option<Seated>; 2] {
    players.map(|p| p.map(|p| Seated(Mutex::new(p))))
}

impl Clone for Table {
    /// A copy without the built-in players (see [`Table::seat_players`]).
    fn clone(&self) -> Table {
        let rules = Arc::clone(self.hand.borrow_owner());
        Table {
            rng: self.rng.clone(),
            hand: RulesHand::new(rules, |rules| {
                self.hand.borrow_dependent().clone_under(rules)
            }),
            players: [None, None],
            ..*self
        }
    }
}

impl Table {
    /// A table dealt its first hand: from `deck` if given, else shuffled
    /// with the generator seeded by `seed`; dealt by `dealer` if given, else
    /// the generator chooses.
    ///
    /// # Errors
    /// The rules fail validation.
    pub fn new(
        rules: Arc<Rules>,
        episode: Episode,
        seed: u64,
        deck: Option<Deck>,
        dealer: Option<Seat>,
    ) -> Result<Table, ginlab::rules::RulesError> {
        rules.validate()?;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let dealer = dealer.unwrap_or_else(|| Seat::ALL[(rng.next_u64() >> 63) as usize]);
        let deck = deck.unwrap_or_else(|| Deck::shuffled(&mut rng));
        let hand = RulesHand::try_new(rules, |rules| Hand::new(rules, &deck, dealer, [0, 0]))?;
        Ok(Table {
            episode,
            rng,
            hand,
            dealer,
            tally: Tally::default(),
            hands: 0,
            first_dealer: dealer,
            last_outcome: None,
            result: None,
            done: false,
            players: [None, None],
            delivered: 0,
        })
    }

    /// Seats built-in `players` (by seat; `None` leaves the seat to the
    /// caller) and lets them play until the caller's decision.
    pub fn seat_players(&mut self, players: [Option<Box<dyn Strategy>>; 2]) -> Step {
        self.players = seated(players);
        self.start_hand();
        self.advance()
    }

    /// Seats built-in `players` in the hand in play (a copy made by
    /// [`Clone`] gets its players back this way); they start from the
    /// current view, as a strategy that reads the hand's events can.
    pub fn reseat_players(&mut self, players: [Option<Box<dyn Strategy>>; 2]) {
        self.players = seated(players);
        for (i, player) in self.players.iter_mut().enumerate() {
            if let Some(player) = player.as_mut().map(Seated::get) {
                player.start_hand(&self.hand.borrow_dependent().view(Seat::ALL[i]));
            }
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        self.hand.borrow_owner()
    }

    /// The hand in play (or just over).
    pub fn hand(&self) -> &Hand<'_> {
        self.hand.borrow_dependent()
    }

    /// The seat to act, if any.
    pub fn to_act(&self) -> Option<Seat> {
        if self.done {
            None
        } else {
            self.hand().phase().seat()
        }
    }

    /// Whether the episode is over.
    pub fn done(&self) -> bool {
        self.done
    }

    /// The score sheet of the game.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The last hand's outcome.
    pub fn last_outcome(&self) -> Option<&HandOutcome> {
        self.last_outcome.as_ref()
    }

    /// The game's result, once a game episode is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Hands dealt in this episode.
    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// Whether a built-in player sits at `seat`.
    pub fn is_builtin(&self, seat: Seat) -> bool {
        self.players[seat.index()].is_some()
    }

    /// Starts a new episode, then lets the built-in players move.
    pub fn reset(&mut self) -> Step {
        self.tally = Tally::default();
        self.hands = 0;
        self.result = None;
        self.last_outcome = None;
        self.done = false;
        self.dealer = match self.episode {
            Episode::Hand => self.first_dealer.other(),
            Episode::Game => Seat::ALL[(self.rng.next_u64() >> 63) as usize],
        };
        self.first_dealer = self.dealer;
        self.deal();
        self.advance()
    }

    /// Applies the caller's `action` for the seat to act, then lets the
    /// built-in players move until the caller's next decision.
    ///
    /// # Errors
    /// The episode is over, the seat to act is a built-in player's, or the
    /// action is illegal (the table is then unchanged).
    pub fn step(&mut self, action: Action) -> Result<Step, String> {
        let seat = self
            .to_act()
            .ok_or_else(|| "the episode is over: call reset()".to_owned())?;
        if self.is_builtin(seat) {
            return Err(format!(
                "seat {} is played by a built-in strategy",
                seat.index()
            ));
        }
        self.hand
            .with_dependent_mut(|_, hand| hand.apply(seat, action))
            .map_err(|e| format!("illegal action for seat {}: {e}", seat.index()))?;
        let mut step = self.after_action();
        step.add(self.advance());
        Ok(step)
    }

    /// The built-in players move while it is their decision.
    fn advance(&mut self) -> Step {
        let mut step = Step::default();
        while let Some(seat) = self.to_act() {
            let Some(player) = self.players[seat.index()].as_mut().map(Seated::get) else {
                break;
            };
            let action = ginlab::engine::ask(player, &self.hand.borrow_dependent().view(seat));
            // A built-in strategy answers legally (the engine's tests hold
            // every built-in to that); a failure here is a bug in ginlab.
            self.hand
                .with_dependent_mut(|_, hand| hand.apply(seat, action))
                .unwrap_or_else(|e| panic!("built-in strategy {}: {e}", player.name()));
            step.add(self.after_action());
        }
        step
    }

    /// Tells the built-in players of new events; ends the hand if it is over.
    fn after_action(&mut self) -> Step {
        let events = self.hand.borrow_dependent().events();
        for (i, player) in self.players.iter_mut().enumerate() {
            if let Some(player) = player.as_mut().map(Seated::get).filter(|p| p.observes()) {
                let view = self.hand.borrow_dependent().view(Seat::ALL[i]);
                for event in &events[self.delivered..] {
                    player.observe(&view, event);
                }
            }
        }
        self.delivered = events.len();
        match self.hand.borrow_dependent().outcome() {
            Some(&outcome) => self.end_hand(outcome),
            None => Step::default(),
        }
    }

    fn end_hand(&mut self, outcome: HandOutcome) -> Step {
        let mut step = Step {
            hand_over: true,
            ..Step::default()
        };
        if let Some((seat, points)) = outcome.winner() {
            step.rewards[seat.index()] += i64::from(points);
            step.rewards[seat.other().index()] -= i64::from(points);
        }
        for (i, player) in self.players.iter_mut().enumerate() {
            if let Some(player) = player.as_mut().map(Seated::get) {
                player.end_hand(&self.hand.borrow_dependent().view(Seat::ALL[i]), &outcome);
            }
        }
        self.last_outcome = Some(outcome);
        self.tally.record(
            self.hand.borrow_owner(),
            &outcome,
            self.hand.borrow_dependent().upcard(),
        );
        match self.episode {
            Episode::Hand => self.done = true,
            Episode::Game => {
                if let Some(winner) = self.tally.leader(self.hand.borrow_owner()) {
                    let result = self.tally.result(
                        self.hand.borrow_owner(),
                        winner,
                        self.hands,
                        self.first_dealer,
                    );
                    for (i, player) in self.players.iter_mut().enumerate() {
                        if let Some(player) = player.as_mut().map(Seated::get) {
                            player.end_game(Seat::ALL[i], &result);
                        }
                    }
                    self.result = Some(result);
                    self.done = true;
                } else if self.hands >= MAX_HANDS {
                    self.done = true;
                } else {
                    self.dealer = next_dealer(self.hand.borrow_owner(), self.dealer, &outcome);
                    self.deal();
                }
            }
        }
        step.done = self.done;
        step
    }

    fn deal(&mut self) {
        let deck = Deck::shuffled(&mut self.rng);
        let (dealer, points) = (self.dealer, self.tally.points);
        self.hand.with_dependent_mut(|rules, hand| {
            *hand = Hand::new(rules, &deck, dealer, points)
                .expect("the rules were validated when the table was made");
        });
        self.start_hand();
    }

    fn start_hand(&mut self) {
        self.hands += 1;
        self.delivered = self.hand.borrow_dependent().events().len();
        for (i, player) in self.players.iter_mut().enumerate() {
            if let Some(player) = player.as_mut().map(Seated::get) {
                player.start_hand(&self.hand.borrow_dependent().view(Seat::ALL[i]));
            }
        }
    }
}
