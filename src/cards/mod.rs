//! Cards: [`Suit`], [`Rank`], [`Card`] and the bitset [`CardSet`].
//!
//! # Bit layout
//!
//! A [`CardSet`] is a `u64` with one 16-bit lane per suit, in the order
//! clubs, diamonds, hearts, spades (lane `s` holds bits `16*s .. 16*s+13`).
//! Inside a lane, bit `r` is rank `r` with the ace at bit 0 and the king at
//! bit 12; bits 13..16 of every lane are always zero. So a run is a block of
//! adjacent bits in one lane, a rank is a stride of 16, and the meld solver can
//! work on the four lanes independently. This layout is a stable contract: the
//! meld tables and every later layer rely on it.
//!
//! A [`Card`] has an index `0..52` (`13 * suit + rank`, [`Card::index`]) and
//! is stored as its bit position (`16 * suit + rank`, [`Card::bit`]), which
//! every set operation reads: moving a card in or out of a set is one shift.
//! Iterating a set yields cards in bit order: by suit (C, D, H, S), then by
//! rank (A..K). That is also the order in which cards are printed.

mod set;
mod text;

pub use set::{CardSet, Iter};
pub(crate) use text::card_tokens;
pub use text::{ParseCardError, ParseCardsError};

/// A suit. The discriminant is the suit's lane in a [`CardSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Clubs, `C`, lane 0.
    Clubs = 0,
    /// Diamonds, `D`, lane 1.
    Diamonds = 1,
    /// Hearts, `H`, lane 2.
    Hearts = 2,
    /// Spades, `S`, lane 3.
    Spades = 3,
}

impl Suit {
    /// All suits in lane order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit of lane `index` (0..4).
    ///
    /// # Panics
    /// If `index >= 4`.
    #[must_use]
    #[track_caller]
    pub const fn new(index: u8) -> Suit {
        assert!(index < 4, "suit index out of range");
        Suit::ALL[index as usize]
    }

    /// The lane index, 0..4.
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The upper-case letter used in card text (`C`, `D`, `H`, `S`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }
}

/// A rank, ace low: `Ace` is 0 and `King` is 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    Ace = 0,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    /// All ranks from ace to king.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The rank with index `index` (0 = ace .. 12 = king).
    ///
    /// # Panics
    /// If `index >= 13`.
    #[must_use]
    #[track_caller]
    pub const fn new(index: u8) -> Rank {
        assert!(index < 13, "rank index out of range");
        Rank::ALL[index as usize]
    }

    /// The index, 0 (ace) ..= 12 (king).
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The deadwood value: ace 1, pip cards their pip value, J Q K 10.
    #[must_use]
    pub const fn value(self) -> u8 {
        let v = self as u8 + 1;
        if v > 10 { 10 } else { v }
    }

    /// The character used in card text (`A 2 .. 9 T J Q K`).
    #[must_use]
    pub const fn letter(self) -> char {
        b"A23456789TJQK"[self as usize] as char
    }
}

/// One card of the 52-card deck, stored as its bit position in a
/// [`CardSet`], `16 * suit + rank` (so the order of cards is that of
/// their indices, `13 * suit + rank`: by suit, then by rank).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// The rank of a card's low four bits (13 to 15 are never a card's; they
/// read as kings so that the look-up needs no bounds check).
const RANK_OF_LOW_BITS: [Rank; 16] = {
    let mut ranks = [Rank::King; 16];
    let mut r = 0;
    while r < 13 {
        ranks[r] = Rank::ALL[r];
        r += 1;
    }
    ranks
};

/// The deadwood value of a card's low four bits (13 to 15, never a card's,
/// read as kings, as in [`RANK_OF_LOW_BITS`]): one load, no arithmetic.
const VALUE_OF_LOW_BITS: [u8; 16] = {
    let mut values = [0; 16];
    let mut r = 0;
    while r < 16 {
        values[r] = RANK_OF_LOW_BITS[r].value();
        r += 1;
    }
    values
};

impl Card {
    /// All 52 cards in index order (clubs A..K, diamonds, hearts, spades).
    pub const ALL: [Card; 52] = {
        let mut cards = [Card(0); 52];
        let mut index = 0;
        while index < 52 {
            cards[index as usize] = Card::from_index_trusted(index);
            index += 1;
        }
        cards
    };

    /// The card of `rank` and `suit`.
    #[must_use]
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((suit as u8) << 4 | rank as u8)
    }

    /// The card with index `index` (0..52), or `None` if out of range.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 52 {
            Some(Card::from_index_trusted(index))
        } else {
            None
        }
    }

    /// The card with index `index`, which the caller knows is below 52 (an
    /// index read back from a [`Card::index`]); checked in debug builds.
    #[must_use]
    const fn from_index_trusted(index: u8) -> Card {
        debug_assert!(index < 52, "a card index is below 52");
        // 13 * suit + rank, plus 3 * suit.
        Card(index + 3 * (index / 13))
    }

    /// The card at bit position `bit`, which the caller knows is a card's
    /// (below 64, and below 13 within its lane); checked in debug builds.
    #[must_use]
    pub(crate) const fn from_bit_trusted(bit: u32) -> Card {
        debug_assert!(bit < 64 && bit % 16 < 13, "a card's bit");
        Card(bit as u8)
    }

    /// The card at bit position `bit` of a [`CardSet`], or `None` if that bit
    /// is outside the 13 rank bits of a lane.
    #[must_use]
    pub const fn from_bit(bit: u32) -> Option<Card> {
        if bit < 64 && bit % 16 < 13 {
            Some(Card(bit as u8))
        } else {
            None
        }
    }

    /// The index, `13 * suit + rank`.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0 - 3 * (self.0 >> 4)
    }

    /// The rank.
    #[must_use]
    pub const fn rank(self) -> Rank {
        RANK_OF_LOW_BITS[(self.0 & 15) as usize]
    }

    /// The suit.
    #[must_use]
    pub const fn suit(self) -> Suit {
        // A card's bit is below 64, so its suit is below 4 (the mask only
        // spares the bounds check).
        Suit::ALL[(self.0 >> 4 & 3) as usize]
    }

    /// The deadwood value of the card.
    #[must_use]
    pub const fn value(self) -> u8 {
        VALUE_OF_LOW_BITS[(self.0 & 15) as usize]
    }

    /// The bit position in a [`CardSet`]: `16 * suit + rank`.
    #[must_use]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// The one-card set holding this card.
    pub const fn mask(self) -> CardSet {
        CardSet::from_bits_truncate(1u64 << self.bit())
    }

    /// All 52 cards in index order (clubs A..K, diamonds, hearts, spades).
    pub fn all() -> impl ExactSizeIterator<Item = Card> + DoubleEndedIterator {
        Card::ALL.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        let values: Vec<u8> = Rank::ALL.iter().map(|r| r.value()).collect();
        assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
        // A card's value comes from its own table: the same as its rank's.
        for card in Card::all() {
            assert_eq!(card.value(), card.rank().value(), "{card}");
        }
    }

    #[test]
    fn index_bit_round_trip() {
        for card in Card::all() {
            assert_eq!(Card::from_bit(card.bit()), Some(card));
            assert_eq!(Card::new(card.rank(), card.suit()), card);
            assert_eq!(card.mask().len(), 1);
        }
        assert_eq!(Card::from_bit(13), None);
        assert_eq!(Card::from_bit(64), None);
        assert_eq!(Card::from_index(52), None);
        for (index, card) in Card::all().enumerate() {
            assert_eq!(usize::from(card.index()), index);
            assert_eq!(Card::from_index(card.index()), Some(card));
            assert_eq!(card.bit(), 16 * card.suit() as u32 + card.rank() as u32);
            assert_eq!(card.index(), 13 * card.suit() as u8 + card.rank() as u8);
        }
        // Cards order as their indices do.
        let all: Vec<Card> = Card::all().collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]));
    }
}
