//! [`Tallies`]: everything a run counts, from player A's side, in integers
//! only, so that [`Tallies::merge`] is exact and the result of a run does not
//! depend on how its games were split across threads or shards.
//!
//! Every rate and mean is also kept per scoring unit ([`UnitFigures`]): the
//! games or hands of a unit (a duplicate pair, or one game or hand) are not
//! independent, so the intervals are built from the units.

use crate::engine::{GameResult, HandEnd, HandOutcome, HandRecord, Seat};
use crate::stats::{Moments, UnitSums};

use super::histogram::Histogram;

/// Every figure a run reports with an interval, as sums over its scoring
/// units of (numerator, denominator): A's hands won over hands, and so on.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnitFigures {
    /// A's hands won / hands.
    pub a_hand_wins: UnitSums,
    /// B's hands won / hands.
    pub b_hand_wins: UnitSums,
    /// A's points minus B's / hands.
    pub a_net_points: UnitSums,
    /// Turns / hands.
    pub turns: UnitSums,
    /// Hands won by the non-dealer / decided hands.
    pub non_dealer_wins: UnitSums,
    /// Points the winner scored / decided hands.
    pub decided_points: UnitSums,
    /// Gins and big gins / hands.
    pub gins: UnitSums,
    /// Undercuts / hands.
    pub undercuts: UnitSums,
    /// Knocks won by the knocker / hands.
    pub knocks: UnitSums,
    /// Void hands / hands.
    pub voids: UnitSums,
    /// A's games won / games.
    pub a_game_wins: UnitSums,
    /// A's game margin / games finished (not forfeited).
    pub a_margin: UnitSums,
    /// A's half points (win 2, void or tie 1, loss 0) / twice the games
    /// (or hands): A's score.
    pub score: UnitSums,
    /// The dealer's points / hands.
    pub dealer_points: UnitSums,
    /// The non-dealer's points / hands.
    pub non_dealer_points: UnitSums,
    /// The dealer's points minus the non-dealer's / hands.
    pub dealer_edge: UnitSums,
    /// The dealer's gins (big gins included) / hands.
    pub dealer_gins: UnitSums,
    /// The non-dealer's gins / hands.
    pub non_dealer_gins: UnitSums,
    /// Undercuts by the dealer / hands.
    pub dealer_undercuts: UnitSums,
    /// Undercuts by the non-dealer / hands.
    pub non_dealer_undercuts: UnitSums,
}

impl UnitFigures {
    /// Every figure with its name.
    #[must_use]
    pub fn all(&self) -> [(&'static str, &UnitSums); 20] {
        [
            ("a_hand_wins", &self.a_hand_wins),
            ("b_hand_wins", &self.b_hand_wins),
            ("a_net_points", &self.a_net_points),
            ("turns", &self.turns),
            ("non_dealer_wins", &self.non_dealer_wins),
            ("decided_points", &self.decided_points),
            ("gins", &self.gins),
            ("undercuts", &self.undercuts),
            ("knocks", &self.knocks),
            ("voids", &self.voids),
            ("a_game_wins", &self.a_game_wins),
            ("a_margin", &self.a_margin),
            ("score", &self.score),
            ("dealer_points", &self.dealer_points),
            ("non_dealer_points", &self.non_dealer_points),
            ("dealer_edge", &self.dealer_edge),
            ("dealer_gins", &self.dealer_gins),
            ("non_dealer_gins", &self.non_dealer_gins),
            ("dealer_undercuts", &self.dealer_undercuts),
            ("non_dealer_undercuts", &self.non_dealer_undercuts),
        ]
    }

    /// Every figure, mutably, in the order of [`UnitFigures::all`].
    fn all_mut(&mut self) -> [&mut UnitSums; FIGURES] {
        [
            &mut self.a_hand_wins,
            &mut self.b_hand_wins,
            &mut self.a_net_points,
            &mut self.turns,
            &mut self.non_dealer_wins,
            &mut self.decided_points,
            &mut self.gins,
            &mut self.undercuts,
            &mut self.knocks,
            &mut self.voids,
            &mut self.a_game_wins,
            &mut self.a_margin,
            &mut self.score,
            &mut self.dealer_points,
            &mut self.non_dealer_points,
            &mut self.dealer_edge,
            &mut self.dealer_gins,
            &mut self.non_dealer_gins,
            &mut self.dealer_undercuts,
            &mut self.non_dealer_undercuts,
        ]
    }

    /// Adds another run's units (exact).
    pub fn merge(&mut self, other: &UnitFigures) {
        for (m, (_, t)) in self.all_mut().into_iter().zip(other.all()) {
            m.merge(t);
        }
    }
}

/// The figures of [`UnitFigures`].
const FIGURES: usize = 20;

/// The denominators the figures share: hands, decided hands, games, games
/// with a margin, and twice the unit's size (the score's).
const DENOMINATORS: usize = 5;

/// Which denominator each figure of [`UnitFigures::all`] has.
const DENOMINATOR: [usize; FIGURES] = [0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0];

/// The figure [`UnitFigures::score`]: A's half points over the unit, whose
/// sums are also [`Tallies::unit_scores`]'.
const SCORE: usize = 12;

/// Every numerator and denominator of a unit is at most this in magnitude
/// for its sums to go to [`Pending`]: its squares and products are then
/// at most 2⁴⁰.
const NARROW: u64 = 1 << 20;

/// Most units [`Pending`] holds: its sums of squares and products stay
/// at most 2⁶² (2²² units of at most 2⁴⁰ each).
const PENDING_UNITS: u64 = 1 << 22;

/// Sums over closed units not yet added to [`Tallies::units`] and
/// [`Tallies::unit_scores`], in 64 bits: a unit adds a few 64-bit sums here
/// instead of a hundred 128-bit ones there. Only units whose every figure is
/// at most [`NARROW`] in magnitude come here, at most [`PENDING_UNITS`] of them, so no sum
/// can overflow; [`Tallies::flush`] adds them (exact).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pending {
    units: u64,
    x: [i64; FIGURES],
    xx: [u64; FIGURES],
    xy: [i64; FIGURES],
    y: [u64; DENOMINATORS],
    yy: [u64; DENOMINATORS],
}

impl Pending {
    /// Adds one unit (every value at most [`NARROW`] in magnitude, fewer
    /// than [`PENDING_UNITS`] units held). Written out figure by figure:
    /// constant indices, no loop.
    #[inline(always)]
    fn add(&mut self, xs: &[i64; FIGURES], ys: &[u64; DENOMINATORS]) {
        self.units += 1;
        for ((y, yy), &v) in self.y.iter_mut().zip(&mut self.yy).zip(ys) {
            *y += v;
            *yy += v * v;
        }
        let [h, d, g, m, s] = ys.map(|y| y as i64);
        // The denominator of each figure (see `DENOMINATOR`).
        let yf = [h, h, h, h, d, d, h, h, h, h, g, m, s, h, h, h, h, h, h, h];
        macro_rules! figures {
            ($($f:literal)*) => {$(
                let x = xs[$f];
                self.x[$f] += x;
                self.xx[$f] += (x * x) as u64;
                self.xy[$f] += x * yf[$f];
            )*};
        }
        figures!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
    }

    /// Adds these sums to `units` and `scores` (exact).
    fn add_to(&self, units: &mut UnitFigures, scores: &mut Moments) {
        if self.units == 0 {
            return;
        }
        for (f, s) in units.all_mut().into_iter().enumerate() {
            let d = DENOMINATOR[f];
            s.units += self.units;
            s.x += self.x[f];
            s.xx += u128::from(self.xx[f]);
            s.y += self.y[d];
            s.yy += u128::from(self.yy[d]);
            s.xy += i128::from(self.xy[f]);
        }
        scores.n += self.units;
        scores.sum += self.x[SCORE];
        scores.sum_sq += u128::from(self.xx[SCORE]);
    }
}

/// The counts of the unit being played, moved into [`UnitFigures`] when
/// it closes ([`Tallies::add_unit`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenUnit {
    hands: u64,
    a_hand_wins: i64,
    b_hand_wins: i64,
    net: i64,
    turns: i64,
    decided: u64,
    non_dealer_wins: i64,
    decided_points: i64,
    gins: i64,
    undercuts: i64,
    knocks: i64,
    voids: i64,
    games: u64,
    a_game_wins: i64,
    margin: i64,
    margins: u64,
    dealer_points: i64,
    non_dealer_points: i64,
    dealer_gins: i64,
    dealer_undercuts: i64,
}

/// What a run counts (player A's perspective).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tallies {
    /// Hands played, void ones included.
    pub hands: u64,
    /// Hands won by A.
    pub a_hand_wins: u64,
    /// Hands won by B.
    pub b_hand_wins: u64,
    /// Void hands.
    pub voids: u64,
    /// Knocks won by the knocker.
    pub knocks: u64,
    /// Gins.
    pub gins: u64,
    /// Big gins.
    pub big_gins: u64,
    /// Undercuts.
    pub undercuts: u64,
    /// Scoreless ties.
    pub ties: u64,
    /// Hands won by the non-dealer.
    pub non_dealer_wins: u64,
    /// Hands won by A while dealing.
    pub a_dealer_wins: u64,
    /// Hands A dealt.
    pub a_deals: u64,
    /// Per hand: A's points minus B's points.
    pub a_net_points: Moments,
    /// Per hand: turns played.
    pub turns: Moments,
    /// Games played.
    pub games: u64,
    /// Games won by A.
    pub a_game_wins: u64,
    /// Per game: A's margin (negative when B won).
    pub a_margin: Moments,
    /// Per scoring unit (a duplicate pair, or one game or hand): A's score in
    /// half points (win 2, void or tie 1, loss 0), summed over the unit.
    pub unit_scores: Moments,
    /// Games (or hands) per scoring unit: 2 with duplicate deals, else 1.
    pub unit_size: u64,
    /// Histogram: hand score from A's side (A's points, or minus B's).
    pub hand_score: Histogram,
    /// Histogram: turns per hand.
    pub hand_turns: Histogram,
    /// Histogram: the knocker's deadwood (knocks, gins and undercuts).
    pub knocker_deadwood: Histogram,
    /// Histogram: A's game margin.
    pub game_margin: Histogram,
    /// Histogram: A's half points per scoring unit. With duplicate deals this
    /// is the pentanomial count of pair outcomes (0 = lost both, 4 = won both;
    /// in hands mode a void or tie is a half).
    #[serde(default)]
    pub pair_score: Histogram,
    /// Games (or, in hands mode, hands) A lost by forfeit (an external bot
    /// that crashed, timed out or answered wrongly).
    #[serde(default)]
    pub a_forfeits: u64,
    /// Games (or hands) B lost by forfeit.
    #[serde(default)]
    pub b_forfeits: u64,
    /// Per hand: the points the dealer scored (0 unless it won the hand).
    #[serde(default)]
    pub dealer_points: Moments,
    /// Per hand: the points the non-dealer scored.
    #[serde(default)]
    pub non_dealer_points: Moments,
    /// Gins (big gins included) by the dealer.
    #[serde(default)]
    pub dealer_gins: u64,
    /// Undercuts by the dealer (as the defender).
    #[serde(default)]
    pub dealer_undercuts: u64,
    /// Histogram: the hand score from the dealer's side (its points, or
    /// minus the non-dealer's).
    #[serde(default)]
    pub dealer_hand_score: Histogram,
    /// Every rate and mean over the scoring units (absent from state files
    /// of format 1, which `merge` and `--resume` refuse).
    #[serde(default)]
    pub units: UnitFigures,
    /// The unit being played (empty between units).
    #[serde(skip)]
    pub open: OpenUnit,
    /// Units closed by [`Tallies::add_unit_batched`] and not yet in
    /// `units` and `unit_scores` (see [`Tallies::flush`]).
    #[serde(skip)]
    pub(crate) pending: Pending,
}

fn bump(map: &mut Histogram, key: i64) {
    map.bump(key);
}

impl Tallies {
    /// Adds one hand; `a` is the seat player A sat in. Returns A's score for
    /// the hand in half points (2 win, 1 no result, 0 loss).
    pub fn add_hand(&mut self, record: &HandRecord, a: Seat) -> i64 {
        self.hands += 1;
        self.open.hands += 1;
        self.open.turns += i64::from(record.turns);
        self.turns.add(record.turns as i64);
        bump(&mut self.hand_turns, record.turns as i64);
        if record.dealer == a {
            self.a_deals += 1;
        }
        let mut net = 0;
        let mut half_points = 1;
        let mut dealer_net = 0;
        match record.outcome {
            HandOutcome::Void(_) => {
                self.voids += 1;
                self.open.voids += 1;
            }
            HandOutcome::Showdown {
                showdown, score, ..
            } => {
                match score.end {
                    HandEnd::Knock => self.knocks += 1,
                    HandEnd::Gin => self.gins += 1,
                    HandEnd::BigGin => self.big_gins += 1,
                    HandEnd::Undercut => self.undercuts += 1,
                    HandEnd::Tie => self.ties += 1,
                }
                let open = &mut self.open;
                match score.end {
                    HandEnd::Knock => open.knocks += 1,
                    HandEnd::Gin | HandEnd::BigGin => open.gins += 1,
                    HandEnd::Undercut => open.undercuts += 1,
                    HandEnd::Tie => {}
                }
                bump(
                    &mut self.knocker_deadwood,
                    showdown.knocker_deadwood() as i64,
                );
                if let Some((winner, points)) = record.outcome.winner() {
                    self.open.decided += 1;
                    self.open.decided_points += i64::from(points);
                    if winner != record.dealer {
                        self.non_dealer_wins += 1;
                        self.open.non_dealer_wins += 1;
                        dealer_net = -(points as i64);
                    } else {
                        dealer_net = points as i64;
                        match score.end {
                            HandEnd::Gin | HandEnd::BigGin => {
                                self.dealer_gins += 1;
                                self.open.dealer_gins += 1;
                            }
                            HandEnd::Undercut => {
                                self.dealer_undercuts += 1;
                                self.open.dealer_undercuts += 1;
                            }
                            HandEnd::Knock | HandEnd::Tie => {}
                        }
                    }
                    if winner == a {
                        self.a_hand_wins += 1;
                        self.open.a_hand_wins += 1;
                        net = points as i64;
                        half_points = 2;
                        if record.dealer == a {
                            self.a_dealer_wins += 1;
                        }
                    } else {
                        self.b_hand_wins += 1;
                        self.open.b_hand_wins += 1;
                        net = -(points as i64);
                        half_points = 0;
                    }
                }
            }
        }
        self.a_net_points.add(net);
        self.open.net += net;
        bump(&mut self.hand_score, net);
        self.dealer_points.add(dealer_net.max(0));
        self.non_dealer_points.add((-dealer_net).max(0));
        self.open.dealer_points += dealer_net.max(0);
        self.open.non_dealer_points += (-dealer_net).max(0);
        bump(&mut self.dealer_hand_score, dealer_net);
        half_points
    }

    /// Adds one finished game; `a` is the seat player A sat in. Returns A's
    /// score in half points (2 win, 0 loss).
    pub fn add_game(&mut self, game: &GameResult, a: Seat) -> i64 {
        self.games += 1;
        let won = game.winner == a;
        let margin = if won { game.margin } else { -game.margin };
        if won {
            self.a_game_wins += 1;
        }
        self.open.games += 1;
        self.open.a_game_wins += i64::from(won);
        self.open.margin += margin;
        self.open.margins += 1;
        self.a_margin.add(margin);
        bump(&mut self.game_margin, margin);
        if won { 2 } else { 0 }
    }

    /// Adds a game (`game` true) or hand that `loser` lost by forfeit; `a`
    /// is the seat player A sat in. Returns A's half points (2 or 0).
    ///
    /// A forfeit counts in the forfeit columns, in the score (Elo) and, for a
    /// game, in the games played and won; it adds nothing to the hand
    /// statistics or the margin, which describe play that finished.
    pub fn add_forfeit(&mut self, loser: Seat, a: Seat, game: bool) -> i64 {
        let a_lost = loser == a;
        if a_lost {
            self.a_forfeits += 1;
        } else {
            self.b_forfeits += 1;
        }
        if game {
            self.games += 1;
            self.open.games += 1;
            if !a_lost {
                self.a_game_wins += 1;
                self.open.a_game_wins += 1;
            }
        }
        if a_lost { 0 } else { 2 }
    }

    /// Closes a scoring unit (a duplicate pair, or a single game or hand)
    /// with A's half points over it.
    pub fn add_unit(&mut self, half_points: i64, size: u64) {
        let (xs, ys) = self.close_unit(half_points, size);
        self.add_unit_wide(&xs, &ys);
    }

    /// [`Tallies::add_unit`], with the unit's sums kept in 64 bits until
    /// [`Tallies::flush`] (or [`Tallies::merge`], which counts them): a
    /// runner that closes unit after unit calls this and flushes once at
    /// the end. Until then `units` and `unit_scores` leave out the units
    /// added this way.
    #[inline]
    pub fn add_unit_batched(&mut self, half_points: i64, size: u64) {
        let (xs, ys) = self.close_unit(half_points, size);
        // One test for every figure: `x ^ (x >> 63)` is |x|, or |x| − 1
        // for a negative x, so all are at most `NARROW` in magnitude when
        // the OR of these is below it.
        let wide =
            xs.iter().fold(0, |m, &x| m | (x ^ (x >> 63)) as u64) | ys.iter().fold(0, |m, y| m | y);
        if wide < NARROW && self.pending.units < PENDING_UNITS {
            self.pending.add(&xs, &ys);
        } else {
            self.add_unit_outside(&xs, &ys);
        }
    }

    /// [`Tallies::add_unit_batched`] for a unit with a figure too wide
    /// for [`Pending`], or when it is full: flushed, then added exactly.
    #[cold]
    #[inline(never)]
    fn add_unit_outside(&mut self, xs: &[i64; FIGURES], ys: &[u64; DENOMINATORS]) {
        self.flush();
        self.add_unit_wide(xs, ys);
    }

    /// Adds the units closed by [`Tallies::add_unit_batched`] to `units`
    /// and `unit_scores` (exact: the sums are the same as unit by unit).
    pub fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        pending.add_to(&mut self.units, &mut self.unit_scores);
    }

    /// Adds one closed unit's figures in 128 bits.
    fn add_unit_wide(&mut self, xs: &[i64; FIGURES], ys: &[u64; DENOMINATORS]) {
        for (f, s) in self.units.all_mut().into_iter().enumerate() {
            s.add(xs[f], ys[DENOMINATOR[f]]);
        }
        self.unit_scores.add(xs[SCORE]);
    }

    /// Ends the open unit: its figures' numerators (in the order of
    /// [`UnitFigures::all`]) and denominators (see [`DENOMINATOR`]).
    #[inline]
    fn close_unit(&mut self, half_points: i64, size: u64) -> ([i64; FIGURES], [u64; DENOMINATORS]) {
        self.unit_size = size;
        bump(&mut self.pair_score, half_points);
        let o = std::mem::take(&mut self.open);
        let xs = [
            o.a_hand_wins,
            o.b_hand_wins,
            o.net,
            o.turns,
            o.non_dealer_wins,
            o.decided_points,
            o.gins,
            o.undercuts,
            o.knocks,
            o.voids,
            o.a_game_wins,
            o.margin,
            half_points,
            o.dealer_points,
            o.non_dealer_points,
            o.dealer_points - o.non_dealer_points,
            o.dealer_gins,
            o.gins - o.dealer_gins,
            o.dealer_undercuts,
            o.undercuts - o.dealer_undercuts,
        ];
        (xs, [o.hands, o.decided, o.games, o.margins, 2 * size])
    }

    /// Adds another tally (exact; order does not matter), its units not
    /// yet flushed included; this tally is flushed.
    pub fn merge(&mut self, other: &Tallies) {
        self.flush();
        other.pending.add_to(&mut self.units, &mut self.unit_scores);
        macro_rules! add {
            ($($field:ident),*) => { $(self.$field += other.$field;)* };
        }
        add!(
            hands,
            a_hand_wins,
            b_hand_wins,
            voids,
            knocks,
            gins,
            big_gins,
            undercuts,
            ties,
            non_dealer_wins,
            a_dealer_wins,
            a_deals,
            games,
            a_game_wins,
            a_forfeits,
            b_forfeits,
            dealer_gins,
            dealer_undercuts
        );
        self.dealer_points.merge(&other.dealer_points);
        self.non_dealer_points.merge(&other.non_dealer_points);
        self.a_net_points.merge(&other.a_net_points);
        self.turns.merge(&other.turns);
        self.a_margin.merge(&other.a_margin);
        self.unit_scores.merge(&other.unit_scores);
        self.unit_size = self.unit_size.max(other.unit_size);
        self.units.merge(&other.units);
        for (mine, theirs) in [
            (&mut self.hand_score, &other.hand_score),
            (&mut self.hand_turns, &other.hand_turns),
            (&mut self.knocker_deadwood, &other.knocker_deadwood),
            (&mut self.game_margin, &other.game_margin),
            (&mut self.pair_score, &other.pair_score),
            (&mut self.dealer_hand_score, &other.dealer_hand_score),
        ] {
            mine.merge(theirs);
        }
    }

    /// The first of the identities every honest tally of `deals` deals
    /// satisfies that this one breaks, or `None`: counts that add up to the
    /// hands, histograms that hold every hand, one scoring unit per deal.
    /// (A state file edited by hand breaks them; `merge` and `--resume`
    /// check them.)
    #[must_use]
    pub fn inconsistency(&self, deals: u64) -> Option<&'static str> {
        // Wide sums: an edited file may hold any u64.
        let total = |map: &Histogram| map.values().map(u128::from).sum::<u128>();
        let sum = |xs: &[u64]| xs.iter().map(|&n| u128::from(n)).sum::<u128>();
        let ends = sum(&[self.knocks, self.gins, self.big_gins, self.undercuts]);
        let hands = u128::from(self.hands);
        let checks = [
            (
                ends + sum(&[self.ties, self.voids]) == hands,
                "the hand ends do not add up to the hands",
            ),
            (
                sum(&[self.a_hand_wins, self.b_hand_wins]) == ends,
                "the hands won do not add up to the decided hands",
            ),
            (
                u128::from(self.non_dealer_wins) <= ends
                    && self.a_dealer_wins <= self.a_hand_wins
                    && self.a_deals <= self.hands,
                "more dealer or non-dealer wins than hands won",
            ),
            (
                self.dealer_gins <= self.gins + self.big_gins
                    && self.dealer_undercuts <= self.undercuts,
                "more gins or undercuts by the dealer than in all",
            ),
            (
                self.a_net_points.n == self.hands
                    && self.turns.n == self.hands
                    && self.dealer_points.n == self.hands
                    && self.non_dealer_points.n == self.hands
                    && total(&self.dealer_hand_score) == hands
                    && total(&self.hand_score) == hands
                    && total(&self.hand_turns) == hands
                    && total(&self.knocker_deadwood) + u128::from(self.voids) == hands,
                "the per-hand figures do not cover the hands",
            ),
            (
                self.a_game_wins <= self.games
                    && self.a_margin.n <= self.games
                    && total(&self.game_margin) == u128::from(self.a_margin.n),
                "the game figures do not add up",
            ),
            (
                self.unit_scores.n == deals && total(&self.pair_score) == u128::from(deals),
                "the scoring units are not one per deal covered",
            ),
            (
                self.units.all().iter().all(|(_, s)| s.units == deals),
                "the per-unit figures are not one unit per deal covered",
            ),
            (
                self.unit_totals_agree(),
                "the per-unit figures do not add up to the totals",
            ),
        ];
        checks.iter().find(|(ok, _)| !ok).map(|(_, why)| *why)
    }

    /// Per hand: the dealer's points minus the non-dealer's. At most one
    /// of them scores in a hand, so the square of the difference is the
    /// sum of their squares and the moments follow from theirs.
    #[must_use]
    pub fn dealer_net_points(&self) -> Moments {
        Moments {
            n: self.dealer_points.n,
            sum: self.dealer_points.sum - self.non_dealer_points.sum,
            sum_sq: self.dealer_points.sum_sq + self.non_dealer_points.sum_sq,
        }
    }

    /// Whether the per-unit figures sum to the run's totals.
    fn unit_totals_agree(&self) -> bool {
        let u = &self.units;
        let hand_points: i128 = self
            .hand_score
            .iter()
            .map(|(v, n)| i128::from(v.unsigned_abs()) * i128::from(n))
            .sum();
        let (hands, decided) = (u128::from(self.hands), u128::from(self.decided()));
        let games = u128::from(self.games);
        let wide = |n: u64| i128::from(n);
        let checks = [
            (&u.a_hand_wins, wide(self.a_hand_wins), hands),
            (&u.b_hand_wins, wide(self.b_hand_wins), hands),
            (&u.a_net_points, i128::from(self.a_net_points.sum), hands),
            (&u.turns, i128::from(self.turns.sum), hands),
            (&u.non_dealer_wins, wide(self.non_dealer_wins), decided),
            (&u.decided_points, hand_points, decided),
            (&u.gins, wide(self.gins) + wide(self.big_gins), hands),
            (&u.undercuts, wide(self.undercuts), hands),
            (&u.knocks, wide(self.knocks), hands),
            (&u.voids, wide(self.voids), hands),
            (&u.a_game_wins, wide(self.a_game_wins), games),
            (
                &u.a_margin,
                i128::from(self.a_margin.sum),
                u128::from(self.a_margin.n),
            ),
            (
                &u.score,
                i128::from(self.unit_scores.sum),
                2 * u128::from(self.unit_size) * u128::from(self.unit_scores.n),
            ),
            (&u.dealer_points, i128::from(self.dealer_points.sum), hands),
            (
                &u.non_dealer_points,
                i128::from(self.non_dealer_points.sum),
                hands,
            ),
            (
                &u.dealer_edge,
                i128::from(self.dealer_points.sum) - i128::from(self.non_dealer_points.sum),
                hands,
            ),
            (&u.dealer_gins, wide(self.dealer_gins), hands),
            (
                &u.non_dealer_gins,
                wide(self.gins) + wide(self.big_gins) - wide(self.dealer_gins),
                hands,
            ),
            (&u.dealer_undercuts, wide(self.dealer_undercuts), hands),
            (
                &u.non_dealer_undercuts,
                wide(self.undercuts) - wide(self.dealer_undercuts),
                hands,
            ),
        ];
        checks
            .iter()
            .all(|(s, x, y)| i128::from(s.x) == *x && u128::from(s.y) == *y)
    }

    /// Hands with a winner.
    #[must_use]
    pub fn decided(&self) -> u64 {
        self.a_hand_wins + self.b_hand_wins
    }

    /// A's mean score per game (or hand) from the units, with its standard
    /// error: the inputs of the Elo estimate.
    #[must_use]
    pub fn score(&self) -> (f64, f64) {
        let per_unit = 2.0 * self.unit_size.max(1) as f64;
        let n = self.unit_scores.n.max(1) as f64;
        (
            self.unit_scores.mean() / per_unit,
            (self.unit_scores.variance() / n).sqrt() / per_unit,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An open unit of `hands` hands with figures that grow with `k`
    /// (some past [`NARROW`] when `k` is large), closed with `half_points`.
    fn open_unit(k: i64) -> OpenUnit {
        let hands = (k % 5 + 1) as u64;
        OpenUnit {
            hands,
            a_hand_wins: k % 2,
            b_hand_wins: 1 - k % 2,
            net: if k % 3 == 0 { -k * 7 } else { k * 5 },
            turns: k * 11,
            decided: hands - 1,
            non_dealer_wins: (k % 4).min(hands as i64 - 1),
            decided_points: k * 3,
            gins: k % 2,
            undercuts: 1,
            knocks: 0,
            voids: 1,
            games: 1,
            a_game_wins: k % 2,
            margin: -k * 13,
            margins: 1,
            dealer_points: k * 2,
            non_dealer_points: k,
            dealer_gins: 0,
            dealer_undercuts: k % 2,
        }
    }

    #[test]
    fn batched_units_sum_as_units_added_one_by_one() {
        // All narrow; narrow and wide mixed (each wide unit flushes); wide.
        for big in [1, 1 << 18, 1 << 21] {
            let (mut plain, mut batched) = (Tallies::default(), Tallies::default());
            for k in 0..300 {
                let (unit, size) = (k % 5, 1 + (k % 2) as u64);
                let k = k * big;
                plain.open = open_unit(k);
                plain.add_unit(unit, size);
                batched.open = open_unit(k);
                batched.add_unit_batched(unit, size);
            }
            if big == 1 {
                assert_ne!(plain, batched, "nothing flushed yet");
            }
            let mut merged = Tallies::default();
            merged.merge(&batched);
            batched.flush();
            assert_eq!(plain, batched, "figures up to {big} × 300");
            assert_eq!(plain, merged, "merge counts what is not flushed");
            assert_eq!(batched.pending, Pending::default());
        }
    }

    #[test]
    fn a_full_batch_is_flushed_first() {
        let (mut plain, mut batched) = (Tallies::default(), Tallies::default());
        batched.pending.units = PENDING_UNITS - 1;
        plain
            .units
            .all_mut()
            .iter_mut()
            .for_each(|s| s.units = PENDING_UNITS - 1);
        plain.unit_scores.n = PENDING_UNITS - 1;
        for k in 0..3 {
            plain.open = open_unit(k);
            plain.add_unit(2, 1);
            batched.open = open_unit(k);
            batched.add_unit_batched(2, 1);
        }
        assert_eq!(
            batched.pending.units, 1,
            "flushed at the limit, then one more"
        );
        batched.flush();
        assert_eq!(plain, batched);
    }

    #[test]
    fn the_dealers_net_moments_follow_from_the_seats() {
        // Hands: dealer scores 25, non-dealer 10, void, non-dealer 3.
        let (mut t, mut direct) = (Tallies::default(), Moments::default());
        for (dealer, other) in [(25, 0), (0, 10), (0, 0), (0, 3)] {
            t.dealer_points.add(dealer);
            t.non_dealer_points.add(other);
            direct.add(dealer - other);
        }
        assert_eq!(t.dealer_net_points(), direct);
    }
}
