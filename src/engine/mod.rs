//! The game engine. So far: pricing a showdown under a [`Rules`](crate::rules::Rules)
//! value ([`score_showdown`]). The hand and game state machines build on it.

mod score;

pub use score::{HandEnd, HandScore, Side, score_showdown};
