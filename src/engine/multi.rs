//! Three and four players (RULES.md "More than two players"), as formats over
//! the two-player [`Hand`].
//!
//! **Three players.** The dealer sits out and deals to the other two; the
//! player after the dealer (in seat order 0, 1, 2) takes the non-dealer role
//! (offered the upcard first). The loser of a hand deals the next, which is
//! then played by the winner and the previous dealer. A void or scoreless hand
//! is dealt again by the same dealer. Each player keeps a cumulative score; the
//! game ends when one reaches `game_target`. At the end the winner gets the
//! game bonus and everyone the box bonus for each hand won (shutouts, defined
//! for two players, are not applied, and neither are Oklahoma's extra boxes:
//! the knob `oklahoma_boxes` counts only in two-player games).
//!
//! **Four players.** Teams are players {0, 2} and {1, 3}. Each round is two
//! separate hands; opponents alternate: even rounds 0–1 and 2–3, odd rounds
//! 0–3 and 2–1. At each table the deal alternates between the two teams from
//! round to round. If one team won both hands it scores their total; if each
//! team won one, the team with the higher hand score scores the difference; a
//! void or scoreless hand counts as won by nobody. The first team to
//! [`PARTNERSHIP_TARGET`] wins.

use rand_pcg::Pcg64Mcg;

use crate::rules::Rules;

use super::deck::{Deck, below};
use super::game::MAX_HANDS;
use super::hand::{Hand, HandOutcome};
use super::player::{EngineError, Strategy, play_hand};
use super::view::Seat;

/// The partnership game's target (RULES.md: first team to 125).
pub const PARTNERSHIP_TARGET: u32 = 125;

/// One hand of a multi-player game, in player numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableHand {
    /// The player who dealt (for three players, the one sitting out).
    pub dealer: usize,
    /// The two players, non-dealer role first.
    pub players: [usize; 2],
    /// The winner and the points, if any.
    pub winner: Option<(usize, u32)>,
}

/// The end of a three-player game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreeResult {
    /// Cumulative hand points.
    pub points: [u32; 3],
    /// Hands won.
    pub hands_won: [u32; 3],
    /// Who reached the target.
    pub winner: usize,
    /// Final scores with the game and box bonuses.
    pub final_scores: [u32; 3],
    /// Hands dealt, void ones included.
    pub hands: u32,
}

/// A table hand about to be played: who deals, who plays, the scores they
/// play at, and the deck, as the game's flow ([`three_game`],
/// [`partnership_game`]) decides them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDeal {
    /// The hand's number in the game (three players), or its round's
    /// (partnership), from 1.
    pub round: u32,
    /// The player who dealt (for three players, the one sitting out).
    pub dealer: usize,
    /// The two players, non-dealer role first: seat A of the two-player
    /// [`Hand`], then seat B, the dealer's role.
    pub players: [usize; 2],
    /// The scores the two play at, in the order of `players` (the
    /// players' own for three players, their teams' for partnerships).
    pub scores: [u32; 2],
    /// The deck, dealt by seat B to seat A.
    pub deck: Deck,
}

impl TableDeal {
    /// The hand as the two-player engine deals it: seat A is the
    /// non-dealer role, seat B the dealer role.
    ///
    /// # Errors
    /// Rules that do not fit together.
    pub fn hand<'r>(&self, rules: &'r Rules) -> Result<Hand<'r>, EngineError> {
        Ok(Hand::new(rules, &self.deck, Seat::B, self.scores)?)
    }

    /// The winner of `outcome` as a player number, and the points.
    #[must_use]
    pub fn winner(&self, outcome: &HandOutcome) -> Option<(usize, u32)> {
        outcome
            .winner()
            .map(|(seat, points)| (self.players[seat.index()], points))
    }
}

/// Plays `deal` with `players`; `trace` sees the finished hand.
fn table_hand(
    rules: &Rules,
    players: &mut [&mut dyn Strategy],
    deal: &TableDeal,
    trace: &mut impl FnMut(&TableHand, &Hand<'_>),
) -> Result<Option<(usize, u32)>, EngineError> {
    let pair = deal.players;
    let mut hand = deal.hand(rules)?;
    let (left, right) = players.split_at_mut(pair[0].max(pair[1]));
    let (first, second) = if pair[0] < pair[1] {
        (&mut *left[pair[0]], &mut *right[0])
    } else {
        (&mut *right[0], &mut *left[pair[1]])
    };
    let mut seats: [&mut dyn Strategy; 2] = [first, second];
    let outcome: HandOutcome = play_hand(&mut hand, &mut seats)?;
    let winner = deal.winner(&outcome);
    trace(
        &TableHand {
            dealer: deal.dealer,
            players: pair,
            winner,
        },
        &hand,
    );
    Ok(winner)
}

/// Plays a three-player game; `on_hand` sees every hand.
///
/// # Errors
/// An illegal action, inconsistent rules, or an endless game.
pub fn play_three(
    rules: &Rules,
    players: &mut [&mut dyn Strategy; 3],
    rng: &mut Pcg64Mcg,
    mut on_hand: impl FnMut(&TableHand),
) -> Result<ThreeResult, EngineError> {
    play_three_traced(rules, players, rng, |table, _| on_hand(table))
}

/// [`play_three`], with `on_hand` also given each finished two-player
/// [`Hand`] (its deck, actions and outcome: what a game record holds).
///
/// # Errors
/// As [`play_three`].
pub fn play_three_traced(
    rules: &Rules,
    players: &mut [&mut dyn Strategy; 3],
    rng: &mut Pcg64Mcg,
    mut on_hand: impl FnMut(&TableHand, &Hand<'_>),
) -> Result<ThreeResult, EngineError> {
    three_game(rules, rng, |deal| {
        table_hand(rules, players, deal, &mut on_hand)
    })
}

/// The flow of a three-player game (who deals and plays each hand, at
/// which scores, from which deck of `rng`, and when the game ends), with
/// each hand played by `play`, which returns its winner as a player number
/// and the points. [`play_three`] plays the hands with strategies; a game
/// record's replay plays them from the recorded actions, through this same
/// flow.
///
/// # Errors
/// `play`'s, or an endless game.
pub fn three_game<E: From<EngineError>>(
    rules: &Rules,
    rng: &mut Pcg64Mcg,
    mut play: impl FnMut(&TableDeal) -> Result<Option<(usize, u32)>, E>,
) -> Result<ThreeResult, E> {
    let mut dealer = below(rng, 3) as usize;
    let (mut points, mut hands_won) = ([0u32; 3], [0u32; 3]);
    for hands in 1..=MAX_HANDS {
        let pair = [(dealer + 1) % 3, (dealer + 2) % 3];
        let deal = TableDeal {
            round: hands,
            dealer,
            players: pair,
            scores: [points[pair[0]], points[pair[1]]],
            deck: Deck::shuffled(rng),
        };
        let Some((w, p)) = play(&deal)? else { continue };
        points[w] += p;
        hands_won[w] += 1;
        if points[w] >= rules.game_target {
            let mut final_scores = [0; 3];
            for i in 0..3 {
                final_scores[i] = points[i] + hands_won[i] * rules.box_bonus;
            }
            final_scores[w] += rules.game_bonus;
            return Ok(ThreeResult {
                points,
                hands_won,
                winner: w,
                final_scores,
                hands,
            });
        }
        // The loser deals; the next hand is the winner against the old dealer.
        dealer = if pair[0] == w { pair[1] } else { pair[0] };
    }
    Err(EngineError::Endless(MAX_HANDS).into())
}

/// The team of player `p` (0 for players 0 and 2, 1 for players 1 and 3).
#[must_use]
pub fn team_of(p: usize) -> usize {
    p % 2
}

/// What a round of two tables scores: the winning team and its points.
#[must_use]
pub fn round_score(tables: [Option<(usize, u32)>; 2]) -> Option<(usize, u32)> {
    let mut by_team = [(0u32, 0u32); 2]; // (hands won, points)
    for (player, points) in tables.into_iter().flatten() {
        let t = team_of(player);
        by_team[t].0 += 1;
        by_team[t].1 += points;
    }
    match (by_team[0], by_team[1]) {
        ((0, _), (0, _)) => None,
        ((_, p), (0, _)) => Some((0, p)),
        ((0, _), (_, p)) => Some((1, p)),
        ((_, p0), (_, p1)) if p0 > p1 => Some((0, p0 - p1)),
        ((_, p0), (_, p1)) if p1 > p0 => Some((1, p1 - p0)),
        _ => None,
    }
}

/// The end of a partnership game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartnershipResult {
    /// Team scores (team 0: players 0 and 2; team 1: players 1 and 3).
    pub team_points: [u32; 2],
    /// The team that reached the target.
    pub winner: usize,
    /// Rounds played.
    pub rounds: u32,
}

/// Plays a four-player partnership game to [`PARTNERSHIP_TARGET`]; `on_round`
/// sees both tables of every round.
///
/// # Errors
/// An illegal action, inconsistent rules, or an endless game.
pub fn play_partnership(
    rules: &Rules,
    players: &mut [&mut dyn Strategy; 4],
    rng: &mut Pcg64Mcg,
    on_round: impl FnMut(u32, &[TableHand; 2]),
) -> Result<PartnershipResult, EngineError> {
    play_partnership_traced(rules, players, rng, on_round, |_, _| {})
}

/// [`play_partnership`], with `on_table` also given each table's finished
/// two-player [`Hand`] as it ends (the round's first table, then its
/// second).
///
/// # Errors
/// As [`play_partnership`].
pub fn play_partnership_traced(
    rules: &Rules,
    players: &mut [&mut dyn Strategy; 4],
    rng: &mut Pcg64Mcg,
    on_round: impl FnMut(u32, &[TableHand; 2]),
    mut on_table: impl FnMut(&TableHand, &Hand<'_>),
) -> Result<PartnershipResult, EngineError> {
    partnership_game(
        rng,
        |deal| table_hand(rules, players, deal, &mut on_table),
        on_round,
    )
}

/// The flow of a partnership game (the tables of each round, who deals at
/// each, the team scores they play at, the decks of `rng`, the round's
/// score and the end), with each table's hand played by `play` (see
/// [`three_game`]); `on_round` sees both tables of every round.
///
/// # Errors
/// `play`'s, or an endless game.
pub fn partnership_game<E: From<EngineError>>(
    rng: &mut Pcg64Mcg,
    mut play: impl FnMut(&TableDeal) -> Result<Option<(usize, u32)>, E>,
    mut on_round: impl FnMut(u32, &[TableHand; 2]),
) -> Result<PartnershipResult, E> {
    let first_team_deals = below(rng, 2) as usize;
    let mut team_points = [0u32; 2];
    for round in 0..MAX_HANDS {
        let opponents = if round % 2 == 0 {
            [(0, 1), (2, 3)]
        } else {
            [(0, 3), (2, 1)]
        };
        let dealing_team = (first_team_deals + round as usize) % 2;
        let mut tables = [TableHand {
            dealer: 0,
            players: [0, 0],
            winner: None,
        }; 2];
        for (table, &(x, y)) in tables.iter_mut().zip(&opponents) {
            // The dealing team's player takes the dealer role (second).
            let (dealer, other) = if team_of(x) == dealing_team {
                (x, y)
            } else {
                (y, x)
            };
            let deal = TableDeal {
                round: round + 1,
                dealer,
                players: [other, dealer],
                scores: [team_points[team_of(other)], team_points[team_of(dealer)]],
                deck: Deck::shuffled(rng),
            };
            *table = TableHand {
                dealer,
                players: deal.players,
                winner: play(&deal)?,
            };
        }
        on_round(round + 1, &tables);
        if let Some((team, points)) = round_score([tables[0].winner, tables[1].winner]) {
            team_points[team] += points;
            if team_points[team] >= PARTNERSHIP_TARGET {
                return Ok(PartnershipResult {
                    team_points,
                    winner: team,
                    rounds: round + 1,
                });
            }
        }
    }
    Err(EngineError::Endless(MAX_HANDS).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partnership_round_scoring() {
        // Both players of team 0 won: the total.
        assert_eq!(round_score([Some((0, 12)), Some((2, 30))]), Some((0, 42)));
        // One each: the higher scores the difference.
        assert_eq!(round_score([Some((0, 12)), Some((3, 30))]), Some((1, 18)));
        assert_eq!(round_score([Some((1, 25)), Some((2, 40))]), Some((0, 15)));
        assert_eq!(round_score([Some((1, 25)), Some((2, 25))]), None);
        // A void table: the other table's winner scores its points.
        assert_eq!(round_score([None, Some((3, 9))]), Some((1, 9)));
        assert_eq!(round_score([None, None]), None);
    }
}
