//! [`DiscardMemo`]: best discards of hands solved before, for a caller that
//! solves many hands again (a search player's rollouts: the worlds of a
//! decision and its candidates share turns).

use std::cell::Cell;

use super::{Discard, best_discard};
use crate::cards::{Card, CardSet};

/// Slots of a memo: a power of two.
const SLOTS: usize = 1 << 12;

/// A key no hand has (bit 15 of a suit's lane is never a card).
const EMPTY: u64 = u64::MAX;

/// A direct-mapped memo of [`best_discard`]: each hand has one slot (by a
/// multiplicative hash of its cards), which keeps the last hand solved
/// there. It answers exactly what the solver answers; only the cost
/// differs. Built once by its owner (one allocation of 64 KiB) and
/// shared by reference (`Cell`s: no borrow to hold across a call).
pub struct DiscardMemo {
    slots: Box<[Cell<(u64, Discard)>]>,
}

impl DiscardMemo {
    /// An empty memo.
    #[must_use]
    pub fn new() -> DiscardMemo {
        let blank = Discard {
            card: Card::ALL[0],
            deadwood: 0,
        };
        DiscardMemo {
            slots: (0..SLOTS).map(|_| Cell::new((EMPTY, blank))).collect(),
        }
    }

    /// Forgets every hand (the cost of the solves is then paid again).
    pub fn clear(&self) {
        for slot in &*self.slots {
            slot.set((EMPTY, slot.get().1));
        }
    }

    /// [`best_discard`] of `hand`, which holds at least one card.
    ///
    /// # Panics
    /// If `hand` is empty.
    #[inline]
    #[must_use]
    pub fn best_discard(&self, hand: CardSet) -> Discard {
        let key = hand.bits();
        let slot = &self.slots[slot(key)];
        let (held, best) = slot.get();
        if held == key {
            return best;
        }
        let best = best_discard(hand).expect("a hand to discard from holds cards");
        slot.set((key, best));
        best
    }
}

impl Default for DiscardMemo {
    fn default() -> DiscardMemo {
        DiscardMemo::new()
    }
}

impl std::fmt::Debug for DiscardMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DiscardMemo")
    }
}

/// The slot of the hand with cards `key` (Fibonacci hashing: the top bits
/// of the product, which every card's bit reaches).
#[inline]
fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Deck;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn answers_what_the_solver_answers_whether_remembered_or_not() {
        let memo = DiscardMemo::new();
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut hands = Vec::new();
        for _ in 0..3_000 {
            let deck = Deck::shuffled(&mut rng);
            for n in [10, 11] {
                hands.push(deck.cards()[..n].iter().copied().collect::<CardSet>());
            }
        }
        // Twice over: the second pass answers from the slots the first
        // filled, except where a later hand took the slot.
        let mut remembered = 0;
        for pass in 0..2 {
            for &hand in &hands {
                if pass == 1 && memo.slots[slot(hand.bits())].get().0 == hand.bits() {
                    remembered += 1;
                }
                assert_eq!(
                    memo.best_discard(hand),
                    best_discard(hand).unwrap(),
                    "{hand}"
                );
            }
        }
        assert!(
            remembered > 1_000,
            "{remembered} hands answered from the memo"
        );
    }

    #[test]
    fn a_slot_taken_by_another_hand_is_solved_again() {
        let memo = DiscardMemo::new();
        let a: CardSet = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD QD".parse().unwrap();
        // Another hand in `a`'s slot: its own answer, and `a`'s after it.
        let b = (0..)
            .map(|i| {
                let deck = Deck::shuffled(&mut Pcg64Mcg::seed_from_u64(i));
                deck.cards()[..11].iter().copied().collect::<CardSet>()
            })
            .find(|b: &CardSet| *b != a && slot(b.bits()) == slot(a.bits()))
            .unwrap();
        for hand in [a, b, a, a] {
            assert_eq!(
                memo.best_discard(hand),
                best_discard(hand).unwrap(),
                "{hand}"
            );
        }
        assert_eq!(memo.slots[slot(a.bits())].get().0, a.bits());
    }

    #[test]
    fn a_cleared_memo_holds_no_hand_and_still_answers() {
        let memo = DiscardMemo::new();
        let a: CardSet = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD QD".parse().unwrap();
        let best = memo.best_discard(a);
        assert_eq!(memo.slots[slot(a.bits())].get().0, a.bits());
        memo.clear();
        assert!(memo.slots.iter().all(|s| s.get().0 == EMPTY));
        assert_eq!(memo.best_discard(a), best);
        assert_eq!(memo.slots[slot(a.bits())].get().0, a.bits());
    }
}
