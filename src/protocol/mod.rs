//! The bot protocol (`docs/PROTOCOL.md`): JSON lines between ginlab and a
//! bot process, one object per line.
//!
//! This module is the wire format only: the messages ginlab writes (built
//! from a [`PlayerView`](crate::engine::PlayerView), an
//! [`Event`](crate::engine::Event), a
//! [`HandOutcome`](crate::engine::HandOutcome) or a
//! [`GameResult`](crate::engine::GameResult), so they can carry nothing a player may not know), the
//! [`Move`]s a bot answers with and the legal ones at a decision, and the
//! reader that checks a bot's line ([`read_hello`], [`read_move`]). Running
//! the process is the job of `strategy::External`, a layer above.
//!
//! Three parts: [`Move`]s and the legal ones at a decision (`moves`), the
//! lines ginlab sends (`send`), and the reader of a bot's lines (`read`).
//! The rules travel as the knob table of `crate::rules`
//! ([`rules_table`], [`rules_from_table`]), which records share.

mod moves;
mod read;
mod send;

pub use moves::{Move, ParseMoveError, action_of, decision_name, legal_moves, move_of};
pub use read::{BotHello, MAX_NAME, ReplyError, read_hello, read_move};
pub use send::{
    decide, event, event_fields, game_end, game_end_value, game_start, game_stopped,
    game_stopped_value, hand_end, hand_end_value, hand_start, hello, options_from_json,
    options_from_toml, quit,
};

pub use crate::rules::{rules_from_table, rules_table};

/// The protocol version this build speaks.
pub const VERSION: u64 = 1;

/// `game_start`'s seed is cut to 53 bits, which every JSON parser reads exactly.
pub const SEED_MASK: u64 = (1 << 53) - 1;

/// The longest line a bot may send, in bytes.
pub const MAX_LINE: usize = 64 * 1024;
