//! The runner for three players and two partnerships (RULES.md "More than
//! two players"): whole games of [`play_three`] and [`play_partnership`],
//! with seat rotation, in mergeable integer tallies.
//!
//! - Deal `i` is one shuffled sequence of decks and one first dealer, from
//!   `seed_for(seed, i, Deal)` as in two-player games. With rotation it is
//!   played once per rotation (3 for three players, 4 for partnerships),
//!   each time with every player moved one seat on, so every player sits
//!   in every seat of the deal once: the multi-player analogue of
//!   duplicate deals. The games of a deal are one scoring unit.
//! - Player `p`'s strategy is built from `seed_for(seed, i, Stream::player(p))`
//!   whatever seat it sits in, as a two-player duplicate pair does.
//! - Tallies are kept per *side* (each player of a three-player game, each
//!   team of a partnership game) and per *position* (the seat relative to
//!   the first dealer), so a study of one strategy against itself reads the
//!   seats' balance from the positions.
//! - [`TablePlan::run_recorded`] also writes every game as a
//!   [`TableRecord`](super::TableRecord) line, in deal order (a deal's
//!   rotations in order) whatever the thread count.

use std::ops::Range;

use std::io::Write;

use crate::engine::{
    EngineError, Hand, Strategy, TableHand, play_partnership_traced, play_three_traced, team_of,
};
use crate::rules::Rules;
use crate::stats::{TableWins, UnitSums};
use crate::strategy::Profile;

use super::table_record::{TableHeader, TableRecord, partnership_end, three_end};
use super::{RunError, Stream, deal_rng, run_chunks, seed_for};

/// A multi-player format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Three players, the dealer sitting out.
    Three,
    /// Four players in two partnerships.
    Partnership,
}

impl Format {
    /// The name in specs and CSV files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Three => "three",
            Format::Partnership => "partnership",
        }
    }

    /// Players at the table.
    #[must_use]
    pub fn players(self) -> usize {
        match self {
            Format::Three => 3,
            Format::Partnership => 4,
        }
    }

    /// Sides that score: players (three) or teams (partnership).
    #[must_use]
    pub fn sides(self) -> usize {
        match self {
            Format::Three => 3,
            Format::Partnership => 2,
        }
    }

    /// The side of player `p` (players are given team by team: A and B
    /// against C and D).
    #[must_use]
    pub fn side_of(self, p: usize) -> usize {
        match self {
            Format::Three => p,
            Format::Partnership => p / 2,
        }
    }

    /// The positions' names, relative to the first dealer (`seats.csv`).
    #[must_use]
    pub fn positions(self) -> &'static [&'static str] {
        match self {
            Format::Three => &["first_dealer", "first_upcard", "second_upcard"],
            Format::Partnership => &["first_dealing_team", "first_upcard_team"],
        }
    }

    /// Games per deal with rotation: every player in every seat once.
    #[must_use]
    pub fn rotations(self) -> u64 {
        self.players() as u64
    }

    /// The player in engine seat `seat` in rotation `r`. Partnership seats
    /// 0 and 2 are one team, 1 and 3 the other; the players sit
    /// A, C, B, D from seat 0 and move one seat on per rotation, which keeps
    /// the teams together and swaps which seats they hold.
    #[must_use]
    pub fn seated(self, seat: usize, r: u64) -> usize {
        const TEAMS: [usize; 4] = [0, 2, 1, 3];
        let n = self.players();
        let at = (seat + r as usize) % n;
        match self {
            Format::Three => at,
            Format::Partnership => TEAMS[at],
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Format, String> {
        match text {
            "three" => Ok(Format::Three),
            "partnership" => Ok(Format::Partnership),
            _ => Err(format!(
                "`{}`: the formats are \"three\" (three players, the dealer sits out) and \"partnership\" (two teams of two)",
                crate::echo::echo(text)
            )),
        }
    }
}

/// A multi-player run: who plays, under which rules, how many games.
#[derive(Clone, Debug)]
pub struct TablePlan {
    /// The format.
    pub format: Format,
    /// The rules of every hand.
    pub rules: Rules,
    /// The players: three, or four given team by team (A, B against C, D).
    pub profiles: Vec<Profile>,
    /// Games to play (rounded up to whole deals with rotation).
    pub games: u64,
    /// Play every deal once per rotation (every player in every seat).
    pub rotate: bool,
    /// The master seed.
    pub seed: u64,
}

/// Per scoring unit (a deal with all its rotations), each figure a side's
/// row prints, as sums over the units of (numerator, denominator): the
/// games of a deal share its decks and its players' seeds, so they are not
/// independent, and the intervals are built from the deals.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideUnits {
    /// Games won / games played.
    pub wins: UnitSums,
    /// Final scores / games played.
    pub score: UnitSums,
    /// Hands won / hands played.
    pub hands_won: UnitSums,
    /// Hand points won / hands played.
    pub hand_points: UnitSums,
}

impl SideUnits {
    /// Every figure with its total (numerator, denominator) in `side`.
    fn with_totals<'a>(&'a self, side: &SideTally) -> [(&'a UnitSums, u64, u64); 4] {
        [
            (&self.wins, side.wins, side.games),
            (&self.score, side.score, side.games),
            (&self.hands_won, side.hands_won, side.hands),
            (&self.hand_points, side.hand_points, side.hands),
        ]
    }

    fn merge(&mut self, other: &SideUnits) {
        self.wins.merge(&other.wins);
        self.score.merge(&other.score);
        self.hands_won.merge(&other.hands_won);
        self.hand_points.merge(&other.hand_points);
    }
}

/// What one side (a player or team) or one position scored.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideTally {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// The final scores, summed over the games (three players: hand points
    /// plus the game and box bonuses; partnership: the team's points).
    pub score: u64,
    /// Hands played at a table (a team plays two per round).
    pub hands: u64,
    /// Hands won.
    pub hands_won: u64,
    /// Hand points won (before a partnership round nets the two tables).
    pub hand_points: u64,
    /// Hands dealt (for three players, the hands sat out).
    pub dealt: u64,
    /// Every figure over the scoring units.
    pub units: SideUnits,
}

impl SideTally {
    fn merge(&mut self, other: &SideTally) {
        self.games += other.games;
        self.wins += other.wins;
        self.score += other.score;
        self.hands += other.hands;
        self.hands_won += other.hands_won;
        self.hand_points += other.hand_points;
        self.dealt += other.dealt;
        self.units.merge(&other.units);
    }

    fn add_hand(&mut self, winner: Option<(bool, u32)>) {
        self.hands += 1;
        if let Some((true, points)) = winner {
            self.hands_won += 1;
            self.hand_points += u64::from(points);
        }
    }

    /// Closes the one scoring unit this tally holds: its totals become the
    /// unit's numerators and denominators.
    fn close_unit(&mut self) {
        let u = &mut self.units;
        u.wins.add(self.wins as i64, self.games);
        u.score.add(self.score as i64, self.games);
        u.hands_won.add(self.hands_won as i64, self.hands);
        u.hand_points.add(self.hand_points as i64, self.hands);
    }
}

/// Everything a multi-player run counts, in integers, so merging is exact.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableTallies {
    /// Games per scoring unit (the rotations, or 1).
    pub unit_size: u64,
    /// Games played.
    pub games: u64,
    /// Hands dealt at every table, void ones included.
    pub hands: u64,
    /// Void or scoreless hands.
    pub voids: u64,
    /// Partnership rounds played (0 for three players).
    pub rounds: u64,
    /// Per scoring unit: void or scoreless hands / hands dealt.
    pub unit_voids: UnitSums,
    /// Per side: player (three) or team (partnership), in the order given.
    pub sides: Vec<SideTally>,
    /// Per position relative to the first dealer ([`Format::positions`]).
    pub positions: Vec<SideTally>,
}

impl TableTallies {
    /// Empty tallies for `format`.
    #[must_use]
    pub fn new(format: Format) -> TableTallies {
        TableTallies {
            sides: vec![SideTally::default(); format.sides()],
            positions: vec![SideTally::default(); format.sides()],
            ..TableTallies::default()
        }
    }

    /// Adds another tally (exact; order does not matter).
    pub fn merge(&mut self, other: &TableTallies) {
        self.unit_size = self.unit_size.max(other.unit_size);
        self.games += other.games;
        self.hands += other.hands;
        self.voids += other.voids;
        self.rounds += other.rounds;
        self.unit_voids.merge(&other.unit_voids);
        for (mine, theirs) in [
            (&mut self.sides, &other.sides),
            (&mut self.positions, &other.positions),
        ] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), SideTally::default());
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.merge(t);
            }
        }
    }

    /// The sides' games won, per unit and with their cross products, for
    /// a rating fit ([`crate::stats::fit_table`]). Every game has one
    /// winner, so a unit's wins add up to its games `G`, and with two or
    /// three sides every cross product follows from each side's own sums
    /// (two: `w_b = G − w_a`; three: `2·w_a·w_b = (G − w_c)² − w_a² − w_b²`).
    /// `None` for more sides, which would need the products kept.
    #[must_use]
    pub fn wins(&self) -> Option<TableWins> {
        let n = self.sides.len();
        let u = |k: usize| &self.sides[k].units.wins;
        let sq = |k: usize| u(k).xx as i128;
        let cross = |i: usize, j: usize| -> i128 {
            match n {
                _ if i == j => sq(i),
                2 => u(i).xy - sq(i),
                _ => {
                    let c = 3 - i - j;
                    (u(c).yy as i128 - 2 * u(c).xy + sq(c) - sq(i) - sq(j)) / 2
                }
            }
        };
        (2..=3).contains(&n).then(|| TableWins {
            units: self.sides[0].units.wins.units,
            games: self.games,
            wins: self.sides.iter().map(|s| s.wins).collect(),
            cross: (0..n)
                .map(|i| (0..n).map(|j| cross(i, j) as u128).collect())
                .collect(),
        })
    }

    /// The first identity an honest tally of `deals` deals breaks, or
    /// `None` (a state file edited by hand breaks them; `merge` and
    /// `--resume` check them).
    #[must_use]
    pub fn inconsistency(&self, deals: u64, format: Format) -> Option<&'static str> {
        let n = format.sides();
        let wide = |f: &dyn Fn(&SideTally) -> u64, of: &[SideTally]| {
            of.iter().map(|s| u128::from(f(s))).sum::<u128>()
        };
        let (games, hands) = (u128::from(self.games), u128::from(self.hands));
        let groups = [&self.sides, &self.positions];
        let checks = [
            (
                groups.iter().all(|g| g.len() == n),
                "it does not have one tally per side and position",
            ),
            (
                u128::from(self.unit_size) * u128::from(deals) == games
                    && groups.iter().all(|g| {
                        g.iter().all(|s| {
                            s.games == self.games
                                && s.units
                                    .with_totals(s)
                                    .iter()
                                    .all(|(u, ..)| u.units == deals)
                        })
                    })
                    && self.unit_voids.units == deals,
                "the games are not one unit of rotations per deal covered",
            ),
            (
                groups.iter().all(|g| wide(&|s| s.wins, g) == games),
                "the games won do not add up to the games",
            ),
            (
                groups.iter().all(|g| {
                    wide(&|s| s.hands_won, g) + u128::from(self.voids) == hands
                        && wide(&|s| s.dealt, g) == hands
                        && wide(&|s| s.hands, g) == 2 * hands
                }),
                "the hands won, dealt and played do not add up to the hands",
            ),
            (
                groups.iter().all(|g| {
                    g.iter().all(|s| {
                        s.units
                            .with_totals(s)
                            .iter()
                            .all(|&(u, x, y)| i128::from(u.x) == i128::from(x) && u.y == y)
                    })
                }) && i128::from(self.unit_voids.x) == i128::from(self.voids)
                    && self.unit_voids.y == self.hands,
                "the per-unit figures do not add up to the totals",
            ),
        ];
        checks.iter().find(|(ok, _)| !ok).map(|(_, why)| *why)
    }
}

impl TablePlan {
    /// Games per deal: the rotations, or 1.
    #[must_use]
    pub fn unit_size(&self) -> u64 {
        if self.rotate {
            self.format.rotations()
        } else {
            1
        }
    }

    /// The number of deals: the games asked for over the games per deal,
    /// rounded up.
    #[must_use]
    pub fn deals(&self) -> u64 {
        self.games.div_ceil(self.unit_size())
    }

    /// Plays deal `index` (one game per rotation) into `tallies`, as one
    /// scoring unit.
    ///
    /// # Errors
    /// An illegal action, inconsistent rules, or an endless game.
    pub fn play_deal(&self, index: u64, tallies: &mut TableTallies) -> Result<(), EngineError> {
        self.play_deal_recorded(index, tallies, None)
    }

    /// [`TablePlan::play_deal`], appending each game's record line to
    /// `record`'s buffer if given (rotation 0 first).
    fn play_deal_recorded(
        &self,
        index: u64,
        tallies: &mut TableTallies,
        mut record: Option<(&TableHeader, &mut Vec<u8>)>,
    ) -> Result<(), EngineError> {
        let format = self.format;
        // The deal's own tallies: its totals are the unit's sums.
        let mut deal = TableTallies::new(format);
        deal.unit_size = self.unit_size();
        for r in 0..self.unit_size() {
            // Engine seat → player.
            let seated: Vec<usize> = (0..format.players())
                .map(|seat| format.seated(seat, r))
                .collect();
            let mut game_record = record
                .as_ref()
                .map(|(header, _)| TableRecord::start(header, index, r, &seated));
            let game = self.play_game(&seated, index, &mut deal, game_record.as_mut())?;
            if let (Some(game), Some((_, lines))) = (game_record, record.as_mut()) {
                game.write_line(lines);
            }
            deal.games += 1;
            // An engine side is a seat (three) or an engine team (seat % 2).
            for (es, &score) in game.scores.iter().enumerate() {
                let keys = [
                    format.side_of(seated[es]),
                    position_of(format, es, game.first_dealer),
                ];
                for (group, key) in [&mut deal.sides, &mut deal.positions].into_iter().zip(keys) {
                    let t = &mut group[key];
                    t.games += 1;
                    t.wins += u64::from(game.winner == es);
                    t.score += u64::from(score);
                }
            }
        }
        deal.unit_voids.add(deal.voids as i64, deal.hands);
        for side in deal.sides.iter_mut().chain(&mut deal.positions) {
            side.close_unit();
        }
        if tallies.sides.is_empty() {
            *tallies = TableTallies::new(format);
        }
        tallies.merge(&deal);
        Ok(())
    }

    /// Plays deal `index`'s game with player `seated[s]` in engine seat
    /// `s`, adding its hands to `tallies` and, if given, to `record`.
    fn play_game(
        &self,
        seated: &[usize],
        index: u64,
        tallies: &mut TableTallies,
        mut record: Option<&mut TableRecord>,
    ) -> Result<GameEnd, EngineError> {
        let format = self.format;
        let mut seats: Vec<Box<dyn Strategy>> = seated
            .iter()
            .map(|&p| self.profiles[p].build(seed_for(self.seed, index, Stream::player(p))))
            .collect();
        let side_of_seat: Vec<usize> = seated.iter().map(|&p| format.side_of(p)).collect();
        let mut rng = deal_rng(self.seed, index);
        let mut first_dealer = None;
        let on_table = |h: &TableHand, hand: &Hand<'_>| {
            if let Some(record) = record.as_deref_mut() {
                record.push(h, hand);
            }
            let first = *first_dealer.get_or_insert(h.dealer);
            tallies.hands += 1;
            if h.winner.is_none() {
                tallies.voids += 1;
            }
            let side = |seat: usize| side_of_seat[seat];
            let position = |seat: usize| position_of(format, seat, first);
            for (group, key) in [
                (&mut tallies.sides, &side as &dyn Fn(usize) -> usize),
                (&mut tallies.positions, &position),
            ] {
                group[key(h.dealer)].dealt += 1;
                for &seat in &h.players {
                    group[key(seat)].add_hand(h.winner.map(|(w, p)| (w == seat, p)));
                }
            }
        };
        let (scores, winner) = match &mut seats[..] {
            [a, b, c] => {
                let mut players: [&mut dyn Strategy; 3] = [a.as_mut(), b.as_mut(), c.as_mut()];
                let result = play_three_traced(&self.rules, &mut players, &mut rng, on_table)?;
                if let Some(record) = record {
                    record.end = three_end(&result);
                }
                (result.final_scores.to_vec(), result.winner)
            }
            [a, b, c, d] => {
                let mut players: [&mut dyn Strategy; 4] =
                    [a.as_mut(), b.as_mut(), c.as_mut(), d.as_mut()];
                let mut rounds = 0;
                let result = play_partnership_traced(
                    &self.rules,
                    &mut players,
                    &mut rng,
                    |_, _| rounds += 1,
                    on_table,
                )?;
                if let Some(record) = record {
                    record.end = partnership_end(&result);
                }
                tallies.rounds += rounds;
                (result.team_points.to_vec(), result.winner)
            }
            _ => unreachable!("a format seats three or four players"),
        };
        Ok(GameEnd {
            scores,
            winner,
            first_dealer: first_dealer.unwrap_or(0),
        })
    }

    /// Plays deals `range` on `threads` threads (0: one per core), calling
    /// `progress` with the deals done so far.
    ///
    /// # Errors
    /// The engine error of the lowest failing deal, or threads that cannot
    /// be started.
    pub fn run(
        &self,
        range: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<TableTallies, RunError> {
        self.play(range, threads, progress, None, None)
    }

    /// [`TablePlan::run`], also writing one [record](TableRecord) line per
    /// game to `out`, in deal order (a deal's rotations in order), so the
    /// bytes do not depend on `threads`; `variant` and `names` label the
    /// row's players.
    ///
    /// # Errors
    /// As [`TablePlan::run`], or a failure to write `out`.
    pub fn run_recorded(
        &self,
        range: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        labels: (&str, &[String]),
        out: &mut dyn Write,
    ) -> Result<TableTallies, RunError> {
        let header = TableHeader::new(self, labels.0, labels.1);
        self.play(range, threads, progress, Some(&header), Some(out))
    }

    /// [`TablePlan::run`], with the record's header and file if one is
    /// written.
    fn play(
        &self,
        range: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        header: Option<&TableHeader>,
        out: Option<&mut dyn Write>,
    ) -> Result<TableTallies, RunError> {
        let mut tallies = run_chunks(
            range,
            threads,
            progress,
            || (),
            |index, tallies: &mut TableTallies, (), lines| {
                let record = header.map(|h| (h, lines));
                self.play_deal_recorded(index, tallies, record)
            },
            TableTallies::merge,
            out,
        )?;
        if tallies.sides.is_empty() {
            tallies = TableTallies::new(self.format);
        }
        Ok(tallies)
    }
}

/// A game's end by engine side (seat for three players, team for
/// partnerships).
struct GameEnd {
    /// Final scores by engine side.
    scores: Vec<u32>,
    /// The winning engine side.
    winner: usize,
    /// The engine seat of the first hand's dealer.
    first_dealer: usize,
}

/// The position of engine seat (three) or engine team (partnership, any
/// seat of it) `seat` relative to the first dealer's seat `first`.
fn position_of(format: Format, seat: usize, first: usize) -> usize {
    match format {
        Format::Three => (seat + 3 - first) % 3,
        Format::Partnership => (team_of(seat) + 2 - team_of(first)) % 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tallies holding `units`, each the games won by every side of a
    /// unit of `games` games (only what [`TableTallies::wins`] reads).
    fn tallies(games: u64, units: &[&[u64]]) -> TableTallies {
        let n = units[0].len();
        let mut t = TableTallies {
            sides: vec![SideTally::default(); n],
            ..TableTallies::default()
        };
        for u in units {
            assert_eq!(u.iter().sum::<u64>(), games);
            t.games += games;
            for (side, &w) in t.sides.iter_mut().zip(*u) {
                side.wins += w;
                side.units.wins.add(w as i64, games);
            }
        }
        t
    }

    #[test]
    fn the_cross_products_of_wins_follow_from_each_sides_sums() {
        for units in [
            vec![&[2u64, 1, 0][..], &[0, 0, 3], &[1, 1, 1], &[0, 3, 0]],
            vec![&[3u64, 1][..], &[0, 4], &[2, 2]],
        ] {
            let games = units[0].iter().sum();
            let wins = tallies(games, &units).wins().unwrap();
            let n = units[0].len();
            for i in 0..n {
                for j in 0..n {
                    let direct: u64 = units.iter().map(|u| u[i] * u[j]).sum();
                    assert_eq!(wins.cross[i][j], u128::from(direct), "{i} {j} {units:?}");
                }
            }
            assert_eq!(wins.units, units.len() as u64);
        }
    }
}
