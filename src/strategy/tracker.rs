//! `tracker`: greedy deadwood play plus what [`Knowledge`] says about the
//! opponent and about the cards still live.
//!
//! - **Draw by live outs.** It takes the upcard or pile top when
//!   `gain + draw_outs × Δouts > 0`: `gain` is the deadwood saved after the
//!   best discard (greedy takes exactly when it is positive) and `Δouts` the
//!   change in [`Knowledge::live_outs`], the unseen cards that would join a
//!   meld of the hand weighted by the chance they are still in the stock.
//!   So it also takes a card that keeps the deadwood but opens partial
//!   melds, and passes one that saves a point but kills several outs. A card
//!   whose best discard is itself is never taken.
//! - **Discard.** Among the legal discards leaving at most `slack` more
//!   deadwood than the best one, it minimises
//!   `deadwood left + safety × meld_chance(card) − outs × live_outs(kept)`:
//!   [`Knowledge::meld_chance`] is the chance the opponent holds two cards
//!   that meld with the discard (from the pile takes, discards and passes it
//!   made). Exact ties keep the best discard (greedy's, the higher card).
//! - **Knock policy (rules-aware).** Gin is always taken. Otherwise, with
//!   deadwood `d` at most the cap (`knock_at`, default the knock limit) it
//!   knocks when `opponent_deadwood − d ≥ hold × undercut_bonus + margin`,
//!   or when the stock holds at most `late_stock` cards. The right side is
//!   the value of holding on: a hand held at low deadwood undercuts the
//!   opponent's knock and earns the undercut bonus, so the bar rises with
//!   `view.rules.undercut_bonus`. With the defaults (`hold` 3, `margin` −30)
//!   the bar is 0 at an undercut bonus of 10 (standard: knock as soon as the
//!   estimate says the opponent is behind, which is nearly always) and 45 at
//!   25 (hoyle, oklahoma, eaai: in practice play for gin). The estimate is
//!   [`Knowledge::opponent_deadwood`].
//!
//! The [`Knowledge`] is kept per hand in an [`Evidence`] that reads only the
//! events new since the last decision (`start_hand` resets it; a view from
//! another hand restarts it), so it is the same pure function of the view as
//! [`Knowledge::from_view`]; a test checks that the tracker kept through a
//! hand decides as a fresh one at every decision. The best discard of the
//! draw decision and the deadwood of the cards kept at the last turn end are
//! reused, as in greedy. The knowledge is only computed when a decision
//! reads it: a draw the deadwood and joiner counts settle, or a turn end
//! where no card but the best passes the deadwood filter and no knock test
//! is due, skips it.
//!
//! Defaults (`safety` 4, `slack` 3, `outs` 1.5, `draw_outs` 3, `hold` 3,
//! `margin` −30, `late_stock` 0) were picked against the default greedy
//! profile on seed 11 under standard (discard and draw weights) and under
//! standard, eaai and oklahoma (the knock bar), then confirmed on seeds 1
//! and 2 (results in `strategies/tracker.toml`).
//!
//! Example: with `[AC 2C 3C] [4H 5H 6H] JS 9D 5C KC` and the QS up, greedy
//! passes (taking it and throwing the KC leaves the same 34 points), the
//! tracker takes it: JS QS has live outs TS and KS, the lone KC none.

use crate::cards::{Card, CardSet};
use crate::engine::{
    DrawSource, Phase, PlayerView, Strategy, TurnEnd, big_gin_legal, legal_discards, turn_end,
};
use crate::meld;

use super::knowledge::{Evidence, joiners};
use super::profile::{Given, KeyError, Keys, Kind, ParamError, Params, keys, write_inline};
use super::{Knowledge, best_discard_except, draw_when};

/// The table's row of `tracker`: its profile is the player itself.
pub(super) const KIND: Kind = Kind::of::<Tracker>("tracker", None);

keys! {
    /// The discard-tracking strategy.
    #[derive(Clone, PartialEq)]
    pub struct Tracker {
        /// Knock at or below this deadwood (capped by the knock limit); `None`: the limit.
        pub knock_at: Option<u8> => Integer "an integer from 0 to 10",
        /// Deadwood points charged per unit of [`Knowledge::meld_chance`] of a discard.
        pub safety: f32 => Number "a number from 0 to 20",
        /// How much more deadwood than the best discard a safer discard may leave.
        pub slack: u8 => Integer "an integer from 0 to 20",
        /// Deadwood points credited per live out kept ([`Knowledge::live_outs`]).
        pub outs: f32 => Number "a number from 0 to 20",
        /// Deadwood points credited per live out gained by taking a card.
        pub draw_outs: f32 => Number "a number from 0 to 20",
        /// A knock needs the estimated opponent deadwood to exceed the own by
        /// `hold × undercut bonus + margin`.
        pub hold: f32 => Number "a number from 0 to 5",
        /// See [`Tracker::hold`].
        pub margin: f32 => Number "a number from -50 to 50",
        /// Knock whenever allowed once the stock holds at most this many cards.
        pub late_stock: u32 => Integer "an integer from 0 to 31",
    }
    extra {
        /// The opponent's actions read so far this hand (boxed: it is large, and
        /// profiles hold a `Tracker`).
        evidence: Box<Evidence>,
        /// The last 11-card hand solved and its best discard.
        last: Option<(CardSet, meld::Discard)>,
        /// The 10 cards kept at the last turn end and their deadwood.
        kept: Option<(CardSet, u8)>,
    }
}

/// The parameters only: what the player has read and solved this hand
/// (`evidence`, `last`, `kept`) is not part of a profile
/// (tests/data/profiles.txt prints this).
impl std::fmt::Debug for Tracker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracker")
            .field("knock_at", &self.knock_at)
            .field("safety", &self.safety)
            .field("slack", &self.slack)
            .field("outs", &self.outs)
            .field("draw_outs", &self.draw_outs)
            .field("hold", &self.hold)
            .field("margin", &self.margin)
            .field("late_stock", &self.late_stock)
            .finish()
    }
}

impl Keys for Tracker {
    const PARAMS: &'static [crate::strategy::Param] = Tracker::KEY_LIST;
    type Params = Tracker;

    fn resolve(self, _given: &Given) -> Result<Tracker, KeyError> {
        let ranges = [
            ("knock_at", f32::from(self.knock_at.unwrap_or(0)), 10.0),
            ("safety", self.safety, 20.0),
            ("slack", f32::from(self.slack), 20.0),
            ("outs", self.outs, 20.0),
            ("draw_outs", self.draw_outs, 20.0),
            ("hold", self.hold, 5.0),
            ("margin", self.margin.abs(), 50.0),
            ("late_stock", self.late_stock as f32, 31.0),
        ];
        match ranges.iter().find(|(_, x, most)| !(0.0..=*most).contains(x)) {
            Some(&(key, _, _)) => Err((key, ParamError::Invalid)),
            None => Ok(self),
        }
    }
}

impl Default for Tracker {
    fn default() -> Tracker {
        Tracker {
            knock_at: None,
            safety: 4.0,
            slack: 3,
            outs: 1.5,
            draw_outs: 3.0,
            hold: 3.0,
            margin: -30.0,
            late_stock: 0,
            evidence: Box::default(),
            last: None,
            kept: None,
        }
    }
}

impl Params for Tracker {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn build(&self, _seed: u64) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}

/// `tracker` and the parameters that differ from the defaults.
impl std::fmt::Display for Tracker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = Tracker::default();
        let mut items = Vec::new();
        if let Some(k) = self.knock_at {
            items.push(format!("knock_at={k}"));
        }
        let mut differs = |name: &str, value: f32, default: f32| {
            if value != default {
                items.push(format!("{name}={value}"));
            }
        };
        differs("safety", self.safety, d.safety);
        differs("slack", f32::from(self.slack), f32::from(d.slack));
        differs("outs", self.outs, d.outs);
        differs("draw_outs", self.draw_outs, d.draw_outs);
        differs("hold", self.hold, d.hold);
        differs("margin", self.margin, d.margin);
        if self.late_stock != d.late_stock {
            items.push(format!("late_stock={}", self.late_stock));
        }
        write_inline(f, KIND.name, &items)
    }
}

impl Tracker {
    /// The knowledge at this decision (reading only the new events).
    fn knowledge(&mut self, view: &PlayerView<'_>) -> Knowledge {
        self.evidence.catch_up(view);
        self.evidence.knowledge(view)
    }

    /// The best discard of the 11 cards `with`, remembered for the turn end.
    fn solve(&mut self, with: CardSet) -> meld::Discard {
        let best = meld::best_discard(with).expect("11 cards");
        self.last = Some((with, best));
        best
    }

    /// Whether taking `card` helps: the deadwood it saves after the best
    /// discard plus `draw_outs` per live out gained is positive.
    fn wants(&mut self, view: &PlayerView<'_>, card: Card) -> bool {
        let with = view.hand.with(card);
        let after = self.solve(with);
        if after.card == card {
            return false;
        }
        let now = match self.kept {
            Some((hand, deadwood)) if hand == view.hand => deadwood,
            _ => meld::deadwood(view.hand),
        };
        let gain = f32::from(now) - f32::from(after.deadwood);
        if self.draw_outs == 0.0 {
            return gain > 0.0;
        }
        // Each live out weighs between 0 and 1, so the outs gained and lost
        // bound the change; most draws are decided without the knowledge.
        let kept = with.without(after.card);
        let (before, later) = (joiners(view.hand), joiners(kept));
        let gained = (later - before - view.hand).len() as f32;
        let lost = (before - later - kept).len() as f32;
        if gain - self.draw_outs * lost > 1e-4 {
            return true;
        }
        if gain + self.draw_outs * gained <= 1e-4 {
            return false;
        }
        let k = self.knowledge(view);
        let outs = k.live_outs(kept) - k.live_outs(view.hand);
        gain + self.draw_outs * outs > 1e-4
    }

    /// The knowledge in `known`, computed on first use: a decision that
    /// does not read it does not pay for it.
    fn know<'k>(
        &mut self,
        view: &PlayerView<'_>,
        known: &'k mut Option<Knowledge>,
    ) -> &'k Knowledge {
        if known.is_none() {
            *known = Some(self.knowledge(view));
        }
        known.as_ref().expect("just computed")
    }

    /// Whether to knock with `deadwood` (at most the knock cap).
    fn knocks(
        &mut self,
        view: &PlayerView<'_>,
        known: &mut Option<Knowledge>,
        deadwood: u8,
    ) -> bool {
        if deadwood == 0 || view.stock_size <= self.late_stock {
            return true;
        }
        let need = self.hold * view.rules.undercut_bonus as f32 + self.margin;
        // The estimate is never negative.
        -f32::from(deadwood) >= need
            || self
                .know(view, known)
                .opponent_deadwood_reaches(f32::from(deadwood), need)
    }

    /// The discard: least deadwood plus the safety charge minus the outs
    /// credit, within `slack` of the best deadwood.
    ///
    /// The deadwood filter runs before the charge, and the knowledge is only
    /// computed once a card other than the best passes it (a card leaves at
    /// least the best deadwood, so a charge can only pick a card that does).
    fn discard(
        &mut self,
        view: &PlayerView<'_>,
        known: &mut Option<Knowledge>,
        best: meld::Discard,
    ) -> Card {
        let hand = view.hand.bits();
        let limit = best.deadwood.saturating_add(self.slack);
        // Removing a card lowers the deadwood by at most its value, so cards
        // worth less than `all − limit` leave more than the limit.
        // A card in no meld of the hand leaves exactly the hand's deadwood
        // minus its value (see `meld::meldable`): no solve needed, for the
        // best card (usually) nor for the candidates below.
        let meldable = meld::meldable(view.hand).bits();
        let all = if meldable >> best.card.bit() & 1 == 0 {
            best.deadwood + best.card.value()
        } else {
            meld::deadwood(view.hand)
        };
        let least = all.saturating_sub(limit);
        let mut candidates =
            (legal_discards(view).without(best.card) & worth_at_least(least)).bits();
        // Candidates in melds are solved one by one, or all in one batched
        // call when there are more than a batch costs (about four solves).
        let solved = CardSet::from_bits_truncate(candidates & meldable);
        let batch = (solved.len() >= BATCH_FROM).then(|| meld::deadwood_without_each(view.hand));
        // (card bit, extra, deadwood left); `None` until the knowledge is read.
        let mut choice: Option<(u32, f32, f32)> = None;
        // Highest card first, as greedy's tie-break.
        while candidates != 0 {
            let bit = 63 - candidates.leading_zeros();
            candidates &= !(1 << bit);
            let left = if meldable >> bit & 1 == 0 {
                all - bit_value(bit)
            } else if let Some(batch) = &batch {
                batch.get_bit(bit)
            } else {
                meld::deadwood(CardSet::from_bits_truncate(hand & !(1 << bit)))
            };
            if left > limit {
                continue;
            }
            let k = self.know(view, known);
            let extra = |bit: u32| {
                let kept = CardSet::from_bits_truncate(hand & !(1 << bit));
                self.safety * k.meld_chance_of_bit(bit) - self.outs * k.live_outs(kept)
            };
            let (_, e0, l0) = *choice.get_or_insert_with(|| {
                let b = best.card.bit();
                (b, extra(b), f32::from(best.deadwood))
            });
            let e = extra(bit);
            if f32::from(left) + e < l0 + e0 - 1e-4 {
                choice = Some((bit, e, f32::from(left)));
            }
        }
        choice.map_or(best.card, |(bit, _, _)| {
            Card::from_bit(bit).expect("a card of the hand")
        })
    }
}

/// From how many candidate discards in melds [`Tracker`]'s discard solves
/// them in one batched call ([`meld::deadwood_without_each`], about four
/// single solves' cost) instead of one at a time.
const BATCH_FROM: u32 = 4;

/// The deadwood value of the card at `bit` of a [`CardSet`].
pub(crate) fn bit_value(bit: u32) -> u8 {
    (bit % 16 + 1).min(10) as u8
}

/// The cards whose deadwood value is at least `least`.
pub(crate) fn worth_at_least(least: u8) -> CardSet {
    // Rank r is worth min(r + 1, 10).
    let ranks: u64 = match least {
        0 | 1 => 0x1FFF,
        2..=10 => 0x1FFF & !((1 << (least - 1)) - 1),
        _ => 0,
    };
    CardSet::from_bits_truncate(ranks * 0x0001_0001_0001_0001)
}

impl Strategy for Tracker {
    fn name(&self) -> &str {
        "tracker"
    }

    /// Its parameters stay; what it learnt is dropped (as every hand
    /// starts).
    fn reset(&mut self, _seed: u64) -> bool {
        self.evidence.reset();
        self.last = None;
        self.kept = None;
        true
    }

    fn start_hand(&mut self, _view: &PlayerView<'_>) {
        self.reset(0);
    }

    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        view.upcard.is_some_and(|card| self.wants(view, card))
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        draw_when(view, |top| self.wants(view, top))
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        if big_gin_legal(view) {
            return TurnEnd::BigGin;
        }
        let best = match self.last.take() {
            Some((hand, best)) if hand == view.hand && Some(best.card) != view.taken_from_pile => {
                best
            }
            _ => best_discard_except(view.hand, view.taken_from_pile),
        };
        // Knocking uses the best discard for the count, not the safest one.
        if let Phase::EndTurn {
            must_knock: true, ..
        } = view.phase
        {
            return TurnEnd::Knock(best.card);
        }
        let mut known = None;
        let cap = self
            .knock_at
            .unwrap_or(view.knock_limit)
            .min(view.knock_limit);
        if best.deadwood <= cap && self.knocks(view, &mut known, best.deadwood) {
            return turn_end(best.card, true);
        }
        let card = self.discard(view, &mut known, best);
        if card == best.card {
            self.kept = Some((view.hand.without(card), best.deadwood));
        }
        turn_end(card, false)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Deck, Hand, Seat};
    use crate::rules::Rules;

    use crate::strategy::test_deck as deck;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// Plays `hands` random hands of `tracker` (seat A) against greedy,
    /// calling `check` with the hand before every decision of seat A.
    fn play(rules: &Rules, hands: u64, mut check: impl FnMut(&Hand<'_>, &mut Tracker)) {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        for n in 0..hands {
            let deck = Deck::shuffled(&mut rng);
            let dealer = if n % 2 == 0 { Seat::A } else { Seat::B };
            let mut hand = Hand::new(rules, &deck, dealer, [0, 0]).unwrap();
            let mut tracker = Tracker::default();
            let mut greedy = crate::strategy::Greedy::default();
            tracker.start_hand(&hand.view(Seat::A));
            while let Some(seat) = hand.phase().seat() {
                if seat == Seat::A {
                    check(&hand, &mut tracker);
                }
                let view = hand.view(seat);
                let player: &mut dyn Strategy = match seat {
                    Seat::A => &mut tracker,
                    Seat::B => &mut greedy,
                };
                let action = crate::engine::ask(player, &view);
                hand.apply(seat, action).unwrap();
            }
        }
    }

    fn decide(tracker: &mut Tracker, view: &PlayerView<'_>) -> String {
        match view.phase {
            Phase::UpcardOffer { .. } => format!("{:?}", tracker.take_upcard(view)),
            Phase::Draw { .. } | Phase::LastChance { .. } => format!("{:?}", tracker.draw(view)),
            _ => format!("{:?}", tracker.end_turn(view)),
        }
    }

    /// The tracker kept through a hand (incremental evidence, cached
    /// solves) decides as a fresh one that reads the whole view.
    #[test]
    fn incremental_decisions_equal_fresh_ones() {
        for rules in [
            Rules::standard(),
            Rules::eaai(),
            Rules::preset("oklahoma").unwrap(),
        ] {
            let mut decisions = 0;
            play(&rules, 150, |hand, tracker| {
                let view = hand.view(Seat::A);
                let fresh = decide(&mut Tracker::default(), &view);
                let mut copy = tracker.clone();
                assert_eq!(decide(&mut copy, &view), fresh, "{view:?}");
                decisions += 1;
            });
            assert!(decisions > 1000, "{decisions}");
        }
    }

    /// The discard as first written: the charge of every candidate before
    /// its deadwood, with the knowledge always computed.
    fn plain_discard(
        t: &Tracker,
        view: &PlayerView<'_>,
        k: &Knowledge,
        best: meld::Discard,
    ) -> Card {
        let extra = |card: Card| {
            t.safety * k.meld_chance(card) - t.outs * k.live_outs(view.hand.without(card))
        };
        let mut choice = (best.card, extra(best.card), f32::from(best.deadwood));
        let all = meld::deadwood(view.hand);
        let least = all.saturating_sub(best.deadwood.saturating_add(t.slack));
        for card in legal_discards(view).iter().rev() {
            if card == best.card || card.value() < least {
                continue;
            }
            let e = extra(card);
            if f32::from(best.deadwood) + e >= choice.2 + choice.1 - 1e-4 {
                continue;
            }
            let left = meld::deadwood(view.hand.without(card));
            if left > best.deadwood.saturating_add(t.slack) {
                continue;
            }
            if f32::from(left) + e < choice.2 + choice.1 - 1e-4 {
                choice = (card, e, f32::from(left));
            }
        }
        choice.0
    }

    /// The discard with the deadwood filter first and the knowledge read
    /// lazily picks the card the plain loop picks, at every turn end of
    /// played hands, for the default and for other weights.
    #[test]
    fn discard_equals_the_plain_loop() {
        let weights = [
            Tracker::default(),
            Tracker {
                slack: 0,
                ..Tracker::default()
            },
            Tracker {
                safety: 10.0,
                outs: 0.0,
                slack: 6,
                ..Tracker::default()
            },
            Tracker {
                safety: 0.0,
                outs: 4.0,
                slack: 10,
                ..Tracker::default()
            },
        ];
        for rules in [Rules::standard(), Rules::eaai()] {
            let mut checked = 0;
            play(&rules, 150, |hand, _| {
                let view = hand.view(Seat::A);
                if !matches!(view.phase, Phase::EndTurn { .. }) {
                    return;
                }
                let best = best_discard_except(view.hand, view.taken_from_pile);
                let k = Knowledge::from_view(&view);
                for t in &weights {
                    let plain = plain_discard(t, &view, &k, best);
                    assert_eq!(t.clone().discard(&view, &mut None, best), plain, "{view:?}");
                    checked += 1;
                }
            });
            assert!(checked > 3000, "{checked}");
        }
    }

    #[test]
    fn knock_policy_depends_on_the_undercut_bonus() {
        // A: 4 deadwood after throwing the KD, on the first turn.
        let a = "AS 2S 3S 5H 6H 7H 9C 9D 9H 4C";
        let d = deck(a, "7C 8C TD JD QD QC QH QS 5C 2D", "KD", "JS 4S");
        let mut ends = Vec::new();
        for rules in [Rules::standard(), Rules::eaai()] {
            let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
            hand.apply(Seat::A, Action::TakeUpcard(true)).unwrap();
            let mut tracker = Tracker::default();
            ends.push(tracker.end_turn(&hand.view(Seat::A)));
        }
        // Undercut bonus 10: knock at once; 25: hold for gin.
        assert_eq!(ends[0], TurnEnd::Knock(card("4C")));
        assert_eq!(ends[1], TurnEnd::Discard(card("4C")));
        // Knocking everywhere when the bar is low enough.
        let mut eager = Tracker {
            margin: -50.0,
            hold: 0.0,
            ..Tracker::default()
        };
        let rules = Rules::eaai();
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(true)).unwrap();
        assert_eq!(
            eager.end_turn(&hand.view(Seat::A)),
            TurnEnd::Knock(card("4C"))
        );
        // knock_at caps it, except for gin.
        let mut capped = Tracker {
            knock_at: Some(3),
            ..eager
        };
        assert_eq!(
            capped.end_turn(&hand.view(Seat::A)),
            TurnEnd::Discard(card("4C"))
        );
        let mut late = Tracker {
            late_stock: 31,
            ..Tracker::default()
        };
        assert_eq!(
            late.end_turn(&hand.view(Seat::A)),
            TurnEnd::Knock(card("4C"))
        );
    }

    #[test]
    fn discard_avoids_cards_the_opponent_wants() {
        // A throws the 9S and B takes it: B likely holds spades near the 9
        // and nines. A then draws the 4S and holds TS and TD, equal for
        // deadwood; greedy's tie-break throws the spade, the safety charge
        // the diamond. (Outs off: keeping TD next to 8D would also count.)
        let rules = Rules::standard();
        let a = "AC 2C 3C 4H 5H 6H TS TD 8D 7D";
        let b = "7C 8C 9C JD QD QC QH QS 5C 2D";
        let d = deck(a, b, "3D", "9S 4S 7S");
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
            .unwrap();
        hand.apply(Seat::A, Action::EndTurn(TurnEnd::Discard(card("9S"))))
            .unwrap();
        hand.apply(Seat::B, Action::Draw(DrawSource::Pile)).unwrap();
        hand.apply(Seat::B, Action::EndTurn(TurnEnd::Discard(card("2D"))))
            .unwrap();
        hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
            .unwrap();
        let view = hand.view(Seat::A);
        let k = Knowledge::from_view(&view);
        assert!(k.meld_chance(card("TS")) > k.meld_chance(card("TD")));
        let best = best_discard_except(view.hand, None);
        assert_eq!(best.card, card("TS"), "greedy's tie-break: the spade");
        let safe = Tracker {
            outs: 0.0,
            ..Tracker::default()
        };
        let plain = Tracker {
            safety: 0.0,
            ..safe.clone()
        };
        assert_eq!(
            safe.clone().discard(&view, &mut Some(k.clone()), best),
            card("TD")
        );
        assert_eq!(
            plain.clone().discard(&view, &mut Some(k.clone()), best),
            card("TS")
        );
        // The outs credit alone also keeps the TD (its 9D out is live).
        let outs = Tracker {
            safety: 0.0,
            ..Tracker::default()
        };
        assert_eq!(
            outs.clone().discard(&view, &mut Some(k.clone()), best),
            card("TS")
        );
        // No slack: only discards as good as the best one count, and the
        // tie TS/TD still goes by safety.
        let tight = Tracker { slack: 0, ..safe };
        assert_eq!(
            tight.clone().discard(&view, &mut Some(k.clone()), best),
            card("TD")
        );
    }

    #[test]
    fn draw_counts_live_outs() {
        let rules = Rules::standard();
        // Deadwood JS 9D 5C KC (34). The QS up for the KC leaves 34 too, but
        // JS QS then has live outs TS and KS, where the lone KC had none.
        let a = "AC 2C 3C 4H 5H 6H JS 9D 5C KC";
        let d = deck(a, "7C 8C 9C JD QD QC QH 8S TC 2D", "QS", "JH 4S");
        let hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let view = hand.view(Seat::A);
        let after = meld::best_discard(view.hand.with(card("QS"))).unwrap();
        assert_eq!((after.card, after.deadwood), (card("KC"), 34));
        assert!(Tracker::default().take_upcard(&view));
        let mut plain = Tracker {
            draw_outs: 0.0,
            ..Tracker::default()
        };
        assert!(!plain.take_upcard(&view), "greedy's rule: no gain");
        // A card that lowers the deadwood is taken either way: the 5D (the
        // KC goes).
        let d = deck(a, "7C 8C 9C JD QD QC QH 8S TC 2D", "5D", "JH 4S");
        let hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        assert!(Tracker::default().take_upcard(&hand.view(Seat::A)));
        assert!(plain.take_upcard(&hand.view(Seat::A)));
    }

    #[test]
    fn profile_parameters() {
        use crate::strategy::Profile;
        let text = "tracker:knock_at=8,safety=1,slack=2,outs=2,draw_outs=1,hold=0.5,margin=-5,late_stock=4";
        let profile: Profile = text.parse().unwrap();
        assert_eq!(profile.to_string(), text);
        let t = profile.params::<Tracker>().expect("a tracker profile");
        assert_eq!((t.outs, t.draw_outs, t.hold), (2.0, 1.0, 0.5));
        assert_eq!("tracker".parse::<Profile>().unwrap().to_string(), "tracker");
        assert!("tracker:hold=6".parse::<Profile>().is_err());
        assert!("tracker:draw_outs=-1".parse::<Profile>().is_err());
    }

    /// With its model switched off (no safety charge, no outs credits, no
    /// slack, a knock bar always cleared) the tracker is greedy with the
    /// same knock cap: every action of every hand is the same. This checks
    /// the bookkeeping the model sits on (cached solves, the draw
    /// pre-checks, the discard filter) against the plain player.
    #[test]
    fn without_its_model_the_tracker_is_greedy() {
        use crate::strategy::Greedy;
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(13);
        let mut events = 0;
        for name in ["standard", "hoyle", "oklahoma", "eaai"] {
            let rules = Rules::preset(name).unwrap();
            for (n, knock_at) in [None, Some(0), Some(4), Some(9)].into_iter().enumerate() {
                let off = Tracker {
                    knock_at,
                    safety: 0.0,
                    slack: 0,
                    outs: 0.0,
                    draw_outs: 0.0,
                    hold: 0.0,
                    margin: -1000.0,
                    ..Tracker::default()
                };
                for h in 0..40 {
                    let deck = Deck::shuffled(&mut rng);
                    let dealer = Seat::ALL[(n + h) % 2];
                    // The events name every action (a stock draw is one
                    // action), so equal events are equal play.
                    let mut played = Vec::new();
                    for mut seat_a in [
                        Box::new(off.clone()) as Box<dyn Strategy>,
                        Box::new(Greedy::new(knock_at, Vec::new())),
                    ] {
                        let mut greedy = Greedy::default();
                        let mut hand = Hand::new(&rules, &deck, dealer, [0, 0]).unwrap();
                        let outcome = crate::engine::play_hand(
                            &mut hand,
                            &mut [seat_a.as_mut(), &mut greedy],
                        )
                        .unwrap();
                        played.push((hand.view(Seat::A).events.to_vec(), outcome));
                    }
                    assert_eq!(played[0], played[1], "{name} {knock_at:?} hand {h}");
                    events += played[0].0.len();
                }
            }
        }
        assert!(events > 10_000, "{events}");
    }

    /// The same public history with different hidden cards gives the same
    /// decisions: the tracker reads only its view.
    #[test]
    fn decisions_ignore_hidden_cards() {
        let rules = Rules::standard();
        let a = "AS 2S 3S 2H 3H 4H KC KD 9H 5D";
        let one = deck(a, "7C 8C 9C TD JD QD QC QH QS 5C", "2C", "JS 4S 5S 6S");
        let two = deck(a, "4S 5S 6S TD JD QD QC QH QS 5C", "2C", "JS 7C 8C 9C");
        let mut decisions = Vec::new();
        for d in [&one, &two] {
            let mut hand = Hand::new(&rules, d, Seat::B, [0, 0]).unwrap();
            let mut tracker = Tracker::default();
            let mut seen = Vec::new();
            seen.push(format!("{:?}", tracker.take_upcard(&hand.view(Seat::A))));
            hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
                .unwrap();
            let end = tracker.end_turn(&hand.view(Seat::A));
            seen.push(format!("{end:?}"));
            decisions.push(seen);
        }
        assert_eq!(decisions[0], decisions[1]);
    }
}
