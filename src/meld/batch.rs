//! The batched solver: the least deadwood of every hand one card away from
//! a hand, in one call, one byte per card ([`PerCard`]).
//!
//! - [`deadwood_without_each`]: `deadwood(hand − c)` for every card `c` of
//!   the hand (an 11-card hand's discards).
//! - [`deadwood_with_each`]: `deadwood(hand + x)` for every card `x` of a
//!   given set outside the hand (a 10-card hand and each unseen card).
//!
//! # How it works
//!
//! An arrangement of `hand − c` is an arrangement of `hand` with `c` left
//! unmelded, so when `c` is in no rank holding three or more cards of the
//! hand, the set choices of `hand` cover those of `hand − c`, and for each
//! choice the lane of `c`'s suit changes by one card while the other three
//! stay. [`TOGGLE`] holds, per lane mask, the run-only deadwood of the lane
//! with each of its 13 cards toggled, 16 bytes a lane: one set choice costs
//! four table rows, each added to the deadwood of the other lanes and folded
//! into a running minimum, 16 bytes at a time (a saturating add and a
//! minimum of two byte vectors, which the compiler emits as SIMD
//! instructions on any target with 128-bit vectors; `benches/meld.rs`
//! `batch/*` compares it with the one-card-at-a-time solver). Adding a card
//! `x` works the same way, with two more cases: `x` making a set with a pair
//! of the hand (one more candidate per set choice, the pair leaving its
//! lanes), and `x` joining a rank the hand holds three times (rare; solved
//! one hand at a time). Removing a card of a rank held three times leaves
//! a pair, so it is read from the choices with no set of that rank (or, for
//! a rank whose cards could be in no run, from the hand's own least
//! deadwood); removing one of a rank held four times changes the set
//! choices themselves and is solved one hand at a time.
//!
//! The set choices are enumerated with the pruning of the scalar solver,
//! computed for `hand` (removal: a card can only lose run partners, so every
//! choice `hand − c` needs is kept) or for `hand` with every candidate added
//! (addition: the cards that could be in a run then include those of every
//! `hand + x`, so again no needed choice is pruned).

use crate::cards::{Card, CardSet};

use super::RANK_STRIDE;
use super::solve::{
    deadwood, for_each_set_choice, lane, runnable, runs_deadwood, set_ranks, split_set_ranks,
};
use super::table::{REMOVAL, RUN_DEADWOOD, TOGGLE};

/// One byte per card, indexed by the card's bit in a [`CardSet`] (16 per
/// suit, the top three of each suit unused): four 16-byte vectors, one a
/// suit, and the cards the call covered. The bytes of other cards are
/// unspecified and never read.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct PerCard {
    bytes: [u8; 64],
    covered: u64,
}

impl PerCard {
    /// What [`PerCard::min_over`] gives for no covered card.
    pub const NONE: u8 = u8::MAX;

    /// The deadwood for `card`, `None` if the call did not cover it.
    #[must_use]
    pub fn get(&self, card: Card) -> Option<u8> {
        let bit = card.bit();
        (self.covered >> bit & 1 == 1).then_some(self.bytes[bit as usize])
    }

    /// The deadwood for the covered card at `bit` of a [`CardSet`] (for
    /// loops over a set's bits; the byte of a card not covered is
    /// unspecified).
    #[must_use]
    #[inline]
    pub fn get_bit(&self, bit: u32) -> u8 {
        debug_assert!(self.covered >> bit & 1 == 1, "bit {bit} not covered");
        self.bytes[bit as usize]
    }

    /// The cards covered.
    pub fn covered(&self) -> CardSet {
        CardSet::from_bits_truncate(self.covered)
    }

    /// The least deadwood over the covered cards of `cards`
    /// ([`PerCard::NONE`] if there are none).
    #[must_use]
    pub fn min_over(&self, cards: CardSet) -> u8 {
        let mut left = cards.bits() & self.covered;
        let mut least = Self::NONE;
        while left != 0 {
            least = least.min(self.bytes[left.trailing_zeros() as usize]);
            left &= left - 1;
        }
        least
    }

    /// The least deadwood over the covered cards of `cards` and the cards
    /// reaching it, in one pass: what [`PerCard::min_over`] and
    /// [`PerCard::cards_at`] give together, `(PerCard::NONE, empty)` for no
    /// covered card.
    pub fn least_and_ties(&self, cards: CardSet) -> (u8, CardSet) {
        let mut left = cards.bits() & self.covered;
        let (mut least, mut at) = (Self::NONE, 0u64);
        while left != 0 {
            let bit = left.trailing_zeros();
            left &= left - 1;
            let deadwood = self.bytes[bit as usize];
            if deadwood < least {
                least = deadwood;
                at = 0;
            }
            at |= u64::from(deadwood == least) << bit;
        }
        (least, CardSet::from_bits_truncate(at))
    }

    /// The covered cards of `cards` whose deadwood is exactly `deadwood`.
    pub fn cards_at(&self, cards: CardSet, deadwood: u8) -> CardSet {
        let mut left = cards.bits() & self.covered;
        let mut at = 0;
        while left != 0 {
            let bit = left.trailing_zeros();
            at |= u64::from(self.bytes[bit as usize] == deadwood) << bit;
            left &= left - 1;
        }
        CardSet::from_bits_truncate(at)
    }
}

impl PartialEq for PerCard {
    /// The same cards covered with the same deadwood.
    fn eq(&self, other: &PerCard) -> bool {
        self.covered == other.covered
            && self
                .covered()
                .iter()
                .all(|card| self.get(card) == other.get(card))
    }
}

impl Eq for PerCard {}

impl std::fmt::Debug for PerCard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let covered = (0..64u32).filter_map(|bit| {
            let card = Card::from_bit(bit)?;
            Some((card, self.get(card)?))
        });
        f.debug_map().entries(covered).finish()
    }
}

/// Folds one set choice into `acc`: with `rest` the cards left for runs,
/// byte `r` of suit `s` becomes at most the run-only deadwood of `rest`
/// with card `(r, s)` toggled. Saturates at 255, which no least deadwood
/// reaches (an optimum's deadwood holds at most two cards a rank, 170).
/// Returns the run-only deadwood of `rest` itself.
#[inline(always)]
fn fold_choice(acc: &mut [u8; 64], rest: u64) -> u32 {
    let lanes = [0, 1, 2, 3].map(|suit| lane(rest, suit));
    let dw = lanes.map(|m| u32::from(RUN_DEADWOOD[m]));
    let total = dw[0] + dw[1] + dw[2] + dw[3];
    for suit in 0..4 {
        let others = (total - dw[suit]).min(255) as u8;
        let row = &TOGGLE[lanes[suit]];
        let out = &mut acc[16 * suit..16 * suit + 16];
        for k in 0..16 {
            out[k] = out[k].min(row[k].saturating_add(others));
        }
    }
    total
}

/// Every card of `bits` in a rank `bits` holds at least three times.
#[inline(always)]
fn set_rank_cards(bits: u64) -> u64 {
    bits & (u64::from(set_ranks(bits)) * RANK_STRIDE)
}

/// `deadwood(hand − c)` for every card `c` of `hand`, in one call: for an
/// 11-card hand, the deadwood each discard leaves.
///
/// ```
/// use ginlab::{CardSet, meld};
/// let hand: CardSet = "AS 2S 3S 4S 7H 7D 7C KC QC 5H 9D".parse().unwrap();
/// let left = meld::deadwood_without_each(hand);
/// assert_eq!(left.get("KC".parse().unwrap()), Some(24));
/// assert_eq!(left.get("4S".parse().unwrap()), Some(34));
/// assert_eq!(left.get("KS".parse().unwrap()), None);
/// ```
#[must_use]
pub fn deadwood_without_each(hand: CardSet) -> PerCard {
    let bits = hand.bits();
    let mut acc = [PerCard::NONE; 64];
    let (forced, open, run) = split_set_ranks(bits);
    // A card `c` of a rank held three times leaves a pair there, so the
    // arrangements of `hand − c` are those of `hand` with no set of that
    // rank: for an open rank, the choices leaving its three cards to runs,
    // where `c`'s lane changes by one card (`loose`); for a forced rank,
    // whose cards could be in no run, every choice with the pair dead, so
    // `deadwood(hand) + 2 × value`. Removing a card of a rank held four
    // times changes the choices at that rank: solved one hand at a time.
    let lanes = [0, 1, 2, 3].map(|suit| lane(bits, suit) as u16);
    let fours = u64::from(lanes[0] & lanes[1] & lanes[2] & lanes[3]) * RANK_STRIDE;
    let open_three = bits & (u64::from(open) * RANK_STRIDE) & !fours;
    let mut loose = [PerCard::NONE; 64];
    let mut least = u32::MAX;
    let mut visit = |sets: u64| {
        let rest = bits & !sets;
        let total = fold_choice(&mut acc, rest);
        least = least.min(total);
        let mut free = open_three & rest;
        while free != 0 {
            let bit = free.trailing_zeros();
            free &= free - 1;
            let suit = lane(rest, bit / 16);
            let others = total - u32::from(RUN_DEADWOOD[suit]);
            let without = others + u32::from(TOGGLE[suit][(bit % 16) as usize]);
            loose[bit as usize] = loose[bit as usize].min(without as u8);
        }
    };
    if open == 0 {
        visit(forced);
    } else {
        for_each_set_choice(bits, open, run, forced, &mut visit);
    }
    let mut alone = set_rank_cards(bits);
    while alone != 0 {
        let bit = alone.trailing_zeros();
        alone &= alone - 1;
        acc[bit as usize] = if fours >> bit & 1 == 1 {
            deadwood(CardSet::from_bits_truncate(bits & !(1 << bit)))
        } else if open_three >> bit & 1 == 1 {
            loose[bit as usize]
        } else {
            let value = (bit % 16 + 1).min(10);
            (least + 2 * value) as u8
        };
    }
    PerCard {
        bytes: acc,
        covered: bits,
    }
}

/// The least deadwood left by discarding a card of `legal` from `hand`,
/// and the cards of `legal` leaving it: what
/// `deadwood_without_each(hand).least_and_ties(legal)` gives
/// (`(PerCard::NONE, empty)` when `legal` holds no card of `hand`), for
/// one turn end's choice.
///
/// When every rank held three or more times is forced (none of its cards
/// could be in a run; no such rank is the common case), the hand's
/// arrangements are its forced sets plus runs of the `rest`, and so are
/// those of `hand − c`: for `c` outside the sets, `deadwood(hand − c)` is
/// the run-only deadwood of `rest − c`, which differs from `rest`'s in
/// `c`'s lane only, so a lane whose cards are all legal is answered by
/// one [`REMOVAL`] entry (its least and the ranks reaching it) and any
/// other card by one [`TOGGLE`] byte, with no solve (`fold_rest`); a
/// card of a four leaves a forced three (the hand's least deadwood), a
/// card of a three leaves its pair dead (twice its value more). A hand
/// with one open rank, held three times, has two set choices, that set or
/// not, each read the same way (a card of that rank only in the choice
/// leaving it to runs, which is the arrangements of the hand without it).
/// Other hands take the batched solve.
pub fn least_discards(hand: CardSet, legal: CardSet) -> (u8, CardSet) {
    let bits = hand.bits();
    let (forced, open, _) = split_set_ranks(bits);
    let legal = legal.bits() & bits;
    let mut acc = Least {
        least: u32::from(PerCard::NONE),
        at: 0,
    };
    let rest = bits & !forced;
    let hand_least = if open == 0 {
        fold_rest(&mut acc, rest, legal & rest)
    } else {
        let set = bits & (u64::from(open) * RANK_STRIDE);
        if open & (open - 1) != 0 || set.count_ones() != 3 {
            return deadwood_without_each(hand).least_and_ties(CardSet::from_bits_truncate(legal));
        }
        let apart = fold_rest(&mut acc, rest, legal & rest);
        let melded = fold_rest(&mut acc, rest & !set, legal & rest & !set);
        apart.min(melded)
    };
    let mut single = legal & forced;
    if single != 0 {
        let sets = [0, 1, 2, 3].map(|suit| lane(forced, suit));
        let fours = (sets[0] & sets[1] & sets[2] & sets[3]) as u64 * RANK_STRIDE;
        while single != 0 {
            let bit = single.trailing_zeros();
            single &= single - 1;
            let deadwood = if fours >> bit & 1 == 1 {
                hand_least
            } else {
                hand_least + 2 * (bit % 16 + 1).min(10)
            };
            acc.fold(deadwood, 1 << bit);
        }
    }
    (acc.least as u8, CardSet::from_bits_truncate(acc.at))
}

/// The least deadwood found so far and the cards reaching it.
struct Least {
    least: u32,
    at: u64,
}

impl Least {
    #[inline(always)]
    fn fold(&mut self, deadwood: u32, cards: u64) {
        if deadwood < self.least {
            self.least = deadwood;
            self.at = 0;
        }
        if deadwood == self.least {
            self.at |= cards;
        }
    }
}

/// Folds into `acc` the run-only deadwood of `rest` less each card of
/// `cards` (cards of `rest`): a lane whose cards are all in `cards` by its
/// [`REMOVAL`] entry, other cards one [`TOGGLE`] byte each. Returns the
/// run-only deadwood of `rest`.
#[inline(always)]
fn fold_rest(acc: &mut Least, rest: u64, cards: u64) -> u32 {
    let lanes = [0, 1, 2, 3].map(|suit| lane(rest, suit));
    let dw = lanes.map(|m| u32::from(RUN_DEADWOOD[m]));
    let total = dw[0] + dw[1] + dw[2] + dw[3];
    let mut single = 0;
    for suit in 0..4 {
        let legal_lane = lane(cards, suit as u32);
        if legal_lane == lanes[suit] {
            if legal_lane != 0 {
                let entry = REMOVAL[legal_lane];
                let at = u64::from(entry & 0x1FFF) << (16 * suit);
                acc.fold(total - dw[suit] + (entry >> 16), at);
            }
        } else {
            single |= (legal_lane as u64) << (16 * suit);
        }
    }
    while single != 0 {
        let bit = single.trailing_zeros();
        single &= single - 1;
        let suit = (bit / 16) as usize;
        let row = &TOGGLE[lanes[suit]];
        acc.fold(
            total - dw[suit] + u32::from(row[(bit % 16) as usize]),
            1 << bit,
        );
    }
    total
}

/// `deadwood(hand + x)` for every card `x` of `cards` outside `hand`, in
/// one call: for a 10-card hand and the unseen cards, the deadwood each
/// would make before discarding.
///
/// ```
/// use ginlab::{CardSet, meld};
/// let hand: CardSet = "AS 2S 3S 4S 7H 7D KC QC 5H 9D".parse().unwrap();
/// let with = meld::deadwood_with_each(hand, !hand);
/// assert_eq!(with.get("7C".parse().unwrap()), Some(34));
/// assert_eq!(with.get("5S".parse().unwrap()), Some(48));
/// assert_eq!(with.get("AS".parse().unwrap()), None);
/// ```
#[must_use]
pub fn deadwood_with_each(hand: CardSet, cards: CardSet) -> PerCard {
    let bits = hand.bits();
    let cands = cards.bits() & !bits;
    let mut acc = [PerCard::NONE; 64];
    // Ranks with exactly two cards in the hand and a candidate: that
    // candidate makes a 3-card set with the pair.
    let ranks = [0, 1, 2, 3].map(|suit| lane(bits, suit) as u16);
    let two_or_more = (ranks[0] & (ranks[1] | ranks[2] | ranks[3]))
        | (ranks[1] & (ranks[2] | ranks[3]))
        | (ranks[2] & ranks[3]);
    let threes = set_ranks(bits);
    let cand_ranks = [0, 1, 2, 3]
        .map(|suit| lane(cands, suit) as u16)
        .iter()
        .fold(0, |acc, l| acc | l);
    let pairs = two_or_more & !threes & cand_ranks;
    // The pruning of the set choices, with every candidate in the hand.
    let run = runnable(bits | cands);
    let runnable_ranks = (run | run >> 16 | run >> 32 | run >> 48) as u16 & 0x1FFF;
    let forced = bits & (u64::from(threes & !runnable_ranks) * RANK_STRIDE);
    let open = threes & runnable_ranks;
    let mut best_pair_set = [u32::MAX; 13];
    let mut visit = |sets: u64| {
        let rest = bits & !sets;
        fold_choice(&mut acc, rest);
        let mut left = pairs;
        while left != 0 {
            let r = left.trailing_zeros();
            left &= left - 1;
            let pair = bits & RANK_STRIDE << r;
            let dw = runs_deadwood(rest & !pair);
            best_pair_set[r as usize] = best_pair_set[r as usize].min(dw);
        }
    };
    if open == 0 {
        visit(forced);
    } else {
        for_each_set_choice(bits, open, run, forced, &mut visit);
    }
    let mut left = pairs;
    while left != 0 {
        let r = left.trailing_zeros();
        left &= left - 1;
        let set = best_pair_set[r as usize].min(255) as u8;
        for suit in 0..4 {
            let i = 16 * suit + r as usize;
            acc[i] = acc[i].min(set);
        }
    }
    let mut alone = cands & (u64::from(threes) * RANK_STRIDE);
    while alone != 0 {
        let bit = alone.trailing_zeros();
        alone &= alone - 1;
        acc[bit as usize] = deadwood(CardSet::from_bits_truncate(bits | 1 << bit));
    }
    PerCard {
        bytes: acc,
        covered: cands,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    /// Against the scalar solver, on hands where every special case occurs:
    /// set ranks of three and four, pairs, forced sets, runs through sets.
    #[test]
    fn matches_the_scalar_solver() {
        let hands = [
            "AS 2S 3S 4S 7H 7D 7C KC QC 5H 9D",
            "5C 5D 5H 5S 9C 9D 9H 9S KC KD KH",
            "5C 5D 5H 6H 9C 9D 9H TH JH 2S 3S",
            "2C 2D 2H 2S 3H 4H 7C 7D 8C 9C",
            "5C 5D 5H 6H KS KH QD 2C 2D 9S",
            "AH 2H 3H 4H 5H 6H 7H 8H 9H TH",
            "",
            "KS",
        ];
        for text in hands {
            let hand = set(text);
            let without = deadwood_without_each(hand);
            let with = deadwood_with_each(hand, !hand);
            for card in Card::all() {
                if hand.contains(card) {
                    assert_eq!(
                        without.get(card),
                        Some(deadwood(hand.without(card))),
                        "{hand} without {card}"
                    );
                    assert_eq!(with.get(card), None);
                } else {
                    assert_eq!(without.get(card), None);
                    assert_eq!(
                        with.get(card),
                        Some(deadwood(hand.with(card))),
                        "{hand} with {card}"
                    );
                }
            }
        }
    }

    /// Against the scalar solver on random 10- and 11-card hands holding
    /// one or two ranks four times (the rest drawn from a few adjacent
    /// ranks, so that runs cross the sets), every card removed.
    #[test]
    fn four_of_a_rank_matches_the_scalar_solver() {
        use crate::engine::Deck;
        use rand::SeedableRng;
        use rand_pcg::Pcg64Mcg;

        let mut rng = Pcg64Mcg::seed_from_u64(41);
        let mut checked = 0;
        for i in 0..20_000u32 {
            let deck = Deck::shuffled(&mut rng);
            let first = deck.cards()[0].rank() as u32;
            let second = (first + 1 + i % 3) % 13;
            let mut hand = CardSet::from_bits_truncate(RANK_STRIDE << first);
            if i % 4 == 0 {
                hand |= CardSet::from_bits_truncate(RANK_STRIDE << second);
            }
            let size = 10 + (i % 2);
            for &card in deck.cards() {
                let near = (card.rank() as u32).abs_diff(first) <= 3 || i % 8 == 1;
                if hand.len() < size && near {
                    hand.insert(card);
                }
            }
            let without = deadwood_without_each(hand);
            for card in hand {
                assert_eq!(
                    without.get(card),
                    Some(deadwood(hand.without(card))),
                    "{hand} without {card}"
                );
                checked += 1;
            }
        }
        assert!(checked > 150_000, "{checked}");
    }

    /// `least_discards` against the batched solve's `least_and_ties`, on
    /// random 10- to 12-card hands (with and without ranks held three or
    /// four times, forced or open) and every kind of legal set: the whole hand, the hand
    /// without one of its cards, a random part, cards outside the hand.
    #[test]
    fn least_discards_is_least_and_ties() {
        use crate::engine::Deck;
        use rand::{RngExt as _, SeedableRng};
        use rand_pcg::Pcg64Mcg;

        let mut rng = Pcg64Mcg::seed_from_u64(47);
        // Hands of each kind: no rank held three times, only forced set
        // ranks (lane lookups), an open set rank (the batched solve).
        let (mut no_set, mut forced, mut open) = (0, 0, 0);
        for i in 0..60_000u32 {
            let deck = Deck::shuffled(&mut rng);
            let size = 10 + (i % 3) as usize;
            let hand: CardSet = deck.cards()[..size].iter().copied().collect();
            let banned = deck.cards()[i as usize % size];
            let part = CardSet::from_bits_truncate(hand.bits() & rng.random::<u64>());
            let outside: CardSet = deck.cards()[40..].iter().copied().collect();
            for legal in [hand, hand.without(banned), part, outside, part | outside] {
                let left = deadwood_without_each(hand);
                assert_eq!(
                    least_discards(hand, legal),
                    left.least_and_ties(legal),
                    "{hand}, legal {legal}"
                );
            }
            match split_set_ranks(hand.bits()) {
                (0, 0, _) => no_set += 1,
                (_, 0, _) => forced += 1,
                _ => open += 1,
            }
        }
        // Forced fours and threes, with runs beside them; open ones, alone
        // and beside forced ones.
        for text in [
            "5C 5D 5H 5S 4H 6H 9C 9D 9H 9S TS",
            "5C 5D 5H 5S 4H 3H 9C 9D 9H 8D 7D",
            "5C 5D 5H 6H 9C 9D 9H TH JH 2S 3S",
            "2C 2D 2H 2S 3H 4H 7C 7D 8C 9C 7H",
            "5C 5D 5H 5S 9C 9D 9H TH JH 2S 3S",
            "5C 5D 5H 5S 9C 9D 9H 9S KC KD KH",
            "5C 5D 5H 5S 9C KD 2H 7S QC JD TC",
            "5C 5D 5H 5S AH 2H 3H 9D KS QS JS",
            "KC KD KH JS 2C 3C 4C 8D 8H 8S 7C",
        ] {
            let hand = set(text);
            for legal in hand.iter().map(|c| hand.without(c)).chain([hand]) {
                let left = deadwood_without_each(hand);
                assert_eq!(least_discards(hand, legal), left.least_and_ties(legal));
            }
        }
        assert!(
            no_set > 30_000 && forced > 10_000 && open > 2_500,
            "{no_set} {forced} {open}"
        );
    }

    #[test]
    fn min_and_ties() {
        let hand = set("AS 2S 3S 4S 7H 7D 7C KC QC 5H 9D");
        let left = deadwood_without_each(hand);
        assert_eq!(left.min_over(hand), 24);
        assert_eq!(left.cards_at(hand, 24), set("QC KC"));
        assert_eq!(left.min_over(set("AS 2S 3S 4S")), 34);
        assert_eq!(left.min_over(CardSet::EMPTY), PerCard::NONE);
        assert_eq!(left.least_and_ties(hand), (24, set("QC KC")));
        let spades = set("AS 2S 3S 4S");
        // Dropping 2S or 3S breaks the run; dropping an end keeps 3 of it.
        assert_eq!(left.least_and_ties(spades), (34, set("AS 4S")));
        assert_eq!(
            left.least_and_ties(set("7H 5H 9D KS")),
            (
                left.min_over(set("7H 5H 9D")),
                left.cards_at(set("7H 5H 9D"), left.min_over(set("7H 5H 9D")))
            )
        );
        assert_eq!(
            left.least_and_ties(CardSet::EMPTY),
            (PerCard::NONE, CardSet::EMPTY)
        );
    }
}
