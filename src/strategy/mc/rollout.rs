//! The greedy rollout, played on a bare state instead of through the engine.
//!
//! A rollout is where a search player spends its time: a sampled world is
//! played to the end of the hand by two [`Greedy`](crate::strategy::Greedy)
//! players. Played through [`Hand`](crate::engine::Hand) and
//! [`play_hand`](crate::engine::play_hand), every rollout copies the hand's
//! event log and pile, every turn builds views and logs events and actions,
//! and the greedy player solves its hand again where the rollout already
//! knows the answer. [`GreedyRollout`] keeps only what greedy play and the
//! rules read (both hands, the stock, the pile top, the phase) and
//! remembers each seat's deadwood between turns, so a turn costs one or two
//! solver calls.
//!
//! A rollout is worth its winner and points ([`RolloutEnd`]), not the
//! spreads: a knock is scored from [`meld::known_knock_margin`], the margin of
//! the showdown [`meld::showdown`] finds without spreading the hands.
//!
//! It is the same game: for every state, candidate and pair of knock
//! thresholds it reaches the same winner and points as the engine with two
//! greedy players (tested below against the engine over sampled worlds of
//! every preset), so `mc` decides exactly as before, only sooner.

use crate::cards::{Card, CardSet};
use crate::engine::{
    Action, DrawSource, Phase, PlayerView, Seat, Side, TurnEnd, big_gin_turn, last_discard_knocks,
};
use crate::meld::{self, DiscardMemo};
use crate::rules::Rules;

use super::super::{best_discard_except, except, joins_meld};
use super::super::greedy::{Ten, best_with_dead};
use super::frozen::Frozen;

/// How a rollout ended: what [`HandOutcome::winner`](crate::engine::HandOutcome::winner)
/// gives for the same hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutEnd {
    winner: Option<(Seat, u32)>,
}

impl RolloutEnd {
    /// A void hand or a scoreless tie.
    const NONE: RolloutEnd = RolloutEnd { winner: None };

    /// The seat that won the hand and its points, or `None` for a void hand
    /// or a scoreless tie.
    #[must_use]
    pub fn winner(self) -> Option<(Seat, u32)> {
        self.winner
    }
}

/// A hand in a sampled world, reduced to what greedy play needs.
#[derive(Clone, Debug)]
pub struct GreedyRollout<'a> {
    rules: &'a Rules,
    knock_limit: u8,
    dealer: Seat,
    upcard: Option<Card>,
    hands: [CardSet; 2],
    /// Each seat's deadwood when holding 10 cards (`None`: not known yet).
    deadwood: [Option<u8>; 2],
    /// Each seat's best discard of the 10 cards it holds, with those cards
    /// (see [`GreedyRollout::best_with`]), solved on first use and kept
    /// while the hand is unchanged (a drawn card thrown back).
    spare: [Option<(CardSet, meld::Discard)>; 2],
    stock: &'a [Card],
    next: usize,
    /// The top of the pile whenever a player may read it (after a pile
    /// take it is stale until the discard that always follows).
    top: Option<Card>,
    taken: Option<Card>,
    turns: u32,
    phase: Phase,
    /// The best discard of the 11 cards held, when the draw found it.
    pending: Option<meld::Discard>,
    /// The seat that plays by [`Frozen`]'s rules instead of greedy's.
    frozen: Option<(Seat, &'a Frozen)>,
    /// The frozen seat's turns left to play by those rules (then greedy's).
    frozen_turns: u32,
    /// The cards thrown to the pile since the decision.
    gone: CardSet,
    /// A seat that knocks short of gin at only a share of its chances.
    sparing: Option<Sparing>,
    /// The best discards of hands solved before (by any rollout of the
    /// memo's owner): the turns of a world's candidates repeat.
    memo: &'a DiscardMemo,
}

/// The solves of the deciding seat's hand that are the same in every world
/// of a decision ([`GreedyRollout::knowing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Solved {
    /// A hand of 10 cards: its least deadwood and its best discard.
    Ten {
        /// The least deadwood.
        deadwood: u8,
        /// The best discard.
        best: meld::Discard,
    },
    /// A hand of 11 cards that has just taken a card from the pile (or the
    /// upcard): its best discard other than that card.
    Eleven(meld::Discard),
}

impl Solved {
    /// The solves of `view`'s hand before any candidate (`None` unless it
    /// holds 10 cards).
    #[must_use]
    pub fn before(view: &PlayerView<'_>) -> Option<Solved> {
        Solved::ten(view.hand)
    }

    /// The solves of `hand` if it holds 10 cards.
    fn ten(hand: CardSet) -> Option<Solved> {
        (hand.len() == 10).then(|| Solved::Ten {
            deadwood: meld::deadwood(hand),
            best: meld::best_discard(hand).expect("10 cards"),
        })
    }

    /// The solves of `view`'s hand after `action` when the hand goes on:
    /// a discard leaves 10 cards, a pile draw or a taken upcard 11 (`None`
    /// for every other action).
    #[must_use]
    pub fn after(view: &PlayerView<'_>, action: Action) -> Option<Solved> {
        let taken = match action {
            Action::EndTurn(TurnEnd::Discard(card)) => return Solved::ten(view.hand.without(card)),
            Action::Draw(DrawSource::Pile) => view.pile_top()?,
            Action::TakeUpcard(true) => view.upcard?,
            _ => return None,
        };
        Some(Solved::Eleven(best_discard_except(
            view.hand.with(taken),
            Some(taken),
        )))
    }
}

/// The deciding seat's [`Solved`] before the candidates of a decision and
/// after each, solved once for all its worlds.
#[derive(Clone, Debug, Default)]
pub(crate) struct DecisionSolves {
    before: Option<Solved>,
    after: Vec<Option<Solved>>,
}

impl DecisionSolves {
    /// Solves `view`'s hand before and after each of `candidates`, reusing
    /// the buffer.
    pub fn solve(&mut self, view: &PlayerView<'_>, candidates: &[Action]) {
        self.before = Solved::before(view);
        self.after.clear();
        self.after
            .extend(candidates.iter().map(|&action| Solved::after(view, action)));
    }

    /// The solves before the candidates.
    #[must_use]
    pub fn before(&self) -> Option<Solved> {
        self.before
    }

    /// The solves after candidate `c` (`None` if not solved).
    #[must_use]
    pub fn after(&self, c: usize) -> Option<Solved> {
        self.after.get(c).copied().flatten()
    }
}

/// A seat's knocks short of gin taken at only a share of its chances
/// ([`GreedyRollout::knocking_at_share`]).
#[derive(Clone, Copy, Debug)]
struct Sparing {
    seat: Seat,
    /// The share as a fraction of 2^64.
    cut: u64,
    key: u64,
}

impl Sparing {
    /// Whether the seat takes the knock it may make after `turns` turns.
    fn knocks(self, turns: u32) -> bool {
        self.cut == u64::MAX || crate::seed::mix(self.key ^ u64::from(turns)) < self.cut
    }
}

impl<'a> GreedyRollout<'a> {
    /// The state `view` shows with the opponent holding `opponent` and the
    /// stock `stock` (top first): a world as `sample_world` draws
    /// it, which [`Hand::from_world`](crate::engine::Hand::from_world) would
    /// accept. Its hands are solved through `memo`.
    #[must_use]
    pub fn new(
        view: &PlayerView<'a>,
        opponent: CardSet,
        stock: &'a [Card],
        memo: &'a DiscardMemo,
    ) -> GreedyRollout<'a> {
        let mut hands = [CardSet::EMPTY; 2];
        hands[view.seat.index()] = view.hand;
        hands[view.seat.other().index()] = opponent;
        GreedyRollout {
            rules: view.rules,
            knock_limit: view.knock_limit,
            dealer: view.dealer,
            upcard: view.upcard,
            hands,
            deadwood: [None; 2],
            spare: [None; 2],
            stock,
            next: 0,
            top: view.pile_top(),
            taken: view.taken_from_pile,
            turns: view.turn,
            phase: view.phase,
            pending: None,
            frozen: None,
            frozen_turns: u32::MAX,
            gone: CardSet::EMPTY,
            sparing: None,
            memo,
        }
    }

    /// The same state with `seat` drawing and discarding by `rules`
    /// (knocking as greedy does, at its threshold).
    #[must_use]
    pub fn with_frozen(mut self, seat: Seat, rules: &'a Frozen) -> GreedyRollout<'a> {
        self.frozen = (self.frozen_turns > 0).then_some((seat, rules));
        self
    }

    /// The same state with the frozen seat playing by its rules for its
    /// next `turns` discards only, and as greedy after them (0: not at all).
    #[must_use]
    pub fn frozen_for(mut self, turns: u32) -> GreedyRollout<'a> {
        self.frozen_turns = turns;
        if turns == 0 {
            self.frozen = None;
        }
        self
    }

    /// The same state with what the rollout would solve first for `seat`,
    /// while it holds 10 cards, solved now: its least deadwood and its best
    /// discard (which answers a card that melds with nothing). Every
    /// candidate played out in one world starts from a clone of one state,
    /// and the opponent's hand is the same in all of them until it moves,
    /// so solving it once for the world instead of once a candidate saves
    /// the rest; the rollout then reads the answers it would have computed
    /// (the same play).
    #[must_use]
    pub fn solved_for(mut self, seat: Seat) -> GreedyRollout<'a> {
        if let Some(solved) = Solved::ten(self.hands[seat.index()]) {
            self.knowing(seat, solved);
        }
        self
    }

    /// Gives the rollout `solved`, the answers for `seat`'s hand as it
    /// stands (10 cards: its least deadwood and best discard, as
    /// [`GreedyRollout::solved_for`] solves them; 11 cards at its turn end:
    /// its best discard other than the card taken, which the turn end
    /// would solve), solved once for every world of a decision
    /// ([`Solved::after`]).
    pub(crate) fn knowing(&mut self, seat: Seat, solved: Solved) {
        let i = seat.index();
        let hand = self.hands[i];
        match solved {
            Solved::Ten { deadwood, best } => {
                debug_assert_eq!(hand.len(), 10);
                debug_assert_eq!(meld::deadwood(hand), deadwood);
                self.deadwood[i] = Some(deadwood);
                self.spare[i] = Some((hand, best));
            }
            Solved::Eleven(best) => {
                debug_assert!(matches!(self.phase, Phase::EndTurn { seat: s, .. } if s == seat));
                debug_assert_eq!(best_discard_except(hand, self.taken), best);
                self.pending = Some(best);
            }
        }
    }

    /// The same state with `seat` knocking short of gin at only a `share`
    /// of the turn ends where its threshold lets it (from 0, never, to 1,
    /// always): whether it knocks at one is a hash of `key` and the turn,
    /// so every candidate played out in a world with the same `key` meets
    /// the same choices. Gin, big gin and a forced knock are always made.
    #[must_use]
    pub fn knocking_at_share(mut self, seat: Seat, share: f64, key: u64) -> GreedyRollout<'a> {
        // 2^64 as a float; a share of 1 knocks at every chance.
        let cut = if share >= 1.0 {
            u64::MAX
        } else {
            (share.max(0.0) * 18_446_744_073_709_551_616.0) as u64
        };
        self.sparing = Some(Sparing { seat, cut, key });
        self
    }

    /// Applies a legal action of the seat to move (as
    /// [`Hand::apply`](crate::engine::Hand::apply) does, without its
    /// checks); returns the outcome if it ends the hand.
    pub fn apply(&mut self, action: Action) -> Option<RolloutEnd> {
        let seat = self.phase.seat().expect("a rollout acts before its end");
        let i = seat.index();
        match (self.phase, action) {
            (Phase::UpcardOffer { .. }, Action::TakeUpcard(true)) => {
                let card = self.upcard.expect("an upcard offer has an upcard");
                self.take(seat, card);
                self.phase = Phase::EndTurn {
                    seat,
                    must_knock: false,
                };
            }
            (Phase::UpcardOffer { .. }, Action::TakeUpcard(false)) => {
                self.phase = if seat == self.dealer {
                    Phase::Draw {
                        seat: seat.other(),
                        stock_only: true,
                    }
                } else {
                    Phase::UpcardOffer { seat: self.dealer }
                };
            }
            (Phase::Draw { .. } | Phase::LastChance { .. }, Action::Draw(DrawSource::Pile)) => {
                let must_knock = matches!(self.phase, Phase::LastChance { .. });
                self.take(seat, self.top.expect("a pile draw has a top"));
                self.phase = Phase::EndTurn { seat, must_knock };
            }
            (Phase::LastChance { .. }, Action::Draw(DrawSource::Stock)) => {
                return Some(RolloutEnd::NONE);
            }
            (Phase::Draw { .. }, Action::Draw(DrawSource::Stock)) => {
                let ten = self.deadwood[i].map(|now| Ten::new(self.hands[i], now));
                self.pending = self.draw_stock(seat, ten);
                self.phase = Phase::EndTurn {
                    seat,
                    must_knock: false,
                };
            }
            (Phase::EndTurn { .. }, Action::EndTurn(TurnEnd::BigGin)) => {
                return Some(self.show_down(seat, 0));
            }
            (Phase::EndTurn { .. }, Action::EndTurn(TurnEnd::Knock(card))) => {
                self.pending = None;
                self.hands[i].remove(card);
                return Some(self.show_down(seat, meld::deadwood(self.hands[i])));
            }
            (Phase::EndTurn { .. }, Action::EndTurn(TurnEnd::Discard(card))) => {
                self.pending = None;
                return self.discard(seat, card, None);
            }
            (phase, action) => unreachable!("{action:?} is not legal in {phase:?}"),
        }
        None
    }

    /// Plays the hand to its end, both seats greedy: `knock_at[seat]` is
    /// that seat's knock threshold (`None`: the knock limit).
    ///
    /// A turn from its draw is played in one step (the private `turn`),
    /// without building actions or passing through the end-of-turn phase;
    /// the other phases go through [`GreedyRollout::apply`].
    pub fn play(&mut self, knock_at: [Option<u8>; 2]) -> RolloutEnd {
        // Each seat's knock threshold, within the knock limit.
        let knock_at = knock_at.map(|k| k.unwrap_or(self.knock_limit).min(self.knock_limit));
        loop {
            let end = match self.phase {
                Phase::Draw { seat, stock_only } => self.turn(seat, stock_only, knock_at),
                Phase::EndTurn { seat, must_knock } => {
                    let pending = self.pending.take();
                    self.end_turn(seat, must_knock, knock_at, pending)
                }
                Phase::UpcardOffer { seat } => {
                    let card = self.upcard.expect("an upcard offer has an upcard");
                    let ten = self.ten(seat);
                    self.pending = self.takes(seat, ten, card);
                    self.apply(Action::TakeUpcard(self.pending.is_some()))
                }
                Phase::LastChance { seat } => {
                    let hand = self.hands[seat.index()];
                    let top = self.top.expect("a last chance has a discard");
                    let take = last_discard_knocks(hand, top, self.knock_limit, self.rules)
                        && best_discard_except(hand.with(top), Some(top)).deadwood
                            <= self.knock_limit;
                    self.apply(Action::Draw(if take {
                        DrawSource::Pile
                    } else {
                        DrawSource::Stock
                    }))
                }
                Phase::Over => unreachable!("the loop returns when the hand ends"),
            };
            if let Some(outcome) = end {
                return outcome;
            }
        }
    }

    /// `seat`'s whole turn from its draw (the pile top if it takes it,
    /// else the stock) to its discard or knock. The best discard a draw
    /// finds goes straight to the turn's end, not through `pending`.
    #[inline(always)]
    fn turn(&mut self, seat: Seat, stock_only: bool, knock_at: [u8; 2]) -> Option<RolloutEnd> {
        let ten = match self.top {
            Some(top) if !stock_only => {
                let ten = self.ten(seat);
                if let Some(best) = self.takes(seat, ten, top) {
                    self.take(seat, top);
                    return self.end_turn(seat, false, knock_at, Some(best));
                }
                Some(ten)
            }
            _ => {
                let i = seat.index();
                self.deadwood[i].map(|now| Ten::new(self.hands[i], now))
            }
        };
        let pending = self.draw_stock(seat, ten);
        self.end_turn(seat, false, knock_at, pending)
    }

    /// `seat`'s 10 cards and their least deadwood (solved now if not
    /// known, and kept).
    #[inline(always)]
    fn ten(&mut self, seat: Seat) -> Ten {
        let i = seat.index();
        let hand = self.hands[i];
        Ten::new(hand, *self.deadwood[i].get_or_insert_with(|| meld::deadwood(hand)))
    }

    /// The end of `seat`'s turn: big gin, a knock at its threshold (or
    /// forced, `must_knock`), else its discard. `pending` is the best
    /// discard of the cards held if the draw found it.
    #[inline(always)]
    fn end_turn(
        &mut self,
        seat: Seat,
        must_knock: bool,
        knock_at: [u8; 2],
        pending: Option<meld::Discard>,
    ) -> Option<RolloutEnd> {
        let hand = self.hands[seat.index()];
        let best = match pending {
            Some(best) => best,
            None => except(hand, self.memo.best_discard(hand), self.taken),
        };
        // All 11 cards melding leaves some meld of 4 or more, so
        // the best discard then leaves no deadwood.
        if best.deadwood == 0
            && self.rules.big_gin_bonus.is_some()
            && big_gin_turn(self.rules, self.turns)
            && meld::is_big_gin(hand)
        {
            return Some(self.show_down(seat, 0));
        }
        let threshold = knock_at[seat.index()];
        // A seat knocking at a share passes the knocks short of
        // gin that its hash leaves out.
        let passes = || {
            best.deadwood > 0
                && self
                    .sparing
                    .is_some_and(|s| s.seat == seat && !s.knocks(self.turns))
        };
        if best.deadwood <= threshold && !passes() || must_knock {
            self.hands[seat.index()].remove(best.card);
            return Some(self.show_down(seat, best.deadwood));
        }
        let throw = match self.frozen {
            Some((own, rules)) if own == seat => {
                self.frozen_turns -= 1;
                if self.frozen_turns == 0 {
                    self.frozen = None;
                }
                rules.discard(hand, self.taken, best, self.gone)
            }
            _ => best,
        };
        self.discard(seat, throw.card, Some(throw.deadwood))
    }

    /// Whether `seat`, holding `ten`, takes `card`: by [`Frozen::takes`]
    /// for the frozen seat, else by [`GreedyRollout::improves`]. Taken,
    /// the best discard of the cards then held.
    #[inline(always)]
    fn takes(&mut self, seat: Seat, ten: Ten, card: Card) -> Option<meld::Discard> {
        let Some((own, rules)) = self.frozen.filter(|&(own, _)| own == seat) else {
            return self.improves(seat, ten, card);
        };
        let Ten { hand, now, .. } = ten;
        // A card sure to be its own best discard is never taken; nor is one
        // that cannot save enough deadwood to pay for the outs it may cost
        // ([`Frozen::may_take`]).
        let joins = joins_meld(hand, card);
        if ten.sure_discard(card)
            || !joins && !rules.may_take(hand, now.min(ten.highest_value()), card, self.gone)
        {
            return None;
        }
        let best = if joins {
            self.memo.best_discard(hand.with(card))
        } else {
            self.best_with(own, ten, card)
        };
        rules
            .takes(hand, now, card, best, self.gone)
            .then_some(best)
    }

    /// Greedy's test: does taking `card` lower the deadwood of `ten` after
    /// the best discard? If so, that discard, for the end of the turn
    /// (`card` is then not the best discard: that would leave the hand as
    /// it was). A card that melds with nothing is answered without solving
    /// when it [`never improves`](Ten::never_improves) the hand.
    #[inline(always)]
    fn improves(&mut self, seat: Seat, ten: Ten, card: Card) -> Option<meld::Discard> {
        let joins = joins_meld(ten.hand, card);
        if !joins && ten.never_improves(card) {
            return None;
        }
        let best = if joins {
            self.memo.best_discard(ten.hand.with(card))
        } else {
            self.best_with(seat, ten, card)
        };
        (best.deadwood < ten.now).then_some(best)
    }

    /// `meld::best_discard(hand + card)` for a `card` that melds with
    /// nothing in the seat's 10 cards `ten`, from the seat's own best
    /// discard, kept between turns ([`best_with_dead`]).
    #[inline(always)]
    fn best_with(&mut self, seat: Seat, ten: Ten, card: Card) -> meld::Discard {
        let memo = self.memo;
        best_with_dead(ten, card, &mut self.spare[seat.index()], |hand| {
            memo.best_discard(hand)
        })
    }

    /// `seat` takes `card` from the pile (the phase is left to the caller).
    #[inline]
    fn take(&mut self, seat: Seat, card: Card) {
        self.hands[seat.index()].insert(card);
        self.taken = Some(card);
    }

    /// `seat`, holding `ten` if its deadwood is known, draws the stock's
    /// next card (the phase is left to the caller); returns the best
    /// discard of the cards then held when it is found without a solve of
    /// all eleven: a drawn card that melds with nothing (`best_with`).
    #[inline(always)]
    fn draw_stock(&mut self, seat: Seat, ten: Option<Ten>) -> Option<meld::Discard> {
        let card = self.stock[self.next];
        self.next += 1;
        let pending = match ten {
            Some(ten) if !joins_meld(ten.hand, card) => Some(self.best_with(seat, ten, card)),
            _ => None,
        };
        self.hands[seat.index()].insert(card);
        self.taken = None;
        pending
    }

    /// Discards `card` (leaving `deadwood`, if known) and moves on.
    fn discard(&mut self, seat: Seat, card: Card, deadwood: Option<u8>) -> Option<RolloutEnd> {
        self.hands[seat.index()].remove(card);
        self.deadwood[seat.index()] = deadwood;
        self.gone.insert(card);
        self.top = Some(card);
        self.taken = None;
        self.turns += 1;
        if self.stock.len() - self.next <= 2 {
            if !self.rules.last_discard_action {
                return Some(RolloutEnd::NONE);
            }
            self.phase = Phase::LastChance { seat: seat.other() };
        } else if self.turns >= self.rules.max_turns {
            return Some(RolloutEnd::NONE);
        } else {
            self.phase = Phase::Draw {
                seat: seat.other(),
                stock_only: false,
            };
        }
        None
    }

    /// The end of a knock by `knocker` holding `deadwood` (its least).
    fn show_down(&mut self, knocker: Seat, deadwood: u8) -> RolloutEnd {
        self.phase = Phase::Over;
        let [own, other] = [knocker, knocker.other()].map(|s| self.hands[s.index()]);
        // The defender's 10 cards are those of its last discard.
        let defender = knocker.other().index();
        let reply = *self.deadwood[defender].get_or_insert_with(|| meld::deadwood(other));
        debug_assert_eq!(reply, meld::deadwood(other));
        let multiplier = self.rules.hand_multiplier(self.upcard);
        let knock = Knock {
            hand: own,
            deadwood,
            defender: other,
            defender_deadwood: reply,
        };
        RolloutEnd {
            winner: knock_winner(self.rules, self.knock_limit, knock).map(|(side, points)| {
                let seat = match side {
                    Side::Knocker => knocker,
                    Side::Defender => knocker.other(),
                };
                (seat, points * multiplier)
            }),
        }
    }
}

/// A knock: the knocker's cards and least deadwood (within the knock
/// limit), the defender's and its least deadwood before lay-offs.
#[derive(Clone, Copy, Debug)]
struct Knock {
    hand: CardSet,
    deadwood: u8,
    defender: CardSet,
    defender_deadwood: u8,
}

/// The margin of `knock` as [`score_showdown`](crate::engine::score_showdown)
/// prices the showdown [`meld::showdown`] finds, before the spade
/// multiplier: the defender's deadwood after lay-offs less the knocker's,
/// and, on gin or big gin, the bonus the knocker adds to it (the margin is
/// [`meld::known_knock_margin`]'s, which searches the knocker's arrangements
/// only when its least-deadwood one might not be best).
fn knock_margin(rules: &Rules, knock_limit: u8, knock: Knock) -> (i32, Option<u32>) {
    if knock.deadwood == 0 {
        let bonus = match rules.big_gin_bonus {
            Some(bonus) if knock.hand.len() == 11 => bonus,
            _ => rules.gin_bonus,
        };
        // On gin nothing is laid off.
        return (i32::from(knock.defender_deadwood), Some(bonus));
    }
    let margin = meld::known_knock_margin(
        knock.hand,
        knock.deadwood,
        knock.defender,
        knock.defender_deadwood,
        knock_limit,
    );
    (margin, None)
}

/// Who wins `knock` and how many points, before the spade multiplier, as
/// [`score_showdown`](crate::engine::score_showdown) scores the showdown
/// [`meld::showdown`] finds; `None` for a scoreless tie. Gin always goes
/// to the knocker, even against a defender with no deadwood (no undercut
/// of a gin).
fn knock_winner(rules: &Rules, knock_limit: u8, knock: Knock) -> Option<(Side, u32)> {
    let (margin, gin_bonus) = knock_margin(rules, knock_limit, knock);
    match gin_bonus {
        Some(bonus) => Some((Side::Knocker, margin.unsigned_abs() + bonus)),
        None if margin > 0 => Some((Side::Knocker, margin.unsigned_abs())),
        None if margin == 0 && !rules.undercut_on_tie => None,
        None => Some((
            Side::Defender,
            margin.unsigned_abs() + rules.undercut_bonus,
        )),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::engine::{
        Deck, Hand, HandOutcome, Strategy, ask, big_gin_legal, legal_discards, pile_allowed,
        play_hand,
    };
    use crate::rules::Deal;
    use crate::strategy::{Greedy, Knowledge, Tracker};

    /// Every legal action in `view`.
    fn legal(view: &PlayerView<'_>) -> Vec<Action> {
        match view.phase {
            Phase::UpcardOffer { .. } => vec![Action::TakeUpcard(true), Action::TakeUpcard(false)],
            Phase::Draw { .. } | Phase::LastChance { .. } => {
                let mut out = vec![Action::Draw(DrawSource::Stock)];
                if pile_allowed(view) {
                    out.push(Action::Draw(DrawSource::Pile));
                }
                out
            }
            Phase::EndTurn { must_knock, .. } => {
                let mut out = Vec::new();
                if big_gin_legal(view) {
                    out.push(Action::EndTurn(TurnEnd::BigGin));
                }
                for card in legal_discards(view) {
                    if meld::deadwood(view.hand.without(card)) <= view.knock_limit {
                        out.push(Action::EndTurn(TurnEnd::Knock(card)));
                    }
                    if !must_knock {
                        out.push(Action::EndTurn(TurnEnd::Discard(card)));
                    }
                }
                out
            }
            Phase::Over => Vec::new(),
        }
    }

    /// The engine's rollout: the world as a hand, the action applied, then
    /// two greedy players to the end.
    fn engine(
        view: &PlayerView<'_>,
        world: &super::super::World,
        action: Action,
        knock_at: [Option<u8>; 2],
    ) -> HandOutcome {
        let mut hand = Hand::from_world(view, world.opponent, &world.stock).unwrap();
        hand.apply(view.seat, action).unwrap();
        if let Some(outcome) = hand.outcome() {
            return *outcome;
        }
        let [mut a, mut b] = knock_at.map(|k| Greedy::new(k, Vec::new()));
        play_hand(&mut hand, &mut [&mut a, &mut b]).unwrap()
    }

    /// Calls `check` with the view, its knowledge, a sampled world, an
    /// action and a pair of knock thresholds: `worlds` worlds at every
    /// state of `deals` hands of each of `variants` played by the tracker
    /// against greedy (so the states are not only greedy's), every legal
    /// action, and thresholds of the knock limit, gin only, 3 and 10.
    fn for_each_rollout(
        variants: &[Rules],
        seed: u64,
        deals: usize,
        worlds: usize,
        mut check: impl FnMut(
            &PlayerView<'_>,
            &Knowledge,
            &super::super::World,
            Action,
            [Option<u8>; 2],
        ),
    ) {
        let thresholds = [[None, None], [Some(0), None], [Some(3), Some(10)]];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for rules in variants {
            for d in 0..deals {
                let deck = Deck::shuffled(&mut rng);
                let mut hand = Hand::new(rules, &deck, Seat::ALL[d % 2], [0, 0]).unwrap();
                let mut players: [Box<dyn Strategy>; 2] =
                    [Box::new(Tracker::default()), Box::new(Greedy::default())];
                while let Some(seat) = hand.phase().seat() {
                    let view = hand.view(seat);
                    let knowledge = Knowledge::from_view(&view);
                    for _ in 0..worlds {
                        let world = super::super::sample_world(&mut rng, &view, Some(&knowledge));
                        for action in legal(&view) {
                            for knock_at in thresholds {
                                check(&view, &knowledge, &world, action, knock_at);
                            }
                        }
                    }
                    let action = ask(players[seat.index()].as_mut(), &hand.view(seat));
                    hand.apply(seat, action).unwrap();
                }
            }
        }
    }

    /// Applies `action` to `rollout`, plays it out with `knock_at` and
    /// checks it ends with the engine's `expected` winner and points.
    fn ends_as(
        mut rollout: GreedyRollout<'_>,
        action: Action,
        knock_at: [Option<u8>; 2],
        expected: &HandOutcome,
        view: &PlayerView<'_>,
        world: &super::super::World,
    ) {
        let got = rollout
            .apply(action)
            .unwrap_or_else(|| rollout.play(knock_at));
        assert_eq!(
            got.winner(),
            expected.winner(),
            "{action:?} with {knock_at:?} in {view:?} / {world:?}"
        );
    }

    /// From states of real hands (tracker against greedy, so the states
    /// are not only greedy's) under every preset, an eleven-card deal, the
    /// last-discard rule and a short turn cap: every legal action in
    /// sampled worlds, played out with several knock thresholds, ends as
    /// the engine ends it.
    #[test]
    fn rollouts_end_as_the_engine_ends_them() {
        // One memo for all the rollouts, as a player keeps one.
        let memo = DiscardMemo::new();
        let mut variants = vec![
            Rules::standard(),
            Rules::hoyle(),
            Rules::oklahoma(),
            Rules::eaai(),
        ];
        let mut eleven = Rules::standard();
        eleven.deal = Deal::ElevenCards;
        eleven.last_discard_action = true;
        variants.push(eleven);
        let mut last = Rules::eaai();
        last.last_discard_action = true;
        variants.push(last);
        let mut capped = Rules::hoyle();
        capped.max_turns = 9;
        variants.push(capped);
        let (mut compared, mut ends) = (0, std::collections::BTreeSet::new());
        let mut solved = [0; 2];
        for_each_rollout(&variants, 17, 25, 3, |view, _, world, action, knock_at| {
            let expected = engine(view, world, action, knock_at);
            let rollout = GreedyRollout::new(view, world.opponent, &world.stock, &memo);
            ends_as(rollout.clone(), action, knock_at, &expected, view, world);
            // Given the solves a decision shares (the opponent's hand and
            // this seat's, before and after the action), the same end.
            let mut rollout = rollout.solved_for(view.seat.other());
            if let Some(before) = Solved::before(view) {
                rollout.knowing(view.seat, before);
                solved[0] += 1;
            }
            let got = rollout.apply(action).unwrap_or_else(|| {
                if let Some(after) = Solved::after(view, action) {
                    rollout.knowing(view.seat, after);
                    solved[1] += 1;
                }
                rollout.play(knock_at)
            });
            assert_eq!(got.winner(), expected.winner(), "{action:?} in {view:?} / {world:?}");
            ends.insert(match expected {
                HandOutcome::Void(reason) => format!("{reason:?}"),
                HandOutcome::Showdown { score, .. } => format!("{:?}", score.end),
            });
            compared += 1;
        });
        assert!(compared > 50_000, "{compared}");
        assert!(solved[0] > 10_000 && solved[1] > 10_000, "{solved:?}");
        // Every way a hand ends was reached.
        assert!(ends.len() >= 6, "{ends:?}");
    }

    /// The knock of `hand` (least deadwood `deadwood`) against `defender`.
    fn knock(hand: CardSet, deadwood: u8, defender: CardSet) -> Knock {
        Knock {
            hand,
            deadwood,
            defender,
            defender_deadwood: meld::deadwood(defender),
        }
    }

    /// Knocks of every deadwood from 0 to 10 (and big gin) against random
    /// defenders, under rules with and without undercut on a tie and with
    /// several bonuses: the margin and bonus give the engine's score, on the
    /// fast path and the full search alike (both are reached).
    #[test]
    fn knock_margins_score_as_the_showdown_does() {
        use crate::engine::score_showdown;
        let mut rng = Pcg64Mcg::seed_from_u64(23);
        let mut tie = Rules::standard();
        tie.undercut_on_tie = true;
        tie.undercut_bonus = 0;
        let variants = [Rules::standard(), Rules::eaai(), Rules::oklahoma(), tie];
        let (mut searched, mut fast, mut knocks) = (0, 0, 0);
        let mut big = 0;
        while knocks < 20_000 {
            // Draw and discard greedily until the hand can knock; the
            // defender holds the bottom ten cards.
            let deck = Deck::shuffled(&mut rng);
            let cards = deck.cards();
            let defender: CardSet = cards[42..].iter().copied().collect();
            let mut hand: CardSet = cards[..10].iter().copied().collect();
            for &card in &cards[10..42] {
                if meld::deadwood(hand) <= 10 {
                    break;
                }
                hand.insert(card);
                if meld::is_big_gin(hand) {
                    big += 1;
                    break;
                }
                hand.remove(meld::best_discard(hand).unwrap().card);
            }
            let deadwood = meld::deadwood(hand);
            if deadwood > 10 {
                continue;
            }
            knocks += 1;
            let rules = &variants[knocks % variants.len()];
            let showdown = meld::showdown(hand, defender, 10).unwrap();
            let score = score_showdown(&showdown, rules, None);
            let got = knock_winner(rules, 10, knock(hand, deadwood, defender))
                .map_or((None, 0), |(side, points)| (Some(side), points));
            assert_eq!(got, (score.winner, score.points), "{hand} v {defender}");
            let (laid, reply) = meld::defender_reply(&meld::best_arrangement(hand), defender);
            if deadwood > 0 && !laid.is_empty() && reply != meld::deadwood(defender) {
                searched += 1;
            } else {
                fast += 1;
            }
        }
        assert!(
            searched > 1_000 && fast > 5_000 && big > 0,
            "{searched} {fast} {big}"
        );
    }

    /// Gin against a defender whose own hand is gin (no deadwood): the
    /// margin is 0, and the knocker still wins the gin bonus (a gin cannot
    /// be undercut), under every preset. Found when the rollout scored it
    /// as an undercut on a tie under oklahoma.
    #[test]
    fn gin_against_a_gin_hand_goes_to_the_knocker() {
        use crate::engine::score_showdown;
        let knocker: CardSet = "5C 5D 5H 2D 2H 2S 9S TS JS QS".parse().unwrap();
        let defender: CardSet = "AC AD AH AS 3C 3H 3S 4C 4D 4S".parse().unwrap();
        for rules in [Rules::standard(), Rules::hoyle(), Rules::oklahoma(), Rules::eaai()] {
            let showdown = meld::showdown(knocker, defender, 10).unwrap();
            let score = score_showdown(&showdown, &rules, None);
            assert_eq!(
                knock_winner(&rules, 10, knock(knocker, 0, defender)),
                Some((Side::Knocker, rules.gin_bonus)),
            );
            assert_eq!(score.winner, Some(Side::Knocker));
            assert_eq!(score.points, rules.gin_bonus);
        }
    }

    /// Whenever a drawn card is taken for the sure discard, solving agrees
    /// (card and deadwood): over random hands and every card they could
    /// draw.
    #[test]
    fn sure_discards_are_the_best_discards() {
        let mut rng = Pcg64Mcg::seed_from_u64(31);
        let mut sure = 0;
        for _ in 0..2_000 {
            let deck = Deck::shuffled(&mut rng);
            let hand: CardSet = deck.cards()[..10].iter().copied().collect();
            let now = meld::deadwood(hand);
            for card in CardSet::ALL - hand {
                if Ten::new(hand, now).sure_discard(card) {
                    sure += 1;
                    let best = meld::best_discard(hand.with(card)).unwrap();
                    assert_eq!(best, meld::Discard { card, deadwood: now }, "{hand} + {card}");
                }
            }
        }
        assert!(sure > 5_000, "{sure}");
    }

    /// Whenever `improves` answers without solving, solving agrees, and
    /// the hand's highest value is the most any of its cards is worth:
    /// over random hands and every card they could be offered.
    #[test]
    fn unmeldable_high_cards_never_improve() {
        let mut rng = Pcg64Mcg::seed_from_u64(29);
        let mut skipped = 0;
        for _ in 0..2_000 {
            let deck = Deck::shuffled(&mut rng);
            let hand: CardSet = deck.cards()[..10].iter().copied().collect();
            let now = meld::deadwood(hand);
            let ten = Ten::new(hand, now);
            let highest = hand.iter().map(Card::value).max().unwrap();
            assert_eq!(ten.highest_value(), highest, "{hand}");
            for card in CardSet::ALL - hand {
                if !meld::meldable(hand.with(card)).contains(card) && ten.never_improves(card) {
                    skipped += 1;
                    let best = meld::best_discard(hand.with(card)).unwrap();
                    assert!(best.deadwood >= now, "{hand} + {card}");
                }
            }
        }
        assert!(skipped > 10_000, "{skipped}");
    }

    /// A seat played by [`Frozen`]'s rules through the engine, as the
    /// rollout plays it: the cards discarded from event `from` on are gone,
    /// and it knocks as greedy does at `knock_at`. After `turns` discards
    /// by those rules it plays as `greedy`.
    struct FrozenPlayer<'f> {
        rules: &'f Frozen,
        from: usize,
        knock_at: Option<u8>,
        turns: u32,
        greedy: Greedy,
    }

    impl FrozenPlayer<'_> {
        fn gone(&self, view: &PlayerView<'_>) -> CardSet {
            view.events[self.from..]
                .iter()
                .filter_map(|e| match *e {
                    crate::engine::Event::Discarded { card, .. } => Some(card),
                    _ => None,
                })
                .collect()
        }

        fn takes(&self, view: &PlayerView<'_>, card: Card) -> bool {
            let best = meld::best_discard(view.hand.with(card)).unwrap();
            let now = meld::deadwood(view.hand);
            self.rules.takes(view.hand, now, card, best, self.gone(view))
        }
    }

    impl Strategy for FrozenPlayer<'_> {
        fn name(&self) -> &str {
            "frozen"
        }

        fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
            if self.turns == 0 {
                return self.greedy.take_upcard(view);
            }
            view.upcard.is_some_and(|card| self.takes(view, card))
        }

        fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
            if self.turns == 0 {
                return self.greedy.draw(view);
            }
            crate::strategy::draw_when(view, |top| self.takes(view, top))
        }

        fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
            if self.turns == 0 {
                return self.greedy.end_turn(view);
            }
            if big_gin_legal(view) {
                return TurnEnd::BigGin;
            }
            let best = best_discard_except(view.hand, view.taken_from_pile);
            let cap = self.knock_at.unwrap_or(view.knock_limit).min(view.knock_limit);
            let must = matches!(view.phase, Phase::EndTurn { must_knock: true, .. });
            if best.deadwood <= cap || must {
                return TurnEnd::Knock(best.card);
            }
            let gone = self.gone(view);
            self.turns -= 1;
            TurnEnd::Discard(self.rules.discard(view.hand, view.taken_from_pile, best, gone).card)
        }
    }

    /// Every preset, and eaai with the last-discard rule.
    fn presets_and_last_discard() -> Vec<Rules> {
        let mut variants: Vec<Rules> = crate::rules::PRESETS
            .iter()
            .map(|name| Rules::preset(name).unwrap())
            .collect();
        let mut last = Rules::eaai();
        last.last_discard_action = true;
        variants.push(last);
        variants
    }

    /// With this seat frozen, every legal action in sampled worlds of real
    /// states under every preset and several knock thresholds ends as the
    /// engine ends it with [`FrozenPlayer`] in that seat and greedy in the
    /// other, with the frozen rules for every turn, for one or for two
    /// ([`GreedyRollout::frozen_for`]; for none it ends as greedy's); and
    /// the frozen rules often end a hand otherwise than greedy.
    #[test]
    fn frozen_rollouts_end_as_the_engine_ends_them() {
        // One memo for all the rollouts, as a player keeps one.
        let memo = DiscardMemo::new();
        let variants = presets_and_last_discard();
        let (mut compared, mut differ) = (0, [0; 3]);
        for_each_rollout(&variants, 31, 12, 2, |view, knowledge, world, action, knock_at| {
            let frozen = Frozen::new(knowledge, &Tracker::default());
            let turns = [u32::MAX, 1, 2][compared % 3];
            let seat = view.seat;
            let mut h = Hand::from_world(view, world.opponent, &world.stock).unwrap();
            h.apply(seat, action).unwrap();
            let expected = match h.outcome() {
                Some(outcome) => *outcome,
                None => {
                    let mut own = FrozenPlayer {
                        rules: &frozen,
                        from: view.events.len(),
                        knock_at: knock_at[seat.index()],
                        turns,
                        greedy: Greedy::new(knock_at[seat.index()], Vec::new()),
                    };
                    let mut other = Greedy::new(knock_at[seat.other().index()], Vec::new());
                    let mut table: [&mut dyn Strategy; 2] = match seat {
                        Seat::A => [&mut own, &mut other],
                        Seat::B => [&mut other, &mut own],
                    };
                    play_hand(&mut h, &mut table).unwrap()
                }
            };
            let rollout = GreedyRollout::new(view, world.opponent, &world.stock, &memo)
                .with_frozen(seat, &frozen)
                .frozen_for(turns);
            ends_as(rollout, action, knock_at, &expected, view, world);
            let greedy = engine(view, world, action, knock_at);
            differ[compared % 3] += usize::from(greedy.winner() != expected.winner());
            // No frozen turns, in either order of the builders: greedy.
            let none = GreedyRollout::new(view, world.opponent, &world.stock, &memo);
            let (a, b) = (none.clone(), none);
            ends_as(a.frozen_for(0).with_frozen(seat, &frozen), action, knock_at, &greedy, view, world);
            ends_as(b.with_frozen(seat, &frozen).frozen_for(0), action, knock_at, &greedy, view, world);
            compared += 1;
        });
        // Fewer frozen turns differ from greedy less often, but still do.
        let each = compared / 3;
        assert!(
            each > 3_000 && differ[0] > each / 20 && differ[2] > each / 50,
            "{compared} compared, {differ:?} differ"
        );
        assert!(differ[0] > differ[2] && differ[2] > differ[1], "{differ:?}");
    }

    /// Greedy through the engine, passing the knocks short of gin that
    /// `sparing` does not take (discarding the card it would have knocked
    /// with), as the rollout plays a seat knocking at a share.
    struct SparingPlayer {
        sparing: Sparing,
        greedy: Greedy,
    }

    impl Strategy for SparingPlayer {
        fn name(&self) -> &str {
            "sparing"
        }

        fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
            self.greedy.take_upcard(view)
        }

        fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
            self.greedy.draw(view)
        }

        fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
            let must = matches!(view.phase, Phase::EndTurn { must_knock: true, .. });
            match self.greedy.end_turn(view) {
                TurnEnd::Knock(card)
                    if !must
                        && meld::deadwood(view.hand.without(card)) > 0
                        && !self.sparing.knocks(view.turn) =>
                {
                    TurnEnd::Discard(card)
                }
                end => end,
            }
        }
    }

    /// With the opponent knocking at a share of its chances, every legal
    /// action in sampled worlds of real states under every preset ends as
    /// the engine ends it with [`SparingPlayer`] in that seat; a share of
    /// 1 ends as greedy, a share of 0 as greedy knocking only with gin; and
    /// a share between often ends otherwise than both.
    #[test]
    fn rollouts_knocking_at_a_share_end_as_the_engine_ends_them() {
        // One memo for all the rollouts, as a player keeps one.
        let memo = DiscardMemo::new();
        let variants = presets_and_last_discard();
        let (mut compared, mut differ) = (0u64, 0u64);
        for_each_rollout(&variants, 47, 12, 2, |view, _, world, action, knock_at| {
            let other = view.seat.other();
            let key = crate::seed::mix(world.opponent.bits() ^ compared);
            let base = GreedyRollout::new(view, world.opponent, &world.stock, &memo);
            let greedy = engine(view, world, action, knock_at);
            let always = base.clone().knocking_at_share(other, 1.0, key);
            ends_as(always, action, knock_at, &greedy, view, world);
            let mut gin_only = knock_at;
            gin_only[other.index()] = Some(0);
            let gin = engine(view, world, action, gin_only);
            let never = base.clone().knocking_at_share(other, 0.0, key);
            ends_as(never, action, knock_at, &gin, view, world);

            let share = 0.3;
            let rollout = base.knocking_at_share(other, share, key);
            let sparing = rollout.sparing.unwrap();
            let mut h = Hand::from_world(view, world.opponent, &world.stock).unwrap();
            h.apply(view.seat, action).unwrap();
            let expected = match h.outcome() {
                Some(outcome) => *outcome,
                None => {
                    let mut own = Greedy::new(knock_at[view.seat.index()], Vec::new());
                    let mut opp = SparingPlayer {
                        sparing,
                        greedy: Greedy::new(knock_at[other.index()], Vec::new()),
                    };
                    let mut table: [&mut dyn Strategy; 2] = match view.seat {
                        Seat::A => [&mut own, &mut opp],
                        Seat::B => [&mut opp, &mut own],
                    };
                    play_hand(&mut h, &mut table).unwrap()
                }
            };
            ends_as(rollout, action, knock_at, &expected, view, world);
            differ += u64::from(
                expected.winner() != greedy.winner() && expected.winner() != gin.winner(),
            );
            compared += 1;
        });
        assert!(compared > 3_000 && differ > compared / 100, "{differ} of {compared} differ");
    }

    /// A share's seat takes about that share of its chances, over keys and
    /// turns.
    #[test]
    fn a_share_takes_that_share_of_the_chances() {
        // One memo for all the rollouts, as a player keeps one.
        let memo = DiscardMemo::new();
        let base_rules = Rules::eaai();
        let deck = Deck::shuffled(&mut Pcg64Mcg::seed_from_u64(3));
        let hand = Hand::new(&base_rules, &deck, Seat::A, [0, 0]).unwrap();
        let view = hand.view(Seat::A);
        for share in [0.1, 0.3, 0.75] {
            let mut taken = 0;
            for key in 0..200u64 {
                let sparing = GreedyRollout::new(&view, CardSet::EMPTY, &[], &memo)
                    .knocking_at_share(Seat::B, share, crate::seed::mix(key))
                    .sparing
                    .unwrap();
                taken += (0..100).filter(|&t| sparing.knocks(t)).count();
            }
            let got = taken as f64 / 20_000.0;
            assert!((got - share).abs() < 0.015, "{share}: {got}");
        }
    }
}
