//! [`CardSet`]: a set of cards as a `u64`, one 16-bit lane per suit.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub, SubAssign};

use super::{Card, Rank, Suit};

/// A set of cards in the lane layout described in [the module docs](super).
///
/// The field is private so that the 12 unused bits (13..16 of each lane) are
/// always zero; [`CardSet::from_bits`] rejects anything else.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct CardSet(u64);

/// The 13 rank bits of one lane.
const LANE: u64 = 0x1FFF;

/// The value of the cards of a lane's seven low ranks (ace to seven, bits
/// 0..7), by those bits: with [`HIGH_VALUES`], [`CardSet::value`] is two
/// look-ups a suit (a population count is about 16
/// instructions on baseline x86-64).
const LOW_VALUES: [u8; 128] = lane_values(0);

/// The value of the cards of a lane's six high ranks (eight to king, bits
/// 7..13), by those bits shifted down by seven.
const HIGH_VALUES: [u8; 64] = lane_values(7);

/// For every `N` bits of a lane from rank `low` up (`N` a power of two),
/// the total value of the ranks whose bits are set.
const fn lane_values<const N: usize>(low: usize) -> [u8; N] {
    let mut values = [0u8; N];
    let mut bits = 0;
    while bits < N {
        let mut k = 0;
        while 1 << k < N {
            if bits >> k & 1 == 1 {
                values[bits] += Rank::ALL[low + k].value();
            }
            k += 1;
        }
        bits += 1;
    }
    values
}

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const ALL: CardSet = CardSet(LANE | LANE << 16 | LANE << 32 | LANE << 48);

    /// The set with exactly these bits, or `None` if a bit lies outside the
    /// 13 rank bits of a lane.
    #[must_use]
    pub const fn from_bits(bits: u64) -> Option<CardSet> {
        if bits & !CardSet::ALL.0 == 0 {
            Some(CardSet(bits))
        } else {
            None
        }
    }

    /// The set of these bits, dropping any outside the rank bits.
    pub const fn from_bits_truncate(bits: u64) -> CardSet {
        CardSet(bits & CardSet::ALL.0)
    }

    /// The raw bits.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// All 13 cards of `suit`.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(LANE << (16 * suit as u32))
    }

    /// All 4 cards of `rank`.
    pub const fn rank(rank: Rank) -> CardSet {
        CardSet(0x0001_0001_0001_0001 << rank as u32)
    }

    /// The 13-bit mask of ranks present in `suit` (bit `r` = rank `r`).
    #[must_use]
    pub const fn lane(self, suit: Suit) -> u16 {
        ((self.0 >> (16 * suit as u32)) & LANE) as u16
    }

    /// The set whose `suit` lane is `ranks` (bits above 12 are dropped).
    pub const fn from_lane(suit: Suit, ranks: u16) -> CardSet {
        CardSet(((ranks as u64) & LANE) << (16 * suit as u32))
    }

    /// The number of cards.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `card` is in the set.
    #[must_use]
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.bit() & 1 != 0
    }

    /// Whether every card of `other` is in `self`.
    #[must_use]
    pub const fn is_superset(self, other: CardSet) -> bool {
        other.0 & !self.0 == 0
    }

    /// Whether `self` and `other` share no card.
    #[must_use]
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// The set with `card` added.
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.bit())
    }

    /// The set with `card` removed.
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.bit()))
    }

    /// Adds `card`; returns whether it was absent.
    pub fn insert(&mut self, card: Card) -> bool {
        let absent = !self.contains(card);
        self.0 |= 1 << card.bit();
        absent
    }

    /// Removes `card`; returns whether it was present.
    pub fn remove(&mut self, card: Card) -> bool {
        let present = self.contains(card);
        self.0 &= !(1 << card.bit());
        present
    }

    /// The lowest card in bit order (suit, then rank), if any.
    #[must_use]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_bit(self.0.trailing_zeros())
        }
    }

    /// The highest card in bit order (suit, then rank), if any.
    #[must_use]
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_bit(63 - self.0.leading_zeros())
        }
    }

    /// The highest card by rank, then suit (S > H > D > C): the order of
    /// the solver's discard tie-break, if any.
    #[must_use]
    pub const fn highest(self) -> Option<Card> {
        let ranks = (self.0 | self.0 >> 16 | self.0 >> 32 | self.0 >> 48) & 0x1FFF;
        if ranks == 0 {
            return None;
        }
        let rank = 63 - ranks.leading_zeros();
        let suits = self.0 >> rank & 0x0001_0001_0001_0001;
        Card::from_bit(16 * ((63 - suits.leading_zeros()) / 16) + rank)
    }

    /// The sum of the deadwood values of the cards.
    ///
    /// At most 340 (the whole deck), so a `u16` holds it.
    #[must_use]
    pub const fn value(self) -> u16 {
        let mut total = 0;
        let mut suit = 0;
        while suit < 4 {
            let lane = (self.0 >> (16 * suit) & LANE) as usize;
            total += LOW_VALUES[lane & 0x7F] as u16 + HIGH_VALUES[lane >> 7] as u16;
            suit += 1;
        }
        total
    }

    /// Iterates the cards in bit order.
    pub const fn iter(self) -> Iter {
        Iter(self.0)
    }
}

/// Iterator over the cards of a [`CardSet`] in bit order.
#[derive(Clone, Debug)]
pub struct Iter(u64);

impl Iterator for Iter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Card::from_bit(bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter {
    fn next_back(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = 63 - self.0.leading_zeros();
        self.0 &= !(1 << bit);
        Card::from_bit(bit)
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = Iter;

    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        iter.into_iter().fold(CardSet::EMPTY, CardSet::with)
    }
}

impl From<Card> for CardSet {
    fn from(card: Card) -> CardSet {
        card.mask()
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:tt) => {
        impl $trait for CardSet {
            type Output = CardSet;
            fn $method(self, rhs: CardSet) -> CardSet {
                CardSet(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for CardSet {
            fn $assign(&mut self, rhs: CardSet) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);

impl BitXor for CardSet {
    type Output = CardSet;
    fn bitxor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 ^ rhs.0)
    }
}

/// Set difference: the cards of `self` not in `rhs`.
impl Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl SubAssign for CardSet {
    fn sub_assign(&mut self, rhs: CardSet) {
        self.0 &= !rhs.0;
    }
}

/// Complement within the 52 cards.
impl Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::ALL.0)
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consts() {
        assert_eq!(CardSet::ALL.len(), 52);
        assert_eq!(CardSet::ALL.value(), 340);
        for suit in Suit::ALL {
            assert_eq!(CardSet::suit(suit).len(), 13);
            assert_eq!(CardSet::suit(suit).lane(suit), 0x1FFF);
        }
        for rank in Rank::ALL {
            assert_eq!(CardSet::rank(rank).len(), 4);
        }
        assert_eq!(CardSet::from_bits(1 << 13), None);
        assert_eq!(!CardSet::EMPTY, CardSet::ALL);
    }

    #[test]
    fn highest_by_rank_then_suit() {
        let set = |s: &str| s.parse::<CardSet>().unwrap();
        assert_eq!(CardSet::EMPTY.highest(), None);
        for (cards, high) in [
            ("AS KC", "KC"),
            ("KC KD 2S", "KD"),
            ("QS KH KC", "KH"),
            ("AC", "AC"),
        ] {
            assert_eq!(set(cards).highest(), Some(high.parse().unwrap()), "{cards}");
        }
    }

    #[test]
    fn iteration_is_bit_order_both_ways() {
        let cards: Vec<Card> = CardSet::ALL.iter().collect();
        let mut sorted = cards.clone();
        sorted.sort();
        assert_eq!(cards, sorted);
        let back: Vec<Card> = CardSet::ALL.iter().rev().collect();
        assert_eq!(back, cards.into_iter().rev().collect::<Vec<_>>());
        assert_eq!(CardSet::ALL.first(), Card::from_index(0));
        assert_eq!(CardSet::ALL.last(), Card::from_index(51));
    }

    #[test]
    fn value_is_the_sum_of_the_cards_values() {
        // Every single card, then pseudo-random sets of every size.
        for card in Card::all() {
            assert_eq!(card.mask().value(), u16::from(card.value()), "{card}");
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = CardSet::from_bits_truncate(x & (x >> 3));
            let sum: u16 = set.iter().map(|c| u16::from(c.value())).sum();
            assert_eq!(set.value(), sum, "{set}");
        }
    }
}
