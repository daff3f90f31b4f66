//! What one player knows about the cards it cannot see: [`Knowledge`].
//!
//! Computed from a [`PlayerView`] alone (its own cards, the pile, the cards
//! the opponent is known to hold, and the public event history), so it cannot
//! see anything the player may not: the opponent's hand and the stock are not
//! in the view.
//!
//! # The model
//!
//! Every card is in one of three states:
//!
//! - **held**: the opponent took it from the pile and has not discarded it
//!   (probability 1);
//! - **excluded**: in this player's hand or in the pile (probability 0);
//! - **unknown**: in the opponent's hand or in the stock.
//!
//! The opponent holds `opponent_cards − |held|` unknown cards. Without other
//! evidence each unknown card is equally likely to be one of them. The
//! opponent's actions are evidence about the cards near the card it acted on
//! (the same rank, or the same suit one or two ranks away): a player keeps
//! cards that meld with what it takes, and throws or passes cards that meld
//! with nothing it holds. Each action multiplies the odds of every unknown
//! neighbour by a likelihood ratio:
//!
//! | action on card `e` | same rank | suit ±1 | suit ±2 |
//! |---|---|---|---|
//! | discarded `e` | 0.5 | 0.5 | 0.75 |
//! | passed `e` (the upcard, or the pile top when drawing from the stock) | 0.7 | 0.7 | 0.85 |
//! | took `e` from the pile | 2.5 | 2.5 | 1.5 |
//!
//! The weights are then scaled so that the probabilities of the unknown
//! cards sum to the number of unknown opponent cards, none above 1 (cards
//! whose scaled weight would pass 1 are set to 1 and the rest rescaled). The
//! ratios are a documented heuristic, not fitted; strategies that use the
//! estimate expose their own weights.
//!
//! # Derived measures
//!
//! - [`Knowledge::meld_chance`]: P(the opponent holds two cards making a
//!   meld with a card), over the pairs that would (two other cards of its
//!   rank; suit neighbours −2 −1, −1 +1, +1 +2), cards taken as independent.
//! - [`Knowledge::opponent_deadwood`]: Σ P(held) × value × (1 − meld chance).
//! - [`Knowledge::live_outs`]: over the unseen cards that would join a meld
//!   of a hand ([`joiners`]), Σ (1 − P(held)): the expected number still in
//!   the stock.
//! - [`Knowledge::interest`] and [`Knowledge::danger`]: linear sums over the
//!   neighbours (kept for other strategies).
//!
//! # Incremental use
//!
//! [`Evidence`] holds the per-card product of ratios and reads only the
//! events it has not read; [`Knowledge::from_view`] is a fresh `Evidence`
//! reading them all, so both give the same result bit for bit (tested at
//! every decision of played hands). Probabilities are stored by card bit so
//! the scaling runs as branch-free sums over 64 slots.
//!
//! # Same bits as the plain model
//!
//! Strategies compare these floats against bars, so a change in the last bit
//! can change a decision and the results of a seeded run. The fast paths
//! (masks applied with selects, meld chances computed lane by lane, the
//! opponent-deadwood terms summed over every slot in bit order) do the same
//! operations in the same order as the per-card definitions; a test keeps
//! those definitions and compares bit for bit at every decision of played
//! hands. [`Knowledge::opponent_deadwood_reaches`] answers a threshold
//! question with a faster sum and falls back to the exact one near the bar.

use crate::cards::{Card, CardSet};
use crate::engine::{Event, PlayerView, Seat};

/// Likelihood ratios for (same rank, suit ±1, suit ±2) neighbours.
const DISCARDED: [f32; 3] = [0.5, 0.5, 0.75];
const PASSED: [f32; 3] = [0.7, 0.7, 0.85];
const TOOK: [f32; 3] = [2.5, 2.5, 1.5];

/// What a player knows of the cards outside its hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Knowledge {
    held: CardSet,
    unknown: CardSet,
    /// The cards the opponent discarded or passed.
    rejected: CardSet,
    hidden: u32,
    /// P(held) by [`slot`]: the card's bit in a [`CardSet`] plus 2, so that
    /// suit neighbours are slot ± 1, 2 and off-suit slots read 0.
    prob: [f32; 68],
}

/// The index of `card` in [`Knowledge`]'s probability array.
fn slot(card: Card) -> usize {
    card.bit() as usize + 2
}

/// The cards that meld with `e`, by relation: the other cards of its rank,
/// its suit neighbours one rank away, and two ranks away. Shifts of one or two
/// bits cannot cross suits: the top three bits of every lane are empty and
/// [`CardSet::from_bits_truncate`] drops them.
fn neighbours(e: Card) -> [CardSet; 3] {
    let m = e.mask().bits();
    [
        CardSet::rank(e.rank()) - e.mask(),
        CardSet::from_bits_truncate(m << 1 | m >> 1),
        CardSet::from_bits_truncate(m << 2 | m >> 2),
    ]
}

/// The opponent's actions so far, folded into one weight per card: the
/// incremental half of [`Knowledge`].
///
/// [`Evidence::catch_up`] reads the events of a view that it has not read
/// yet (all of them after [`Evidence::reset`] or when the view belongs to
/// another hand), so a strategy can keep one `Evidence` per hand and pay only
/// for the new events at each decision; [`Evidence::knowledge`] then scales
/// the weights into probabilities. It stores nothing but what the events say,
/// so the result is the same as [`Knowledge::from_view`] (which runs both
/// steps on a fresh `Evidence`), bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    /// Product of the likelihood ratios of every action so far, per card,
    /// indexed by the card's bit in a [`CardSet`] (the 12 unused slots stay
    /// 0, so masked sums over all 64 slots need no branches). Applied to every card, not only the unknown ones: a card never
    /// becomes unknown again, so the weights of the cards still unknown are
    /// those [`Knowledge::from_view`] would compute.
    weight: [f32; 64],
    /// The discard pile replayed from the events (bottom first), to know
    /// which card the opponent passed when it drew from the stock.
    pile: [Card; 52],
    pile_len: usize,
    /// The same pile as a set.
    pile_set: CardSet,
    /// The dealer passed the upcard and the stock-only draw has not happened.
    both_passed: bool,
    /// The cards the opponent discarded or passed (the ones given the
    /// `DISCARDED` or `PASSED` ratios).
    rejected: CardSet,
    /// How many events of the hand have been read, and the last one read
    /// (to notice a view from another hand).
    read: usize,
    last: Option<Event>,
    /// The hand the events belong to: (seat, dealer, upcard).
    hand: Option<(Seat, Seat, Option<Card>)>,
}

/// 1 in the 52 card slots of the bit layout, 0 in the unused ones.
const INITIAL_WEIGHT: [f32; 64] = {
    let mut w = [0f32; 64];
    let mut j = 0;
    while j < 64 {
        if j % 16 < 13 {
            w[j] = 1.0;
        }
        j += 1;
    }
    w
};

impl Default for Evidence {
    fn default() -> Evidence {
        Evidence {
            weight: INITIAL_WEIGHT,
            pile: [Card::ALL[0]; 52],
            pile_len: 0,
            pile_set: CardSet::EMPTY,
            both_passed: false,
            rejected: CardSet::EMPTY,
            read: 0,
            last: None,
            hand: None,
        }
    }
}

/// All ones in lane `k` where bit `k` of `byte` is set, else 0: a compare
/// against constant bits, which vectorises where a shift by `k` does not.
#[inline]
fn byte_mask(byte: u32) -> [u32; 8] {
    let mut keep = [0u32; 8];
    for (k, m) in keep.iter_mut().enumerate() {
        *m = if byte & (1 << k) != 0 { u32::MAX } else { 0 };
    }
    keep
}

impl Evidence {
    /// Forget everything (a new hand).
    pub fn reset(&mut self) {
        *self = Evidence::default();
    }

    /// Multiply the odds of the cards melding with `e` by `ratios`.
    fn apply(&mut self, e: Card, ratios: [f32; 3]) {
        for (near, ratio) in neighbours(e).into_iter().zip(ratios) {
            for_bits(near, |j| self.weight[j] *= ratio);
        }
    }

    fn pile_top(&self) -> Option<Card> {
        self.pile_len.checked_sub(1).map(|i| self.pile[i])
    }

    /// Read the events of `view` not read yet. Starts over when the view is
    /// from another hand (other seat, dealer or upcard, fewer events, or a
    /// different event where the last one read was).
    pub fn catch_up(&mut self, view: &PlayerView<'_>) {
        let hand = Some((view.seat, view.dealer, view.upcard));
        let same = self.hand == hand
            && self.read <= view.events.len()
            && (self.read == 0 || self.last == Some(view.events[self.read - 1]));
        if !same {
            self.reset();
            self.hand = hand;
            if let Some(up) = view.upcard {
                self.pile[0] = up;
                self.pile_len = 1;
                self.pile_set = up.mask();
            }
        }
        let opponent = view.seat.other();
        for &event in &view.events[self.read..] {
            match event {
                Event::UpcardPassed { seat, card } => {
                    if seat == opponent {
                        self.apply(card, PASSED);
                        self.rejected.insert(card);
                    }
                    self.both_passed = seat == view.dealer;
                }
                Event::UpcardTaken { seat, card } | Event::TookPile { seat, card } => {
                    self.pile_len = self.pile_len.saturating_sub(1);
                    self.pile_set = self.pile_set.without(card);
                    if seat == opponent {
                        self.apply(card, TOOK);
                    }
                }
                Event::DrewStock { seat } => {
                    // Passing the pile top, unless the pile was not allowed
                    // (the first draw after both passed the upcard).
                    if seat == opponent
                        && !self.both_passed
                        && let Some(top) = self.pile_top()
                    {
                        self.apply(top, PASSED);
                        self.rejected.insert(top);
                    }
                    self.both_passed = false;
                }
                Event::Discarded { seat, card } => {
                    if self.pile_len < 52 {
                        self.pile[self.pile_len] = card;
                        self.pile_len += 1;
                    }
                    self.pile_set = self.pile_set.with(card);
                    if seat == opponent {
                        self.apply(card, DISCARDED);
                        self.rejected.insert(card);
                    }
                }
                Event::Knocked { .. } | Event::BigGin { .. } | Event::PassedLastDiscard { .. } => {}
            }
        }
        self.read = view.events.len();
        self.last = view.events.last().copied();
    }

    /// The knowledge of the player whose view this is, from the events read
    /// so far (call [`Evidence::catch_up`] with the same view first).
    #[must_use]
    pub fn knowledge(&self, view: &PlayerView<'_>) -> Knowledge {
        let held = view.opponent_known;
        let unknown = !(view.hand | self.pile_set | held);
        let hidden = view.opponent_cards.saturating_sub(held.len());
        let weight = &self.weight;
        let mut prob = [0f32; 68];
        for_bits(held, |j| prob[j + 2] = 1.0);
        // Scale so the unknown cards' probabilities sum to `hidden`, capping
        // at 1 and rescaling the rest (at most 52 rounds; usually one).
        let mut free = unknown;
        let mut slots = hidden as f32;
        while !free.is_empty() && slots > 0.0 {
            // Eight independent partial sums (slot j goes to j mod 8), so the
            // loop vectorises; the order is fixed, so results are too.
            let bits = free.bits();
            let (mut sums, mut maxes) = ([0f32; 8], [0f32; 8]);
            for (c, ws) in weight.chunks_exact(8).enumerate() {
                let keep = byte_mask((bits >> (8 * c)) as u32);
                for k in 0..8 {
                    let w = f32::from_bits(ws[k].to_bits() & keep[k]);
                    sums[k] += w;
                    maxes[k] = maxes[k].max(w);
                }
            }
            let total: f32 = sums.iter().sum();
            let most = maxes.iter().fold(0f32, |a, &b| a.max(b));
            let scale = slots / total.max(f32::MIN_POSITIVE);
            if most * scale < 1.0 {
                // Only free cards change (each from 0 to its scaled weight).
                for (c, (ps, ws)) in prob[2..66]
                    .chunks_exact_mut(8)
                    .zip(weight.chunks_exact(8))
                    .enumerate()
                {
                    let keep = byte_mask((bits >> (8 * c)) as u32);
                    for k in 0..8 {
                        let scaled = (ws[k] * scale).to_bits();
                        ps[k] = f32::from_bits(scaled & keep[k] | ps[k].to_bits() & !keep[k]);
                    }
                }
                break;
            }
            // The free cards whose scaled weight reaches 1.
            let mut capped = 0u64;
            for_bits(free, |j| capped |= u64::from(weight[j] * scale >= 1.0) << j);
            let capped = CardSet::from_bits_truncate(capped);
            for_bits(capped, |j| prob[j + 2] = 1.0);
            slots -= capped.len() as f32;
            free -= capped;
        }
        Knowledge {
            held,
            unknown,
            rejected: self.rejected,
            hidden,
            prob,
        }
    }
}

impl Knowledge {
    /// The knowledge of the player whose view this is: a fresh `Evidence`
    /// reading every event of the view.
    #[must_use]
    pub fn from_view(view: &PlayerView<'_>) -> Knowledge {
        let mut evidence = Evidence::default();
        evidence.catch_up(view);
        evidence.knowledge(view)
    }

    /// P(`card` is in the opponent's hand): 1 if known held, 0 if seen
    /// elsewhere, the model's estimate otherwise.
    #[must_use]
    pub fn prob(&self, card: Card) -> f32 {
        self.prob[slot(card)]
    }

    /// Cards the opponent holds for sure.
    pub fn held(&self) -> CardSet {
        self.held
    }

    /// Cards the opponent discarded, or passed (the upcard, or the pile top
    /// when it drew from the stock), this hand.
    pub fn rejected(&self) -> CardSet {
        self.rejected
    }

    /// Cards that may be in the opponent's hand or the stock.
    pub fn unknown(&self) -> CardSet {
        self.unknown
    }

    /// How many of the opponent's cards are unknown.
    #[must_use]
    pub fn hidden(&self) -> u32 {
        self.hidden
    }

    /// The cards that could still be drawn or held by the opponent and would
    /// meld with `card`: same rank, or suit neighbours one or two away, that
    /// are not seen anywhere ("live" cards).
    pub fn live_neighbours(&self, card: Card) -> CardSet {
        let [rank, one, two] = neighbours(card);
        (rank | one | two) & self.unknown
    }

    /// Σ over the cards melding with `card` the opponent may hold of
    /// `f(probability)`, weighting neighbours two ranks away by half.
    fn over_neighbours(&self, card: Card, f: impl Fn(f32) -> f32) -> f32 {
        let possible = self.held | self.unknown;
        neighbours(card)
            .into_iter()
            .zip([1.0, 1.0, 0.5])
            .map(|(near, w)| {
                (near & possible)
                    .iter()
                    .map(|c| w * f(self.prob(c)))
                    .sum::<f32>()
            })
            .sum()
    }

    /// The probability an unknown card is the opponent's before any evidence:
    /// unknown opponent cards / unknown cards.
    #[must_use]
    pub fn prior(&self) -> f32 {
        self.hidden as f32 / self.unknown.len().max(1) as f32
    }

    /// The evidence that the opponent wants `card`: over the cards that meld
    /// with it (same rank, suit neighbours; ±2 at half weight) that the
    /// opponent may hold, the sum of P(held) − [`Knowledge::prior`]. Zero when
    /// nothing is known; unlike [`Knowledge::danger`] it does not make a card
    /// look safe just because its neighbours are in the player's own hand.
    #[must_use]
    pub fn interest(&self, card: Card) -> f32 {
        let prior = self.prior();
        self.over_neighbours(card, |p| p - prior)
    }

    /// The chance-weighted count of opponent cards that meld with `card`: a
    /// measure of how much discarding `card` would help the opponent.
    #[must_use]
    pub fn danger(&self, card: Card) -> f32 {
        self.over_neighbours(card, |p| p)
    }

    /// P(the opponent holds two cards that make a meld with `card`): one
    /// minus the product, over the pairs that would (two other cards of its
    /// rank; the suit neighbours −2 −1, −1 +1 and +1 +2), of one minus the
    /// chance it holds both, treating cards as independent. A pair also
    /// covers the cases where `card` would be the fourth of a set or extend a
    /// longer run. Cards seen elsewhere (probability 0) make no pair.
    #[must_use]
    pub fn meld_chance(&self, card: Card) -> f32 {
        meld_chance_at(&self.prob, slot(card))
    }

    /// [`Knowledge::meld_chance`] of the card at `bit` of a [`CardSet`].
    pub(super) fn meld_chance_of_bit(&self, bit: u32) -> f32 {
        meld_chance_at(&self.prob, bit as usize + 2)
    }

    /// Σ `f(slot, rank index)` over the cards of `set`.
    fn sum_over(set: CardSet, mut f: impl FnMut(usize, u32) -> f32) -> f32 {
        let mut bits = set.bits();
        let mut total = 0.0;
        while bits != 0 {
            let j = bits.trailing_zeros();
            bits &= bits - 1;
            total += f(j as usize + 2, j % 16);
        }
        total
    }

    /// The expected deadwood of the opponent's hand: over the cards it may
    /// hold, P(held) × value × (1 − [`Knowledge::meld_chance`]), the last
    /// factor being the chance the card is not in a meld.
    #[must_use]
    pub fn opponent_deadwood(&self) -> f32 {
        // Every slot outside `held | unknown` has probability 0, so its term
        // is +0 and adding it changes nothing: summing all slots in bit
        // order gives the sum over those cards bit for bit.
        self.deadwood_terms()
            .iter()
            .fold(0.0, |total, &t| total + t)
    }

    /// Whether `opponent_deadwood() − deadwood ≥ need`, the same answer as
    /// that expression, usually without its 64 dependent additions.
    ///
    /// The terms are first summed in eight independent lanes. Both that sum
    /// and the sequential one are within 64 × 2⁻²⁴ of the exact sum of the
    /// (non-negative) terms, relative to it, so when the lane sum clears the
    /// bar by more than 10⁻⁴ of itself plus 10⁻³ both sides agree; only
    /// closer calls run the sequential sum.
    #[must_use]
    pub fn opponent_deadwood_reaches(&self, deadwood: f32, need: f32) -> bool {
        let terms = self.deadwood_terms();
        let mut lanes = [0f32; 8];
        for chunk in terms.chunks_exact(8) {
            for (lane, &t) in lanes.iter_mut().zip(chunk) {
                *lane += t;
            }
        }
        let approx: f32 = lanes.iter().sum();
        let clearance = approx - deadwood - need;
        let tolerance = approx * 1e-4 + 1e-3;
        if clearance >= tolerance {
            true
        } else if clearance <= -tolerance {
            false
        } else {
            terms.iter().fold(0.0, |total, &t| total + t) - deadwood >= need
        }
    }

    /// The terms of [`Knowledge::opponent_deadwood`] by card bit (0 for the
    /// cards the opponent cannot hold and the unused slots).
    fn deadwood_terms(&self) -> [f32; 64] {
        let chance = meld_chances(&self.prob);
        let mut terms = [0f32; 64];
        for (j, t) in terms.iter_mut().enumerate() {
            *t = self.prob[j + 2] * SLOT_VALUE[j] * (1.0 - chance[j]);
        }
        terms
    }

    /// The live outs of a 10-card `hand`: over the unknown cards that would
    /// make a meld with two of its cards or extend one of its melds (see
    /// `joiners`), the chance each is still in the stock rather than in
    /// the opponent's hand (1 − P(held)).
    #[must_use]
    pub fn live_outs(&self, hand: CardSet) -> f32 {
        Knowledge::sum_over(joiners(hand) & self.unknown, |i, _| 1.0 - self.prob[i])
    }
}

/// Calls `f` with the bit index of every card of `set`, in bit order
/// (without building a [`Card`] for each).
#[inline]
fn for_bits(set: CardSet, mut f: impl FnMut(usize)) {
    let mut bits = set.bits();
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// [`Knowledge::meld_chance`] of the card in slot `i`.
#[inline]
fn meld_chance_at(p: &[f32; 68], i: usize) -> f32 {
    // The other cards of the rank, 16 slots apart, in slot order: the `t`-th
    // other suit is `t`, or `t + 1` from the card's own suit on.
    let (suit, first) = ((i - 2) / 16, 2 + (i - 2) % 16);
    let other = |t: usize| p[first + 16 * (t + usize::from(suit <= t))];
    1.0 - no_pair([
        p[i - 2],
        p[i - 1],
        p[i + 1],
        p[i + 2],
        other(0),
        other(1),
        other(2),
    ])
}

/// The meld chance of every card by bit, from the probabilities by slot
/// (see [`Knowledge::meld_chance`]): one minus [`no_pair`] of the suit
/// neighbours and the other cards of the rank. Lane by lane, 16 slots at a
/// time, so that the loop vectorises; the unused slots get values that are
/// never read.
fn meld_chances(p: &[f32; 68]) -> [f32; 64] {
    let mut out = [0f32; 64];
    for (suit, lane) in out.chunks_exact_mut(16).enumerate() {
        let base = 2 + 16 * suit;
        let near = |d: usize| &p[base + d - 2..base + d + 14];
        let (m2, m1, p1, p2) = (near(0), near(1), near(3), near(4));
        // The other cards of the rank, in slot order: the `t`-th other suit
        // is `t`, or `t + 1` from this suit on.
        let other = |t: usize| {
            let start = 2 + 16 * (t + usize::from(suit <= t));
            &p[start..start + 16]
        };
        let (a, b, c) = (other(0), other(1), other(2));
        for k in 0..16 {
            lane[k] = 1.0 - no_pair([m2[k], m1[k], p1[k], p2[k], a[k], b[k], c[k]]);
        }
    }
    out
}

/// The chance that none of the pairs melding with a card is held, from the
/// probabilities of its suit neighbours −2, −1, +1, +2 and of the other
/// three cards of its rank (in slot order), cards taken as independent.
#[inline]
fn no_pair([m2, m1, p1, p2, a, b, c]: [f32; 7]) -> f32 {
    (1.0 - m2 * m1)
        * (1.0 - m1 * p1)
        * (1.0 - p1 * p2)
        * (1.0 - a * b)
        * (1.0 - a * c)
        * (1.0 - b * c)
}

/// The deadwood value of the card at each bit (0 in the unused slots).
const SLOT_VALUE: [f32; 64] = {
    let mut v = [0f32; 64];
    let mut j = 0;
    while j < 64 {
        let rank = j % 16;
        if rank < 13 {
            v[j] = if rank < 10 { (rank + 1) as f32 } else { 10.0 };
        }
        j += 1;
    }
    v
};

/// The cards outside `hand` that would be in a meld with cards of `hand`:
/// the third or fourth card of a rank it holds twice or more, and a card
/// with two suit neighbours in it (−2 −1, −1 +1 or +1 +2). Bit operations
/// only: shifts by one or two bits stay inside a lane because bits 13–15 of
/// every lane are empty and dropped.
pub fn joiners(hand: CardSet) -> CardSet {
    let h = hand.bits();
    let runs = (h >> 1 & h >> 2) | (h << 1 & h >> 1) | (h << 1 & h << 2);
    let lane = |s: u32| h >> (16 * s) & 0x1FFF;
    let (c, d, he, sp) = (lane(0), lane(1), lane(2), lane(3));
    let pairs = (c & d) | (c & he) | (c & sp) | (d & he) | (d & sp) | (he & sp);
    let sets = pairs * 0x0001_0001_0001_0001;
    CardSet::from_bits_truncate(runs | sets) - hand
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Deck, DrawSource, Hand, Seat, TurnEnd};
    use crate::rules::Rules;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    use crate::strategy::test_deck as deck;

    const A: &str = "AS 2S 3S 2H 3H 4H KC KD KH 5D";
    const B: &str = "7C 8C 9C TD JD QD QC QH QS 5C";

    #[test]
    fn neighbours_stay_in_their_suit() {
        let [rank, one, two] = neighbours(card("AS"));
        assert_eq!(rank, "AC AD AH".parse().unwrap());
        assert_eq!(one, "2S".parse().unwrap());
        assert_eq!(two, "3S".parse().unwrap());
        let [_, one, two] = neighbours(card("KC"));
        assert_eq!((one, two), ("QC".parse().unwrap(), "JC".parse().unwrap()));
        let [_, one, two] = neighbours(card("2D"));
        assert_eq!(
            (one, two),
            ("AD 3D".parse().unwrap(), "4D".parse().unwrap())
        );
    }

    #[test]
    fn prior_is_uniform_and_sums_to_the_hidden_cards() {
        let rules = Rules::standard();
        let d = deck(A, B, "2C", "JS");
        let hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let k = Knowledge::from_view(&hand.view(Seat::A));
        assert_eq!(k.hidden(), 10);
        assert_eq!(k.unknown().len(), 52 - 10 - 1);
        let total: f32 = Card::all().map(|c| k.prob(c)).sum();
        assert!((total - 10.0).abs() < 1e-4, "{total}");
        assert_eq!(k.prob(card("AS")), 0.0, "own card");
        assert_eq!(k.prob(card("2C")), 0.0, "the upcard on the pile");
        assert!((k.prob(card("7C")) - 10.0 / 41.0).abs() < 1e-5);
    }

    #[test]
    fn evidence_moves_the_neighbours() {
        let rules = Rules::standard();
        // B (dealer) passes the 2C upcard after A passes; A draws JS and
        // throws it; B takes the JS: B likely holds spades near J and jacks.
        let d = deck(A, B, "2C", "JS 4S");
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
            .unwrap();
        hand.apply(Seat::A, Action::EndTurn(TurnEnd::Discard(card("JS"))))
            .unwrap();
        let before = Knowledge::from_view(&hand.view(Seat::A));
        // B passed the 2C: 2D (same rank) is less likely than 8D (unrelated).
        assert!(before.prob(card("2D")) < before.prob(card("8D")));
        hand.apply(Seat::B, Action::Draw(DrawSource::Pile)).unwrap();
        hand.apply(Seat::B, Action::EndTurn(TurnEnd::Discard(card("5C"))))
            .unwrap();
        let after = Knowledge::from_view(&hand.view(Seat::A));
        assert_eq!(after.prob(card("JS")), 1.0, "taken and kept");
        assert!(after.held().contains(card("JS")));
        // Took the JS: the jacks and TS/QS are likelier than before.
        assert!(after.prob(card("JC")) > before.prob(card("JC")));
        assert!(after.prob(card("TS")) > before.prob(card("TS")));
        // Discarded the 5C: 6C, 4C and the other fives are less likely.
        assert!(after.prob(card("6C")) < after.prob(card("8D")));
        let total: f32 = Card::all().map(|c| after.prob(c)).sum();
        assert!((total - 10.0).abs() < 1e-3, "{total}");
        assert!(after.danger(card("QS")) > after.danger(card("4D")));
        assert!(after.interest(card("QS")) > 0.0, "next to the JS it took");
        assert!(after.interest(card("5H")) < 0.0, "the rank it threw");
        assert_eq!(
            Knowledge::from_view(
                &Hand::new(&rules, &d, Seat::B, [0, 0])
                    .unwrap()
                    .view(Seat::A)
            )
            .interest(card("QS")),
            0.0
        );
        assert!(after.live_neighbours(card("JS")).contains(card("JC")));
        assert!(
            !after.live_neighbours(card("JS")).contains(card("5C")),
            "on the pile"
        );
    }

    /// Evidence kept through a hand and read a few events at a time gives
    /// the same knowledge as [`Knowledge::from_view`] at every decision, and
    /// its unknown cards are the view's unseen ones.
    #[test]
    fn incremental_equals_from_view() {
        use crate::strategy::Greedy;
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let mut checked = 0;
        for rules in [Rules::standard(), Rules::preset("oklahoma").unwrap()] {
            for n in 0..200 {
                let d = Deck::shuffled(&mut rng);
                let dealer = if n % 2 == 0 { Seat::A } else { Seat::B };
                let mut hand = Hand::new(&rules, &d, dealer, [0, 0]).unwrap();
                let mut players = [Greedy::default(), Greedy::default()];
                let mut evidence = [Evidence::default(), Evidence::default()];
                while let Some(seat) = hand.phase().seat() {
                    for s in Seat::ALL {
                        let view = hand.view(s);
                        evidence[s.index()].catch_up(&view);
                        let k = evidence[s.index()].knowledge(&view);
                        assert_eq!(k, Knowledge::from_view(&view));
                        assert_eq!(k.unknown(), view.unseen());
                        checked += 1;
                    }
                    let view = hand.view(seat);
                    let p = &mut players[seat.index()];
                    let action = crate::engine::ask(p, &view);
                    hand.apply(seat, action).unwrap();
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    /// The model as first written, one card at a time: the probabilities
    /// (a float multiply by each card's 0/1 bit), [`Knowledge::meld_chance`]
    /// and [`Knowledge::opponent_deadwood`]. The masked, vectorised and
    /// tabled versions must give the same bits.
    mod plain {
        use super::super::*;

        pub fn prob(e: &Evidence, view: &PlayerView<'_>) -> [f32; 68] {
            let held = view.opponent_known;
            let unknown = !(view.hand | e.pile_set | held);
            let hidden = view.opponent_cards.saturating_sub(held.len());
            let weight = &e.weight;
            let mut prob = [0f32; 68];
            for card in held {
                prob[slot(card)] = 1.0;
            }
            let mut free = unknown;
            let mut slots = hidden as f32;
            while !free.is_empty() && slots > 0.0 {
                let bits = free.bits();
                let (mut sums, mut maxes) = ([0f32; 8], [0f32; 8]);
                for (chunk, ws) in weight.chunks_exact(8).enumerate() {
                    let lane = bits >> (8 * chunk);
                    for (k, &w) in ws.iter().enumerate() {
                        let w = w * (lane >> k & 1) as f32;
                        sums[k] += w;
                        maxes[k] = maxes[k].max(w);
                    }
                }
                let total: f32 = sums.iter().sum();
                let most = maxes.iter().fold(0f32, |a, &b| a.max(b));
                let scale = slots / total.max(f32::MIN_POSITIVE);
                if most * scale < 1.0 {
                    for (j, (p, &w)) in prob[2..66].iter_mut().zip(weight).enumerate() {
                        *p += w * scale * (bits >> j & 1) as f32;
                    }
                    break;
                }
                let capped: CardSet = free
                    .iter()
                    .filter(|c| weight[c.bit() as usize] * scale >= 1.0)
                    .collect();
                for c in capped {
                    prob[slot(c)] = 1.0;
                }
                slots -= capped.len() as f32;
                free -= capped;
            }
            prob
        }

        pub fn meld_chance(p: &[f32; 68], card: Card) -> f32 {
            let i = slot(card);
            let (m2, m1, p1, p2) = (p[i - 2], p[i - 1], p[i + 1], p[i + 2]);
            let first = 2 + (i - 2) % 16;
            let mut same = [0f32; 3];
            let mut n = 0;
            for j in [first, first + 16, first + 32, first + 48] {
                if j != i {
                    same[n] = p[j];
                    n += 1;
                }
            }
            let [a, b, c] = same;
            let none = (1.0 - m2 * m1)
                * (1.0 - m1 * p1)
                * (1.0 - p1 * p2)
                * (1.0 - a * b)
                * (1.0 - a * c)
                * (1.0 - b * c);
            1.0 - none
        }

        pub fn opponent_deadwood(k: &Knowledge) -> f32 {
            let mut total = 0.0;
            for card in k.held | k.unknown {
                let value = f32::from(card.value());
                total += k.prob[slot(card)] * value * (1.0 - meld_chance(&k.prob, card));
            }
            total
        }
    }

    /// At every decision of played hands (tracker against greedy, three
    /// rule sets) the knowledge equals the plain model bit for bit.
    #[test]
    fn fast_paths_equal_the_plain_model() {
        use crate::engine::Strategy;
        use crate::strategy::{Greedy, Tracker};
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let mut checked = 0;
        for rules in [
            Rules::standard(),
            Rules::eaai(),
            Rules::preset("oklahoma").unwrap(),
        ] {
            for n in 0..150 {
                let d = Deck::shuffled(&mut rng);
                let dealer = if n % 2 == 0 { Seat::A } else { Seat::B };
                let mut hand = Hand::new(&rules, &d, dealer, [0, 0]).unwrap();
                let mut a = Tracker::default();
                let mut b = Greedy::default();
                while let Some(seat) = hand.phase().seat() {
                    for s in Seat::ALL {
                        let view = hand.view(s);
                        let mut evidence = Evidence::default();
                        evidence.catch_up(&view);
                        let k = evidence.knowledge(&view);
                        assert_eq!(bits(&k.prob), bits(&plain::prob(&evidence, &view)));
                        for card in Card::all() {
                            let (fast, slow) =
                                (k.meld_chance(card), plain::meld_chance(&k.prob, card));
                            assert_eq!(fast.to_bits(), slow.to_bits(), "{card}");
                        }
                        let dw = k.opponent_deadwood();
                        assert_eq!(dw.to_bits(), plain::opponent_deadwood(&k).to_bits());
                        // The knock test at bars around the estimate, down
                        // to the last bits.
                        for deadwood in [0.0, 1.0, 7.0, 10.0] {
                            let exact = dw - deadwood;
                            let near = [-1.0, -1e-3, -1e-5, 0.0, 1e-5, 1e-3, 1.0]
                                .map(|d| exact + d)
                                .into_iter()
                                .chain([exact.next_down(), exact.next_up(), 15.0, 45.0]);
                            for need in near {
                                assert_eq!(
                                    k.opponent_deadwood_reaches(deadwood, need),
                                    dw - deadwood >= need,
                                    "{dw} {deadwood} {need}"
                                );
                            }
                        }
                        checked += 1;
                    }
                    let view = hand.view(seat);
                    let p: &mut dyn Strategy = match seat {
                        Seat::A => &mut a,
                        Seat::B => &mut b,
                    };
                    let action = crate::engine::ask(p, &view);
                    hand.apply(seat, action).unwrap();
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    /// Evidence from one hand is dropped when it sees a view of another.
    #[test]
    fn catch_up_starts_over_on_another_hand() {
        let rules = Rules::standard();
        let d = deck(A, B, "2C", "JS 4S");
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
        let mut evidence = Evidence::default();
        evidence.catch_up(&hand.view(Seat::A));
        // Same deal with another history: B takes the upcard.
        let mut other = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        other.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        other.apply(Seat::B, Action::TakeUpcard(true)).unwrap();
        let view = other.view(Seat::A);
        evidence.catch_up(&view);
        assert_eq!(evidence.knowledge(&view), Knowledge::from_view(&view));
        // A fresh deal (fewer events).
        let fresh = Hand::new(&rules, &deck(A, B, "7D", "JS"), Seat::A, [0, 0]).unwrap();
        let view = fresh.view(Seat::A);
        evidence.catch_up(&view);
        assert_eq!(evidence.knowledge(&view), Knowledge::from_view(&view));
        evidence.reset();
        assert_eq!(evidence, Evidence::default());
    }

    #[test]
    fn joiners_and_live_outs() {
        let hand: CardSet = "5H 6H 9C 9D KS QS AS".parse().unwrap();
        assert_eq!(
            joiners(hand),
            "4H 7H 9H 9S JS".parse().unwrap(),
            "runs need two suit neighbours; sets a pair; no wrap K-A"
        );
        assert_eq!(joiners("AC 2C 3C".parse().unwrap()), "4C".parse().unwrap());
        let rules = Rules::standard();
        let d = deck(A, B, "2C", "JS");
        let h = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let k = Knowledge::from_view(&h.view(Seat::A));
        // A = AS 2S 3S 2H 3H 4H KC KD KH 5D: joiners 4S AH 5H KS 2C 2D... the
        // 2C is the upcard (seen), so not live.
        let hand: CardSet = A.parse().unwrap();
        let live = joiners(hand) & k.unknown();
        assert!(!live.contains(card("2C")) && live.contains(card("KS")));
        let expect: f32 = live.iter().map(|c| 1.0 - k.prob(c)).sum();
        assert!((k.live_outs(hand) - expect).abs() < 1e-5);
        assert!(k.live_outs(hand) > 0.0);
    }

    #[test]
    fn meld_chance_and_opponent_deadwood() {
        let rules = Rules::standard();
        let d = deck(A, B, "2C", "JS 4S");
        let mut hand = Hand::new(&rules, &d, Seat::B, [0, 0]).unwrap();
        let start = Knowledge::from_view(&hand.view(Seat::A));
        // A holds AS 2S 3S: nothing melds with them for the opponent but the
        // other aces, twos, threes and 4S 5S.
        let p = start.prior();
        // AC: of the other aces AS is A's, so one pair (AD AH); the 2C is on
        // the pile, so no run pair.
        assert!((start.meld_chance(card("AC")) - p * p).abs() < 1e-5);
        // 9D: three other nines (three pairs), and 7D8D, 8DTD, TDJD.
        let nine = 1.0 - (1.0 - p * p).powi(6);
        assert!((start.meld_chance(card("9D")) - nine).abs() < 1e-5);
        // 4S: with AS-3S in A's hand only 5S 6S pair up, and fours.
        assert!(start.meld_chance(card("4S")) < start.meld_chance(card("9D")));
        let dw = start.opponent_deadwood();
        assert!(dw > 0.0 && dw < 100.0, "{dw}");
        // B takes the pile card: that card's value moves to held (prob 1).
        hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
        hand.apply(Seat::B, Action::TakeUpcard(true)).unwrap();
        let after = Knowledge::from_view(&hand.view(Seat::A));
        assert_eq!(after.prob(card("2C")), 1.0);
        assert!(after.meld_chance(card("3C")) > start.meld_chance(card("3C")));
    }

    #[test]
    fn hidden_cards_do_not_change_the_knowledge() {
        let rules = Rules::standard();
        // Same public history, different cards for B and in the stock.
        let one = deck(A, B, "2C", "JS 4S 5S 6S");
        let two = deck(A, "4S 5S 6S TD JD QD QC QH QS 5C", "2C", "JS 7C 8C 9C");
        let mut knowledge = Vec::new();
        for d in [&one, &two] {
            let mut hand = Hand::new(&rules, d, Seat::B, [0, 0]).unwrap();
            hand.apply(Seat::A, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::B, Action::TakeUpcard(false)).unwrap();
            hand.apply(Seat::A, Action::Draw(DrawSource::Stock))
                .unwrap();
            hand.apply(Seat::A, Action::EndTurn(TurnEnd::Discard(card("JS"))))
                .unwrap();
            hand.apply(Seat::B, Action::Draw(DrawSource::Pile)).unwrap();
            hand.apply(Seat::B, Action::EndTurn(TurnEnd::Discard(card("QS"))))
                .unwrap();
            knowledge.push(Knowledge::from_view(&hand.view(Seat::A)));
        }
        assert_eq!(knowledge[0], knowledge[1]);
    }
}
