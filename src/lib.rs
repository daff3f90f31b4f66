//! # ginlab
//!
//! A Gin Rummy research harness: cards, an exact table-driven meld solver, the
//! optimal showdown of the rules in `RULES.md`, and (in later layers) the rules,
//! engine, strategies and the self-play simulator.
//!
//! ```
//! use ginlab::{CardSet, meld};
//!
//! let hand: CardSet = "7C 8C 9C TC 6D 9D TD 6H 6S TS".parse()?;
//! assert_eq!(meld::deadwood(hand), 9);
//! assert_eq!(meld::best_arrangement(hand).to_string(), "[7C 8C 9C] [TC TD TS] [6D 6H 6S] 9D");
//! # Ok::<(), ginlab::cards::ParseCardsError>(())
//! ```

pub mod cards;
pub mod meld;
pub mod seed;

pub use cards::{Card, CardSet, Rank, Suit};
pub use meld::{Arrangement, Meld, MeldKind, Showdown};
pub mod engine;
pub mod rules;

pub use engine::{HandEnd, HandScore, Side};
pub use rules::Rules;
pub mod strategy;

pub use engine::{Deck, Seat};
pub mod echo;
pub mod experiment;
pub mod job;
pub mod lab;
pub mod protocol;
pub mod render;
pub mod report;
pub mod sim;
pub mod stats;
pub mod suggest;
pub mod tune;
