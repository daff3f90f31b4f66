//! The status line a long `match` or `run` prints between blocks, as chess
//! engine testers get: wins-losses(-draws), Elo with its interval, the
//! SPRT's log-likelihood ratio against its bounds, and the pair counts.

use super::SummaryRow;
use super::table::{fixed, signed};
use crate::sim::{Format, TableTallies, Tallies};
use crate::stats::{SprtDecision, SprtState};

/// One status line (no newline) for a row's tallies so far: in games mode
/// `W-L` games, in hands mode `W-L-D` hands (D void or tied), then Elo
/// `[low, high]` from the same row `summary.csv` is written from, with
/// `stop` (the sequential test so far) its LLR and bounds, and once it has
/// decided the decision and the unit it was made at, and the counts of
/// unit scores (with duplicate deals the pentanomial counts: pairs with 0,
/// ½, 1, 1½, 2 games won).
#[must_use]
pub fn status_line(
    variant: &str,
    players: &[String; 2],
    t: &Tallies,
    stop: Option<&SprtState>,
) -> String {
    let row = SummaryRow::new(variant, &players[0], &players[1], t, 0);
    let record = if t.games > 0 {
        format!(
            "{} games {}-{}",
            t.games,
            t.a_game_wins,
            t.games - t.a_game_wins
        )
    } else {
        format!(
            "{} hands {}-{}-{}",
            t.hands,
            t.a_hand_wins,
            t.b_hand_wins,
            t.hands - t.decided()
        )
    };
    let elo = if t.unit_scores.n == 0 {
        "-".to_owned()
    } else {
        super::signed_interval(row.elo, row.elo_lo, row.elo_hi, 1)
    };
    let mut line = format!(
        "{variant} {} v {}: {record}, Elo {elo}",
        players[0], players[1]
    );
    let name = if t.unit_size == 2 { "pairs" } else { "units" };
    if let Some(test) = stop
        && test.units.n > 0
    {
        let (lower, upper) = test.sprt.bounds();
        line.push_str(&format!(
            ", LLR {} ({}, {})",
            signed(test.llr, 2),
            fixed(lower, 2),
            fixed(upper, 2)
        ));
        let verdict = match test.decision {
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
            SprtDecision::Continue => "",
        };
        if !verdict.is_empty() {
            line.push_str(&format!(" {verdict} after {} {name}", test.units.n));
        }
    }
    let top = 2 * t.unit_size.max(1) as i64;
    let counts: Vec<String> = (0..=top).map(|k| t.pair_score.get(k).to_string()).collect();
    line.push_str(&format!(", {name} {}", counts.join(" ")));
    line
}

/// One status line (no newline) for a three-player or partnership row's
/// tallies so far: games played, then per player (or team) its games won
/// and win rate with its interval over the deals, then the same per seat
/// (position relative to the first dealer), from the rows `summary.csv`
/// and `seats.csv` are written from.
#[must_use]
pub fn table_status_line(
    variant: &str,
    format: Format,
    players: &[String],
    t: &TableTallies,
) -> String {
    let (sides, seats) = super::side_rows(variant, format, players, t);
    let part = |rows: &[super::SideRow]| {
        rows.iter()
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.side,
                    r.wins,
                    super::table::percent(r.win_rate, r.win_lo, r.win_hi)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{variant} {}: {} games; won: {}; by seat: {}",
        players.join(" v "),
        t.games,
        part(&sides),
        part(&seats)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Moments, Sprt};

    #[test]
    fn the_line_reads_from_the_tallies() {
        let mut t = Tallies {
            games: 4,
            a_game_wins: 3,
            ..Default::default()
        };
        t.add_unit(4, 2);
        t.add_unit(2, 2);
        let sprt: Sprt = "elo0=0,elo1=10".parse().unwrap();
        let test = SprtState::at(sprt, t.unit_scores, 2);
        let line = status_line("eaai", &["a".into(), "b".into()], &t, Some(&test));
        assert!(line.starts_with("eaai a v b: 4 games 3-1, Elo +"), "{line}");
        assert!(line.contains(", LLR +0.06 (-2.94, 2.94), pairs"), "{line}");
        assert!(line.ends_with(", pairs 0 0 1 0 1"), "{line}");
    }

    #[test]
    fn a_decided_test_shows_its_own_llr_and_unit() {
        // The test decided at its first unit (a loss is unlikely for a
        // player 800 Elo stronger); the tallies go on to the block's end.
        let sprt: Sprt = "elo0=0,elo1=800".parse().unwrap();
        let mut test = SprtState::at(sprt, Moments::default(), 2);
        let mut t = Tallies::default();
        for score in [0, 4, 4, 4] {
            test.add(score);
            t.add_unit(score, 2);
        }
        assert_eq!(test.units.n, 1);
        let line = status_line("eaai", &["a".into(), "b".into()], &t, Some(&test));
        assert!(
            line.contains(", LLR -3.92 (-2.94, 2.94) H0 after 1 pairs, pairs 1 0 0 0 3"),
            "{line}"
        );
    }
}
