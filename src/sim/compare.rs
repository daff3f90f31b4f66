//! Two records of the same deals compared game by game (`ginlab compare`):
//! how much better one player did than another against the same opponent,
//! with the luck of the deals both met taken out.
//!
//! Both records come from the same command with only the player under test
//! changed (`ginlab match ARM simple --record …` beside `ginlab match BASE
//! simple --record …`, same seed, rules and deals): line `n` of one and
//! line `n` of the other are the same game of the same deal, with the same
//! opponent in the same seat. The figure is the match's first player's
//! score (games won, a tie or a void hand counting half), the unit a deal
//! (both of its games with duplicate deals), as in every ginlab interval;
//! the interval of the difference is [`paired_interval`] over the deals,
//! whose coverage is measured by `examples/coverage.rs --pairing 4`.
//!
//! The records are read as written; `ginlab replay --check` re-plays one
//! and checks every result in it.

use serde_json::Value;

use super::record::{GameRecord, Line, Mode, parse};
use crate::stats::{Cross, UnitSums, paired_interval};

/// The comparison of one row (a variant and an opponent), or of all rows.
#[derive(Clone, Debug, PartialEq)]
pub struct ComparedRow {
    /// The rule variant (`all` for the rows pooled).
    pub variant: String,
    /// The opponent both players met (`all` for the rows pooled).
    pub opponent: String,
    /// The units (deals) compared.
    pub units: u64,
    /// The games (hands, when the records hold hands) of each player.
    pub games: u64,
    /// The base player's score: games won, a tie or void counting half.
    pub base: f64,
    /// The other player's score.
    pub arm: f64,
    /// `arm − base`.
    pub difference: f64,
    /// The ends of the difference's paired 95 % interval (`None` below
    /// two deals).
    pub interval: Option<(f64, f64)>,
}

/// The result of [`Comparison::finish`].
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// Games or hands.
    pub mode: Mode,
    /// The base record's player under test (the match's first player).
    pub base_player: String,
    /// The other record's.
    pub arm_player: String,
    /// Each row, in the records' order.
    pub rows: Vec<ComparedRow>,
    /// All rows pooled, when there are more than one.
    pub all: Option<ComparedRow>,
}

/// One row's sums.
#[derive(Debug)]
struct Row {
    variant: String,
    opponent: String,
    base: UnitSums,
    arm: UnitSums,
    cross: Cross,
    games: u64,
}

impl Row {
    fn result(&self) -> ComparedRow {
        let interval = paired_interval(&self.arm, &self.base, &self.cross, 0.95);
        ComparedRow {
            variant: self.variant.clone(),
            opponent: self.opponent.clone(),
            units: self.base.units,
            games: self.games,
            base: self.base.value(),
            arm: self.arm.value(),
            difference: self.arm.value() - self.base.value(),
            interval: interval.map(|(_, lo, hi)| (lo, hi)),
        }
    }
}

/// What names the unit a game belongs to.
#[derive(Clone, Debug, PartialEq)]
struct UnitKey {
    seed: u64,
    mode: Mode,
    variant: String,
    opponent: String,
    deal: u64,
}

/// The open unit: its key and both players' half points and games so far.
#[derive(Debug)]
struct Open {
    key: UnitKey,
    base: i64,
    arm: i64,
    games: u64,
}

/// Reads two records line by line in step ([`Comparison::add`]) and
/// sums their paired units ([`Comparison::finish`]).
#[derive(Debug, Default)]
pub struct Comparison {
    /// The mode and the players under test, from the first lines.
    players: Option<(Mode, String, String)>,
    rows: Vec<Row>,
    open: Option<Open>,
}

impl Comparison {
    /// An empty comparison.
    #[must_use]
    pub fn new() -> Comparison {
        Comparison::default()
    }

    /// Adds line `number` of each record: `base`'s and `arm`'s.
    ///
    /// # Errors
    /// A line that is not a two-player game record, or two lines that are
    /// not the same game of the same deal against the same opponent: what
    /// differs.
    pub fn add(&mut self, base: &str, arm: &str, number: u64) -> Result<(), String> {
        let (base, arm) = (game(base, "the first")?, game(arm, "the second")?);
        let (key, base_player) = unit_key(&base);
        let (arm_key, arm_player) = unit_key(&arm);
        let same = |what: &str, one: String, other: String| {
            if one == other {
                Ok(())
            } else {
                Err(format!(
                    "the records are not of the same games: {what} is {one} in the first but \
                     {other} in the second (compare two records of one command with only the \
                     first player changed)"
                ))
            }
        };
        same("the seed", base.seed.to_string(), arm.seed.to_string())?;
        same("the mode", base.mode.name().into(), arm.mode.name().into())?;
        same("the variant", base.variant.clone(), arm.variant.clone())?;
        same(
            "the game",
            super::record::game_name((base.deal, base.swapped)),
            super::record::game_name((arm.deal, arm.swapped)),
        )?;
        same(
            "the opponent",
            key.opponent.clone(),
            arm_key.opponent.clone(),
        )?;
        if base.rules != arm.rules {
            return Err(format!(
                "the records are not of the same games: the rules of variant `{}` differ",
                base.variant
            ));
        }
        let deck = |r: &GameRecord| r.hands.first().map_or(String::new(), |h| h.deck.clone());
        if deck(&base) != deck(&arm) {
            return Err(format!(
                "the records are not of the same games: {} opens with another deck in each \
                 (the same seed dealt other cards: records of different ginlab versions?)",
                super::record::game_name((base.deal, base.swapped))
            ));
        }
        match &self.players {
            None => self.players = Some((base.mode, base_player, arm_player)),
            Some((_, b, a)) if *b != base_player || *a != arm_player => {
                return Err(format!(
                    "the player under test changes at line {number} ({b} and {a} before, \
                     {base_player} and {arm_player} here): compare records of one player each"
                ));
            }
            Some(_) => {}
        }
        let (x_base, x_arm) = (half_points(&base)?, half_points(&arm)?);
        if self.open.as_ref().is_some_and(|open| open.key != key) {
            self.close();
        }
        let open = self.open.get_or_insert(Open {
            key,
            base: 0,
            arm: 0,
            games: 0,
        });
        open.base += x_base;
        open.arm += x_arm;
        open.games += 1;
        Ok(())
    }

    /// Closes the open unit into its row.
    fn close(&mut self) {
        let Some(open) = self.open.take() else {
            return;
        };
        let UnitKey {
            variant, opponent, ..
        } = open.key;
        let at = match self
            .rows
            .iter()
            .position(|r| r.variant == variant && r.opponent == opponent)
        {
            Some(at) => at,
            None => {
                self.rows.push(Row {
                    variant,
                    opponent,
                    base: UnitSums::default(),
                    arm: UnitSums::default(),
                    cross: Cross::default(),
                    games: 0,
                });
                self.rows.len() - 1
            }
        };
        let row = &mut self.rows[at];
        let y = 2 * open.games;
        row.base.add(open.base, y);
        row.arm.add(open.arm, y);
        row.cross.add((open.arm, y), (open.base, y));
        row.games += open.games;
    }

    /// The comparison of every row read, and of all pooled.
    ///
    /// # Errors
    /// When no line was added.
    pub fn finish(mut self) -> Result<Compared, String> {
        self.close();
        let Some((mode, base_player, arm_player)) = self.players.take() else {
            return Err("no game records (the files are empty)".into());
        };
        let rows: Vec<ComparedRow> = self.rows.iter().map(Row::result).collect();
        let all = (self.rows.len() > 1).then(|| {
            let mut pooled = Row {
                variant: "all".into(),
                opponent: "all".into(),
                base: UnitSums::default(),
                arm: UnitSums::default(),
                cross: Cross::default(),
                games: 0,
            };
            for r in &self.rows {
                pooled.base.merge(&r.base);
                pooled.arm.merge(&r.arm);
                pooled.cross.merge(&r.cross);
                pooled.games += r.games;
            }
            pooled.result()
        });
        Ok(Compared {
            mode,
            base_player,
            arm_player,
            rows,
            all,
        })
    }
}

/// Line `text` of `which` record as a two-player game record.
fn game(text: &str, which: &str) -> Result<GameRecord, String> {
    match parse(text).map_err(|e| format!("{which} record: {e}"))? {
        Line::Pair(record) => Ok(record),
        Line::Table(_) => Err(format!(
            "{which} record holds a three-player or partnership game; compare reads \
             two-player records"
        )),
    }
}

/// The unit `record` belongs to and the player under test (the match's
/// first player, whichever seat it sat in).
fn unit_key(record: &GameRecord) -> (UnitKey, String) {
    let (first, other) = if record.swapped {
        (&record.players.b, &record.players.a)
    } else {
        (&record.players.a, &record.players.b)
    };
    (
        UnitKey {
            seed: record.seed,
            mode: record.mode,
            variant: record.variant.clone(),
            opponent: other.profile.clone(),
            deal: record.deal,
        },
        first.profile.clone(),
    )
}

/// The match's first player's half points in `record`: 2 for a game (or
/// hand) won, 0 for one lost, 1 for a void hand or a scoreless tie.
fn half_points(record: &GameRecord) -> Result<i64, String> {
    let first = if record.swapped { "B" } else { "A" };
    let game = super::record::game_name((record.deal, record.swapped));
    let winner = if let Some(forfeit) = &record.forfeit {
        // The seat that forfeited lost.
        Some(if forfeit.seat == "A" { "B" } else { "A" })
    } else {
        let end = match record.mode {
            Mode::Games => Some(&record.end),
            Mode::Hands | Mode::Decks => record.hands.first().and_then(|h| h.end.as_ref()),
        };
        let end = end.ok_or_else(|| format!("{game} has no result"))?;
        match end.get("winner") {
            Some(Value::String(seat)) => Some(seat.as_str()),
            None | Some(Value::Null) if record.mode != Mode::Games => None,
            _ => return Err(format!("{game} has no winner in its result")),
        }
    };
    Ok(match winner {
        Some(seat) if seat == first => 2,
        Some("A" | "B") => 0,
        Some(other) => return Err(format!("{game}: `{other}` is not a seat (A or B)")),
        None => 1,
    })
}
