//! Game records: one JSON line per game (per hand when playing hands) with
//! everything needed to replay it through the engine on any machine, and
//! [`replay`], which does so and checks every recorded result.
//!
//! A record speaks the bot protocol's language (`docs/PROTOCOL.md`): the
//! rules are its knob table, actions are its move texts, and hand and game
//! results are its `hand_end` and `game_end` messages. The format is in
//! `docs/RECORDS.md`.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{
    Deck, Hand, HandOutcome, Seat, Tally, game_summary, hand_heading, hand_transcript, next_dealer,
};
use crate::protocol::{self, Move};

use super::table_record::{TableCheck, TableRecord};
use super::{Plan, Work};

/// The record format version this build writes and reads.
pub const VERSION: u64 = 1;

/// Where a record file given by the user (`--record PATH`) is written,
/// decided before anything is played by [`RecordTarget::of`]. Nothing
/// that is not a regular file is ever replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordTarget {
    /// `-`: standard output.
    Stdout,
    /// A FIFO or a character device (`/dev/null`, a terminal): opened for
    /// writing and streamed to, as it is.
    Stream(std::path::PathBuf),
    /// A regular file, or a new one: written whole beside it and renamed
    /// over it. For a symbolic link, its final target (so the link stays).
    File(std::path::PathBuf),
}

impl RecordTarget {
    /// Where `--record path` writes (see the type's docs).
    ///
    /// # Errors
    /// A sentence for what cannot be written safely: a directory, a block
    /// device, a socket, a link to nothing, a folder that does not exist.
    pub fn of(path: &std::path::Path) -> Result<RecordTarget, String> {
        if path.as_os_str() == "-" {
            return Ok(RecordTarget::Stdout);
        }
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            // A new file: its folder must exist.
            let parent = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => std::path::Path::new("."),
            };
            return if parent.is_dir() {
                Ok(RecordTarget::File(path.to_owned()))
            } else {
                Err(format!("no folder {} to write it in", parent.display()))
            };
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let target = std::fs::canonicalize(path).map_err(|e| {
                format!(
                    "is a symbolic link whose target cannot be reached ({e}); give the file itself"
                )
            })?;
            return match RecordTarget::of(&target)? {
                RecordTarget::Stdout => Ok(RecordTarget::File(target)),
                other => Ok(other),
            };
        }
        if kind.is_file() {
            return Ok(RecordTarget::File(path.to_owned()));
        }
        let what = if kind.is_dir() {
            "a directory"
        } else {
            match special_file(kind) {
                Ok(()) => return Ok(RecordTarget::Stream(path.to_owned())),
                Err(what) => what,
            }
        };
        Err(format!(
            "is {what}; a record goes to a file, a FIFO, a character device or - (standard output)"
        ))
    }
}

/// `Ok` for a file kind a record can be streamed to (a FIFO, a character
/// device), else what it is.
#[cfg(unix)]
fn special_file(kind: std::fs::FileType) -> Result<(), &'static str> {
    use std::os::unix::fs::FileTypeExt as _;
    if kind.is_fifo() || kind.is_char_device() {
        Ok(())
    } else if kind.is_block_device() {
        Err("a block device")
    } else if kind.is_socket() {
        Err("a socket")
    } else {
        Err("not a regular file")
    }
}

#[cfg(not(unix))]
fn special_file(_: std::fs::FileType) -> Result<(), &'static str> {
    Err("not a regular file")
}

/// How the recorded run played: whole games, or single hands dealt from
/// the seed or from a deck file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Whole games to the target.
    Games,
    /// Single hands from the seed, scores 0–0.
    Hands,
    /// Single hands from given deck orders, scores 0–0.
    Decks,
}

impl Mode {
    /// The name records use: `games`, `hands` or `decks`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Games => "games",
            Mode::Hands => "hands",
            Mode::Decks => "decks",
        }
    }
}

/// A player as a record names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The name reports use.
    pub name: String,
    /// The strategy profile, in its inline form.
    pub profile: String,
}

/// The name, and the profile when it says more.
impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.name == self.profile {
            f.write_str(&self.name)
        } else {
            write!(f, "{} ({})", self.name, self.profile)
        }
    }
}

/// Something per seat, written `{"A": .., "B": ..}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats<T> {
    /// Seat A.
    #[serde(rename = "A")]
    pub a: T,
    /// Seat B.
    #[serde(rename = "B")]
    pub b: T,
}

/// One hand of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedHand {
    /// Who dealt, `A` or `B`.
    pub dealer: String,
    /// The deck order, 52 cards top first, as `--decks` files write it.
    pub deck: String,
    /// Every action in order: the seat and the protocol's move text.
    pub actions: Vec<[String; 2]>,
    /// The protocol's `hand_end` message (scores are the game's after the
    /// hand), or `null` for the hand a player forfeited.
    pub end: Option<Value>,
}

/// A player's forfeit, which stopped the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The seat that forfeited, `A` or `B`.
    pub seat: String,
    /// The strategy's name.
    pub name: String,
    /// Why (a crash, a timeout, a malformed or illegal answer).
    pub reason: String,
}

/// One line of a record file: a game (or a single hand) and its result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The format version, [`VERSION`].
    pub ginlab_record: u64,
    /// The run's master seed.
    pub seed: u64,
    /// The deal index in the run.
    pub deal: u64,
    /// The second game of a duplicate deal: the match's player B sits in
    /// seat A and A in seat B.
    pub swapped: bool,
    /// Games or single hands.
    pub mode: Mode,
    /// The rule variant's name.
    pub variant: String,
    /// The rules as the protocol's knob table.
    pub rules: Value,
    /// Who sits in each seat of this game.
    pub players: Seats<Player>,
    /// The hands, in order.
    pub hands: Vec<RecordedHand>,
    /// The protocol's `game_end` message: the game result, or
    /// `"complete": false` for a single hand or a forfeited game.
    pub end: Value,
    /// The forfeit that stopped the game, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
}

/// A record file checked line by line in order: each line is replayed
/// ([`replay`]) and must also follow the one before. A run writes its rows
/// (variant and pairing) one after the other, each from deal 0 up, every
/// deal once or (duplicate deals) as its game then its seat-swapped game;
/// every line of a variant carries the same rules. So a line removed,
/// repeated or moved, a changed `seed`, `deal` or `swapped`, a relabelled
/// player or variant, and a knob edited in one line (even one that never
/// came into play) are all caught. What no check can catch is an edit
/// made consistently to every line of a variant (see docs/RECORDS.md).
#[derive(Debug, Default)]
pub struct RecordCheck {
    /// The row being read.
    row: Option<Row>,
    /// Rows already read, by key.
    done: Vec<RowKey>,
    /// Each variant's rules and the line that first gave them.
    rules: Vec<(String, Value, u64)>,
    /// The last line checked.
    line: u64,
    /// The last game checked: its row key with the players as seated, and
    /// its (deal, swapped).
    last: Option<(RowKey, (u64, bool))>,
    /// Whether the file holds tables (three players or partnerships), as
    /// its first line says: a run writes one format.
    tables: Option<bool>,
    /// The sequence of table lines.
    table: TableCheck,
}

/// What names a row: every game in it shares these.
#[derive(Clone, Debug, PartialEq)]
struct RowKey {
    seed: u64,
    mode: Mode,
    variant: String,
    /// The match's players A and B (unswapped).
    players: [Player; 2],
}

impl std::fmt::Display for RowKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "variant {}, {} against {}",
            self.variant, self.players[0], self.players[1]
        )
    }
}

#[derive(Debug)]
struct Row {
    key: RowKey,
    /// Whether deals are played twice, once known.
    duplicate: Option<bool>,
    /// The last (deal, swapped) of the row.
    last: (u64, bool),
}

pub(super) fn game_name((deal, swapped): (u64, bool)) -> String {
    if swapped {
        format!("deal {deal} (seats swapped)")
    } else {
        format!("deal {deal}")
    }
}

impl RecordCheck {
    /// A check of a file from its first line.
    #[must_use]
    pub fn new() -> RecordCheck {
        RecordCheck::default()
    }

    /// Replays `line` (line `number` of the file, the one after the last
    /// checked) and checks that it follows the lines before.
    ///
    /// # Errors
    /// As [`replay`], or a line out of sequence with the ones before.
    pub fn replay(&mut self, line: &str, number: u64) -> Result<Replay, ReplayError> {
        let record = parse(line)?;
        let tables = matches!(record, Line::Table(_));
        let kind = |t: bool| {
            if t {
                "a three-player or partnership game"
            } else {
                "a two-player game"
            }
        };
        match self.tables.replace(tables) {
            Some(first) if first != tables => {
                return Err(ReplayError(format!(
                    "the record of {}, but the lines before hold {}: a run records one format",
                    kind(tables),
                    kind(first)
                )));
            }
            _ => {}
        }
        match record {
            Line::Pair(record) => {
                self.follows(&record, number)?;
                self.line = number;
                replay_record(&record, number)
            }
            Line::Table(record) => {
                self.same_rules(&record.variant, &record.rules, number)?;
                self.table.follows(&record)?;
                self.line = number;
                record.replay(number)
            }
        }
    }

    /// Checks that the file ends where a row may end.
    ///
    /// # Errors
    /// A last deal without its seat-swapped game.
    pub fn finish(self) -> Result<(), ReplayError> {
        self.table.finish(self.line)?;
        match self.row {
            Some(row) => row_complete(&row, self.line),
            None => Ok(()),
        }
    }

    /// Checks that every line of `variant` carries the same `rules` as its
    /// first (line `number` may be it).
    fn same_rules(&mut self, variant: &str, rules: &Value, number: u64) -> Result<(), ReplayError> {
        match self.rules.iter().find(|(v, _, _)| v == variant) {
            Some((_, first_rules, first)) if first_rules != rules => {
                let on_first = format!("on line {first}");
                Err(ReplayError(format!(
                    "the rules of variant `{variant}` differ from line {first}'s: {}",
                    first_difference(rules, first_rules, ["here", &on_first])
                )))
            }
            Some(_) => Ok(()),
            None => {
                self.rules.push((variant.to_owned(), rules.clone(), number));
                Ok(())
            }
        }
    }

    fn follows(&mut self, record: &GameRecord, number: u64) -> Result<(), ReplayError> {
        let fail = |what: String| Err(ReplayError(what));
        let (a, b) = (record.players.a.clone(), record.players.b.clone());
        let key = RowKey {
            seed: record.seed,
            mode: record.mode,
            variant: record.variant.clone(),
            players: if record.swapped { [b, a] } else { [a, b] },
        };
        let game = (record.deal, record.swapped);
        let seated = RowKey {
            players: [record.players.a.clone(), record.players.b.clone()],
            ..key.clone()
        };
        let last = self.last.replace((seated.clone(), game));
        // The same deal again with the players' seats exchanged is its
        // other game: the flag must say so.
        if let Some((before, (deal, swapped))) = last
            && deal == game.0
            && swapped == game.1
            && before.players[0] == seated.players[1]
            && before.players[1] == seated.players[0]
            && (before.seed, before.mode, &before.variant)
                == (seated.seed, seated.mode, &seated.variant)
        {
            return fail(format!(
                "{} again with the seats of the line before exchanged, but `swapped` is {} on both",
                game_name((deal, false)),
                swapped
            ));
        }
        self.same_rules(&record.variant, &record.rules, number)?;
        if let Some(row) = self.row.as_mut()
            && row.key == key
        {
            let (deal, swapped) = row.last;
            let twin = (deal, true);
            let next = (deal + 1, false);
            let duplicate = match row.duplicate {
                _ if !swapped && game == twin && row.duplicate != Some(false) => Some(true),
                Some(true) if swapped && game == next => Some(true),
                Some(false) if game == next => Some(false),
                None if game == next => Some(false),
                _ => {
                    let expected = match row.duplicate {
                        Some(true) if !swapped => game_name(twin),
                        Some(false) | Some(true) => game_name(next),
                        None => format!("{} or {}", game_name(twin), game_name(next)),
                    };
                    return fail(format!(
                        "{} follows {} of the same row ({key}), where {expected} comes next: \
                         lines are missing, repeated or out of order",
                        game_name(game),
                        game_name(row.last)
                    ));
                }
            };
            row.duplicate = duplicate;
            row.last = game;
            return Ok(());
        }
        let ended = self.row.take();
        if self.done.contains(&key) {
            return fail(format!(
                "the games of {key} appear again after other rows: lines are repeated or out of order"
            ));
        }
        if game != (0, false) {
            return fail(format!(
                "{key} starts with {}, but a run records every row from deal 0: lines are missing \
                 or out of order, or a label, seed or flag was changed",
                game_name(game)
            ));
        }
        if let Some(row) = ended {
            row_complete(&row, self.line)?;
            self.done.push(row.key);
        }
        self.row = Some(Row {
            key,
            duplicate: None,
            last: game,
        });
        Ok(())
    }
}

/// A row that ends after `last_line`: with duplicate deals, its last deal
/// must have its seat-swapped game.
fn row_complete(row: &Row, last_line: u64) -> Result<(), ReplayError> {
    if row.duplicate == Some(true) && !row.last.1 {
        return Err(ReplayError(format!(
            "the row of {} ends on line {last_line} with {} but without its seat-swapped game: \
             a line is missing",
            row.key,
            game_name(row.last)
        )));
    }
    Ok(())
}

/// What a record carries besides the plan: the variant's name and the
/// players' names (match player A, then B).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    /// The rule variant's name.
    pub variant: String,
    /// The names of players A and B.
    pub names: [String; 2],
}

/// The parts of a run's records that are the same for every game.
pub(super) struct Header {
    seed: u64,
    mode: Mode,
    variant: String,
    rules: Value,
    players: [Player; 2],
}

impl Header {
    pub(super) fn new(plan: &Plan, labels: &Labels) -> Header {
        let player = |i: usize| Player {
            name: labels.names[i].clone(),
            profile: plan.profiles[i].to_string(),
        };
        Header {
            seed: plan.seed,
            mode: match plan.work {
                Work::Games(_) => Mode::Games,
                Work::Hands(_) => Mode::Hands,
                Work::Decks { .. } => Mode::Decks,
            },
            variant: labels.variant.clone(),
            rules: crate::rules::rules_table(&plan.rules),
            players: [player(0), player(1)],
        }
    }
}

impl GameRecord {
    /// The record of game `swapped` of deal `deal`, before any hand.
    pub(super) fn start(header: &Header, deal: u64, swapped: bool) -> GameRecord {
        let [a, b] = header.players.clone();
        let (a, b) = if swapped { (b, a) } else { (a, b) };
        GameRecord {
            ginlab_record: VERSION,
            seed: header.seed,
            deal,
            swapped,
            mode: header.mode,
            variant: header.variant.clone(),
            rules: header.rules.clone(),
            players: Seats { a, b },
            hands: Vec::new(),
            end: protocol::game_stopped_value(),
            forfeit: None,
        }
    }

    /// Appends the record as one JSON line.
    pub(super) fn write_line(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(&mut *out, self).expect("a record serialises");
        out.push(b'\n');
    }
}

impl RecordedHand {
    /// A hand as played so far: dealer, deck, the actions as moves, and
    /// its end if it is over.
    #[must_use]
    pub fn of(hand: &Hand<'_>) -> RecordedHand {
        let deck = hand.deck();
        let mut replay = Hand::new(hand.rules(), &deck, hand.dealer(), hand.scores())
            .expect("a dealt hand's rules are valid");
        let actions = hand
            .actions()
            .iter()
            .map(|&(seat, action)| {
                let mv = protocol::move_of(replay.phase(), action);
                replay.apply(seat, action).expect("played actions replay");
                [seat.to_string(), mv.to_string()]
            })
            .collect();
        RecordedHand {
            dealer: hand.dealer().to_string(),
            deck: deck.to_string(),
            actions,
            end: hand
                .outcome()
                .map(|outcome| protocol::hand_end_value(&hand.view(Seat::A), outcome)),
        }
    }
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReplayError(pub(super) String);

/// A record re-simulated and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The omniscient transcript: every hand, the scores and the result.
    pub transcript: String,
    /// Hands in the record.
    pub hands: usize,
}

fn seat(text: &str) -> Result<Seat, String> {
    match text {
        "A" => Ok(Seat::A),
        "B" => Ok(Seat::B),
        _ => Err(format!("`{text}` is not a seat (A or B)")),
    }
}

/// Where a recorded JSON value first differs from the replayed one.
pub(super) fn difference(recorded: &Value, replayed: &Value) -> String {
    first_difference(recorded, replayed, ["in the record", "on replay"])
}

/// Where two JSON values first differ: the first field of an object that
/// does not match, with both values, each with its `place`.
fn first_difference(one: &Value, other: &Value, place: [&str; 2]) -> String {
    let show = |v: Option<&Value>| v.map_or("missing".to_owned(), Value::to_string);
    let [here, there] = place;
    if let (Value::Object(r), Value::Object(p)) = (one, other)
        && let Some(key) = r.keys().chain(p.keys()).find(|k| r.get(*k) != p.get(*k))
    {
        return format!(
            "`{key}` is {} {here} but {} {there}",
            show(r.get(key)),
            show(p.get(key))
        );
    }
    format!("{one} {here}, {other} {there}")
}

/// Replays one hand of a record from its deck and actions: the hand as the
/// engine ends it, or a message naming the action that does not apply.
pub(super) fn replay_hand<'r>(
    rules: &'r crate::rules::Rules,
    (deck, actions): (&str, &[[String; 2]]),
    dealer: Seat,
    scores: [u32; 2],
) -> Result<Hand<'r>, String> {
    let deck: Deck = deck.parse().map_err(|e| format!("the deck: {e}"))?;
    let mut hand = Hand::new(rules, &deck, dealer, scores).map_err(|e| e.to_string())?;
    for (k, [who, text]) in actions.iter().enumerate() {
        let at = |what: String| format!("action {} (`{who}` `{text}`): {what}", k + 1);
        let seat = seat(who).map_err(at)?;
        let mv: Move = text.parse().map_err(|e| at(format!("{e}")))?;
        let phase = hand.phase();
        match phase.seat() {
            None => return Err(at("the hand is already over".into())),
            Some(s) if s != seat => return Err(at(format!("it is {s}'s decision, not {seat}'s"))),
            Some(_) => {}
        }
        let action = protocol::action_of(phase, mv).ok_or_else(|| {
            at(format!(
                "not an answer to the decision `{}`",
                protocol::decision_name(phase)
            ))
        })?;
        hand.apply(seat, action).map_err(|e| at(e.to_string()))?;
    }
    Ok(hand)
}

/// Re-simulates the record on `line` (game `number` of its file) through
/// the engine and checks every recorded result against it: each hand's
/// `hand_end`, the dealer of each hand of a game, the game's `game_end`,
/// and that a forfeit stops the game in an unfinished hand.
///
/// # Errors
/// Bad JSON, another format version, unknown rules, cards or moves, an
/// illegal action or a result that differs from the replay, with what and
/// where (hand and action numbers from 1).
pub fn replay(line: &str, number: u64) -> Result<Replay, ReplayError> {
    match parse(line)? {
        Line::Pair(record) => replay_record(&record, number),
        Line::Table(record) => record.replay(number),
    }
}

/// A line of a record file: a two-player game (or hand), or a game of
/// three players or two partnerships (a line with a `format`).
pub(super) enum Line {
    /// A two-player game or hand.
    Pair(GameRecord),
    /// A three-player or partnership game.
    Table(TableRecord),
}

/// The record on `line`, in this build's format version.
pub(super) fn parse(line: &str) -> Result<Line, ReplayError> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) if map.get("ginlab_record") != Some(&Value::from(VERSION)) => {
            let found = map
                .get("ginlab_record")
                .map_or("none".into(), Value::to_string);
            return Err(ReplayError(format!(
                "not a ginlab game record of version {VERSION} (`ginlab_record` is {found})"
            )));
        }
        Ok(value) if value.get("format").is_some() => {
            serde_json::from_value(value).map(Line::Table)
        }
        Ok(value) => serde_json::from_value(value).map(Line::Pair),
        Err(e) => Err(e),
    }
    .map_err(|e| ReplayError(format!("not a game record: {e}")))
}

/// The first card where `recorded` differs from `dealt`, as a message.
pub(super) fn deck_difference(recorded: &Deck, dealt: &Deck) -> Option<String> {
    let (r, d) = (recorded.cards(), dealt.cards());
    (0..r.len()).find(|&i| r[i] != d[i]).map(|i| {
        format!(
            "card {} is {} in the record, but the seed deals {} there",
            i + 1,
            r[i],
            d[i]
        )
    })
}

/// Checks the decks and the first dealer against the generator of the
/// record's (seed, deal): a deck dealt from the seed cannot be edited, even
/// in cards no one drew (the swapped game of a pair may hold it with its
/// two hands exchanged, see `sim`). Deck files (`--decks`) have no
/// generator.
fn check_deal(record: &GameRecord) -> Result<(), ReplayError> {
    let mut rng = super::deal_rng(record.seed, record.deal);
    let expected_dealer = match record.mode {
        Mode::Decks => return Ok(()),
        Mode::Games => crate::engine::draw_first_dealer(&mut rng),
        Mode::Hands => super::hand_dealer(record.deal),
    };
    let what = format!(
        "{} of seed {}",
        game_name((record.deal, record.swapped)),
        record.seed
    );
    if let Some(first) = record.hands.first()
        && first.dealer != expected_dealer.to_string()
    {
        return Err(ReplayError(format!(
            "hand 1: dealt by {}, but {expected_dealer} deals first in {what}",
            first.dealer,
        )));
    }
    for (i, hand) in record.hands.iter().enumerate() {
        let dealt = Deck::shuffled(&mut rng);
        let recorded: Deck = hand
            .deck
            .parse()
            .map_err(|e| ReplayError(format!("hand {}: the deck: {e}", i + 1)))?;
        // The swapped game of a duplicate pair deals a deck with its two
        // hands exchanged when the same player deals it in both games.
        let mirrored = record.swapped && record.mode == Mode::Games;
        if mirrored && recorded == dealt.exchanged() {
            continue;
        }
        if let Some(difference) = deck_difference(&recorded, &dealt) {
            return Err(ReplayError(format!(
                "hand {}: the deck is not the one dealt for {what}: {difference}",
                i + 1,
            )));
        }
    }
    Ok(())
}

/// Replays a parsed record (see [`replay`]).
fn replay_record(record: &GameRecord, number: u64) -> Result<Replay, ReplayError> {
    check_deal(record)?;
    let fail = |what: String| ReplayError(what);
    let rules = crate::rules::rules_from_table(&record.rules)
        .map_err(|e| fail(format!("the rules: {e}")))?;
    let games = record.mode == Mode::Games;
    let count = record.hands.len();
    if count == 0 || (!games && count != 1) {
        return Err(fail(format!(
            "{count} hands: a record holds one hand in {} mode, at least one in games mode",
            record.mode.name()
        )));
    }
    let swapped = if record.swapped {
        " (seats swapped)"
    } else {
        ""
    };
    let mut out = format!(
        "game {number} · deal {}{swapped} · seed {} · rules {} · mode {}\nA = {} · B = {}\n",
        record.deal,
        record.seed,
        record.variant,
        record.mode.name(),
        record.players.a,
        record.players.b,
    );
    let mut tally = Tally::default();
    let mut previous: Option<(Seat, HandOutcome)> = None;
    let mut first_dealer = Seat::A;
    let mut last_over = false;
    for (i, recorded) in record.hands.iter().enumerate() {
        let at = |what: String| fail(format!("hand {}: {what}", i + 1));
        let dealer = seat(&recorded.dealer).map_err(|e| at(format!("dealer: {e}")))?;
        match previous {
            None => first_dealer = dealer,
            Some((before, outcome)) if games => {
                let expected = next_dealer(&rules, before, &outcome);
                if dealer != expected {
                    return Err(at(format!(
                        "dealt by {dealer}, but {expected} deals after hand {} under these rules",
                        i
                    )));
                }
            }
            Some(_) => {}
        }
        let played = (recorded.deck.as_str(), recorded.actions.as_slice());
        let hand = replay_hand(&rules, played, dealer, tally.points).map_err(at)?;
        let last = i + 1 == count;
        match (hand.outcome(), &recorded.end) {
            (Some(outcome), Some(end)) => {
                let replayed = protocol::hand_end_value(&hand.view(Seat::A), outcome);
                if *end != replayed {
                    return Err(at(format!(
                        "the result differs: {}",
                        difference(end, &replayed)
                    )));
                }
            }
            (None, None) if last && record.forfeit.is_some() => {}
            (None, _) => {
                return Err(at(
                    "the actions stop before the hand is over (only the hand a player forfeited may)"
                        .into(),
                ));
            }
            (Some(_), None) => {
                return Err(at(
                    "the actions end the hand, but the record gives no result".into(),
                ));
            }
        }
        writeln!(out, "\n{}", hand_heading(i as u32 + 1, tally.points)).unwrap();
        out.push_str(&hand_transcript(&hand));
        last_over = hand.outcome().is_some();
        if let Some(&outcome) = hand.outcome() {
            tally.record(&rules, &outcome, hand.upcard());
            if games && !last && tally.leader(&rules).is_some() {
                return Err(at(
                    "the game was won with this hand, but the record goes on".into(),
                ));
            }
            previous = Some((dealer, outcome));
        }
    }
    let end = match (&record.forfeit, games) {
        (Some(forfeit), _) => {
            let who = seat(&forfeit.seat).map_err(|e| fail(format!("the forfeit: {e}")))?;
            if last_over {
                return Err(fail(format!(
                    "the record says {who} forfeited, but its last hand is over"
                )));
            }
            writeln!(
                out,
                "\ngame stopped: {who} ({}) forfeits: {}",
                forfeit.name, forfeit.reason
            )
            .unwrap();
            protocol::game_stopped_value()
        }
        (None, true) => {
            let winner = tally.leader(&rules).ok_or_else(|| {
                fail(format!(
                    "the game ends after hand {count} without a winner: nobody reached {} points",
                    rules.game_target
                ))
            })?;
            let result = tally.result(&rules, winner, count as u32, first_dealer);
            writeln!(out, "\n{}", game_summary(&result)).unwrap();
            protocol::game_end_value(&result)
        }
        (None, false) => protocol::game_stopped_value(),
    };
    if record.end != end {
        return Err(fail(format!(
            "the game result differs: {}",
            difference(&record.end, &end)
        )));
    }
    Ok(Replay {
        transcript: out,
        hands: count,
    })
}
