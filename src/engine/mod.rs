//! The game engine: one hand as a state machine ([`Hand`]), the driver that
//! plays it with two [`Strategy`]s ([`play_hand`]), a game to the target
//! ([`play_game`], [`Tally`]), and scoring ([`score_showdown`]).

mod deck;
mod game;
mod hand;
mod legal;
mod log;
mod multi;
mod player;
mod score;
mod sheet;
mod transcript;
mod view;

pub(crate) use deck::below;
pub use deck::{Deck, DeckError};
pub use game::{
    HandRecord, MAX_HANDS, draw_first_dealer, play_game, play_game_dealt, play_game_traced,
};
pub use hand::{
    Action, Hand, HandOutcome, IllegalAction, VoidReason, WorldError, big_gin_turn,
    last_discard_knocks,
};
pub use legal::{big_gin_legal, legal_discards, pile_allowed};
pub use multi::{
    PARTNERSHIP_TARGET, PartnershipResult, TableDeal, TableHand, ThreeResult, partnership_game,
    play_partnership, play_partnership_traced, play_three, play_three_traced, round_score, team_of,
    three_game,
};
pub use player::{EngineError, Strategy, ask, play_hand, play_hand_inspected, turn_end};
pub use score::{HandEnd, HandScore, Side, score_showdown};
pub use sheet::{GameResult, Tally, next_dealer};
pub use transcript::{game_summary, hand_heading, hand_transcript};
pub use view::{DrawSource, Event, Phase, PlayerView, Seat, TurnEnd};
