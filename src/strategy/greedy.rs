//! `greedy`: minimise deadwood now.
//!
//! - Takes the upcard or the pile top when, after its best discard, its
//!   deadwood would be lower than its current deadwood.
//! - Discards the card leaving the least deadwood, ties to the higher card.
//! - Knocks as soon as its deadwood is ≤ `knock_at` (default: the knock
//!   limit; 0 plays for gin), or per the knock schedule by stock size.
//!
//! Example: holding `[AS 2S 3S] [7C 7D 7H] KC QC 5H 9D` (deadwood 34) with a
//! 4S up, it takes the 4S (best discard KC leaves 24) and throws the king.

use crate::cards::{Card, CardSet};
use crate::engine::{DrawSource, PlayerView, Strategy, TurnEnd, big_gin_legal, turn_end};
use crate::meld;
use crate::meld::RANK_STRIDE;

use super::profile::{Given, KeyError, Keys, Kind, ParamError, Params, keys, write_inline};
use super::tracker::bit_value;
use super::{best_discard_except, draw_when, joins_meld};

/// The table's row of `greedy`: its profile is the player itself.
pub(super) const KIND: Kind = Kind::of::<Greedy>("greedy", None);

keys! {
    /// The greedy deadwood strategy.
    #[derive(Clone, Default)]
    pub struct Greedy {
        /// Knock at or below this deadwood (capped by the knock limit); `None`
        /// means the knock limit.
        pub knock_at: Option<u8> => Integer "an integer from 0 to 10",
        /// Optional schedule: `(stock_size, knock_at)` pairs with decreasing
        /// stock sizes; when the stock holds at most `stock_size` cards, knock at
        /// that pair's `knock_at` instead (the smallest matching stock size wins).
        #[serde(deserialize_with = "schedule_text")]
        pub schedule: Vec<(u32, u8)> => Text "STOCK:KNOCK pairs joined by /, stock sizes decreasing, knock 0 to 10 (e.g. 20:5/10:2)",
    }
    extra {
        /// The last 11-card hand solved and its best discard, reused when that
        /// hand is then the one ending the turn.
        last: Option<(CardSet, meld::Discard)>,
        /// The 10 cards kept at the last turn end and their least deadwood,
        /// reused while the hand is unchanged.
        kept: Option<(CardSet, u8)>,
        /// The best discard of the 10 cards held, with those cards, solved
        /// for the first card drawn or offered that melds with nothing
        /// ([`best_with_dead`]) and reused while the hand is unchanged.
        spare: Option<(CardSet, meld::Discard)>,
    }
}

impl Keys for Greedy {
    const PARAMS: &'static [crate::strategy::Param] = Greedy::KEY_LIST;
    type Params = Greedy;

    fn resolve(self, _given: &Given) -> Result<Greedy, KeyError> {
        if self.knock_at.is_some_and(|k| k > 10) {
            return Err(("knock_at", ParamError::Invalid));
        }
        Ok(self)
    }
}

/// A schedule's text read by [`parse_schedule`].
fn schedule_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(u32, u8)>, D::Error> {
    let text = <String as serde::Deserialize>::deserialize(d)?;
    parse_schedule(&text).ok_or_else(|| serde::de::Error::custom("not a knock schedule"))
}

impl Greedy {
    /// A greedy player knocking at `knock_at` (`None`: the knock limit) with
    /// an optional schedule by stock size (see [`Greedy::schedule`]).
    #[must_use]
    pub fn new(knock_at: Option<u8>, schedule: Vec<(u32, u8)>) -> Greedy {
        Greedy {
            knock_at,
            schedule,
            last: None,
            kept: None,
            spare: None,
        }
    }
}

/// The parameters only: the remembered solves (`last`, `kept`, `spare`)
/// are not part of a profile (tests/data/profiles.txt prints this).
impl std::fmt::Debug for Greedy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Greedy")
            .field("knock_at", &self.knock_at)
            .field("schedule", &self.schedule)
            .finish()
    }
}

/// Profiles compare the parameters, not the cached solve.
impl PartialEq for Greedy {
    fn eq(&self, other: &Greedy) -> bool {
        (self.knock_at, &self.schedule) == (other.knock_at, &other.schedule)
    }
}

impl Params for Greedy {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn build(&self, _seed: u64) -> Box<dyn Strategy> {
        Box::new(Greedy::new(self.knock_at, self.schedule.clone()))
    }
}

/// `greedy:knock_at=7,schedule=20:5/10:2`, the parameters given.
impl std::fmt::Display for Greedy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut items = Vec::new();
        if let Some(k) = self.knock_at {
            items.push(format!("knock_at={k}"));
        }
        if !self.schedule.is_empty() {
            let steps: Vec<String> = self
                .schedule
                .iter()
                .map(|(s, k)| format!("{s}:{k}"))
                .collect();
            items.push(format!("schedule={}", steps.join("/")));
        }
        write_inline(f, KIND.name, &items)
    }
}

/// `20:5/10:2` → `[(20, 5), (10, 2)]`; stock sizes must decrease.
fn parse_schedule(text: &str) -> Option<Vec<(u32, u8)>> {
    let mut steps = Vec::new();
    for step in text.split('/') {
        let (stock, knock) = step.trim().split_once(':')?;
        let (stock, knock) = (
            stock.trim().parse::<u32>().ok()?,
            knock.trim().parse::<u8>().ok()?,
        );
        if knock > 10 || steps.last().is_some_and(|&(s, _)| s <= stock) {
            return None;
        }
        steps.push((stock, knock));
    }
    Some(steps)
}

impl Greedy {
    fn threshold(&self, view: &PlayerView<'_>) -> u8 {
        let scheduled = self
            .schedule
            .iter()
            .rev()
            .find(|(stock, _)| view.stock_size <= *stock)
            .map(|&(_, k)| k);
        scheduled
            .or(self.knock_at)
            .unwrap_or(view.knock_limit)
            .min(view.knock_limit)
    }

    /// The least deadwood of the 10 cards held (remembered from the last
    /// turn end while the hand is unchanged).
    fn now(&self, hand: CardSet) -> u8 {
        match self.kept {
            Some((kept, deadwood)) if kept == hand => deadwood,
            _ => meld::deadwood(hand),
        }
    }

    /// Would taking `card` lower the deadwood after the best other discard?
    ///
    /// If the best discard of the 11 cards is `card` itself, what is left is
    /// the current hand, so the test fails as it should; no need to exclude
    /// `card` from the search.
    ///
    /// A card that melds with nothing in the hand lowers the deadwood only
    /// by replacing a card whose removal saves more than the card's own
    /// value; removing a card saves at most its value and at most the
    /// deadwood there is, so when the card's value reaches the hand's
    /// highest card value or its deadwood, the answer is no without
    /// solving. Otherwise the best discard with such a card comes from the
    /// hand's own ([`best_with_dead`]).
    fn improves(&mut self, view: &PlayerView<'_>, card: Card) -> bool {
        let now = self.now(view.hand);
        let ten = Ten::new(view.hand, now);
        let joins = joins_meld(view.hand, card);
        if !joins && ten.never_improves(card) {
            self.last = None;
            return false;
        }
        let with = view.hand.with(card);
        let best = if joins {
            meld::best_discard(with).expect("11 cards")
        } else {
            best_with_dead(ten, card, &mut self.spare, solve)
        };
        self.last = Some((with, best));
        best.deadwood < now
    }

    /// The best discard ending the turn: the one solved at the draw, or,
    /// for a drawn card melding with nothing, [`best_with_dead`]'s, or a
    /// solve.
    fn discard(&mut self, view: &PlayerView<'_>) -> meld::Discard {
        match self.last.take() {
            Some((hand, best)) if hand == view.hand && Some(best.card) != view.taken_from_pile => {
                return best;
            }
            _ => {}
        }
        // One card drawn from the stock onto the 10 kept: the hand holds
        // them and one card more (bit tests, not two population counts,
        // which baseline x86-64 does in software).
        if let Some((kept, now)) = self.kept
            && view.taken_from_pile.is_none()
            && view.hand.is_superset(kept)
        {
            let more = (view.hand - kept).bits();
            if more != 0 && more & (more - 1) == 0 {
                let drawn = Card::from_bit(more.trailing_zeros()).expect("a card's bit");
                if !joins_meld(kept, drawn) {
                    return best_with_dead(Ten::new(kept, now), drawn, &mut self.spare, solve);
                }
            }
        }
        best_discard_except(view.hand, view.taken_from_pile)
    }
}

/// Ten cards held, their least deadwood, and the ranks they hold: what
/// greedy's shortcuts for a card that melds with nothing read
/// ([`Ten::never_improves`], [`Ten::dead_card_thrown`], [`best_with_dead`]).
/// The ranks are found once for every card a turn asks about (the pile
/// top, then the stock's card).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ten {
    /// The cards.
    pub hand: CardSet,
    /// Their least deadwood.
    pub now: u8,
    /// The ranks held, a 13-bit mask (the OR of the hand's lanes).
    ranks: u64,
}

impl Ten {
    /// `hand`, whose least deadwood is `now`.
    #[inline(always)]
    pub fn new(hand: CardSet, now: u8) -> Ten {
        let bits = hand.bits();
        Ten {
            hand,
            now,
            ranks: (bits | bits >> 16 | bits >> 32 | bits >> 48) & 0x1FFF,
        }
    }

    /// The highest card value held (ace 1 to 10 for tens and faces), 0
    /// when the hand is empty.
    #[inline(always)]
    pub fn highest_value(self) -> u8 {
        (64 - self.ranks.leading_zeros()).min(10) as u8
    }

    /// Whether `card`, known to meld with nothing in the hand, cannot
    /// lower its deadwood: it lowers it only by replacing a card whose
    /// removal saves more than the card's own value, and removing a card
    /// saves at most its value and at most the deadwood there is.
    #[inline(always)]
    pub fn never_improves(self, card: Card) -> bool {
        card.value() >= self.now.min(self.highest_value())
    }

    /// Whether `card`, added to the hand, is the best discard of the
    /// eleven cards, leaving `now`.
    ///
    /// When `card` melds with nothing, keeping it and discarding another
    /// card `x` leaves the deadwood of `hand − x` plus the card's value,
    /// and removing `x` saves at most its own value and at most `now`. So
    /// `card` is the best discard (ties go to the higher card) when its
    /// value exceeds `now`, or when it is the highest card of all: a card
    /// saving as much as it is worth is worth at least as much, so it is of
    /// a rank at least as high.
    #[inline(always)]
    pub fn sure_discard(self, card: Card) -> bool {
        !joins_meld(self.hand, card) && self.dead_card_thrown(card)
    }

    /// [`Ten::sure_discard`] for a `card` known to meld with nothing in
    /// the hand.
    #[inline(always)]
    pub fn dead_card_thrown(self, card: Card) -> bool {
        // Bit arithmetic on the card's bit (16 × suit + rank): this runs at
        // most rollout turns.
        let bit = card.bit();
        let (rank, suit) = (bit & 15, bit >> 4);
        let bits = self.hand.bits();
        // A card of the hand above `card` in the tie-break order: a higher
        // rank, or its rank in a higher suit.
        let higher =
            self.ranks >> rank >> 1 != 0 || (bits >> rank & RANK_STRIDE) >> (16 * suit) >> 16 != 0;
        card.value() > self.now || !higher
    }
}

/// `meld::best_discard(hand + card)` for a `card` that melds with nothing
/// in `ten`'s hand (least deadwood `now`), from the best discard of the
/// hand itself, kept in `spare` with its hand while the hand is unchanged.
///
/// Such a card is dead in every arrangement of `hand + card − d`, so
/// discarding `d ≠ card` leaves `deadwood(hand − d) + value(card)`, least
/// for `hand`'s own best discard `m`; discarding `card` leaves `now`. The
/// solver's tie-break (higher rank, then suit) picks between the two, as
/// it would among all the cards ([`dead_card_best`]). A card
/// [`Ten::dead_card_thrown`] says is thrown back is answered without `m`;
/// `solve` finds `m` (the solver, or a memo of it).
#[inline(always)]
pub(crate) fn best_with_dead(
    ten: Ten,
    card: Card,
    spare: &mut Option<(CardSet, meld::Discard)>,
    solve: impl FnOnce(CardSet) -> meld::Discard,
) -> meld::Discard {
    let Ten { hand, now, .. } = ten;
    if ten.dead_card_thrown(card) {
        return meld::Discard {
            card,
            deadwood: now,
        };
    }
    let spare = match *spare {
        Some((held, best)) if held == hand => best,
        _ => {
            let best = solve(hand);
            *spare = Some((hand, best));
            best
        }
    };
    dead_card_best(card, now, spare)
}

/// `meld::best_discard(hand + card)` for a `card` melding with nothing in
/// `hand` (least deadwood `now`, best discard `spare`): keep it and throw
/// `spare`'s card, or throw it back ([`best_with_dead`]).
fn dead_card_best(card: Card, now: u8, spare: meld::Discard) -> meld::Discard {
    let kept = spare.deadwood + bit_value(card.bit());
    if (kept, discard_key(card)) < (now, discard_key(spare.card)) {
        meld::Discard {
            card: spare.card,
            deadwood: kept,
        }
    } else {
        meld::Discard {
            card,
            deadwood: now,
        }
    }
}

/// [`meld::best_discard`] of a hand that holds cards.
fn solve(hand: CardSet) -> meld::Discard {
    meld::best_discard(hand).expect("a hand holds cards")
}

/// The order of [`meld::best_discard`]'s tie-break: rank, then suit (the
/// higher key is discarded first).
pub(crate) fn discard_key(card: Card) -> u32 {
    let bit = card.bit();
    4 * (bit & 15) + (bit >> 4)
}

impl Strategy for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    /// Its parameters stay; the remembered solves are dropped.
    fn reset(&mut self, _seed: u64) -> bool {
        self.last = None;
        self.kept = None;
        self.spare = None;
        true
    }

    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        view.upcard.is_some_and(|card| self.improves(view, card))
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        draw_when(view, |top| self.improves(view, top))
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        let discard = self.discard(view);
        // All 11 cards melding leaves some meld of 4 or more, two of whose
        // cards can go with nothing left dead: big gin needs a discard
        // leaving 0.
        if discard.deadwood == 0 && big_gin_legal(view) {
            return TurnEnd::BigGin;
        }
        self.kept = Some((view.hand.without(discard.card), discard.deadwood));
        let must = matches!(
            view.phase,
            crate::engine::Phase::EndTurn {
                must_knock: true,
                ..
            }
        );
        let knock = discard.deadwood <= self.threshold(view) || must;
        turn_end(discard.card, knock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Deck, Hand, Phase, Seat};
    use crate::rules::Rules;

    /// `best_with_dead` with its kept solve, the cache shared across cards
    /// and hands as greedy shares it, gives the solver's best discard
    /// (card and deadwood) for every card melding with nothing, both when
    /// the card is kept and when it is thrown back.
    #[test]
    fn best_with_dead_is_the_solvers() {
        use rand::SeedableRng;
        use rand_pcg::Pcg64Mcg;

        let mut rng = Pcg64Mcg::seed_from_u64(43);
        let mut spare = None;
        let (mut kept, mut thrown) = (0, 0);
        for _ in 0..2_000 {
            let deck = Deck::shuffled(&mut rng);
            let hand: CardSet = deck.cards()[..10].iter().copied().collect();
            let now = meld::deadwood(hand);
            for card in CardSet::ALL - hand {
                if joins_meld(hand, card) {
                    continue;
                }
                let best = best_with_dead(Ten::new(hand, now), card, &mut spare, solve);
                assert_eq!(
                    best,
                    meld::best_discard(hand.with(card)).unwrap(),
                    "{hand} + {card}"
                );
                if best.card == card {
                    thrown += 1;
                } else {
                    kept += 1;
                }
            }
        }
        assert!(kept > 5_000 && thrown > 5_000, "{kept} kept, {thrown} thrown");
    }

    #[test]
    fn schedule_by_stock_size() {
        let rules = Rules::standard();
        let hand = Hand::new(&rules, &Deck::ordered(), Seat::B, [0, 0]).unwrap();
        let mut view = hand.view(Seat::A);
        let greedy = Greedy::new(Some(9), vec![(20, 5), (10, 2)]);
        view.phase = Phase::Over;
        for (stock, expect) in [(31, 9), (21, 9), (20, 5), (11, 5), (10, 2), (3, 2)] {
            view.stock_size = stock;
            assert_eq!(greedy.threshold(&view), expect, "stock {stock}");
        }
        view.knock_limit = 4;
        view.stock_size = 31;
        assert_eq!(greedy.threshold(&view), 4, "capped by the knock limit");
    }
}
