//! Seeds: the ground floor every layer may use (it imports nothing of
//! ginlab's).
//!
//! - [`seed_for`] gives the seed of one stream of one deal from a run's
//!   master seed: decks and the built-in strategies' choices. These are
//!   SplitMix64 finalisers, fast and *invertible*: anyone who sees one
//!   such seed can compute the deal's deck seed. So they never leave the
//!   process.
//! - [`bot_seed`] is what an external bot is told in `game_start`: a keyed
//!   BLAKE3 hash whose key is derived from its seat's seed (so from the
//!   master seed). Without the master seed it says nothing about the deck;
//!   with a guessable master seed (a small number) a bot can still try
//!   seeds, which is why the default master seed comes from the operating
//!   system ([`random_master`]).

/// SplitMix64's finaliser: a bijective mix of 64 bits.
#[must_use]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a seed drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Decks and the first dealer.
    Deal = 0,
    /// Player A's strategy.
    SeatA = 1,
    /// Player B's strategy.
    SeatB = 2,
    /// The third player's strategy (three players and partnerships).
    SeatC = 3,
    /// The fourth player's strategy (partnerships).
    SeatD = 4,
}

impl Stream {
    /// The strategy stream of player `p` (0 to 3: A, B, C, D).
    ///
    /// # Panics
    /// For `p` above 3.
    #[must_use]
    pub fn player(p: usize) -> Stream {
        [Stream::SeatA, Stream::SeatB, Stream::SeatC, Stream::SeatD][p]
    }
}

/// The seed of `stream` for deal `index` of a run with `master` seed.
#[must_use]
pub fn seed_for(master: u64, index: u64, stream: Stream) -> u64 {
    mix(mix(mix(master) ^ index) ^ stream as u64)
}

/// The BLAKE3 key-derivation context of [`bot_seed`]'s key (a fixed,
/// unique string, as BLAKE3's `derive_key` asks for).
const BOT_KEY_CONTEXT: &str = "ginlab 2026-11 external bot game seed v1";

/// The seed an external bot is told in `game_start` when its seat's
/// strategy seed is `seat_seed` (a [`seed_for`] value of the run's master
/// seed): BLAKE3 keyed with `derive_key(context, seat_seed)`, over a fixed
/// message, the first 8 bytes little-endian. BLAKE3's keyed mode is a
/// pseudo-random function, so the value says nothing about `seat_seed`,
/// hence nothing about the master seed or the deck, to anyone who cannot
/// guess the master seed. Applied where every player is built
/// (`Profile::build`), so no path gives a bot the invertible seed.
#[must_use]
pub fn bot_seed(seat_seed: u64) -> u64 {
    let key = blake3::derive_key(BOT_KEY_CONTEXT, &seat_seed.to_le_bytes());
    let hash = blake3::keyed_hash(&key, b"game_start seed");
    let mut first = [0; 8];
    first.copy_from_slice(&hash.as_bytes()[..8]);
    u64::from_le_bytes(first)
}

/// A master seed nobody can guess: 64 bits from the operating system's
/// random source.
///
/// # Errors
/// The operating system gives no random bytes (a message saying so).
pub fn random_master() -> Result<u64, String> {
    getrandom::u64().map_err(|e| format!("the operating system gave no random seed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_seeds_are_the_old_derivation() {
        // Committed results depend on these: they must never change.
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(seed_for(1, 0, Stream::Deal), mix(mix(mix(1))));
    }

    #[test]
    fn bot_seeds_differ_by_master_index_and_stream() {
        let told = |master, index, stream| bot_seed(seed_for(master, index, stream));
        let base = told(7, 3, Stream::SeatA);
        assert_eq!(base, told(7, 3, Stream::SeatA));
        for other in [
            told(8, 3, Stream::SeatA),
            told(7, 4, Stream::SeatA),
            told(7, 3, Stream::SeatB),
            seed_for(7, 3, Stream::SeatA),
        ] {
            assert_ne!(base, other);
        }
    }

    #[test]
    fn random_masters_differ() {
        assert_ne!(random_master().unwrap(), random_master().unwrap());
    }
}
