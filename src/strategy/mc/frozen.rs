//! The tracker's draws and discards with the knowledge of the decision
//! frozen through a rollout (`own_rollout = frozen`).
//!
//! [`Tracker`](crate::strategy::Tracker) as this player's own future play
//! in rollouts made `mc` stronger at equal worlds, but through the engine a
//! rollout then costs several times a greedy one: every turn builds views,
//! logs events and reads them into the tracker's [`Knowledge`]. Within one
//! rollout that knowledge hardly moves: the opponent's hand is already
//! sampled, and what the tracker learns later in the hand changes its
//! estimates little. [`Frozen`] reads the knowledge once, at the decision,
//! into two tables by card (the safety charge of throwing the card, the
//! weight of the card as a live out), and [`GreedyRollout`](super::GreedyRollout)
//! plays this seat with the tracker's two rules on them:
//!
//! - **draw** the upcard or pile top when `gain + draw_outs × Δouts > 0`
//!   (never a card that would be its own best discard);
//! - **discard**, among the legal cards leaving at most `slack` more
//!   deadwood than the best, the one minimising
//!   `left + safety × meld_chance − outs × live_outs(kept)`, ties to the
//!   best discard.
//!
//! The only thing that changes during the rollout is which cards are still
//! live: a card thrown to the pile by either seat, or drawn by this one, is
//! no longer an out. The
//! knock is at a threshold ([`Frozen::knock_at`] unless `own_knock_at` is
//! given): the tracker's knock bar with its estimate of the opponent's
//! deadwood taken at the decision.
//!
//! The opponent's seat may play by the same rules (`opp_rollout = frozen`):
//! a strong opponent keeps the cards that meld with what it holds and the
//! outs it still has, and does not throw what melds with ours, where greedy
//! does both. Its tables are its own knowledge at the decision, read from
//! the view the engine would show it in the world: its sampled hand, the
//! cards of ours it saw us take from the pile and still hold, and our
//! discards and passes as evidence ([`OpponentTables`]). The evidence is
//! read once a decision; only its scaling over the world's unseen cards
//! and the two tables are built again in every world. Its knocks stay with
//! the opponent model.

use crate::cards::{Card, CardSet};
use crate::engine::{Event, Phase, PlayerView};
use crate::meld;
use crate::rules::Rules;
use crate::strategy::Tracker;
use crate::strategy::tracker::{bit_value, worth_at_least};
use crate::strategy::knowledge::{Evidence, Knowledge, joiners};

/// The tracker's rules over the knowledge of one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Frozen {
    /// `safety × meld_chance` of the card at each bit.
    charge: [f32; 64],
    /// The chance the card at each bit is still to come (0 unless unseen).
    live: [f32; 64],
    /// Deadwood points per live out kept (the tracker's `outs`).
    outs: f32,
    /// Deadwood points per live out gained by a draw (`draw_outs`).
    draw_outs: f32,
    /// How much more deadwood than the best a discard may leave (`slack`).
    slack: u8,
    /// The tracker's estimate of the opponent's deadwood at the decision.
    opponent_deadwood: f32,
    /// The tracker's knock bar is `hold × undercut bonus + margin`; the
    /// bonus comes with the rules ([`Frozen::knock_at`]).
    hold: f32,
    margin: f32,
}

impl Frozen {
    /// The tables of `knowledge` under `tracker`'s weights.
    #[must_use]
    pub fn new(knowledge: &Knowledge, tracker: &Tracker) -> Frozen {
        let mut charge = [0.0; 64];
        let mut live = [0.0; 64];
        for card in CardSet::ALL {
            let bit = card.bit();
            charge[bit as usize] = tracker.safety * knowledge.meld_chance_of_bit(bit);
        }
        for card in knowledge.unknown() {
            live[card.bit() as usize] = 1.0 - knowledge.prob(card);
        }
        Frozen {
            charge,
            live,
            outs: tracker.outs,
            draw_outs: tracker.draw_outs,
            slack: tracker.slack,
            opponent_deadwood: knowledge.opponent_deadwood(),
            hold: tracker.hold,
            margin: tracker.margin,
        }
    }

    /// The knock threshold of the tracker's bar with the opponent's
    /// deadwood estimate of the decision: the tracker knocks with deadwood
    /// `d` when `estimate − d ≥ hold × undercut bonus + margin`, so at or
    /// below `estimate − bar` (0: gin only). Under standard (bar 0) that is
    /// about the knock limit; under eaai, hoyle and oklahoma (bar 45) gin
    /// only, unless the opponent's hand looks very bad.
    #[must_use]
    pub fn knock_at(&self, rules: &Rules) -> u8 {
        let bar = self.hold * rules.undercut_bonus as f32 + self.margin;
        (self.opponent_deadwood - bar).floor().clamp(0.0, 255.0) as u8
    }

    /// The live outs of `hand`: the weights of the cards that would join a
    /// meld of it, less those in `gone` (seen since the decision).
    fn live_outs(&self, hand: CardSet, gone: CardSet) -> f32 {
        self.live_outs_of(joiners(hand), gone)
    }

    /// The summed live weights of `outs`, less those in `gone`.
    fn live_outs_of(&self, outs: CardSet, gone: CardSet) -> f32 {
        let mut bits = (outs - gone).bits();
        let mut total = 0.0;
        while bits != 0 {
            total += self.live[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        total
    }

    /// Whether to take `card` into `hand` (least deadwood `now`), whose
    /// eleven cards' best discard is `best`.
    pub(super) fn takes(
        &self,
        hand: CardSet,
        now: u8,
        card: Card,
        best: meld::Discard,
        gone: CardSet,
    ) -> bool {
        if best.card == card {
            return false;
        }
        let gain = f32::from(now) - f32::from(best.deadwood);
        let with = hand.with(card);
        let kept = with.without(best.card);
        // Cards this seat holds or has seen are not outs, though a card
        // drawn since the decision was unseen at it.
        let known = gone | with;
        let outs = self.live_outs(kept, known) - self.live_outs(hand, known);
        gain + self.draw_outs * outs > 1e-4
    }

    /// False only when [`Frozen::takes`] is sure to say no to `card`, which
    /// melds with nothing in `hand`, without solving: taking it saves at
    /// most `most − value(card)` deadwood (`most`: the hand's deadwood or
    /// its highest card value, whichever is less; it replaces one card and
    /// stays deadwood itself), and gains at most the weights of the cards
    /// it would add to the hand's joiners (what joins the kept cards joins
    /// the eleven, or is the card thrown). Sure when that bound is not
    /// positive, well clear of the 1e-4 the rule compares with.
    pub(super) fn may_take(&self, hand: CardSet, most: u8, card: Card, gone: CardSet) -> bool {
        let with = hand.with(card);
        let gained = joiners(with) - joiners(hand);
        let bound = f32::from(most) - f32::from(card.value())
            + self.draw_outs * self.live_outs_of(gained, gone | with);
        bound > 0.0
    }

    /// The discard from the eleven cards of `hand` (not `taken`), whose best
    /// discard is `best`, and the deadwood it leaves.
    pub(super) fn discard(
        &self,
        hand: CardSet,
        taken: Option<Card>,
        best: meld::Discard,
        gone: CardSet,
    ) -> meld::Discard {
        let limit = best.deadwood.saturating_add(self.slack);
        // As the tracker: a card in no meld leaves the hand's deadwood less
        // its value, and a card worth less than `all − limit` leaves more
        // than the limit.
        let meldable = meld::meldable(hand);
        let all = if meldable.contains(best.card) {
            meld::deadwood(hand)
        } else {
            best.deadwood + best.card.value()
        };
        let mut candidates = hand.without(best.card) & worth_at_least(all.saturating_sub(limit));
        if let Some(card) = taken {
            candidates.remove(card);
        }
        if candidates.is_empty() {
            return best;
        }
        let (hand_bits, meldable_bits) = (hand.bits(), meldable.bits());
        let known = gone | hand;
        // Summed in the tracker's order, so that its near-ties fall the
        // same way.
        let value = |bit: u32, left: u8| {
            let kept = CardSet::from_bits_truncate(hand_bits & !(1 << bit));
            f32::from(left) + (self.charge[bit as usize] - self.outs * self.live_outs(kept, known))
        };
        let mut choice = None;
        let mut score = None;
        // Highest card first, so that exact ties keep the higher card.
        let mut bits = candidates.bits();
        while bits != 0 {
            let bit = 63 - bits.leading_zeros();
            bits &= !(1 << bit);
            let left = if meldable_bits >> bit & 1 == 1 {
                meld::deadwood(CardSet::from_bits_truncate(hand_bits & !(1 << bit)))
            } else {
                all - bit_value(bit)
            };
            if left > limit {
                continue;
            }
            let current = *score.get_or_insert_with(|| value(best.card.bit(), best.deadwood));
            let v = value(bit, left);
            if v < current - 1e-4 {
                choice = Some((bit, left));
                score = Some(v);
            }
        }
        choice.map_or(best, |(bit, deadwood)| meld::Discard {
            card: Card::from_bit(bit).expect("a card of the hand"),
            deadwood,
        })
    }
}

/// What the opponent knows at a decision, from which its [`Frozen`] rules
/// in each world are built: its evidence about our hand, read once from the
/// public events, and the cards of ours it knows we hold.
#[derive(Clone, Debug)]
pub struct OpponentTables {
    evidence: Evidence,
    /// The cards this player took from the pile and still holds.
    known: CardSet,
    tracker: Tracker,
}

impl OpponentTables {
    /// The opponent's knowledge at the decision of `view` (this player's),
    /// with the tracker's default weights.
    #[must_use]
    pub fn new(view: &PlayerView<'_>) -> OpponentTables {
        let seat = view.seat;
        // A card this player took and holds has not been thrown since (a
        // thrown card comes back only by another pile take).
        let taken: CardSet = view
            .events
            .iter()
            .filter_map(|e| match *e {
                Event::UpcardTaken { seat: s, card } | Event::TookPile { seat: s, card }
                    if s == seat =>
                {
                    Some(card)
                }
                _ => None,
            })
            .collect();
        let mut tables = OpponentTables {
            evidence: Evidence::default(),
            known: taken & view.hand,
            tracker: Tracker::default(),
        };
        let blind = tables.view(view, CardSet::EMPTY);
        tables.evidence.catch_up(&blind);
        tables
    }

    /// The view of the opponent's seat at `view`'s decision, holding
    /// `hand`: what the engine would show it (observing, not deciding).
    #[must_use]
    pub fn view<'v>(&self, view: &PlayerView<'v>, hand: CardSet) -> PlayerView<'v> {
        PlayerView {
            seat: view.seat.other(),
            phase: Phase::Over,
            hand,
            opponent_known: self.known,
            opponent_cards: view.hand.len(),
            taken_from_pile: None,
            scores: [view.scores[1], view.scores[0]],
            ..*view
        }
    }

    /// The opponent's rules in a world where it holds `hand`: the tables
    /// [`Frozen::new`] builds from `Knowledge::from_view` of its view there.
    #[must_use]
    pub fn frozen(&self, view: &PlayerView<'_>, hand: CardSet) -> Frozen {
        let knowledge = self.evidence.knowledge(&self.view(view, hand));
        Frozen::new(&knowledge, &self.tracker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Deck, Hand, Seat, Strategy, TurnEnd, ask};
    use crate::rules::Rules;
    use crate::strategy::best_discard_except;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// At the decision itself nothing is frozen yet: the rules give the
    /// tracker's own draws, discards and knocks (a knock within the limit
    /// exactly at or below [`Frozen::knock_at`]), over hands of every
    /// preset played by two trackers.
    #[test]
    fn at_the_decision_it_plays_as_the_tracker() {
        let (mut compared, mut knocked) = ([0; 3], 0);
        for name in crate::rules::PRESETS {
            let rules = Rules::preset(name).unwrap();
            let mut decks = Pcg64Mcg::seed_from_u64(5);
            for deal in 0..40 {
                let deck = Deck::shuffled(&mut decks);
                let mut hand = Hand::new(&rules, &deck, Seat::ALL[deal % 2], [0, 0]).unwrap();
                let mut players = [Tracker::default(), Tracker::default()];
                for (p, seat) in players.iter_mut().zip(Seat::ALL) {
                    p.start_hand(&hand.view(seat));
                }
                while let Some(seat) = hand.phase().seat() {
                    let view = hand.view(seat);
                    let tracker = &mut players[seat.index()];
                    let action = ask(tracker, &view);
                    let frozen = Frozen::new(&Knowledge::from_view(&view), &Tracker::default());
                    let none = CardSet::EMPTY;
                    let offered = match (view.phase, action) {
                        (crate::engine::Phase::UpcardOffer { .. }, Action::TakeUpcard(take)) => {
                            view.upcard.map(|c| (c, take))
                        }
                        (_, Action::Draw(source)) if crate::engine::pile_allowed(&view) => view
                            .pile_top()
                            .map(|c| (c, source == crate::engine::DrawSource::Pile)),
                        _ => None,
                    };
                    if let Some((card, take)) = offered {
                        let best = meld::best_discard(view.hand.with(card)).unwrap();
                        let now = meld::deadwood(view.hand);
                        assert_eq!(frozen.takes(view.hand, now, card, best, none), take);
                        compared[0] += 1;
                    }
                    let best = best_discard_except(view.hand, view.taken_from_pile);
                    let free = matches!(
                        view.phase,
                        crate::engine::Phase::EndTurn {
                            must_knock: false,
                            ..
                        }
                    );
                    if free && (1..=view.knock_limit).contains(&best.deadwood) {
                        let knocks = matches!(action, Action::EndTurn(TurnEnd::Knock(_)));
                        assert_eq!(knocks, best.deadwood <= frozen.knock_at(&rules), "{name}");
                        compared[2] += 1;
                        knocked += usize::from(knocks);
                    }
                    if let Action::EndTurn(TurnEnd::Discard(card)) = action {
                        let best = best_discard_except(view.hand, view.taken_from_pile);
                        let ours = frozen.discard(view.hand, view.taken_from_pile, best, none);
                        assert_eq!(ours.card, card, "{name} {}", view.hand);
                        assert_eq!(ours.deadwood, meld::deadwood(view.hand.without(card)));
                        compared[1] += 1;
                    }
                    hand.apply(seat, action).unwrap();
                }
            }
        }
        assert!(compared.iter().all(|&n| n > 200), "{compared:?}");
        assert!(knocked > 20 && knocked < compared[2], "{knocked} of {compared:?}");
    }

    /// A thrown card is no longer an out: with JS QS and the KS gone, the
    /// pair is worth its last out only.
    #[test]
    fn thrown_cards_are_not_live() {
        let view_hand: CardSet = "AC 2C 3C 4H 5H 6H JS QS 9D 5C".parse().unwrap();
        let tracker = Tracker::default();
        let rules = Rules::standard();
        let deck = crate::strategy::test_deck(
            "AC 2C 3C 4H 5H 6H JS QS 9D 5C",
            "2D 3D 4D 6S 7S 8S 9C TC JC QD",
            "KD",
            "",
        );
        let hand = Hand::new(&rules, &deck, Seat::B, [0, 0]).unwrap();
        let frozen = Frozen::new(&Knowledge::from_view(&hand.view(Seat::A)), &tracker);
        let ks: CardSet = "KS".parse().unwrap();
        let all = frozen.live_outs(view_hand, CardSet::EMPTY);
        let less = frozen.live_outs(view_hand, ks);
        let k = "KS".parse::<Card>().unwrap();
        assert!((all - less - frozen.live[k.bit() as usize]).abs() < 1e-6);
        assert!(frozen.live[k.bit() as usize] > 0.0);
    }
}
