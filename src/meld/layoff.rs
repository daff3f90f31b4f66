//! Lay-offs and the optimal showdown; the rules and tie-breaks are in
//! [the `meld` module](crate::meld#showdown).

use crate::cards::{CardSet, Suit};

use super::solve::{
    for_each_set_choice, least_arrangement, runnable, runs_deadwood, set_ranks, split_set_ranks,
};
use super::table::{RUN_DEADWOOD, RUN_GAP};
use super::{Arrangement, RANK_STRIDE, best_arrangement, deadwood};

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

/// Checks both hands and the knock (its least deadwood within the limit, or
/// big gin with eleven cards) and returns the knocker's least deadwood.
fn legal_knock(knocker: CardSet, defender: CardSet, limit: u8) -> Result<u8, ShowdownError> {
    check_hands(knocker, defender)?;
    let dead = deadwood(knocker);
    check_knock(knocker, u16::from(dead), limit)?;
    Ok(dead)
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
    let (plain, dead) = least_arrangement(knocker);
    check_knock(knocker, u16::from(dead), knock_limit)?;
    Ok(settle(plain, dead, defender, knock_limit))
}

/// [`showdown`] of a knock already known to be legal, from the knocker's
/// [`best_arrangement`] and its deadwood (`dead`, the least) as a caller
/// that has checked the knock found them: the hands and the knock are not
/// checked again (the caller's word; debug builds check it).
pub(crate) fn known_showdown(
    plain: Arrangement,
    dead: u8,
    defender: CardSet,
    knock_limit: u8,
) -> Showdown {
    debug_assert_eq!(legal_knock(plain.hand(), defender, knock_limit), Ok(dead));
    debug_assert_eq!(best_arrangement(plain.hand()), plain);
    settle(plain, dead, defender, knock_limit)
}

/// The showdown of a legal knock: the knocker's least-deadwood arrangement
/// `plain` (deadwood `dead`) and the defender's cards.
fn settle(plain: Arrangement, dead: u8, defender: CardSet, knock_limit: u8) -> Showdown {
    let (kept, own) = least_arrangement(defender);
    let (knocker, layoffs) = best_knock(plain, dead, defender, own, knock_limit);
    // Nothing laid off: the defender keeps its own best arrangement.
    let defender = if layoffs.is_empty() {
        kept
    } else {
        best_arrangement(defender - layoffs)
    };
    Showdown {
        knocker,
        defender,
        layoffs,
    }
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
    // The melds in the order of `Arrangement::melds` (by lowest card), read
    // from the arrangement's bits without building each `Meld`.
    let (mut sets, mut runs) = (knocker.set_cards().bits(), knocker.run_cards().bits());
    while sets | runs != 0 {
        let low = (sets | runs).trailing_zeros();
        if sets >> low & 1 == 1 {
            let rank = RANK_STRIDE << (low % 16);
            let cards = sets & rank;
            sets &= !rank;
            // A set holds three or four cards: three unless it is the
            // whole rank.
            if cards != rank {
                push(Chain {
                    cards: rank & !cards & defender,
                    ascending: true,
                });
            }
        } else {
            let base = low & !15;
            let (lo, own) = (low - base, runs >> base & 0x1FFF);
            let len = (own >> lo).trailing_ones();
            let hi = lo + len - 1;
            runs &= !(((1u64 << len) - 1) << low);
            let lane = (defender >> base & 0x1FFF) as u32;
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
    (out, n)
}

/// The defender's best lay-offs against `knocker` spread as given, and its
/// deadwood after them. On gin nothing is laid off.
pub fn defender_reply(knocker: &Arrangement, defender: CardSet) -> (CardSet, u8) {
    reply(knocker, defender, deadwood(defender))
}

/// [`defender_reply`] for a defender whose least deadwood is `own`.
fn reply(knocker: &Arrangement, defender: CardSet, own: u8) -> (CardSet, u8) {
    let bits = defender.bits();
    if knocker.deadwood_cards().is_empty() {
        return (CardSet::EMPTY, own);
    }
    let (chains, n) = chains(knocker, bits);
    // Laying nothing off leaves `own`: the first lay-off set tried.
    let mut best = (u32::from(own), 0u64);
    let lay = Lay {
        defender: bits,
        dead: bits & !super::meldable(defender).bits(),
        own: u32::from(own),
    };
    // A chain of dead cards only goes whole, and only the other chains are
    // searched. For any lay-off set L, L with the whole chain C is legal
    // (C's prefix in L lengthened) and adds only dead cards, so it leaves
    // the deadwood of L less the value of the cards of C not in L: strictly
    // less unless C is in L already. So every best lay-off set holds C
    // whole, and the sets that do are met in the same order as before.
    let (mut open, mut m, mut laid) = ([Chain::default(); MAX_CHAINS], 0, 0u64);
    for chain in &chains[..n] {
        if chain.cards & !lay.dead == 0 {
            laid |= chain.cards;
        } else {
            open[m] = *chain;
            m += 1;
        }
    }
    let (mut left, mut value) = (laid, 0);
    while left != 0 {
        value += (left.trailing_zeros() & 15).min(9) + 1;
        left &= left - 1;
    }
    lay.each(&open[..m], laid, value, &mut best);
    (CardSet::from_bits_truncate(best.1), best.0 as u8)
}

/// The search of the defender's lay-offs: every legal lay-off set (a
/// prefix of each chain), each solved for the deadwood it leaves.
///
/// The cards of the defender that meld with none of its cards (`dead`)
/// are counted, not solved: removing such a card lowers the least
/// deadwood by exactly its value, from any subset of the hand holding it
/// (see [`meldable`](super::meldable)), so the deadwood of `defender − L`
/// is that of `defender` less the cards of `L` that could meld, less the
/// value of the dead ones; and when all of `L` is dead, `own` less their
/// value, with no solve at all. With no card counted dead (`dead` = 0)
/// every set is solved, the search as first written (the tests' reference).
struct Lay {
    defender: u64,
    /// The defender's cards in no meld of its own cards.
    dead: u64,
    /// The defender's least deadwood.
    own: u32,
}

impl Lay {
    /// Tries every prefix of the first of `chains` after `laid` (whose
    /// dead cards are worth `dead_value`), then recurses; keeps the least
    /// deadwood, then the most cards laid off (a chain of three or more is
    /// also a run of the defender's own; showing it laid off is what a
    /// player does), then the first found. `best` starts as laying nothing
    /// off, which is not tried again.
    fn each(&self, chains: &[Chain], laid: u64, dead_value: u32, best: &mut (u32, u64)) {
        let Some((chain, rest)) = chains.split_first() else {
            if laid == 0 {
                return;
            }
            let live = laid & !self.dead;
            let dw = if live == 0 {
                self.own
            } else {
                u32::from(deadwood(CardSet::from_bits_truncate(self.defender & !live)))
            } - dead_value;
            if dw < best.0 || (dw == best.0 && laid.count_ones() > best.1.count_ones()) {
                *best = (dw, laid);
            }
            return;
        };
        self.each(rest, laid, dead_value, best);
        let (mut left, mut prefix, mut value) = (chain.cards, 0u64, dead_value);
        while left != 0 {
            let card = if chain.ascending {
                left & left.wrapping_neg()
            } else {
                1 << (63 - left.leading_zeros())
            };
            left &= !card;
            prefix |= card;
            // A card already laid on another chain counts once.
            if card & self.dead & !laid != 0 {
                value += (card.trailing_zeros() & 15).min(9) + 1;
            }
            self.each(rest, laid | prefix, value, best);
        }
    }
}

/// The knocker's best arrangement and the defender's lay-offs against it,
/// from the knocker's least-deadwood arrangement `best_plain` (its
/// deadwood `dead`, known to be ≤ `limit`) and the defender's least
/// deadwood `own`.
///
/// The search is needed only when the defender's reply to `best_plain`
/// lays off something that helps it. Otherwise `best_plain` reaches the
/// greatest key there is (margin `own − dead` at the least knocker
/// deadwood), and it is also the first arrangement of that key the search
/// would meet: the search meets the set choices in [`best_arrangement`]'s
/// order, and each choice has one arrangement of least deadwood (a suit's
/// runs then meld exactly its blocks of three or more adjacent cards).
/// Nothing goes on gin, and a defender holding no card that could start a
/// lay-off ([`layable`]) has no reply but its own deadwood.
fn best_knock(
    best_plain: Arrangement,
    dead: u8,
    defender: CardSet,
    own: u8,
    limit: u8,
) -> (Arrangement, CardSet) {
    if dead == 0 || layable(best_plain.hand(), defender).is_empty() {
        return (best_plain, CardSet::EMPTY);
    }
    let (layoffs, left) = reply(&best_plain, defender, own);
    if left == own {
        return (best_plain, layoffs);
    }
    let plain = Plain {
        arrangement: best_plain,
        layoffs,
        key: key(left, dead),
    };
    let (_, arrangement, layoffs) = knock_search(defender, own, limit, &plain)
        .expect("the min-deadwood arrangement is within the limit");
    (arrangement, layoffs)
}

/// The knocker's margin in the showdown [`showdown`] finds: the defender's
/// deadwood after its lay-offs less the knocker's, all that scoring needs
/// besides gin (knocker deadwood 0) and big gin (an 11-card gin), found
/// without spreading either hand.
///
/// The most the knocker can make is the defender's own deadwood less the
/// knocker's least, and its least-deadwood arrangement reaches that whenever
/// the defender's reply to it lays off nothing that helps; only otherwise
/// are the other arrangements searched.
///
/// # Errors
/// As [`showdown`].
///
/// ```
/// use ginlab::{CardSet, meld};
/// let knocker: CardSet = "AS 2S 3S 4S 2H 3H 4H AC 2C 3D".parse().unwrap();
/// let defender: CardSet = "5S QD QH 4C 4D 7H 9C JC 8D 2D".parse().unwrap();
/// let s = meld::showdown(knocker, defender, 10).unwrap();
/// let margin = i32::from(s.defender_deadwood()) - i32::from(s.knocker_deadwood());
/// assert_eq!(meld::showdown_margin(knocker, defender, 10), Ok(margin));
/// ```
pub fn showdown_margin(
    knocker: CardSet,
    defender: CardSet,
    knock_limit: u8,
) -> Result<i32, ShowdownError> {
    let dead = legal_knock(knocker, defender, knock_limit)?;
    Ok(knock_margin(
        knocker,
        dead,
        defender,
        deadwood(defender),
        knock_limit,
    ))
}

/// [`showdown_margin`] of a knock already known to be legal, given both
/// least deadwoods (`dead`, the knocker's; `own`, the defender's), as a
/// play-out that has solved both hands knows them: the hands and the knock
/// are not checked again (the caller's word; debug builds check it).
///
/// ```
/// use ginlab::{CardSet, meld};
/// let knocker: CardSet = "AS 2S 3S 4S 2H 3H 4H AC 2C 3D".parse().unwrap();
/// let defender: CardSet = "5S QD QH 4C 4D 7H 9C JC 8D 2D".parse().unwrap();
/// let (dead, own) = (meld::deadwood(knocker), meld::deadwood(defender));
/// assert_eq!(
///     meld::known_knock_margin(knocker, dead, defender, own, 10),
///     meld::showdown_margin(knocker, defender, 10).unwrap(),
/// );
/// ```
#[must_use]
pub fn known_knock_margin(
    knocker: CardSet,
    dead: u8,
    defender: CardSet,
    own: u8,
    knock_limit: u8,
) -> i32 {
    debug_assert_eq!(legal_knock(knocker, defender, knock_limit), Ok(dead));
    debug_assert_eq!(deadwood(defender), own);
    knock_margin(knocker, dead, defender, own, knock_limit)
}

/// The margin of [`showdown_margin`], the knock checked and both least
/// deadwoods known.
fn knock_margin(knocker: CardSet, dead: u8, defender: CardSet, own: u8, knock_limit: u8) -> i32 {
    let margin = i32::from(own) - i32::from(dead);
    // Nothing goes on gin; and a defender holding no card that could start
    // a lay-off on some meld of the knocker's (the fourth of a rank, or a
    // card next to one in its suit) keeps its own deadwood against every
    // arrangement, so the least-deadwood one is best.
    if dead == 0 || layable(knocker, defender).is_empty() {
        return margin;
    }
    let arrangement = best_arrangement(knocker);
    let (layoffs, reply) = reply(&arrangement, defender, own);
    if reply == own {
        return margin;
    }
    let plain = Plain {
        arrangement,
        layoffs,
        key: key(reply, dead),
    };
    let ((margin, _), _, _) = knock_search(defender, own, knock_limit, &plain)
        .expect("the min-deadwood arrangement is within the limit");
    margin
}

/// The cards of `defender` that could be the first laid off on some meld
/// of `knocker`'s cards: of the rank of a card in a set of the knocker's,
/// or next in its suit to a card that could be in a run.
fn layable(knocker: CardSet, defender: CardSet) -> CardSet {
    let bits = knocker.bits();
    let sets = u64::from(set_ranks(bits)) * RANK_STRIDE;
    let run = runnable(bits);
    let near = (run << 1 | run >> 1 | sets) & CardSet::ALL.bits();
    CardSet::from_bits_truncate(near & defender.bits())
}

/// How the knocker ranks an arrangement: the margin (defender's deadwood
/// after lay-offs less the knocker's), then the lower knocker deadwood.
type Key = (i32, i32);

fn key(defender: u8, knocker: u8) -> Key {
    (
        i32::from(defender) - i32::from(knocker),
        -i32::from(knocker),
    )
}

/// The knocker's least-deadwood arrangement, the defender's lay-offs
/// against it and its key: where the search starts.
struct Plain {
    arrangement: Arrangement,
    layoffs: CardSet,
    key: Key,
}

/// The first arrangement of the knocker's hand, in the enumeration order
/// of [the `meld` module](crate::meld#showdown), whose key is the greatest
/// of all arrangements with deadwood ≤ `limit`, with its key and the
/// defender's lay-offs against it; `plain` is one of them (its key is the
/// floor) and `own` the defender's deadwood.
///
/// `plain` is the answer, unsearched, when no other arrangement could
/// reach its key: an arrangement of knocker deadwood `d` has a key of at
/// most `key(own, d)` (the defender may lay nothing off), which falls as
/// `d` rises, and every other arrangement has a deadwood of at least
/// [`runner_up`]'s. So if that is over `limit`, or its bound is below the
/// floor, every other arrangement's key is below `plain`'s and the search
/// ([`search_arrangements`]) would return `plain`, its key and lay-offs. In
/// play-outs the search meets no other arrangement worth solving in most
/// knocks it is called for (the defender's lay-offs against `plain` save
/// it less than breaking a meld of the knocker's would cost).
fn knock_search(
    defender: CardSet,
    own: u8,
    limit: u8,
    plain: &Plain,
) -> Option<(Key, Arrangement, CardSet)> {
    let dead = plain.key.1.unsigned_abs();
    let next = runner_up(&plain.arrangement, dead);
    // `next` is at most `limit`, a `u8`, when the bound is taken.
    if next > u32::from(limit) || key(own, next as u8) < plain.key {
        return Some((plain.key, plain.arrangement, plain.layoffs));
    }
    search_arrangements(defender, own, limit, plain)
}

/// The least deadwood of the arrangements of `plain`'s cards other than
/// `plain`, the hand's [`best_arrangement`], whose deadwood `dead` is the
/// least (`u32::MAX` when there is no other arrangement).
///
/// Another arrangement either makes another set choice, and then has at
/// least the run-only deadwood of the cards that choice leaves
/// ([`runs_deadwood`], the least of that choice), or makes `plain`'s set
/// choice and melds some lane's cards in other runs than `plain` (which
/// has each lane's least, [`RUN_MELDED`](super::table::RUN_MELDED)), which
/// adds at least that lane's [`RUN_GAP`] to `dead`.
fn runner_up(plain: &Arrangement, dead: u32) -> u32 {
    let bits = plain.hand().bits();
    let sets = plain.set_cards().bits();
    let rest = bits & !sets;
    let gap = [0, 1, 2, 3]
        .map(|suit| RUN_GAP[lane(rest, suit) as usize])
        .into_iter()
        .min()
        .unwrap_or(u8::MAX);
    let mut least = if gap == u8::MAX {
        u32::MAX
    } else {
        dead + u32::from(gap)
    };
    let (forced, open, run) = split_set_ranks(bits);
    if open != 0 {
        for_each_set_choice(bits, open, run, forced, &mut |choice| {
            if choice != sets {
                least = least.min(runs_deadwood(bits & !choice));
            }
        });
    }
    debug_assert!(open != 0 || sets == forced, "{plain} is not the best");
    least
}

/// [`knock_search`] without its shortcut: the arrangements searched.
///
/// An arrangement with knocker deadwood `d` has a key of at most
/// `key(defender's own deadwood, d)` (laying nothing off is always open to
/// the defender), which falls as `d` rises. So an arrangement is skipped,
/// unsolved, when that bound is below `floor` or not above the best found so
/// far (neither can be the first with the greatest key), and the enumeration
/// drops every branch whose deadwood, or a lower bound of what it must
/// reach, exceeds the highest deadwood that could still pass.
fn search_arrangements(
    defender: CardSet,
    own: u8,
    limit: u8,
    plain: &Plain,
) -> Option<(Key, Arrangement, CardSet)> {
    let knocker = plain.arrangement.hand();
    let kbits = knocker.bits();
    let floor = plain.key;
    let own = i32::from(own);
    // The highest knocker deadwood whose bound reaches `threshold`.
    let reach = |threshold: Key| (own - threshold.0).min(i32::from(limit)) as u32;
    let mut best: Option<(Key, Arrangement, CardSet)> = None;
    let mut cap = reach(floor);
    let (forced, open, run) = split_set_ranks(kbits);
    for_each_set_choice(kbits, open, run, forced, &mut |sets| {
        let rest = kbits & !sets;
        // Run-only deadwood of the lanes after each suit: what the rest of
        // a cover must add at least.
        let lanes = [0, 1, 2, 3].map(|s| u32::from(RUN_DEADWOOD[lane(rest, s) as usize]));
        let after = [
            lanes[1] + lanes[2] + lanes[3],
            lanes[2] + lanes[3],
            lanes[3],
            0,
        ];
        if lanes[0] + after[0] > cap {
            return;
        }
        let mut visit = |runs: u64, dead: u32, cap: u32| {
            let bound = key(own as u8, dead as u8);
            if bound < floor || best.as_ref().is_some_and(|(k, _, _)| bound <= *k) {
                return cap;
            }
            let arrangement = Arrangement::from_parts(
                knocker,
                CardSet::from_bits_truncate(sets),
                CardSet::from_bits_truncate(runs),
            );
            // The plain arrangement's reply is known.
            let (key, layoffs) = if arrangement == plain.arrangement {
                (plain.key, plain.layoffs)
            } else {
                let (layoffs, dd) = reply(&arrangement, defender, own as u8);
                (key(dd, dead as u8), layoffs)
            };
            if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, arrangement, layoffs));
                return reach(key.max(floor));
            }
            cap
        };
        let mut cover = Cover {
            bits: rest,
            after,
            cap,
        };
        cover.each(0, lane(rest, 0), 0, 0, &mut visit);
        cap = cover.cap;
    });
    best
}

fn lane(bits: u64, suit: u32) -> u32 {
    (bits >> (16 * suit) & 0x1FFF) as u32
}

/// The ways to meld a hand's cards (once its sets are chosen) in runs.
struct Cover {
    bits: u64,
    /// Per suit, the least deadwood the lanes after it add.
    after: [u32; 4],
    /// The highest total deadwood still wanted; lowered by the visitor.
    cap: u32,
}

impl Cover {
    /// Calls `f(runs, deadwood)` once for every distinct way to meld the
    /// cards in runs with deadwood ≤ the cap, lane by lane from suit `suit`;
    /// `left` is what is still undecided of that lane. `f` is given the cap
    /// and returns the new one.
    fn each(
        &mut self,
        suit: u32,
        left: u32,
        runs: u64,
        dead: u32,
        f: &mut impl FnMut(u64, u32, u32) -> u32,
    ) {
        let least = u32::from(RUN_DEADWOOD[left as usize]) + self.after[suit as usize];
        if dead + least > self.cap {
            return;
        }
        if left == 0 {
            if suit == Suit::Spades as u32 {
                self.cap = f(runs, dead, self.cap);
            } else {
                let next = suit + 1;
                self.each(next, lane(self.bits, next), runs, dead, f);
            }
            return;
        }
        let low = left.trailing_zeros();
        let value = |rank: u32| rank.min(9) + 1;
        if dead + value(low) <= self.cap {
            let rest = left & (left - 1);
            self.each(suit, rest, runs, dead + value(low), f);
        }
        let available = (left >> low).trailing_ones();
        for len in 3..=available {
            let run = ((1u32 << len) - 1) << low;
            let (mut rest, mut d) = (left & !run, dead);
            // The next card, if held, is deadwood: melding it would be the longer run.
            if len < available {
                d += value(low + len);
                rest &= !(1 << (low + len));
                if d > self.cap {
                    continue;
                }
            }
            let runs = runs | (run as u64) << (16 * suit);
            self.each(suit, rest, runs, d, f);
        }
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

    /// The chains as first written, meld by meld through `Arrangement::melds`.
    fn chains_by_meld(knocker: &Arrangement, defender: u64) -> Vec<(u64, bool)> {
        let mut out = Vec::new();
        for meld in knocker.melds() {
            let cards = meld.cards().bits();
            match meld.kind() {
                crate::meld::MeldKind::Set => {
                    let fourth = RANK_STRIDE << (cards.trailing_zeros() % 16) & !cards & defender;
                    if cards.count_ones() == 3 {
                        out.push((fourth, true));
                    }
                }
                crate::meld::MeldKind::Run => {
                    let (lo, hi) = (cards.trailing_zeros(), 63 - cards.leading_zeros());
                    let base = lo & !15;
                    let lane = (defender >> base & 0x1FFF) as u32;
                    let (lo, hi) = (lo - base, hi - base);
                    let up = (lane >> (hi + 1)).trailing_ones();
                    out.push(((((1u64 << up) - 1) << (hi + 1)) << base, true));
                    let down = lane.checked_shl(32 - lo).unwrap_or(0).leading_ones();
                    out.push(((((1u64 << down) - 1) << (lo - down)) << base, false));
                }
            }
        }
        out.retain(|&(cards, _)| cards != 0);
        out
    }

    /// Chains read from the bits are those read meld by meld, in order, for
    /// the spreads of many showdowns and the best arrangements of random
    /// 10- and 11-card hands against every other card.
    #[test]
    fn chains_read_from_bits_are_the_melds_chains() {
        let mut nonempty = 0;
        let mut check = |arrangement: &Arrangement, defender: u64| {
            let (got, n) = chains(arrangement, defender);
            let got: Vec<(u64, bool)> = got[..n].iter().map(|c| (c.cards, c.ascending)).collect();
            assert_eq!(
                got,
                chains_by_meld(arrangement, defender),
                "{arrangement} v {defender:#x}"
            );
            nonempty += usize::from(n > 0);
        };
        knocks(5_000, |hand, defender, limit| {
            let s = showdown(hand, defender, limit).unwrap();
            check(&s.knocker, defender.bits());
            let plus = hand.with(defender.first().unwrap());
            check(&best_arrangement(plus), (defender - plus).bits());
            check(&best_arrangement(hand), (CardSet::ALL - hand).bits());
        });
        assert!(nonempty > 5_000, "{nonempty}");
    }

    /// Calls `f(arrangement, deadwood)` for every arrangement of
    /// `knocker` with deadwood ≤ `limit` that the search enumerates (its
    /// set choices, then each lane's cards from low to high, deadwood before
    /// runs, shorter runs first), none skipped.
    fn each_arrangement(knocker: CardSet, limit: u32, f: &mut impl FnMut(Arrangement, u32)) {
        fn covers(
            bits: u64,
            suit: u32,
            left: u32,
            runs: u64,
            dead: u32,
            limit: u32,
            f: &mut impl FnMut(u64, u32),
        ) {
            if left == 0 {
                if suit == 3 {
                    f(runs, dead);
                } else {
                    covers(bits, suit + 1, lane(bits, suit + 1), runs, dead, limit, f);
                }
                return;
            }
            let low = left.trailing_zeros();
            let value = |rank: u32| rank.min(9) + 1;
            if dead + value(low) <= limit {
                covers(
                    bits,
                    suit,
                    left & (left - 1),
                    runs,
                    dead + value(low),
                    limit,
                    f,
                );
            }
            let available = (left >> low).trailing_ones();
            for len in 3..=available {
                let run = ((1u32 << len) - 1) << low;
                let (mut rest, mut d) = (left & !run, dead);
                if len < available {
                    d += value(low + len);
                    rest &= !(1 << (low + len));
                    if d > limit {
                        continue;
                    }
                }
                covers(
                    bits,
                    suit,
                    rest,
                    runs | (run as u64) << (16 * suit),
                    d,
                    limit,
                    f,
                );
            }
        }
        let kbits = knocker.bits();
        let (forced, open, run) = split_set_ranks(kbits);
        for_each_set_choice(kbits, open, run, forced, &mut |sets| {
            let rest = kbits & !sets;
            covers(rest, 0, lane(rest, 0), 0, 0, limit, &mut |runs, dead| {
                let a = Arrangement::from_parts(
                    knocker,
                    CardSet::from_bits_truncate(sets),
                    CardSet::from_bits_truncate(runs),
                );
                f(a, dead);
            });
        });
    }

    /// The search before its bounds: every arrangement within the limit is
    /// solved, the first with the greatest key kept.
    fn unbounded_knock(knocker: CardSet, defender: CardSet, limit: u8) -> (Arrangement, CardSet) {
        let kbits = knocker.bits();
        let plain = best_arrangement(knocker);
        let ranks = (0..4).fold(0u64, |acc, s| acc | (kbits >> (16 * s) & 0x1FFF));
        let near = ((kbits << 1) | (kbits >> 1) | (ranks * RANK_STRIDE)) & CardSet::ALL.bits();
        if near & defender.bits() == 0 || plain.deadwood() == 0 {
            return (plain, defender_reply(&plain, defender).0);
        }
        let mut best: Option<(Key, Arrangement, CardSet)> = None;
        each_arrangement(knocker, u32::from(limit), &mut |a, dead| {
            let (layoffs, dd) = defender_reply(&a, defender);
            let k = key(dd, dead as u8);
            if best.is_none_or(|(b, _, _)| k > b) {
                best = Some((k, a, layoffs));
            }
        });
        let (_, a, layoffs) = best.unwrap();
        (a, layoffs)
    }

    /// Knocks from play-like hands (drawn and discarded greedily until
    /// within the limit) and from hands dense in one suit or rank, against
    /// random defenders, under knock limits 10, 7 and 3.
    fn knocks(n: usize, mut f: impl FnMut(CardSet, CardSet, u8)) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(41);
        let mut done = 0;
        while done < n {
            let deck = crate::engine::Deck::shuffled(&mut rng);
            let mut cards = deck.cards().to_vec();
            if rng.random_bool(0.3) {
                // Crowd two suits (or ranks) together at the top of the deck.
                let by_suit = rng.random_bool(0.5);
                let pick = rng.random_range(0..4u8);
                cards.sort_by_key(|c| {
                    let hit = if by_suit {
                        c.suit() as u8 % 2 == pick % 2
                    } else {
                        c.rank().index() % 4 == pick
                    };
                    !hit
                });
            }
            let limit = [10, 7, 3][done % 3];
            let defender: CardSet = cards[42..].iter().copied().collect();
            let mut hand: CardSet = cards[..10].iter().copied().collect();
            for &card in &cards[10..42] {
                if deadwood(hand) <= limit {
                    break;
                }
                hand.insert(card);
                hand.remove(super::super::best_discard(hand).unwrap().card);
            }
            if deadwood(hand) > limit {
                continue;
            }
            f(hand, defender, limit);
            done += 1;
        }
    }

    /// Deals from a few adjacent ranks: for each `i` below `n`, the knocker's
    /// 10 cards and the defender's of a shuffled deck's cards whose ranks
    /// lie in `window(i)` (its lowest rank and its width).
    fn window_deals(
        seed: u64,
        n: u32,
        window: impl Fn(u32) -> (u8, u8),
        mut f: impl FnMut(CardSet, CardSet),
    ) {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        for i in 0..n {
            let deck = crate::engine::Deck::shuffled(&mut rng);
            let (low, width) = window(i);
            let cards: Vec<_> = deck
                .cards()
                .iter()
                .copied()
                .filter(|c| (low..low + width).contains(&(c.rank() as u8)))
                .collect();
            f(
                cards[..10].iter().copied().collect(),
                cards[10..20].iter().copied().collect(),
            );
        }
    }

    /// The bounded search spreads and lays off exactly as the unbounded
    /// one (the same arrangement on ties), and the margin alone agrees.
    #[test]
    fn bounds_change_no_showdown() {
        let mut searched = 0;
        knocks(30_000, |hand, defender, limit| {
            let got = showdown(hand, defender, limit).unwrap();
            let (knocker, layoffs) = unbounded_knock(hand, defender, limit);
            assert_eq!(
                (got.knocker, got.layoffs),
                (knocker, layoffs),
                "{hand} v {defender} ({limit})"
            );
            let margin = i32::from(got.defender_deadwood()) - i32::from(got.knocker_deadwood());
            assert_eq!(showdown_margin(hand, defender, limit), Ok(margin));
            let plain = best_arrangement(hand);
            if plain.deadwood() > 0 && defender_reply(&plain, defender).1 != deadwood(defender) {
                searched += 1;
            }
        });
        assert!(searched > 3_000, "{searched}");
    }

    /// The defender's reply (lay-offs and deadwood) with its dead cards
    /// counted instead of solved ([`Lay`]) is the search's with every set
    /// solved, against the spread and the least-deadwood arrangement
    /// of play-like knocks and of deals from a few adjacent ranks (chains
    /// sharing cards); all three kinds of best lay-off are reached: dead
    /// cards only, cards that could meld, and both from chains sharing one;
    /// and replies with a chain of dead cards only (laid off whole, not
    /// searched) besides a chain searched.
    #[test]
    fn dead_cards_counted_lay_off_as_solved() {
        let (mut dead, mut live, mut shared, mut mixed) = (0, 0, 0, 0);
        let mut check = |knocker: &Arrangement, defender: CardSet| {
            let (bits, own) = (defender.bits(), deadwood(defender));
            let (chains, n) = chains(knocker, bits);
            let mut want = (u32::from(own), 0u64);
            if !knocker.deadwood_cards().is_empty() {
                let solving = Lay {
                    defender: bits,
                    dead: 0,
                    own: u32::from(own),
                };
                solving.each(&chains[..n], 0, 0, &mut want);
            }
            let want = (CardSet::from_bits_truncate(want.1), want.0 as u8);
            assert_eq!(
                reply(knocker, defender, own),
                want,
                "{knocker} v {defender}"
            );
            let laid = want.0.bits();
            let meldable = super::super::meldable(defender).bits();
            dead += usize::from(laid != 0 && laid & meldable == 0);
            live += usize::from(laid & meldable != 0);
            let sum: u32 = chains[..n].iter().map(|c| c.cards.count_ones()).sum();
            let union = chains[..n].iter().fold(0, |u, c| u | c.cards);
            shared += usize::from(sum > union.count_ones() && laid != 0);
            let whole = chains[..n].iter().filter(|c| c.cards & meldable == 0);
            mixed += usize::from(whole.count() > 0 && union & meldable != 0);
        };
        knocks(10_000, |hand, defender, limit| {
            check(&showdown(hand, defender, limit).unwrap().knocker, defender);
            check(&best_arrangement(hand), defender);
        });
        window_deals(
            44,
            20_000,
            |i| ((i % 8) as u8, 5),
            |knocker, defender| {
                check(&best_arrangement(knocker), defender);
            },
        );
        assert!(
            dead > 3_000 && live > 3_000 && shared > 100 && mixed > 1_000,
            "{dead} dead, {live} live, {shared} shared, {mixed} mixed"
        );
    }

    #[test]
    fn margin_errors_as_the_showdown() {
        let (k, d) = (set(KNOCKER), set(DEFENDER));
        for (k, d, limit) in [
            (k, d - set("JC"), 10),
            (k - set("AC"), d, 10),
            (k, d, 5),
            (k | set("KS"), d, 10),
        ] {
            let expected = showdown(k, d, limit).unwrap_err();
            assert_eq!(showdown_margin(k, d, limit), Err(expected), "{k} v {d}");
        }
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

    /// `best_knock`'s shortcuts (gin, no card to lay off, a reply that
    /// saves the defender nothing) give what the search from the
    /// least-deadwood arrangement gives, arrangement and lay-offs, on
    /// random deals and on deals from a few adjacent ranks (many sets,
    /// runs and lay-offs), at the least knock limit, a wider one and none;
    /// and the showdown's defender is its best arrangement after them.
    #[test]
    fn shortcuts_find_what_the_search_finds() {
        use crate::engine::Deck;
        use rand::SeedableRng;
        use rand_pcg::Pcg64Mcg;

        let mut rng = Pcg64Mcg::seed_from_u64(32);
        let (mut skipped, mut searched) = (0, 0);
        for i in 0..30_000u32 {
            let deck = Deck::shuffled(&mut rng);
            // Every other deal from the ranks of a window of five or six.
            let low = (i / 2 % 8) as u8;
            let width = 5 + (i / 16 % 2) as u8;
            let cards: Vec<_> = deck
                .cards()
                .iter()
                .copied()
                .filter(|c| i % 2 == 0 || (low..low + width).contains(&(c.rank() as u8)))
                .collect();
            let knocker: CardSet = cards[..10].iter().copied().collect();
            let defender: CardSet = cards[10..20].iter().copied().collect();
            let (plain, dead) = least_arrangement(knocker);
            assert_eq!(
                (plain, dead),
                (best_arrangement(knocker), deadwood(knocker))
            );
            let own = deadwood(defender);
            for limit in [dead, dead.saturating_add(7), 200] {
                let (layoffs, left) = reply(&plain, defender, own);
                let want = if dead == 0 {
                    (plain, layoffs)
                } else {
                    let start = Plain {
                        arrangement: plain,
                        layoffs,
                        key: key(left, dead),
                    };
                    let (_, arrangement, layoffs) =
                        knock_search(defender, own, limit, &start).unwrap();
                    (arrangement, layoffs)
                };
                if left == own || dead == 0 {
                    skipped += 1;
                } else {
                    searched += 1;
                }
                assert_eq!(
                    best_knock(plain, dead, defender, own, limit),
                    want,
                    "{knocker} against {defender}, limit {limit}"
                );
                let s = known_showdown(plain, dead, defender, limit);
                assert_eq!((s.knocker, s.layoffs), want);
                assert_eq!(s.defender, best_arrangement(defender - s.layoffs));
            }
        }
        assert!(
            skipped > 10_000 && searched > 10_000,
            "{skipped} / {searched}"
        );
    }

    /// [`runner_up`] is the least deadwood of the knocker's other
    /// arrangements, every one the search enumerates counted, for play-like
    /// knocks and for hands from a few adjacent ranks (sets and runs
    /// competing for cards, four of a rank, several open set ranks).
    #[test]
    fn runner_up_is_the_next_least_deadwood() {
        let mut seen = [0usize; 3];
        let mut check = |hand: CardSet| {
            let (plain, dead) = least_arrangement(hand);
            let mut next = u32::MAX;
            each_arrangement(hand, 255, &mut |a, d| {
                if a != plain {
                    next = next.min(d);
                }
            });
            assert_eq!(runner_up(&plain, u32::from(dead)), next, "{hand}");
            let (_, open, _) = split_set_ranks(hand.bits());
            seen[usize::from(next == u32::MAX)] += 1;
            seen[2] += usize::from(open != 0);
        };
        knocks(20_000, |hand, _, _| check(hand));
        let window = |i: u32| ((i % 9) as u8, 5 + (i % 3) as u8);
        window_deals(45, 20_000, window, |knocker, _| check(knocker));
        assert!(
            seen[0] > 20_000 && seen[1] > 100 && seen[2] > 5_000,
            "{seen:?}"
        );
    }

    /// Knocks whose defender lays off something that helps it against the
    /// knocker's least-deadwood arrangement, from play-like hands, from a
    /// few adjacent ranks, and the vectors' knockers (10 cards within the
    /// limit) against their defenders: the search with its shortcut
    /// returns what the search without it returns (key, arrangement and
    /// lay-offs), at the least knock limit, wider ones and none, and the
    /// margin is the unbounded search's.
    #[test]
    fn shortcut_changes_no_search() {
        let (mut short, mut searched) = (0, 0);
        let mut check = |knocker: CardSet, defender: CardSet| {
            let (plain, dead) = least_arrangement(knocker);
            let own = deadwood(defender);
            let (layoffs, left) = reply(&plain, defender, own);
            if dead == 0 || left == own {
                return;
            }
            let start = Plain {
                arrangement: plain,
                layoffs,
                key: key(left, dead),
            };
            for limit in [dead, dead + 3, dead.max(10), 200] {
                let got = knock_search(defender, own, limit, &start);
                assert_eq!(
                    got,
                    search_arrangements(defender, own, limit, &start),
                    "{knocker} against {defender}, limit {limit}"
                );
                let (a, laid) = unbounded_knock(knocker, defender, limit);
                let want = key(deadwood(defender - laid), a.deadwood() as u8);
                assert_eq!(got.unwrap().0, want, "{knocker} against {defender}");
                let next = runner_up(&plain, u32::from(dead));
                if next > u32::from(limit) || key(own, next as u8) < start.key {
                    short += 1;
                } else {
                    searched += 1;
                }
            }
        };
        knocks(30_000, |hand, defender, _| check(hand, defender));
        let window = |i: u32| ((i % 8) as u8, 5 + (i % 2) as u8);
        window_deals(46, 30_000, window, |knocker, defender| {
            if deadwood(knocker) <= 10 {
                check(knocker, defender);
            }
        });
        let vectors = include_str!("../../tests/data/vectors/showdown.csv");
        for row in vectors.lines().skip(1) {
            let mut fields = row.split(',');
            let knocker: Arrangement = fields.next().unwrap().parse().unwrap();
            let defender = set(fields.next().unwrap());
            let hand = knocker.hand();
            if hand.len() == 10 && deadwood(hand) <= 10 {
                check(hand, defender);
            }
        }
        assert!(short > 20_000 && searched > 5_000, "{short} / {searched}");
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
