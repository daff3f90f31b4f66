//! `jdh8-bot PLAYER [--samples N]`: one of jdh8's published players
//! (`gin-rummy-engine` 0.3.1) as a ginlab bot, speaking ginlab's JSON-lines
//! protocol (docs/PROTOCOL.md) on stdin and stdout, so that ginlab's
//! players can be measured against an independent engine's:
//!
//! ```sh
//! (cd benches/jdh8 && cargo build --release)
//! ginlab match strategies/mc-strongest-2ms.toml \
//!     'exec:benches/jdh8/target/release/jdh8-bot mc' --rules eaai --games 400
//! ```
//!
//! PLAYER is `mc` (`MonteCarloBot` with jdh8's default `McConfig`, its
//! measured settings: 512 worlds, score-aware; `--samples N` changes the
//! worlds), `heuristic` (`HeuristicBot`) or `simple` (`EaaiSimpleBot`, the
//! EAAI reference player: against ginlab's `simple` it should be even,
//! which checks this bridge).
//!
//! jdh8's players read a `View` that only its engine's `Table` makes, so at
//! every decision the bridge rebuilds the hand on a `Table`: a deal that
//! agrees with everything the bot has seen (its own cards and draws, the
//! upcard, every event), in which the opponent's unseen cards and the stock
//! are filled with cards nobody has seen, and replays the hand's events on
//! it. A `View` shows neither, so what fills them cannot reach the player;
//! the replayed table is checked against the decision's `state` (hand,
//! pile, the opponent's known cards) before the player is asked.
//!
//! Supported: two-player games with the upcard offer (`deal =
//! "upcard_offer"`) and the dead hand at two stock cards
//! (`last_discard_action = false`); other rules make the bot stop with a
//! message on stderr (ginlab then forfeits its game and logs why). Knobs
//! jdh8's rules do not have only change how its score-aware search values a
//! game's end (`next_dealer = "loser"` is read as the winner deals;
//! `shutout = "double_hands"` as no shutout bonus); the knock limit is the
//! one in force for the hand. The player's randomness is seeded from
//! `game_start`'s seed, so runs repeat.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use gin_rummy::{Card, Hand, Phase, Player, Round, Rules, Shutout, deadwood};
use gin_rummy_engine::{
    DealerRotation, DrawAction, EaaiSimpleBot, HeuristicBot, Layoff, McConfig, MonteCarloBot,
    Strategy, Table, TurnAction, UpcardAction, View,
};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

const USAGE: &str = "usage: jdh8-bot mc|heuristic|simple [--samples N]";

/// Which of jdh8's players, and its worlds for `mc`.
#[derive(Clone, Copy)]
enum Kind {
    Mc(u32),
    Heuristic,
    Simple,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = match parse_args(&args) {
        Ok(kind) => kind,
        Err(message) => {
            eprintln!("jdh8-bot: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(kind) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("jdh8-bot: {message}");
            ExitCode::from(2)
        }
    }
}

fn parse_args(args: &[String]) -> Result<Kind, String> {
    let samples = match args {
        [_] => None,
        [_, flag, n] if flag == "--samples" => match n.parse::<u32>() {
            Ok(n) if n > 0 => Some(n),
            _ => return Err(format!("--samples takes a positive integer, not `{n}`")),
        },
        _ => return Err("expected a player and optionally --samples N".into()),
    };
    match (args[0].as_str(), samples) {
        ("mc", samples) => Ok(Kind::Mc(samples.unwrap_or(McConfig::default().samples))),
        ("heuristic", None) => Ok(Kind::Heuristic),
        ("simple", None) => Ok(Kind::Simple),
        ("heuristic" | "simple", Some(_)) => Err("--samples is for `mc` only".into()),
        (other, _) => Err(format!(
            "unknown player `{other}` (mc, heuristic or simple)"
        )),
    }
}

/// A game in progress: the rules, the player and the hand being played.
struct Game {
    seat: Player,
    rules: Rules,
    rotation: DealerRotation,
    player: Box<dyn Strategy>,
    hand: Option<HandLog>,
}

fn run(kind: Kind) -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut game: Option<Game> = None;
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let msg: Value = serde_json::from_str(&line)
            .map_err(|e| format!("a line that is not JSON ({e}): {line}"))?;
        match msg["type"].as_str() {
            Some("hello") => {
                let name = match kind {
                    Kind::Mc(_) => "jdh8-mc",
                    Kind::Heuristic => "jdh8-heuristic",
                    Kind::Simple => "jdh8-simple",
                };
                send(
                    &mut out,
                    &json!({"type": "hello", "protocol": 1, "name": name}),
                )?;
            }
            Some("game_start") => game = Some(start_game(kind, &msg)?),
            Some("hand_start") => {
                let g = game.as_mut().ok_or("hand_start before game_start")?;
                g.hand = Some(HandLog::start(&msg)?);
            }
            Some("event") => {
                let g = game.as_mut().ok_or("event before game_start")?;
                let hand = g.hand.as_mut().ok_or("event before hand_start")?;
                hand.event(&msg, g.seat)?;
            }
            Some("decide") => {
                let g = game.as_mut().ok_or("decide before game_start")?;
                let answer = decide(g, &msg)?;
                send(
                    &mut out,
                    &json!({"type": "move", "id": msg["id"], "move": answer}),
                )?;
            }
            Some("hand_end") => {
                if let Some(g) = game.as_mut() {
                    g.hand = None;
                }
            }
            Some("game_end") => game = None,
            Some("quit") => return Ok(()),
            _ => {} // fields and messages this bot does not know are ignored
        }
    }
    Ok(())
}

fn send(out: &mut impl Write, msg: &Value) -> Result<(), String> {
    writeln!(out, "{msg}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("writing stdout: {e}"))
}

fn start_game(kind: Kind, msg: &Value) -> Result<Game, String> {
    let seat = seat(&msg["seat"])?;
    let knobs = &msg["rules"];
    let text = |key: &str| knobs[key].as_str().unwrap_or("");
    if text("deal") != "upcard_offer" {
        return Err(format!(
            "rules with deal = {} are not supported (only \"upcard_offer\")",
            knobs["deal"]
        ));
    }
    let number = |key: &str| -> Result<u16, String> {
        knobs[key]
            .as_u64()
            .and_then(|n| u16::try_from(n).ok())
            .ok_or_else(|| format!("rules: `{key}` is {}, not an integer", knobs[key]))
    };
    let mut rules = Rules::new();
    rules.gin_bonus = number("gin_bonus")?;
    rules.undercut_bonus = number("undercut_bonus")?;
    rules.undercut_on_tie = knobs["undercut_on_tie"].as_bool().ok_or_else(|| {
        format!(
            "rules: `undercut_on_tie` is {}, not true or false",
            knobs["undercut_on_tie"]
        )
    })?;
    rules.big_gin_bonus = match &knobs["big_gin_bonus"] {
        Value::String(off) if off == "off" => None,
        _ => Some(number("big_gin_bonus")?),
    };
    rules.box_bonus = number("box_bonus")?;
    rules.game_target = number("game_target")?;
    rules.game_bonus = number("game_bonus")?;
    rules.shutout = match text("shutout") {
        "double_total" => Shutout::Double,
        "double_game_bonus" => Shutout::Flat(rules.game_bonus),
        _ => Shutout::Flat(0),
    };
    let rotation = if text("next_dealer") == "alternate" {
        DealerRotation::AlternateAfterScoredRound
    } else {
        DealerRotation::WinnerDeals
    };
    // Below 2^53 by the protocol; any bits make a seed.
    let seed = msg["seed"]
        .as_u64()
        .ok_or_else(|| format!("game_start: `seed` is {}, not an integer", msg["seed"]))?;
    let rng = StdRng::seed_from_u64(seed);
    let player: Box<dyn Strategy> = match kind {
        Kind::Mc(samples) => Box::new(MonteCarloBot::with_config(rng, {
            let mut config = McConfig::default();
            config.samples = samples;
            config
        })),
        Kind::Heuristic => Box::new(HeuristicBot::new()),
        Kind::Simple => Box::new(EaaiSimpleBot::new(rng)),
    };
    Ok(Game {
        seat,
        rules,
        rotation,
        player,
        hand: None,
    })
}

fn seat(v: &Value) -> Result<Player, String> {
    match v.as_str() {
        Some("A") => Ok(Player::One),
        Some("B") => Ok(Player::Two),
        _ => Err(format!("a seat that is not \"A\" or \"B\": {v}")),
    }
}

fn card(v: &Value) -> Result<Card, String> {
    v.as_str()
        .and_then(|s| s.parse::<Card>().ok())
        .ok_or_else(|| format!("not a card: {v}"))
}

fn cards(v: &Value) -> Result<Hand, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("not a list of cards: {v}"))?;
    let mut hand = Hand::EMPTY;
    for c in list {
        hand.insert(card(c)?);
    }
    Ok(hand)
}

/// ginlab's name of a card: rank then suit letter (`TH`).
fn name(card: Card) -> String {
    const RANKS: &str = "A23456789TJQK";
    const SUITS: &str = "CDHS";
    // jdh8's Display writes a suit glyph; find the card by parsing names.
    for r in RANKS.chars() {
        for s in SUITS.chars() {
            let n = format!("{r}{s}");
            if n.parse::<Card>().ok() == Some(card) {
                return n;
            }
        }
    }
    unreachable!("every card has a name")
}

/// One action at the table, as the events report it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    TakeUpcard,
    PassUpcard,
    Stock,
    Pile(Card),
    Discard(Card),
}

/// What the bot has seen of the hand being played.
struct HandLog {
    dealer: Player,
    upcard: Card,
    knock_limit: u8,
    cards: Hand,
    events: Vec<(Player, Act)>,
    /// The bot's own stock draws, in order.
    drawn: Vec<Card>,
    /// The bot's cards now, as far as the events tell (a stock draw shows
    /// its card at the next decision).
    now: Hand,
    draw_pending: bool,
}

impl HandLog {
    fn start(msg: &Value) -> Result<HandLog, String> {
        let upcard = match &msg["upcard"] {
            Value::Null => return Err("a hand without an upcard (eleven-card deal)".into()),
            c => card(c)?,
        };
        let hand = cards(&msg["cards"])?;
        let knock_limit = msg["knock_limit"]
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| format!("hand_start: knock_limit {}", msg["knock_limit"]))?;
        Ok(HandLog {
            dealer: seat(&msg["dealer"])?,
            upcard,
            knock_limit,
            cards: hand,
            events: Vec::new(),
            drawn: Vec::new(),
            now: hand,
            draw_pending: false,
        })
    }

    fn event(&mut self, msg: &Value, me: Player) -> Result<(), String> {
        let who = seat(&msg["seat"])?;
        let act = match msg["event"].as_str() {
            Some("upcard_taken") => Act::TakeUpcard,
            Some("upcard_passed") => Act::PassUpcard,
            Some("drew_stock") => Act::Stock,
            Some("took_pile") => Act::Pile(card(&msg["card"])?),
            Some("discarded") => Act::Discard(card(&msg["card"])?),
            // The hand ends; nothing is asked after these.
            _ => return Ok(()),
        };
        if who == me {
            match act {
                Act::TakeUpcard => {
                    self.now.insert(self.upcard);
                }
                Act::Pile(c) => {
                    self.now.insert(c);
                }
                Act::Stock => self.draw_pending = true,
                Act::Discard(c) => {
                    self.now.remove(c);
                }
                Act::PassUpcard => {}
            }
        }
        self.events.push((who, act));
        Ok(())
    }

    /// The deal the replay starts from: the bot's cards, its draws where it
    /// drew them, each card the opponent discarded without taking it from
    /// the pile in a slot of its hand (dealt or drawn) that it held at that
    /// time, and cards nobody has seen everywhere else.
    fn deal(&self, me: Player) -> Result<([Hand; 2], Vec<Card>), String> {
        // Opponent slots: 0..10 dealt, then one a stock draw.
        let mut slots: Vec<Option<Card>> = vec![None; 10];
        let mut held: Vec<usize> = (0..10).collect();
        let mut taken = Hand::EMPTY; // taken from the pile, still held
        // Per stock draw, in order: the bot's card, or the opponent's slot.
        let mut draws: Vec<Result<Card, usize>> = Vec::new();
        let mut mine = self.drawn.iter();
        for &(who, act) in &self.events {
            match (who == me, act) {
                (true, Act::Stock) => {
                    let c = *mine.next().ok_or("a stock draw of the bot's not seen")?;
                    draws.push(Ok(c));
                }
                (false, Act::Stock) => {
                    slots.push(None);
                    held.push(slots.len() - 1);
                    draws.push(Err(slots.len() - 1));
                }
                (false, Act::TakeUpcard) => {
                    taken.insert(self.upcard);
                }
                (false, Act::Pile(c)) => {
                    taken.insert(c);
                }
                (false, Act::Discard(c)) if !taken.remove(c) => {
                    let at = held
                        .iter()
                        .position(|&s| slots[s].is_none())
                        .ok_or_else(|| {
                            format!("the opponent discarded {} with no unseen card", name(c))
                        })?;
                    slots[held.remove(at)] = Some(c);
                }
                _ => {}
            }
        }
        let mut seen = self.cards;
        seen.insert(self.upcard);
        for c in self.drawn.iter().chain(slots.iter().flatten()) {
            seen.insert(*c);
        }
        let mut unseen = (!seen).into_iter();
        let mut fill = || unseen.next().ok_or("more cards than a deck");
        let mut opponent = Hand::EMPTY;
        for slot in slots.iter_mut() {
            if slot.is_none() {
                *slot = Some(fill()?);
            }
        }
        for slot in &slots[..10] {
            opponent.insert(slot.expect("filled"));
        }
        // The stock's last card is drawn first.
        let mut stock: Vec<Card> = Vec::with_capacity(31);
        for d in &draws {
            stock.push(match *d {
                Ok(c) => c,
                Err(s) => slots[s].expect("filled"),
            });
        }
        while stock.len() < 31 {
            stock.push(fill()?);
        }
        stock.reverse();
        let mut hands = [Hand::EMPTY; 2];
        hands[me as usize] = self.cards;
        hands[me.opponent() as usize] = opponent;
        Ok((hands, stock))
    }
}

fn decide(g: &mut Game, msg: &Value) -> Result<String, String> {
    let me = g.seat;
    let hand = g.hand.as_mut().ok_or("decide before hand_start")?;
    let state = &msg["state"];
    let legal: Vec<&str> = msg["legal"]
        .as_array()
        .ok_or("decide without legal")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let now = cards(&state["hand"])?;
    if hand.draw_pending {
        let new: Vec<Card> = (now - hand.now).into_iter().collect();
        let [c] = new[..] else {
            return Err(format!("after a stock draw, {} new cards", new.len()));
        };
        hand.drawn.push(c);
        hand.now.insert(c);
        hand.draw_pending = false;
    }
    if hand.now != now {
        return Err(format!(
            "the hand in `state` ({}) is not the one the events give",
            state["hand"]
        ));
    }
    // jdh8's hands end dead at two stock cards: the last discard's offer
    // (and the turn it starts, which must knock) is this bridge's own play.
    let top = state["pile"]
        .as_array()
        .and_then(|p| p.last())
        .map(card)
        .transpose()?;
    if let Some(answer) = last_chance(msg["decision"].as_str(), &legal, now, top, hand.knock_limit)
    {
        return Ok(answer);
    }
    let (hands, stock) = hand.deal(me)?;
    let mut rules = g.rules;
    rules.knock_limit = hand.knock_limit;
    let round = Round::from_deal(rules, hand.dealer, hands, hand.upcard, stock)
        .map_err(|e| format!("the rebuilt deal: {e:?}"))?;
    let score = |seat: &str| {
        state["scores"][seat]
            .as_u64()
            .and_then(|n| u16::try_from(n).ok())
            .ok_or_else(|| format!("state: `scores` is {}", state["scores"]))
    };
    let mut table = Table::new(round)
        .scores([score("A")?, score("B")?])
        .dealer_rotation(g.rotation);
    for (i, &(who, act)) in hand.events.iter().enumerate() {
        let phase = table.round().phase();
        let fits = match act {
            Act::TakeUpcard | Act::PassUpcard => phase == Phase::Upcard,
            Act::Stock | Act::Pile(_) => phase == Phase::Draw,
            Act::Discard(_) => phase == Phase::Discard,
        };
        if table.turn() != Some(who) || !fits {
            return Err(format!(
                "replay: event {} is not its seat's turn or does not fit the phase",
                i + 1
            ));
        }
        table
            .step(&mut Script(act))
            .map_err(|e| format!("replay: event {} was refused: {e:?}", i + 1))?;
    }
    // The rebuilt table must show what ginlab's state shows.
    let view = table.view(me);
    if table.turn() != Some(me) || view.hand() != now {
        return Err("replay: the rebuilt hand is not the bot's turn with its cards".into());
    }
    let pile: Vec<Card> = state["pile"]
        .as_array()
        .ok_or("state without a pile")?
        .iter()
        .map(card)
        .collect::<Result<_, _>>()?;
    if view.discard_pile() != pile.as_slice()
        || view.opponent_known() != cards(&state["opponent_known"])?
    {
        return Err(
            "replay: the rebuilt pile or opponent's known cards differ from `state`".into(),
        );
    }
    let answer = match msg["decision"].as_str() {
        Some("upcard") => match g.player.offer_upcard(&view) {
            UpcardAction::Take => "take".to_string(),
            UpcardAction::Pass => "pass".to_string(),
        },
        Some("draw") => match g.player.choose_draw(&view) {
            DrawAction::Stock => "stock".to_string(),
            DrawAction::TakeDiscard => "pile".to_string(),
        },
        Some("end_turn") => match g.player.play_turn(&view) {
            TurnAction::Discard(c) => format!("discard {}", name(c)),
            // ginlab spreads the knocker's least-deadwood arrangement; a
            // knock ginlab does not offer (none should) is played as the
            // discard it makes.
            TurnAction::Knock { discard, .. } => {
                let knock = format!("knock {}", name(discard));
                if legal.contains(&knock.as_str()) {
                    knock
                } else {
                    format!("discard {}", name(discard))
                }
            }
            TurnAction::BigGin(_) => "big_gin".to_string(),
        },
        other => return Err(format!("a decision this bot does not play: {other:?}")),
    };
    if !legal.contains(&answer.as_str()) {
        return Err(format!(
            "{}'s move `{answer}` is not among {legal:?}",
            g.player.name()
        ));
    }
    Ok(answer)
}

/// The play at the stock's end when `last_discard_action` is on, which
/// jdh8's engine does not have: take the last discard when the hand can
/// then knock, and knock with the least deadwood (big gin first). `None`
/// for every other decision.
fn last_chance(
    decision: Option<&str>,
    legal: &[&str],
    hand: Hand,
    top: Option<Card>,
    limit: u8,
) -> Option<String> {
    let least_after = |hand: Hand, shed: Card| {
        let mut rest = hand;
        rest.remove(shed);
        deadwood(rest)
    };
    match decision {
        Some("last_chance") => {
            // The offered card is the pile's top.
            let mut with = hand;
            if let Some(top) = top {
                with.insert(top);
            }
            let knock = with.into_iter().any(|c| least_after(with, c) <= limit);
            Some(if knock { "pile" } else { "pass" }.to_string())
        }
        Some("end_turn") if !legal.iter().any(|m| m.starts_with("discard")) => {
            if legal.contains(&"big_gin") {
                return Some("big_gin".to_string());
            }
            legal
                .iter()
                .filter_map(|m| {
                    let c: Card = m.strip_prefix("knock ")?.parse().ok()?;
                    Some((least_after(hand, c), *m))
                })
                .min_by_key(|&(d, _)| d)
                .map(|(_, m)| m.to_string())
        }
        _ => None,
    }
}

/// A seat that plays back one recorded action.
struct Script(Act);

impl Strategy for Script {
    fn offer_upcard(&mut self, _: &View<'_>) -> UpcardAction {
        match self.0 {
            Act::TakeUpcard => UpcardAction::Take,
            _ => UpcardAction::Pass,
        }
    }

    fn choose_draw(&mut self, _: &View<'_>) -> DrawAction {
        match self.0 {
            Act::Pile(_) => DrawAction::TakeDiscard,
            _ => DrawAction::Stock,
        }
    }

    fn play_turn(&mut self, _: &View<'_>) -> TurnAction {
        match self.0 {
            Act::Discard(c) => TurnAction::Discard(c),
            _ => unreachable!("the replay checks each action's phase"),
        }
    }

    fn choose_layoff(&mut self, _: &View<'_>) -> Option<Layoff> {
        None
    }
}
