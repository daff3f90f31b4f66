//! The solver: min deadwood, an optimal arrangement, the best discard.
//! Tie-breaks are documented in [the `meld` module](crate::meld#tie-breaks).

use crate::cards::{Card, CardSet, Suit};

use super::table::{DISCARD, GAIN_BIAS, RUN_DEADWOOD, RUN_MELDED};
use super::{Arrangement, RANK_STRIDE};

/// The 13-bit lane `suit` of raw set bits.
#[inline(always)]
pub(super) fn lane(bits: u64, suit: u32) -> usize {
    (bits >> (16 * suit) & 0x1FFF) as usize
}

/// Run-only deadwood of every lane, summed.
#[inline(always)]
pub(super) fn runs_deadwood(bits: u64) -> u32 {
    RUN_DEADWOOD[lane(bits, 0)] as u32
        + RUN_DEADWOOD[lane(bits, 1)] as u32
        + RUN_DEADWOOD[lane(bits, 2)] as u32
        + RUN_DEADWOOD[lane(bits, 3)] as u32
}

/// The cards of `bits` that have a run partner pattern in their suit
/// (two cards below, one each side, or two above). The three zero bits at the
/// top of every lane keep shifts of one or two from crossing suits.
#[inline(always)]
pub(super) fn runnable(bits: u64) -> u64 {
    let (up1, up2, down1, down2) = (bits >> 1, bits >> 2, bits << 1, bits << 2);
    ((up1 & up2) | (down1 & up1) | (down1 & down2)) & bits
}

/// The ranks (as a 13-bit mask) holding at least three cards.
#[inline(always)]
pub(super) fn set_ranks(bits: u64) -> u16 {
    let (a, b, c, d) = (
        lane(bits, 0) as u16,
        lane(bits, 1) as u16,
        lane(bits, 2) as u16,
        lane(bits, 3) as u16,
    );
    (a & b & (c | d)) | (c & d & (a | b))
}

/// The sets that must be in some optimal arrangement, the ranks whose set
/// choice is open, and the cards that could be in a run.
///
/// A rank with three or more cards none of which could be in a run is always
/// melded whole: breaking it only adds deadwood. Every other rank with three
/// or more cards is "open".
#[inline(always)]
pub(super) fn split_set_ranks(bits: u64) -> (u64, u16, u64) {
    let candidates = set_ranks(bits);
    if candidates == 0 {
        return (0, 0, 0);
    }
    let run = runnable(bits);
    // Ranks with at least one card that could be in a run: OR of the lanes.
    let runnable_ranks = (run | run >> 16 | run >> 32 | run >> 48) as u16 & 0x1FFF;
    let open = candidates & runnable_ranks;
    // A 13-bit rank mask times RANK_STRIDE copies it into every lane.
    let forced = bits & ((candidates & !runnable_ranks) as u64 * RANK_STRIDE);
    (forced, open, run)
}

/// Calls `f` with the set cards of every set choice over the `open` ranks
/// (added to `chosen`), in the documented tie-break order.
///
/// Options for an open rank: no set, the set of all its cards, and for four
/// cards the 3-card sets that leave out a card that could be in a run (`run`).
/// Pruned, because strictly worse: a 3-card set leaving out a card that
/// cannot be in a run (the 4-card set melds it too), and "no set" for four
/// cards of which fewer than two could be in runs (a 3-card set of the
/// others is better).
#[inline(always)]
pub(super) fn for_each_set_choice<F: FnMut(u64)>(
    bits: u64,
    open: u16,
    run: u64,
    chosen: u64,
    f: &mut F,
) {
    if open == 0 {
        f(chosen);
        return;
    }
    let r = open.trailing_zeros();
    let rest = open & (open - 1);
    if rest == 0 {
        // The last open rank (the only one in most hands with any): no
        // further level of recursion.
        for_each_choice_of_rank(bits, r, run, chosen, f);
    } else {
        for_each_choice_of_rank(bits, r, run, chosen, &mut |sets| {
            for_each_set_choice(bits, rest, run, sets, f);
        });
    }
}

/// Calls `f` with the set cards of every choice at the open rank `r`
/// (added to `chosen`), in [`for_each_set_choice`]'s order (so
/// [`best_arrangement`]'s tie-break is kept), with its pruning.
#[inline(always)]
fn for_each_choice_of_rank<F: FnMut(u64)>(bits: u64, r: u32, run: u64, chosen: u64, f: &mut F) {
    let present = bits & RANK_STRIDE << r;
    // Counted without `count_ones` (about 16 instructions
    // on baseline x86-64): four cards are the whole rank, and two or more
    // runnable ones leave a card once the lowest is cleared.
    let four = present == RANK_STRIDE << r;
    let runnable = present & run;
    if !four || runnable & runnable.wrapping_sub(1) != 0 {
        f(chosen);
    }
    f(chosen | present);
    if four {
        let mut left_out = present & run;
        while left_out != 0 {
            let card = left_out & left_out.wrapping_neg();
            f(chosen | (present & !card));
            left_out &= left_out - 1;
        }
    }
}

/// The minimum deadwood of `hand` over all arrangements.
///
/// Works for any hand; designed and benchmarked for 10 and 11 cards (the
/// number of set choices grows with the number of ranks holding three or
/// more cards, at most three in 11 cards).
///
/// ```
/// use ginlab::{CardSet, meld};
/// let hand: CardSet = "AS 2S 3S 4S 7H 7D 7C KC QC 5H".parse().unwrap();
/// assert_eq!(meld::deadwood(hand), 25);
/// ```
#[must_use]
pub fn deadwood(hand: CardSet) -> u8 {
    let bits = hand.bits();
    let (forced, open, run) = split_set_ranks(bits);
    if open == 0 {
        return runs_deadwood(bits & !forced) as u8;
    }
    let mut best = u32::MAX;
    for_each_set_choice(bits, open, run, forced, &mut |sets| {
        best = best.min(runs_deadwood(bits & !sets));
    });
    best as u8
}

/// The cards of `hand` that are in some meld made of cards of `hand`: a
/// rank held three or more times, or a run pattern in the suit (two cards
/// below, one each side, or two above).
///
/// Every other card is deadwood in every arrangement, so removing it lowers
/// the minimum deadwood by exactly its value: `deadwood(hand − c) ==
/// deadwood(hand) − value(c)` for `c` in `hand` but not in `meldable(hand)`.
///
/// ```
/// use ginlab::{CardSet, meld};
/// let hand: CardSet = "AS 2S 3S 7H 7D 7C KC JC 5H".parse().unwrap();
/// assert_eq!(meld::meldable(hand), "AS 2S 3S 7H 7D 7C".parse().unwrap());
/// ```
pub fn meldable(hand: CardSet) -> CardSet {
    let bits = hand.bits();
    let sets = bits & (u64::from(set_ranks(bits)) * RANK_STRIDE);
    CardSet::from_bits_truncate(runnable(bits) | sets)
}

/// An arrangement of `hand` with minimum deadwood, chosen by the tie-break
/// in [the `meld` module](crate::meld#tie-breaks).
pub fn best_arrangement(hand: CardSet) -> Arrangement {
    least_arrangement(hand).0
}

/// [`best_arrangement`] and its deadwood (the least), from one solve.
pub(crate) fn least_arrangement(hand: CardSet) -> (Arrangement, u8) {
    let bits = hand.bits();
    let (forced, open, run) = split_set_ranks(bits);
    let mut best = (u32::MAX, forced);
    for_each_set_choice(bits, open, run, forced, &mut |sets| {
        let dw = runs_deadwood(bits & !sets);
        if dw < best.0 {
            best = (dw, sets);
        }
    });
    let sets = best.1;
    let rest = bits & !sets;
    let runs = Suit::ALL.iter().fold(CardSet::EMPTY, |runs, &suit| {
        runs | CardSet::from_lane(suit, RUN_MELDED[lane(rest, suit as u32)])
    });
    let arrangement = Arrangement::from_parts(hand, CardSet::from_bits_truncate(sets), runs);
    (arrangement, best.0 as u8)
}

/// Whether `hand` is big gin: 11 cards that all meld.
#[must_use]
pub fn is_big_gin(hand: CardSet) -> bool {
    hand.len() == 11 && deadwood(hand) == 0
}

/// The result of [`best_discard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Discard {
    /// The card to discard.
    pub card: Card,
    /// The minimum deadwood of the cards left.
    pub deadwood: u8,
}

/// The discard that leaves the least deadwood; ties go to the higher rank,
/// then the higher suit. `None` for the empty hand.
///
/// Intended for 11-card hands but correct for any.
///
/// ```
/// use ginlab::{CardSet, meld};
/// let hand: CardSet = "AS 2S 3S 4S 7H 7D 7C KC QC 5H 9D".parse().unwrap();
/// let discard = meld::best_discard(hand).unwrap();
/// assert_eq!(discard.card.to_string(), "KC");
/// assert_eq!(discard.deadwood, 24);
/// ```
#[must_use]
#[inline]
pub fn best_discard(hand: CardSet) -> Option<Discard> {
    let bits = hand.bits();
    if bits == 0 {
        return None;
    }
    if set_ranks(bits) == 0 {
        // No rank held three times (most hands): runs only, so the best
        // discard is the best lane's, with no set choice to visit. Inlined
        // into the caller, this path saves and restores no registers.
        return Some(unpack(lanes_discard(bits).1));
    }
    Some(unpack(discard_with_sets(bits)))
}

/// [`best_discard`] of a hand holding some rank three times, packed as
/// there.
#[inline(never)]
fn discard_with_sets(bits: u64) -> u32 {
    let (forced, open, run) = split_set_ranks(bits);
    if open == 0 {
        // Only forced sets (as often as not when a rank is held three
        // times): when the lanes' best discard saves deadwood, it leaves
        // less than `total`, the least a set's card can leave (below), so
        // it is the best discard.
        let (total, from_lane) = lanes_discard(bits & !forced);
        if from_lane >> 8 < total {
            return from_lane;
        }
    }
    discard_by_choices(bits, forced, open, run)
}

/// [`best_discard`] over the set choices of `bits` (its forced sets,
/// open ranks and runnable cards from [`split_set_ranks`]), packed: kept
/// out of line so that the paths above need no stack frame.
#[inline(never)]
fn discard_by_choices(bits: u64, forced: u64, open: u16, run: u64) -> u32 {
    // Candidates are packed as `deadwood << 8 | (255 - key)` with key =
    // 4 * rank + suit, so the minimum is the least deadwood, then the highest card.
    let pack = |dw: u32, rank: u32, suit: u32| dw << 8 | (255 - (4 * rank + suit));
    // Discarding a card of a forced 3-card set leaves two dead cards (they
    // could not be in runs). The highest such option is the only one worth
    // keeping; it does not depend on the other set choices.
    // Written with selects rather than branches: in played hands whether a
    // rank has a set, or a lane a card, is close to a coin flip.
    let lanes = [0, 1, 2, 3].map(|suit| lane(forced, suit) as u16);
    let fours = lanes[0] & lanes[1] & lanes[2] & lanes[3];
    let threes = (lanes[0] | lanes[1] | lanes[2] | lanes[3]) & !fours;
    // The least extra deadwood is the lowest rank, unless that is a ten or
    // above, where all are worth 10 and the highest rank wins.
    let low = threes.trailing_zeros().min(12);
    let r = if low < 9 {
        low
    } else {
        15 - (threes | 1).leading_zeros()
    };
    let suit = 2 + (lanes[3] >> r & 1) as u32;
    let value = (r + 1).min(10);
    let forced_three = if threes == 0 {
        u32::MAX
    } else {
        pack(2 * value, r, suit)
    };
    let mut best = u32::MAX;
    let mut visit = |sets: u64| {
        let (total, from_lane) = lanes_discard(bits & !sets);
        // A 4-card set can shed its spade and still meld: deadwood `total`.
        let set_fours = lane(sets, 0) & lane(sets, 1) & lane(sets, 2) & lane(sets, 3);
        let high_four = (usize::BITS - 1).wrapping_sub(set_fours.leading_zeros());
        let from_four = if set_fours != 0 {
            pack(total, high_four, 3)
        } else {
            u32::MAX
        };
        let from_three = forced_three.saturating_add(total << 8);
        best = best.min(from_lane).min(from_four).min(from_three);
    };
    if open == 0 {
        visit(forced);
    } else {
        for_each_set_choice(bits, open, run, forced, &mut visit);
    }
    best
}

/// The run-only deadwood of `rest` and its best single discard from a
/// lane, packed as in [`best_discard`] (`u32::MAX` when `rest` is empty).
#[inline(always)]
fn lanes_discard(rest: u64) -> (u32, u32) {
    let e = [0, 1, 2, 3].map(|suit| DISCARD[lane(rest, suit)]);
    let total = (e[0] & 0xFF) + (e[1] & 0xFF) + (e[2] & 0xFF) + (e[3] & 0xFF);
    // Each lane's best discard as (gain, rank, suit); the max is the best.
    let top = (e[0] >> 8)
        .max(e[1] >> 8 | 1)
        .max(e[2] >> 8 | 2)
        .max(e[3] >> 8 | 3);
    let from_lane = (total + GAIN_BIAS - (top >> 8)) << 8 | (255 - (top & 0xFF));
    (total, if top >> 8 != 0 { from_lane } else { u32::MAX })
}

/// The [`Discard`] of a packed candidate `deadwood << 8 | (255 - key)`.
#[inline(always)]
fn unpack(best: u32) -> Discard {
    // key = 4 * rank + suit, below 52: the card's bit is 16 * suit + rank.
    let key = 255 - (best & 0xFF);
    let card = Card::from_bit_trusted(16 * (key % 4) + key / 4);
    Discard {
        card,
        deadwood: (best >> 8) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    #[test]
    fn deadwood_examples() {
        assert_eq!(deadwood(CardSet::EMPTY), 0);
        assert_eq!(deadwood(set("AS 2S 3S")), 0);
        // A card both in a set and a run: 7S can only be used once.
        assert_eq!(deadwood(set("7C 7D 7S 8S 9S")), 7 + 7);
        assert_eq!(deadwood(set("7C 7D 7H 7S 8S 9S")), 0);
        // Two 5-card runs are gin.
        assert_eq!(deadwood(set("AH 2H 3H 4H 5H 6H 7H 8H 9H TH")), 0);
    }

    #[test]
    fn forced_set_discard() {
        // Only sets: drop the spade of the four.
        let d = best_discard(set("5C 5D 5H 5S 9C 9D 9H 9S KC KD KH")).unwrap();
        assert_eq!((d.card.to_string().as_str(), d.deadwood), ("9S", 0));
        // A lone 3-card set: one card goes, two become deadwood.
        let d = best_discard(set("5C 5D 5H")).unwrap();
        assert_eq!((d.card.to_string().as_str(), d.deadwood), ("5H", 10));
    }

    /// `best_discard` is the card whose removal leaves the least deadwood,
    /// ties to the higher rank then suit, on random 10- and 11-card hands
    /// from the deck and from a few adjacent ranks: no rank held three
    /// times, only forced set ranks (a lane's discard saving deadwood, and
    /// none: a set's card or a meld's end goes), and open ones.
    #[test]
    fn best_discard_is_the_least_removal() {
        use crate::engine::Deck;
        use rand::SeedableRng;
        use rand_pcg::Pcg64Mcg;

        let mut rng = Pcg64Mcg::seed_from_u64(48);
        let mut kinds = [0; 4];
        for i in 0..90_000u32 {
            let deck = Deck::shuffled(&mut rng);
            let size = 10 + (i % 2) as usize;
            let hand: CardSet = if i % 3 == 2 {
                // Melds only (a set of three or a run of three to five at
                // the top card's rank and suit), then a card or none.
                let mut hand = CardSet::EMPTY;
                for &card in deck.cards() {
                    let (rank, suit) = (card.rank() as u32, card.suit() as u32);
                    let meld = if rank % 2 == 0 {
                        (RANK_STRIDE << rank) & !(1 << (16 * ((suit + 1) % 4) + rank))
                    } else {
                        ((1u64 << (3 + rank % 3)) - 1) << rank.min(8) << (16 * suit)
                    };
                    let meld = CardSet::from_bits_truncate(meld);
                    if hand.is_disjoint(meld) && (hand | meld).len() as usize <= size {
                        hand |= meld;
                    }
                }
                let extra = deck.cards().iter().find(|c| !hand.contains(**c));
                match extra {
                    Some(&card) if hand.len() < size as u32 && i % 4 != 0 => hand.with(card),
                    _ => hand,
                }
            } else {
                let low = (i % 9) as u8;
                let width = if i % 3 == 0 { 13 } else { 5 + (i % 2) as u8 };
                deck.cards()
                    .iter()
                    .copied()
                    .filter(|c| (low..low + width).contains(&(c.rank() as u8)))
                    .take(size)
                    .collect()
            };
            let want = hand
                .into_iter()
                .map(|card| {
                    let key = std::cmp::Reverse((card.rank(), card.suit()));
                    (deadwood(hand.without(card)), key, card)
                })
                .min()
                .unwrap();
            let got = best_discard(hand).unwrap();
            assert_eq!((got.deadwood, got.card), (want.0, want.2), "{hand}");
            let bits = hand.bits();
            kinds[match split_set_ranks(bits) {
                (0, 0, _) => 0,
                (forced, 0, _)
                    if lanes_discard(bits & !forced).1 >> 8 < runs_deadwood(bits & !forced) =>
                {
                    1
                }
                (_, 0, _) => 2,
                _ => 3,
            }] += 1;
        }
        assert!(kinds.iter().all(|&n| n > 1_000), "{kinds:?}");
    }

    #[test]
    fn arrangement_prefers_runs_on_ties() {
        // 3C 3D 3H with AH 2H: set (dead A 2 = 3) vs run A-2-3H (dead 3C 3D = 6).
        let a = best_arrangement(set("3C 3D 3H AH 2H"));
        assert_eq!(a.to_string(), "[3C 3D 3H] AH 2H");
    }
}
