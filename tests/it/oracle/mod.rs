//! A deliberately naive brute-force oracle for melds, deadwood, discards,
//! lay-offs and the showdown (RULES.md, "Cards", "Melds and deadwood",
//! "Showdown").
//!
//! It is written for clarity, not speed, and shares NOTHING with
//! `src/meld`: no tables, no bit lanes, no set-choice pruning, no
//! "discard = most valuable deadwood card" identity, no lay-off chains. It
//! only uses `Card` as a name for a card and reads its rank and suit through
//! `Card::rank()` / `Card::suit()`; card values are recomputed here from the
//! rank. Everything is plain `Vec<Card>` and brute force:
//!
//! - a meld is listed if it is literally contained in the cards (every 3- and
//!   4-card subset of one rank, every stretch of 3+ consecutive ranks of one
//!   suit);
//! - the minimum deadwood is the minimum over *every* collection of pairwise
//!   disjoint melds;
//! - the best discard tries every card;
//! - lay-offs are simulated one card at a time on growing copies of the
//!   knocker's melds, and every subset of the defender's hand is tried.
//!
//! If this file and the solver disagree, suspect the solver first, but read
//! this file: it is short enough to check by hand.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

use ginlab::Card;

/// Rank 0 (ace) ..= 12 (king).
pub fn rank(card: Card) -> u8 {
    card.rank().index()
}

/// Suit 0 (clubs), 1 (diamonds), 2 (hearts), 3 (spades).
pub fn suit(card: Card) -> u8 {
    card.suit().index()
}

/// Deadwood value: ace 1, 2..10 their pips, J Q K 10 (recomputed from the
/// rank, not taken from the crate).
pub fn value(card: Card) -> u32 {
    let pips = u32::from(rank(card)) + 1;
    if pips > 10 { 10 } else { pips }
}

/// The sum of the values of `cards`.
pub fn total_value(cards: &[Card]) -> u32 {
    cards.iter().map(|&c| value(c)).sum()
}

/// A small integer naming a card, 0..52, used as an index into `[bool; 52]`.
fn key(card: Card) -> usize {
    usize::from(rank(card)) * 4 + usize::from(suit(card))
}

/// Whether `cards` is a legal meld: 3 or 4 cards of one rank, or 3+ cards of
/// one suit whose ranks are consecutive (ace low, no wrap).
pub fn is_meld(cards: &[Card]) -> bool {
    is_set(cards) || is_run(cards)
}

/// 3 or 4 cards, all of one rank (and therefore of distinct suits, since the
/// cards are distinct).
pub fn is_set(cards: &[Card]) -> bool {
    (cards.len() == 3 || cards.len() == 4)
        && cards.iter().all(|&c| rank(c) == rank(cards[0]))
        && distinct(cards)
}

/// 3 or more cards of one suit, ranks consecutive.
pub fn is_run(cards: &[Card]) -> bool {
    if cards.len() < 3 || !distinct(cards) {
        return false;
    }
    if !cards.iter().all(|&c| suit(c) == suit(cards[0])) {
        return false;
    }
    let mut ranks: Vec<u8> = cards.iter().map(|&c| rank(c)).collect();
    ranks.sort();
    ranks.windows(2).all(|w| w[1] == w[0] + 1)
}

fn distinct(cards: &[Card]) -> bool {
    let mut seen = [false; 52];
    for &c in cards {
        if seen[key(c)] {
            return false;
        }
        seen[key(c)] = true;
    }
    true
}

/// Every meld contained in `cards`: every 3-card subset and the 4-card subset
/// of each rank, and every stretch of 3 or more consecutive ranks of one suit.
pub fn all_melds(cards: &[Card]) -> Vec<Vec<Card>> {
    let mut melds = Vec::new();
    // Sets.
    for r in 0..13u8 {
        let same: Vec<Card> = cards.iter().copied().filter(|&c| rank(c) == r).collect();
        let n = same.len();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    melds.push(vec![same[i], same[j], same[k]]);
                }
            }
        }
        if n == 4 {
            melds.push(same.clone());
        }
    }
    // Runs.
    for s in 0..4u8 {
        let find = |r: u8| {
            cards
                .iter()
                .copied()
                .find(|&c| suit(c) == s && rank(c) == r)
        };
        for low in 0..13u8 {
            // The cards low, low+1, ... of suit s, as far as they go; every
            // prefix of 3 or more is a run.
            let mut run = Vec::new();
            for r in low..13u8 {
                let Some(card) = find(r) else { break };
                run.push(card);
                if run.len() >= 3 {
                    melds.push(run.clone());
                }
            }
        }
    }
    debug_assert!(melds.iter().all(|m| is_meld(m)));
    melds
}

/// Calls `f(chosen)` once for every collection of pairwise-disjoint melds
/// from `melds` (as indices into `melds`), including the empty collection.
fn for_each_packing(melds: &[Vec<Card>], f: &mut impl FnMut(&[usize])) {
    fn go(
        melds: &[Vec<Card>],
        start: usize,
        used: &mut [bool; 52],
        chosen: &mut Vec<usize>,
        f: &mut impl FnMut(&[usize]),
    ) {
        f(chosen);
        for i in start..melds.len() {
            if melds[i].iter().any(|&c| used[key(c)]) {
                continue;
            }
            for &c in &melds[i] {
                used[key(c)] = true;
            }
            chosen.push(i);
            go(melds, i + 1, used, chosen, f);
            chosen.pop();
            for &c in &melds[i] {
                used[key(c)] = false;
            }
        }
    }
    go(melds, 0, &mut [false; 52], &mut Vec::new(), f);
}

/// The deadwood of `cards` when exactly the melds `chosen` are melded.
fn packing_deadwood(cards: &[Card], melds: &[Vec<Card>], chosen: &[usize]) -> u32 {
    let mut melded = [false; 52];
    for &i in chosen {
        for &c in &melds[i] {
            melded[key(c)] = true;
        }
    }
    cards
        .iter()
        .filter(|&&c| !melded[key(c)])
        .map(|&c| value(c))
        .sum()
}

/// The minimum deadwood of `cards` over every collection of disjoint melds.
pub fn min_deadwood(cards: &[Card]) -> u32 {
    let melds = all_melds(cards);
    let mut best = u32::MAX;
    for_each_packing(&melds, &mut |chosen| {
        best = best.min(packing_deadwood(cards, &melds, chosen));
    });
    best
}

/// `cards` without the card at position `skip`.
fn without(cards: &[Card], skip: usize) -> Vec<Card> {
    cards
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != skip)
        .map(|(_, &c)| c)
        .collect()
}

/// The discard leaving the least deadwood, and that deadwood. Ties go to the
/// highest rank (king highest, ace lowest), then the highest suit
/// (S > H > D > C).
///
/// # Panics
/// On an empty hand.
pub fn best_discard(cards: &[Card]) -> (Card, u32) {
    assert!(!cards.is_empty(), "no card to discard");
    let mut best: Option<(Card, u32)> = None;
    for i in 0..cards.len() {
        let card = cards[i];
        let dw = min_deadwood(&without(cards, i));
        best = match best {
            None => Some((card, dw)),
            Some((old, old_dw)) => {
                let better = dw < old_dw
                    || (dw == old_dw && (rank(card), suit(card)) > (rank(old), suit(old)));
                if better {
                    Some((card, dw))
                } else {
                    Some((old, old_dw))
                }
            }
        };
    }
    best.unwrap()
}

/// Every way to spread `cards`: every collection of disjoint melds (also those
/// that leave meldable cards as deadwood), with its deadwood.
pub fn knocker_arrangements(cards: &[Card]) -> Vec<(Vec<Vec<Card>>, u32)> {
    let melds = all_melds(cards);
    let mut out = Vec::new();
    for_each_packing(&melds, &mut |chosen| {
        let spread: Vec<Vec<Card>> = chosen.iter().map(|&i| melds[i].clone()).collect();
        out.push((spread, packing_deadwood(cards, &melds, chosen)));
    });
    out
}

/// Whether `card` may be attached to the (possibly already grown) knocker meld
/// `meld`: the 4th card of a 3-card set, or the next card below the lowest or
/// above the highest card of a run, same suit.
pub fn can_attach(meld: &[Card], card: Card) -> bool {
    if meld.contains(&card) {
        return false;
    }
    if is_set(meld) {
        return meld.len() == 3 && rank(card) == rank(meld[0]);
    }
    if is_run(meld) {
        if suit(card) != suit(meld[0]) {
            return false;
        }
        let low = meld.iter().map(|&c| rank(c)).min().unwrap();
        let high = meld.iter().map(|&c| rank(c)).max().unwrap();
        return (low > 0 && rank(card) == low - 1) || (high < 12 && rank(card) == high + 1);
    }
    panic!("not a meld: {meld:?}");
}

/// Whether every card of `layoff` can be laid off on `knocker_melds`, one card
/// at a time, each onto a meld as grown by the cards before it (the literal
/// definition: depth-first search over the order of the cards and the meld
/// each goes on, remembering states already explored).
pub fn can_lay_off(knocker_melds: &[Vec<Card>], layoff: &[Card]) -> bool {
    fn go(
        melds: &mut Vec<Vec<Card>>,
        left: &mut Vec<Card>,
        seen: &mut HashSet<Vec<Vec<usize>>>,
    ) -> bool {
        if left.is_empty() {
            return true;
        }
        if !seen.insert(state_key(melds)) {
            return false;
        }
        for i in 0..left.len() {
            for m in 0..melds.len() {
                let card = left[i];
                if can_attach(&melds[m], card) {
                    left.remove(i);
                    melds[m].push(card);
                    let ok = go(melds, left, seen);
                    melds[m].pop();
                    left.insert(i, card);
                    if ok {
                        return true;
                    }
                }
            }
        }
        false
    }
    let mut melds = knocker_melds.to_vec();
    let mut left = layoff.to_vec();
    go(&mut melds, &mut left, &mut HashSet::new())
}

/// The melds' current cards as sorted card keys, meld by meld.
fn state_key(melds: &[Vec<Card>]) -> Vec<Vec<usize>> {
    melds
        .iter()
        .map(|m| {
            let mut keys: Vec<usize> = m.iter().map(|&c| key(c)).collect();
            keys.sort();
            keys
        })
        .collect()
}

/// Every subset of `defender` (as a bit mask over positions in `defender`)
/// that can be laid off on `knocker_melds`: every state reachable by attaching
/// defender cards one at a time (search over growing copies of the melds),
/// and the cards placed in it.
pub fn legal_layoff_masks(knocker_melds: &[Vec<Card>], defender: &[Card]) -> HashSet<u32> {
    let mut seen_states: HashSet<Vec<Vec<usize>>> = HashSet::new();
    let mut masks = HashSet::new();
    let mut stack: Vec<(Vec<Vec<Card>>, u32)> = vec![(knocker_melds.to_vec(), 0)];
    while let Some((melds, placed)) = stack.pop() {
        if !seen_states.insert(state_key(&melds)) {
            continue;
        }
        masks.insert(placed);
        for (i, &card) in defender.iter().enumerate() {
            if placed & (1 << i) != 0 {
                continue;
            }
            for m in 0..melds.len() {
                if can_attach(&melds[m], card) {
                    let mut grown = melds.clone();
                    grown[m].push(card);
                    stack.push((grown, placed | (1 << i)));
                }
            }
        }
    }
    masks
}

/// The cards of `cards` at the positions set in `mask` (`keep == true`) or
/// not set (`keep == false`).
pub fn pick(cards: &[Card], mask: u32, keep: bool) -> Vec<Card> {
    cards
        .iter()
        .enumerate()
        .filter(|&(i, _)| (mask & (1 << i) != 0) == keep)
        .map(|(_, &c)| c)
        .collect()
}

/// The defender's deadwood after its best arrangement and lay-offs against
/// `knocker_melds`. On gin nothing is laid off. Otherwise every subset `L`
/// of the defender's cards is tried; if `L` can be laid off, the defender
/// scores `min_deadwood(defender − L)`; the answer is the minimum.
pub fn defender_deadwood(
    knocker_melds: &[Vec<Card>],
    knocker_deadwood_is_zero: bool,
    defender: &[Card],
) -> u32 {
    defender_deadwood_cached(
        knocker_melds,
        knocker_deadwood_is_zero,
        defender,
        &mut HashMap::new(),
    )
}

/// [`defender_deadwood`] remembering `min_deadwood(defender − L)` per `L`
/// (the mask) across calls with the same `defender`; a pure speed-up.
fn defender_deadwood_cached(
    knocker_melds: &[Vec<Card>],
    knocker_deadwood_is_zero: bool,
    defender: &[Card],
    cache: &mut HashMap<u32, u32>,
) -> u32 {
    if knocker_deadwood_is_zero {
        return min_deadwood(defender);
    }
    assert!(defender.len() < 32);
    let legal = legal_layoff_masks(knocker_melds, defender);
    let mut best = u32::MAX;
    for l in 0..(1u32 << defender.len()) {
        if legal.contains(&l) {
            let dw = *cache
                .entry(l)
                .or_insert_with(|| min_deadwood(&pick(defender, l, false)));
            best = best.min(dw);
        }
    }
    best
}

/// The optimal showdown: `(knocker deadwood, defender deadwood)`. If the
/// knocker can go gin it does (the defender lays nothing off). Otherwise every
/// arrangement of the knocker's cards with deadwood ≤ `limit` is tried against
/// the defender's best reply, keeping the largest `defender − knocker`, ties
/// to the lower knocker deadwood.
///
/// # Panics
/// If no arrangement is within `limit`.
pub fn best_knock(knocker: &[Card], defender: &[Card], limit: u32) -> (u32, u32) {
    if min_deadwood(knocker) == 0 {
        return (0, min_deadwood(defender));
    }
    let mut cache = HashMap::new();
    let mut best: Option<(u32, u32)> = None;
    for (melds, kdw) in knocker_arrangements(knocker) {
        if kdw > limit {
            continue;
        }
        let ddw = defender_deadwood_cached(&melds, false, defender, &mut cache);
        let score = i64::from(ddw) - i64::from(kdw);
        best = match best {
            None => Some((kdw, ddw)),
            Some((bk, bd)) => {
                let best_score = i64::from(bd) - i64::from(bk);
                if score > best_score || (score == best_score && kdw < bk) {
                    Some((kdw, ddw))
                } else {
                    Some((bk, bd))
                }
            }
        };
    }
    best.expect("no knocker arrangement within the knock limit")
}

/// Parses a knocker in bracket notation (`[5S 6S 7S] [KC KD KH] AC 2C`) into
/// its melds exactly as written and its deadwood cards, with plain string
/// splitting (independent of the crate's arrangement parser).
pub fn parse_brackets(text: &str) -> (Vec<Vec<Card>>, Vec<Card>) {
    let spaced = text.replace('[', " [ ").replace(']', " ] ");
    let mut melds = Vec::new();
    let mut loose = Vec::new();
    let mut open: Option<Vec<Card>> = None;
    for token in spaced.split_whitespace() {
        match token {
            "[" => {
                assert!(open.is_none(), "nested [ in {text}");
                open = Some(Vec::new());
            }
            "]" => melds.push(open.take().expect("] without [")),
            card => {
                let card: Card = card.parse().expect("a card");
                match &mut open {
                    Some(meld) => meld.push(card),
                    None => loose.push(card),
                }
            }
        }
    }
    assert!(open.is_none(), "unclosed [ in {text}");
    for meld in &melds {
        assert!(is_meld(meld), "not a meld: {meld:?}");
    }
    (melds, loose)
}
