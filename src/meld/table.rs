//! Per-suit tables, indexed by a 13-bit lane mask (bit `r` = rank `r`).
//!
//! Once the sets of a hand are fixed, the remaining cards can only meld in
//! runs, and runs never cross suits, so each lane is solved on its own by a
//! lookup. The tables are built by `const fn` at compile time (no build
//! script, no lazy statics) with a dynamic programme over the lowest card of
//! the mask: that card is either deadwood or the first card of a run.
//!
//! | table | entry | bound |
//! |---|---|---|
//! | [`RUN_DEADWOOD`] | min deadwood of the lane using runs only | ≤ 85 (A..K), `u8` |
//! | [`RUN_MELDED`] | the cards melded in the optimum chosen (tie-break below) | 13 bits, `u16` |
//! | [`TOGGLE`] | per rank `r`: `RUN_DEADWOOD[m ^ (1 << r)]`, the lane with that card removed or added (16 bytes, one vector a lane; bytes 13..16 are 255) | `[u8; 16]` |
//! | [`REMOVAL`] | the least `RUN_DEADWOOD` of the lane less one of its cards, and the ranks reaching it | `u32`: bits 16..24 and 0..13 |
//! | [`RUN_GAP`] | how much more deadwood than `RUN_DEADWOOD` the lane's next best runs leave (255: no run) | ≤ 30, `u8` |
//! | [`DISCARD`] | packed: `RUN_DEADWOOD`, and the lane's best single discard: its rank and its gain `RUN_DEADWOOD[m] − min_c RUN_DEADWOOD[m − c]` | `u32`, layout below |
//!
//! [`DISCARD`] packs all the best-discard search needs of a lane into one
//! lookup: bits 0..8 hold `RUN_DEADWOOD[m]`; bits 10..14 the highest rank
//! whose removal reaches the minimum; bits 16..24 `gain + 128` (gain is in
//! −85..=85; 0 for the empty lane, which has no card to discard). So
//! `(entry >> 8) | suit` orders a lane's candidate by gain, then rank, then
//! suit, and one integer `max` over the four lanes picks the best discard.
//!
//! Tie-break of [`RUN_MELDED`]: at the lowest card, runs are tried longest
//! first and deadwood last, and a later option replaces an earlier one only if
//! it is strictly better. So among optimal lane arrangements the table keeps
//! the one whose lowest card sits in the longest run.

/// Number of lane masks: 2^13.
pub const LANE_MASKS: usize = 1 << 13;

const fn rank_value(rank: u32) -> u8 {
    if rank >= 9 { 10 } else { rank as u8 + 1 }
}

const fn build_run_tables() -> ([u8; LANE_MASKS], [u16; LANE_MASKS]) {
    let mut dw = [0u8; LANE_MASKS];
    let mut melded = [0u16; LANE_MASKS];
    let mut m = 1;
    while m < LANE_MASKS {
        let low = (m as u32).trailing_zeros();
        // Option "runs": the run starting at `low` of each length, longest first.
        let mut len = 0;
        while low + len < 13 && m >> (low + len) & 1 == 1 {
            len += 1;
        }
        let mut best = u8::MAX;
        let mut best_melded = 0u16;
        while len >= 3 {
            let run = ((1u32 << len) - 1) << low;
            let rest = m & !(run as usize);
            if dw[rest] < best {
                best = dw[rest];
                best_melded = melded[rest] | run as u16;
            }
            len -= 1;
        }
        // Option "deadwood": the lowest card melds in nothing.
        let rest = m & (m - 1);
        let as_deadwood = dw[rest] + rank_value(low);
        if as_deadwood < best {
            best = as_deadwood;
            best_melded = melded[rest];
        }
        dw[m] = best;
        melded[m] = best_melded;
        m += 1;
    }
    (dw, melded)
}

const RUN_TABLES: ([u8; LANE_MASKS], [u16; LANE_MASKS]) = build_run_tables();

/// Min deadwood of a lane mask using runs only.
pub static RUN_DEADWOOD: [u8; LANE_MASKS] = RUN_TABLES.0;

/// The cards melded (as a lane mask) in the optimum [`RUN_DEADWOOD`] counts.
/// Its maximal blocks of adjacent bits are the runs; each is ≥ 3 long.
pub static RUN_MELDED: [u16; LANE_MASKS] = RUN_TABLES.1;

const fn build_discard_table() -> [u32; LANE_MASKS] {
    let dw = RUN_TABLES.0;
    let mut table = [0u32; LANE_MASKS];
    let mut m = 1;
    while m < LANE_MASKS {
        let (mut best, mut best_rank) = (u8::MAX, 0);
        // Highest rank first, strict improvement: ties keep the higher card.
        let mut rank = 13;
        while rank > 0 {
            rank -= 1;
            if m >> rank & 1 == 1 && dw[m & !(1 << rank)] < best {
                best = dw[m & !(1 << rank)];
                best_rank = rank;
            }
        }
        let gain = dw[m] as i32 - best as i32;
        table[m] = dw[m] as u32 | (best_rank as u32) << 10 | ((gain + 128) as u32) << 16;
        m += 1;
    }
    table[0] = 0;
    table
}

/// Per lane: run-only deadwood, and the best single discard's rank and gain
/// (layout in [the module docs](self)).
pub static DISCARD: [u32; LANE_MASKS] = build_discard_table();

const fn build_toggle_table() -> [[u8; 16]; LANE_MASKS] {
    let dw = RUN_TABLES.0;
    let mut table = [[u8::MAX; 16]; LANE_MASKS];
    let mut m = 0;
    while m < LANE_MASKS {
        let mut rank = 0;
        while rank < 13 {
            table[m][rank] = dw[m ^ (1 << rank)];
            rank += 1;
        }
        m += 1;
    }
    table
}

/// Per lane and rank: the run-only deadwood of the lane with that card
/// toggled (removed if present, added if not), 16 bytes a lane so that the
/// batched solver ([`super::PerCard`]) works on whole vectors.
pub static TOGGLE: [[u8; 16]; LANE_MASKS] = build_toggle_table();

const fn build_removal_table() -> [u32; LANE_MASKS] {
    let dw = RUN_TABLES.0;
    let mut table = [0u32; LANE_MASKS];
    let mut m = 0;
    while m < LANE_MASKS {
        let (mut least, mut at) = (u8::MAX, 0u32);
        let mut rank = 0;
        while rank < 13 {
            if m >> rank & 1 == 1 {
                let left = dw[m & !(1 << rank)];
                if left < least {
                    least = left;
                    at = 0;
                }
                if left == least {
                    at |= 1 << rank;
                }
            }
            rank += 1;
        }
        table[m] = at | (least as u32) << 16;
        m += 1;
    }
    table
}

/// Per lane: the least run-only deadwood the lane's cards leave when one
/// is removed (bits 16..24; 255 for the empty lane) and the ranks leaving
/// it (bits 0..13), for the turn end's choice of a whole lane
/// ([`super::least_discards`]).
pub static REMOVAL: [u32; LANE_MASKS] = build_removal_table();

const fn build_gap_table() -> [u8; LANE_MASKS] {
    let mut table = [u8::MAX; LANE_MASKS];
    let mut m = 0;
    while m < LANE_MASKS {
        // Each block of three or more adjacent cards: a longer one can lose
        // its lowest card, a block of three only all of its cards.
        let mut left = m as u32;
        while left != 0 {
            let low = left.trailing_zeros();
            let len = (left >> low).trailing_ones();
            let gap = if len >= 4 {
                rank_value(low)
            } else if len == 3 {
                rank_value(low) + rank_value(low + 1) + rank_value(low + 2)
            } else {
                u8::MAX
            };
            if gap < table[m] {
                table[m] = gap;
            }
            left &= !(((1u32 << len) - 1) << low);
        }
        m += 1;
    }
    table
}

/// Per lane: the least extra deadwood, over [`RUN_DEADWOOD`], of the
/// lane's cards melded in runs other than [`RUN_MELDED`]'s (255 when the
/// lane has no run). The least deadwood melds every block of three or more
/// adjacent cards whole (cards have positive values); any other melding
/// leaves out some card of a block: of a block of four or more, at least
/// its value, which leaving out the block's lowest card reaches; of a
/// block of three, the whole block. For the knock search's shortcut
/// (`layoff.rs`).
pub static RUN_GAP: [u8; LANE_MASKS] = build_gap_table();

/// The gain field's offset: `gain + GAIN_BIAS` is stored, so 0 means "no card".
pub const GAIN_BIAS: u32 = 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spot_checks() {
        assert_eq!(RUN_DEADWOOD[0], 0);
        assert_eq!(RUN_DEADWOOD[0b1], 1);
        assert_eq!(RUN_DEADWOOD[0b111], 0);
        assert_eq!(RUN_DEADWOOD[0b1011], 1 + 2 + 4);
        assert_eq!(RUN_DEADWOOD[0x1FFF], 0);
        assert_eq!(RUN_MELDED[0x1FFF], 0x1FFF);
        // A 2 3 4 . 6: the ace run, 6 dead.
        assert_eq!(RUN_DEADWOOD[0b10_1111], 6);
        assert_eq!(RUN_MELDED[0b10_1111], 0b1111);
        // Discarding from A 2 3 4: drop the 4 (highest of the equal options
        // A and 4), gain 0.
        assert_eq!(DISCARD[0b1111] >> 10 & 0xF, 3);
        assert_eq!(DISCARD[0b1111] >> 16, GAIN_BIAS);
        // A 2 3: every discard breaks the run; the 3 leaves A 2 (gain -3).
        assert_eq!(DISCARD[0b111] >> 10 & 0xF, 2);
        assert_eq!(DISCARD[0b111] >> 16, GAIN_BIAS - 3);
        assert_eq!(DISCARD[0], 0);
    }

    /// [`RUN_GAP`] is the least deadwood over every other melding of the
    /// lane (every subset of its cards whose blocks of adjacent cards are
    /// three or more long) less the least, from all 3^13 subsets of lanes.
    #[test]
    fn gap_is_the_next_best_melding() {
        for m in 0..LANE_MASKS {
            let mut gap = u8::MAX;
            // Every subset of the lane, as the cards melded.
            let mut melded = m;
            loop {
                let mut bits = melded;
                let mut runs = true;
                while bits != 0 {
                    let len = (bits >> bits.trailing_zeros()).trailing_ones();
                    runs &= len >= 3;
                    bits &= !(((1 << len) - 1) << bits.trailing_zeros());
                }
                if runs && melded != RUN_MELDED[m] as usize {
                    let dead: u32 = (0..13)
                        .filter(|&r| (m & !melded) >> r & 1 == 1)
                        .map(|r| rank_value(r) as u32)
                        .sum();
                    gap = gap.min((dead - u32::from(RUN_DEADWOOD[m])) as u8);
                }
                if melded == 0 {
                    break;
                }
                melded = (melded - 1) & m;
            }
            assert_eq!(RUN_GAP[m], gap, "mask {m:#b}");
        }
        assert_eq!(RUN_GAP[0b1111], 1);
        assert_eq!(RUN_GAP[0b1110_0000_0111], 6);
        assert_eq!(RUN_GAP[0b1011], u8::MAX);
    }

    #[test]
    fn melded_blocks_are_runs_and_count_deadwood() {
        for m in 0..LANE_MASKS {
            let melded = RUN_MELDED[m] as usize;
            assert_eq!(melded & !m, 0);
            let dead: u32 = (0..13)
                .filter(|&r| (m & !melded) >> r & 1 == 1)
                .map(|r| rank_value(r) as u32)
                .sum();
            assert_eq!(dead, RUN_DEADWOOD[m] as u32, "mask {m:#b}");
            assert_eq!(DISCARD[m] & 0xFF, RUN_DEADWOOD[m] as u32);
            for r in 0..13 {
                assert_eq!(TOGGLE[m][r], RUN_DEADWOOD[m ^ (1 << r)]);
            }
            let least = (0..13)
                .filter(|&r| m >> r & 1 == 1)
                .map(|r| RUN_DEADWOOD[m ^ (1 << r)])
                .min()
                .unwrap_or(u8::MAX);
            let at = (0..13)
                .filter(|&r| m >> r & 1 == 1 && RUN_DEADWOOD[m ^ (1 << r)] == least)
                .fold(0, |at, r| at | 1 << r);
            assert_eq!(REMOVAL[m], at | u32::from(least) << 16, "mask {m:#b}");
            let mut bits = melded;
            while bits != 0 {
                let len = (bits >> bits.trailing_zeros()).trailing_ones();
                assert!(len >= 3, "mask {m:#b}: block of {len}");
                bits &= !(((1 << len) - 1) << bits.trailing_zeros());
            }
        }
    }
}
