//! One hand as a state machine: [`Hand::new`] deals, [`Hand::phase`] says
//! whose decision is next, [`Hand::apply`] checks and applies it.
//!
//! The flow (RULES.md "One hand"): the upcard is offered to the non-dealer,
//! then the dealer; if both pass, the non-dealer draws from the stock. Then
//! turns alternate: draw (stock or pile top), then discard (not the card just
//! taken from the pile), knock, or big gin. When a discard leaves 2 cards in
//! the stock the hand is void, unless `last_discard_action` lets the other
//! player take that discard to knock. After `max_turns` turns the hand is
//! void. A knock is resolved by [`meld::showdown`] and priced by
//! [`score_showdown`].
//!
//! Nothing here allocates per turn: the pile and the event log are vectors
//! with their full capacity reserved when the hand is dealt, and
//! [`Hand::deal_in`] deals the next hand into the same vectors.

use crate::cards::{Card, CardSet};
use crate::meld::{self, Showdown};
use crate::rules::{Deal, Rules};

use super::deck::Deck;
use super::log::Log;
use super::score::{HandScore, Side, score_showdown};
use super::view::{DrawSource, Event, Phase, PlayerView, Seat, TurnEnd};

/// Why a hand was void.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoidReason {
    /// The stock came down to 2 cards.
    StockEnd,
    /// `max_turns` turns were played.
    TurnCap,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandOutcome {
    /// No score; the same dealer deals again.
    Void(VoidReason),
    /// A knock, gin or big gin and its showdown.
    Showdown {
        /// Who knocked.
        knocker: Seat,
        /// Both spreads and the lay-offs.
        showdown: Showdown,
        /// The priced result.
        score: HandScore,
    },
}

impl HandOutcome {
    /// The seat that scored and its points; `None` for a void hand or a
    /// scoreless tie.
    #[must_use]
    pub fn winner(&self) -> Option<(Seat, u32)> {
        match *self {
            HandOutcome::Void(_) => None,
            HandOutcome::Showdown { knocker, score, .. } => score.winner.map(|side| {
                let seat = match side {
                    Side::Knocker => knocker,
                    Side::Defender => knocker.other(),
                };
                (seat, score.points)
            }),
        }
    }
}

/// An illegal action, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// It is not this seat's turn, or not this kind of decision.
    #[error("not this decision now (the hand waits for {0:?})")]
    WrongPhase(Phase),
    /// Drawing from an empty pile, or from the pile when only the stock is allowed.
    #[error("cannot draw from the pile: {0}")]
    Pile(&'static str),
    /// The card is not in the hand.
    #[error("{0} is not in the hand")]
    NotHeld(Card),
    /// Discarding the card just taken from the pile.
    #[error("{0} was just taken from the pile and cannot be discarded this turn")]
    JustTaken(Card),
    /// Knocking with too much deadwood.
    #[error("cannot knock: deadwood {deadwood} is over the knock limit {limit}")]
    OverLimit {
        /// The deadwood after the discard.
        deadwood: u8,
        /// The knock limit.
        limit: u8,
    },
    /// Declaring big gin where it is not allowed or the 11 cards do not all meld.
    #[error("big gin is {0}")]
    BigGin(&'static str),
    /// A plain discard after taking the last discard, which is only for knocking.
    #[error("the last discard may only be taken to knock or go gin")]
    MustKnock,
}

/// The decision a seat returns, as applied to a [`Hand`]. Aligned so that
/// a logged `(Seat, Action)` is four bytes, written in one store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(2))]
pub enum Action {
    /// Answer to the upcard offer.
    TakeUpcard(bool),
    /// Draw (or, in [`Phase::LastChance`], take the last discard / pass).
    Draw(DrawSource),
    /// End the turn.
    EndTurn(TurnEnd),
}

/// A hand in play. Cloning it copies three short vectors;
/// [`Clone::clone_from`] reuses the target's buffers, so a simulation that
/// restarts from one state many times does not allocate.
#[derive(Debug)]
pub struct Hand<'r> {
    rules: &'r Rules,
    knock_limit: u8,
    dealer: Seat,
    scores: [u32; 2],
    hands: [CardSet; 2],
    /// `hands[i].len()`, kept as the hand changes so that a view does not
    /// count bits (a population count is a dozen instructions on baseline
    /// x86-64, which has no `popcnt`).
    held: [u32; 2],
    known: [CardSet; 2],
    stock: [Card; 52],
    stock_next: usize,
    pile: Log<Card>,
    upcard: Option<Card>,
    phase: Phase,
    taken: Option<Card>,
    face_down: Option<Card>,
    turns: u32,
    events: Log<Event>,
    actions: Log<(Seat, Action)>,
    outcome: Option<HandOutcome>,
}

/// Cards dealt before the stock: 10 + 10 and the upcard, or 11 + 10.
const DEALT: usize = 21;

/// Why [`Hand::from_world`] refused a world.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// The view is not at one of its own decisions.
    #[error("the view is not at a decision of its seat")]
    NotDeciding,
    /// The opponent's cards do not fit the view.
    #[error(
        "the opponent's cards {0} do not fit the view (count, known cards, or cards seen elsewhere)"
    )]
    Opponent(CardSet),
    /// The stock does not fit the view.
    #[error(
        "the stock does not fit the view: it must hold the {0} cards nobody holds or has seen, once each"
    )]
    Stock(u32),
}

impl Clone for Hand<'_> {
    fn clone(&self) -> Self {
        Hand {
            pile: self.pile.clone(),
            events: self.events.clone(),
            actions: self.actions.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let (mut pile, mut events, mut actions) = (
            std::mem::take(&mut self.pile),
            std::mem::take(&mut self.events),
            std::mem::take(&mut self.actions),
        );
        pile.clone_from(&source.pile);
        events.clone_from(&source.events);
        actions.clone_from(&source.actions);
        *self = Hand {
            pile,
            events,
            actions,
            ..*source
        };
    }
}

impl<'r> Hand<'r> {
    /// A copy of this hand under `rules`, which must equal the rules it is
    /// played under: a holder that keeps its rules beside the hand (the
    /// Python bindings' tables) points each copy at its own.
    ///
    /// # Panics
    /// If `rules` differ from the hand's rules.
    #[must_use]
    pub fn clone_under<'s>(&self, rules: &'s Rules) -> Hand<'s> {
        assert_eq!(*self.rules, *rules, "a hand is copied under its own rules");
        Hand {
            rules,
            knock_limit: self.knock_limit,
            dealer: self.dealer,
            scores: self.scores,
            hands: self.hands,
            held: self.held,
            known: self.known,
            stock: self.stock,
            stock_next: self.stock_next,
            pile: self.pile.clone(),
            upcard: self.upcard,
            phase: self.phase,
            taken: self.taken,
            face_down: self.face_down,
            turns: self.turns,
            events: self.events.clone(),
            actions: self.actions.clone(),
            outcome: self.outcome,
        }
    }

    /// Deals `deck` (top first): one card at a time, non-dealer first; then
    /// the upcard (or, for the eleven-card deal, an 11th card to the
    /// non-dealer); the rest is the stock. `scores` are the game scores (seat
    /// order), shown to the strategies.
    ///
    /// # Errors
    /// [`crate::rules::RulesError`] if the rules fail validation.
    pub fn new(
        rules: &'r Rules,
        deck: &Deck,
        dealer: Seat,
        scores: [u32; 2],
    ) -> Result<Hand<'r>, crate::rules::RulesError> {
        let knock_limit = dealable(rules, deck)?;
        let log = 2 * rules.max_turns as usize + 8;
        let mut hand = Hand {
            rules,
            knock_limit,
            dealer,
            scores,
            hands: [CardSet::EMPTY; 2],
            held: [0; 2],
            known: [CardSet::EMPTY; 2],
            stock: *deck.cards(),
            stock_next: DEALT,
            pile: Log::with_capacity(52),
            upcard: None,
            phase: Phase::Over,
            taken: None,
            face_down: None,
            turns: 0,
            events: Log::with_capacity(log),
            actions: Log::with_capacity(log),
            outcome: None,
        };
        hand.deal(rules, deck, dealer, scores, knock_limit);
        Ok(hand)
    }

    /// [`Hand::new`] into `slot`: the hand already there (if any) is dealt
    /// again in place, keeping its vectors, so a runner that keeps one slot
    /// per worker deals every hand without allocating or moving a hand.
    /// Returns the new hand.
    ///
    /// # Errors
    /// As [`Hand::new`]; the slot is then empty.
    pub fn deal_in<'s>(
        slot: &'s mut Option<Hand<'r>>,
        rules: &'r Rules,
        deck: &Deck,
        dealer: Seat,
        scores: [u32; 2],
    ) -> Result<&'s mut Hand<'r>, crate::rules::RulesError> {
        let knock_limit = match dealable(rules, deck) {
            Ok(limit) => limit,
            Err(e) => {
                *slot = None;
                return Err(e);
            }
        };
        match slot {
            Some(hand) => {
                let log = 2 * rules.max_turns as usize + 8;
                hand.pile.reserve(52);
                hand.events.reserve(log);
                hand.actions.reserve(log);
                hand.deal(rules, deck, dealer, scores, knock_limit);
                Ok(hand)
            }
            None => Ok(slot.insert(Hand::new(rules, deck, dealer, scores)?)),
        }
    }

    /// Deals `deck` into this hand, every field set afresh and the vectors
    /// emptied (their capacity kept); `knock_limit` is [`dealable`]'s.
    fn deal(
        &mut self,
        rules: &'r Rules,
        deck: &Deck,
        dealer: Seat,
        scores: [u32; 2],
        knock_limit: u8,
    ) {
        let cards = deck.cards();
        let non_dealer = dealer.other();
        // One card at a time, non-dealer first: the non-dealer gets the
        // even positions, the dealer the odd ones.
        let (mut first, mut second) = (CardSet::EMPTY, CardSet::EMPTY);
        for pair in cards[..20].chunks_exact(2) {
            first = first.with(pair[0]);
            second = second.with(pair[1]);
        }
        let mut hands = [CardSet::EMPTY; 2];
        hands[non_dealer.index()] = first;
        hands[dealer.index()] = second;
        // A deck holds 52 distinct cards, so the counts are known.
        let mut held = [10; 2];
        self.pile.clear();
        self.events.clear();
        self.actions.clear();
        let (upcard, phase) = match rules.deal {
            Deal::UpcardOffer => {
                self.pile.push(cards[20]);
                (Some(cards[20]), Phase::UpcardOffer { seat: non_dealer })
            }
            Deal::ElevenCards => {
                hands[non_dealer.index()].insert(cards[20]);
                held[non_dealer.index()] = 11;
                let phase = Phase::EndTurn {
                    seat: non_dealer,
                    must_knock: false,
                };
                (None, phase)
            }
        };
        debug_assert_eq!(held, hands.map(CardSet::len));
        self.rules = rules;
        self.knock_limit = knock_limit;
        self.dealer = dealer;
        self.scores = scores;
        self.hands = hands;
        self.held = held;
        self.known = [CardSet::EMPTY; 2];
        self.stock = *cards;
        self.stock_next = DEALT;
        self.upcard = upcard;
        self.phase = phase;
        self.taken = None;
        self.face_down = None;
        self.turns = 0;
        self.outcome = None;
    }

    /// The hand in the state `view` shows, with the hidden cards filled in:
    /// the opponent holds `opponent` and the stock is `stock`, top first.
    /// This is determinization for Monte Carlo strategies: the result plays
    /// on from `view`'s decision exactly as a real hand in that state would.
    /// Its [`Hand::actions`] start at this point and its [`Hand::deck`] is
    /// not a real deal (the cards already out of the stock fill its top).
    ///
    /// # Errors
    /// [`WorldError`] if the view is not at its own decision, or the cards
    /// contradict it: the opponent's count, the cards it is known to hold,
    /// a card the player holds or saw in the pile, or a stock that is not
    /// exactly the remaining cards.
    pub fn from_world(
        view: &PlayerView<'r>,
        opponent: CardSet,
        stock: &[Card],
    ) -> Result<Hand<'r>, WorldError> {
        let seat = view.seat;
        if view.phase.seat() != Some(seat) {
            return Err(WorldError::NotDeciding);
        }
        let pile: CardSet = view.pile.iter().copied().collect();
        let seen = view.hand | pile;
        if opponent.len() != view.opponent_cards
            || !(view.opponent_known - opponent).is_empty()
            || !(opponent & seen).is_empty()
        {
            return Err(WorldError::Opponent(opponent));
        }
        let rest = !(seen | opponent);
        let stock_set: CardSet = stock.iter().copied().collect();
        if stock.len() != view.stock_size as usize
            || stock_set.len() as usize != stock.len()
            || stock_set != rest
        {
            return Err(WorldError::Stock(rest.len()));
        }
        let mut hands = [CardSet::EMPTY; 2];
        hands[seat.index()] = view.hand;
        hands[seat.other().index()] = opponent;
        let mut known = [CardSet::EMPTY; 2];
        known[seat.other().index()] = view.opponent_known;
        known[seat.index()] = taken_and_kept(view.events, seat);
        let mut cards = [Card::ALL[0]; 52];
        let top = 52 - stock.len();
        for (slot, card) in cards.iter_mut().zip(!rest) {
            *slot = card;
        }
        cards[top..].copy_from_slice(stock);
        let log = 2 * view.rules.max_turns as usize + 8;
        let events = Log::from_slice(view.events, log);
        let mut scores = [0; 2];
        scores[seat.index()] = view.scores[0];
        scores[seat.other().index()] = view.scores[1];
        let pile = Log::from_slice(view.pile, 52);
        Ok(Hand {
            rules: view.rules,
            knock_limit: view.knock_limit,
            dealer: view.dealer,
            scores,
            hands,
            held: hands.map(CardSet::len),
            known,
            stock: cards,
            stock_next: top,
            pile,
            upcard: view.upcard,
            phase: view.phase,
            taken: view.taken_from_pile,
            face_down: None,
            turns: view.turn,
            events,
            actions: Log::with_capacity(log),
            outcome: None,
        })
    }

    /// Whose decision is next.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How the hand ended, once [`Phase::Over`].
    #[must_use]
    pub fn outcome(&self) -> Option<&HandOutcome> {
        self.outcome.as_ref()
    }

    /// The dealer.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The upcard, if dealt.
    #[must_use]
    pub fn upcard(&self) -> Option<Card> {
        self.upcard
    }

    /// The knock limit of this hand.
    #[must_use]
    pub fn knock_limit(&self) -> u8 {
        self.knock_limit
    }

    /// Turns completed.
    #[must_use]
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The events so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// `seat`'s cards (the engine's view, not a player's).
    pub fn cards(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    /// The stock, top first.
    pub fn stock(&self) -> &[Card] {
        &self.stock[self.stock_next..]
    }

    /// The discard pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    /// Every action applied so far, in order. With [`Hand::deck`] it replays
    /// the hand exactly.
    pub fn actions(&self) -> &[(Seat, Action)] {
        &self.actions
    }

    /// The deck this hand was dealt from, top first.
    pub fn deck(&self) -> Deck {
        Deck::from_cards(self.stock)
    }

    /// The rules of this hand.
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The game scores (seat order) the hand was dealt with.
    #[must_use]
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// The knocker's face-down discard, once a knock happened.
    #[must_use]
    pub fn face_down(&self) -> Option<Card> {
        self.face_down
    }

    /// What `seat` may know now.
    #[inline]
    pub fn view(&self, seat: Seat) -> PlayerView<'_> {
        let mine = self.phase.seat() == Some(seat);
        let phase = if mine { self.phase } else { Phase::Over };
        self.view_with(seat, phase, if mine { self.taken } else { None })
    }

    /// [`Hand::view`] for the seat whose decision is next (the driver's
    /// view a decision): its phase and the card it just took are its own,
    /// with no test.
    #[inline]
    pub(crate) fn deciding_view(&self, seat: Seat) -> PlayerView<'_> {
        debug_assert_eq!(self.phase.seat(), Some(seat));
        self.view_with(seat, self.phase, self.taken)
    }

    /// The view of `seat` with `phase` and `taken_from_pile` given.
    #[inline(always)]
    fn view_with(&self, seat: Seat, phase: Phase, taken: Option<Card>) -> PlayerView<'_> {
        let other = seat.other();
        debug_assert_eq!(self.held, self.hands.map(CardSet::len));
        PlayerView {
            seat,
            dealer: self.dealer,
            phase,
            hand: self.hands[seat.index()],
            upcard: self.upcard,
            pile: &self.pile,
            opponent_known: self.known[other.index()],
            opponent_cards: self.held[other.index()],
            stock_size: (52 - self.stock_next) as u32,
            turn: self.turns,
            knock_limit: self.knock_limit,
            taken_from_pile: taken,
            scores: [self.scores[seat.index()], self.scores[other.index()]],
            rules: self.rules,
            events: &self.events,
        }
    }

    /// Applies `seat`'s decision.
    ///
    /// # Errors
    /// [`IllegalAction`] if it is not `seat`'s decision or the action breaks
    /// a rule; the hand is then unchanged.
    #[inline]
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        if self.play(seat, action) {
            Ok(())
        } else {
            self.apply_checked(seat, action)
        }
    }

    /// The moves of nearly every turn (the upcard answer, a draw, a plain
    /// discard, and a stock end or turn cap that voids the hand), when
    /// legal and the logs have room: played with no call, so this step
    /// saves no registers and returns in one. Returns whether it played
    /// `action`; if not, the hand is unchanged and [`Hand::apply_checked`]
    /// plays or refuses it.
    #[inline(never)]
    fn play(&mut self, seat: Seat, action: Action) -> bool {
        if !(self.events.has_room() && self.actions.has_room()) {
            return false;
        }
        match (self.phase, action) {
            (Phase::UpcardOffer { seat: s }, Action::TakeUpcard(take)) if s == seat => {
                self.actions.put((seat, action));
                self.upcard_answer(seat, take);
            }
            (
                Phase::Draw {
                    seat: s,
                    stock_only,
                },
                Action::Draw(source),
            ) if s == seat
                && (source == DrawSource::Stock || !(stock_only || self.pile.is_empty())) =>
            {
                self.actions.put((seat, action));
                self.drawn(seat, source);
            }
            (
                Phase::EndTurn {
                    seat: s,
                    must_knock: false,
                },
                Action::EndTurn(TurnEnd::Discard(card)),
            ) if s == seat
                && self.pile.has_room()
                && self.hands[seat.index()].contains(card)
                && self.taken != Some(card) =>
            {
                self.actions.put((seat, action));
                let rest = self.hands[seat.index()].without(card);
                self.put_down(seat, card, rest);
            }
            _ => return false,
        }
        true
    }

    /// [`Hand::apply`] for every move [`Hand::play`] does not play: the
    /// seat check, the action logged first and taken back on a refusal
    /// (nothing is left to do after the move, so the rare moves' calls end
    /// the step).
    #[inline(never)]
    fn apply_checked(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        if self.phase.seat() != Some(seat) {
            return Err(IllegalAction::WrongPhase(self.phase));
        }
        // Room for what any move logs: an action, an event, a discard.
        self.actions.make_room((seat, action));
        self.events.make_room(Event::DrewStock { seat });
        self.pile.make_room(self.stock[0]);
        self.actions.put((seat, action));
        let applied = self.step(seat, action);
        if applied.is_err() {
            self.actions.pop();
        }
        applied
    }

    /// [`Hand::apply`] after the seat check. The moves of nearly every turn
    /// (the upcard answer, a draw, a plain discard) are inlined here; the
    /// rare ones (the last chance, a knock, big gin, the showdown) are calls,
    /// which keeps this step's own cost (registers saved, the frame) small.
    #[inline]
    fn step(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        match (self.phase, action) {
            (Phase::UpcardOffer { .. }, Action::TakeUpcard(take)) => {
                self.upcard_answer(seat, take);
                Ok(())
            }
            (Phase::Draw { stock_only, .. }, Action::Draw(source)) => {
                self.draw(seat, source, stock_only)
            }
            (
                Phase::EndTurn {
                    must_knock: false, ..
                },
                Action::EndTurn(TurnEnd::Discard(card)),
            ) => {
                let rest = self.playable(seat, card)?;
                self.put_down(seat, card, rest);
                Ok(())
            }
            (Phase::LastChance { .. }, Action::Draw(source)) => self.last_chance(seat, source),
            (Phase::EndTurn { must_knock, .. }, Action::EndTurn(end)) => {
                self.end_turn(seat, end, must_knock)
            }
            (phase, _) => Err(IllegalAction::WrongPhase(phase)),
        }
    }

    /// The last-chance answer ([`Phase::LastChance`]): take the last
    /// discard to knock, or pass and void the hand.
    #[cold]
    #[inline(never)]
    fn last_chance(&mut self, seat: Seat, source: DrawSource) -> Result<(), IllegalAction> {
        match source {
            DrawSource::Pile => {
                let top = *self.pile.last().expect("a last chance has a discard");
                if !last_discard_knocks(self.hands[seat.index()], top, self.knock_limit, self.rules)
                {
                    return Err(IllegalAction::Pile(
                        "the last discard may be taken only to knock or go gin, and this hand cannot with it",
                    ));
                }
                self.take_pile(seat);
                self.phase = Phase::EndTurn {
                    seat,
                    must_knock: true,
                };
            }
            DrawSource::Stock => {
                self.events.put(Event::PassedLastDiscard { seat });
                self.void(VoidReason::StockEnd);
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn upcard_answer(&mut self, seat: Seat, take: bool) {
        let card = self.upcard.expect("an upcard offer has an upcard");
        if take {
            self.events.put(Event::UpcardTaken { seat, card });
            self.pile.pop();
            self.hands[seat.index()].insert(card);
            self.held[seat.index()] += 1;
            self.known[seat.index()].insert(card);
            self.taken = Some(card);
            self.phase = Phase::EndTurn {
                seat,
                must_knock: false,
            };
        } else {
            self.events.put(Event::UpcardPassed { seat, card });
            self.phase = if seat == self.dealer {
                Phase::Draw {
                    seat: seat.other(),
                    stock_only: true,
                }
            } else {
                Phase::UpcardOffer { seat: self.dealer }
            };
        }
    }

    fn draw(
        &mut self,
        seat: Seat,
        source: DrawSource,
        stock_only: bool,
    ) -> Result<(), IllegalAction> {
        match source {
            DrawSource::Pile if stock_only => Err(IllegalAction::Pile(
                "both players passed the upcard; draw from the stock",
            )),
            DrawSource::Pile if self.pile.is_empty() => {
                Err(IllegalAction::Pile("the pile is empty"))
            }
            _ => {
                self.drawn(seat, source);
                Ok(())
            }
        }
    }

    /// A draw [`Hand::draw`] allowed.
    #[inline(always)]
    fn drawn(&mut self, seat: Seat, source: DrawSource) {
        match source {
            DrawSource::Pile => self.take_pile(seat),
            DrawSource::Stock => {
                let card = self.stock[self.stock_next];
                self.stock_next += 1;
                self.hands[seat.index()].insert(card);
                self.held[seat.index()] += 1;
                self.taken = None;
                self.events.put(Event::DrewStock { seat });
            }
        }
        self.phase = Phase::EndTurn {
            seat,
            must_knock: false,
        };
    }

    #[inline(always)]
    fn take_pile(&mut self, seat: Seat) {
        let card = self.pile.pop().expect("the pile is not empty");
        self.hands[seat.index()].insert(card);
        self.held[seat.index()] += 1;
        self.known[seat.index()].insert(card);
        self.taken = Some(card);
        self.events.put(Event::TookPile { seat, card });
    }

    /// `seat`'s hand without `card`, if `card` may leave it this turn: it
    /// is held and was not just taken from the pile.
    #[inline]
    fn playable(&self, seat: Seat, card: Card) -> Result<CardSet, IllegalAction> {
        let hand = self.hands[seat.index()];
        if !hand.contains(card) {
            return Err(IllegalAction::NotHeld(card));
        }
        if self.taken == Some(card) {
            return Err(IllegalAction::JustTaken(card));
        }
        Ok(hand.without(card))
    }

    /// Any turn end but a plain discard outside a must-knock turn (those
    /// [`Hand::step`] plays itself): a knock, big gin, or the discard a
    /// must-knock turn refuses.
    #[inline(never)]
    fn end_turn(
        &mut self,
        seat: Seat,
        end: TurnEnd,
        must_knock: bool,
    ) -> Result<(), IllegalAction> {
        let card = match end {
            TurnEnd::Discard(card) | TurnEnd::Knock(card) => card,
            TurnEnd::BigGin => return self.big_gin(seat, self.hands[seat.index()]),
        };
        let rest = self.playable(seat, card)?;
        if let TurnEnd::Knock(_) = end {
            // The showdown starts from this arrangement: one solve.
            let (plain, deadwood) = meld::least_arrangement(rest);
            if deadwood > self.knock_limit {
                return Err(IllegalAction::OverLimit {
                    deadwood,
                    limit: self.knock_limit,
                });
            }
            self.hands[seat.index()] = rest;
            self.held[seat.index()] -= 1;
            self.known[seat.index()].remove(card);
            self.face_down = Some(card);
            self.events.put(Event::Knocked { seat });
            let showdown = meld::known_showdown(
                plain,
                deadwood,
                self.hands[seat.other().index()],
                self.knock_limit,
            );
            self.settle(seat, showdown);
            return Ok(());
        }
        if must_knock {
            return Err(IllegalAction::MustKnock);
        }
        self.put_down(seat, card, rest);
        Ok(())
    }

    /// Discards `card` (checked by [`Hand::playable`]), leaving `rest`, and
    /// passes the turn, or ends the hand at the stock end or the turn cap.
    #[inline(always)]
    fn put_down(&mut self, seat: Seat, card: Card, rest: CardSet) {
        self.hands[seat.index()] = rest;
        self.held[seat.index()] -= 1;
        self.known[seat.index()].remove(card);
        self.pile.put(card);
        self.taken = None;
        self.turns += 1;
        self.events.put(Event::Discarded { seat, card });
        let stock_left = 52 - self.stock_next;
        if stock_left <= 2 {
            if self.rules.last_discard_action {
                self.phase = Phase::LastChance { seat: seat.other() };
            } else {
                self.void(VoidReason::StockEnd);
            }
        } else if self.turns >= self.rules.max_turns {
            self.void(VoidReason::TurnCap);
        } else {
            self.phase = Phase::Draw {
                seat: seat.other(),
                stock_only: false,
            };
        }
    }

    #[cold]
    #[inline(never)]
    fn big_gin(&mut self, seat: Seat, hand: CardSet) -> Result<(), IllegalAction> {
        if self.rules.big_gin_bonus.is_none() {
            return Err(IllegalAction::BigGin("not allowed under these rules"));
        }
        if !big_gin_turn(self.rules, self.turns) {
            return Err(IllegalAction::BigGin(
                "only after drawing: the eleven-card deal's first turn is a discard or a knock",
            ));
        }
        if !meld::is_big_gin(hand) {
            return Err(IllegalAction::BigGin("only for 11 cards that all meld"));
        }
        self.events.put(Event::BigGin { seat });
        self.show_down(seat);
        Ok(())
    }

    #[inline(never)]
    fn show_down(&mut self, knocker: Seat) {
        let showdown = meld::showdown(
            self.hands[knocker.index()],
            self.hands[knocker.other().index()],
            self.knock_limit,
        )
        .expect("a knock checked against the limit has a legal showdown");
        self.settle(knocker, showdown);
    }

    /// Scores `showdown` of `knocker`'s knock and ends the hand.
    fn settle(&mut self, knocker: Seat, showdown: Showdown) {
        let score = score_showdown(&showdown, self.rules, self.upcard);
        self.taken = None;
        self.phase = Phase::Over;
        self.outcome = Some(HandOutcome::Showdown {
            knocker,
            showdown,
            score,
        });
    }

    /// Ends the hand void (inlined: a few stores, and no call in
    /// [`Hand::play`]).
    #[inline(always)]
    fn void(&mut self, reason: VoidReason) {
        self.taken = None;
        self.phase = Phase::Over;
        self.outcome = Some(HandOutcome::Void(reason));
    }
}

/// Whether taking `top` into `hand` at the stock end makes a knock, gin
/// or big gin possible: the only use of the last discard RULES.md allows.
#[must_use]
pub fn last_discard_knocks(hand: CardSet, top: Card, knock_limit: u8, rules: &Rules) -> bool {
    let eleven = hand.with(top);
    (rules.big_gin_bonus.is_some() && meld::is_big_gin(eleven))
        || hand
            .iter()
            .any(|c| meld::deadwood(eleven.without(c)) <= knock_limit)
}

/// Whether big gin may be declared on turn `turn` (turns completed so far):
/// RULES.md has it "after drawing", so not on the eleven-card deal's first
/// turn, which is only a discard or a knock (the non-dealer has drawn
/// nothing: its eleventh card was dealt).
#[must_use]
pub fn big_gin_turn(rules: &Rules, turn: u32) -> bool {
    !(rules.deal == Deal::ElevenCards && turn == 0)
}

/// The knock limit of a hand dealt from `deck` under `rules`, once the
/// rules pass validation: what [`Hand::new`] checks before it deals.
fn dealable(rules: &Rules, deck: &Deck) -> Result<u8, crate::rules::RulesError> {
    rules.validate()?;
    let upcard = match rules.deal {
        Deal::UpcardOffer => Some(deck.cards()[20]),
        Deal::ElevenCards => None,
    };
    rules.knock_limit_for(upcard)
}

/// The cards `seat` took from the pile (or as the upcard) and still holds,
/// replayed from the public events: what its opponent knows of its hand.
fn taken_and_kept(events: &[Event], seat: Seat) -> CardSet {
    let mut known = CardSet::EMPTY;
    for event in events {
        match *event {
            Event::UpcardTaken { seat: s, card } | Event::TookPile { seat: s, card }
                if s == seat =>
            {
                known.insert(card);
            }
            Event::Discarded { seat: s, card } if s == seat => {
                known.remove(card);
            }
            _ => {}
        }
    }
    known
}
