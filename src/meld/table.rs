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
//! | [`DISCARD_DEADWOOD`] | min over cards `c` of the lane of `RUN_DEADWOOD[m - c]` | `u8`, [`NO_CARD`] for the empty lane |
//! | [`DISCARD_RANK`] | the highest rank `c` reaching that minimum | 0..13, `u8` |
//!
//! Tie-break of [`RUN_MELDED`]: at the lowest card, runs are tried longest
//! first and deadwood last, and a later option replaces an earlier one only if
//! it is strictly better. So among optimal lane arrangements the table keeps
//! the one whose lowest card sits in the longest run.

/// Number of lane masks: 2^13.
pub const LANE_MASKS: usize = 1 << 13;

/// `DISCARD_DEADWOOD` of the empty lane: larger than any real entry, so an
/// empty lane never offers the best discard.
pub const NO_CARD: u8 = u8::MAX;

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

const fn build_discard_tables() -> ([u8; LANE_MASKS], [u8; LANE_MASKS]) {
    let dw = RUN_TABLES.0;
    let mut best_dw = [NO_CARD; LANE_MASKS];
    let mut best_rank = [0u8; LANE_MASKS];
    let mut m = 1;
    while m < LANE_MASKS {
        // Highest rank first, strict improvement: ties keep the higher card.
        let mut rank = 13;
        while rank > 0 {
            rank -= 1;
            if m >> rank & 1 == 1 {
                let left = dw[m & !(1 << rank)];
                if left < best_dw[m] {
                    best_dw[m] = left;
                    best_rank[m] = rank as u8;
                }
            }
        }
        m += 1;
    }
    (best_dw, best_rank)
}

const DISCARD_TABLES: ([u8; LANE_MASKS], [u8; LANE_MASKS]) = build_discard_tables();

/// Min run-only deadwood of a lane after removing its best card;
/// [`NO_CARD`] for the empty lane.
pub static DISCARD_DEADWOOD: [u8; LANE_MASKS] = DISCARD_TABLES.0;

/// The highest rank whose removal reaches [`DISCARD_DEADWOOD`].
pub static DISCARD_RANK: [u8; LANE_MASKS] = DISCARD_TABLES.1;

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
        // Discarding from A 2 3 4: drop the 4 (highest of the equal options A and 4).
        assert_eq!(DISCARD_DEADWOOD[0b1111], 0);
        assert_eq!(DISCARD_RANK[0b1111], 3);
        assert_eq!(DISCARD_DEADWOOD[0], NO_CARD);
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
            let mut bits = melded;
            while bits != 0 {
                let len = (bits >> bits.trailing_zeros()).trailing_ones();
                assert!(len >= 3, "mask {m:#b}: block of {len}");
                bits &= !(((1 << len) - 1) << bits.trailing_zeros());
            }
        }
    }
}
