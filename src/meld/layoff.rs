//! Lay-offs and the optimal showdown; the rules and tie-breaks are in
//! [the `meld` module](crate::meld#showdown).

use crate::cards::{CardSet, Suit};

use super::solve::{for_each_set_choice, split_set_ranks};
use super::{Arrangement, MeldKind, RANK_STRIDE, best_arrangement, deadwood};

/// The result of a showdown: both spreads and the lay-offs. It carries every
/// fact scoring needs (deadwoods, gin, big gin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Showdown {
    /// The knocker's arrangement as spread.
    pub knocker: Arrangement,
    /// The defender's arrangement of the cards it kept (its hand minus
    /// [`Showdown::layoffs`]).
    pub defender: Arrangement,
    /// The defender's cards laid off on the knocker's melds (empty on gin).
    pub layoffs: CardSet,
}

impl Showdown {
    /// The knocker's deadwood count.
    #[must_use]
    pub fn knocker_deadwood(&self) -> u8 {
        self.knocker.deadwood() as u8
    }

    /// The defender's deadwood count after its lay-offs.
    #[must_use]
    pub fn defender_deadwood(&self) -> u8 {
        self.defender.deadwood() as u8
    }

    /// Whether the knocker went gin (10 or 11 cards, no deadwood).
    #[must_use]
    pub fn is_gin(&self) -> bool {
        self.knocker.deadwood() == 0
    }

    /// Whether the knocker went big gin (all 11 cards melded).
    #[must_use]
    pub fn is_big_gin(&self) -> bool {
        self.is_gin() && self.knocker.hand().len() == 11
    }
}

/// Why two hands cannot be shown down.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShowdownError {
    /// The knocker does not hold 10 cards (or 11 for big gin).
    #[error("the knocker must hold 10 cards (11 only for big gin), not {0}")]
    KnockerCount(u32),
    /// The defender does not hold 10 cards.
    #[error("the defender must hold 10 cards, not {0}")]
    DefenderCount(u32),
    /// The hands share cards.
    #[error("the knocker and the defender both hold {0}")]
    Overlap(CardSet),
    /// 11 knocker cards that are not all melded.
    #[error("an 11-card knock must be big gin (all 11 cards melded); with deadwood, discard first")]
    NotBigGin,
    /// The knocker's deadwood exceeds the knock limit.
    #[error("the knocker's deadwood {deadwood} exceeds the knock limit {limit}")]
    OverLimit {
        /// The knocker's deadwood (minimum, or that of the given arrangement).
        deadwood: u16,
        /// The knock limit.
        limit: u8,
    },
}

fn check_hands(knocker: CardSet, defender: CardSet) -> Result<(), ShowdownError> {
    if !matches!(knocker.len(), 10 | 11) {
        return Err(ShowdownError::KnockerCount(knocker.len()));
    }
    if defender.len() != 10 {
        return Err(ShowdownError::DefenderCount(defender.len()));
    }
    if !knocker.is_disjoint(defender) {
        return Err(ShowdownError::Overlap(knocker & defender));
    }
    Ok(())
}

fn check_knock(knocker: CardSet, dead: u16, limit: u8) -> Result<(), ShowdownError> {
    if knocker.len() == 11 && dead != 0 {
        return Err(ShowdownError::NotBigGin);
    }
    if dead > limit as u16 {
        return Err(ShowdownError::OverLimit {
            deadwood: dead,
            limit,
        });
    }
    Ok(())
}

/// The showdown when the knocker spreads `knocker` exactly as given.
///
/// # Errors
/// If the hands have the wrong sizes or overlap, or the arrangement's
/// deadwood is over `knock_limit` (or it has 11 cards and is not big gin).
pub fn showdown_with(
    knocker: Arrangement,
    defender: CardSet,
    knock_limit: u8,
) -> Result<Showdown, ShowdownError> {
    check_hands(knocker.hand(), defender)?;
    check_knock(knocker.hand(), knocker.deadwood(), knock_limit)?;
    let (layoffs, _) = defender_reply(&knocker, defender);
    Ok(Showdown {
        knocker,
        defender: best_arrangement(defender - layoffs),
        layoffs,
    })
}

/// The showdown when the knocker arranges `knocker` as is best for it (see
/// [the `meld` module](crate::meld#showdown)).
///
/// # Errors
/// If the hands have the wrong sizes or overlap, or no arrangement of the
/// knocker's cards has deadwood within `knock_limit`.
///
/// ```
/// use ginlab::{CardSet, meld};
/// let knocker: CardSet = "5S 6S 7S 2H 3H 4H KC KD KH AC".parse().unwrap();
/// let defender: CardSet = "8S 9S TS QD QH 4C 4D 7H 9C JC".parse().unwrap();
/// let s = meld::showdown(knocker, defender, 10).unwrap();
/// assert_eq!(s.layoffs.to_string(), "8S 9S TS");
/// assert_eq!((s.knocker_deadwood(), s.defender_deadwood()), (1, 54));
/// ```
pub fn showdown(
    knocker: CardSet,
    defender: CardSet,
    knock_limit: u8,
) -> Result<Showdown, ShowdownError> {
    check_hands(knocker, defender)?;
    check_knock(knocker, deadwood(knocker) as u16, knock_limit)?;
    let (knocker, layoffs) = best_knock(knocker, defender, knock_limit);
    Ok(Showdown {
        knocker,
        defender: best_arrangement(defender - layoffs),
        layoffs,
    })
}

/// A run of cards the defender may lay off, a prefix of any length at a time.
#[derive(Clone, Copy, Debug, Default)]
struct Chain {
    cards: u64,
    /// Cards go on from the lowest (a run's upper end) or from the highest
    /// (a run's lower end).
    ascending: bool,
}

/// At most 3 melds in 11 cards, 2 chains a run: 6.
const MAX_CHAINS: usize = 6;

fn chains(knocker: &Arrangement, defender: u64) -> ([Chain; MAX_CHAINS], usize) {
    let mut out = [Chain::default(); MAX_CHAINS];
    let mut n = 0;
    let mut push = |chain: Chain| {
        if chain.cards != 0 && n < MAX_CHAINS {
            out[n] = chain;
            n += 1;
        }
    };
    for meld in knocker.melds() {
        let cards = meld.cards().bits();
        match meld.kind() {
            MeldKind::Set => {
                let fourth = RANK_STRIDE << (cards.trailing_zeros() % 16) & !cards & defender;
                if cards.count_ones() == 3 {
                    push(Chain {
                        cards: fourth,
                        ascending: true,
                    });
                }
            }
            MeldKind::Run => {
                let (lo, hi) = (cards.trailing_zeros(), 63 - cards.leading_zeros());
                let base = lo & !15;
                let lane = (defender >> base & 0x1FFF) as u32;
                let (lo, hi) = (lo - base, hi - base);
                let up = (lane >> (hi + 1)).trailing_ones();
                push(Chain {
                    cards: (((1u64 << up) - 1) << (hi + 1)) << base,
                    ascending: true,
                });
                let down = lane.checked_shl(32 - lo).unwrap_or(0).leading_ones();
                push(Chain {
                    cards: (((1u64 << down) - 1) << (lo - down)) << base,
                    ascending: false,
                });
            }
        }
    }
    (out, n)
}

/// The defender's best lay-offs against `knocker` spread as given, and its
/// deadwood after them. On gin nothing is laid off.
pub fn defender_reply(knocker: &Arrangement, defender: CardSet) -> (CardSet, u8) {
    let bits = defender.bits();
    if knocker.deadwood() == 0 {
        return (CardSet::EMPTY, deadwood(defender));
    }
    let (chains, n) = chains(knocker, bits);
    let mut best = (u32::MAX, 0u64);
    lay_off(bits, &chains[..n], 0, &mut best);
    (CardSet::from_bits_truncate(best.1), best.0 as u8)
}

/// Tries every prefix of the first chain, then recurses; keeps the least
/// deadwood, then the most cards laid off (a chain of three or more is also a
/// run of the defender's own; showing it laid off is what a player does),
/// then the first found.
fn lay_off(defender: u64, chains: &[Chain], laid: u64, best: &mut (u32, u64)) {
    let Some((chain, rest)) = chains.split_first() else {
        let dw = deadwood(CardSet::from_bits_truncate(defender & !laid)) as u32;
        if dw < best.0 || (dw == best.0 && laid.count_ones() > best.1.count_ones()) {
            *best = (dw, laid);
        }
        return;
    };
    lay_off(defender, rest, laid, best);
    let (mut left, mut prefix) = (chain.cards, 0u64);
    while left != 0 {
        let card = if chain.ascending {
            left & left.wrapping_neg()
        } else {
            1 << (63 - left.leading_zeros())
        };
        left &= !card;
        prefix |= card;
        lay_off(defender, rest, laid | prefix, best);
    }
}

/// The knocker's best arrangement of `knocker` and the defender's lay-offs
/// against it. The knocker's min deadwood is known to be ≤ `limit`.
fn best_knock(knocker: CardSet, defender: CardSet, limit: u8) -> (Arrangement, CardSet) {
    let kbits = knocker.bits();
    // Cards the defender could ever lay off: the same rank as a knocker card,
    // or next to one in its suit. Without any, the defender's reply is fixed
    // and the knocker simply minimises its deadwood.
    let ranks = (0..4).fold(0u64, |acc, s| acc | (kbits >> (16 * s) & 0x1FFF));
    let near = ((kbits << 1) | (kbits >> 1) | (ranks * RANK_STRIDE)) & CardSet::ALL.bits();
    let best_plain = best_arrangement(knocker);
    if near & defender.bits() == 0 || best_plain.deadwood() == 0 {
        let (layoffs, _) = defender_reply(&best_plain, defender);
        return (best_plain, layoffs);
    }
    // Best so far: (defender − knocker deadwood, −knocker deadwood), arrangement, lay-offs.
    let mut best: Option<((i32, i32), Arrangement, CardSet)> = None;
    let (forced, open, run) = split_set_ranks(kbits);
    for_each_set_choice(kbits, open, run, forced, &mut |sets| {
        let rest = kbits & !sets;
        for_each_run_cover(
            rest,
            0,
            lane(rest, 0),
            0,
            0,
            limit as u32,
            &mut |runs, dead| {
                let arrangement = Arrangement::from_parts(
                    knocker,
                    CardSet::from_bits_truncate(sets),
                    CardSet::from_bits_truncate(runs),
                );
                let (layoffs, dd) = defender_reply(&arrangement, defender);
                let key = (dd as i32 - dead as i32, -(dead as i32));
                if best.is_none_or(|(k, _, _)| key > k) {
                    best = Some((key, arrangement, layoffs));
                }
            },
        );
    });
    let (_, arrangement, layoffs) = best.expect("the min-deadwood arrangement is within the limit");
    (arrangement, layoffs)
}

fn lane(bits: u64, suit: u32) -> u32 {
    (bits >> (16 * suit) & 0x1FFF) as u32
}

/// Calls `f(runs, deadwood)` once for every distinct way to meld the cards of
/// `bits` in runs with deadwood ≤ `limit`, lane by lane from suit `suit`;
/// `left` is what is still undecided of that lane.
fn for_each_run_cover(
    bits: u64,
    suit: u32,
    left: u32,
    runs: u64,
    dead: u32,
    limit: u32,
    f: &mut impl FnMut(u64, u32),
) {
    if left == 0 {
        if suit == Suit::Spades as u32 {
            f(runs, dead);
        } else {
            let next = suit + 1;
            for_each_run_cover(bits, next, lane(bits, next), runs, dead, limit, f);
        }
        return;
    }
    let low = left.trailing_zeros();
    let value = |rank: u32| rank.min(9) + 1;
    if dead + value(low) <= limit {
        let rest = left & (left - 1);
        for_each_run_cover(bits, suit, rest, runs, dead + value(low), limit, f);
    }
    let available = (left >> low).trailing_ones();
    for len in 3..=available {
        let run = ((1u32 << len) - 1) << low;
        let (mut rest, mut d) = (left & !run, dead);
        // The next card, if held, is deadwood: melding it would be the longer run.
        if len < available {
            d += value(low + len);
            rest &= !(1 << (low + len));
            if d > limit {
                continue;
            }
        }
        let runs = runs | (run as u64) << (16 * suit);
        for_each_run_cover(bits, suit, rest, runs, d, limit, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    fn fixed(knocker: &str, defender: &str) -> Showdown {
        showdown_with(knocker.parse().unwrap(), set(defender), 10).unwrap()
    }

    #[test]
    fn chained_three_off_one_end() {
        let s = fixed(
            "[5S 6S 7S] [2H 3H 4H] [KC KD KH] 3D",
            "8S 9S TS QD QH 4C 4D 7H 9C JC",
        );
        assert_eq!(s.layoffs, set("8S 9S TS"));
        assert_eq!(s.defender_deadwood(), 54);
    }

    #[test]
    fn chain_needs_its_first_link() {
        let knocker = "[5S 6S 7S] [2H 3H 4H] [KC KD KH] 3D";
        // 8S then 9S: two cards that are no meld of the defender's own.
        let s = fixed(knocker, "8S 9S JS QD QH 4C 4D 7H 9C JC");
        assert_eq!(s.layoffs, set("8S 9S"));
        assert_eq!(s.defender_deadwood(), 10 + 10 + 10 + 4 + 4 + 7 + 9 + 10);
        // Without the 8S, the 9S has nothing to extend.
        let s = fixed(knocker, "9S JS QD QH 4C 4D 7H 9C JC 2D");
        assert!(s.layoffs.is_empty());
    }

    #[test]
    fn defender_breaks_its_own_melds_to_lay_off() {
        let knocker = "[5S 6S 7S] [2H 3H 4H] [KC KD KH] 3D";
        // Four 8s with 9S dead (26), or 8S then 9S laid off and three 8s kept (17).
        let s = fixed(knocker, "8C 8D 8H 8S 9S AD 2D 4C 4D 6C");
        assert_eq!(s.layoffs, set("8S 9S"));
        assert_eq!(s.defender.to_string(), "[8C 8D 8H] 4C 6C AD 2D 4D");
        assert_eq!(s.defender_deadwood(), 17);
        // Its own run 8S 9S TS (9C 9D dead, 35) is broken: 8S goes on the
        // knocker's run, 9S joins 9C 9D, only TS stays dead (27).
        let s = fixed(knocker, "9C 9D 8S 9S TS AD 2D 4C 4D 6C");
        assert_eq!(s.layoffs, set("8S"));
        assert_eq!(s.defender.to_string(), "[9C 9D 9S] 4C 6C AD 2D 4D TS");
        assert_eq!(s.defender_deadwood(), 27);
    }

    #[test]
    fn both_ends_and_fourth_card() {
        let s = fixed(
            "[4C 5C 6C] [8D 8H 8S] [TS JS QS] 2D",
            "7C 7D 7H 7S 3C 9S KS 8C AD 2H",
        );
        // 3C below and 7C 8C above the club run (8C could go on the eights
        // instead), 9S and KS at both ends of the spade run; 7D 7H 7S stay a set.
        assert_eq!(s.layoffs, set("3C 7C 8C 9S KS"));
        assert_eq!(s.defender.to_string(), "[7D 7H 7S] AD 2H");
        assert_eq!(s.defender_deadwood(), 1 + 2);
    }

    #[test]
    fn no_layoffs_on_gin_or_deadwood() {
        let s = fixed(
            "[AS 2S 3S 4S] [7H 8H 9H] [5D 5C 5S]",
            "5H 6H TH 2D 3D 4D KC QC JS 9C",
        );
        assert!(s.is_gin());
        assert!(s.layoffs.is_empty());
        // Knocker's deadwood pair of twos: the defender's third two stays dead.
        let s = fixed(
            "[5S 6S 7S] [9H TH JH] 2C 2D AC AD",
            "2H 5D 3D 4C 6C 7C 8C 9C TC QS",
        );
        assert!(!s.layoffs.contains("2H".parse().unwrap()));
    }

    const KNOCKER: &str = "AS 2S 3S 4S 2H 3H 4H AC 2C 3D";
    const DEFENDER: &str = "5S QD QH 4C 4D 7H 9C JC 8D 2D";

    #[test]
    fn knocker_breaks_a_run_to_deny_a_lay_off() {
        // Spreading AS-4S (dw 6) lets the 5S go (defender 64, margin 58);
        // leaving 4S dead (dw 10) keeps the defender at 69, margin 59.
        let s = showdown(set(KNOCKER), set(DEFENDER), 10).unwrap();
        assert_eq!(s.knocker.to_string(), "[2H 3H 4H] [AS 2S 3S] AC 2C 3D 4S");
        assert_eq!((s.knocker_deadwood(), s.defender_deadwood()), (10, 69));
        // With a knock limit of 9 the knocker cannot afford that.
        let s = showdown(set(KNOCKER), set(DEFENDER), 9).unwrap();
        assert_eq!((s.knocker_deadwood(), s.defender_deadwood()), (6, 64));
    }

    #[test]
    fn errors() {
        let (k, d) = (set(KNOCKER), set(DEFENDER));
        assert_eq!(
            showdown(k, d - set("JC"), 10),
            Err(ShowdownError::DefenderCount(9))
        );
        assert_eq!(
            showdown(k - set("AC"), d, 10),
            Err(ShowdownError::KnockerCount(9))
        );
        assert!(matches!(
            showdown(k, (d - set("JC")) | set("AS"), 10),
            Err(ShowdownError::Overlap(_))
        ));
        let over = set("AS 2S 3S 4S 2H 3H 9H AC 2C 3D");
        assert_eq!(
            showdown(over, d, 10),
            Err(ShowdownError::OverLimit {
                deadwood: 15,
                limit: 10
            })
        );
        assert_eq!(
            showdown(k | set("KS"), d - set("JC"), 10),
            Err(ShowdownError::DefenderCount(9))
        );
        assert_eq!(
            showdown(k | set("KS"), d, 10),
            Err(ShowdownError::NotBigGin)
        );
    }
}
