//! What a rollout is worth ([`Evaluator`]): hand points (`objective =
//! points`, [`Points`]) or the chance of winning the game from the scores
//! after the hand (`objective = game`, [`GameOdds`]). A new evaluator is
//! one implementation here and one variant of
//! [`Objective`](super::Objective), which selects it.

use super::GameOdds;

/// The value of a rollout's end to the deciding player.
pub trait Evaluator: Send + Sync {
    /// What the hand is worth to the player whose game score is `scores`
    /// (its own first) before the hand, when it ends `won`: `Some((true,
    /// p))` won by this player with `p` points, `Some((false, p))` lost by
    /// `p`, `None` void or a scoreless tie.
    fn value(&self, scores: [u32; 2], won: Option<(bool, u32)>) -> f64;
}

/// Hand points, signed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Points;

impl Evaluator for Points {
    fn value(&self, _scores: [u32; 2], won: Option<(bool, u32)>) -> f64 {
        match won {
            Some((true, p)) => f64::from(p),
            Some((false, p)) => -f64::from(p),
            None => 0.0,
        }
    }
}

impl Evaluator for GameOdds {
    fn value(&self, [mine, theirs]: [u32; 2], won: Option<(bool, u32)>) -> f64 {
        match won {
            Some((true, p)) => self.win(mine + p, theirs),
            Some((false, p)) => self.win(mine, theirs + p),
            None => self.win(mine, theirs),
        }
    }
}
