//! Time budgets, turned into counts of worlds so that runs replay.
//!
//! A player given `budget_ms` per decision samples
//! `budget_ms × WORLDS_PER_MS` worlds at every sampled decision; one given
//! `game_budget_ms` per game holds `game_budget_ms × WORLDS_PER_MS` worlds
//! for the whole game and spends them by [`GameAccount::share`]. The rate is
//! a fixed calibration, not a clock: the same profile plays the same
//! decisions on any machine and under any load, and the profile's printed
//! text (which the manifest records) carries the resolved count
//! (`samples=` or `game_worlds=`), so a replay from the manifest uses that
//! count even if the calibration changes later.

/// Worlds per millisecond of budget: what `mc` (greedy rollouts, four
/// discards, calibrated weights) samples per millisecond on one core of the
/// project's machine. Measured in a quiet session at 15acfe3 with
/// `cargo bench --bench strategies -- "^mc/budget_ms=2$"`: 512 worlds a
/// decision took 1.16–1.18 ms (mean over the bench's decisions), about 435
/// worlds a ms; rounded down to 384 so that 2 ms (768 worlds) costs about
/// 1.77 ms. (The first rate, 256, came from
/// `mc/samples=64` before rollouts got cheaper.)
pub const WORLDS_PER_MS: f64 = 384.0;

/// The most worlds one decision samples (about 0.26 s of work): a per-game
/// budget's share is capped here, and what is not spent stays in the account.
pub const MAX_WORLDS: u64 = 65_536;

/// The sampled decisions a game is expected to ask of one player (mc under
/// eaai against simple asks about this many; see `docs/DESIGN.md`).
pub const GAME_DECISIONS: u64 = 48;

/// The fewest worlds worth sampling: a share below this plays the base
/// policy's answer instead (16 worlds play about as well as the base alone,
/// see `results/README.md`, mc-samples), and the worlds stay in the account.
pub const MIN_WORLDS: u64 = 16;

/// The smallest divisor of what is left: late in a long game a decision
/// gets at most an eighth of the rest, so the account is never spent at once.
pub const MIN_SHARE: u64 = 8;

/// The worlds `ms` milliseconds buy (at least 1).
#[must_use]
pub fn worlds(ms: f64) -> u64 {
    ((ms * WORLDS_PER_MS).round() as u64).max(1)
}

/// A player's per-game budget in worlds, and what it has spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameAccount {
    left: u64,
    decisions: u64,
}

impl GameAccount {
    /// A full account of `worlds` for one game.
    #[must_use]
    pub fn new(worlds: u64) -> GameAccount {
        GameAccount {
            left: worlds,
            decisions: 0,
        }
    }

    /// The worlds the next sampled decision gets, taken from the account:
    /// what is left divided by the decisions still expected (at least
    /// [`MIN_SHARE`]), at most [`MAX_WORLDS`]; 0 (answer with the base
    /// policy) when that is fewer than [`MIN_WORLDS`].
    pub fn share(&mut self) -> u64 {
        let expected = GAME_DECISIONS.saturating_sub(self.decisions).max(MIN_SHARE);
        let share = (self.left / expected).min(MAX_WORLDS);
        let share = if share < MIN_WORLDS { 0 } else { share };
        self.left -= share;
        self.decisions += 1;
        share
    }

    /// Worlds not spent yet.
    #[must_use]
    pub fn left(&self) -> u64 {
        self.left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_buys_worlds_at_the_fixed_rate() {
        assert_eq!(worlds(2.0), 768);
        assert_eq!(worlds(0.25), 96);
        assert_eq!(worlds(0.0001), 1);
    }

    /// The first 40 decisions share the account evenly, later ones take an
    /// eighth of what is left, and once a share would be under 16 worlds the
    /// decisions get none (the base policy answers).
    #[test]
    fn a_game_account_is_spread_over_the_expected_decisions() {
        let mut account = GameAccount::new(48 * 100);
        let first: Vec<u64> = (0..40).map(|_| account.share()).collect();
        assert!(first.iter().all(|&s| s == 100), "{first:?}");
        assert_eq!(account.left(), 800);
        assert_eq!(account.share(), 100);
        assert_eq!(account.share(), 87);
        let mut spent = 0;
        for _ in 0..1000 {
            spent += account.share();
        }
        assert_eq!(spent + account.left(), 613);
        assert!(account.left() < 8 * MIN_WORLDS, "{}", account.left());
        assert_eq!(account.share(), 0, "too little left to sample");
        let mut rich = GameAccount::new(u64::MAX);
        assert_eq!(rich.share(), MAX_WORLDS);
    }
}
