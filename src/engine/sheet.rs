//! The score sheet of a two-player game (RULES.md "Game"): hand points,
//! boxes, the game and shutout bonuses, and who deals next.
//!
//! [`Tally`] takes plain hand facts, so a worked score sheet can be checked
//! against it directly; [`GameResult`] is what a finished game comes to and
//! what every player is told at its end.
//!
//! Decisions RULES.md leaves open: a scoreless tie (equal counts with
//! `undercut_on_tie` off) has no winner or loser, so like a void hand it is
//! re-dealt by the same dealer under every `next_dealer` rule; it still counts
//! as a hand played.

use crate::cards::Card;
use crate::rules::{NextDealer, Rules, Shutout};

use super::hand::HandOutcome;
use super::score::HandEnd;
use super::view::Seat;

/// The score sheet of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Hand points, by seat (these count toward the target).
    pub points: [u32; 2],
    /// Hands won, by seat.
    pub hands_won: [u32; 2],
    /// Oklahoma's extra boxes, by seat.
    pub extra_boxes: [u32; 2],
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The score sheet.
    pub tally: Tally,
    /// Who reached the target.
    pub winner: Seat,
    /// The loser scored no hand points.
    pub shutout: bool,
    /// Final scores with every bonus, by seat.
    pub final_scores: [u32; 2],
    /// Winner's final score minus the loser's (what the loser pays; negative
    /// only if the loser's box bonuses outweigh the winner's lead).
    pub margin: i64,
    /// Hands dealt, void ones included.
    pub hands: u32,
    /// Who dealt the first hand.
    pub first_dealer: Seat,
}

impl Tally {
    /// Records a hand: `winner` scored `points` (already doubled where the
    /// rules say), ending as `end`; `multiplier` is the hand's spade factor
    /// (it doubles Oklahoma's extra boxes).
    pub fn record_hand(
        &mut self,
        rules: &Rules,
        winner: Seat,
        points: u32,
        end: HandEnd,
        multiplier: u32,
    ) {
        let w = winner.index();
        self.points[w] += points;
        self.hands_won[w] += 1;
        if rules.oklahoma_boxes {
            let extra = match end {
                HandEnd::Undercut => 1,
                HandEnd::Gin | HandEnd::BigGin => 2,
                HandEnd::Knock | HandEnd::Tie => 0,
            };
            self.extra_boxes[w] += extra * multiplier;
        }
    }

    /// Records a played hand's outcome (void hands and ties change nothing).
    pub fn record(&mut self, rules: &Rules, outcome: &HandOutcome, upcard: Option<Card>) {
        if let (Some((seat, points)), HandOutcome::Showdown { score, .. }) =
            (outcome.winner(), outcome)
        {
            self.record_hand(
                rules,
                seat,
                points,
                score.end,
                rules.hand_multiplier(upcard),
            );
        }
    }

    /// The seat that reached the target, if any (only the scorer of the last
    /// hand can have).
    #[must_use]
    pub fn leader(&self, rules: &Rules) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|s| self.points[s.index()] >= rules.game_target)
    }

    /// The result of a game won by `winner` after `hands` hands, the first
    /// dealt by `first_dealer`: [`Tally::finish`] with the facts around it.
    #[must_use]
    pub fn result(
        &self,
        rules: &Rules,
        winner: Seat,
        hands: u32,
        first_dealer: Seat,
    ) -> GameResult {
        let (final_scores, shutout, margin) = self.finish(rules, winner);
        GameResult {
            tally: *self,
            winner,
            shutout,
            final_scores,
            margin,
            hands,
            first_dealer,
        }
    }

    /// Prices the end of the game won by `winner`: game bonus, box bonuses,
    /// shutout.
    #[must_use]
    pub fn finish(&self, rules: &Rules, winner: Seat) -> ([u32; 2], bool, i64) {
        let (w, l) = (winner.index(), winner.other().index());
        let shutout = self.points[l] == 0;
        let mut points = self.points;
        let mut game_bonus = rules.game_bonus;
        if shutout {
            match rules.shutout {
                Shutout::DoubleHands => points[w] *= 2,
                Shutout::DoubleGameBonus => game_bonus *= 2,
                Shutout::DoubleTotal | Shutout::None => {}
            }
        }
        let boxes = |s: usize| (self.hands_won[s] + self.extra_boxes[s]) * rules.box_bonus;
        let mut scores = [0; 2];
        scores[w] = points[w] + boxes(w) + game_bonus;
        scores[l] = points[l] + boxes(l);
        if shutout && rules.shutout == Shutout::DoubleTotal {
            scores[w] *= 2;
        }
        (scores, shutout, scores[w] as i64 - scores[l] as i64)
    }
}

/// Who deals after a hand dealt by `dealer` with this outcome.
#[must_use]
pub fn next_dealer(rules: &Rules, dealer: Seat, outcome: &HandOutcome) -> Seat {
    match (outcome.winner(), rules.next_dealer) {
        (None, _) => dealer,
        (Some((winner, _)), NextDealer::Loser) => winner.other(),
        (Some((winner, _)), NextDealer::Winner) => winner,
        (Some(_), NextDealer::Alternate) => dealer.other(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked score sheet of seed 001 (25-point scoring): Ed 325, Jim 108.
    #[test]
    fn seed_001_score_sheet() {
        let rules = Rules::hoyle();
        let (ed, jim) = (Seat::A, Seat::B);
        let mut tally = Tally::default();
        let hands = [
            (ed, 26 + 25, HandEnd::Gin),
            (ed, 10 - 3, HandEnd::Knock),
            (jim, 19 - 2, HandEnd::Knock),
            (jim, 16 + 25, HandEnd::Gin),
            (ed, 3 + 25, HandEnd::Undercut),
            (ed, 41 - 2, HandEnd::Knock),
        ];
        for (i, (seat, points, end)) in hands.into_iter().enumerate() {
            assert_eq!(tally.leader(&rules), None, "over before hand {}", i + 1);
            tally.record_hand(&rules, seat, points, end, 1);
        }
        assert_eq!(tally.points, [125, 58]);
        assert_eq!(tally.leader(&rules), Some(ed));
        let (scores, shutout, margin) = tally.finish(&rules, ed);
        assert_eq!(scores, [325, 108]);
        assert!(!shutout);
        assert_eq!(margin, 217);
    }

    fn shutout_game(shutout: Shutout) -> [u32; 2] {
        let rules = Rules {
            shutout,
            ..Rules::standard()
        };
        let mut tally = Tally::default();
        tally.record_hand(&rules, Seat::B, 60, HandEnd::Knock, 1);
        tally.record_hand(&rules, Seat::B, 45, HandEnd::Gin, 1);
        let (scores, shutout_flag, _) = tally.finish(&rules, Seat::B);
        assert!(shutout_flag);
        scores
    }

    #[test]
    fn every_shutout_mode() {
        // 105 hand points, 2 boxes of 20, game bonus 100.
        assert_eq!(shutout_game(Shutout::DoubleGameBonus), [0, 105 + 40 + 200]);
        assert_eq!(
            shutout_game(Shutout::DoubleTotal),
            [0, 2 * (105 + 40 + 100)]
        );
        assert_eq!(shutout_game(Shutout::DoubleHands), [0, 210 + 40 + 100]);
        assert_eq!(shutout_game(Shutout::None), [0, 105 + 40 + 100]);
    }

    #[test]
    fn oklahoma_extra_boxes() {
        let rules = Rules {
            oklahoma_boxes: true,
            ..Rules::oklahoma()
        };
        let mut tally = Tally::default();
        tally.record_hand(&rules, Seat::A, 30, HandEnd::Undercut, 1); // +1 extra
        tally.record_hand(&rules, Seat::A, 60, HandEnd::Gin, 2); // spade: +4 extra
        tally.record_hand(&rules, Seat::B, 5, HandEnd::Knock, 2); // none
        tally.record_hand(&rules, Seat::A, 70, HandEnd::Knock, 1);
        assert_eq!(tally.extra_boxes, [5, 0]);
        assert_eq!(tally.leader(&rules), Some(Seat::A));
        let (scores, _, _) = tally.finish(&rules, Seat::A);
        assert_eq!(scores, [160 + (3 + 5) * 25 + 100, 5 + 25]);
        // Without the knob, no extra boxes.
        let mut plain = Tally::default();
        plain.record_hand(&Rules::standard(), Seat::A, 30, HandEnd::Gin, 2);
        assert_eq!(plain.extra_boxes, [0, 0]);
    }
}
