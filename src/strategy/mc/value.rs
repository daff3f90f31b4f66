//! What a rollout is worth ([`Evaluator`]): hand points ([`Points`]), the
//! only evaluator since the game-score objective was retired (issue 33,
//! results/INDEX.md). A new evaluator (a learned value of a hand's end, a
//! score-aware one) is one implementation here and a key that selects it.

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
