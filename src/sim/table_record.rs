//! Game records of three-player and partnership games: one JSON line per
//! game, a line with a `format` field (`three` or `partnership`), and their
//! replay, which plays each recorded hand through the engine inside the
//! engine's own game flow ([`three_game`], [`partnership_game`]) with the
//! decks the record's seed deals, so the dealers, the pairs, the scores the
//! hands are played at and the game's end are the engine's, not a second
//! copy of its rules. The format is in `docs/RECORDS.md`.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::engine::{
    EngineError, Hand, MAX_HANDS, PartnershipResult, Seat, TableDeal, TableHand, ThreeResult,
    hand_transcript, partnership_game, three_game,
};
use crate::protocol;

use super::record::{
    Player, RecordedHand, ReplayError, Seats, VERSION, deck_difference, difference, replay_hand,
};
use super::{Format, TablePlan, deal_rng};

/// One hand of a table record: a two-player hand between two of the
/// table's players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRecordedHand {
    /// Partnership games: the round (from 1), whose two tables are two
    /// consecutive hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The table player who dealt (three players: the one sitting out).
    pub dealer: usize,
    /// The table players in the hand's seats: A, the non-dealer role
    /// (offered the upcard first), and B, the dealer role.
    pub seats: Seats<usize>,
    /// The deck order, 52 cards top first, dealt by seat B to seat A.
    pub deck: String,
    /// Every action in order: the hand's seat and the protocol's move text.
    pub actions: Vec<[String; 2]>,
    /// The protocol's `hand_end` message, seen from the hand's seats
    /// (`scores` are the scores the two played at, after the hand).
    pub end: Value,
}

/// One line of a record file for a three-player or partnership game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRecord {
    /// The format version, [`VERSION`].
    pub ginlab_record: u64,
    /// `three` or `partnership`.
    pub format: Format,
    /// The run's master seed.
    pub seed: u64,
    /// The deal index in the run.
    pub deal: u64,
    /// Which game of the deal: 0, or with seat rotation the rotation
    /// (0 to players − 1), every player moved that many seats on.
    pub rotation: u64,
    /// The rule variant's name.
    pub variant: String,
    /// The rules as the protocol's knob table.
    pub rules: Value,
    /// The players by table seat (partnerships: seats 0 and 2 are one
    /// team, 1 and 3 the other).
    pub players: Vec<Player>,
    /// The hands, in order.
    pub hands: Vec<TableRecordedHand>,
    /// The game's end (see `docs/RECORDS.md`).
    pub end: Value,
}

/// The parts of a table run's records that are the same for every game.
pub(super) struct TableHeader {
    seed: u64,
    format: Format,
    variant: String,
    rules: Value,
    /// The row's players, in the row's order.
    players: Vec<Player>,
}

impl TableHeader {
    pub(super) fn new(plan: &TablePlan, variant: &str, names: &[String]) -> TableHeader {
        TableHeader {
            seed: plan.seed,
            format: plan.format,
            variant: variant.to_owned(),
            rules: crate::rules::rules_table(&plan.rules),
            players: plan
                .profiles
                .iter()
                .zip(names)
                .map(|(profile, name)| Player {
                    name: name.clone(),
                    profile: profile.to_string(),
                })
                .collect(),
        }
    }
}

impl TableRecord {
    /// The record of rotation `rotation` of deal `deal`, with row player
    /// `seated[s]` in table seat `s`, before any hand.
    pub(super) fn start(
        header: &TableHeader,
        deal: u64,
        rotation: u64,
        seated: &[usize],
    ) -> TableRecord {
        TableRecord {
            ginlab_record: VERSION,
            format: header.format,
            seed: header.seed,
            deal,
            rotation,
            variant: header.variant.clone(),
            rules: header.rules.clone(),
            players: seated.iter().map(|&p| header.players[p].clone()).collect(),
            hands: Vec::new(),
            end: Value::Null,
        }
    }

    /// Adds a finished hand.
    pub(super) fn push(&mut self, table: &TableHand, hand: &Hand<'_>) {
        let round = (self.format == Format::Partnership).then(|| self.hands.len() as u32 / 2 + 1);
        let RecordedHand {
            deck, actions, end, ..
        } = RecordedHand::of(hand);
        self.hands.push(TableRecordedHand {
            round,
            dealer: table.dealer,
            seats: Seats {
                a: table.players[0],
                b: table.players[1],
            },
            deck,
            actions,
            end: end.unwrap_or(Value::Null),
        });
    }

    /// Appends the record as one JSON line.
    pub(super) fn write_line(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(&mut *out, self).expect("a record serialises");
        out.push(b'\n');
    }

    /// Replays the record (line `number` of its file): every hand through
    /// the engine, inside the format's game flow, with the decks of the
    /// record's seed and deal, checking each hand's dealer, seats, deck and
    /// `hand_end`, that the game ends with its last hand, and the game's end.
    pub(super) fn replay(&self, number: u64) -> Result<super::Replay, ReplayError> {
        let fail = |what: String| ReplayError(what);
        if self.players.len() != self.format.players() {
            return Err(fail(format!(
                "`players` names {} players, but a {} game seats {}",
                self.players.len(),
                self.format.name(),
                self.format.players()
            )));
        }
        if self.rotation >= self.format.rotations() {
            return Err(fail(format!(
                "`rotation` is {}, but a {} game has rotations 0 to {}",
                self.rotation,
                self.format.name(),
                self.format.rotations() - 1
            )));
        }
        let rules = crate::rules::rules_from_table(&self.rules)
            .map_err(|e| fail(format!("the rules: {e}")))?;
        let mut out = format!(
            "game {number} · {} · deal {} rotation {} · seed {} · rules {}\n",
            self.format.name(),
            self.deal,
            self.rotation,
            self.seed,
            self.variant,
        );
        for (p, player) in self.players.iter().enumerate() {
            let team = match self.format {
                Format::Three => String::new(),
                Format::Partnership => format!(" (team {})", p % 2),
            };
            writeln!(out, "player {p}{team} = {player}").unwrap();
        }
        let mut rng = deal_rng(self.seed, self.deal);
        let mut recorded = self.hands.iter().enumerate();
        let mut play = |deal: &TableDeal| {
            let Some((i, hand)) = recorded.next() else {
                return Err(fail(format!(
                    "the record ends after hand {}, but the game goes on: nobody has reached the target",
                    self.hands.len()
                )));
            };
            let at = |what: String| fail(format!("hand {}: {what}", i + 1));
            self.check_deal(hand, deal).map_err(at)?;
            let played = (hand.deck.as_str(), hand.actions.as_slice());
            let replayed = replay_hand(&rules, played, Seat::B, deal.scores).map_err(at)?;
            let Some(outcome) = replayed.outcome() else {
                return Err(at("the actions stop before the hand is over".into()));
            };
            let end = protocol::hand_end_value(&replayed.view(Seat::A), outcome);
            if hand.end != end {
                return Err(at(format!(
                    "the result differs: {}",
                    difference(&hand.end, &end)
                )));
            }
            let round = match self.format {
                Format::Three => String::new(),
                Format::Partnership => format!(" · round {}", deal.round),
            };
            let [a, b] = deal.players;
            writeln!(
                out,
                "\nhand {}{round} · player {} deals · A = player {a} · B = player {b} (the dealer's role) · scores A {} B {}",
                i + 1,
                deal.dealer,
                deal.scores[0],
                deal.scores[1]
            )
            .unwrap();
            out.push_str(&hand_transcript(&replayed));
            Ok(deal.winner(outcome))
        };
        let end = match self.format {
            Format::Three => three_end(&three_game(&rules, &mut rng, &mut play)?),
            Format::Partnership => {
                partnership_end(&partnership_game(&mut rng, &mut play, |_, _| {})?)
            }
        };
        if let Some((i, _)) = recorded.next() {
            return Err(fail(format!(
                "hand {}: the game was won with hand {i}, but the record goes on",
                i + 1
            )));
        }
        if self.end != end {
            return Err(fail(format!(
                "the game result differs: {}",
                difference(&self.end, &end)
            )));
        }
        writeln!(out, "\n{}", table_summary(self.format, &end)).unwrap();
        Ok(super::Replay {
            transcript: out,
            hands: self.hands.len(),
        })
    }

    /// Checks a recorded hand's round, dealer, seats and deck against the
    /// ones the game flow deals.
    fn check_deal(&self, hand: &TableRecordedHand, deal: &TableDeal) -> Result<(), String> {
        let round = (self.format == Format::Partnership).then_some(deal.round);
        if hand.round != round {
            let show = |r: Option<u32>| r.map_or("missing".into(), |r| r.to_string());
            return Err(format!(
                "`round` is {} in the record but {} on replay",
                show(hand.round),
                show(round)
            ));
        }
        if hand.dealer != deal.dealer {
            return Err(format!(
                "`dealer` is player {} in the record, but player {} deals this hand on replay",
                hand.dealer, deal.dealer
            ));
        }
        if [hand.seats.a, hand.seats.b] != deal.players {
            return Err(format!(
                "`seats` are A {} B {} in the record, but players {} (A) and {} (B) play this hand on replay",
                hand.seats.a, hand.seats.b, deal.players[0], deal.players[1]
            ));
        }
        let recorded: crate::engine::Deck =
            hand.deck.parse().map_err(|e| format!("the deck: {e}"))?;
        if let Some(difference) = deck_difference(&recorded, &deal.deck) {
            return Err(format!(
                "the deck is not the one dealt for deal {} of seed {}: {difference}",
                self.deal, self.seed
            ));
        }
        Ok(())
    }
}

impl From<EngineError> for ReplayError {
    fn from(e: EngineError) -> ReplayError {
        ReplayError(format!("more than {MAX_HANDS} hands: {e}"))
    }
}

/// A three-player game's end as a record holds it.
#[must_use]
pub(super) fn three_end(result: &ThreeResult) -> Value {
    json!({
        "type": "game_end",
        "winner": result.winner,
        "points": result.points,
        "hands_won": result.hands_won,
        "final_scores": result.final_scores,
        "hands": result.hands,
    })
}

/// A partnership game's end as a record holds it.
#[must_use]
pub(super) fn partnership_end(result: &PartnershipResult) -> Value {
    json!({
        "type": "game_end",
        "winning_team": result.winner,
        "team_points": result.team_points,
        "rounds": result.rounds,
    })
}

/// The closing line of a replayed table game.
fn table_summary(format: Format, end: &Value) -> String {
    let list = |key: &str| {
        end[key]
            .as_array()
            .map(|v| v.iter().map(Value::to_string).collect::<Vec<_>>().join("–"))
            .unwrap_or_default()
    };
    match format {
        Format::Three => format!(
            "game over: player {} wins · hand points {} · hands won {} · final {} · {} hands",
            end["winner"],
            list("points"),
            list("hands_won"),
            list("final_scores"),
            end["hands"]
        ),
        Format::Partnership => format!(
            "game over: team {} wins · team points {} · {} round{}",
            end["winning_team"],
            list("team_points"),
            end["rounds"],
            if end["rounds"] == 1 { "" } else { "s" }
        ),
    }
}

/// What names a row of table games: every game in it shares these.
#[derive(Clone, Debug, PartialEq)]
struct TableRow {
    seed: u64,
    format: Format,
    variant: String,
    /// The row's players, in the row's order (rotation 0's seats).
    players: Vec<Player>,
}

impl std::fmt::Display for TableRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.players.iter().map(ToString::to_string).collect();
        let format = match self.format {
            Format::Three => "three-player",
            Format::Partnership => "partnership",
        };
        write!(
            f,
            "variant {}, {format} game of {}",
            self.variant,
            names.join(", ")
        )
    }
}

/// The sequence check of a file's table lines (see
/// [`RecordCheck`](super::RecordCheck)): rows one after the other, each
/// from deal 0 up, every deal once or, with seat rotation, as its
/// rotations 0, 1, … in order, with the same players moved one seat on.
#[derive(Debug, Default)]
pub(super) struct TableCheck {
    /// The row being read, whether it rotates (once known) and its last
    /// (deal, rotation).
    row: Option<(TableRow, Option<bool>, (u64, u64))>,
    /// Rows already read.
    done: Vec<TableRow>,
}

fn game_name((deal, rotation): (u64, u64)) -> String {
    format!("deal {deal} rotation {rotation}")
}

impl TableCheck {
    /// Checks that `record` follows the table lines before it.
    pub(super) fn follows(&mut self, record: &TableRecord) -> Result<(), ReplayError> {
        let fail = |what: String| Err(ReplayError(what));
        let format = record.format;
        if record.players.len() != format.players() || record.rotation >= format.rotations() {
            // The replay names the fault.
            return Ok(());
        }
        // Table seat s holds row player `seated(s, rotation)`.
        let mut players = record.players.clone();
        for (s, player) in record.players.iter().enumerate() {
            players[format.seated(s, record.rotation)] = player.clone();
        }
        let key = TableRow {
            seed: record.seed,
            format,
            variant: record.variant.clone(),
            players,
        };
        let game = (record.deal, record.rotation);
        if let Some((row, rotates, last)) = self.row.as_mut()
            && *row == key
        {
            let (deal, rotation) = *last;
            let turn = (deal, rotation + 1);
            let next = (deal + 1, 0);
            let last_turn = rotation + 1 == format.rotations();
            let found = match rotates {
                _ if game == turn && !last_turn && *rotates != Some(false) => Some(true),
                Some(true) if last_turn && game == next => Some(true),
                Some(false) | None if game == next => Some(false),
                _ => None,
            };
            let Some(found) = found else {
                let expected = match rotates {
                    Some(true) if !last_turn => game_name(turn),
                    Some(_) => game_name(next),
                    None => format!("{} or {}", game_name(turn), game_name(next)),
                };
                return fail(format!(
                    "{} follows {} of the same row ({key}), where {expected} comes next: \
                     lines are missing, repeated or out of order",
                    game_name(game),
                    game_name(*last)
                ));
            };
            *rotates = Some(found);
            *last = game;
            return Ok(());
        }
        if self.done.contains(&key) {
            return fail(format!(
                "the games of {key} appear again after other rows: lines are repeated or out of order"
            ));
        }
        if game != (0, 0) {
            return fail(format!(
                "{key} starts with {}, but a run records every row from deal 0 rotation 0: lines \
                 are missing or out of order, or a label, seed or player was changed",
                game_name(game)
            ));
        }
        if let Some(ended) = self.row.take() {
            row_complete(&ended, None)?;
            self.done.push(ended.0);
        }
        self.row = Some((key, None, game));
        Ok(())
    }

    /// Checks that the file ends where a row may end (after line `line`).
    pub(super) fn finish(&self, line: u64) -> Result<(), ReplayError> {
        match &self.row {
            Some(row) => row_complete(row, Some(line)),
            None => Ok(()),
        }
    }
}

/// A rotating row must end with its last deal's last rotation.
fn row_complete(
    (row, rotates, (deal, rotation)): &(TableRow, Option<bool>, (u64, u64)),
    line: Option<u64>,
) -> Result<(), ReplayError> {
    if *rotates == Some(true) && rotation + 1 != row.format.rotations() {
        let at = line.map_or(String::new(), |l| format!(" on line {l}"));
        return Err(ReplayError(format!(
            "the row of {row} ends{at} with {} but without the deal's other rotations: a line is missing",
            game_name((*deal, *rotation))
        )));
    }
    Ok(())
}
