//! [`GameOdds`]: the chance of winning a game from a score, for the `game`
//! objective of [`super::MonteCarlo`].
//!
//! The model: hands are independent; each is a void (or a scoreless tie)
//! with probability `p0`, and otherwise won by either player with the same
//! distribution of points, measured by playing [`HANDS`] hands of the rollout
//! policy against itself under the rules. Then the chance `V(a, b)` that the
//! player with `a` points reaches the target before the one with `b` solves
//!
//! `V(a, b) = Σₓ pₓ (V(a + x, b) + V(a, b + x)) / (1 − p0)`,
//!
//! with `V = 1` once `a` reaches the target and `0` once `b` does, filled in
//! from the target down. Who deals next is ignored (the measured first-mover
//! edge is below 0.5 %). Tables are built once per (rules, policy) and shared
//! through [`super::McCaches`].

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::engine::{Deck, Hand, Seat, Strategy, play_hand};
use crate::rules::Rules;

use super::{Rollout, rollout_player};

/// Hands played to measure the hand-score distribution.
pub const HANDS: u32 = 20_000;

/// Win chances by score, for one rule set and rollout policy.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOdds {
    rules: Rules,
    target: u32,
    /// `V(a, b)` at `a * target + b`.
    table: Vec<f64>,
}

impl GameOdds {
    /// Measures the hand-score distribution of `rollout` in self-play under
    /// `rules` (fixed seed) and solves the table.
    ///
    /// # Panics
    /// If the rollout policy breaks the rules (it cannot) or the rules do
    /// not validate (a hand was already dealt under them).
    #[must_use]
    pub fn measure(rules: &Rules, rollout: Rollout) -> GameOdds {
        let mut rng = Pcg64Mcg::seed_from_u64(0x6761_6d65);
        let mut counts = vec![0u64; 1];
        let mut players = [rollout_player(rollout, None), rollout_player(rollout, None)];
        for i in 0..HANDS {
            let deck = Deck::shuffled(&mut rng);
            let dealer = Seat::ALL[(i % 2) as usize];
            let mut hand = Hand::new(rules, &deck, dealer, [0, 0]).expect("valid rules");
            let [a, b] = &mut players;
            let mut seats: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
            let outcome = play_hand(&mut hand, &mut seats).expect("legal rollout play");
            let points = outcome.winner().map_or(0, |(_, p)| p as usize);
            if counts.len() <= points {
                counts.resize(points + 1, 0);
            }
            counts[points] += 1;
        }
        GameOdds::solve(rules, &counts)
    }

    /// The table for a distribution: `counts[x]` hands ended with `x` points
    /// to their winner (`counts[0]`: voids and scoreless ties).
    ///
    /// # Panics
    /// If no hand in `counts` scored.
    #[must_use]
    pub fn solve(rules: &Rules, counts: &[u64]) -> GameOdds {
        let total: u64 = counts.iter().sum();
        let scored = total - counts.first().copied().unwrap_or(0);
        assert!(scored > 0, "no hand scored");
        // Each side wins x points with half the chance of a hand scoring x,
        // conditioned on the hand scoring.
        let p: Vec<(u32, f64)> = counts
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(_, &n)| n > 0)
            .map(|(x, &n)| (x as u32, n as f64 / scored as f64 / 2.0))
            .collect();
        let t = rules.game_target.max(1);
        let n = t as usize;
        let mut table = vec![0f64; n * n];
        for a in (0..t).rev() {
            for b in (0..t).rev() {
                let mut v = 0.0;
                for &(x, px) in &p {
                    let up = if a + x >= t {
                        1.0
                    } else {
                        table[(a + x) as usize * n + b as usize]
                    };
                    let down = if b + x >= t {
                        0.0
                    } else {
                        table[a as usize * n + (b + x) as usize]
                    };
                    v += px * (up + down);
                }
                table[a as usize * n + b as usize] = v;
            }
        }
        GameOdds {
            rules: rules.clone(),
            target: t,
            table,
        }
    }

    /// The rules the table is for.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The chance that the player with `mine` points wins against `theirs`.
    #[must_use]
    pub fn win(&self, mine: u32, theirs: u32) -> f64 {
        match (mine >= self.target, theirs >= self.target) {
            (true, _) => 1.0,
            (false, true) => 0.0,
            _ => self.table[mine as usize * self.target as usize + theirs as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_monotone() {
        let rules = Rules::eaai();
        // Hands worth 10 or 30 points, never void.
        let mut counts = vec![0u64; 31];
        counts[10] = 3;
        counts[30] = 1;
        let odds = GameOdds::solve(&rules, &counts);
        assert!((odds.win(0, 0) - 0.5).abs() < 1e-12);
        assert!((odds.win(40, 60) + odds.win(60, 40) - 1.0).abs() < 1e-12);
        assert!(odds.win(90, 0) > odds.win(80, 0));
        assert!(odds.win(0, 90) < odds.win(0, 80));
        assert_eq!(odds.win(100, 99), 1.0);
        assert_eq!(odds.win(99, 100), 0.0);
        // At 90–90 the next scoring hand decides: one half.
        assert!((odds.win(90, 90) - 0.5).abs() < 1e-12);
        // At 95–0 any hand `mine` wins ends the game.
        assert!(odds.win(95, 0) > 0.5);
    }

    #[test]
    fn voids_do_not_change_the_odds() {
        let rules = Rules::eaai();
        let mut counts = vec![0u64; 31];
        counts[10] = 3;
        counts[30] = 1;
        let without = GameOdds::solve(&rules, &counts);
        counts[0] = 7;
        let with = GameOdds::solve(&rules, &counts);
        assert!((without.win(37, 52) - with.win(37, 52)).abs() < 1e-12);
    }
}
