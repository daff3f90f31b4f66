//! The words of the table: who did what, how a hand was scored and why, and
//! the final score sheet. Pure functions of the engine's facts, so each can
//! be checked against the engine's own arithmetic.

use ginlab::engine::{Event, HandEnd, HandOutcome, HandScore, Seat, Tally, VoidReason};
use ginlab::rules::{KnockLimit, Shutout};
use ginlab::{Card, Rules, Showdown};

/// The two players' names by seat; the person's seat is called "you".
#[derive(Clone, Debug)]
pub struct Names {
    /// The person's seat.
    pub you: Seat,
    /// The opponent's name.
    pub them: String,
}

impl Names {
    /// `seat`'s name as the subject of a sentence.
    pub fn of(&self, seat: Seat) -> &str {
        if seat == self.you { "you" } else { &self.them }
    }

    /// `seat`'s name and `verb` agreeing with it (`you take`, `greedy takes`).
    pub fn does(&self, seat: Seat, verb: &str) -> String {
        if seat == self.you {
            format!("you {verb}")
        } else if verb.ends_with('s') {
            format!("{} {verb}es", self.them)
        } else {
            format!("{} {verb}s", self.them)
        }
    }
}

/// One line for a public event; `drawn` is the card the person drew from
/// the stock, which only the person sees.
pub fn narrate(event: &Event, names: &Names, drawn: Option<Card>) -> String {
    let line = match *event {
        Event::UpcardTaken { seat, card } => {
            format!("{} the upcard {card}.", names.does(seat, "take"))
        }
        Event::UpcardPassed { seat, card } => {
            format!("{} the upcard {card}.", names.does(seat, "pass"))
        }
        Event::DrewStock { seat } => match drawn.filter(|_| seat == names.you) {
            Some(card) => format!("you draw {card} from the stock."),
            None => format!("{} from the stock.", names.does(seat, "draw")),
        },
        Event::TookPile { seat, card } => {
            format!("{} {card} from the pile.", names.does(seat, "take"))
        }
        Event::Discarded { seat, card } => format!("{} {card}.", names.does(seat, "discard")),
        Event::Knocked { seat } => format!("{}.", names.does(seat, "knock")),
        Event::BigGin { seat } => format!("{} big gin.", names.does(seat, "declare")),
        Event::PassedLastDiscard { seat } => {
            format!("{} the last discard.", names.does(seat, "pass"))
        }
    };
    // A sentence starts with a capital; the opponent's name stays as typed.
    match line.strip_prefix("you ") {
        Some(rest) => format!("You {rest}"),
        None => line,
    }
}

pub use ginlab::render::arranged;

/// The rules in one line, for the start of the game.
pub fn rules_line(rules: &Rules) -> String {
    let limit = match rules.knock_limit {
        KnockLimit::Fixed(0) => "knock limit 0 (gin only)".to_owned(),
        KnockLimit::Fixed(n) => format!("knock limit {n}"),
        KnockLimit::Upcard => "knock limit = the upcard's value".to_owned(),
    };
    let mut parts = vec![
        format!("first to {} hand points", rules.game_target),
        limit,
        format!("gin bonus {}", rules.gin_bonus),
        format!("undercut bonus {}", rules.undercut_bonus),
    ];
    if let Some(bonus) = rules.big_gin_bonus {
        parts.push(format!("big gin bonus {bonus}"));
    }
    if rules.ace_upcard_gin_only {
        parts.push("ace upcard: gin only".into());
    }
    if rules.spade_upcard_doubles {
        parts.push("spade upcard: double score".into());
    }
    parts.push(format!("box bonus {}", rules.box_bonus));
    parts.push(format!("game bonus {}", rules.game_bonus));
    parts.join(" · ")
}

/// The notes a hand's upcard brings under the rules (Oklahoma): the knock
/// limit it sets, gin only, double score.
pub fn upcard_notes(rules: &Rules, upcard: Option<Card>, knock_limit: u8) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(card) = upcard else {
        return notes;
    };
    if knock_limit == 0 && rules.ace_upcard_gin_only && card.value() == 1 {
        notes.push(format!(
            "The upcard {card} is an ace: only gin ends this hand."
        ));
    } else if rules.knock_limit == KnockLimit::Upcard {
        notes.push(format!(
            "The upcard {card} sets the knock limit: {knock_limit}."
        ));
    }
    if rules.hand_multiplier(upcard) > 1 {
        notes.push(format!(
            "The upcard {card} is a spade: this hand scores double."
        ));
    }
    notes
}

/// How a hand ended: both spreads, the lay-offs, and the points with the
/// arithmetic that gives them.
///
/// # Panics
/// In debug builds, if the arithmetic shown differs from the engine's score.
pub fn hand_result(
    outcome: &HandOutcome,
    rules: &Rules,
    upcard: Option<Card>,
    dealer: Seat,
    names: &Names,
) -> Vec<String> {
    let (knocker, showdown, score) = match outcome {
        HandOutcome::Void(reason) => {
            let why = match reason {
                VoidReason::StockEnd => "the stock is down to 2 cards",
                VoidReason::TurnCap => "the turn limit was reached",
            };
            return vec![format!(
                "Void hand: {why}. No score; the same dealer ({}) deals again.",
                names.of(dealer)
            )];
        }
        HandOutcome::Showdown {
            knocker,
            showdown,
            score,
        } => (*knocker, showdown, score),
    };
    let defender = knocker.other();
    let label = |seat: Seat, role: &str| format!("{} ({role})", names.of(seat));
    let labels = [label(knocker, "knocker"), label(defender, "defender")];
    let width = labels.iter().map(String::len).max().unwrap_or(0);
    let laid_off = if showdown.is_gin() {
        " (no lay-offs on gin)".to_owned()
    } else if showdown.layoffs.is_empty() {
        " (nothing to lay off)".to_owned()
    } else {
        format!(", after laying off {}", showdown.layoffs)
    };
    vec![
        format!("  {:width$}  {}", labels[0], arranged(&showdown.knocker)),
        format!(
            "  {:width$}  {}{laid_off}",
            labels[1],
            arranged(&showdown.defender)
        ),
        score_line(showdown, score, rules, upcard, [knocker, defender], names),
    ]
}

fn score_line(
    showdown: &Showdown,
    score: &HandScore,
    rules: &Rules,
    upcard: Option<Card>,
    [knocker, defender]: [Seat; 2],
    names: &Names,
) -> String {
    let (k, d) = (
        u32::from(showdown.knocker_deadwood()),
        u32::from(showdown.defender_deadwood()),
    );
    let (what, sum, base, winner) = match score.end {
        HandEnd::Knock => (
            "Knock".to_owned(),
            format!("the defender's {d} − the knocker's {k}"),
            d - k,
            knocker,
        ),
        HandEnd::Undercut => (
            format!("Undercut (the knocker's {k} is not below the defender's {d})"),
            format!("{k} − {d} + undercut bonus {}", rules.undercut_bonus),
            k - d + rules.undercut_bonus,
            defender,
        ),
        HandEnd::Gin => (
            "Gin".to_owned(),
            format!("gin bonus {} + the defender's {d}", rules.gin_bonus),
            rules.gin_bonus + d,
            knocker,
        ),
        HandEnd::BigGin => {
            let bonus = rules.big_gin_bonus.unwrap_or(rules.gin_bonus);
            (
                "Big gin".to_owned(),
                format!("big gin bonus {bonus} + the defender's {d}"),
                bonus + d,
                knocker,
            )
        }
        HandEnd::Tie => {
            return format!(
                "Tie: equal deadwood {k}, and these rules do not count that as an undercut: no score."
            );
        }
    };
    let multiplier = rules.hand_multiplier(upcard);
    debug_assert_eq!(base * multiplier, score.points, "{what}: {sum}");
    let doubled = match (multiplier, upcard) {
        (1, _) | (_, None) => String::new(),
        (m, Some(card)) => format!(", × {m} for the spade upcard {card}"),
    };
    format!(
        "{what}: {sum} = {base}{doubled}: {} points to {}.",
        score.points,
        names.of(winner)
    )
}

/// `n` and the noun, singular or plural.
pub fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `seat`'s boxes: hands won plus Oklahoma's extra boxes.
fn boxes(tally: &Tally, seat: Seat) -> String {
    let n = tally.hands_won[seat.index()] + tally.extra_boxes[seat.index()];
    count(n, "box", "boxes")
}

/// The running score, with the boxes where they count.
pub fn scores_line(rules: &Rules, tally: &Tally, names: &Names) -> String {
    let seats = [names.you, names.you.other()];
    let each: Vec<String> = seats
        .iter()
        .map(|&seat| {
            let points = tally.points[seat.index()];
            if rules.box_bonus == 0 {
                format!("{} {points}", names.of(seat))
            } else {
                format!("{} {points} ({})", names.of(seat), boxes(tally, seat))
            }
        })
        .collect();
    format!(
        "Scores: {}; first to {} wins.",
        each.join(", "),
        rules.game_target
    )
}

/// `seat`'s final score as a sum of its parts (hand points, boxes, game
/// bonus, shutout doubling) and the total, for a game `winner` won.
pub fn final_score(rules: &Rules, tally: &Tally, winner: Seat, seat: Seat) -> (String, u32) {
    let shutout = tally.points[winner.other().index()] == 0;
    let doubled = |mode: Shutout| seat == winner && shutout && rules.shutout == mode;
    let points = tally.points[seat.index()];
    let (mut terms, mut total) = if doubled(Shutout::DoubleHands) {
        (
            vec![format!("{points} hand points × 2 (shutout)")],
            2 * points,
        )
    } else {
        (vec![format!("{points} hand points")], points)
    };
    if rules.box_bonus > 0 {
        terms.push(format!("{} × {}", boxes(tally, seat), rules.box_bonus));
        total +=
            (tally.hands_won[seat.index()] + tally.extra_boxes[seat.index()]) * rules.box_bonus;
    }
    if seat == winner && rules.game_bonus > 0 {
        if doubled(Shutout::DoubleGameBonus) {
            terms.push(format!("game bonus {} × 2 (shutout)", rules.game_bonus));
            total += 2 * rules.game_bonus;
        } else {
            terms.push(format!("game bonus {}", rules.game_bonus));
            total += rules.game_bonus;
        }
    }
    let mut text = terms.join(" + ");
    if doubled(Shutout::DoubleTotal) {
        text = format!("({text}) × 2 (shutout)");
        total *= 2;
    }
    (text, total)
}

/// The end of the game: who reached the target, both final scores item by
/// item, and the margin.
///
/// # Panics
/// In debug builds, if the items do not add up to the engine's totals.
pub fn game_over(
    rules: &Rules,
    tally: &Tally,
    winner: Seat,
    hands: u32,
    names: &Names,
) -> Vec<String> {
    let (finals, _, margin) = tally.finish(rules, winner);
    let seats = [winner, winner.other()];
    let width = seats.iter().map(|&s| names.of(s).len()).max().unwrap_or(0);
    let mut lines = vec![format!(
        "Game over after {}: {} reached {}.",
        count(hands, "hand", "hands"),
        names.of(winner),
        rules.game_target
    )];
    for seat in seats {
        let (text, total) = final_score(rules, tally, winner, seat);
        debug_assert_eq!(total, finals[seat.index()], "{text}");
        lines.push(format!(
            "  {:width$}  {text} = {}",
            names.of(seat),
            finals[seat.index()]
        ));
    }
    let verdict = if winner == names.you {
        "You win"
    } else {
        "You lose"
    };
    lines.push(format!(
        "{verdict}: {} to {} (margin {margin}).",
        finals[winner.index()],
        finals[winner.other().index()]
    ));
    lines
}

#[cfg(test)]
mod tests {
    use ginlab::engine::score_showdown;
    use ginlab::meld;

    use super::*;

    fn names() -> Names {
        Names {
            you: Seat::A,
            them: "greedy".into(),
        }
    }

    #[test]
    fn verbs_agree() {
        let n = names();
        assert_eq!(n.does(Seat::A, "pass"), "you pass");
        assert_eq!(n.does(Seat::B, "pass"), "greedy passes");
        assert_eq!(n.does(Seat::B, "take"), "greedy takes");
        let drawn = Some("4H".parse().unwrap());
        let draw = Event::DrewStock { seat: Seat::A };
        assert_eq!(narrate(&draw, &n, drawn), "You draw 4H from the stock.");
        // The opponent's stock card is never shown, whatever is passed.
        let theirs = Event::DrewStock { seat: Seat::B };
        assert_eq!(narrate(&theirs, &n, drawn), "greedy draws from the stock.");
        let pass = Event::UpcardPassed {
            seat: Seat::A,
            card: "KC".parse().unwrap(),
        };
        assert_eq!(narrate(&pass, &n, None), "You pass the upcard KC.");
    }

    /// Shows down `knocker` against `defender` (A knocks) and explains it.
    fn explained(
        knocker: &str,
        defender: &str,
        rules: &Rules,
        upcard: Option<&str>,
    ) -> Vec<String> {
        let upcard = upcard.map(|c| c.parse().unwrap());
        let limit = rules.knock_limit_for(upcard).unwrap();
        let showdown =
            meld::showdown(knocker.parse().unwrap(), defender.parse().unwrap(), limit).unwrap();
        let score = score_showdown(&showdown, rules, upcard);
        let outcome = HandOutcome::Showdown {
            knocker: Seat::A,
            showdown,
            score,
        };
        hand_result(&outcome, rules, upcard, Seat::B, &names())
    }

    const KNOCKER: &str = "5S 6S 7S 2H 3H 4H KC KD KH 3D";
    const DEFENDER: &str = "8S 9S TS QD QH 4C 4D 7H 9C JC";

    #[test]
    fn knock_with_layoffs() {
        let lines = explained(KNOCKER, DEFENDER, &Rules::standard(), None);
        assert_eq!(
            lines,
            [
                "  you (knocker)      [KC KD KH] [2H 3H 4H] [5S 6S 7S] 3D   deadwood 3",
                "  greedy (defender)  4C 9C JC 4D QD 7H QH   deadwood 54, after laying off 8S 9S TS",
                "Knock: the defender's 54 − the knocker's 3 = 51: 51 points to you.",
            ]
        );
    }

    #[test]
    fn undercut_gin_and_spades() {
        // Defender: [7C 8C 9C] [TD JD QD] [QC QH QS] 2C: 2 under the knocker's 3.
        let lines = explained(
            KNOCKER,
            "7C 8C 9C TD JD QD QC QH QS 2C",
            &Rules::hoyle(),
            None,
        );
        assert_eq!(
            lines[2],
            "Undercut (the knocker's 3 is not below the defender's 2): \
             3 − 2 + undercut bonus 25 = 26: 26 points to greedy."
        );
        let gin = "5S 6S 7S 2H 3H 4H KC KD KH KS";
        let lines = explained(gin, DEFENDER, &Rules::standard(), None);
        assert!(lines[1].ends_with("(no lay-offs on gin)"), "{}", lines[1]);
        assert_eq!(
            lines[2],
            "Gin: gin bonus 20 + the defender's 54 = 74: 74 points to you."
        );
        let lines = explained(KNOCKER, DEFENDER, &Rules::oklahoma(), Some("9S"));
        assert_eq!(
            lines[2],
            "Knock: the defender's 54 − the knocker's 3 = 51, × 2 for the spade upcard 9S: \
             102 points to you."
        );
        let big = "AS 2S 3S 4S 2H 3H 4H KC KD KH KS";
        let lines = explained(big, DEFENDER, &Rules::hoyle(), None);
        assert_eq!(
            lines[2],
            "Big gin: big gin bonus 31 + the defender's 54 = 85: 85 points to you."
        );
    }

    #[test]
    fn tie_and_void() {
        let rules = Rules {
            undercut_on_tie: false,
            ..Rules::standard()
        };
        let lines = explained(KNOCKER, "7C 8C 9C TD JD QD QC QH QS 3C", &rules, None);
        assert!(
            lines[2].starts_with("Tie: equal deadwood 3"),
            "{}",
            lines[2]
        );
        let void = HandOutcome::Void(VoidReason::StockEnd);
        assert_eq!(
            hand_result(&void, &rules, None, Seat::A, &names()),
            [
                "Void hand: the stock is down to 2 cards. No score; the same dealer (you) deals again."
            ]
        );
    }

    #[test]
    fn final_scores_add_up_under_every_shutout() {
        for shutout in [
            Shutout::DoubleGameBonus,
            Shutout::DoubleTotal,
            Shutout::DoubleHands,
            Shutout::None,
        ] {
            for rules in [Rules::standard(), Rules::oklahoma(), Rules::eaai()] {
                let rules = Rules { shutout, ..rules };
                for loser_points in [0, 35] {
                    let mut tally = Tally::default();
                    tally.record_hand(&rules, Seat::B, 60, HandEnd::Gin, 2);
                    tally.record_hand(&rules, Seat::B, 90, HandEnd::Undercut, 1);
                    if loser_points > 0 {
                        tally.record_hand(&rules, Seat::A, loser_points, HandEnd::Knock, 1);
                    }
                    let (finals, _, _) = tally.finish(&rules, Seat::B);
                    for seat in Seat::ALL {
                        let (text, total) = final_score(&rules, &tally, Seat::B, seat);
                        assert_eq!(total, finals[seat.index()], "{shutout:?} {seat}: {text}");
                    }
                }
            }
        }
        let rules = Rules::standard();
        let mut tally = Tally::default();
        tally.record_hand(&rules, Seat::B, 105, HandEnd::Gin, 1);
        let lines = game_over(&rules, &tally, Seat::B, 1, &names());
        assert_eq!(
            lines,
            [
                "Game over after 1 hand: greedy reached 100.",
                "  greedy  105 hand points + 1 box × 20 + game bonus 100 × 2 (shutout) = 325",
                "  you     0 hand points + 0 boxes × 20 = 0",
                "You lose: 325 to 0 (margin 325).",
            ]
        );
        assert_eq!(
            scores_line(&rules, &tally, &names()),
            "Scores: you 0 (0 boxes), greedy 105 (1 box); first to 100 wins."
        );
    }
}
