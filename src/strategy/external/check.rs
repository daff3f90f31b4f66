//! The bot compliance checker behind `ginlab check-bot`: plays a bot through
//! scripted hands that reach every message and decision of the protocol
//! (`docs/PROTOCOL.md`), and collects every violation with the offending
//! request and reply.
//!
//! The hands are fixed deals against scripted opponents, so the same bot
//! meets the same situations every time. A bot's own choices still steer a
//! hand (a bot that goes gin early never meets the last-discard choice), so
//! the report also says which decisions and results were reached.

use std::collections::BTreeSet;
use std::sync::Arc;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::cards::{Card, CardSet};
use crate::engine::{
    Deck, DrawSource, EngineError, Hand, HandOutcome, PlayerView, Seat, Strategy, TurnEnd,
    play_game, play_hand_inspected,
};
use crate::protocol::{Move, decision_name, legal_moves};
use crate::rules::{Deal, KnockLimit, Rules};
use crate::strategy::{Bot, BotHost, BotSpec, Greedy, best_discard_except};

/// Who the bot plays against in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Deadwood greedy, knocking as soon as it may.
    Greedy,
    /// Never takes the upcard and never knocks; discards its worst card. With
    /// `steer` it takes the pile once when that makes the bot, not itself,
    /// face the last-discard choice at the stock end.
    Passive {
        /// Steer the stock end to the bot.
        steer: bool,
    },
}

/// How a scenario is dealt.
#[derive(Clone, Debug)]
pub enum Setup {
    /// One hand from this deck.
    Hand {
        /// The deck, top first.
        deck: Deck,
        /// Who deals.
        dealer: Seat,
    },
    /// A whole game; decks and the first dealer from this seed.
    Game {
        /// The seed.
        seed: u64,
    },
}

/// One scripted situation.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// What it is for.
    pub name: String,
    /// The rules.
    pub rules: Rules,
    /// The deal.
    pub setup: Setup,
    /// The bot's seat.
    pub bot: Seat,
    /// The other player.
    pub opponent: Opponent,
}

/// A protocol violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The scenario it happened in.
    pub scenario: String,
    /// What was wrong, with the request and the reply.
    pub detail: String,
}

/// What a check found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Why the bot could not be started or its log opened (not a protocol
    /// violation: the command or the folder is wrong).
    pub start_error: Option<crate::strategy::BotError>,
    /// The bot's name from its `hello`, if the handshake worked.
    pub name: Option<String>,
    /// Scenarios played, with the bot's decision count in each.
    pub played: Vec<(String, u64)>,
    /// Every violation.
    pub violations: Vec<Violation>,
    /// Decisions and offers the bot met (`upcard`, `draw`, `draw (stock only)`,
    /// `last_chance`, `end_turn`, `knock offered`, `big_gin offered`).
    pub decisions: BTreeSet<&'static str>,
    /// Hand results the bot was told (`knock`, `gin`, `void (stock_end)`, ...).
    pub results: BTreeSet<String>,
    /// Whether the bot exited by itself after `quit`.
    pub quit_cleanly: Option<bool>,
}

impl CheckReport {
    /// Every decision and offer a full check can reach.
    pub const ALL_DECISIONS: [&'static str; 7] = [
        "upcard",
        "draw",
        "draw (stock only)",
        "last_chance",
        "end_turn",
        "knock offered",
        "big_gin offered",
    ];

    /// No violations and a clean exit.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.violations.is_empty() && self.quit_cleanly != Some(false)
    }
}

fn set(cards: &str) -> CardSet {
    cards.parse().expect("scenario cards are valid")
}

fn deck(non_dealer: &str, dealer: &str, twenty_first: &str, stock: &str) -> Deck {
    let stock: Vec<Card> = stock
        .split_whitespace()
        .map(|c| c.parse().expect("scenario cards are valid"))
        .collect();
    Deck::arranged(
        set(non_dealer),
        set(dealer),
        twenty_first.parse().expect("scenario cards are valid"),
        &stock,
    )
    .expect("scenario decks are valid")
}

/// The target of the whole-game scenario.
const GAME_TARGET: u32 = 150;

fn shuffled(seed: u64) -> Deck {
    Deck::shuffled(&mut Pcg64Mcg::seed_from_u64(seed))
}

/// Junk for the bot: no melds, no pairs, high deadwood.
const JUNK: &str = "KC JD 9H 7S QS TC 8D 6H 4S 2C";

/// The scripted situations, in the order they are played.
#[must_use]
pub fn scenarios() -> Vec<Scenario> {
    let standard = Rules::standard();
    let with = |f: &dyn Fn(&mut Rules)| {
        let mut rules = Rules::standard();
        f(&mut rules);
        rules
    };
    let hand = |deck: Deck, dealer: Seat| Setup::Hand { deck, dealer };
    // The bot is the non-dealer (seat A) unless a scenario says otherwise.
    let (bot, opp) = (Seat::A, Seat::B);
    let gin_ready = "AC 2C 3C 4C 5D 6D 7D 9H 9S 9C";
    let mut list = vec![
        Scenario {
            name: "upcard offer and pile draws, played out against greedy".into(),
            rules: standard.clone(),
            setup: hand(shuffled(11), opp),
            bot,
            opponent: Opponent::Greedy,
        },
        Scenario {
            name: "the dealer's upcard offer".into(),
            rules: standard.clone(),
            setup: hand(shuffled(12), bot),
            bot,
            opponent: Opponent::Passive { steer: false },
        },
        Scenario {
            name: "gin in hand: knocking offered".into(),
            rules: standard.clone(),
            setup: hand(deck(gin_ready, JUNK_DEALER, "KD", "QD"), opp),
            bot,
            opponent: Opponent::Passive { steer: false },
        },
        Scenario {
            name: "big gin offered (upcard or stock card completes 11 melded cards)".into(),
            rules: Rules::hoyle(),
            setup: hand(deck(gin_ready, JUNK_DEALER, "8D", "9D"), opp),
            bot,
            opponent: Opponent::Passive { steer: false },
        },
        Scenario {
            name: "knocked on, with lay-offs".into(),
            rules: standard.clone(),
            setup: hand(
                deck(
                    "TH 6H AS 3S 6C 9D JS KS 5D QD",
                    "7H 8H 9H 4S 4D 4C JC QC KC 2D",
                    "2H",
                    "AD 3D",
                ),
                opp,
            ),
            bot,
            opponent: Opponent::Greedy,
        },
        Scenario {
            name: "the opponent goes gin".into(),
            rules: standard.clone(),
            setup: hand(
                deck(JUNK, "2H 3H 4H 5H AC AD AH JS JH JC", "2S", "5S 8S"),
                opp,
            ),
            bot,
            opponent: Opponent::Greedy,
        },
        Scenario {
            name: "a void hand at the turn cap".into(),
            rules: with(&|r| r.max_turns = 2),
            setup: hand(deck(JUNK, JUNK_DEALER, "KH", "QD JC"), opp),
            bot,
            opponent: Opponent::Passive { steer: false },
        },
        Scenario {
            name: "the stock runs out: a void hand".into(),
            rules: with(&|r| r.knock_limit = KnockLimit::Fixed(0)),
            setup: hand(shuffled(13), opp),
            bot,
            opponent: Opponent::Passive { steer: false },
        },
        Scenario {
            name: "Oklahoma: a spade upcard sets the knock limit and doubles".into(),
            rules: Rules::oklahoma(),
            setup: hand(
                deck(
                    "AC 2C 3C 5H 5D 5C 9S TS 2H 3D",
                    "KC QD JH 8C 7D 6S 4H 3H 2D AH",
                    "4S",
                    "",
                ),
                opp,
            ),
            bot,
            opponent: Opponent::Greedy,
        },
        Scenario {
            name: "Oklahoma: an ace upcard, gin only".into(),
            rules: Rules::oklahoma(),
            setup: hand(
                deck(
                    "AC 2C 3C 5H 5D 5C 9S TS 2H 3D",
                    "KC QD JH 8C 7D 6S 4H 3H 2D 4S",
                    "AH",
                    "",
                ),
                opp,
            ),
            bot,
            opponent: Opponent::Greedy,
        },
        Scenario {
            name: "the eleven-card deal (no upcard)".into(),
            rules: with(&|r| r.deal = Deal::ElevenCards),
            setup: hand(shuffled(16), opp),
            bot,
            opponent: Opponent::Greedy,
        },
        Scenario {
            // More than one hand can score (the gin bonus plus ten cards'
            // deadwood, at most 100), so the bot meets a second
            // `hand_start` in one game (see the test below).
            name: format!("a whole game to {GAME_TARGET} points (several hands)"),
            rules: with(&|r| r.game_target = GAME_TARGET),
            setup: Setup::Game { seed: 17 },
            bot: opp,
            opponent: Opponent::Greedy,
        },
    ];
    // Situations the bot's own choices may avoid get a few deals each.
    for (i, upcard) in ["KH", "QH", "JC"].into_iter().enumerate() {
        list.push(Scenario {
            name: format!(
                "both pass a useless upcard: a stock-only draw (deal {})",
                i + 1
            ),
            rules: with(&|r| r.max_turns = 6),
            setup: hand(deck(JUNK, "AD 2D 3H 4H 5C 6C 7C 8C 9C TD", upcard, ""), opp),
            bot,
            opponent: Opponent::Passive { steer: false },
        });
    }
    for (i, seed) in [14, 18, 19, 20].into_iter().enumerate() {
        list.push(Scenario {
            name: format!("the last discard at the stock end (deal {})", i + 1),
            rules: with(&|r| {
                r.knock_limit = KnockLimit::Fixed(0);
                r.last_discard_action = true;
            }),
            setup: hand(shuffled(seed), opp),
            bot,
            opponent: Opponent::Passive { steer: true },
        });
    }
    list
}

/// The dealer's junk: disjoint from [`JUNK`] and from the gin-ready hand.
const JUNK_DEALER: &str = "KS JS TD 7C QH TH 8S 6S 4D 2S";

/// The passive opponent of [`Opponent::Passive`].
struct Passive {
    steer: bool,
}

impl Strategy for Passive {
    fn name(&self) -> &str {
        "passive"
    }

    fn take_upcard(&mut self, _view: &PlayerView<'_>) -> bool {
        false
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        // At 4 cards in the stock, drawing would leave the bot discarding
        // into the stock end; taking the pile hands the last choice to the bot.
        if self.steer && view.stock_size == 4 && crate::engine::pile_allowed(view) {
            DrawSource::Pile
        } else {
            DrawSource::Stock
        }
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        TurnEnd::Discard(best_discard_except(view.hand, view.taken_from_pile).card)
    }
}

fn opponent(kind: Opponent) -> Box<dyn Strategy> {
    match kind {
        Opponent::Greedy => Box::new(Greedy::new(None, Vec::new())),
        Opponent::Passive { steer } => Box::new(Passive { steer }),
    }
}

/// Records what decision the bot faces in `view` (the bot's view).
fn note_decision(report: &mut CheckReport, view: &PlayerView<'_>) {
    if view.phase.seat() != Some(view.seat) {
        return;
    }
    let legal = legal_moves(view);
    report.decisions.insert(decision_name(view.phase));
    if legal == [Move::Stock] {
        report.decisions.insert("draw (stock only)");
    }
    if legal.iter().any(|m| matches!(m, Move::Knock(_))) {
        report.decisions.insert("knock offered");
    }
    if legal.contains(&Move::BigGin) {
        report.decisions.insert("big_gin offered");
    }
}

fn note_result(report: &mut CheckReport, outcome: &HandOutcome) {
    report.results.insert(match outcome {
        HandOutcome::Void(reason) => format!(
            "void ({})",
            match reason {
                crate::engine::VoidReason::StockEnd => "stock_end",
                crate::engine::VoidReason::TurnCap => "turn_cap",
            }
        ),
        HandOutcome::Showdown {
            score, showdown, ..
        } => {
            if showdown.layoffs.is_empty() {
                score.end.name().to_owned()
            } else {
                format!("{} with lay-offs", score.end.name())
            }
        }
    });
}

/// Plays one scenario; `Err` holds the violation text.
fn play(
    bot: &Arc<Bot>,
    scenario: &Scenario,
    seed: u64,
    report: &mut CheckReport,
) -> Result<u64, String> {
    let mut external = bot.checkout(seed);
    let mut other = opponent(scenario.opponent);
    let mut players: [&mut dyn Strategy; 2] = match scenario.bot {
        Seat::A => [&mut external, other.as_mut()],
        Seat::B => [other.as_mut(), &mut external],
    };
    let result = match &scenario.setup {
        Setup::Hand { deck, dealer } => {
            let mut hand = Hand::new(&scenario.rules, deck, *dealer, [0, 0])
                .expect("scenario rules are valid");
            note_decision(report, &hand.view(scenario.bot));
            play_hand_inspected(&mut hand, &mut players, |h| {
                note_decision(report, &h.view(scenario.bot));
            })
            .map(|outcome| note_result(report, &outcome))
        }
        Setup::Game { seed } => {
            let mut rng = Pcg64Mcg::seed_from_u64(*seed);
            play_game(&scenario.rules, &mut players, &mut rng, |_, hand| {
                note_result(report, hand.outcome().expect("a finished hand"));
            })
            .map(|_| {
                report.results.insert("game_end".into());
            })
        }
    };
    match result {
        Ok(()) => Ok(external.decisions()),
        Err(EngineError::Forfeit { reason, .. }) => Err(reason),
        Err(e) => Err(format!("the hand could not go on: {e}")),
    }
}

/// Checks the bot `spec` describes: the handshake, every scenario, and a
/// clean exit after `quit`, its processes started from `host`. `progress`
/// is told each scenario's outcome.
#[must_use]
pub fn check_bot(
    host: &Arc<BotHost>,
    spec: BotSpec,
    mut progress: impl FnMut(&str, &Result<u64, String>),
) -> CheckReport {
    let bot = Arc::new(Bot::new(spec, host));
    let mut report = CheckReport::default();
    match bot.warm_up() {
        Ok(hello) => report.name = Some(hello.name),
        Err(e @ crate::strategy::BotError::Handshake { .. }) => {
            report.violations.push(Violation {
                scenario: "handshake".into(),
                detail: e.to_string(),
            });
            return report;
        }
        Err(e) => {
            report.start_error = Some(e);
            return report;
        }
    }
    for (index, scenario) in scenarios().into_iter().enumerate() {
        let outcome = play(&bot, &scenario, crate::seed::mix(index as u64), &mut report);
        progress(&scenario.name, &outcome);
        match outcome {
            Ok(decisions) => report.played.push((scenario.name, decisions)),
            Err(detail) => report.violations.push(Violation {
                scenario: scenario.name,
                detail,
            }),
        }
    }
    report.quit_cleanly = bot.quit_idle();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15: the whole game was to 50 points, which one gin could
    /// reach, so a bot was never checked across a second `hand_start`.
    #[test]
    fn the_whole_game_takes_more_than_one_hand() {
        let game = scenarios()
            .into_iter()
            .find(|s| matches!(s.setup, Setup::Game { .. }))
            .expect("a whole-game scenario");
        let rules = &game.rules;
        // The most one hand can score: a bonus plus at most 100 deadwood
        // (ten cards of 10), doubled by a spade upcard where that counts.
        let bonus = rules
            .gin_bonus
            .max(rules.undercut_bonus)
            .max(rules.big_gin_bonus.unwrap_or(0));
        let doubling = if rules.spade_upcard_doubles { 2 } else { 1 };
        assert!(rules.game_target > doubling * (bonus + 100), "{rules:?}");
    }
}
